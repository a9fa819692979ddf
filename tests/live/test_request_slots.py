"""Under the ASGI worker at most REQUESTS_AT_ONCE event streams of a web worker pass Django's
middleware at once (each reads the session with a connection of its own); the others wait on the
event loop for a slot."""

from __future__ import annotations

import asyncio

from django.http import HttpResponse
from django.test import RequestFactory

from scorepad.live import request_slots


def test_requests_beyond_the_slots_wait_for_one(monkeypatch):
    monkeypatch.setattr(request_slots, "REQUESTS_AT_ONCE", 3)
    running, most = 0, 0

    async def view(request):
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.01)
        running -= 1
        return HttpResponse("ok")

    middleware = request_slots.RequestSlotsMiddleware(view)

    async def burst() -> list[int]:
        answers = await asyncio.gather(*(middleware(RequestFactory().get("/")) for _ in range(10)))
        return [answer.status_code for answer in answers]

    assert asyncio.run(burst()) == [200] * 10
    assert most == 3


def test_under_wsgi_the_request_passes_straight_on():
    middleware = request_slots.RequestSlotsMiddleware(lambda request: HttpResponse("ok"))
    assert middleware(RequestFactory().get("/")).status_code == 200
