"""What a private table's phone shows, from its own seat only (``seat_view``): its hand, what
everyone may see (calls, shown meld, the trick, scores), who sits where and whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass

from ..constants import STRENGTH_WORDS
from ..engine.cards import SUIT_NAMES, SUITS, Card
from ..engine.game import HandState, seat_view
from ..engine.play import trick_winner
from ..engine.view import BID, CONCEDE, PASS, PLAY, TRUMP, SeatView
from ..selectors.tables import TableRead
from .practice import GATHER_STEPS, PLACES, CardFace, Held, bidding, face, held

# Where a phone stands in the play: (game, hand, cards played in that hand). A screen drawn since a
# mark lands the cards played after it one after another; one drawn since its own mark lands nothing.
Mark = tuple[int, int, int]

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


@dataclass(frozen=True, slots=True)
class TablePlayed:
    """A card on the felt, as the practice table's trick card reads it (its partial): who played
    it, where they sit from this phone, whether it leads or wins so far; ``order`` is the step it
    lands at (``--at``) when it is new to this phone, ``seen`` when it is not; ``n`` counts the
    cards played in the hand before it (the phone's own check of what it has shown)."""

    name: str
    face: CardFace
    order: int
    n: int
    seen: bool
    winning: bool = False
    place: str = "bottom"
    led: bool = False


@dataclass(frozen=True, slots=True)
class Felt:
    """The trick on the felt since a mark: the trick just won (gathered toward its winner's place
    after its new cards land) and the trick now; ``steps`` is how long the hand waits (``wait-N``,
    the steps of the practice table's veil)."""

    trick: tuple[TablePlayed, ...] = ()
    gathered: tuple[TablePlayed, ...] = ()
    gathered_to: str = ""
    landed: int = 0  # new cards of the won trick, landing before it is gathered
    steps: int = 0


@dataclass(frozen=True, slots=True)
class FeltSeat:
    """A seat around the felt, from this phone (the practice table's ``seat_said`` reads it)."""

    name: str
    place: str
    dealer: bool
    turn: bool
    call: str = ""  # the felt names no calls: the status line and the folds say them
    meld: int | None = None


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
    felt: Felt = Felt()
    felt_seats: tuple[FeltSeat, ...] = ()
    mark: Mark = (0, 0, 0)

    @property
    def places(self) -> str:
        """The felt's shape, as the practice table's: "four" or "six" (around an oval)."""
        return "four" if self.view.variant.seats == 4 else "six"


def seat_label(table: TableRead, seat: int) -> str:
    row = table.seats[seat]
    return row.name or (f"Bot ({strength_name(row.strength)})" if row.kind == "bot" else f"Seat {seat + 1}")


def strength_name(strength: str) -> str:
    """A bot's strength as the practice form names it ("Steady"), not its engine name."""
    return STRENGTH_WORDS.get(strength, strength).split(":")[0]


def table_screen(table: TableRead, seat: int, since: Mark | None = None) -> TableScreen:
    """``seat``'s screen; the cards played after ``since`` (the mark of the screen this phone showed
    before) land one after another, all but the seat's own. Without one (a page loaded, a stream's
    first screen) the table shows settled."""
    state = table.hand
    view = seat_view(state, seat)
    deciding = state.to_act == seat and not table.ended
    lines = tuple(
        SeatLine(
            seat=row.seat,
            name=seat_label(table, row.seat),
            note=_note(row.kind, row.covered, row.quit),
            turn=state.to_act == row.seat,
            me=row.seat == seat,
            dealer=state.dealer == row.seat,
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
        felt=felt(view, seat, names, _start(state, since)),
        felt_seats=tuple(
            FeltSeat(names[s], _place(view, seat, s), state.dealer == s, state.to_act == s)
            for s in range(state.variant.seats)
            if s != seat
        ),
        mark=mark_of(state),
    )


def mark_of(state: HandState) -> Mark:
    played = sum(len(trick.cards) for trick in state.tricks) + len(state.trick)
    return (state.game, state.hand_number, played)


def own_mark(table: TableRead, seat: int) -> Mark:
    """Just before ``seat``'s own last card of the hand (the hand's start if it has played none): a
    phone that acted had seen the table until then; its own card does not land (``felt``)."""
    state = table.hand
    seats, played, before = state.variant.seats, 0, 0
    tricks = [(t.leader, t.cards) for t in state.tricks]
    if state.trick_leader is not None:
        tricks.append((state.trick_leader, tuple(state.trick)))
    for leader, cards in tricks:
        for i in range(len(cards)):
            if (leader + i) % seats == seat:
                before = played
            played += 1
    return (state.game, state.hand_number, before)


def _start(state: HandState, since: Mark | None) -> int:
    """The first card new to the phone: none without a mark, all of a hand it has not seen."""
    now = mark_of(state)
    if since is None:
        return now[2]
    return since[2] if since[:2] == now[:2] else 0


def _place(view: SeatView, me: int, seat: int) -> str:
    seats = view.variant.seats
    return PLACES[seats][(seat - me) % seats]


def felt(view: SeatView, me: int, names: list[str], start: int) -> Felt:
    """The trick now, and the trick just won when its last card is new to this phone. The cards new
    to it are numbered in playing order (``--at``); the won trick is gathered once its new cards
    have landed, and the next trick's cards land after the gathering (``after-gather``)."""
    seats = view.variant.seats
    done = sum(len(t.cards) for t in view.tricks)
    fresh = 0

    def cards(leader: int, played: tuple[Card, ...], first: int) -> tuple[TablePlayed, ...]:
        nonlocal fresh
        win = trick_winner(played, view.trump) if played else -1
        out = []
        for i, card in enumerate(played):
            who, n = (leader + i) % seats, first + i
            new = n >= start and who != me  # the phone's own card is on it already
            out.append(
                TablePlayed(
                    names[who],
                    face(card, view.trump),
                    fresh if new else 0,
                    n,
                    not new,
                    winning=i == win,
                    place=_place(view, me, who),
                    led=i == 0,
                )
            )
            fresh += new
        return tuple(out)

    last = view.tricks[-1] if view.tricks else None
    if last is None or last.winner is None or done <= start:  # no trick won since the phone looked
        trick = cards(view.trick.leader, view.trick.cards, done) if view.trick else ()
        return Felt(trick, steps=fresh)
    gathered = cards(last.leader, last.cards, done - len(last.cards))
    landed = fresh
    trick = cards(view.trick.leader, view.trick.cards, done) if view.trick else ()
    return Felt(trick, gathered, _place(view, me, last.winner), landed, fresh + GATHER_STEPS)


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
