"""The practice form: variant, bot strength and the house rules that shape a hand against the bots.

The rules come with the variant's defaults (RULES §4); the values offered for a choice are the
engine's own (``setting_choices``), in the same words as the scorepad's new-game form.
"""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.core.validators import RegexValidator
from django.utils.crypto import constant_time_compare, salted_hmac

from ..constants import DEFAULT_STRENGTH, STRENGTH_WORDS
from ..engine.bots import PRACTICE_STRENGTHS
from ..engine.variants import FOLLOW, HEAD, VARIANTS, Variant, get_variant
from .house_rules import choice_field, setting_field

VARIANT_CHOICES = [(v.id, v.label) for v in VARIANTS.values()]
STALE_FORM = "This form is out of date (it came from an older page): check the choices and start again."
STALE_REPLAY = (
    "This replay button is out of date (it came from an older page): here is the review, replay from it."
)
TOKEN_FORMAT = RegexValidator(r"^[A-Za-z0-9_-]{16,64}$")


def _token_refusals(words: str) -> dict[str, str]:
    """Every way a token field refuses (missing, malformed, too long, a NUL) said in the same words:
    a token is never typed by a person, so only "out of date" makes sense to them."""
    return {code: words for code in ("required", "invalid", "max_length", "null_characters_not_allowed")}


class PracticeForm(forms.Form):
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, widget=forms.RadioSelect, label="Variant")
    strength = forms.ChoiceField(widget=forms.RadioSelect, label="Bots")
    target = forms.IntegerField(min_value=10, max_value=9_999, label="Play to")
    min_bid = forms.IntegerField(min_value=1, max_value=9_999, label="Minimum bid")
    bid_increment = setting_field("bid_increment", "Bids go up by")
    pass_cards = setting_field("pass_cards", "Passing (partners only)")
    trump_requires_marriage = forms.BooleanField(
        required=False, label="Trump needs a marriage: without one the bidder forfeits"
    )
    must_overtrump = forms.BooleanField(required=False, label="Must trump higher when able")
    head_the_trick = forms.BooleanField(required=False, label="Must beat the winning card when able")
    last_trick = forms.IntegerField(min_value=0, max_value=9_999, label="Last trick bonus")
    bidder_may_concede = forms.BooleanField(
        required=False, label="The bidder may throw the hand in after meld (scored as a forfeit)"
    )

    # One per page shown: the same form sent twice (a double tap, a resent form) starts one game.
    # Signed for the browser it was shown to (``holder``): no other browser can use it.
    start_token = forms.CharField(
        widget=forms.HiddenInput,
        max_length=64,
        validators=[TOKEN_FORMAT],
        error_messages=_token_refusals(STALE_FORM),
    )

    RULES = ("target", "min_bid", "bid_increment", "pass_cards", "last_trick")
    BOXES = ("trump_requires_marriage", "must_overtrump", "head_the_trick", "bidder_may_concede")

    def __init__(self, variant: Variant, *args: Any, holder: str, **kwargs: Any) -> None:
        initial = kwargs.get("initial", self.defaults_of(variant))
        kwargs["initial"] = {"start_token": new_start_token(holder), **initial}
        super().__init__(*args, **kwargs)
        self.holder = holder
        choice_field(self, "strength").choices = [
            (name, STRENGTH_WORDS.get(name, name)) for name in PRACTICE_STRENGTHS
        ]
        if not variant.partnerships:
            del self.fields["pass_cards"]

    @staticmethod
    def defaults_of(variant: Variant) -> dict[str, Any]:
        rules = variant.defaults
        return {
            "variant": variant.id,
            "strength": DEFAULT_STRENGTH if DEFAULT_STRENGTH in PRACTICE_STRENGTHS else PRACTICE_STRENGTHS[0],
            "target": rules.target,
            "min_bid": rules.min_bid,
            "bid_increment": str(rules.bid_increment),
            "pass_cards": str(rules.pass_cards),
            "last_trick": rules.last_trick,
            "trump_requires_marriage": rules.trump_requires_marriage,
            "must_overtrump": rules.must_overtrump,
            "head_the_trick": rules.play_mode == HEAD,
            "bidder_may_concede": rules.bidder_may_concede,
        }

    def clean_start_token(self) -> str:
        token: str = self.cleaned_data["start_token"]
        if not start_token_holds(token, self.holder):
            raise forms.ValidationError(STALE_FORM, code="invalid")
        return token

    def renew_token(self) -> None:
        """A refused token is replaced, so the form shown again can start a game."""
        self.data = data = self.data.copy()  # type: ignore[attr-defined]  # a QueryDict, or a dict
        data["start_token"] = new_start_token(self.holder)

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in (*self.RULES, *self.BOXES) if name in self.fields]

    def overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        values = {
            key: data[key]
            for key in (*self.RULES, "trump_requires_marriage", "must_overtrump", "bidder_may_concede")
            if key in data
        }
        values["play_mode"] = HEAD if data["head_the_trick"] else FOLLOW
        return values

    @property
    def chosen_variant(self) -> Variant:
        return get_variant(self.cleaned_data["variant"])


class ReplayForm(forms.Form):
    """A hand review's replay button: its one-time token, signed for the browser it was shown to
    (``holder``). Checked here, before it reaches the database: a token this browser was never
    shown (another browser's, too long for the column, with a NUL) starts nothing."""

    start_token = forms.CharField(
        max_length=64, validators=[TOKEN_FORMAT], error_messages=_token_refusals(STALE_REPLAY)
    )

    def __init__(self, *args: Any, holder: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.holder = holder

    def clean_start_token(self) -> str:
        token: str = self.cleaned_data["start_token"]
        if not start_token_holds(token, self.holder):
            raise forms.ValidationError(STALE_REPLAY, code="invalid")
        return token


def variant_from(value: str | None) -> Variant:
    """The variant a query names, or classic."""
    return VARIANTS.get(value or "", VARIANTS["classic"])


__all__ = ["PracticeForm", "ReplayForm", "variant_from"]


NONCE_LENGTH = 22  # secrets.token_urlsafe(16)
TOKEN_SALT = "scorepad.practice.start-token"


def _signature(nonce: str, holder: str) -> str:
    return salted_hmac(TOKEN_SALT, f"{holder}:{nonce}", algorithm="sha256").hexdigest()[:32]


def new_start_token(holder: str) -> str:
    """A one-time token for a start or replay form, valid only for ``holder`` (the browser's)."""
    nonce = secrets.token_urlsafe(16)
    return nonce + _signature(nonce, holder)


def start_token_holds(token: str, holder: str) -> bool:
    """Whether ``token`` was made for ``holder``: one copied from another browser is refused."""
    nonce, signature = token[:NONCE_LENGTH], token[NONCE_LENGTH:]
    return len(nonce) == NONCE_LENGTH and constant_time_compare(signature, _signature(nonce, holder))
