"""Shared scoreboard links: make one for a game, stop one. Anyone holding a live link can watch."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ..models import Game, ScoreboardLink
from . import ServiceError


@transaction.atomic
def scoreboard_link_create(*, game: Game, user: User) -> ScoreboardLink:
    """The game's live link, made if it has none: a double tap or a resent form gets the same link."""
    Game.objects.select_for_update().filter(pk=game.pk).first()  # one maker at a time per game
    link = game.scoreboard_links.live().first()
    if link is None:
        link = ScoreboardLink.objects.create(game=game, created_by=user)
    return link


@transaction.atomic
def scoreboard_link_revoke(*, game: Game, link_id: int) -> ScoreboardLink:
    """Stop the link ``link_id`` of ``game``: from now on it is a 404. Refused, in words, if it is
    not this game's or was already stopped."""
    link = game.scoreboard_links.select_for_update().filter(pk=link_id).first()
    if link is None:
        raise ServiceError("That scoreboard link does not belong to this game.")
    if link.revoked_at is not None:
        raise ServiceError("That scoreboard link was already stopped.")
    link.revoked_at = timezone.now()
    link.save(update_fields=["revoked_at"])
    return link
