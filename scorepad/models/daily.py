"""The daily deal: each day one deal per variant, the same cards and the same bots for everyone.

A ``DailyDeal`` is one (day, variant): its ``seed`` (every card and every bot's answer comes from
it) and, once worked out, the deal played by the expert in the player's seat (``expert_line``, a
§9.5 line, and ``expert_score``, what the player's side scored). A ``DailyAttempt`` is one play of
it: a one-hand practice game (``PracticeGame``) at expert strength. The first attempt a player
starts at a day's deal is the one that counts (``counted``); any later one is practice. The score
is copied from the game when the hand ends, so it outlives a visitor's game, which is deleted
with their session.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ..engine.variants import VARIANTS
from . import PracticeGame

__all__ = ["GUEST_KEY_MAX", "DailyAttempt", "DailyDeal", "DailyPlayer"]

VARIANT_CHOICES = [(v.id, v.label) for v in VARIANTS.values()]  # as the package's (imported before it is set)
GUEST_KEY_MAX = 64  # a visitor's key, kept in their session (``secrets.token_urlsafe(24)``: 32)


class DailyDeal(models.Model):
    day = models.DateField()
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES)
    seed = models.BigIntegerField()
    # The deal played by the expert in the player's seat, the other seats the day's own bots:
    # worked out once (``manage.py daily_deals``, or the first start of the day), never by a page.
    expert_line = models.JSONField(null=True, blank=True)
    expert_score = models.IntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-day", "variant"]
        constraints = [models.UniqueConstraint(fields=["day", "variant"], name="unique_daily_deal")]

    def __str__(self) -> str:
        return f"daily {self.variant} {self.day}"


class DailyAttempt(models.Model):
    """One play of a day's deal by an account (``user``) or a visitor (``guest``, their session's key)."""

    deal = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="attempts")
    game = models.OneToOneField(
        PracticeGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="daily_attempt"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="daily_attempts",
    )
    guest = models.CharField(max_length=GUEST_KEY_MAX, blank=True, default="")
    counted = models.BooleanField()
    score = models.IntegerField(null=True, blank=True)  # the player's side's, once the hand ended
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One attempt counts per player and deal, even when two starts arrive at once.
            models.UniqueConstraint(
                fields=["deal", "user"],
                condition=models.Q(counted=True, user__isnull=False),
                name="one_counted_daily_attempt_per_account",
            ),
            models.UniqueConstraint(
                fields=["deal", "guest"],
                condition=models.Q(counted=True, user__isnull=True),
                name="one_counted_daily_attempt_per_guest",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(guest=""),
                name="daily_attempt_has_a_player",
            ),
        ]
        indexes = [models.Index(fields=["deal", "counted", "score"], name="daily_attempt_standing")]

    def __str__(self) -> str:
        return f"attempt at {self.deal}"


class DailyPlayer(models.Model):
    """An account's choice for the daily deal: whether its name shows on the day's leaderboard."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily")
    show_name = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"daily settings of {self.user}"
