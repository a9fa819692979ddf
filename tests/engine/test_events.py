"""Club-night movements (teams, progressive, six-handed), where each goes next, standings, prizes.

The hand-worked examples below are tallied by hand in the comments, not by the functions under test."""

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.engine.events import (
    PROGRESSIVE,
    TEAMS,
    ByeRule,
    EventError,
    HighAverage,
    HighRound,
    Movement,
    NextSeat,
    Repeat,
    Round,
    RoundResult,
    Table,
    byes,
    matchpoints_words,
    next_seats,
    prizes,
    progressive_movement,
    repeat_meetings,
    repeat_partners,
    six_handed_horizon,
    six_handed_movement,
    standings,
    teams_movement,
    winners_average,
)
from tests.examples import examples


def each_round_seats_everyone_once(movement: Movement, seats_per_table: int) -> None:
    everyone = list(range(1, movement.entrants + 1))
    for round_ in movement.rounds:
        seated = [entrant for table in round_.tables for entrant in table.seats]
        assert all(len(table.seats) == seats_per_table for table in round_.tables)
        assert sorted(seated + list(round_.sitting_out)) == everyone
        assert [table.number for table in round_.tables] == list(range(1, len(round_.tables) + 1))


def sit_outs_stay_level(movement: Movement, who: list[int]) -> None:
    """After every round, any two of ``who`` have sat out a number of times differing by at most one."""
    count = Counter({entrant: 0 for entrant in who})
    for round_ in movement.rounds:
        count.update(round_.sitting_out)
        assert max(count.values()) - min(count.values()) <= 1, round_.number


# ---------------------------------------------------------------------------------------------
# Teams


def test_five_teams_two_tables_and_a_bye_as_worked_by_hand():
    # A teams 1, 2 stay North–South; B teams 3, 4, 5 circle table 1 → table 2 → bye → table 1.
    movement = teams_movement(5, 3)
    assert movement.table_count == 2
    assert [round_.meetings() for round_ in movement.rounds] == [
        [(1, 1, 3), (2, 2, 4)],
        [(1, 1, 5), (2, 2, 3)],
        [(1, 1, 4), (2, 2, 5)],
    ]
    assert [round_.sitting_out for round_ in movement.rounds] == [(5,), (4,), (3,)]
    assert byes(movement) == [(5, 1), (4, 2), (3, 3)]


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(3, 30).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n + 2))))
def test_teams_movement_seats_each_team_once_a_teams_stay_and_b_teams_move_up(case):
    teams, rounds = case
    movement = teams_movement(teams, rounds)
    each_round_seats_everyone_once(movement, 2)
    tables = teams // 2
    b_teams = list(range(tables + 1, teams + 1))
    for round_ in movement.rounds:
        assert [(table, ns) for table, ns, _ in round_.meetings()] == [(t, t) for t in range(1, tables + 1)]
        assert all(bye in b_teams for bye in round_.sitting_out)
    # Each B team's next place is one up: table t → t + 1, the last table → the bye (odd) or table 1.
    circuit = [*range(1, tables + 1), *([None] if teams % 2 else [])]
    for before, after in zip(movement.rounds, movement.rounds[1:], strict=False):
        for team in b_teams:
            was, now = before.seat_of(team), after.seat_of(team)
            was_at = circuit.index(None if was is None else was[0])
            assert circuit[(was_at + 1) % len(circuit)] == (None if now is None else now[0])
    sit_outs_stay_level(movement, b_teams)


@given(st.integers(3, 30))
def test_no_two_teams_meet_twice_exactly_while_rounds_are_at_most_the_b_teams(teams):
    b_teams = (teams + 1) // 2
    assert repeat_meetings(teams_movement(teams, b_teams)) == []
    repeats = repeat_meetings(teams_movement(teams, b_teams + 1))
    assert repeats
    # Round b + 1 brings back round 1's meetings.
    assert all(r.rounds == (1, b_teams + 1) for r in repeats)


def test_teams_movement_refuses_a_single_team_and_no_rounds():
    with pytest.raises(EventError, match="at least 2"):
        teams_movement(1, 3)
    with pytest.raises(EventError, match="at least 1 round"):
        teams_movement(6, 0)


# ---------------------------------------------------------------------------------------------
# Progressive


def partner_pairs(movement: Movement) -> Counter[tuple[int, int]]:
    """An independent tally: North–South are seats 0 and 2, East–West seats 1 and 3."""
    pairs: Counter[tuple[int, int]] = Counter()
    for round_ in movement.rounds:
        for table in round_.tables:
            n, e, s, w = table.seats
            pairs.update([tuple(sorted((n, s))), tuple(sorted((e, w)))])
    return pairs


@pytest.mark.parametrize("rounds", range(1, 8))
def test_eight_players_never_partner_twice_in_up_to_seven_rounds(rounds):
    movement = progressive_movement(8, rounds)
    each_round_seats_everyone_once(movement, 4)
    assert max(partner_pairs(movement).values()) == 1
    assert repeat_partners(movement) == []


def test_eight_players_in_seven_rounds_partner_everyone_once():
    assert set(partner_pairs(progressive_movement(8, 7))) == set(combinations(range(1, 9), 2))


def test_an_eighth_round_for_eight_players_is_flagged_before_the_start():
    movement = progressive_movement(8, 8)
    repeats = repeat_partners(movement)
    tally = partner_pairs(movement)
    assert repeats
    assert [r.pair for r in repeats] == sorted(pair for pair, times in tally.items() if times > 1)


def test_repeat_partners_reads_the_seats_of_a_hand_built_movement():
    # Partners, round 1: 1–3, 2–4, 5–7, 6–8; round 2: 1–3, 5–6, 2–8, 7–4. Only 1–3 repeat.
    movement = Movement(
        PROGRESSIVE,
        8,
        2,
        (
            Round(1, (Table(1, (1, 2, 3, 4)), Table(2, (5, 6, 7, 8))), ()),
            Round(2, (Table(1, (1, 5, 3, 6)), Table(2, (2, 7, 8, 4))), ()),
        ),
    )
    assert repeat_partners(movement) == [Repeat((1, 3), (1, 2))]


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(4, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n + 2))))
def test_progressive_seats_each_player_once_and_sit_outs_take_turns(case):
    players, rounds = case
    movement = progressive_movement(players, rounds)
    each_round_seats_everyone_once(movement, 4)
    assert all(len(round_.sitting_out) == players % 4 for round_ in movement.rounds)
    sit_outs_stay_level(movement, list(range(1, players + 1)))
    tally = partner_pairs(movement)
    assert [r.pair for r in repeat_partners(movement)] == sorted(p for p, n in tally.items() if n > 1)


def repeat_free_rounds(players: int) -> int:
    """The rounds the module docstring promises (4k, 4k + 1) or reports checked (4k + 2, 4k + 3)."""
    return {0: players - 1, 1: players, 2: players, 3: players + 1}[players % 4]


@pytest.mark.parametrize("players", range(4, 44))
def test_progressive_has_no_repeat_partner_up_to_its_stated_rounds(players):
    assert repeat_partners(progressive_movement(players, repeat_free_rounds(players))) == []


@pytest.mark.parametrize("players", [4, 8, 12, 16, 5, 9, 13])
def test_a_repeat_is_reported_when_the_round_robin_is_exhausted(players):
    # 4k players have players − 1 partners each; 4k + 1 players, sitting out once in `players`
    # rounds, partner players − 1 others in those rounds: one round more must repeat.
    assert repeat_partners(progressive_movement(players, repeat_free_rounds(players) + 1))


def test_progressive_is_deterministic():
    assert progressive_movement(10, 9) == progressive_movement(10, 9)


def test_six_players_two_sit_out_in_turn():
    movement = progressive_movement(6, 3)
    assert [round_.sitting_out for round_ in movement.rounds] == [(1, 2), (3, 4), (5, 6)]


# ---------------------------------------------------------------------------------------------
# Six-handed


def tablemates(movement: Movement) -> Counter[tuple[int, int]]:
    met: Counter[tuple[int, int]] = Counter()
    for round_ in movement.rounds:
        for table in round_.tables:
            met.update(combinations(sorted(table.seats), 2))
    return met


@pytest.mark.parametrize(("tables", "horizon"), [(1, 1), (2, 1), (6, 2), (7, 7), (8, 2), (9, 3), (11, 11)])
def test_six_handed_horizon(tables, horizon):
    # T / gcd(gap, T) over row gaps 1 … 5, the smallest: e.g. 9 tables, gap 3 → 3 rounds.
    assert six_handed_horizon(tables) == horizon


@pytest.mark.parametrize("tables", [7, 11, 13])
def test_six_handed_grid_meets_nobody_twice_for_as_many_rounds_as_tables(tables):
    movement = six_handed_movement(6 * tables, tables)
    each_round_seats_everyone_once(movement, 6)
    assert max(tablemates(movement).values()) == 1
    assert repeat_meetings(movement) == []


def test_one_six_handed_table_meets_again_in_round_two_and_says_so():
    repeats = repeat_meetings(six_handed_movement(6, 2))
    assert len(repeats) == 15
    assert {r.rounds for r in repeats} == {(1, 2)}


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(6, 60), st.integers(1, 8))
def test_six_handed_seats_each_player_once_and_sit_outs_take_turns(players, rounds):
    movement = six_handed_movement(players, rounds)
    each_round_seats_everyone_once(movement, 6)
    sit_outs_stay_level(movement, list(range(1, players + 1)))
    tally = tablemates(movement)
    assert [r.pair for r in repeat_meetings(movement)] == sorted(p for p, n in tally.items() if n > 1)


# ---------------------------------------------------------------------------------------------
# Where each goes next


def test_next_seats_after_round_one_of_five_teams():
    after_round_one = next_seats(teams_movement(5, 3), 1)
    assert after_round_one == [
        NextSeat(1, 2, 1, "North–South", moves=False),
        NextSeat(2, 2, 2, "North–South", moves=False),
        NextSeat(3, 2, 2, "East–West", moves=True),
        NextSeat(4, 2, None, None, moves=True),
        NextSeat(5, 2, 1, "East–West", moves=True),
    ]
    assert [seat.where for seat in after_round_one] == [
        "table 1, North–South",
        "table 2, North–South",
        "table 2, East–West",
        "sits out",
        "table 1, East–West",
    ]


def test_next_seats_from_the_start_and_after_the_last_round():
    movement = progressive_movement(8, 2)
    start = next_seats(movement, 0)
    first_table = movement.rounds[0].tables[0].seats
    assert [seat.where for seat in start if seat.entrant in first_table] == [
        f"table 1, {word}"
        for _, word in sorted(zip(first_table, ("North", "East", "South", "West"), strict=True))
    ]
    assert next_seats(movement, 2) == []
    with pytest.raises(EventError, match="no round 3"):
        next_seats(movement, 3)


# ---------------------------------------------------------------------------------------------
# Standings and prizes: five teams, two rounds (the movement of the first test)
#
# Round 1: table 1, team 1 320 (won) v team 3 250; table 2, team 2 410 (won) v team 4 180; 5 bye.
# Round 2: table 1, team 1 300 v team 5 355 (won); table 2, team 2 290 v team 3 300 (won); 4 bye.
# Winners' averages: round 1 (320 + 410) / 2 = 365; round 2 (355 + 300) / 2 = 327.5 → 328.
# Totals by hand: 1: 620, 1 win; 2: 700, 1 win; 3: 550, 1 win; 4: 180 + 328 = 508, 0 wins;
# 5: 365 + 355 = 720, 1 win. Order: 5, 2, 1, 3 (one win each, by points), then 4.

RESULTS = [
    RoundResult(1, 1, 320, won=True),
    RoundResult(3, 1, 250),
    RoundResult(2, 1, 410, won=True),
    RoundResult(4, 1, 180),
    RoundResult(1, 2, 300),
    RoundResult(5, 2, 355, won=True),
    RoundResult(2, 2, 290),
    RoundResult(3, 2, 300, won=True),
]
BYES = [(5, 1), (4, 2)]


def test_winners_average_rounds_half_up():
    assert winners_average(RESULTS, 1) == 365
    assert winners_average(RESULTS, 2) == 328
    assert winners_average(RESULTS, 3) == 0


def test_team_standings_by_wins_then_points_with_byes_at_the_winners_average():
    table = standings(RESULTS, TEAMS, byes(teams_movement(5, 2)))
    assert [(s.rank, s.entrant, s.wins, s.points, s.rounds_played, s.byes) for s in table] == [
        (1, 5, 1, 720, 1, 1),
        (2, 2, 1, 700, 2, 0),
        (3, 1, 1, 620, 2, 0),
        (4, 3, 1, 550, 2, 0),
        (5, 4, 0, 508, 1, 1),
    ]
    assert not any(s.tied for s in table)


@pytest.mark.parametrize(
    ("rule", "team_5", "team_4"),
    [(ByeRule("fixed", 250), 250 + 355, 180 + 250), (ByeRule("nothing"), 355, 180)],
)
def test_a_bye_scores_a_fixed_score_or_nothing_when_the_director_says_so(rule, team_5, team_4):
    points = {s.entrant: s.points for s in standings(RESULTS, TEAMS, BYES, rule)}
    assert (points[5], points[4]) == (team_5, team_4)


def test_more_wins_outrank_more_points():
    results = [RoundResult(1, 1, 200, won=True), RoundResult(2, 1, 900)]
    assert [(s.rank, s.entrant) for s in standings(results, TEAMS)] == [(1, 1), (2, 2)]


def test_the_director_may_rank_teams_by_total_points_alone():
    results = [RoundResult(1, 1, 200, won=True), RoundResult(2, 1, 900)]
    assert [(s.rank, s.entrant) for s in standings(results, TEAMS, ranking="points")] == [(1, 2), (2, 1)]


def test_matchpoints_give_one_per_entrant_scoring_fewer_a_half_per_tie_and_a_bye_the_average():
    # Round 1: 300, 200, 200, 100 among four; entrant 5 sits out. Round 2: entrant 1 sits out.
    results = [
        RoundResult(1, 1, 300, won=True),
        RoundResult(2, 1, 200),
        RoundResult(3, 1, 200, won=True),
        RoundResult(4, 1, 100),
        RoundResult(2, 2, 50),
        RoundResult(3, 2, 400, won=True),
        RoundResult(4, 2, 400),
        RoundResult(5, 2, 10),
    ]
    table = standings(results, TEAMS, [(5, 1), (1, 2)], ByeRule("nothing"), ranking="matchpoints")
    earned = {s.entrant: s.matchpoints for s in table}
    assert earned == {
        1: 3 + Fraction(3, 2),  # beat all three, then a bye: half of three
        2: Fraction(3, 2) + 1,  # tied one, beat one; then beat one
        3: Fraction(3, 2) + Fraction(5, 2),  # tied one, beat one; then tied one, beat two
        4: 0 + Fraction(5, 2),
        5: Fraction(3, 2) + 0,
    }
    assert [(s.rank, s.entrant) for s in table] == [(1, 1), (2, 3), (3, 4), (4, 2), (5, 5)]
    assert [matchpoints_words(earned[n]) for n in (1, 2, 5)] == ["4½", "2½", "1½"]
    assert matchpoints_words(Fraction(1, 2)) == "½"


def test_progressive_standings_by_total_share_ranks_on_equal_totals():
    # Totals by hand: 2 and 4: 620; 1 and 3: 500; 5: 450 → ranks 1, 1, 3, 3, 5.
    results = [
        RoundResult(1, 1, 250),
        RoundResult(1, 2, 250),
        RoundResult(2, 1, 300),
        RoundResult(2, 2, 320),
        RoundResult(3, 1, 250),
        RoundResult(3, 2, 250),
        RoundResult(4, 1, 320),
        RoundResult(4, 2, 300),
        RoundResult(5, 1, 450),
    ]
    table = standings(results, PROGRESSIVE)
    assert [(s.rank, s.entrant, s.points, s.tied) for s in table] == [
        (1, 2, 620, True),
        (1, 4, 620, True),
        (3, 1, 500, True),
        (3, 3, 500, True),
        (5, 5, 450, False),
    ]


def test_standings_refuse_two_results_for_one_round_or_a_result_in_a_bye():
    with pytest.raises(EventError, match="entrant 1 has more than one result for round 1"):
        standings([RoundResult(1, 1, 10), RoundResult(1, 1, 20)], TEAMS)
    with pytest.raises(EventError, match="where it had a bye"):
        standings(RESULTS, TEAMS, [(1, 1)])


def test_prizes_of_the_five_team_example():
    # High round: team 2's 410 in round 1. Averages over played rounds only (byes count in neither):
    # 1: 620/2 = 310; 2: 700/2 = 350; 3: 550/2 = 275; 4: 180/1; 5: 355/1.
    table = standings(RESULTS, TEAMS, BYES)
    two_rounds = prizes(table, RESULTS, min_rounds_for_average=2)
    assert [s.entrant for s in two_rounds.winners] == [5, 2, 1]
    assert two_rounds.high_round == (HighRound(2, 1, 410),)
    assert two_rounds.high_average == (HighAverage(2, Fraction(350), 2),)
    # With one round enough, team 5's single 355 beats team 2's 350.
    assert prizes(table, RESULTS, min_rounds_for_average=1).high_average == (
        HighAverage(5, Fraction(355), 1),
    )
    assert prizes(table, RESULTS, min_rounds_for_average=3).high_average == ()


def test_prizes_share_a_tied_high_round_and_a_tied_place():
    results = [RoundResult(1, 1, 400, won=True), RoundResult(2, 1, 400, won=True)]
    table = standings(results, TEAMS)
    won = prizes(table, results, min_rounds_for_average=1, places=1)
    assert [(s.rank, s.entrant) for s in won.winners] == [(1, 1), (1, 2)]
    assert won.high_round == (HighRound(1, 1, 400), HighRound(2, 1, 400))
