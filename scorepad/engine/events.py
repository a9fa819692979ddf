"""Club nights: many tables, one event. Movements (who sits where each round), standings and prizes.

Three formats, one ``Movement`` shape. Entrants (teams or players) are numbered from 1, tables and
rounds too, as a director counts them.

* ``teams``: fixed partnerships (``classic`` or ``double-deck``). A stay-and-move movement:
  the "A" teams (1 … tables) sit North–South and never move; the "B" teams sit East–West and move up
  one table each round, the last table wrapping to table 1. With an odd number of teams the last
  position of the circuit is a bye (a phantom table no one sits at, between the last table and
  table 1), so the B team that reaches it sits the round out.
  Guarantee: every meeting is an A team against a B team, and each A team meets the B teams in
  turn, so **no two teams meet twice exactly when rounds ≤ the number of B teams, ⌈teams / 2⌉**.
  Past that a repeat is unavoidable in any movement where the A teams stay (A teams never meet
  each other, so only ``A × B`` meetings exist and a round uses one per seated A team). With an odd
  count only B teams have byes, one each in turn: nobody has a second bye before every B team has
  had one.
* ``progressive``: individuals at four-player tables (seats North, East, South, West; North–South
  are partners as seats 0 and 2 of RULES.md §8). Players beyond a multiple of 4 sit out in turn
  (blocks of consecutive players, cyclically), so after every round any two players' sit-out
  counts differ by at most one. Partners:
  - 4k players: the round-robin (circle) method, a 1-factorization of the players; **no repeated
    partner for rounds ≤ players − 1**, and past that a repeat is unavoidable (each player has only
    players − 1 possible partners).
  - 4k + 1 players: the same circle with a phantom; the phantom's partner sits out, which is exactly
    the turn order above. **No repeated partner for rounds ≤ players** (everyone sits out once).
  - 4k + 2, 4k + 3 players: a deterministic depth-first search over the rounds, with the sit-outs
    fixed as above, for a schedule with no repeated partner (the most constrained player chooses
    first, trying the round-robin's partner first). Each attempt stops after a fixed budget of
    steps (``SEARCH_BUDGET`` beyond one straight pass), and the next leans on the round-robin's
    rounds in another order (``SEARCH_ATTEMPTS`` in all); if none found a repeat-free schedule, the
    longest repeat-free start found is kept and the later rounds get least-used partners. Checked
    (tests): no repeated partner for rounds ≤ players with 4k + 2 players and rounds ≤ players + 1
    with 4k + 3, for every count from 6 to 43 (and once, outside the tests, to 63). Not a proof beyond those
    counts: read ``repeat_partners``. A hopeless request (far more rounds than partners) spends the
    whole budget: seconds for 80 players, so compute a movement once, when the event is set up.
  Whatever the case, ``repeat_partners`` lists the repeats before the event starts, so the page
  can warn the director in words.
* ``six-handed``: six individuals per table, each for themselves (RULES.md §3); players beyond a
  multiple of 6 sit out in turn as above. With 6·T players (T tables, nobody sitting out) the
  players stand in a grid of six rows and T columns and the player in row i moves i tables up each
  round. Two players of rows i and j meet again after T / gcd(i − j, T) rounds, so **nobody meets
  the same player twice in the first ``six_handed_horizon(T)`` rounds** (T rounds when every prime
  factor of T is 7 or more; 1 round with fewer than 6 tables, where a repeat is unavoidable: a
  table's six players cannot all go to different tables). After that horizon, and whenever some
  sit out, the tables are filled greedily, seat by seat across the tables, each seat going to the
  player who has met that table's players least often, then improved by swapping players between
  tables while that lowers the count of earlier meetings. That avoids repeats where it finds how
  but promises nothing; ``repeat_meetings`` reports what is left.

Standings rank teams by wins, then total points; players by total points. Equal records share a rank
(1, 2, 2, 4); no tie is broken. A bye scores by the director's ``ByeRule``: the winners' average of
that round by default (the mean of the winning teams' points that round, rounded half up to a
whole point; 0 when no team won that round), a fixed score, or nothing.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Literal

type EventKind = Literal["teams", "progressive", "six-handed"]
type ByeScore = Literal["winners_average", "fixed", "nothing"]
# How entrants are ranked: "" the format's usual (teams by wins then points, players by points).
type Ranking = Literal["", "points", "wins_points", "matchpoints"]

TEAMS: EventKind = "teams"
PROGRESSIVE: EventKind = "progressive"
SIX_HANDED: EventKind = "six-handed"

# Steps the progressive partner search may take, beyond one straight pass (rounds × players), before
# it settles for the best start it found.
SEARCH_BUDGET = 5_000

_SEAT_WORDS: dict[EventKind, tuple[str, ...]] = {
    TEAMS: ("North–South", "East–West"),
    PROGRESSIVE: ("North", "East", "South", "West"),
    SIX_HANDED: ("seat 1", "seat 2", "seat 3", "seat 4", "seat 5", "seat 6"),
}


def seat_words(kind: EventKind) -> tuple[str, ...]:
    """What each seat index of a ``Table`` of ``kind`` is called at the table ("East–West", "North")."""
    return _SEAT_WORDS[kind]


def movement(kind: EventKind, entrants: int, rounds: int) -> Movement:
    """The movement of ``kind`` for ``entrants`` over ``rounds``."""
    made = {TEAMS: teams_movement, PROGRESSIVE: progressive_movement, SIX_HANDED: six_handed_movement}
    return made[kind](entrants, rounds)


class EventError(ValueError):
    """A movement or result the engine refuses; the message says why in words."""


# ---------------------------------------------------------------------------------------------
# Movements


@dataclass(frozen=True, slots=True)
class Table:
    """One table in one round: who sits in each seat (team ids for ``teams``, player ids otherwise)."""

    number: int
    seats: tuple[int, ...]

    @property
    def north_south(self) -> tuple[int, ...]:
        """The North–South side: the A team (``teams``), or the partners in seats 0 and 2
        (``progressive``); empty at a six-handed table, where everyone plays for themselves."""
        return self._side(0)

    @property
    def east_west(self) -> tuple[int, ...]:
        return self._side(1)

    def _side(self, side: int) -> tuple[int, ...]:
        if len(self.seats) == 2:
            return self.seats[side : side + 1]
        return self.seats[side::2] if len(self.seats) == 4 else ()


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    sitting_out: tuple[int, ...]  # the bye team, or the players who sit out

    def meetings(self) -> list[tuple[int, int, int]]:
        """(table, North–South team, East–West team) for every table of a ``teams`` round."""
        return [
            (table.number, table.seats[0], table.seats[1]) for table in self.tables if len(table.seats) == 2
        ]

    def seat_of(self, entrant: int) -> tuple[int, int] | None:
        """(table, seat index) of ``entrant`` this round; None when it sits out."""
        for table in self.tables:
            if entrant in table.seats:
                return table.number, table.seats.index(entrant)
        return None


@dataclass(frozen=True, slots=True)
class Movement:
    kind: EventKind
    entrants: int
    table_count: int
    rounds: tuple[Round, ...]

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise EventError(f"there is no round {number}: the movement has {len(self.rounds)} rounds")
        return self.rounds[number - 1]


@dataclass(frozen=True, slots=True)
class Repeat:
    """Two entrants who meet (or partner) more than once, and the rounds in which they do."""

    pair: tuple[int, int]
    rounds: tuple[int, ...]


def _check_size(what: str, count: int, least: int, rounds: int) -> None:
    if count < least:
        raise EventError(f"a {what} event needs at least {least} entrants; got {count}")
    if rounds < 1:
        raise EventError(f"an event needs at least 1 round; got {rounds}")


def teams_movement(teams: int, rounds: int) -> Movement:
    """The stay-and-move movement of the module docstring: A teams stay North–South, B teams move up."""
    _check_size("teams", teams, 2, rounds)
    tables = teams // 2
    b_teams = teams - tables
    positions = b_teams  # one per table, plus the bye when the count is odd
    schedule = []
    for index in range(rounds):
        at_position = {(j + index) % positions: tables + 1 + j for j in range(b_teams)}
        seated = tuple(Table(t + 1, (t + 1, at_position[t])) for t in range(tables))
        bye = (at_position[tables],) if positions > tables else ()
        schedule.append(Round(index + 1, seated, bye))
    return Movement(TEAMS, teams, tables, tuple(schedule))


def _sit_outs(players: int, per_round: int, index: int) -> tuple[int, ...]:
    """The block of players who sit out round ``index`` (from 0): consecutive ids, cyclically."""
    return tuple(sorted((index * per_round + j) % players + 1 for j in range(per_round)))


def _circle_pairs(size: int, index: int) -> list[tuple[int, int]]:
    """Round ``index`` of the round-robin on ids 1 … size (size even): ``size`` stays, the rest turn."""
    turning = size - 1
    turn = index % turning
    pairs = [(turn + 1, size)]
    for step in range(1, size // 2):
        pairs.append(((turn + step) % turning + 1, (turn - step) % turning + 1))
    return pairs


def _tables_of_pairs(pairs: Sequence[tuple[int, int]]) -> tuple[Table, ...]:
    """Two partnerships per table, in order: North–South the first pair, East–West the second."""
    return tuple(
        Table(n + 1, (pairs[2 * n][0], pairs[2 * n + 1][0], pairs[2 * n][1], pairs[2 * n + 1][1]))
        for n in range(len(pairs) // 2)
    )


def progressive_movement(players: int, rounds: int) -> Movement:
    """Four-player tables with rotating partners (see the module docstring for the guarantees)."""
    _check_size("progressive", players, 4, rounds)
    out_per_round = players % 4
    if out_per_round in (0, 1):
        size = players + out_per_round  # a phantom makes the circle even for 4k + 1 players
        phantom = {size} if size > players else set()
        schedule = []
        for index in range(rounds):
            out = _sit_outs(players, out_per_round, index)  # for 4k + 1: the phantom's partner
            seated = [pair for pair in _circle_pairs(size, index) if not set(pair) & (phantom | set(out))]
            schedule.append(Round(index + 1, _tables_of_pairs(seated), out))
        return Movement(PROGRESSIVE, players, players // 4, tuple(schedule))
    present = [
        [p for p in range(1, players + 1) if p not in _sit_outs(players, out_per_round, index)]
        for index in range(rounds)
    ]
    matchings = _search_partners(players, present)
    schedule = [
        Round(index + 1, _tables_of_pairs(pairs), _sit_outs(players, out_per_round, index))
        for index, pairs in enumerate(matchings)
    ]
    return Movement(PROGRESSIVE, players, players // 4, tuple(schedule))


class _OutOfBudget(Exception):
    pass


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


# How many orders of the round-robin the search leans on, one after the other, before giving up.
SEARCH_ATTEMPTS = 3


def _search_partners(everyone: int, present: list[list[int]]) -> list[list[tuple[int, int]]]:
    """A repeat-free matching per round if a budgeted search finds one; else the longest
    repeat-free start any attempt found, then least-used partners for the remaining rounds.

    Each attempt leans on the round-robin's rounds taken in a different order (every ``stride``-th
    one, a stride with no factor in common with their count, so each attempt is still a round-robin)."""
    size = everyone + everyone % 2  # the round-robin each round leans on (with a phantom if odd)
    strides = [k for k in range(1, size) if math.gcd(k, size - 1) == 1][:SEARCH_ATTEMPTS]
    best: list[list[tuple[int, int]]] = []
    for stride in strides:
        found, start = _search_once(size, present, stride, SEARCH_BUDGET + len(present) * everyone)
        if found:
            return start
        best = max(best, start, key=len)
    times = Counter(_pair(*pair) for pairs in best for pair in pairs)
    result = list(best)
    for players in present[len(best) :]:
        pairs = _least_used_matching(players, times)
        times.update(_pair(*pair) for pair in pairs)
        result.append(pairs)
    return result


def _search_once(
    size: int, present: list[list[int]], stride: int, budget: int
) -> tuple[bool, list[list[tuple[int, int]]]]:
    """Depth-first over the rounds: (True, the schedule), or (False, the longest repeat-free start)."""
    steps = [0]
    best: list[list[tuple[int, int]]] = []
    chosen: list[list[tuple[int, int]]] = []
    used: set[tuple[int, int]] = set()

    def matchings(players: list[int], hint: dict[int, int]) -> Iterator[list[tuple[int, int]]]:
        steps[0] += 1
        if steps[0] > budget:
            raise _OutOfBudget
        if not players:
            yield []
            return
        free = {p: [q for q in players if q != p and _pair(p, q) not in used] for p in players}
        # The player with the fewest possible partners chooses first (a dead end shows at once),
        # trying the round-robin's partner first, then the partners with the fewest choices.
        first = min(players, key=lambda p: (len(free[p]), players.index(p)))
        for partner in sorted(free[first], key=lambda q: (q != hint.get(first), len(free[q]), q)):
            rest = [p for p in players if p not in (first, partner)]
            for more in matchings(rest, hint):
                yield [(first, partner), *more]

    def extend(index: int) -> bool:
        nonlocal best
        if len(chosen) > len(best):
            best = [list(pairs) for pairs in chosen]
        if index == len(present):
            return True
        hint = {a: b for pair in _circle_pairs(size, index * stride) for a, b in (pair, pair[::-1])}
        for pairs in matchings(present[index], hint):
            chosen.append(pairs)
            used.update(_pair(*pair) for pair in pairs)
            if extend(index + 1):
                return True
            chosen.pop()
            used.difference_update(_pair(*pair) for pair in pairs)
        return False

    try:
        if extend(0):
            return True, chosen
    except _OutOfBudget:
        pass
    return False, best


def _least_used_matching(players: list[int], times: Counter[tuple[int, int]]) -> list[tuple[int, int]]:
    """Greedy: the lowest free player takes the free partner it has partnered least (then the lowest id)."""
    free = list(players)
    pairs = []
    while free:
        first = free.pop(0)
        partner = min(free, key=lambda other: (times[_pair(first, other)], other))
        free.remove(partner)
        pairs.append((first, partner))
    return pairs


def six_handed_horizon(tables: int) -> int:
    """How many rounds the six-handed grid runs before any two players meet again (6·tables players)."""
    return min(tables // math.gcd(gap, tables) for gap in range(1, 6))


def six_handed_movement(players: int, rounds: int) -> Movement:
    """Six individuals per table (see the module docstring for the guarantees)."""
    _check_size("six-handed", players, 6, rounds)
    tables = players // 6
    out_per_round = players % 6
    schedule = []
    met: Counter[tuple[int, int]] = Counter()
    for index in range(rounds):
        out = _sit_outs(players, out_per_round, index)
        if out_per_round == 0 and index < six_handed_horizon(tables):
            # Player r·T + c (row r, column c) sits at table c + r·index, seat r.
            at_table: dict[int, list[int]] = {t: [0] * 6 for t in range(tables)}
            for row in range(6):
                for column in range(tables):
                    at_table[(column + row * index) % tables][row] = row * tables + column + 1
            seated = tuple(Table(t + 1, tuple(at_table[t])) for t in range(tables))
        else:
            present = [p for p in range(1, players + 1) if p not in out]
            seated = _greedy_tables(present, met, index)
        for table in seated:
            met.update(_pair(a, b) for a, b in combinations(table.seats, 2))
        schedule.append(Round(index + 1, seated, out))
    return Movement(SIX_HANDED, players, tables, tuple(schedule))


def _greedy_tables(present: list[int], met: Counter[tuple[int, int]], index: int) -> tuple[Table, ...]:
    """Fill the tables seat by seat across all tables (seat 1 at every table, then seat 2 …), each
    seat going to the free player who has met that table's players least often, then the first in
    a queue that turns by one each round."""
    shift = index % len(present)
    free = present[shift:] + present[:shift]
    tables: list[list[int]] = [[] for _ in range(len(present) // 6)]
    for _seat in range(6):
        for table in tables:
            newcomer = min(free, key=lambda p: (sum(met[_pair(p, q)] for q in table), free.index(p)))
            free.remove(newcomer)
            table.append(newcomer)
    _improve_by_swaps(tables, met)
    return tuple(Table(number, tuple(table)) for number, table in enumerate(tables, start=1))


def _improve_by_swaps(tables: list[list[int]], met: Counter[tuple[int, int]]) -> None:
    """Swap two players of different tables while that lowers the count of earlier meetings."""

    def cost(player: int, table: list[int], leaving: int) -> int:
        return sum(met[_pair(player, other)] for other in table if other not in (player, leaving))

    improved = True
    while improved:
        improved = False
        for first, second in combinations(range(len(tables)), 2):
            for i, x in enumerate(tables[first]):
                for j, y in enumerate(tables[second]):
                    now = cost(x, tables[first], x) + cost(y, tables[second], y)
                    swapped = cost(y, tables[first], x) + cost(x, tables[second], y)
                    if swapped < now:
                        tables[first][i], tables[second][j] = y, x
                        x = y
                        improved = True


def _repeats(movement: Movement, pairs_at: Callable[[Table], list[tuple[int, int]]]) -> list[Repeat]:
    rounds_of: dict[tuple[int, int], list[int]] = {}
    for round_ in movement.rounds:
        for table in round_.tables:
            for pair in pairs_at(table):
                rounds_of.setdefault(pair, []).append(round_.number)
    return [Repeat(pair, tuple(rounds)) for pair, rounds in sorted(rounds_of.items()) if len(rounds) > 1]


def _tablemates(table: Table) -> list[tuple[int, int]]:
    return [_pair(a, b) for a, b in combinations(table.seats, 2)]


def _partners(table: Table) -> list[tuple[int, int]]:
    return [_pair(*table.north_south), _pair(*table.east_west)]


def repeat_meetings(movement: Movement) -> list[Repeat]:
    """Every pair of entrants at the same table in more than one round (teams: who plays whom)."""
    return _repeats(movement, _tablemates)


def repeat_partners(movement: Movement) -> list[Repeat]:
    """Every pair of players who partner in more than one round (``progressive`` only; else empty).
    Call it before the start: an empty list means no partnership repeats."""
    if movement.kind != PROGRESSIVE:
        return []
    return _repeats(movement, _partners)


def byes(movement: Movement) -> list[tuple[int, int]]:
    """(entrant, round) for every bye or sit-out of the movement."""
    return [(entrant, round_.number) for round_ in movement.rounds for entrant in round_.sitting_out]


@dataclass(frozen=True, slots=True)
class NextSeat:
    """Where one entrant goes for ``round``: a table and seat, or a bye (``table`` None)."""

    entrant: int
    round: int
    table: int | None
    seat: str | None  # "North–South", "East", "seat 3" …; None on a bye
    moves: bool  # whether the table or seat differs from the round before

    @property
    def where(self) -> str:
        """ "table 4, East–West", or "sits out" (read as "Team 7: table 4, East–West")."""
        return "sits out" if self.table is None else f"table {self.table}, {self.seat}"


def next_seats(movement: Movement, round_number: int) -> list[NextSeat]:
    """Where each entrant goes after round ``round_number`` ends (0: where everyone starts), in
    entrant order; empty after the last round."""
    if not 0 <= round_number <= len(movement.rounds):
        raise EventError(f"there is no round {round_number}: the movement has {len(movement.rounds)} rounds")
    if round_number == len(movement.rounds):
        return []
    coming = movement.rounds[round_number]
    before = movement.rounds[round_number - 1] if round_number else None
    words = _SEAT_WORDS[movement.kind]
    result = []
    for entrant in range(1, movement.entrants + 1):
        place = coming.seat_of(entrant)
        moves = before is None or before.seat_of(entrant) != place
        if place is None:
            result.append(NextSeat(entrant, coming.number, None, None, moves))
        else:
            result.append(NextSeat(entrant, coming.number, place[0], words[place[1]], moves))
    return result


# ---------------------------------------------------------------------------------------------
# Results, standings and prizes


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One entrant's score for one round (a team's, or a player's share of the table)."""

    entrant: int
    round: int
    points: int
    won: bool = False


@dataclass(frozen=True, slots=True)
class ByeRule:
    """How a bye scores: the round's winners' average (default), ``fixed_points``, or nothing.
    A bye never counts as a win."""

    score: ByeScore = "winners_average"
    fixed_points: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entrant: int
    wins: int
    points: int  # played points plus bye points
    rounds_played: int
    byes: int
    tied: bool  # shares its rank with another entrant
    matchpoints: Fraction = Fraction(0)  # each round: 1 per entrant scoring fewer, ½ per tie


def winners_average(results: Sequence[RoundResult], round_number: int) -> int:
    """The mean of the winning teams' points in ``round_number``, rounded half up; 0 if nobody won."""
    won = [result.points for result in results if result.round == round_number and result.won]
    if not won:
        return 0
    return math.floor(Fraction(sum(won), len(won)) + Fraction(1, 2))


def bye_points(rule: ByeRule, results: Sequence[RoundResult], round_number: int) -> int:
    if rule.score == "winners_average":
        return winners_average(results, round_number)
    return rule.fixed_points if rule.score == "fixed" else 0


def standings(
    results: Sequence[RoundResult],
    kind: EventKind,
    byes: Sequence[tuple[int, int]] = (),
    bye_rule: ByeRule = ByeRule(),
    ranking: Ranking = "",
) -> list[Standing]:
    """Everyone's rank by ``ranking``: by default teams by wins then points, players by points;
    or total points, wins then points, or matchpoints (each round, one for every entrant who
    played it and scored fewer, a half for each who scored the same; a bye scores the round's
    average, half of those who played it less one). Equal records share a rank. ``byes`` are
    (entrant, round) pairs, as ``byes(movement)`` gives them."""
    seen = Counter((result.entrant, result.round) for result in results)
    twice = [key for key, count in seen.items() if count > 1]
    if twice:
        entrant, round_number = min(twice)
        raise EventError(f"entrant {entrant} has more than one result for round {round_number}")
    for entrant, round_number in byes:
        if (entrant, round_number) in seen:
            raise EventError(f"entrant {entrant} has a result for round {round_number}, where it had a bye")
    entrants = sorted({r.entrant for r in results} | {entrant for entrant, _ in byes})
    earned = _matchpoints(results, byes)
    unranked = [
        dataclasses.replace(
            _tally(entrant, results, byes, bye_rule), matchpoints=earned.get(entrant, Fraction(0))
        )
        for entrant in entrants
    ]
    rule = ranking or ("wins_points" if kind == TEAMS else "points")

    def record(standing: Standing) -> tuple[Fraction | int, ...]:
        if rule == "matchpoints":
            return (standing.matchpoints, standing.points)
        return (standing.wins, standing.points) if rule == "wins_points" else (standing.points,)

    # Best record first; equal records in entrant order (a display order, not a tie-break).
    unranked.sort(key=lambda standing: (tuple(-value for value in record(standing)), standing.entrant))
    sharing = Counter(record(standing) for standing in unranked)
    ranked: list[Standing] = []
    for position, standing in enumerate(unranked):
        # Competition ranking (1, 2, 2, 4): an equal record takes the rank of the first holder.
        same = position > 0 and record(unranked[position - 1]) == record(standing)
        rank = ranked[-1].rank if same else position + 1
        ranked.append(dataclasses.replace(standing, rank=rank, tied=sharing[record(standing)] > 1))
    return ranked


def matchpoints_words(value: Fraction) -> str:
    """Matchpoints as a scorer writes them: "7", "7½", "½"."""
    whole, half = divmod(value * 2, 2)
    if not half:
        return str(int(whole))
    return f"{int(whole) or ''}½"


def _matchpoints(results: Sequence[RoundResult], byes: Sequence[tuple[int, int]]) -> dict[int, Fraction]:
    """Each entrant's matchpoints over the rounds: per round, one for every other entrant who
    played it and scored fewer, a half for each who scored the same; a bye, the round's average."""
    earned: defaultdict[int, Fraction] = defaultdict(Fraction)
    rounds = sorted({result.round for result in results})
    for round_number in rounds:
        played = [result for result in results if result.round == round_number]
        for result in played:
            fewer = sum(other.points < result.points for other in played)
            same = sum(other.points == result.points for other in played) - 1
            earned[result.entrant] += fewer + Fraction(same, 2)
    for entrant, round_number in byes:
        played_count = sum(result.round == round_number for result in results)
        earned[entrant] += Fraction(max(0, played_count - 1), 2)
    return dict(earned)


def _tally(
    entrant: int, results: Sequence[RoundResult], byes: Sequence[tuple[int, int]], bye_rule: ByeRule
) -> Standing:
    """One entrant's wins, points (bye points included) and rounds, not yet ranked."""
    mine = [result for result in results if result.entrant == entrant]
    bye_rounds = [round_number for who, round_number in byes if who == entrant]
    points = sum(result.points for result in mine)
    points += sum(bye_points(bye_rule, results, round_number) for round_number in bye_rounds)
    wins = sum(result.won for result in mine)
    return Standing(0, entrant, wins, points, len(mine), len(bye_rounds), tied=False)


@dataclass(frozen=True, slots=True)
class HighRound:
    entrant: int
    round: int
    points: int


@dataclass(frozen=True, slots=True)
class HighAverage:
    entrant: int
    average: Fraction  # played points / rounds played (byes count in neither)
    rounds_played: int


@dataclass(frozen=True, slots=True)
class Prizes:
    winners: tuple[Standing, ...]  # rank 1 … ``places``; all who share a prize rank
    high_round: tuple[HighRound, ...]  # every holder of the best single-round score
    high_average: tuple[HighAverage, ...]  # every holder of the best average; empty if none qualifies


def prizes(
    standings_: Sequence[Standing],
    results: Sequence[RoundResult],
    min_rounds_for_average: int,
    places: int = 3,
) -> Prizes:
    """Places 1 … ``places`` from the standings; the best single played round; the best average per
    round played among entrants who played at least ``min_rounds_for_average`` rounds. Ties share."""
    if min_rounds_for_average < 1:
        raise EventError(
            f"the high average needs a minimum of at least 1 round; got {min_rounds_for_average}"
        )
    winners = tuple(standing for standing in standings_ if standing.rank <= places)
    top = max((r.points for r in results), default=None)
    high_round = tuple(
        HighRound(r.entrant, r.round, r.points)
        for r in sorted(results, key=lambda r: (r.entrant, r.round))
        if r.points == top
    )
    played: dict[int, list[int]] = {}
    for r in results:
        played.setdefault(r.entrant, []).append(r.points)
    averages = [
        HighAverage(entrant, Fraction(sum(points), len(points)), len(points))
        for entrant, points in sorted(played.items())
        if len(points) >= min_rounds_for_average
    ]
    best = max((a.average for a in averages), default=None)
    return Prizes(winners, high_round, tuple(a for a in averages if a.average == best))
