"""Sign up and log in, both limited (``scorepad.throttle``); logging out is Django's own view (by POST)."""

from typing import Any

from django.contrib import admin
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse

from .. import throttle
from ..forms.accounts import THROTTLED, LimitedAuthenticationForm
from .rendering import HtmxHttpRequest, local_path


def _safe_next(request: HtmxHttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    return local_path(target, host=request.get_host(), secure=request.is_secure())


class LimitedLoginView(LoginView):
    authentication_form = LimitedAuthenticationForm

    def get_redirect_url(self, request: HttpRequest | None = None) -> str:
        """Django's check (this site only), and a path besides ("-1" is no address: the default page)."""
        request = request or self.request
        target = super().get_redirect_url(request)
        return local_path(target, host=request.get_host(), secure=request.is_secure()) or ""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        throttle.remember_device(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, THROTTLED):
            response.status_code = throttle.TOO_MANY_REQUESTS
        return response


def admin_login(request: HtmxHttpRequest) -> HttpResponseBase:
    """The admin's own log-in view (``LimitedAdminAuthenticationForm``), answering a refusal with
    429 like ours, and remembering the browser after a log-in."""
    response = admin.site.login(request)
    form = (getattr(response, "context_data", None) or {}).get("form")
    if isinstance(form, AuthenticationForm) and form.has_error(NON_FIELD_ERRORS, THROTTLED):
        response.status_code = throttle.TOO_MANY_REQUESTS
    elif request.method == "POST" and request.user.is_authenticated and isinstance(response, HttpResponse):
        throttle.remember_device(request, response, request.user.get_username())
    return response


def signup(request: HtmxHttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    context: dict[str, Any] = {"form": form, "next": _safe_next(request) or ""}
    if request.method == "POST":
        if refusal := throttle.signup_refusal(request):
            # Not read: nothing sent is checked or echoed back.
            context.update(form=UserCreationForm(), refusal=refusal)
            return render(request, "registration/signup.html", context, status=throttle.TOO_MANY_REQUESTS)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return HttpResponseRedirect(_safe_next(request) or reverse("home"))
    return render(request, "registration/signup.html", context)
