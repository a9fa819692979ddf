"""The one way a view answers with a page or its partial, and the one htmx-aware redirect.

A plain request gets the whole page; an htmx request gets the named partial of the same
template (``page.html#name``), so both render the very same markup. A history restore (htmx
re-fetching a page it had no snapshot of) wants the whole page, htmx header or not.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as our views get it: ``HtmxMiddleware`` has set ``htmx`` (falsy without htmx).

    django-htmx's documented way to type views; annotate a view's ``request`` with it and read
    ``request.htmx`` directly.
    """

    htmx: HtmxDetails


def wants_partial(request: HtmxHttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


def page_or_partial(
    request: HtmxHttpRequest, template: str, partial: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """``template`` for a plain request, ``template#partial`` for htmx; varies on HX-Request."""
    name = f"{template}#{partial}" if wants_partial(request) else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def go_to(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """A redirect that htmx follows as a whole page, not swapped into the part that asked."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def signed_in(request: HtmxHttpRequest) -> User:
    """The user of a ``login_required`` view (never the anonymous one there)."""
    user = request.user
    assert isinstance(user, User), "signed_in is for views behind login_required"
    return user


WAY_BACK_MAX = 2000  # longer than any address of this site
_UNSAFE_IN_PATH = re.compile(r"[\x00-\x20\x7f\\]")  # control characters, spaces and backslashes


def local_path(target: object, *, host: str, secure: bool) -> str | None:
    """``target`` (a ``next`` field or parameter) if it is a path on this site ("/daily/"), else
    None: never another host ("//host", "https://host"), a scheme such as ``javascript:``, a
    relative word that ``redirect`` would take for a URL name ("-1", "home"), or control characters.
    ``host`` and ``secure`` are the request's (``get_host()``, ``is_secure()``)."""
    if not isinstance(target, str) or not 0 < len(target) <= WAY_BACK_MAX:
        return None
    if not target.startswith("/") or target.startswith("//") or _UNSAFE_IN_PATH.search(target):
        return None
    allowed = url_has_allowed_host_and_scheme(target, {host}, secure)
    return target if allowed else None
