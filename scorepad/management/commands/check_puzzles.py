"""``manage.py check_puzzles``: every shipped puzzle under two weighings, and whether it is a warm-up.

    python manage.py check_puzzles --variant classic --first 20
    python manage.py check_puzzles --deals 0 --exact-deals 100     # the exact check alone

For each puzzle, one JSON line:

* the finder's verdict: the shipped answer, its share and lead on the finder's own deals;
* with ``--deals`` (800 unless 0): the finder's weighing again on that many fresh deals
  (``engine.puzzles.recheck``): whether the answer is still the best on average (``agree``) and
  still clear (best on 90% of the deals, ahead by two of the least counter);
* with ``--exact-deals`` (100 unless 0): the exact check (``engine.puzzles.exact_check``): the
  deeper weighing (each play's rest searched exactly where affordable, the blind policy before)
  on fresh deals the finder never used, its best answer, share, lead, whether it agrees with the
  finder's and is clear there;
* ``missed_by``: which of the app's own bots answer it wrong (the easy one, the steady one, the
  expert at ``--warm-up-playouts``): none, and the puzzle is a warm-up.

Then one line a variant: the share of its puzzles on which each check agrees, the warm-up share
and the count of real decisions (puzzles some bot misses), the CPU it took; then the totals. With
``--list`` each puzzle no longer clear is named on stderr. Offline, and slow (the exact check costs
about half a second of CPU a deal and an answer early in a classic hand): run it niced.

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
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from scorepad.engine.puzzles import (
    CHECK_DEALS,
    EXACT_CHECK_DEALS,
    WARM_UP_PLAYOUTS,
    Puzzle,
    Recheck,
    bots_missing,
    exact_check,
    recheck,
    reworded,
    set_text,
    ties_the_answer,
)
from scorepad.engine.variants import VARIANTS
from scorepad.management.base import EngineCommand
from scorepad.selectors.puzzles import DATA_DIR, shipped

LEAST_DEALS = 10  # fewer deals say nothing about a share of 90%


class Command(EngineCommand):
    help = "Weigh every shipped puzzle again, by the finder's weighing and an exact check; count warm-ups."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--variant", help="one variant (default: every variant with puzzles)")
        parser.add_argument(
            "--deals",
            type=int,
            default=CHECK_DEALS,
            help=f"fresh deals for the finder's weighing, 0 for none (default {CHECK_DEALS})",
        )
        parser.add_argument(
            "--exact-deals",
            type=int,
            default=EXACT_CHECK_DEALS,
            help=f"fresh deals for the exact check, 0 for none (default {EXACT_CHECK_DEALS})",
        )
        parser.add_argument(
            "--warm-up-playouts",
            type=int,
            default=WARM_UP_PLAYOUTS,
            help=f"the low-budget expert's playouts (default {WARM_UP_PLAYOUTS})",
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
        for name in ("deals", "exact_deals"):
            if options[name] and options[name] < LEAST_DEALS:
                flag = "--" + name.replace("_", "-")
                raise CommandError(f"{flag} must be 0 or at least {LEAST_DEALS}; got {options[name]}")
        if options["warm_up_playouts"] < 1:
            raise CommandError(f"--warm-up-playouts must be at least 1; got {options['warm_up_playouts']}")
        totals: Counter[str] = Counter()
        for variant in variants:
            found = shipped(variant)
            if options["first"]:
                found = found[: options["first"]]
            tally = self.check_set(found, options)
            self.stdout.write(json.dumps({"variant": variant, **summary(tally, options)}))
            totals.update(tally)
        self.stdout.write(json.dumps({"total": summary(totals, options)}))

    def check_set(self, found: Sequence[Puzzle], options: dict[str, Any]) -> Counter[str]:
        """Each puzzle's line written; the counts the variant's line is made of."""
        tally: Counter[str] = Counter()
        started = time.process_time()
        for puzzle in found:
            line = check_one(puzzle, options)
            self.stdout.write(json.dumps(line))
            tally["puzzles"] += 1
            tally["real_decisions"] += bool(line["missed_by"])
            for check in ("recheck", "exact"):
                if check in line:
                    tally[f"{check}_agree"] += line[check]["agree"]
                    tally[f"{check}_clear"] += line[check]["clear"]
                    if options["list"] and not line[check]["clear"]:
                        sys.stderr.write(f"{puzzle.key}: {check}: {json.dumps(line[check])}\n")
        tally["cpu_ms"] += round(1000 * (time.process_time() - started))
        return tally


def check_one(puzzle: Puzzle, options: dict[str, Any]) -> dict[str, Any]:
    """One puzzle's line: the finder's verdict, each check's, the bots that miss it."""
    line: dict[str, Any] = {
        "puzzle": puzzle.key,
        "decision": puzzle.decision,
        "finder": {
            "best": puzzle.answer,
            "share": puzzle.share,
            "margin": puzzle.margin,
            "deals": puzzle.deals,
        },
    }
    if options["deals"]:
        line["recheck"] = _verdict(recheck(puzzle, options["seed"], options["deals"]))
    if options["exact_deals"]:
        line["exact"] = _verdict(exact_check(puzzle, options["seed"], options["exact_deals"]))
    line["missed_by"] = bots_missing(puzzle, options["warm_up_playouts"])
    return line


def _verdict(check: Recheck) -> dict[str, Any]:
    return {
        "best": check.best,
        "share": round(check.share, 3),
        "margin": round(check.margin, 2),
        "agree": check.agrees,
        "clear": check.clear,
    }


def summary(tally: Counter[str], options: dict[str, Any]) -> dict[str, Any]:
    """A variant's (or the total's) line: each check's agreement, the warm-ups, the CPU."""
    n = tally["puzzles"]

    def rate(count: int) -> float | None:
        return round(count / n, 4) if n else None

    line: dict[str, Any] = {"puzzles": n}
    if options["deals"]:
        line |= {
            "agree": tally["recheck_agree"],
            "agreement_rate": rate(tally["recheck_agree"]),
            "still_clear": tally["recheck_clear"],
            "still_clear_rate": rate(tally["recheck_clear"]),
            "deals": options["deals"],
        }
    if options["exact_deals"]:
        line |= {
            "exact_agree": tally["exact_agree"],
            "exact_agreement_rate": rate(tally["exact_agree"]),
            "exact_clear": tally["exact_clear"],
            "exact_clear_rate": rate(tally["exact_clear"]),
            "exact_deals": options["exact_deals"],
        }
    warm_ups = n - tally["real_decisions"]
    line |= {
        "warm_ups": warm_ups,
        "warm_up_share": rate(warm_ups),
        "real_decisions": tally["real_decisions"],
        "cpu_seconds": round(tally["cpu_ms"] / 1000, 1),
    }
    return line


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
