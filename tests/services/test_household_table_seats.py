"""Who sits where at a household's table: a member seated as their roster player with one tap, and
a person who takes a stand-in's seat credited from that hand on, in the game and its statistics."""

from __future__ import annotations

import csv
import io
import json

import pytest

from scorepad.engine.game import from_json
from scorepad.models import Game, PrivateTable, SeatTaken, TableSeat
from scorepad.pages.statistics import player_statistics
from scorepad.selectors.exchange import household_backup, household_history_csv
from scorepad.selectors.games import scored_games, scoresheet
from scorepad.selectors.tables import member_seats, table_read
from scorepad.services import ServiceError
from scorepad.services.exchange import household_restore
from scorepad.services.households import player_claim
from scorepad.services.tables import (
    TableRefused,
    table_rematch,
    table_sit_as,
    table_take_seat,
)
from tests.services.test_household_tables import play_hand, roster_player, smiths_table
from tests.services.test_table_rematch import finished_table
from tests.services.test_tables import deal_next_hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


@pytest.fixture
def cy(household, django_user_model):
    """Cy's account, a member of the Smiths who said "I am Cy"."""
    account = django_user_model.objects.create_user(username="cyrus")
    household.members.add(account)
    player_claim(player=roster_player(household, "Cy"), user=account, mine=True)
    return account


def hands_played(table, count: int):
    """``count`` hands played to their end, the next dealt between them (not after the last)."""
    for number in range(count):
        table = play_hand(table)
        if number < count - 1:
            table = deal_next_hand(table=table, seat=0, version=table.version)
    return table


def test_a_member_says_once_which_player_they_are(household, ann, cy, django_user_model):
    assert roster_player(household, "Cy").account == cy
    with pytest.raises(ServiceError, match="another member's player"):
        player_claim(player=roster_player(household, "Cy"), user=ann, mine=True)
    player_claim(player=roster_player(household, "Bo"), user=cy, mine=True)  # a mistake put right
    assert [p.name for p in household.players.filter(account=cy)] == ["Bo"]
    outsider = django_user_model.objects.create_user(username="eve")
    with pytest.raises(ServiceError, match="Only a member"):
        player_claim(player=roster_player(household, "Di"), user=outsider, mine=True)
    player_claim(player=roster_player(household, "Bo"), user=cy, mine=False)
    assert not household.players.filter(account=cy).exists()


def test_a_linked_member_sits_in_the_seat_held_for_them_with_one_tap(household, ann, cy):
    table = smiths_table(household, ann)
    player, seats = member_seats(table_read(table.pk), cy)
    assert (player.name, seats) == ("Cy", (2,))  # the seat the table holds for Cy, no other
    claim = table_sit_as(table_id=table.pk, version=table.version, seat=2, user=cy, holding=None)
    row = table.seats.get(seat=2)
    assert (claim.seat, row.kind, row.name, row.user) == (2, TableSeat.PERSON, "Cy", cy)
    game = Game.objects.get(pk=table.game_id)
    assert game.seats.get(position=2).player.name == "Cy"
    assert not SeatTaken.objects.exists()  # Cy was the game's player in that seat all along
    assert member_seats(table_read(table.pk), ann) == (None, ())  # Ann said nothing: no button


def test_a_stale_or_repeated_sit_is_refused_in_words_and_changes_nothing(household, ann, cy):
    table = smiths_table(household, ann)
    with pytest.raises(TableRefused, match="moved on while you chose"):
        table_sit_as(table_id=table.pk, version=table.version - 1, seat=2, user=cy, holding=None)
    assert table.seats.get(seat=2).kind == TableSeat.OPEN
    table_sit_as(table_id=table.pk, version=table.version, seat=2, user=cy, holding=None)
    with pytest.raises(TableRefused, match="already sit in seat 3"):  # the same tap, sent again
        table_sit_as(table_id=table.pk, version=table.version, seat=2, user=cy, holding=2)
    with pytest.raises(TableRefused, match="already has a seat"):  # another phone of Cy's
        table_sit_as(table_id=table.pk, version=table.version, seat=2, user=cy, holding=None)
    with pytest.raises(TableRefused, match="not one of this household's players"):
        table_sit_as(table_id=table.pk, version=table.version, seat=1, user=ann, holding=None)


def test_a_guest_who_takes_a_bots_seat_is_credited_from_that_hand_on(household, ann):
    """Two hands by the bot, then Di (a guest) sits down in its seat: hands 1–2 are the bot's
    stand-in's, 3 on are hers, in the game's history and in the household's statistics."""
    table = smiths_table(household, ann)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    table = hands_played(table, 2)
    table_take_seat(table=table, seat=1, name="Di", user=None, holding=None)  # between hands
    table = deal_next_hand(table=table, seat=0, version=table.version)
    table = play_hand(table)
    assert len(table.hands) == 3
    assert not table.finished
    game = Game.objects.get(pk=table.game_id)
    taken = SeatTaken.objects.get()
    assert (taken.position, taken.from_hand, taken.player.name) == (1, 2, "Di (guest)")
    assert taken.player.retired  # off the roster's new-game form, as the stand-ins are

    sheet = scoresheet(game)
    assert [row.sides[1].name for row in sheet.rows] == [
        "Bot (heuristic) & Bot (heuristic) 2",
        "Bot (heuristic) & Bot (heuristic) 2",
        "Di (guest) & Bot (heuristic) 2",
    ]
    assert sheet.side_names[1] == "Di (guest) & Bot (heuristic) 2"  # who sits there now
    assert [(n, seat, before.name, after.name) for n, seat, before, after in sheet.taken] == [
        (2, 1, "Bot (heuristic)", "Di (guest)")
    ]
    exported = list(csv.DictReader(io.StringIO(household_history_csv(household=household))))
    assert [row["side_1"] for row in exported if int(row["hand"]) <= 2] == [
        "Bot (heuristic) & Bot (heuristic) 2"
    ] * sum(1 for row in exported if int(row["hand"]) <= 2)
    assert [row["side_1"] for row in exported if int(row["hand"]) == 3] == ["Di (guest) & Bot (heuristic) 2"]
    bids = [row for row in sheet.rows if not row.thrown_in and row.bidder_side == 1]
    for row in bids:  # the bidder named as who played that hand
        assert row.bidder in (
            ("Bot (heuristic)", "Bot (heuristic) 2")
            if row.number < 2
            else ("Di (guest)", "Bot (heuristic) 2")
        )

    stats = {row.player.name: row for row in player_statistics(scored_games(household))}
    scored = [hand for hand in game.hands.all() if not hand.thrown_in]
    assert stats["Bot (heuristic)"].hands == sum(1 for hand in scored if hand.number < 2)
    assert stats["Di (guest)"].hands == sum(1 for hand in scored if hand.number >= 2)
    assert stats["Ann"].hands == len(scored)
    assert stats["Bot (heuristic)"].bids_won == sum(1 for h in scored if h.number < 2 and h.bidder == 1)
    assert stats["Di (guest)"].bids_won == sum(1 for h in scored if h.number >= 2 and h.bidder == 1)
    assert stats["Di (guest)"].games == stats["Bot (heuristic)"].games == stats["Ann"].games == 1
    assert stats["Bot (heuristic)"].finished == stats["Di (guest)"].finished == 0  # still going


def test_a_linked_member_takes_a_bots_seat_between_hands_as_their_player(household, ann, cy):
    """Cy's seat is held, but Bo (a member too) sits in for a bot after the first hand."""
    bo = roster_player(household, "Bo")
    bo_account = type(cy).objects.create_user(username="bo")
    household.members.add(bo_account)
    player_claim(player=bo, user=bo_account, mine=True)
    table = smiths_table(household, ann)
    assert member_seats(table_read(table.pk), bo_account) == (bo, (1, 3))  # bots, before any call
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    table = hands_played(table, 1)
    _, seats = member_seats(table_read(table.pk), bo_account)
    assert seats == (1, 3)
    table_sit_as(table_id=table.pk, version=table.version, seat=3, user=bo_account, holding=None)
    assert from_json(table.state).result is not None
    taken = SeatTaken.objects.get()
    assert (taken.position, taken.from_hand, taken.player) == (3, 1, bo)
    assert table.seats.get(seat=3).name == "Bo"


def test_a_guest_who_sits_down_after_the_game_is_won_plays_the_new_game(household, ann):
    """The won game keeps who played it; the new game seats Di where the bot sat."""
    table = finished_table(household, ann)
    won = Game.objects.get(pk=table.game_id)
    table_take_seat(table=table, seat=1, name="Di", user=None, holding=None)
    assert not SeatTaken.objects.exists()  # she played none of the won game's hands
    assert scoresheet(won).side_names[1] == "Bot (heuristic) & Bot (heuristic) 2"
    table = table_rematch(table=table, seat=0, version=PrivateTable.objects.get(pk=table.pk).version)
    new = Game.objects.get(pk=table.game_id)
    assert [seat.player.name for seat in new.seats.all()] == ["Ann", "Di (guest)", "Cy", "Bot (heuristic) 2"]


def test_a_backup_keeps_who_took_a_seat_over_and_a_bad_one_is_refused_in_words(
    household, ann, django_user_model
):
    table = smiths_table(household, ann)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    table = hands_played(table, 2)
    table_take_seat(table=table, seat=1, name="Di", user=None, holding=None)
    table = play_hand(deal_next_hand(table=table, seat=0, version=table.version))
    backup = household_backup(household=household)
    (taken,) = [game["seats_taken"] for game in backup["games"] if "seats_taken" in game]
    assert [(take["from_hand"], take["seat"]) for take in taken] == [(2, 1)]
    bea = django_user_model.objects.create_user(username="bea")
    restored = household_restore(data=json.loads(json.dumps(backup)), user=bea)
    game = restored.games.get()
    assert [(n, seat, before.name, after.name) for n, seat, before, after in scoresheet(game).taken] == [
        (2, 1, "Bot (heuristic)", "Di (guest)")
    ]
    assert household_backup(household=restored)["games"][0]["seats_taken"] == taken
    bad = json.loads(json.dumps(backup))
    bad["games"][0]["seats_taken"] = [{"from_hand": 2.0, "seat": 1, "player": 0}]
    with pytest.raises(ServiceError, match="seats_taken: who played a seat from which hand on"):
        household_restore(data=bad, user=bea)
