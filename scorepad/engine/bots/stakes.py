"""Score awareness for the expert's bids: near the end of a game a bid is valued by what it does to
the game, not only to the hand.

A hand's scores are worth to the deciding side (``game_value``) ``±target`` once the hand ends the
game (§0.7 through ``scoring.winners_after_hand``: the target, `bidder_out`, both there → the
bidders; a win shared by co-winners is worth its share) and, while it plays on, the side's chance
in the race to the target scaled the same way: each side's chance taken as inversely proportional
to the points it still needs (``race``). Far from the end that is about half the hand's margin, so
nothing changes; near it the game's result outweighs any hand's margin, and a lead near the target
is worth more than the same lead far from it.

``game_bid`` weighs, on sampled deals, bidding the least bid (the bot's own simulated hands in its
best trump for the game) against passing: the hand then taken by the seat that holds the bid at
its bid or, with no bid yet, by the other seat still in the auction whose sampled hand is worth
most (the heuristic's hand value), at the least bid, in the trump that hand values most. So it
bids to go out, keeps bidding where the other side would go out by making its contract (unless
its own set loses the game), and lets a hand go when the game is safe without it; with
`bidder_out` making the contract is what wins, and in `six-handed` any other seat going out is a
loss, so everyone stops the leader (the expert, though, takes no contract for the game below its
lone made bar there: ``expert.game_bid_floor``). It answers only when this hand can end the game
(a side's total within the most any side scored in the bot's simulated hands of the target);
otherwise ``None``, and the bot's usual rule stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import Suit
from ..scoring import winners_after_hand
from ..search import outcome_scores
from ..view import SeatView
from . import reasons
from .analysis import BidAnalysis


@dataclass(frozen=True, slots=True)
class Stake:
    """A bid decided for the game: bid or pass, why, and each choice's mean ``game_value``."""

    bid: bool
    reason: str
    bid_value: float
    pass_value: float


def game_value(view: SeatView, scores: Sequence[int], bidder: int) -> float:
    """What a hand scoring ``scores`` (per side, ``bidder``'s contract) is worth to ``view``'s side."""
    won = game_won(view, scores, bidder)
    if won is None:
        won = race(view, [total + score for total, score in zip(view.totals, scores, strict=True)])
    return (2 * won - 1) * view.settings.target


def race(view: SeatView, totals: Sequence[int]) -> float:
    """``view``'s side's chance to reach the target first from ``totals``, each side's chance
    inversely proportional to the points it still needs (two sides: theirs over both)."""
    speeds = [1 / max(1, view.settings.target - total) for total in totals]
    return speeds[view.variant.side_of(view.seat)] / sum(speeds)


def game_won(view: SeatView, scores: Sequence[int], bidder: int) -> float | None:
    """``view``'s side's share of the game if the hand scoring ``scores`` ends it (1 won, 0 lost,
    1/2 shared by two co-winners …); ``None`` while the game plays on."""
    variant = view.variant
    after = [total + score for total, score in zip(view.totals, scores, strict=True)]
    winners = winners_after_hand(variant, view.settings, view.totals, after, variant.side_of(bidder))
    if not winners:
        return None
    return 1 / len(winners) if variant.side_of(view.seat) in winners else 0.0


def game_bid(
    view: SeatView,
    scored: Mapping[Suit, Sequence[Sequence[int]]],
    analysis: BidAnalysis,
) -> Stake | None:
    """Bid the least bid or pass, for the game, when this hand can end it; ``None`` when it cannot.

    ``scored`` are the bot's own simulated hands as the bidder at the least bid, per trump: each
    one's scores per side; passing is simulated on ``analysis``'s deals (the same ones), those
    that explain the calls so far (``BidAnalysis.fitting``)."""
    least = view.least_bid
    scored = {trump: found for trump, found in scored.items() if found}
    reach = max((max(scores) for found in scored.values() for scores in found), default=0)
    if not any(total + reach >= view.settings.target for total in view.totals):
        return None
    bid_values = {
        trump: _mean([game_value(view, s, view.seat) for s in found]) for trump, found in scored.items()
    }
    trump = max(bid_values, key=lambda t: bid_values[t])
    passed = _taken_by_others(view, least, analysis)
    if not passed:
        return None
    bid_value, pass_value = bid_values[trump], _mean([game_value(view, s, t) for t, s in passed])
    bid = bid_value > pass_value
    won_bidding = [game_won(view, s, view.seat) for s in scored[trump]]
    won_passing = [game_won(view, s, t) for t, s in passed]
    words = reasons.game_bid_reason(
        least,
        bidding=bid,
        going_out=sum(1 for won in won_bidding if won),
        pushed=sum(1 for won in won_passing if won == 0),
        safe=sum(1 for won in won_passing if won),
        samples=len(won_bidding),
        passes=len(won_passing),
    )
    return Stake(bid, words, bid_value, pass_value)


def _taken_by_others(view: SeatView, least: int, analysis: BidAnalysis) -> list[tuple[int, tuple[int, ...]]]:
    """Per sampled deal that explains the calls so far, the hand as another seat would take it
    were ``view``'s seat to pass: that seat and each side's score. The hand values and simulated
    hands are the analysis's, worked out once a hand: a bidding war asks for the same ones."""
    variant, settings = view.variant, view.settings
    high = next(((seat, bid) for seat, bid in reversed(view.auction) if bid is not None), None)
    out = {seat for seat, bid in view.auction if bid is None}
    live = [s for s in range(variant.seats) if s != view.seat and s not in out]
    if high is None and not live:
        return []
    taken = []
    for deal in analysis.fitting(view):
        if high is not None:
            taker, bid = high
            chosen = analysis.valued(deal, taker)
        else:
            bid = least
            valued = [(found, s) for s in live if (found := analysis.valued(deal, s)) is not None]
            chosen, taker = max(valued, default=(None, -1))
        if chosen is None:  # no suit it may name (a marriage needed): nobody takes the hand like this
            continue
        trump = chosen[1]
        outcome = analysis.taken(deal, taker, trump)
        taken.append((taker, outcome_scores(variant, settings, outcome, taker, bid, trump)))
    return taken


def _mean(values: Sequence[float]) -> float:
    return sum(values) / max(1, len(values))
