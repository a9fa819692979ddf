"""What a hand review costs: ``python -m pinochle_site.tools.benchmarks.review_benchmark``.

For each variant, ``--hands`` hands are played by heuristic bots (the player's seat 0 too) and
seat 0's decisions are reviewed as practice reviews them (``REVIEW_PLAYOUTS`` per decision),
then the deal is played again with the expert in seat 0 (the duplicate). It prints the CPU
seconds per hand for the review and for the duplicate: mean and slowest. The bound a review must
stay within is 5 s of CPU per hand. CPU time, not wall clock, so a busy machine does not inflate it.
Then the cards the expert's gap charged, how many the deeper weighing confirmed (``review.confirm``:
it still finds a cost), and the points left on the table by the expert's gap alone and as charged.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from functools import partial

from scorepad.engine.bots import ExpertBot, HeuristicBot
from scorepad.engine.game import HandState, deal
from scorepad.engine.log import hand_line
from scorepad.engine.review import REVIEW_CAP_MS, REVIEW_PLAYOUTS, Verdict, expert_duplicate, review_hand
from scorepad.engine.simulate import play_hand
from scorepad.engine.variants import VARIANTS, Variant
from scorepad.engine.view import Bot


def same_bots(bots: Mapping[int, Bot], _state: HandState) -> Mapping[int, Bot]:
    return bots


def review_seconds(
    variant: Variant, hands: int, seed: int, verdicts: list[Verdict]
) -> tuple[list[float], list[float]]:
    """CPU seconds per hand: the review of seat 0's decisions (its verdicts added to ``verdicts``),
    and the expert's duplicate."""
    reviews: list[float] = []
    duplicates: list[float] = []
    for number in range(hands):
        state = deal(variant, variant.defaults, number % variant.seats, random.Random(f"{seed}:{number}"))
        play_hand(state, [HeuristicBot(seat) for seat in range(variant.seats)])
        line = hand_line(state)
        started = time.process_time()
        verdicts.extend(review_hand(line, 0, seed=f"{seed}:{number}")[0])
        reviews.append(time.process_time() - started)
        started = time.process_time()
        expert = ExpertBot(0, random.Random(number), playouts=REVIEW_PLAYOUTS, budget_ms=REVIEW_CAP_MS)
        others: dict[int, Bot] = {seat: HeuristicBot(seat) for seat in range(1, variant.seats)}
        expert_duplicate(line, 0, expert, partial(same_bots, others))
        duplicates.append(time.process_time() - started)
    return reviews, duplicates


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pinochle_site.tools.benchmarks.review_benchmark", description=__doc__
    )
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=list(VARIANTS), action="append", help="default: all three")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be above 0")
    for variant_id in args.variant or list(VARIANTS):
        verdicts: list[Verdict] = []
        reviews, duplicates = review_seconds(VARIANTS[variant_id], args.hands, args.seed, verdicts)
        print(
            f"{variant_id} ({args.hands} hands, {REVIEW_PLAYOUTS} playouts a decision): review CPU "
            f"{statistics.fmean(reviews):.2f} s a hand on average, slowest {max(reviews):.2f} s; "
            f"duplicate {statistics.fmean(duplicates):.2f} s, slowest {max(duplicates):.2f} s"
        )
        asked = [v for v in verdicts if v.confirmed is not None]
        unconfirmed = sum(min(v.gap, v.cap) for v in verdicts)
        print(
            f"{variant_id} charges: {len(asked)} cards charged by the expert's gap, "
            f"{sum(1 for v in asked if v.confirmed)} confirmed by the deeper weighing; left on the table "
            f"{unconfirmed / args.hands:.2f} points a hand by the gap alone, "
            f"{sum(v.lost for v in verdicts) / args.hands:.2f} as charged"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
