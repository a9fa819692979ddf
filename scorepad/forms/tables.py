"""The form that opens a private table: the host's name, variant, target, grace and each seat."""

from __future__ import annotations

from typing import Any

from django import forms

from ..constants import PLAYER_NAME_MAX
from ..engine.bots import PRACTICE_STRENGTHS
from ..engine.variants import VARIANTS, Variant
from ..models import TableSeat
from ..services.tables import GRACE_CHOICES, SeatPlan

MAX_SEATS = max(variant.seats for variant in VARIANTS.values())
SEAT_CHOICES = [
    ("open", "Open: a friend takes it"),
    *((f"bot:{s}", f"Bot ({s})") for s in PRACTICE_STRENGTHS),
]


class TableForm(forms.Form):
    host_name = forms.CharField(max_length=PLAYER_NAME_MAX, label="Your name at the table")
    variant = forms.ChoiceField(choices=[(v.id, v.label) for v in VARIANTS.values()], label="Variant")
    target = forms.IntegerField(min_value=10, max_value=9_999, label="Play to")
    grace = forms.TypedChoiceField(
        choices=[(g, f"{g} s") for g in GRACE_CHOICES],
        coerce=int,
        initial=60,
        label="Wait for a player who is away",
    )

    def __init__(self, variant: Variant, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"variant": variant.id, "target": variant.defaults.target, "grace": 60})
        super().__init__(*args, **kwargs)
        self.variant = variant
        for seat in range(1, variant.seats):
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=SEAT_CHOICES, initial="open", label=f"Seat {seat + 1}"
            )
            self.fields[f"name_{seat}"] = forms.CharField(
                max_length=PLAYER_NAME_MAX, required=False, label=f"Saved for (a name, optional) {seat + 1}"
            )

    def seat_plans(self) -> list[SeatPlan]:
        plans = [SeatPlan(TableSeat.OPEN, self.cleaned_data["host_name"])]
        for seat in range(1, self.variant.seats):
            choice = self.cleaned_data[f"seat_{seat}"]
            if choice.startswith("bot:"):
                plans.append(SeatPlan(TableSeat.BOT, strength=choice.removeprefix("bot:")))
            else:
                plans.append(SeatPlan(TableSeat.OPEN, self.cleaned_data.get(f"name_{seat}", "")))
        return plans

    def overrides(self) -> dict[str, Any]:
        return {"target": self.cleaned_data["target"]}
