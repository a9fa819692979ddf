"""What the expert learns once a hand about its bid, kept for every later call of the auction.

A ``BidAnalysis`` is the seat's hand simulated as its own contract (per trump, the ``Outcome`` of
each sampled deal) together with those deals. The deals were fitted to the calls before the seat's
first (``auction_misfits``: the other seats' hands explain their bids and passes); a later call
refits them to the calls made since by choosing among them (``fitting``), not by drawing afresh.
What a later call reads from a deal is worked out once and kept beside it: each seat's hand value
(the heuristic's ``valued_trump``) and the hand as another seat would take it (``taken``, what
``stakes`` weighs a pass by). Each is a function of the deal alone, so an analysis kept in the
process's cache answers the same whichever bot or request asks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from ..auction import least_bid
from ..cards import Suit
from ..search import Outcome, simulate_contract
from ..view import SeatView
from .heuristic import Profile, choose_pass, valued_trump

FIT_SLACK = 0.15  # a bid (pass) fits a hand worth at least 85% of it (less than 115% of the least bid)
REFIT_KEPT_SHARE = 4  # a refit keeps at least 1/this of the deals: those that explain the calls best

type Deal = tuple[bytes, ...]  # per seat, 24 card counts
type Valued = tuple[float, Suit] | None  # a hand's value in the trump it values most, and that trump


def auction_misfits(view: SeatView, worth: Callable[[int], float], enough: float = math.inf) -> int:
    """How many of the other seats' calls a deal fails to explain, ``worth(seat)`` being that
    seat's hand value on the deal (the heuristic's): a bid needs a hand worth about the bid, a
    pass one worth less than the least bid then. The count stops at ``enough`` (a deal with that
    many misfits is no better than one already found)."""
    misfits = 0
    for index, (seat, bid) in enumerate(view.auction):
        if seat == view.seat:
            continue
        if bid is not None:
            misfits += worth(seat) < (1 - FIT_SLACK) * bid
        else:
            misfits += worth(seat) > (1 + FIT_SLACK) * least_bid(view.auction[:index], view.settings)
        if misfits >= enough:
            break
    return misfits


def worth_on(hands: Sequence[Sequence[int]], p: Profile) -> Callable[[int], float]:
    """``auction_misfits``' ``worth`` for a freshly drawn deal: each seat valued once, if asked."""
    found: dict[int, float] = {}

    def worth(seat: int) -> float:
        if seat not in found:
            found[seat] = worth_of(valued_trump(hands[seat], seat, p))
        return found[seat]

    return worth


def worth_of(valued: Valued) -> float:
    return valued[0] if valued is not None else 0.0


@dataclass(frozen=True, slots=True)
class BidAnalysis:
    """A seat's hand simulated as its contract (``outcomes``, per trump, one per deal) on ``deals``
    (played by the rules of ``profile``), and what later calls read from those
    deals, kept as they ask for it."""

    outcomes: dict[Suit, list[Outcome]]
    deals: tuple[Deal, ...]
    profile: Profile
    _valued: dict[tuple[int, int], Valued] = field(default_factory=dict)
    _taken: dict[tuple[int, int, Suit], Outcome] = field(default_factory=dict)

    def valued(self, deal: int, seat: int) -> Valued:
        """``valued_trump`` of ``seat``'s hand on deal number ``deal``."""
        key = (deal, seat)
        if key not in self._valued:
            self._valued[key] = valued_trump(self.deals[deal][seat], seat, self.profile)
        return self._valued[key]

    def fitting(self, view: SeatView) -> list[int]:
        """The deals (their numbers) that explain the other seats' calls in ``view``'s auction best:
        every deal with no more misfits than the best ``REFIT_KEPT_SHARE``th of them (all that explain
        every call, where that many do). A refit by choice: the calls made since the analysis narrow
        its deals as drawing afresh with ``auction_misfits`` would, at the cost of a hand value per
        seat and deal, once, and never to fewer than that share of them."""
        misfits = [auction_misfits(view, partial(self.worth, deal)) for deal in range(len(self.deals))]
        if not misfits:
            return []
        bar = sorted(misfits)[max(1, len(misfits) // REFIT_KEPT_SHARE) - 1]
        return [deal for deal, count in enumerate(misfits) if count <= bar]

    def worth(self, deal: int, seat: int) -> float:
        """``seat``'s hand value on deal number ``deal`` (``worth_of`` its ``valued``)."""
        return worth_of(self.valued(deal, seat))

    def taken(self, deal: int, bidder: int, trump: Suit) -> Outcome:
        """Deal number ``deal`` simulated as ``bidder``'s contract in ``trump`` (``simulate_contract``,
        every pass the heuristic's)."""
        key = (deal, bidder, trump)
        if key not in self._taken:
            p = self.profile
            passer = partial(choose_pass, p=p)
            self._taken[key] = simulate_contract(
                p.variant, p.settings, self.deals[deal], bidder, trump, passer
            )
        return self._taken[key]


def kept(hands: Sequence[Sequence[int]]) -> Deal:
    """A sampled deal as an analysis keeps it: a few dozen bytes a seat, not a list of ints."""
    return tuple(bytes(hand) for hand in hands)
