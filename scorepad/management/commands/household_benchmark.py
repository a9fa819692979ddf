"""``manage.py household_benchmark``: what a big household costs: its restore, statistics and history.

Heuristic bots play ``--games`` whole games to the target (the variants in turn, so each game has as
many hands as a real one), written as a household backup. The backup is restored through the
services, as an upload is: the check (every game scored, no transaction open) and the write (one
transaction) are timed apart. Then the statistics and history pages are rendered ``--views`` times
each (through every middleware, as a browser gets them: no server, no network) three ways: with every
game's tally to compute ("cold", what every view cost before tallies), with all of them kept, and
right after a hand is written to one game (the table playing on). Prints p50 and p95 of each.
The household, its account and its kept tallies are deleted at the end.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import reverse

from scorepad.engine.bots import make_bot
from scorepad.engine.game import HandState
from scorepad.engine.match import percentile
from scorepad.engine.scoring import HandEntry
from scorepad.engine.simulate import simulate
from scorepad.engine.variants import VARIANTS
from scorepad.models import Game, Household
from scorepad.selectors.exchange import BACKUP_FORMAT, BACKUP_VERSION
from scorepad.selectors.games import household_tallies_key, tally_key
from scorepad.services.exchange import (
    MAX_BACKUP_DEALS,
    MAX_BACKUP_GAMES,
    household_restore_check,
    household_restore_write,
)
from scorepad.services.games import game_start, hand_throw_in

PLAYERS = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


class Command(BaseCommand):
    help = "Time a big household's restore, and its statistics and history pages (p50/p95)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=500, help="games in the household (default 500)")
        parser.add_argument("--views", type=int, default=20, help="page views per measure (default 20)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
        parser.add_argument(
            "--at-bound",
            action="store_true",
            help="also time the restore of a backup at the bound (its games and hands in all)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games, views = options["games"], options["views"]
        if games < 1 or views < 1:
            raise CommandError("--games and --views must be at least 1")
        started = time.perf_counter()
        backup = build_backup(games, options["seed"])
        deals = sum(len(game["hands"]) for game in backup["games"])
        playing = time.perf_counter() - started
        self.stdout.write(f"{games} games, {deals:,} hands played by heuristic bots in {playing:.1f} s")
        try:
            with self.restored(backup) as (household, user):
                self.report(household, user, views)
            if options["at_bound"]:
                bound = backup_at_bound()
                self.stdout.write(f"at the bound: {MAX_BACKUP_GAMES:,} games, {MAX_BACKUP_DEALS:,} hands")
                with self.restored(bound):
                    pass
        except DatabaseError as error:
            raise CommandError(f"the database is not ready ({error}): run manage.py migrate first") from None

    @contextmanager
    def restored(self, backup: dict[str, Any]) -> Iterator[tuple[Household, Any]]:
        """``backup`` restored for a new account, timed; both deleted afterwards."""
        user = get_user_model().objects.create_user(f"household-benchmark-{secrets.token_hex(6)}")
        household = None
        try:
            started = time.perf_counter()
            checked = household_restore_check(backup)
            check_seconds = time.perf_counter() - started
            statements = Statements()
            started = time.perf_counter()
            with connection.execute_wrapper(statements):
                household = household_restore_write(backup=checked, user=user)
            write_seconds = time.perf_counter() - started
            self.stdout.write(
                f"restore: check {check_seconds:.2f} s (no transaction open); write {write_seconds:.2f} s, "
                f"of which the transaction {statements.span() * 1000:.0f} ms ({statements.count} statements)"
            )
            yield household, user
        finally:
            if household is not None:
                forget_tallies(household)
                household.games.all().delete()
                household.delete()
            user.delete()

    def report(self, household: Household, user: Any, views: int) -> None:
        pages: dict[str, Callable[[], HttpResponse]] = {
            "statistics": page("statistics", household, user),
            "history": page("history", household, user),
        }
        playing = game_start(
            household=household,
            variant_id="classic",
            overrides={},
            players=list(household.players.order_by("name")[:4]),
            first_dealer=0,
        )
        for name, view in pages.items():
            cold = timed(views, view, before=lambda: forget_tallies(household))
            warm = timed(views, view)
            after_write = timed(views, view, before=lambda: write_a_hand(playing))
            for label, (wall, cpu) in (("cold", cold), ("kept", warm), ("after a hand", after_write)):
                self.stdout.write(
                    f"{name:<10} {label:<12} p50 {ms(wall, 50)}  p95 {ms(wall, 95)}"
                    f"   CPU p50 {ms(cpu, 50)}  p95 {ms(cpu, 95)}"
                )


def build_backup(games: int, seed: int) -> dict[str, Any]:
    """A household backup of ``games`` whole games played by heuristic bots, the variants in turn."""
    variants = list(VARIANTS.values())
    played: list[dict[str, Any]] = []
    start = datetime(2020, 1, 1, 19, tzinfo=UTC)
    for index, variant in enumerate(variants):
        count = games // len(variants) + (index < games % len(variants))
        by_game: dict[int, list[dict[str, Any]]] = {}

        def keep(state: HandState, by_game: dict[int, list[dict[str, Any]]] = by_game) -> None:
            by_game.setdefault(state.game, []).append(_deal(state))

        settings = variant.defaults
        simulate(variant, settings, ["heuristic"] * variant.seats, count, seed + index, make_bot, keep)
        for number, deals in sorted(by_game.items()):
            seats = [(number + seat) % len(PLAYERS) for seat in range(variant.seats)]
            played.append(
                {
                    "created_at": (start + timedelta(days=len(played))).isoformat(),
                    "variant": variant.id,
                    "settings": {},
                    "first_dealer": deals[0]["dealer"],
                    "abandoned": False,
                    "seats": seats,
                    "hands": deals,
                }
            )
    played.sort(key=lambda game: game["created_at"])
    return {
        "format": BACKUP_FORMAT,
        "version": BACKUP_VERSION,
        "backup_id": secrets.token_hex(16),
        "exported_at": datetime.now(UTC).isoformat(),
        "household": {"name": "Benchmark household", "created_at": start.isoformat()},
        "players": [{"name": name, "retired": False} for name in PLAYERS],
        "games": played,
    }


def backup_at_bound() -> dict[str, Any]:
    """The most one restore holds: ``MAX_BACKUP_GAMES`` classic games (to a target no game reaches)
    sharing ``MAX_BACKUP_DEALS`` hands."""
    hand = {"dealer": 0, "bidder": 1, "bid": 20, "trump": "H", "meld": [4, 10], "tricks": [12, 13]}
    per_game = MAX_BACKUP_DEALS // MAX_BACKUP_GAMES
    backup = build_backup(0, 1)
    start = datetime(2020, 1, 1, 19, tzinfo=UTC)
    backup["games"] = [
        {
            "created_at": (start + timedelta(hours=number)).isoformat(),
            "variant": "classic",
            "settings": {"target": 99_999},
            "first_dealer": 0,
            "abandoned": False,
            "seats": [0, 1, 2, 3],
            "hands": [{**hand, "dealer": deal % 4} for deal in range(per_game)],
        }
        for number in range(MAX_BACKUP_GAMES)
    ]
    return backup


class Statements:
    """Times the statements a write sends: from the start of the first to the end of the last is
    how long its transaction held the database (the commit, and what runs after it, come later)."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.last = 0.0
        self.count = 0

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if self.first is None:
            self.first = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.last = time.perf_counter()
            self.count += 1

    def span(self) -> float:
        return 0.0 if self.first is None else self.last - self.first


def _deal(state: HandState) -> dict[str, Any]:
    """An ended hand as the table would have written it down (§9.3 plus its dealer)."""
    result = state.result
    assert result is not None
    if state.bidder is None or state.bid is None or state.meld is None:
        return {"dealer": state.dealer, "thrown_in": True}
    entry = HandEntry(
        bidder=state.bidder,
        bid=state.bid,
        trump=state.trump,
        meld=state.variant.side_totals(state.meld),
        tricks=tuple(state.points) if result.played else None,
        took_trick=tuple(state.took_trick) if result.played else None,
    )
    return {"dealer": state.dealer, **entry.to_json()}


def page(name: str, household: Household, user: Any) -> Callable[[], HttpResponse]:
    """The page as a member's browser gets it, through every middleware (no server, no network)."""
    client = Client()
    client.force_login(user)
    url = reverse(name, args=[household.pk])

    def render() -> Any:  # the test client's response
        with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]):
            response = client.get(url, secure=True)
        if response.status_code != 200:
            raise CommandError(f"{name} answered {response.status_code}")
        return response

    return render


def timed(
    views: int, render: Callable[[], Any], before: Callable[[], Any] | None = None
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of ``views`` renders (``before`` each, untimed)."""
    wall, cpu = [], []
    for _ in range(views):
        if before is not None:
            before()
        started, used = time.perf_counter(), time.process_time()
        render()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    return wall, cpu


def write_a_hand(game: Game) -> None:
    """One more deal at the table: a thrown-in deal moves the game's revision like any hand."""
    game.refresh_from_db()
    hand_throw_in(game=game, number=game.hands.count())


def forget_tallies(household: Household) -> None:
    keys = [tally_key(game) for game in household.games.all()]
    cache.delete_many([*keys, household_tallies_key(household)])


def ms(seconds: list[float], percent: float) -> str:
    return f"{percentile(seconds, percent) * 1000:7.1f} ms"
