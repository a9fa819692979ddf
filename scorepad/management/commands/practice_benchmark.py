"""``manage.py practice_benchmark``: how long a practice page waits on the bots, per player action.

Plays whole practice hands through the service layer, exactly as the web does (``practice_start``,
``practice_act``, ``practice_next_hand``: state from JSON, bots to the player's seat, state back to
JSON), the player's seat answered by the `heuristic` bot. Each write's time in the bots
(``Outcome.bot_seconds``) is one sample, and so is the whole write (database included). Prints
p50, p95 and the worst, per variant; then, per stage (bid, trump, pass, concede, play), the bots'
CPU time per player action in that stage: the sum, over the bots that decided in that stage
between two of the player's decisions, of each decision's CPU time (``Move.cpu_seconds``, one
core's worth whatever else the machine runs). Everything runs in a transaction that is rolled back.

A last line gives the machine's speed as ``expert_benchmark`` reads it: classic playouts per CPU
second, the best of three short runs. Machines here differ by a third or more, so figures from two
runs compare through it.
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import DatabaseError, transaction

from pinochle_site.tools.benchmarks.expert_benchmark import playout_speed
from scorepad.engine.answers import ANSWER_KEYS, answer_json, read_form_answer
from scorepad.engine.bots import PRACTICE_STRENGTHS, make_bot
from scorepad.engine.game import from_json, seat_view
from scorepad.engine.match import percentile
from scorepad.engine.variants import VARIANTS
from scorepad.engine.view import Decision
from scorepad.management.base import EngineCommand
from scorepad.models import PracticeGame
from scorepad.services.practice import (
    DEFAULT_STRENGTH,
    PLAYER,
    practice_act,
    practice_next_hand,
    practice_start,
)

YARDSTICK_HANDS = 1000  # classic playouts timed for the machine's speed, the best of three runs:
YARDSTICK_RUNS = 3  # its speed when least disturbed by whatever else the shared machine runs


class Command(EngineCommand):
    help = "Time the bots' turns of practice games (p50/p95 per player action), per variant."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=50, help="hands per variant (default 50)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
        parser.add_argument("--variant", choices=list(VARIANTS), help="only this variant")
        parser.add_argument(
            "--strength",
            choices=PRACTICE_STRENGTHS,
            default=DEFAULT_STRENGTH,
            help="the bots (default heuristic)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["hands"] < 1:
            raise CommandError(f"--hands must be at least 1; got {options['hands']}")
        variants = [options["variant"]] if options["variant"] else list(VARIANTS)
        for variant in variants:
            try:
                with transaction.atomic():
                    bots, writes, stages = play(
                        variant, options["hands"], options["seed"], options["strength"]
                    )
                    transaction.set_rollback(True)
            except DatabaseError as error:
                raise CommandError(
                    f"the database is not ready ({error}): run manage.py migrate first"
                ) from None
            self.stdout.write(
                f"{variant:<12} {options['strength']:<10} {len(bots):>5} actions   bots p50 {ms(bots, 50)}"
                f"  p95 {ms(bots, 95)}  max {max(bots) * 1000:7.1f} ms   whole write p95 {ms(writes, 95)}"
            )
            for stage in Decision:
                if samples := stages.get(stage):
                    self.stdout.write(
                        f"  {stage:<21} {len(samples):>5} actions   bots CPU p50 {ms(samples, 50)}"
                        f"  p95 {ms(samples, 95)}  max {max(samples) * 1000:7.1f} ms"
                    )
        classic = VARIANTS["classic"]
        speed = max(
            playout_speed(classic, YARDSTICK_HANDS, seed=1)["per_cpu_second"] for _ in range(YARDSTICK_RUNS)
        )
        self.stdout.write(f"machine: {speed:,.0f} classic playouts per CPU second (expert_benchmark's)")


def play(
    variant: str, hands: int, seed: int, strength: str
) -> tuple[list[float], list[float], dict[Decision, list[float]]]:
    """Bot seconds and whole-write seconds of every player action over ``hands`` hands, and per
    stage the bots' CPU seconds in that stage of every player action whose bots decided in it."""
    bots: list[float] = []
    writes: list[float] = []
    stages: dict[Decision, list[float]] = {}
    player = make_bot("heuristic", PLAYER, random.Random(seed))
    game: PracticeGame = practice_start(user=None, variant_id=variant, strength=strength, seed=seed)
    played = 0
    while played < hands:
        state = from_json(game.state)
        started = time.perf_counter()
        if state.result is not None:
            played += 1
            if game.finished:
                game = practice_start(user=None, variant_id=variant, strength=strength, seed=seed + played)
                continue
            outcome = practice_next_hand(game=game, version=game.version)
        else:
            view = seat_view(state, PLAYER)
            answer = answer_json(view.decision, player.decide(view))
            data = {ANSWER_KEYS[view.decision]: "pass" if answer is None else answer}
            outcome = practice_act(game=game, version=game.version, answer=read_form_answer(view, data))
        writes.append(time.perf_counter() - started)
        bots.append(outcome.bot_seconds)
        per_stage: dict[Decision, float] = {}
        for move in outcome.moves:
            stage = Decision(move.decision)
            per_stage[stage] = per_stage.get(stage, 0.0) + move.cpu_seconds
        for stage, seconds in per_stage.items():
            stages.setdefault(stage, []).append(seconds)
        game = outcome.game
    return bots, writes, stages


def ms(samples: list[float], percent: int) -> str:
    return f"{percentile(samples, percent) * 1000:7.1f} ms"
