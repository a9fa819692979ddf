"""A club's seasons, read: its nights, each member's night (their own points and place), the
season's standings by its rule (``engine.seasons``), a member's history, and the ratings.

A member's night is read from the night's standings (``selectors.clubs.event_standings``): a
progressive or six-handed night's entrant is one player, whose points are their own total; a teams
night's entrant is a pair, whose points are the team's total, for each of the two. A night counts
once it is finished.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from ..engine import seasons
from ..models import ClubEvent, ClubSeason, Household, Player
from .access import households_for_user
from .clubs import entrant_label, event_standings
from .ratings import Rating, club_ratings


def household_seasons(household: Household) -> QuerySet[ClubSeason]:
    return ClubSeason.objects.filter(household=household)


def season_for_user(user: User | AnonymousUser, season_id: int) -> ClubSeason:
    """The season ``season_id`` of one of ``user``'s clubs; anything else is a 404."""
    found = ClubSeason.objects.select_related("household").filter(household__in=households_for_user(user))
    return get_object_or_404(found, pk=season_id)


def household_season(household: Household, season_id: int) -> ClubSeason | None:
    """The club's season ``season_id``, or None (another club's, or none)."""
    return ClubSeason.objects.filter(household=household, pk=season_id).first()


def season_for_day(household: Household, day: date) -> ClubSeason | None:
    """The club's season whose dates hold ``day`` (the newest if several): a new night's default."""
    return (
        ClubSeason.objects.filter(household=household, starts_on__lte=day, ends_on__gte=day)
        .order_by("-starts_on", "-id")
        .first()
    )


def season_rule(season: ClubSeason) -> seasons.SeasonRule:
    return seasons.SeasonRule(season.counting, season.best_of, season.nights)  # type: ignore[arg-type]


def night_day(event: ClubEvent) -> date:
    """The night's date, as the club says it."""
    return timezone.localdate(event.created_at)


def season_events(season: ClubSeason) -> list[ClubEvent]:
    """The season's nights in date order, finished or not."""
    return list(season.events.order_by("created_at", "id"))


def unseasoned_events(household: Household) -> list[ClubEvent]:
    """The club's nights in no season, newest first: the director may put them in one."""
    return list(
        ClubEvent.objects.filter(household=household, season__isnull=True).order_by("-created_at", "-id")
    )


@dataclass(frozen=True, slots=True)
class MemberNight:
    """One member's night: the event, their points and place there, with whom they played."""

    event: ClubEvent
    night: seasons.Night
    entrant: str  # "Team 3" or the player's own name
    with_whom: str  # "Ann & Bob" for a team; "" for a player on their own
    of: int  # how many entrants were ranked that night


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """Everything the season's pages read: the nights, each member's nights and the standings."""

    season: ClubSeason
    rule: seasons.SeasonRule
    counted_events: list[ClubEvent]  # finished nights
    waiting_events: list[ClubEvent]  # nights not finished yet: not counted
    players: dict[int, Player]
    nights: dict[int, list[MemberNight]]  # by player id, in date order
    standings: list[seasons.SeasonStanding]
    ratings: dict[int, Rating]


def season_record(season: ClubSeason) -> SeasonRecord:
    events = season_events(season)
    finished = [e for e in events if e.status == ClubEvent.Status.FINISHED]
    players: dict[int, Player] = {}
    nights: dict[int, list[MemberNight]] = {}
    for event in finished:
        rows = event_standings(event)
        for row in rows:
            members = list(row.entrant.members.all())
            for member in members:
                players[member.player_id] = member.player
                night = seasons.Night(
                    event.pk, night_day(event), row.standing.points, row.standing.rank, row.standing.tied
                )
                with_whom = row.entrant.name if len(members) > 1 else ""
                nights.setdefault(member.player_id, []).append(
                    MemberNight(event, night, entrant_label(event, row.entrant), with_whom, len(rows))
                )
    rule = season_rule(season)
    ranked = seasons.season_standings({p: [n.night for n in mine] for p, mine in nights.items()}, rule)
    waiting = [e for e in events if e.status != ClubEvent.Status.FINISHED]
    return SeasonRecord(
        season, rule, finished, waiting, players, nights, ranked, club_ratings(season.household_id)
    )


def season_member(season: ClubSeason, player_id: int) -> Player:
    """A member of the season's club (a roster player); anything else is a 404."""
    return get_object_or_404(Player, pk=player_id, household_id=season.household_id)


def season_event(season: ClubSeason, event_id: int, *, put: bool) -> ClubEvent:
    """A night of the season's club to put in the season (``put``: one in no season) or to take
    out of it (one of its nights); anything else is a 404."""
    nights = ClubEvent.objects.filter(household_id=season.household_id)
    nights = nights.filter(season__isnull=True) if put else nights.filter(season=season)
    return get_object_or_404(nights, pk=event_id)
