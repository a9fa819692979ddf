"""What players entered: households, their players, games, seats and hands.

Nothing here scores. A game's totals, winners and the dealer come from the engine, which
reads ``Game.record()`` (RULES.md §9.3); ``finished`` and ``winner_sides`` are a copy the
services keep in step after every write, so history can be filtered in SQL.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models

from ..constants import HOUSEHOLD_NAME_MAX, PLAYER_NAME_MAX
from ..engine.cards import SUITS
from ..engine.variants import VARIANTS, Variant, get_variant

ENTRY_KEY_MAX = 64  # characters in a phone's key for one entry of a hand (a UUID has 36)

VARIANT_CHOICES = [(v.id, v.label) for v in VARIANTS.values()]
TRUMP_CHOICES = [(s, s) for s in SUITS]


class Household(models.Model):
    name = models.CharField(max_length=HOUSEHOLD_NAME_MAX)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="households")
    created_at = models.DateTimeField(auto_now_add=True)
    # The backup a household was restored from (``services.exchange``): the same file restored twice
    # into one account's households is refused; another account may restore it as its own.
    restored_from = models.CharField(max_length=64, null=True, blank=True, db_index=True)  # noqa: DJ001

    def __str__(self) -> str:
        return self.name


def _invite_token() -> str:
    return secrets.token_urlsafe(24)


class Invite(models.Model):
    """A one-time link that makes whoever follows it (logged in) a member of the household."""

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=_invite_token)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"invite to {self.household}"


class Player(models.Model):
    """A real person at the table; needs no account. A member may say which roster player they
    are ("This is me"): ``account`` then seats them as that player at the household's tables."""

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=PLAYER_NAME_MAX)
    retired = models.BooleanField(default=False)  # off the new-game form; old games keep the name
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="roster_players",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["household", "name"], name="unique_player_name"),
            # One roster player per account in each household (unlinked players never clash).
            models.UniqueConstraint(fields=["household", "account"], name="unique_player_account"),
        ]

    def __str__(self) -> str:
        return self.name


class Game(models.Model):
    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="games")
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES)
    settings = models.JSONField(default=dict, blank=True)  # only the §4 keys that differ from defaults
    first_dealer = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished = models.BooleanField(default=False)
    winner_sides = models.JSONField(default=list, blank=True)
    # Counts every change to the game's hands; a redo is refused once it has moved on from the undo.
    revision = models.PositiveIntegerField(default=0)
    abandoned = models.BooleanField(default=False)  # left unfinished on purpose: not in statistics

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}"

    @property
    def rules(self) -> Variant:
        return get_variant(self.variant)

    def record(self) -> dict[str, Any]:
        """The game as RULES.md §9.3 writes it: what the engine scores and what export writes.

        A thrown-in deal scores nothing and §9.3 has no way to write it, so it is left out.
        """
        return record_of(self, list(self.hands.all()))  # Hand.Meta orders by number


def record_of(game: Game, hands: list[Hand]) -> dict[str, Any]:
    """The §9.3 record of ``game`` with ``hands`` (all of its hands, in order)."""
    return {
        "variant": game.variant,
        "settings": dict(game.settings),
        "hands": [hand.entry() for hand in hands if not hand.thrown_in],
    }


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()  # RULES §8: 0 … n−1 clockwise

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat_position"),
            models.UniqueConstraint(fields=["game", "player"], name="unique_seat_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position}: {self.player}"


class SeatTaken(models.Model):
    """Who sits in seat ``position`` of ``game`` from hand ``from_hand`` on (counting from 0): a
    person who took a bot's or a guest's seat at a household's table in the middle of the game.

    The game's ``Seat`` says who sat there first; each of these replaces that from its hand on,
    the latest ``from_hand`` at or before a hand saying who played it (``selectors.games``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats_taken")
    position = models.PositiveSmallIntegerField()
    from_hand = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats_taken")

    class Meta:
        ordering = ["from_hand", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position", "from_hand"], name="unique_seat_taken"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} from hand {self.from_hand}: {self.player}"


class Hand(models.Model):
    """One deal as entered at the table (§9.3 hand object). ``number`` counts from 0.

    ``dealer`` is stored (RULES §8 gives it from the first dealer, but a table may override it, and
    deleting a hand must not move the deal of the hands after it). A thrown-in deal (a misdeal, or
    all passed and the cards were thrown in) keeps only its dealer: no bid, meld or score.
    ``version`` goes up with every correction, so a phone that saw an older one is refused.
    ``entry_key`` is made on the phone for one entry of a hand: the same entry sent again (a phone
    that was offline resending, a double tap) finds the hand it stored and adds nothing. It is no
    part of the §9.3 record, so exports and backups leave it out.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    thrown_in = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    bidder = models.PositiveSmallIntegerField(null=True, blank=True)
    bid = models.PositiveIntegerField(null=True, blank=True)
    # null is §9.3's "no trump": a double-deck bidder with no marriage.
    trump = models.CharField(max_length=1, choices=TRUMP_CHOICES, null=True, blank=True)  # noqa: DJ001
    meld = models.JSONField(null=True, blank=True)  # one entry per side; null when thrown in
    tricks = models.JSONField(null=True, blank=True)  # one entry per side; null when not played
    took_trick = models.JSONField(null=True, blank=True)  # one bool per side, when entered
    entry_key = models.CharField(max_length=ENTRY_KEY_MAX, null=True, blank=True, editable=False)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            # A double tap or a resent form can never create a second hand with the same number.
            models.UniqueConstraint(fields=["game", "number"], name="unique_hand_number"),
            # One entry is one hand, however often it is sent (NULLs, hands with no key, never clash).
            models.UniqueConstraint(fields=["game", "entry_key"], name="unique_hand_entry_key"),
            models.CheckConstraint(
                condition=models.Q(thrown_in=True)
                | models.Q(bidder__isnull=False, bid__isnull=False, meld__isnull=False),
                name="played_hand_has_a_bid",
            ),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.game}"

    ENTRY_FIELDS = ("bidder", "bid", "trump", "meld", "tricks", "took_trick")

    @classmethod
    def fields_from_entry(cls, entry: dict[str, Any]) -> dict[str, Any]:
        """The model fields for a §9.3 hand object: the inverse of ``entry()``."""
        return {name: entry.get(name) for name in cls.ENTRY_FIELDS}

    def entry(self) -> dict[str, Any]:
        """The §9.3 hand object (a thrown-in deal has none)."""
        assert self.meld is not None, "a thrown-in deal has no hand object"
        data: dict[str, Any] = {
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": self.trump,
            "meld": list(self.meld),
            "tricks": None if self.tricks is None else list(self.tricks),
        }
        if self.took_trick is not None:
            data["took_trick"] = list(self.took_trick)
        return data


# ---- practice mode ------------------------------------------------------------------------------


class PracticeGame(models.Model):
    """A game against the bots: the engine's state as JSON, so any request resumes it exactly.

    The player sits at seat 0. ``version`` counts every change: a posted action names the version
    it was made on, so a double tap or an old tab is refused and changes nothing. ``undo`` holds
    the states before each of the player's decisions in this hand (newest last); ``hands`` one
    summary per finished hand. A visitor's game has no user: the session lists its id.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="practice_games",
    )
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES)
    settings = models.JSONField(default=dict, blank=True)  # only the §4 keys that differ from defaults
    strength = models.CharField(max_length=20)  # one of bots.PRACTICE_STRENGTHS
    seed = models.BigIntegerField()  # every deal and every bot's randomness comes from it
    state = models.JSONField()  # engine.game.to_json of the hand in progress (or just ended)
    version = models.PositiveIntegerField(default=0)
    undo = models.JSONField(default=list, blank=True)
    hands = models.JSONField(default=list, blank=True)
    finished = models.BooleanField(default=False)
    won = models.BooleanField(null=True, blank=True)  # the player's side among the winners
    # The one-time token of the start form that made it: the same form sent twice starts one game.
    start_token = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)
    # Hand reviews (services/practice_review.py), by hand number, worked out a slice at a time;
    # ``review_version`` guards their saves, so a review never makes the table's version stale.
    reviews = models.JSONField(default=dict, blank=True)
    review_version = models.PositiveIntegerField(default=0)
    # A replay plays hand ``replay_hand`` of ``replay_of`` again, same cards, same bots, same seed:
    # statistics keep replays apart from first tries.
    replay_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays"
    )
    replay_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"practice {self.variant} #{self.pk}"

    @property
    def rules(self) -> Variant:
        return get_variant(self.variant)


def _scoreboard_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits: unguessable, and short enough to read off a phone


class ScoreboardLinkQuerySet(models.QuerySet["ScoreboardLink"]):
    def live(self) -> ScoreboardLinkQuerySet:
        """The links not stopped: the only ones that show a game."""
        return self.filter(revoked_at__isnull=True)


class ScoreboardLink(models.Model):
    """A read-only link to one game's scoreboard for anyone at the table: no account needed.

    It shows that game and nothing else; once ``revoked_at`` is set the link is a 404.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scoreboard_links")
    token = models.CharField(max_length=64, unique=True, default=_scoreboard_token)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ScoreboardLinkQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"scoreboard link to {self.game}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


# Each later feature keeps its tables in its own module; importing them here registers them.
from .clubs import *  # noqa: E402, F403  club nights (events, rounds, tables, check-in)
from .daily import *  # noqa: E402, F403  the daily deal
from .puzzles import *  # noqa: E402, F403  puzzles cut from the bots' hands
from .tables import *  # noqa: E402, F403  private tables played together from several phones
