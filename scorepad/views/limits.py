"""The pages of a limit reached: the 429 page (or its htmx banner) in words with ``Retry-After``,
and ``@limited``, a view spending a CPU budget. What is counted, and how, is ``scorepad.throttle``:
it only counts, and the views draw."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from .. import throttle
from .rendering import HtmxHttpRequest, page_or_partial, wants_partial

View = Callable[..., HttpResponse]


def always(request: HtmxHttpRequest) -> bool:
    return True


def limited(name: str, *, when: Callable[[HtmxHttpRequest], bool] = always) -> Callable[[View], View]:
    """A view that spends one use of the budget ``name`` per request (or per request for which
    ``when`` holds), and over it answers 429 with the refusal in words and ``Retry-After``."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            over = throttle.spend(request, name) if when(request) else None
            if over is not None:
                return too_many_requests(request, over.words, over.seconds)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def too_many_requests(request: HtmxHttpRequest, words: str, seconds: int) -> HttpResponse:
    """The 429 page, or for htmx its banner (``429.html#banner``), swapped over the page's own
    error banner (``base.html``) so the table the player was on stays as it was."""
    context = {"refusal": words, "back": _way_back(request)}
    response = page_or_partial(request, "429.html", "banner", context, status=throttle.TOO_MANY_REQUESTS)
    response["Retry-After"] = str(seconds)
    if wants_partial(request):
        response["HX-Retarget"] = "#request-error"
        response["HX-Reswap"] = "outerHTML"
        response["HX-Push-Url"] = "false"  # the refused URL is not the page now shown
    return response


def _way_back(request: HtmxHttpRequest) -> str:
    """Where the page's link leads: the same address for a GET (to try again), the page the form
    was sent from for a POST (the form's own URL answers only POST), else the front page."""
    if request.method == "GET":
        return request.get_full_path()
    came_from = request.META.get("HTTP_REFERER", "")
    if url_has_allowed_host_and_scheme(came_from, {request.get_host()}, request.is_secure()):
        return came_from
    return reverse("home")


def posted(request: HtmxHttpRequest) -> bool:
    return request.method == "POST"


def exchange_limited(
    name: str, *, when: Callable[[HtmxHttpRequest], bool] = always
) -> Callable[[View], View]:
    """A view that counts one restore or import (``name`` "restore") or one export ("export") per
    request (or per request for which ``when`` holds), and over its limit answers 429 in words."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            refusal = throttle.exchange_refusal(request, name) if when(request) else None
            if refusal is not None:
                return too_many_requests(request, *refusal)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
