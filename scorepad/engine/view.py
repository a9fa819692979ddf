"""What one seat may know when it must decide (RULES.md §9.6), and the bot interface.

Bots, inside the engine or outside it, decide from a ``SeatView`` alone: the engine builds
one per decision from the full game state and never hands a bot anything else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Protocol, cast

from .cards import SUITS, Card, Suit, codes
from .variants import Settings, Variant


class Decision(StrEnum):
    """What the seat to act decides. The values are the §9.6 protocol's words, so a ``Decision``
    equals its word (``Decision.BID == "bid"``) and writes itself as it in JSON."""

    BID = "bid"
    TRUMP = "trump"
    PASS = "pass"
    CONCEDE = "concede"  # §4 `bidder_may_concede`: after meld, before the first lead, the bidder only
    PLAY = "play"
    DONE = "done"  # only a seat view's, once the hand is over (a HandState's decision is then None)


BID, TRUMP, PASS, CONCEDE, PLAY = Decision.BID, Decision.TRUMP, Decision.PASS, Decision.CONCEDE, Decision.PLAY
CONCEDE_CHOICES = (False, True)  # play on, or throw the hand in (scored as a forfeit)

# The answer to each decision, as an engine value, one type per decision:
type BidAnswer = int | None  # a bid, or None to pass
type TrumpAnswer = Suit
type PassAnswer = tuple[Card, ...]  # exactly ``pass_count`` cards
type PlayAnswer = Card
type ConcedeAnswer = bool  # True: throw the hand in
# Any of them (Suit and Card are ints, bool too, so the union spells only the distinct shapes).
type Answer = BidAnswer | PassAnswer


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]  # in play order, starting with the leader
    winner: int | None = None  # None while the trick is still being played

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"leader": self.leader, "cards": codes(self.cards)}
        if self.winner is not None:
            data["winner"] = self.winner
        return data


class PassingView(Protocol):
    """What choosing a pass reads of a seat's view (a ``SeatView`` is one): simulated hands pass
    from this alone, without a game state to take a view of."""

    @property
    def seat(self) -> int: ...
    @property
    def hand(self) -> tuple[Card, ...]: ...
    @property
    def bidder(self) -> int | None: ...
    @property
    def trump(self) -> Suit | None: ...
    @property
    def pass_count(self) -> int: ...


@dataclass(frozen=True, slots=True)
class SeatView:
    variant: Variant
    settings: Settings
    seat: int
    dealer: int
    decision: Decision
    hand: tuple[Card, ...]
    auction: tuple[tuple[int, int | None], ...]
    bidder: int | None
    bid: int | None
    trump: Suit | None
    passed: tuple[Card, ...]
    received: tuple[Card, ...]
    meld: tuple[int, ...]  # per seat, once shown; empty before
    shown: tuple[tuple[Card, ...], ...]  # per seat, once shown; empty before
    tricks: tuple[Trick, ...]  # completed tricks of this hand
    trick: Trick | None  # the trick in progress, when deciding a play
    totals: tuple[int, ...]  # per side, before this hand
    legal: tuple[Any, ...]  # bid: (None, MIN) or (MIN,); trump: suits; pass: the hand; play: cards;
    # concede: (False, True). Read it typed through the property of the decision (``legal_bids`` …).
    pass_count: int = 0

    # -- ``legal``, typed per decision: each property is only for its own decision ------------------

    @property
    def legal_bids(self) -> tuple[BidAnswer, ...]:
        """bid: ``(None, MIN)``, a pass or any bid from MIN on the increment; ``(MIN,)`` when forced."""
        return self._legal_for(BID)

    @property
    def least_bid(self) -> int:
        """bid: the lowest bid allowed now (the last of ``legal_bids``)."""
        least = self.legal_bids[-1]
        assert least is not None
        return least

    @property
    def may_pass(self) -> bool:
        """bid: whether the seat may pass (a dealer forced to bid may not)."""
        return None in self.legal_bids

    @property
    def legal_suits(self) -> tuple[TrumpAnswer, ...]:
        """trump: the suits the bidder may name."""
        return self._legal_for(TRUMP)

    @property
    def legal_cards(self) -> tuple[PlayAnswer, ...]:
        """play: the distinct cards the seat may play; pass: the whole hand, to choose ``pass_count`` of."""
        if self.decision == PASS:
            return self.legal
        return self._legal_for(PLAY)

    @property
    def legal_concessions(self) -> tuple[ConcedeAnswer, ...]:
        """concede: ``(False, True)``, play on or throw the hand in."""
        return self._legal_for(CONCEDE)

    def _legal_for(self, decision: Decision) -> tuple[Any, ...]:
        if self.decision != decision:
            raise ValueError(f"the seat decides {self.decision}, not {decision}")
        return self.legal

    def to_json(self) -> dict[str, Any]:
        """The §9.6 JSON object, keys and codes exactly as RULES.md writes them."""
        data: dict[str, Any] = {
            "variant": self.variant.id,
            "settings": self.settings.changes(self.variant.defaults),
            "seat": self.seat,
            "dealer": self.dealer,
            "decision": self.decision,
            "hand": codes(self.hand),
            "auction": [[seat, bid] for seat, bid in self.auction],
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": None if self.trump is None else SUITS[self.trump],
            "passed": codes(self.passed),
            "received": codes(self.received),
            "meld": list(self.meld),
            "shown": [codes(cards) for cards in self.shown],
            "tricks": [trick.to_json() for trick in self.tricks],
            "trick": None if self.trick is None else self.trick.to_json(),
            "totals": list(self.totals),
            "legal": _legal_json(self.decision, self.legal),
        }
        if self.decision == PASS:
            data["count"] = self.pass_count
        return data


def _fast_constructor[T](cls: type[T]) -> Callable[..., T]:
    """``cls(**values)`` for a frozen slots dataclass, every field by keyword, in half the time.

    The engine builds a ``SeatView`` for every decision of every bot, and a frozen dataclass's
    ``__init__`` stores each field through ``object.__setattr__``; writing the slots through their
    descriptors builds the very same object faster. Generated the way ``dataclasses`` generates
    ``__init__``, so the parameters are the fields by name: a missing or unknown one is a TypeError.
    """
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which this constructor would skip")
    names = [f.name for f in fields(cast(Any, cls))]
    body = "".join(f"    _set_{name}(made, {name})\n" for name in names)
    source = f"def build(*, {', '.join(names)}):\n    made = _new(_cls)\n{body}    return made\n"
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    namespace.update({f"_set_{name}": getattr(cls, name).__set__ for name in names})
    exec(source, namespace)
    return cast("Callable[..., T]", namespace["build"])


build_seat_view: Callable[..., SeatView] = _fast_constructor(SeatView)
build_trick: Callable[..., Trick] = _fast_constructor(Trick)  # the trick in progress, in every play view


def _legal_json(decision: Decision, legal: tuple[Any, ...]) -> list[Any]:
    match decision:
        case Decision.BID | Decision.CONCEDE:
            return list(legal)
        case Decision.TRUMP:
            return [SUITS[suit] for suit in legal]
        case _:  # pass and play: cards; done: nothing
            return codes(legal)


class Bot(Protocol):
    """Anything that answers a seat view. ``explain`` answers with one reason in a player's words
    (None from a bot that has none: hints fall back to ``reasons.hint_reason``); ``close`` ends a
    game (outside programs exit)."""

    name: str

    def decide(self, view: SeatView) -> Answer: ...

    def explain(self, view: SeatView) -> tuple[Answer, str | None]: ...

    def close(self) -> None: ...
