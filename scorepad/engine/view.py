"""What one seat may know when it must decide (RULES.md §9.6), and the bot interface.

Bots, inside the engine or outside it, decide from a ``SeatView`` alone: the engine builds
one per decision from the full game state and never hands a bot anything else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Protocol, cast

from .cards import SUITS, Card, Suit, codes
from .variants import Settings, Variant

BID, TRUMP, PASS, PLAY = "bid", "trump", "pass", "play"
CONCEDE = "concede"  # §4 `bidder_may_concede`: after meld, before the first lead, the bidder only
CONCEDE_CHOICES = (False, True)  # play on, or throw the hand in (scored as a forfeit)

# The answer to each decision, as an engine value:
#   bid   -> int (a bid) or None (pass)
#   trump -> Suit
#   pass  -> tuple[Card, ...] of exactly ``pass_count`` cards
#   play  -> Card
#   concede -> bool (True: throw the hand in)
Answer = int | None | tuple[Card, ...]


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


@dataclass(frozen=True, slots=True)
class SeatView:
    variant: Variant
    settings: Settings
    seat: int
    dealer: int
    decision: str
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
    # concede: (False, True)
    pass_count: int = 0

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


def _legal_json(decision: str, legal: tuple[Any, ...]) -> list[Any]:
    if decision in (BID, CONCEDE):
        return list(legal)
    if decision == TRUMP:
        return [SUITS[suit] for suit in legal]
    return codes(legal)


class Bot(Protocol):
    """Anything that answers a seat view. ``close`` ends a game (outside programs exit)."""

    name: str

    def decide(self, view: SeatView) -> Answer: ...

    def close(self) -> None: ...
