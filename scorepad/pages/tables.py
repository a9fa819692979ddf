"""What a private table's phone shows, from its own seat only (``seat_view``): its hand, what
everyone may see (calls, shown meld, the trick, scores), who sits where and whose turn it is."""

from __future__ import annotations

import math
from collections.abc import Sequence, Set
from dataclasses import dataclass
from datetime import datetime

from ..constants import STRENGTH_WORDS
from ..engine.cards import SUIT_NAMES, SUITS, Card
from ..engine.game import HandState, seat_view
from ..engine.play import trick_winner
from ..engine.view import BID, CONCEDE, PASS, PLAY, TRUMP, SeatView
from ..selectors.tables import TableRead
from .practice import (
    GATHER_STEPS,
    PLACES,
    CardFace,
    HandEnd,
    Held,
    PublicHand,
    SeatMeld,
    SideLine,
    auction_summary,
    bidding,
    contract_words,
    face,
    hand_end,
    held,
    score_lines,
    seat_melds,
    trump_words,
)

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
    note: str  # "bot", "away", "away: a bot plays for now", "left the table", "open"
    turn: bool
    me: bool
    dealer: bool


@dataclass(frozen=True, slots=True)
class AwayLine:
    """A person whose phone is away, as every other phone says it: "Di's phone is away — a bot
    plays for Di in 25 s" at Di's turn (``seconds``: the grace left, counted down on the phone by
    static/js/table.js), once a bot covers the seat "a bot plays for Di", and otherwise when it
    would ("15 s into Di's turn")."""

    name: str
    seconds: int | None  # the grace left at their turn, before a bot plays for them
    covered: bool
    grace: int

    @property
    def words(self) -> str:
        """The line without its countdown (the template draws that as a ``<time>``)."""
        said = f"{self.name}'s phone is away — a bot plays for {self.name}"
        if self.covered:
            return said + "."
        if self.seconds is None:
            return f"{said} if not back {self.grace} s into {self.name}'s turn."
        return said + " in"


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
    call: str = ""  # its last call while the auction is on
    meld: int | None = None
    note: str = ""  # "away", "left", "open": not an ordinary seat just now (a bot's is not told here)


@dataclass(frozen=True, slots=True)
class TableScreen:
    """One phone's screen, from its own seat's view only. The practice table's pieces read it as
    they read a practice table (``score_lines``, ``contract``, ``auction``, ``melds``, …): the
    template includes the practice partials with ``table=screen``."""

    table: TableRead
    seat: int
    view: SeatView
    public: PublicHand
    names: tuple[str, ...]
    side_names: tuple[str, ...]
    held: Held
    deciding: bool
    decision: str | None
    seats: tuple[SeatLine, ...]
    bids: tuple[tuple[str, str], ...]  # (value, label) when bidding
    suits: tuple[tuple[str, str], ...]  # (letter, name) when naming trump
    scores: tuple[tuple[str, int], ...]  # each side's total: after this hand once it is over
    headline: str
    hand_over: bool
    messages: tuple[str, ...]
    end: HandEnd  # once the hand is over: its result, each side's line, the game's winners
    auction: tuple[tuple[str, str], ...] = ()  # every call in order: (name, "25" or "Pass")
    melds: tuple[SeatMeld, ...] = ()  # every seat's meld as laid down, once shown
    passed: tuple[CardFace, ...] = ()  # this seat's own passed cards (only it and its partner)
    received: tuple[CardFace, ...] = ()
    passed_to: str = ""
    received_from: str = ""
    pass_lines: tuple[str, ...] = ()  # who passed how many to whom: everyone sees that much
    trick_led: str = ""  # who led the trick in progress …
    trick_winning: str = ""  # … and whose card wins it so far
    # The trick just won, as (name, card) in play order, and who took it: bots answer a card all at
    # once, so a trick they finish would otherwise vanish before anyone saw it.
    last_trick: tuple[tuple[str, CardFace], ...] = ()
    last_winner: str = ""
    felt: Felt = Felt()
    felt_seats: tuple[FeltSeat, ...] = ()
    mark: Mark = (0, 0, 0)
    away: tuple[AwayLine, ...] = ()  # the other seats whose phones are away now

    @property
    def places(self) -> str:
        """The felt's shape, as the practice table's: "four" or "six" (around an oval)."""
        return "four" if self.view.variant.seats == 4 else "six"

    @property
    def score_lines(self) -> list[tuple[str, int, int | None]]:
        return score_lines(self.view, self.public, self.scores)

    @property
    def contract(self) -> str:
        return contract_words(self.view, self.names)

    @property
    def trump(self) -> str:
        return trump_words(self.view)

    @property
    def auction_line(self) -> str:
        return auction_summary(self.view, self.names, self.seat)

    @property
    def bidding_now(self) -> bool:
        """The auction is on: its calls show in order beside the decision, as they come."""
        return self.view.bidder is None and not self.hand_over

    @property
    def meld_fold_open(self) -> bool:
        """Meld shown and no card played yet: the meld is what everyone wants to read."""
        return bool(self.melds) and not self.view.tricks and not self.view.trick and not self.hand_over

    @property
    def result(self) -> tuple[SideLine, ...]:
        return self.end.lines

    @property
    def result_words(self) -> str:
        return self.end.words

    @property
    def winners(self) -> tuple[str, ...]:
        return self.end.winners

    @property
    def hand_number(self) -> int:
        return self.public.hand_number + 1

    @property
    def quick(self) -> dict[str, str]:
        """The quick messages this table offers: "Thanks, partner" only where there are partners."""
        partners = self.view.variant.partnerships
        return {key: words for key, words in QUICK_WORDS.items() if partners or key != "thanks"}


def seat_label(table: TableRead, seat: int) -> str:
    """A seat as the seat list and the join page name it: its person's name, a bot by its seat's
    number and strength ("Bot 3 (Steady)": two bots never share a name), or "Seat 3" when empty."""
    row = table.seats[seat]
    if row.kind == "bot" and not row.name:
        return f"{bot_name(seat)} ({strength_name(row.strength)})"
    return seat_name(table, seat)


def seat_name(table: TableRead, seat: int) -> str:
    """A seat's name on the felt, the scores and the calls: short enough for a phone ("Bot 3")."""
    row = table.seats[seat]
    if row.name:
        return row.name
    return bot_name(seat) if row.kind == "bot" else f"Seat {seat + 1}"


def bot_name(seat: int) -> str:
    return f"Bot {seat + 1}"


def strength_name(strength: str) -> str:
    """A bot's strength as the practice form names it ("Steady"), not its engine name."""
    return STRENGTH_WORDS.get(strength, strength).split(":")[0]


def table_screen(
    table: TableRead,
    seat: int,
    since: Mark | None = None,
    *,
    away: Set[int] = frozenset(),
    now: datetime | None = None,
) -> TableScreen:
    """``seat``'s screen; the cards played after ``since`` (the mark of the screen this phone showed
    before) land one after another, all but the seat's own. Without one (a page loaded, a stream's
    first screen) the table shows settled. ``away``: the seats whose phones have no stream open
    (``live.bus.away_seats``), said with the grace left at ``now`` when it is their turn."""
    state = table.hand
    view = seat_view(state, seat)
    deciding = state.to_act == seat and not table.ended
    away = {s for s in away if s != seat and table.seats[s].kind == "person"}
    lines = tuple(
        SeatLine(
            seat=row.seat,
            name=seat_label(table, row.seat),
            note=_note(row.kind, row.covered, row.quit, away=row.seat in away),
            turn=state.to_act == row.seat,
            me=row.seat == seat,
            dealer=state.dealer == row.seat,
        )
        for row in table.seats
    )
    names = tuple(seat_name(table, s) for s in range(state.variant.seats))
    sides = tuple(" & ".join(names[s] for s in side) for side in state.variant.sides)
    decision = str(view.decision) if deciding else None
    won = view.tricks[-1].winner if view.tricks else None
    public = PublicHand.of(state)
    end = hand_end(view, public, names, sides)
    # Once the hand is over its result is scored (the engine's scorer, the scorepad's): the totals
    # after it, the figures the household's scorepad shows.
    totals = state.result.totals if state.result is not None else state.totals
    calls = {s: ("pass" if bid is None else str(bid)) for s, bid in view.auction}
    passed_to = next((names[taker] for giver, taker, _ in public.passes if giver == seat), "")
    received_from = next((names[giver] for giver, taker, _ in public.passes if taker == seat), "")
    led, winning = _trick_now(view, names)
    return TableScreen(
        table=table,
        seat=seat,
        view=view,
        public=public,
        names=names,
        side_names=sides,
        held=held(view, deciding),
        deciding=deciding,
        decision=decision,
        seats=lines,
        bids=_bids(view) if decision == BID else (),
        suits=tuple((SUITS[s], SUIT_NAMES[SUITS[s]]) for s in view.legal) if decision == TRUMP else (),
        scores=tuple(zip(sides, totals, strict=True)),
        headline=_headline(table, state.to_act, names, seat, end, bidding=view.bidder is None),
        hand_over=state.result is not None,
        messages=tuple(f"{names[s]}: {QUICK_WORDS.get(key, '')}" for s, key in table.messages),
        auction=tuple((names[s], "Pass" if bid is None else str(bid)) for s, bid in view.auction),
        melds=seat_melds(view, names),
        passed=tuple(face(c, view.trump) for c in view.passed),
        received=tuple(face(c, view.trump) for c in view.received),
        passed_to=passed_to,
        received_from=received_from,
        pass_lines=tuple(
            f"{names[giver]} passed {count} cards to {names[taker]}" for giver, taker, count in public.passes
        ),
        end=end,
        trick_led=led,
        trick_winning=winning,
        last_trick=_last_trick(view, names),
        last_winner="" if won is None else names[won],
        felt=felt(view, seat, names, _start(state, since)),
        felt_seats=tuple(
            FeltSeat(
                names[s],
                _place(view, seat, s),
                state.dealer == s,
                state.to_act == s,
                call=calls.get(s, "") if view.bidder is None else "",
                meld=view.meld[s] if view.meld else None,
                note=_felt_note(lines[s].note),
            )
            for s in range(state.variant.seats)
            if s != seat
        ),
        mark=mark_of(state),
        away=_away_lines(table, names, away, None if table.ended else state.to_act, now, deciding=deciding),
    )


def _away_lines(
    table: TableRead,
    names: Sequence[str],
    away: Set[int],
    to_act: int | None,
    now: datetime | None,
    *,
    deciding: bool,
) -> tuple[AwayLine, ...]:
    """Each seat away, its grace counted from when its turn came (``turn_since``), as the tables'
    clock counts it (``services.tables.table_cover_overdue``). While this phone decides, the seats
    away say so on the felt only: the hand and the decision keep the room (a short phone's)."""
    if deciding:
        return ()
    lines = []
    for s in sorted(away):
        covered = table.seats[s].covered
        seconds = None
        if s == to_act and not covered and table.turn_since is not None and now is not None:
            waited = (now - table.turn_since).total_seconds()
            seconds = max(0, math.ceil(table.grace_seconds - waited))
        lines.append(AwayLine(names[s], seconds, covered, table.grace_seconds))
    return tuple(lines)


def _trick_now(view: SeatView, names: Sequence[str]) -> tuple[str, str]:
    """Who led the trick in progress, and whose card wins it so far (nothing between tricks)."""
    if view.trick is None or not view.trick.cards:
        return "", ""
    seats = view.variant.seats
    win = trick_winner(view.trick.cards, view.trump)
    return names[view.trick.leader], names[(view.trick.leader + win) % seats]


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


def felt(view: SeatView, me: int, names: Sequence[str], start: int) -> Felt:
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


def _last_trick(view: SeatView, names: Sequence[str]) -> tuple[tuple[str, CardFace], ...]:
    """The completed trick last won: who played each card, in play order."""
    if not view.tricks:
        return ()
    last = view.tricks[-1]
    seats = view.variant.seats
    return tuple((names[(last.leader + i) % seats], face(c, view.trump)) for i, c in enumerate(last.cards))


def _felt_note(note: str) -> str:
    """A seat's note as short as the felt has room for: "away", "left", "open"."""
    return {"bot": "", "left the table": "left", "open seat": "open"}.get(note, note.split(":")[0])


def _note(kind: str, covered: bool, quit: bool, *, away: bool = False) -> str:
    if kind == "bot":
        return "bot"
    if kind == "open":
        return "left the table" if quit else "open seat"
    if covered:
        return "away: a bot plays for now"
    return "away" if away else ""


def _bids(view: SeatView) -> tuple[tuple[str, str], ...]:
    """The practice table's bid chips: Pass, the least bid and the bids above it (RULES §1.2)."""
    return bidding(view).chips


def _headline(
    table: TableRead, to_act: int | None, names: Sequence[str], seat: int, end: HandEnd, *, bidding: bool
) -> str:
    if table.ended:
        return "The host has ended this table."
    if table.bots_stopped and to_act is not None and table.seats[to_act].kind != "person":
        return "This table's bots have thought as much as one table may: start a new table to play on."
    if end.words:  # the hand's summary below says the rest, and who won the game
        return end.words
    if to_act == seat:  # in play the decision says it, by the hand: "Your turn: tap a card."
        return "Your turn to bid." if bidding else ""
    if to_act is None:
        return ""
    return f"{names[to_act]}'s turn to bid." if bidding else f"{names[to_act]}'s turn."


DECISIONS = {BID: "bid", TRUMP: "trump", PASS: "pass", PLAY: "card", CONCEDE: "concede"}
