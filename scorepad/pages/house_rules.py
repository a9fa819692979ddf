"""A table's house rules in a few words each: the game page's "House rules:" line, the meld
calculator's and the rules pages' "as the table plays it" notes. The words for each §4 value are
the game forms' (``forms/house_rules.py``), so a form and a page never word a rule differently."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.variants import Settings, Variant
from ..forms.house_rules import SETTING_WORDS

# The same rules in a few words each, for the game page's "House rules:" line.
_BRIEF: dict[str, Callable[[Any], str]] = {
    "min_bid": lambda v: f"minimum bid {v}",
    "bid_increment": lambda v: f"bids go up by {SETTING_WORDS['bid_increment'][v]}",
    "pass_cards": lambda v: f"pass {v} cards" if v else "no passing",
    "run_extra_kq": lambda v: f"extra trump K or Q beside a run: {SETTING_WORDS['run_extra_kq'][v]}",
    "double_around_scale": lambda v: f"double arounds: {SETTING_WORDS['double_around_scale'][v]}",
    "last_trick": lambda v: f"last trick {v}",
    "bidder_out": lambda v: "bidder out" if v else "no bidder out",
    "tie_break": lambda v: f"a tie at the target: {SETTING_WORDS['tie_break'][v]}",
    "trump_requires_marriage": lambda v: "trump needs a marriage" if v else "trump needs no marriage",
    "forfeit_opponents": lambda v: (
        f"on a forfeit the opponents score {SETTING_WORDS['forfeit_opponents'][v]}"
    ),
    "bidder_may_concede": lambda v: "bidders may throw in" if v else "no throwing in",
    "meld_requires_trick": lambda v: "no trick, no meld" if v else "meld counts without a trick",
    "rule_of_20": lambda v: f"rule of 20: meld {v[0]}, trick points {v[1]}" if v else "no rule of 20",
    "bidders_short_meld_play_out": lambda v: "short meld plays out" if v else "short meld forfeits",
    "count_system": lambda v: f"counters {SETTING_WORDS['count_system'][v]}",
    "set_penalty": lambda v: f"set costs {SETTING_WORDS['set_penalty'][v]}",
}


def house_rules_brief(variant: Variant, settings: Settings) -> list[str]:
    """The game's rules that differ from its variant's, a few words each (the target is in the title)."""
    changed = [key for key in settings.changes(variant.defaults) if key != "target"]
    return [_brief(key, getattr(settings, key)) for key in changed]


def _brief(key: str, value: Any) -> str:
    """One rule in a few words; a key the form does not offer (an imported game's) by its §4 name."""
    return _BRIEF[key](value) if key in _BRIEF else f"{key.replace('_', ' ')}: {value}"
