"""History, statistics, and games in and out: JSON export and import, the household CSV."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from ..engine.variants import VARIANTS
from ..forms.history import HistoryFilterForm, ImportForm, RestoreForm, SeatsForm
from ..models import Game
from ..pages.statistics import partnership_leaderboard, player_statistics
from ..selectors.access import get_game_for_user, get_household_for_user
from ..selectors.exchange import game_export, household_backup, household_history_csv
from ..selectors.games import GameTally, game_tallies, games_for_household, scored_games, seated_side_names
from ..selectors.households import game_count, roster_size
from ..services import ServiceError
from ..services.exchange import game_import, household_restore
from .limits import exchange_limited, posted
from .rendering import HtmxHttpRequest, page_or_partial, signed_in

GAMES_PER_PAGE = 20
STATUS_FILTERS = {"": None, "finished": True, "playing": False}


@dataclass(frozen=True, slots=True)
class GameRow:
    """One line of the history list: who played, how it stands, who won."""

    game: Game
    sides: list[tuple[str, int]]  # (side's players, total)
    winners: list[str]


def _game_row(game: Game, tally: GameTally) -> GameRow:
    names = seated_side_names(game, tally.variant)
    return GameRow(
        game=game,
        sides=list(zip(names, tally.totals, strict=True)),
        winners=[names[side] for side in tally.winners],
    )


@login_required
@require_GET
def history(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    form = HistoryFilterForm(household, request.GET)
    form.is_valid()  # a filter that does not parse is dropped; the others still apply
    chosen = form.cleaned_data
    games = games_for_household(
        household,
        variant=chosen.get("variant") or None,
        player=chosen.get("player"),
        finished=STATUS_FILTERS[chosen.get("status", "")],
    )
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "household": household,
        "form": form,
        "page": page,
        "rows": [_game_row(game, tally) for game, tally in zip(page, game_tallies(page), strict=True)],
        "filter_query": query.urlencode(),
    }
    return page_or_partial(request, "scorepad/history.html", "game-list", context)


@login_required
@require_GET
def statistics(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    games = scored_games(household)
    rows = player_statistics(games)
    by_variant = [(variant, [row for row in rows if row.variant == variant]) for variant in VARIANTS.values()]
    context = {
        "household": household,
        "by_variant": [(v, r) for v, r in by_variant if r],
        "partnerships": partnership_leaderboard(games),
    }
    return render(request, "scorepad/statistics.html", context)


@login_required
@require_GET
@exchange_limited("export")
def game_export_json(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = get_game_for_user(request.user, game_id)
    response = JsonResponse(game_export(game=game), json_dumps_params={"indent": 2, "ensure_ascii": False})
    filename = f"pinochle-{game.variant}-game-{game.pk}.json"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@login_required
@require_GET
@exchange_limited("export")
def household_csv(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    response = HttpResponse(
        household_history_csv(household=household), content_type="text/csv; charset=utf-8"
    )
    filename = f"pinochle-{slugify(household.name) or 'household'}-hands.csv"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@login_required
@require_http_methods(["GET", "POST"])
@exchange_limited("restore", when=posted)
def game_import_view(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    """Step one reads and checks the record; step two (same form) seats the roster and saves."""
    household = get_household_for_user(request.user, household_id)
    form, seats_form, checked = ImportForm(), None, None
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            checked = form.cleaned_data
            seated = "seat_0" in request.POST
            seats_form = SeatsForm(household, checked["variant"].seats, request.POST if seated else None)
            if seated and seats_form.is_valid():
                try:
                    game = game_import(
                        household=household,
                        data=checked["data"],
                        seats=seats_form.cleaned_data["players"],
                        first_dealer=seats_form.cleaned_data["first_dealer"],
                    )
                except ServiceError as error:
                    seats_form.add_error(None, str(error))
                else:
                    hands = len(checked["scored"].hands)
                    messages.success(request, f"Imported {game}: {hands} hand{pluralize(hands)}.")
                    return redirect("history", household_id=household.pk)
            # The file's text moves into the textarea, so step two needs no second upload.
            form = ImportForm(initial={"record": checked["text"]})
    context = {
        "household": household,
        "form": form,
        "seats_form": seats_form,
        "checked": checked,
        "roster_size": roster_size(household),
    }
    return render(request, "scorepad/import.html", context)


# ---- household backup ---------------------------------------------------------------------------


@login_required
@require_GET
@exchange_limited("export")
def household_backup_json(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    response = JsonResponse(household_backup(household=household), json_dumps_params={"ensure_ascii": False})
    filename = f"pinochle-{slugify(household.name) or 'household'}-backup.json"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@login_required
@require_http_methods(["GET", "POST"])
@exchange_limited("restore", when=posted)
def household_restore_view(request: HtmxHttpRequest) -> HttpResponse:
    """Upload a household backup: checked in full, then restored as a new household you belong to."""
    form = RestoreForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            household = household_restore(data=form.cleaned_data["data"], user=signed_in(request))
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            games = game_count(household)
            messages.success(request, f"Restored {household.name}: {games} game{pluralize(games)}.")
            return redirect("household", household_id=household.pk)
    return render(request, "scorepad/household_restore.html", {"form": form})
