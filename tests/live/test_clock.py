"""The private tables' clock: a table moves with no phone watching it (bots that were busy, a player
away past the grace), with no Redis, and one runner moves a table at a time (the lease)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connections
from django.utils import timezone

from scorepad import bot_pool
from scorepad.engine.game import from_json
from scorepad.live import bus, clock
from scorepad.models import PrivateTable, TableSeat
from scorepad.services.tables import BOTS_LATE_SECONDS, SeatPlan, table_clock_tick, table_open
from tests.services.test_tables import everyone_seated, play

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    """The web workers' mailboxes (``live.bus``) go in this test's folder, not the checkout's var/."""
    settings.VAR_DIR = tmp_path


class Bots:
    """The bots, busy at other tables (``busy``) or free again (``free``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch, self.real = monkeypatch, bot_pool.table_play_on

    def busy(self) -> None:
        def refused(*args, **kwargs):
            raise bot_pool.BotsBusy

        self.monkeypatch.setattr(bot_pool, "table_play_on", refused)

    def free(self) -> None:
        self.monkeypatch.setattr(bot_pool, "table_play_on", self.real)


@pytest.fixture
def bots(monkeypatch) -> Bots:
    return Bots(monkeypatch)


def three_bots() -> PrivateTable:
    table, _ = table_open(
        host_user=None,
        host_name="Ann",
        variant_id="classic",
        seats=[SeatPlan(TableSeat.OPEN), *[SeatPlan(TableSeat.BOT, strength="easy")] * 3],
        seed=21,
    )
    return table


def stored(table: PrivateTable) -> PrivateTable:
    return PrivateTable.objects.get(pk=table.pk)


def test_a_table_whose_bots_were_busy_moves_with_no_stream_open(bots):
    table = three_bots()
    assert from_json(table.state).to_act == 0
    bots.busy()
    play(table, 0)  # answered at once: the request does not wait for the busy bots
    waiting = stored(table)
    assert from_json(waiting.state).to_act != 0
    assert waiting.due_at is not None
    assert waiting.due_at < waiting.turn_since + timedelta(seconds=waiting.grace_seconds)  # soon
    bots.free()  # no phone is watching the table
    assert clock.run_due(table_clock_tick, now=waiting.due_at - timedelta(seconds=1)) == []  # not yet
    assert clock.run_due(table_clock_tick, now=waiting.due_at) == [table.pk]
    moved = stored(table)
    assert moved.version == waiting.version + 1
    assert from_json(moved.state).to_act == 0  # the person's turn again
    assert moved.due_at == moved.turn_since + timedelta(seconds=moved.grace_seconds)  # their grace


def test_bots_still_busy_when_the_clock_comes_leave_the_table_due_again_soon(bots):
    table = three_bots()
    bots.busy()
    play(table, 0)
    waiting = stored(table)
    assert clock.run_due(table_clock_tick, now=waiting.due_at) == [table.pk]
    again = stored(table)
    assert again.version == waiting.version
    assert waiting.due_at < again.due_at <= timezone.now() + timedelta(seconds=BOTS_LATE_SECONDS)


@pytest.fixture
def no_redis(settings, monkeypatch):
    """The shared cache is a Redis that does not answer, and has not answered for a while."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
        }
    }
    monkeypatch.setattr(bus, "CACHE_DOWN_GRACE_SECONDS", 0)


def overdue(table: PrivateTable) -> PrivateTable:
    """The turn, and so the table's due time, past the grace."""
    past = timezone.now() - timedelta(seconds=table.grace_seconds + 1)
    PrivateTable.objects.filter(pk=table.pk).update(turn_since=past, due_at=past)
    return stored(table)


def test_an_away_seat_is_covered_after_the_grace_with_no_stream_and_no_redis(no_redis):
    table = everyone_seated("classic", seed=11)
    seat = from_json(table.state).to_act
    assert clock.run_due(table_clock_tick) == [table.pk]  # the seats changed: looked at once
    waiting = stored(table)
    assert waiting.due_at == waiting.turn_since + timedelta(seconds=waiting.grace_seconds)
    assert clock.run_due(table_clock_tick) == []  # within the grace: not due
    overdue(table)
    assert clock.run_due(table_clock_tick) == [table.pk]
    moved = stored(table)
    assert TableSeat.objects.get(table=table, seat=seat).covered
    assert from_json(moved.state).to_act != seat  # its bot answered for it
    assert moved.version == waiting.version + 1


def test_with_no_redis_a_phone_marked_there_is_waited_for(no_redis):
    table = everyone_seated("classic", seed=11)
    seat = from_json(table.state).to_act
    bus.mark_present(table.pk, seat, "stream")  # the cache does not answer: the seat's row is marked
    assert TableSeat.objects.get(table=table, seat=seat).seen_at is not None
    overdue_at = overdue(table).due_at
    assert clock.run_due(table_clock_tick) == [table.pk]
    assert not TableSeat.objects.get(table=table, seat=seat).covered
    after = stored(table)
    assert after.version == table.version  # waited for
    assert after.due_at is not None
    assert after.due_at > overdue_at  # and looked at again


def test_a_covered_player_whose_phone_is_back_takes_their_seat_from_the_clock(no_redis):
    table = everyone_seated("classic", seed=11)
    seat = from_json(table.state).to_act
    clock.run_due(table_clock_tick, now=overdue(table).due_at)
    assert TableSeat.objects.get(table=table, seat=seat).covered
    bus.mark_present(table.pk, seat, "stream")  # their phone's stream opened: it only marks the seat
    assert TableSeat.objects.get(table=table, seat=seat).covered
    due = stored(table).due_at
    assert due is not None  # a covered seat is looked at often
    assert clock.run_due(table_clock_tick, now=due) == [table.pk]
    assert not TableSeat.objects.get(table=table, seat=seat).covered


def test_two_clock_runners_never_both_act_on_one_table(bots):
    table = three_bots()
    bots.busy()
    play(table, 0)
    due = stored(table).due_at
    assert due is not None
    bots.free()
    ticked: list[int] = []
    others: list[list[int]] = []

    def tick(*, table_id: int):
        ticked.append(table_id)
        others.append(clock.run_due(counted, now=due))  # another runner looks meanwhile
        return table_clock_tick(table_id=table_id)

    def counted(*, table_id: int):
        ticked.append(table_id)
        return None

    assert clock.run_due(tick, now=due) == [table.pk]
    assert ticked == [table.pk]  # once: the other runner found it leased
    assert others == [[]]
    assert clock.claim(table.pk, due, now=due) is None  # a runner that read the old due time: no row
    assert clock.run_due(tick, now=due) == []  # not due again until the person's grace ends


def test_two_clock_runners_looking_at_once_claim_a_table_once(bots):
    table = three_bots()
    bots.busy()
    play(table, 0)
    due = stored(table).due_at
    ticked: list[int] = []
    both_looking = threading.Barrier(2)

    def tick(*, table_id: int):
        ticked.append(table_id)

    def runner() -> list[int]:
        both_looking.wait(timeout=30)
        try:
            return clock.run_due(tick, now=due)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(2) as pool:
        claimed = [future.result() for future in [pool.submit(runner) for _ in range(2)]]
    assert sorted(claimed) == [[], [table.pk]]
    assert ticked == [table.pk]


def test_a_write_during_a_tick_keeps_the_due_time_it_set():
    table = everyone_seated("classic", seed=11)
    seat = from_json(table.state).to_act
    due = overdue(table).due_at

    def tick(*, table_id: int):
        # The player answers while the clock looks at their table: their write sets the due time.
        play(stored(table), seat)
        return timezone.now() + timedelta(days=1)

    assert clock.run_due(tick, now=due) == [table.pk]
    after = stored(table)
    assert after.due_at == after.turn_since + timedelta(seconds=after.grace_seconds)


def test_the_command_moves_the_tables_due(bots, capsys):
    table = three_bots()
    bots.busy()
    play(table, 0)
    bots.free()
    PrivateTable.objects.filter(pk=table.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    call_command("table_clock")
    assert "1 table(s) due" in capsys.readouterr().out
    assert from_json(stored(table).state).to_act == 0


def test_a_table_that_ended_is_never_due(bots):
    table = three_bots()
    bots.busy()
    play(table, 0)
    PrivateTable.objects.filter(pk=table.pk).update(status=PrivateTable.ENDED)
    assert clock.run_due(table_clock_tick, now=timezone.now() + timedelta(days=1)) == []
