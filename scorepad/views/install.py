"""The installable app: its web manifest, its service worker at the root scope, and the offline page.

The worker (``templates/pwa/sw.js``) is rendered, not a static file, for two reasons: it must be
served from ``/sw.js`` to control every page (a worker's scope is its own folder), and it lists the
static files by their hashed names, so a deploy that changes one changes the worker and its cache.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from .rendering import HtmxHttpRequest

# The light theme's colours (static/css/app.css): the splash screen and the phone's status bar.
BACKGROUND = "#f6f4ee"
THEME = "#1f6f4a"
ICONS = [
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
]
# What the worker keeps for offline use and fast starts: every page's styles, scripts and icons.
PRECACHED = [
    "css/app.css",
    "css/scorepad.css",
    "css/history.css",
    "css/meld.css",
    "css/scoreboard.css",
    "js/app.js",
    "js/pwa.js",
    "js/outbox.js",  # the game page's hands waiting to be sent, which must work offline
    "js/provisional.js",  # and their provisional scores
    "django_htmx/htmx-2.min.js",  # what {% htmx_script %} serves
    *(icon for icon, _, _ in ICONS),
]


@require_safe
@cache_control(max_age=3600)
def manifest(request: HtmxHttpRequest) -> HttpResponse:
    data = {
        "name": "Pinochle Table",
        "short_name": "Pinochle",
        "description": "Scorepad and meld calculator for pinochle at a real table.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@require_safe
@cache_control(no_cache=True)  # the browser checks for a new worker on every visit
def service_worker(request: HtmxHttpRequest) -> HttpResponse:
    precache = [static(path) for path in PRECACHED]
    offline_url = reverse("offline")
    version = hashlib.blake2b(json.dumps([offline_url, *precache]).encode(), digest_size=6).hexdigest()
    config = {
        "cache": f"pinochle-{version}",
        "offline": offline_url,
        "precache": precache,
        "static": settings.STATIC_URL,  # not static(""): the manifest storage knows files, not folders
        "game_page": reverse("game", args=[0]),  # kept for offline use, with 0 for any game's id
        "logout": reverse("logout"),  # logging out drops the kept game pages
    }
    response = render(
        request,
        "pwa/sw.js",
        {"config": mark_safe(json.dumps(config))},  # JSON is a JavaScript literal; no HTML here
        content_type="text/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline(request: HtmxHttpRequest) -> HttpResponse:
    """What the worker shows when a page cannot be reached. It is cached once, so it names nobody."""
    return render(request, "pwa/offline.html")
