"""Reads for a practice hand's review: its §9.5 log line and the review as saved on the game.

``HandReview`` is the read model the review page is built from (``pages/practice_review.py``);
``services/practice_review.py`` works the review out a slice at a time and saves it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..constants import PLAYER
from ..engine.review import Difference, Verdict, costliest, differences, left_on_table
from ..engine.variants import get_variant
from ..models import PracticeGame

VERDICT_FIELDS = frozenset(Verdict.__dataclass_fields__)  # what a saved verdict must hold to be read


class NoSuchHand(ValueError):
    """The hand is not over, not in the game, or was played before hands were logged; the
    message says which, in words."""


@dataclass(frozen=True, slots=True)
class HandReview:
    """A hand's review as far as it has been worked out."""

    hand: int
    line: dict[str, Any]  # the hand's §9.5 log line
    verdicts: tuple[Verdict, ...] = ()
    finished: bool = False  # every decision weighed
    cpu_seconds: float = 0.0  # CPU spent on it so far, all slices
    duplicate: dict[str, Any] | None = None  # the expert's play of the deal, a §9.5 line
    differences: tuple[Difference, ...] = field(default=())

    @property
    def done(self) -> bool:
        return self.finished and self.duplicate is not None

    @property
    def left_on_table(self) -> float:
        """Exactly the sum of every decision's charge, as each is shown (one decimal)."""
        return left_on_table(self.verdicts)

    @property
    def duplicate_difference(self) -> int | None:
        """The player's side's score in the hand as played less its score in the expert's
        duplicate of the deal (one real deal, played once); None until the duplicate is played."""
        if self.duplicate is None:
            return None
        side = get_variant(self.line["variant"]).side_of(PLAYER)
        return int(self.line["scores"][side]) - int(self.duplicate["scores"][side])

    @property
    def costliest(self) -> list[Verdict]:
        return costliest(self.verdicts)


def hand_log(game: PracticeGame, hand: int) -> dict[str, Any]:
    """The §9.5 log line of ``game``'s finished hand ``hand`` (numbered from 0), or NoSuchHand."""
    for entry in game.hands:
        if entry.get("hand") == hand:
            line = entry.get("log")
            if line is None:
                raise NoSuchHand("That hand was played before hands were kept for review.")
            return dict(line)
    raise NoSuchHand("That hand is not over yet, or there is no such hand.")


def stored_review(game: PracticeGame, hand: int) -> HandReview:
    """The review as saved on the game (nothing worked out)."""
    line = hand_log(game, hand)
    saved = game.reviews.get(str(hand)) or {}
    if saved.get("log") != line:  # the hand was undone and played again since: start afresh
        saved = {}
    if any(set(v) != VERDICT_FIELDS for v in saved.get("verdicts", ())):
        saved = {}  # weighed before charges were bounded by what a decision can change: weigh again
    verdicts = tuple(Verdict.from_json(v) for v in saved.get("verdicts", ()))
    duplicate = saved.get("duplicate")
    return HandReview(
        hand=hand,
        line=line,
        verdicts=verdicts,
        finished=bool(saved.get("finished")),
        cpu_seconds=float(saved.get("cpu", 0.0)),
        duplicate=duplicate,
        differences=tuple(differences(line, duplicate, PLAYER)) if duplicate else (),
    )


__all__ = ["HandReview", "NoSuchHand", "hand_log", "stored_review"]
