"""A household: its members, its roster of players, its invitation links and its games."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ..access import get_household_for_user
from ..forms import HouseholdForm, PlayerForm
from ..models import Invite
from ..services import ServiceError
from ..services.households import household_create, invite_accept, invite_create, player_create


@login_required
def household_new(request: HttpRequest) -> HttpResponse:
    form = HouseholdForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            household = household_create(user=request.user, name=form.cleaned_data["name"])
        except ServiceError as error:
            form.add_error("name", str(error))
        else:
            return redirect("household", household_id=household.pk)
    return render(request, "scorepad/household_new.html", {"form": form})


def _detail(request: HttpRequest, household_id: int, **context: object) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    context = {
        "household": household,
        "members": household.members.order_by("username"),
        "players": household.players.all(),
        "games": household.games.prefetch_related("seats__player")[:20],
        "player_form": PlayerForm(),
        **context,
    }
    return render(request, "scorepad/household.html", context)


@login_required
def household_detail(request: HttpRequest, household_id: int) -> HttpResponse:
    return _detail(request, household_id)


@login_required
@require_POST
def player_add(request: HttpRequest, household_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            player = player_create(household=household, name=form.cleaned_data["name"])
        except ServiceError as error:
            form.add_error("name", str(error))
        else:
            messages.success(request, f"{player.name} joined the roster.")
            return redirect("household", household_id=household.pk)
    return _detail(request, household_id, player_form=form)


@login_required
@require_POST
def invite_new(request: HttpRequest, household_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    invite = invite_create(household=household, user=request.user)
    link = request.build_absolute_uri(reverse("invite", args=[invite.token]))
    return _detail(request, household_id, invite_link=link)


@login_required
def invite_join(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows whose household it is; the Join button (POST) uses the link up."""
    invite = Invite.objects.select_related("household").filter(token=token).first()
    if request.method == "POST":
        try:
            household = invite_accept(token=token, user=request.user)
        except ServiceError as error:
            messages.error(request, str(error))
            return redirect("home")
        messages.success(request, f"You are now a member of {household.name}.")
        return redirect("household", household_id=household.pk)
    return render(request, "scorepad/invite.html", {"invite": invite})
