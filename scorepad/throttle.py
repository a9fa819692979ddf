"""Limits on what costs the server: log-in and sign-up attempts, guesses at a private table's
code, and the CPU that the bots, hints and the bid advisor spend. One way to count
(``count_attempt``) and one to refuse (``wait_seconds``), both in Django's cache: files shared by
one machine's workers, or with ``CACHE_URL`` one Redis shared by every server.

Checking a password costs the server a deliberately slow hash, so a log-in is counted before
its password is checked (the right one takes the count back), and refused without any hashing
once its limits are used up: the guesser learns nothing, and however many guesses arrive at once,
only the limit's worth are ever hashed, one at a time per address, so the other players' pages
stay fast. An account is locked per address it is guessed from, so a guesser elsewhere cannot keep
its member out, nor one account's guesser lock a shared address for everyone; guesses from
everywhere together lock it only at a much higher count. A browser that has logged in to the
account before (``remember_device``) meets none of these locks, only its own count of wrong
passwords. An address is an IPv4 address, or an IPv6 /64 (``client_address``).

A private table's short code is guessed like a password: wrong codes are counted per address, and
over the log-ins' limit per address (in the same window) a code is refused before it is looked up.
A club table's PIN is short, and a club room is one network: wrong PINs are counted per phone (a
cookie of its own), per network at the table and per network at every table, never against the
table for everyone; guesses from everywhere lock a table only for phones that have not opened it,
and the director's unlock starts its counts afresh (``PinGuess``). A visitor given a puzzle rating
is counted per address as a sign-up is (``puzzle_guest_refusal``).

What costs CPU (``CPU_BUDGETS``) is counted per browser session, per account when logged in, and
per address; restores, imports and exports (``EXCHANGE_LIMITS``) per account and per address. A
view spends them with ``@limited(name)`` or ``@exchange_limited(name)`` (``views/limits.py``) and
over a limit answers 429 in words, with ``Retry-After``.

Windows are fixed: the first counted attempt opens one, and the count starts again when it ends.
A count is one increment: atomic in Redis (``INCR``), so servers counting at once never lose each
other's attempts; in the file cache a read and a write, so one machine's workers counting at the
same instant may lose one.

While the shared cache does not answer (Redis down, restarting or paused: the settings give each
call a quarter-second timeout), every limit is counted in this process instead (``_counting``),
and the shared cache is tried again after ``SHARED_CACHE_RETRY_SECONDS``. Neither open nor closed:
a guesser or a script still meets each limit, once per web process (so at most the number of
processes times the limit), and no member, table or player is refused because of the outage.

This module only counts: the 429 page is drawn by the views (``scorepad/views/limits.py``).
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.signing import BadSignature
from django.http import HttpRequest, HttpResponse
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)
# A cache that does not answer (Redis down, restarting or paused; a full disk for the file cache).
CACHE_ERRORS = (RedisError, OSError)
SHARED_CACHE_RETRY_SECONDS = 5.0  # after a failure, this process counts on its own this long
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


# -- where the counts are kept ----------------------------------------------------------------------


@dataclass
class _StandIn:
    """This process's own counters for one shared cache, used while that cache does not answer."""

    counters: BaseCache
    retry_at: float = 0.0  # time.monotonic() from which the shared cache is tried again


_stand_ins: dict[object, _StandIn] = {}
_stand_ins_lock = threading.Lock()


def _shared() -> BaseCache:
    """This thread's connection to the shared cache (Django's ``cache`` is a per-thread proxy)."""
    connections = getattr(cache, "_connections", None)
    backend: BaseCache = connections[cache._alias] if connections is not None else cache  # type: ignore[attr-defined]
    return backend


def _where(shared: BaseCache) -> object:
    """Which shared cache this is, the same for every thread's connection to it: its Redis
    servers, or its folder; else (a cache in memory, which never fails) the connection itself."""
    location = tuple(getattr(shared, "_servers", ())) or getattr(shared, "_dir", None) or id(shared)
    return (type(shared).__name__, location)


def _failed(where: object) -> _StandIn:
    """The stand-in for the shared cache at ``where``, which just failed: made on its first
    failure, one per shared cache, so every thread of the process counts together in it."""
    with _stand_ins_lock:
        if where not in _stand_ins:
            options = {"OPTIONS": {"MAX_ENTRIES": 100_000}}
            counters = LocMemCache(f"throttle-stand-in-{len(_stand_ins)}", options)
            counters.clear()
            _stand_ins[where] = _StandIn(counters)
        stand_in = _stand_ins[where]
        stand_in.retry_at = time.monotonic() + SHARED_CACHE_RETRY_SECONDS
        return stand_in


def _counting[T](action: Callable[[BaseCache], T]) -> T:
    """``action`` on the shared cache; while that does not answer, on this process's stand-in.

    Every limit fails the same way, by a stated choice: neither open (a guesser or a script would
    go unlimited for as long as Redis is away) nor closed (every member, table and player would be
    refused for the outage): counted per process, a client gets at most the limit once per web
    process meanwhile, and nobody is refused for the outage itself. When the shared cache answers
    again its own counts apply again (what the stand-in counted is not carried over)."""
    shared = _shared()
    where = _where(shared)
    stand_in = _stand_ins.get(where)
    if stand_in is None or time.monotonic() >= stand_in.retry_at:
        try:
            return action(shared)
        except CACHE_ERRORS as error:
            stand_in = _failed(where)
            logger.warning("limits counted in this process, the shared cache did not answer: %s", error)
    return action(stand_in.counters)


# -- counting ---------------------------------------------------------------------------------------


def _key(limit: Limit, who: str) -> str:
    return f"throttle:{limit.name}:{hashlib.sha256(who.encode()).hexdigest()}"


def _window(store: BaseCache, limit: Limit, who: str, now: float) -> float | None:
    """When the open window ends (seconds since the epoch), or None when none is open."""
    ends = store.get(_key(limit, who))
    return ends if isinstance(ends, float) and ends > now else None


def _count_key(limit: Limit, who: str, ends: float) -> str:
    return f"{_key(limit, who)}:{ends:.3f}"


def wait_seconds(limit: Limit, who: str) -> int:
    """How long ``who`` must wait before the next attempt: 0 while under the limit."""
    return _counting(lambda store: _wait_seconds(store, limit, who))


def _wait_seconds(store: BaseCache, limit: Limit, who: str) -> int:
    now = time.time()
    ends = _window(store, limit, who, now)
    if ends is None or store.get(_count_key(limit, who, ends), 0) < limit.attempts:
        return 0
    return max(1, math.ceil(ends - now))


def count_attempt(limit: Limit, who: str) -> int:
    """Count one attempt in the open window (opening one if none is); the window's count now."""
    return _counting(lambda store: _charge(store, limit, who, 1))


def forget(limit: Limit, who: str) -> None:
    _counting(lambda store: store.delete(_key(limit, who)))


def take_back(limit: Limit, who: str) -> None:
    """Uncount one attempt (it succeeded), in the window it was counted in."""
    _counting(lambda store: _take_back(store, limit, who))


def _take_back(store: BaseCache, limit: Limit, who: str) -> None:
    ends = _window(store, limit, who, time.time())
    if ends is not None and store.get(_count_key(limit, who, ends), 0) > 0:
        with suppress(ValueError):  # the window ended meanwhile: nothing left to take back
            store.decr(_count_key(limit, who, ends))


def in_words(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return "a minute" if minutes == 1 else f"{minutes} minutes"


def client_address(request: HttpRequest) -> str:
    """Who the limits count per network: the caller's IPv4 address, or its IPv6 /64; behind our own
    proxy (``BEHIND_PROXY``), the address it appended last to X-Forwarded-For, since anything before
    it was sent by the client and may be made up."""
    address = str(request.META.get("REMOTE_ADDR", ""))
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        address = forwarded or address
    return _network(address)


IPV6_PREFIX = 64


def _network(address: str) -> str:
    """An IPv4 address as it is: one household behind its router, as a v4 network gives it one.
    An IPv6 address by its /64: a /64 is the smallest block a provider gives a home or a phone
    (RFC 6177), inside which its owner may take any of 2^64 addresses at will (privacy addresses
    change daily), so counting single addresses would hand a guesser endless fresh ones. Not a
    wider prefix: a /56 or /48 is often shared by many customers of one provider or one office."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address  # not an address (a misconfigured proxy): counted as the text it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


# -- log-in and sign-up -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LoginLimits:
    pair: Limit  # failures for one account from one address: the lock a guesser meets first
    address: Limit  # failures from one address, whatever the accounts (many accounts tried)
    account: Limit  # failures for one account from everywhere: only for browsers new to it
    device: Limit  # failures for one account from one browser that logged in to it before


def login_limits() -> LoginLimits:
    return LoginLimits(
        Limit("login-account-address", *settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS),
        Limit("login-address", *settings.LOGIN_FAILURES_PER_ADDRESS),
        Limit("login-account", *settings.LOGIN_FAILURES_PER_ACCOUNT),
        Limit("login-known-device", *settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS),
    )


def signup_limit() -> Limit:
    """Sign-up forms sent per address: each may create an account or probe for a name."""
    return Limit("signup-address", *settings.SIGNUPS_PER_ADDRESS)


class Refused(Exception):
    """A log-in refused before its password is checked; the message says why, in words."""


def _device_mark(name: str) -> str:
    return hashlib.sha256(f"known-device:{name}".encode()).hexdigest()[:16]


def _known_device_id(request: HttpRequest) -> str:
    """This browser, by its signed mark as sent: only the server can sign one, and it signs a new
    one (a new timestamp) at each log-in, so each is one browser's."""
    return hashlib.sha256(request.COOKIES.get(KNOWN_DEVICE_COOKIE, "").encode()).hexdigest()


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
    """Each limit a log-in counts against: (limit, who, the refusal's words).

    A browser that logged in to the account before (a valid signed mark) proves itself: it meets
    only its own count of wrong passwords, never the locks that guessers on its network or
    elsewhere ran into, so a member is not kept out by someone else's guessing. Every other
    browser meets the account's lock from its address, its address's lock, and the account's lock
    from everywhere, each a fixed window: a lock ends when its window does, and attempts refused
    meanwhile are not counted, so a slow drip of guesses cannot stretch one lock out."""
    limits, name, place = login_limits(), username.casefold(), client_address(request)
    if known_device(request, username):
        return [
            (
                limits.device,
                f"{name}\n{_known_device_id(request)}",
                f"Too many wrong passwords for {username} from this browser",
            )
        ]
    return [
        (limits.pair, f"{name}\n{place}", f"Too many wrong passwords for {username} from your network"),
        (limits.address, place, "Too many failed log-ins from your network"),
        (
            limits.account,
            name,
            f"Too many wrong passwords for {username} from many places: it is locked for browsers "
            "that have not logged in to it before",
        ),
    ]


def _checking_turn(request: HttpRequest, username: str) -> str:
    """Whose turn a password check takes: the address's, or a known browser's own (so a flood of
    guesses from its network never keeps it waiting)."""
    if known_device(request, username):
        return f"throttle:checking:{_known_device_id(request)}"
    return f"{_key(login_limits().address, client_address(request))}:checking"


@contextmanager
def password_check(request: HttpRequest, username: str) -> Iterator[None]:
    """Around checking one log-in's password: refused (``Refused``) over a limit, or while another
    password from the same address is being checked, so that a burst of guesses is hashed one at a
    time and leaves the other cores to the players. Otherwise counted against each limit first
    (``login_succeeded`` takes it back)."""
    counts = _login_counts(request, username)
    turn = _checking_turn(request, username)
    for limit, who, words in counts:
        if wait := wait_seconds(limit, who):
            raise Refused(f"{words}: try again in {in_words(wait)}.")
    if not _counting(lambda store: store.add(turn, True, timeout=CHECK_SECONDS)):
        raise Refused("Another log-in from your network is being checked: try again.")
    try:
        for limit, who, _ in counts:
            count_attempt(limit, who)
        yield
    finally:
        _counting(lambda store: store.delete(turn))


def login_succeeded(request: HttpRequest, username: str) -> None:
    """The right password clears its count for this account from this address (or this browser),
    and takes this attempt off the others'."""
    limits = login_limits()
    for limit, who, _ in _login_counts(request, username):
        if limit.name in (limits.pair.name, limits.device.name):
            forget(limit, who)
        else:
            take_back(limit, who)


def signup_refusal(request: HttpRequest) -> str | None:
    """Why this sign-up is refused before it is read, or None; a form that is read is counted."""
    limit, address = signup_limit(), client_address(request)
    if wait := wait_seconds(limit, address):
        return f"Too many sign-ups from your network: try again in {in_words(wait)}."
    count_attempt(limit, address)
    return None


# -- puzzle players ---------------------------------------------------------------------------------


def puzzle_guest_limit() -> Limit:
    """New visitors given a puzzle rating per address (each is a session row): as sign-ups are."""
    return Limit("puzzle-guest-address", *settings.SIGNUPS_PER_ADDRESS)


def puzzle_guest_refusal(request: HttpRequest) -> str | None:
    """Why this visitor's answer is not counted for a new puzzle player, in words, or None: one
    made is counted against its address's limit, as a sign-up is."""
    limit, address = puzzle_guest_limit(), client_address(request)
    if wait := wait_seconds(limit, address):
        return (
            "Too many new visitors answered puzzles from your network, so this answer was not "
            f"counted: log in, or try again in {in_words(wait)}."
        )
    count_attempt(limit, address)
    return None


# -- table codes ------------------------------------------------------------------------------------


def table_code_limit() -> Limit:
    """Wrong private-table codes sent per address: as many as failed log-ins, in the same window."""
    return Limit("table-code-address", *settings.LOGIN_FAILURES_PER_ADDRESS)


def table_code_refusal(request: HttpRequest) -> OverBudget | None:
    """Why a table code from this address is not looked up now, in words, or None. Checked before
    the lookup, so a guesser over the limit learns nothing, not even from a right code."""
    if wait := wait_seconds(table_code_limit(), client_address(request)):
        return OverBudget(
            f"Too many wrong table codes from your network: try again in {in_words(wait)}, "
            "or ask for the table's link.",
            wait,
        )
    return None


def table_code_wrong(request: HttpRequest) -> None:
    """Count one code that named no open table (a right one is never counted)."""
    count_attempt(table_code_limit(), client_address(request))


# -- club table PINs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PinGuess:
    """Who types a club table's PIN: the table's counts (``table``: its link and how often the
    director unlocked it, so that an unlock starts them afresh), the phone (its own id, "" for a
    request that brings none) and whether that phone already opened the table (its signed cookie);
    ``card``, the table's link alone, under which a phone's slips outlive an unlock."""

    table: str
    phone: str
    holds_table: bool
    card: str = ""


@dataclass(frozen=True)
class PinLimits:
    phone: Limit  # wrong PINs from one phone at one table: the lock a phone meets first
    address: Limit  # from one network at one table: a phone that drops its cookies
    network: Limit  # from one network at every table: one place trying the whole room
    table: Limit  # from everywhere at one table: only for phones that have not opened it


def pin_limits() -> PinLimits:
    return PinLimits(
        Limit("club-pin-phone", *settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS),
        Limit("club-pin-table-address", *settings.LOGIN_FAILURES_PER_ADDRESS),
        Limit("club-pin-address", *settings.LOGIN_FAILURES_PER_ACCOUNT),
        Limit("club-pin-table", *settings.LOGIN_FAILURES_PER_ACCOUNT),
    )


PIN_TABLE_WORDS = (
    "Too many wrong PINs for this table from many places: it is locked for phones that have not opened it yet"
)


def _pin_counts(request: HttpRequest, guess: PinGuess) -> list[tuple[Limit, str, str]]:
    """Each limit one wrong PIN counts against: (limit, who, the refusal's words).

    Never the table for everyone: a club room is one network, so one phone's wrong PINs lock that
    phone, and only a network's many lock the network (at that table, or at every table). Guesses
    from everywhere lock the table only for phones that have not opened it, never for one that has
    (its signed cookie), and the director can unlock it (``PinGuess.table`` changes)."""
    limits, place = pin_limits(), client_address(request)
    counts = []
    if guess.phone:
        counts.append((limits.phone, f"{guess.table}\n{guess.phone}", "Too many wrong PINs from this phone"))
    counts += [
        (limits.address, f"{guess.table}\n{place}", "Too many wrong PINs for this table from your network"),
        (limits.network, place, "Too many wrong PINs from your network"),
    ]
    if not guess.holds_table:
        counts.append((limits.table, guess.table, PIN_TABLE_WORDS))
    return counts


def pin_refusal(request: HttpRequest, guess: PinGuess) -> OverBudget | None:
    """Why this PIN is not checked now, in words (the right one too: a guesser learns nothing), or
    None. Nothing is counted while refused, so a drip of guesses cannot stretch a lock out."""
    for limit, who, words in _pin_counts(request, guess):
        if wait := wait_seconds(limit, who):
            return OverBudget(f"{words}: try again in {in_words(wait)}, or ask the director.", wait)
    return None


def _pin_slips() -> Limit:
    """A phone's wrong PINs at one table, kept through the director's unlock (which starts the
    phone's own lock afresh) for as long as the room's count of its network keeps them. Never a
    lock: only what a right PIN takes back."""
    return Limit("club-pin-slips", 1_000_000, settings.LOGIN_FAILURES_PER_ACCOUNT[1])


def _slips_of(guess: PinGuess) -> str:
    return f"{guess.card or guess.table}\n{guess.phone}"


def pin_wrong(request: HttpRequest, guess: PinGuess) -> None:
    for limit, who, _ in _pin_counts(request, guess):
        count_attempt(limit, who)
    if guess.phone:
        count_attempt(_pin_slips(), _slips_of(guess))


def pin_right(request: HttpRequest, guess: PinGuess) -> None:
    """The phone typed the right PIN: its own wrong ones (a slip of the finger), before the
    director's unlock too, are taken off its network's counts and the table's, so a room's typing
    (and a locked phone the director let back in) never adds up to a lock."""
    counts = _pin_counts(request, guess)
    if not guess.phone:
        return
    phone, who, _ = counts[0]
    slips = _counting(lambda store: _counted(store, _pin_slips(), _slips_of(guess)))
    for limit, other, _ in counts[1:]:
        for _ in range(slips):
            take_back(limit, other)
    forget(phone, who)
    forget(_pin_slips(), _slips_of(guess))


def pin_table_wait(table: str) -> int:
    """How long the table stays locked for phones that have not opened it (0: it is not)."""
    return wait_seconds(pin_limits().table, table)


def _counted(store: BaseCache, limit: Limit, who: str) -> int:
    ends = _window(store, limit, who, time.time())
    return 0 if ends is None else int(store.get(_count_key(limit, who, ends), 0))


# -- restores, imports and exports -----------------------------------------------------------------

EXCHANGE_WORDS = {"restore": "restores and imports", "export": "exports"}


def exchange_refusal(request: HttpRequest, name: str) -> tuple[str, int] | None:
    """Count one restore or import (``name`` "restore") or export ("export") against its limits
    per account and per address (``EXCHANGE_LIMITS``), or why not, in words, and the seconds to
    wait. Nothing is counted while a limit is used up."""
    per_account, per_address, seconds = settings.EXCHANGE_LIMITS[name]
    counts = [(Limit(f"{name}-address", per_address, seconds), client_address(request), "from your network")]
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        counts.append((Limit(f"{name}-account", per_account, seconds), str(user.pk), "on your account"))
    for limit, who, whose in counts:
        if wait := wait_seconds(limit, who):
            words = f"Too many {EXCHANGE_WORDS[name]} {whose} in a short time: try again in {in_words(wait)}."
            return words, wait
    for limit, who, _ in counts:
        count_attempt(limit, who)
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


# What the bots' searches cost, in CPU seconds per address (``bot_pool`` measures each search where
# it runs): counted in milliseconds, so that one counter's increments stay whole numbers.
CPU_WORDS = "The bots have thought a lot for your network in a short time"


def cpu_limit() -> Limit:
    seconds, window = settings.CPU_SECONDS_PER_ADDRESS
    return Limit("cpu-seconds-address", round(seconds * 1000), window)


def cpu_refusal(address: str) -> OverBudget | None:
    """Why the bots may not think for ``address`` now (its CPU seconds in this window are spent),
    in words; None while it has some left."""
    wait = wait_seconds(cpu_limit(), address)
    return OverBudget(f"{CPU_WORDS}: try again in {in_words(wait)}.", wait) if wait else None


def charge_cpu(address: str, seconds: float) -> None:
    """Charge ``seconds`` of the bots' CPU to ``address`` (a search is charged once it is done:
    the one that crosses the budget finishes, the next is refused)."""
    if seconds > 0:
        limit, amount = cpu_limit(), max(1, round(seconds * 1000))
        _counting(lambda store: _charge(store, limit, address, amount))


def _charge(store: BaseCache, limit: Limit, who: str, amount: int) -> int:
    """``amount`` more in ``who``'s open window (opening one if none is); the window's count now."""
    now = time.time()
    ends = _window(store, limit, who, now)
    if ends is None:
        opened = now + limit.seconds
        # Two servers opening a window at once: the first add wins and both charge in its window.
        if store.add(_key(limit, who), opened, timeout=limit.seconds):
            ends = opened
        elif (ends := _window(store, limit, who, now)) is None:  # one that ended lingers: replace it
            store.set(_key(limit, who), opened, timeout=limit.seconds)
            ends = opened
    counter = _count_key(limit, who, ends)
    timeout = max(1, math.ceil(ends - now))
    store.add(counter, 0, timeout=timeout)
    try:
        return int(store.incr(counter, amount))
    except ValueError:  # it expired between the two calls: this charge is the new count
        store.set(counter, amount, timeout=timeout)
        return amount


# ``limited`` (a view spending a budget) and the 429 page moved to ``scorepad/views/limits.py``:
# this module only counts, and a lower layer never draws a page. ``spend`` keeps its signature
# for it. While the shared cache does not answer, ``wait_seconds`` and ``count_attempt`` count in
# this process (``_counting``) and no longer raise, so budgets keep holding through an outage.
