"""The meld calculator's query string: variant, hand, trump and two meld settings (RULES.md §4, §9.1).

Everything lives in the URL so a result can be bookmarked or shared. ``MeldQueryForm`` checks each
parameter with the engine's own parsers, so a refusal carries the engine's message naming the bad
token; ``MeldQuery`` is what survived, and builds the URLs of every tap on the page.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit
from urllib.parse import urlencode as query_string

from django import forms
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode

from scorepad.engine import cards
from scorepad.engine.cards import Card, CardError, Suit
from scorepad.engine.meld import parse_hand
from scorepad.engine.variants import VARIANTS, Settings, SettingsError, Variant, get_variant
from scorepad.forms.house_rules import SETTING_WORDS

if TYPE_CHECKING:
    from scorepad.selectors.games import Scoresheet

DEFAULT_VARIANT_ID = "classic"  # what a first visit, or an unknown variant, falls back to
MOST_SIDES = max(len(variant.sides) for variant in VARIANTS.values())
RETURN_MAX_LENGTH = 2000  # a hand form's path and values fit many times over
SIDE_LABEL_MAX_LENGTH = 80
MELD_NOW_MAX = 99_999  # the hand form's own limit on a side's meld

# The meld settings the calculator offers (§4). The URL keeps the §4 names and values (shared links
# stay valid), the engine checks every value, and the words for each value are the new-game form's,
# so a rule reads the same on every screen.
MELD_SETTING_LABELS: dict[str, str] = {
    "run_extra_kq": "Extra trump K or Q beside a run",
    "double_around_scale": "Double arounds",
}
MELD_SETTING_CHOICES: dict[str, dict[str, str]] = {key: SETTING_WORDS[key] for key in MELD_SETTING_LABELS}
MELD_SETTINGS = tuple(MELD_SETTING_LABELS)  # a game's house rules the calculator takes as its own


@dataclass(frozen=True, slots=True)
class ReturnTrip:
    """Where "Count it" on a hand form came from: that form's local path and the side to fill in.

    The scorepad sends ``return``, ``side`` and ``side_label``, plus ``meld_now`` when the side's meld
    field already held a number (one partner counted, the other's to add: RULES.md §1.4, §2.4). Every
    calculator URL carries them on, and ``with_meld`` is the way back with ``meld_<side>`` set.
    Anything unsafe or malformed was dropped on reading.
    """

    path: str
    side: int | None = None  # None: only the way back without counting
    side_label: str = ""
    meld_now: int | None = None  # the side's meld before this count; only with a side

    @classmethod
    def from_query(cls, data: Mapping[str, str], *, host: str, secure: bool) -> ReturnTrip | None:
        """The trip a query asks for, or None when its ``return`` is missing or not a local path."""
        path = data.get("return", "")
        if not _is_local_path(path, host=host, secure=secure):
            return None
        side_text = data.get("side", "")
        # ASCII digits only: int() would also take " 1", "+1" or "١".
        side = int(side_text) if re.fullmatch(r"[0-9]{1,2}", side_text) else None
        if side is not None and side >= MOST_SIDES:
            side = None
        if side is None:
            return cls(path)
        label = " ".join(data.get("side_label", "").split())[:SIDE_LABEL_MAX_LENGTH]
        return cls(path, side, label, parse_meld_now(data.get("meld_now", "")))

    @property
    def label(self) -> str:
        return self.side_label or f"side {(self.side or 0) + 1}"

    def params(self) -> dict[str, str]:
        params = {"return": self.path}
        if self.side is not None:
            params["side"] = str(self.side)
            if self.side_label:
                params["side_label"] = self.side_label
            if self.meld_now is not None:
                params["meld_now"] = str(self.meld_now)
        return params

    @property
    def back_path(self) -> str:
        """Back without counting: the side's meld as it was (the scorepad left it out of ``path``)."""
        return self.path if self.meld_now is None else self.with_meld(self.meld_now)

    def with_meld(self, total: int) -> str:
        """The return path with ``meld_<side>=total`` set, replacing any value it already had."""
        if self.side is None:
            raise ValueError("a trip without a side has no meld to give back")
        key = f"meld_{self.side}"
        parts = urlsplit(self.path)
        kept = [pair for pair in parse_qsl(parts.query, keep_blank_values=True) if pair[0] != key]
        return urlunsplit(parts._replace(query=urlencode([*kept, (key, str(total))])))


def rules_param(overrides: Mapping[str, Any]) -> str:
    """A game's house rules (§4 keys that differ from the defaults) as the calculator's ``rules``
    parameter: one JSON object, keys sorted, so the same rules always make the same URL."""
    return json.dumps(dict(overrides), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def parse_meld_now(text: str) -> int | None:
    """A side's meld so far: a whole number 0…``MELD_NOW_MAX`` in ASCII digits, else None."""
    # ASCII digits only, as for ``side``: int() would also take " 24", "+24" or "٢٤".
    if not re.fullmatch(r"[0-9]{1,12}", text):
        return None
    value = int(text)
    return value if value <= MELD_NOW_MAX else None


def _is_local_path(path: str, *, host: str, secure: bool) -> bool:
    """Only a path on this site: never another host, a scheme such as ``javascript:``, or ``//host``."""
    return (
        0 < len(path) <= RETURN_MAX_LENGTH
        and path.startswith("/")
        and not path.startswith("//")
        and url_has_allowed_host_and_scheme(path, allowed_hosts={host}, require_https=secure)
    )


@dataclass(frozen=True, slots=True)
class MeldQuery:
    """One calculator state; ``hand`` is sorted, ``overrides`` holds only settings the URL chose."""

    variant: Variant
    hand: tuple[Card, ...] = ()
    trump: Suit | None = None
    no_trump: bool = False  # trump=none: counted with no trump suit (a no-marriage hand, RULES §2.3)
    overrides: tuple[tuple[str, str], ...] = ()
    dropped: tuple[Card, ...] = ()  # cards a variant switch left out, shown once with the reason
    trip: ReturnTrip | None = None  # carried through every tap, so the way back to the scorepad stays
    advise: bool = False  # run the bid advisor on this (full) hand: a tap that changes the hand drops it
    # A scorepad game's other house rules (``rules_param``), so the advisor bids and scores as that
    # table does; a switch to another variant drops them.
    rules: str = ""

    @property
    def table_rules(self) -> dict[str, Any]:
        return dict(json.loads(self.rules)) if self.rules else {}

    @property
    def settings(self) -> Settings:
        return self.variant.settings({**self.table_rules, **dict(self.overrides)})

    @property
    def counts(self) -> tuple[int, ...]:
        return cards.counts_of(self.hand)

    @property
    def full(self) -> bool:
        return len(self.hand) >= self.variant.hand_size

    def url(self) -> str:
        params: dict[str, str] = {"variant": self.variant.id}
        if self.trump is not None:
            params["trump"] = cards.SUITS[self.trump]
        elif self.no_trump:
            params["trump"] = NO_TRUMP
        if self.hand:
            params["cards"] = " ".join(cards.codes(self.hand))
        params.update(self.overrides)
        if self.rules:
            params["rules"] = self.rules
        if self.dropped:
            params["dropped"] = " ".join(cards.codes(self.dropped))
        if self.advise:
            params["advise"] = "1"
        if self.trip is not None:
            params.update(self.trip.params())
        return f"{reverse('meld')}?{urlencode(params)}"

    def _with(self, **changes: Any) -> MeldQuery:
        # A note about dropped cards belongs to the one page a variant switch leads to.
        return dataclasses.replace(self, dropped=(), **changes)

    def with_card(self, card: Card) -> MeldQuery:
        return self._with(hand=tuple(cards.sort_cards([*self.hand, card])), advise=False)

    def without_card(self, card: Card) -> MeldQuery:
        hand = list(self.hand)
        hand.remove(card)
        return self._with(hand=tuple(hand), advise=False)

    def cleared(self) -> MeldQuery:
        return self._with(hand=(), advise=False)

    def advised(self) -> MeldQuery:
        return self._with(advise=True)

    def with_trump(self, trump: Suit | None) -> MeldQuery:
        return self._with(trump=trump, no_trump=False)

    def with_no_trump(self) -> MeldQuery:
        return self._with(trump=None, no_trump=True)

    def with_variant(self, variant: Variant) -> MeldQuery:
        """Keep every card the new deck can still deal, in order; the rest go to ``dropped``."""
        kept: list[Card] = []
        dropped: list[Card] = []
        for card in self.hand:
            try:
                variant.check_hand([*kept, card])
            except CardError:
                dropped.append(card)
            else:
                kept.append(card)
        rules = self.rules if variant is self.variant else ""
        return dataclasses.replace(
            self, variant=variant, hand=tuple(kept), dropped=tuple(dropped), advise=False, rules=rules
        )

    def why_dropped(self) -> list[tuple[list[str], str]]:
        """Each reason ``dropped`` cards did not fit this variant, with the codes it concerns."""
        reasons: dict[str, list[str]] = {}
        for card in self.dropped:
            try:
                self.variant.check_hand([*self.hand, card])
            except CardError:
                reasons.setdefault(self._misfit(card), []).append(cards.CODES[card])
            # A card that fits after all (a hand-edited URL) needs no excuse.
        return [(codes, reason) for reason, codes in reasons.items()]

    def _misfit(self, card: Card) -> str:
        variant = self.variant
        if cards.rank_of(card) not in variant.ranks:
            return f"the {variant.id} deck has no {cards.RANKS[cards.rank_of(card)]}s"
        if self.hand.count(card) >= variant.copies:
            return f"the {variant.id} deck holds only {variant.copies} of each card"
        return f"a {variant.id} hand holds at most {variant.hand_size} cards"


NO_TRUMP = "none"  # the URL's word for counting with no trump suit (the engine's trump=None)


class MeldQueryForm(forms.Form):
    """Reads the query string; every refusal is a field error worded by the engine."""

    variant = forms.CharField(required=False, max_length=40)
    cards = forms.CharField(required=False, max_length=400)
    trump = forms.CharField(required=False, max_length=10)
    run_extra_kq = forms.CharField(required=False, max_length=40)
    double_around_scale = forms.CharField(required=False, max_length=40)
    dropped = forms.CharField(required=False, max_length=400)
    advise = forms.BooleanField(required=False)
    rules = forms.CharField(required=False, max_length=RETURN_MAX_LENGTH)

    def clean_variant(self) -> Variant:
        return _refusing(get_variant, self.cleaned_data["variant"] or DEFAULT_VARIANT_ID)

    def _variant(self) -> Variant:
        """The variant to read the rest against: the chosen one, or the fallback if it was refused."""
        return self.cleaned_data.get("variant") or get_variant(DEFAULT_VARIANT_ID)

    def clean_cards(self) -> tuple[Card, ...]:
        return tuple(cards.sort_cards(_refusing(parse_hand, self.cleaned_data["cards"], self._variant())))

    def clean_trump(self) -> Suit | None:
        text = self.cleaned_data["trump"]
        if not text or text.strip().lower() == NO_TRUMP:
            return None
        return _refusing(cards.parse_suit, text)

    def clean_run_extra_kq(self) -> str | None:
        return self._setting("run_extra_kq")

    def clean_double_around_scale(self) -> str | None:
        return self._setting("double_around_scale")

    def _setting(self, key: str) -> str | None:
        value = self.cleaned_data[key]
        if not value:
            return None
        settings = _refusing(self._variant().settings, {key: value})
        return getattr(settings, key)  # the canonical spelling ("x10" comes back as "×10")

    def clean_rules(self) -> str:
        """A JSON object of §4 house rules, each checked by the engine; refused whole, in its words."""
        text = self.cleaned_data["rules"]
        if not text:
            return ""
        try:
            rules = json.loads(text)
        except (ValueError, RecursionError):
            raise forms.ValidationError("The house rules are not readable (a JSON object).") from None
        if not isinstance(rules, dict):
            raise forms.ValidationError("The house rules are not readable (a JSON object).")
        _refusing(self._variant().settings, rules)
        return rules_param(rules)

    def clean_dropped(self) -> tuple[Card, ...]:
        return tuple(_refusing(cards.parse_cards, self.cleaned_data["dropped"]))

    def query(self, trip: ReturnTrip | None = None) -> MeldQuery:
        """What the URL asked for, with each refused part at its default so the page still works."""
        self.is_valid()
        data = self.cleaned_data
        overrides = tuple((key, data[key]) for key in MELD_SETTING_CHOICES if data.get(key))
        return MeldQuery(
            variant=self._variant(),
            hand=data.get("cards", ()),
            trump=data.get("trump"),
            no_trump=str(self.data.get("trump", "")).strip().lower() == NO_TRUMP,
            overrides=overrides,
            dropped=data.get("dropped", ()),
            trip=trip,
            advise=bool(data.get("advise")),
            rules=data.get("rules", ""),
        )


def _refusing[T](parse: Callable[..., T], *args: Any) -> T:
    """Call an engine parser; its CardError or SettingsError becomes the field's message."""
    try:
        return parse(*args)
    except (CardError, SettingsError) as error:
        raise forms.ValidationError(str(error)) from None


def calculator_url(sheet: Scoresheet, back: str, **params: Any) -> str:
    """A hand form's way to the meld calculator (and its bid advisor) for its game: the variant,
    the house rules (those that change meld as the calculator's own settings, the rest as
    ``rules``) and the way ``back``."""
    rules = sheet.game.settings
    query: dict[str, Any] = {"variant": sheet.variant.id, "return": back, **params}
    query.update({key: rules[key] for key in MELD_SETTINGS if key in rules})
    if others := {key: value for key, value in rules.items() if key not in MELD_SETTINGS}:
        query["rules"] = rules_param(others)
    return f"{reverse('meld')}?{query_string(query)}"
