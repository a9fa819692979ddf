"""How far the puzzle weighings stray from an exact search: ``python -m
pinochle_site.tools.benchmarks.weighing_benchmark``.

On ``--positions`` positions of each variant with ``--cards`` cards left in all hands (hands
played from the first lead by the expert's policy, then up to a trick's worth of cards into the
next trick, so follows are measured beside leads), every legal card of the seat to act is valued
on the true deal three ways:

* ``exact``: the rest searched exactly (``exact.solve_exact``), the yardstick;
* ``deeper``: the deeper weighing (``weighing.deep_value``): the expert's fast policy down to
  ``--exact-cards`` cards, the rest exact; ``deeper, blind``: the same with the blind policy
  (``lean.blind_policy``, the expert's own in six-handed) down to there;
* ``finder``: the finder's weighing before the exact search reaches (``puzzles._weigh_play``): one
  playout of the expert's policy, the last ``PLAYOUT_EXACT_CARDS`` cards exact.

For each of the three it prints the mean error of a card's value (points, absolute), the share of
positions whose best card by it is a best card by the exact search, and the mean regret: the exact
value given up by playing its best card. And the CPU each took a position.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence

from scorepad.engine.exact import Memo, solve_exact
from scorepad.engine.lean import Contract, PlayState, blind_policy, playout, policy
from scorepad.engine.puzzles import PLAYOUT_EXACT_CARDS
from scorepad.engine.search import lean_of, playout_policy
from scorepad.engine.variants import VARIANTS, Variant
from scorepad.engine.weighing import deep_value, exact_cards

from .expert_benchmark import first_leads

Valuer = Callable[[PlayState, Contract, int, Memo], float]


def positions(variant: Variant, count: int, cards: int, seed: int) -> list[tuple[PlayState, Contract]]:
    """``count`` positions with ``cards`` cards left, some of them part way into a trick."""
    rng = random.Random(seed)
    found = []
    for state in first_leads(variant, count, seed):
        lean, contract = lean_of(state)
        while lean.left * variant.seats > cards or lean.trick:
            lean.play(policy(lean))
        for _ in range(rng.randrange(variant.seats)):
            lean.play(policy(lean))
        found.append((lean, contract))
    return found


def measure(
    variant: Variant, found: Sequence[tuple[PlayState, Contract]], valuers: dict[str, Valuer]
) -> dict[str, dict[str, float]]:
    """Per weighing: mean absolute error, share of best cards found, mean regret, CPU ms."""
    tally = {name: {"error": 0.0, "cards": 0.0, "best": 0.0, "regret": 0.0, "ms": 0.0} for name in valuers}
    for lean, contract in found:
        side = lean.rules.side_of[lean.to_act]
        values: dict[str, list[float]] = {}
        for name, value in valuers.items():
            memo: Memo = {}
            started = time.process_time()
            values[name] = []
            for c in lean.legal():
                child = lean.copy()
                child.play(c)
                values[name].append(value(child, contract, side, memo))
            tally[name]["ms"] += 1000 * (time.process_time() - started)
        exact = values["exact"]
        top = max(exact)
        for name, mine in values.items():
            picked = exact[mine.index(max(mine))]
            tally[name]["error"] += sum(abs(a - b) for a, b in zip(mine, exact, strict=True))
            tally[name]["cards"] += len(mine)
            tally[name]["best"] += picked == top
            tally[name]["regret"] += top - picked
    n = len(found)
    return {
        name: {
            "error": t["error"] / max(1.0, t["cards"]),
            "best": t["best"] / n,
            "regret": t["regret"] / n,
            "ms": t["ms"] / n,
        }
        for name, t in tally.items()
    }


def valuers(variant: Variant, exact: int) -> dict[str, Valuer]:
    choose = playout_policy(variant)
    tricks = PLAYOUT_EXACT_CARDS // variant.seats
    return {
        "exact": lambda s, c, side, memo: solve_exact(s, c, side, memo),
        "deeper": lambda s, c, side, memo: deep_value(s, c, side, exact, choose, memo),
        "deeper, blind": lambda s, c, side, memo: deep_value(s, c, side, exact, blind_policy, memo),
        "finder": lambda s, c, side, memo: playout(s.copy(), c, side, tricks, choose),
    }


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m pinochle_site.tools.benchmarks.weighing_benchmark"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--positions", type=int, default=30, help="positions per variant")
    parser.add_argument(
        "--cards", type=int, default=0, help="cards left (default: a trick above --exact-cards)"
    )
    parser.add_argument("--exact-cards", type=int, default=0, help="default: the deeper weighing's own")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=list(VARIANTS), action="append", help="default: classic")
    args = parser.parse_args(argv)
    if args.positions < 1 or min(args.cards, args.exact_cards) < 0:
        parser.error("--positions must be above 0, the card counts not below 0")
    for variant_id in args.variant or ["classic"]:
        variant = VARIANTS[variant_id]
        exact = args.exact_cards or exact_cards(variant)
        cards = args.cards or exact + variant.seats
        found = positions(variant, args.positions, cards, args.seed)
        result = measure(variant, found, valuers(variant, exact))
        print(
            f"{variant_id}: {len(found)} positions, {cards} cards left, "
            f"the deeper weighing exact from {exact}"
        )
        for name in ("deeper", "deeper, blind", "finder"):
            r = result[name]
            print(
                f"  {name}: a card's value off by {r['error']:.2f} points on average; its best card "
                f"best by exact search in {r['best']:.0%} of positions, {r['regret']:.2f} points a "
                f"position given up; {r['ms']:.0f} ms CPU a position (exact: {result['exact']['ms']:.0f} ms)"
            )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
