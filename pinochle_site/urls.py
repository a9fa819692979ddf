from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from scorepad.forms.accounts import LimitedAdminAuthenticationForm
from scorepad.views import accounts

admin.site.login_form = LimitedAdminAuthenticationForm


def health(request: HttpRequest) -> HttpResponse:
    """A load balancer's check, and the load benchmark's bare view: no database, no template."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("health/", health, name="health"),
    path("admin/login/", accounts.admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("scorepad.urls")),
]
