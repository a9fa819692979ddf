"""Scoring hands and games: RULES.md §1.7–1.8, §2.3, §2.5, §2.8–2.9, §3.6–3.7, §0.7, §8, §9.3, §9.4.

``score_hand`` is the one hand-scoring function for every variant. It reads the rules from
``Settings`` (``meld_requires_trick``, ``rule_of_20``, ``trump_requires_marriage``,
``forfeit_opponents``, ``set_penalty``, ``bidders_short_meld_play_out``, ``bidder_may_concede``)
and never asks which variant it is playing. ``score_game`` scores the hands in order and runs the
game-end test (``winners_after_hand``) after each whole hand (§0.7).

Numbering in messages: hands count from 1, as players count them ("hand 1" is the first hand;
``RecordError.hand`` keeps the 0-based index). Seats and sides keep the numbers of §8 (from 0),
because those are the values the record itself holds (``"bidder": 1`` is seat 1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import SUITS, CardError, Suit, parse_suit
from .variants import BID_STEPS_1_THEN_5, Settings, SettingsError, Variant, get_variant

HAND_KEYS = ("bidder", "bid", "trump", "meld", "tricks", "took_trick")
_REQUIRED_HAND_KEYS = HAND_KEYS[:5]
RECORD_KEYS = ("variant", "settings", "hands")

# §4 `forfeit_opponents`: (meld the opponents need for it to score, points they get on top).
# The bonus stands for the trick points the forfeit took from them (half or all of a 50-point hand).
FORFEIT_OPPONENTS: dict[str, tuple[int, int] | None] = {
    "nothing": None,
    "meld20": (20, 0),
    "meld20+25": (20, 25),
    "meld20+50": (20, 50),
}
# §4 `set_penalty`: how many times the bid a set costs.
SET_PENALTY_FACTOR = {"bid": 1, "double_bid": 2}
_UNIT_WORDS = {5: "fives", 10: "tens"}
_COMES_IN = {"meld": "meld comes in", "tricks": "trick points come in"}


class RecordError(ValueError):
    """A hand record (§9.3) the scorer refuses; the message names the hand and the field in words."""

    def __init__(self, message: str, *, hand: int | None = None, field: str | None = None) -> None:
        self.hand = hand
        self.field = field
        self.detail = message
        where = "" if hand is None else f"hand {hand + 1}: "
        where += "" if field is None else f"{field}: "
        super().__init__(where + message)


# ---------------------------------------------------------------------------------------------
# The hand record (§9.3 hand object)


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as the table writes it down: the bid, the meld and trick points per side."""

    bidder: int  # a seat (§8)
    bid: int
    trump: Suit | None  # None: a bidder with no marriage where trump needs one (§2.3)
    meld: tuple[int, ...]  # per side
    tricks: tuple[int, ...] | None  # per side, counter points incl. last trick; None: not played
    took_trick: tuple[bool, ...] | None = None  # per side; None: a side took a trick iff it has points

    @classmethod
    def from_json(cls, data: object, hand_index: int) -> HandEntry:
        """Read one §9.3 hand object, refusing wrong keys and types (ranges are ``validate_hand``'s)."""
        if not isinstance(data, Mapping):
            raise RecordError("must be an object with bidder, bid, trump, meld and tricks", hand=hand_index)
        for key in data:
            if key not in HAND_KEYS:
                raise RecordError(
                    f"unknown field {key!r}: a hand has {', '.join(HAND_KEYS)}", hand=hand_index
                )
        for key in _REQUIRED_HAND_KEYS:
            if key not in data:
                raise RecordError("missing", hand=hand_index, field=key)
        tricks, took = data["tricks"], data.get("took_trick")
        return cls(
            bidder=_whole_number(data["bidder"], hand_index, "bidder"),
            bid=_whole_number(data["bid"], hand_index, "bid"),
            trump=_suit_or_none(data["trump"], hand_index),
            meld=_whole_numbers(data["meld"], hand_index, "meld"),
            tricks=None if tricks is None else _whole_numbers(tricks, hand_index, "tricks"),
            took_trick=None if took is None else _booleans(took, hand_index),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": None if self.trump is None else SUITS[self.trump],
            "meld": list(self.meld),
            "tricks": None if self.tricks is None else list(self.tricks),
        }
        if self.took_trick is not None:
            data["took_trick"] = list(self.took_trick)
        return data


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole_number(value: object, hand: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"must be a whole number; got {value!r}", hand=hand, field=field)
    return value


def _whole_numbers(value: object, hand: int, field: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_whole(item) for item in value):
        raise RecordError(
            f"must be a list of whole numbers, one per side; got {value!r}", hand=hand, field=field
        )
    return tuple(value)


def _booleans(value: object, hand: int) -> tuple[bool, ...]:
    if not isinstance(value, list) or not all(isinstance(item, bool) for item in value):
        raise RecordError(
            f"must be a list of true/false, one per side; got {value!r}", hand=hand, field="took_trick"
        )
    return tuple(value)


def _suit_or_none(value: object, hand: int) -> Suit | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RecordError(f"must be a suit (S, H, D or C) or null; got {value!r}", hand=hand, field="trump")
    try:
        return parse_suit(value)
    except CardError as error:
        raise RecordError(str(error), hand=hand, field="trump") from None


def took_tricks(entry: HandEntry) -> tuple[bool, ...]:
    """Whether each side won a trick: as entered, or else "has trick points" (§9.3)."""
    if entry.took_trick is not None:
        return entry.took_trick
    return tuple(points > 0 for points in entry.tricks or ())


# ---------------------------------------------------------------------------------------------
# Validation (§9.3 refusals); the web form shows each message beside its field


@dataclass(frozen=True, slots=True)
class Problem:
    """One refusal of the rules, as values: a form words it for its own fields and side names
    without taking the words apart. ``message`` is the record's wording ("side 1 has -4; …")."""

    field: str  # the §9.3 key it is about
    words: str  # what is wrong: after the side ("has -4; …") when ``side`` is set, else after the field
    side: int | None = None  # the side it is about, when it is about one side
    unplayed: bool = False  # trick points given for a hand that is not played; ``words`` say why not

    @property
    def message(self) -> str:
        if self.side is not None:
            return f"side {self.side} {self.words}"
        return f"must be null: {self.words}" if self.unplayed else self.words


def validate_hand(variant: Variant, settings: Settings, entry: HandEntry) -> list[Problem]:
    """Every problem with ``entry``; empty when ``score_hand`` may score it."""
    problems = [
        *_bid_problems(settings, entry.bid),
        *_bidder_problems(variant, entry.bidder),
        *_trump_problems(settings, entry.trump),
        *_per_side_problems(variant, "meld", entry.meld, variant.meld_unit),
    ]
    # Whether the hand had to be played can only be judged from a sound bidder, trump and meld.
    play = _play_problems(variant, settings, entry) if not problems else []
    return problems + (play or _tricks_problems(variant, settings, entry))


def _bid_problems(settings: Settings, bid: int) -> list[Problem]:
    if bid < settings.min_bid:
        return [Problem("bid", f"{bid} is under the minimum bid of {settings.min_bid}")]
    if not settings.bid_on_increment(bid):
        return [Problem("bid", f"{bid} is off the increment: bids go {_bid_steps(settings)}")]
    return []


def _bid_steps(settings: Settings) -> str:
    if settings.bid_increment == BID_STEPS_1_THEN_5:
        return "up by 1 below 60, then by 5"
    step, low = int(settings.bid_increment), settings.min_bid
    return f"{low}, {low + step}, {low + 2 * step} …"


def _bidder_problems(variant: Variant, bidder: int) -> list[Problem]:
    if 0 <= bidder < variant.seats:
        return []
    return [Problem("bidder", f"seat {bidder} is out of range: seats are 0 to {variant.seats - 1}")]


def _trump_problems(settings: Settings, trump: Suit | None) -> list[Problem]:
    if trump is None and not settings.trump_requires_marriage:
        return [Problem("trump", "missing: the bidder names a trump suit every hand under these rules")]
    if trump is not None and trump not in range(len(SUITS)):
        return [Problem("trump", f"{trump!r} is not a suit")]
    return []


def _per_side_problems(variant: Variant, field: str, values: Sequence[int], unit: int) -> list[Problem]:
    sides = len(variant.sides)
    if len(values) != sides:
        return [Problem(field, f"has {len(values)} entries; give one per side ({sides})")]
    problems: list[Problem] = []
    for side, value in enumerate(values):
        if value < 0:
            problems.append(Problem(field, f"has {value}; it cannot be negative", side))
        elif value % unit:
            in_units = _UNIT_WORDS.get(unit, f"multiples of {unit}")
            problems.append(Problem(field, f"has {value}; {_COMES_IN[field]} {in_units}", side))
    return problems


def _play_problems(variant: Variant, settings: Settings, entry: HandEntry) -> list[Problem]:
    """`tricks` null exactly when the hand was not played (§9.3): no marriage, or short meld (§2.3, §2.5)."""
    unplayed = _not_played_because(settings, entry, variant.side_of(entry.bidder))
    if entry.tricks is not None and unplayed is not None:
        return [Problem("tricks", f"{unplayed}, so the hand is not played", unplayed=True)]
    if entry.tricks is None and unplayed is None and not settings.bidder_may_concede:
        total = variant.trick_points_total(settings)
        words = f"missing: the hand is played, so give each side's points (adding up to {total})"
        return [Problem("tricks", words)]
    return []


def _tricks_problems(variant: Variant, settings: Settings, entry: HandEntry) -> list[Problem]:
    """The trick points' shape: one per side, none negative, in the count's units, adding up (§9.3)."""
    if entry.tricks is None:
        if entry.took_trick is not None:
            return [Problem("took_trick", "given for a hand that was not played (tricks is null)")]
        return []
    problems = _per_side_problems(variant, "tricks", entry.tricks, variant.trick_unit(settings))
    total = variant.trick_points_total(settings)
    if not problems and sum(entry.tricks) != total:
        words = f"add up to {sum(entry.tricks)}; a hand's trick points add up to {total}"
        problems.append(Problem("tricks", words))
    if not problems and entry.took_trick is not None:
        problems += _took_trick_problems(variant, entry.tricks, entry.took_trick)
    return problems


def _took_trick_problems(variant: Variant, tricks: Sequence[int], took: Sequence[bool]) -> list[Problem]:
    if len(took) != len(variant.sides):
        return [Problem("took_trick", f"has {len(took)} entries; give one per side ({len(variant.sides)})")]
    return [
        Problem("took_trick", f"has {points} trick points, so it took a trick", side)
        for side, (points, took_one) in enumerate(zip(tricks, took, strict=True))
        if points > 0 and not took_one
    ]


# ---------------------------------------------------------------------------------------------
# Hand scoring


@dataclass(frozen=True, slots=True)
class HandScore:
    """What one hand changes: each side's score, and why in words a player understands."""

    scores: tuple[int, ...]  # per side
    made: bool  # the bidders made their bid
    played: bool  # tricks were played
    reasons: tuple[str, ...]  # per side


def _bidders_short_meld(settings: Settings, meld: int) -> str | None:
    """`rule_of_20`: "meld 16 is under 20" when the bidders' meld is too short to play on (§2.5)."""
    if settings.rule_of_20 is None or meld >= settings.rule_of_20[0]:
        return None
    return f"meld {meld} is under {settings.rule_of_20[0]}"


def short_meld_stops_play(settings: Settings, bidders_meld: int) -> bool:
    """§2.5: bidders short of the `rule_of_20` meld forfeit before the lead, and the hand is not
    played, unless the table plays it out (`bidders_short_meld_play_out`). The game state and the
    scorer both ask here, so a hand the engine plays is one the scorer expects to be played."""
    short = _bidders_short_meld(settings, bidders_meld) is not None
    return short and not settings.bidders_short_meld_play_out


def _not_played_because(settings: Settings, entry: HandEntry, bidders: int) -> str | None:
    """Why the rules stop this hand before the lead (§2.3 no marriage, §2.5 short meld); else None."""
    if entry.trump is None:  # valid only where trump needs a marriage (`trump_requires_marriage`)
        return "the bidder has no marriage"
    if short_meld_stops_play(settings, entry.meld[bidders]):
        return f"the bidders' {_bidders_short_meld(settings, entry.meld[bidders])}"
    return None


def _forfeit_reason(settings: Settings, entry: HandEntry, bidders: int) -> str | None:
    """The "forfeit: …" reason when the bidders lose the bid whatever the play, or without play; else None."""
    if entry.trump is None:
        return "forfeit: no marriage"
    short = _bidders_short_meld(settings, entry.meld[bidders])
    if short:  # under `bidders_short_meld_play_out` the hand is played, for the opponents' sake
        return f"forfeit: {short}"
    if entry.tricks is None:  # `bidder_may_concede`: thrown in before the lead, scored as a forfeit
        return "conceded: loses the bid"
    return None


def score_hand(variant: Variant, settings: Settings, entry: HandEntry) -> HandScore:
    """Score one validated hand (§1.7, §2.3, §2.5, §2.8, §3.6) from the rules in ``settings``."""
    bidders = variant.side_of(entry.bidder)
    made, bidders_result = _score_bidders(settings, entry, bidders)
    results = [
        bidders_result if side == bidders else _score_other_side(settings, entry, side)
        for side in range(len(entry.meld))
    ]
    return HandScore(
        scores=tuple(score for score, _ in results),
        made=made,
        played=entry.tricks is not None,
        reasons=tuple(reason for _, reason in results),
    )


def _side_take(settings: Settings, meld: int, points: int, took: bool) -> tuple[int | None, int, list[str]]:
    """What a side takes from a played hand: (meld credit + points, meld credit, why meld was lost).

    The total is None when `rule_of_20` voids the whole hand for the side: trick points under the
    threshold, and "even their meld points are not counted" (§2.8).
    """
    if settings.rule_of_20 is not None and points < settings.rule_of_20[1]:
        return None, 0, []
    if settings.meld_requires_trick and not took:  # §1.7, §3.3: no trick, no meld (either side)
        return points, 0, ["took no trick: meld lost" if meld else "took no trick"]
    if settings.rule_of_20 is not None and meld < settings.rule_of_20[0]:  # §2.5: meld under 20 is void
        return points, 0, [f"meld void: under {settings.rule_of_20[0]}"] if meld else []
    return meld + points, meld, []


def _score_bidders(settings: Settings, entry: HandEntry, bidders: int) -> tuple[bool, tuple[int, str]]:
    """The bidding side: all it took if that reaches the bid, else it is set back (§1.7, §2.8, §3.6)."""
    forfeit = _forfeit_reason(settings, entry, bidders)
    if forfeit is not None:  # `no_marriage_penalty` "lose_bid"; §2.5 "scores −bid"
        return False, (-entry.bid, forfeit)
    assert entry.tricks is not None  # only a forfeit goes unplayed
    points = entry.tricks[bidders]
    total, _, notes = _side_take(settings, entry.meld[bidders], points, took_tricks(entry)[bidders])
    penalty = entry.bid * SET_PENALTY_FACTOR[settings.set_penalty]
    if total is None:
        threshold = settings.rule_of_20[1] if settings.rule_of_20 else 0
        return False, (-penalty, f"set: {points} in tricks is under {threshold}")
    if total >= entry.bid:
        return True, (total, "; ".join([*notes, f"made {total} of {entry.bid}"]))
    set_words = f"set: {total} is short of {entry.bid}"
    if penalty != entry.bid:
        set_words += f", losing {penalty}"
    return False, (-penalty, "; ".join([*notes, set_words]))


def _score_other_side(settings: Settings, entry: HandEntry, side: int) -> tuple[int, str]:
    if entry.tricks is None:
        return _opponents_after_forfeit(settings, entry.meld[side])
    meld, points = entry.meld[side], entry.tricks[side]
    total, credit, notes = _side_take(settings, meld, points, took_tricks(entry)[side])
    if total is None:
        threshold = settings.rule_of_20[1] if settings.rule_of_20 else 0
        return 0, f"under {threshold} in tricks: nothing scores"
    return total, "; ".join([*notes, *_what_scored(credit, points)]) or "took nothing"


def _what_scored(credit: int, points: int) -> list[str]:
    if credit and points:
        return [f"meld {credit} + {points} in tricks = {credit + points}"]
    if credit:
        return [f"meld {credit}"]
    return [f"{points} in tricks"] if points else []


def _opponents_after_forfeit(settings: Settings, meld: int) -> tuple[int, str]:
    """§2.3 / §2.5 with `forfeit_opponents`: their meld if it reaches 20, plus any bonus."""
    rule = FORFEIT_OPPONENTS[settings.forfeit_opponents]
    if rule is None:
        return 0, "nothing scores on a forfeit"
    threshold, bonus = rule
    credit = meld if meld >= threshold else 0
    notes = [f"meld void: under {threshold}"] if 0 < meld < threshold else []
    notes += [f"meld {credit}"] if credit else []
    notes += [f"{bonus} for the forfeit"] if bonus else []
    return credit + bonus, "; ".join(notes) or "nothing scores on a forfeit"


# ---------------------------------------------------------------------------------------------
# Game end (§0.7, §1.8, §2.9, §3.7) and the dealer (§8)


def winners_after_hand(
    variant: Variant,
    settings: Settings,
    totals_before: Sequence[int],
    totals_after: Sequence[int],
    bidder_side: int,
) -> tuple[int, ...]:
    """The winning sides once a hand is scored; empty while the game goes on.

    Reaching the target means ``total >= target`` after the hand (§0.7). The test looks at the
    totals after the hand only: a side already at the target before it is there because a tie
    kept the game going (`tie_break` "play_on"), and it is judged like any other. ``totals_before``
    is part of the signature so callers can pass the hand as a change; the rules don't need it.
    """
    del totals_before
    reached = [side for side, total in enumerate(totals_after) if total >= settings.target]
    if len(reached) <= 1:
        return tuple(reached)
    # §1.8 (classic's source) and `bidder_out` (§2.9): if the bidders are there, they win outright.
    if bidder_side in reached and (variant.bidders_win_when_both_reach or settings.bidder_out):
        return (bidder_side,)
    top = max(totals_after[side] for side in reached)  # §2.9, §3.7: the highest score wins
    leaders = tuple(side for side in reached if totals_after[side] == top)
    if len(leaders) == 1:
        return leaders
    return _break_tie(settings.tie_break, leaders, bidder_side)


def _break_tie(tie_break: str, leaders: tuple[int, ...], bidder_side: int) -> tuple[int, ...]:
    """`tie_break`: the bidders win a tie they are in; "play_on" plays another hand; else co-winners."""
    if tie_break == "bidder" and bidder_side in leaders:
        return (bidder_side,)
    if tie_break == "play_on":
        return ()
    return leaders


def dealer_for_hand(variant: Variant, first_dealer: int, hand_number: int) -> int:
    """The dealer of hand ``hand_number`` (from 0): the deal passes to the left each hand (§8)."""
    if not 0 <= first_dealer < variant.seats:
        raise ValueError(f"first dealer {first_dealer} is not a seat: seats are 0 to {variant.seats - 1}")
    if hand_number < 0:
        raise ValueError(f"hand number {hand_number} is negative: hands count from 0")
    return (first_dealer + hand_number) % variant.seats


def next_dealer(variant: Variant, dealer: int) -> int:
    """Who deals after ``dealer``: the seat on the left (§8)."""
    return dealer_for_hand(variant, dealer, 1)


# ---------------------------------------------------------------------------------------------
# A whole game (§9.3 record in, §9.4 scored game out)


@dataclass(frozen=True, slots=True)
class ScoredHand:
    entry: HandEntry
    score: HandScore
    totals: tuple[int, ...]  # running totals per side after this hand


@dataclass(frozen=True, slots=True)
class GameScore:
    variant: Variant
    settings: Settings
    hands: tuple[ScoredHand, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]  # sides; several only for a tie kept as co-winners

    def to_json(self) -> dict[str, Any]:
        """The scored game exactly as §9.4 writes it."""
        return {
            "variant": self.variant.id,
            "hands": [
                {
                    "scores": list(hand.score.scores),
                    "totals": list(hand.totals),
                    "made": hand.score.made,
                    "played": hand.score.played,
                }
                for hand in self.hands
            ],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
        }


def score_game(variant: Variant, settings: Settings, entries: Sequence[HandEntry]) -> GameScore:
    """Score the hands in order, testing for the end of the game after each one (§0.7).

    Raises ``RecordError`` naming the first invalid hand and field, or a hand played after the
    game was already won.
    """
    totals = (0,) * len(variant.sides)
    scored: list[ScoredHand] = []
    winners: tuple[int, ...] = ()
    for index, entry in enumerate(entries):
        if winners:
            sides = " and ".join(f"side {side}" for side in winners)
            raise RecordError(f"the game was already won by {sides} after hand {index}", hand=index)
        problems = validate_hand(variant, settings, entry)
        if problems:
            raise RecordError(problems[0].message, hand=index, field=problems[0].field)
        score = score_hand(variant, settings, entry)
        after = tuple(total + change for total, change in zip(totals, score.scores, strict=True))
        winners = winners_after_hand(variant, settings, totals, after, variant.side_of(entry.bidder))
        scored.append(ScoredHand(entry=entry, score=score, totals=after))
        totals = after
    return GameScore(variant, settings, tuple(scored), totals, finished=bool(winners), winners=winners)


def parse_record(data: object) -> tuple[Variant, Settings, list[HandEntry]]:
    """Read a §9.3 record; refuse it with a ``RecordError`` naming the field (and hand)."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object with variant, settings and hands")
    for key in data:
        if key not in RECORD_KEYS:
            raise RecordError(f"unknown field {key!r}: a record has {', '.join(RECORD_KEYS)}")
    if "variant" not in data:
        raise RecordError("missing", field="variant")
    try:
        variant = get_variant(data["variant"])
    except SettingsError as error:
        raise RecordError(str(error), field="variant") from None
    overrides = data.get("settings")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RecordError(f"must be an object of house-rule keys (§4); got {overrides!r}", field="settings")
    try:
        settings = variant.settings(overrides)
    except SettingsError as error:
        raise RecordError(str(error), field="settings") from None
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise RecordError(f"must be a list of hand objects; got {hands!r}", field="hands")
    return variant, settings, [HandEntry.from_json(hand, index) for index, hand in enumerate(hands)]


def score_record(data: object) -> dict[str, Any]:
    """A §9.3 record in, the §9.4 scored game out."""
    variant, settings, entries = parse_record(data)
    return score_game(variant, settings, entries).to_json()
