"""Practice mode's bots: from a stored state, the bots play on until the player must decide.

JSON in, JSON out, and nothing but the engine, so the web can run it in another process
(``scorepad.bot_pool``) as well as in its own. The bots' randomness is fixed by the game's seed
and the moves made so far, so the same state always plays on the same way, wherever it runs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from .bots import HINT_BOT, ExpertBot, make_bot
from .game import HandState, from_json, seat_view, to_json
from .log import hand_line
from .review import REVIEW_CAP_MS, REVIEW_PLAYOUTS, Verdict, expert_duplicate, review_hand
from .simulate import Move, advance_until
from .view import Answer, Bot

PLAYER = 0  # the player's seat; partners sit opposite
_measuring: ContextVar[bool] = ContextVar("measuring", default=False)


@dataclass(frozen=True, slots=True)
class PlayedOn:
    """The state once the bots have played on (``to_json``), their moves, and the time taken."""

    state: dict[str, Any]
    moves: tuple[Move, ...]
    seconds: float


def practice_bots(strength: str, seed: int, state: HandState) -> dict[int, Bot]:
    """The bots for every seat but the player's, their randomness fixed by the seed and the moves so
    far; the expert's bid analysis by the seed, the hand and the seat alone, so that one analysis
    (kept in the process's cache) serves each bot's every bid and trump choice of the hand."""
    moves = (
        len(state.auction) + len(state.passes) + len(state.tricks) * state.variant.seats + len(state.trick)
    )
    return {
        seat: make_bot(
            strength,
            seat,
            random.Random(f"{seed}:bot:{state.hand_number}:{moves}:{seat}"),
            analysis_seed=f"{seed}:analysis:{state.hand_number}:{seat}",
        )
        for seat in range(1, state.variant.seats)
    }


def play_on(state: dict[str, Any], strength: str, seed: int) -> PlayedOn:
    """The bots of ``strength`` play on from ``state`` until the player must decide or the hand
    is over. ``simulate.GameStopped`` if a bot breaks the rules."""
    hand = from_json(state)
    started = time.perf_counter()
    moves = advance_until(hand, practice_bots(strength, seed, hand), stop_at={PLAYER})
    return PlayedOn(to_json(hand), tuple(moves), time.perf_counter() - started)


def measured[T](function: Callable[..., T], args: tuple[object, ...]) -> tuple[T, float]:
    """``function(*args)`` and the CPU seconds it took in the thread that ran it (a bot process's,
    or a request's): what the web charges the visitor for a search (``scorepad.bot_pool``)."""
    token = _measuring.set(True)
    started = time.thread_time()
    try:
        return function(*args), time.thread_time() - started
    finally:
        _measuring.reset(token)


def measuring() -> bool:
    """Whether this runs inside ``measured``: how a test sees that a search ran where it should."""
    return _measuring.get()


# -- what a request asks the bots beyond their moves --------------------------------------------
# Each takes and returns plain values (JSON state, numbers, answers), so that ``bot_pool`` can run
# it in its lower-priority process as well as in the request's thread.


def hint(state: dict[str, Any], seed: int, version: int) -> tuple[Answer, str | None]:
    """What the strongest bot (``HINT_BOT``) would answer in the player's seat, and its own
    one-line reason when it gives one; seeded by the game and its version, so asking again for
    the same position gives the same hint."""
    view = seat_view(from_json(state), PLAYER)
    bot = make_bot(HINT_BOT, PLAYER, random.Random(f"{seed}:hint:{version}"))
    answer, reason = bot.explain(view)
    return answer, reason or None


@dataclass(frozen=True, slots=True)
class ConcedeWeights:
    """What throwing the hand in and playing on are worth to the player's side, and which the
    expert would choose (§4 ``bidder_may_concede``)."""

    forfeit: int
    playing_on: int
    throw_in: bool


def weigh_concession(state: dict[str, Any], seed: int, version: int) -> ConcedeWeights:
    """The expert's weighing of the player's throw-in decision, with a review's playouts."""
    rng = random.Random(f"{seed}:concede:{version}")
    expert = ExpertBot(PLAYER, rng, playouts=REVIEW_PLAYOUTS, budget_ms=REVIEW_CAP_MS)
    choice = expert.evaluate(seat_view(from_json(state), PLAYER))
    return ConcedeWeights(round(choice.scores[True]), round(choice.scores[False]), bool(choice.answer))


@dataclass(frozen=True, slots=True)
class ReviewSlice:
    """A review worked out one slice further: every verdict so far (``Verdict.to_json``), whether
    each decision is weighed, and once it is, the expert's duplicate of the deal (a §9.5 line)."""

    verdicts: tuple[dict[str, Any], ...]
    finished: bool
    duplicate: dict[str, Any] | None
    cpu_seconds: float


def review_slice(
    line: dict[str, Any],
    review_seed: str,
    verdicts: tuple[dict[str, Any], ...],
    finished: bool,
    cpu_seconds: float,
    strength: str,
    seed: int,
    duplicate_playouts: int,
) -> ReviewSlice:
    """One slice more of the player's review of the logged hand ``line``: decisions weighed for
    about ``cpu_seconds`` (one at least); once all are, the deal played by the expert in the
    player's seat and the game's own bots (``strength``, ``seed``) around it."""
    started = time.process_time()
    done = tuple(Verdict.from_json(v) for v in verdicts)
    duplicate = None
    if not finished:
        weighed, finished = review_hand(line, PLAYER, seed=review_seed, done=done, cpu_seconds=cpu_seconds)
        verdicts = tuple(v.to_json() for v in weighed)
    else:
        rng = random.Random(f"{review_seed}:duplicate")
        expert = ExpertBot(PLAYER, rng, playouts=duplicate_playouts, budget_ms=REVIEW_CAP_MS)
        played = expert_duplicate(line, PLAYER, expert, lambda hand: practice_bots(strength, seed, hand))
        duplicate = hand_line(played)
    return ReviewSlice(verdicts, finished, duplicate, time.process_time() - started)
