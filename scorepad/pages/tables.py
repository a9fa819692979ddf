"""What a private table's phone shows, from its own seat only (``seat_view``): its hand, what
everyone may see (calls, shown meld, the trick, scores), who sits where and whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass

from ..constants import STRENGTH_WORDS
from ..engine.cards import SUIT_NAMES, SUITS
from ..engine.game import from_json, seat_view
from ..engine.view import BID, CONCEDE, PASS, PLAY, TRUMP, SeatView
from ..selectors.tables import TableRead
from .practice import CardFace, Held, bidding, face, held

QUICK_WORDS = {
    "nice": "Nice hand!",
    "thinking": "Thinking…",
    "hurry": "Your turn!",
    "oops": "Oops",
    "thanks": "Thanks, partner",
    "gg": "Good game",
}


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: int
    name: str
    note: str  # "bot", "away: a bot plays for now", "left the table", "open"
    turn: bool
    me: bool
    dealer: bool
    played: CardFace | None  # its card in the trick now


@dataclass(frozen=True, slots=True)
class TableScreen:
    table: TableRead
    seat: int
    view: SeatView
    held: Held
    deciding: bool
    decision: str | None
    seats: tuple[SeatLine, ...]
    bids: tuple[tuple[str, str], ...]  # (value, label) when bidding
    suits: tuple[tuple[str, str], ...]  # (letter, name) when naming trump
    scores: tuple[tuple[str, int], ...]
    headline: str
    hand_over: bool
    messages: tuple[str, ...]
    melds: tuple[tuple[str, int, tuple[CardFace, ...]], ...]  # shown meld: (name, points, cards)
    # The trick just won, as (name, card) in play order, and who took it: bots answer a card all at
    # once, so a trick they finish would otherwise vanish before anyone saw it.
    last_trick: tuple[tuple[str, CardFace], ...] = ()
    last_winner: str = ""


def seat_label(table: TableRead, seat: int) -> str:
    row = table.seats[seat]
    return row.name or (f"Bot ({strength_name(row.strength)})" if row.kind == "bot" else f"Seat {seat + 1}")


def strength_name(strength: str) -> str:
    """A bot's strength as the practice form names it ("Steady"), not its engine name."""
    return STRENGTH_WORDS.get(strength, strength).split(":")[0]


def table_screen(table: TableRead, seat: int) -> TableScreen:
    state = from_json(table.state)
    view = seat_view(state, seat)
    deciding = state.to_act == seat and not table.ended
    trick = (
        dict(((view.trick.leader + i) % state.variant.seats, card) for i, card in enumerate(view.trick.cards))
        if view.trick
        else {}
    )
    lines = tuple(
        SeatLine(
            seat=row.seat,
            name=seat_label(table, row.seat),
            note=_note(row.kind, row.covered, row.quit),
            turn=state.to_act == row.seat,
            me=row.seat == seat,
            dealer=state.dealer == row.seat,
            played=face(trick[row.seat], view.trump) if row.seat in trick else None,
        )
        for row in table.seats
    )
    names = [seat_label(table, s) for s in range(state.variant.seats)]
    sides = [" & ".join(names[s] for s in side) for side in state.variant.sides]
    decision = str(view.decision) if deciding else None
    won = view.tricks[-1].winner if view.tricks else None
    return TableScreen(
        table=table,
        seat=seat,
        view=view,
        held=held(view, deciding),
        deciding=deciding,
        decision=decision,
        seats=lines,
        bids=_bids(view) if decision == BID else (),
        suits=tuple((SUITS[s], SUIT_NAMES[SUITS[s]]) for s in view.legal) if decision == TRUMP else (),
        scores=tuple(zip(sides, state.totals, strict=True)),
        headline=_headline(table, state.to_act, names, seat, state.result is not None),
        hand_over=state.result is not None,
        messages=tuple(f"{names[s]}: {QUICK_WORDS.get(key, '')}" for s, key in table.messages),
        melds=tuple(
            (names[s], view.meld[s], tuple(face(c, view.trump) for c in shown))
            for s, shown in enumerate(view.shown)
            if shown
        ),
        last_trick=_last_trick(view, names),
        last_winner="" if won is None else names[won],
    )


def _last_trick(view: SeatView, names: list[str]) -> tuple[tuple[str, CardFace], ...]:
    """The completed trick last won: who played each card, in play order."""
    if not view.tricks:
        return ()
    last = view.tricks[-1]
    seats = view.variant.seats
    return tuple((names[(last.leader + i) % seats], face(c, view.trump)) for i, c in enumerate(last.cards))


def _note(kind: str, covered: bool, quit: bool) -> str:
    if kind == "bot":
        return "bot"
    if kind == "open":
        return "left the table" if quit else "open seat"
    return "away: a bot plays for now" if covered else ""


def _bids(view: SeatView) -> tuple[tuple[str, str], ...]:
    """The practice table's bid chips: Pass, the least bid and the bids above it (RULES §1.2)."""
    return bidding(view).chips


def _headline(table: TableRead, to_act: int | None, names: list[str], seat: int, over: bool) -> str:
    if table.ended:
        return "The host has ended this table."
    if table.bots_stopped and to_act is not None and table.seats[to_act].kind != "person":
        return "This table's bots have thought as much as one table may: start a new table to play on."
    if over:
        return "The hand is over." + (" The game is over." if table.finished else " Deal the next one.")
    if to_act == seat:
        return "Your turn."
    return f"{names[to_act]}'s turn." if to_act is not None else ""


DECISIONS = {BID: "bid", TRUMP: "trump", PASS: "pass", PLAY: "card", CONCEDE: "concede"}
