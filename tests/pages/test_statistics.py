"""The statistics tables (``pages/statistics.py``), checked against games scored by hand."""

import pytest

from scorepad.pages.statistics import player_statistics
from scorepad.selectors.games import scored_games
from tests.sample_games import import_game

pytestmark = pytest.mark.django_db


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
