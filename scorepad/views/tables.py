"""Private tables: open one, join by link, QR code or short code, play from one's own phone.

Each phone holds one seat: an account's seat by the account, a guest's by a signed cookie naming
the seat's key (``SEAT_SALT``). Every action is a plain form naming the table's version; a plain
request is redirected back to the table, an htmx one gets this seat's screen at once. The other
phones hear of the change through their event stream (``table_events``), which draws each its own
seat's screen: no phone is ever sent anything but its own seat's view.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator, Callable
from functools import wraps
from typing import Any

from asgiref.sync import sync_to_async
from django.core import signing
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from .. import throttle
from ..engine.answers import read_form_answer
from ..engine.game import seat_view
from ..engine.variants import VARIANTS
from ..forms.practice import variant_from
from ..forms.tables import TableForm
from ..live import bus, stream_caps
from ..live.request_threads import in_request_thread
from ..live.streams import WAIT_SECONDS, Drawn, event_stream, sse_event, sse_text
from ..models import PrivateTable, TableSeat
from ..pages.qr import qr_svg
from ..pages.tables import QUICK_WORDS, Mark, own_mark, seat_label, table_screen
from ..selectors.tables import (
    TableRead,
    member_seats,
    seat_of_account,
    table_by_code,
    table_by_link,
    table_marks,
    table_read,
)
from ..services.tables import (
    NOT_SEATED,
    STALE,
    TABLE_FULL,
    Claim,
    TableRefused,
    table_act_read,
    table_back,
    table_end,
    table_new_link,
    table_next_hand_read,
    table_open,
    table_open_seat,
    table_quit,
    table_rematch,
    table_say,
    table_sit_as,
    table_take_seat,
)
from .limits import limited, stream_refused, too_many_requests
from .rendering import HtmxHttpRequest

TEMPLATE = "scorepad/table.html"
SEAT_SALT = "private-table-seat"
SEAT_COOKIE_DAYS = 30
NOTICE_KEY = "table_notice"
NO_SUCH_LINK = (
    "This table's link was replaced by its host, or never existed: ask for the new link or the code."
)
NO_SUCH_CODE = "No open table has that code: check the six letters and numbers, or ask for the link."
FORGED = "This phone's seat pass is not one this table gave: take a seat again from the table's link."
STREAM_RETRY_MS = 500  # a dropped stream is opened again within half a second
NO_SEAT = "You have no seat at this table. To sit down, ask one of its players for the table's link or code."


def _cookie_name(table_id: int) -> str:
    return f"table-{table_id}"


def seat_of(request: HtmxHttpRequest, table: TableRead) -> int | None:
    """The seat this phone holds: its account's, or the seat its signed cookie names while that seat's
    key still matches (a removed player's key was replaced). ``TableRefused`` for a forged cookie."""
    by_account = seat_of_account(table, request.user)
    if by_account is not None:
        return by_account
    raw = request.COOKIES.get(_cookie_name(table.id))
    if not raw:
        return None
    try:
        signed = signing.loads(raw, salt=SEAT_SALT, max_age=SEAT_COOKIE_DAYS * 86_400)
        seat, key = int(signed["s"]), str(signed["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise TableRefused(FORGED) from None
    if signed.get("t") != table.id or not 0 <= seat < len(table.seats):
        raise TableRefused(FORGED)
    row = table.seats[seat]
    return seat if row.kind == "person" and key and row.claim_key == key else None


def _seat_cookie(response: HttpResponse, table_id: int, seat: int, key: str) -> HttpResponse:
    value = signing.dumps({"t": table_id, "s": seat, "k": key}, salt=SEAT_SALT)
    response.set_cookie(
        _cookie_name(table_id), value, max_age=SEAT_COOKIE_DAYS * 86_400, httponly=True, samesite="Lax"
    )
    return response


def _refusal_page(request: HtmxHttpRequest, words: str, status: int) -> HttpResponse:
    return render(request, "scorepad/table_refused.html", {"words": words}, status=status)


# -- opening and joining ---------------------------------------------------------------------------


@limited("practice-start", when=lambda request: request.method == "POST")
def tables_new(request: HtmxHttpRequest) -> HttpResponse:
    variant = variant_from(request.POST.get("variant") or request.GET.get("variant"))
    household_id = request.POST.get("household") or request.GET.get("household")
    data = request.POST if request.method == "POST" else None
    form = TableForm(variant, data=data, user=request.user, household_id=household_id)
    if request.user.is_authenticated:  # an account's name is ready; a guest types one
        form.initial["host_name"] = request.user.get_username()
    if request.method == "POST" and form.is_valid():
        try:
            table, claim = table_open(
                host_user=request.user,
                host_name=form.host_at_table(),
                variant_id=variant.id,
                overrides=form.overrides(),
                seats=form.seat_plans(),
                grace_seconds=form.cleaned_data["grace"],
                household=form.household,
            )
        except TableRefused as error:
            form.add_error(None, str(error))
        else:
            response = redirect("table_play", table.pk)
            return _seat_cookie(response, table.pk, claim.seat, claim.claim_key)
    variants = [(v.id, v.label) for v in VARIANTS.values()]
    return render(
        request, "scorepad/table_new.html", {"form": form, "variant": variant, "variants": variants}
    )


def table_code(request: HtmxHttpRequest) -> HttpResponse:
    """A short code's table, or words: wrong codes are counted per network, refused over the limit."""
    if over := throttle.table_code_refusal(request):
        return too_many_requests(request, over.words, over.seconds)
    code = request.GET.get("code", "")[:20]
    table = table_by_code(code)
    if table is None:
        if code.strip():  # a Join with no code is no guess
            throttle.table_code_wrong(request)
        return render(request, "scorepad/table_new.html#by-code", {"code_error": NO_SUCH_CODE})
    return redirect("table_join", table.link_token)


def _linked(
    request: HtmxHttpRequest, link_token: str
) -> tuple[PrivateTable, TableRead, int | None] | HttpResponse:
    """The table a link names, read, and the seat this phone holds there: None for none, or for a
    forged or stale pass (taking a seat replaces it). A link no table has: the refusal page."""
    table = table_by_link(link_token)
    if table is None:
        return _refusal_page(request, NO_SUCH_LINK, 404)
    read = table_read(table.pk)
    assert read is not None
    try:
        return table, read, seat_of(request, read)
    except TableRefused:
        return table, read, None


def table_join(request: HtmxHttpRequest, link_token: str) -> HttpResponse:
    linked = _linked(request, link_token)
    if isinstance(linked, HttpResponse):
        return linked
    table, read, held = linked
    if held is not None:
        return redirect("table_play", table.pk)
    return render(request, "scorepad/table_join.html", join_context(request, read))


def join_context(request: HtmxHttpRequest, read: TableRead, refused: str = "") -> dict[str, Any]:
    """The seats a newcomer may take: open ones, and bots' between hands; none left, the table is full."""
    between = read.hand.result is not None
    free = any(row.kind == "open" or (between and row.kind == "bot") for row in read.seats)
    name = request.user.get_username() if request.user.is_authenticated else ""
    member, sit_as = member_seats(read, request.user)  # a household's member: "Sit as Ann", one tap
    return {
        "member": member,
        "sit_as": sit_as,
        "table": read,
        "rows": [(row, seat_label(read, row.seat)) for row in read.seats],
        "between": between,
        "full": TABLE_FULL if not free and not read.ended else "",
        "refused": refused,
        "account_name": name,
    }


@require_POST
@limited("practice-start")
def table_take(request: HtmxHttpRequest, link_token: str, seat: int) -> HttpResponse:
    linked = _linked(request, link_token)
    if isinstance(linked, HttpResponse):
        return linked
    table, read, holding = linked
    name = request.POST.get("name", "")[:200]
    return _sat_down(
        request,
        table.pk,
        read,
        lambda: table_take_seat(table=table, seat=seat, name=name, user=request.user, holding=holding),
    )


def _sat_down(
    request: HtmxHttpRequest, table_id: int, read: TableRead, sit: Callable[[], Claim]
) -> HttpResponse:
    """The table for the seat ``sit`` takes, under its cookie; or, refused, the join page again
    (409) with the seats as they are now (one may just have been taken) and why."""
    try:
        claim = sit()
    except TableRefused as error:
        after = table_read(table_id) or read
        return render(
            request, "scorepad/table_join.html", join_context(request, after, str(error)), status=409
        )
    return _seat_cookie(redirect("table_play", table_id), table_id, claim.seat, claim.claim_key)


@require_POST
@limited("practice-start")
def table_sit_as_view(request: HtmxHttpRequest, link_token: str, seat: int) -> HttpResponse:
    """ "Sit as Ann": a member whose account is that roster player takes ``seat`` with one tap."""
    linked = _linked(request, link_token)
    if isinstance(linked, HttpResponse):
        return linked
    table, read, holding = linked
    version = request.POST.get("version", "")[:20]
    return _sat_down(
        request,
        table.pk,
        read,
        lambda: table_sit_as(
            table_id=table.pk, version=version, seat=seat, user=request.user, holding=holding
        ),
    )


def table_qr(request: HtmxHttpRequest, link_token: str) -> HttpResponse:
    token = link_token
    table = table_by_link(token)
    if table is None:
        return _refusal_page(request, NO_SUCH_LINK, 404)
    link = request.build_absolute_uri(reverse("table_join", args=[token]))
    return HttpResponse(qr_svg(link), content_type="image/svg+xml")


# -- play -----------------------------------------------------------------------------------------


def _seated(request: HtmxHttpRequest, table_id: int) -> tuple[TableRead, int] | HttpResponse:
    read = table_read(table_id)
    if read is None:
        return _refusal_page(request, "There is no such table.", 404)
    try:
        seat = seat_of(request, read)
    except TableRefused as error:
        return _refusal_page(request, str(error), 403)
    if seat is None:  # a seat pass that opens nothing any more, or none: a visitor
        had_one = _cookie_name(table_id) in request.COOKIES
        return _refusal_page(request, NOT_SEATED if had_one else NO_SEAT, 403)
    return read, seat


def screen_context(
    request: HtmxHttpRequest,
    read: TableRead,
    seat: int,
    refused: str = "",
    since: Mark | None = None,
    away: frozenset[int] | None = None,
) -> dict[str, Any]:
    """``away``: the seats whose phones are away, when the caller looked already (``_away``)."""
    away = _away(read, seat) if away is None else away
    return {
        "screen": table_screen(read, seat, since, away=away, now=timezone.now()),
        "refused": refused,
        "quick": QUICK_WORDS,
        "join_url": request.build_absolute_uri(reverse("table_join", args=[read.link_token])),
    }


def _away(read: TableRead, seat: int) -> frozenset[int]:
    """The other people at the table whose phones have no stream open now (``live.bus``)."""
    people = [row.seat for row in read.seats if row.kind == TableSeat.PERSON and row.seat != seat]
    return bus.away_seats(read.id, people)


def table_play(request: HtmxHttpRequest, private_table_id: int) -> HttpResponse:
    table_id = private_table_id
    seated = _seated(request, table_id)
    if isinstance(seated, HttpResponse):
        return seated
    read, seat = seated
    table_back(table=PrivateTable(pk=read.id), seat=seat)
    context = screen_context(request, read, seat, request.session.pop(NOTICE_KEY, ""))
    context["removing"] = _removing(read, seat, request.GET.get("open", "")[:4])
    name = f"{TEMPLATE}#screen" if request.htmx else TEMPLATE
    return render(request, name, context)


def _removing(read: TableRead, seat: int, asked: str) -> tuple[int, str, bool] | None:
    """The host asked to open a seat (``?open=N``): that seat, its name and whether a person sits
    there, for the question asked before it is done; None for anyone else, or a seat not to open."""
    try:
        target = int(asked)
    except ValueError:
        return None
    if seat != 0 or not 0 < target < len(read.seats) or read.seats[target].kind == TableSeat.OPEN:
        return None
    return target, seat_label(read, target), read.seats[target].kind == TableSeat.PERSON


def _write(request: HtmxHttpRequest, table_id: int, write: Callable[[TableRead, int], Any]) -> HttpResponse:
    """``write`` for the seat this phone holds, given the table as read to find that seat. A write
    that answers with the table after it (a ``TableRead``: a play) is drawn from that, the table
    read once in the request; any other, or a refusal, reads the table as it now stands."""
    seated = _seated(request, table_id)
    if isinstance(seated, HttpResponse):
        return seated
    read, seat = seated
    refused, written = "", None
    try:
        written = write(read, seat)
    except TableRefused as error:
        refused = str(error)  # shown in place at the decision (htmx swaps a 200 only)
    if not request.htmx:
        if refused:
            request.session[NOTICE_KEY] = refused
        return redirect("table_play", table_id)
    after = written if isinstance(written, TableRead) else table_read(table_id)
    assert after is not None
    # The answer lands what came after this seat's own last card (the bots' answers to it).
    since = None if refused else own_mark(after, seat)
    return render(request, f"{TEMPLATE}#screen", screen_context(request, after, seat, refused, since))


def _row(read: TableRead) -> PrivateTable:
    """The table a write names (the services read it again, under their own conditions)."""
    return PrivateTable(pk=read.id)


@require_POST
@limited("practice-move")
def table_act_view(request: HtmxHttpRequest, private_table_id: int) -> HttpResponse:
    table_id = private_table_id

    def act(read: TableRead, seat: int) -> TableRead:
        said = read_form_answer(seat_view(read.hand, seat), request.POST)
        return table_act_read(read=read, seat=seat, version=request.POST.get("version", "")[:20], answer=said)

    return _write(request, table_id, act)


@require_POST
@limited("practice-move")
def table_next_view(request: HtmxHttpRequest, private_table_id: int) -> HttpResponse:
    table_id = private_table_id
    version = request.POST.get("version", "")[:20]
    return _write(
        request, table_id, lambda read, seat: table_next_hand_read(read=read, seat=seat, version=version)
    )


@require_POST
@limited("practice-move")
def table_rematch_view(request: HtmxHttpRequest, private_table_id: int) -> HttpResponse:
    table_id = private_table_id
    version = request.POST.get("version", "")[:20]
    return _write(
        request, table_id, lambda read, seat: table_rematch(table=_row(read), seat=seat, version=version)
    )


@require_POST
def table_say_view(request: HtmxHttpRequest, private_table_id: int) -> HttpResponse:
    table_id = private_table_id
    message = request.POST.get("message", "")[:20]
    return _write(
        request, table_id, lambda read, seat: table_say(table=_row(read), seat=seat, message=message)
    )


@require_POST
def table_quit_view(request: HtmxHttpRequest, private_table_id: int) -> HttpResponse:
    table_id = private_table_id
    seated = _seated(request, table_id)
    if isinstance(seated, HttpResponse):
        return seated
    read, seat = seated
    try:
        table_quit(table=PrivateTable(pk=read.id), seat=seat)
    except TableRefused as error:  # the host keeps their seat: the table says so
        request.session[NOTICE_KEY] = str(error)
        return redirect("table_play", table_id)
    response = redirect("home")
    response.delete_cookie(_cookie_name(table_id))
    return response


HOST_ACTIONS = ("open-seat", "end", "new-link")
MOVED_WHILE_ASKED = "The table moved on while you were asked (nothing was changed): answer again."


@require_POST
def table_host_view(request: HtmxHttpRequest, private_table_id: int) -> HttpResponse:
    table_id = private_table_id
    action = request.POST.get("action", "")

    def control(read: TableRead, seat: int) -> None:
        table = _row(read)
        if action == "open-seat":
            try:
                target = int(request.POST.get("seat", "")[:4])
            except ValueError:
                raise TableRefused("Say which seat to open.") from None
            version = request.POST.get("version", "")[:20]
            if not version:  # asked, and answered, first: "Remove Di from seat 3?"
                raise TableRefused("Tap “Open this seat”, then confirm it: nothing was changed.")
            try:
                table_open_seat(table=table, by_seat=seat, seat=target, version=version)
            except TableRefused as error:
                if str(error) == STALE:  # cards were played while the host decided: asked again
                    asked_again.append(target)
                    raise TableRefused(MOVED_WHILE_ASKED) from None
                raise
        elif action == "end":
            table_end(table=table, by_seat=seat)
        elif action == "new-link":
            table_new_link(table=table, by_seat=seat)
        else:
            raise TableRefused(f"Choose one of: {', '.join(HOST_ACTIONS)}.")

    asked_again: list[int] = []
    response = _write(request, table_id, control)
    if asked_again and not request.htmx:
        return redirect(f"{reverse('table_play', args=[table_id])}?open={asked_again[0]}")
    return response


# -- the event stream -----------------------------------------------------------------------------


def _closing[**P, T](function: Callable[P, T]) -> Callable[P, T]:
    """``function``, then this thread's database connections closed: a phone's stream lasts as long
    as it sits at the table, and must not hold a connection meanwhile (PostgreSQL has a hundred)."""

    @wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return run


def _as_is[**P, T](function: Callable[P, T]) -> Callable[P, T]:
    return function


async def table_events(request: HtmxHttpRequest, private_table_id: int) -> HttpResponseBase:
    """This phone's seat's screen, again each time the table changes, for as long as it is open
    (htmx's SSE extension swaps it in; the browser reconnects by itself after a drop)."""
    table_id = private_table_id
    # A stream closes its connections after each read; under WSGI (a test's client) the request's own.
    closing = _closing if isinstance(request, ASGIRequest) else _as_is
    if isinstance(request, ASGIRequest) and (
        words := stream_caps.full(address=throttle.client_address(request))
    ):
        return await stream_refused(request, words, "screen")  # before any read: a refusal is cheap
    seated = await sync_to_async(closing(_seated))(request, table_id)
    if isinstance(seated, HttpResponse):
        return seated
    _, seat = seated
    if not isinstance(request, ASGIRequest):  # runserver, tests' live server: the screen once, then
        # the browser asks again after ``retry`` (a poll): a WSGI thread is never held by a phone.
        # Each poll marks the seat (the mark outlives the poll's interval many times over).
        await sync_to_async(bus.mark_present)(table_id, seat, "poll")
        html, _ = await sync_to_async(_screen_html)(request, table_id, seat)
        return HttpResponse("retry: 2000\n\n" + sse_event("screen", html), content_type="text/event-stream")
    # Capped per seat (a reload's new stream opens before the old one closes), address and process.
    place = stream_caps.take(address=throttle.client_address(request), seat=f"{table_id}:{seat}")
    if isinstance(place, str):
        return await stream_refused(request, place, "screen")
    response = stream_caps.StreamsResponse(place, seat_stream(request, table_id, seat))
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a reverse proxy passes each event on at once
    return response


async def seat_stream(request: HtmxHttpRequest, table_id: int, seat: int) -> AsyncIterator[str]:
    """The stream loop (``live.streams``) drawing this seat's screen; every few seconds it marks
    the seat here and looks whether the table moved unheard (``_keep_going``). It only reads: the
    table's clock moves the table (``live.clock``), a phone watching it or not."""
    connection = secrets.token_hex(8)  # this stream's mark: a reload's new stream keeps its own
    marked = time.monotonic()  # when this phone's presence was last marked

    async def draw() -> Drawn:
        # Each read runs in one of the worker's request threads, waiting its turn with the pages
        # and keeping that thread's connection, not a connection of its own per card.
        html, ended = await in_request_thread(_screen_html, request, table_id, seat)
        return (sse_event("screen", html) if html else ""), ended

    async def look() -> bool:
        nonlocal marked
        mark = time.monotonic() - marked >= bus.PRESENCE_SECONDS
        drawn = getattr(request, STREAM_READ, None)
        away = getattr(request, STREAM_AWAY, None)
        missed = await in_request_thread(_keep_going, table_id, seat, drawn, away, connection, mark=mark)
        marked = time.monotonic() if mark else marked
        return missed

    try:
        await in_request_thread(bus.mark_present, table_id, seat, connection)
        marked = time.monotonic()
        channel = bus.table_channel(table_id)
        await in_request_thread(bus.publish, channel)  # the other phones stop showing this one away
        async for event in event_stream(
            channel, draw, wait_seconds=WAIT_SECONDS, retry_ms=STREAM_RETRY_MS, look=look
        ):
            yield event
    finally:
        # Gone at once, not when the mark expires; in a thread, not waiting: the cache may not answer.
        bus.forget_present_soon(table_id, seat, connection)


def _screen_html(request: HtmxHttpRequest, table_id: int, seat: int) -> tuple[str, bool]:
    """This seat's screen when the table changed since this stream last drew it (seats and messages
    count as a change), or nothing; and whether the table ended (or this seat left it)."""
    read = table_read(table_id)
    if read is None:
        return "", True
    row = read.seats[seat]
    if row.kind != "person":  # removed, or quit on another phone: this stream has nothing more
        return sse_text(NOT_SEATED), True
    # A stream's request lives as long as the stream: it keeps the table it drew last (a card and
    # the bots' answer to it are told apart, but often drawn together: the second telling then
    # finds nothing new and draws nothing) and where its last screen stood, so the next screen
    # lands the cards played after that (its first lands none). A phone gone away or back at
    # another seat is a change too.
    away = _away(read, seat)
    if read == getattr(request, STREAM_READ, None) and away == getattr(request, STREAM_AWAY, None):
        return "", read.ended
    setattr(request, STREAM_READ, read)
    setattr(request, STREAM_AWAY, away)
    context = screen_context(request, read, seat, since=getattr(request, STREAM_MARK, None), away=away)
    setattr(request, STREAM_MARK, context["screen"].mark)
    html = render_to_string(f"{TEMPLATE}#screen", context, request=request)
    return html, read.ended


STREAM_MARK, STREAM_READ, STREAM_AWAY = "table_stream_mark", "table_stream_read", "table_stream_away"


def _keep_going(
    table_id: int,
    seat: int,
    drawn: TableRead | None,
    away: frozenset[int] | None,
    connection: str,
    *,
    mark: bool,
) -> bool:
    """Every few quiet seconds: this seat is here (``mark``: once its last mark is half spent), and
    whether the table moved past the screen this phone shows (``drawn``: a card or a quick message
    whose telling was lost), or another phone stopped marking its seat (or came back) since it was
    drawn (``away``). Two small reads: an idle phone costs almost nothing."""
    if mark:
        bus.mark_present(table_id, seat, connection)
    marks = table_marks(table_id)
    if marks is None or drawn is None or marks != drawn.marks:
        return True
    return away != _away(drawn, seat)
