"""A club's season: many nights, one standings table per member, as clubs keep it on paper.

Each member has one ``Night`` per club night they played: their own total for the night (in a
progressive or six-handed night the player's own points; in a teams night their team's) and their
place. A ``SeasonRule`` says how the nights count:

* ``total``: the points of the counted nights added up; ``average``: their mean per night.
* ``best_of`` N (of the season's M ``nights``): only each member's N best nights count (highest
  points first; between equal nights the earlier one). Without it every night counts.

Members are ranked by the counted total (or average); equal records share a rank (1, 2, 2, 4) and
no tie is broken, as in ``engine.events``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Literal

type Counting = Literal["total", "average"]
TOTAL: Counting = "total"
AVERAGE: Counting = "average"
MAX_NIGHTS = 200  # a season of weekly nights is at most a few years long


class SeasonError(ValueError):
    """A season rule the engine refuses; the message says why in words."""


@dataclass(frozen=True, slots=True)
class SeasonRule:
    counting: Counting = TOTAL
    best_of: int | None = None  # N: each member's best N nights count; None: every night
    nights: int | None = None  # M: the nights the season plans

    def __post_init__(self) -> None:
        check_rule(self.counting, self.best_of, self.nights)


def check_rule(counting: str, best_of: int | None, nights: int | None) -> None:
    """Refuse, in words, a rule that cannot be kept."""
    if counting not in (TOTAL, AVERAGE):
        raise SeasonError("Choose how the season counts: total points, or the average per night.")
    if nights is not None and not 1 <= nights <= MAX_NIGHTS:
        raise SeasonError(f"A season has 1 to {MAX_NIGHTS} nights.")
    if best_of is not None:
        if nights is None:
            raise SeasonError("Best N of M nights needs M: say how many nights the season has.")
        if best_of < 1:
            raise SeasonError("Best N of M nights needs N to be at least 1.")
        if best_of > nights:
            raise SeasonError(
                f"Best {best_of} of {nights} nights cannot be: a member cannot count more nights "
                "than the season has."
            )


@dataclass(frozen=True, slots=True)
class Night:
    """One member's night: which event, when, their points and their place (``tied``: shared)."""

    event: int
    day: date
    points: int
    place: int
    tied: bool = False


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    rank: int
    member: int
    played: int  # nights played
    counted: tuple[Night, ...]  # the nights that count, in date order
    points: int  # the counted nights' points added up
    tied: bool  # shares its rank with another member

    @property
    def average(self) -> Fraction:
        """Points per counted night."""
        return Fraction(self.points, len(self.counted)) if self.counted else Fraction(0)

    def counts(self, night: Night) -> bool:
        return night in self.counted


def counted_nights(nights: Sequence[Night], best_of: int | None) -> tuple[Night, ...]:
    """The nights that count: all, or the ``best_of`` highest-scoring (the earlier of equal ones),
    in date order."""
    chosen = list(nights)
    if best_of is not None:
        chosen = sorted(chosen, key=lambda night: (-night.points, night.day, night.event))[:best_of]
    return tuple(sorted(chosen, key=lambda night: (night.day, night.event)))


def season_standings(members: Mapping[int, Sequence[Night]], rule: SeasonRule) -> list[SeasonStanding]:
    """Every member who played a night, ranked by ``rule``; equal records share a rank."""
    unranked = []
    for member, nights in members.items():
        if not nights:
            continue
        counted = counted_nights(nights, rule.best_of)
        unranked.append(
            SeasonStanding(0, member, len(nights), counted, sum(n.points for n in counted), tied=False)
        )

    def record(standing: SeasonStanding) -> Fraction | int:
        return standing.average if rule.counting == AVERAGE else standing.points

    # Best record first; equal records in member order (a display order, not a tie-break).
    unranked.sort(key=lambda standing: (-record(standing), standing.member))
    shared = {r: sum(1 for s in unranked if record(s) == r) for r in {record(s) for s in unranked}}
    ranked: list[SeasonStanding] = []
    for position, standing in enumerate(unranked):
        same = position > 0 and record(unranked[position - 1]) == record(standing)
        rank = ranked[-1].rank if same else position + 1
        ranked.append(
            SeasonStanding(
                rank,
                standing.member,
                standing.played,
                standing.counted,
                standing.points,
                shared[record(standing)] > 1,
            )
        )
    return ranked
