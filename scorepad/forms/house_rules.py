"""The house rules in a player's words, shared by both game forms (the scorepad's new game and
practice), the game page's "House rules:" line, the meld calculator and the rules pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms

from ..engine.variants import BID_STEPS_1_THEN_5, Settings, Variant, setting_choices

# Each §4 value in a player's words; the values themselves come from the engine (`setting_choices`).
SETTING_WORDS: dict[str, dict[Any, str]] = {
    "bid_increment": {1: "1", 5: "5", 10: "10", BID_STEPS_1_THEN_5: "1 below 60, then 5"},
    "pass_cards": {0: "No passing", 3: "3 cards", 4: "4 cards"},
    "run_extra_kq": {
        "half": "2 points each",
        "strict": "only with an extra king and queen",
        "marry": "may marry an extra card",
    },
    "double_around_scale": {
        "×10": "×10 of one",
        "two_singles": "two singles",
        "table": "the variant's table",
    },
    "tie_break": {"co-winners": "co-winners", "bidder": "the bidder wins", "play_on": "play another hand"},
    "forfeit_opponents": {
        "nothing": "nothing",
        "meld20": "their meld, if it is 20 or more",
        "meld20+25": "their meld if 20 or more, plus 25",
        "meld20+50": "their meld if 20 or more, plus 50",
    },
    "set_penalty": {"bid": "the bid", "double_bid": "double the bid"},
    "count_system": {
        "AKT=1": "A, T, K 1 each",
        "A,T=10;K,Q=5": "A, T 10; K, Q 5",
        "A=11,T=10,K=4,Q=3,J=2": "A 11, T 10, K 4, Q 3, J 2",
        "A,T,K=10": "A, T, K 10 each",
    },
}
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


def setting_field(key: str, label: str) -> forms.TypedChoiceField:
    """A choice of the values §4 allows for ``key`` (the engine's list), handed back as engine values."""
    values = {str(value): value for value in setting_choices(key)}
    words = SETTING_WORDS[key]
    return forms.TypedChoiceField(
        choices=[(text, words[value]) for text, value in values.items()],
        coerce=values.__getitem__,
        label=label,
        error_messages={"invalid_choice": "“%(value)s” is not one of the choices: pick one from the list."},
    )


def choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    """A form's choice field by name, typed as one, so its choices can be set per game."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField), name
    return field
