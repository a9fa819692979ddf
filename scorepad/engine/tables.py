"""Private tables' bots: several people at one table, bots in the other seats (and in a seat whose
player is away), on the practice engine.

Like ``engine.practice``, JSON in and JSON out and nothing but the engine, so ``scorepad.bot_pool``
can run it in its bot process. The bots' randomness is fixed by the table's seed, the moves so far
and the seat, so the same state always plays on the same way, wherever it runs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from .bots import make_bot
from .game import HandState, from_json, to_json
from .practice import PlayedOn
from .simulate import Move, advance_until
from .view import Bot


def moves_made(state: HandState) -> int:
    """Decisions taken so far in the hand: what seeds a bot's randomness for its next one."""
    return len(state.auction) + len(state.passes) + len(state.tricks) * state.variant.seats + len(state.trick)


def table_bots(strengths: Mapping[int, str], seed: int, state: HandState) -> dict[int, Bot]:
    """A bot for each seat in ``strengths`` (seat: strength), seeded as practice seeds its bots."""
    moves = moves_made(state)
    return {
        seat: make_bot(
            strength,
            seat,
            random.Random(f"{seed}:bot:{state.hand_number}:{moves}:{seat}"),
            analysis_seed=f"{seed}:analysis:{state.hand_number}:{seat}",
        )
        for seat, strength in strengths.items()
    }


def play_on(state: dict[str, Any], strengths: dict[int, str], seed: int) -> PlayedOn:
    """The bots of ``strengths`` (seat: strength) play on from ``state`` until a seat without a
    bot must decide or the hand is over. ``simulate.GameStopped`` if a bot breaks the rules."""
    hand = from_json(state)
    started = time.perf_counter()
    moves = play_on_hand(hand, strengths, seed)
    return PlayedOn(to_json(hand), moves, time.perf_counter() - started)


def play_on_hand(hand: HandState, strengths: dict[int, str], seed: int) -> tuple[Move, ...]:
    """``play_on`` on a parsed state, changed in place: for bots that play in the request's own
    thread (no JSON to cross a process with, so the table's state is parsed and written once)."""
    people = set(range(hand.variant.seats)) - set(strengths)
    return tuple(advance_until(hand, table_bots(strengths, seed, hand), stop_at=people))
