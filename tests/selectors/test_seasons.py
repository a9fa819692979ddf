"""A season read from its nights: each member's own night total (a progressive night's player,
a teams night's pair), the standings by the season's rule, the nights not finished left out."""

from fractions import Fraction

import pytest

from scorepad.selectors.seasons import season_record
from scorepad.services.seasons import season_create
from tests.sample_games import club_event
from tests.season_nights import SIDE_0_WINS, SIDE_1_WINS, play_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return ()


def _points(record):
    names = {p: player.name for p, player in record.players.items()}
    return {names[p]: [n.night.points for n in nights] for p, nights in record.nights.items()}


def test_a_progressive_night_records_each_players_own_total(household, ann):
    season = season_create(household=household, name="Autumn")
    # Four players, one table: North Ann & South Di partner against East Bob & West Cy.
    play_night(
        household,
        ann,
        name="Week 1",
        format="progressive",
        entrants=[["Ann"], ["Bob"], ["Cy"], ["Di"]],
        season=season,
    )
    record = season_record(season)
    points = _points(record)
    assert set(points) == {"Ann", "Bob", "Cy", "Di"}
    assert points["Ann"] == points["Di"] == [25]
    assert points["Bob"] == points["Cy"] == [15]
    history = record.nights[next(p for p, player in record.players.items() if player.name == "Ann")]
    assert [(n.event.name, n.night.place, n.night.tied, n.entrant, n.of) for n in history] == [
        ("Week 1", 1, True, "Ann", 4)
    ]


def test_season_standings_by_total_and_by_average_with_best_of(household, ann):
    season = season_create(household=household, name="Autumn", counting="total", best_of=1, nights=3)
    teams = [["Ann", "Bob"], ["Cy", "Di"]]
    play_night(household, ann, name="Week 1", entrants=teams, hands=[SIDE_0_WINS], season=season)
    play_night(household, ann, name="Week 2", entrants=teams, hands=[SIDE_1_WINS], season=season)
    club_event(household, ann, name="Week 3, not finished", season=season)
    record = season_record(season)
    assert [e.name for e in record.counted_events] == ["Week 1", "Week 2"]
    assert [e.name for e in record.waiting_events] == ["Week 3, not finished"]
    names = {p: player.name for p, player in record.players.items()}
    # Best 1 of 3: each member's best night, 25 for everyone: all four share first place.
    assert {(names[s.member], s.rank, s.points, s.played, s.tied) for s in record.standings} == {
        (name, 1, 25, 2, True) for name in ("Ann", "Bob", "Cy", "Di")
    }
    assert all(s.average == Fraction(25) for s in record.standings)


def test_a_member_who_played_fewer_nights_ranks_by_the_average_rule(household, ann):
    season = season_create(household=household, name="Autumn", counting="average")
    play_night(household, ann, name="Week 1", entrants=[["Ann", "Bob"], ["Cy", "Di"]], season=season)
    play_night(
        household,
        ann,
        name="Week 2",
        entrants=[["Ann", "Bob"], ["Ed", "Flo"]],
        hands=[SIDE_1_WINS],
        season=season,
    )
    record = season_record(season)
    names = {p: player.name for p, player in record.players.items()}
    ranked = [(names[s.member], s.rank, s.points, s.played, s.average) for s in record.standings]
    # Ann and Bob: 25 then 15 (average 20); Ed and Flo: 25 in one night; Cy and Di: 15 in one.
    assert sorted(ranked[:2]) == [("Ed", 1, 25, 1, 25), ("Flo", 1, 25, 1, 25)]
    assert sorted(ranked[2:4]) == [("Ann", 3, 40, 2, 20), ("Bob", 3, 40, 2, 20)]
    assert sorted(ranked[4:]) == [("Cy", 5, 15, 1, 15), ("Di", 5, 15, 1, 15)]
