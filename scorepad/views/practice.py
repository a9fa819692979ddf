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
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from .. import bot_pool
from ..constants import PLAYER
from ..engine.answers import read_form_answer
from ..engine.game import from_json, seat_view
from ..engine.practice import ConcedeWeights
from ..engine.variants import VARIANTS
from ..engine.view import CONCEDE
from ..forms.practice import PracticeForm, variant_from
from ..models import PracticeGame
from ..pages.practice import Hint, bid_needs_asking, hint_of, practice_table
from ..pages.practice_review import concede_offer
from ..selectors.daily import daily_attempt_of
from ..selectors.practice import (
    current_practice,
    get_practice_for_request,
    history_rows,
    practice_history,
    practice_statistics,
    statistics_by_variant,
)
from ..services.daily import daily_note_hand
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
from .practice_session import form_holder, holds_forms, remember_game, session_user
from .rendering import HtmxHttpRequest, go_to, page_or_partial
from .thinking import pays_for_thinking

TEMPLATE = "scorepad/practice.html"
NOTICE_KEY = "practice_notice"  # a refusal after a plain form's redirect, shown once at the hand


NO_HINT = "The bots are busy at other tables: no hint just now. Try again in a moment."
NO_HINT_DAILY = "No hints on the daily deal's attempt that counts: this one is all yours."


def _posted(request: HtmxHttpRequest) -> bool:
    return request.method == "POST"


def _asks_hint(request: HtmxHttpRequest) -> bool:
    return request.GET.get("hint") == "1"


@holds_forms
@limited("practice-start", when=_posted)
@pays_for_thinking
def practice_home(request: HtmxHttpRequest) -> HttpResponse:
    """Pick the variant (a link per variant resets the rules to its defaults), rules and bots; start."""
    variant = variant_from(request.POST.get("variant") or request.GET.get("variant"))
    form = PracticeForm(
        variant, data=request.POST if request.method == "POST" else None, holder=form_holder(request)
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
@pays_for_thinking
def practice_game(request: HtmxHttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    return _table(request, game, hint=_asks_hint(request))


@require_POST
@limited("practice-move")
@pays_for_thinking
def practice_act_view(request: HtmxHttpRequest, practice_id: int) -> HttpResponse:
    """The player's answer, read from the form once; a bid far above the last one is asked about
    first (nothing written), anything else goes to the write, and the table is drawn after it."""
    game = get_practice_for_request(request, practice_id)
    state = from_json(game.state)
    said = read_form_answer(seat_view(state, PLAYER), request.POST)
    if str(request.POST.get("version")) == str(game.version):
        asking = bid_needs_asking(seat_view(state, PLAYER), said, deciding=state.to_act == PLAYER)
        if asking is not None:  # a bid far above the last one: asked first, nothing written yet
            return _table(request, game, ask=asking)
    return _write(request, game, lambda version: practice_act(game=game, version=version, answer=said).game)


@require_POST
def practice_undo_view(request: HtmxHttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    return _write(request, game, lambda version: practice_undo(game=game, version=version))


@require_POST
@limited("practice-move")
@pays_for_thinking
def practice_next_view(request: HtmxHttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    return _write(request, game, lambda version: practice_next_hand(game=game, version=version).game)


@require_POST
@limited("practice-start")
@pays_for_thinking
def practice_rematch_view(request: HtmxHttpRequest, practice_id: int) -> HttpResponse:
    game = get_practice_for_request(request, practice_id)
    try:
        rematch = practice_rematch(game=game, version=request.POST.get("version"), user=session_user(request))
    except PracticeRefused as error:
        return _refused(request, game, error)
    remember_game(request, rematch)
    return go_to(request, reverse("practice_game", args=[rematch.pk]))


@login_required
def practice_history_view(request: HtmxHttpRequest) -> HttpResponse:
    games = list(practice_history(request.user))
    context = {
        "rows": history_rows(games),
        "stats": practice_statistics(games),
        "by_variant": statistics_by_variant(games),
    }
    return render(request, "scorepad/practice_history.html", context)


# -- helpers ------------------------------------------------------------------------------------


def _write(
    request: HtmxHttpRequest, game: PracticeGame, write: Callable[[Any], PracticeGame]
) -> HttpResponse:
    try:
        game = write(request.POST.get("version"))
    except PracticeRefused as error:
        return _refused(request, game, error)
    daily_note_hand(game=game)  # a daily deal's attempt keeps its score once its hand ends
    if request.htmx:
        return _table(request, game)
    return redirect("practice_game", game.pk)


def _refused(request: HtmxHttpRequest, game: PracticeGame, error: PracticeRefused) -> HttpResponse:
    """The table as it stands, with the reason next to the hand: in place for htmx, else back at
    the table's URL (the reason kept in the session for that one page). Bots busy, without htmx:
    the table and the reason at once, with a 503 and when to try again."""
    if request.htmx or isinstance(error, PracticeBusy):
        game.refresh_from_db()
        response = _table(request, game, refused=str(error))
        return response if request.htmx else _busy(error, response)
    request.session[NOTICE_KEY] = str(error)
    return redirect("practice_game", game.pk)


def _busy(error: PracticeRefused | None, response: HttpResponse) -> HttpResponse:
    """A page that says the bots are busy is a 503 that says when to try again."""
    if isinstance(error, PracticeBusy):
        response.status_code, response["Retry-After"] = 503, str(error.retry_after)
    return response


def _table(
    request: HtmxHttpRequest,
    game: PracticeGame,
    *,
    hint: bool = False,
    refused: str = "",
    ask: int | None = None,
) -> HttpResponse:
    """The table, built once; a refusal or a question is shown at the hand, where the thumb is.
    The hint and the throw-in offer are thought first (``bot_pool``): the page only words them."""
    refused = refused or request.session.pop(NOTICE_KEY, "")
    daily = daily_attempt_of(game)  # the daily deal's counted attempt: no hint, no expert's weighing
    if hint and daily is not None and daily.counted:
        hint, refused = False, refused or NO_HINT_DAILY
    hinted = None
    if hint:
        try:
            hinted = _hint(game)
        except (bot_pool.BotsBusy, bot_pool.BrokenProcessPool):
            refused = refused or NO_HINT
    context = {
        "table": practice_table(game, hint=hinted),
        "practice": game,
        "refused": refused,
        "ask": ask,
        "concede": None if daily and daily.counted else concede_offer(_concede_weights(game)),
        "daily": daily,
    }
    return page_or_partial(request, TEMPLATE, "table", context)


def _hint(game: PracticeGame) -> Hint | None:
    """What the strongest bot would do in the player's seat, thought where the bots think."""
    state = from_json(game.state)
    if state.to_act != PLAYER:
        return None
    answer, reason = bot_pool.hint(game.state, game.seed, game.version)
    return hint_of(seat_view(state, PLAYER), answer, reason)


def _concede_weights(game: PracticeGame) -> ConcedeWeights | None:
    """The expert's weighing of the throw-in when the player must decide it; None otherwise, and
    while the bots are busy or this network's CPU is spent (the buttons then say less)."""
    state = from_json(game.state)
    if state.decision != CONCEDE or state.to_act != PLAYER:
        return None
    try:
        return bot_pool.weigh_concession(game.pk, game.version, game.state, game.seed)
    except (bot_pool.BotsBusy, bot_pool.BrokenProcessPool, bot_pool.BudgetSpent):
        return None


def _variant_links() -> list[tuple[str, str]]:
    return [(v.id, v.label) for v in VARIANTS.values()]
