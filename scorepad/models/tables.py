"""Private tables: friends and family at one table from their own phones, bots in the other seats.

A ``PrivateTable`` holds the hand in play exactly as a practice game does (the engine's state as
JSON, ``version`` counting every change: an action names the version it was made on). It is
reached by its link (``link_token``, which the host may revoke: a new token, the old link then
refused) or by a short ``code`` to read out. Each ``TableSeat`` is open, a person's or a bot's; a
person holds their seat by their account or, as a guest, by a signed cookie naming the seat's
``claim_key`` (a removed player's key is replaced, so their cookie opens nothing any more).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from ..constants import PLAYER_NAME_MAX
from ..engine.variants import VARIANTS
from . import Game, Household

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "PrivateTable", "TableMessage", "TableSeat"]

# Short codes are read out across a room: no 0/O, 1/I/L, 5/S, 2/Z, 8/B.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6  # 25**6 ≈ 244 million codes; guesses are limited like log-ins
GRACE_DEFAULT = 60  # seconds a player who is away is waited for at their turn
# What one table's bots may cost in CPU seconds (an expert move costs up to a second): a few hours'
# play, far past a family's evening, and a bound on what one link can spend.
TABLE_BOT_CPU_LIMIT = 3_600.0


def new_link_token() -> str:
    return secrets.token_urlsafe(18)  # 144 bits: the link itself is the invitation


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_claim_key() -> str:
    return secrets.token_urlsafe(18)


class PrivateTable(models.Model):
    OPEN, ENDED = "open", "ended"

    link_token = models.CharField(max_length=32, unique=True, default=new_link_token)
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_code)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    host_name = models.CharField(max_length=PLAYER_NAME_MAX)
    # Started from a household: its roster sits at the table, its finished games go to its history.
    household = models.ForeignKey(
        Household, null=True, blank=True, on_delete=models.SET_NULL, related_name="private_tables"
    )
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    variant = models.CharField(max_length=20, choices=[(v.id, v.label) for v in VARIANTS.values()])
    settings = models.JSONField(default=dict, blank=True)  # only the §4 keys that differ from defaults
    seed = models.BigIntegerField()
    state = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    hands = models.JSONField(default=list, blank=True)  # one summary per finished hand, as practice
    status = models.CharField(max_length=8, default=OPEN, choices=[(OPEN, "open"), (ENDED, "ended")])
    finished = models.BooleanField(default=False)  # a side reached the target
    grace_seconds = models.PositiveSmallIntegerField(default=GRACE_DEFAULT)
    # When the seat to act was first asked (a player away longer than the grace gets a bot for now).
    turn_since = models.DateTimeField(null=True, blank=True)
    # When the table's clock (``live.clock``) next has something to do for it: bots that were busy,
    # a grace ending, a seat a bot covers; set by every write, None until someone acts.
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    bot_cpu_seconds = models.FloatField(default=0.0)  # what the table's bots have cost so far
    person_writes = models.PositiveIntegerField(default=0)  # the people's actions stored (a check)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"table {self.code} ({self.variant})"

    @property
    def ended(self) -> bool:
        return self.status == self.ENDED


class TableSeat(models.Model):
    OPEN, PERSON, BOT = "open", "person", "bot"
    KINDS = [(OPEN, "open"), (PERSON, "person"), (BOT, "bot")]

    table = models.ForeignKey(PrivateTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=KINDS, default=OPEN)
    name = models.CharField(max_length=PLAYER_NAME_MAX, blank=True)
    strength = models.CharField(max_length=20, blank=True)  # a bot's, and a covering bot's
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claim_key = models.CharField(max_length=32, blank=True)  # what a guest's signed cookie names
    # A bot plays this person's turns while they are away past the grace; cleared when they return.
    covered = models.BooleanField(default=False)
    quit = models.BooleanField(default=False)  # the person left the table on purpose
    # The phone's last presence mark, kept here only while the shared cache does not answer.
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="unique_table_seat")]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}"


class TableMessage(models.Model):
    """One of the fixed quick messages, said by a seat."""

    table = models.ForeignKey(PrivateTable, on_delete=models.CASCADE, related_name="messages")
    seat = models.PositiveSmallIntegerField()
    message = models.CharField(max_length=20)  # a key of ``services.tables.QUICK_MESSAGES``
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}: {self.message}"
