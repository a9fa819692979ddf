"""``manage.py find_puzzles``: find puzzles in the steady bots' hands, offline (never in a request).

    python manage.py find_puzzles --variant classic --limit 320 --out scorepad/data/puzzles/classic.json
    python manage.py find_puzzles --variant six-handed --seed 1 --limit 3

Hands are scanned from game index 0 up, each on its own generator (``engine.puzzles.scan_game``),
until ``--limit`` puzzles are found: the same seed gives the same puzzles in the same order, so
``--limit 3`` finds exactly the first three of a set made with ``--limit 320``. With ``--out`` the
set is written as the JSON file the site ships; without it each puzzle is printed as one JSON line.
A summary (games scanned, puzzles per theme, CPU seconds) goes to stderr.
"""

from __future__ import annotations

import json
import sys
import time
from argparse import ArgumentParser
from collections import Counter
from collections.abc import Iterator
from itertools import count, islice
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from scorepad.engine import puzzles
from scorepad.engine.variants import SettingsError, get_variant
from scorepad.management.base import EngineCommand


class Command(EngineCommand):
    help = "Find puzzles (one answer clearly best) in seeded bot hands; write the shipped set with --out."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--variant", required=True, help="classic, double-deck or six-handed")
        parser.add_argument("--seed", type=int, default=1, help="the same seed finds the same puzzles")
        parser.add_argument("--limit", type=int, default=300, help="stop after this many puzzles")
        parser.add_argument("--out", help="write the set to this JSON file (else one JSON line each)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            variant = get_variant(options["variant"])
        except SettingsError as error:
            raise CommandError(str(error)) from None
        limit, seed = options["limit"], options["seed"]
        if limit < 1:
            raise CommandError(f"--limit must be at least 1; got {limit}")
        started = time.process_time()
        scanned = 0
        found: list[puzzles.Puzzle] = []
        tally: Counter[str] = Counter()

        def games() -> Iterator[puzzles.Puzzle]:
            nonlocal scanned
            for game in count():
                scanned = game + 1
                yield from puzzles.scan_game(variant, seed, game, tally)

        for puzzle in islice(games(), limit):
            found.append(puzzle)
            if options["out"] is None:
                self.stdout.write(json.dumps(puzzle.to_json(), separators=(",", ":")))
            elif len(found) % 20 == 0:
                sys.stderr.write(f"\r{variant.id}: {len(found)}/{limit} puzzles, {scanned} hands")
        cpu = time.process_time() - started
        if options["out"] is not None:
            write_set(Path(options["out"]), variant.id, seed, scanned, found)
        themes = Counter(p.theme for p in found)
        summary = {
            "variant": variant.id,
            "seed": seed,
            "hands_scanned": scanned,
            "seat_decisions": tally["decisions"],
            "positions_weighed": tally["weighed"],
            "past_the_screen": tally["screened"],
            "clear": tally["clear"],
            "puzzles": len(found),
            "themes": dict(sorted(themes.items())),
            "decisions": dict(sorted(Counter(p.decision for p in found).items())),
            "difficulties": dict(sorted(Counter(p.difficulty for p in found).items())),
            "cpu_seconds": round(cpu, 1),
        }
        sys.stderr.write("\n" + json.dumps(summary) + "\n")


def write_set(path: Path, variant: str, seed: int, scanned: int, found: list[puzzles.Puzzle]) -> None:
    data = {
        "variant": variant,
        "seed": seed,
        "hands_scanned": scanned,
        "best_share": puzzles.BEST_SHARE,
        "margin_counters": puzzles.MARGIN_COUNTERS,
        "deals": puzzles.FIND_DEALS,
        "found_share": puzzles.FIND_SHARE,
        "found_margin_part": puzzles.FIND_MARGIN_PART,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(puzzles.set_text(data, found))
