"""Reading private tables: by link, by short code, and as one read model a page is drawn from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

from ..engine.game import HandState, from_json
from ..models import Game, Household, Player, PrivateTable, TableMessage, TableSeat
from ..models.tables import CODE_ALPHABET, CODE_LENGTH, TABLE_BOT_CPU_LIMIT
from .games import seating
from .households import roster_player_of

MESSAGES_SHOWN = 3  # the latest quick messages a table shows


@dataclass(frozen=True, slots=True)
class SeatRead:
    seat: int
    kind: str
    name: str
    strength: str
    covered: bool
    quit: bool
    user_id: int | None
    claim_key: str


@dataclass(frozen=True)
class TableRead:
    """A table as stored, with its seats and latest quick messages: all a page needs.

    A request reads its table once: the rows it was read from ride along (``row``, ``seat_rows``;
    a write works from them, its version check refusing a read gone stale), and the state is
    parsed at most once (``hand``). A write changes that ``hand`` in place: the read is spent, and
    the write answers with the table after it (``after``)."""

    id: int
    code: str
    link_token: str
    variant: str
    version: int
    state: dict[str, Any]
    hands: tuple[dict[str, Any], ...]
    ended: bool
    finished: bool
    grace_seconds: int
    seats: tuple[SeatRead, ...]
    messages: tuple[tuple[int, str], ...]  # (seat, message key), newest first
    said: int = 0  # the newest quick message's id (0: none yet)
    bots_stopped: bool = False  # the table's bots have cost all they may
    turn_since: datetime | None = field(default=None, compare=False)  # moves with the version
    row: PrivateTable | None = field(default=None, compare=False, repr=False)
    seat_rows: tuple[TableSeat, ...] = field(default=(), compare=False, repr=False)

    @cached_property
    def hand(self) -> HandState:
        """The table's state, parsed once for the request (a screen, a form, a write share it)."""
        return from_json(self.state)

    @property
    def marks(self) -> TableMarks:
        return TableMarks(self.version, self.said)

    def after(self, table: PrivateTable, seat_rows: Sequence[TableSeat], hand: HandState) -> TableRead:
        """The table as a write left it (``table`` and ``seat_rows`` as stored, ``hand`` its state
        parsed): this read's messages, nothing read again."""
        later = table_read_of(table, seat_rows, self.messages, said=self.said)
        later.__dict__["hand"] = hand  # the parse ``hand`` would make, already made
        return later


def table_read(table_id: int) -> TableRead | None:
    table = PrivateTable.objects.filter(pk=table_id).first()
    if table is None:
        return None
    newest = TableMessage.objects.filter(table=table).values_list("id", "seat", "message")
    said = list(newest[:MESSAGES_SHOWN])
    messages = tuple((seat, key) for _, seat, key in said)
    seat_rows = list(TableSeat.objects.filter(table=table))
    return table_read_of(table, seat_rows, messages, said=said[0][0] if said else 0)


def table_read_of(
    table: PrivateTable,
    seat_rows: Sequence[TableSeat],
    messages: tuple[tuple[int, str], ...],
    *,
    said: int = 0,
) -> TableRead:
    """The read model of rows already read (``seat_rows`` in seat order)."""
    seats = tuple(
        SeatRead(
            row.seat, row.kind, row.name, row.strength, row.covered, row.quit, row.user_id, row.claim_key
        )
        for row in seat_rows
    )
    return TableRead(
        id=table.pk,
        code=table.code,
        link_token=table.link_token,
        variant=table.variant,
        version=table.version,
        state=table.state,
        hands=tuple(table.hands),
        ended=table.ended,
        finished=table.finished,
        grace_seconds=table.grace_seconds,
        seats=seats,
        messages=messages,
        said=said,
        bots_stopped=table.bot_cpu_seconds >= TABLE_BOT_CPU_LIMIT,
        turn_since=table.turn_since,
        row=table,
        seat_rows=tuple(seat_rows),
    )


class TableMarks(NamedTuple):
    """What tells a screen drawn from a table gone stale: its version, and its newest quick message
    (a message moves no version: the version guards a card played from a stale screen)."""

    version: int
    said: int


def table_marks(table_id: int) -> TableMarks | None:
    """The table's ``TableMarks`` (None: no such table), in one small read: a quiet stream's check
    that the table has not moved past the screen it drew."""
    newest = TableMessage.objects.filter(table=OuterRef("pk")).values("id")[:1]
    marks = PrivateTable.objects.filter(pk=table_id).values_list("version", Coalesce(Subquery(newest), 0))
    row = marks.first()
    return None if row is None else TableMarks(*row)


def table_by_link(token: str) -> PrivateTable | None:
    return PrivateTable.objects.filter(link_token=token).first() if len(token) <= 32 else None


def table_by_code(code: str) -> PrivateTable | None:
    code = "".join(code.split()).upper()
    if len(code) != CODE_LENGTH or any(letter not in CODE_ALPHABET for letter in code):
        return None
    return PrivateTable.objects.filter(code=code, status=PrivateTable.OPEN).first()


def seat_of_account(table: TableRead, user: User | AnonymousUser) -> int | None:
    """The seat an account holds at the table (its own phones return to it without a cookie)."""
    if not isinstance(user, User):
        return None
    return next((s.seat for s in table.seats if s.kind == TableSeat.PERSON and s.user_id == user.pk), None)


def takeable_kinds(hand: HandState) -> tuple[str, ...]:
    """The seats a newcomer may take: open ones, and bots' between hands (or before anyone has
    decided anything in the first hand: the bot steps aside)."""
    untouched = hand.hand_number == 0 and not hand.auction and not hand.passes
    if hand.result is not None or untouched:
        return TableSeat.OPEN, TableSeat.BOT
    return (TableSeat.OPEN,)


def member_seats(table: TableRead, user: User | AnonymousUser) -> tuple[Player | None, tuple[int, ...]]:
    """At a household's table, the roster player a signed-in member said they are ("This is me"),
    and the seats they may sit in as that player with one tap: the seat the table's game holds for
    them, or else any seat a stand-in (a bot's, a guest's) holds that a newcomer may take now.
    (None, ()) for anyone else; no seats once their account sits at the table."""
    row = table.row
    if not isinstance(user, User) or row is None or row.game_id is None or row.household_id is None:
        return None, ()
    player = roster_player_of(Household(pk=row.household_id), user)
    if player is None or table.ended or seat_of_account(table, user) is not None:
        return player, ()
    now = seating(Game(pk=row.game_id)).last
    free = takeable_kinds(table.hand)
    if any(sitter.pk == player.pk for sitter in now):
        held = next(position for position, sitter in enumerate(now) if sitter.pk == player.pk)
        return player, (held,) if table.seats[held].kind in free else ()
    return player, tuple(s.seat for s in table.seats if s.kind in free and now[s.seat].retired)
