"""The one home of every bot search a request pays for: where it thinks, how many at once, and
what it costs the visitor.

A search is pure CPU (the expert weighs a move for most of a second, a review slice for about
half of one, the bid advisor for 1.5 s), and inside a web worker it would share that worker's GIL
and the machine's cores with every scorekeeper's request. So every one of them goes through
``think``: a practice move or a replay (``play_on``), a hint (``hint``), the throw-in offer
(``weigh_concession``), a review slice (``review_slice``) and the bid advisor (``advise``). Each
runs a top-level engine function on plain values (JSON state, numbers, answers), so it can run
in another process; views (and services, for writes) call these with no transaction open, and
pages receive what they return and never search.

With ``PRACTICE_BOT_PROCESSES`` above 0 (``gunicorn_conf`` makes it 1 under gunicorn), each web
worker starts that many processes the first time a bot thinks, at ``PRACTICE_BOT_NICENESS``
(10): the operating system then gives the scorepad's requests the cores first, and the request
waiting for the bots holds no lock and no GIL. With 0 (tests, commands, ``runserver``) the bots
think in the request's own thread. The expert keeps its bid analyses in the process that thinks
(``engine.bots.expert``): the pool's processes live as long as their web worker, so a hand's
later bids in the same process find them. A bot process leaves with its worker, however the
worker ends (``_watch_parent``).

Either way at most ``PRACTICE_BOTS_AT_ONCE`` requests of a web worker think or wait for a bot at
once; one more is turned away at once (``BotsBusy``), so practice never holds every thread of a
worker and a scorekeeper's request always finds one free.

What each search costs is measured where it runs (the thread's CPU time) and added to the
request's ``Purse`` when one is open (``paying``: ``throttle.limited`` opens one, and charges it
to the visitor's address afterwards); a purse already spent refuses the next search before it
starts (``BudgetSpent``).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache

from .engine import advisor, practice, tables
from .engine.advisor import Advice
from .engine.bots import RULE_OF_THUMB_STRENGTHS
from .engine.cards import Card
from .engine.game import HandState, to_json
from .engine.practice import ConcedeWeights, PlayedOn
from .throttle import CACHE_ERRORS

__all__ = [
    "BotsBusy",
    "BrokenProcessPool",
    "BudgetSpent",
    "Purse",
    "advise",
    "hint",
    "paying",
    "play_on",
    "review_slice",
    "shutdown",
    "table_play_on",
    "think",
    "thinking_now",
    "under_roof",
    "weigh_concession",
]

PARENT_CHECK_SECONDS = 0.5  # how often a bot process looks whether its web worker still lives

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_owner = 0  # the process that started _pool (a forked web worker starts its own)
_thinking = 0  # this process's requests thinking or waiting for a bot process


def thinking_now() -> int:
    """How many of this process's requests think or wait for a bot right now."""
    with _lock:
        return _thinking


class BotsBusy(Exception):
    """``PRACTICE_BOTS_AT_ONCE`` requests of this web worker already think: nothing was started."""


class BudgetSpent(Exception):
    """The request's purse refused the search before it started: ``words`` say why, ``seconds``
    how long to wait."""

    def __init__(self, words: str, seconds: int) -> None:
        super().__init__(words)
        self.words, self.seconds = words, seconds


@dataclass
class Purse:
    """What a request's searches cost so far (CPU seconds), and who may refuse the next one:
    ``refusal()`` returns (words, seconds to wait) once the payer's budget is spent, else None."""

    refusal: Callable[[], tuple[str, int] | None]
    spent: float = 0.0


_purse: ContextVar[Purse | None] = ContextVar("purse", default=None)


@contextmanager
def paying(refusal: Callable[[], tuple[str, int] | None]) -> Iterator[Purse]:
    """Within this block every search is checked against ``refusal`` first and its CPU added to
    the purse yielded."""
    purse = Purse(refusal)
    token = _purse.set(purse)
    try:
        yield purse
    finally:
        _purse.reset(token)


def under_roof() -> bool:
    """Whether this code runs inside ``think`` (for the test that no search runs outside it)."""
    return practice.measuring()


# -- the searches a request may ask for -------------------------------------------------------------


def _entry_point[**P, T](function: Callable[P, T]) -> Callable[P, T]:
    """An entry point for ``function``: called with the engine function's own arguments (and
    typed by them), it runs the function through ``think``."""

    @functools.wraps(function)
    def entry(*args: P.args, **kwargs: P.kwargs) -> T:
        return think(function, *args, **kwargs)

    return entry


# The bots play on from a state to the player's next decision (a move, a start, a replay).
play_on = _entry_point(practice.play_on)


def table_play_on(state: dict[str, Any] | HandState, strengths: dict[int, str], seed: int) -> PlayedOn:
    """A private table's bots (and bots covering for players who are away) play on to a person's
    turn. Bots of rules of thumb only (``RULE_OF_THUMB_STRENGTHS``: a whole hand in a few
    milliseconds) play in the request's own thread, measured and paid for like a search: sending
    them to the bot process would cost more than their thinking, and fifty tables would queue
    behind each other (and behind a practice expert) for its one search at a time.

    Given a parsed state (``HandState``), bots playing here play on it in place and the answer's
    ``state`` is empty: the table parses its state once and writes it once per stored version."""
    if answers_at_once(strengths):
        if isinstance(state, HandState):
            started = time.perf_counter()
            moves = _here(tables.play_on_hand, state, strengths, seed)
            return PlayedOn({}, moves, time.perf_counter() - started)
        return _here(tables.play_on, state, strengths, seed)
    return think(tables.play_on, to_json(state) if isinstance(state, HandState) else state, strengths, seed)


def answers_at_once(strengths: Mapping[int, str]) -> bool:
    """Whether bots of these strengths play in the request's own thread (``table_play_on``)."""
    return set(strengths.values()) <= RULE_OF_THUMB_STRENGTHS


# The strongest bot's answer in the player's seat, and its reason if it gives one.
hint = _entry_point(practice.hint)
# One slice more of a hand's review.
review_slice = _entry_point(practice.review_slice)


CONCEDE_OFFER_SECONDS = 60 * 60  # a table left open that long is weighed again when next shown


def weigh_concession(game_id: int, version: int, state: dict[str, Any], seed: int) -> ConcedeWeights:
    """The throw-in decision weighed by the expert, once per game version: its answer depends on
    nothing else, so it is kept in the cache and reloading the table does not search again."""
    key = f"practice:{game_id}:{version}:concede-weights"
    weights: ConcedeWeights | None = None
    with suppress(*CACHE_ERRORS):  # a cache that does not answer costs a search, not the page
        weights = cache.get(key)
    if weights is None:
        weights = think(practice.weigh_concession, state, seed, version)
        with suppress(*CACHE_ERRORS):
            cache.set(key, weights, CONCEDE_OFFER_SECONDS)
    return weights


def advise(
    variant_id: str, rules: Mapping[str, Any], hand: Sequence[Card], seed: int, budget_s: float
) -> Advice:
    """The bid advisor's simulation of a full hand (``engine.advisor.advice_for``)."""
    return think(advisor.advice_for, variant_id, dict(rules), tuple(hand), seed, budget_s)


# -- where and how many ---------------------------------------------------------------------------


def think[**P, T](function: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``function(*args, **kwargs)`` where the bots think. ``BudgetSpent`` when the request's purse is spent,
    ``BotsBusy`` when this process already thinks as much as it may (nothing is started either
    way); ``BrokenProcessPool`` if a bot process died (the next call starts anew)."""
    global _thinking
    purse = _open_purse()
    with _lock:
        if _thinking >= settings.PRACTICE_BOTS_AT_ONCE:
            raise BotsBusy
        _thinking += 1
    # A partial of a top-level engine function on plain values pickles for a bot process.
    call = functools.partial(function, *args, **kwargs)
    try:
        if settings.PRACTICE_BOT_PROCESSES <= 0:
            result, seconds = practice.measured(call, ())
        else:
            pool = _started(settings.PRACTICE_BOT_PROCESSES)
            try:
                result, seconds = pool.submit(practice.measured, call, ()).result()
            except BrokenProcessPool:
                shutdown()
                raise
    finally:
        with _lock:
            _thinking -= 1
    if purse is not None:
        purse.spent += seconds
    return result


def _here[**P, T](function: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``function(*args, **kwargs)`` in this thread, checked against and charged to the request's
    purse as ``think`` does, but not counted among the searches of the worker (it searches nothing)."""
    purse = _open_purse()
    result, seconds = practice.measured(functools.partial(function, *args, **kwargs), ())
    if purse is not None:
        purse.spent += seconds
    return result


def _open_purse() -> Purse | None:
    """The request's purse, if one is open; ``BudgetSpent`` if it refuses another search."""
    purse = _purse.get()
    if purse is not None and (refused := purse.refusal()) is not None:
        raise BudgetSpent(*refused)
    return purse


def _started(processes: int) -> ProcessPoolExecutor:
    global _pool, _owner
    with _lock:
        if _pool is None or _owner != os.getpid():
            _pool = ProcessPoolExecutor(
                processes,
                # spawn: a fresh interpreter, not a fork of a threaded web worker
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_bot_process_starts,
                initargs=(settings.PRACTICE_BOT_NICENESS, os.getpid()),
            )
            _owner = os.getpid()
        return _pool


def _bot_process_starts(niceness: int, parent: int) -> None:
    """In a new bot process: a lower priority, and a watch on the web worker that started it."""
    os.nice(niceness)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-web-worker", daemon=True).start()


def _watch_parent(parent: int) -> None:
    """Leave as soon as the web worker is gone, however it went (``kill -9`` runs no clean-up):
    a bot process left behind would hold its 50 MB, and multiprocessing's resource tracker,
    which shares the worker's pipe with it, forever. Once both are gone the tracker reads the
    end of that pipe and leaves too.

    A watch rather than Linux's ``PR_SET_PDEATHSIG``: that signal follows the *thread* that
    started the process, and the pool is started from whichever request thread thinks first,
    which under ``runserver`` ends with its request."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def shutdown() -> None:
    """Stop this process's bot processes (started again when a bot next thinks)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)
