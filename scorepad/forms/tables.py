"""The form that opens a private table: the host's name, variant, house rules (the practice form's
own fields, RULES.md §4), the grace for a player who is away, and each seat."""

from __future__ import annotations

import copy
from typing import Any

from django import forms

from ..constants import PLAYER_NAME_MAX
from ..engine.bots import PRACTICE_STRENGTHS
from ..engine.variants import FOLLOW, HEAD, VARIANTS, Variant
from ..models import TableSeat
from ..services.tables import GRACE_CHOICES, SeatPlan
from .practice import PracticeForm

MAX_SEATS = max(variant.seats for variant in VARIANTS.values())
SEAT_CHOICES = [
    ("open", "Open: a friend takes it"),
    *((f"bot:{s}", f"Bot ({s})") for s in PRACTICE_STRENGTHS),
]


class TableForm(forms.Form):
    host_name = forms.CharField(max_length=PLAYER_NAME_MAX, label="Your name at the table")
    variant = forms.ChoiceField(choices=[(v.id, v.label) for v in VARIANTS.values()], label="Variant")
    grace = forms.TypedChoiceField(
        choices=[(g, f"{g} s") for g in GRACE_CHOICES],
        coerce=int,
        initial=60,
        label="Wait for a player who is away",
    )

    RULES = PracticeForm.RULES
    BOXES = PracticeForm.BOXES

    def __init__(self, variant: Variant, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {**PracticeForm.defaults_of(variant), "grace": 60})
        super().__init__(*args, **kwargs)
        self.chosen = variant
        for name in (*self.RULES, *self.BOXES):  # the same house rules, in the same words, as practice
            if name != "pass_cards" or variant.partnerships:
                self.fields[name] = copy.deepcopy(PracticeForm.base_fields[name])
        for seat in range(1, variant.seats):
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=SEAT_CHOICES, initial="open", label=f"Seat {seat + 1}"
            )
            self.fields[f"name_{seat}"] = forms.CharField(
                max_length=PLAYER_NAME_MAX, required=False, label=f"Saved for (a name, optional) {seat + 1}"
            )

    def seat_plans(self) -> list[SeatPlan]:
        plans = [SeatPlan(TableSeat.OPEN, self.cleaned_data["host_name"])]
        for seat in range(1, self.chosen.seats):
            choice = self.cleaned_data[f"seat_{seat}"]
            if choice.startswith("bot:"):
                plans.append(SeatPlan(TableSeat.BOT, strength=choice.removeprefix("bot:")))
            else:
                plans.append(SeatPlan(TableSeat.OPEN, self.cleaned_data.get(f"name_{seat}", "")))
        return plans

    def overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        values = {key: data[key] for key in (*self.RULES, *self.BOXES) if key in data}
        values["play_mode"] = HEAD if values.pop("head_the_trick") else FOLLOW
        return values
