"""Reads for the daily deal: whose attempts a request sees, a deal's standings and leaderboard, a
player's streak and average against the expert, and the archive.

A player is an account or a visitor: a visitor through the key their session keeps
(``GUEST_SESSION_KEY``); an account also sees what this browser played before logging in, so one
person at one browser never gets two counted attempts at a deal. Every read here is a few short
queries over ``DailyAttempt`` (scores are copied onto it when a hand ends), so the daily pages
answer without reading any game's state and without any bot search.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Avg, Count, F, Q, QuerySet
from django.http import HttpRequest

from ..engine.variants import VARIANTS
from ..models import DailyAttempt, DailyDeal, DailyPlayer, PracticeGame

GUEST_SESSION_KEY = "daily_guest"  # a visitor's key for the daily deal, made when they first start one
LEADERBOARD_SIZE = 20
AVERAGE_DAYS = 30  # the average against the expert looks back this many days, today included
ARCHIVE_PAGE_DAYS = 7  # past days per archive page: a week
STREAK_LOOKBACK = 400  # days of counted attempts read to find a streak (longer ones show as 400)


@dataclass(frozen=True, slots=True)
class Who:
    """Whose attempts these are: an account, a visitor's key (this browser's), or both."""

    user: Any  # a User, or None for a visitor
    guest: str = ""

    @property
    def known(self) -> bool:
        return self.user is not None or bool(self.guest)

    def attempts(self) -> Q:
        """The attempts that are this player's (none, for a visitor who never started one)."""
        mine = Q(pk__in=[])
        if self.user is not None:
            mine |= Q(user=self.user)
        if self.guest:
            mine |= Q(user__isnull=True, guest=self.guest)
        return mine


def who_for(request: HttpRequest) -> Who:
    """The player of this request; reading writes nothing (a visitor's key is made at their first start)."""
    user = request.user if request.user.is_authenticated else None
    guest = request.session.get(GUEST_SESSION_KEY, "")
    return Who(user, guest if isinstance(guest, str) else "")


# -- a day's deals ------------------------------------------------------------------------------


def deals_of_day(day: dt.date) -> dict[str, DailyDeal]:
    """The day's deals made so far, by variant (a deal is made when first needed)."""
    return {deal.variant: deal for deal in DailyDeal.objects.filter(day=day)}


def deal_of(day: dt.date, variant_id: str) -> DailyDeal | None:
    return DailyDeal.objects.filter(day=day, variant=variant_id).first()


def attempts_of(who: Who, deals: Sequence[DailyDeal]) -> list[DailyAttempt]:
    """The player's attempts at these deals, oldest first."""
    if not who.known or not deals:
        return []
    return list(
        DailyAttempt.objects.filter(who.attempts(), deal__in=deals)
        .select_related("deal")
        .order_by("created_at", "id")
    )


def counted_attempt(who: Who, deal: DailyDeal) -> DailyAttempt | None:
    """The player's attempt that counts at ``deal``: the first they started."""
    if not who.known:
        return None
    return (
        DailyAttempt.objects.filter(who.attempts(), deal=deal, counted=True)
        .order_by("created_at", "id")
        .first()
    )


def daily_attempt_of(game: PracticeGame) -> DailyAttempt | None:
    """The daily attempt a practice game plays, if it plays one (its deal read with it)."""
    return DailyAttempt.objects.select_related("deal").filter(game=game).first()


def is_counted_daily(game: PracticeGame) -> bool:
    """Whether ``game`` is an attempt that counts: no hint, no undo, one hand."""
    return DailyAttempt.objects.filter(game=game, counted=True).exists()


# -- standings ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a score stands among everyone's counted scores at a deal."""

    players: int  # accounts' counted attempts finished
    at_or_below: int  # of them, how many scored no more than this score

    @property
    def percentile(self) -> int | None:
        """The share of players this score did as well as or better than, in whole percent."""
        if not self.players:
            return None
        return round(100 * self.at_or_below / self.players)


def _scored(deal: DailyDeal) -> QuerySet[DailyAttempt]:
    """The ranked scores at ``deal``: accounts' counted attempts, finished. A visitor is a browser,
    and every fresh browser is another visitor with a counted attempt of its own, so visitors play
    unranked: their scores are theirs to see, never among the players'."""
    return DailyAttempt.objects.filter(deal=deal, counted=True, score__isnull=False, user__isnull=False)


def standing(deal: DailyDeal, score: int) -> Standing:
    figures = _scored(deal).aggregate(
        players=Count("id"), at_or_below=Count("id", filter=Q(score__lte=score))
    )
    return Standing(figures["players"], figures["at_or_below"])


@dataclass(frozen=True, slots=True)
class LeaderRow:
    place: int
    name: str
    score: int
    yours: bool


def leaderboard(deal: DailyDeal, who: Who, *, size: int = LEADERBOARD_SIZE) -> list[LeaderRow]:
    """The best counted scores of accounts that chose to show their name; equal scores share a place."""
    rows = (
        _scored(deal)
        .filter(user__daily__show_name=True)
        .order_by("-score", "finished_at", "id")
        .values_list("score", "user__username", "user_id")[:size]
    )
    board: list[LeaderRow] = []
    for index, (score, name, user_id) in enumerate(rows):
        assert score is not None  # only finished attempts are on the board
        place = board[-1].place if board and board[-1].score == score else index + 1
        yours = who.user is not None and user_id == who.user.pk
        board.append(LeaderRow(place, name, score, yours))
    return board


def shows_name(user: Any) -> bool:
    """Whether the account chose to show its name on the daily leaderboards."""
    if user is None:
        return False
    return DailyPlayer.objects.filter(user=user, show_name=True).exists()


# -- a player's record ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Record:
    """A player's streak (days in a row with a counted attempt, up to today or yesterday) and their
    average score less the expert's over the last ``AVERAGE_DAYS`` days."""

    streak: int
    average_gap: float | None
    hands: int  # counted hands with both scores in those days


def record_of(who: Who, today: dt.date) -> Record:
    if not who.known:
        return Record(0, None, 0)
    counted = DailyAttempt.objects.filter(who.attempts(), counted=True)
    days = list(
        counted.filter(deal__day__lte=today)
        .values_list("deal__day", flat=True)
        .distinct()
        .order_by("-deal__day")[:STREAK_LOOKBACK]
    )
    since = today - dt.timedelta(days=AVERAGE_DAYS - 1)
    gaps = counted.filter(
        deal__day__range=(since, today), score__isnull=False, deal__expert_score__isnull=False
    ).aggregate(average=Avg(F("score") - F("deal__expert_score")), hands=Count("id"))
    average = None if gaps["average"] is None else float(gaps["average"])  # PostgreSQL: a Decimal
    return Record(streak_of(days, today), average, gaps["hands"])


def streak_of(days: Sequence[dt.date], today: dt.date) -> int:
    """Days in a row, ending today or yesterday, among ``days`` (newest first, no repeats)."""
    expected = today if days and days[0] == today else today - dt.timedelta(days=1)
    streak = 0
    for day in days:
        if day > expected:
            continue
        if day != expected:
            break
        streak += 1
        expected -= dt.timedelta(days=1)
    return streak


# -- the archive -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArchiveDay:
    day: dt.date
    deals: dict[str, DailyDeal]  # by variant, the deals made that day
    counted: dict[str, DailyAttempt]  # by variant, the player's attempt that counted
    players: dict[str, int]  # by variant, how many accounts' counted attempts finished


def archive(who: Who, days: Sequence[dt.date]) -> list[ArchiveDay]:
    """Each day's deals, the player's counted attempts and how many played, in three queries."""
    deals = list(
        DailyDeal.objects.filter(day__in=days).annotate(
            players=Count(
                "attempts",
                filter=Q(attempts__counted=True, attempts__score__isnull=False, attempts__user__isnull=False),
            )
        )
    )
    mine = {(a.deal_id, a.deal.variant): a for a in reversed(attempts_of(who, deals)) if a.counted}
    by_day: dict[dt.date, dict[str, DailyDeal]] = {}
    for deal in deals:
        by_day.setdefault(deal.day, {})[deal.variant] = deal
    found = []
    for day in days:
        day_deals = by_day.get(day, {})
        found.append(
            ArchiveDay(
                day,
                day_deals,
                {v: mine[(d.pk, v)] for v, d in day_deals.items() if (d.pk, v) in mine},
                {v: getattr(d, "players", 0) for v, d in day_deals.items()},
            )
        )
    return found


def variant_ids() -> list[str]:
    return list(VARIANTS)
