"""Phones at private tables, for the load test and the several-servers test: a phone opens or
joins a table through its pages (forms read from the HTML, as a browser would), taps what its
screen offers when it is its turn, and keeps the table's event stream open, noting when each
screen arrives."""

from __future__ import annotations

import asyncio
import random
import re
import time
from dataclasses import dataclass, field

from scorepad.engine.variants import VARIANTS

from .browser import Browser, BrowserError, Form, read_forms
from .streams import EventStream

JOIN_LINK = re.compile(r'href="[^"]*/tables/join/([A-Za-z0-9_-]+)/"')
PASS_COUNT = re.compile(r"Choose (\d+) cards to pass")


@dataclass
class TablePhone:
    """One person's phone at a private table."""

    browser: Browser
    table_id: int = 0
    link_token: str = ""
    posted: list[tuple[int, float]] = field(default_factory=list)  # (version made, when answered)

    async def open_table(self, variant: str, host_name: str, seats: list[str]) -> None:
        """Open a table from the form: ``seats`` for seats 2 on, "open" or "bot:<strength>"."""
        page = await self.browser.get(f"/tables/?variant={variant}")
        form = next(f for f in read_forms(page.text) if "host_name" in f.names)
        data = _filled(form, {"host_name": host_name, **{f"seat_{n}": s for n, s in enumerate(seats, 1)}})
        answer = await self.browser.post("/tables/", data)
        location = answer.header("location")
        if answer.status != 302 or "/tables/" not in location:
            raise BrowserError(f"the table did not open: {answer.status} {answer.text[:300]}")
        self.table_id = int(location.rstrip("/").split("/")[-1])
        table = await self.browser.get(f"/tables/{self.table_id}/")
        found = JOIN_LINK.search(table.text)
        if found is None:
            raise BrowserError("the table page shows no link")
        self.link_token = found.group(1)

    async def join(self, link_token: str, seat: int, name: str) -> None:
        page = await self.browser.get(f"/tables/join/{link_token}/")
        action = f"/tables/join/{link_token}/seat/{seat}/"
        form = next((f for f in read_forms(page.text) if f.action == action), None)
        if form is None:
            said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.text.split("<main", 1)[-1]))[:300]
            raise BrowserError(f"seat {seat} cannot be taken ({page.status}): {said}")
        answer = await self.browser.post(action, _filled(form, {"name": name}))
        if answer.status != 302:
            raise BrowserError(f"seat {seat} was refused: {answer.status}")
        self.table_id = int(answer.header("location").rstrip("/").split("/")[-1])
        self.link_token = link_token

    async def say(self, message: str) -> None:
        """Tap one of the quick messages (its key: "nice", "gg"…) on this phone's screen."""
        page = await self.browser.get(f"/tables/{self.table_id}/", {"HX-Request": "true"})
        form = next((f for f in read_forms(page.text) if f.action.endswith("/say/")), None)
        if form is None:
            raise BrowserError("the screen offers no quick messages")
        answer = await self.browser.post(form.action, [*_filled(form, {}), ("message", message)])
        if answer.status >= 400:
            raise BrowserError(f"{form.action}: {answer.status} {answer.text[:300]}")

    def stream(self) -> EventStream:
        path = f"/tables/{self.table_id}/events/"
        return EventStream(self.browser.host, self.browser.port, path, dict(self.browser.cookies))

    async def act(self, rng: random.Random) -> tuple[str, int] | None:
        """If this phone's screen offers a decision, tap one of its answers (a card, a bid…): which
        kind, and the version it was made on; None when it is not this phone's turn."""
        page = await self.browser.get(f"/tables/{self.table_id}/", {"HX-Request": "true"})
        return await self.act_on(page.text, rng)

    async def act_on(self, html: str, rng: random.Random) -> tuple[str, int] | None:
        forms = read_forms(html)
        form = next((f for f in forms if f.action.endswith("/act/")), None)
        if form is None:
            nexts = next((f for f in forms if f.action.endswith("/next/")), None)
            if nexts is not None:
                await self.browser.post(nexts.action, _filled(nexts, {}))
            return None
        version = int(form.named("version")[0].value)
        kind, value = _choice(form, html, rng)
        data = [(c.name, c.value) for c in form.controls if c.type == "hidden"]
        data += value
        answer = await self.browser.post(form.action, data)
        if answer.status >= 500:
            raise BrowserError(f"{form.action}: {answer.status}")
        self.posted.append((version, time.perf_counter()))
        return kind, version


def _choice(form: Form, html: str, rng: random.Random) -> tuple[str, list[tuple[str, str]]]:
    """An answer the screen offers: a bid (mostly pass), the first trump, play on, a playable card,
    or the first cards to pass."""
    for name in ("card", "bid", "trump", "concede"):
        buttons = [c for c in form.named(name) if not c.disabled]
        if buttons:
            if name == "bid":
                passing = [c for c in buttons if c.value == "pass"]
                least = next(c for c in buttons if c.value != "pass")
                pick = passing[0] if passing and rng.random() < 0.7 else least
            elif name == "concede":
                pick = next(c for c in buttons if c.value == "false")
            else:
                pick = rng.choice(buttons) if name == "card" else buttons[0]
            return name, [(name, pick.value)]
    boxes = form.named("pass")
    found = PASS_COUNT.search(html)
    count = int(found.group(1)) if found else 0
    return "pass", [("pass", box.value) for box in boxes[:count]]


def _filled(form: Form, values: dict[str, str]) -> list[tuple[str, str]]:
    data = []
    for control in form.controls:
        if not control.name or control.type == "submit":
            continue
        if control.type in ("checkbox", "radio") and not control.checked:
            continue
        data.append((control.name, values.get(control.name, control.value)))
    return data


# ---- private tables under load (``manage.py loadtest --tables N``) ------------------------------

REFUSED = 'class="notice refused"'


def people_seats(seats: int, people: int) -> list[int]:
    """Where ``people`` people sit at a table of ``seats``, spread round it (two at a four-seat
    table are partners, 0 and 2); bots take the rest."""
    return sorted({round(n * seats / people) % seats for n in range(people)})


@dataclass
class TableStats:
    """What the tables' phones saw: each card's time until every other person's phone shows it,
    errors, and every
    write acknowledged (an answer that showed no refusal) per table, to check none was lost. Every
    answer is a 200 (a refusal is shown in it): anything else is an error."""

    card_to_phones: list[float] = field(default_factory=list)  # seconds
    post: list[float] = field(default_factory=list)  # seconds
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[int, int] = field(default_factory=dict)  # table id: writes acknowledged
    refused: int = 0
    phones: int = 0


async def table_phones(
    index: int,
    host: str,
    port: int,
    stats: TableStats,
    times: tuple[float, float],
    think: float,
    variant: str,
    people: int,
) -> None:
    """``people`` people at one table (bots in the other seats), each phone on its event stream,
    each answering at a person's pace what its latest screen asks until the first of ``times``
    (``time.monotonic()``), then every phone connected and idle until the second."""
    deadline, idle_until = times
    rng = random.Random(f"table:{index}")
    seated = people_seats(VARIANTS[variant].seats, people)
    # Each phone its own address (TEST-NET-2/3), as phones on their own networks: per-address limits.
    phones = [
        TablePhone(Browser(host, port, extra_headers={"X-Forwarded-For": _address(people * index + n)}))
        for n in range(people)
    ]
    others = ["open" if seat in seated else "bot:heuristic" for seat in range(1, VARIANTS[variant].seats)]
    try:
        await phones[0].open_table(variant, f"Host {index}", others)
        for n, seat in enumerate(seated[1:], 1):
            await phones[n].join(phones[0].link_token, seat, f"Guest {index}-{n}")
    except (BrowserError, OSError, StopIteration) as error:
        stats.errors.append(f"table {index}: could not sit down: {error}")
        return
    stats.acknowledged.setdefault(phones[0].table_id, 0)
    seen: list[dict[int, float]] = [{} for _ in phones]  # per phone: version → when its screen arrived
    latest: list[str] = ["" for _ in phones]
    streams = [phone.stream() for phone in phones]
    try:
        for stream in streams:
            await stream.open()
        stats.phones += people
        readers = [asyncio.create_task(_read(s, seen[n], latest, n)) for n, s in enumerate(streams)]
        while time.monotonic() < deadline:
            acted = False
            for n, phone in enumerate(phones):
                if not latest[n] or time.monotonic() >= deadline:
                    continue
                html, latest[n] = latest[n], ""
                others_seen = [seen[m] for m in range(people) if m != n]
                acted = await _answer(phone, html, rng, stats, others_seen, think) or acted
            if not acted:
                await asyncio.sleep(0.05)
        await asyncio.sleep(max(0.0, idle_until - time.monotonic()))  # connected, nobody taps
        for reader in readers:
            reader.cancel()
    except (BrowserError, OSError, TimeoutError) as error:
        stats.errors.append(f"table {phones[0].table_id}: {error}")
    finally:
        for stream in streams:
            await stream.close()
        for phone in phones:
            await phone.browser.close()


def tables_apart(
    host: str,
    port: int,
    count: int,
    times: tuple[float, float],
    think: float,
    variants: tuple[str, ...],
    people: int,
) -> TableStats:
    """``count`` tables' phones (``table_phones``), run in a process of their own (spawned by the load
    test): their screens are read and parsed there, so a burst of them never keeps the scorekeepers'
    answers waiting on the load test's own event loop and counted as the server's time."""
    stats = TableStats()

    async def every_table() -> None:
        variant = [variants[n % len(variants)] for n in range(count)]
        phones = (table_phones(n, host, port, stats, times, think, variant[n], people) for n in range(count))
        await asyncio.gather(*phones)

    asyncio.run(every_table())
    return stats


def _address(n: int) -> str:
    return f"198.51.100.{n % 254 + 1}" if n < 254 else f"203.0.113.{n % 254 + 1}"


async def _read(stream: EventStream, seen: dict[int, float], latest: list[str], n: int) -> None:
    while True:
        event = await stream.next_event(3_600)
        if event.name == "screen" and event.version is not None:
            seen.setdefault(event.version, event.at)
            latest[n] = event.data


async def _answer(
    phone: TablePhone,
    html: str,
    rng: random.Random,
    stats: TableStats,
    others_seen: list[dict[int, float]],
    think: float,
) -> bool:
    """Tap what ``html`` (this phone's latest screen) asks, if anything; time a card until every other
    phone shows it. Whether it asked anything (only then does the person think: the other phones'
    screens ask nothing of theirs)."""
    forms = read_forms(html)
    form = next((f for f in forms if f.action.endswith(("/act/", "/next/"))), None)
    if form is None:
        return False
    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)  # a person reads and taps
    version = int(form.named("version")[0].value)
    data = [(c.name, c.value) for c in form.controls if c.type == "hidden"]
    kind = "next"
    if form.action.endswith("/act/"):
        kind, answer = _choice(form, html, rng)
        data += answer
    sent = time.perf_counter()
    response = await phone.browser.request(
        "POST", form.action, _encoded(data), "application/x-www-form-urlencoded", {"HX-Request": "true"}
    )
    stats.post.append(time.perf_counter() - sent)
    if response.status != 200:
        stats.errors.append(f"{form.action}: {response.status}")
        return True
    if REFUSED in response.text:
        stats.refused += 1  # stale (the other phone dealt first), or over a limit: nothing applied
        return True
    stats.acknowledged[phone.table_id] = stats.acknowledged.get(phone.table_id, 0) + 1
    if kind == "card":
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            arrived = [
                min((at for v, at in seen.items() if v > version), default=None) for seen in others_seen
            ]
            if None not in arrived:
                stats.card_to_phones.append(max(at for at in arrived if at is not None) - sent)
                return True
            await asyncio.sleep(0.01)
        stats.errors.append(f"table {phone.table_id}: a card never reached every other phone")
    return True


def _encoded(data: list[tuple[str, str]]) -> bytes:
    from urllib.parse import urlencode

    return urlencode(data).encode()


def server_cpu_seconds(port: int) -> float:
    """CPU seconds used so far by the server listening on ``port`` and every process under it."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    servers: set[int] = set()  # the master and its workers: a fork keeps the command line
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except OSError:
            continue
        pid = int(entry)
        parents[pid] = int(fields[1])
        used[pid] = (int(fields[11]) + int(fields[12])) / tick
        if b"gunicorn" in command and f":{port}".encode() in command:
            servers.add(pid)
    masters = {pid for pid in servers if parents[pid] not in servers}
    if not masters:
        return 0.0
    family, grew = masters, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    return sum(used[pid] for pid in family)
