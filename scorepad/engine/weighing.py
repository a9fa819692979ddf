"""The deeper weighing of a card: the rest of the hand searched exactly wherever that is affordable.

A puzzle's answers (and a reviewed play) are weighed on deals of the cards the seat cannot see,
sampled from what it knows. On each deal, the finder's weighing plays the rest out once by the
expert's fast policy, with only the last two tricks searched exactly: a card that the policy
happens to misplay later (a winner left for the last trick, a trump cashed too soon) is charged
for the policy's line, not for its own. This weighing instead:

* searches the rest exactly (``exact.solve_exact``) once at most ``exact_cards`` cards are left
  in all hands (``EXACT_TRICKS`` tricks: what the fast search does in well under a second);
* before that, plays the tricks down to that point by the expert's fast policy
  (``search.playout_policy``: blind to the deal in six-handed, seeing it with partners), and
  searches exactly from there. The policy is deterministic, so one playout a deal is all several
  would give: more deals take the place of more playouts. Its error against a search of the whole
  rest is measured where both are affordable (``weighing_benchmark``): with partners, the blind
  policy picked a worse card more often than the one that sees the deal, whose line the exact
  search that follows it continues (``bots/FINDINGS.md``).

The positions after each candidate card of one deal share one memo of the exact search: their
lines meet again after a trick or two.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from .cards import Card, Suit
from .exact import Memo, solve_exact
from .knowledge import Dealer, knowledge_of
from .lean import Chooser, Contract, PlayState
from .meld import meld_points
from .scoring import HandEntry, score_hand, short_meld_stops_play
from .search import Passer, first_lead, passed_hands, play_state, playout_policy
from .variants import Settings, Variant
from .view import SeatView

# Tricks left at which the rest is searched exactly: about seven cards a hand with four seats,
# four tricks (24 cards) with six, whose hands have fewer copies to prune as equivalent.
EXACT_TRICKS = {4: 7, 6: 4}


def exact_cards(variant: Variant) -> int:
    """The cards left in all hands at which the deeper weighing searches the rest exactly."""
    return EXACT_TRICKS[variant.seats] * variant.seats


def deep_value(
    state: PlayState, contract: Contract, side: int, exact: int, choose: Chooser, memo: Memo | None = None
) -> float:
    """``side``'s margin for the rest of ``state`` (left as it was): searched exactly once at most
    ``exact`` cards are left in all hands, played by ``choose`` until then."""
    state = state.copy()
    cards = sum(state.counts)
    while cards > exact:
        state.play(choose(state))
        cards -= 1
    return solve_exact(state, contract, side, memo)


def weigh_cards(
    view: SeatView, cards: Iterable[Card], rng: random.Random, deals: int, exact: int
) -> dict[Card, list[float]]:
    """Each of ``cards`` (legal plays of ``view``) weighed on ``deals`` deals of what the seat
    knows, sampled with ``rng``: its value on each deal by ``deep_value`` from ``exact`` cards."""
    dealer = Dealer(knowledge_of(view))
    side = view.variant.side_of(view.seat)
    choose = playout_policy(view.variant)
    values: dict[Card, list[float]] = {c: [] for c in cards}
    for _ in range(deals):
        state, contract = play_state(view, dealer.deal(rng))
        memo: Memo = {}  # the cards' lines meet again: one table for the deal
        for c, found in values.items():
            child = state.copy()
            child.play(c)
            found.append(deep_value(child, contract, side, exact, choose, memo))
    return values


def deep_contract(
    variant: Variant,
    settings: Settings,
    hands: Sequence[Sequence[int]],
    contract: tuple[int, int, Suit],  # the bidder, the bid, the trump
    side: int,
    passer: Passer,
    passes: Mapping[int, Sequence[Card]] | None = None,
) -> float:
    """``side``'s margin for the hand ``hands`` played in ``contract`` from the pass (``passes``
    where given, else ``passer``'s) by the deeper weighing: ``search.simulate_contract``'s hand,
    its trick play weighed by ``deep_value`` instead of one playout of the policy."""
    bidder, bid, trump = contract
    held = passed_hands(variant, settings, hands, bidder, trump, passer, passes or {})
    meld = variant.side_totals(tuple(meld_points(hand, trump, variant, settings) for hand in held))
    if short_meld_stops_play(settings, meld[variant.side_of(bidder)]):
        scores = score_hand(variant, settings, HandEntry(bidder, bid, trump, meld, None, None)).scores
        return scores[side] - (sum(scores) - scores[side]) / (len(scores) - 1)
    lean, scored = first_lead(variant, settings, held, bidder, bid, trump, meld)
    return deep_value(lean, scored, side, exact_cards(variant), playout_policy(variant))


__all__ = ["EXACT_TRICKS", "deep_contract", "deep_value", "exact_cards", "weigh_cards"]
