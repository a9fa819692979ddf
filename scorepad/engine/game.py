"""A whole hand of pinochle as a state and its transitions (RULES.md §0, §1–§3, §7, §8).

The model is python-chess's board: one mutable value, ``HandState``, with ``push(action)``
to apply a decision in place and ``copy()`` for search, plus the pure spelling
``apply(state, action) -> new state`` for everyone else. An illegal action raises
``IllegalAction`` (a ``ValueError``) whose message says why, before anything is changed.

A hand runs through these decisions (``decision(state)``, a ``view.Decision`` whose values are
these words; the answer type of each is view.py's ``BidAnswer`` … ``ConcedeAnswer``):

``bid``    the seat to act calls a bid (int) or passes (None)              §1.2 §2.2 §3.2
``trump``  the bidder names a suit (int, cards.SPADES …)                     §1.3 §2.3
``pass``   partner then bidder pass ``pass_count`` cards (tuple of cards)    §1.3
``concede`` the bidder throws the hand in (True) or plays on (False)        §4
``play``   the seat to act plays a card (int)                               §0.4

Meld is counted for every seat once trump is named and the cards are passed; it needs no
decision. The hand ends (``decision`` is None) when the last trick is won, or earlier when it
is not played: a `double-deck` bidder with no marriage, bidders short of the rule-of-20 meld,
everyone passing under ``all_pass: redeal``, or a ``misdeal_nines`` hand. Every ended hand is
scored by ``scoring.score_hand``; a thrown-in hand (redeal, misdeal) scores nothing and its
deal still counts as a hand, so the dealer of hand k stays ``first_dealer + k`` (§8).

Passing needs a partner, so ``pass_cards`` has no effect in `six-handed`.
``bidder_may_concede``: once meld is shown and the hand is to be played, the bidder decides
``concede`` before the first lead; a hand thrown in is not played and is scored as a forfeit
(``scoring``: the bidders lose the bid, the others score as ``forfeit_opponents`` says).
A ``misdeal_nines`` hand is always thrown in as dealt (the automatic rule: nobody calls it);
``renege_penalty`` cannot apply because the engine never accepts a renege.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import auction as bidding
from .cards import (
    ACE,
    CARD_COUNT,
    NINE,
    SUITS,
    Card,
    Suit,
    cards_from_counts,
    codes,
    counts_of,
    parse_cards,
    parse_suit,
)
from .meld import meld_points, shown_cards
from .play import PlayRules, close_trick, legal_cards, play_rules
from .scoring import HandEntry, dealer_for_hand, score_hand, short_meld_stops_play, winners_after_hand
from .variants import Settings, Variant, get_variant
from .view import (
    BID,
    CONCEDE,
    CONCEDE_CHOICES,
    PASS,
    PLAY,
    TRUMP,
    Answer,
    Decision,
    SeatView,
    Trick,
    build_seat_view,
    build_trick,
)

DONE = None  # decision(state) once the hand is over


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the seat, decision and reason."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """How an ended hand scored, per side, and who has won the game after it (§9.4)."""

    scores: tuple[int, ...]
    totals: tuple[int, ...]
    made: bool
    played: bool
    winners: tuple[int, ...]
    reasons: tuple[str, ...] = ()


@dataclass(eq=True, slots=True)
class HandState:
    """Everything about one hand in a game, hidden cards included. Treat it as a value."""

    variant: Variant
    settings: Settings
    game: int
    hand_number: int
    first_dealer: int
    dealer: int
    totals: tuple[int, ...]  # per side, before this hand
    dealt: tuple[tuple[Card, ...], ...]  # per seat, as dealt
    hands: list[list[int]]  # per seat, 24 counts indexed by card: what the seat holds now
    decision: Decision | None  # BID, TRUMP, PASS, CONCEDE, PLAY, or DONE (None)
    to_act: int | None
    auction: list[bidding.Call] = field(default_factory=list)
    bidder: int | None = None
    bid: int | None = None
    trump: Suit | None = None
    passes: list[tuple[int, int, tuple[Card, ...]]] = field(default_factory=list)
    meld: tuple[int, ...] | None = None  # per seat, once shown
    shown: tuple[tuple[Card, ...], ...] | None = None
    tricks: list[Trick] = field(default_factory=list)
    trick_leader: int | None = None
    trick: list[Card] = field(default_factory=list)  # the trick in progress, in play order
    points: list[int] = field(default_factory=list)  # counter points per side so far
    took_trick: list[bool] = field(default_factory=list)
    result: HandResult | None = None
    # Caches for the hot path (one seat view and one legality check per decision), never part
    # of the value: ``push`` keeps them current; any other way to make a state (the constructor,
    # ``dataclasses.replace``, ``from_json``) starts them empty.
    _legal: tuple[Any, ...] | None = field(default=None, init=False, compare=False, repr=False)
    _held: dict[int, tuple[Card, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _tricks_seen: tuple[Trick, ...] = field(default=(), init=False, compare=False, repr=False)
    _auction_seen: tuple[bidding.Call, ...] = field(default=(), init=False, compare=False, repr=False)
    _rules: PlayRules | None = field(default=None, init=False, compare=False, repr=False)

    # -- the public API -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON values; ``HandState.from_json`` reads it back unchanged."""
        return to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandState:
        return from_json(data)

    @classmethod
    def auction_won(
        cls,
        variant: Variant,
        settings: Settings,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        *,
        bidder: int,
        bid: int,
    ) -> HandState:
        """The deal ``hands`` with its auction over: ``bidder`` won it at ``bid`` (the only call),
        and names trump next. Where search starts a contract on a deal it sampled."""
        state = deal_hands(variant, settings, dealer, hands)
        state.result = None  # played even if `misdeal_nines` would throw it in: search plays every deal
        state.auction = [(bidder, bid)]
        state.bidder, state.bid = bidder, bid
        state.decision, state.to_act = TRUMP, bidder
        return state

    def copy(self) -> HandState:
        """An independent state (for search): lists are copied, immutable parts shared."""
        copied = HandState(
            self.variant,
            self.settings,
            self.game,
            self.hand_number,
            self.first_dealer,
            self.dealer,
            self.totals,
            self.dealt,
            [hand[:] for hand in self.hands],
            self.decision,
            self.to_act,
            self.auction[:],
            self.bidder,
            self.bid,
            self.trump,
            self.passes[:],
            self.meld,
            self.shown,
            self.tricks[:],
            self.trick_leader,
            self.trick[:],
            self.points[:],
            self.took_trick[:],
            self.result,
        )
        # Immutable, and ``seat_view`` checks them against ``tricks`` and ``auction`` before use.
        copied._tricks_seen, copied._auction_seen = self._tricks_seen, self._auction_seen
        copied._rules = self._rules
        return copied

    def push(self, action: Any) -> None:
        """Apply ``action`` for the seat to act, in place; illegal actions change nothing."""
        match self.decision:
            case Decision.PLAY:
                self._play(action)
            case Decision.BID:
                self._bid(action)
            case Decision.TRUMP:
                self._name_trump(action)
            case Decision.PASS:
                self._pass(action)
            case Decision.CONCEDE:
                self._concede(action)
            case _:
                raise IllegalAction("the hand is over: no more actions")
        self._legal = None  # a new decision (an illegal action raised above and changed nothing)

    def legal(self) -> tuple[Any, ...]:
        """What the seat to act may answer, as §9.6 ``legal`` lists it (see ``legal_actions``).

        Counted once per decision: the seat view lists it and ``push`` checks the answer against it.
        """
        if self._legal is None:
            self._legal = self._legal_now()
        return self._legal

    def _legal_now(self) -> tuple[Any, ...]:
        match self.decision:
            case Decision.PLAY:
                return tuple(self.legal_cards())
            case Decision.BID:
                least = bidding.least_bid(self.auction, self.settings)
                forced = bidding.dealer_forced(self.auction, self.variant.seats, self.settings)
                return (least,) if forced else (None, least)
            case Decision.TRUMP:
                return self.trump_choices()
            case Decision.PASS:
                return tuple(cards_from_counts(self.hands[self._seat()]))
            case Decision.CONCEDE:
                return CONCEDE_CHOICES
            case _:
                return ()

    def legal_cards(self) -> list[Card]:
        """The distinct cards the seat to act may play (§0.4, with the §4 play keys: ``play.legal_cards``)."""
        rules, counts = self._play_rules(), self.hands[self._seat()]
        return legal_cards(rules, counts, self.trump, self._leader(), self.trick, len(self.tricks))

    def _play_rules(self) -> PlayRules:
        """This hand's play keys, made once the bid is known (a cache, never part of the value)."""
        if self._rules is None:
            self._rules = play_rules(self.variant, self.settings, self.bid)
        return self._rules

    def trump_choices(self) -> tuple[Suit, ...]:
        """Suits the bidder may name (`auction.trump_suits`)."""
        return bidding.trump_suits(self.hands[self.bidder or 0], self.settings)

    @property
    def pass_count(self) -> int:
        return self.settings.pass_cards if self.decision == PASS else 0

    def partner_of(self, seat: int) -> int | None:
        """The other seat of ``seat``'s side, or None in a variant without partners."""
        side = self.variant.sides[self.variant.side_of(seat)]
        others = [s for s in side if s != seat]
        return others[0] if others else None

    # -- the auction ----------------------------------------------------------------------

    def _bid(self, bid: int | None) -> None:
        seats, settings = self.variant.seats, self.settings
        reason = bidding.bid_error(bid, self.auction, seats, settings)
        if reason:
            raise IllegalAction(f"seat {self.to_act} cannot bid {_say_bid(bid)}: {reason}")
        self.auction.append((self._seat(), bid))
        if not bidding.is_over(self.auction, seats, settings):
            self.to_act = bidding.next_seat(self.auction, seats, self.dealer, settings)
            return
        high = bidding.high_bid(self.auction)
        if high is None:
            self._finish_thrown_in()  # all passed under `all_pass: redeal`
            return
        self.bidder, self.bid = high
        self.to_act = self.bidder
        if self.trump_choices():
            self.decision = TRUMP
        else:
            self._forfeit_without_trump()

    def _name_trump(self, suit: Suit) -> None:
        if not _is_int(suit) or suit not in self.trump_choices():
            why = (
                "the bidder holds no marriage in it"
                if self.settings.trump_requires_marriage
                else "not a suit"
            )
            raise IllegalAction(f"seat {self.to_act} cannot name trump {_say_suit(suit)}: {why}")
        self.trump = suit
        partner = self.partner_of(self._bidder())
        if self.settings.pass_cards and partner is not None:
            self.decision, self.to_act = PASS, partner
        else:
            self._show_meld()

    # -- passing (§1.3) -------------------------------------------------------------------

    def _pass(self, cards: Sequence[Card]) -> None:
        seat = self._seat()
        self._check_pass(seat, cards)
        receiver = self._bidder() if seat != self.bidder else self.partner_of(seat)
        assert receiver is not None
        given = tuple(sorted(cards))
        for c in given:
            self.hands[seat][c] -= 1
            self.hands[receiver][c] += 1
        self._held.pop(seat, None)
        self._held.pop(receiver, None)
        self.passes.append((seat, receiver, given))
        if seat == self.bidder:
            self._show_meld()
        else:
            self.to_act = receiver

    def _check_pass(self, seat: int, cards: Sequence[Card]) -> None:
        count = self.settings.pass_cards
        prefix = f"seat {seat} cannot pass {_say_cards(cards)}"
        if not isinstance(cards, (tuple, list)) or len(cards) != count:
            raise IllegalAction(f"{prefix}: pass exactly {count} cards")
        wanted = [0] * CARD_COUNT
        for c in cards:
            if not _is_int(c) or not 0 <= c < CARD_COUNT:
                raise IllegalAction(f"{prefix}: {c!r} is not a card")
            wanted[c] += 1
            if wanted[c] > self.hands[seat][c]:
                raise IllegalAction(f"{prefix}: the hand holds only {self.hands[seat][c]} × {codes([c])[0]}")

    # -- meld and the rule of 20 (§1.4, §2.4, §2.5, §3.3) ---------------------------------

    def _show_meld(self) -> None:
        self._count_meld(self.trump)
        if short_meld_stops_play(self.settings, self._side_meld(self._bidder())):
            self._finish(played=False)  # bidders forfeit: the hand is not played
            return
        if self.settings.bidder_may_concede:
            self.decision, self.to_act = CONCEDE, self.bidder
            return
        self._start_play()

    def _concede(self, throw_in: bool) -> None:
        """§4 `bidder_may_concede`: the bidder throws the hand in (scored as a forfeit) or plays on."""
        if type(throw_in) is not bool:
            raise IllegalAction(f"seat {self.to_act} cannot answer {throw_in!r} to concede: true or false")
        if throw_in:
            self._finish(played=False)
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.decision = PLAY
        self.to_act = self.trick_leader = self.bidder
        sides = len(self.variant.sides)
        self.points = [0] * sides
        self.took_trick = [False] * sides

    def _count_meld(self, trump: Suit | None) -> None:
        variant, settings = self.variant, self.settings
        self.meld = tuple(meld_points(hand, trump, variant, settings) for hand in self.hands)
        self.shown = tuple(tuple(shown_cards(hand, trump, variant, settings)) for hand in self.hands)

    def _side_meld(self, seat: int) -> int:
        assert self.meld is not None
        return sum(self.meld[s] for s in self.variant.sides[self.variant.side_of(seat)])

    def _forfeit_without_trump(self) -> None:
        """§2.3: no marriage anywhere, so no trump and no play; everyone's meld counts with no trump."""
        self._count_meld(None)
        self._finish(played=False)

    # -- trick play (§0.3, §0.4, §1.5–1.6, §2.6–2.7, §3.4–3.5) ----------------------------

    def _play(self, card: Card) -> None:
        if not _is_int(card) or card not in self.legal():
            raise IllegalAction(self._why_not_playable(card))
        seat = self._seat()
        self.hands[seat][card] -= 1
        held = self._held.get(seat)
        if held is not None:  # drop one copy: the tuple stays sorted, no recount of the hand
            at = held.index(card)
            self._held[seat] = held[:at] + held[at + 1 :]
        self.trick.append(card)
        seats = self.variant.seats
        if len(self.trick) < seats:
            self.to_act = (seat + 1) % seats
            return
        self._close_trick()

    def _close_trick(self) -> None:
        leader, cards = self._leader(), self.trick
        done = len(self.tricks)
        rules = self._play_rules()
        winner = close_trick(rules, cards, leader, self.trump, done, self.points, self.took_trick)
        self.tricks.append(build_trick(leader=leader, cards=tuple(cards), winner=winner))
        self.trick = []
        if done + 1 == self.variant.hand_size:
            self._finish(played=True)
        else:
            self.to_act = self.trick_leader = winner

    def _why_not_playable(self, card: Any) -> str:
        prefix = f"seat {self.to_act} cannot play {_say_card(card)}"
        if not _is_int(card) or not 0 <= card < CARD_COUNT:
            return f"{prefix}: not a card"
        if not self.hands[self._seat()][card]:
            return f"{prefix}: not in the hand"
        legal = " ".join(codes(self.legal_cards()))
        if not self.trick:
            return f"{prefix}: the first lead must be trump ({legal})"
        return f"{prefix}: the rules require one of {legal}"

    # -- the end of a hand ----------------------------------------------------------------

    def _finish(self, *, played: bool) -> None:
        variant = self.variant
        assert self.meld is not None
        assert self.bidder is not None
        assert self.bid is not None
        entry = HandEntry(
            bidder=self.bidder,
            bid=self.bid,
            trump=self.trump,
            meld=variant.side_totals(self.meld),
            tricks=tuple(self.points) if played else None,
            took_trick=tuple(self.took_trick) if played else None,
        )
        score = score_hand(variant, self.settings, entry)
        after = tuple(t + s for t, s in zip(self.totals, score.scores, strict=True))
        winners = winners_after_hand(variant, self.settings, self.totals, after, variant.side_of(self.bidder))
        self.result = HandResult(
            tuple(score.scores), after, score.made, score.played, tuple(winners), tuple(score.reasons)
        )
        self.decision = self.to_act = None

    def _finish_thrown_in(self) -> None:
        nothing = (0,) * len(self.variant.sides)
        self.result = HandResult(nothing, self.totals, made=False, played=False, winners=())
        self.decision = self.to_act = None

    # -- small helpers (the seat to act is never None while a decision is open) -----------

    def _seat(self) -> int:
        assert self.to_act is not None
        return self.to_act

    def _bidder(self) -> int:
        assert self.bidder is not None
        return self.bidder

    def _leader(self) -> int:
        assert self.trick_leader is not None
        return self.trick_leader


# -- dealing --------------------------------------------------------------------------------


def deal(
    variant: Variant,
    settings: Settings,
    dealer: int,
    rng: random.Random,
    *,
    game: int = 0,
    hand_number: int = 0,
    first_dealer: int | None = None,
    totals: Sequence[int] | None = None,
) -> HandState:
    """Shuffle the variant's deck with ``rng`` and deal it all out (§1.1, §2.1, §3.1)."""
    deck = variant.deck()
    rng.shuffle(deck)
    size = variant.hand_size
    hands = [sorted(deck[seat * size : (seat + 1) * size]) for seat in range(variant.seats)]
    return deal_hands(
        variant,
        settings,
        dealer,
        hands,
        game=game,
        hand_number=hand_number,
        first_dealer=dealer if first_dealer is None else first_dealer,
        totals=totals,
    )


def deal_hands(
    variant: Variant,
    settings: Settings,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    *,
    game: int = 0,
    hand_number: int = 0,
    first_dealer: int | None = None,
    totals: Sequence[int] | None = None,
) -> HandState:
    """A hand about to be bid, from given hands (a replayed log, a test position)."""
    state = HandState(
        variant=variant,
        settings=settings,
        game=game,
        hand_number=hand_number,
        first_dealer=dealer if first_dealer is None else first_dealer,
        dealer=dealer,
        totals=tuple(totals) if totals is not None else (0,) * len(variant.sides),
        dealt=tuple(tuple(sorted(cards)) for cards in hands),
        hands=[list(counts_of(cards)) for cards in hands],
        decision=BID,
        to_act=(dealer + 1) % variant.seats,
    )
    if misdealt(state.dealt, settings):
        state._finish_thrown_in()
    return state


def misdealt(hands: Sequence[Sequence[Card]], settings: Settings) -> bool:
    """§4 `misdeal_nines`: a seat dealt five or more nines (and, if asked, no ace) throws the hand in."""
    if settings.misdeal_nines == "off":
        return False
    for cards in hands:
        nines = sum(1 for c in cards if c % 6 == NINE)
        aces = sum(1 for c in cards if c % 6 == ACE)
        if nines >= 5 and (settings.misdeal_nines == "5+ nines" or aces == 0):
            return True
    return False


def new_game(
    variant: Variant,
    settings: Settings,
    rng: random.Random,
    *,
    game: int = 0,
    first_dealer: int | None = None,
) -> HandState:
    """Hand 0 of a game; the first dealer is drawn from ``rng`` unless given (§1.1, §2.1)."""
    if first_dealer is None:
        first_dealer = rng.randrange(variant.seats)
    return deal(variant, settings, first_dealer, rng, game=game, first_dealer=first_dealer)


def next_hand(state: HandState, rng: random.Random) -> HandState:
    """The next hand of the same game: the deal moves one seat clockwise (§8)."""
    if state.result is None:
        raise IllegalAction("the hand is not over yet")
    if state.result.winners:
        raise IllegalAction("the game is over")
    number = state.hand_number + 1
    dealer = dealer_for_hand(state.variant, state.first_dealer, number)
    return deal(
        state.variant,
        state.settings,
        dealer,
        rng,
        game=state.game,
        hand_number=number,
        first_dealer=state.first_dealer,
        totals=state.result.totals,
    )


# -- the functional API ----------------------------------------------------------------------


def apply(state: HandState, action: Answer) -> HandState:
    """The state after ``action``; ``state`` itself is untouched (IllegalAction if not allowed)."""
    after = state.copy()
    after.push(action)
    return after


def legal_actions(state: HandState) -> tuple[Any, ...]:
    """What the seat to act may answer, exactly as §9.6 ``legal`` lists it.

    bid: ``(None, MIN)``, pass or any bid from MIN on the increment; ``(MIN,)`` when the dealer
    is forced. trump: the suits allowed. pass: the whole hand, choose ``pass_count`` of it.
    play: the distinct cards allowed. Empty once the hand is over.
    """
    return state.legal()


def to_act(state: HandState) -> int | None:
    return state.to_act


def decision(state: HandState) -> Decision | None:
    return state.decision


def is_over(state: HandState) -> bool:
    return state.decision is DONE


# -- what one seat may see (§9.6) --------------------------------------------------------------


def seat_view(state: HandState, seat: int) -> SeatView:
    """Only what ``seat`` may know: its own hand and passes, the calls, shown meld, played cards.

    Built once per decision of every bot, so it copies only what a view must own, and what does
    not change from one decision to the next (the seat's hand, the completed tricks) it reuses.
    """
    deciding = seat == state.to_act
    passed: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()
    for giver, taker, cards in state.passes:
        if giver == seat:
            passed = cards
        elif taker == seat:
            received = cards
    playing = state.decision == PLAY
    return build_seat_view(
        variant=state.variant,
        settings=state.settings,
        seat=seat,
        dealer=state.dealer,
        decision=state.decision or Decision.DONE,
        hand=_held_cards(state, seat),
        auction=_auction_calls(state),
        bidder=state.bidder,
        bid=state.bid,
        trump=state.trump,
        passed=passed,
        received=received,
        meld=state.meld or (),
        shown=state.shown or (),
        tricks=_completed_tricks(state),
        trick=build_trick(leader=state._leader(), cards=tuple(state.trick), winner=None) if playing else None,
        totals=state.totals,
        legal=state.legal() if deciding else (),
        pass_count=state.pass_count if deciding else 0,
    )


def _held_cards(state: HandState, seat: int) -> tuple[Card, ...]:
    """``seat``'s hand as sorted cards, counted once and then kept up to date by ``push``."""
    held = state._held.get(seat)
    if held is None:
        held = state._held[seat] = tuple(cards_from_counts(state.hands[seat]))
    return held


def _completed_tricks(state: HandState) -> tuple[Trick, ...]:
    """The completed tricks as one tuple shared by every view until the next trick completes.

    Sharing the very ``Trick`` objects also lets a bot's memory see that nothing before changed.
    """
    state._tricks_seen = _grown(state._tricks_seen, state.tricks)
    return state._tricks_seen


def _auction_calls(state: HandState) -> tuple[bidding.Call, ...]:
    """The calls as one tuple shared by every view until the next call (all of trick play)."""
    state._auction_seen = _grown(state._auction_seen, state.auction)
    return state._auction_seen


def _grown[T](seen: tuple[T, ...], items: list[T]) -> tuple[T, ...]:
    """``items`` as a tuple: ``seen`` while it still holds them (these lists only ever grow by appends)."""
    if len(seen) == len(items) and (not items or seen[-1] is items[-1]):
        return seen
    return tuple(items)


# -- JSON ------------------------------------------------------------------------------------


def to_json(state: HandState) -> dict[str, Any]:
    """The whole state as JSON values (card codes, suit letters); ``from_json`` reverses it."""
    result = state.result
    return {
        "variant": state.variant.id,
        "settings": state.settings.changes(state.variant.defaults),
        "game": state.game,
        "hand": state.hand_number,
        "first_dealer": state.first_dealer,
        "dealer": state.dealer,
        "totals": list(state.totals),
        "dealt": [codes(cards) for cards in state.dealt],
        "hands": [codes(cards_from_counts(counts)) for counts in state.hands],
        "decision": state.decision,
        "to_act": state.to_act,
        "auction": [[seat, bid] for seat, bid in state.auction],
        "bidder": state.bidder,
        "bid": state.bid,
        "trump": None if state.trump is None else SUITS[state.trump],
        "passes": [[giver, taker, codes(cards)] for giver, taker, cards in state.passes],
        "meld": None if state.meld is None else list(state.meld),
        "shown": None if state.shown is None else [codes(cards) for cards in state.shown],
        "tricks": [trick.to_json() for trick in state.tricks],
        "trick": None
        if state.trick_leader is None
        else {"leader": state.trick_leader, "cards": codes(state.trick)},
        "points": list(state.points),
        "took_trick": list(state.took_trick),
        "result": None if result is None else _result_json(result),
    }


def _result_json(result: HandResult) -> dict[str, Any]:
    return {
        "scores": list(result.scores),
        "totals": list(result.totals),
        "made": result.made,
        "played": result.played,
        "winners": list(result.winners),
        "reasons": list(result.reasons),
    }


def from_json(data: dict[str, Any]) -> HandState:
    """The state ``to_json`` wrote."""
    variant = get_variant(data["variant"])
    trick = data["trick"]
    result = data["result"]
    return HandState(
        variant=variant,
        settings=variant.settings(data["settings"]),
        game=data["game"],
        hand_number=data["hand"],
        first_dealer=data["first_dealer"],
        dealer=data["dealer"],
        totals=tuple(data["totals"]),
        dealt=tuple(tuple(parse_cards(cards)) for cards in data["dealt"]),
        hands=[list(counts_of(parse_cards(cards))) for cards in data["hands"]],
        decision=None if data["decision"] is None else Decision(data["decision"]),
        to_act=data["to_act"],
        auction=[(seat, bid) for seat, bid in data["auction"]],
        bidder=data["bidder"],
        bid=data["bid"],
        trump=None if data["trump"] is None else parse_suit(data["trump"]),
        passes=[(giver, taker, tuple(parse_cards(cards))) for giver, taker, cards in data["passes"]],
        meld=None if data["meld"] is None else tuple(data["meld"]),
        shown=None if data["shown"] is None else tuple(tuple(parse_cards(cards)) for cards in data["shown"]),
        tricks=[Trick(t["leader"], tuple(parse_cards(t["cards"])), t["winner"]) for t in data["tricks"]],
        trick_leader=None if trick is None else trick["leader"],
        trick=[] if trick is None else parse_cards(trick["cards"]),
        points=list(data["points"]),
        took_trick=list(data["took_trick"]),
        result=None
        if result is None
        else HandResult(
            tuple(result["scores"]),
            tuple(result["totals"]),
            result["made"],
            result["played"],
            tuple(result["winners"]),
            tuple(result["reasons"]),
        ),
    )


def _is_int(value: Any) -> bool:
    """Cards and suits are plain ints; True, 1.0 and "1" are not answers."""
    return type(value) is int


# -- messages --------------------------------------------------------------------------------


def _say_bid(bid: Any) -> str:
    return "a pass" if bid is None else repr(bid)


def _say_suit(suit: Any) -> str:
    return SUITS[suit] if isinstance(suit, int) and 0 <= suit < 4 else repr(suit)


def _say_card(card: Any) -> str:
    return codes([Card(card)])[0] if isinstance(card, int) and 0 <= card < CARD_COUNT else repr(card)


def _say_cards(cards: Any) -> str:
    try:
        return " ".join(_say_card(c) for c in cards)
    except TypeError:
        return repr(cards)


__all__ = [
    "DONE",
    "HandResult",
    "HandState",
    "IllegalAction",
    "apply",
    "deal",
    "deal_hands",
    "decision",
    "from_json",
    "is_over",
    "legal_actions",
    "new_game",
    "next_hand",
    "seat_view",
    "to_act",
    "to_json",
]
