"""``manage.py meld_benchmark``: meld hands per second, per variant, start-up excluded.

Deals random legal hands (a seeded ``random.Random``: a full hand of a shuffled deck, a random
trump), writes them as ``meld --jsonl`` requests in memory, then times the very function
``meld --jsonl`` runs on them. It also times ``meld_points`` alone, the path bots use.
"""

from __future__ import annotations

import io
import json
import random
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from scorepad.engine.cards import CODES, SUITS, Card, counts_of
from scorepad.engine.meld import meld_points
from scorepad.engine.variants import VARIANTS, Variant
from scorepad.management.base import EngineCommand

from .meld import process_jsonl


class Command(EngineCommand):
    help = "Time `meld --jsonl` (and meld_points) on random legal hands of every variant."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=50_000, help="hands per variant (default 50000)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the dealing (default 1)")
        parser.add_argument("--variant", choices=list(VARIANTS), help="only this variant")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["hands"] < 1:
            raise CommandError(f"--hands must be at least 1; got {options['hands']}")
        rng = random.Random(options["seed"])
        variants = [VARIANTS[options["variant"]]] if options["variant"] else list(VARIANTS.values())
        for variant in variants:
            deals = deal_hands(variant, options["hands"], rng)
            batch = _time_jsonl(variant, deals)
            fast = _time_meld_points(variant, deals)
            self.stdout.write(
                f"{variant.id:<12} {len(deals):>8} hands   meld --jsonl {batch:>9,.0f} hands/s"
                f"   meld_points {fast:>10,.0f} hands/s"
            )


def deal_hands(variant: Variant, hands: int, rng: random.Random) -> list[tuple[list[Card], int]]:
    """``hands`` full hands, each the first hand of a fresh shuffle, with a random trump suit."""
    deck = variant.deck()
    deals = []
    for _ in range(hands):
        rng.shuffle(deck)
        deals.append((deck[: variant.hand_size], rng.randrange(4)))
    return deals


def _time_jsonl(variant: Variant, deals: list[tuple[list[Card], int]]) -> float:
    requests = "".join(
        json.dumps({"variant": variant.id, "trump": SUITS[trump], "cards": " ".join(CODES[c] for c in hand)})
        + "\n"
        for hand, trump in deals
    )
    sink = io.StringIO()
    start = time.perf_counter()
    _, failures = process_jsonl(io.StringIO(requests), sink.write)
    elapsed = time.perf_counter() - start
    if failures:
        raise CommandError(f"{failures} benchmark hands were refused: the dealing is wrong")
    return len(deals) / elapsed


def _time_meld_points(variant: Variant, deals: list[tuple[list[Card], int]]) -> float:
    settings = variant.defaults
    counted = [(counts_of(hand), trump) for hand, trump in deals]
    start = time.perf_counter()
    for counts, trump in counted:
        meld_points(counts, trump, variant, settings)
    return len(counted) / (time.perf_counter() - start)
