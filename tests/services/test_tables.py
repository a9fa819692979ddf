"""Private tables: several people at one table, bots in the rest; every write names its version."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from scorepad import bot_pool
from scorepad.engine.answers import ANSWER_KEYS, FormAnswer, answer_json, read_form_answer
from scorepad.engine.bots import make_bot
from scorepad.engine.game import from_json, seat_view
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.live import bus
from scorepad.models import PrivateTable, TableMessage, TableSeat
from scorepad.models.tables import TABLE_BOT_CPU_LIMIT
from scorepad.selectors.tables import table_by_code, table_read
from scorepad.services.tables import (
    ENDED,
    HOST_ONLY,
    HOST_STAYS,
    MESSAGE_GAP_SECONDS,
    NOT_SEATED,
    NOT_YOUR_TURN,
    SEAT_TAKEN,
    TABLE_FULL,
    TOO_CHATTY,
    SeatPlan,
    TableRefused,
    table_act_read,
    table_back,
    table_bots_catch_up,
    table_cover_overdue,
    table_end,
    table_new_link,
    table_next_hand_read,
    table_open,
    table_open_seat,
    table_quit,
    table_say,
    table_take_seat,
)

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: the phones are told


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    """The web workers' mailboxes (``live.bus``) go in this test's folder, not the checkout's var/."""
    settings.VAR_DIR = tmp_path


@pytest.fixture
def told(monkeypatch) -> list[int]:
    """The tables whose phones were told of a change, in order."""
    heard: list[int] = []
    monkeypatch.setattr(bus, "publish", lambda channel: heard.append(int(channel.removeprefix("table:"))))
    return heard


def form_for(table: PrivateTable, seat: int) -> dict[str, str]:
    """What the heuristic bot would post from ``seat`` (it takes no time, so play is repeatable)."""
    view = seat_view(from_json(table.state), seat)
    answer = answer_json(view.decision, make_bot("heuristic", seat, random.Random(seat)).decide(view))
    value = "pass" if answer is None else " ".join(answer) if isinstance(answer, list) else str(answer)
    return {ANSWER_KEYS[view.decision]: value}


def said(table: PrivateTable, seat: int, data: dict[str, str]) -> FormAnswer:
    return read_form_answer(seat_view(from_json(table.state), seat), data)


def act_on(*, table: PrivateTable, seat: int, version: object, answer: FormAnswer) -> PrivateTable:
    """A phone's play as its request makes it: the table read (``table_read``), then the play."""
    read = table_read(table.pk)
    assert read is not None
    after = table_act_read(read=read, seat=seat, version=version, answer=answer).row
    assert after is not None
    return after


def deal_next_hand(*, table: PrivateTable, seat: int, version: object) -> PrivateTable:
    """A phone's tap on "Next hand" as its request makes it: the table read, then the deal."""
    read = table_read(table.pk)
    assert read is not None
    after = table_next_hand_read(read=read, seat=seat, version=version).row
    assert after is not None
    return after


def play(table: PrivateTable, seat: int) -> PrivateTable:
    """``seat`` answers what the heuristic bot would, on the table's version."""
    answer = said(table, seat, form_for(table, seat))
    return act_on(table=table, seat=seat, version=table.version, answer=answer)


def everyone_seated(variant_id: str, seed: int = 7) -> PrivateTable:
    """A table with a person in every seat: the host, then guests in each open seat."""
    seats = get_variant(variant_id).seats
    table, _ = table_open(
        host_user=None,
        host_name="Ann",
        variant_id=variant_id,
        seats=[SeatPlan(TableSeat.OPEN)] * seats,
        seed=seed,
    )
    for seat in range(1, seats):
        table_take_seat(table=table, seat=seat, name=f"Guest {seat}", user=None, holding=None)
    return table


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_people_in_every_seat_play_a_whole_hand_each_on_their_turn(variant_id, told):
    table = everyone_seated(variant_id)
    versions = [table.version]
    while from_json(table.state).result is None:
        seat = from_json(table.state).to_act
        table = play(table, seat)
        versions.append(table.version)
    stored = PrivateTable.objects.get(pk=table.pk)
    assert versions == list(range(versions[0], versions[0] + len(versions)))  # one version per action
    assert stored.version == versions[-1]
    assert [hand["hand"] for hand in stored.hands] == [0]
    assert stored.bot_cpu_seconds == 0  # no bot played a card
    assert told.count(table.pk) >= len(versions) - 1


def test_the_bots_play_on_to_the_first_persons_turn():
    table, claim = table_open(
        host_user=None,
        host_name="Ann",
        variant_id="classic",
        seats=[SeatPlan(TableSeat.OPEN), SeatPlan(TableSeat.BOT, strength="easy")] * 2,
        seed=3,
    )
    state = from_json(table.state)
    assert claim.seat == 0
    assert state.to_act in (0, 2)  # the two people's seats: the bots never wait
    assert [row.kind for row in table.seats.all()] == ["person", "bot", "open", "bot"]


def test_an_action_sent_twice_is_applied_once_and_the_second_is_told_it_is_stale():
    table = everyone_seated("classic")
    seat = from_json(table.state).to_act
    answer = said(table, seat, form_for(table, seat))
    version = table.version
    act_on(table=table, seat=seat, version=version, answer=answer)
    with pytest.raises(TableRefused, match="already played"):
        act_on(table=table, seat=seat, version=version, answer=answer)
    assert PrivateTable.objects.get(pk=table.pk).version == version + 1


def test_a_seat_out_of_turn_is_refused_in_words_and_nothing_changes():
    table = everyone_seated("classic")
    state = from_json(table.state)
    other = (state.to_act + 1) % 4
    with pytest.raises(TableRefused) as refused:
        act_on(table=table, seat=other, version=table.version, answer=said(table, other, {"bid": "pass"}))
    assert str(refused.value) == NOT_YOUR_TURN
    assert PrivateTable.objects.get(pk=table.pk).state == table.state


def test_an_illegal_card_is_refused_with_the_rule_in_words():
    table = everyone_seated("classic")
    seat = from_json(table.state).to_act
    with pytest.raises(TableRefused, match="Not allowed"):
        act_on(table=table, seat=seat, version=table.version, answer=said(table, seat, {"bid": "3"}))


def test_two_phones_taking_one_seat_one_sits_and_the_other_is_told():
    table, _ = table_open(
        host_user=None, host_name="Ann", variant_id="classic", seats=[SeatPlan(TableSeat.OPEN)] * 4, seed=1
    )
    first = table_take_seat(table=table, seat=2, name="Bo", user=None, holding=None)
    with pytest.raises(TableRefused) as refused:
        table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    assert str(refused.value) == SEAT_TAKEN
    row = TableSeat.objects.get(table=table, seat=2)
    assert (row.name, row.claim_key) == ("Bo", first.claim_key)


def test_a_bots_seat_is_taken_between_hands_only():
    table, _ = table_open(
        host_user=None,
        host_name="Ann",
        variant_id="classic",
        seats=[SeatPlan(TableSeat.OPEN), *[SeatPlan(TableSeat.BOT, strength="easy")] * 3],
        seed=5,
    )
    while from_json(table.state).to_act == 0:  # the host plays on; bots answer at once
        table = play(table, 0)
        if from_json(table.state).result is None and len(from_json(table.state).auction) >= 1:
            break
    if from_json(table.state).result is None:
        with pytest.raises(TableRefused, match="between hands"):
            table_take_seat(table=table, seat=1, name="Bo", user=None, holding=None)
    while from_json(table.state).result is None:
        table = play(table, 0)
    table_take_seat(table=table, seat=1, name="Bo", user=None, holding=None)
    assert TableSeat.objects.get(table=table, seat=1).kind == TableSeat.PERSON


def test_one_phone_holds_one_seat():
    table, claim = table_open(
        host_user=None, host_name="Ann", variant_id="classic", seats=[SeatPlan(TableSeat.OPEN)] * 4, seed=1
    )
    with pytest.raises(TableRefused, match="already sit in seat 1"):
        table_take_seat(table=table, seat=1, name="Ann", user=None, holding=claim.seat)


def seat_to_act_is_a_guest() -> tuple[PrivateTable, int]:
    table = everyone_seated("classic", seed=11)
    return table, from_json(table.state).to_act


def test_a_player_away_past_the_grace_gets_a_bot_until_they_come_back():
    table, seat = seat_to_act_is_a_guest()
    PrivateTable.objects.filter(pk=table.pk).update(turn_since=table.turn_since - timedelta(seconds=59))
    assert table_cover_overdue(table=table, present=lambda _: False) is None  # still within the grace
    PrivateTable.objects.filter(pk=table.pk).update(turn_since=table.turn_since - timedelta(seconds=61))
    assert table_cover_overdue(table=table, present=lambda _: True) is None  # there: waited for
    covered = table_cover_overdue(table=table, present=lambda _: False)
    assert covered is not None
    assert covered.version == table.version + 1
    assert from_json(covered.state).to_act != seat  # the bot answered for them
    assert TableSeat.objects.get(table=table, seat=seat).covered
    assert table_back(table=table, seat=seat)
    assert not TableSeat.objects.get(table=table, seat=seat).covered


def test_an_open_seat_is_waited_for_then_a_bot_plays_it():
    table, _ = table_open(
        host_user=None, host_name="Ann", variant_id="classic", seats=[SeatPlan(TableSeat.OPEN)] * 4, seed=2
    )
    state = from_json(table.state)
    if state.to_act == 0:
        table = play(table, 0)
    waiting = from_json(table.state).to_act
    PrivateTable.objects.filter(pk=table.pk).update(turn_since=table.turn_since - timedelta(seconds=61))
    covered = table_cover_overdue(table=table, present=lambda _: False)
    assert covered is not None
    assert from_json(covered.state).to_act != waiting  # its bot answered; the next seat is waited for
    assert TableSeat.objects.get(table=table, seat=waiting).covered


def test_only_the_host_opens_seats_ends_the_table_or_makes_a_new_link():
    table = everyone_seated("classic")
    for control in (
        lambda: table_open_seat(table=table, by_seat=1, seat=2),
        lambda: table_end(table=table, by_seat=2),
        lambda: table_new_link(table=table, by_seat=3),
    ):
        with pytest.raises(TableRefused) as refused:
            control()
        assert str(refused.value) == HOST_ONLY


def test_a_removed_player_is_refused_and_their_seat_opens():
    table = everyone_seated("classic")
    key = TableSeat.objects.get(table=table, seat=2).claim_key
    table_open_seat(table=table, by_seat=0, seat=2)
    row = TableSeat.objects.get(table=table, seat=2)
    assert (row.kind, row.claim_key) == (TableSeat.OPEN, "")
    assert row.claim_key != key
    if from_json(table.state).to_act == 2:
        with pytest.raises(TableRefused) as refused:
            play(table, 2)
        assert str(refused.value) == NOT_SEATED


def test_an_ended_table_refuses_every_action(told):
    table = everyone_seated("classic")
    seat = from_json(table.state).to_act
    table_end(table=table, by_seat=0)
    assert told[-1] == table.pk
    for act in (
        lambda: act_on(
            table=table, seat=seat, version=table.version + 1, answer=said(table, seat, form_for(table, seat))
        ),
        lambda: table_take_seat(table=table, seat=1, name="Di", user=None, holding=None),
        lambda: table_say(table=table, seat=0, message="gg"),
    ):
        with pytest.raises(TableRefused) as refused:
            act()
        assert str(refused.value) == ENDED


def test_a_new_link_replaces_the_old_one():
    table = everyone_seated("classic")
    old = table.link_token
    new = table_new_link(table=table, by_seat=0)
    assert new != old
    assert not PrivateTable.objects.filter(link_token=old).exists()


def test_quitting_shows_and_opens_the_seat():
    table = everyone_seated("classic")
    table_quit(table=table, seat=3)
    row = TableSeat.objects.get(table=table, seat=3)
    assert (row.kind, row.quit, row.name) == (TableSeat.OPEN, True, "Guest 3")


def test_only_the_fixed_quick_messages_are_said():
    table = everyone_seated("classic")
    assert table_say(table=table, seat=1, message="gg").message == "gg"
    with pytest.raises(TableRefused, match="Say one of"):
        table_say(table=table, seat=1, message="<script>hi</script>")


def test_the_next_hand_is_dealt_once_the_hand_is_over():
    table = everyone_seated("classic", seed=4)
    with pytest.raises(TableRefused, match="not over"):
        deal_next_hand(table=table, seat=0, version=table.version)
    while from_json(table.state).result is None:
        seat = from_json(table.state).to_act
        table = play(table, seat)
    table = deal_next_hand(table=table, seat=1, version=table.version)
    assert from_json(table.state).hand_number == 1


def test_the_tables_bots_count_their_cost_and_stop_at_the_tables_limit():
    table, _ = table_open(
        host_user=None,
        host_name="Ann",
        variant_id="classic",
        seats=[SeatPlan(TableSeat.OPEN), *[SeatPlan(TableSeat.BOT, strength="heuristic")] * 3],
        seed=9,
    )
    while from_json(table.state).result is None:
        table = play(table, 0)
    spent = PrivateTable.objects.get(pk=table.pk).bot_cpu_seconds
    assert spent > 0
    PrivateTable.objects.filter(pk=table.pk).update(bot_cpu_seconds=TABLE_BOT_CPU_LIMIT)
    table = deal_next_hand(table=table, seat=0, version=table.version)  # dealt: the deal is no bot's
    state = from_json(table.state)
    if state.to_act != 0:  # a bot's turn: it does not think, the table says why and waits
        assert table.bot_cpu_seconds == TABLE_BOT_CPU_LIMIT
        assert (state.auction, state.hand_number) == ([], 1)


def test_bad_choices_at_the_start_are_refused_in_words():
    with pytest.raises(TableRefused, match="4 seats"):
        table_open(host_user=None, host_name="Ann", variant_id="classic", seats=[SeatPlan()] * 3)
    with pytest.raises(TableRefused, match="Type a name"):
        table_open(host_user=None, host_name="  ", variant_id="classic")
    with pytest.raises(TableRefused, match="Bots play at"):
        table_open(
            host_user=None,
            host_name="Ann",
            variant_id="classic",
            seats=[SeatPlan(), SeatPlan("bot", strength="god")] * 2,
        )
    with pytest.raises(TableRefused):
        table_open(host_user=None, host_name="Ann", variant_id="pinochle-9000")


def _three_easy_bots() -> PrivateTable:
    table, _ = table_open(
        host_user=None,
        host_name="Ann",
        variant_id="classic",
        seats=[SeatPlan(TableSeat.OPEN), *[SeatPlan(TableSeat.BOT, strength="easy")] * 3],
        seed=21,
    )
    return table


@pytest.mark.parametrize(("searching", "writes"), [(False, 1), (True, 2)])
def test_a_persons_card_and_the_bots_answers_are_stored_and_told_as_soon_as_ready(
    told, monkeypatch, searching, writes
):
    # Bots that answer at once are stored and told of with the card, in one write: each phone
    # draws once, not twice. Bots that search take a while: the card is stored and told first,
    # their answers when they come.
    monkeypatch.setattr(bot_pool, "answers_at_once", lambda strengths: not searching)
    table = _three_easy_bots()
    before, heard = table.version, len(told)
    table = play(table, 0)
    stored = PrivateTable.objects.get(pk=table.pk)
    assert stored.person_writes == 1
    assert stored.version == before + writes
    assert from_json(stored.state).to_act == 0
    assert told[heard:] == [table.pk] * writes


def test_bots_busy_keep_the_persons_answer_and_play_when_asked_again(monkeypatch, told):
    table = _three_easy_bots()
    real = bot_pool.table_play_on

    def busy(*args, **kwargs):
        raise bot_pool.BotsBusy

    monkeypatch.setattr(bot_pool, "table_play_on", busy)
    heard = len(told)
    table = play(table, 0)
    waiting = PrivateTable.objects.get(pk=table.pk)
    assert from_json(waiting.state).to_act != 0  # the answer is stored; the bots' turn waits
    assert waiting.person_writes == 1
    assert waiting.due_at is not None  # for the table's clock, which asks the bots again
    assert told[heard:] == [table.pk]  # the phones see the card while the bots' turn waits
    monkeypatch.setattr(bot_pool, "table_play_on", real)
    caught_up = table_bots_catch_up(table=table)
    assert from_json(caught_up.state).to_act == 0


def test_the_last_seat_taken_twice_tells_the_second_phone_the_table_is_full():
    table, _ = table_open(
        host_user=None, host_name="Ann", variant_id="classic", seats=[SeatPlan(TableSeat.OPEN)] * 4, seed=1
    )
    for seat in (1, 2):
        table_take_seat(table=table, seat=seat, name=f"Guest {seat}", user=None, holding=None)
    table_take_seat(table=table, seat=3, name="Bo", user=None, holding=None)
    with pytest.raises(TableRefused) as refused:
        table_take_seat(table=table, seat=3, name="Cy", user=None, holding=None)
    assert str(refused.value) == TABLE_FULL
    assert TableSeat.objects.get(table=table, seat=3).name == "Bo"


def test_the_host_cannot_leave_their_seat_to_whoever_sits_down_next():
    table = everyone_seated("classic")
    with pytest.raises(TableRefused) as refused:
        table_quit(table=table, seat=0)
    assert str(refused.value) == HOST_STAYS
    host = TableSeat.objects.get(table=table, seat=0)
    assert (host.kind, host.quit) == (TableSeat.PERSON, False)


def test_a_new_link_also_draws_a_new_code_so_a_removed_player_cannot_come_back_by_it():
    table = everyone_seated("classic")
    old_code = table.code
    table_open_seat(table=table, by_seat=0, seat=2)  # removed: they saw the code on their phone
    table_new_link(table=table, by_seat=0)
    stored = PrivateTable.objects.get(pk=table.pk)
    assert stored.code != old_code
    assert table_by_code(old_code) is None
    assert table_by_code(stored.code) == stored


def test_one_quick_message_at_a_time_per_seat():
    table = everyone_seated("classic")
    table_say(table=table, seat=1, message="nice")
    with pytest.raises(TableRefused) as refused:
        table_say(table=table, seat=1, message="gg")
    assert str(refused.value) == TOO_CHATTY
    table_say(table=table, seat=2, message="thanks")  # another seat may answer at once
    TableMessage.objects.update(created_at=timezone.now() - timedelta(seconds=MESSAGE_GAP_SECONDS))
    table_say(table=table, seat=1, message="gg")
    assert list(TableMessage.objects.filter(table=table, seat=1).values_list("message", flat=True)) == [
        "gg",
        "nice",
    ]
