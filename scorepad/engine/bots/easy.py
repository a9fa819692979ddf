"""The `easy` bot: the heuristic with a beginner's lapses, for practice against a gentle table.

It bids more timidly than the heuristic (only to 80% of the heuristic's estimate, as the heuristic
counts it) and, a quarter of the time, plays a legal card at random instead of the heuristic's.
Trump and passing are the heuristic's: a beginner rarely gets those badly wrong.
"""

from __future__ import annotations

import dataclasses
import random

from ..cards import Card
from ..view import BID, PLAY, Answer, SeatView
from .heuristic import HeuristicBot

CARELESS_PLAY = 0.25  # share of plays chosen at random
TIMID_BID = 0.8  # bids only while the heuristic would bid at this much of the bid


class EasyBot:
    name = "easy"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.heuristic = HeuristicBot(seat)

    def decide(self, view: SeatView) -> Answer:
        answer = self.heuristic.decide(view)
        if view.decision == PLAY and self.rng.random() < CARELESS_PLAY:
            card: Card = self.rng.choice(view.legal_cards)
            return card
        if view.decision == BID and answer is not None and view.may_pass:
            # Would the heuristic still bid if the bid were a quarter higher? If not, pass.
            least = view.least_bid
            stretched = (None, max(least, round(least / TIMID_BID)))
            harder = dataclasses.replace(view, legal=stretched)
            if self.heuristic.decide(harder) is None:
                return None
        return answer

    def explain(self, view: SeatView) -> tuple[Answer, str | None]:
        return self.decide(view), None  # no words for its answers

    def close(self) -> None:
        pass
