"""Outside bots: a program that plays a seat over the §9.6 line protocol.

The program starts on the seat's first decision and lives for the whole game. Each decision
writes one JSON view (one line) to its standard input and reads one JSON answer (one line) from
its standard output. Anything but a legal answer in time stops the game with a ``BotError``.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
import time

from ..answers import parse_line, read_line
from ..view import Answer, SeatView
from .common import BotError

_CLOSE_GRACE = 1.0  # seconds a program gets to exit on its own once its input is closed


class OutsideBot:
    def __init__(self, command: str, seat: int, timeout: float = 10.0) -> None:
        self.name = f"cmd:{command}"
        self.args = shlex.split(command)
        if not self.args:
            raise ValueError("cmd: needs a program to run, as in cmd:python3 mybot.py")
        self.seat = seat
        self.timeout = timeout
        self.process: subprocess.Popen[str] | None = None
        self._pending = b""  # bytes read past the end of the last answer line

    def decide(self, view: SeatView) -> Answer:
        line = self._exchange(view, json.dumps(view.to_json()) + "\n")
        return read_line(view, line)

    def explain(self, view: SeatView) -> tuple[Answer, str | None]:
        return self.decide(view), None  # no words for its answers

    def close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if process.stdin:
                process.stdin.close()
            process.wait(_CLOSE_GRACE)
        except (OSError, subprocess.TimeoutExpired):
            pass
        _kill(process)

    def _start(self, view: SeatView) -> subprocess.Popen[str]:
        if self.process is None:
            try:
                self.process = subprocess.Popen(
                    self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
                )
            except OSError as error:
                where = f"seat {view.seat}, decision {view.decision}"
                raise BotError(f"{where}: cannot start {shlex.join(self.args)}: {error}") from None
            self._pending = b""
        return self.process

    def _exchange(self, view: SeatView, request: str) -> str:
        process = self._start(view)
        try:
            assert process.stdin is not None
            process.stdin.write(request)
            process.stdin.flush()
        except OSError:
            raise self._fail(view, self._exit_reason(process)) from None
        return self._read_line(view, process)

    def _read_line(self, view: SeatView, process: subprocess.Popen[str]) -> str:
        """One line from the program's stdout, waiting at most ``timeout`` seconds in all.

        Reads the raw pipe (never the text wrapper's buffer) so a half-written line cannot block.
        """
        assert process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._pending:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    raise self._fail(view, f"no answer within {self.timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._fail(view, self._exit_reason(process))
                self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def _exit_reason(self, process: subprocess.Popen[str]) -> str:
        try:
            status = process.wait(_CLOSE_GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output without answering"
        return f"exited with status {status}"

    def _fail(self, view: SeatView, reason: str) -> BotError:
        self._kill_now()
        return BotError(f"seat {view.seat}, decision {view.decision}: {self.name} {reason}")

    def _kill_now(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            _kill(process)


def _kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def parse_answer(view: SeatView, line: str) -> Answer:
    """Turn one §9.6 answer line into an engine answer; ``BotError`` names what is wrong."""
    return parse_line(view, line)
