"""The auction (RULES.md §1.2, §2.2, §3.2 and the §4 bidding keys), read off the bid list.

An auction is the list of ``(seat, bid)`` calls in order, ``None`` for a pass, exactly as the
§9.5 log writes it. Every question (who bids next, the least legal bid, is it over, who won)
is answered from that list and the settings, so the list is the whole auction state.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import KING, QUEEN, Suit
from .variants import Settings

Call = tuple[int, int | None]


def high_bid(auction: Sequence[Call]) -> tuple[int, int] | None:
    """The last (so highest) bid and its seat, or None while nobody has bid."""
    for seat, bid in reversed(auction):
        if bid is not None:
            return seat, bid
    return None


def least_bid(auction: Sequence[Call], settings: Settings) -> int:
    """The smallest bid allowed now: the minimum, or the high bid plus its step (§4 `bid_increment`)."""
    high = high_bid(auction)
    if high is None:
        return settings.min_bid
    return high[1] + settings.next_bid_step(high[1])


def dealer_forced(auction: Sequence[Call], seats: int, settings: Settings) -> bool:
    """Everyone before the dealer passed without a bid, and the dealer must take it (`all_pass`):
    at exactly the minimum (§1.2 "the dealer must bid 20", §2.2, §3.2), the one legal answer."""
    return settings.all_pass == "dealer_forced" and len(auction) == seats - 1 and high_bid(auction) is None


def _passed(auction: Sequence[Call]) -> set[int]:
    return {seat for seat, bid in auction if bid is None}


def _trailing_passes(auction: Sequence[Call]) -> int:
    count = 0
    for _, bid in reversed(auction):
        if bid is not None:
            break
        count += 1
    return count


def is_over(auction: Sequence[Call], seats: int, settings: Settings) -> bool:
    """Whether the auction has ended, with a winner or with everyone passing (`redeal`)."""
    if settings.single_round_bidding:
        return len(auction) == seats
    has_bid = high_bid(auction) is not None
    # A final pass counts for good; otherwise only N−1 passes in a row after the last bid end it.
    passes = len(_passed(auction)) if settings.pass_is_final else _trailing_passes(auction)
    return passes >= seats - 1 if has_bid else passes >= seats


def next_seat(auction: Sequence[Call], seats: int, dealer: int, settings: Settings) -> int:
    """Who calls next: clockwise from the dealer's left, skipping seats out of the auction."""
    if not auction:
        return (dealer + 1) % seats
    seat = (auction[-1][0] + 1) % seats
    if settings.pass_is_final and not settings.single_round_bidding:
        out = _passed(auction)
        while seat in out:
            seat = (seat + 1) % seats
    return seat


def bid_error(bid: int | None, auction: Sequence[Call], seats: int, settings: Settings) -> str | None:
    """Why ``bid`` is not a legal call now, or None when it is."""
    forced = dealer_forced(auction, seats, settings)
    if bid is None:
        return f"the dealer must bid {settings.min_bid}: everyone else passed" if forced else None
    if isinstance(bid, bool) or not isinstance(bid, int):
        return f"a bid is a whole number or a pass, not {bid!r}"
    if forced and bid != settings.min_bid:
        return f"the dealer must bid {settings.min_bid}: everyone else passed, so no higher bid is needed"
    least = least_bid(auction, settings)
    if bid < least:
        return f"the bid must be at least {least}"
    if not settings.bid_on_increment(bid):
        return f"{bid} is off the bid increment ({settings.bid_increment})"
    return None


def trump_suits(counts: Sequence[int], settings: Settings) -> tuple[Suit, ...]:
    """The suits the auction's winner may name (§1.3, §2.3): any, or with `trump_requires_marriage`
    only those where their hand (24 counts) holds a K and a Q."""
    if not settings.trump_requires_marriage:
        return (0, 1, 2, 3)
    return tuple(suit for suit in range(4) if counts[suit * 6 + KING] and counts[suit * 6 + QUEEN])
