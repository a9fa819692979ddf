"""The `random` bot: a legal answer, chosen at random, as a yardstick for the others."""

from __future__ import annotations

import random

from ..view import BID, PASS, Answer, SeatView


class RandomBot:
    """Uniform over the legal answers, with two choices made explicit.

    * bid: pass half the time, otherwise bid the lowest bid allowed now (a forced dealer bids it);
      an auction of random raises would otherwise climb without bound.
    * pass: a uniform sample of ``pass_count`` cards from the hand (each copy is its own card).
    """

    name = "random"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def decide(self, view: SeatView) -> Answer:
        if view.decision == BID:
            minimum = view.least_bid
            if view.may_pass and self.rng.random() < 0.5:
                return None
            return minimum
        if view.decision == PASS:
            return tuple(self.rng.sample(view.hand, view.pass_count))
        answer: Answer = self.rng.choice(view.legal)
        return answer

    def explain(self, view: SeatView) -> tuple[Answer, str | None]:
        return self.decide(view), None  # no words for its answers

    def close(self) -> None:
        pass
