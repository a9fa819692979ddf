"""Duplicate matches between two bots: every deal (or whole game) is played twice, the seats swapped.

Luck of the cards cancels out: in the first playing bot ``a`` holds the even seats (side 0 in the
partnership variants, seats 0, 2 and 4 in `six-handed`) and ``b`` the odd ones; in the second the
very same cards are dealt with the bots swapped. A deal's margin is the average, over its two
playings, of ``a``'s sides' average score less ``b``'s. Each deal is one hand from zero totals, and
the dealer moves round the table from deal to deal.

``duplicate_games`` plays whole games to the target instead (``simulate.play_game``): game ``g``'s
hand ``k`` is dealt from a generator seeded with (seed, g, k), so both playings of a game get the
same cards hand by hand for as long as both last. A bot wins a game when the game's winner (§0.7:
the target, `bidder_out`, both there → the bidders) is one of its seats; in `six-handed` co-winners
from both bots make the game shared.
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
from .simulate import BotFactory, play_game, play_hand
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
    games: bool = False  # whole games (``duplicate_games``) rather than single deals
    winners: list[str] = field(default_factory=list)  # per game played: "a", "b" or "shared"
    hands: list[int] = field(default_factory=list)  # per game played: how many hands it took
    auctions: list[str] = field(default_factory=list)  # per deal: who won its two auctions (``auction_kind``)

    def to_json(self) -> dict[str, Any]:
        return self._games_json() if self.games else self._deals_json()

    def paired_values(self) -> list[float]:
        """What a change to a bot is paired on: each deal's margin or, in whole games, ``a``'s share
        of each pair of games (0 to 1, a shared game half a win): the pair holds the same cards."""
        if not self.games:
            return self.margins
        shares = [{"a": 1.0, "b": 0.0, "shared": 0.5}[winner] for winner in self.winners]
        return [(shares[i] + shares[i + 1]) / 2 for i in range(0, len(shares) - 1, 2)]

    def _common_json(self) -> dict[str, Any]:
        return {
            "a_made_rate": _rate(self.made["a"], self.bids["a"]),
            "b_made_rate": _rate(self.made["b"], self.bids["b"]),
            "decision_ms_p50": _percentile(self.a_times, 50),
            "decision_ms_p95": _percentile(self.a_times, 95),
            "habits": {label: tally.to_json() for label, tally in self.habits.items()},
        }

    def _games_json(self) -> dict[str, Any]:
        n = len(self.winners)
        won = {label: self.winners.count(label) for label in ("a", "b", "shared")}
        share = won["a"] + won["shared"] / 2  # a shared game is half a win
        low, high = wilson(share, n)
        return {
            "variant": self.variant,
            "games": n,
            "a": self.a,
            "b": self.b,
            "a_games_won": won["a"],
            "b_games_won": won["b"],
            "games_shared": won["shared"],
            "a_win_rate": round(share / n, 4) if n else None,
            "a_win_ci95": [round(low, 4), round(high, 4)] if n else None,
            "hands_per_game": round(statistics.fmean(self.hands), 2) if n else None,
            **self._pairs_json(),
            **self._common_json(),
        }

    def _pairs_json(self) -> dict[str, int]:
        """How the pairs of games went for ``a``: won both ways, split (each seating won by the bot
        that held it, or shared), lost both ways. A split pair is one the seats' cards decided; a pair
        won both ways is the only kind a change cannot win more of."""
        shares = self.paired_values()
        return {
            "pairs_won_both": sum(1 for share in shares if share == 1),
            "pairs_split": sum(1 for share in shares if 0 < share < 1),
            "pairs_lost_both": sum(1 for share in shares if share == 0),
        }

    def _deals_json(self) -> dict[str, Any]:
        mean, low, high = mean_ci95(self.margins)
        return {
            "variant": self.variant,
            "deals": len(self.margins),
            "a": self.a,
            "b": self.b,
            "margin_per_deal": round(mean, 2),
            "ci95": [round(low, 2), round(high, 2)],
            "by_auction": self._by_auction_json(),
            **self._common_json(),
        }

    def _by_auction_json(self) -> dict[str, dict[str, float]]:
        """Per kind of deal (``AUCTION_KINDS``, those that occurred): how many deals, their mean margin,
        and their part of ``margin_per_deal`` (the parts add up to it): whether a bot's margin comes
        from winning other auctions than the other bot or from playing the same contracts better."""
        found: dict[str, dict[str, float]] = {}
        total = len(self.margins)
        for kind in AUCTION_KINDS:
            # Not strict: a match stopped between a deal's two records leaves its kind without a margin.
            margins = [m for m, k in zip(self.margins, self.auctions, strict=False) if k == kind]
            if margins:
                part = sum(margins) / total
                found[kind] = {
                    "deals": len(margins),
                    "margin": round(statistics.fmean(margins), 2),
                    "part": round(part, 2),
                }
        return found


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval, by the normal approximation (no width from
    fewer than two values; a mean of 0 from none)."""
    n = len(values)
    mean = statistics.fmean(values) if n else 0.0
    half = 1.96 * statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    return mean, mean - half, mean + half


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``successes`` in ``n`` (95 % for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    rate = successes / n
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_difference(
    before: Sequence[float], after: Sequence[float], *, unit: str = "deals", digits: int = 2
) -> dict[str, Any]:
    """How much a change moved the margin, deal by deal: the same deals' margins before and after it
    (the first ``min(len)`` of each), their mean difference with its 95% interval (normal
    approximation) and how many deals changed at all. Whole games are paired the same way, a pair
    of games at a time (``unit`` "pairs", ``MatchResult.paired_values``: a win rate, so more
    ``digits``).

    Pairing is what makes a change's effect measurable: the bots' generators are seeded per deal, so
    a deal where no decision changed scores the same, and the interval is of the per-deal
    difference, far narrower than the two margins' own intervals (over 500 deals, ±0.3 to ±1.6
    points a deal against ±1.5 to ±3)."""
    diffs = [new - old for old, new in zip(before, after, strict=False)]
    mean, low, high = mean_ci95(diffs)
    return {
        unit: len(diffs),
        "difference": round(mean, digits),
        "ci95": [round(low, digits), round(high, digits)],
        f"{unit}_changed": sum(1 for d in diffs if abs(d) > 1e-9),
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
    """Play ``state`` once with ``a`` at the even seats and once at the odd ones; the deal's margin,
    recorded in ``result`` with who won the two auctions (``auction_kind``)."""
    margins = []
    winners: list[tuple[int, str] | None] = []  # per playing: the auction's winning seat and its bot
    for labels in (seat_bots(variant, "a", "b"), seat_bots(variant, "b", "a")):
        bots = _seated(labels, names, make_bot, rng, result)
        playing = state.copy()
        show_deal(bots, playing)
        try:
            play_hand(playing, bots)
        finally:
            for bot in bots:
                bot.close()
        margins.append(_margin(variant, playing, labels))
        _count(playing, labels, result)
        winners.append(None if playing.bidder is None else (playing.bidder, labels[playing.bidder]))
    margin = statistics.fmean(margins)
    result.auctions.append(auction_kind(*winners))
    result.margins.append(margin)
    return margin


# A duplicate deal by who won its two auctions: the same seat (each bot held that contract once, so
# only the bid's level and the play differ), other seats won by ``a``'s bots both times, by ``b``'s
# both times, or by one of each; a playing without a contract (everyone passed, `redeal`).
AUCTION_KINDS = ("same_seat", "a_both", "b_both", "one_each", "no_contract")


def auction_kind(first: tuple[int, str] | None, second: tuple[int, str] | None) -> str:
    """The ``AUCTION_KINDS`` of a deal whose two playings' auctions went to ``first`` and ``second``:
    each the winning seat and its bot (``"a"`` or ``"b"``), or None where nobody took a contract."""
    if first is None or second is None:
        return "no_contract"
    if first[0] == second[0]:
        return "same_seat"
    if first[1] == second[1]:
        return f"{first[1]}_both"
    return "one_each"


def play_game_twice(
    variant: Variant,
    settings: Settings,
    dealer_of: Callable[[int], random.Random],
    names: tuple[str, str],
    make_bot: BotFactory,
    rng: random.Random,
    result: MatchResult,
    *,
    game: int = 0,
) -> None:
    """A whole game with ``a`` at the even seats, then again at the odd ones, hand ``k`` of both
    dealt from ``dealer_of(k)``; each game's winner and length go into ``result``."""
    for labels in (seat_bots(variant, "a", "b"), seat_bots(variant, "b", "a")):
        bots = _seated(labels, names, make_bot, rng, result)
        hands = 0
        try:
            for playing in play_game(variant, settings, bots, dealer_of, game=game):
                hands += 1
                _count(playing, labels, result)
        finally:
            for bot in bots:
                bot.close()
        assert playing.result is not None
        won = {labels[variant.sides[side][0]] for side in playing.result.winners}
        result.winners.append(won.pop() if len(won) == 1 else "shared")
        result.hands.append(hands)


def show_deal(bots: Sequence[Bot], state: HandState) -> None:
    """Show the whole deal to the bots that measure a ceiling by seeing it (``see_deal``: the
    ``oracle-auction`` bot). Only this harness does; a table never shows a seat the others' cards."""
    for bot in bots:
        inner = bot.bot if isinstance(bot, TimedBot) else bot
        see = getattr(inner, "see_deal", None)
        if see is not None:
            see(state)


def _seated(
    labels: Sequence[str],
    names: tuple[str, str],
    make_bot: BotFactory,
    rng: random.Random,
    result: MatchResult,
) -> list[Bot]:
    """A bot per seat as ``labels`` seats them, bot ``a``'s decisions timed into ``result``."""
    bots: list[Bot] = []
    for seat, label in enumerate(labels):
        bot = make_bot(names[label == "b"], seat, random.Random(rng.getrandbits(64)))
        bots.append(TimedBot(bot, result.a_times) if label == "a" else bot)
    return bots


def _count(state: HandState, labels: Sequence[str], result: MatchResult) -> None:
    """An ended hand's contract (made or not) and habits, under the bot that showed them."""
    assert state.result is not None
    if state.bidder is not None:
        label = labels[state.bidder]
        result.bids[label] += 1
        result.made[label] += state.result.made
    for sighting in sightings(state):
        result.habits[labels[sighting.seat]].add(sighting)


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
        play_deal_twice(variant, settings, state, (a, b), make_bot, bot_rng, result)
        if on_deal is not None:
            on_deal(number)
    return result


def duplicate_games(
    variant: Variant,
    settings: Settings,
    a: str,
    b: str,
    games: int,
    seed: int,
    make_bot: BotFactory,
    on_game: Callable[[int], None] | None = None,
    result: MatchResult | None = None,
) -> MatchResult:
    """``games`` whole games, each played twice with the seats swapped (``on_game`` sees each
    pair's index); hand ``k`` of game ``g`` is dealt from a generator seeded with (seed, g, k).

    Pass ``result`` to see the games played so far should the match be stopped early.
    """
    master = random.Random(seed)
    if result is None:
        result = MatchResult(variant.id, a, b, games=True)
    for number in range(games):

        def dealer_of(k: int, g: int = number) -> random.Random:
            return random.Random(f"{seed}:{g}:{k}")

        bot_rng = random.Random(master.getrandbits(64))
        play_game_twice(variant, settings, dealer_of, (a, b), make_bot, bot_rng, result, game=number)
        if on_game is not None:
            on_game(number)
    return result
