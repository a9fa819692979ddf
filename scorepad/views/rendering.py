"""The one way a view answers with a page or its partial, and the one htmx-aware redirect.

A plain request gets the whole page; an htmx request gets the named partial of the same
template (``page.html#name``), so both render the very same markup. A history restore (htmx
re-fetching a page it had no snapshot of) wants the whole page, htmx header or not.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect


def wants_partial(request: HttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


def page_or_partial(
    request: HttpRequest, template: str, partial: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """``template`` for a plain request, ``template#partial`` for htmx; varies on HX-Request."""
    name = f"{template}#{partial}" if wants_partial(request) else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def go_to(request: HttpRequest, url: str) -> HttpResponse:
    """A redirect that htmx follows as a whole page, not swapped into the part that asked."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
