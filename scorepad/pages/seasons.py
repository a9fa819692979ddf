"""What a season's pages show, in words: the rule, each member's row of the standings, a member's
nights, and what a rating means (built from read models and engine values; no queries here)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..engine import seasons
from ..models import ClubSeason, Player
from ..selectors.ratings import Rating
from ..selectors.seasons import MemberNight, SeasonRecord

RATING_WORDS = (
    "A rating such as 27.1 ± 4.2 is the best guess of how strongly a member plays (27.1), worked out "
    "from every table of every club night, who they played with and against, and by how much they "
    "won or lost; and how sure that guess is (± 4.2: their true strength is likely within 4.2 either "
    "side). Everyone starts at 25.0 ± 8.3; the ± shrinks as they play more nights. Partners are rated "
    "together, so beating strong players counts for more than beating weak ones."
)
TIE_WORDS = "Equal records share a place (marked =); no tie is broken."


def rule_words(season: ClubSeason) -> str:
    """The season's rule in one sentence: "Each member's best 10 of the season's 12 nights count,
    added up." """
    if season.best_of is not None:
        which = f"Each member's best {season.best_of} of the season's {season.nights} nights count"
    else:
        which = "Every night a member plays counts"
    how = (
        "ranked by their total points"
        if season.counting == ClubSeason.Counting.TOTAL
        else ("ranked by their average points per night counted")
    )
    return f"{which}, {how}. A night counts once it is finished. {TIE_WORDS}"


def average_words(average: Fraction) -> str:
    """An average to one decimal place, rounded half up: "20.5"."""
    tenths = math.floor(average * 10 + Fraction(1, 2))
    whole, tenth = divmod(abs(tenths), 10)
    return f"{'-' if tenths < 0 else ''}{whole}.{tenth}"


def place_words(rank: int, tied: bool) -> str:
    return f"{rank}=" if tied else str(rank)


@dataclass(frozen=True, slots=True)
class SeasonRow:
    place: str  # "1", "2="
    player: Player
    played: int
    counted: int
    points: int
    average: str
    rating: str  # "27.1 ± 4.2", or "" before any closed round


def season_rows(record: SeasonRecord) -> list[SeasonRow]:
    return [
        SeasonRow(
            place_words(standing.rank, standing.tied),
            record.players[standing.member],
            standing.played,
            len(standing.counted),
            standing.points,
            average_words(standing.average),
            rating_shown(record.ratings.get(standing.member)),
        )
        for standing in record.standings
    ]


def rating_shown(rating: Rating | None) -> str:
    return rating.shown if rating is not None else ""


@dataclass(frozen=True, slots=True)
class HistoryRow:
    night: MemberNight
    place: str  # "2= of 8"
    counts: bool  # one of the nights the season counts for this member


def history_rows(record: SeasonRecord, player_id: int) -> list[HistoryRow]:
    """A member's nights of the season, in date order, each with its place and whether it counts."""
    standing = next((s for s in record.standings if s.member == player_id), None)
    return [
        HistoryRow(
            night,
            f"{place_words(night.night.place, night.night.tied)} of {night.of}",
            standing is not None and standing.counts(night.night),
        )
        for night in record.nights.get(player_id, [])
    ]


def member_standing(record: SeasonRecord, player_id: int) -> seasons.SeasonStanding | None:
    return next((s for s in record.standings if s.member == player_id), None)


CSV_HEADER = ["place", "member", "nights played", "nights counted", "points", "average per night", "rating"]


def season_csv_rows(record: SeasonRecord) -> list[list[str | int]]:
    """The standings as a spreadsheet's rows (the header is ``CSV_HEADER``)."""
    return [
        [row.place, row.player.name, row.played, row.counted, row.points, row.average, row.rating]
        for row in season_rows(record)
    ]
