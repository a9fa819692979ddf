"""``loadtest --event``: a club night's tables and standings screens (on the standings' event
stream) on gunicorn lose nothing, its measure of standings after a confirmed hand is what it
says, and the load client reads a bodiless 204 without waiting for the connection to close."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from pinochle_site.tools.loadtest.browser import Browser
from pinochle_site.tools.loadtest.event import Confirmation, standings_latency, team_points
from scorepad.models import ClubEntrant, ClubTable
from scorepad.selectors.club_director import standings_token_of
from scorepad.services.clubs import table_hand_confirm
from scorepad.views.club_director import streamed_standings
from tests.commands.test_loadtest import loadtest_report
from tests.sample_games import CLUB_MADE, club_event, club_hand, numbered_pairs


def test_a_hand_counts_as_shown_from_the_first_standings_event_that_holds_it():
    # Table 7's hand 1 is confirmed at 2.0 (it shows as standings "b"), its hand 2 at 4.0 ("c").
    confirmations = [Confirmation(2.0, 7, 1), Confirmation(4.0, 7, 2), Confirmation(0.5, 7, 0)]
    holds = {"a": 0, "b": 1, "c": 2}  # the hands of table 7 each standings hold

    def shows(ident: str, confirmation: Confirmation) -> bool:
        return holds[ident] >= confirmation.count

    shown = {
        0: [(1.0, "a"), (2.1, "a"), (2.5, "b"), (4.3, "c")],  # an event in flight at 2.0 holds no hand
        1: [(1.9, "b")],  # told before the phone's answer came: shown at once; hand 2 never came
    }
    seconds, missed = standings_latency(confirmations, shown, shows, warmup=1.0, ended=10.0)
    assert [round(s, 2) for s in seconds] == [0.5, 0.3, 0.0]
    assert missed == 1  # screen 1, hand 2: not shown 5 s on (the warm-up's hand is left out)
    assert standings_latency(confirmations[1:2], {1: [(1.9, "b")]}, shows, warmup=1.0, ended=8.0) == ([], 0)


@pytest.mark.django_db
def test_the_screens_points_are_read_from_the_standings_the_stream_sends(household, ann):
    event = club_event(household, ann, pairs=numbered_pairs(2), started=True)
    table = ClubTable.objects.get(round__event=event)
    entered = club_hand(table, data=CLUB_MADE, entry_key="k0")
    table_hand_confirm(table=table, table_hand_id=entered.pk, version=entered.version, phone="p2", side=1)
    read = streamed_standings(standings_token_of(event))
    assert read is not None
    numbers = dict(ClubEntrant.objects.filter(event=event).values_list("pk", "number"))
    side_0, side_1 = (numbers[entrant] for entrant in table.seats[:2])
    assert team_points(read[1]) == {side_0: 25, side_1: 15}  # meld 10/5, tricks 15/10


def test_a_204_is_read_at_once_on_a_kept_alive_connection():
    async def scenario() -> None:
        read = asyncio.Event()

        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n")
            await writer.drain()
            await read.wait()  # keeps the connection open, as gunicorn's keep-alive does
            writer.close()

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        browser = Browser("127.0.0.1", port)
        # The connection closes only once the answer is read: a client waiting for the close would
        # wait for ever (here: until the deadline).
        response = await asyncio.wait_for(browser.get("/"), 30)
        read.set()
        assert response.status == 204
        assert response.body == b""
        await browser.close()
        server.close()

    # In a thread of its own: a browser test in the same session leaves an event loop running here.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, scenario()).result()


@pytest.mark.server
def test_a_tiny_club_night_on_gunicorn_loses_nothing_and_times_the_standings(migrated_var_dir):
    arguments = ["--event", "2", "--watchers", "3", "--seconds", "4", "--warmup", "0", "--table-pace", "0.5"]
    report = loadtest_report(migrated_var_dir, *arguments)
    assert report["ok"]
    assert report["acknowledged"] == report["stored"] > 0
    assert report["lost"] == report["duplicates"] == report["unconfirmed"] == report["errors"] == 0
    assert report["standings_differ"] == []
    # The tables alone first, then with the watchers (how many hands each: the machine's; a cold
    # server on a busy machine may take the whole first phase to answer its first).
    assert {"n", "p95"} <= set(report["alone_ms"])
    assert report["standings_events"] >= 3  # each screen's stream brought the standings
    assert report["standings_ms"]["n"] > 0
    assert report["standings_missed"] == 0
