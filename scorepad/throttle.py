"""Limits on log-in and sign-up attempts, counted in Django's cache.

Checking a password costs the server a deliberately slow hash, so a log-in is counted before
its password is checked (the right one takes the count back), and refused without any hashing
once an account or an address has used up its attempts: the guesser learns nothing, and however
many guesses arrive at once, only the limit's worth are ever hashed, one at a time, so the other
players' pages stay fast. Windows are fixed: the first counted attempt opens one, and the count starts again
when it ends.

Two gunicorn workers can read the same count at once and both add one, so a burst may get a few
attempts past a limit; the limit still holds over the window.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

CHECK_SECONDS = 60  # a check's turn is let go after it, or after this if its worker died


@dataclass(frozen=True)
class Limit:
    name: str
    attempts: int  # counted attempts allowed in one window
    seconds: int  # the window's length


def login_limits() -> tuple[Limit, Limit]:
    """Failed log-ins per account, and per address (many accounts tried from one place)."""
    account, address = settings.LOGIN_FAILURES_PER_ACCOUNT, settings.LOGIN_FAILURES_PER_ADDRESS
    return Limit("login-account", *account), Limit("login-address", *address)


def signup_limit() -> Limit:
    """Sign-up forms sent per address: each may create an account or probe for a name."""
    return Limit("signup-address", *settings.SIGNUPS_PER_ADDRESS)


def client_address(request: HttpRequest) -> str:
    """The caller's address; behind our own proxy (``BEHIND_PROXY``), the one it appended last
    to X-Forwarded-For, since anything before it was sent by the client and may be made up."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return str(request.META.get("REMOTE_ADDR", ""))


def _key(limit: Limit, who: str) -> str:
    return f"throttle:{limit.name}:{hashlib.sha256(who.encode()).hexdigest()}"


def wait_seconds(limit: Limit, who: str) -> int:
    """How long ``who`` must wait before the next attempt: 0 while under the limit."""
    count, ends = cache.get(_key(limit, who), (0, 0.0))
    if count < limit.attempts:
        return 0
    return max(1, math.ceil(ends - time.time()))


def count_attempt(limit: Limit, who: str) -> None:
    now = time.time()
    count, ends = cache.get(_key(limit, who), (0, 0.0))
    if ends <= now:  # no window open, or it has ended: this attempt opens a new one
        count, ends = 0, now + limit.seconds
    cache.set(_key(limit, who), (count + 1, ends), timeout=math.ceil(ends - now))


def forget(limit: Limit, who: str) -> None:
    cache.delete(_key(limit, who))


def take_back(limit: Limit, who: str) -> None:
    """Uncount one attempt (it succeeded), in the window it was counted in."""
    now = time.time()
    count, ends = cache.get(_key(limit, who), (0, 0.0))
    if count > 0 and ends > now:
        cache.set(_key(limit, who), (count - 1, ends), timeout=math.ceil(ends - now))


def in_words(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return "a minute" if minutes == 1 else f"{minutes} minutes"


class Refused(Exception):
    """A log-in refused before its password is checked; the message says why, in words."""


@contextmanager
def password_check(request: HttpRequest, username: str) -> Iterator[None]:
    """Around checking one log-in's password: refused (``Refused``) over a limit, or while another
    password for the same account or from the same address is being checked, so that a burst of
    guesses is hashed one at a time and leaves the other cores to the players. Otherwise counted
    against both limits first (``login_succeeded`` takes it back)."""
    account, address = login_limits()
    name, place = username.casefold(), client_address(request)
    if wait := wait_seconds(account, name):
        raise Refused(f"Too many wrong passwords for {username}: try again in {in_words(wait)}.")
    if wait := wait_seconds(address, place):
        raise Refused(f"Too many failed log-ins from your network: try again in {in_words(wait)}.")
    who = ((account, name), (address, place))
    turns = [f"{_key(limit, name)}:checking" for limit, name in who]
    taken = [turn for turn in turns if cache.add(turn, True, timeout=CHECK_SECONDS)]
    try:
        if taken != turns:
            raise Refused("Another log-in is being checked for this account or your network: try again.")
        for limit, name in who:
            count_attempt(limit, name)
        yield
    finally:
        cache.delete_many(taken)


def login_succeeded(request: HttpRequest, username: str) -> None:
    """The right password clears the account's count and takes this attempt off the address's."""
    account, address = login_limits()
    forget(account, username.casefold())
    take_back(address, client_address(request))


def signup_refusal(request: HttpRequest) -> str | None:
    """Why this sign-up is refused before it is read, or None; a form that is read is counted."""
    limit, address = signup_limit(), client_address(request)
    if wait := wait_seconds(limit, address):
        return f"Too many sign-ups from your network: try again in {in_words(wait)}."
    count_attempt(limit, address)
    return None
