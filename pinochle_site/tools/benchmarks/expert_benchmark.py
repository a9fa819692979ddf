"""How fast the expert searches: ``python -m pinochle_site.tools.benchmarks.expert_benchmark``.

For each variant it prints two lines:

* ``playouts``: whole hands of trick play from the first lead, per second (wall clock and CPU),
  on the lean play state with the expert's playout policy, beside the same hands played by four
  (six) heuristic bots on the full game state: the cost a search pays per simulated hand;
* ``exact search``: the plain search (``lean.solve``) and the fast one (``exact.solve_exact``) from
  trick boundaries the policy played to, per count of cards left (three tricks to seven, five in
  six-handed; the plain one up to ``--old-max-cards``): CPU milliseconds per search, the cost of
  starting it a trick earlier;
* ``decisions``: the expert at the practice default (``DEFAULT_PLAYOUTS`` within
  ``DEFAULT_BUDGET_MS``, or ``--playouts`` / ``--budget-ms``) in seat 0 against heuristic bots, every
  decision timed: p50, p95 and the slowest, in milliseconds of wall clock, and p50 and p95 of
  CPU time (on a busy machine the wall clock includes waiting for a core).

Deals come from ``--seed``; the figures are of this one process on a machine that may be busy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence

from scorepad.engine.auction import trump_suits
from scorepad.engine.bots.expert import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, EXACT_CARDS, ExpertBot
from scorepad.engine.bots.heuristic import HeuristicBot, choose_pass, profile_of
from scorepad.engine.exact import solve_exact
from scorepad.engine.game import HandState, deal
from scorepad.engine.lean import INFINITY, playout, policy, solve
from scorepad.engine.match import TimedBot, percentile
from scorepad.engine.search import contract_state, lean_of, playout_policy
from scorepad.engine.simulate import play_hand
from scorepad.engine.variants import VARIANTS, Variant
from scorepad.engine.view import PLAY


def first_leads(variant: Variant, count: int, seed: int) -> list[HandState]:
    """``count`` random deals carried to the first lead (seat 1 the bidder, in a random trump)."""
    rng = random.Random(seed)
    p = profile_of(variant, variant.defaults)
    states: list[HandState] = []
    while len(states) < count:
        dealt = deal(variant, variant.defaults, 0, rng)
        trumps = trump_suits(dealt.hands[1], variant.defaults)
        if not trumps:
            continue
        state = contract_state(
            variant,
            variant.defaults,
            0,
            dealt.hands,
            1,
            variant.defaults.min_bid,
            rng.choice(trumps),
            lambda view: choose_pass(view, p),
        )
        if state.decision == PLAY:
            states.append(state)
    return states


def playout_speed(variant: Variant, hands: int, seed: int) -> dict[str, float]:
    states = first_leads(variant, hands, seed)
    leans = [lean_of(state) for state in states]
    choose = playout_policy(variant)
    wall, cpu = time.perf_counter(), time.process_time()
    for lean, contract in leans:
        playout(lean.copy(), contract, 0, 0, choose)
    lean_wall, lean_cpu = time.perf_counter() - wall, time.process_time() - cpu
    bots = [HeuristicBot(seat) for seat in range(variant.seats)]
    wall, cpu = time.perf_counter(), time.process_time()
    for state in states:
        play_hand(state.copy(), bots)
    full_wall, full_cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "per_second": hands / lean_wall,
        "per_cpu_second": hands / lean_cpu,
        "lean_ms": 1000 * lean_cpu / hands,
        "heuristic_ms": 1000 * full_cpu / hands,
        "heuristic_per_second": hands / full_wall,
    }


def exact_sizes(variant: Variant) -> list[int]:
    """Cards left in all hands at which both searches are timed: from three tricks left to seven
    (about seven cards a hand in classic), five in six-handed (its hands hold eight)."""
    top = 5 if variant.seats == 6 else 7
    return [tricks * variant.seats for tricks in range(3, top + 1)]


def exact_speed(
    variant: Variant, positions: int, seed: int, old_max_cards: int
) -> dict[int, tuple[float | None, float]]:
    """CPU milliseconds per exact search of the rest of the hand, per count of cards left: the
    plain search (``lean.solve``, only up to ``old_max_cards``: it grows about tenfold a trick) and
    the fast one (``exact.solve_exact``), on the same positions, which both value the same."""
    states = first_leads(variant, positions, seed)
    found: dict[int, tuple[float | None, float]] = {}
    for cards in exact_sizes(variant):
        leans = []
        for state in states:
            lean, contract = lean_of(state)
            while lean.left * variant.seats > cards or lean.trick:
                lean.play(policy(lean))
            leans.append((lean, contract))
        plain: float | None = None
        if cards <= old_max_cards:
            cpu = time.process_time()
            for lean, contract in leans:
                solve(lean, contract, 0, -INFINITY, INFINITY)
            plain = 1000 * (time.process_time() - cpu) / positions
        cpu = time.process_time()
        for lean, contract in leans:
            solve_exact(lean, contract, 0)
        found[cards] = (plain, 1000 * (time.process_time() - cpu) / positions)
    return found


def decision_times(
    variant: Variant, hands: int, seed: int, playouts: int, budget_ms: float
) -> tuple[list[float], list[float]]:
    """Milliseconds per decision of an expert in seat 0, over ``hands`` hands against heuristic bots:
    by the wall clock, and in CPU time (what one core of an idle machine would take)."""
    rng = random.Random(seed)
    times: list[float] = []
    cpu_times: list[float] = []
    for number in range(hands):
        state = deal(variant, variant.defaults, number % variant.seats, rng)
        expert = ExpertBot(0, random.Random(number), playouts=playouts, budget_ms=budget_ms)
        others = [HeuristicBot(seat) for seat in range(1, variant.seats)]
        play_hand(state, [TimedBot(expert, times, cpu_times), *others])
    return times, cpu_times


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m pinochle_site.tools.benchmarks.expert_benchmark"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--playout-hands", type=int, default=1000, help="hands played out per variant")
    parser.add_argument("--exact-positions", type=int, default=20, help="positions per exact search size")
    parser.add_argument(
        "--old-max-cards", type=int, default=28, help="time lean.solve up to this many cards left"
    )
    parser.add_argument("--hands", type=int, default=20, help="hands of timed expert decisions per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--variant", choices=list(VARIANTS), action="append", help="default: all three")
    args = parser.parse_args(argv)
    if min(args.playout_hands, args.exact_positions, args.hands, args.playouts) < 1 or args.budget_ms <= 0:
        parser.error("counts and the budget must be above 0")
    for variant_id in args.variant or list(VARIANTS):
        variant = VARIANTS[variant_id]
        pace = playout_speed(variant, args.playout_hands, args.seed)
        print(
            f"{variant_id} playouts: {pace['per_second']:,.0f}/s "
            f"({pace['per_cpu_second']:,.0f} per CPU second, {pace['lean_ms']:.3f} ms each); "
            f"heuristic bots on the full state: {pace['heuristic_ms']:.3f} ms a hand, "
            f"{pace['heuristic_ms'] / pace['lean_ms']:.1f}× as long"
        )
        exact = exact_speed(variant, args.exact_positions, args.seed, args.old_max_cards)
        sizes = ", ".join(
            f"{cards} cards left {'–' if plain is None else f'{plain:.2f}'} → {fast:.2f} ms"
            for cards, (plain, fast) in exact.items()
        )
        print(
            f"{variant_id} exact search, CPU a search, lean.solve → exact.solve_exact: {sizes} "
            f"(the expert searches the whole rest from {EXACT_CARDS})"
        )
        times, cpu_times = decision_times(variant, args.hands, args.seed, args.playouts, args.budget_ms)
        print(
            f"{variant_id} decisions (expert, {args.playouts} playouts within {args.budget_ms:g} ms): "
            f"{len(times)} decisions, p50 {percentile(times, 50):.1f} ms, "
            f"p95 {percentile(times, 95):.1f} ms, slowest {max(times):.1f} ms, "
            f"mean {statistics.fmean(times):.1f} ms; CPU p50 {percentile(cpu_times, 50):.1f} ms, "
            f"p95 {percentile(cpu_times, 95):.1f} ms"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
