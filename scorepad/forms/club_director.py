"""The director's forms: a correction's reason, the round clock, the bell rule, the prizes."""

from __future__ import annotations

from django import forms

from ..models import ClubEvent
from .clubs import VERSION_ERRORS
from .fields import hidden_number

PRIZE_CHOICES = [
    ("winners", "The winners (1st, 2nd, 3rd)"),
    ("high_round", "The high round"),
    ("high_average", "The high average"),
]


class ReasonForm(forms.Form):
    """Why the director changes a hand, with the version the page showed."""

    version = hidden_number(error_messages=VERSION_ERRORS)
    reason = forms.CharField(
        label="Why (kept in the trail)",
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class ClockForm(forms.Form):
    version = hidden_number(error_messages=VERSION_ERRORS)
    minutes = forms.IntegerField(
        label="Minutes left",
        min_value=1,
        max_value=240,
        error_messages={
            "required": "Give the minutes left, 1 to 240.",
            "invalid": "Give the minutes left as a number, 1 to 240.",
            "min_value": "Give the minutes left, 1 to 240.",
            "max_value": "Give the minutes left, 1 to 240.",
        },
    )


class BellForm(forms.Form):
    version = hidden_number(error_messages=VERSION_ERRORS)
    bell = forms.ChoiceField(
        label="A hand being played at the bell",
        choices=ClubEvent.Bell.choices,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose what happens to a hand being played at the bell."},
    )


class PrizesForm(forms.Form):
    version = hidden_number(error_messages=VERSION_ERRORS)
    prizes = forms.MultipleChoiceField(
        label="Prizes to award",
        choices=PRIZE_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
