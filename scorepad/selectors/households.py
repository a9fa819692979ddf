"""Reads for a household's page, its roster and its invitation links."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from ..models import Household, Invite, Player

INVITE_LIFETIME = timedelta(days=7)  # an invitation link left lying in a chat stops working
RECENT_GAMES = 20  # games listed on the household page; the history page has them all


def invite_expired(invite: Invite) -> bool:
    return timezone.now() - invite.created_at > INVITE_LIFETIME


def invite_by_token(token: str) -> Invite | None:
    """The invitation a link names, with its household, or None for a link that names none."""
    return Invite.objects.select_related("household").filter(token=token).first()


def pending_invites(household: Household) -> list[Invite]:
    """Links not used, revoked or expired, newest first."""
    invites = household.invites.filter(used_at=None, revoked_at=None).order_by("-created_at")
    return [invite for invite in invites if not invite_expired(invite)]


def household_page(household: Household) -> dict[str, Any]:
    """What the household page lists: members, the whole roster and the latest games."""
    return {
        "members": household.members.order_by("username"),
        "players": household.players.all(),
        "games": household.games.prefetch_related("seats__player")[:RECENT_GAMES],
    }


def active_roster(household: Household) -> QuerySet[Player]:
    """The players a new game may seat: the roster less the retired."""
    return household.players.filter(retired=False)


def roster_size(household: Household) -> int:
    return household.players.count()


def game_count(household: Household) -> int:
    return household.games.count()


def household_invite(household: Household, invite_id: int) -> Invite:
    """One of this household's invitation links; any other id is a 404."""
    return get_object_or_404(household.invites, pk=invite_id)


def household_member(household: Household, user_id: int) -> Any:
    """One of this household's members (a user); any other id is a 404."""
    return get_object_or_404(household.members, pk=user_id)


def household_player(household: Household, player_id: int) -> Player:
    """One of this household's roster players; any other id is a 404."""
    return get_object_or_404(household.players, pk=player_id)


def roster_player_of(household: Household, user: Any) -> Player | None:
    """The roster player a signed-in member said they are ("This is me"), or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return household.players.filter(account=user, retired=False).first()
