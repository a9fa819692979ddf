"""A club's season forms: the season and its rule, a night put in a season or taken out.

They only parse; the services decide (best N of M is checked by the engine, refused in words)."""

from __future__ import annotations

from django import forms

from ..engine.seasons import MAX_NIGHTS
from ..models import ClubSeason
from ..models.clubs import EVENT_NAME_MAX
from .clubs import VERSION_ERRORS
from .fields import hidden_number

NUMBER_WORDS = {"invalid": "Give the nights as a whole number.", "min_value": "Give at least 1 night."}


class SeasonForm(forms.Form):
    """A season: its name, dates (which pick the season of a new night) and how it counts."""

    name = forms.CharField(
        label="Name", max_length=EVENT_NAME_MAX, error_messages={"required": "Name the season."}
    )
    starts_on = forms.DateField(
        label="Starts on",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Give the start as a date, like 2026-09-01."},
    )
    ends_on = forms.DateField(
        label="Ends on",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Give the end as a date, like 2027-05-31."},
    )
    counting = forms.ChoiceField(
        label="The standings count",
        choices=ClubSeason.Counting.choices,
        initial=ClubSeason.Counting.TOTAL,
        error_messages={
            "required": "Choose how the season counts.",
            "invalid_choice": "Choose how the season counts.",
        },
    )
    nights = forms.IntegerField(
        label="Nights in the season (M)",
        required=False,
        min_value=1,
        max_value=MAX_NIGHTS,
        error_messages={**NUMBER_WORDS, "max_value": f"A season has at most {MAX_NIGHTS} nights."},
    )
    best_of = forms.IntegerField(
        label="Count each member's best (N) nights (blank: every night)",
        required=False,
        min_value=1,
        max_value=MAX_NIGHTS,
        error_messages={**NUMBER_WORDS, "max_value": f"A season has at most {MAX_NIGHTS} nights."},
    )


class SeasonEditForm(SeasonForm):
    version = hidden_number(error_messages=VERSION_ERRORS)


class SeasonNightForm(forms.Form):
    """A night put in this season (``put``) or taken out: its id and version as the page showed it."""

    event = hidden_number(error_messages=VERSION_ERRORS)
    version = hidden_number(error_messages=VERSION_ERRORS)
    put = forms.BooleanField(required=False)
