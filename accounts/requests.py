"""Request types for views that only a signed-in student reaches, for the type checker.

``login_required`` and DRF's default permission (``IsAuthenticated``) let only a signed-in user through, so
in such a view ``request.user`` is a :class:`~accounts.models.User`, never the anonymous user. Annotating
the view's request with these types says so; at run time they are Django's and DRF's own request classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from rest_framework.request import Request

if TYPE_CHECKING:
    from accounts.models import User

    class AuthedHttpRequest(HttpRequest):
        user: User

    class AuthedRequest(Request):
        @property
        def user(self) -> User: ...

        @user.setter
        def user(self, value: User) -> None: ...
else:
    AuthedHttpRequest = HttpRequest
    AuthedRequest = Request

__all__ = ["AuthedHttpRequest", "AuthedRequest"]
