"""New game, the game page with its hand form, and corrections (edit, delete, undo).

The game page works without JavaScript (every button submits a form and the page comes
back); with htmx the same views answer with a partial of ``game.html``: the bid stepper
re-renders ``#hand-form``, a recorded hand or an undo re-renders ``#scorepad`` (scoreboard,
form and the hand table together).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import wraps
from typing import Any, Protocol
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import replace_url

from ..engine.cards import SUITS
from ..engine.variants import VARIANTS, Variant
from ..forms.games import (
    ENTRY_KEY,
    NO_MARRIAGE,
    HandForm,
    Intent,
    NewGameForm,
    intent_of,
    new_entry_key,
    stepped_bid,
)
from ..forms.meld import NO_TRUMP, calculator_url, parse_meld_now
from ..models import Game, Hand, Household
from ..selectors.access import get_game_for_user, get_household_for_user
from ..selectors.games import Scoresheet, club_table_of, entry_stored, game_hand, last_game, scoresheet
from ..selectors.households import active_roster
from ..services import ServiceError
from ..services.games import (
    CLUB_GAME,
    HAND_GONE,
    CorrectionAlreadyMade,
    GameOver,
    HandAlreadyRecorded,
    HandConflict,
    HandRefused,
    StaleCorrection,
    UndoneHand,
    game_abandon,
    game_delete,
    game_start,
    hand_delete,
    hand_edit,
    hand_preview,
    hand_record,
    hand_redo,
    hand_throw_in,
    hand_undo,
)
from ..services.households import player_create
from .rendering import HtmxHttpRequest, go_to, page_or_partial


class RenderPage(Protocol):
    """Renders the page a hand form sits on (or only its ``partial``) around ``form``."""

    def __call__(self, form: HandForm, partial: str | None = None, **extra: Any) -> HttpResponse: ...


# ---- new game ---------------------------------------------------------------------------------


@login_required
def game_new(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    variant = VARIANTS.get(request.POST.get("variant") or request.GET.get("variant", ""))
    if variant is None:
        return render(request, "scorepad/game_new.html", {"household": household, "variants": VARIANTS})
    players = active_roster(household)
    context: dict[str, Any] = {"household": household, "variant": variant}
    if request.method != "POST":
        form = NewGameForm(variant, players, initial=NewGameForm.like(variant, last_game(household, variant)))
    elif "add_player" in request.POST:
        form, context["new_player_error"] = _add_player(request, household, variant)
    else:
        form = NewGameForm(variant, players, data=request.POST)
        if form.is_valid():
            first = form.cleaned_data["first_dealer"]
            try:
                game = game_start(
                    household=household,
                    variant_id=variant.id,
                    overrides=form.overrides(),
                    players=form.players(),
                    first_dealer=secrets.randbelow(variant.seats) if first == "random" else int(first),
                )
            except ServiceError as error:
                form.add_error(None, str(error))
            else:
                return redirect("game", game_id=game.pk)
    return render(request, "scorepad/game_new.html", {**context, "form": form})


def _add_player(request: HtmxHttpRequest, household: Household, variant: Variant) -> tuple[NewGameForm, str]:
    """Add a name to the roster without losing what was chosen, and seat it in the first empty seat."""
    players = active_roster(household)
    initial = NewGameForm.kept(variant, request.POST)
    seats = [f"seat_{seat}" for seat in range(variant.seats)]
    error = ""
    try:
        player = player_create(household=household, name=request.POST.get("new_player", ""))
    except ServiceError as refusal:
        error = str(refusal)
        initial["new_player"] = request.POST.get("new_player", "")
    else:
        messages.success(request, f"{player.name} joined the roster.")
        empty = next((seat for seat in seats if not initial.get(seat)), None)
        if empty is not None:
            initial[empty] = str(player.pk)
    return NewGameForm(variant, players, initial=initial), error


# ---- the game page ----------------------------------------------------------------------------


def _hand_form(sheet: Scoresheet, **kwargs: Any) -> HandForm:
    return HandForm(
        variant=sheet.variant,
        settings=sheet.settings,
        players=sheet.players,
        side_names=sheet.side_names,
        **kwargs,
    )


def _new_hand_initial(sheet: Scoresheet, prefill: QueryDict | dict[str, Any]) -> dict[str, Any]:
    """A blank next hand: the bid starts at the minimum; a link (the meld calculator) may prefill."""
    values = HandForm.values_from(prefill, len(sheet.side_names))
    values.pop("number", None)
    return {
        "bid": sheet.settings.min_bid,
        "dealer": sheet.next_dealer,
        "entry_key": new_entry_key(),
        **values,
        "number": sheet.next_number,
    }


def _next_hand_form(sheet: Scoresheet, prefill: QueryDict | dict[str, Any]) -> HandForm | None:
    """The form for the next hand, or None once the game is over (no hand is accepted after it)."""
    return None if sheet.finished else _hand_form(sheet, initial=_new_hand_initial(sheet, prefill))


def _game_context(sheet: Scoresheet, form: HandForm | None, **extra: Any) -> dict[str, Any]:
    game = sheet.game
    club_table = club_table_of(game)  # a club table's game: its hands are changed by the director only
    return {
        "sheet": sheet,
        "game": game,
        "game_score": sheet.score,
        "form": form,
        "club_table": club_table,
        "action": reverse("hand_create", args=[game.pk]),
        "form_target": "#scorepad",
        "dealer": sheet.next_dealer,
        "advisor_url": calculator_url(sheet, reverse("game", args=[game.pk])),
        **extra,
    }


def _render_game(
    request: HtmxHttpRequest, sheet: Scoresheet, form: HandForm | None, **extra: Any
) -> HttpResponse:
    context = _game_context(sheet, form, redo=_redo_of(request, sheet), **extra)
    return page_or_partial(request, "scorepad/game.html", "scorepad", context)


def _show_result(response: HttpResponse, sheet: Scoresheet) -> HttpResponse:
    """After a hand is recorded or undone, scroll the phone up to the scoreboard to show the result,
    and drop any prefill (a count-it round trip's ``?meld_0=…``) from the address: a reload must not
    fill the next hand with the last one's values."""
    response["HX-Reswap"] = "outerHTML show:top"  # a swap with a modifier, which reswap's types lack
    return replace_url(response, reverse("game", args=[sheet.game.pk]))


def _to_game(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    return go_to(request, reverse("game", args=[game.pk]))


@login_required
def game_detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    sheet = scoresheet(get_game_for_user(request.user, game_id))
    return _render_game(request, sheet, _next_hand_form(sheet, request.GET))


def preview_words(sheet: Scoresheet, data: QueryDict) -> str:
    """What the hand would score, in words ("Ann & Cy 31 of 30: made · Ann & Cy +31, Bo & Di +21"),
    or the first thing missing or wrong: the words of ``hand_preview``, recording's dry run."""
    form = _hand_form(sheet, data=data)
    if not form.is_valid():
        return "Preview: " + _first_problem(form)
    try:
        preview = hand_preview(game=sheet.game, number=form.cleaned_data["number"], data=form.hand_data())
    except HandRefused as error:
        return f"Preview: {error.errors[0].message}"
    entry, score = preview.entry, preview.score
    bidders = sheet.variant.side_of(entry.bidder)
    name = sheet.side_names[bidders]
    changes = ", ".join(
        f"{side} {'+' if points > 0 else ''}{points}"
        for side, points in zip(sheet.side_names, score.scores, strict=True)
    )
    if not score.played:
        return f"{name}: not played, bid {entry.bid} lost · {changes}"
    took = entry.meld[bidders] + (entry.tricks or [0] * len(entry.meld))[bidders]
    return f"{name} {took} of {entry.bid}: {'made' if score.made else 'set'} · {changes}"


def _first_problem(form: HandForm) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return "check the hand."


def meld_calculator(request: HtmxHttpRequest, sheet: Scoresheet, page: str) -> HttpResponse:
    """Off to the meld calculator with the hand so far; it comes back with ``meld_<side>=N``.

    A side's meld already typed goes along as ``meld_now``: partners' meld adds (RULES.md §1.4, §2.4),
    so the calculator can offer the second partner's hand added to the first's.
    """
    values = HandForm.values_from(request.POST, len(sheet.side_names))
    try:
        side = int(request.POST["count_meld"])
    except ValueError:
        side = 0
    if not 0 <= side < len(sheet.side_names):
        side = 0
    meld_now = parse_meld_now(str(values.pop(f"meld_{side}", "")).strip())
    values.pop("number", None)
    params: dict[str, Any] = {
        "side": side,
        "side_label": sheet.side_names[side],  # the calculator shows it on its way-back button
    }
    if meld_now:  # 0 or a slip of the thumb: nothing to add to
        params["meld_now"] = meld_now
    if values.get("trump") in tuple(SUITS):
        params["trump"] = values["trump"]
    elif values.get("trump") == NO_MARRIAGE:  # counted with no trump, never the best suit (§2.3)
        params["trump"] = NO_TRUMP
    return go_to(request, calculator_url(sheet, f"{page}?{urlencode(values)}", **params))


# ---- the hand form's buttons: one intent each, one dispatch table ---------------------------------


@dataclass(frozen=True, slots=True)
class HandPage:
    """A page with a hand form: the game page's next hand, or a recorded hand's correction page."""

    request: HtmxHttpRequest
    sheet: Scoresheet
    url: str  # the page the meld calculator comes back to
    render: RenderPage
    save: Callable[[HandPage], HttpResponse]  # the RECORD intent: record or correct


def _answer_preview(page: HandPage) -> HttpResponse:
    preview = preview_words(page.sheet, page.request.POST)
    return render(page.request, "scorepad/game.html#preview-text", {"preview": preview})


def _answer_bid_step(page: HandPage) -> HttpResponse:
    """The stepper and the chips: the form comes back with the bid set; nothing is saved."""
    form = _hand_form(page.sheet, initial=stepped_bid(page.sheet, page.request.POST))
    return page.render(form, partial="hand-form" if page.request.htmx else None)


def _answer_count_meld(page: HandPage) -> HttpResponse:
    return meld_calculator(page.request, page.sheet, page.url)


def _answer_record(page: HandPage) -> HttpResponse:
    return page.save(page)


ANSWERS: dict[Intent, Callable[[HandPage], HttpResponse]] = {
    Intent.PREVIEW: _answer_preview,
    Intent.BID_STEP: _answer_bid_step,
    Intent.BID_CHIP: _answer_bid_step,
    Intent.COUNT_MELD: _answer_count_meld,
    Intent.THROW_IN: lambda page: _throw_in(page.request, page.sheet, page.render),
    Intent.RECORD: _answer_record,
}
NEXT_HAND_INTENTS = frozenset(Intent)
CORRECTION_INTENTS = NEXT_HAND_INTENTS - {Intent.THROW_IN}  # a recorded hand is corrected, not thrown in


def _answer(page: HandPage, offered: Collection[Intent]) -> HttpResponse:
    return ANSWERS[intent_of(page.request.POST, offered)](page)


@login_required
@require_POST
def hand_create(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = get_game_for_user(request.user, game_id)
    sheet = scoresheet(game)
    # A stale page or a resent form: say so instead of showing the hand form again. The winning hand
    # sent again (its answer was lost) goes on to the service, which answers it as stored.
    if sheet.finished and not entry_stored(game, request.POST.get("entry_key", "")):
        messages.info(request, "The game is over: no more hands can be recorded.")
        return _to_game(request, game)

    def render_page(form: HandForm, partial: str | None = None, **extra: Any) -> HttpResponse:
        if partial:
            return render(request, f"scorepad/game.html#{partial}", _game_context(sheet, form, **extra))
        return _render_game(request, sheet, form, **extra)

    page = HandPage(request, sheet, reverse("game", args=[game.pk]), render_page, _record_hand)
    return _answer(page, NEXT_HAND_INTENTS)


def _record_hand(page: HandPage) -> HttpResponse:
    request, game = page.request, page.sheet.game
    form = _hand_form(page.sheet, data=request.POST)
    if form.is_valid():
        try:
            sheet = hand_record(
                game=game,
                number=form.cleaned_data["number"],
                data=form.hand_data(),
                dealer=form.cleaned_data["dealer"],
                entry_key=form.cleaned_data["entry_key"],
            )
        except HandConflict as error:
            return _show_conflict(page, form, error)
        except HandAlreadyRecorded as error:
            messages.info(request, str(error))
            return _to_game(request, game)
        except GameOver as error:
            # Won since this page was opened: the page as it is now, saying so. Not a redirect, which
            # the offline outbox (static/js/outbox.js) would take for "stored".
            return _render_game(request, scoresheet(game), None, notice=str(error))
        except HandRefused as error:
            form.add_refusals(error.errors)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            return _after_write(request, sheet)
    return page.render(form)


def _show_conflict(page: HandPage, form: HandForm, conflict: HandConflict) -> HttpResponse:
    """Another phone recorded this hand meanwhile: both versions in words, never merged. The form
    comes back filled with this phone's hand as the next hand, so one deliberate tap records it;
    leaving the page discards it. A plain POST (no htmx) answers 409, which the offline outbox
    (static/js/outbox.js) reads as a conflict."""
    sheet = scoresheet(page.sheet.game)
    stored = next((row for row in sheet.rows if row.hand_id == conflict.stored.pk), None)
    values = HandForm.values_from(page.request.POST, len(sheet.side_names))
    values.pop("dealer", None)  # the next hand has its own dealer
    again = _hand_form(sheet, initial=_new_hand_initial(sheet, values))
    yours = form.entered()
    response = page.render(again, conflict={"number": conflict.number, "stored": stored, "yours": yours})
    if not page.request.htmx:
        response.status_code = 409
    return response


def _posted_key(request: HtmxHttpRequest) -> str | None:
    key = request.POST.get("entry_key", "")
    return key if ENTRY_KEY.fullmatch(key) else None


def _throw_in(request: HtmxHttpRequest, sheet: Scoresheet, render_page: RenderPage) -> HttpResponse:
    """The deal was thrown in (a misdeal, or all passed): recorded with its dealer, scoring nothing."""
    game = sheet.game
    number = _posted_int(request, "number")
    try:
        sheet = hand_throw_in(
            game=game,
            number=sheet.next_number if number is None else number,
            dealer=_posted_int(request, "dealer"),
            entry_key=_posted_key(request),
        )
    except HandAlreadyRecorded as error:
        messages.info(request, str(error))
        return _to_game(request, game)
    except ServiceError as error:
        # A stale tap (another phone undid a hand) or a dealer that is no seat: the refusal above
        # the form for the next hand as it stands now (an unbound form cannot carry the error).
        form = _hand_form(sheet, initial=_new_hand_initial(sheet, request.POST))
        return render_page(form, refusal=str(error))
    return _after_write(request, sheet)


def _posted_int(request: HtmxHttpRequest, name: str) -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


REDO_KEY = "redo-{}"  # per game, in the session of the phone that undid


def _redo_of(request: HtmxHttpRequest, sheet: Scoresheet) -> UndoneHand | None:
    """The hand this phone undid, while the game is still as the undo left it."""
    data = request.session.get(REDO_KEY.format(sheet.game.pk))
    if not data:
        return None
    undone = UndoneHand.from_json(data)
    return undone if undone.revision == sheet.game.revision else None


def _after_write(request: HtmxHttpRequest, sheet: Scoresheet, notice: str = "") -> HttpResponse:
    """Back to a blank form for the next hand, saying ``notice`` if any (a plain redirect drops
    any prefill from the URL)."""
    if not request.htmx:
        if notice:
            messages.info(request, notice)
        return redirect("game", game_id=sheet.game.pk)
    return _show_result(_render_game(request, sheet, _next_hand_form(sheet, {}), notice=notice), sheet)


@login_required
@require_POST
def game_undo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Undo names the hand (id and version): a stale or repeated undo is refused, never shifted."""
    game = get_game_for_user(request.user, game_id)
    hand_id, version = _posted_int(request, "hand_id"), _posted_int(request, "version")
    if hand_id is None or version is None:
        return _after_write(request, scoresheet(game), "Undo which hand? Reload the page and try again.")
    try:
        sheet, undone = hand_undo(game=game, hand_id=hand_id, version=version)
    except ServiceError as error:
        return _after_write(request, scoresheet(game), str(error))
    request.session[REDO_KEY.format(game.pk)] = undone.to_json()
    return _after_write(request, sheet, f"Hand {undone.number + 1} undone.")


@login_required
@require_POST
def game_redo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Put back what this phone undid, exactly, unless the game has moved on since."""
    game = get_game_for_user(request.user, game_id)
    data = request.session.pop(REDO_KEY.format(game.pk), None)
    if not data:
        return _after_write(request, scoresheet(game), "There is nothing to redo.")
    undone = UndoneHand.from_json(data)
    try:
        sheet = hand_redo(game=game, undone=undone)
    except ServiceError as error:
        return _after_write(request, scoresheet(game), str(error))
    return _after_write(request, sheet, f"Hand {undone.number + 1} is back.")


# ---- corrections ------------------------------------------------------------------------------


def _hand_initial(hand: Hand) -> dict[str, Any]:
    values: dict[str, Any] = {"number": hand.number, "version": hand.version, "dealer": hand.dealer}
    if hand.thrown_in:
        return values
    values.update({"bidder": hand.bidder, "bid": hand.bid, "trump": hand.trump or NO_MARRIAGE})
    for side, meld in enumerate(hand.meld or []):
        values[f"meld_{side}"] = meld
    for side, points in enumerate(hand.tricks or []):
        values[f"tricks_{side}"] = points
    for side, took in enumerate(hand.took_trick or []):
        values[f"took_{side}"] = took
    return values


class HandGone(Exception):
    """The hand a link names is gone (undone or deleted on another phone); ``back_when_gone``
    turns it into the way back to the game, saying so."""

    def __init__(self, game: Game) -> None:
        super().__init__(HAND_GONE)
        self.game = game


class ClubGame(Exception):
    """The game a correction page names is a club table's: only the director changes its hands
    (``services.games`` refuses it too); ``back_when_gone`` turns it into the game page, saying so."""

    def __init__(self, game: Game) -> None:
        super().__init__(CLUB_GAME)
        self.game = game


def _hand_of(game: Game, hand_id: int) -> Hand:
    """The hand a link names, or ``HandGone``; ``ClubGame`` for a club table's game."""
    if club_table_of(game) is not None:
        raise ClubGame(game)
    hand = game_hand(game, hand_id)
    if hand is None:
        raise HandGone(game)
    return hand


def back_when_gone(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer ``HandGone`` (or ``ClubGame``) from ``view`` with the game page and a notice saying so."""

    @wraps(view)
    def answer(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except (HandGone, ClubGame) as gone:
            messages.info(request, str(gone))
            return _to_game(request, gone.game)

    return answer


@login_required
@back_when_gone
def hand_edit_view(request: HtmxHttpRequest, game_id: int, hand_id: int) -> HttpResponse:
    game = get_game_for_user(request.user, game_id)
    hand = _hand_of(game, hand_id)
    sheet = scoresheet(game)
    page = reverse("hand_edit", args=[game.pk, hand.pk])

    def render_page(form: HandForm, partial: str | None = None, **extra: Any) -> HttpResponse:
        context = {
            **_game_context(sheet, form, **extra),
            "hand": hand,
            "action": page,
            "form_target": "#hand-form",
            "dealer": hand.dealer,
            "editing": True,
            "advisor_url": calculator_url(sheet, page),
        }
        if partial or request.htmx:
            return render(request, "scorepad/game.html#hand-form", context)
        return render(request, "scorepad/hand_edit.html", context)

    def fresh_form(**values: Any) -> HandForm:
        return _hand_form(sheet, initial={**_hand_initial(hand), **values, "number": hand.number})

    def correct(hand_page: HandPage) -> HttpResponse:
        nonlocal hand, sheet
        form = _hand_form(sheet, data=request.POST)
        if not form.is_valid():
            return render_page(form)
        try:
            hand_edit(
                game=game,
                hand_id=hand.pk,
                version=form.cleaned_data["version"] or 0,
                data=form.hand_data(),
                dealer=form.cleaned_data["dealer"],
            )
        except CorrectionAlreadyMade as error:  # sent again: the first answer was lost on the way
            messages.info(request, str(error))
            return _to_game(request, game)
        except StaleCorrection as error:
            hand, sheet = _hand_of(game, hand.pk), scoresheet(game)  # deleted on another phone meanwhile?
            # The hand as it is now, with its new version, under the refusal.
            return render_page(fresh_form(), refusal=str(error))
        except HandRefused as error:
            form.add_refusals(error.errors)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Hand {hand.number + 1} corrected; the totals are scored again.")
            return _to_game(request, game)
        return render_page(form)

    if request.method != "POST":
        return render_page(fresh_form(**HandForm.values_from(request.GET, len(sheet.side_names))))
    return _answer(HandPage(request, sheet, page, render_page, correct), CORRECTION_INTENTS)


@login_required
@back_when_gone
def hand_delete_view(request: HtmxHttpRequest, game_id: int, hand_id: int) -> HttpResponse:
    """GET asks first (a page that works without JavaScript); POST deletes the version it showed."""
    game = get_game_for_user(request.user, game_id)
    hand = _hand_of(game, hand_id)
    notice = ""
    if request.method == "POST":
        try:
            hand_delete(game=game, hand_id=hand.pk, version=_posted_int(request, "version") or 0)
        except StaleCorrection as error:
            # Deleted on another phone meanwhile (HandGone), or changed: show it as it is now and ask again.
            hand, notice = _hand_of(game, hand.pk), str(error)
        except ServiceError as error:
            messages.error(request, str(error))
            return _to_game(request, game)
        else:
            messages.success(request, f"Hand {hand.number + 1} deleted; the totals are scored again.")
            return _to_game(request, game)
    sheet = scoresheet(game)
    context = {"game": game, "sheet": sheet, "hand": hand, "row": sheet.rows[hand.number], "notice": notice}
    return render(request, "scorepad/hand_delete.html", context)


# ---- the game itself --------------------------------------------------------------------------


@login_required
@require_POST
def game_abandon_view(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Abandon an unfinished game (out of the statistics), or take it up again."""
    game = get_game_for_user(request.user, game_id)
    abandon = request.POST.get("abandoned") == "1"
    try:
        game_abandon(game=game, abandoned=abandon)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, "Game abandoned: it is left out of the statistics." if abandon else "Game resumed."
        )
    return _to_game(request, game)


@login_required
def game_delete_view(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET asks first; POST deletes the game and its hands."""
    game = get_game_for_user(request.user, game_id)
    if request.method != "POST":
        return render(request, "scorepad/game_delete.html", {"game": game, "sheet": scoresheet(game)})
    household_id = game.household_id
    try:
        game_delete(game=game)
    except ServiceError as error:
        messages.error(request, str(error))
        return _to_game(request, game)
    messages.success(request, "The game was deleted.")
    return redirect("household", household_id=household_id)
