"""How fast the daily deal's pages answer: ``python -m pinochle_site.tools.benchmarks.daily_benchmark``.

Builds a throwaway SQLite database (in a temporary directory, migrated from scratch) holding today's
deals in the three variants and ``--players`` counted attempts at each (a tenth of them accounts
that show their name on the leaderboard), plus ``--days`` past days of one player's attempts for
the streak, the average and the archive. Then it asks, through Django's test client and the whole
middleware stack, ``--requests`` times each: today's deals (``/daily/``), one deal's comparison as
a player who finished it (percentile, leaderboard, the expert's score) and the archive. It prints
p50, p95 and the slowest per page in milliseconds of wall clock. Any bot search while serving them
stops the run: the pages must cost no search. The bound is 100 ms at p95.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence


def _setup(var_dir: str) -> None:
    os.environ["VAR_DIR"] = var_dir
    os.makedirs(os.path.join(var_dir, "staticfiles"), exist_ok=True)  # whitenoise looks for it
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("SQLITE_PATH", None)
    os.environ.setdefault("SECRET_KEY", "daily-benchmark-only-" + "x" * 40)
    os.environ["ALLOWED_HOSTS"] = "localhost"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
    import django

    django.setup()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pinochle_site.tools.benchmarks.daily_benchmark", description=__doc__
    )
    parser.add_argument("--players", type=int, default=2000, help="counted attempts per deal today")
    parser.add_argument("--days", type=int, default=60, help="past days the measured player played")
    parser.add_argument("--requests", type=int, default=200, help="requests per page")
    args = parser.parse_args(argv)
    if args.players < 1 or args.requests < 1 or args.days < 0:
        parser.error("--players and --requests must be above 0, --days not below 0")
    with tempfile.TemporaryDirectory(prefix="daily-benchmark-") as var_dir:
        _setup(var_dir)
        return _run(args.players, args.days, args.requests)


def _run(players: int, days: int, requests: int) -> int:
    import datetime as dt

    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import reverse
    from django.utils import timezone

    from scorepad import bot_pool
    from scorepad.engine.variants import VARIANTS
    from scorepad.models import DailyAttempt, DailyDeal, DailyPlayer
    from scorepad.services.daily import daily_seed

    call_command("migrate", verbosity=0)
    today = timezone.localdate()
    me = User.objects.create_user("measured", password="not-used-0123")
    accounts = User.objects.bulk_create(User(username=f"player{n}") for n in range(players // 10))
    DailyPlayer.objects.bulk_create(DailyPlayer(user=user, show_name=True) for user in accounts)

    def deal(day: dt.date, variant: str) -> DailyDeal:
        line = {"bidder": 0, "bid": 25, "trump": "S", "points": [30, 20], "scores": [40, 20]}
        return DailyDeal.objects.create(
            day=day, variant=variant, seed=daily_seed(day, variant), expert_score=40, expert_line=line
        )

    for variant in VARIANTS:
        todays = deal(today, variant)
        attempts = [
            DailyAttempt(
                deal=todays,
                user=accounts[n] if n < len(accounts) else None,
                guest="" if n < len(accounts) else f"guest-{n}",
                counted=True,
                score=(n * 37) % 120 - 20,
            )
            for n in range(players)
        ]
        DailyAttempt.objects.bulk_create(
            [*attempts, DailyAttempt(deal=todays, user=me, counted=True, score=33)]
        )
    for back in range(1, days + 1):
        past = deal(today - dt.timedelta(days=back), "classic")
        DailyAttempt.objects.create(deal=past, user=me, counted=True, score=back % 50)

    def no_search(*args: object, **kwargs: object) -> object:
        raise SystemExit("a daily page made the bots think: it must not")

    client = Client(SERVER_NAME="localhost")
    client.force_login(me)
    pages = {
        "today's deals": reverse("daily"),
        "comparison": reverse("daily_deal", args=[today.isoformat(), "classic"]),
        "archive": reverse("daily_archive"),
    }
    plain = {"staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    with override_settings(STORAGES={**_storages(), **plain}):
        bot_pool.think = no_search  # type: ignore[assignment]  # this throwaway process only
        print(f"{players} counted attempts per deal today, {days} past days for the measured player")
        for name, url in pages.items():
            for _ in range(5):  # warm the templates and the connection
                assert client.get(url).status_code == 200, url
            times = []
            for _ in range(requests):
                started = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, url
            cuts = statistics.quantiles(times, n=100)
            print(
                f"{name:<14} {requests} requests: p50 {cuts[49]:6.1f} ms  p95 {cuts[94]:6.1f} ms"
                f"  slowest {max(times):6.1f} ms"
            )
            sys.stdout.flush()
    return 0


def _storages() -> dict[str, dict[str, str]]:
    from django.conf import settings

    return dict(settings.STORAGES)


if __name__ == "__main__":
    sys.exit(main())
