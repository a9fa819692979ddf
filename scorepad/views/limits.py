"""The pages of a limit reached: the 429 page (or its htmx banner) in words with ``Retry-After``,
and ``@limited``, a view spending a CPU budget. What is counted, and how, is ``scorepad.throttle``:
it only counts, and the views draw."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpResponse
from django.urls import reverse
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme

from .. import throttle
from ..live.streams import sse_event, sse_text
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


STREAM_REFUSED_SECONDS = 60  # a phone refused a stream asks again after this


async def stream_refused(request: HtmxHttpRequest, words: str, event: str) -> HttpResponse:
    """An event stream over its cap (``live.stream_caps``). A browser's EventSource reads no body
    but a 200's, and on any other status htmx's SSE extension retries within a second, then ever
    less often, showing nothing. So an EventSource (``Accept: text/event-stream``) is answered 200
    with the words as the stream's ``event`` (swapped in where its screen was) and told to come back
    only after ``STREAM_REFUSED_SECONDS``, then the stream ends; anything else gets the 429 page."""
    if "text/event-stream" in request.headers.get("Accept", ""):
        body = f"retry: {STREAM_REFUSED_SECONDS * 1000}\n\n" + sse_event(event, sse_text(escape(words)))
        response = HttpResponse(body, content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["Retry-After"] = str(STREAM_REFUSED_SECONDS)
        return response
    return await sync_to_async(too_many_requests)(request, words, STREAM_REFUSED_SECONDS)
