"""Club nights: a director runs an event for a club (a household: its roster is the members).

An event has entrants (teams of two, or single players), each checked in from the roster or as a
newcomer; rounds; and per round one table per seated group. Each table plays one scorepad ``Game``
(its seats are the players), so hands are entered, checked and scored exactly as on the scorepad,
and the club's history and statistics see every table's game. A ``TableHand`` adds what a club
night needs to a scorepad ``Hand``: which phone entered it and whether the other side confirmed it.

Nothing here scores or seats: movements, standings and prizes are ``engine.events``; a table's
game is scored by ``engine.scoring``. ``version`` columns count every write, so a phone or a
director page that saw an older state is refused in words.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from ..constants import PLAYER_NAME_MAX
from ..engine.variants import VARIANTS
from . import Game, Hand, Household, Player

__all__ = [
    "ClubEntrant",
    "ClubEvent",
    "ClubMember",
    "ClubResult",
    "ClubRound",
    "ClubSeason",
    "ClubTable",
    "ClubTableCard",
    "Correction",
    "TableHand",
]

EVENT_NAME_MAX = 80
VARIANT_CHOICES = [(v.id, v.label) for v in VARIANTS.values()]  # as the scorepad's games
PIN_DIGITS = 4  # a table's PIN: short to type; wrong ones are counted per phone and network
PHONE_ID_MAX = 32


class ClubSeason(models.Model):
    """A club's season: its nights (the events that name it), counted per member by
    ``engine.seasons``: the total or the average per night, of every night or of each member's
    ``best_of`` best of the season's ``nights``. The dates, when given, only pick the season a new
    night is put in by default."""

    class Counting(models.TextChoices):
        TOTAL = "total", "Total points"
        AVERAGE = "average", "Average points per night"

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="club_seasons")
    name = models.CharField(max_length=EVENT_NAME_MAX)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    counting = models.CharField(max_length=10, choices=Counting.choices, default=Counting.TOTAL)
    nights = models.PositiveSmallIntegerField(null=True, blank=True)  # M: the nights planned
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)  # N: each member's best N count
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class ClubEvent(models.Model):
    """One club night. ``format`` is an ``engine.events`` kind; ``settings`` the §4 house rules
    that differ from the variant's defaults; ``current_round`` the round being played or last
    closed (0 before the first)."""

    class Format(models.TextChoices):
        TEAMS = "teams", "Teams (fixed partnerships)"
        PROGRESSIVE = "progressive", "Progressive (partners rotate)"
        SIX_HANDED = "six-handed", "Six-handed tables"

    class RoundEnd(models.TextChoices):
        TARGET = "target", "Play to the target"
        TIME = "time", "Play to a time limit"
        HANDS = "hands", "A fixed number of hands"

    class ByeScore(models.TextChoices):
        WINNERS_AVERAGE = "winners_average", "The winners' average of the round"
        FIXED = "fixed", "A fixed score"
        NOTHING = "nothing", "Nothing"

    class Bell(models.TextChoices):  # a time-limit round: the hand being played when time is up
        FINISH = "finish", "It is finished and counts"
        VOID = "void", "It does not count"

    class Ranking(models.TextChoices):  # ``engine.events.Ranking``
        USUAL = "", "The format's usual: teams by rounds won, then total points; players by total points"
        POINTS = "points", "Total points"
        WINS_POINTS = "wins_points", "Rounds won, then total points"
        MATCHPOINTS = "matchpoints", "Matchpoints: each round, 1 for every entrant scoring fewer, ½ for a tie"

    class Status(models.TextChoices):
        SETUP = "setup", "Checking in"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="club_events")
    director = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # The season the night counts in (its standings), if any; a season deleted leaves its nights.
    season = models.ForeignKey(
        ClubSeason, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    name = models.CharField(max_length=EVENT_NAME_MAX)
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES)
    settings = models.JSONField(default=dict, blank=True)  # only the §4 keys that differ from defaults
    format = models.CharField(max_length=20, choices=Format.choices)
    rounds = models.PositiveSmallIntegerField()  # planned; the movement is made for this many
    round_end = models.CharField(max_length=10, choices=RoundEnd.choices, default=RoundEnd.TARGET)
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)  # for RoundEnd.TIME
    hands_per_round = models.PositiveSmallIntegerField(null=True, blank=True)  # for RoundEnd.HANDS
    bye_score = models.CharField(max_length=20, choices=ByeScore.choices, default=ByeScore.WINNERS_AVERAGE)
    bye_points = models.IntegerField(default=0)  # for ByeScore.FIXED
    bell = models.CharField(max_length=10, choices=Bell.choices, default=Bell.FINISH)
    ranking = models.CharField(max_length=12, choices=Ranking.choices, default=Ranking.USUAL, blank=True)
    prizes = models.JSONField(default=list, blank=True)  # awarded: "winners", "high_round", "high_average"
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    current_round = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class ClubEntrant(models.Model):
    """A team (two players) or a single player, numbered from 1 in check-in order. ``left_after``
    is the last round it played before leaving (0: left before the first); ``arrived_before`` the
    first round it could play (1 for those there at the start)."""

    event = models.ForeignKey(ClubEvent, on_delete=models.CASCADE, related_name="entrants")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=2 * PLAYER_NAME_MAX + 8)
    arrived_before = models.PositiveSmallIntegerField(default=1)
    left_after = models.PositiveSmallIntegerField(null=True, blank=True)
    checked_in_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_entrant_number")]

    def __str__(self) -> str:
        return self.name

    @property
    def present(self) -> bool:
        return self.left_after is None


class ClubMember(models.Model):
    """A player checked in to an event, in one entrant. One entrant per player per event: a player
    is never checked in at two tables."""

    event = models.ForeignKey(ClubEvent, on_delete=models.CASCADE, related_name="members")
    entrant = models.ForeignKey(ClubEntrant, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="club_entries")
    order = models.PositiveSmallIntegerField(default=0)  # a team's first or second player

    class Meta:
        ordering = ["entrant__number", "order"]
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="unique_club_member")]

    def __str__(self) -> str:
        return f"{self.player} in {self.entrant}"


class ClubRound(models.Model):
    """One round. ``ends_at`` is the bell (a time-limit round), set at the start; ``closed_at``
    when the director closed it and the results were taken."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(ClubEvent, on_delete=models.CASCADE, related_name="club_rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    started_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    sitting_out = models.ManyToManyField(ClubEntrant, blank=True, related_name="byes")

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_club_round")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.event}"


def _table_token() -> str:
    return secrets.token_urlsafe(18)


def new_table_pin() -> str:
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def _table_pin() -> str:  # the column's default, named by the migrations
    return new_table_pin()


class ClubTableCard(models.Model):
    """One physical table of an event, for the whole night: its link (``token``) and PIN, printed
    once on a card. Each round's ``ClubTable`` of that number plays under it, so the table's phone
    stays on one link and follows the movement from round to round."""

    event = models.ForeignKey(ClubEvent, on_delete=models.CASCADE, related_name="table_cards")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True, default=_table_token)
    pin = models.CharField(max_length=PIN_DIGITS, default=_table_pin)
    # How often the director unlocked the table or changed its PIN: wrong PINs are counted under
    # it (``throttle.PinGuess``), so each time the counts start afresh; a page showing an older
    # one is stale.
    pin_unlocks = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_club_table_card")]

    def __str__(self) -> str:
        return f"table {self.number} of {self.event}"


class ClubTable(models.Model):
    """One table of one round: the physical table it plays at (``card``: its link and PIN for the
    night) and the scorepad game it plays.

    ``seats`` lists, in the engine's seat order, the entrant ids there: two for a teams table
    (North–South, East–West), four players for progressive (North, East, South, West), six for a
    six-handed table. The game's seats are the players, partners opposite (RULES.md §8)."""

    round = models.ForeignKey(ClubRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    card = models.ForeignKey(ClubTableCard, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="club_table")
    seats = models.JSONField(default=list)  # entrant ids in the engine's seat order
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["round__number", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_club_table")]

    def __str__(self) -> str:
        return f"table {self.number}, {self.round}"

    @property
    def token(self) -> str:
        """The physical table's link, the same every round."""
        return self.card.token

    @property
    def pin(self) -> str:
        return self.card.pin

    @property
    def pin_unlocks(self) -> int:
        return self.card.pin_unlocks


class TableHand(models.Model):
    """What a club night adds to a hand entered at a table: which phone entered it, for which side,
    and whether the other side confirmed it (on its own phone, or by a countersign on the same
    phone after reading it) or disputed it. Unconfirmed and disputed hands are the director's."""

    class State(models.TextChoices):
        ENTERED = "entered", "Waiting for the other side"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"

    table = models.ForeignKey(ClubTable, on_delete=models.CASCADE, related_name="table_hands")
    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="table_hand")
    entered_by = models.CharField(max_length=PHONE_ID_MAX)  # the phone (its table cookie's id)
    entered_side = models.PositiveSmallIntegerField()  # the variant's side the phone spoke for
    entered_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.ENTERED)
    confirmed_by = models.CharField(max_length=PHONE_ID_MAX, blank=True)
    countersigned = models.BooleanField(default=False)  # confirmed with a tap on the entering phone
    confirmed_at = models.DateTimeField(null=True, blank=True)
    dispute = models.CharField(max_length=200, blank=True)  # the other side's words
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["table", "hand__number"]

    def __str__(self) -> str:
        return f"{self.hand} at {self.table}"


class ClubResult(models.Model):
    """One entrant's score for one closed round (``engine.events.RoundResult``), or its bye."""

    round = models.ForeignKey(ClubRound, on_delete=models.CASCADE, related_name="results")
    entrant = models.ForeignKey(ClubEntrant, on_delete=models.CASCADE, related_name="results")
    table = models.ForeignKey(ClubTable, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    points = models.IntegerField(default=0)
    won = models.BooleanField(default=False)
    bye = models.BooleanField(default=False)  # scored by the event's bye rule, not at a table

    class Meta:
        ordering = ["round__number", "entrant__number"]
        constraints = [models.UniqueConstraint(fields=["round", "entrant"], name="unique_club_result")]

    def __str__(self) -> str:
        return f"{self.entrant}, {self.round}: {self.points}"


class Correction(models.Model):
    """The trail: every confirmation and dispute a table's phone makes, and every change the
    director makes (an override, a correction, a table unlocked), what it was before and after, by
    whom and why. A phone has no account: ``made_by`` is then empty and ``made_by_words`` says whose
    phone it was ("East–West's phone")."""

    event = models.ForeignKey(ClubEvent, on_delete=models.CASCADE, related_name="corrections")
    table = models.ForeignKey(ClubTable, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    made_by_words = models.CharField(max_length=120, blank=True)
    what = models.CharField(max_length=200)  # in words: "Hand 3 at table 2, round 1"
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-made_at", "-id"]

    def __str__(self) -> str:
        return f"correction: {self.what}"

    @property
    def who(self) -> str:
        """The director's name, or whose phone it was."""
        return self.made_by.get_username() if self.made_by is not None else self.made_by_words
