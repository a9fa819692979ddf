from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from scorepad.views import accounts

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("scorepad.urls")),
]
