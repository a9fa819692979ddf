"""A club's seasons, written: a season made or changed, and a night put in a season or taken out.

Keyword-only and atomic. A change names the version its page showed (``ClubSeason.version``,
``ClubEvent.version``): a page out of date, or a form sent twice, is refused in words and changes
nothing. The rule is checked by ``engine.seasons`` (best N of M nights: N no more than M).
"""

from __future__ import annotations

from datetime import date

from django.db import transaction

from ..engine.seasons import SeasonError, check_rule
from ..models import ClubEvent, ClubSeason, Household
from ..models.clubs import EVENT_NAME_MAX
from . import ServiceError
from .clubs import STALE, event_bump, locked_event
from .households import refuse_unprintable


def _checked(
    *,
    name: str,
    counting: str,
    best_of: int | None,
    nights: int | None,
    starts_on: date | None,
    ends_on: date | None,
) -> str:
    name = " ".join(name.split())
    if not name:
        raise ServiceError("The season needs a name.")
    if len(name) > EVENT_NAME_MAX:
        raise ServiceError(f"A season's name has at most {EVENT_NAME_MAX} characters.")
    refuse_unprintable(name, "The season's name")
    try:
        check_rule(counting, best_of, nights)
    except SeasonError as error:
        raise ServiceError(str(error)) from None
    if starts_on and ends_on and ends_on < starts_on:
        raise ServiceError("The season ends before it starts: check the dates.")
    return name


@transaction.atomic
def season_create(
    *,
    household: Household,
    name: str,
    counting: str = ClubSeason.Counting.TOTAL,
    best_of: int | None = None,
    nights: int | None = None,
    starts_on: date | None = None,
    ends_on: date | None = None,
) -> ClubSeason:
    """A season for ``household``'s club: its nights are the events put in it."""
    name = _checked(
        name=name, counting=counting, best_of=best_of, nights=nights, starts_on=starts_on, ends_on=ends_on
    )
    return ClubSeason.objects.create(
        household=household,
        name=name,
        counting=counting,
        best_of=best_of,
        nights=nights,
        starts_on=starts_on,
        ends_on=ends_on,
    )


@transaction.atomic
def season_update(
    *,
    season: ClubSeason,
    version: int,
    name: str,
    counting: str,
    best_of: int | None,
    nights: int | None,
    starts_on: date | None,
    ends_on: date | None,
) -> ClubSeason:
    """The season's name, dates or rule changed: its standings are worked out again by the new rule."""
    locked = ClubSeason.objects.select_for_update().get(pk=season.pk)
    if locked.version != version:
        raise ServiceError(STALE.format(what="the season"))
    locked.name = _checked(
        name=name, counting=counting, best_of=best_of, nights=nights, starts_on=starts_on, ends_on=ends_on
    )
    locked.counting, locked.best_of, locked.nights = counting, best_of, nights
    locked.starts_on, locked.ends_on = starts_on, ends_on
    locked.version += 1
    locked.save()
    return locked


def refuse_other_club(event: ClubEvent, season: ClubSeason | None) -> None:
    if season is not None and season.household_id != event.household_id:
        raise ServiceError("That season is another club's: a night counts in its own club's seasons only.")


@transaction.atomic
def event_season_set(*, event: ClubEvent, version: int, season: ClubSeason | None) -> ClubEvent:
    """Put a night in ``season`` (None: in no season). Its results are not touched: the season's
    standings read them."""
    event = locked_event(event, version)
    refuse_other_club(event, season)
    event.season = season
    event_bump(event, "season")
    return event
