"""Reads for practice mode: which games a request may open, the table a page shows, hints, history.

``practice_table(game)`` turns the stored engine state into ``PracticeTable``, everything the
practice page shows, from the player's seat only (``seat_view``): the player never sees a bot's
hand, only what the rules show everyone (calls, meld, played cards).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from ..constants import PLAYER, STRENGTH_WORDS
from ..engine.answers import ANSWER_KEYS, AnswerError, read_form, why_not_playable
from ..engine.auction import high_bid, trump_suits
from ..engine.bots import HINT_BOT, make_bot
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
from ..engine.meld import count_meld, hand_score_ceiling, meld_points
from ..engine.play import trick_winner
from ..engine.variants import VARIANTS, Settings, SettingsError, Variant
from ..engine.view import BID, CONCEDE, PASS, PLAY, TRUMP, Answer, Bot, SeatView
from ..models import PracticeGame

SESSION_KEY = "practice_games"  # ids of the games this browser started without an account
BID_CHIPS = 6  # quick bids offered: the least bid and the next steps up, then a few jumps
BID_JUMPS = (5, 10)  # … the bids that many steps above the least
FAN_ONE_ROW = 7  # the fan holds this many cards in one row (each ≥ 44 px at 375), more in two
GATHER_STEPS = 3  # the won trick's gathering takes as long as this many cards landing
PLACES = {
    4: ("bottom", "left", "top", "right"),  # partner opposite
    6: ("bottom", "left-low", "left-high", "top", "right-high", "right-low"),  # around an oval
}


# -- access ---------------------------------------------------------------------------------------


def practice_games_for(request: HttpRequest) -> QuerySet[PracticeGame]:
    """The games this request may open: the user's own, and those this browser started as a visitor."""
    started_here = Q(user__isnull=True, pk__in=request.session.get(SESSION_KEY, []))
    if request.user.is_authenticated:
        return PracticeGame.objects.filter(Q(user=request.user) | started_here)
    return PracticeGame.objects.filter(started_here)


def get_practice_for_request(request: HttpRequest, game_id: int) -> PracticeGame:
    return get_object_or_404(practice_games_for(request), pk=game_id)


def current_practice(request: HttpRequest) -> PracticeGame | None:
    """The newest unfinished game this request may continue."""
    return practice_games_for(request).filter(finished=False).first()


# -- the table --------------------------------------------------------------------------------------


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


@dataclass
class PracticeTable:
    """Everything the practice page shows, from the player's seat: built from the player's
    ``SeatView`` and the public facts only, so no bot's unplayed card can reach the template."""

    game: PracticeGame
    view: SeatView
    public: PublicHand
    names: list[str]
    side_names: list[str]
    hand: list[SuitRow] = field(default_factory=list)
    bid_chips: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    least_bid: int | None = None
    bid_step: int = 1
    trump_options: list[tuple[str, str, str]] = field(default_factory=list)  # (letter, symbol, name)
    auction: list[tuple[str, str]] = field(default_factory=list)
    passed: list[CardFace] = field(default_factory=list)
    received: list[CardFace] = field(default_factory=list)
    pass_lines: list[str] = field(default_factory=list)
    melds: list[SeatMeld] = field(default_factory=list)
    trick: list[Played] = field(default_factory=list)
    last_trick: list[Played] = field(default_factory=list)
    last_winner: str = ""
    play_rule: str = ""
    result: list[SideLine] = field(default_factory=list)
    result_words: str = ""
    totals: list[tuple[int, list[int]]] = field(default_factory=list)  # (hand from 1, totals per side)
    winners: list[str] = field(default_factory=list)
    hint: Hint | None = None
    seats: list[SeatSpot] = field(default_factory=list)  # the others, around the table
    fan: list[CardFace] = field(default_factory=list)  # the hand as held: trump first, colours alternating
    suit_melds: list[SuitMeld] = field(default_factory=list)  # the player's meld in each trump
    forced: bool = False  # the player is the forced dealer: one bid, the minimum
    bid_warning: str = ""  # double-deck: no marriage, and what the rule of 20 needs
    gathered: list[Played] = field(default_factory=list)  # the trick just won, on its way to the winner
    gathered_to: str = ""  # … the winner's place

    @property
    def trump_letters(self) -> list[str]:
        return [letter for letter, _, _ in self.trump_options]

    @property
    def places(self) -> str:
        """The table's shape: "four" (partner opposite) or "six" (around an oval)."""
        return "four" if self.view.variant.seats == 4 else "six"

    @property
    def fan_columns(self) -> int:
        """Cards per row of the fan: one row up to ``FAN_ONE_ROW`` cards, else two rows."""
        count = len(self.fan)
        return count if count <= FAN_ONE_ROW else (count + 1) // 2

    @property
    def shown_cards(self) -> int:
        """Cards that land one after another before the player may tap (the CSS delays)."""
        return len(self.trick) + (GATHER_STEPS if self.gathered else 0)

    @property
    def score_lines(self) -> list[tuple[str, int, int | None]]:
        """Each side: its total, and the counter points it has taken so far this hand (None
        before the first trick is won, and once the hand is over: the total has them)."""
        taking = bool(self.view.tricks) and self.public.result is None
        points = self.public.points if taking else (None,) * len(self.side_names)
        return [(name, total, taken) for (name, total), taken in zip(self.scores, points, strict=True)]

    @property
    def contract(self) -> str:
        """ "West 37 ♥": bidder, bid and trump symbol, as far as known."""
        state = self.view
        if state.bidder is None:
            high = high_bid(state.auction)
            return "" if high is None else f"{self.names[high[0]]} {high[1]}"
        suit = "" if state.trump is None else f" {SYMBOL_OF_SUIT[SUITS[state.trump]]}"
        return f"{self.names[state.bidder]} {state.bid}{suit}"

    @property
    def auction_line(self) -> str:
        """The auction in one line: "East 37 · you passed"."""
        state = self.view
        if not state.auction:
            return f"{self.names[(state.dealer + 1) % state.variant.seats]} bids first"
        high = high_bid(state.auction)
        parts = [] if high is None else [f"{self.names[high[0]]} {high[1]}"]
        mine = [bid for seat, bid in state.auction if seat == PLAYER]
        if mine and (high is None or high[0] != PLAYER):
            parts.append("you passed" if mine[-1] is None else f"you bid {mine[-1]}")
        if not parts:
            parts.append("all passed so far")
        return " · ".join(parts)

    @property
    def decision(self) -> str | None:
        return self.view.decision if self.public.to_act == PLAYER else None

    @property
    def hand_over(self) -> bool:
        return self.public.result is not None

    @property
    def trump(self) -> str:
        return (
            ""
            if self.view.trump is None
            else f"{SYMBOL_OF_SUIT[SUITS[self.view.trump]]} {SUIT_NAMES[SUITS[self.view.trump]]}"
        )

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


def seat_names(variant: Variant) -> list[str]:
    if variant.seats == 4:
        return ["You", "West", "Partner", "East"]
    return ["You", *(f"Bot {seat + 1}" for seat in range(1, variant.seats))]


def side_names(variant: Variant, names: Sequence[str]) -> list[str]:
    return [" & ".join(names[seat] for seat in side) for side in variant.sides]


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


def practice_table(game: PracticeGame, *, hint: bool = False) -> PracticeTable:
    state = from_json(game.state)
    variant = state.variant
    names = seat_names(variant)
    view = seat_view(state, PLAYER)
    table = PracticeTable(game, view, PublicHand.of(state), names, side_names(variant, names))
    deciding = state.to_act == PLAYER
    _hand(table, deciding)
    _seats(table)
    table.auction = [(names[seat], "Pass" if bid is None else str(bid)) for seat, bid in view.auction]
    if deciding and view.decision == BID:
        _bids(table)
    if deciding and view.decision in (BID, TRUMP):
        _suit_melds(table)
    table.passed = [face(c, view.trump) for c in view.passed]
    table.received = [face(c, view.trump) for c in view.received]
    table.pass_lines = [
        f"{names[giver]} passed {count} cards to {_object(names[taker])}"
        for giver, taker, count in table.public.passes
    ]
    _melds(table)
    _tricks(table)
    _result(table)
    table.totals = [(entry["hand"] + 1, entry["totals"]) for entry in game.hands]
    if hint and deciding:
        table.hint = practice_hint(game, state)
    return table


def _object(name: str) -> str:
    """A seat's name after a verb: "to you", "to Partner"."""
    return "you" if name == "You" else name


def _hand(table: PracticeTable, deciding: bool) -> None:
    state = view = table.view
    playing = deciding and state.decision == PLAY
    rows = []
    for suit in held_order(view.hand, state.trump):
        cards = sorted((c for c in view.hand if suit_of(c) == suit), key=rank_of)
        faces = tuple(face(c, state.trump, playable=not playing or c in view.legal) for c in cards)
        letter = SUITS[suit]
        rows.append(SuitRow(letter, SYMBOL_OF_SUIT[letter], SUIT_NAMES[letter], suit == state.trump, faces))
    table.hand = rows
    table.fan = [card for row in rows for card in row.cards]
    if playing:
        refused = next((c for c in view.hand if c not in view.legal), None)
        table.play_rule = "" if refused is None else (why_not_playable(view, refused) or "")


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


def _seats(table: PracticeTable) -> None:
    """The other seats around the table: name, dealer, last call, meld once shown, whose turn."""
    state, public = table.view, table.public
    seats, places = state.variant.seats, PLACES[state.variant.seats]
    calls = {seat: ("pass" if bid is None else str(bid)) for seat, bid in state.auction}
    bidding_out = state.decision == BID and state.settings.pass_is_final
    out = {seat for seat, bid in state.auction if bid is None} if bidding_out else set()
    first_after_me = next((seat for seat in range(1, seats) if seat not in out), None)
    table.seats = [
        SeatSpot(
            seat=seat,
            name=table.names[seat],
            place=places[seat],
            dealer=seat == state.dealer,
            call=calls.get(seat, ""),
            meld=state.meld[seat] if state.meld else None,
            turn=public.to_act == seat and public.result is None,
            thinking=seat == first_after_me and public.to_act == PLAYER,
        )
        for seat in range(1, seats)
    ]


def _suit_melds(table: PracticeTable) -> None:
    """The player's meld with each suit as trump: on the bid buttons and the trump choice."""
    view = table.view
    counts = counts_of(view.hand)
    table.suit_melds = [
        SuitMeld(
            SUITS[s],
            SYMBOL_OF_SUIT[SUITS[s]],
            SUIT_NAMES[SUITS[s]],
            meld_points(counts, s, view.variant, view.settings),
        )
        for s in range(4)
    ]
    legal = set(view.legal) if view.decision == TRUMP else set()
    table.trump_options = [(m.letter, m.symbol, m.name) for s, m in enumerate(table.suit_melds) if s in legal]


def _bids(table: PracticeTable) -> None:
    view, settings = table.view, table.view.settings
    least: int = view.legal[-1]
    table.least_bid = least
    table.bid_step = settings.next_bid_step(least)
    table.forced = None not in view.legal
    if table.forced:  # RULES §1.2: "the dealer must bid 20", the one legal answer
        table.bid_chips = [(str(least), f"Bid {least}: everyone passed, the dealer must")]
        return
    bids, bid = [], least
    for steps in range(BID_JUMPS[-1] + 1):
        if steps < BID_CHIPS - len(BID_JUMPS) or steps in BID_JUMPS:
            bids.append(bid)
        bid += settings.next_bid_step(bid)
    table.bid_chips = [("pass", "Pass"), *((str(b), str(b)) for b in bids)]
    table.bid_warning = _bid_warning(view)


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


def bid_needs_asking(table: PracticeTable, data: Any) -> int | None:
    """A bid typed far above the last one (more than the biggest quick bid): ask before it counts.
    Returns that bid, or None when it goes straight through (a chip, a pass, a confirmed bid)."""
    if table.decision != BID or data.get("sure") or not table.bid_chips or table.forced:
        return None
    try:
        bid = read_form(table.view, data)
    except AnswerError:
        return None  # not a bid the rules take: the write refuses it in words, nothing is asked
    return bid if isinstance(bid, int) and bid > int(table.bid_chips[-1][0]) else None


def _melds(table: PracticeTable) -> None:
    state = table.view
    if not state.shown or not state.meld:
        return
    for seat, shown in enumerate(state.shown):
        counted = count_meld(counts_of(shown), state.trump, state.variant, state.settings)
        lines = tuple((line.name, line.count, line.points) for line in counted.melds)
        faces = tuple(face(c, state.trump) for c in shown)
        table.melds.append(SeatMeld(table.names[seat], state.meld[seat], lines, faces))


def _tricks(table: PracticeTable) -> None:
    state, names, seats = table.view, table.names, table.view.variant.seats
    places = PLACES[seats]

    def played(leader: int, cards: Sequence[Card]) -> list[Played]:
        win = trick_winner(cards, state.trump) if cards else -1
        return [
            Played(
                names[(leader + i) % seats],
                face(c, state.trump),
                i,
                winning=i == win,
                place=places[(leader + i) % seats],
                led=i == 0,
            )
            for i, c in enumerate(cards)
        ]

    if state.trick is not None and state.decision == PLAY:
        table.trick = played(state.trick.leader, state.trick.cards)
    if state.tricks:
        last = state.tricks[-1]
        table.last_trick = played(last.leader, last.cards)
        table.last_winner = "" if last.winner is None else names[last.winner]
        if last.winner is not None and (state.decision == PLAY or table.public.result is not None):
            # the trick the player's card went into, gathered toward its winner before the next lands
            table.gathered, table.gathered_to = table.last_trick, places[last.winner]


def _result(table: PracticeTable) -> None:
    result, state = table.public.result, table.view
    if result is None:
        return
    table.result = [
        SideLine(name, score, total, reason)
        for name, score, total, reason in zip(
            table.side_names,
            result.scores,
            result.totals,
            result.reasons or ("",) * len(result.scores),
            strict=True,
        )
    ]
    if state.bidder is None:
        table.result_words = "Everyone passed: the hand is thrown in."
    elif not result.played:
        bidder = table.names[state.bidder]
        why = "no marriage to name trump" if state.trump is None else "not enough meld to play"
        table.result_words = f"{bidder} bid {state.bid} and forfeited: {why}."
    else:
        bidder = table.names[state.bidder]
        table.result_words = f"{bidder} bid {state.bid} and {'made it' if result.made else 'went set'}."
    table.winners = [table.side_names[side] for side in result.winners]


# -- hints ------------------------------------------------------------------------------------------


def practice_hint(game: PracticeGame, state: HandState | None = None) -> Hint | None:
    """What the strongest bot would do in the player's seat, with a one-line reason."""
    state = state or from_json(game.state)
    if state.to_act != PLAYER:
        return None
    view = seat_view(state, PLAYER)
    bot = make_bot(HINT_BOT, PLAYER, random.Random(f"{game.seed}:hint:{game.version}"))
    answer, reason = _explained(bot, view)
    words, value = _answer_words(view, answer), _answer_value(view, answer)
    return Hint(words, in_words(reason or hint_reason(view, answer)), value, ANSWER_KEYS[view.decision])


ENGINE_CODE = re.compile(r"\b[AKQJT9][SHDC]\b")


def in_words(text: str) -> str:
    """A bot's reason with any engine code in it as players write the card ("JH" -> "J♥"), so a
    hint never shows ``TC`` on the page whatever words the bot chose."""
    return ENGINE_CODE.sub(lambda code: card_words(parse_card(code.group())), text)


def _explained(bot: Bot, view: SeatView) -> tuple[Answer, str | None]:
    """The bot's answer, and its own one-line reason when it offers one (``Bot.explain``)."""
    answer, reason = bot.explain(view)
    return answer, reason or None


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
            return "low cards from short suits go back; your meld stays whole."
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


# -- history ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PracticeStatistics:
    games: int
    finished: int
    won: int
    bids: int  # hands the player's side bid
    bids_made: int
    hands: int
    margin: float | None  # the player's side's score less the best other side's, per hand
    replays: int = 0  # replayed deals: kept apart, none of the figures above counts them

    @property
    def won_share(self) -> float | None:
        return self.won / self.finished if self.finished else None

    @property
    def made_share(self) -> float | None:
        return self.bids_made / self.bids if self.bids else None


def practice_history(user: Any) -> QuerySet[PracticeGame]:
    return PracticeGame.objects.filter(user=user)


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One practice game in the history: its final score, the bots' strength, the target."""

    game: PracticeGame
    score: list[tuple[str, int]]  # each side's total now
    strength: str  # "Steady", "Expert", …
    target: int | None  # None where the stored rules cannot be read


@dataclass(frozen=True, slots=True)
class VariantStatistics:
    label: str
    stats: PracticeStatistics


def history_rows(games: Sequence[PracticeGame]) -> list[HistoryRow]:
    """A row per game; a game whose stored rules or totals no variant can read still gets its row,
    with no score, so the page shows what it can and never fails."""
    rows = []
    for game in games:
        strength = STRENGTH_WORDS.get(game.strength, game.strength).split(":")[0]
        rules = _stored_rules(game)
        if rules is None:
            rows.append(HistoryRow(game, [], strength, None))
            continue
        variant, settings = rules
        last = game.hands[-1] if isinstance(game.hands, list) and game.hands else {}
        totals = _per_side(last.get("totals") if isinstance(last, dict) else None, variant)
        names = side_names(variant, seat_names(variant))
        score = list(zip(names, totals or [0] * len(variant.sides), strict=True))
        rows.append(HistoryRow(game, score, strength, settings.target))
    return rows


def statistics_by_variant(games: Sequence[PracticeGame]) -> list[VariantStatistics]:
    """``practice_statistics`` per variant: a margin means something only in one variant's points."""
    return [
        VariantStatistics(variant.label, practice_statistics([g for g in games if g.variant == variant.id]))
        for variant in VARIANTS.values()
        if any(g.variant == variant.id for g in games)
    ]


def practice_statistics(games: Sequence[PracticeGame]) -> PracticeStatistics:
    """The player's record over ``games``. A stored hand no rules could have scored (a bid of
    hundreds of digits from before bids had a ceiling, a summary of another shape) is left out:
    the history page shows what it can, never an error."""
    replays = sum(1 for game in games if game.replay_of_id is not None)
    games = [game for game in games if game.replay_of_id is None]  # first tries only
    bids = made = hands = 0
    margin = 0
    for game in games:
        for variant, scores, bidder, bid_made in _hand_summaries(game):
            mine = variant.side_of(PLAYER)
            hands += 1
            others = [score for side, score in enumerate(scores) if side != mine]
            margin += scores[mine] - max(others)
            if bidder is not None and variant.side_of(bidder) == mine:
                bids += 1
                made += bid_made
    finished = [game for game in games if game.finished]
    return PracticeStatistics(
        games=len(games),
        finished=len(finished),
        won=sum(bool(game.won) for game in finished),
        bids=bids,
        bids_made=made,
        hands=hands,
        margin=margin / hands if hands else None,
        replays=replays,
    )


def _hand_summaries(game: PracticeGame) -> list[tuple[Variant, list[int], int | None, bool]]:
    """Each stored hand summary of ``game`` the rules could have written: (variant, scores per
    side, bidder, made). A set bidder loses at most twice the bid, and no bid passes the variant's
    ``hand_score_ceiling``: a score beyond that was never scored by this engine."""
    rules = _stored_rules(game)
    if rules is None:
        return []
    variant, settings = rules
    most = 2 * hand_score_ceiling(variant, settings)
    summaries = []
    for entry in game.hands if isinstance(game.hands, list) else []:
        if not isinstance(entry, dict):
            continue
        scores, bidder = _per_side(entry.get("scores"), variant, most), entry.get("bidder")
        if scores is not None and (bidder is None or (type(bidder) is int and 0 <= bidder < variant.seats)):
            summaries.append((variant, scores, bidder, bool(entry.get("made"))))
    return summaries


def _stored_rules(game: PracticeGame) -> tuple[Variant, Settings] | None:
    """The variant and settings a stored game names, or None where no rules can read them."""
    try:
        variant = game.rules
        return variant, variant.settings(game.settings)
    except (SettingsError, TypeError, ValueError):
        return None


def _per_side(value: Any, variant: Variant, most: int | None = None) -> list[int] | None:
    """A stored list of one whole number per side (each within ``most`` when given), or None."""
    if not (isinstance(value, list) and len(value) == len(variant.sides)):
        return None
    if not all(type(number) is int and (most is None or abs(number) <= most) for number in value):
        return None
    return value
