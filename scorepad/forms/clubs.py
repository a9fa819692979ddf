"""Club night forms: the event, check-in at the door, a table's PIN, a dispute, a director's tap.

They only parse; the services decide (and refuse in words)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet

from ..constants import NUMBER_LIMIT, PLAYER_NAME_MAX
from ..engine.variants import VARIANTS
from ..models import ClubEvent, ClubSeason, Player
from ..models.clubs import EVENT_NAME_MAX, PIN_DIGITS
from .fields import RowsField, hidden_number
from .house_rules import setting_field

VERSION_ERRORS = {
    "required": "This page is out of date: reload it.",
    "invalid": "This page is out of date: reload it.",
    "min_value": "This page is out of date: reload it.",
    "max_value": "This page is out of date: reload it.",
}


class EventForm(forms.Form):
    name = forms.CharField(
        label="Name", max_length=EVENT_NAME_MAX, error_messages={"required": "Name the event."}
    )
    format = forms.ChoiceField(label="Format", choices=ClubEvent.Format.choices, widget=forms.RadioSelect)
    variant = forms.ChoiceField(label="Variant", choices=[(v.id, v.label) for v in VARIANTS.values()])
    target = forms.IntegerField(
        label="Target (blank: the variant's)", required=False, min_value=1, max_value=NUMBER_LIMIT
    )
    rounds = forms.IntegerField(label="Rounds", min_value=1, max_value=30, initial=4)
    round_end = forms.ChoiceField(
        label="A round ends", choices=ClubEvent.RoundEnd.choices, initial=ClubEvent.RoundEnd.TARGET
    )
    round_minutes = forms.IntegerField(label="Minutes a round", required=False, min_value=1, max_value=240)
    hands_per_round = forms.IntegerField(label="Hands a round", required=False, min_value=1, max_value=50)
    bye_score = forms.ChoiceField(
        label="A bye scores", choices=ClubEvent.ByeScore.choices, initial=ClubEvent.ByeScore.WINNERS_AVERAGE
    )
    bye_points = forms.IntegerField(
        label="Fixed bye score", required=False, min_value=0, max_value=NUMBER_LIMIT
    )
    ranking = forms.ChoiceField(
        label="The standings rank by",
        choices=ClubEvent.Ranking.choices,
        required=False,
        initial=ClubEvent.Ranking.USUAL,
        error_messages={"invalid_choice": "Choose how the standings rank."},
    )

    season = forms.ChoiceField(
        label="Counts in the season",
        required=False,
        error_messages={"invalid_choice": "Choose one of the club's seasons, or none."},
    )

    # House rules (RULES.md §4) the director may set for every table; blank: the variant's own.
    HOUSE_RULES = (
        ("bid_increment", "Bids go up by"),
        ("pass_cards", "Passing"),
        ("set_penalty", "Going set costs"),
        ("tie_break", "A tie at the target"),
        ("forfeit_opponents", "When the bidders forfeit before play, the opponents score"),
    )

    def __init__(self, *args: Any, seasons: QuerySet[ClubSeason] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(str(season.pk), season.name) for season in (seasons if seasons is not None else [])]
        self.fields["season"].choices = [("", "No season"), *choices]  # type: ignore[attr-defined]
        for key, label in self.HOUSE_RULES:
            field = setting_field(key, label)
            field.required = False
            field.choices = [("", "the variant's own"), *list(field.choices)]  # type: ignore[arg-type]
            self.fields[key] = field

    def overrides(self) -> dict[str, Any]:
        """The §4 keys the director set: the target and the house rules not left to the variant."""
        data = self.cleaned_data
        chosen = {key: data[key] for key, _ in self.HOUSE_RULES if data.get(key) not in (None, "")}
        if data.get("target") is not None:
            chosen["target"] = data["target"]
        return chosen


class CheckInForm(forms.Form):
    """One entrant: roster members ticked, and/or newcomers typed in one line ("Ann & Bob")."""

    version = hidden_number(error_messages=VERSION_ERRORS)
    players = RowsField(
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="From the roster",
    )
    newcomers = forms.CharField(
        label="Newcomers (one line)", required=False, max_length=2 * PLAYER_NAME_MAX + 8
    )

    def __init__(self, *args: Any, roster: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = roster  # type: ignore[attr-defined]


class VersionForm(forms.Form):
    """A director's tap (start, close): the event's version as the page showed it."""

    version = hidden_number(error_messages=VERSION_ERRORS)
    accept = forms.BooleanField(required=False)


class CardsForm(forms.Form):
    """The table cards to make before the first round: how many tables."""

    version = forms.IntegerField(widget=forms.HiddenInput, error_messages=VERSION_ERRORS)
    count = forms.IntegerField(
        label="Tables",
        error_messages={"required": "Say how many tables.", "invalid": "Say how many tables, as a number."},
    )


class LeaveForm(forms.Form):
    """An entrant leaves: which one, with the event's version as the page showed it."""

    version = hidden_number(error_messages=VERSION_ERRORS)
    entrant = hidden_number(error_messages=VERSION_ERRORS)


class PinForm(forms.Form):
    pin = forms.CharField(
        label="Table PIN",
        max_length=PIN_DIGITS,
        min_length=PIN_DIGITS,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={
            "required": f"Type the table's {PIN_DIGITS}-digit PIN.",
            "min_length": f"The PIN has {PIN_DIGITS} digits.",
            "max_length": f"The PIN has {PIN_DIGITS} digits.",
        },
    )
    side = forms.TypedChoiceField(coerce=int, label="This phone enters for", widget=forms.RadioSelect)

    def __init__(self, *args: Any, side_names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = list(enumerate(side_names))  # type: ignore[attr-defined]
        self.fields["side"].initial = 0


class AnswerForm(forms.Form):
    """Confirm or dispute one hand: its id and version as the phone saw it."""

    table_hand = hidden_number(error_messages=VERSION_ERRORS)
    version = hidden_number(error_messages=VERSION_ERRORS)
    countersign = forms.BooleanField(required=False)
    reason = forms.CharField(required=False, max_length=200, label="What is wrong?")
