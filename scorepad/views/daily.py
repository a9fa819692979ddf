"""The daily deal: today's deals, one deal's comparison, the archive, and starting an attempt.

The pages only read (``selectors.daily``) and never think: a deal's expert result was worked out
before anyone asked for the page. Starting an attempt is the one request here that makes the bots
think, and it is limited and paid for as a practice start is; the attempt is then played on the
practice table. A day or variant in the address that has no deal, and a second attempt that asks
to count, are refused in words and change nothing.
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from ..engine.variants import get_variant
from ..pages.daily import archive_rows, comparison, daily_home
from ..selectors.daily import (
    ARCHIVE_PAGE_DAYS,
    GUEST_SESSION_KEY,
    archive,
    attempts_of,
    counted_attempt,
    deal_of,
    leaderboard,
    record_of,
    shows_name,
    standing,
    who_for,
)
from ..services.daily import (
    FIRST_DAY,
    DailyAlreadyStarted,
    DailyRefused,
    daily_day,
    daily_show_name,
    daily_start,
    daily_variant,
)
from ..services.practice import PracticeBusy
from .limits import limited
from .practice import NOTICE_KEY
from .practice_session import holds_forms, remember_game, session_user
from .rendering import HtmxHttpRequest, local_path, signed_in
from .thinking import pays_for_thinking

REFUSED_TEMPLATE = "scorepad/daily_refused.html"


def _today() -> dt.date:
    return timezone.localdate()


@require_safe
def daily_view(request: HtmxHttpRequest) -> HttpResponse:
    """Today's deal in each variant: play it, continue it, or see how you did; your streak."""
    today = _today()
    who = who_for(request)
    (day,) = archive(who, [today])
    context = {
        "home": daily_home(today, day.deals, day.counted, day.players, record_of(who, today)),
        "show_name": shows_name(who.user),
    }
    return render(request, "scorepad/daily.html", context)


@require_safe
def daily_deal_view(request: HtmxHttpRequest, day: str, variant: str) -> HttpResponse:
    """One day's deal in one variant: your score beside the expert's in your seat, your place
    among everyone who played it, the day's leaderboard and the way to the hand review."""
    today = _today()
    try:
        when, variant_id = daily_day(day, today=today), daily_variant(variant)
    except DailyRefused as error:
        return _refused(request, str(error), status=404)
    return _deal_page(request, when, variant_id, today)


@require_POST
@holds_forms  # a visitor's session is made before the limits count them, as on practice's start form
@limited("practice-start")
@pays_for_thinking
def daily_play_view(request: HtmxHttpRequest, day: str, variant: str) -> HttpResponse:
    """Start an attempt: today's first counts (``counted=1``), any other is practice."""
    today = _today()
    try:
        when, variant_id = daily_day(day, today=today), daily_variant(variant)
    except DailyRefused as error:
        return _refused(request, str(error), status=404)
    user = session_user(request)
    if user is None and not isinstance(request.session.get(GUEST_SESSION_KEY), str):
        request.session[GUEST_SESSION_KEY] = secrets.token_urlsafe(24)  # a visitor's attempts are theirs
    try:
        attempt = daily_start(
            day=when,
            variant_id=variant_id,
            today=today,
            user=user,
            guest=who_for(request).guest,
            counted=request.POST.get("counted") == "1",
        )
    except DailyAlreadyStarted as error:
        attempt = error.attempt
        request.session[NOTICE_KEY] = str(error)
    except PracticeBusy as error:
        response = _deal_page(request, when, variant_id, today, refused=str(error), status=503)
        response["Retry-After"] = str(error.retry_after)
        return response
    except DailyRefused as error:
        return _deal_page(request, when, variant_id, today, refused=str(error), status=409)
    assert attempt.game is not None
    remember_game(request, attempt.game)
    return redirect("practice_game", attempt.game.pk)


@require_safe
def daily_archive_view(request: HtmxHttpRequest) -> HttpResponse:
    """Past days, newest first, a page of days at a time; each deal may be played as practice."""
    today = _today()
    days_back = (today - FIRST_DAY).days
    pages = Paginator(range(1, days_back + 1), ARCHIVE_PAGE_DAYS)
    page = pages.get_page(request.GET.get("page"))  # a page out of range shows the last one
    days = [today - dt.timedelta(days=back) for back in page.object_list]
    context = {"rows": archive_rows(archive(who_for(request), days), today), "page": page, "today": today}
    return render(request, "scorepad/daily_archive.html", context)


@require_POST
@login_required
def daily_settings_view(request: HtmxHttpRequest) -> HttpResponse:
    """The account's choice: show its name on the daily leaderboards, or not."""
    daily_show_name(user=signed_in(request), show=request.POST.get("show_name") == "1")
    back = local_path(request.POST.get("next"), host=request.get_host(), secure=request.is_secure())
    return HttpResponseRedirect(back or reverse("daily"))


# -- helpers ------------------------------------------------------------------------------------


def _deal_page(
    request: HtmxHttpRequest,
    day: dt.date,
    variant_id: str,
    today: dt.date,
    *,
    refused: str = "",
    status: int = 200,
) -> HttpResponse:
    who = who_for(request)
    deal = deal_of(day, variant_id)
    counted = counted_attempt(who, deal) if deal is not None else None
    practice = [a for a in attempts_of(who, [deal]) if not a.counted] if deal is not None else []
    place = None  # a visitor's finished attempt is not ranked
    if deal is not None and counted is not None and counted.user_id is not None and counted.score is not None:
        place = standing(deal, counted.score)
    players = standing(deal, 0).players if deal is not None else 0
    board = leaderboard(deal, who) if deal is not None else []
    context = {
        "page": comparison(day, today, variant_id, deal, counted, practice, place, players, board),
        "variant": get_variant(variant_id),
        "refused": refused,
        "show_name": shows_name(who.user),
    }
    return render(request, "scorepad/daily_deal.html", context, status=status)


def _refused(request: HtmxHttpRequest, words: str, *, status: int) -> HttpResponse:
    return render(request, REFUSED_TEMPLATE, {"refused": words, "back": reverse("daily")}, status=status)
