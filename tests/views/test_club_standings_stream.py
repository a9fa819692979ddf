"""Club night, the room's standings pushed over an event stream: every write that can change the
standings tells the room once committed; each server reads them once per change for all its
screens and sends the partial only when it changed; a screen reconnecting is sent only what it
has not got; with JavaScript off the page comes again by itself."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, Client
from django.urls import reverse

from scorepad.live import bus
from scorepad.models import ClubEvent, ClubTable
from scorepad.selectors import club_director as director_selectors
from scorepad.selectors.club_director import standings_fingerprint, standings_token_of
from scorepad.services.club_director import hand_settle
from scorepad.services.clubs import round_close, table_hand_confirm, table_hand_dispute
from scorepad.views import club_director as views
from tests.sample_games import CLUB_MADE, club_event, club_hand, numbered_pairs

pytestmark = pytest.mark.django_db(transaction=True)


def run_alone[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: a browser test earlier in the session leaves an event
    loop running in this one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.fixture
def roster():
    return ()


@pytest.fixture
def event(household, ann):
    return club_event(household, ann, pairs=numbered_pairs(2), started=True)


@pytest.fixture
def table(event):
    return ClubTable.objects.get(round__event=event)


def _events_url(event: ClubEvent) -> str:
    return reverse("club_standings_events", args=[standings_token_of(event)])


def _confirm(table: ClubTable, number: int = 0) -> None:
    entered = club_hand(table, number=number, data=CLUB_MADE, entry_key=f"k{number}")
    table_hand_confirm(table=table, table_hand_id=entered.pk, version=entered.version, phone="p2", side=1)


def test_every_write_that_can_change_the_standings_tells_the_room_once_committed(
    monkeypatch, ann, event, table
):
    told: list[str] = []
    monkeypatch.setattr(bus, "publish", told.append)
    channel = bus.standings_channel(event.pk)

    entered = club_hand(table, data=CLUB_MADE, entry_key="k0")
    assert told == []  # a hand entered counts once confirmed: no screen needs to look
    table_hand_dispute(
        table=table, table_hand_id=entered.pk, version=entered.version, phone="p2", side=1, reason="no"
    )
    assert told == [channel]
    entered.refresh_from_db()
    hand_settle(event=event, made_by=ann, table_hand_id=entered.pk, version=entered.version, reason="ok")
    assert told == [channel] * 2  # the director's word: the hand counts
    _confirm(table, number=1)
    assert told == [channel] * 3
    fresh = ClubEvent.objects.get(pk=event.pk)
    round_close(event=fresh, version=fresh.version)
    assert len(told) > 3
    assert set(told) == {channel}


def test_the_page_holds_a_stream_open_and_refreshes_itself_without_javascript(event):
    token = standings_token_of(event)
    html = Client().get(reverse("club_standings_live", args=[token]) + "?big=1").content.decode()
    assert f'sse-connect="{reverse("club_standings_events", args=[token])}"' in html
    assert 'sse-swap="standings"' in html
    assert "hx-trigger" not in html  # no screen polls every second any more
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in html


def test_a_screen_reconnecting_is_sent_the_standings_only_if_they_changed(event, table):
    """Under WSGI (runserver, the browser tests' server) each answer is one event, then the browser
    asks again: the fingerprint is the event's id, sent back as Last-Event-ID."""

    def watch() -> None:
        screen = Client()
        first = screen.get(_events_url(event))
        assert first["Content-Type"] == "text/event-stream"
        body = first.content.decode()
        fingerprint = standings_fingerprint(event.pk)
        assert body.startswith("retry: 1000\n\n")
        assert f"id: {fingerprint}\nevent: standings\n" in body
        assert "round 1 being played" in body
        assert '<td class="num">25</td>' not in body

        again = screen.get(_events_url(event), headers={"Last-Event-ID": fingerprint})
        assert again.content.decode() == "retry: 1000\n\n"

        _confirm(table)
        changed = screen.get(_events_url(event), headers={"Last-Event-ID": fingerprint}).content.decode()
        assert '<td class="num">25</td>' in changed
        assert "hx-trigger" not in changed  # the stream brings the next: the partial does not poll
        assert screen.get(_events_url(event)[:-9] + "x/events/").status_code == 404

    with ThreadPoolExecutor(1) as thread:  # the sync client runs the async view with a loop of its own
        thread.submit(watch).result()


class Screen:
    """A screen's open stream, read in the background (a read given up on would close it)."""

    def __init__(self, response) -> None:
        self.chunks: asyncio.Queue[str] = asyncio.Queue()
        self.stream = response.streaming_content.__aiter__()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for chunk in self.stream:
            await self.chunks.put(chunk.decode() if isinstance(chunk, bytes) else chunk)

    async def next_standings(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = await asyncio.wait_for(self.chunks.get(), max(0.01, deadline - time.monotonic()))
            if "event: standings" in text:
                return text

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader
        await self.stream.aclose()


def test_a_confirmed_hand_reaches_every_open_screen_at_once_read_once(monkeypatch, event, table):
    """Two screens on one server share one reading per change; a hand entered but not confirmed
    changes nothing they show, so nothing is read or sent; its confirmation is sent at once: waited
    for 5 s at most, so the feed's own look every 15 s is not what brings it."""
    reads: list[str] = []
    real = views.streamed_standings

    def counted(standings_token: str):
        reads.append(standings_token)
        return real(standings_token)

    monkeypatch.setattr(views, "streamed_standings", counted)
    url = _events_url(event)

    async def watch() -> tuple[list[str], list[str]]:
        screens = []
        for _ in range(2):
            response = await AsyncClient().get(url)
            assert response["Content-Type"] == "text/event-stream"
            screens.append(Screen(response))
        try:
            for screen in screens:
                assert "round 1 being played" in await screen.next_standings(5)
            entered = await sync_to_async(club_hand)(table, data=CLUB_MADE, entry_key="k0")
            with pytest.raises(TimeoutError):  # entered, not confirmed: the standings are the same
                await screens[0].next_standings(1)
            await sync_to_async(table_hand_confirm)(
                table=table, table_hand_id=entered.pk, version=entered.version, phone="p2", side=1
            )
            shown = [await screen.next_standings(5) for screen in screens]
            return shown, list(reads)
        finally:
            for screen in screens:
                await screen.close()

    shown, read = run_alone(watch())
    assert all('<td class="num">25</td>' in text for text in shown)
    assert len(read) == 2  # the first screen's, the hand confirmed (entered: nothing to read)


def test_a_stream_for_an_event_no_longer_there_is_not_found(event):
    url = _events_url(event)
    ClubEvent.objects.filter(pk=event.pk).delete()

    async def ask() -> int:
        return (await AsyncClient().get(url)).status_code

    assert run_alone(ask()) == 404


def test_every_server_process_takes_the_standings_worked_out_once_for_a_change(monkeypatch, event):
    """Every process's feed hears a change at once and renders its partial; the standings it renders
    from are worked out once for them all (kept in the shared cache under the fingerprint)."""
    worked_out: list[int] = []
    real = director_selectors._live_standings

    def counted(event, fingerprint):
        worked_out.append(event.pk)
        return real(event, fingerprint)

    monkeypatch.setattr(director_selectors, "_live_standings", counted)
    token = standings_token_of(event)
    first, second = views.streamed_standings(token), views.streamed_standings(token)  # two processes
    assert first is not None
    assert first == second
    assert first[0] == standings_fingerprint(event.pk)
    assert worked_out == [event.pk]
