"""Duplicate matches between two bots: every deal is played twice, the seats swapped.

Luck of the cards cancels out: in the first playing bot ``a`` holds the even seats (side 0 in the
partnership variants, seats 0, 2 and 4 in `six-handed`) and ``b`` the odd ones; in the second the
very same cards are dealt with the bots swapped. A deal's margin is the average, over its two
playings, of ``a``'s sides' average score less ``b``'s. Each deal is one hand from zero totals, and
the dealer moves round the table from deal to deal.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .game import HandState, deal
from .habits import Tally, sightings
from .simulate import BotFactory, play_hand
from .variants import Settings, Variant
from .view import Answer, Bot, SeatView


class TimedBot:
    """A bot whose every decision is timed, in milliseconds: wall clock into ``times`` and, if
    given, this process's CPU time into ``cpu_times`` (what an idle core would have taken)."""

    def __init__(self, bot: Bot, times: list[float], cpu_times: list[float] | None = None) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times
        self.cpu_times = cpu_times

    def decide(self, view: SeatView) -> Answer:
        started, cpu = time.perf_counter(), time.process_time()
        answer = self.bot.decide(view)
        self.times.append((time.perf_counter() - started) * 1000)
        if self.cpu_times is not None:
            self.cpu_times.append((time.process_time() - cpu) * 1000)
        return answer

    def explain(self, view: SeatView) -> tuple[Answer, str | None]:
        return self.decide(view), None  # timed, so only ``decide`` is asked

    def close(self) -> None:
        self.bot.close()


@dataclass(slots=True)
class MatchResult:
    variant: str
    a: str
    b: str
    margins: list[float] = field(default_factory=list)  # per deal
    bids: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    made: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    a_times: list[float] = field(default_factory=list)  # ms per decision of bot a
    habits: dict[str, Tally] = field(default_factory=lambda: {"a": Tally(), "b": Tally()})

    def to_json(self) -> dict[str, Any]:
        n = len(self.margins)
        mean = statistics.fmean(self.margins) if n else 0.0
        half = 1.96 * statistics.stdev(self.margins) / math.sqrt(n) if n > 1 else 0.0
        return {
            "variant": self.variant,
            "deals": n,
            "a": self.a,
            "b": self.b,
            "margin_per_deal": round(mean, 2),
            "ci95": [round(mean - half, 2), round(mean + half, 2)],
            "a_made_rate": _rate(self.made["a"], self.bids["a"]),
            "b_made_rate": _rate(self.made["b"], self.bids["b"]),
            "decision_ms_p50": _percentile(self.a_times, 50),
            "decision_ms_p95": _percentile(self.a_times, 95),
            "habits": {label: tally.to_json() for label, tally in self.habits.items()},
        }


def _rate(made: int, bids: int) -> float | None:
    return round(made / bids, 4) if bids else None


def percentile(values: Sequence[float], percent: float) -> float:
    """Nearest-rank percentile of a non-empty sample: the least value with ``percent`` % at or below it."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(percent / 100 * len(ordered)) - 1))]


def _percentile(values: Sequence[float], percent: float) -> float | None:
    return round(percentile(values, percent), 2) if values else None


def seat_bots(variant: Variant, first: str, second: str) -> list[str]:
    """``first`` at the even seats, ``second`` at the odd ones."""
    return [first if seat % 2 == 0 else second for seat in range(variant.seats)]


def play_deal_twice(
    variant: Variant,
    settings: Settings,
    state: HandState,
    names: tuple[str, str],
    make_bot: BotFactory,
    rng: random.Random,
    result: MatchResult,
) -> float:
    """Play ``state`` once with ``a`` at the even seats and once at the odd ones; the deal's margin."""
    margins = []
    for swapped in (False, True):
        first, second = ("b", "a") if swapped else ("a", "b")
        labels = seat_bots(variant, first, second)
        bots: list[Bot] = []
        for seat, label in enumerate(labels):
            bot = make_bot(names[label == "b"], seat, random.Random(rng.getrandbits(64)))
            bots.append(TimedBot(bot, result.a_times) if label == "a" else bot)
        playing = state.copy()
        try:
            play_hand(playing, bots)
        finally:
            for bot in bots:
                bot.close()
        assert playing.result is not None
        margins.append(_margin(variant, playing, labels))
        if playing.bidder is not None:
            label = labels[playing.bidder]
            result.bids[label] += 1
            result.made[label] += playing.result.made
        for sighting in sightings(playing):
            result.habits[labels[sighting.seat]].add(sighting)
    return statistics.fmean(margins)


def _margin(variant: Variant, state: HandState, labels: Sequence[str]) -> float:
    """``a``'s sides' average score less ``b``'s, for one ended hand."""
    assert state.result is not None
    sums = {"a": 0.0, "b": 0.0}
    counts = {"a": 0, "b": 0}
    for side, seats in enumerate(variant.sides):
        label = labels[seats[0]]
        sums[label] += state.result.scores[side]
        counts[label] += 1
    return sums["a"] / counts["a"] - sums["b"] / counts["b"]


def duplicate_match(
    variant: Variant,
    settings: Settings,
    a: str,
    b: str,
    deals: int,
    seed: int,
    make_bot: BotFactory,
    on_deal: Callable[[int], None] | None = None,
    result: MatchResult | None = None,
) -> MatchResult:
    """``deals`` deals, each played twice with the seats swapped (``on_deal`` sees each deal's index).

    Pass ``result`` to see the deals played so far should the match be stopped early.
    """
    master = random.Random(seed)
    if result is None:
        result = MatchResult(variant.id, a, b)
    for number in range(deals):
        state = deal(
            variant, settings, number % variant.seats, random.Random(master.getrandbits(64)), game=number
        )
        bot_rng = random.Random(master.getrandbits(64))
        result.margins.append(play_deal_twice(variant, settings, state, (a, b), make_bot, bot_rng, result))
        if on_deal is not None:
            on_deal(number)
    return result
