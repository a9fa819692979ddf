"""``manage.py loadtest``: players entering hands on the production server, then a check that
every acknowledged hand is stored and every total is the engine's. The benchmark itself lives apart
from the app, in ``pinochle_site.tools.loadtest``, and is imported only when the command runs."""

from __future__ import annotations

import dataclasses
import json
import os
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from scorepad.engine.bots import PRACTICE_STRENGTHS
from scorepad.engine.variants import VARIANTS

if TYPE_CHECKING:
    from pinochle_site.tools.loadtest.run import Report


def _load_test() -> Any:
    """The load benchmark; it drives a browser-like client, so it needs the test extras."""
    try:
        from pinochle_site.tools.loadtest import run
    except ModuleNotFoundError as missing:
        raise CommandError(f"loadtest needs the test extras (pip install -e '.[test]'): {missing}") from None
    return run


class Command(BaseCommand):
    help = (
        "Start gunicorn on loopback against this database, have USERS players enter hands and read "
        "scoreboards for SECONDS, then check every acknowledged hand is stored and totals match the engine."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--users", type=int, default=50, help="simulated players (default 50)")
        parser.add_argument("--seconds", type=float, default=60.0, help="length of the run (default 60)")
        parser.add_argument(
            "--variants", default=",".join(VARIANTS), help="comma-separated; players take them in turn"
        )
        parser.add_argument(
            "--warmup", type=float, default=3.0, help="untimed seconds before the run (default 3)"
        )
        parser.add_argument(
            "--think", type=float, default=0.0, help="mean pause between rounds (a visitor's taps), seconds"
        )
        parser.add_argument("--workers", type=int, help="gunicorn workers (default: cores + 1)")
        parser.add_argument("--disrupt", default="", help="a shell command to run mid-run, e.g. a restart")
        parser.add_argument("--disrupt-at", type=float, help="when to run it, seconds (default: mid-run)")
        parser.add_argument(
            "--pause-redis",
            type=float,
            default=0.0,
            metavar="SECONDS",
            help="stop the local Redis (CACHE_URL on this machine) that long at --disrupt-at, then let it "
            "go (also if the run fails); the hand POST's p95 inside the pause is printed",
        )
        parser.add_argument(
            "--idle-streams",
            type=int,
            default=0,
            help="private tables' event streams held open, idle, through the run (spread within the "
            "per-seat and per-address caps); the players first play alone, then with them, and both "
            "hand POST figures are printed with the streams held and refused",
        )
        parser.add_argument("--guessers", type=int, default=0, help="tasks posting wrong passwords meanwhile")
        parser.add_argument(
            "--practice-players",
            type=int,
            default=0,
            help="anonymous visitors playing practice games meanwhile; the players first play alone, "
            "then with them, and both hand POST figures are printed",
        )
        parser.add_argument(
            "--practice-strength",
            choices=PRACTICE_STRENGTHS,
            default="expert",
            help="the visitors' bots (default expert)",
        )
        parser.add_argument(
            "--practice-mix",
            default="moves",
            help="what the visitors do on their turns: moves, hints, reviews, comma-separated, as often as "
            "each other, or weighed as kind:weight (moves:6,hints:1,reviews:1); default moves. With hints "
            "or reviews the visitors' games allow the bidder's throw-in, and they answer its offer",
        )
        parser.add_argument(
            "--tables",
            type=int,
            default=0,
            help="private tables played meanwhile, --table-people people (phones on event streams) and "
            "bots in the other seats; the players first play alone, then with them, and both hand POST "
            "figures are printed",
        )
        parser.add_argument(
            "--table-people",
            type=int,
            default=2,
            help="people (phones) at each private table, spread round it (default 2: partners); up to "
            "the variant's seats, six at six-handed",
        )
        parser.add_argument(
            "--table-think",
            type=float,
            default=3.0,
            help="mean seconds a person at a private table takes for a decision (default 3)",
        )
        parser.add_argument(
            "--event",
            type=int,
            default=0,
            metavar="TABLES",
            help="a club night instead: TABLES tables, each phone entering and countersigning hands at "
            "table pace, first alone, then with --watchers screens on the room's standings stream",
        )
        parser.add_argument(
            "--watchers", type=int, default=100, help="with --event: standings screens (default 100)"
        )
        parser.add_argument(
            "--table-pace",
            type=float,
            default=5.0,
            help="with --event: mean seconds between a table's hands (default 5)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the players, games and hands")
        parser.add_argument("--json", action="store_true", help="print the report as one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["event"]:
            self._club_night(options)
            return
        variants = tuple(v.strip() for v in options["variants"].split(",") if v.strip())
        unknown = [v for v in variants if v not in VARIANTS]
        if unknown or not variants:
            raise CommandError(f"--variants: unknown {unknown or 'none given'}; choose from {list(VARIANTS)}")
        if (
            options["users"] < 1
            or options["seconds"] <= 0
            or min(options["practice_players"], options["tables"], options["idle_streams"]) < 0
            or options["pause_redis"] < 0
        ):
            raise CommandError(
                "--users must be at least 1, --seconds more than 0, --practice-players, --tables, "
                "--idle-streams and --pause-redis 0 or more"
            )
        fewest_seats = min(VARIANTS[v].seats for v in variants)
        if not 1 <= options["table_people"] <= fewest_seats:
            raise CommandError(
                f"--table-people must be 1 to {fewest_seats}: the seats at a table of {', '.join(variants)}"
            )
        load = _load_test()
        redis = local_redis(load) if options["pause_redis"] else ()
        mix = practice_mix(options["practice_mix"], load.MIX_KINDS)
        if mix != load.ONLY_MOVES and not options["practice_players"]:
            raise CommandError("--practice-mix needs --practice-players")
        settings = load.Options(
            users=options["users"],
            seconds=options["seconds"],
            warmup=max(0.0, options["warmup"]),
            variants=variants,
            think=options["think"],
            workers=options["workers"],
            disrupt=options["disrupt"],
            disrupt_at=options["seconds"] / 2 if options["disrupt_at"] is None else options["disrupt_at"],
            guessers=options["guessers"],
            practice_players=options["practice_players"],
            practice_strength=options["practice_strength"],
            practice_mix=mix,
            tables=options["tables"],
            table_think=max(0.0, options["table_think"]),
            table_people=options["table_people"],
            idle_streams=options["idle_streams"],
            pause_redis=options["pause_redis"],
            redis_pids=redis,
            seed=options["seed"],
            keep=options["keep"],
        )
        try:
            result = load.run(settings)
        except (RuntimeError, DatabaseError) as error:  # the server died, or the database is not ready
            raise CommandError(str(error)) from error
        if options["json"]:
            self.stdout.write(json.dumps(dataclasses.asdict(result) | {"ok": result.ok}))
        else:
            self.stdout.write("\n".join(describe(result)))
        if not result.ok:
            raise CommandError(
                "hands were lost, changed, stored unacknowledged or twice, a game could not be read "
                "back, totals differ, or requests failed outside a restart"
            )

    def _club_night(self, options: dict[str, Any]) -> None:
        """``--event``: a club night's tables and standings screens (pinochle_site.tools.loadtest.event)."""
        if (
            options["event"] < 1
            or options["watchers"] < 0
            or options["seconds"] <= 0
            or options["table_pace"] < 0
        ):
            raise CommandError("--event needs 1 table or more, --watchers 0 or more, --seconds more than 0")
        _load_test()  # the test extras are there
        from pinochle_site.tools.loadtest import event as club_night

        settings = club_night.EventOptions(
            tables=options["event"],
            watchers=options["watchers"],
            seconds=options["seconds"],
            warmup=max(0.0, options["warmup"]),
            pace=options["table_pace"],
            workers=options["workers"],
            seed=options["seed"],
            keep=options["keep"],
        )
        try:
            result = club_night.run_event(settings)
        except (RuntimeError, DatabaseError) as error:
            raise CommandError(str(error)) from error
        if options["json"]:
            self.stdout.write(json.dumps(dataclasses.asdict(result) | {"ok": result.ok}))
        else:
            self.stdout.write("\n".join(club_night.describe(result)))
        if not result.ok:
            raise CommandError(
                "club night: hands were lost, stored unacknowledged or twice, left unconfirmed, standings "
                "differ from the tables, or requests failed"
            )


def local_redis(load: Any) -> tuple[int, ...]:
    """The redis-server processes to pause: only when CACHE_URL names a Redis on this machine."""
    url = urlsplit(os.environ.get("CACHE_URL", ""))
    if url.scheme not in ("redis", "rediss") or url.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise CommandError(
            "--pause-redis needs CACHE_URL naming a Redis on this machine (redis://127.0.0.1:6379/0)"
        )
    pids: tuple[int, ...] = load.redis_pids()
    if not pids:
        raise CommandError("--pause-redis: no redis-server process runs on this machine")
    return pids


def practice_mix(text: str, kinds: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
    """``moves,hints,reviews`` (each as often as the others) or ``moves:6,hints:1,reviews:1`` (in
    those proportions), as (kind, weight); what cannot be read is said in one line."""
    mix: dict[str, float] = {}
    for entry in (part.strip() for part in text.split(",")):
        kind, _, weight = entry.partition(":")
        try:
            share = float(weight) if weight else 1.0
        except ValueError:
            share = 0.0
        if kind not in kinds or kind in mix or not 0 < share < float("inf"):
            raise CommandError(
                f"--practice-mix: cannot read {entry!r}; give each of {', '.join(kinds)} at most once, "
                "as kind or kind:weight (a weight more than 0)"
            )
        mix[kind] = share
    if "moves" not in mix:
        raise CommandError(
            "--practice-mix: moves must be in it (a visitor that never moves has no hand to review)"
        )
    return tuple(mix.items())


def describe(r: Report) -> list[str]:
    def line(kind: str, p: dict[str, float]) -> str:
        return (
            f"  {kind:<13} n={p['n']:<7} p50 {p['p50']:>7} ms   p95 {p['p95']:>7} ms   "
            f"p99 {p['p99']:>7} ms   max {p['max']:>7} ms"
        )

    window = f" (window {r.window[0]}–{r.window[1]} s)" if r.window else ""
    visitors = (
        f", {r.practice_players} visitors at {r.practice_strength} practice" if r.practice_players else ""
    )
    if r.tables:
        visitors += f", {r.tables} private tables"
    lines = [f"{r.users} players for {r.seconds} s on {r.database}, gunicorn {r.workers}"]
    if r.alone_ms is not None:
        lines += [
            "the players alone, just before (on games of their own):",
            line(_load_test().HAND_POST, r.alone_ms),
            f"  errors: {r.alone_errors}",
            f"the players{visitors}:",
        ]
    lines += [
        f"requests: {r.requests} = {r.requests_per_second} requests/s",
        *(line(kind, p) for kind, p in r.percentiles_ms.items()),
        f"hand POST p95 / bare view p95 = {r.ratio}",
    ]
    if r.idle_streams:
        visitors += f", {r.idle_streams} idle event streams asked for"
    if r.alone_ms is not None:
        beside, target = ("the tables", "≤ 2") if r.tables else ("the visitors", "≤ 3")
        if r.idle_streams:
            beside, target = "the idle streams", "≤ 3 through a Redis pause" if r.pause_redis else "≤ 2"
        lines.append(f"hand POST p95 with {beside} / alone = {r.slowdown} (target {target})")
        lines.append(
            f"practice requests turned away, by status (429 limit, 503 busy): {r.practice_turned_away}"
        )
        if r.practice_mix:
            asked = ", ".join(f"{count} {kind}" for kind, count in r.practice_asked.items())
            lines.append(f"practice mix {r.practice_mix}: the visitors asked for {asked}")
    if r.window_ms is not None:
        pause = f"Redis paused {r.pause_redis} s" if r.pause_redis else "the disruption"
        lines.append(line("hand POST", r.window_ms) + f"   (sent inside the window: {pause})")
        if r.alone_ms is not None:
            lines.append(f"hand POST p95 inside the window / alone = {r.window_slowdown}")
    if r.idle_streams:
        refused_by = ", ".join(f"{count} by the {cap} cap" for cap, count in r.idle_refused_by.items())
        lines += [
            f"idle streams: {r.idle_streams} asked for, all answered in {r.idle_opening_seconds} s; "
            f"held {r.idle_held} at once at the most, {r.idle_held_at_end} at the end; "
            f"refused in words {r.idle_refused} times ({refused_by or 'none'}), "
            f"{r.idle_never_held} never held; "
            f"{r.idle_dropped} dropped by the server and reopened; errors: {len(r.idle_errors)}",
            *(f"  {error}" for error in r.idle_errors),
        ]
    lines += [
        f"errors: {r.errors}, outside a restart window: {r.errors_outside_window}{window}",
        *(f"  {error}" for error in r.first_errors),
        f"hands: {r.acknowledged} acknowledged, {r.stored} stored, {r.lost} lost or changed, "
        f"{r.unacknowledged} stored unacknowledged, {r.duplicates} twice; "
        f"{r.unreadable} games could not be read back",
        *(f"  {problem}" for problem in r.first_problems),
        f"totals: {r.totals_checked} of {r.games} game pages checked against the engine, "
        f"{len(r.totals_differ)} differ",
        *(f"  {difference}" for difference in r.totals_differ),
    ]
    if r.tables and r.card_to_phones_ms is not None and r.table_post_ms is not None:
        lines += [
            f"{r.tables} private tables, {r.table_phones} phones connected ({r.table_people} people "
            f"each, bots in the other seats, a decision every {r.table_think} s on average):",
            line("card→phones", r.card_to_phones_ms)
            + "   (until every other phone shows it; target p95 ≤ 300 ms)",
            line("table POST", r.table_post_ms),
            f"  writes acknowledged: {r.table_writes} ({r.table_writes / max(r.seconds, 1):.1f}/s), "
            f"lost or doubled: {len(r.table_lost)}, "
            f"errors: {len(r.table_errors)}",
            *(f"  {problem}" for problem in [*r.table_lost, *r.table_errors]),
            f"  server CPU per connected phone: {r.cpu_ms_per_phone_second} ms/s while playing "
            "(beyond the scorekeepers' own), "
            f"{r.idle_cpu_ms_per_phone_second} ms/s idle",
        ]
    lines.append(f"the players' client used {r.client_cpu_seconds} CPU s; server log: {r.server_log}")
    if r.guesses:
        lines.append(f"wrong-password posts by answer status: {r.guesses}")
    return lines
