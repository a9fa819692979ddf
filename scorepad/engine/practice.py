"""Practice mode's bots: from a stored state, the bots play on until the player must decide.

JSON in, JSON out, and nothing but the engine, so the web can run it in another process
(``scorepad.bot_pool``) as well as in its own. The bots' randomness is fixed by the game's seed
and the moves made so far, so the same state always plays on the same way, wherever it runs.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from .bots import make_bot
from .game import HandState, from_json, to_json
from .simulate import Move, advance_until
from .view import Bot

PLAYER = 0  # the player's seat; partners sit opposite


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
