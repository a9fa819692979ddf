"""Forms: they read what was typed or tapped into plain values; the services judge it.

``HandForm`` turns a tap-by-tap hand into the §9.3 hand object (RULES.md §9.3) and shows,
next to each field, every refusal the rules give for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django import forms
from django.db.models import QuerySet

from .engine.cards import SUIT_NAMES, SUITS
from .engine.variants import BID_STEPS_1_THEN_5, Settings, Variant
from .models import Game, Player
from .services.games import NUMBER_LIMIT

_SIDE_NUMBER = re.compile(r"\bside (\d+)\b")
NO_MARRIAGE = "none"  # the form's word for §9.3's null trump
# The scorer words a refusal as if after its field's name ("tricks add up to 51; …"). Under the
# form's "Trick points" heading that reads as a headless phrase, so the form names the field again.
_GROUP_WORDS = {"meld": "Meld", "tricks": "Trick points", "took_trick": "Took a trick:"}
_NOT_PLAYED = "must be null: "
SCORE_LIMIT = NUMBER_LIMIT  # a typed number above it is a slip of the thumb, refused in words


class HouseholdForm(forms.Form):
    name = forms.CharField(max_length=80, label="Household name")


class PlayerForm(forms.Form):
    name = forms.CharField(
        max_length=40, label="Player's name", widget=forms.TextInput(attrs={"placeholder": "Name"})
    )


# ---- new game ---------------------------------------------------------------------------------

BID_INCREMENTS = [("1", "1"), ("5", "5"), ("10", "10"), (BID_STEPS_1_THEN_5, "1 below 60, then 5")]
PASS_CARDS = [("0", "No passing"), ("3", "3 cards"), ("4", "4 cards")]
RUN_EXTRA_KQ = [
    ("half", "2 points each"),
    ("strict", "only with an extra king and queen"),
    ("marry", "may marry an extra card"),
]
DOUBLE_AROUND_SCALES = [
    ("×10", "×10 of one"),
    ("two_singles", "two singles"),
    ("table", "the variant's table"),
]
TIE_BREAKS = [
    ("co-winners", "co-winners"),
    ("bidder", "the bidder wins"),
    ("play_on", "play another hand"),
]
OTHER = "other"


def _seat_label(variant: Variant, seat: int) -> str:
    if variant.partnerships:
        return f"Seat {seat + 1} (team {variant.side_of(seat) + 1})"
    return f"Seat {seat + 1}"


class NewGameForm(forms.Form):
    """Who sits where, who deals first and the house rules, for one variant."""

    new_player = forms.CharField(max_length=40, required=False, label="Add a player to the roster")
    first_dealer = forms.ChoiceField(label="First dealer")
    target = forms.ChoiceField(widget=forms.RadioSelect, label="Play to")
    target_other = forms.IntegerField(
        min_value=1, max_value=SCORE_LIMIT, required=False, label="Other target"
    )
    min_bid = forms.IntegerField(min_value=1, max_value=SCORE_LIMIT, label="Minimum bid")
    bid_increment = forms.ChoiceField(choices=BID_INCREMENTS, label="Bids go up by")
    pass_cards = forms.TypedChoiceField(choices=PASS_CARDS, coerce=int, label="Passing")
    run_extra_kq = forms.ChoiceField(choices=RUN_EXTRA_KQ, label="An extra trump K or Q beside a run scores")
    double_around_scale = forms.ChoiceField(choices=DOUBLE_AROUND_SCALES, label="Double arounds score")
    last_trick = forms.IntegerField(min_value=0, max_value=SCORE_LIMIT, label="Last trick bonus")
    bidder_out = forms.BooleanField(required=False, label="Bidder out: bidders win when both sides reach")
    tie_break = forms.ChoiceField(choices=TIE_BREAKS, label="A tie at the target")

    def __init__(self, variant: Variant, players: QuerySet[Player], *args: Any, **kwargs: Any) -> None:
        self.variant = variant
        defaults = variant.defaults
        kwargs.setdefault("initial", self.defaults_of(variant))
        super().__init__(*args, **kwargs)
        targets = sorted({*variant.quick_targets, defaults.target})
        self.fields["target"].choices = [(str(t), str(t)) for t in targets] + [(OTHER, "other")]
        dealers = [("random", "Random")] + [(str(s), _seat_label(variant, s)) for s in range(variant.seats)]
        self.fields["first_dealer"].choices = dealers
        for seat in range(variant.seats):
            self.fields[f"seat_{seat}"] = forms.ModelChoiceField(
                queryset=players,
                required=False,
                label=_seat_label(variant, seat),
                empty_label="— choose —",
            )

    @staticmethod
    def defaults_of(variant: Variant) -> dict[str, Any]:
        return NewGameForm.initial_for(variant, variant.defaults)

    @staticmethod
    def like(variant: Variant, game: Game | None) -> dict[str, Any]:
        """A new game at the same table as ``game``: its seats and house rules (defaults without it)."""
        if game is None:
            return NewGameForm.defaults_of(variant)
        seats = {f"seat_{seat.position}": seat.player_id for seat in game.seats.all()}
        return {**NewGameForm.initial_for(variant, variant.settings(game.settings)), **seats}

    @staticmethod
    def initial_for(variant: Variant, rules: Settings) -> dict[str, Any]:
        """The form's fields set to ``rules``; a target off the quick choices goes in "other"."""
        quick = {*variant.quick_targets, variant.defaults.target}
        if rules.target in quick:
            target: dict[str, Any] = {"target": str(rules.target)}
        else:
            target = {"target": OTHER, "target_other": rules.target}
        return {
            "first_dealer": "random",
            **target,
            "min_bid": rules.min_bid,
            "bid_increment": str(rules.bid_increment),
            "pass_cards": str(rules.pass_cards),
            "run_extra_kq": rules.run_extra_kq,
            "double_around_scale": rules.double_around_scale,
            "last_trick": rules.last_trick,
            "bidder_out": rules.bidder_out,
            "tie_break": rules.tie_break,
        }

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(self.variant.seats)]

    @property
    def rule_fields(self) -> list[forms.BoundField]:
        names = ["min_bid", "bid_increment", "pass_cards", "run_extra_kq", "double_around_scale"]
        return [self[name] for name in [*names, "last_trick", "tie_break", "bidder_out"]]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seen: dict[int, int] = {}
        for seat in range(self.variant.seats):
            player = data.get(f"seat_{seat}")
            if player is None:
                self.add_error(f"seat_{seat}", f"Choose who sits in seat {seat + 1}.")
            elif player.pk in seen:
                first = seen[player.pk]
                self.add_error(f"seat_{seat}", f"{player.name} already sits in seat {first + 1}.")
            else:
                seen[player.pk] = seat
        if data.get("target") == OTHER and not data.get("target_other") and "target_other" not in self.errors:
            self.add_error("target_other", "Enter the target score.")
        return data

    def players(self) -> list[Player]:
        return [self.cleaned_data[f"seat_{seat}"] for seat in range(self.variant.seats)]

    def overrides(self) -> dict[str, Any]:
        """The house rules as §4 keys and values (the service stores only the changes)."""
        data = self.cleaned_data
        target = data["target_other"] if data["target"] == OTHER else int(data["target"])
        increment = data["bid_increment"]
        return {
            "target": target,
            "min_bid": data["min_bid"],
            "bid_increment": int(increment) if increment.isdigit() else increment,
            "pass_cards": data["pass_cards"],
            "run_extra_kq": data["run_extra_kq"],
            "double_around_scale": data["double_around_scale"],
            "last_trick": data["last_trick"],
            "bidder_out": data["bidder_out"],
            "tie_break": data["tie_break"],
        }


# ---- one hand ---------------------------------------------------------------------------------


class HandForm(forms.Form):
    """One hand, tapped in: bidder, bid, trump, meld per side, trick points per side.

    Trick points: leave one side blank and it is filled in as the hand's total minus the
    others; leave them all blank when the hand was not played (§9.3 ``tricks: null``).
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    bidder = forms.TypedChoiceField(
        coerce=int,
        widget=forms.RadioSelect,
        label="Who won the bid?",
        error_messages={"required": "Tap who won the bid."},
    )
    bid = forms.IntegerField(
        label="Bid",
        min_value=0,
        max_value=SCORE_LIMIT,
        error_messages={
            "required": "Enter the bid.",
            "invalid": "The bid is a whole number.",
            "max_value": f"The bid is at most {SCORE_LIMIT}.",
        },
    )
    trump = forms.ChoiceField(
        widget=forms.RadioSelect, label="Trump", error_messages={"required": "Tap the trump suit."}
    )

    def __init__(
        self,
        *args: Any,
        variant: Variant,
        settings: Settings,
        players: Sequence[Player],
        side_names: Sequence[str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.variant, self.settings = variant, settings
        self.side_names = list(side_names)
        self.trick_total = variant.trick_points_total(settings)
        self.group_errors: dict[str, list[str]] = {"meld": [], "tricks": [], "took_trick": []}
        self.fields["bidder"].choices = [(seat, player.name) for seat, player in enumerate(players)]
        suits = [(suit, SUIT_NAMES[suit]) for suit in SUITS]
        if settings.trump_requires_marriage:
            suits.append((NO_MARRIAGE, "No marriage"))
        self.fields["trump"].choices = suits
        for side, name in enumerate(self.side_names):
            self.fields[f"meld_{side}"] = _side_points_field(name, f"{name}'s meld is")
            self.fields[f"tricks_{side}"] = _side_points_field(name, f"{name}'s trick points are")
            if self.asks_took_trick:
                self.fields[f"took_{side}"] = forms.BooleanField(required=False, label=name)

    @property
    def asks_took_trick(self) -> bool:
        """Only where meld needs a trick: 0 trick points may still mean a trick was taken."""
        return self.settings.meld_requires_trick

    @classmethod
    def field_names(cls, sides: int) -> list[str]:
        per_side = [f"{kind}_{side}" for kind in ("meld", "tricks", "took") for side in range(sides)]
        return ["number", "bidder", "bid", "trump", *per_side]

    @classmethod
    def values_from(cls, data: Mapping[str, Any], sides: int) -> dict[str, Any]:
        """The form's own keys out of a request's data (for prefilling from a link or a step)."""
        return {name: data[name] for name in cls.field_names(sides) if data.get(name) not in (None, "")}

    # grouped fields, for the template

    def side_fields(self, kind: str) -> list[forms.BoundField]:
        return [self[f"{kind}_{side}"] for side in range(len(self.side_names))]

    @property
    def meld_fields(self) -> list[forms.BoundField]:
        return self.side_fields("meld")

    @property
    def trick_fields(self) -> list[forms.BoundField]:
        return self.side_fields("tricks")

    @property
    def took_fields(self) -> list[forms.BoundField]:
        return self.side_fields("took") if self.asks_took_trick else []

    # cleaning

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        sides = range(len(self.side_names))
        data["meld_list"] = [data.get(f"meld_{side}") or 0 for side in sides]
        data["tricks_list"] = self._tricks(data)
        return data

    def _tricks(self, data: dict[str, Any]) -> list[int] | None:
        """Trick points per side; the one left blank is the hand's total minus the others."""
        if data.get("trump") == NO_MARRIAGE:
            return None  # not played: §9.3 tricks are null
        entered = [data.get(f"tricks_{side}") for side in range(len(self.side_names))]
        blanks = [side for side, points in enumerate(entered) if points is None]
        if len(blanks) == len(entered):
            return None
        if len(blanks) > 1:
            names = ", ".join(self.side_names[side] for side in blanks)
            message = f"Fill in the trick points of every side but one (blank: {names})."
            self.add_error(f"tricks_{blanks[0]}", message)
            return None
        missing = blanks[0] if blanks else None
        if missing is not None:
            entered[missing] = self.trick_total - sum(p for p in entered if p is not None)
            self._show(f"tricks_{missing}", entered[missing])
        return [int(p) for p in entered if p is not None]

    def _show(self, name: str, value: int) -> None:
        """Put a value the server worked out back into the form, so the player sees it."""
        self.data = self.data.copy()
        self.data[self.add_prefix(name)] = str(value)

    def hand_data(self) -> dict[str, Any]:
        """The §9.3 hand object for what was entered."""
        data = self.cleaned_data
        trump = data["trump"]
        hand: dict[str, Any] = {
            "bidder": data["bidder"],
            "bid": data["bid"],
            "trump": None if trump == NO_MARRIAGE else trump,
            "meld": data["meld_list"],
            "tricks": data["tricks_list"],
        }
        took = self._took_trick(data["tricks_list"])
        if took is not None:
            hand["took_trick"] = took
        return hand

    def _took_trick(self, tricks: list[int] | None) -> list[bool] | None:
        """Sent only when it says more than the trick points do: a trick won with no counters."""
        if tricks is None or not self.asks_took_trick:
            return None
        ticked = [bool(self.cleaned_data.get(f"took_{side}")) for side in range(len(tricks))]
        took = [points > 0 or tick for points, tick in zip(tricks, ticked, strict=True)]
        return took if took != [points > 0 for points in tricks] else None

    def add_refusals(self, errors: Iterable[tuple[str, str]]) -> None:
        """Show each refusal of the rules next to the field it names (§9.3 keys), naming sides
        as the table does ("Bob & Dan", not the record's "side 1")."""
        for field, raw in errors:
            message = _SIDE_NUMBER.sub(self._side_name, raw)
            key = field.split("[")[0].split(".")[0]
            if key in self.group_errors:
                self.group_errors[key].append(_group_message(key, raw, message))
            elif key in ("bidder", "bid", "trump"):
                self.add_error(key, message)
            else:
                self.add_error(None, message)

    def _side_name(self, match: re.Match[str]) -> str:
        side = int(match.group(1))
        return self.side_names[side] if side < len(self.side_names) else match.group(0)


def _group_message(key: str, raw: str, message: str) -> str:
    """A meld, trick or took-a-trick refusal as a sentence: "Trick points add up to 51; …"."""
    if raw.startswith("side "):  # already opens with the side's name ("Bob & Dan has -4; …")
        return message
    if message.startswith(_NOT_PLAYED):
        return f"Leave the trick points blank: {message.removeprefix(_NOT_PLAYED)}"
    return f"{_GROUP_WORDS[key]} {message}"


def _side_points_field(label: str, subject: str) -> forms.IntegerField:
    """An optional whole number of points for one side, refused in words that name the side."""
    return forms.IntegerField(
        required=False,
        label=label,
        max_value=SCORE_LIMIT,
        error_messages={
            "invalid": f"{subject} a whole number.",
            "max_value": f"{subject} at most {SCORE_LIMIT}.",
        },
    )
