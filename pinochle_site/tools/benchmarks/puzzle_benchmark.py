"""What a puzzle page costs: ``python -m pinochle_site.tools.benchmarks.puzzle_benchmark``.

Serves puzzle pages through Django's whole stack (URLs, middleware, sessions, the database, the
templates) on a throwaway test database: per variant, ``--pages`` puzzle pages (GET), as many
answers (POST: judged, counted, both Glicko-2 ratings written, the result drawn) and as many steps
of a run (the next puzzle near the player's rating). Prints p50, p95 and the slowest, in wall-clock
milliseconds, per kind of request and variant. The page must answer in at most 100 ms at p95: it
costs no search, everything was worked out by ``find_puzzles``. Figures only, never a test.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Sequence

KINDS = ("page", "answer", "run")


def percentile(samples: Sequence[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pinochle_site.tools.benchmarks.puzzle_benchmark", description=__doc__
    )
    parser.add_argument("--pages", type=int, default=100, help="requests of each kind per variant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from scorepad.selectors.puzzles import puzzle_variants, shipped

    setup_test_environment()
    settings.CPU_BUDGETS = {name: (10**6, 10**6, 60) for name in settings.CPU_BUDGETS}  # time, not limits
    created = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    rng = random.Random(args.seed)
    try:
        for variant in puzzle_variants():
            found = shipped(variant)
            client = Client()
            client.get(reverse("puzzles"))  # warm: templates compiled, the set read once
            times: dict[str, list[float]] = {kind: [] for kind in KINDS}
            for _ in range(args.pages):
                puzzle = rng.choice(found)
                key = {"play": "card", "trump": "trump", "pass": "pass"}[puzzle.decision]
                answer = rng.choice(puzzle.values)[0]
                form = {"puzzle": puzzle.key, "position": puzzle.digest, key: answer}
                steps: list[tuple[str, str, dict[str, object] | None]] = [
                    ("page", reverse("puzzle", args=[puzzle.key]), None),
                    ("answer", reverse("puzzle_answer", args=[puzzle.key]), form),
                    ("run", reverse("puzzle_run", args=[variant]), None),
                ]
                for kind, url, data in steps:
                    started = time.perf_counter()
                    response = client.get(url) if data is None else client.post(url, data)
                    times[kind].append((time.perf_counter() - started) * 1000)
                    assert response.status_code < 400, (kind, puzzle.key)
            for kind in KINDS:
                samples = times[kind]
                print(
                    f"{variant:12} {kind:7} n={len(samples)}  p50 {percentile(samples, 0.5):6.1f} ms"
                    f"  p95 {percentile(samples, 0.95):6.1f} ms  slowest {max(samples):6.1f} ms"
                )
    finally:
        connection.creation.destroy_test_db(created, verbosity=0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
