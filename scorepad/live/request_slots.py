"""At most ``REQUESTS_AT_ONCE`` event streams of a web worker start at once.

Ordinary requests wait for one of the worker's request threads (``request_threads``), and so do
an open stream's reads (``in_request_thread``). But a stream's own request passes Django's
middleware on Django's ASGI handler, in a thread of its own that reads the session and the account
with a connection of its own: fifty tables' phones reconnecting together after a restart would
open more connections than PostgreSQL allows. So a stream's request waits here first, on the event
loop, costing nothing, for one of the worker's slots, and gives it back once its response starts.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase

REQUESTS_AT_ONCE = int(os.getenv("REQUESTS_AT_ONCE") or 8)
_slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


@asynccontextmanager
async def _slot() -> Any:
    loop = asyncio.get_running_loop()
    semaphore = _slots.get(loop)
    if semaphore is None:
        semaphore = _slots[loop] = asyncio.Semaphore(REQUESTS_AT_ONCE)
    async with semaphore:
        yield


class RequestSlotsMiddleware:
    """First in the chain: under ASGI the request waits for a slot; under WSGI (tests, runserver)
    the server's threads bound it already and this passes the request on."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self._waited(request)
        return self.get_response(request)

    async def _waited(self, request: HttpRequest) -> HttpResponseBase:
        async with _slot():
            return await self.get_response(request)
