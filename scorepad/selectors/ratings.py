"""Club members' ratings, read from the record: every closed round's tables, in date order.

The arithmetic is the ``openskill`` library's (Weng–Lin Bayesian rating, the Plackett–Luce model),
not ours: it rates teams natively, so partners (a teams night's pair, a progressive night's
partners of the round) are rated together, and a six-handed table is six teams of one. Each table
of each closed round is one match: its sides, ordered by the points each scored there (equal
points are a tie). Byes are not matches.

A rating is a best guess of a member's strength (``mu``, everyone starting at 25) and how unsure
that guess is (``sigma``, starting at 8.3 and shrinking as they play). Nothing is stored: the
ratings are worked out again from the results whenever those change, and kept meanwhile in the
cache under a key made of the club's results (any round closed or corrected names a new key).
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max, QuerySet, Sum
from openskill.models import PlackettLuce, PlackettLuceRating

from ..models import ClubMember, ClubResult, ClubRound
from .games import CACHE_ERRORS

logger = logging.getLogger(__name__)

RATINGS_CACHE_SECONDS = 24 * 3600
RATING_SCHEME = "openskill-pl-1"  # in the cache key: a change of model or order names new keys


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float  # the best guess of the member's playing strength
    sigma: float  # how unsure that guess is: the true strength is likely within one sigma of mu
    tables: int  # the tables (rounds) it was worked out from

    @property
    def shown(self) -> str:
        """ "27.1 ± 4.2" """
        return f"{self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def ordinal(self) -> float:
        """A cautious figure to sort by: mu less three sigmas (a newcomer is not put on top by luck)."""
        return self.mu - 3 * self.sigma


def _closed_results(household_id: int) -> QuerySet[ClubResult]:
    return ClubResult.objects.filter(
        round__event__household_id=household_id,
        round__status=ClubRound.Status.CLOSED,
        bye=False,
        table__isnull=False,
    )


def ratings_key(household_id: int) -> str:
    """The cache key of the club's ratings as its results stand now: a round closed, corrected
    (its results written again, under new ids) or removed changes it."""
    marks = _closed_results(household_id).aggregate(
        count=Count("id"), last=Max("id"), points=Sum("points"), closed=Max("round__closed_at")
    )
    members = ClubMember.objects.filter(event__household_id=household_id).aggregate(
        count=Count("id"), last=Max("id")
    )
    text = f"{RATING_SCHEME}|{sorted(marks.items())}|{sorted(members.items())}"
    return f"club-ratings:{household_id}:{hashlib.sha256(text.encode()).hexdigest()[:24]}"


def club_ratings(household_id: int) -> dict[int, Rating]:
    """Every member's rating (by player id) who has played a closed round of the club's nights."""
    key = ratings_key(household_id)
    try:
        kept = cache.get(key)
    except CACHE_ERRORS as error:
        logger.warning("club ratings worked out again, the cache did not answer: %s", error)
        kept = None
    if kept is not None:
        return dict(kept)
    ratings = rate_club(household_id)
    try:
        cache.set(key, ratings, timeout=RATINGS_CACHE_SECONDS)
    except CACHE_ERRORS as error:
        logger.warning("club ratings not kept, the cache did not answer: %s", error)
    return ratings


def rate_club(household_id: int) -> dict[int, Rating]:
    """The ratings worked out from the start: tables in date order (the night's, then its rounds'
    and tables' numbers), each a match between its sides."""
    players: defaultdict[int, list[int]] = defaultdict(list)
    for entrant_id, player_id in (
        ClubMember.objects.filter(event__household_id=household_id)
        .order_by("entrant_id", "order")
        .values_list("entrant_id", "player_id")
    ):
        players[entrant_id].append(player_id)
    rows = (
        _closed_results(household_id)
        .order_by(
            "round__event__created_at", "round__event_id", "round__number", "table__number", "entrant_id"
        )
        .values_list("table_id", "table__seats", "entrant_id", "points")
    )
    tables: dict[int, tuple[list[int], dict[int, int]]] = {}
    for table_id, seats, entrant_id, points in rows:
        tables.setdefault(table_id, (list(seats), {}))[1][entrant_id] = points
    model = PlackettLuce()
    current: dict[int, PlackettLuceRating] = {}
    played: defaultdict[int, int] = defaultdict(int)
    for table_seats, table_points in tables.values():
        sides = _sides(table_seats, table_points, players)
        if len(sides) < 2:
            continue
        teams = [[current.setdefault(p, model.rating(name=str(p))) for p in side] for side, _ in sides]
        rated = model.rate(teams, scores=[float(score) for _, score in sides])
        for (side, _), team in zip(sides, rated, strict=True):
            for player_id, rating in zip(side, team, strict=True):
                current[player_id] = rating
                played[player_id] += 1
    return {
        player_id: Rating(float(rating.mu), float(rating.sigma), played[player_id])
        for player_id, rating in current.items()
    }


def _sides(
    seats: list[int], points: dict[int, int], players: dict[int, list[int]]
) -> list[tuple[list[int], int]]:
    """A table's sides as (players, points): a teams table's two teams; a progressive table's two
    partnerships (seats 0 and 2, 1 and 3); a six-handed table's six players."""
    per_side = 2 if len(seats) == 4 else len(seats)
    sides: list[tuple[list[int], int]] = []
    for side in range(per_side):
        entrants = [e for index, e in enumerate(seats) if index % per_side == side and e in points]
        members = [p for e in entrants for p in players.get(e, [])]
        if entrants and members:
            sides.append((members, max(points[e] for e in entrants)))
    return sides
