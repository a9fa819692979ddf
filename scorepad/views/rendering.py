"""The one way a view answers with a page or its partial, and the one htmx-aware redirect.

A plain request gets the whole page; an htmx request gets the named partial of the same
template (``page.html#name``), so both render the very same markup. A history restore (htmx
re-fetching a page it had no snapshot of) wants the whole page, htmx header or not.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
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
