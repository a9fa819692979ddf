"""A club's seasons: the list and a new season, a season's standings (printable, and as CSV) with
each member's rating, its nights (put in or taken out), its rule changed, and a member's nights.

Any member of the club (the household) may read and keep its seasons; another club's season is a
404. Writes go through ``services.seasons`` under the version the page showed.
"""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from ..forms.seasons import SeasonEditForm, SeasonForm, SeasonNightForm
from ..models import ClubSeason
from ..pages.seasons import (
    CSV_HEADER,
    RATING_WORDS,
    history_rows,
    member_standing,
    rating_shown,
    rule_words,
    season_csv_rows,
    season_rows,
)
from ..selectors.access import get_household_for_user
from ..selectors.seasons import (
    household_seasons,
    season_event,
    season_for_user,
    season_member,
    season_record,
    unseasoned_events,
)
from ..services import ServiceError
from ..services.seasons import event_season_set, season_create, season_update
from .clubs import first_error
from .rendering import HtmxHttpRequest, go_to, page_or_partial


def _rule_values(data: dict[str, Any]) -> dict[str, Any]:
    keys = ("name", "counting", "best_of", "nights", "starts_on", "ends_on")
    return {key: data[key] for key in keys}


@login_required
def club_seasons(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    """The club's seasons, and a new one."""
    household = get_household_for_user(request.user, household_id)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = season_create(household=household, **_rule_values(form.cleaned_data))
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Season made: {season.name}. Put its nights in it as you create them.")
            return redirect("club_season", season_id=season.pk)
    context = {"household": household, "seasons": household_seasons(household), "form": form}
    return render(request, "scorepad/club/seasons.html", context, status=400 if form.errors else 200)


def _season_context(season: ClubSeason, **extra: Any) -> dict[str, Any]:
    record = season_record(season)
    initial = {
        "version": season.version,
        "name": season.name,
        "counting": season.counting,
        "best_of": season.best_of,
        "nights": season.nights,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
    }
    return {
        "season": season,
        "record": record,
        "rows": season_rows(record),
        "rule": rule_words(season),
        "rating_words": RATING_WORDS,
        "others": unseasoned_events(season.household),
        "edit": extra.pop("edit", None) or SeasonEditForm(initial=initial),
        "printed_at": timezone.now(),
        **extra,
    }


@login_required
def club_season(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    """The season's standings per member, stating the rule; printable from the browser's menu."""
    season = season_for_user(request.user, season_id)
    return page_or_partial(request, "scorepad/club/season.html", "season-standings", _season_context(season))


@login_required
@require_POST
def club_season_edit(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    season = season_for_user(request.user, season_id)
    form = SeasonEditForm(request.POST)
    if form.is_valid():
        try:
            season = season_update(
                season=season, version=form.cleaned_data["version"], **_rule_values(form.cleaned_data)
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Saved: {rule_words(season)}")
            return go_to(request, reverse("club_season", args=[season.pk]))
    context = _season_context(season, edit=form, refusal=first_error(form))
    return render(request, "scorepad/club/season.html", context, status=400)


@login_required
@require_POST
def club_season_night(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    """A night of the club put in this season, or taken out of it."""
    season = season_for_user(request.user, season_id)
    url = reverse("club_season", args=[season.pk])
    form = SeasonNightForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return go_to(request, url)
    data = form.cleaned_data
    event = season_event(season, data["event"], put=data["put"])
    try:
        event_season_set(event=event, version=data["version"], season=season if data["put"] else None)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        where = f"now counts in {season.name}" if data["put"] else f"no longer counts in {season.name}"
        messages.success(request, f"{event.name} {where}.")
    return go_to(request, url)


@login_required
def club_season_csv(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    """The season's standings, one row per member, for a spreadsheet."""
    season = season_for_user(request.user, season_id)
    record = season_record(season)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="season-{season.pk}-standings.csv"'
    response["Cache-Control"] = "private, no-store"
    writer = csv.writer(response)
    writer.writerow(CSV_HEADER)
    writer.writerows(season_csv_rows(record))
    return response


@login_required
def club_season_member(request: HtmxHttpRequest, season_id: int, player_id: int) -> HttpResponse:
    """One member's nights of the season: date, night, their points and place, which count."""
    season = season_for_user(request.user, season_id)
    player = season_member(season, player_id)
    record = season_record(season)
    standing = member_standing(record, player.pk)
    context = {
        "season": season,
        "player": player,
        "rows": history_rows(record, player.pk),
        "standing": standing,
        "place": next((row.place for row in season_rows(record) if row.player.pk == player.pk), ""),
        "rating": rating_shown(record.ratings.get(player.pk)),
        "rule": rule_words(season),
        "rating_words": RATING_WORDS,
    }
    return render(request, "scorepad/club/season_member.html", context)
