"""Production error pages (DEBUG off): the site's own 404 and 500, never Django's debug page."""

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_a_missing_game_renders_the_sites_404_page_with_its_nav(client, settings):
    settings.DEBUG = False
    client.force_login(User.objects.create_user("ann", password="pw-ann-12345"))
    response = client.get(reverse("game", args=[99999]))
    assert response.status_code == 404
    assert "404.html" in [template.name for template in response.templates]
    page = response.content.decode()
    assert "Page not found" in page
    assert "Log out" in page  # the top bar still leads home and out
    assert "Traceback" not in page
    assert "URLconf" not in page


def test_the_500_page_renders_without_a_request_context():
    response = server_error(RequestFactory().get("/games/1/"))
    assert response.status_code == 500
    assert b"Something went wrong" in response.content
    assert b'href="/"' in response.content
