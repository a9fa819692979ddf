"""The form that opens a private table: the host's name, variant, house rules (the practice form's
own fields, RULES.md §4), the grace for a player who is away, and each seat.

For one of the signed-in user's households the seats offer its roster: the host says which player
they are, and each other seat is held for a roster player, open for a guest, or a bot's."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.contrib.auth.models import AnonymousUser, User

from ..constants import PLAYER_NAME_MAX, STRENGTH_WORDS
from ..engine.bots import PRACTICE_STRENGTHS
from ..engine.variants import FOLLOW, HEAD, VARIANTS, Variant
from ..models import Household, TableSeat
from ..selectors.access import households_for_user
from ..selectors.households import active_roster
from ..services.tables import GRACE_CHOICES, SeatPlan
from .practice import PracticeForm

MAX_SEATS = max(variant.seats for variant in VARIANTS.values())
SEAT_CHOICES = [
    ("open", "Open: a friend takes it"),
    *((f"bot:{s}", f"Bot ({STRENGTH_WORDS[s].split(':')[0]})") for s in PRACTICE_STRENGTHS),
]


def seat_position(variant: Variant, seat: int) -> str:
    """A seat as the host (seat 1) sees it round the table (RULES §8: the next seat clockwise is on
    their left): "Seat 3, your partner" where partners sit opposite."""
    seats = variant.seats
    if seat == 1:
        where = "on your left"
    elif seat == seats - 1:
        where = "on your right"
    elif variant.partnerships and seat == seats // 2:
        where = "your partner"
    elif seat == seats // 2:
        where = "across from you"
    else:
        where = "second on your left" if seat < seats // 2 else "second on your right"
    return f"Seat {seat + 1}, {where}"


NOT_YOUR_HOUSEHOLD = "You can open a table only for a household you belong to: choose one of yours."


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

    def __init__(
        self,
        variant: Variant,
        *args: Any,
        user: User | AnonymousUser | None = None,
        household_id: str | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("initial", {**PracticeForm.defaults_of(variant), "grace": 60})
        super().__init__(*args, **kwargs)
        self.chosen = variant
        # The households the user may open a table for, and the one chosen (by a link or the form).
        self.households: list[Household] = list(households_for_user(user)) if user is not None else []
        self.household = next((h for h in self.households if str(h.pk) == str(household_id)), None)
        self.household_refused = bool(household_id) and self.household is None
        self.roster: list[tuple[str, str]] = []  # the household's players as seat choices
        for name in (*self.RULES, *self.BOXES):  # the same house rules, in the same words, as practice
            if name != "pass_cards" or variant.partnerships:
                self.fields[name] = copy.deepcopy(PracticeForm.base_fields[name])
        if self.household is not None:
            self._roster_seats(self.household)
            return
        for seat in range(1, variant.seats):
            where = seat_position(variant, seat)
            self.fields[f"seat_{seat}"] = forms.ChoiceField(choices=SEAT_CHOICES, initial="open", label=where)
            self.fields[f"name_{seat}"] = forms.CharField(
                max_length=PLAYER_NAME_MAX, required=False, label=f"{where}: saved for (a name, optional)"
            )

    def _roster_seats(self, household: Household) -> None:
        """The host is one of the roster; each other seat a roster player's, open, or a bot's."""
        roster = self.roster = [(f"player:{p.pk}", p.name) for p in active_roster(household)]
        del self.fields["host_name"]
        self.fields["seat_0"] = forms.ChoiceField(
            choices=roster, initial=roster[0][0] if roster else None, label="You are"
        )
        for seat in range(1, self.chosen.seats):
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=[*roster, ("open", "Open: a guest takes it"), *SEAT_CHOICES[1:]],
                initial=roster[seat][0] if seat < len(roster) else "open",
                label=seat_position(self.chosen, seat),
            )
        self.order_fields(["seat_0"])  # who the host is comes first, where their name was

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.household_refused:
            raise forms.ValidationError(NOT_YOUR_HOUSEHOLD)
        if self.household is not None and not self.roster:
            raise forms.ValidationError(f"Add yourself to {self.household.name}'s players first.")
        return data

    def host_at_table(self) -> str:
        return str(self.cleaned_data.get("host_name", ""))

    def seat_plans(self) -> list[SeatPlan]:
        if self.household is not None:
            return [self._roster_plan(self.cleaned_data[f"seat_{s}"]) for s in range(self.chosen.seats)]
        plans = [SeatPlan(TableSeat.OPEN, self.cleaned_data["host_name"])]
        for seat in range(1, self.chosen.seats):
            choice = self.cleaned_data[f"seat_{seat}"]
            if choice.startswith("bot:"):
                plans.append(SeatPlan(TableSeat.BOT, strength=choice.removeprefix("bot:")))
            else:
                plans.append(SeatPlan(TableSeat.OPEN, self.cleaned_data.get(f"name_{seat}", "")))
        return plans

    @staticmethod
    def _roster_plan(choice: str) -> SeatPlan:
        if choice.startswith("player:"):
            return SeatPlan(player_id=int(choice.removeprefix("player:")))
        if choice.startswith("bot:"):
            return SeatPlan(TableSeat.BOT, strength=choice.removeprefix("bot:"))
        return SeatPlan(TableSeat.OPEN)

    def overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        values = {key: data[key] for key in (*self.RULES, *self.BOXES) if key in data}
        values["play_mode"] = HEAD if values.pop("head_the_trick") else FOLLOW
        return values
