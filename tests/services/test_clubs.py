"""Club night services: check-in, seating by the movement, a table's hands and their confirmation,
closing a round into results. Every refusal is in words and changes nothing."""

import pytest

from scorepad.models import ClubEntrant, ClubEvent, ClubResult, ClubRound, Game, Player, TableHand
from scorepad.selectors.clubs import next_round_plan
from scorepad.services import ServiceError
from scorepad.services.clubs import (
    entrant_check_in,
    entrant_leave,
    newcomer_names,
    round_close,
    round_start,
    table_hand_confirm,
    table_hand_dispute,
    table_hand_record,
)
from scorepad.services.games import HandConflict
from scorepad.services.households import player_create
from tests.sample_games import CLUB_MADE, club_check_in, club_event, club_hand, numbered_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return ()


def _event(household, ann, fmt="teams", rounds=3, **extra):
    return club_event(household, ann, name="Tuesday club", format=fmt, rounds=rounds, **extra)


def _fresh(event):
    return ClubEvent.objects.get(pk=event.pk)


def _teams(event, count):
    return club_check_in(event, numbered_pairs(count))


def test_check_in_takes_roster_members_and_newcomers_in_one_line(household, ann):
    event = _event(household, ann)
    bob = player_create(household=household, name="Bob")
    team = entrant_check_in(event=event, version=event.version, players=[bob], newcomers=newcomer_names("Cy"))
    assert team.name == "Bob & Cy"
    assert team.number == 1
    assert Player.objects.filter(household=household, name="Cy").exists()
    assert newcomer_names("Di & Ed") == ["Di", "Ed"] == newcomer_names(" Di and  Ed ")


def test_a_player_is_never_checked_in_twice(household, ann):
    event = _event(household, ann)
    bob = player_create(household=household, name="Bob")
    entrant_check_in(event=event, version=event.version, players=[bob], newcomers=["Cy"])
    event = _fresh(event)
    with pytest.raises(
        ServiceError, match="Bob is already checked in \\(Team 1\\): a player sits at one table"
    ):
        entrant_check_in(event=event, version=event.version, players=[bob], newcomers=["Di"])
    assert ClubEntrant.objects.filter(event=event).count() == 1
    assert not Player.objects.filter(name="Di").exists()


def test_a_stale_page_changes_nothing(household, ann):
    event = _event(household, ann)
    stale = event.version
    entrant_check_in(event=event, version=stale, newcomers=["A", "B"])
    with pytest.raises(ServiceError, match="This page is out of date"):
        entrant_check_in(event=_fresh(event), version=stale, newcomers=["C", "D"])
    assert ClubEntrant.objects.filter(event=event).count() == 1


def test_a_team_is_two_players(household, ann):
    event = _event(household, ann)
    with pytest.raises(ServiceError, match="A team is two players: 1 given"):
        entrant_check_in(event=event, version=event.version, newcomers=["Solo"])


def test_the_format_needs_a_fitting_variant(household, ann):
    with pytest.raises(ServiceError, match="The six-handed format is played with Six-handed"):
        _event(household, ann, fmt="six-handed")


def test_start_seats_the_movement_with_a_game_and_pin_per_table(household, ann):
    event = _teams(_event(household, ann), 5)
    club_round = round_start(event=event, version=event.version)
    tables = list(club_round.tables.order_by("number"))
    numbers = {e.pk: e.number for e in event.entrants.all()}
    # Five teams: two tables, teams 1 and 2 stay North–South, 3 and 4 move, 5 has the bye.
    assert [[numbers[i] for i in t.seats] for t in tables] == [[1, 3], [2, 4]]
    assert [e.number for e in club_round.sitting_out.all()] == [5]
    assert all(len(t.pin) == 4 and t.pin.isdigit() for t in tables)
    seats = [s.player.name for s in tables[0].game.seats.order_by("position")]
    assert seats == ["P0a", "P2a", "P0b", "P2b"]  # partners opposite
    assert _fresh(event).current_round == 1


def test_a_late_arrival_plays_from_the_next_round_and_a_leaver_stops(household, ann):
    event = _teams(_event(household, ann), 4)
    round_start(event=event, version=event.version)
    event = _fresh(event)
    late = entrant_check_in(event=event, version=event.version, newcomers=["Late", "Comer"])
    assert late.arrived_before == 2
    event = _fresh(event)
    first = event.entrants.get(number=1)
    with pytest.raises(ServiceError, match="Team 1 is playing round 1: mark them as leaving once"):
        entrant_leave(event=event, version=event.version, entrant_id=first.pk)
    round_close(event=event, version=event.version)
    event = _fresh(event)
    entrant_leave(event=event, version=event.version, entrant_id=first.pk)
    event = _fresh(event)
    second = round_start(event=event, version=event.version, accept_repeats=True)
    seated = {i for t in second.tables.all() for i in t.seats} | {e.pk for e in second.sitting_out.all()}
    assert late.pk in seated
    assert first.pk not in seated


def test_a_repeat_is_said_before_the_round_starts_and_needs_accepting(household, ann):
    event = _teams(_event(household, ann, rounds=3), 2)  # two teams can only meet each other again
    round_start(event=event, version=event.version)
    round_close(event=_fresh(event), version=_fresh(event).version)
    event = _fresh(event)
    with pytest.raises(ServiceError, match="Team 1 and Team 2 would meet again in round 2 \\(round 1 too\\)"):
        round_start(event=event, version=event.version)
    assert not ClubRound.objects.filter(event=event, number=2).exists()
    assert round_start(event=event, version=event.version, accept_repeats=True).number == 2


def _table(event):
    return ClubRound.objects.get(event=event, number=_fresh(event).current_round).tables.order_by("number")[0]


def test_a_hand_waits_for_the_other_side_then_a_countersign_confirms_it(household, ann):
    event = _teams(_event(household, ann), 2)
    round_start(event=event, version=event.version)
    table = _table(event)
    th = club_hand(table, entry_key="k" * 10)
    assert th.state == TableHand.State.ENTERED
    assert th.hand.game == table.game
    assert th.hand.bid == 20
    with pytest.raises(ServiceError, match="Hand 1 was entered for this side: the other side confirms it"):
        table_hand_confirm(table=table, table_hand_id=th.pk, version=th.version, phone="p1", side=0)
    done = table_hand_confirm(
        table=table, table_hand_id=th.pk, version=th.version, phone="p1", side=0, countersign=True
    )
    assert done.state == TableHand.State.CONFIRMED
    assert done.countersigned
    with pytest.raises(ServiceError, match="was confirmed, disputed or corrected on another phone"):
        table_hand_confirm(table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1)


def test_a_resent_entry_is_stored_once_and_a_second_phone_is_a_conflict(household, ann):
    event = _teams(_event(household, ann), 2)
    round_start(event=event, version=event.version)
    table = _table(event)
    sent = {"table": table, "round_number": 1, "table_number": 1, "side": 0, "number": 0, "data": CLUB_MADE}
    first = table_hand_record(phone="p1", entry_key="a" * 10, **sent)
    again = table_hand_record(phone="p1", entry_key="a" * 10, **sent)
    assert first.table_hand.pk == again.table_hand.pk
    assert [row.hand_id for row in again.sheet.rows] == [first.table_hand.hand_id]  # scored with it
    with pytest.raises(HandConflict, match="Hand 1 was recorded on another phone meanwhile"):
        table_hand_record(phone="p2", entry_key="b" * 10, **sent)
    assert table.game.hands.count() == 1


def test_a_hand_for_another_table_or_a_closed_round_is_refused(household, ann):
    event = _teams(_event(household, ann), 4)
    round_start(event=event, version=event.version)
    table = _table(event)
    with pytest.raises(ServiceError, match="entered for table 2, round 1, but this is table 1 of round 1"):
        club_hand(table, phone="p", table_number=2)
    round_close(event=_fresh(event), version=_fresh(event).version)
    with pytest.raises(ServiceError, match="Round 1 is over: this table takes no more hands"):
        club_hand(table, phone="p")
    assert not table.game.hands.exists()


def test_a_disputed_hand_holds_the_round_until_the_director_accepts(household, ann):
    event = _teams(_event(household, ann), 2)
    round_start(event=event, version=event.version)
    table = _table(event)
    th = club_hand(table)
    table_hand_dispute(
        table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1, reason="We melded 20"
    )
    event = _fresh(event)
    with pytest.raises(ServiceError, match="table 1, hand 1 disputed"):
        round_close(event=event, version=event.version)
    assert not ClubResult.objects.exists()
    round_close(event=event, version=event.version, accept_open_hands=True)
    results = {r.entrant.number: (r.points, r.won) for r in ClubResult.objects.all()}
    assert results == {1: (25, True), 2: (15, False)}  # 10 + 15, made; 5 + 10


def test_a_bye_scores_the_winners_average_and_a_time_limit_ranks_by_totals(household, ann):
    event = _teams(_event(household, ann, round_end="time", round_minutes=20), 5)
    club_round = round_start(event=event, version=event.version)
    assert club_round.ends_at is not None
    tables = list(club_round.tables.order_by("number"))
    for table, data in zip(tables, [CLUB_MADE, {**CLUB_MADE, "meld": [20, 5]}], strict=True):
        club_hand(table, data=data, phone="p")
    round_close(event=_fresh(event), version=_fresh(event).version, accept_open_hands=True)
    results = {r.entrant.number: (r.points, r.won, r.bye) for r in ClubResult.objects.all()}
    # Winners 25 and 35: the bye (team 5) scores their average, 30, and is no win.
    assert results == {
        1: (25, True, False),
        3: (15, False, False),
        2: (35, True, False),
        4: (15, False, False),
        5: (30, False, True),
    }
    assert not Game.objects.filter(pk__in=[t.game_id for t in tables], finished=True).exists()


def test_a_team_leaving_moves_nobody_else_and_gives_its_opponent_a_bye(household, ann):
    event = _teams(_event(household, ann), 4)
    round_start(event=event, version=event.version)
    round_close(event=_fresh(event), version=_fresh(event).version)
    event = _fresh(event)
    entrant_leave(event=event, version=event.version, entrant_id=event.entrants.get(number=4).pk)
    event = _fresh(event)
    second = round_start(event=event, version=event.version)
    numbers = {e.pk: e.number for e in event.entrants.all()}
    # Round 2 of four teams is 1 v 4 at table 1 and 2 v 3 at table 2: with team 4 gone, table 2
    # plays as planned and team 1 sits out.
    assert [(t.number, [numbers[i] for i in t.seats]) for t in second.tables.all()] == [(2, [2, 3])]
    assert [e.number for e in second.sitting_out.all()] == [1]


def _players(event, count):
    for n in range(count):
        event = _fresh(event)
        entrant_check_in(event=event, version=event.version, newcomers=[f"Pl{n + 1}"])
    return _fresh(event)


def test_progressive_tables_take_a_fixed_number_of_hands_and_score_each_player(household, ann):
    event = _players(_event(household, ann, fmt="progressive", round_end="hands", hands_per_round=1), 8)
    club_round = round_start(event=event, version=event.version)
    table = club_round.tables.order_by("number")[0]
    names = [s.player.name for s in table.game.seats.order_by("position")]
    north, east, south, west = names
    sent = {"table": table, "round_number": 1, "table_number": 1, "side": 0, "phone": "p", "entry_key": None}
    table_hand_record(number=0, data=CLUB_MADE, **sent)
    with pytest.raises(ServiceError, match="This table has played its 1 hands for this round"):
        table_hand_record(number=1, data=CLUB_MADE, **sent)
    round_close(event=_fresh(event), version=_fresh(event).version, accept_open_hands=True)
    by_name = {r.entrant.name: r.points for r in ClubResult.objects.filter(table=table)}
    # North and South are partners: both score their side's 25; East and West their 15.
    assert by_name == {north: 25, south: 25, east: 15, west: 15}


def test_a_progressive_event_that_must_repeat_a_partner_says_so_before_it_starts(household, ann):
    event = _players(_event(household, ann, fmt="progressive", rounds=4), 4)  # 3 possible partners each
    plan = next_round_plan(event)
    assert plan.repeats_now == []
    assert any("would partner again in round 4 (round 1 too)" in words for words in plan.repeats_later)


def test_a_six_handed_table_seats_six_each_for_themselves(household, ann):
    event = _players(_event(household, ann, fmt="six-handed", variant_id="six-handed"), 7)
    club_round = round_start(event=event, version=event.version)
    (table,) = club_round.tables.all()
    assert len(table.seats) == 6
    assert club_round.sitting_out.count() == 1
    hand = {
        "bidder": 0,
        "bid": 50,
        "trump": "S",
        "meld": [30, 0, 0, 0, 0, 0],
        "tricks": [40, 40, 40, 40, 40, 40],
    }
    club_hand(table, data=hand, phone="p")
    round_close(event=_fresh(event), version=_fresh(event).version, accept_open_hands=True)
    points = [r.points for r in ClubResult.objects.filter(table=table).order_by("id")]
    assert points == [70, 40, 40, 40, 40, 40]  # seat 1 made 30 + 40 of 50
