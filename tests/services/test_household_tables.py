"""A private table started from a household: its roster in the seats, its hands in the household's
scorepad game, recorded by the scorepad's own service once each, however the requests race."""

from __future__ import annotations

import pytest
from django.test import Client

from scorepad.engine.answers import read_form_answer
from scorepad.engine.game import from_json, seat_view
from scorepad.models import Game, Hand, Household, Player, PrivateTable, TableSeat
from scorepad.pages.statistics import player_statistics
from scorepad.selectors.games import scored_games, scoresheet
from scorepad.services import tables as service
from scorepad.services.households import household_create, player_create
from scorepad.services.tables import (
    SeatPlan,
    TableRefused,
    table_end,
    table_open,
    table_open_seat,
    table_take_seat,
)
from tests.services.test_tables import act_on, deal_next_hand, form_for, play, said

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


def roster_player(household: Household, name: str) -> Player:
    return household.players.get(name=name)


def smiths_table(household: Household, ann, *, seed: int = 5, target: int | None = None) -> PrivateTable:
    """Ann (seat 1) and Cy (seat 3, held for him) against two heuristic bots, classic."""
    bot = SeatPlan(TableSeat.BOT, strength="heuristic")
    table, _ = table_open(
        host_user=ann,
        host_name="",
        variant_id="classic",
        overrides={} if target is None else {"target": target},
        seats=[
            SeatPlan(player_id=roster_player(household, "Ann").pk),
            bot,
            SeatPlan(player_id=roster_player(household, "Cy").pk),
            bot,
        ],
        household=household,
        seed=seed,
    )
    return table


def play_hand(table: PrivateTable) -> PrivateTable:
    """The people (seats 0 and 2) answer as the heuristic bot would; the bots play their turns."""
    while from_json(table.state).result is None:
        table = play(table, from_json(table.state).to_act)
    return table


def test_a_household_table_seats_its_roster_and_bots_sit_as_retired_stand_ins(household, ann):
    table = smiths_table(household, ann)
    rows = list(table.seats.all())
    assert [(row.kind, row.name) for row in rows] == [
        ("person", "Ann"),
        ("bot", ""),
        ("open", "Cy"),  # held for Cy: his name shows at the seat
        ("bot", ""),
    ]
    table_take_seat(table=table, seat=2, name="cy's phone", user=None, holding=None)
    assert table.seats.get(seat=2).name == "Cy"  # the roster name stays, whatever the phone typed
    game = Game.objects.get(pk=table.game_id)
    seated = [seat.player for seat in game.seats.all()]
    assert [player.name for player in seated] == ["Ann", "Bot (heuristic)", "Cy", "Bot (heuristic) 2"]
    assert [player.retired for player in seated] == [False, True, False, True]  # off the new-game form
    assert (game.household_id, game.variant, game.first_dealer) == (
        household.pk,
        "classic",
        from_json(table.state).first_dealer,
    )
    again = smiths_table(household, ann, seed=6)  # the stand-ins are made once per household
    assert household.players.filter(name__startswith="Bot").count() == 2
    assert [s.player_id for s in again.game.seats.all()][1::2] == [seated[1].pk, seated[3].pk]


def test_each_finished_hand_lands_in_the_households_game_with_the_tables_scores(household, ann):
    table = smiths_table(household, ann)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    for number in range(2):
        table = play_hand(table)
        game = Game.objects.get(pk=table.game_id)
        shown = table.hands[-1]
        hand = game.hands.get(number=number)
        assert (hand.bidder, hand.bid, hand.trump, hand.dealer) == (
            shown["bidder"],
            shown["bid"],
            shown["trump"],
            from_json(table.state).dealer,
        )
        sheet = scoresheet(game)
        assert list(sheet.score.totals) == shown["totals"]  # the scorepad scored it as the table did
        assert sheet.finished == table.finished
        if table.finished:
            break
        table = deal_next_hand(table=table, seat=0, version=table.version)
    stats = {row.player.name: row for row in player_statistics(scored_games(household))}
    assert stats["Ann"].games == stats["Cy"].games == 1
    assert stats["Ann"].hands == game.hands.filter(thrown_in=False).count()


def test_the_game_is_won_in_the_scorepad_when_the_tables_game_is_won(household, ann):
    table = smiths_table(household, ann, seed=11, target=50)  # a quick game: a hand or a few
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    while True:
        table = play_hand(table)
        if table.finished:
            break
        table = deal_next_hand(table=table, seat=0, version=table.version)
    game = Game.objects.get(pk=table.game_id)
    assert game.finished
    assert game.winner_sides == list(from_json(table.state).result.winners)
    assert game.hands.count() == len(table.hands)


def test_a_stale_final_play_racing_the_first_records_the_hand_once(household, ann, monkeypatch):
    table = smiths_table(household, ann)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    while True:  # to the person's action that ends the hand (the bots' answers after it included)
        before, seat = table, from_json(table.state).to_act
        table = play(table, seat)
        if from_json(table.state).result is not None:
            break
    answer = said(before, seat, form_for(before, seat))
    assert Hand.objects.filter(game_id=table.game_id).count() == 1
    with pytest.raises(TableRefused, match="already played"):  # the same action sent again
        act_on(table=before, seat=seat, version=before.version, answer=answer)
    # A second request that read the table before the first stored its play: it gets past the
    # version check, plays the same card, and loses the store, so it records nothing.
    monkeypatch.setattr(service, "_current", lambda table, version: before)
    with pytest.raises(TableRefused, match="already played"):
        act_on(table=before, seat=seat, version=before.version, answer=answer)
    assert Hand.objects.filter(game_id=table.game_id).count() == 1
    assert len(PrivateTable.objects.get(pk=table.pk).hands) == 1


def test_only_a_member_opens_a_table_for_a_household_and_only_with_its_roster(
    household, ann, django_user_model
):
    bob = django_user_model.objects.create_user(username="bob")
    theirs = household_create(user=bob, name="The Joneses")
    outsider = player_create(household=theirs, name="Jo")
    ann_plan = SeatPlan(player_id=roster_player(household, "Ann").pk)
    bots = [SeatPlan(TableSeat.BOT, strength="heuristic")] * 3
    with pytest.raises(TableRefused, match="Only a member"):
        table_open(
            host_user=bob, host_name="Bob", variant_id="classic", seats=[ann_plan, *bots], household=household
        )
    with pytest.raises(TableRefused, match="roster"):
        table_open(
            host_user=ann,
            host_name="",
            variant_id="classic",
            seats=[ann_plan, SeatPlan(player_id=outsider.pk), *bots[1:]],
            household=household,
        )
    with pytest.raises(TableRefused, match="which of The Smiths"):
        table_open(
            host_user=ann,
            host_name="Ann",
            variant_id="classic",
            seats=[SeatPlan(), *bots],
            household=household,
        )
    with pytest.raises(TableRefused, match="one seat only"):
        table_open(
            host_user=ann,
            host_name="",
            variant_id="classic",
            seats=[ann_plan, ann_plan, *bots[1:]],
            household=household,
        )
    with pytest.raises(TableRefused, match="household's table"):
        table_open(host_user=ann, host_name="Ann", variant_id="classic", seats=[ann_plan, *bots])
    assert not PrivateTable.objects.exists()
    assert not Game.objects.exists()


def test_a_non_member_cannot_see_the_tables_game(household, ann, django_user_model):
    table = smiths_table(household, ann)
    phone = Client()
    phone.force_login(django_user_model.objects.create_user(username="bob"))
    assert phone.get(f"/games/{table.game_id}/").status_code == 404
    assert phone.get(f"/households/{household.pk}/games/").status_code == 404


def test_a_table_ended_before_a_side_won_leaves_its_game_out_of_the_statistics(household, ann):
    table = smiths_table(household, ann)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    table = play_hand(table)
    table_end(table=table, by_seat=0)
    game = Game.objects.get(pk=table.game_id)
    assert game.abandoned
    assert game.hands.count() == 1  # the history keeps it
    assert scored_games(household) == []


def test_a_roster_seat_opened_by_the_host_stays_held_for_its_player(household, ann):
    table = smiths_table(household, ann)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    table_open_seat(table=table, by_seat=0, seat=2)
    assert (table.seats.get(seat=2).kind, table.seats.get(seat=2).name) == ("open", "Cy")


def test_a_thrown_in_deal_is_recorded_thrown_in_and_the_next_hand_keeps_its_number(household, ann):
    """All four pass under "all pass: redeal": the scorepad stores the deal as thrown in (its dealer,
    no score), and the table's next hand is the scorepad's next hand, not one behind."""
    ids = {player.name: player.pk for player in household.players.all()}
    table, _ = table_open(
        host_user=ann,
        host_name="",
        variant_id="classic",
        overrides={"all_pass": "redeal"},
        seats=[SeatPlan(player_id=ids[name]) for name in ("Ann", "Bo", "Cy", "Di")],
        household=household,
        seed=5,
    )
    for seat in range(1, 4):
        table_take_seat(table=table, seat=seat, name=f"phone {seat}", user=None, holding=None)
    while from_json(table.state).result is None:
        seat = from_json(table.state).to_act
        answer = read_form_answer(seat_view(from_json(table.state), seat), {"bid": "pass"})
        table = act_on(table=table, seat=seat, version=table.version, answer=answer)
    game = Game.objects.get(pk=table.game_id)
    thrown = game.hands.get()
    assert (thrown.number, thrown.thrown_in, thrown.dealer) == (0, True, from_json(table.state).dealer)
    table = play_hand(deal_next_hand(table=table, seat=0, version=table.version))
    played = game.hands.get(number=1)
    assert (played.thrown_in, played.bidder, played.dealer) == (
        False,
        table.hands[-1]["bidder"],
        from_json(table.state).dealer,
    )
    assert list(scoresheet(game).score.totals) == table.hands[-1]["totals"]
