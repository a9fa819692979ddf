"""A player's answer to a puzzle: the one write puzzles make.

The first answer a player gives to a puzzle counts: it is kept (``PuzzleAttempt``) and moves the
player's rating in the variant and, for an account, the puzzle's, as one Glicko-2 game between them
(the ``glicko2`` library: the rating system chess puzzle sites use; solved is a win for the player,
missed a win for the puzzle). A guest's answer moves only the guest's own rating: a guest is a
session that anyone can start afresh, so guests could push a puzzle's rating at will. Any later
answer to the same puzzle is judged and shown, and changes nothing.

Nothing here searches: whether the answer is right is a comparison with the shipped answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import glicko2  # type: ignore[import-untyped]  # the library ships no type hints
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction

from ..engine.puzzles import Puzzle
from ..models.puzzles import START_RATING, PuzzleAttempt, PuzzlePlayer, PuzzleRating
from ..selectors.puzzles import PUZZLE_RD, puzzle_rating
from . import ServiceError

NO_PLAYER = "Your browser keeps no session, so this answer could not be counted: allow cookies and try again."


@dataclass(frozen=True, slots=True)
class PuzzleOutcome:
    solved: bool
    counted: bool  # the first answer: it moved the ratings
    rating_before: float
    rating_after: float

    @property
    def change(self) -> int:
        return round(self.rating_after) - round(self.rating_before)


def same_answer(puzzle: Puzzle, answer: Any) -> bool:
    """Whether ``answer`` (as §9.6 writes it) is the puzzle's: a pass's cards in any order."""
    if puzzle.decision == "pass":
        return isinstance(answer, list) and sorted(answer) == sorted(puzzle.answer)
    return bool(answer == puzzle.answer)


def rated(
    rating: float, rd: float, volatility: float, other: tuple[float, float], score: float
) -> glicko2.Player:
    """The Glicko-2 rating after one game against ``other`` (its rating and deviation before it)."""
    player = glicko2.Player(rating=rating, rd=rd, vol=volatility)
    player.update_player([other[0]], [other[1]], [score])
    return player


@transaction.atomic
def puzzle_answer(
    *, puzzle: Puzzle, answer: Any, user: AbstractBaseUser | AnonymousUser, guest: str
) -> PuzzleOutcome:
    """Judge ``answer`` (already checked legal in the puzzle's position) and, if it is the player's
    first to this puzzle, count it: an account's moves its rating and the puzzle's, a guest's only
    its own (a guest is a session anyone can start afresh, so guests never rate the puzzles)."""
    solved = same_answer(puzzle, answer)
    player = _player(user, guest, puzzle.variant)
    earlier = PuzzleAttempt.objects.filter(player=player, key=puzzle.key).first()
    if earlier is not None:
        return PuzzleOutcome(solved, False, player.rating, player.rating)
    mine = None
    if user.is_authenticated:
        mine, _ = PuzzleRating.objects.select_for_update().get_or_create(
            key=puzzle.key,
            defaults={"variant": puzzle.variant, "rating": float(puzzle.rating), "rd": PUZZLE_RD},
        )
        against = (mine.rating, mine.rd)
    else:
        shown = puzzle_rating(puzzle)
        against = (shown.rating, shown.rd)
    score = 1.0 if solved else 0.0
    new_player = rated(player.rating, player.rd, player.volatility, against, score)
    before = player.rating
    try:
        with transaction.atomic():  # two answers at once: the second finds the first's row
            PuzzleAttempt.objects.create(
                player=player,
                key=puzzle.key,
                answer=answer,
                solved=solved,
                rating_before=before,
                rating_after=new_player.getRating(),
            )
    except IntegrityError:
        return PuzzleOutcome(solved, False, before, before)
    if mine is not None:
        new_puzzle = rated(mine.rating, mine.rd, mine.volatility, (player.rating, player.rd), 1.0 - score)
        mine.rating, mine.rd, mine.volatility = new_puzzle.getRating(), new_puzzle.getRd(), new_puzzle.vol
        mine.attempts += 1
        mine.solved += solved
        mine.save(update_fields=["rating", "rd", "volatility", "attempts", "solved"])
    player.rating, player.rd, player.volatility = new_player.getRating(), new_player.getRd(), new_player.vol
    player.attempts += 1
    player.solved += solved
    player.save(update_fields=["rating", "rd", "volatility", "attempts", "solved"])
    return PuzzleOutcome(solved, True, before, player.rating)


def puzzle_judge(*, puzzle: Puzzle, answer: Any) -> PuzzleOutcome:
    """Judge ``answer`` without counting it (no player to count it for): nothing is written."""
    return PuzzleOutcome(same_answer(puzzle, answer), False, START_RATING, START_RATING)


def _player(user: AbstractBaseUser | AnonymousUser, guest: str, variant: str) -> PuzzlePlayer:
    if user.is_authenticated:
        found, _ = PuzzlePlayer.objects.select_for_update().get_or_create(user_id=user.pk, variant=variant)
        return found
    if not guest:
        raise ServiceError(NO_PLAYER)
    found, _ = PuzzlePlayer.objects.select_for_update().get_or_create(user=None, guest=guest, variant=variant)
    return found
