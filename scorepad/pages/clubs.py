"""What a club night's pages show, built from the selectors' read models (no queries here)."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import events
from ..engine.cards import SUIT_NAMES, SYMBOL_OF_SUIT
from ..models import ClubEvent, TableHand
from ..selectors.clubs import NextPlace, RoundPlan, TableView, entrant_label
from ..selectors.games import HandRow


@dataclass(frozen=True, slots=True)
class SeatLine:
    where: str  # "North–South", "East", "seat 3"
    label: str  # "Team 7", or the player's name
    players: str  # "Ann & Bob"


@dataclass(frozen=True, slots=True)
class HandLine:
    """One entered hand at a table with its confirmation state, for the table's phone."""

    number: int
    table_hand_id: int | None
    version: int
    state: str
    state_words: str
    entered_here: bool  # by this phone or its side: the other side countersigns it here, or on their phone
    dispute: str
    words: str  # the hand as entered, for the other side to read before confirming it


def hand_words(row: HandRow) -> str:
    """ "Ann bid 21 in ♥ hearts · Ann & Cy: meld 10, tricks 15, +25 · Bo & Di: meld 0, tricks 10, +10"."""
    if row.thrown_in:
        return f"thrown in ({row.dealer} dealt): no score"
    trump = f"in {SYMBOL_OF_SUIT[row.trump]} {SUIT_NAMES[row.trump]}" if row.trump else "with no marriage"
    sides = " · ".join(
        f"{side.name}: meld {side.meld}, "
        + ("not played" if side.tricks is None else f"tricks {side.tricks}")
        + f", {side.score:+d}"
        for side in row.sides
    )
    return f"{row.bidder} bid {row.bid} {trump} · {sides}"


def seat_lines(view: TableView) -> list[SeatLine]:
    words = events.seat_words(view.event.format)  # type: ignore[arg-type]
    return [
        SeatLine(words[seat], entrant_label(view.event, entrant), entrant.name)
        for seat, entrant in enumerate(view.seats)
    ]


def side_places(event: ClubEvent) -> list[str]:
    """Where each side of a table sits, the same every round: a phone enters for a place at the
    physical table and keeps it as the movement brings new players."""
    if event.format == ClubEvent.Format.SIX_HANDED:
        return list(events.seat_words(event.format))  # type: ignore[arg-type]
    return ["North–South", "East–West"]


def round_seating(view: TableView) -> str:
    """Who sits where this round, on one line: "Round 3: North–South Team 1 (Ann & Bob),
    East–West Team 7 (Cy & Di)"."""
    return f"Round {view.round.number}: " + ", ".join(
        f"{line.where} {line.label}" + (f" ({line.players})" if line.players != line.label else "")
        for line in seat_lines(view)
    )


STATE_WORDS: dict[str, str] = {
    TableHand.State.ENTERED: "waiting for the other side to confirm",
    TableHand.State.CONFIRMED: "confirmed",
    TableHand.State.DISPUTED: "disputed: marked for the director",
}


def hand_lines(view: TableView, phone: str, side: int) -> list[HandLine]:
    """Each hand at the table for one phone: a hand its side entered (on this phone or another of
    the side's) is offered the other side's countersign here, never a "Confirm" it would refuse."""
    lines = []
    for row in view.sheet.rows:
        th = view.hands.get(row.hand_id)
        if th is None:  # entered on the director's scorepad, not by a table phone
            lines.append(
                HandLine(row.number, None, 0, "", "entered by the director", False, "", hand_words(row))
            )
            continue
        lines.append(
            HandLine(
                row.number,
                th.pk,
                th.version,
                th.state,
                STATE_WORDS[th.state],
                th.entered_by == phone or th.entered_side == side,
                th.dispute,
                hand_words(row),
            )
        )
    return lines


def where_next_lines(places: list[NextPlace]) -> list[str]:
    """ "Team 7: table 4, East–West" for each entrant of the table."""
    return [place.line for place in places]


def plan_lines(event: ClubEvent, plan: RoundPlan) -> list[str]:
    """The next round's tables in words, for the director before starting it."""
    words = events.seat_words(event.format)  # type: ignore[arg-type]
    lines = [
        f"Table {table.number}: "
        + ", ".join(f"{words[seat]} {entrant_label(event, e)}" for seat, e in enumerate(table.seats))
        for table in plan.tables
    ]
    if plan.sitting_out:
        lines.append("Sits out: " + ", ".join(entrant_label(event, e) for e in plan.sitting_out))
    return lines
