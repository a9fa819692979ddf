"""At most ``REQUESTS_AT_ONCE`` requests of a web worker run Django's own (sync) code at once.

Under gunicorn's threaded workers the thread count bounded this: four requests per worker, four
database connections. Under the ASGI worker each sync view runs in a thread of its own, as many at
once as arrive, each with its own database connection, and a burst (fifty tables sitting down at
once) would open more connections than PostgreSQL allows. So a request waits here, on the event
loop, costing nothing, for one of the worker's slots. An open event stream holds no slot: it takes
one only while it reads the database (``slot``).
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
