"""Forms of the account pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _

from accounts.models import validate_time_zone
from accounts.time_zones import time_zone_choices, time_zone_resolve
from smartmate.platform.ratelimit import RateLimited


class GatedLoginFormMixin:
    """Shows the login gate's refusal as a form error (code ``rate_limited``) instead of an exception."""

    def clean(self):
        try:
            return super().clean()  # type: ignore[misc]  # a mixin: the form it is mixed into has clean()
        except RateLimited as exc:
            raise forms.ValidationError(exc.message, code=RateLimited.code) from None


class LoginForm(GatedLoginFormMixin, AuthenticationForm):
    username = forms.CharField(label=_("Username"), max_length=150,
                               widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}))
    password = forms.CharField(label=_("Password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))



class AdminLoginForm(GatedLoginFormMixin, AdminAuthenticationForm):
    """The admin's login form behind the same gate as every other sign-in."""


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's form (old password, new password twice), with the browser hints set.

    The old password is checked by ``user_password_change`` behind the login gate, never here:
    Django's own check would let a borrowed session guess it without limit.
    """

    def clean_old_password(self) -> str:
        return self.cleaned_data["old_password"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["old_password"].widget.attrs.update(autocomplete="current-password")
        for name in ("new_password1", "new_password2"):
            self.fields[name].widget.attrs.update(autocomplete="new-password")


USERNAME_MIN, USERNAME_MAX = 2, 45  # two characters: 小明 is a whole name


class UsernameValidator(UnicodeUsernameValidator):
    # Django's own wording reads "该变量…" in Chinese and forgets that letters include 汉字.
    message = _("A username may contain only letters (Chinese characters too), digits and @ . + - _.")


USERNAME_ERRORS: dict[str, Any] = {  # formatted with the validator's limit_value when shown
    "min_length": _("A username needs at least %(limit_value)d characters."),
    "max_length": _("A username has at most %(limit_value)d characters."),
}


class RegisterForm(forms.Form):
    username = forms.CharField(label=_("Username"), min_length=USERNAME_MIN, max_length=USERNAME_MAX,
                               validators=[UsernameValidator()], error_messages=USERNAME_ERRORS,
                               widget=forms.TextInput(attrs={"autocomplete": "username"}))
    email = forms.EmailField(label=_("Email (optional)"), required=False)
    password = forms.CharField(label=_("Password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password_again = forms.CharField(label=_("Password again"), strip=False,
                                     widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean(self):
        cleaned = super().clean()
        assert cleaned is not None  # a form's clean() returns its cleaned_data
        if cleaned.get("password") and cleaned.get("password") != cleaned.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return cleaned


class TimeZoneField(forms.CharField):
    """A time zone picked from the common list, or typed as students name it ("北京时间", "CST", "UTC+8").

    The form sets the select's options (``time_zone_choices``); any IANA name still passes, so a zone
    outside the list that was saved before stays valid.
    """

    widget = forms.Select

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=64, validators=[validate_time_zone], **kwargs)

    def to_python(self, value: Any) -> str:
        text = super().to_python(value) or ""
        return time_zone_resolve(text) or text

    def offer(self, current: str) -> None:
        """Show the common zones, with ``current`` (what the student has or just typed) among them."""
        self.widget.choices = time_zone_choices(time_zone_resolve(current or "") or current)
