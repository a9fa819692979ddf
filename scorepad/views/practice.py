"""Practice mode: whole games against the bots, one thumb, JavaScript optional.

Every action is a plain form naming the game and the version it was made on. A plain request
is redirected back to the table after a write (so reload never re-sends it); an htmx request
gets the ``practice.html#table`` partial at once. A refused action (stale, illegal) shows the
table as it stands with the reason, and changed nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ..engine.variants import VARIANTS
from ..forms.practice import PracticeForm, variant_from
from ..models import PracticeGame
from ..selectors.practice import (
    PracticeTable,
    bid_needs_asking,
    current_practice,
    get_practice_for_request,
    history_rows,
    practice_history,
    practice_statistics,
    practice_table,
    statistics_by_variant,
)
from ..selectors.practice_review import concede_offer
from ..services.practice import (
    PracticeAlreadyStarted,
    PracticeBusy,
    PracticeRefused,
    practice_act,
    practice_next_hand,
    practice_rematch,
    practice_start,
    practice_undo,
)
from .limits import limited
from .practice_session import remember_game, session_user
from .rendering import go_to, htmx_of, page_or_partial

TEMPLATE = "scorepad/practice.html"
NOTICE_KEY = "practice_notice"  # a refusal after a plain form's redirect, shown once at the hand


def _posted(request: HttpRequest) -> bool:
    return request.method == "POST"


def _asks_hint(request: HttpRequest) -> bool:
    return request.GET.get("hint") == "1"


@limited("practice-start", when=_posted)
def practice_home(request: HttpRequest) -> HttpResponse:
    """Pick the variant (a link per variant resets the rules to its defaults), rules and bots; start."""
    variant = variant_from(request.POST.get("variant") or request.GET.get("variant"))
    form = PracticeForm(
        variant, data=request.POST if request.method == "POST" else None, holder=_session_key(request)
    )
    busy: PracticeBusy | None = None
    if request.method == "POST" and form.is_valid():
        try:
            game = practice_start(
                user=session_user(request),
                variant_id=form.cleaned_data["variant"],
                overrides=form.overrides(),
                strength=form.cleaned_data["strength"],
                start_token=form.cleaned_data["start_token"],
            )
        except PracticeAlreadyStarted as error:
            # Said in words, and on to the game the first post started (nothing new was made).
            game = error.game
            request.session[NOTICE_KEY] = str(error)
        except PracticeRefused as error:
            form.add_error(None, str(error))
            game, busy = None, error if isinstance(error, PracticeBusy) else None
        if game is not None:
            remember_game(request, game)
            return go_to(request, reverse("practice_game", args=[game.pk]))
    if "start_token" in form.errors:
        form.renew_token()
    context = {
        "form": form,
        "variant": variant,
        "variants": _variant_links(),
        "current": current_practice(request),
    }
    return _busy(busy, render(request, "scorepad/practice_new.html", context))


@limited("practice-hint", when=_asks_hint)
def practice_game(request: HttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    return _table(request, game, hint=_asks_hint(request))


@require_POST
@limited("practice-move")
def practice_act_view(request: HttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    table = practice_table(game)
    if str(request.POST.get("version")) == str(game.version):
        asking = bid_needs_asking(table, request.POST)
        if asking is not None:  # a bid far above the last one: asked first, nothing written yet
            return _table(request, game, ask=asking, table=table)
    return _write(
        request, game, lambda version: practice_act(game=game, version=version, data=request.POST).game
    )


@require_POST
def practice_undo_view(request: HttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    return _write(request, game, lambda version: practice_undo(game=game, version=version))


@require_POST
@limited("practice-move")
def practice_next_view(request: HttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    return _write(request, game, lambda version: practice_next_hand(game=game, version=version).game)


@require_POST
@limited("practice-start")
def practice_rematch_view(request: HttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    try:
        rematch = practice_rematch(game=game, version=request.POST.get("version"), user=session_user(request))
    except PracticeRefused as error:
        return _refused(request, game, error)
    remember_game(request, rematch)
    return go_to(request, reverse("practice_game", args=[rematch.pk]))


@login_required
def practice_history_view(request: HttpRequest) -> HttpResponse:
    games = list(practice_history(request.user))
    context = {
        "rows": history_rows(games),
        "stats": practice_statistics(games),
        "by_variant": statistics_by_variant(games),
    }
    return render(request, "scorepad/practice_history.html", context)


# -- helpers ------------------------------------------------------------------------------------


def _write(request: HttpRequest, game: PracticeGame, write: Callable[[Any], PracticeGame]) -> HttpResponse:
    try:
        game = write(request.POST.get("version"))
    except PracticeRefused as error:
        return _refused(request, game, error)
    if htmx_of(request):
        return _table(request, game)
    return redirect("practice_game", game.pk)


def _refused(request: HttpRequest, game: PracticeGame, error: PracticeRefused) -> HttpResponse:
    """The table as it stands, with the reason next to the hand: in place for htmx, else back at
    the table's URL (the reason kept in the session for that one page). Bots busy, without htmx:
    the table and the reason at once, with a 503 and when to try again."""
    if htmx_of(request) or isinstance(error, PracticeBusy):
        game.refresh_from_db()
        response = _table(request, game, refused=str(error))
        return response if htmx_of(request) else _busy(error, response)
    request.session[NOTICE_KEY] = str(error)
    return redirect("practice_game", game.pk)


def _busy(error: PracticeRefused | None, response: HttpResponse) -> HttpResponse:
    """A page that says the bots are busy is a 503 that says when to try again."""
    if isinstance(error, PracticeBusy):
        response.status_code, response["Retry-After"] = 503, str(error.retry_after)
    return response


def _table(
    request: HttpRequest,
    game: PracticeGame,
    *,
    hint: bool = False,
    refused: str = "",
    ask: int | None = None,
    table: PracticeTable | None = None,
) -> HttpResponse:
    """The table; a refusal or a question is shown at the hand, where the thumb is."""
    refused = refused or request.session.pop(NOTICE_KEY, "")
    table = table or practice_table(game, hint=hint)
    context = {
        "table": table,
        "practice": game,
        "refused": refused,
        "ask": ask,
        "concede": concede_offer(game),  # the throw-in buttons' expected results
    }
    return page_or_partial(request, TEMPLATE, "table", context)


def _session_key(request: HttpRequest) -> str:
    """The browser session's key, made now if this browser has none yet: a start form's token is
    signed for it, and its limits count from the first game."""
    if request.session.session_key is None:
        request.session.save()
        request.session.modified = True  # so the response sets its cookie
    return str(request.session.session_key)


def _variant_links() -> list[tuple[str, str]]:
    return [(v.id, v.label) for v in VARIANTS.values()]
