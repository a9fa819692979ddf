"""What the daily deal's pages show, from the selectors' read models: today's deals, one deal's
comparison (your score beside the expert's in your seat, your place, the leaderboard) and the
archive. Nothing here queries the database or thinks; cards and suits read as players write them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.cards import SYMBOL_OF_SUIT
from ..engine.variants import VARIANTS, get_variant
from ..models import DailyAttempt, DailyDeal
from ..selectors.daily import ArchiveDay, LeaderRow, Record, Standing
from ..selectors.practice import seat_names

# What a player may do at a deal, as the page offers it.
PLAY, CONTINUE, AGAIN, PRACTICE = "play", "continue", "again", "practice"


def signed(number: int) -> str:
    """A score as a scoresheet writes it: +41, 0, −12 (a true minus sign)."""
    return f"+{number}" if number > 0 else str(number).replace("-", "−")


def gap_words(gap: float) -> str:
    """A player's score less the expert's, in words: "3.5 above the expert", "level with the expert"."""
    rounded = round(gap, 1)
    amount = f"{abs(rounded):g}"
    if rounded > 0:
        return f"{amount} above the expert"
    if rounded < 0:
        return f"{amount} below the expert"
    return "level with the expert"


UNRANKED = (
    "Visitors play unranked: log in before you play a day's deal to be ranked among the players "
    "(a new browser would be another visitor, with a counted attempt of its own)."
)


def standing_words(standing: Standing) -> str:
    if standing.players <= 1:
        return "You are the first to finish this deal: the others will be measured against you."
    return (
        f"You did as well as or better than {standing.percentile}% of the {standing.players} players"
        " who played it."
    )


def contract_words(line: dict[str, Any], variant_id: str) -> str:
    """How the expert's play of the deal went, from its seat: who bid what in which trump."""
    names = seat_names(get_variant(variant_id))
    bidder = line.get("bidder")
    if bidder is None:
        return "The deal was thrown in before anyone played."
    who = "The expert, in your seat," if bidder == 0 else names[bidder]
    trump = SYMBOL_OF_SUIT.get(line.get("trump") or "", "")
    suit = f" in {trump}" if trump else " with no trump"
    played = "" if line.get("points") is not None else " (thrown in after the meld)"
    return f"{who} bid {line.get('bid')}{suit}{played}."


# -- today's deals --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealLine:
    """One variant's deal of a day, as the player stands with it."""

    variant: str
    label: str
    day: dt.date
    action: str  # PLAY, CONTINUE, AGAIN (counted done: play again as practice) or PRACTICE
    game_id: int | None  # the attempt to continue
    score: str  # the counted score, signed, once finished
    expert: str  # the expert's, signed, once the player's counted attempt is finished (or a past day)
    players: int  # counted attempts finished


def deal_line(
    day: dt.date,
    today: dt.date,
    variant_id: str,
    deal: DailyDeal | None,
    counted: DailyAttempt | None,
    players: int,
) -> DealLine:
    finished = counted is not None and counted.score is not None
    if day != today:
        action = PRACTICE
    elif counted is None:
        action = PLAY
    elif not finished and counted.game_id is not None:
        action = CONTINUE
    else:
        action = AGAIN
    reveal = finished or day != today
    expert = deal.expert_score if deal is not None and reveal else None
    return DealLine(
        variant=variant_id,
        label=VARIANTS[variant_id].label,
        day=day,
        action=action,
        game_id=counted.game_id if counted is not None and action == CONTINUE else None,
        score=signed(counted.score) if counted is not None and counted.score is not None else "",
        expert=signed(expert) if expert is not None else "",
        players=players,
    )


@dataclass(frozen=True, slots=True)
class RecordLine:
    streak: int
    average: str  # "" with no counted hand in the last 30 days
    hands: int


def record_line(record: Record) -> RecordLine:
    average = "" if record.average_gap is None else gap_words(record.average_gap)
    return RecordLine(record.streak, average, record.hands)


@dataclass(frozen=True, slots=True)
class DailyHome:
    today: dt.date
    deals: tuple[DealLine, ...]
    record: RecordLine


def daily_home(
    today: dt.date,
    deals: dict[str, DailyDeal],
    counted: dict[str, DailyAttempt],
    players: dict[str, int],
    record: Record,
) -> DailyHome:
    lines = tuple(
        deal_line(today, today, v, deals.get(v), counted.get(v), players.get(v, 0)) for v in VARIANTS
    )
    return DailyHome(today, lines, record_line(record))


# -- one deal: the comparison ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Comparison:
    line: DealLine
    shown: bool  # the results show: your counted attempt is finished, or the day is past
    yours: str  # your counted score, signed ("" before you finish)
    experts: str  # the expert's in your seat ("" while it is being worked out)
    expert_contract: str
    gap: str  # yours against the expert's, in words
    standing: str  # your place among everyone, in words
    players: int
    leaderboard: tuple[LeaderRow, ...]
    review_game: int | None  # the counted attempt's game, for its hand review
    practice_scores: tuple[str, ...]  # your practice plays of the deal, signed, oldest first


def comparison(
    day: dt.date,
    today: dt.date,
    variant_id: str,
    deal: DailyDeal | None,
    counted: DailyAttempt | None,
    practice: Sequence[DailyAttempt],
    place: Standing | None,
    players: int,
    board: Sequence[LeaderRow],
) -> Comparison:
    """The deal's page; ``place`` is None for a finished attempt that is not ranked (a visitor's)."""
    line = deal_line(day, today, variant_id, deal, counted, players)
    finished = counted is not None and counted.score is not None
    shown = finished or day != today
    yours = counted.score if finished and counted is not None else None
    expert = deal.expert_score if deal is not None else None
    gap = "" if yours is None or expert is None else gap_words(yours - expert)
    contract = ""
    if shown and deal is not None and isinstance(deal.expert_line, dict):
        contract = contract_words(deal.expert_line, variant_id)
    return Comparison(
        line=line,
        shown=shown,
        yours=signed(yours) if yours is not None else "",
        experts=signed(expert) if expert is not None and shown else "",
        expert_contract=contract,
        gap=gap,
        standing=(standing_words(place) if place is not None else UNRANKED) if finished else "",
        players=players,
        leaderboard=tuple(board) if shown else (),
        review_game=counted.game_id if finished and counted is not None else None,
        practice_scores=tuple(signed(a.score) for a in practice if a.score is not None),
    )


# -- the archive ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArchiveRow:
    day: dt.date
    deals: tuple[DealLine, ...]


def archive_rows(days: Sequence[ArchiveDay], today: dt.date) -> tuple[ArchiveRow, ...]:
    return tuple(
        ArchiveRow(
            found.day,
            tuple(
                deal_line(
                    found.day,
                    today,
                    v,
                    found.deals.get(v),
                    found.counted.get(v),
                    found.players.get(v, 0),
                )
                for v in VARIANTS
            ),
        )
        for found in days
    )
