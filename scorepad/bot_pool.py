"""Where the practice bots think: in the request's own thread, or in lower-priority processes.

A bot's move is pure CPU (the expert searches for most of a second), and inside a web worker it
would share that worker's GIL and the machine's cores with every scorekeeper's request. With
``PRACTICE_BOT_PROCESSES`` above 0 (``gunicorn_conf`` makes it 1 under gunicorn), each web
worker starts that many processes the first time a bot thinks, at ``PRACTICE_BOT_NICENESS``
(10): the operating system then gives the scorepad's requests the cores first, and the request
waiting for the bots holds no lock and no GIL. With 0 (tests, commands, ``runserver``) the bots
think in the request's own thread. Only the engine runs there (``engine.practice.play_on``).
The expert keeps its bid analyses in the process that thinks (``engine.bots.expert``): the pool's
processes live as long as their web worker, so a hand's later bids in the same process find them.

Either way at most ``PRACTICE_BOTS_AT_ONCE`` requests of a web worker think or wait for a bot at
once; one more is turned away at once (``BotsBusy``), so practice never holds every thread of a
worker and a scorekeeper's request always finds one free.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

__all__ = ["BotsBusy", "BrokenProcessPool", "shutdown", "think"]

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_owner = 0  # the process that started _pool (a forked web worker starts its own)
_thinking = 0  # this process's requests thinking or waiting for a bot process


class BotsBusy(Exception):
    """``PRACTICE_BOTS_AT_ONCE`` requests of this web worker already think: nothing was started."""


def think[T](function: Callable[..., T], /, *args: object) -> T:
    """``function(*args)`` where the bots think. ``BotsBusy`` when this process already thinks
    as much as it may; ``BrokenProcessPool`` if a bot process died (the next call starts anew)."""
    global _thinking
    with _lock:
        if _thinking >= settings.PRACTICE_BOTS_AT_ONCE:
            raise BotsBusy
        _thinking += 1
    try:
        if settings.PRACTICE_BOT_PROCESSES <= 0:
            return function(*args)
        pool = _started(settings.PRACTICE_BOT_PROCESSES)
        try:
            return pool.submit(function, *args).result()
        except BrokenProcessPool:
            shutdown()
            raise
    finally:
        with _lock:
            _thinking -= 1


def _started(processes: int) -> ProcessPoolExecutor:
    global _pool, _owner
    with _lock:
        if _pool is None or _owner != os.getpid():
            _pool = ProcessPoolExecutor(
                processes,
                # spawn: a fresh interpreter, not a fork of a threaded web worker
                mp_context=multiprocessing.get_context("spawn"),
                initializer=os.nice,
                initargs=(settings.PRACTICE_BOT_NICENESS,),
            )
            _owner = os.getpid()
        return _pool


def shutdown() -> None:
    """Stop this process's bot processes (started again when a bot next thinks)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)
