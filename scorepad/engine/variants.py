"""The three variants of RULES.md as data, and their house-rule settings (§4).

Everything that differs between ``classic``, ``double-deck`` and ``six-handed`` lives
here: the deck, the seats and sides, the meld table and the default settings. Rules code
reads these values instead of asking which variant it is playing.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from .cards import ACE, CODES, JACK, KING, NINE, QUEEN, RANKS, TEN, Card, CardError, Rank, card

# The §4 settings whose values are words, each as the words its JSON allows (in the catalogue's order).
type BidSteps = Literal["1 below 60, then 5"]
type RunExtraKQ = Literal["half", "strict", "marry"]
type DoubleAroundScale = Literal["×10", "two_singles", "table"]
type TieBreak = Literal["co-winners", "bidder", "play_on"]
type AllPass = Literal["dealer_forced", "redeal"]
type NoMarriagePenalty = Literal["lose_bid"]
type ForfeitOpponents = Literal["nothing", "meld20", "meld20+25", "meld20+50"]
type PlayMode = Literal["HEAD", "FOLLOW"]
type CountSystem = Literal["AKT=1", "A,T=10;K,Q=5", "A=11,T=10,K=4,Q=3,J=2", "A,T,K=10"]
type DoubleRoyalMarriage = Literal["additive", "30"]
type RoundhouseMode = Literal["label", "bonus"]
type SetPenalty = Literal["bid", "double_bid"]
type MisdealNines = Literal["off", "5+ nines", "5 nines and no ace"]
type RenegePenalty = Literal["none", "set_bid", "lose_hand"]

BID_STEPS_1_THEN_5: BidSteps = "1 below 60, then 5"
HEAD: PlayMode = "HEAD"
FOLLOW: PlayMode = "FOLLOW"

# Counter values per rank A T K Q J 9, keyed by the §4 `count_system` names.
COUNT_SYSTEMS: dict[CountSystem, tuple[int, int, int, int, int, int]] = {
    "AKT=1": (1, 1, 1, 0, 0, 0),
    "A,T=10;K,Q=5": (10, 10, 5, 5, 0, 0),
    "A=11,T=10,K=4,Q=3,J=2": (11, 10, 4, 3, 2, 0),
    "A,T,K=10": (10, 10, 10, 0, 0, 0),
}


class SettingsError(ValueError):
    """A setting that does not exist or has a value RULES.md §4 does not allow."""


@dataclass(frozen=True, slots=True)
class Settings:
    """One game's house rules: every key of RULES.md §4, with that key's JSON name."""

    target: int
    min_bid: int
    bid_increment: int | BidSteps
    pass_cards: int
    run_extra_kq: RunExtraKQ
    double_around_scale: DoubleAroundScale
    last_trick: int
    bidder_out: bool
    tie_break: TieBreak
    pass_is_final: bool = True
    all_pass: AllPass = "dealer_forced"
    single_round_bidding: bool = False
    trump_requires_marriage: bool = False
    no_marriage_penalty: NoMarriagePenalty = "lose_bid"
    forfeit_opponents: ForfeitOpponents = "nothing"
    bidder_may_concede: bool = False
    play_mode: PlayMode = HEAD
    head_partner_exempt: bool = False
    must_overtrump: bool = True
    must_trump_when_void: bool = True
    bidder_must_lead_trump: bool = False
    meld_requires_trick: bool = True
    rule_of_20: tuple[int, int] | None = None
    bidders_short_meld_play_out: bool = False
    count_system: CountSystem = "AKT=1"
    double_royal_marriage: DoubleRoyalMarriage = "additive"
    roundhouse_mode: RoundhouseMode = "label"
    double_roundhouse: int = 160
    npa_values: bool = False
    set_penalty: SetPenalty = "bid"
    misdeal_nines: MisdealNines = "off"
    renege_penalty: RenegePenalty = "none"

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        if self.rule_of_20 is not None:
            data["rule_of_20"] = list(self.rule_of_20)
        return data

    def changes(self, defaults: Settings) -> dict[str, Any]:
        """Only the keys that differ from ``defaults``: what a game record needs to store."""
        mine, theirs = self.to_json(), defaults.to_json()
        return {key: value for key, value in mine.items() if theirs[key] != value}

    @property
    def counter_values(self) -> tuple[int, ...]:
        return COUNT_SYSTEMS[self.count_system]

    def next_bid_step(self, current: int) -> int:
        """How much a bid must exceed ``current`` by (§4 `bid_increment`)."""
        if self.bid_increment == BID_STEPS_1_THEN_5:
            return 1 if current < 60 else 5
        return int(self.bid_increment)

    def bid_on_increment(self, bid: int) -> bool:
        """Whether ``bid`` is reachable from the minimum in whole increments."""
        if bid < self.min_bid:
            return False
        if self.bid_increment == BID_STEPS_1_THEN_5:
            return bid < 60 or bid % 5 == 0
        return (bid - self.min_bid) % int(self.bid_increment) == 0


# Allowed values per key; a callable checks the value instead of a fixed choice.
def _words(alias: Any) -> tuple[str, ...]:
    """The words a ``Literal`` type alias above allows, in its order."""
    return get_args(alias.__value__)


_CHOICES: dict[str, tuple[Any, ...]] = {
    "bid_increment": (1, 5, 10, BID_STEPS_1_THEN_5),
    "pass_cards": (0, 3, 4),
    "run_extra_kq": _words(RunExtraKQ),
    "double_around_scale": _words(DoubleAroundScale),
    "tie_break": _words(TieBreak),
    "all_pass": _words(AllPass),
    "no_marriage_penalty": _words(NoMarriagePenalty),
    "forfeit_opponents": _words(ForfeitOpponents),
    "play_mode": _words(PlayMode),
    "count_system": _words(CountSystem),
    "double_royal_marriage": _words(DoubleRoyalMarriage),
    "roundhouse_mode": _words(RoundhouseMode),
    "double_roundhouse": (160, 240),
    "set_penalty": _words(SetPenalty),
    "misdeal_nines": _words(MisdealNines),
    "renege_penalty": _words(RenegePenalty),
}


def setting_choices(key: str) -> tuple[Any, ...]:
    """The values §4 allows for ``key``, in the catalogue's order (for forms that offer them)."""
    if key not in _CHOICES:
        raise SettingsError(f"{key!r} has no fixed list of values")
    return _CHOICES[key]


_ALIASES: dict[str, dict[Any, Any]] = {
    "double_around_scale": {"x10": "×10"},
    "double_royal_marriage": {30: "30"},
}
_POSITIVE_INTS = ("target", "min_bid")
_NON_NEGATIVE_INTS = ("last_trick",)


def _check_setting(key: str, value: Any, kind: Any) -> Any:
    if key == "rule_of_20":
        if value is None or value is False or value == "off":
            return None
        if (
            isinstance(value, (list, tuple))
            and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
        ):
            return (value[0], value[1])
        raise SettingsError("rule_of_20 must be null or [meld, tricks], two whole numbers")
    if key in _ALIASES and isinstance(value, (str, int)):
        value = _ALIASES[key].get(value, value)
    if key in _CHOICES:
        if value not in _CHOICES[key] or isinstance(value, bool):
            allowed = ", ".join(str(choice) for choice in _CHOICES[key])
            raise SettingsError(f"{key} must be one of {allowed}; got {value!r}")
        return value
    if kind is bool or kind == "bool":
        if not isinstance(value, bool):
            raise SettingsError(f"{key} must be true or false; got {value!r}")
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise SettingsError(f"{key} must be a whole number; got {value!r}")
    if key in _POSITIVE_INTS and value <= 0:
        raise SettingsError(f"{key} must be above 0; got {value}")
    if key in _NON_NEGATIVE_INTS and value < 0:
        raise SettingsError(f"{key} must not be negative; got {value}")
    return value


def _flat_ints(value: object) -> list[int]:
    if isinstance(value, int):
        return [value]
    if isinstance(value, tuple):
        return [number for item in value for number in _flat_ints(item)]
    return []  # None: a scale this variant does not have


@dataclass(frozen=True, slots=True)
class MeldTable:
    """Points per meld; tuples are indexed by how many of the meld a hand holds (0, 1, 2 …)."""

    run: tuple[int, ...]
    royal_marriage: int
    marriage: int
    dix: int
    pinochle: tuple[int, ...]
    arounds: tuple[tuple[int, ...], ...]  # aces, kings, queens, jacks
    extra_trump_kq: int = 0  # each extra trump K or Q beside a run, under `run_extra_kq` "half" (§1.4)
    double_royal_marriage: int = 0  # two royal marriages under `double_royal_marriage` "30" (§4)
    npa_run: int | None = None  # a single run under `npa_values` (§4); None: this variant has no NPA scale
    npa_pinochle: int | None = None  # a single pinochle under `npa_values`

    def around(self, rank: Rank) -> tuple[int, ...]:
        return self.arounds[(ACE, KING, QUEEN, JACK).index(rank)]


@functools.cache
def _meld_unit(table: MeldTable) -> int:
    """Worked out once per table: every hand's check asks for it, and scoring a game checks every hand."""
    values = [number for f in dataclasses.fields(MeldTable) for number in _flat_ints(getattr(table, f.name))]
    return math.gcd(*values) or 1


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant of RULES.md: its deck, seats, sides, meld table and default house rules."""

    id: str
    label: str
    ranks: tuple[Rank, ...]
    copies: int
    seats: int
    sides: tuple[tuple[int, ...], ...]
    meld_table: MeldTable
    defaults: Settings
    quick_targets: tuple[int, ...] = field(default=())
    # §1.8: when both sides reach the target in one hand the bidders win, whatever the scores.
    bidders_win_when_both_reach: bool = False

    @property
    def meld_unit(self) -> int:
        """Every meld total is a multiple of this: the common divisor of the table (10 in `six-handed`)."""
        return _meld_unit(self.meld_table)

    def trick_unit(self, settings: Settings) -> int:
        """Every side's trick points are a multiple of this (5 under `six-handed`'s count)."""
        return math.gcd(*settings.counter_values, settings.last_trick) or 1

    @property
    def deck_size(self) -> int:
        return len(self.ranks) * 4 * self.copies

    @property
    def hand_size(self) -> int:
        return self.deck_size // self.seats

    @property
    def partnerships(self) -> bool:
        return len(self.sides) < self.seats

    def side_of(self, seat: int) -> int:
        return seat % len(self.sides)

    def side_totals(self, per_seat: Sequence[int]) -> tuple[int, ...]:
        """Each side's sum of a per-seat count (meld shown by each seat → meld per side)."""
        return tuple(sum(per_seat[seat] for seat in side) for side in self.sides)

    def deck(self) -> list[Card]:
        """Every card of the deck, in canonical order (copies adjacent)."""
        return [card(rank, suit) for suit in range(4) for rank in self.ranks for _ in range(self.copies)]

    def trick_points_total(self, settings: Settings) -> int:
        """Every counter in the deck plus the last-trick bonus (§9.3: 25, 50, 240 by default)."""
        values = settings.counter_values
        return sum(values[rank] for rank in self.ranks) * 4 * self.copies + settings.last_trick

    def check_hand(self, cards: list[Card]) -> None:
        """Refuse what this deck cannot deal (§9.1): a missing rank, too many copies or cards."""
        for c in cards:
            if c % 6 not in self.ranks:
                raise CardError(f"{CODES[c]} is not in the {self.id} deck (it has no {RANKS[c % 6]}s)")
        for c in set(cards):
            if cards.count(c) > self.copies:
                raise CardError(f"{cards.count(c)} × {CODES[c]}: the {self.id} deck holds only {self.copies}")
        if len(cards) > self.hand_size:
            raise CardError(f"{len(cards)} cards: a {self.id} hand holds at most {self.hand_size}")

    def settings(self, overrides: Mapping[str, Any] | None = None) -> Settings:
        """This variant's defaults with ``overrides`` (JSON keys of §4) checked and applied."""
        if not overrides:
            return self.defaults
        if not isinstance(overrides, Mapping):
            raise SettingsError("settings must be an object of §4 keys")
        kinds = {f.name: f.type for f in dataclasses.fields(Settings)}
        checked = {}
        for key, value in overrides.items():
            if key not in kinds:
                raise SettingsError(f"unknown setting {key!r}")
            checked[key] = _check_setting(key, value, kinds[key])
        return dataclasses.replace(self.defaults, **checked)


_FULL_SUITS = (ACE, TEN, KING, QUEEN, JACK, NINE)

CLASSIC = Variant(
    id="classic",
    label="Classic (4 players, partners)",
    ranks=_FULL_SUITS,
    copies=2,
    seats=4,
    sides=((0, 2), (1, 3)),
    meld_table=MeldTable(
        run=(0, 15, 150),
        royal_marriage=4,
        marriage=2,
        dix=1,
        pinochle=(0, 4, 30),
        arounds=((0, 10, 100), (0, 8, 80), (0, 6, 60), (0, 4, 40)),
        extra_trump_kq=2,
        double_royal_marriage=30,
    ),
    defaults=Settings(
        target=150,
        min_bid=20,
        bid_increment=1,
        pass_cards=4,
        run_extra_kq="half",
        double_around_scale="×10",
        last_trick=1,
        bidder_out=False,
        tie_break="bidder",
    ),
    quick_targets=(50, 150),
    bidders_win_when_both_reach=True,
)

DOUBLE_DECK = Variant(
    id="double-deck",
    label="Double-deck (4 players, partners)",
    ranks=(ACE, TEN, KING, QUEEN, JACK),
    copies=4,
    seats=4,
    sides=((0, 2), (1, 3)),
    meld_table=MeldTable(
        run=(0, 15, 150, 225, 300),
        royal_marriage=4,
        marriage=2,
        dix=0,
        pinochle=(0, 4, 30, 60, 90),
        arounds=((0, 10, 100, 150, 200), (0, 8, 80, 120, 160), (0, 6, 60, 90, 120), (0, 4, 40, 60, 80)),
        extra_trump_kq=2,
        double_royal_marriage=30,
        npa_run=25,
        npa_pinochle=15,
    ),
    defaults=Settings(
        target=500,
        min_bid=50,
        bid_increment=1,
        pass_cards=0,
        run_extra_kq="strict",
        double_around_scale="table",
        last_trick=2,
        bidder_out=False,
        tie_break="bidder",
        trump_requires_marriage=True,
        forfeit_opponents="meld20",
        meld_requires_trick=False,
        rule_of_20=(20, 20),
    ),
    quick_targets=(500,),
)

SIX_HANDED = Variant(
    id="six-handed",
    label="Six-handed (Schoneboom family rules)",
    ranks=_FULL_SUITS,
    copies=2,
    seats=6,
    sides=((0,), (1,), (2,), (3,), (4,), (5,)),
    meld_table=MeldTable(
        run=(0, 150, 1500),
        royal_marriage=40,
        marriage=20,
        dix=10,
        pinochle=(0, 40, 300),
        arounds=((0, 100, 1000), (0, 80, 800), (0, 60, 600), (0, 40, 400)),
        extra_trump_kq=20,
        double_royal_marriage=300,
    ),
    defaults=Settings(
        target=1000,
        min_bid=50,
        bid_increment=10,
        pass_cards=0,
        run_extra_kq="strict",
        double_around_scale="×10",
        last_trick=0,
        bidder_out=False,
        tie_break="co-winners",
        play_mode=FOLLOW,
        must_overtrump=False,
        count_system="A,T=10;K,Q=5",
    ),
    quick_targets=(500, 1000),
)

VARIANTS: dict[str, Variant] = {v.id: v for v in (CLASSIC, DOUBLE_DECK, SIX_HANDED)}


def get_variant(variant_id: str) -> Variant:
    try:
        return VARIANTS[variant_id]
    except (KeyError, TypeError):
        known = ", ".join(VARIANTS)
        raise SettingsError(f"unknown variant {variant_id!r}: use {known}") from None
