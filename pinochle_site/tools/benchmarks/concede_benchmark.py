"""Does conceding pay? ``python -m pinochle_site.tools.benchmarks.concede_benchmark``.

A duplicate match of a bot against itself under ``bidder_may_concede``: every deal is played
twice by the same bots with the same seeds, once as they are and once with every concede
decision answered "play on" (the bot is still asked, so its random draws stay the same). The
two plays are the same up to the first throw-in, so the difference is what conceding did. For
each variant it prints the deals, the hands thrown in, and the bidding side's margin (its score
less the others' average) with and without conceding, summed over the deals, with the mean gain
per hand thrown in. Short by default (60 deals at 40 playouts for the expert) so it runs on a
shared machine; the figures are of one seed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from scorepad.engine.bots import make_bot
from scorepad.engine.game import HandState, deal
from scorepad.engine.simulate import advance_until
from scorepad.engine.variants import VARIANTS, Variant
from scorepad.engine.view import CONCEDE, Answer, Bot, SeatView


class PlaysOn:
    """A bot that never concedes: it answers every other decision as ``bot`` does."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = f"{bot.name} (never concedes)"

    def decide(self, view: SeatView) -> Answer:
        answer = self.bot.decide(view)  # asked anyway: its random draws stay those of the other play
        return False if view.decision == CONCEDE else answer

    def explain(self, view: SeatView) -> tuple[Answer, str | None]:
        return self.decide(view), None

    def close(self) -> None:
        self.bot.close()


def bidders_margin(state: HandState) -> float:
    assert state.result is not None
    assert state.bidder is not None
    scores = state.result.scores
    side = state.variant.side_of(state.bidder)
    return scores[side] - (sum(scores) - scores[side]) / (len(scores) - 1)


def play(variant: Variant, number: int, seed: int, bot: str, playouts: int, *, concede: bool) -> HandState:
    settings = variant.settings({"bidder_may_concede": True})
    state = deal(variant, settings, number % variant.seats, random.Random(f"{seed}:{number}"))
    bots: list[Bot] = []
    for seat in range(variant.seats):
        made = make_bot(
            bot, seat, random.Random(f"{seed}:{number}:{seat}"), playouts=playouts, budget_ms=60_000
        )
        bots.append(made if concede else PlaysOn(made))
    advance_until(state, bots)
    return state


def conceded(state: HandState) -> bool:
    return (
        state.bidder is not None and state.result is not None and not state.result.played and not state.tricks
    )


def match(variant: Variant, deals: int, seed: int, bot: str, playouts: int) -> dict[str, float]:
    thrown = 0
    with_concede = without = 0.0
    for number in range(deals):
        one = play(variant, number, seed, bot, playouts, concede=True)
        two = play(variant, number, seed, bot, playouts, concede=False)
        if one.bidder is None or one.result is None or two.result is None:
            continue
        if conceded(one) and two.result.played:
            thrown += 1
        with_concede += bidders_margin(one)
        without += bidders_margin(two)
    return {"deals": deals, "thrown": thrown, "with": with_concede, "without": without}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pinochle_site.tools.benchmarks.concede_benchmark", description=__doc__
    )
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", choices=("heuristic", "expert"), default="expert")
    parser.add_argument("--playouts", type=int, default=40)
    parser.add_argument("--variant", choices=list(VARIANTS), action="append", help="default: all three")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.playouts < 1:
        parser.error("--deals and --playouts must be above 0")
    for variant_id in args.variant or list(VARIANTS):
        found = match(VARIANTS[variant_id], args.deals, args.seed, args.bot, args.playouts)
        gain = found["with"] - found["without"]
        per = f", {gain / found['thrown']:+.1f} a hand thrown in" if found["thrown"] else ""
        print(
            f"{variant_id} ({args.bot}, {args.deals} deals, seed {args.seed}): "
            f"{found['thrown']:.0f} thrown in; "
            f"bidders' margin with conceding {found['with']:+.0f}, never conceding {found['without']:+.0f}: "
            f"{gain:+.0f}{per}"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
