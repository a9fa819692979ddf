"""At most ``REQUESTS_AT_ONCE`` event streams of a web worker read the database at once.

Ordinary requests wait for one of the worker's request threads (``request_threads``); an event
stream lives on the event loop, and each time it reads the database (to draw a phone's screen
after a card) it takes a slot here first (``slot``), so fifty tables' phones redrawing at once
never open more connections than PostgreSQL allows. Waiting for a slot costs nothing: it is a
coroutine waiting on the loop. As Django middleware it also holds a slot while a stream's request
passes the other middleware (the session and the account are read from the database).
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
async def slot() -> Any:
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
        async with slot():
            return await self.get_response(request)
