"""Everything a request reads is scoped to the user's households: anything else is a 404.

Small ``get_<thing>_for_user`` helpers in the healthchecks style; views call these instead
of querying models by id, so no view can forget the scoping.
"""

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from ..models import Game, Household


def households_for_user(user: User | AnonymousUser) -> QuerySet[Household]:
    if not user.is_authenticated:
        return Household.objects.none()
    return Household.objects.filter(members=user).order_by("name", "id")


def get_household_for_user(user: User | AnonymousUser, household_id: int) -> Household:
    return get_object_or_404(households_for_user(user), pk=household_id)


def get_game_for_user(user: User | AnonymousUser, game_id: int) -> Game:
    games = Game.objects.filter(household__in=households_for_user(user)).select_related("household")
    return get_object_or_404(games, pk=game_id)
