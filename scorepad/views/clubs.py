"""Club night: the director's pages (new event, check-in, start and close rounds, the table cards:
each physical table's link, QR code and PIN for the whole night) and a table's phone (its PIN, then
who sits where this round, the hand form, the other side's confirmation, and at the round's end
where each goes next, until the next round seats the table again).

A table's phone needs no account: the card's link and its PIN give a signed cookie for that table
only (its path is the card's link), naming the phone and the side it enters for, all night: each
round the same link shows that round's table. Wrong PINs are
counted per phone and per network, never against the table for everyone (``throttle.PinGuess``);
the director can unlock a table or give it a new PIN (``views.club_director``). The hand form is
the scorepad's own (``HandForm``, the ``hand-form`` partial of ``game.html``) and a hand is recorded
by the scorepad's own service, so it is checked and scored exactly as on the scorepad.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from .. import throttle
from ..constants import PLAYER_NAME_MAX
from ..forms.clubs import AnswerForm, CardsForm, CheckInForm, EventForm, LeaveForm, PinForm, VersionForm
from ..forms.games import HandForm, Intent, intent_of, new_entry_key, stepped_bid
from ..forms.meld import calculator_url
from ..models import ClubEvent, ClubTable, ClubTableCard, TableHand
from ..pages.clubs import hand_lines, plan_lines, round_seating, seat_lines, side_places, where_next_lines
from ..pages.qr import qr_svg
from ..selectors.access import get_household_for_user
from ..selectors.club_director import keep_table_points, standings_token_of
from ..selectors.clubs import (
    TableView,
    card_by_token,
    card_table,
    check_in_roster,
    current_round,
    director_event,
    entrants_with_players,
    event_card,
    event_cards,
    event_standings,
    household_events,
    next_round_plan,
    open_hands,
    round_tables,
    table_view,
    where_next,
)
from ..selectors.games import scoresheet
from ..selectors.households import active_roster
from ..selectors.seasons import household_season, household_seasons, season_for_day
from ..services import ServiceError
from ..services.clubs import (
    entrant_check_in,
    entrant_leave,
    event_create,
    newcomer_names,
    round_close,
    round_start,
    table_cards_make,
    table_hand_confirm,
    table_hand_dispute,
    table_hand_record,
)
from ..services.games import GameOver, HandAlreadyRecorded, HandConflict, HandRefused
from .games import meld_calculator, preview_words
from .rendering import HtmxHttpRequest, go_to, page_or_partial, signed_in

TABLE_COOKIE = "club_table"
TABLE_COOKIE_SALT = "scorepad.clubs.table"
TABLE_COOKIE_HOURS = 12  # a club night
PHONE_COOKIE = "club_phone"  # a phone's own id, set by a PIN page: its wrong PINs are counted apart
PHONE_COOKIE_DAYS = 400
PHONE_ID_BYTES = 12
PHONE_ID = re.compile(r"[A-Za-z0-9_-]{16}")
TABLE_POLL_SECONDS = 10  # a phone waiting for the director (to seat, close or start a round) asks again


# ---- the director ---------------------------------------------------------------------------------


@login_required
def club_event_new(request: HtmxHttpRequest, household_id: int) -> HttpResponse:
    household = get_household_for_user(request.user, household_id)
    today = season_for_day(household, timezone.localdate())
    initial = {"format": ClubEvent.Format.TEAMS, "variant": "classic", "season": today.pk if today else ""}
    form = EventForm(request.POST or None, initial=initial, seasons=household_seasons(household))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = event_create(
                household=household,
                director=signed_in(request),
                name=data["name"],
                variant_id=data["variant"],
                overrides=form.overrides(),
                format=data["format"],
                rounds=data["rounds"],
                round_end=data["round_end"],
                round_minutes=data["round_minutes"],
                hands_per_round=data["hands_per_round"],
                bye_score=data["bye_score"],
                bye_points=data["bye_points"] or 0,
                ranking=data["ranking"] or "",
                season=household_season(household, int(data["season"])) if data["season"] else None,
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            return redirect("club_event", event_id=event.pk)
    events = household_events(household.pk, signed_in(request))
    context = {
        "household": household,
        "form": form,
        "events": events,
        "seasons": household_seasons(household),
    }
    return render(request, "scorepad/club/event_new.html", context)


def _event_context(request: HtmxHttpRequest, event: ClubEvent, **extra: Any) -> dict[str, Any]:
    entrants = entrants_with_players(event)
    find = request.GET.get("find", "")[:PLAYER_NAME_MAX]
    roster = check_in_roster(event, find)
    plan = next_round_plan(event, entrants)
    playing = current_round(event)
    return {
        "event": event,
        "entrants": entrants,
        "check_in": extra.pop("check_in", None)
        or CheckInForm(roster=roster, initial={"version": event.version}),
        "plan": plan,
        "plan_lines": plan_lines(event, plan) if not plan.problem else [],
        "round": playing,
        "tables": round_tables(playing) if playing else [],
        "open_hands": open_hands(event),
        "standings": event_standings(event),
        "teams": event.format == ClubEvent.Format.TEAMS,
        "room_url": reverse("club_standings_live", args=[standings_token_of(event)]),
        "find": find,
        **extra,
    }


@login_required
def club_event(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The director's page. Seams for the director's other pages (progress, clock, corrections,
    live standings, prizes, exports) are marked in the template."""
    event = director_event(request.user, event_id)
    return page_or_partial(request, "scorepad/club/event.html", "event-body", _event_context(request, event))


def first_error(form: forms.Form) -> str:
    """The form's first problem in words."""
    for errors in form.errors.values():
        return str(errors[0])
    return "Check the form."


def back_to(request: HtmxHttpRequest, url: str, *, error: str = "", done: str = "") -> HttpResponse:
    """Back to the director's page, saying what went wrong or what was done."""
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    return go_to(request, url)


Tap = Callable[..., str]  # (request, event, the form's values, the URL's other ids) -> what was done


def director_tap(
    form: type[forms.Form],
    *,
    page: str = "club_event",
    form_kwargs: Callable[[ClubEvent], dict[str, Any]] | None = None,
) -> Callable[[Tap], Callable[..., HttpResponse]]:
    """A director's button as a view: POST only, the director's own event (404 for anyone else),
    ``form`` read (with the event's version as the page showed it); the decorated function calls
    the service and says what was done. A bad form or a refusal goes back to ``page`` in words."""

    def decorate(tap: Tap) -> Callable[..., HttpResponse]:
        @login_required
        @require_POST
        @wraps(tap)
        def view(request: HtmxHttpRequest, event_id: int, **ids: int) -> HttpResponse:
            event = director_event(request.user, event_id)
            bound = form(request.POST, **(form_kwargs(event) if form_kwargs else {}))
            url = reverse(page, args=[event.pk])
            if not bound.is_valid():
                return back_to(request, url, error=first_error(bound))
            try:
                done = tap(request, event, bound.cleaned_data, **ids)
            except ServiceError as error:
                return back_to(request, url, error=str(error))
            return back_to(request, url, done=done)

        return view

    return decorate


@director_tap(CheckInForm, form_kwargs=lambda event: {"roster": active_roster(event.household)})
def club_check_in(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any]) -> str:
    entrant = entrant_check_in(
        event=event,
        version=data["version"],
        players=list(data["players"]),
        newcomers=newcomer_names(data["newcomers"]),
    )
    when = f" (plays from round {entrant.arrived_before})" if entrant.arrived_before > 1 else ""
    return f"Checked in: {entrant.name}{when}."


@director_tap(LeaveForm)
def club_leave(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any]) -> str:
    entrant = entrant_leave(event=event, version=data["version"], entrant_id=data["entrant"])
    return f"{entrant.name} left after round {entrant.left_after}."


@director_tap(VersionForm)
def club_round_start(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any]) -> str:
    club_round = round_start(event=event, version=data["version"], accept_repeats=data["accept"])
    return (
        f"Round {club_round.number} started: the tables' phones show who sits where (the same link and PIN "
        "as on each table's card)."
    )


@director_tap(VersionForm)
def club_round_close(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any]) -> str:
    club_round = round_close(event=event, version=data["version"], accept_open_hands=data["accept"])
    return f"Round {club_round.number} closed: the tables show where everyone goes next."


@login_required
def club_tables(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The table cards, printed once for the night: each physical table's link, QR code and PIN
    (the same every round), who sits there in the round being played, whether wrong PINs locked it
    for new phones, and the director's way to unlock it or give it a new PIN."""
    event = director_event(request.user, event_id)
    playing = current_round(event)
    seated = {table.number: table for table in round_tables(playing)} if playing else {}
    cards = [
        (
            card,
            request.build_absolute_uri(reverse("club_table", args=[card.token])),
            throttle.in_words(wait) if (wait := throttle.pin_table_wait(pin_counts_key(card))) else "",
            seated.get(card.number),
        )
        for card in event_cards(event)
    ]
    plan = next_round_plan(event) if not cards else None
    context = {
        "event": event,
        "round": playing,
        "cards": cards,
        "make_count": len(plan.tables) if plan and not plan.problem else 1,
        "plan": plan,
    }
    return render(request, "scorepad/club/tables.html", context)


@director_tap(CardsForm, page="club_tables")
def club_cards_make(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any]) -> str:
    cards = table_cards_make(event=event, version=data["version"], count=data["count"])
    return f"{len(cards)} table cards, one per table for the whole night: print them once."


@login_required
def club_table_qr(request: HtmxHttpRequest, event_id: int, card_id: int) -> HttpResponse:
    """The table's link as a QR code (SVG), made here: no outside service sees the link."""
    event = director_event(request.user, event_id)
    card = event_card(event, card_id)
    link = request.build_absolute_uri(reverse("club_table", args=[card.token]))
    response = HttpResponse(qr_svg(link), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


# ---- a table's phone ------------------------------------------------------------------------------


def _card_or_404(token: str) -> ClubTableCard:
    card = card_by_token(token)
    if card is None:
        raise Http404("There is no such table: check the link or ask the director.")
    return card


def _phone_of(request: HtmxHttpRequest, card: ClubTableCard) -> tuple[str, int] | None:
    """(phone id, side) from this table's cookie, or None: no PIN typed here yet (or another table's)."""
    try:
        raw = request.get_signed_cookie(
            TABLE_COOKIE, salt=TABLE_COOKIE_SALT, max_age=TABLE_COOKIE_HOURS * 3600
        )
        data = json.loads(raw or "")
        if data["c"] != card.pk:
            return None
        return str(data["p"]), int(data["s"])
    except (KeyError, ValueError, TypeError, signing.BadSignature):
        return None


def pin_counts_key(card: ClubTableCard) -> str:
    """Under what the table's wrong PINs are counted: its link, and how often the director
    unlocked it or changed its PIN (each time, the counts start afresh)."""
    return f"{card.token}:{card.pin_unlocks}"


def _phone_id(request: HtmxHttpRequest) -> str:
    """This phone's own id (``PHONE_COOKIE``), "" when it brings none (or not one of ours)."""
    value = request.COOKIES.get(PHONE_COOKIE, "")
    return value if PHONE_ID.fullmatch(value) else ""


def _pin_guess(request: HtmxHttpRequest, card: ClubTableCard) -> throttle.PinGuess:
    return throttle.PinGuess(
        table=pin_counts_key(card),
        phone=_phone_id(request),
        holds_table=_phone_of(request, card) is not None,
        card=card.token,
    )


def _pin_page(
    request: HtmxHttpRequest, card: ClubTableCard, form: PinForm, status: int = 200, refusal: str = ""
) -> HttpResponse:
    context = {"card": card, "event": card.event, "form": form, "refusal": refusal}
    response = render(request, "scorepad/club/pin.html", context, status=status)
    if not _phone_id(request):  # a cookie, no session row: its wrong PINs are its own
        response.set_cookie(
            PHONE_COOKIE,
            secrets.token_urlsafe(PHONE_ID_BYTES),
            max_age=PHONE_COOKIE_DAYS * 86_400,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


def _side_names(card: ClubTableCard, table: ClubTable | None) -> list[str]:
    """The sides a phone may enter for: where they sit at the table, the same every round, with
    who sits there now ("North–South (Ann & Bob)")."""
    places = side_places(card.event)
    if table is None:
        return places
    names = scoresheet(table.game).side_names
    return [f"{place} ({name})" for place, name in zip(places, names, strict=False)]


def _pin_form(card: ClubTableCard, table: ClubTable | None, data: QueryDict | None = None) -> PinForm:
    return PinForm(data, side_names=_side_names(card, table))


def club_table(request: HtmxHttpRequest, table_token: str) -> HttpResponse:
    """A table's phone, all night: the PIN first, then the table as seated in the latest round."""
    card = _card_or_404(table_token)
    table = card_table(card)
    if request.method == "POST" and "pin" in request.POST:
        return _check_pin(request, card, table)
    phone = _phone_of(request, card)
    if phone is None:
        return _pin_page(request, card, _pin_form(card, table))
    if table is None:
        context = {"card": card, "event": card.event, "poll_seconds": TABLE_POLL_SECONDS}
        return render(request, "scorepad/club/table_waiting.html", context)
    if request.htmx and _moved_on(request, table):
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"  # a new round at this table: the whole page, its forms and heading
        return response
    return _render_table(request, table_view(table), phone)


def _moved_on(request: HtmxHttpRequest, table: ClubTable) -> bool:
    """Whether a page waiting after round ``?after=`` now sees a later round at its table."""
    try:
        return int(request.GET.get("after", "")) < table.round.number
    except ValueError:
        return False


def _check_pin(request: HtmxHttpRequest, card: ClubTableCard, table: ClubTable | None) -> HttpResponse:
    form = _pin_form(card, table, request.POST)
    guess = _pin_guess(request, card)
    if over := throttle.pin_refusal(request, guess):
        response = _pin_page(request, card, form, status=throttle.TOO_MANY_REQUESTS, refusal=over.words)
        response["Retry-After"] = str(over.seconds)
        return response
    if not form.is_valid():
        return _pin_page(request, card, form)
    if not secrets.compare_digest(form.cleaned_data["pin"], card.pin):
        throttle.pin_wrong(request, guess)
        form.add_error("pin", "That is not this table's PIN: check the table number, or ask the director.")
        return _pin_page(request, card, form)
    throttle.pin_right(request, guess)
    url = reverse("club_table", args=[card.token])
    response = redirect(url)
    value = json.dumps({"c": card.pk, "p": secrets.token_urlsafe(9), "s": form.cleaned_data["side"]})
    response.set_signed_cookie(
        TABLE_COOKIE,
        value,
        salt=TABLE_COOKIE_SALT,
        max_age=TABLE_COOKIE_HOURS * 3600,
        path=url,  # this table's pages only: another table's link never sees it
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


def _hand_form(view: TableView, **kwargs: Any) -> HandForm:
    sheet = view.sheet
    return HandForm(
        variant=sheet.variant,
        settings=sheet.settings,
        players=sheet.players,
        side_names=sheet.side_names,
        **kwargs,
    )


def _next_form(view: TableView, prefill: QueryDict | dict[str, Any]) -> HandForm | None:
    """The next hand's form while the table may still enter one, prefilled by a link (meld count)."""
    if not view.open or view.sheet.finished or view.hands_left == 0:
        return None
    values = HandForm.values_from(prefill, len(view.sheet.side_names))
    values.pop("number", None)
    initial = {
        "bid": view.sheet.settings.min_bid,
        "dealer": view.sheet.next_dealer,
        "entry_key": new_entry_key(),
        **values,
        "number": view.sheet.next_number,
    }
    return _hand_form(view, initial=initial)


def _table_context(
    request: HtmxHttpRequest, view: TableView, phone: tuple[str, int], **extra: Any
) -> dict[str, Any]:
    url = reverse("club_table", args=[view.table.token])
    form = extra.pop("form", None) if "form" in extra else _next_form(view, request.GET)
    after = not view.open
    hands = hand_lines(view, phone[0], phone[1])
    return {
        "view": view,
        "table": view.table,
        "event": view.event,
        "sheet": view.sheet,
        "game": view.sheet.game,
        "form": form,
        # The page's round and table go with every hand it sends: a page left open from another
        # round is refused in words, never recorded at the wrong table.
        "action": f"{reverse('club_table_hand', args=[view.table.token])}?round={view.round.number}"
        f"&table={view.table.number}",
        "form_target": "#club-table",
        "dealer": view.sheet.next_dealer,
        "advisor_url": calculator_url(view.sheet, url),
        "brief": True,
        "seats": seat_lines(view),
        "seating": round_seating(view),
        # The movement left this table empty in the round being played: its phone waits.
        "idle_round": view.event.current_round if view.event.current_round > view.round.number else None,
        "hands": hands,
        # A hand waits for the other side's answer on this page: nothing may replace it unasked.
        "answering": any(hand.table_hand_id and hand.state == TableHand.State.ENTERED for hand in hands),
        "side_name": view.sheet.side_names[phone[1]] if phone[1] < len(view.sheet.side_names) else "",
        "where_next": where_next_lines(where_next(view.event, list(view.table.seats))) if after else [],
        "poll_seconds": TABLE_POLL_SECONDS,
        **extra,
    }


def _render_table(
    request: HtmxHttpRequest, view: TableView, phone: tuple[str, int], status: int = 200, **extra: Any
) -> HttpResponse:
    context = _table_context(request, view, phone, **extra)
    return page_or_partial(request, "scorepad/club/table.html", "club-table", context, status=status)


def _phone_or_pin(
    request: HtmxHttpRequest, card: ClubTableCard, table: ClubTable | None
) -> tuple[str, int] | HttpResponse:
    phone = _phone_of(request, card)
    if phone is None:
        words = "This phone has not opened this table: type its PIN first. Nothing was recorded."
        return _pin_page(request, card, _pin_form(card, table), status=403, refusal=words)
    return phone


def _table_now(
    request: HtmxHttpRequest, table_token: str
) -> tuple[ClubTable, tuple[str, int]] | HttpResponse:
    """The table a phone's post is for (its card's latest round) and the phone, or the page to
    answer with: the PIN first, or that no round has seated the table yet."""
    card = _card_or_404(table_token)
    table = card_table(card)
    phone = _phone_or_pin(request, card, table)
    if isinstance(phone, HttpResponse):
        return phone
    if table is None:
        context = {"card": card, "event": card.event, "poll_seconds": TABLE_POLL_SECONDS}
        return render(request, "scorepad/club/table_waiting.html", context, status=409)
    return table, phone


@require_POST
def club_table_hand(request: HtmxHttpRequest, table_token: str) -> HttpResponse:
    """The table's hand form: record (or throw in) a hand, or the form's helpers (preview, bid steps,
    counting meld), as on the scorepad's game page."""
    found = _table_now(request, table_token)
    if isinstance(found, HttpResponse):
        return found
    table, phone = found
    view = table_view(table)
    intent = intent_of(request.POST, frozenset(Intent))
    if intent == Intent.PREVIEW:
        return render(
            request, "scorepad/game.html#preview-text", {"preview": preview_words(view.sheet, request.POST)}
        )
    if intent in (Intent.BID_STEP, Intent.BID_CHIP):
        return _render_table(
            request, view, phone, form=_hand_form(view, initial=stepped_bid(view.sheet, request.POST))
        )
    if intent == Intent.COUNT_MELD:  # the calculator comes back to this table's page
        return meld_calculator(request, view.sheet, reverse("club_table", args=[view.table.token]))
    return _record(request, view, phone, thrown_in=intent == Intent.THROW_IN)


def _numbers(request: HtmxHttpRequest) -> tuple[int, int] | None:
    try:
        return int(request.GET.get("round", "")), int(request.GET.get("table", ""))
    except ValueError:
        return None


def _record(
    request: HtmxHttpRequest, view: TableView, phone: tuple[str, int], *, thrown_in: bool
) -> HttpResponse:
    where = _numbers(request) or (view.round.number, view.table.number)
    form = _hand_form(view, data=request.POST)
    if thrown_in:
        form.is_valid()  # only the number, dealer and entry key are read
        data = None
        number = form.cleaned_data.get("number")
        number = view.sheet.next_number if number is None else number
    elif not form.is_valid():
        return _render_table(request, view, phone, form=form)
    else:
        data, number = form.hand_data(), form.cleaned_data["number"]
    try:
        recorded = table_hand_record(
            table=view.table,
            round_number=where[0],
            table_number=where[1],
            phone=phone[0],
            side=phone[1],
            number=number,
            data=data,
            dealer=form.cleaned_data.get("dealer"),
            entry_key=form.cleaned_data.get("entry_key"),
        )
    except HandConflict as conflict:
        fresh = table_view(view.table)
        stored = next((row for row in fresh.sheet.rows if row.hand_id == conflict.stored.pk), None)
        again = _next_form(fresh, HandForm.values_from(request.POST, len(fresh.sheet.side_names)))
        yours = form.entered() if data is not None else None
        extra = {"conflict": {"number": conflict.number, "stored": stored, "yours": yours}} if yours else {}
        return _render_table(request, fresh, phone, status=409, form=again, refusal=str(conflict), **extra)
    except (HandAlreadyRecorded, GameOver) as error:
        return _render_table(request, table_view(view.table), phone, notice=str(error))
    except HandRefused as error:
        form.add_refusals(error.errors)
        return _render_table(request, view, phone, form=form)
    except ServiceError as error:
        return _render_table(request, table_view(view.table), phone, status=409, refusal=str(error))
    if not request.htmx:
        return redirect("club_table", table_token=view.table.token)
    response = _render_table(request, table_view(view.table, recorded.sheet), phone)
    response["HX-Reswap"] = "outerHTML show:top"  # up to the hand just entered, waiting to be confirmed
    return response


@require_POST
def club_table_confirm(request: HtmxHttpRequest, table_token: str) -> HttpResponse:
    """The other side confirms a hand (on its own phone, or with a countersign on this one)."""
    return _answer(request, table_token, dispute=False)


@require_POST
def club_table_dispute(request: HtmxHttpRequest, table_token: str) -> HttpResponse:
    """The other side disputes a hand: it is marked for the director with their words."""
    return _answer(request, table_token, dispute=True)


def _answer(request: HtmxHttpRequest, table_token: str, *, dispute: bool) -> HttpResponse:
    found = _table_now(request, table_token)
    if isinstance(found, HttpResponse):
        return found
    table, phone = found
    form = AnswerForm(request.POST)
    if not form.is_valid():
        return _render_table(request, table_view(table), phone, status=400, refusal=first_error(form))
    data = form.cleaned_data
    common = {
        "table": table,
        "table_hand_id": data["table_hand"],
        "version": data["version"],
        "phone": phone[0],
        "side": phone[1],
        "countersign": data["countersign"],
    }
    try:
        if dispute:
            table_hand_dispute(reason=data["reason"], **common)
        else:
            table_hand_confirm(**common)
    except ServiceError as error:
        return _render_table(request, table_view(table), phone, status=409, refusal=str(error))
    if not request.htmx:
        return redirect("club_table", table_token=table.token)
    view = table_view(table)
    keep_table_points(table, view.sheet)  # the standings take the scoring this page just did
    return _render_table(request, view, phone)
