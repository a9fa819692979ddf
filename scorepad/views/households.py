"""A household: its members, its roster of players, its invitation links and its games."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ..forms.games import HouseholdForm, PlayerForm
from ..models import Household
from ..selectors.access import get_household_for_user
from ..selectors.households import (
    household_invite,
    household_member,
    household_page,
    household_player,
    invite_by_token,
    invite_expired,
    pending_invites,
    roster_player_of,
)
from ..services import ServiceError
from ..services.households import (
    household_create,
    invite_accept,
    invite_create,
    invite_revoke,
    member_remove,
    player_claim,
    player_create,
    player_rename,
    player_retire,
)
from .rendering import HtmxHttpRequest, signed_in


@login_required
def household_new(request: HtmxHttpRequest) -> HttpResponse:
    form = HouseholdForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            household = household_create(user=signed_in(request), name=form.cleaned_data["name"])
        except ServiceError as error:
            form.add_error("name", str(error))
        else:
            return redirect("household", household_id=household.pk)
    return render(request, "scorepad/household_new.html", {"form": form})


def _detail(request: HtmxHttpRequest, household_id: int, **context: object) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    pending = [
        (invite, request.build_absolute_uri(reverse("invite", args=[invite.token])))
        for invite in pending_invites(household)
    ]
    context = {
        "household": household,
        **household_page(household),
        "player_form": PlayerForm(),
        "invites": pending,
        "me": roster_player_of(household, request.user),
        **context,
    }
    return render(request, "scorepad/household.html", context)


@login_required
def household_detail(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    return _detail(request, household_id)


@login_required
@require_POST
def player_add(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
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


def _to_section(household: Household, section: str) -> HttpResponse:
    """Back to the household page, at the section that changed (POST, then redirect)."""
    return redirect(f"{reverse('household', args=[household.pk])}#{section}")


@login_required
@require_POST
def invite_new(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    """POST makes a link, then a redirect shows it (a reload makes no second link)."""
    household = get_household_for_user(request.user, household_id)
    invite_create(household=household, user=signed_in(request))
    messages.success(request, "A new invitation link is ready below: send it to the person you invite.")
    return _to_section(household, "invites")


@login_required
@require_POST
def invite_revoke_view(request: HtmxHttpRequest, household_id: int, invite_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    invite_revoke(invite=household_invite(household, invite_id))
    messages.success(request, "The invitation link was withdrawn: it no longer works.")
    return _to_section(household, "invites")


@login_required
@require_POST
def member_remove_view(request: HtmxHttpRequest, household_id: int, user_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    member = household_member(household, user_id)
    try:
        member_remove(household=household, user=member)
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("household", household_id=household.pk)
    messages.success(request, f"{member.get_username()} is no longer a member.")
    if member.pk == request.user.pk:
        return redirect("home")  # you left: the household is not yours to see any more
    return redirect("household", household_id=household.pk)


@login_required
@require_POST
def player_edit(request: HtmxHttpRequest, household_id: int, player_id: int) -> HttpResponse:
    """Rename a player, or retire one (off the new-game form; games and statistics stay) and back."""
    household = get_household_for_user(request.user, household_id)
    player = household_player(household, player_id)
    try:
        if "retire" in request.POST:
            player_retire(player=player, retired=request.POST["retire"] == "1")
            done = f"{player.name} is retired." if player.retired else f"{player.name} is back on the roster."
        else:
            old = player.name
            player_rename(player=player, name=request.POST.get("name", ""))
            done = f"{old} is now {player.name}."
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return _to_section(household, "players")


@login_required
@require_POST
def player_me(request: HtmxHttpRequest, household_id: int, player_id: int) -> HttpResponse:
    """ "This is me" (``mine=1``) links the signed-in member to a roster player; ``mine=0`` undoes it."""
    household = get_household_for_user(request.user, household_id)
    player = household_player(household, player_id)
    mine = request.POST.get("mine") == "1"
    try:
        player_claim(player=player, user=signed_in(request), mine=mine)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        if mine:
            messages.success(request, f"You sit as {player.name} at {household.name}'s tables.")
        else:
            messages.success(request, f"{player.name} is no longer linked to an account.")
    return _to_section(household, "players")


@login_required
def invite_join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """GET shows whose household it is; the Join button (POST) uses the link up."""
    invite = invite_by_token(token)
    if request.method == "POST":
        try:
            household = invite_accept(token=token, user=signed_in(request))
        except ServiceError as error:
            messages.error(request, str(error))
            return redirect("home")
        messages.success(request, f"You are now a member of {household.name}.")
        return redirect("household", household_id=household.pk)
    expired = invite is not None and invite_expired(invite)
    return render(request, "scorepad/invite.html", {"invite": invite, "expired": expired})
