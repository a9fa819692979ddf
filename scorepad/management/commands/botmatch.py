"""``manage.py botmatch``: a duplicate match between two bots (each deal twice, seats swapped).

    python manage.py botmatch --variant classic --deals 500 --seed 1 --a expert --b heuristic
    python manage.py botmatch --variant classic --games 16 --seed 1 --a expert --b heuristic

A progress bar goes to stderr; the last line on stdout is one JSON object: ``variant, deals, a, b,
margin_per_deal, ci95, by_auction, a_made_rate, b_made_rate, decision_ms_p50, decision_ms_p95,
habits`` (``by_auction`` gives, per kind of deal by who won its two auctions (``match.AUCTION_KINDS``),
``{"deals", "margin", "part"}``; the decision times are bot ``a``'s; ``habits`` gives, per bot, each
habit of ``engine.habits`` as ``{"rate", "shown", "of"}``). ``--habits`` also prints them as a
table, above the JSON line: each rate with its sample and 95% interval, then a line per habit
saying what it counts out of what (``habits.DEFINITIONS``), e.g. ``set_by_a_third``, contracts set
by more than a third of the bid, and ``raise_war``, contracts won by bidding over an opponent three
or more times, each out of the contracts the bot's seats chose.
``--playouts`` and ``--budget-ms`` set the expert's work per decision.
``--a oracle-auction`` is a yardstick, not a player: the expert's card play behind an auction that
sees every hand (``engine.bots.oracle``), what a perfect auction would be worth; deals only.

``--games N`` plays N whole games to the target instead, each twice with the seats swapped (hand k
of game g dealt the same in both): 2N games. Its JSON line has ``variant, games, a, b,
a_games_won, b_games_won, games_shared`` (six-handed co-winners from both bots: half a win each),
``a_win_rate`` with ``a_win_ci95`` (Wilson, over the games played), ``hands_per_game``,
``pairs_won_both, pairs_split, pairs_lost_both`` (each pair of games, the same cards with the seats
swapped, as it went for ``a``), then the same ``a_made_rate … habits`` as a deal match.

``--per-deal FILE`` writes each deal's margin to FILE as it is played (JSON lines: a first line
``{"file": "botmatch per deal", "variant", "seed", "house_rules", "a", "b"}``, then ``{"deal",
"margin"}`` per deal); ``--against FILE`` pairs this match's deals with such a file's (the same
variant, seed and house rules, else refused) and adds ``paired: {deals, difference, ci95,
deals_changed}`` to the JSON line: what a change to a bot moved, deal by deal. With ``--games``
the same two options pair whole games, a pair of games (the same cards, the seats swapped) at a
time: the file is ``"botmatch per game"`` with ``{"pair", "a_share"}`` rows (``a``'s share of the
pair's two games, 0 to 1), and ``paired`` is ``{pairs, difference, ci95, pairs_changed}``, the
difference in ``a``'s win rate.

Bad arguments, and a bot's illegal answer, exit non-zero with one line. Stopped early (Ctrl-C or
SIGTERM), it still prints the line for the deals (games) played so far, then exits with status 130.
"""

from __future__ import annotations

import json
import random
import signal
import sys
from argparse import ArgumentParser
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.management.base import CommandError

from scorepad.engine.bots import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, make_bot
from scorepad.engine.bots.oracle import ORACLE_AUCTION, OracleAuctionBot
from scorepad.engine.habits import DEFINITIONS, Habit
from scorepad.engine.match import (
    MatchResult,
    duplicate_games,
    duplicate_match,
    paired_difference,
    wilson,
)
from scorepad.engine.simulate import GameStopped
from scorepad.engine.view import Bot
from scorepad.management.base import EngineCommand, progress_bar, variant_rules


class Command(EngineCommand):
    help = "A duplicate match between two bots: each deal played twice, the seats swapped."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--variant", help="classic, double-deck or six-handed")
        parser.add_argument("--deals", type=int, default=100, help="deals, each played twice (default 100)")
        parser.add_argument(
            "--games", type=int, help="play this many whole games, each twice, instead of single deals"
        )
        parser.add_argument("--seed", type=int, default=0, help="the same seed deals the same cards")
        parser.add_argument(
            "--a",
            required=True,
            help="the first bot: easy, heuristic, expert, random, oracle-auction or cmd:PROGRAM",
        )
        parser.add_argument("--b", required=True, help="the second bot")
        parser.add_argument("--house-rules", default="{}", help="§4 settings as JSON")
        parser.add_argument(
            "--habits", action="store_true", help="print each bot's habits as a table above the JSON line"
        )
        parser.add_argument(
            "--playouts",
            type=int,
            default=DEFAULT_PLAYOUTS,
            help=f"expert: hands simulated per decision ({DEFAULT_PLAYOUTS})",
        )
        parser.add_argument(
            "--budget-ms",
            type=float,
            default=DEFAULT_BUDGET_MS,
            help=f"expert: wall clock per decision ({DEFAULT_BUDGET_MS:g} ms)",
        )
        parser.add_argument(
            "--per-deal",
            metavar="FILE",
            help="write each deal's margin (each pair of games' result) to FILE, for a later --against",
        )
        parser.add_argument(
            "--against",
            metavar="FILE",
            help="pair every deal (pair of games) with an earlier --per-deal run's: what the change moved",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        variant, settings = variant_rules(options["variant"], options["house_rules"])
        games = options["games"]
        deals = options["deals"] if games is None else games
        noun = "deal" if games is None else "game"
        if deals < 1:
            raise CommandError(f"--{noun}s must be at least 1; got {deals}")
        if options["playouts"] < 1 or options["budget_ms"] <= 0:
            raise CommandError("--playouts and --budget-ms must be above 0")

        def factory(name: str, seat: int, rng: random.Random) -> Bot:
            if name == ORACLE_AUCTION:  # sees the deal: a yardstick for matches, never in make_bot
                return OracleAuctionBot(
                    seat, rng, playouts=options["playouts"], budget_ms=options["budget_ms"]
                )
            return make_bot(name, seat, rng, playouts=options["playouts"], budget_ms=options["budget_ms"])

        for option in ("a", "b"):
            try:
                factory(options[option], 0, random.Random(0)).close()
            except ValueError as error:
                raise CommandError(f"--{option}: {error}") from None
        a, b = options["a"], options["b"]
        kind = GAMES if games is not None else DEALS
        deals_played = {"variant": variant.id, "seed": options["seed"], "house_rules": settings.to_json()}
        before = read_per_deal(options["against"], deals_played, kind) if options["against"] else None
        result = MatchResult(variant.id, a, b, games=games is not None)

        def summary() -> str:
            found = result.to_json()
            if before is not None:
                found["paired"] = paired_difference(
                    before, result.paired_values(), unit=kind.unit, digits=kind.digits
                )
            return json.dumps(found)

        play = duplicate_match if games is None else duplicate_games
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            header = {**deals_played, "a": a, "b": b}
            with per_deal_writer(options["per_deal"], header, result, kind) as written:
                show = progress_bar(deals, noun)

                def on_deal(index: int) -> None:
                    written(index)
                    show(index)

                play(variant, settings, a, b, deals, options["seed"], factory, on_deal, result)
        except (GameStopped, ValueError) as error:  # bots.BotError is a ValueError
            raise CommandError(str(error)) from None
        except KeyboardInterrupt:
            # Stopped early (Ctrl-C, kill): what was played so far is still a result; say so.
            sys.stderr.write("\n")
            self.stdout.write(summary())
            played, total = (len(result.winners), 2 * deals) if games else (len(result.margins), deals)
            raise CommandError(f"stopped after {played} of {total} {noun}s", returncode=130) from None
        finally:
            signal.signal(signal.SIGTERM, previous)
        sys.stderr.write("\n")
        if options["habits"]:
            self.stdout.write(habit_table(result))
        self.stdout.write(summary())


@dataclass(frozen=True, slots=True)
class PerDealFile:
    """What a ``--per-deal`` file holds: its first line's name, and a row per deal (or pair of games)."""

    name: str
    key: str  # the row's index
    value: str  # the row's figure: ``MatchResult.paired_values``
    unit: str  # what ``paired`` counts
    digits: int  # the paired difference's rounding


DEALS = PerDealFile("botmatch per deal", "deal", "margin", "deals", 2)
GAMES = PerDealFile("botmatch per game", "pair", "a_share", "pairs", 4)


@contextmanager
def per_deal_writer(
    path: str | None, header: dict[str, Any], result: MatchResult, kind: PerDealFile
) -> Iterator[Callable[[int], None]]:
    """Write each deal's margin (pair of games' share) to ``path`` as it is played (JSON lines after
    ``header``), so that a match stopped early leaves what it played; with no ``path``, write nothing."""
    if path is None:
        yield lambda index: None
        return
    try:
        # Opened here so that a path it cannot write is refused in words; closed by the ``with`` below.
        file = open(path, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise CommandError(f"--per-deal: cannot write {path}: {error.strerror}") from None
    with file:
        file.write(json.dumps({"file": kind.name, **header}) + "\n")

        def write(index: int) -> None:
            file.write(json.dumps({kind.key: index, kind.value: result.paired_values()[index]}) + "\n")
            file.flush()

        yield write


def read_per_deal(path: str, deals_played: dict[str, Any], kind: PerDealFile) -> list[float]:
    """The margins (pairs' shares) of an earlier ``--per-deal`` file, in order, or one line saying why
    they cannot be paired with this match (its deals must be the same: variant, seed, house rules)."""
    try:
        with open(path, encoding="utf-8") as file:
            lines = [json.loads(line) for line in file if line.strip()]
    except OSError as error:
        raise CommandError(f"--against: cannot read {path}: {error.strerror}") from None
    except ValueError:  # not JSON, or not even text (json.JSONDecodeError, UnicodeDecodeError)
        lines = []
    header, rows = (lines[0], lines[1:]) if lines else ({}, [])
    other = GAMES if kind is DEALS else DEALS
    if isinstance(header, dict) and header.get("file") == other.name:
        raise CommandError(f"--against: {path} holds {other.unit} and this match plays {kind.unit}")
    shaped = (
        isinstance(header, dict)
        and header.get("file") == kind.name
        and all(
            isinstance(row, dict)
            and row.get(kind.key) == index
            and isinstance(row.get(kind.value), float | int)
            for index, row in enumerate(rows)
        )
    )
    if not shaped:
        raise CommandError(f"--against: {path} is not a file written by botmatch --per-deal")
    for key, value in deals_played.items():
        if header.get(key) != value:
            raise CommandError(
                f"--against: {path} was played with {key} {header.get(key)!r}, this match with "
                f"{value!r}: its deals are not these"
            )
    return [float(row[kind.value]) for row in rows]


def habit_table(result: MatchResult) -> str:
    """Per bot, each habit's rate with its sample and its 95% interval (Wilson):
    ``4.2% (3/71) 1.4-11.7%``; then each habit's definition, what it counts out of what."""
    names = {"a": result.a, "b": result.b}
    width = 32
    lines = [f"{'habit':<16}" + "".join(f"{names[label][: width - 2]:>{width}}" for label in names)]
    for habit in Habit:
        cells = []
        for label in names:
            tally = result.habits[label]
            shown, chances = tally.shown[habit], tally.chances[habit]
            if chances:
                low, high = wilson(shown, chances)
                cell = f"{shown / chances:.1%} ({shown}/{chances}) {low:.1%}-{high:.1%}"
            else:
                cell = "- (0/0)"
            cells.append(f"{cell:>{width}}")
        lines.append(f"{habit.value:<16}" + "".join(cells))
    lines.append("rate (shown/chances) and its 95% interval (Wilson); per habit, what it counts:")
    lines.extend(f"  {habit.value}: {DEFINITIONS[habit]}" for habit in Habit)
    return "\n".join(lines)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
