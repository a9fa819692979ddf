"""History filters, the scoresheet and the tallies statistics read, checked against games scored by hand."""

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from scorepad.models import Game, PrivateTable, SeatTaken, TableMessage, TableSeat
from scorepad.pages.statistics import partnership_leaderboard, player_statistics
from scorepad.selectors import games as selectors
from scorepad.selectors.exchange import household_history_csv
from scorepad.selectors.games import games_for_household, scored_games, scoresheet
from scorepad.selectors.tables import TableMarks, table_marks, table_read
from scorepad.services.games import hand_record
from scorepad.services.tables import SeatPlan, table_open
from tests.pages.test_statistics import stats_by
from tests.sample_games import (
    CLASSIC_WON,
    import_game,
    make_household,
    make_user,
)

pytestmark = pytest.mark.django_db
SEATED = ("Ann", "Bo", "Cy", "Di")


def player(household, name):
    return household.players.get(name=name)


def test_history_lists_newest_first(household, games):
    assert list(games_for_household(household)) == [games["double"], games["playing"], games["won"]]


def test_history_filters_by_variant_player_and_status(household, games):
    assert list(games_for_household(household, variant="classic")) == [games["playing"], games["won"]]
    assert list(games_for_household(household, player=player(household, "Ed"))) == [games["double"]]
    assert list(games_for_household(household, player=player(household, "Flo"))) == []
    assert list(games_for_household(household, finished=True)) == [games["won"]]
    assert list(games_for_household(household, finished=False)) == [games["double"], games["playing"]]
    combined = games_for_household(
        household, variant="classic", player=player(household, "Di"), finished=False
    )
    assert list(combined) == [games["playing"]]


def test_history_counts_hands_per_game(household, games):
    counts = {game.pk: game.hand_count for game in games_for_household(household)}

    assert counts == {games["won"].pk: 5, games["playing"].pk: 1, games["double"].pk: 2}


def test_history_never_shows_another_households_games(household, games):
    other = make_household(make_user("zed"), name="The Joneses")
    import_game(other, CLASSIC_WON, ("Ann", "Bo", "Cy", "Di"))

    assert set(games_for_household(household)) == set(games.values())
    assert list(games_for_household(household, player=player(other, "Ann"))) == []


def test_statistics_and_csv_read_a_household_in_a_fixed_number_of_queries(
    household, django_assert_max_num_queries
):
    """One query per game would make a season's statistics crawl; hands come in one prefetch."""
    import_game(household, CLASSIC_WON, SEATED)
    with CaptureQueriesContext(connection) as one_game:
        player_statistics(scored_games(household))
        household_history_csv(household=household)
    for _ in range(4):
        import_game(household, CLASSIC_WON, SEATED)
    with django_assert_max_num_queries(len(one_game)):
        player_statistics(scored_games(household))
        household_history_csv(household=household)


def test_a_game_deleted_by_another_phone_while_its_page_is_read_is_a_404_not_a_500(household):
    game = import_game(household, CLASSIC_WON, SEATED)
    Game.objects.filter(pk=game.pk).delete()  # another phone, after this request looked the game up
    with pytest.raises(Http404):
        scoresheet(game)


def test_statistics_score_again_only_the_games_written_since_they_were_last_read(
    household, games, monkeypatch
):
    """A household of hundreds of games must not score every hand on every view: each game's tally
    is kept under its revision, and a hand written moves only that game's revision on."""
    before = stats_by(household)[("Di", "classic")]
    scored = []
    real = selectors.score_game
    monkeypatch.setattr(selectors, "score_game", lambda *args: scored.append(args[0].id) or real(*args))

    assert stats_by(household)[("Di", "classic")] == before
    assert scored == []  # every tally came from the cache

    hand_record(
        game=games["playing"],
        number=1,
        data={"bidder": 2, "bid": 26, "trump": "S", "meld": [20, 4], "tricks": [20, 5]},  # Di, seat 2
    )
    scored.clear()  # the write scored its game too
    di = stats_by(household)[("Di", "classic")]

    assert scored == ["classic"]  # the one game written to
    assert (di.bids_won, di.bids_made, di.bid_total) == (
        before.bids_won + 1,
        before.bids_made + 1,
        before.bid_total + 26,
    )
    assert di.hands == before.hands + 1


def test_a_seat_taken_over_credits_each_player_with_their_hands_and_the_result_to_who_sat_at_the_end(
    household,
):
    """Ed took Bo's seat from the third hand of a won game: Bo played two hands of it and did not
    finish it, Ed played the rest and lost it; Ann, there throughout, counts it once."""
    game = import_game(household, CLASSIC_WON, SEATED)
    ed = player(household, "Ed")  # on the roster, in no game
    SeatTaken.objects.create(game=game, position=1, from_hand=2, player=ed)
    stats = stats_by(household)
    line = {name: (s.games, s.finished, s.wins, s.hands, s.bids_won) for (name, _), s in stats.items()}
    assert line["Bo"] == (1, 0, 0, 2, 1)  # hands 1–2, his bid of 25 among them
    assert line["Ed"] == (1, 1, 0, 3, 0)  # hands 3–5, and the lost game
    assert line["Ann"] == (1, 1, 1, 5, 2)
    assert line["Di"] == (1, 1, 0, 5, 1)
    pairs = {r.names: (r.games, r.finished, r.wins) for r in partnership_leaderboard(scored_games(household))}
    assert pairs == {"Ann & Cy": (1, 1, 1), "Bo & Di": (1, 0, 0), "Di & Ed": (1, 1, 0)}
    assert list(games_for_household(household, player=ed)) == [game]


def test_a_tables_marks_are_one_small_read_and_a_gone_table_has_none(django_assert_num_queries):
    seats = [SeatPlan(TableSeat.OPEN)] * 4
    table, _ = table_open(host_user=None, host_name="Ann", variant_id="classic", seats=seats, seed=9)
    with django_assert_num_queries(1):
        assert table_marks(table.pk) == TableMarks(table.version, 0)
    PrivateTable.objects.filter(pk=table.pk).update(version=table.version + 1)
    assert table_marks(table.pk) == TableMarks(table.version + 1, 0)
    TableMessage.objects.create(table=table, seat=0, message="nice")
    latest = TableMessage.objects.create(table=table, seat=0, message="gg")
    assert table_marks(table.pk) == TableMarks(table.version + 1, latest.pk)
    assert table_read(table.pk).marks == table_marks(table.pk)
    PrivateTable.objects.filter(pk=table.pk).delete()
    assert table_marks(table.pk) is None
