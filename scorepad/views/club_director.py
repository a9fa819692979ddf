"""Club night, the director's side: every table's progress and the round clock, corrections with
their trail (a table unlocked or given a new PIN too, from the tables page), live standings for the
room (a read-only link, full screen with ``?big=1``), the final standings with the prizes,
printable standings and score sheets, and CSV exports.

Everything the director does is stored on the server under the event's version, so a director
whose phone dies signs in on another device and carries on from the same page.
"""

from __future__ import annotations

import csv
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from .. import throttle
from ..forms.club_director import BellForm, ClockForm, PrizesForm, ReasonForm
from ..forms.games import NO_MARRIAGE, HandForm, Intent, intent_of, stepped_bid
from ..live import bus, stream_caps
from ..live.feeds import shared_feed
from ..live.request_threads import in_request_thread
from ..live.streams import WAIT_SECONDS, Drawn, event_stream, sse_event
from ..models import ClubEvent, ClubRound, ClubTableCard, Correction
from ..pages.club_director import prize_lines, round_clock, snapshot_words
from ..selectors.club_director import (
    corrections,
    event_by_standings_token,
    event_hand,
    event_id_of_standings_token,
    live_standings,
    recent_standings_fingerprint,
    result_rows,
    round_progress,
    score_sheets,
    standings_fingerprint,
    standings_token_of,
    trump_words,
)
from ..selectors.clubs import (
    closed_rounds,
    current_round,
    director_event,
    entrant_label,
    entrants_with_players,
    event_card,
    event_prizes,
    event_standings,
    open_hands,
)
from ..selectors.games import scoresheet
from ..selectors.live import POLL_SECONDS
from ..services import ServiceError
from ..services.club_director import (
    bell_set,
    clock_set,
    hand_correct,
    hand_remove,
    hand_settle,
    prizes_choose,
    table_pin_change,
    table_unlock,
)
from ..services.games import HandRefused
from .clubs import back_to, director_tap, first_error
from .games import preview_words
from .limits import stream_refused
from .rendering import HtmxHttpRequest, go_to, page_or_partial, signed_in, wants_partial

log = logging.getLogger(__name__)
PROGRESS_POLL_SECONDS = 5  # the director's table list: often enough to see a table fall behind


def _back(request: HtmxHttpRequest, event: ClubEvent, *, done: str) -> HttpResponse:
    return back_to(request, reverse("club_director", args=[event.pk]), done=done)


# ---- the director's page: progress, clock, hands to settle, the trail ------------------------------


@login_required
def club_director(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = director_event(request.user, event_id)
    playing = current_round(event)
    is_playing = playing is not None and playing.status == ClubRound.Status.PLAYING
    progress = round_progress(event, playing) if playing else []
    context = {
        "event": event,
        "round": playing,
        "playing": is_playing,
        "progress": progress,
        "still_playing": sum(1 for table in progress if table.playing),
        "clock": round_clock(event, playing, timezone.now()),
        "clock_form": ClockForm(initial={"version": event.version, "minutes": event.round_minutes or 20}),
        "bell_form": BellForm(initial={"version": event.version, "bell": event.bell}),
        "open_hands": open_hands(event),
        "trail": _trail(event),
        "standings_url": reverse("club_standings_live", args=[standings_token_of(event)]),
        "poll_seconds": PROGRESS_POLL_SECONDS,
    }
    return page_or_partial(request, "scorepad/club/director.html", "director-progress", context)


@director_tap(ClockForm, page="club_director")
def club_clock(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any]) -> str:
    club_round = clock_set(event=event, version=data["version"], minutes=data["minutes"])
    ends = timezone.localtime(club_round.ends_at)
    return f"The bell of round {club_round.number} rings at {ends:%H:%M}."


@director_tap(BellForm, page="club_director")
def club_bell(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any]) -> str:
    changed = bell_set(event=event, version=data["version"], bell=data["bell"])
    return f"At the bell: {changed.get_bell_display().lower()}."


@director_tap(ReasonForm, page="club_director")
def club_hand_settle(
    request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any], table_hand_id: int
) -> str:
    """A hand marked for the director stands as entered (the trail keeps why)."""
    correction = hand_settle(
        event=event,
        made_by=signed_in(request),
        table_hand_id=table_hand_id,
        version=data["version"],
        reason=data["reason"],
    )
    return f"{correction.what}."


def _table_changed(
    change: Callable[..., Correction],
    request: HtmxHttpRequest,
    event: ClubEvent,
    data: dict[str, Any],
    card_id: int,
) -> ClubTableCard:
    """A change to one table's card from the tables page (``table_unlock``, ``table_pin_change``),
    made with the director's reason; the card as it stands after it."""
    made_by, version, reason = signed_in(request), data["version"], data["reason"]
    change(event=event, made_by=made_by, card_id=card_id, version=version, reason=reason)
    return event_card(event, card_id)


@director_tap(ReasonForm, page="club_tables")
def club_table_unlock(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any], card_id: int) -> str:
    """A table locked by wrong PINs is unlocked: its counts start afresh (the trail keeps it)."""
    card = _table_changed(table_unlock, request, event, data, card_id)
    return f"Table {card.number} is unlocked: its phones may type the PIN again."


@director_tap(ReasonForm, page="club_tables")
def club_table_pin(request: HtmxHttpRequest, event: ClubEvent, data: dict[str, Any], card_id: int) -> str:
    """A table is given a new PIN for the rest of the night (the old one is refused; the trail
    keeps the change, not the PIN)."""
    card = _table_changed(table_pin_change, request, event, data, card_id)
    return (
        f"Table {card.number}'s new PIN is {card.pin}, for the rest of the night: phones that already "
        "opened the table stay in. Write it on its card."
    )


def _hand_or_404(event: ClubEvent, hand_id: int) -> Any:
    found = event_hand(event, hand_id)
    if found is None:
        raise Http404("That hand is no longer at its table: it was deleted or corrected meanwhile.")
    return found


# The correction form's helpers (no throw-in, no meld calculator trip: the director types the meld).
CORRECTION_INTENTS = frozenset({Intent.PREVIEW, Intent.BID_STEP, Intent.BID_CHIP, Intent.COUNT_MELD})


def _hand_initial(hand: Any) -> dict[str, Any]:
    values: dict[str, Any] = {"number": hand.number, "version": hand.version, "dealer": hand.dealer}
    if hand.thrown_in:
        return values
    values.update({"bidder": hand.bidder, "bid": hand.bid, "trump": hand.trump or NO_MARRIAGE})
    for name, listed in (("meld", hand.meld), ("tricks", hand.tricks), ("took", hand.took_trick)):
        for side, value in enumerate(listed or []):
            values[f"{name}_{side}"] = value
    return values


@login_required
def club_hand_correct(request: HtmxHttpRequest, event_id: int, club_hand_id: int) -> HttpResponse:
    """The director corrects a table's hand with the scorepad's own hand form, and says why."""
    event = director_event(request.user, event_id)
    hand, table, table_hand = _hand_or_404(event, club_hand_id)
    sheet = scoresheet(table.game)
    action = reverse("club_hand_correct", args=[event.pk, hand.pk])

    def form_of(**kwargs: Any) -> HandForm:
        return HandForm(
            variant=sheet.variant,
            settings=sheet.settings,
            players=sheet.players,
            side_names=sheet.side_names,
            **kwargs,
        )

    def page(form: HandForm, reason: ReasonForm, status: int = 200, refusal: str = "") -> HttpResponse:
        context = {
            "event": event,
            "table": table,
            "hand": hand,
            "table_hand": table_hand,
            "sheet": sheet,
            "game": sheet.game,
            "form": form,
            "reason_form": reason,
            "action": action,
            "form_target": "#hand-form",
            "dealer": hand.dealer,
            "editing": True,
            "refusal": refusal,
        }
        if request.htmx:  # the form swaps itself (htmx leaves error statuses unswapped)
            return render(request, "scorepad/game.html#hand-form", context)
        return render(request, "scorepad/club/director_correct.html", context, status=status)

    if request.method != "POST":
        return page(form_of(initial=_hand_initial(hand)), ReasonForm(initial={"version": hand.version}))
    intent = intent_of(request.POST, CORRECTION_INTENTS)
    if intent == Intent.PREVIEW:
        return render(
            request, "scorepad/game.html#preview-text", {"preview": preview_words(sheet, request.POST)}
        )
    if intent != Intent.RECORD:  # a bid chip or step: the form again with it, nothing saved
        # "Count it" brings the form back as it was: the director types the meld.
        same = intent == Intent.COUNT_MELD
        values = (
            HandForm.values_from(request.POST, len(sheet.side_names))
            if same
            else stepped_bid(sheet, request.POST)
        )
        values["number"] = hand.number
        return page(form_of(initial=values), ReasonForm(request.POST))
    form, reason = form_of(data=request.POST), ReasonForm(request.POST)
    if not form.is_valid() or not reason.is_valid():
        return page(form, reason, status=400, refusal=first_error(reason) if reason.errors else "")
    try:
        correction = hand_correct(
            event=event,
            made_by=signed_in(request),
            hand_id=hand.pk,
            version=form.cleaned_data["version"] or 0,
            data=form.hand_data(),
            dealer=form.cleaned_data.get("dealer"),
            reason=reason.cleaned_data["reason"],
        )
    except HandRefused as error:
        form.add_refusals(error.errors)
        return page(form, reason, status=400)
    except ServiceError as error:
        return page(form, reason, status=409, refusal=str(error))
    return _back(request, event, done=f"{correction.what}: the table's scores are worked out again.")


@login_required
def club_hand_delete(request: HtmxHttpRequest, event_id: int, club_hand_id: int) -> HttpResponse:
    """GET asks first (and why); POST deletes the version it showed."""
    event = director_event(request.user, event_id)
    hand, table, _table_hand = _hand_or_404(event, club_hand_id)
    form = ReasonForm(request.POST or None, initial={"version": hand.version})
    refusal = ""
    if request.method == "POST":
        if form.is_valid():
            try:
                correction = hand_remove(
                    event=event,
                    made_by=signed_in(request),
                    hand_id=hand.pk,
                    version=form.cleaned_data["version"],
                    reason=form.cleaned_data["reason"],
                )
            except ServiceError as error:
                refusal = str(error)
            else:
                return _back(request, event, done=f"{correction.what}: the later hands move up one.")
        else:
            refusal = first_error(form)
    sheet = scoresheet(table.game)
    context = {
        "event": event,
        "table": table,
        "hand": hand,
        "row": sheet.rows[hand.number] if hand.number < len(sheet.rows) else None,
        "form": form,
        "refusal": refusal,
    }
    return render(request, "scorepad/club/director_delete.html", context, status=409 if refusal else 200)


# ---- live standings for the room ------------------------------------------------------------------
# Each screen keeps one event stream open (``club_standings_events``): an idle screen costs nothing.
# A write that can change the standings publishes on the event's channel once committed
# (``services.clubs.standings_changed``); in each server process one feed per event (``live.feeds``)
# hears it, reads the standings' fingerprint, and when it moved hands the same partial to every
# screen of that process. The poll (``?since=``) stays. The standings themselves are worked out once
# per change for every process, poll and page (``selectors.club_director.live_standings``, kept in
# the shared cache); the partial is rendered from them, once per change by each process's feed and
# once by a poll that finds them changed: template work only, so it is not kept as well.


FEED_READS_SECONDS = 0.25  # a feed reads at most this often: a burst of confirmations is one read
FEED_CHECK_SECONDS = 15  # and this often anyway (a message lost with Redis down, a scoresheet edit)
STREAM_RETRY_MS = 1000  # a dropped stream reconnects after this (each answer under WSGI: a poll)
NOSCRIPT_REFRESH_SECONDS = 2  # JavaScript off: the whole page again, within the room's 2 s
STANDINGS_TEMPLATE = "scorepad/club/director_standings_live.html"
NO_STANDINGS = "There are no such standings: ask the director for the link."


@require_safe
def club_standings_live(request: HtmxHttpRequest, standings_token: str) -> HttpResponse:
    """The room's standings: anyone with the link may watch; nobody can change anything from it.
    The page keeps an event stream open for the new standings (``club_standings_events``); with
    JavaScript off it comes again every ``NOSCRIPT_REFRESH_SECONDS``. Asked with the fingerprint
    shown (``?since=``, htmx's poll): a bodiless 204 when nothing changed, else the partial, which
    keeps polling."""
    event_id = event_id_of_standings_token(standings_token)
    if event_id is None:
        raise Http404(NO_STANDINGS)
    fingerprint = recent_standings_fingerprint(event_id)
    since = request.GET.get("since")
    if since and since == fingerprint:
        return HttpResponse(status=204)
    big = request.GET.get("big") == "1"
    partial = wants_partial(request)
    event = event_by_standings_token(standings_token)
    if event is None:
        raise Http404(NO_STANDINGS)
    base = reverse("club_standings_live", args=[standings_token])
    context = {
        "live": live_standings(event, fingerprint),
        "big": big,
        "token": standings_token,
        "refresh_seconds": NOSCRIPT_REFRESH_SECONDS,
    }
    if partial:  # a screen polling (an older page): its partial polls on
        context |= {"poll_url": base + ("?big=1&" if big else "?"), "poll_seconds": POLL_SECONDS}
    else:
        context["stream_url"] = reverse("club_standings_events", args=[standings_token])
    html = render_to_string(
        f"{STANDINGS_TEMPLATE}#live-standings" if partial else STANDINGS_TEMPLATE, context, request
    )
    response = HttpResponse(html)
    patch_vary_headers(response, ("HX-Request",))
    response["X-Robots-Tag"] = "noindex"
    return response


def streamed_standings(standings_token: str) -> tuple[str, str] | None:
    """The standings' fingerprint and the partial a stream sends (no poll in it: the stream brings
    the next), rendered once per change by each server process's feed from the standings worked out
    once for them all (``live_standings``); None: no such event."""
    event_id = event_id_of_standings_token(standings_token)
    if event_id is None:
        return None
    fingerprint = standings_fingerprint(event_id)
    event = event_by_standings_token(standings_token)
    if event is None:
        return None
    live = live_standings(event, fingerprint)
    return fingerprint, render_to_string(f"{STANDINGS_TEMPLATE}#live-standings", {"live": live})


def _event_exists(standings_token: str) -> bool:
    return event_by_standings_token(standings_token) is not None


def _new_partial(shown: tuple[str, str] | None, read: tuple[str, str]) -> bool:
    """A hand entered, not yet confirmed, changes the fingerprint but not the standings: nothing
    is sent to the screens."""
    return shown is None or read[1] != shown[1]


def standings_event(fingerprint: str, html: str) -> str:
    """The partial as a ``standings`` event whose id is its fingerprint: a screen reconnecting says
    which standings it shows (``Last-Event-ID``) and is sent them only if they changed meanwhile."""
    return f"id: {fingerprint}\n" + sse_event("standings", html)


@require_safe
async def club_standings_events(request: HtmxHttpRequest, standings_token: str) -> HttpResponseBase:
    """The room's standings as an event stream: the partial now (unless the screen shows it
    already), then again each time it changes, for as long as the screen is open."""
    event_id = event_id_of_standings_token(standings_token)
    if event_id is None:
        raise Http404(NO_STANDINGS)
    shown = request.headers.get("Last-Event-ID", "")
    if not isinstance(request, ASGIRequest):  # runserver, tests' live server: the standings once,
        # then the browser asks again after ``retry`` (a poll): a WSGI thread is never held by a screen.
        read = await sync_to_async(streamed_standings)(standings_token)
        if read is None:
            raise Http404(NO_STANDINGS)
        body = f"retry: {STREAM_RETRY_MS}\n\n" + ("" if read[0] == shown else standings_event(*read))
        return HttpResponse(body, content_type="text/event-stream")
    if not await in_request_thread(_event_exists, standings_token):
        raise Http404(NO_STANDINGS)
    place = stream_caps.take(address=throttle.client_address(request))  # per address and process
    if isinstance(place, str):
        return await stream_refused(request, place, "standings")
    response = stream_caps.StreamsResponse(place, standings_stream(event_id, standings_token, shown))
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a reverse proxy passes each event on at once
    response["X-Robots-Tag"] = "noindex"
    return response


async def standings_stream(event_id: int, standings_token: str, shown: str) -> AsyncIterator[str]:
    """The stream loop (``live.streams``) drawing the standings whenever they are not the ones this
    screen shows; it waits on this process's feed of the event's standings (``live.feeds``: one
    reading per change for all the room's screens)."""
    async with shared_feed(
        bus.standings_channel(event_id),
        lambda: streamed_standings(standings_token),
        changed=_new_partial,
        reads_seconds=FEED_READS_SECONDS,
        check_seconds=FEED_CHECK_SECONDS,
    ) as feed:

        async def draw() -> Drawn:
            nonlocal shown
            if feed.missing:
                return "", True
            if feed.value is None or feed.value[0] == shown:
                return "", False
            fingerprint, html = feed.value
            shown = fingerprint
            return standings_event(fingerprint, html), False

        async for event in event_stream(feed, draw, wait_seconds=WAIT_SECONDS, retry_ms=STREAM_RETRY_MS):
            yield event


# ---- the end: final standings, prizes, print, CSV -------------------------------------------------


def _trail(event: ClubEvent) -> list[tuple[Any, str, str]]:
    """The trail, newest first: each entry with what it was and what it became, in words."""
    return [(c, snapshot_words(c.before), snapshot_words(c.after)) for c in corrections(event)]


def _labels(event: ClubEvent) -> dict[int, str]:
    return {entrant.number: entrant_label(event, entrant) for entrant in entrants_with_players(event)}


@login_required
def club_final(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The standings with the prizes the director awards (chosen here, any time), printable."""
    event = director_event(request.user, event_id)
    if request.method == "POST":
        form = PrizesForm(request.POST)
        if not form.is_valid():
            messages.error(request, first_error(form))
        else:
            try:
                event = prizes_choose(
                    event=event, version=form.cleaned_data["version"], prizes=form.cleaned_data["prizes"]
                )
            except ServiceError as error:
                messages.error(request, str(error))
            else:
                messages.success(request, "Prizes saved.")
        return go_to(request, reverse("club_final", args=[event.pk]))
    standings = event_standings(event)
    prizes = prize_lines(event.prizes, event_prizes(event), _labels(event)) if standings else []
    context = {
        "event": event,
        "standings": standings,
        "prizes": prizes,
        "form": PrizesForm(initial={"version": event.version, "prizes": event.prizes}),
        "printed_at": timezone.now(),
        "trail": _trail(event),
        "teams": event.format == ClubEvent.Format.TEAMS,
        # Standings count closed rounds only: "after round 2" once round 2 is closed, not started.
        "closed_rounds": closed_rounds(event),
    }
    return render(request, "scorepad/club/director_final.html", context)


@login_required
def club_sheets(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """Every table's score sheet (one round with ``?round=N``), to print."""
    event = director_event(request.user, event_id)
    number = request.GET.get("round", "")
    sheets = score_sheets(event, int(number) if number.isdigit() else None)
    return render(request, "scorepad/club/director_sheets.html", {"event": event, "sheets": sheets})


def _csv_response(event: ClubEvent, what: str) -> tuple[HttpResponse, Any]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="club-{event.pk}-{what}.csv"'
    response["Cache-Control"] = "private, no-store"
    return response, csv.writer(response)


@login_required
def club_results_csv(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """One row per entrant per closed round."""
    event = director_event(request.user, event_id)
    response, writer = _csv_response(event, "results")
    labels = {entrant.pk: entrant_label(event, entrant) for entrant in entrants_with_players(event)}
    writer.writerow(["round", "entrant number", "entrant", "players", "table", "points", "won", "bye"])
    for row in result_rows(event):
        writer.writerow(
            [
                row.round.number,
                row.entrant.number,
                labels.get(row.entrant_id, row.entrant.name),
                row.entrant.name,
                row.table.number if row.table else "",
                row.points,
                "yes" if row.won else "no",
                "yes" if row.bye else "no",
            ]
        )
    return response


@login_required
def club_hands_csv(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """Every table's hands, one row per hand: the score sheets as a spreadsheet."""
    event = director_event(request.user, event_id)
    response, writer = _csv_response(event, "hands")
    sheets = score_sheets(event)
    sides = max((len(s.sheet.side_names) for s in sheets), default=2)
    side_columns = [
        f"{what} {n}" for n in range(1, sides + 1) for what in ("side", "meld", "tricks", "score", "total")
    ]
    writer.writerow(["round", "table", "hand", "dealer", "bidder", "bid", "trump", "state", *side_columns])
    for table_sheet in sheets:
        for row in table_sheet.sheet.rows:
            per_side: list[Any] = []
            for side, name in enumerate(table_sheet.sheet.side_names):
                meld = row.meld[side] if side < len(row.meld) else ""
                tricks = row.tricks[side] if row.tricks and side < len(row.tricks) else ""
                per_side += [name, meld, tricks, row.scores[side], row.totals[side]]
            writer.writerow(
                [
                    table_sheet.table.round.number,
                    table_sheet.table.number,
                    row.number + 1,
                    row.dealer,
                    "" if row.thrown_in else row.bidder,
                    "" if row.thrown_in else row.bid,
                    "thrown in" if row.thrown_in else trump_words(row.trump),
                    table_sheet.states.get(row.hand_id, "") or "entered by the director",
                    *per_side,
                ]
            )
    return response
