"""What the director's pages show, in words: the round clock, a correction's before and after, the
prizes awarded (built from read models and engine values; no queries here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..engine import events
from ..engine.cards import SUIT_NAMES
from ..models import ClubEvent, ClubRound


@dataclass(frozen=True, slots=True)
class Clock:
    """The bell of a round, for the director and every table phone: the page says the time left
    as drawn, and ``static/js/clock.js`` counts down from ``ends_at`` while it is open."""

    ends_at: datetime
    seconds_left: int
    bell_words: str

    @property
    def over(self) -> bool:
        return self.seconds_left <= 0

    @property
    def words(self) -> str:
        if self.over:
            return "Time is up"
        minutes, seconds = divmod(self.seconds_left, 60)
        return f"{minutes}:{seconds:02d} left"

    @property
    def iso(self) -> str:
        return self.ends_at.isoformat()


BELL_WORDS = {
    ClubEvent.Bell.FINISH: "a hand being played at the bell is finished and counts",
    ClubEvent.Bell.VOID: "a hand not finished at the bell does not count",
}


def round_clock(event: ClubEvent, club_round: ClubRound | None, now: datetime) -> Clock | None:
    """The clock of a round being played that has a bell; None otherwise."""
    if club_round is None or club_round.status != ClubRound.Status.PLAYING or club_round.ends_at is None:
        return None
    left = int((club_round.ends_at - now).total_seconds())
    return Clock(club_round.ends_at, max(0, left), BELL_WORDS[ClubEvent.Bell(event.bell)])


def snapshot_words(snapshot: Mapping[str, Any] | None) -> str:
    """A hand kept by the corrections trail, in words: "bid 250 (Ann), hearts, meld 20/30, tricks
    130/120, disputed"."""
    if not snapshot:
        return "deleted"
    if "words" in snapshot:  # a table's entry (unlocked, a new PIN): said as it was kept
        return str(snapshot["words"])
    parts = []
    entry = snapshot.get("entry")
    if snapshot.get("thrown_in") or not entry:
        parts.append("thrown in")
    else:
        who = f" ({snapshot['bidder_name']})" if snapshot.get("bidder_name") else ""
        parts.append(f"bid {entry['bid']}{who}")
        if entry.get("trump"):
            parts.append(SUIT_NAMES.get(entry["trump"], str(entry["trump"])))
        parts.append("meld " + "/".join(str(m) for m in entry["meld"]))
        if entry.get("tricks") is not None:
            parts.append("tricks " + "/".join(str(t) for t in entry["tricks"]))
    if snapshot.get("state"):
        parts.append({"entered": "not confirmed", "disputed": "disputed"}.get(snapshot["state"], "confirmed"))
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class PrizeLine:
    prize: str  # "1st place", "High round", "High average"
    who: str
    detail: str


PLACE_WORDS = {1: "1st place", 2: "2nd place", 3: "3rd place"}


def prize_lines(chosen: Sequence[str], prizes: events.Prizes, labels: Mapping[int, str]) -> list[PrizeLine]:
    """The prizes the director awards, each holder named (ties share a prize)."""
    lines: list[PrizeLine] = []
    if "winners" in chosen:
        for standing in prizes.winners:
            tie = " (shared)" if standing.tied else ""
            lines.append(
                PrizeLine(
                    PLACE_WORDS.get(standing.rank, f"{standing.rank}th place") + tie,
                    labels[standing.entrant],
                    f"{standing.points} points",
                )
            )
    if "high_round" in chosen:
        for high in prizes.high_round:
            lines.append(
                PrizeLine("High round", labels[high.entrant], f"{high.points} in round {high.round}")
            )
    if "high_average" in chosen:
        for average in prizes.high_average:
            lines.append(
                PrizeLine(
                    "High average",
                    labels[average.entrant],
                    f"{float(average.average):.1f} a round over {average.rounds_played} rounds",
                )
            )
    return lines
