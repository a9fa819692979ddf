from django.urls import path

from .views import home, meld

urlpatterns = [
    path("", home.home, name="home"),
    path("meld/", meld.meld_calculator, name="meld"),
]
