"""Club nights, the director's reads: every table's progress, the bell, live standings (with the
round being played counted from its confirmed hands), the corrections trail, and the rows of the
CSV exports.

Live standings are asked for by every screen in the room, so the question "has anything changed?"
is three small aggregate queries (``standings_fingerprint``), and the standings are worked out once
per change. What is kept, and why each is needed (nothing else is: the pages render from these):

- ``live_standings``: the standings, in the shared cache under the fingerprint. Every server
  process's feed (``live.feeds``: one reading per change for all its streams), every poll and every
  page after a change reads them; worked out once for them all.
- ``_playing_results``: each table's confirmed points, in the shared cache under its game's revision
  and its hands' states. Working the standings out again after a confirmation then scores that
  one table, not every table of the round; and the confirming phone's own page, which scored the
  table just then, keeps them (``keep_table_points``), so a confirmation scores its game once.
- ``recent_standings_fingerprint``: the fingerprint, read once a moment per server process, for
  the polls (older pages) that ask every second whether anything changed.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core import signing
from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone

from ..engine import events
from ..engine.cards import SUIT_NAMES
from ..engine.variants import get_variant
from ..models import ClubEvent, ClubResult, ClubRound, ClubTable, Correction, Hand, TableHand
from .clubs import (
    bye_rule,
    current_round,
    entrant_label,
    entrants_with_players,
    event_results,
)
from .games import CACHE_ERRORS, Scoresheet, scoresheet

logger = logging.getLogger(__name__)

STANDINGS_SALT = "scorepad.clubs.standings"
STANDINGS_CACHE_SECONDS = 600
ROWS_PER_COLUMN = 15  # a room's screen: more entrants than this go side by side


# ---- the bell -------------------------------------------------------------------------------------


def bell_refusal(table: ClubTable, now: datetime | None = None) -> str:
    """Why a new hand cannot be recorded at ``table`` after its round's bell, or "" if it can.

    Finish-and-count: the hand being played at the bell is the table's last, so one hand entered
    after the bell is taken. Does-not-count: no hand entered after the bell is taken."""
    club_round = ClubRound.objects.select_related("event").get(pk=table.round_id)
    now = now or timezone.now()
    if club_round.ends_at is None or now < club_round.ends_at:
        return ""
    bell = f"The bell rang at {timezone.localtime(club_round.ends_at):%H:%M}"
    if club_round.event.bell == ClubEvent.Bell.VOID:
        return f"{bell}: a hand not finished by then does not count tonight. Nothing was recorded."
    after = TableHand.objects.filter(table=table, entered_at__gte=club_round.ends_at).exists()
    if after:
        return (
            f"{bell} and this table has entered the hand it was playing then: the round is over for it. "
            "Nothing was recorded."
        )
    return ""


# ---- every table's progress -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableProgress:
    table: ClubTable
    hands: int  # deals recorded (thrown-in ones too)
    last_entry: datetime | None
    waiting: int  # entered, not yet confirmed by the other side
    disputed: int
    finished: bool  # its game is won, or its hands for the round are played

    @property
    def playing(self) -> bool:
        return not self.finished


def round_progress(event: ClubEvent, club_round: ClubRound) -> list[TableProgress]:
    """Each table of ``club_round``: hands entered, the last entry, hands waiting and disputed."""
    tables = list(club_round.tables.select_related("game").order_by("number"))
    hands = dict(
        Hand.objects.filter(game__club_table__round=club_round)
        .values("game_id")
        .annotate(n=Count("id"))
        .values_list("game_id", "n")
    )
    marks = {
        row["table_id"]: row
        for row in TableHand.objects.filter(table__round=club_round)
        .values("table_id")
        .annotate(
            last=Max("entered_at"),
            waiting=Count("id", filter=Q(state=TableHand.State.ENTERED)),
            disputed=Count("id", filter=Q(state=TableHand.State.DISPUTED)),
        )
    }
    limit = event.hands_per_round if event.round_end == ClubEvent.RoundEnd.HANDS else None
    progress = []
    for table in tables:
        mark: Mapping[str, Any] = marks.get(table.pk, {})
        count = hands.get(table.game_id, 0)
        progress.append(
            TableProgress(
                table=table,
                hands=count,
                last_entry=mark.get("last"),
                waiting=mark.get("waiting", 0),
                disputed=mark.get("disputed", 0),
                finished=table.game.finished or (limit is not None and count >= limit),
            )
        )
    return progress


def corrections(event: ClubEvent) -> list[Correction]:
    return list(event.corrections.select_related("made_by", "table__round"))


def event_hand(event: ClubEvent, hand_id: int) -> tuple[Hand, ClubTable, TableHand | None] | None:
    """A hand of one of ``event``'s tables, with its table and confirmation; None if not there."""
    hand = Hand.objects.filter(pk=hand_id, game__club_table__round__event=event).first()
    if hand is None:
        return None
    table = ClubTable.objects.select_related("round", "game").get(game_id=hand.game_id)
    return hand, table, TableHand.objects.filter(hand=hand).first()


def table_sheet(table: ClubTable) -> Scoresheet:
    return scoresheet(table.game)


# ---- live standings -------------------------------------------------------------------------------


def standings_token_of(event: ClubEvent) -> str:
    """The room's read-only standings link: signed, so it names only this event's standings."""
    return signing.dumps(event.pk, salt=STANDINGS_SALT)


def event_id_of_standings_token(token: str) -> int | None:
    """The event a standings link names (its signature checked), without reading the database."""
    try:
        event_id = signing.loads(token, salt=STANDINGS_SALT)
    except signing.BadSignature:
        return None
    return event_id if isinstance(event_id, int) else None


def event_by_standings_token(token: str) -> ClubEvent | None:
    event_id = event_id_of_standings_token(token)
    return None if event_id is None else ClubEvent.objects.filter(pk=event_id).first()


# A room of screens asks about once a second each: the fingerprint is read at most this often per
# server process and event, and the answer shared by every poll meanwhile. A change shows that
# much later at most, well within the two seconds a room's standings have.
FINGERPRINT_SECONDS = 0.25
_recent_fingerprints: dict[int, tuple[float, str]] = {}


def recent_standings_fingerprint(event_id: int) -> str:
    """``standings_fingerprint``, read again only when the last reading is older than
    ``FINGERPRINT_SECONDS`` (this process's; each gunicorn worker keeps its own)."""
    now = time.monotonic()
    kept = _recent_fingerprints.get(event_id)
    if kept is not None and now - kept[0] < FINGERPRINT_SECONDS:
        return kept[1]
    fingerprint = standings_fingerprint(event_id)
    _recent_fingerprints[event_id] = (now, fingerprint)
    return fingerprint


def standings_fingerprint(event_id: int) -> str:
    """What the standings are made of, as a short string: equal strings mean equal standings.
    Every write that can change them bumps one of these: the event (rounds, check-in), a table
    (a hand entered or corrected), its game (any hand written, the director's scoresheet too), a
    table hand (confirmed, disputed), a hand (edited)."""
    version = ClubEvent.objects.filter(pk=event_id).values_list("version", flat=True).first()
    tables = ClubTable.objects.filter(round__event_id=event_id).aggregate(
        n=Count("id"), v=Sum("version"), r=Sum("game__revision")
    )
    hands = TableHand.objects.filter(table__round__event_id=event_id).aggregate(
        n=Count("id"), v=Sum("version"), h=Sum("hand__version")
    )
    text = ":".join(str(part) for part in (event_id, version, *tables.values(), *hands.values()))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class LiveRow:
    rank: int
    tied: bool
    label: str
    players: str
    wins: int
    points: int
    rounds: int
    matchpoints: str = ""  # "7½", shown when the event ranks by matchpoints


@dataclass(frozen=True, slots=True)
class LiveStandings:
    event_name: str
    teams: bool
    round_number: int  # the round being played, 0 if none
    closed_rounds: int
    rows: tuple[LiveRow, ...]
    fingerprint: str
    ranking: str = ""  # ``ClubEvent.ranking``: the screen says how the rows rank
    ends_at: datetime | None = None  # the bell of the round being played, if it has one
    updated_at: datetime | None = None  # when these standings were worked out (the last change)

    @property
    def columns(self) -> tuple[tuple[LiveRow, ...], ...]:
        """The rows in columns of at most ``ROWS_PER_COLUMN``, as even as they go: a room's screen
        shows 40 teams or 60 players at once, side by side (a phone reads them one after another)."""
        if not self.rows:
            return ()
        count = -(-len(self.rows) // ROWS_PER_COLUMN)
        size = -(-len(self.rows) // count)
        return tuple(self.rows[start : start + size] for start in range(0, len(self.rows), size))

    @property
    def crowded(self) -> bool:
        return len(self.columns) > 1


def _confirmed_totals(sheet: Scoresheet, states: Mapping[int, str]) -> list[int]:
    """Each side's points at a table from the hands the other side confirmed (or the director
    entered): summed from the scoresheet's per-hand scores, the one scorer's."""
    totals = [0] * len(sheet.side_names)
    for row in sheet.rows:
        if states.get(row.hand_id, TableHand.State.CONFIRMED) == TableHand.State.CONFIRMED:
            totals = [total + score for total, score in zip(totals, row.scores, strict=True)]
    return totals


def _cache_get_many(keys: list[str]) -> dict[str, Any]:
    try:
        return cache.get_many(keys)
    except CACHE_ERRORS as error:  # a cache that does not answer: work them out from the database
        logger.warning("club standings worked out from the database, the cache did not answer: %s", error)
        return {}


def _cache_set_many(values: dict[str, Any]) -> None:
    try:
        cache.set_many(values, timeout=STANDINGS_CACHE_SECONDS)
    except CACHE_ERRORS as error:
        logger.warning("club standings not kept, the cache did not answer: %s", error)


def _points_key(table: ClubTable, revision: int, states: Mapping[int, str]) -> str:
    """Where a table's confirmed points are kept: its game's revision (any hand written) and its
    hands' states (confirmed, disputed) name them."""
    marks = ",".join(f"{hand}{state[0]}" for hand, state in sorted(states.items()))
    digest = hashlib.blake2b(marks.encode(), digest_size=8).hexdigest()
    return f"club-table-points:v1:{table.pk}:{revision}:{digest}"


def keep_table_points(table: ClubTable, sheet: Scoresheet) -> None:
    """Keep the table's confirmed points from a scoresheet just worked out for its phone (after a
    confirmation or a dispute): the standings then take them instead of scoring the game again.
    The hands' states are read after the sheet's hands: a hand entered meanwhile is one of them,
    waiting, and counts for nothing."""
    states = dict(TableHand.objects.filter(table=table).values_list("hand_id", "state"))
    _cache_set_many({_points_key(table, sheet.game.revision, states): _confirmed_totals(sheet, states)})


def _playing_results(event: ClubEvent, club_round: ClubRound) -> list[events.RoundResult]:
    """The round being played, as it stands: each seated entrant's side's points from the hands the
    other side confirmed; nobody has won it yet. Each table's points are kept in the cache
    (``_points_key``), so after one confirmation only that table is scored again, however many
    screens ask at once, and not even that one when its phone's page kept them."""
    entrants = {entrant.pk: entrant for entrant in entrants_with_players(event)}
    states: dict[int, dict[int, str]] = defaultdict(dict)
    for table_id, hand_id, state in TableHand.objects.filter(table__round=club_round).values_list(
        "table_id", "hand_id", "state"
    ):
        states[table_id][hand_id] = state
    tables = list(club_round.tables.select_related("game"))

    keys = {table.pk: _points_key(table, table.game.revision, states[table.pk]) for table in tables}
    kept = _cache_get_many(list(keys.values()))
    fresh = {
        keys[t.pk]: _confirmed_totals(scoresheet(t.game), states[t.pk])
        for t in tables
        if keys[t.pk] not in kept
    }
    if fresh:
        _cache_set_many(fresh)
    points = {**kept, **fresh}
    variant = get_variant(event.variant)
    results = []
    for table in tables:
        totals = points[keys[table.pk]]
        for seat, entrant_id in enumerate(table.seats):
            side = seat if event.format == ClubEvent.Format.TEAMS else variant.side_of(seat)
            results.append(
                events.RoundResult(entrants[entrant_id].number, club_round.number, totals[side], False)
            )
    return results


def _live_standings(event: ClubEvent, fingerprint: str) -> LiveStandings:
    results, byes = event_results(event)
    playing = current_round(event)
    round_number = 0
    if playing is not None and playing.status == ClubRound.Status.PLAYING:
        results = results + _playing_results(event, playing)
        round_number = playing.number
    kind: events.EventKind = event.format  # type: ignore[assignment]
    ranked = events.standings(results, kind, byes, bye_rule(event), event.ranking)  # type: ignore[arg-type]
    entrants = {entrant.number: entrant for entrant in entrants_with_players(event)}
    rows = tuple(
        LiveRow(
            s.rank,
            s.tied,
            entrant_label(event, entrants[s.entrant]),
            entrants[s.entrant].name,
            s.wins,
            s.points,
            s.rounds_played,
            events.matchpoints_words(s.matchpoints),
        )
        for s in ranked
    )
    closed = ClubRound.objects.filter(event=event, status=ClubRound.Status.CLOSED).count()
    teams = event.format == ClubEvent.Format.TEAMS
    ends_at = playing.ends_at if round_number and playing is not None else None
    return LiveStandings(
        event.name, teams, round_number, closed, rows, fingerprint, event.ranking, ends_at, timezone.now()
    )


def live_standings(event: ClubEvent, fingerprint: str | None = None) -> LiveStandings:
    """The standings now, from the cache when nothing changed since they were last worked out
    (``fingerprint``: ``standings_fingerprint`` just read, to save reading it again)."""
    fingerprint = fingerprint or standings_fingerprint(event.pk)
    key = f"club-standings:v2:{event.pk}:{fingerprint}"
    kept = _cache_get_many([key]).get(key)
    if isinstance(kept, LiveStandings):
        return kept
    fresh = _live_standings(event, fingerprint)
    _cache_set_many({key: fresh})
    return fresh


# ---- exports --------------------------------------------------------------------------------------


def result_rows(event: ClubEvent) -> list[ClubResult]:
    """Every closed round's result, one per entrant per round, in round and entrant order."""
    return list(
        ClubResult.objects.filter(round__event=event, round__status=ClubRound.Status.CLOSED)
        .select_related("round", "entrant", "table")
        .order_by("round__number", "entrant__number")
    )


@dataclass(frozen=True, slots=True)
class SheetOfTable:
    """One table's score sheet: its round, seats and every hand as scored."""

    table: ClubTable
    sheet: Scoresheet
    states: dict[int, str]  # hand id -> TableHand state ("" if the director entered it)


def score_sheets(event: ClubEvent, round_number: int | None = None) -> list[SheetOfTable]:
    tables = ClubTable.objects.filter(round__event=event).select_related("round", "game")
    if round_number is not None:
        tables = tables.filter(round__number=round_number)
    states = dict(TableHand.objects.filter(table__round__event=event).values_list("hand_id", "state"))
    return [
        SheetOfTable(table, sheet, {row.hand_id: states.get(row.hand_id, "") for row in sheet.rows})
        for table in tables.order_by("round__number", "number")
        for sheet in (scoresheet(table.game),)
    ]


def trump_words(letter: str | None) -> str:
    return SUIT_NAMES.get(letter or "", "")
