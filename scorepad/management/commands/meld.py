"""``manage.py meld``: count a hand's meld (RULES.md §0.6) and print it as text or as §9.2 JSON.

manage.py meld --variant classic --trump H AH TH KH QH JH 9H   # one trump: its breakdown
manage.py meld --variant classic AH TH KH QH JH 9H             # every suit, best first
manage.py meld --json ...                                      # the §9.2 object(s)
manage.py meld --jsonl < hands.jsonl                           # one §9.2 object per line in
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from django.core.management.base import CommandError, CommandParser

from scorepad.engine.cards import SUIT_NAMES, SUITS, Card, CardError, Suit, counts_of, parse_suit
from scorepad.engine.meld import MeldResult, best_trumps, count_meld, meld_json, parse_hand
from scorepad.engine.variants import Settings, SettingsError, Variant, get_variant
from scorepad.management.base import EngineCommand, house_rules

NO_TRUMP = "none"  # --trump none: count with no trump suit (§2.3)
CHUNK_LINES = 4096  # --jsonl writes its answers this many lines at a time


class LineError(ValueError):
    """A --jsonl line that is not a meld request; the message names the key or value."""


class Command(EngineCommand):
    help = "Count the meld of a hand (RULES.md §0.6); without --trump, every suit best first."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("cards", nargs="*", help="card codes (§9.1): AS 10H qs T♥, spaces or commas")
        parser.add_argument("--variant", default="classic", help="classic, double-deck or six-handed")
        parser.add_argument("--trump", help="S, H, D, C (or ♠ ♥ ♦ ♣), or 'none' for no trump suit")
        parser.add_argument("--house-rules", help='§4 settings as JSON, e.g. \'{"run_extra_kq": "marry"}\'')
        parser.add_argument("--json", action="store_true", help="the §9.2 object (a list without --trump)")
        parser.add_argument(
            "--jsonl",
            action="store_true",
            help='read {"variant", "trump", "cards"[, "settings"]} lines on stdin, write one §9.2 line each',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["jsonl"]:
            self._handle_jsonl(options)
            return
        try:
            variant = get_variant(options["variant"])
            settings = variant.settings(house_rules(options["house_rules"]))
            cards = parse_hand(" ".join(options["cards"]), variant)
            trump_given = options["trump"] is not None
            trump = _parse_trump(options["trump"]) if trump_given else None
        except (CardError, SettingsError) as error:
            raise CommandError(str(error)) from None
        counts = counts_of(cards)
        if trump_given:
            results = [(trump, count_meld(counts, trump, variant, settings))]
        else:
            results = list(best_trumps(counts, variant, settings))
        if options["json"]:
            objects = [meld_json(variant, suit, cards, result) for suit, result in results]
            self.stdout.write(json.dumps(objects[0] if trump_given else objects))
        else:
            blocks = [meld_text(variant, suit, cards, result) for suit, result in results]
            self.stdout.write("\n\n".join(blocks))

    def _handle_jsonl(self, options: dict[str, Any]) -> None:
        if options["cards"] or options["trump"] is not None:
            raise CommandError("--jsonl reads its hands from standard input: give no cards and no --trump")
        source = options.get("stdin") or sys.stdin
        lines, failures = process_jsonl(source, self.stdout.write)
        if failures:
            raise CommandError(f"{failures} of {lines} lines failed", returncode=1)


def meld_text(variant: Variant, trump: Suit | None, cards: Sequence[Card], result: MeldResult) -> str:
    """A breakdown for people: one line per meld with its count and points, then the total."""
    data = meld_json(variant, trump, cards, result)
    heading = "no trump" if trump is None else f"trump {SUITS[trump]} ({SUIT_NAMES[SUITS[trump]]})"
    lines = [f"{variant.id}, {heading}: {' '.join(data['cards']) or '(no cards)'}"]
    lines += [f"  {line.name:<28}×{line.count:<3}{line.points:>6}" for line in result.melds]
    if not result.melds:
        lines.append("  no meld")
    lines.append(f"  {'total':<32}{result.total:>6}")
    if result.labels:
        lines.append("  roundhouse: a label, its value is already in the melds above")
    return "\n".join(lines)


def _parse_trump(value: Any) -> Suit | None:
    if value is None or value == NO_TRUMP:
        return None
    if not isinstance(value, str):
        raise LineError(f"trump must be S, H, D, C or null; got {value!r}")
    return parse_suit(value)


# ---------------------------------------------------------------- --jsonl, also run by meld_benchmark

GameLookup = Callable[[Any, Any], tuple[Variant, Settings]]


def game_lookup() -> GameLookup:
    """(variant, settings) from a line's ``variant`` and ``settings``, each pair built once."""
    cache: dict[tuple[str, str | None], tuple[Variant, Settings]] = {}

    def lookup(variant_id: Any, overrides: Any) -> tuple[Variant, Settings]:
        key: tuple[str, str | None] = (variant_id if isinstance(variant_id, str) else repr(variant_id), None)
        if overrides is not None:
            key = (key[0], json.dumps(overrides, sort_keys=True))
        found = cache.get(key)
        if found is None:
            variant = get_variant(variant_id)
            if overrides is not None and not isinstance(overrides, dict):
                raise LineError("settings must be an object of §4 keys")
            found = cache[key] = (variant, variant.settings(overrides))
        return found

    return lookup


def meld_line(line: str, lookup: GameLookup) -> str:
    """One --jsonl request (a JSON object) -> its §9.2 object as one line of JSON."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        raise LineError(f"not JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(request, dict):
        raise LineError("a line must be a JSON object with variant, trump and cards")
    for key in ("variant", "trump", "cards"):
        if key not in request:
            raise LineError(f"missing key {key!r}")
    variant, settings = lookup(request["variant"], request.get("settings"))
    trump = _parse_trump(request["trump"])
    cards = request["cards"]
    if not isinstance(cards, (str, list)):
        raise LineError(f"cards must be a string or a list of card codes; got {cards!r}")
    hand = parse_hand(cards, variant)
    result = count_meld(counts_of(hand), trump, variant, settings)
    return json.dumps(meld_json(variant, trump, hand, result))


def process_jsonl(source: TextIO, write: Callable[[str], Any]) -> tuple[int, int]:
    """Answer every request line of ``source`` in order: (requests read, requests refused).

    A refused line is answered ``{"error": "line N: ..."}`` in its place (N counts every line
    from 1); blank lines are skipped. Reads the whole input at once and writes in chunks.
    """
    lookup = game_lookup()
    requests = failures = 0
    out: list[str] = []
    for number, line in enumerate(source.read().splitlines(), start=1):
        if not line.strip():
            continue
        requests += 1
        try:
            out.append(meld_line(line, lookup))
        except (ValueError, CardError, SettingsError) as error:  # JSONDecodeError is a ValueError
            failures += 1
            out.append(json.dumps({"error": f"line {number}: {error}"}))
        if len(out) >= CHUNK_LINES:
            write("\n".join(out) + "\n")
            out.clear()
    if out:
        write("\n".join(out) + "\n")
    return requests, failures
