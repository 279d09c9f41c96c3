"""The opaque name of a signed-in session that the service worker keys its offline pages to.

In the shared core so an app's template tag (the bell's data) and the project's middleware (the
``X-Pocket-Scope`` header) derive it the same way.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.crypto import salted_hmac


def offline_scope(request: HttpRequest) -> str:
    """Name the signed-in session opaquely for the worker ("" when nobody is signed in).

    Derived from the session key (rotated at every sign-in), so an agenda kept in one session is never
    shown in the next, even the same student's; opaque, so the page never learns the session key itself.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    session = getattr(request, "session", None)
    session_key = getattr(session, "session_key", None) or ""
    return salted_hmac("pocket.offline-scope", f"{user.pk}:{session_key}").hexdigest()[:24]
