"""History filters and player statistics, checked against games scored by hand."""

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from scorepad.models import Game
from scorepad.selectors import games as selectors
from scorepad.selectors.exchange import household_history_csv
from scorepad.selectors.games import games_for_household, player_statistics, scored_games, scoresheet
from scorepad.services.games import hand_record
from tests.sample_games import (
    CLASSIC_WON,
    import_game,
    make_household,
    make_user,
    three_games,
)

pytestmark = pytest.mark.django_db
SEATED = ("Ann", "Bo", "Cy", "Di")


@pytest.fixture
def household():
    return make_household(make_user("ann"))


@pytest.fixture
def games(household):
    return three_games(household)


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


def stats_by(household):
    return {(row.player.name, row.variant.id): row for row in player_statistics(scored_games(household))}


def test_statistics_match_the_hand_worked_classic_games(household, games):
    stats = stats_by(household)
    ann, bo, cy, di = (stats[(name, "classic")] for name in ("Ann", "Bo", "Cy", "Di"))

    # Ann: won the finished game (side 0), in the one still going; bid 30 and 22 (both made), then 20 (made).
    assert (ann.games, ann.finished, ann.wins, ann.win_rate) == (2, 1, 1, 1.0)
    assert (ann.bids_won, ann.bids_made, ann.bids_made_rate) == (3, 3, 1.0)
    assert ann.average_bid == pytest.approx(24)  # (30 + 22 + 20) / 3
    # Her side's meld per hand: 18, 10, 20, 30, 8 in the first game, 15 in the second.
    assert ann.average_meld == pytest.approx(101 / 6)

    # Bo: lost the finished game; bid once, 25, and was set.
    assert (bo.games, bo.finished, bo.wins, bo.win_rate) == (2, 1, 0, 0.0)
    assert (bo.bids_won, bo.bids_made, bo.bids_made_rate, bo.average_bid) == (1, 0, 0.0, 25)
    assert bo.average_meld == pytest.approx((9 + 12 + 4 + 14 + 6 + 5) / 6)

    # Cy is Ann's partner in both games: same wins and side meld, her own bid of 40.
    assert (cy.wins, cy.bids_won, cy.bids_made, cy.average_bid) == (1, 1, 1, 40)
    assert cy.average_meld == ann.average_meld
    # Di bid 21 and made it, though her side lost.
    assert (di.wins, di.bids_won, di.bids_made_rate, di.average_bid) == (0, 1, 1.0, 21)


def test_statistics_keep_variants_apart(household, games):
    stats = stats_by(household)
    cy = stats[("Cy", "double-deck")]
    bo = stats[("Bo", "double-deck")]

    # §9.4's game: Bo bid 55 and went set; Cy bid 50 with no marriage, so it was not played.
    assert (cy.games, cy.finished, cy.wins, cy.win_rate) == (1, 0, 0, None)
    assert (cy.bids_won, cy.bids_made, cy.average_bid) == (1, 0, 50)
    assert cy.average_meld == pytest.approx((24 + 0) / 2)
    assert (bo.bids_won, bo.bids_made_rate, bo.average_meld) == (1, 0.0, pytest.approx((31 + 26) / 2))
    assert ("Ed", "classic") not in stats
    assert stats[("Ed", "double-deck")].average_bid is None  # never took the bid


def test_statistics_list_players_by_name_then_variant(household, games):
    keys = [(row.player.name, row.variant.id) for row in player_statistics(scored_games(household))]

    assert keys == [
        ("Ann", "classic"),
        ("Ann", "double-deck"),
        ("Bo", "classic"),
        ("Bo", "double-deck"),
        ("Cy", "classic"),
        ("Cy", "double-deck"),
        ("Di", "classic"),
        ("Ed", "double-deck"),
    ]


def test_six_handed_statistics_are_per_player(household):
    record = {
        "variant": "six-handed",
        "settings": {"target": 500},
        "hands": [
            # Ed bids 120: 110 + 45 = 155, made. Flo melds 20 and takes 45.
            {
                "bidder": 4,
                "bid": 120,
                "trump": "S",
                "meld": [0, 40, 0, 0, 110, 20],
                "tricks": [50, 0, 60, 40, 45, 45],
            },
            # Ed bids 350: 300 + 60 = 360, made, and reaches 515 ≥ 500 alone: he wins.
            {
                "bidder": 4,
                "bid": 350,
                "trump": "H",
                "meld": [0, 0, 0, 0, 300, 0],
                "tricks": [40, 40, 40, 30, 60, 30],
            },
        ],
    }
    import_game(household, record, ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"))

    stats = stats_by(household)

    ed, flo = stats[("Ed", "six-handed")], stats[("Flo", "six-handed")]
    assert (ed.wins, ed.bids_won, ed.bids_made, ed.average_bid, ed.average_meld) == (1, 2, 2, 235, 205)
    assert (flo.wins, flo.win_rate, flo.bids_won, flo.average_meld) == (0, 0.0, 0, 10)


def test_a_household_without_games_has_no_statistics(household):
    assert player_statistics(scored_games(household)) == []


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
