"""Forms: they read what was typed or tapped into plain values; the services judge it.

``HandForm`` turns a tap-by-tap hand into the §9.3 hand object (RULES.md §9.3) and shows,
next to each field, every refusal the rules give for it.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import QuerySet
from django.forms.boundfield import BoundWidget

from ..constants import HOUSEHOLD_NAME_MAX, NUMBER_LIMIT, PLAYER_NAME_MAX
from ..engine.cards import SUIT_NAMES, SUITS
from ..engine.scoring import FORFEIT_OPPONENTS, SET_PENALTY_FACTOR, Problem
from ..engine.variants import Settings, Variant, setting_choices
from ..models import ENTRY_KEY_MAX, Game, Player
from .fields import hidden_number
from .house_rules import SETTING_WORDS, choice_field, setting_field

if TYPE_CHECKING:
    from ..selectors.games import Scoresheet

NO_MARRIAGE = "none"  # the form's word for §9.3's null trump
# The scorer words a refusal as if after its field's name ("tricks add up to 51; …"). Under the
# form's "Trick points" heading that reads as a headless phrase, so the form names the field again.
_GROUP_WORDS = {"meld": "Meld", "tricks": "Trick points", "took_trick": "Took a trick:"}
SCORE_LIMIT = NUMBER_LIMIT  # a typed number above it is a slip of the thumb, refused in words


class HouseholdForm(forms.Form):
    name = forms.CharField(max_length=HOUSEHOLD_NAME_MAX, label="Household name")


class PlayerForm(forms.Form):
    name = forms.CharField(
        max_length=PLAYER_NAME_MAX,
        label="Player's name",
        widget=forms.TextInput(attrs={"placeholder": "Name"}),
    )


# ---- new game ---------------------------------------------------------------------------------

OTHER = "other"
# The thresholds a box ticked for the rule of 20 starts at, when the variant's own default is off.
RULE_OF_20 = (20, 20)


def _seat_label(variant: Variant, seat: int) -> str:
    if variant.partnerships:
        return f"Seat {seat + 1} (team {variant.side_of(seat) + 1})"
    return f"Seat {seat + 1}"


class NewGameForm(forms.Form):
    """Who sits where, who deals first and the house rules, for one variant.

    "House rules" holds the nine keys every table sets; "More house rules" the other §4 keys that
    change how a hand entered here is scored or checked. Bidding and play rules are left out: the
    players keep them at the table, and the scorepad only scores what is entered.
    """

    new_player = forms.CharField(
        max_length=PLAYER_NAME_MAX, required=False, label="Add a player to the roster"
    )
    first_dealer = forms.ChoiceField(label="First dealer")
    target = forms.ChoiceField(widget=forms.RadioSelect, label="Play to")
    target_other = forms.IntegerField(
        min_value=1, max_value=SCORE_LIMIT, required=False, label="Other target"
    )
    min_bid = forms.IntegerField(min_value=1, max_value=SCORE_LIMIT, label="Minimum bid")
    bid_increment = setting_field("bid_increment", "Bids go up by")
    pass_cards = setting_field("pass_cards", "Passing")
    run_extra_kq = setting_field("run_extra_kq", "An extra trump K or Q beside a run scores")
    double_around_scale = setting_field("double_around_scale", "Double arounds score")
    last_trick = forms.IntegerField(min_value=0, max_value=SCORE_LIMIT, label="Last trick bonus")
    bidder_out = forms.BooleanField(required=False, label="Bidder out: bidders win when both sides reach")
    tie_break = setting_field("tie_break", "A tie at the target")
    # More house rules
    count_system = setting_field("count_system", "Counters")  # words with the deck's total: __init__
    set_penalty = setting_field("set_penalty", "Going set costs")
    meld_requires_trick = forms.BooleanField(
        required=False, label="A side that takes no trick loses its meld"
    )
    trump_requires_marriage = forms.BooleanField(
        required=False, label="Trump needs a marriage: without one the bid is lost and the hand not played"
    )
    bidder_may_concede = forms.BooleanField(
        required=False, label="The bidders may throw in the hand before the lead (they lose the bid)"
    )
    rule_of_20 = forms.BooleanField(
        required=False,
        label="Rule of 20: a side short of the meld below loses its meld (bidders forfeit); "
        "short of the trick points, it scores nothing",
    )
    rule_of_20_meld = forms.IntegerField(
        min_value=0, max_value=SCORE_LIMIT, required=False, label="Meld a side needs for its meld to count"
    )
    rule_of_20_tricks = forms.IntegerField(
        min_value=0, max_value=SCORE_LIMIT, required=False, label="Trick points a side needs to score at all"
    )
    bidders_short_meld_play_out = forms.BooleanField(
        required=False,
        label="Bidders short of that meld play the hand out (the opponents can earn trick points)",
    )
    forfeit_opponents = setting_field(
        "forfeit_opponents", "When the bidders forfeit before play, the opponents score"
    )

    RULES = (
        *("min_bid", "bid_increment", "pass_cards", "run_extra_kq", "double_around_scale"),
        *("last_trick", "tie_break", "bidder_out"),
    )
    MORE_RULES = (
        *("count_system", "set_penalty", "meld_requires_trick", "trump_requires_marriage"),
        *("bidder_may_concede", "rule_of_20", "rule_of_20_meld", "rule_of_20_tricks"),
        *("bidders_short_meld_play_out", "forfeit_opponents"),
    )
    RULE_OF_20_FIELDS = ("rule_of_20_meld", "rule_of_20_tricks")  # shown as part of the box above them
    # §4 keys whose form value is the setting itself (the target and the rule of 20 come from two fields).
    _SAME_AS_SETTING = tuple(key for key in (*RULES, *MORE_RULES) if not key.startswith("rule_of_20"))

    def __init__(self, variant: Variant, players: QuerySet[Player], *args: Any, **kwargs: Any) -> None:
        self.variant = variant
        defaults = variant.defaults
        kwargs.setdefault("initial", self.defaults_of(variant))
        super().__init__(*args, **kwargs)
        targets = sorted({*variant.quick_targets, defaults.target})
        choice_field(self, "target").choices = [(str(t), str(t)) for t in targets] + [(OTHER, "other")]
        dealers = [("random", "Random")] + [(str(s), _seat_label(variant, s)) for s in range(variant.seats)]
        choice_field(self, "first_dealer").choices = dealers
        choice_field(self, "count_system").choices = self._count_choices(variant)
        for seat in range(variant.seats):
            self.fields[f"seat_{seat}"] = forms.ModelChoiceField(
                queryset=players,
                required=False,
                label=_seat_label(variant, seat),
                empty_label="— choose —",
            )

    @staticmethod
    def _count_choices(variant: Variant) -> list[tuple[str, str]]:
        """Each count with what the deck holds under it (the trick points total, less the last trick)."""
        words = SETTING_WORDS["count_system"]
        choices = []
        for count in setting_choices("count_system"):
            in_deck = variant.trick_points_total(variant.settings({"count_system": count, "last_trick": 0}))
            choices.append((count, f"{words[count]} ({in_deck} in the deck)"))
        return choices

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
        # A choice's initial is the text of its value ("10", not 10), as a posted form would hold.
        values = {key: getattr(rules, key) for key in NewGameForm._SAME_AS_SETTING}
        values = {key: str(value) if _is_choice(key) else value for key, value in values.items()}
        meld, tricks = rules.rule_of_20 or variant.defaults.rule_of_20 or RULE_OF_20
        return {
            "first_dealer": "random",
            **target,
            **values,
            "rule_of_20": rules.rule_of_20 is not None,
            "rule_of_20_meld": meld,
            "rule_of_20_tricks": tricks,
        }

    @staticmethod
    def kept(variant: Variant, data: Mapping[str, Any]) -> dict[str, Any]:
        """The choices a post made so far (adding a player is not a start): an unticked box stays so."""
        initial = NewGameForm.defaults_of(variant)
        for key in [*initial, "target_other", *(f"seat_{seat}" for seat in range(variant.seats))]:
            if isinstance(NewGameForm.base_fields.get(key), forms.BooleanField):
                initial[key] = key in data
            elif data.get(key):
                initial[key] = data[key]
        return initial

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(self.variant.seats)]

    @property
    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.RULES]

    @property
    def more_rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.MORE_RULES]

    @property
    def more_rules_refused(self) -> bool:
        """Whether "More house rules" must open by itself, to show a refusal beside its field."""
        return any(name in self.errors for name in self.MORE_RULES)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
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
        elif data.get("target") not in (OTHER, None) and data.get("target_other"):
            chip, typed = data["target"], data["target_other"]
            if str(typed) != chip:
                self.add_error(
                    "target_other",
                    f"You typed {typed} but {chip} is chosen: tap “other” to play to {typed}, or clear it.",
                )
        if data.get("rule_of_20"):
            self._need("rule_of_20_meld", "Enter the meld a side needs under the rule of 20.")
            self._need("rule_of_20_tricks", "Enter the trick points a side needs under the rule of 20.")
        return data

    def _need(self, name: str, message: str) -> None:
        if self.cleaned_data.get(name) is None and name not in self.errors:
            self.add_error(name, message)

    def players(self) -> list[Player]:
        return [self.cleaned_data[f"seat_{seat}"] for seat in range(self.variant.seats)]

    def overrides(self) -> dict[str, Any]:
        """The house rules as §4 keys and values (the service stores only the changes)."""
        data = self.cleaned_data
        target = data["target_other"] if data["target"] == OTHER else int(data["target"])
        rule_of_20 = [data["rule_of_20_meld"], data["rule_of_20_tricks"]] if data["rule_of_20"] else None
        return {
            "target": target,
            **{key: data[key] for key in self._SAME_AS_SETTING},
            "rule_of_20": rule_of_20,
        }


def _is_choice(key: str) -> bool:
    return isinstance(NewGameForm.base_fields[key], forms.ChoiceField)


# ---- one hand ---------------------------------------------------------------------------------

ENTRY_KEY = re.compile(rf"[A-Za-z0-9_-]{{8,{ENTRY_KEY_MAX}}}")  # a UUID, or the server's own token


def new_entry_key() -> str:
    """A key for one entry of a hand: the page's own (the phone's script makes its own per entry)."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class EnteredHand:
    """A hand as this phone entered it, in the table's words, to show beside the one stored."""

    bidder: str
    bid: int
    trump: str | None
    sides: list[tuple[str, int, int | None]]  # each side's name, meld and trick points (None: not played)


class HandForm(forms.Form):
    """One hand, tapped in: bidder, bid, trump, meld per side, trick points per side.

    Trick points: leave one side blank and it is filled in as the hand's total minus the
    others; leave them all blank when the hand was not played (§9.3 ``tricks: null``).
    """

    number = hidden_number()
    # A correction posts back the version of the hand it was made from (a stale one is refused).
    version = hidden_number(required=False)
    # One entry of one hand, however often it is sent (a phone that was offline, a double tap):
    # the server stores it once (services.games.hand_record).
    entry_key = forms.CharField(widget=forms.HiddenInput, required=False)
    dealer = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Dealer")
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
        self.player_names = [player.name for player in players]
        choice_field(self, "bidder").choices = list(enumerate(self.player_names))
        choice_field(self, "dealer").choices = choice_field(self, "bidder").choices
        suits = [(suit, SUIT_NAMES[suit]) for suit in SUITS]
        if settings.trump_requires_marriage:
            suits.append((NO_MARRIAGE, "No marriage"))
        choice_field(self, "trump").choices = suits
        for side, name in enumerate(self.side_names):
            self.fields[f"meld_{side}"] = _side_points_field(name, f"{name}'s meld is")
            self.fields[f"tricks_{side}"] = _side_points_field(name, f"{name}'s trick points are")
            if self.asks_took_trick:
                self.fields[f"took_{side}"] = forms.BooleanField(required=False, label=name)

    CHIPS = 12  # two rows of six: the common bids, one tap each

    @property
    def bid_chips(self) -> list[int]:
        """The variant's common bids from the minimum: every legal bid while bids go up by 1 under
        30, otherwise in fives or the §4 increment if larger (20 … 31; 50, 55 … 105; 50, 60 … 160)."""
        settings, bids = self.settings, [self.settings.min_bid]
        while len(bids) < self.CHIPS:
            current = bids[-1]
            step = settings.next_bid_step(current)
            bids.append(current + (step if step > 1 or current < 30 else 5))
        return bids

    @property
    def first_error(self) -> str:
        """Where the first refusal is shown, in the form's order, so the page can focus it."""
        if not self.is_bound:
            return ""
        for name in ("bidder", "bid", "trump"):
            if name in self.errors:
                return name
        for kind, group in (("tricks", "tricks"), ("took", "took_trick"), ("meld", "meld")):
            for side in range(len(self.side_names)):
                if f"{kind}_{side}" in self.errors:
                    return f"{kind}_{side}"
            if self.group_errors.get(group):
                return group
        return "__all__" if self.non_field_errors() else ""

    @property
    def offline_rules(self) -> str:
        """The house rules a hand's score depends on, and the bid stepper's, as JSON: with no
        connection the phone works out a waiting hand's score from them (static/js/outbox.js),
        shown as provisional until the server, the one scorer, has recorded it."""
        settings = self.settings
        forfeit = FORFEIT_OPPONENTS[settings.forfeit_opponents]
        return json.dumps(
            {
                "set_factor": SET_PENALTY_FACTOR[settings.set_penalty],
                "meld_requires_trick": settings.meld_requires_trick,
                "rule_of_20": None if settings.rule_of_20 is None else list(settings.rule_of_20),
                "forfeit_opponents": None if forfeit is None else list(forfeit),
                # The bid stepper's − and +, for a phone with no connection (§4 `bid_increment`).
                "min_bid": settings.min_bid,
                "bid_steps": [settings.next_bid_step(59), settings.next_bid_step(60)],  # below 60, from 60
            }
        )

    @property
    def asks_took_trick(self) -> bool:
        """Only where meld needs a trick: 0 trick points may still mean a trick was taken."""
        return self.settings.meld_requires_trick

    @classmethod
    def field_names(cls, sides: int) -> list[str]:
        per_side = [f"{kind}_{side}" for kind in ("meld", "tricks", "took") for side in range(sides)]
        return ["number", "version", "entry_key", "dealer", "bidder", "bid", "trump", *per_side]

    @classmethod
    def values_from(cls, data: Mapping[str, Any], sides: int) -> dict[str, Any]:
        """The form's own keys out of a request's data (for prefilling from a link or a step)."""
        return {name: data[name] for name in cls.field_names(sides) if data.get(name) not in (None, "")}

    # grouped fields, for the template

    def side_fields(self, kind: str) -> list[forms.BoundField]:
        return [self[f"{kind}_{side}"] for side in range(len(self.side_names))]

    @property
    def bidder_buttons(self) -> list[tuple[BoundWidget, int]]:
        """Each seat's bidder button with the seat's side, so a tap on the trump can put the cursor
        in the bidders' trick-points box."""
        return [(radio, self.variant.side_of(seat)) for seat, radio in enumerate(self["bidder"])]

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

    def clean_entry_key(self) -> str | None:
        key = self.cleaned_data.get("entry_key") or None
        if key is not None and not ENTRY_KEY.fullmatch(key):
            raise forms.ValidationError("This page is out of date: reload it and enter the hand again.")
        return key

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if "entry_key" in self.errors:  # a hidden field: its refusal goes above the form
            self.add_error(None, self.errors.pop("entry_key")[0])
        garbled = [self.errors.pop(hidden) for hidden in ("number", "version") if hidden in self.errors]
        if garbled:  # hidden fields, forged or from an old page: nothing on the page would show why
            self.add_error(None, "This page is out of date: reload it and enter the hand again.")
        if self.errors:
            return data
        sides = range(len(self.side_names))
        data["meld_list"] = [data.get(f"meld_{side}") or 0 for side in sides]
        data["tricks_list"] = self._tricks(data)
        return data

    def _tricks(self, data: dict[str, Any]) -> list[int] | None:
        """Trick points per side; the one left blank is the hand's total minus the others."""
        entered = [data.get(f"tricks_{side}") for side in range(len(self.side_names))]
        if data.get("trump") == NO_MARRIAGE:
            # Not played (§9.3 tricks are null): trick points typed anyway contradict it, so say so.
            typed = [side for side, points in enumerate(entered) if points is not None]
            if typed:
                self.add_error(
                    f"tricks_{typed[0]}",
                    "No marriage means the hand was not played: clear the trick points, or pick the trump.",
                )
            return None
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
            filled = self.trick_total - sum(p for p in entered if p is not None)
            entered[missing] = filled
            self._show(f"tricks_{missing}", filled)
        return [int(p) for p in entered if p is not None]

    def _show(self, name: str, value: int) -> None:
        """Put a value the server worked out back into the form, so the player sees it."""
        self.data = data = self.data.copy()  # type: ignore[attr-defined]  # a QueryDict, or a dict
        data[self.add_prefix(name)] = str(value)

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

    def entered(self) -> EnteredHand:
        """What was entered, with names for seats and sides (after ``is_valid``)."""
        hand = self.hand_data()
        tricks = hand["tricks"] or [None] * len(hand["meld"])
        sides = list(zip(self.side_names, hand["meld"], tricks, strict=True))
        return EnteredHand(self.player_names[hand["bidder"]], hand["bid"], hand["trump"], sides)

    def _took_trick(self, tricks: list[int] | None) -> list[bool] | None:
        """Sent only when it says more than the trick points do: a trick won with no counters."""
        if tricks is None or not self.asks_took_trick:
            return None
        ticked = [bool(self.cleaned_data.get(f"took_{side}")) for side in range(len(tricks))]
        took = [points > 0 or tick for points, tick in zip(tricks, ticked, strict=True)]
        return took if took != [points > 0 for points in tricks] else None

    def add_refusals(self, errors: Iterable[Problem]) -> None:
        """Show each refusal of the rules next to the field it names (§9.3 keys), naming sides
        as the table does ("Bob & Dan", not the record's "side 1")."""
        for problem in errors:
            key = problem.field.split("[")[0].split(".")[0]
            if key in self.group_errors:
                self.group_errors[key].append(self._group_message(key, problem))
            elif key in ("bidder", "bid", "trump"):
                self.add_error(key, problem.message)
            else:
                self.add_error(None, problem.message)

    def _group_message(self, key: str, problem: Problem) -> str:
        """A meld, trick or took-a-trick refusal as a sentence: "Trick points add up to 51; …"."""
        if problem.side is not None and problem.side < len(self.side_names):
            return f"{self.side_names[problem.side]} {problem.words}"  # "Bob & Dan has -4; …"
        if problem.unplayed:
            return f"Leave the trick points blank: {problem.words}"
        return f"{_GROUP_WORDS[key]} {problem.message}"


def _side_points_field(label: str, subject: str) -> forms.IntegerField:
    """An optional whole number of points for one side, refused in words that name the side."""
    return forms.IntegerField(
        required=False,
        label=label,
        max_value=SCORE_LIMIT,
        error_messages={
            "invalid": f"{subject} a whole number.",
            # Django %-formats a validator's message with its limit: a side's name is text, never a
            # format ("Al 100%"), so its percent signs are doubled to come out as typed.
            "max_value": f"{subject.replace('%', '%%')} at most {SCORE_LIMIT}.",
        },
    )


# ---- the hand form's buttons: one intent each ----------------------------------------------------


class Intent(StrEnum):
    """What a hand form's POST asks for, named by the key its button sends (the form has one
    ``action``, so every button also works as a plain submit without JavaScript)."""

    PREVIEW = "preview"  # the live preview (htmx): what the hand would score, nothing saved
    BID_STEP = "bid_step"  # the stepper's − / +: the form again with the bid moved one step
    BID_CHIP = "bid_set"  # a quick chip: the form again with that bid
    COUNT_MELD = "count_meld"  # off to the meld calculator with the hand so far
    THROW_IN = "thrown_in"  # record the deal as thrown in (next hand only)
    RECORD = "record"  # the main button (it sends no key): record or correct the hand


def intent_of(data: Mapping[str, Any], offered: Collection[Intent]) -> Intent:
    """The first offered intent whose key the POST carries; with none, the form's main button."""
    return next((intent for intent in Intent if intent in offered and intent.value in data), Intent.RECORD)


def stepped_bid(sheet: Scoresheet, data: Mapping[str, Any]) -> dict[str, Any]:
    """The form's values with the bid moved one step (§4 ``bid_increment``), never under the minimum."""
    values = HandForm.values_from(data, len(sheet.side_names))
    settings = sheet.settings
    try:
        current = max(int(values.get("bid", "")), settings.min_bid)
    except ValueError:
        current = settings.min_bid
    if "bid_set" in data:  # a quick chip: the bid itself
        values["bid"] = data["bid_set"]
    elif data.get("bid_step") == "+":
        values["bid"] = current + settings.next_bid_step(current)
    else:
        values["bid"] = max(settings.min_bid, current - settings.next_bid_step(current - 1))
    return values
