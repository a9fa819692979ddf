"""The installable app: the manifest, the service worker served from the root, the offline page."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from tests.sample_games import make_user

pytestmark = pytest.mark.django_db


def test_the_manifest_makes_the_app_installable(client):
    response = client.get("/manifest.webmanifest")

    manifest = json.loads(response.content)
    assert response["Content-Type"] == "application/manifest+json"
    assert manifest["name"] == "Pinochle Table"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _), icon in icons.items():
        assert icon["type"] == "image/png"
        png = Path(settings.BASE_DIR, "static", icon["src"].removeprefix(settings.STATIC_URL))
        width, height = int.from_bytes(png.read_bytes()[16:20]), int.from_bytes(png.read_bytes()[20:24])
        assert f"{width}x{height}" == sizes  # the PNG header says the size the manifest claims


def worker_config(body: str) -> dict:
    return json.loads(body.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")

    body = response.content.decode()
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    config = worker_config(body)
    assert config["offline"] == reverse("offline")
    assert "/static/css/app.css" in config["precache"]
    assert "/static/django_htmx/htmx-2.min.js" in config["precache"]
    assert 'request.headers.has("HX-Request")' in body  # htmx answers go straight to the network
    assert 'request.method !== "GET"' in body  # so do forms


def test_every_page_links_the_manifest_and_registers_the_worker_from_a_file(client):
    body = client.get("/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    assert 'src="/static/js/pwa.js"' in body
    assert 'data-service-worker="/sw.js"' in body


def test_the_offline_page_names_nobody_and_holds_no_csrf_token(client):
    client.force_login(make_user("alice"))

    response = client.get(reverse("offline"))

    body = response.content.decode()
    assert response.status_code == 200
    assert "No connection" in body
    assert "alice" not in body
    assert "csrf" not in body.lower()
    assert "<script" not in body


def test_in_production_the_worker_caches_the_hashed_names(client, settings, tmp_path):
    """As deployed: collected by the manifest storage, so a changed file means a new name and cache."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)

    config = worker_config(client.get("/sw.js").content.decode())

    assert config["static"] == "/static/"
    assert any(re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", url) for url in config["precache"])
    assert all(re.search(r"\.[0-9a-f]{12}\.\w+$", url) for url in config["precache"])
