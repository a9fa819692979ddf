"""Limits on what costs the server: log-in and sign-up attempts, and the CPU that the bots, hints
and the bid advisor spend. One way to count (``count_attempt``) and one to refuse
(``wait_seconds``), both in Django's cache: files shared by one machine's workers, or with
``CACHE_URL`` one Redis shared by every server.

Checking a password costs the server a deliberately slow hash, so a log-in is counted before
its password is checked (the right one takes the count back), and refused without any hashing
once its limits are used up: the guesser learns nothing, and however many guesses arrive at once,
only the limit's worth are ever hashed, one at a time per address, so the other players' pages
stay fast. An account is locked per address it is guessed from, so a guesser elsewhere cannot keep
its member out, nor one account's guesser lock a shared address for everyone; guesses from
everywhere together lock it only at a much higher count, and never for a browser that has logged
in to it before (``remember_device``).

What costs CPU (``CPU_BUDGETS``) is counted per browser session, per account when logged in, and
per address; a view spends its budget with ``@limited(name)`` and over it answers 429 in words,
with ``Retry-After``.

Windows are fixed: the first counted attempt opens one, and the count starts again when it ends.
A count is one increment: atomic in Redis (``INCR``), so servers counting at once never lose each
other's attempts; in the file cache a read and a write, so one machine's workers counting at the
same instant may lose one.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.signing import BadSignature
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from redis.exceptions import RedisError

from .views.rendering import page_or_partial, wants_partial

logger = logging.getLogger(__name__)
# A cache that does not answer (Redis restarting, a full disk): log-ins and sign-ups are refused
# in words rather than let through unlimited; what costs CPU goes on unlimited meanwhile.
CACHE_ERRORS = (RedisError, OSError)
UNCHECKED = "The log-in limits cannot be checked for a moment: try again in a minute."
CHECK_SECONDS = 60  # a check's turn is let go after it, or after this if its worker died
TOO_MANY_REQUESTS = 429
KNOWN_DEVICE_COOKIE = "known_device"
KNOWN_DEVICE_SALT = "scorepad.throttle.known-device"
KNOWN_DEVICE_DAYS = 400  # browsers keep a cookie at most this long
KNOWN_DEVICE_ACCOUNTS = 8  # accounts one browser is remembered for (newest kept)


@dataclass(frozen=True)
class Limit:
    name: str
    attempts: int  # counted attempts allowed in one window
    seconds: int  # the window's length


# -- counting ---------------------------------------------------------------------------------------


def _key(limit: Limit, who: str) -> str:
    return f"throttle:{limit.name}:{hashlib.sha256(who.encode()).hexdigest()}"


def _window(limit: Limit, who: str, now: float) -> float | None:
    """When the open window ends (seconds since the epoch), or None when none is open."""
    ends = cache.get(_key(limit, who))
    return ends if isinstance(ends, float) and ends > now else None


def _count_key(limit: Limit, who: str, ends: float) -> str:
    return f"{_key(limit, who)}:{ends:.3f}"


def wait_seconds(limit: Limit, who: str) -> int:
    """How long ``who`` must wait before the next attempt: 0 while under the limit."""
    now = time.time()
    ends = _window(limit, who, now)
    if ends is None or cache.get(_count_key(limit, who, ends), 0) < limit.attempts:
        return 0
    return max(1, math.ceil(ends - now))


def count_attempt(limit: Limit, who: str) -> int:
    """Count one attempt in the open window (opening one if none is); the window's count now."""
    now = time.time()
    ends = _window(limit, who, now)
    if ends is None:
        opened = now + limit.seconds
        # Two servers opening a window at once: the first add wins and both count in its window.
        if cache.add(_key(limit, who), opened, timeout=limit.seconds):
            ends = opened
        elif (ends := _window(limit, who, now)) is None:  # one that ended lingers: replace it
            cache.set(_key(limit, who), opened, timeout=limit.seconds)
            ends = opened
    counter = _count_key(limit, who, ends)
    timeout = max(1, math.ceil(ends - now))
    cache.add(counter, 0, timeout=timeout)
    try:
        return int(cache.incr(counter))
    except ValueError:  # it expired between the two calls: this attempt is the new count
        cache.set(counter, 1, timeout=timeout)
        return 1


def forget(limit: Limit, who: str) -> None:
    cache.delete(_key(limit, who))


def take_back(limit: Limit, who: str) -> None:
    """Uncount one attempt (it succeeded), in the window it was counted in."""
    ends = _window(limit, who, time.time())
    if ends is not None and cache.get(_count_key(limit, who, ends), 0) > 0:
        with suppress(ValueError):  # the window ended meanwhile: nothing left to take back
            cache.decr(_count_key(limit, who, ends))


def in_words(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return "a minute" if minutes == 1 else f"{minutes} minutes"


def client_address(request: HttpRequest) -> str:
    """The caller's address; behind our own proxy (``BEHIND_PROXY``), the one it appended last
    to X-Forwarded-For, since anything before it was sent by the client and may be made up."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return str(request.META.get("REMOTE_ADDR", ""))


# -- log-in and sign-up -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LoginLimits:
    pair: Limit  # failures for one account from one address: the lock a guesser meets first
    address: Limit  # failures from one address, whatever the accounts (many accounts tried)
    account: Limit  # failures for one account from everywhere: only for browsers new to it


def login_limits() -> LoginLimits:
    return LoginLimits(
        Limit("login-account-address", *settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS),
        Limit("login-address", *settings.LOGIN_FAILURES_PER_ADDRESS),
        Limit("login-account", *settings.LOGIN_FAILURES_PER_ACCOUNT),
    )


def signup_limit() -> Limit:
    """Sign-up forms sent per address: each may create an account or probe for a name."""
    return Limit("signup-address", *settings.SIGNUPS_PER_ADDRESS)


class Refused(Exception):
    """A log-in refused before its password is checked; the message says why, in words."""


def _device_mark(name: str) -> str:
    return hashlib.sha256(f"known-device:{name}".encode()).hexdigest()[:16]


def _device_marks(request: HttpRequest) -> list[str]:
    try:
        value = request.get_signed_cookie(KNOWN_DEVICE_COOKIE, salt=KNOWN_DEVICE_SALT)
    except (KeyError, BadSignature):
        return []
    return value.split(".") if value else []


def known_device(request: HttpRequest, username: str) -> bool:
    """Whether this browser has logged in to ``username`` before (a signed cookie says so)."""
    return _device_mark(username.casefold()) in _device_marks(request)


def remember_device(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a log-in: this browser may log in to the account even while guessers elsewhere have
    locked it for new ones. Signed, so it cannot be made up; holds no name, only a hash."""
    mark = _device_mark(username.casefold())
    marks = [*(m for m in _device_marks(request) if m != mark), mark][-KNOWN_DEVICE_ACCOUNTS:]
    response.set_signed_cookie(
        KNOWN_DEVICE_COOKIE,
        ".".join(marks),
        salt=KNOWN_DEVICE_SALT,
        max_age=KNOWN_DEVICE_DAYS * 24 * 60 * 60,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def _login_counts(request: HttpRequest, username: str) -> list[tuple[Limit, str, str]]:
    """Each limit a log-in counts against: (limit, who, the refusal's words)."""
    limits, name, place = login_limits(), username.casefold(), client_address(request)
    counts = [
        (limits.pair, f"{name}\n{place}", f"Too many wrong passwords for {username} from your network"),
        (limits.address, place, "Too many failed log-ins from your network"),
    ]
    if not known_device(request, username):
        counts.append(
            (
                limits.account,
                name,
                f"Too many wrong passwords for {username} from many places: it is locked for browsers "
                "that have not logged in to it before",
            )
        )
    return counts


@contextmanager
def password_check(request: HttpRequest, username: str) -> Iterator[None]:
    """Around checking one log-in's password: refused (``Refused``) over a limit, or while another
    password from the same address is being checked, so that a burst of guesses is hashed one at a
    time and leaves the other cores to the players. Otherwise counted against each limit first
    (``login_succeeded`` takes it back)."""
    counts = _login_counts(request, username)
    turn = f"{_key(login_limits().address, client_address(request))}:checking"
    try:
        for limit, who, words in counts:
            if wait := wait_seconds(limit, who):
                raise Refused(f"{words}: try again in {in_words(wait)}.")
        if not cache.add(turn, True, timeout=CHECK_SECONDS):
            raise Refused("Another log-in from your network is being checked: try again.")
    except CACHE_ERRORS as error:
        logger.warning("log-in limits unavailable: %s", error)
        raise Refused(UNCHECKED) from None
    try:
        try:
            for limit, who, _ in counts:
                count_attempt(limit, who)
        except CACHE_ERRORS as error:
            logger.warning("log-in limits unavailable: %s", error)
            raise Refused(UNCHECKED) from None
        yield
    finally:
        with suppress(*CACHE_ERRORS):
            cache.delete(turn)


def login_succeeded(request: HttpRequest, username: str) -> None:
    """The right password clears its count for this account from this address, and takes this
    attempt off the others'."""
    try:
        for limit, who, _ in _login_counts(request, username):
            if limit.name == login_limits().pair.name:
                forget(limit, who)
            else:
                take_back(limit, who)
    except CACHE_ERRORS as error:  # the password was right: the log-in stands
        logger.warning("log-in limits unavailable: %s", error)


def signup_refusal(request: HttpRequest) -> str | None:
    """Why this sign-up is refused before it is read, or None; a form that is read is counted."""
    limit, address = signup_limit(), client_address(request)
    try:
        if wait := wait_seconds(limit, address):
            return f"Too many sign-ups from your network: try again in {in_words(wait)}."
        count_attempt(limit, address)
    except CACHE_ERRORS as error:
        logger.warning("sign-up limit unavailable: %s", error)
        return "Sign-ups cannot be checked for a moment: try again in a minute."
    return None


# -- what costs CPU ---------------------------------------------------------------------------------

BUDGET_WORDS = {
    "practice-start": "practice games started",
    "practice-move": "practice moves",
    "practice-hint": "hints",
    "practice-review": "hand reviews",
    "bid-advice": "requests for bid advice",
}
WHOSE = {"session": "from this browser", "account": "on your account", "address": "from your network"}


def _budget_counts(request: HttpRequest, name: str) -> list[tuple[Limit, str, str]]:
    """The limits one use of budget ``name`` counts against: (limit, who, whose words). A request
    without a session (a script that drops its cookies) is counted by its address alone."""
    person, address, seconds = settings.CPU_BUDGETS[name]
    counts = [(Limit(f"{name}-address", address, seconds), client_address(request), WHOSE["address"])]
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        counts.append((Limit(f"{name}-session", person, seconds), session.session_key, WHOSE["session"]))
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        counts.append((Limit(f"{name}-account", person, seconds), str(user.pk), WHOSE["account"]))
    return counts


@dataclass(frozen=True)
class OverBudget:
    words: str
    seconds: int


def spend(request: HttpRequest, name: str) -> OverBudget | None:
    """Spend one use of the budget ``name`` (a key of ``CPU_BUDGETS``), or why not: nothing is
    counted while any of its limits is used up, so one browser over its own limit does not use up
    its household's. While the cache does not answer, nothing is counted and nothing refused."""
    counts = _budget_counts(request, name)
    try:
        for limit, who, whose in counts:
            if wait := wait_seconds(limit, who):
                return _over(name, whose, wait)
        for limit, who, whose in counts:
            if count_attempt(limit, who) > limit.attempts:  # another server counted the last one first
                return _over(name, whose, wait_seconds(limit, who))
    except CACHE_ERRORS as error:
        logger.warning("budget %s unavailable: %s", name, error)
    return None


def _over(name: str, whose: str, wait: int) -> OverBudget:
    words = f"Too many {BUDGET_WORDS[name]} {whose} in a short time: try again in {in_words(wait)}."
    return OverBudget(words, wait)


View = Callable[..., HttpResponse]


def always(request: HttpRequest) -> bool:
    return True


def limited(name: str, *, when: Callable[[HttpRequest], bool] = always) -> Callable[[View], View]:
    """A view that spends one use of the budget ``name`` per request (or per request for which
    ``when`` holds), and over it answers 429 with the refusal in words and ``Retry-After``."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            over = spend(request, name) if when(request) else None
            if over is not None:
                return too_many_requests(request, over.words, over.seconds)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def too_many_requests(request: HttpRequest, words: str, seconds: int) -> HttpResponse:
    """The 429 page, or for htmx its banner (``429.html#banner``), swapped over the page's own
    error banner (``base.html``) so the table the player was on stays as it was."""
    context = {"refusal": words, "back": _way_back(request)}
    response = page_or_partial(request, "429.html", "banner", context, status=TOO_MANY_REQUESTS)
    response["Retry-After"] = str(seconds)
    if wants_partial(request):
        response["HX-Retarget"] = "#request-error"
        response["HX-Reswap"] = "outerHTML"
        response["HX-Push-Url"] = "false"  # the refused URL is not the page now shown
    return response


def _way_back(request: HttpRequest) -> str:
    """Where the page's link leads: the same address for a GET (to try again), the page the form
    was sent from for a POST (the form's own URL answers only POST), else the front page."""
    if request.method == "GET":
        return request.get_full_path()
    came_from = request.META.get("HTTP_REFERER", "")
    if url_has_allowed_host_and_scheme(came_from, {request.get_host()}, request.is_secure()):
        return came_from
    return reverse("home")
