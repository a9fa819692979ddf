"""Puzzles as the pages read them: the shipped set (JSON files read once per process, so a fresh
install has every puzzle without a loading step), the ratings the players have moved, a player's
rating and history, the puzzle of the day and the next puzzle near a player's rating.

Serving a puzzle costs no search: everything a page needs was worked out by ``find_puzzles``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from ..engine.puzzles import Puzzle, first_rating
from ..engine.variants import VARIANTS
from ..models.puzzles import START_RATING, PuzzleAttempt, PuzzlePlayer, PuzzleRating

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "puzzles"
PUZZLE_RD = 200.0  # a shipped puzzle's first rating deviation: its difficulty is a fair first guess
HISTORY_ROWS = 100  # tries listed on a player's history page
NEAR = 8  # a run's next puzzle: one of the this many unsolved puzzles nearest the player's rating

User = AbstractBaseUser | AnonymousUser


@cache
def shipped(variant: str) -> tuple[Puzzle, ...]:
    """The variant's shipped puzzles, in the order the finder found them (none for a variant
    without a file)."""
    path = DATA_DIR / f"{variant}.json"
    if not path.exists():
        return ()
    data = json.loads(path.read_text())
    return tuple(Puzzle.from_json(item) for item in data["puzzles"])


@cache
def _by_key() -> dict[str, Puzzle]:
    return {p.key: p for variant in VARIANTS for p in shipped(variant)}


def puzzle_by_key(key: str) -> Puzzle | None:
    return _by_key().get(key)


def puzzle_variants() -> list[str]:
    """The variants with puzzles, in the site's order."""
    return [variant for variant in VARIANTS if shipped(variant)]


def puzzle_of_the_day(day: datetime.date) -> Puzzle | None:
    """The same puzzle for everyone on ``day``: the variants take turns, and the puzzle is drawn
    from a hash of the date (so it does not follow the file's order)."""
    variants = puzzle_variants()
    if not variants:
        return None
    found = shipped(variants[day.toordinal() % len(variants)])
    digest = hashlib.sha256(day.isoformat().encode()).digest()
    return found[int.from_bytes(digest[:8], "big") % len(found)]


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    rd: float
    attempts: int = 0
    solved: int = 0


def puzzle_rating(puzzle: Puzzle) -> Rating:
    row = PuzzleRating.objects.filter(key=puzzle.key).first()
    if row is None:
        return Rating(float(puzzle.rating), PUZZLE_RD)
    return Rating(row.rating, row.rd, row.attempts, row.solved)


def puzzle_player(user: User, guest: str, variant: str) -> PuzzlePlayer | None:
    """The player's rating row in ``variant``: the account's when logged in, else the visitor's."""
    if user.is_authenticated:
        return PuzzlePlayer.objects.filter(user_id=user.pk, variant=variant).first()
    if not guest:
        return None
    return PuzzlePlayer.objects.filter(user__isnull=True, guest=guest, variant=variant).first()


def player_rating(player: PuzzlePlayer | None) -> float:
    return START_RATING if player is None else player.rating


def answered(player: PuzzlePlayer | None, key: str) -> PuzzleAttempt | None:
    if player is None:
        return None
    return PuzzleAttempt.objects.filter(player=player, key=key).first()


def next_puzzle(variant: str, player: PuzzlePlayer | None, *, after: str = "") -> Puzzle | None:
    """A puzzle near the player's rating that they have not answered (nor ``after``, the one just
    shown): of the ``NEAR`` nearest, the one a hash of the player's count of tries picks, so a run
    does not walk the file in order."""
    found = shipped(variant)
    if not found:
        return None
    rated = dict(PuzzleRating.objects.filter(variant=variant).values_list("key", "rating"))
    done = set() if player is None else set(player.tries.values_list("key", flat=True))
    open_ones = [p for p in found if p.key not in done and p.key != after] or [
        p for p in found if p.key != after
    ]
    target = player_rating(player)
    nearest = sorted(
        open_ones, key=lambda p: (abs(rated.get(p.key, first_rating(p.difficulty)) - target), p.key)
    )
    pool = nearest[:NEAR] or list(found)
    tries = 0 if player is None else player.attempts
    pick = int(hashlib.sha256(f"{variant}:{tries}:{after}".encode()).hexdigest()[:8], 16)
    return pool[pick % len(pool)]


def history(user: User, guest: str) -> Sequence[PuzzleAttempt]:
    """The player's tries, newest first, every variant: the account's, else this visitor's."""
    tries = PuzzleAttempt.objects.select_related("player")
    if user.is_authenticated:
        tries = tries.filter(player__user_id=user.pk)
    elif guest:
        tries = tries.filter(player__user__isnull=True, player__guest=guest)
    else:
        return []
    return list(tries[:HISTORY_ROWS])


def ratings_of(user: User, guest: str) -> list[PuzzlePlayer]:
    players = PuzzlePlayer.objects.order_by("variant")
    if user.is_authenticated:
        return list(players.filter(user_id=user.pk))
    if not guest:
        return []
    return list(players.filter(user__isnull=True, guest=guest))
