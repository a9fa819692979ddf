"""Households, their members (accounts) and their roster of players (people at the table)."""

import unicodedata

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from ..constants import PLAYER_NAME_MAX
from ..models import Household, Invite, Player
from ..selectors.households import invite_expired
from . import ServiceError


def refuse_unprintable(name: str, whose: str) -> None:
    """A name shows on every page: a control character (NUL, which PostgreSQL cannot even store) or
    half of a surrogate pair (not text at all) is refused in words, never stored."""
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        raise ServiceError(f"{whose} cannot hold control characters (such as NUL): type it again.")


@transaction.atomic
def household_create(*, user: User, name: str) -> Household:
    name = name.strip()
    if not name:
        raise ServiceError("A household needs a name.")
    refuse_unprintable(name, "A household's name")
    household = Household.objects.create(name=name)
    household.members.add(user)
    return household


@transaction.atomic
def invite_create(*, household: Household, user: User) -> Invite:
    return Invite.objects.create(household=household, created_by=user)


@transaction.atomic
def invite_accept(*, token: str, user: User) -> Household:
    """Make ``user`` a member. The link works once; a member who opens it changes nothing."""
    invite = Invite.objects.select_for_update().filter(token=token).select_related("household").first()
    if invite is None:
        raise ServiceError("This invitation link is not valid.")
    household = invite.household
    if household.members.filter(pk=user.pk).exists():
        return household  # already a member: the link stays usable for the person it was meant for
    if invite.used_at is not None:
        if invite.used_by_id == user.pk:
            return household
        raise ServiceError("This invitation link has already been used. Ask for a new one.")
    if invite.revoked_at is not None:
        raise ServiceError("This invitation link was withdrawn. Ask for a new one.")
    if invite_expired(invite):
        raise ServiceError("This invitation link has expired (links last 7 days). Ask for a new one.")
    invite.used_by = user
    invite.used_at = timezone.now()
    invite.save(update_fields=["used_by", "used_at"])
    household.members.add(user)
    return household


@transaction.atomic
def invite_revoke(*, invite: Invite) -> None:
    """Withdraw an unused link; a used one has done its work and stays as a record."""
    if invite.used_at is None and invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])


@transaction.atomic
def member_remove(*, household: Household, user: User) -> None:
    """Take an account out of the household (its games stay); the last member cannot leave it empty."""
    household = Household.objects.select_for_update().get(pk=household.pk)
    if not household.members.filter(pk=user.pk).exists():
        raise ServiceError("That account is not a member any more.")
    if household.members.count() == 1:
        raise ServiceError("The last member can't be removed: a household needs someone to keep its score.")
    household.members.remove(user)
    household.players.filter(account=user).update(account=None)  # no longer anyone on its roster


def _roster_name(household: Household, name: str, *, other_than: Player | None = None) -> str:
    name = " ".join(name.split())
    if not name:
        raise ServiceError("A player needs a name.")
    if len(name) > PLAYER_NAME_MAX:
        raise ServiceError(f"A player's name has at most {PLAYER_NAME_MAX} characters.")
    refuse_unprintable(name, "A player's name")
    taken = household.players.filter(name__iexact=name)
    if other_than is not None:
        taken = taken.exclude(pk=other_than.pk)
    if taken.exists():
        raise ServiceError(f"{name} is already on the roster.")
    return name


@transaction.atomic
def player_create(*, household: Household, name: str) -> Player:
    name = _roster_name(household, name)
    try:
        with transaction.atomic():
            return Player.objects.create(household=household, name=name)
    except IntegrityError:
        raise ServiceError(f"{name} is already on the roster.") from None


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    """A new name everywhere, past games included: they point at the player, not the name."""
    player.name = _roster_name(player.household, name, other_than=player)
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError:
        raise ServiceError(f"{player.name} is already on the roster.") from None
    return player


@transaction.atomic
def player_retire(*, player: Player, retired: bool) -> Player:
    """A retired player leaves the new-game form; their games and statistics stay."""
    player.retired = retired
    player.save(update_fields=["retired"])
    return player


@transaction.atomic
def player_claim(*, player: Player, user: User, mine: bool) -> Player:
    """ "This is me" (``mine``): the member ``user`` is ``player`` from now on, and sits as them at the
    household's tables with one tap; a player linked to another member is refused in words. An
    account is one player per household: choosing another moves the link. Not ``mine``: the link
    is undone (by the member themself, or by any member for someone who left)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    household = player.household
    if not household.members.filter(pk=user.pk).exists():
        raise ServiceError(f"Only a member of {household.name} can say which player they are.")
    if not mine:
        if player.account_id is not None:
            player.account = None
            player.save(update_fields=["account"])
        return player
    if player.account_id not in (None, user.pk):
        raise ServiceError(f"{player.name} is already another member's player: ask them to undo it first.")
    if player.retired:
        raise ServiceError(f"{player.name} is retired: bring them back to the roster first.")
    household.players.filter(account=user).exclude(pk=player.pk).update(account=None)
    player.account = user
    player.save(update_fields=["account"])
    return player
