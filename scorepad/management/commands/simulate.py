"""``manage.py simulate``: bots play whole games; each hand is logged as a RULES.md §9.5 line.

    python manage.py simulate --variant classic --games 100 --seed 1 --bots heuristic --log games.jsonl
    python manage.py simulate --replay games.jsonl

House rules go in ``--house-rules JSON`` (§4 keys): ``--settings`` belongs to manage.py.

The last line on stdout is one JSON object: ``variant, games, hands, seconds, hands_per_second,
bid_made_rate`` (or ``replayed, hands_checked`` for ``--replay``). The same seed, bots and
settings write a byte-identical log. Bad arguments exit non-zero with one line on stderr.
"""

from __future__ import annotations

import json
import random
import sys
from argparse import ArgumentParser
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from django.core.management.base import CommandError

from scorepad.engine.bots import make_bot
from scorepad.engine.game import HandState
from scorepad.engine.log import ReplayError, dumps, hand_line, replay_log
from scorepad.engine.simulate import GameStopped, simulate
from scorepad.engine.variants import Variant
from scorepad.management.base import EngineCommand, progress_bar, variant_rules


class Command(EngineCommand):
    help = "Play whole games between bots and log every hand (RULES.md §9.5); or replay such a log."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--variant", help="classic, double-deck or six-handed")
        parser.add_argument("--games", type=int, default=1, help="how many whole games (default 1)")
        parser.add_argument("--seed", type=int, default=0, help="the same seed plays the same games")
        parser.add_argument(
            "--bots", default="heuristic", help="one bot for every seat, or one per seat, comma-separated"
        )
        # Not --settings: manage.py itself reads that option as the Django settings module.
        parser.add_argument(
            "--house-rules", default="{}", help="§4 settings as JSON, e.g. '{\"pass_cards\": 0}'"
        )
        parser.add_argument("--log", help="write each hand as a §9.5 JSON line to this file")
        parser.add_argument("--replay", help="replay a log written by --log and check every hand")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["replay"]:
            self._replay(Path(options["replay"]))
            return
        variant, settings = variant_rules(options["variant"], options["house_rules"])
        if options["games"] < 1:
            raise CommandError(f"--games must be at least 1; got {options['games']}")
        names = _bot_names(options["bots"], variant)
        log = _open_log(options["log"])
        try:
            summary = simulate(
                variant,
                settings,
                names,
                options["games"],
                options["seed"],
                make_bot,
                on_hand=_hand_writer(log, self._progress(options["games"])),
            )
        except (GameStopped, ValueError) as error:  # bots.BotError is a ValueError
            raise CommandError(str(error)) from None
        finally:
            if log is not None:
                log.close()
        if sys.stderr.isatty():
            sys.stderr.write("\n")
        self.stdout.write(json.dumps(summary.to_json()))

    def _replay(self, path: Path) -> None:
        try:
            with path.open(encoding="utf-8") as lines:
                checked = replay_log(lines)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        except ReplayError as error:
            raise CommandError(f"{path}: {error}") from None
        self.stdout.write(json.dumps({"replayed": str(path), "hands_checked": checked}))

    def _progress(self, games: int) -> Callable[[HandState], None]:
        """A one-line progress bar on stderr, only when a person is watching it."""
        if not sys.stderr.isatty():
            return lambda state: None

        bar = progress_bar(games, "game")

        def show(state: HandState) -> None:
            if state.result is not None and state.result.winners:
                bar(state.game)

        return show


def _bot_names(text: str, variant: Variant) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if len(names) == 1:
        names *= variant.seats
    if len(names) != variant.seats:
        raise CommandError(f"--bots names {len(names)} bots; {variant.id} has {variant.seats} seats")
    for seat, name in enumerate(names):
        try:
            make_bot(name, seat, random.Random(0)).close()  # outside programs start on first use
        except ValueError as error:
            raise CommandError(f"--bots: {error}") from None
    return names


def _open_log(path: str | None) -> TextIO | None:
    if not path:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror}") from None


def _hand_writer(log: TextIO | None, progress: Callable[[HandState], None]) -> Callable[[HandState], None]:
    def on_hand(state: HandState) -> None:
        if log is not None:
            log.write(dumps(hand_line(state)) + "\n")
        progress(state)

    return on_hand
