"""The house rules in a player's words, shared by both game forms (the scorepad's new game and
practice) and the meld calculator's; ``pages/house_rules.py`` words the game page's "House
rules:" line from the same words."""

from __future__ import annotations

from typing import Any

from django import forms

from ..engine.variants import BID_STEPS_1_THEN_5, setting_choices

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
