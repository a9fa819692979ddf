"""Open event streams are capped per table seat, per address and per process, and refused in words."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from scorepad.live import stream_caps
from scorepad.views import tables as tables_views
from tests.views.test_club_standings_stream import Screen, _events_url, run_alone
from tests.views.test_club_standings_stream import event as event  # a fixture
from tests.views.test_club_standings_stream import roster as roster  # a fixture
from tests.views.test_tables import open_table

pytestmark = pytest.mark.django_db(transaction=True)
EVENT_STREAM = {"Accept": "text/event-stream"}


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


async def _open(cookie_name: str, cookie: str, table_id: int) -> tuple[Any, AsyncIterator[Any]]:
    """A phone's stream, once its first chunk came (it holds its place from then on)."""
    client = AsyncClient()
    client.cookies[cookie_name] = cookie
    response = await client.get(reverse("table_events", args=[table_id]), headers=EVENT_STREAM)
    assert response.status_code == 200
    stream = response.streaming_content.__aiter__()
    first = await asyncio.wait_for(stream.__anext__(), 10)
    assert (first.decode() if isinstance(first, bytes) else first).startswith("retry:")
    return response, stream


async def _close(opened: tuple[Any, AsyncIterator[Any]]) -> None:
    """The phone goes: as Django's ASGI handler does, the stream is closed, then its response."""
    response, stream = opened
    await stream.aclose()
    await sync_to_async(response.close)()


async def _ask(cookie_name: str, cookie: str, table_id: int, **headers: str) -> Any:
    client = AsyncClient()
    client.cookies[cookie_name] = cookie
    return await client.get(reverse("table_events", args=[table_id]), headers=headers)


def test_a_seat_past_its_streams_is_told_in_words_and_to_come_back_later(settings):
    settings.STREAMS_PER_SEAT = 2
    table, phones = open_table(bots=2)
    name = f"table-{table.pk}"
    cookie = phones[0].cookies[name].value

    async def run() -> None:
        streams = [await _open(name, cookie, table.pk) for _ in range(2)]
        try:
            refused = await _ask(name, cookie, table.pk, **EVENT_STREAM)
            assert refused.status_code == 200  # an EventSource reads no other status's body
            body = refused.content.decode()
            assert body.startswith(f"retry: {60 * 1000}\n\n")
            assert "event: screen" in body
            assert "This seat already has 2 screens" in body
            plain = await _ask(name, cookie, table.pk)
            assert plain.status_code == 429
            assert "This seat already has 2 screens" in plain.content.decode()
            assert plain["Retry-After"] == "60"
            await _close(streams.pop())  # one phone goes: its place is free again
            streams.append(await _open(name, cookie, table.pk))
        finally:
            for opened in streams:
                await _close(opened)

    run_alone(run())
    assert stream_caps.open_streams() == 0


def test_an_address_past_its_streams_is_refused_whatever_the_seats(settings):
    settings.STREAMS_PER_ADDRESS = 2
    table, phones = open_table(bots=1)
    name = f"table-{table.pk}"
    cookies = [phone.cookies[name].value for phone in phones[:3]]

    async def run() -> None:
        streams = [await _open(name, cookie, table.pk) for cookie in cookies[:2]]
        try:
            refused = await _ask(name, cookies[2], table.pk, **EVENT_STREAM)
            assert "Your network already has 2 screens" in refused.content.decode()
        finally:
            for opened in streams:
                await _close(opened)
        accepted = await _open(name, cookies[2], table.pk)
        await _close(accepted)

    run_alone(run())
    assert stream_caps.open_streams() == 0


def test_the_process_caps_every_stream_together(settings, monkeypatch):
    """And a stream over it is refused before it reads its table and seat: thousands of refused
    streams must not cost a database read each, as pages do."""
    settings.STREAMS_PER_PROCESS = 1
    table, phones = open_table(bots=2)
    name = f"table-{table.pk}"
    cookie = phones[0].cookies[name].value

    def read(*args: object) -> None:
        raise AssertionError("a refused stream read its table and seat")

    async def run() -> None:
        opened = await _open(name, cookie, table.pk)
        try:
            monkeypatch.setattr(tables_views, "_seated", read)
            refused = await _ask(name, cookie, table.pk, **EVENT_STREAM)
            assert "as many screens as it can" in refused.content.decode()
        finally:
            await _close(opened)

    run_alone(run())
    assert stream_caps.open_streams() == 0


def test_a_rooms_standings_screens_are_capped_per_address(settings, event):
    settings.STREAMS_PER_ADDRESS = 1
    url = _events_url(event)

    async def run() -> None:
        response = await AsyncClient().get(url, headers=EVENT_STREAM)
        screen = Screen(response)
        try:
            assert "round 1 being played" in await screen.next_standings(10)
            refused = (await AsyncClient().get(url, headers=EVENT_STREAM)).content.decode()
            assert "event: standings" in refused
            assert "Your network already has 1 screens" in refused
        finally:
            await screen.close()
            await sync_to_async(response.close)()
        again = await AsyncClient().get(url, headers=EVENT_STREAM)
        screen = Screen(again)
        try:
            assert "round 1 being played" in await screen.next_standings(10)
        finally:
            await screen.close()
            await sync_to_async(again.close)()

    run_alone(run())
    assert stream_caps.open_streams() == 0


def test_a_place_is_given_back_once_and_a_response_closed_unstarted_gives_it_back(settings):
    settings.STREAMS_PER_PROCESS = 1
    place = stream_caps.take(address="192.0.2.1", seat="1:0")
    assert isinstance(place, stream_caps.Place)
    assert isinstance(stream_caps.take(address="192.0.2.2"), str)

    async def never() -> Any:
        yield ""

    response = stream_caps.StreamsResponse(place, never())
    response.close()
    response.close()
    place.give_back()
    assert stream_caps.open_streams() == 0
    assert stream_caps.open_streams("address:192.0.2.1") == 0
    again = stream_caps.take(address="192.0.2.1")
    assert isinstance(again, stream_caps.Place)
    again.give_back()
