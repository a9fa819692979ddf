"""``manage.py check_puzzles``: weigh every shipped puzzle's answer again on a larger sample.

    python manage.py check_puzzles                      # every variant, 800 fresh deals a puzzle
    python manage.py check_puzzles --variant classic --deals 200

Each puzzle's answers are weighed on ``--deals`` deals drawn afresh (a generator of their own, not
the finder's), as the finder weighed them. A puzzle *agrees* when its shipped answer is still the
best on average; it is *still clear* when it also still passes both thresholds (best on 90% of
the deals, ahead by two of the least counter). One JSON line per variant, then the totals; with
``--list`` each puzzle that is no longer clear is named on stderr. Offline, and slow: run it niced.

With ``--reword`` nothing is weighed: every shipped puzzle's words are built again from its
position and stored values (``engine.puzzles.reworded``), a puzzle whose answer another answer ties
is dropped, and the files are written back; one JSON line a variant gives its puzzles before and
after, how many were reworded and the keys dropped.
"""

from __future__ import annotations

import json
import sys
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from scorepad.engine.puzzles import CHECK_DEALS, Puzzle, recheck, reworded, set_text, ties_the_answer
from scorepad.engine.variants import VARIANTS
from scorepad.management.base import EngineCommand
from scorepad.selectors.puzzles import DATA_DIR, shipped


class Command(EngineCommand):
    help = "Weigh every shipped puzzle's answer again on a larger sample; print the agreement rate."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--variant", help="one variant (default: every variant with puzzles)")
        parser.add_argument(
            "--deals", type=int, default=CHECK_DEALS, help=f"deals a puzzle (default {CHECK_DEALS})"
        )
        parser.add_argument("--seed", type=int, default=1, help="the check's own generator")
        parser.add_argument("--first", type=int, default=0, help="check only the first N puzzles of each")
        parser.add_argument("--list", action="store_true", help="name each puzzle no longer clear")
        parser.add_argument(
            "--reword",
            action="store_true",
            help="no weighing: say every shipped puzzle again, write the files",
        )
        parser.add_argument("--dir", default=str(DATA_DIR), help="the sets' folder, for --reword")

    def handle(self, *args: Any, **options: Any) -> None:
        variants = [options["variant"]] if options["variant"] else list(VARIANTS)
        for variant in variants:
            if variant not in VARIANTS:
                raise CommandError(f"no variant {variant!r}: choose one of {', '.join(VARIANTS)}")
        if options["reword"]:
            for variant in variants:
                self.stdout.write(json.dumps(reword_set(Path(options["dir"]), variant)))
            return
        if options["deals"] < 10:
            raise CommandError(f"--deals must be at least 10; got {options['deals']}")
        totals = {"puzzles": 0, "agree": 0, "still_clear": 0}
        for variant in variants:
            found = shipped(variant)
            if options["first"]:
                found = found[: options["first"]]
            started = time.process_time()
            agree = clear = 0
            for puzzle in found:
                again = recheck(puzzle, options["seed"], options["deals"])
                agree += again.agrees
                clear += again.clear
                if options["list"] and not again.clear:
                    sys.stderr.write(
                        f"{puzzle.key}: shipped {puzzle.answer}, now {again.best} best on"
                        f" {again.share:.0%} of the deals, ahead by {again.margin:.2f}\n"
                    )
            line = {
                "variant": variant,
                "puzzles": len(found),
                "agree": agree,
                "agreement_rate": round(agree / len(found), 4) if found else None,
                "still_clear": clear,
                "still_clear_rate": round(clear / len(found), 4) if found else None,
                "deals": options["deals"],
                "cpu_seconds": round(time.process_time() - started, 1),
            }
            self.stdout.write(json.dumps(line))
            totals["puzzles"] += len(found)
            totals["agree"] += agree
            totals["still_clear"] += clear
        n = totals["puzzles"]
        summary = {
            **totals,
            "agreement_rate": round(totals["agree"] / n, 4) if n else None,
            "still_clear_rate": round(totals["still_clear"] / n, 4) if n else None,
        }
        self.stdout.write(json.dumps({"total": summary}))


def reword_set(folder: Path, variant: str) -> dict[str, Any]:
    """Say a variant's puzzles again and write its file in ``folder`` back (a variant without one
    is left alone); what changed, as the command prints it."""
    path = folder / f"{variant}.json"
    if not path.exists():
        return {"variant": variant, "before": 0, "after": 0, "reworded": 0, "dropped": []}
    data = json.loads(path.read_text())
    before = [Puzzle.from_json(item) for item in data.pop("puzzles")]
    again = [reworded(p) for p in before]
    kept = [p for p in again if not ties_the_answer(p)]
    path.write_text(set_text(data, kept))
    return {
        "variant": variant,
        "before": len(before),
        "after": len(kept),
        "reworded": sum(1 for old, new in zip(before, again, strict=True) if old != new),
        "dropped": [p.key for p in again if ties_the_answer(p)],
    }
