"""Log-in forms refused without checking the password while a limit holds (``scorepad.throttle``)."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from .. import throttle

THROTTLED = "throttled"  # the error code a refused log-in carries


class LimitedAuthenticationForm(AuthenticationForm):
    """Django's log-in form, refused without checking the password while a limit holds."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        assert self.request is not None  # the log-in views always pass it
        if not (username and self.cleaned_data.get("password")):
            return super().clean()  # a blank field: no password is checked, nothing to count
        try:
            with throttle.password_check(self.request, username):
                cleaned = super().clean()  # a wrong password raises here, and stays counted
        except throttle.Refused as refusal:
            raise ValidationError(str(refusal), code=THROTTLED) from None
        throttle.login_succeeded(self.request, username)
        return cleaned


class LimitedAdminAuthenticationForm(LimitedAuthenticationForm, AdminAuthenticationForm):
    """The admin's log-in form: the same passwords, so the same limits."""
