"""``manage.py daily_deals``: make the coming days' daily deals and work out the expert's result on
each ahead of time, so that no player's request pays for it. Run it once a day (cron, a systemd
timer); a deal already worked out is left as it is, so running it twice costs nothing.

Each deal is the expert in the player's seat with the day's bots around it, about a second of CPU
(``services.daily.daily_expert_work``), thought in this process with no transaction open.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError
from django.utils import timezone

from scorepad.engine.variants import VARIANTS
from scorepad.services.daily import FIRST_DAY, DailyRefused, daily_deal_prepare

MAX_DAYS = 366


class Command(BaseCommand):
    help = "Make the coming days' daily deals and work out the expert's result on each ahead of time."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days", type=int, default=2, help="days from --from on (default 2: today, tomorrow)"
        )
        parser.add_argument("--from", dest="start", help="the first day, YYYY-MM-DD (default today)")
        parser.add_argument("--variant", choices=list(VARIANTS), help="only this variant")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"]
        if not 1 <= days <= MAX_DAYS:
            raise CommandError(f"--days must be 1 to {MAX_DAYS}; got {days}")
        start = _day(options["start"]) if options["start"] else timezone.localdate()
        variants = [options["variant"]] if options["variant"] else list(VARIANTS)
        for offset in range(days):
            day = start + dt.timedelta(days=offset)
            for variant in variants:
                started = time.process_time()
                try:
                    deal = daily_deal_prepare(day=day, variant_id=variant)
                except DatabaseError as error:
                    raise CommandError(
                        f"the database is not ready ({error}): run manage.py migrate first"
                    ) from None
                except DailyRefused as error:
                    raise CommandError(f"{day} {variant}: {error}") from None
                seconds = time.process_time() - started
                expert = f"the expert in the player's seat: {deal.expert_score:+d}"
                self.stdout.write(f"{day} {variant:<12} {expert} ({seconds:.1f} s)")


def _day(text: str) -> dt.date:
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--from is not a day: {text!r} (write it as 2026-12-06)") from None
    if day < FIRST_DAY:
        raise CommandError(f"--from must be {FIRST_DAY} or later; got {day}")
    return day
