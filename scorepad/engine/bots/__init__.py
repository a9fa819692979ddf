"""Bots that play a seat from its §9.6 ``SeatView``: `random`, `easy`, `heuristic`, `expert` and
outside programs.

``make_bot`` turns a bot's name, as a command line or a form gives it, into a ``Bot``.
"""

from __future__ import annotations

import random

from ..view import Bot
from .common import BotError, check_answer
from .easy import EasyBot
from .expert import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, ExpertBot
from .heuristic import HeuristicBot
from .outside import OutsideBot
from .random_bot import RandomBot

__all__ = [
    "BOT_CHOICES",
    "DEFAULT_BUDGET_MS",
    "DEFAULT_PLAYOUTS",
    "HINT_BOT",
    "PRACTICE_STRENGTHS",
    "RULE_OF_THUMB_STRENGTHS",
    "BotError",
    "EasyBot",
    "ExpertBot",
    "HeuristicBot",
    "OutsideBot",
    "RandomBot",
    "check_answer",
    "make_bot",
]

OUTSIDE_PREFIX = "cmd:"
BOT_CHOICES = ("random", "easy", "heuristic", "expert", f"{OUTSIDE_PREFIX}PROGRAM ARGS")

# The only bots the web may start, weakest first: never ``cmd:`` (that runs a program on the
# server). Practice mode offers these as strengths; hints come from HINT_BOT, the strongest.
PRACTICE_STRENGTHS: tuple[str, ...] = ("easy", "heuristic", "expert")
HINT_BOT = PRACTICE_STRENGTHS[-1]
# The bots that decide by rules of thumb and search nothing: a whole hand of theirs takes a few
# milliseconds (the expert weighs each decision for most of a second).
RULE_OF_THUMB_STRENGTHS = frozenset({"random", "easy", "heuristic"})
# The expert bidding for the hand alone, blind to the score: only to measure score awareness against.
HAND_ONLY_EXPERT = "expert-hand-only"


def make_bot(
    name: str,
    seat: int,
    rng: random.Random,
    timeout: float = 10.0,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    budget_ms: float = DEFAULT_BUDGET_MS,
    analysis_seed: str | None = None,
) -> Bot:
    """The bot called ``name`` for ``seat``; ``rng`` drives the random, easy and expert bots,
    ``timeout`` outside ones, ``playouts`` and ``budget_ms`` the expert's work per decision,
    ``analysis_seed`` its bid analysis (``ExpertBot``: one per hand, cached in the process)."""
    if name == "random":
        return RandomBot(seat, rng)
    if name == "easy":
        return EasyBot(seat, rng)
    if name == "heuristic":
        return HeuristicBot(seat)
    if name in ("expert", HAND_ONLY_EXPERT):
        aware = name == "expert"
        return ExpertBot(
            seat, rng, playouts=playouts, budget_ms=budget_ms, score_aware=aware, analysis_seed=analysis_seed
        )
    if name.startswith(OUTSIDE_PREFIX):
        return OutsideBot(name.removeprefix(OUTSIDE_PREFIX), seat, timeout)
    raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_CHOICES)}")
