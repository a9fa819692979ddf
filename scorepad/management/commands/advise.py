"""``manage.py advise``: the bid advisor for a full hand (scorepad/engine/advisor.py).

    python manage.py advise --variant classic AH TH KH QH JH 9H AS KS QD JD AC 9C
    python manage.py advise --variant double-deck --json --samples 400 ...

For each trump the hand may name: its meld, the spread of what the bidders counted (meld + trick
points) in simulated hands, and the safe / standard / bold bids (made in 90 / 75 / 60% of them).
Bad input (not a full hand, an unknown card or variant) exits non-zero with one line.
"""

from __future__ import annotations

import json
import random
from typing import Any

from django.core.management.base import CommandError, CommandParser

from scorepad.engine.advisor import BID_LEVELS, DEFAULT_SAMPLES, PERCENTILES, Advice, advise
from scorepad.engine.cards import SUIT_NAMES, SUITS, CardError
from scorepad.engine.meld import parse_hand
from scorepad.engine.variants import SettingsError, get_variant
from scorepad.management.base import EngineCommand, house_rules

MAX_SAMPLES = 5000


class Command(EngineCommand):
    help = "Advise a bid for a full hand: meld and simulated results per trump, safe/standard/bold bids."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("cards", nargs="*", help="a full hand of card codes (§9.1)")
        parser.add_argument("--variant", default="classic", help="classic, double-deck or six-handed")
        parser.add_argument("--house-rules", help="§4 settings as JSON")
        parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="simulated hands per trump")
        parser.add_argument("--seed", type=int, default=0, help="the same seed gives the same advice")
        parser.add_argument("--json", action="store_true", help="one JSON object instead of text")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 1 <= options["samples"] <= MAX_SAMPLES:
            raise CommandError(f"--samples must be 1 to {MAX_SAMPLES}; got {options['samples']}")
        try:
            variant = get_variant(options["variant"])
            settings = variant.settings(house_rules(options["house_rules"]))
            cards = parse_hand(" ".join(options["cards"]), variant)
            advice = advise(variant, settings, cards, random.Random(options["seed"]), options["samples"])
        except (CardError, SettingsError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(advice.to_json()) if options["json"] else advice_text(advice))


def advice_text(advice: Advice) -> str:
    best = advice.best
    if best is None:
        return "No trump can be named (no marriage): pass."
    lines = []
    for name, _share in BID_LEVELS:
        bid = best.bids[name]
        lines.append(f"{name:<9} {'pass' if bid is None else bid}")
    lines[0] += f"   (trump {SUIT_NAMES[SUITS[best.trump]]}, {advice.samples} simulated hands a suit)"
    lines.append("")
    header = "trump     meld  mean  " + "  ".join(f"p{p:<3}" for p in PERCENTILES) + "  safe/standard/bold"
    lines.append(header)
    for t in advice.trumps:
        spread = "  ".join(f"{v:<4}" for v in t.percentiles)
        bids = "/".join("-" if t.bids[name] is None else str(t.bids[name]) for name, _ in BID_LEVELS)
        lines.append(f"{SUIT_NAMES[SUITS[t.trump]]:<9} {t.meld:>4}  {t.mean:>4.0f}  {spread}  {bids}")
    return "\n".join(lines)
