"""Households, their members (accounts) and their roster of players (people at the table)."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from ..models import Household, Invite, Player
from . import ServiceError

NAME_MAX = 40


@transaction.atomic
def household_create(*, user: AbstractBaseUser, name: str) -> Household:
    name = name.strip()
    if not name:
        raise ServiceError("A household needs a name.")
    household = Household.objects.create(name=name)
    household.members.add(user)
    return household


@transaction.atomic
def invite_create(*, household: Household, user: AbstractBaseUser) -> Invite:
    return Invite.objects.create(household=household, created_by=user)


@transaction.atomic
def invite_accept(*, token: str, user: AbstractBaseUser) -> Household:
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
    invite.used_by = user
    invite.used_at = timezone.now()
    invite.save(update_fields=["used_by", "used_at"])
    household.members.add(user)
    return household


@transaction.atomic
def player_create(*, household: Household, name: str) -> Player:
    name = " ".join(name.split())
    if not name:
        raise ServiceError("A player needs a name.")
    if len(name) > NAME_MAX:
        raise ServiceError(f"A player's name has at most {NAME_MAX} characters.")
    if household.players.filter(name__iexact=name).exists():
        raise ServiceError(f"{name} is already on the roster.")
    try:
        with transaction.atomic():
            return Player.objects.create(household=household, name=name)
    except IntegrityError:
        raise ServiceError(f"{name} is already on the roster.") from None
