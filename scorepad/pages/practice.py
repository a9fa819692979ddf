"""What the practice page shows, from the player's seat only (``seat_view``): the player never
sees a bot's hand, only what the rules show everyone (calls, meld, played cards).

``practice_table`` turns a stored game into ``PracticeTable``, an immutable page made of small
pieces, each built by its own function from the player's ``SeatView`` and the public facts:
the hand held (``Held``), the bids offered (``Bidding``), the trump choice (``TrumpChoice``), the
tricks on the table (``TrickBoard``) and the hand's end (``HandEnd``). A hint arrives already
thought (``bot_pool.hint``): ``hint_of`` only words it. Nothing here reads the database or
searches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..constants import PLAYER
from ..engine.answers import ANSWER_KEYS, AnswerError, FormAnswer, check_answer, why_not_playable
from ..engine.auction import high_bid, trump_suits
from ..engine.cards import (
    CODES,
    RANK_SHOWN,
    RANKS,
    SUIT_NAMES,
    SUITS,
    SYMBOL_OF_SUIT,
    Card,
    card_name,
    card_words,
    cards_in_words,
    counts_of,
    parse_card,
    rank_of,
    suit_of,
)
from ..engine.game import HandResult, HandState, from_json, seat_view
from ..engine.meld import count_meld, meld_points
from ..engine.play import trick_winner
from ..engine.scoring import short_meld_stops_play
from ..engine.view import BID, CONCEDE, PASS, PLAY, TRUMP, Answer, SeatView
from ..models import PracticeGame
from ..selectors.practice import seat_names, side_names

BID_CHIPS = 6  # quick bids offered: the least bid and the next steps up, then a few jumps
BID_JUMPS = (5, 10)  # … the bids that many steps above the least
FAN_ONE_ROW = 7  # at most this many cards a row of the fan: each keeps ≥ 44 px to tap at 360 px wide
GATHER_STEPS = 3  # the won trick's gathering takes as long as this many cards landing
PLACES = {
    4: ("bottom", "left", "top", "right"),  # partner opposite
    6: ("bottom", "left-low", "left-high", "top", "right-high", "right-low"),  # around an oval
}


# -- cards and seats --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardFace:
    card: Card
    code: str  # "TH": what a form posts
    rank: str  # "10"
    symbol: str  # "♥"
    label: str  # "Ten of hearts": what a screen reader says
    red: bool
    trump: bool = False
    playable: bool = True


@dataclass(frozen=True, slots=True)
class SuitRow:
    letter: str
    symbol: str
    name: str
    trump: bool
    cards: tuple[CardFace, ...]


@dataclass(frozen=True, slots=True)
class Played:
    """A card on the table: who played it, where they sit, and its place in the trick (the CSS
    delay); the led card and the card winning so far are marked."""

    name: str
    face: CardFace
    order: int
    winning: bool = False
    place: str = "bottom"
    led: bool = False


@dataclass(frozen=True, slots=True)
class SeatSpot:
    """A seat around the table, as everyone sees it: where it sits and what it has said."""

    seat: int
    name: str
    place: str  # "top", "left", "right", six-handed also "left-high", "right-low", …
    dealer: bool
    call: str  # its last call ("37", "pass"), or "" before it has called
    meld: int | None  # once shown
    turn: bool  # this seat decides now
    thinking: bool  # this seat decides first after the player's answer ("thinking…" meanwhile)


@dataclass(frozen=True, slots=True)
class SuitMeld:
    letter: str
    symbol: str
    name: str
    meld: int


@dataclass(frozen=True, slots=True)
class SeatMeld:
    name: str
    total: int
    lines: tuple[tuple[str, int, int], ...]  # (§9.2 name, count, points)
    shown: tuple[CardFace, ...]


@dataclass(frozen=True, slots=True)
class SideLine:
    name: str
    score: int
    total: int
    reason: str


@dataclass(frozen=True, slots=True)
class Hint:
    words: str  # "Bid 25", "Play A♠"
    reason: str
    value: str  # what the form would post
    key: str  # … under this field name


@dataclass(frozen=True, slots=True)
class PublicHand:
    """What everyone at the table knows about the hand beyond the player's ``SeatView``: whose
    turn it is, the counter points taken, how many cards went which way, and the result once it
    is over. No card anyone still holds."""

    hand_number: int
    to_act: int | None
    points: tuple[int, ...]  # counter points per side taken so far this hand
    passes: tuple[tuple[int, int, int], ...]  # (giver, taker, how many cards)
    result: HandResult | None

    @classmethod
    def of(cls, state: HandState) -> PublicHand:
        return cls(
            hand_number=state.hand_number,
            to_act=state.to_act,
            points=tuple(state.points),
            passes=tuple((giver, taker, len(cards)) for giver, taker, cards in state.passes),
            result=state.result,
        )


def face(card: Card, trump: int | None = None, playable: bool = True) -> CardFace:
    code = CODES[card]
    rank, suit = code[0], code[1]
    return CardFace(
        card=card,
        code=code,
        rank=RANK_SHOWN.get(rank, rank),
        symbol=SYMBOL_OF_SUIT[suit],
        label=card_name(card),
        red=suit in "HD",
        trump=trump is not None and suit_of(card) == trump,
        playable=playable,
    )


# -- the pieces of the table ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Held:
    """The player's hand: by suit (``rows``), as held in the fan, and why a card can't be played."""

    rows: tuple[SuitRow, ...] = ()
    fan: tuple[CardFace, ...] = ()  # trump first, colours alternating
    play_rule: str = ""

    @property
    def columns(self) -> int:
        """Cards per row of the fan: as few rows as hold ``FAN_ONE_ROW`` cards each, filled
        evenly (20 cards: three rows of 7, 7 and 6)."""
        rows = max(1, -(-len(self.fan) // FAN_ONE_ROW))
        return -(-len(self.fan) // rows)


@dataclass(frozen=True, slots=True)
class Bidding:
    """The bids offered when the player bids: quick chips, the least bid, its step."""

    chips: tuple[tuple[str, str], ...] = ()  # (value, label)
    least: int | None = None
    step: int = 1
    forced: bool = False  # the player is the forced dealer: one bid, the minimum
    warning: str = ""  # double-deck: no marriage, and what the rule of 20 needs


@dataclass(frozen=True, slots=True)
class TrumpChoice:
    """The player's meld in each trump (on the bid buttons and the trump choice), and the suits
    the player may name."""

    suit_melds: tuple[SuitMeld, ...] = ()
    options: tuple[tuple[str, str, str], ...] = ()  # (letter, symbol, name)


@dataclass(frozen=True, slots=True)
class TrickBoard:
    """The trick being played, the last one won, and the trick just won on its way to the winner."""

    trick: tuple[Played, ...] = ()
    last_trick: tuple[Played, ...] = ()
    last_winner: str = ""
    gathered: tuple[Played, ...] = ()
    gathered_to: str = ""  # … the winner's place


@dataclass(frozen=True, slots=True)
class HandEnd:
    """Once the hand is over: each side's line, the result in words, and the game's winners."""

    lines: tuple[SideLine, ...] = ()
    words: str = ""
    winners: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PracticeTable:
    """Everything the practice page shows, from the player's seat: built from the player's
    ``SeatView`` and the public facts only, so no bot's unplayed card can reach the template."""

    game: PracticeGame
    view: SeatView
    public: PublicHand
    names: tuple[str, ...]
    side_names: tuple[str, ...]
    held: Held
    bidding: Bidding
    trumps: TrumpChoice
    tricks: TrickBoard
    end: HandEnd
    seats: tuple[SeatSpot, ...]  # the others, around the table
    auction: tuple[tuple[str, str], ...]
    passed: tuple[CardFace, ...]
    received: tuple[CardFace, ...]
    pass_lines: tuple[str, ...]
    melds: tuple[SeatMeld, ...]
    totals: tuple[tuple[int, list[int]], ...]  # (hand from 1, totals per side)
    hint: Hint | None = None

    # What the template reads, by the names it has always read.
    @property
    def hand(self) -> tuple[SuitRow, ...]:
        return self.held.rows

    @property
    def fan(self) -> tuple[CardFace, ...]:
        return self.held.fan

    @property
    def play_rule(self) -> str:
        return self.held.play_rule

    @property
    def bid_chips(self) -> tuple[tuple[str, str], ...]:
        return self.bidding.chips

    @property
    def least_bid(self) -> int | None:
        return self.bidding.least

    @property
    def bid_step(self) -> int:
        return self.bidding.step

    @property
    def forced(self) -> bool:
        return self.bidding.forced

    @property
    def bid_warning(self) -> str:
        return self.bidding.warning

    @property
    def suit_melds(self) -> tuple[SuitMeld, ...]:
        return self.trumps.suit_melds

    @property
    def trump_options(self) -> tuple[tuple[str, str, str], ...]:
        return self.trumps.options

    @property
    def trick(self) -> tuple[Played, ...]:
        return self.tricks.trick

    @property
    def last_trick(self) -> tuple[Played, ...]:
        return self.tricks.last_trick

    @property
    def last_winner(self) -> str:
        return self.tricks.last_winner

    @property
    def gathered(self) -> tuple[Played, ...]:
        return self.tricks.gathered

    @property
    def gathered_to(self) -> str:
        return self.tricks.gathered_to

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
    def trump_letters(self) -> list[str]:
        return [letter for letter, _, _ in self.trumps.options]

    @property
    def places(self) -> str:
        """The table's shape: "four" (partner opposite) or "six" (around an oval)."""
        return "four" if self.view.variant.seats == 4 else "six"

    @property
    def shown_cards(self) -> int:
        """Cards that land one after another before the player may tap (the CSS delays)."""
        return len(self.tricks.trick) + (GATHER_STEPS if self.tricks.gathered else 0)

    @property
    def score_lines(self) -> list[tuple[str, int, int | None]]:
        """Each side: its total, and the counter points it has taken so far this hand (None
        before the first trick is won, and once the hand is over: the total has them)."""
        return score_lines(self.view, self.public, self.scores)

    @property
    def contract(self) -> str:
        """ "Left 37 ♥": bidder, bid and trump symbol, as far as known."""
        return contract_words(self.view, self.names)

    @property
    def auction_line(self) -> str:
        """The auction in one line: "Right 37 · you passed"."""
        return auction_summary(self.view, self.names, PLAYER)

    @property
    def decision(self) -> str | None:
        return self.view.decision if self.public.to_act == PLAYER else None

    @property
    def hand_over(self) -> bool:
        return self.public.result is not None

    @property
    def meld_fold_open(self) -> bool:
        """At the start of play the meld is what the player wants to read: its fold opens."""
        return not self.view.tricks and not self.trick and self.decision == PLAY

    @property
    def trump(self) -> str:
        return trump_words(self.view)

    @property
    def scores(self) -> list[tuple[str, int]]:
        """Each side's total now: after this hand once it is over."""
        result = self.public.result
        totals = result.totals if result is not None else self.view.totals
        return list(zip(self.side_names, totals, strict=True))

    @property
    def dealer_name(self) -> str:
        return self.names[self.view.dealer]

    @property
    def bidder_name(self) -> str:
        return "" if self.view.bidder is None else self.names[self.view.bidder]

    @property
    def can_undo(self) -> bool:
        return bool(self.game.undo) and not self.game.finished  # once it is over: rematch


def score_lines(
    view: SeatView, public: PublicHand, scores: Sequence[tuple[str, int]]
) -> list[tuple[str, int, int | None]]:
    """Each side: its total, and the counter points it has taken so far this hand (None before
    the first trick is won, and once the hand is over: the total has them)."""
    taking = bool(view.tricks) and public.result is None
    points = public.points if taking else (None,) * len(scores)
    return [(name, total, taken) for (name, total), taken in zip(scores, points, strict=True)]


def contract_words(view: SeatView, names: Sequence[str]) -> str:
    """ "Left 37 ♥": bidder, bid and trump symbol, as far as known (the high bid while bidding)."""
    if view.bidder is None:
        high = high_bid(view.auction)
        return "" if high is None else f"{names[high[0]]} {high[1]}"
    suit = "" if view.trump is None else f" {SYMBOL_OF_SUIT[SUITS[view.trump]]}"
    return f"{names[view.bidder]} {view.bid}{suit}"


def auction_summary(view: SeatView, names: Sequence[str], me: int) -> str:
    """The auction in one line, from ``me``'s seat: "Right 37 · you passed"."""
    if not view.auction:
        return f"{names[(view.dealer + 1) % view.variant.seats]} bids first"
    high = high_bid(view.auction)
    parts = [] if high is None else [f"{names[high[0]]} {high[1]}"]
    mine = [bid for seat, bid in view.auction if seat == me]
    if mine and (high is None or high[0] != me):
        parts.append("you passed" if mine[-1] is None else f"you bid {mine[-1]}")
    if not parts:
        parts.append("all passed so far")
    return " · ".join(parts)


def trump_words(view: SeatView) -> str:
    """ "♥ hearts" once trump is named."""
    if view.trump is None:
        return ""
    return f"{SYMBOL_OF_SUIT[SUITS[view.trump]]} {SUIT_NAMES[SUITS[view.trump]]}"


def practice_table(game: PracticeGame, *, hint: Hint | None = None) -> PracticeTable:
    """The page for ``game`` as stored; ``hint`` once thought (``bot_pool.hint``, ``hint_of``)."""
    state = from_json(game.state)
    names = tuple(seat_names(state.variant))
    view = seat_view(state, PLAYER)
    public = PublicHand.of(state)
    deciding = state.to_act == PLAYER
    return PracticeTable(
        game=game,
        view=view,
        public=public,
        names=names,
        side_names=tuple(side_names(state.variant, names)),
        held=held(view, deciding),
        bidding=bidding(view) if deciding and view.decision == BID else Bidding(),
        trumps=trump_choice(view) if deciding and view.decision in (BID, TRUMP) else TrumpChoice(),
        tricks=trick_board(view, public, names),
        end=hand_end(view, public, names, side_names(state.variant, names)),
        seats=seat_spots(view, public, names),
        auction=tuple((names[seat], "Pass" if bid is None else str(bid)) for seat, bid in view.auction),
        passed=tuple(face(c, view.trump) for c in view.passed),
        received=tuple(face(c, view.trump) for c in view.received),
        pass_lines=tuple(
            f"{names[giver]} passed {count} cards to {_object(names[taker])}"
            for giver, taker, count in public.passes
        ),
        melds=seat_melds(view, names),
        totals=tuple((entry["hand"] + 1, entry["totals"]) for entry in game.hands),
        hint=hint if deciding else None,
    )


def _object(name: str) -> str:
    """A seat's name after a verb: "to you", "to Partner"."""
    return "you" if name == "You" else name


def held(view: SeatView, deciding: bool) -> Held:
    playing = deciding and view.decision == PLAY
    rows = []
    for suit in held_order(view.hand, view.trump):
        cards = sorted((c for c in view.hand if suit_of(c) == suit), key=rank_of)
        faces = tuple(face(c, view.trump, playable=not playing or c in view.legal) for c in cards)
        letter = SUITS[suit]
        rows.append(SuitRow(letter, SYMBOL_OF_SUIT[letter], SUIT_NAMES[letter], suit == view.trump, faces))
    rule = ""
    if playing:
        refused = next((c for c in view.hand if c not in view.legal), None)
        rule = "" if refused is None else (why_not_playable(view, refused) or "")
    return Held(tuple(rows), tuple(card for row in rows for card in row.cards), rule)


def held_order(hand: Sequence[Card], trump: int | None) -> list[int]:
    """The suits in the order a player holds them: trump first, then red and black alternating
    as far as the suits held allow (♥ ♠ ♦ ♣, not ♥ ♦ ♠ ♣)."""
    left = [suit for suit in range(4) if suit != trump and any(suit_of(c) == suit for c in hand)]
    order = [trump] if trump is not None and any(suit_of(c) == trump for c in hand) else []
    while left:
        red = order and SUITS[order[-1]] in "HD"
        suit = next((s for s in left if (SUITS[s] in "HD") != red), left[0]) if order else left[0]
        order.append(suit)
        left.remove(suit)
    return order


def seat_spots(view: SeatView, public: PublicHand, names: Sequence[str]) -> tuple[SeatSpot, ...]:
    """The other seats around the table: name, dealer, last call, meld once shown, whose turn."""
    seats, places = view.variant.seats, PLACES[view.variant.seats]
    calls = {seat: ("pass" if bid is None else str(bid)) for seat, bid in view.auction}
    bidding_out = view.decision == BID and view.settings.pass_is_final
    out = {seat for seat, bid in view.auction if bid is None} if bidding_out else set()
    first_after_me = next((seat for seat in range(1, seats) if seat not in out), None)
    return tuple(
        SeatSpot(
            seat=seat,
            name=names[seat],
            place=places[seat],
            dealer=seat == view.dealer,
            call=calls.get(seat, ""),
            meld=view.meld[seat] if view.meld else None,
            turn=public.to_act == seat and public.result is None,
            thinking=seat == first_after_me and public.to_act == PLAYER,
        )
        for seat in range(1, seats)
    )


def trump_choice(view: SeatView) -> TrumpChoice:
    """The player's meld with each suit as trump: on the bid buttons and the trump choice."""
    counts = counts_of(view.hand)
    melds = tuple(
        SuitMeld(
            SUITS[s],
            SYMBOL_OF_SUIT[SUITS[s]],
            SUIT_NAMES[SUITS[s]],
            meld_points(counts, s, view.variant, view.settings),
        )
        for s in range(4)
    )
    legal = set(view.legal) if view.decision == TRUMP else set()
    return TrumpChoice(melds, tuple((m.letter, m.symbol, m.name) for s, m in enumerate(melds) if s in legal))


def bidding(view: SeatView) -> Bidding:
    settings = view.settings
    least: int = view.legal[-1]
    step = settings.next_bid_step(least)
    if None not in view.legal:  # RULES §1.2: "the dealer must bid 20", the one legal answer
        return Bidding(((str(least), f"Bid {least}: everyone passed, the dealer must"),), least, step, True)
    bids, bid = [], least
    for steps in range(BID_JUMPS[-1] + 1):
        if steps < BID_CHIPS - len(BID_JUMPS) or steps in BID_JUMPS:
            bids.append(bid)
        bid += settings.next_bid_step(bid)
    chips = (("pass", "Pass"), *((str(b), str(b)) for b in bids))
    return Bidding(chips, least, step, False, _bid_warning(view))


def _bid_warning(view: SeatView) -> str:
    """Before a bid where trump needs a marriage: a hand with none can't name trump; and what the
    rule of 20 asks of the bidders' meld (§2.3, §2.5)."""
    settings = view.settings
    if not settings.trump_requires_marriage:
        return ""
    rule = settings.rule_of_20
    need = "" if rule is None else f" Your side will also need {rule[0]} meld to play the hand."
    if trump_suits(counts_of(view.hand), settings):
        return need.strip()
    return f"You hold no marriage: if you win the bid you can't name trump and lose your bid.{need}"


def bid_needs_asking(view: SeatView, said: FormAnswer, *, deciding: bool) -> int | None:
    """A bid typed far above the last one (more than the biggest quick bid): ask before it counts.
    Returns that bid, or None when it goes straight through (a chip, a pass, a confirmed bid)."""
    if not deciding or view.decision != BID or said.sure or said.decision != BID:
        return None
    chips = bidding(view)
    if chips.forced or said.unreadable is not None:
        return None  # not a bid the rules take: the write refuses it in words, nothing is asked
    try:
        check_answer(view, said.answer)
    except AnswerError:
        return None
    bid = said.answer
    return bid if isinstance(bid, int) and bid > int(chips.chips[-1][0]) else None


def seat_melds(view: SeatView, names: Sequence[str]) -> tuple[SeatMeld, ...]:
    if not view.shown or not view.meld:
        return ()
    melds = []
    for seat, shown in enumerate(view.shown):
        counted = count_meld(counts_of(shown), view.trump, view.variant, view.settings)
        lines = tuple((line.name, line.count, line.points) for line in counted.melds)
        faces = tuple(face(c, view.trump) for c in shown)
        melds.append(SeatMeld(names[seat], view.meld[seat], lines, faces))
    return tuple(melds)


def trick_board(view: SeatView, public: PublicHand, names: Sequence[str]) -> TrickBoard:
    seats = view.variant.seats
    places = PLACES[seats]

    def played(leader: int, cards: Sequence[Card]) -> tuple[Played, ...]:
        win = trick_winner(cards, view.trump) if cards else -1
        return tuple(
            Played(
                names[(leader + i) % seats],
                face(c, view.trump),
                i,
                winning=i == win,
                place=places[(leader + i) % seats],
                led=i == 0,
            )
            for i, c in enumerate(cards)
        )

    trick: tuple[Played, ...] = ()
    if view.trick is not None and view.decision == PLAY:
        trick = played(view.trick.leader, view.trick.cards)
    if not view.tricks:
        return TrickBoard(trick)
    last = view.tricks[-1]
    last_trick = played(last.leader, last.cards)
    winner = "" if last.winner is None else names[last.winner]
    if last.winner is not None and (view.decision == PLAY or public.result is not None):
        # the trick the player's card went into, gathered toward its winner before the next lands
        return TrickBoard(trick, last_trick, winner, last_trick, places[last.winner])
    return TrickBoard(trick, last_trick, winner)


def hand_end(view: SeatView, public: PublicHand, names: Sequence[str], sides: Sequence[str]) -> HandEnd:
    result = public.result
    if result is None:
        return HandEnd()
    lines = tuple(
        SideLine(name, score, total, reason)
        for name, score, total, reason in zip(
            sides,
            result.scores,
            result.totals,
            result.reasons or ("",) * len(result.scores),
            strict=True,
        )
    )
    if view.bidder is None:
        words = "Everyone passed: the hand is thrown in."
    elif not result.played:
        why = "no marriage to name trump" if view.trump is None else "not enough meld to play"
        words = f"{names[view.bidder]} bid {view.bid} and forfeited: {why}."
        bidders_meld = view.variant.side_totals(view.meld)[view.variant.side_of(view.bidder)]
        if view.trump is not None and not short_meld_stops_play(view.settings, bidders_meld):
            words = f"{names[view.bidder]} bid {view.bid} and threw the hand in."  # §4 a throw-in
    else:
        words = f"{names[view.bidder]} bid {view.bid} and {'made it' if result.made else 'went set'}."
    return HandEnd(lines, words, tuple(sides[side] for side in result.winners))


# -- hints ------------------------------------------------------------------------------------------


def hint_of(view: SeatView, answer: Answer, reason: str | None) -> Hint:
    """The hint the strongest bot gave in the player's seat (``bot_pool.hint``), in words, with
    its own reason or else one read from the view."""
    words, value = _answer_words(view, answer), _answer_value(view, answer)
    return Hint(words, in_words(reason or hint_reason(view, answer)), value, ANSWER_KEYS[view.decision])


ENGINE_CODE = re.compile(r"\b[AKQJT9][SHDC]\b")


def in_words(text: str) -> str:
    """A bot's reason with any engine code in it as players write the card ("JH" -> "J♥"), so a
    hint never shows ``TC`` on the page whatever words the bot chose."""
    return ENGINE_CODE.sub(lambda code: card_words(parse_card(code.group())), text)


def _answer_words(view: SeatView, answer: Answer) -> str:
    if view.decision == CONCEDE:
        return "Throw the hand in" if answer else "Play on"
    if view.decision == BID:
        return "Pass" if answer is None else f"Bid {answer}"
    if view.decision == TRUMP:
        assert isinstance(answer, int)
        return f"Name {SUIT_NAMES[SUITS[answer]]} trump"
    if view.decision == PASS:
        assert isinstance(answer, tuple)
        return f"Pass {cards_in_words(answer)}"
    assert isinstance(answer, int)
    return f"Play {card_words(Card(answer))}"


def _answer_value(view: SeatView, answer: Answer) -> str:
    if view.decision == CONCEDE:
        return "true" if answer else "false"
    if view.decision == BID:
        return "pass" if answer is None else str(answer)
    if view.decision == TRUMP:
        assert isinstance(answer, int)
        return SUITS[answer]
    if view.decision == PASS:
        assert isinstance(answer, tuple)
        return " ".join(CODES[c] for c in answer)
    assert isinstance(answer, int)
    return CODES[answer]


def hint_reason(view: SeatView, answer: Answer) -> str:
    """A one-line reason for ``answer``, from what the view shows."""
    counts = counts_of(view.hand)
    if view.decision == BID:
        best = max(range(4), key=lambda s: meld_points(counts, s, view.variant, view.settings))
        meld = meld_points(counts, best, view.variant, view.settings)
        aces = sum(1 for c in view.hand if RANKS[rank_of(c)] == "A")
        hand = f"your meld with {SUIT_NAMES[SUITS[best]]} is {meld} and you hold {aces} aces"
        return f"{hand}." if answer is not None else f"{hand}: not enough to go higher."
    if view.decision == TRUMP:
        assert isinstance(answer, int)
        length = sum(1 for c in view.hand if suit_of(c) == answer)
        meld = meld_points(counts, answer, view.variant, view.settings)
        return f"it gives the most meld ({meld}) and you hold {length} of them."
    if view.decision == PASS:
        if view.seat == view.bidder:
            assert isinstance(answer, tuple)
            meld_before = meld_points(counts, view.trump, view.variant, view.settings)
            left = list(counts)
            for c in answer:
                left[c] -= 1
            meld_after = meld_points(left, view.trump, view.variant, view.settings)
            if meld_after == meld_before:
                return "low cards from short suits go back; your meld stays whole."
            kept = f"your meld goes from {meld_before} to {meld_after}"
            return f"low cards from short suits go back and your trumps stay; {kept}."
        return "the bidder wants trumps and aces."
    assert isinstance(answer, int)
    card = Card(answer)
    trick = view.trick.cards if view.trick is not None else ()
    if not trick:
        return "a strong lead: it should take the trick." if rank_of(card) == 0 else "a safe lead."
    after = (*trick, card)
    if trick_winner(after, view.trump) == len(trick):
        return "it takes the trick."
    return "it cannot win this trick, and it is your cheapest card."
