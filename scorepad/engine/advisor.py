"""The bid advisor: what a full hand is worth as the bidder's, by simulation.

For each suit the hand may name as trump, ``advise`` deals the other hands at random many times
(the same deals for every suit), plays each as the expert's simulations do (``search.simulate_contract``:
passing, meld, the lean playout) with this hand as the bidder's, and reports the meld, the spread of
what the bidders' side counted towards the bid (meld + trick points), and three bids:

* safe: the highest bid made in at least 90% of the simulated hands;
* standard: … 75%;
* bold: … 60%.

A bid is "made" exactly as the scorer says (``scoring.score_hand``: rule of 20, meld needing a trick
and all). A bid of None means even the minimum bid is made less often than that: pass.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from .auction import trump_suits
from .bots.heuristic import choose_pass, profile_of
from .cards import SUITS, Card, CardError, Suit, counts_of
from .knowledge import Dealer, knowledge_of
from .meld import meld_points
from .search import Outcome, outcome_scores, simulate_contract
from .variants import Settings, Variant, get_variant
from .view import BID, build_seat_view

DEFAULT_SAMPLES = 200  # simulated hands per trump
MIN_SAMPLES = 40  # … at least, whatever the clock says
BID_LEVELS = (("safe", 0.90), ("standard", 0.75), ("bold", 0.60))
PERCENTILES = (10, 25, 50, 75, 90)
BIDDER, DEALER = 0, 3  # the hand is seat 0's, dealt by the seat on its right: it bids first


@dataclass(frozen=True, slots=True)
class TrumpAdvice:
    trump: Suit
    meld: int
    mean: float  # what the bidders' side counted towards the bid, on average
    percentiles: tuple[int, ...]  # … at PERCENTILES
    bids: dict[str, int | None]  # safe / standard / bold

    def to_json(self) -> dict[str, Any]:
        return {
            "trump": SUITS[self.trump],
            "meld": self.meld,
            "mean": round(self.mean, 1),
            "percentiles": dict(zip((f"p{p}" for p in PERCENTILES), self.percentiles, strict=True)),
            "bids": self.bids,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    variant: Variant
    samples: int
    seconds: float
    trumps: tuple[TrumpAdvice, ...]  # best standard bid first

    @property
    def best(self) -> TrumpAdvice | None:
        return self.trumps[0] if self.trumps else None

    def to_json(self) -> dict[str, Any]:
        best = self.best
        return {
            "variant": self.variant.id,
            "samples": self.samples,
            "best_trump": None if best is None else SUITS[best.trump],
            "bids": {name: None for name, _ in BID_LEVELS} if best is None else best.bids,
            "trumps": [advice.to_json() for advice in self.trumps],
            "seconds": round(self.seconds, 2),
        }


def advise(
    variant: Variant,
    settings: Settings,
    hand: Sequence[Card],
    rng: random.Random,
    samples: int = DEFAULT_SAMPLES,
    budget_s: float | None = None,
) -> Advice:
    """Advice for ``hand``, a full hand of ``variant`` (CardError if it is not one).

    With ``budget_s``, sampling stops once that much wall clock has gone (after ``MIN_SAMPLES``),
    so a busy server still answers in time, on fewer simulations (``Advice.samples`` says how many).
    """
    if len(hand) != variant.hand_size:
        raise CardError(f"a {variant.id} hand holds {variant.hand_size} cards, not {len(hand)}")
    variant.check_hand(list(hand))
    started = time.perf_counter()
    counts = counts_of(hand)
    p = profile_of(variant, settings)
    view = build_seat_view(
        variant=variant,
        settings=settings,
        seat=BIDDER,
        dealer=DEALER,
        decision=BID,
        hand=tuple(sorted(hand)),
        auction=(),
        bidder=None,
        bid=None,
        trump=None,
        passed=(),
        received=(),
        meld=(),
        shown=(),
        tricks=(),
        trick=None,
        totals=(0,) * len(variant.sides),
        legal=(None, settings.min_bid),
        pass_count=0,
    )
    dealer = Dealer(knowledge_of(view))
    trumps = trump_suits(counts, settings)
    results: dict[Suit, list[Outcome]] = {t: [] for t in trumps}
    passer = partial(choose_pass, p=p)
    done = 0
    for done in range(1, samples + 1):
        hands = dealer.deal(rng)
        for t in trumps:
            results[t].append(simulate_contract(variant, settings, hands, BIDDER, t, passer))
        if budget_s is not None and done >= MIN_SAMPLES and time.perf_counter() - started > budget_s:
            break
    melds = {t: meld_points(counts, t, variant, settings) for t in trumps}
    advice = [_trump_advice(variant, settings, t, melds[t], results[t]) for t in trumps]
    advice.sort(key=lambda a: (a.bids["standard"] or 0, a.mean), reverse=True)
    return Advice(variant, done, time.perf_counter() - started, tuple(advice))


def advice_for(
    variant_id: str, rules: Mapping[str, Any], hand: Sequence[Card], seed: int, budget_s: float | None
) -> Advice:
    """``advise`` from plain values (the variant's id, its §4 rules as JSON, the seed), so that
    ``bot_pool`` can ask it in another process as well as in the request's thread."""
    variant = get_variant(variant_id)
    return advise(variant, variant.settings(dict(rules)), hand, random.Random(seed), budget_s=budget_s)


def _trump_advice(
    variant: Variant, settings: Settings, trump: Suit, meld: int, outcomes: list[Outcome]
) -> TrumpAdvice:
    side = variant.side_of(BIDDER)
    # What each hand scores for the bidders when made at the minimum; a made hand scores the same
    # at any bid it reaches, so "made at b" is "made at the minimum and scored at least b".
    made_values = sorted(
        (
            score
            for o in outcomes
            if (score := outcome_scores(variant, settings, o, BIDDER, settings.min_bid, trump)[side]) > 0
        ),
        reverse=True,
    )
    took = sorted(o.bidders_took for o in outcomes)
    return TrumpAdvice(
        trump=trump,
        meld=meld,
        mean=statistics.fmean(took),
        percentiles=tuple(took[min(len(took) - 1, len(took) * p // 100)] for p in PERCENTILES),
        bids={name: _bid_made_in(settings, made_values, share, len(outcomes)) for name, share in BID_LEVELS},
    )


def _bid_made_in(settings: Settings, made_values: list[int], share: float, total: int) -> int | None:
    """The highest bid on the increment that at least ``share`` of the hands reach, or None."""
    needed = -(-int(share * total * 1000) // 1000)  # ceil, without float noise at 0.9 * 200
    if len(made_values) < needed or needed == 0:
        return None
    reach = made_values[needed - 1]  # the needed-th best score: that many hands score at least this
    bid = settings.min_bid
    if reach < bid:
        return None
    while True:
        step = bid + settings.next_bid_step(bid)
        if step > reach:
            return bid
        bid = step
