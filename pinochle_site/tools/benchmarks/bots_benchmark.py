"""How well and how fast the bots play: ``python -m pinochle_site.tools.benchmarks.bots_benchmark``.

For each variant it prints two lines of figures:

* ``versus``: the heuristic against the random bot over whole games (the heuristic partnership
  against the random one, or one heuristic seat against five random ones in `six-handed`,
  seats taking turns): games won, and how often the heuristic side made the bids it won;
* ``speed``: hands per second with a heuristic bot in every seat, on this one process, by the
  wall clock and by CPU time (the CPU figure does not suffer from other work on the machine).

Deals come from ``--seed``, so a run repeats exactly, figures of speed apart.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from scorepad.engine.bots import make_bot
from scorepad.engine.simulate import play_game
from scorepad.engine.variants import VARIANTS, Variant


def versus(variant: Variant, games: int, seed: int) -> dict[str, float]:
    """The heuristic side against random sides, over ``games`` whole games."""
    master = random.Random(seed)
    wins = bids = made = hands = 0
    sides = len(variant.sides)
    for game in range(games):
        side = game % sides
        names = ["heuristic" if variant.side_of(seat) == side else "random" for seat in range(variant.seats)]
        bots = [
            make_bot(name, seat, random.Random(master.getrandbits(64))) for seat, name in enumerate(names)
        ]
        for state in play_game(
            variant, variant.defaults, bots, random.Random(master.getrandbits(64)), game=game
        ):
            assert state.result is not None
            hands += 1
            if state.bidder is not None and variant.side_of(state.bidder) == side:
                bids += 1
                made += state.result.made
        assert state.result is not None
        wins += side in state.result.winners
    return {
        "games": games,
        "won": wins / games,
        "bids": bids,
        "made": made / bids if bids else 0.0,
        "hands": hands,
    }


def speed(variant: Variant, games: int, seed: int) -> dict[str, float]:
    """Hands per second with a heuristic bot in every seat."""
    master = random.Random(seed)
    hands = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for game in range(games):
        bots = [make_bot("heuristic", seat, random.Random(0)) for seat in range(variant.seats)]
        for _ in play_game(variant, variant.defaults, bots, random.Random(master.getrandbits(64)), game=game):
            hands += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"hands": hands, "per_second": hands / wall, "per_cpu_second": hands / cpu}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pinochle_site.tools.benchmarks.bots_benchmark", description=__doc__
    )
    parser.add_argument("--games", type=int, default=200, help="games per variant and test (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--variant", choices=list(VARIANTS), action="append", help="default: all three")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    for variant_id in args.variant or list(VARIANTS):
        variant = VARIANTS[variant_id]
        record = versus(variant, args.games, args.seed)
        print(
            f"{variant_id} versus: heuristic won {record['won']:.1%} of {record['games']} games "
            f"against random; made {record['made']:.1%} of its {record['bids']} bids "
            f"({record['hands']} hands)"
        )
        pace = speed(variant, args.games, args.seed)
        print(
            f"{variant_id} speed: {pace['hands']} hands, {variant.seats} heuristic bots: "
            f"{pace['per_second']:.0f} hands/s ({pace['per_cpu_second']:.0f} per CPU second)"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
