"""A database that stops answering (a restart, a failover, SQLite busy past its timeout) gets a
503 that says so and asks to retry, instead of the 500 page for a fault in the app. A request body
larger than the largest upload the site takes (``REQUEST_BODY_MAX_BYTES``) gets a 413 in words
before it is read: ``BodyLimit`` under the ASGI server, ``BodyLimitMiddleware`` under a WSGI one."""

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable for %s %s: %s", request.method, request.path, exception)
        # Rendered without the request: the user and the session live in that database too.
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


# -- request bodies -------------------------------------------------------------------------------

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def too_big_page() -> bytes:
    """The 413 page, rendered with no request (``templates/413.html``)."""
    words = render_to_string("413.html", {"limit": f"{settings.REQUEST_BODY_MAX_BYTES:,}"})
    return words.encode()


def _too_big(length: str | bytes | None, limit: int | None = None) -> bool:
    """Whether a Content-Length says more than ``limit`` bytes (``REQUEST_BODY_MAX_BYTES`` unless
    given); one that is no number is left to the server and Django, which refuse it. The one check
    of both doors: ``BodyLimitMiddleware`` (WSGI) and ``BodyLimit`` (ASGI)."""
    if length is None:
        return False
    text = length.decode("latin-1") if isinstance(length, bytes) else length
    text = text.strip()
    cap = settings.REQUEST_BODY_MAX_BYTES if limit is None else limit
    return text.isascii() and text.isdigit() and int(text) > cap


class BodyLimitMiddleware:
    """Under a WSGI server: a request whose Content-Length passes ``REQUEST_BODY_MAX_BYTES`` is a
    413 in words before its body is read. (A WSGI request without one has no body for Django.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _too_big(request.META.get("CONTENT_LENGTH")):
            logger.warning("request body over the cap refused: %s %s", request.method, request.path)
            return HttpResponse(too_big_page(), status=413)
        return self.get_response(request)


class BodyLimit:
    """The ASGI application in front of the site's (``pinochle_site.asgi``): the server hands each
    request's body over as it arrives, and the site would write all of it to a temporary file
    before Django saw the request. A Content-Length over ``max_bytes`` is answered 413 at once, and
    a body streamed without one is cut off as soon as it passes ``max_bytes``: the application is
    told the client left, and the 413 goes out instead of its answer."""

    def __init__(self, app: ASGIApp, *, max_bytes: int | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = settings.REQUEST_BODY_MAX_BYTES if self.max_bytes is None else self.max_bytes
        if _too_big(dict(scope.get("headers") or []).get(b"content-length"), limit):
            await self._refuse(send)
            return
        received = 0
        over = started = False

        async def counted() -> Message:
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                over = True
                return {"type": "http.disconnect"}  # the application stops reading and answers nothing
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, watched)
        if over and not started:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        logger.warning("request body over the cap refused before it was read")
        page = await sync_to_async(too_big_page, thread_sensitive=False)()
        headers = [(b"content-type", b"text/html; charset=utf-8"), (b"connection", b"close")]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": page})
