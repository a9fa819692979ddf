"""Puzzles: the ratings of the shipped puzzles and of the players who solve them, and each try.

The puzzles themselves are not rows: they ship as JSON files (``scorepad/data/puzzles``) that the
selectors read, so a fresh install has every puzzle without a loading step. A ``PuzzleRating`` row
is made the first time a puzzle is answered (it starts from the puzzle's difficulty); a
``PuzzlePlayer`` is an account's (``user``) or a visitor's (``guest``, a key in their session)
Glicko-2 rating in one variant; a ``PuzzleAttempt`` is their first answer to one puzzle, the one
that moves both ratings (a puzzle is solved once: a second answer is shown, not counted).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ..engine.variants import VARIANTS

__all__ = ["PUZZLE_GUEST_MAX", "PUZZLE_KEY_MAX", "PuzzleAttempt", "PuzzlePlayer", "PuzzleRating"]

PUZZLE_KEY_MAX = 40  # "double-deck-00123-045" has 21 characters
PUZZLE_GUEST_MAX = 64  # a visitor's key, kept in their session (``secrets.token_urlsafe(24)``: 32)
# Glicko-2's starting point (the rating library's defaults, as chess puzzle sites use them).
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
VARIANT_CHOICES = [(v.id, v.label) for v in VARIANTS.values()]  # as the older tables' choices


class PuzzleRating(models.Model):
    key = models.CharField(max_length=PUZZLE_KEY_MAX, unique=True)
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES)
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField(default=START_VOLATILITY)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["variant", "rating"], name="puzzle_rating_by_variant")]

    def __str__(self) -> str:
        return f"puzzle {self.key} ({self.rating:.0f})"


class PuzzlePlayer(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="puzzle_ratings",
    )
    guest = models.CharField(max_length=PUZZLE_GUEST_MAX, blank=True, default="")
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES)
    rating = models.FloatField(default=START_RATING)
    rd = models.FloatField(default=START_RD)
    volatility = models.FloatField(default=START_VOLATILITY)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant"],
                condition=models.Q(user__isnull=False),
                name="one_puzzle_rating_per_account_variant",
            ),
            models.UniqueConstraint(
                fields=["guest", "variant"],
                condition=models.Q(user__isnull=True),
                name="one_puzzle_rating_per_guest_variant",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(guest=""),
                name="puzzle_player_has_a_player",
            ),
        ]

    def __str__(self) -> str:
        return f"puzzle player {self.user_id or 'guest'} {self.variant} ({self.rating:.0f})"


class PuzzleAttempt(models.Model):
    player = models.ForeignKey(PuzzlePlayer, on_delete=models.CASCADE, related_name="tries")
    key = models.CharField(max_length=PUZZLE_KEY_MAX)
    answer = models.JSONField()  # as §9.6 writes it (codes, suit letters)
    solved = models.BooleanField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # A puzzle counts once per player, even when two answers arrive at once.
            models.UniqueConstraint(fields=["player", "key"], name="one_counted_puzzle_attempt"),
        ]

    def __str__(self) -> str:
        return f"{self.key}: {'solved' if self.solved else 'missed'}"
