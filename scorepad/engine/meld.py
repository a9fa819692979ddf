"""Meld: RULES.md §0.5 (classes and overlap), §0.6 (the counting algorithm), the meld tables of
§1.4, §2.4 and §3.3, the meld settings of §4 and the result format of §9.2.

Each rule is one small function named as RULES.md names it (``runs``, ``trump_kq_rule``,
``marriages``, ``arounds``, ``pinochle``, ``dix``, ``roundhouse``). They work on ``n``, the 24
card counts of a hand (``cards.counts_of``), and on a ``MeldScale``: the variant's meld table
with the game's settings already applied, built once per (variant, settings).

``count_meld`` calls the rules one by one and returns the breakdown. ``meld_points``, the path
bots call thousands of times, inlines the one-line rules and reads the trump suit's Class I from a
table that ``_MeldCounter`` fills by calling ``trump_melds`` itself; a hypothesis test pins the
two equal on random hands under random settings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    ACE,
    CARD_COUNT,
    CODES,
    DIAMONDS,
    JACK,
    KING,
    NINE,
    QUEEN,
    RANKS,
    SPADES,
    SUIT_SYMBOLS,
    SUITS,
    TEN,
    Card,
    Rank,
    Suit,
    card,
    parse_card,
)
from .variants import Settings, Variant

# §9.2 names, in the order a breakdown lists them.
RUN = "run"
ROYAL_MARRIAGE = "royal marriage"
EXTRA_TRUMP_KQ = "extra trump king or queen"
MARRIAGE = "marriage"
DIX = "dix"
PINOCHLE = "pinochle"
AROUND_NAMES = {ACE: "aces around", KING: "kings around", QUEEN: "queens around", JACK: "jacks around"}
AROUND_RANKS = (ACE, KING, QUEEN, JACK)  # the order of MeldTable.arounds
# Shown only under non-default settings, which add points that §9.2's names do not cover.
ROUNDHOUSE = "roundhouse"  # roundhouse_mode "bonus": the roundhouse's value once more
DOUBLE_ROUNDHOUSE = "double roundhouse"  # double_roundhouse 240: what it adds to the 160 of its parts

QUEEN_OF_SPADES = card(QUEEN, SPADES)
JACK_OF_DIAMONDS = card(JACK, DIAMONDS)
RUN_RANKS = (ACE, TEN, KING, QUEEN, JACK)

Counts = Sequence[int]


@dataclass(frozen=True, slots=True)
class MeldLine:
    name: str
    count: int
    points: int


@dataclass(frozen=True, slots=True)
class MeldResult:
    total: int
    melds: tuple[MeldLine, ...]
    labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrumpMelds:
    """Class I in the trump suit as declared: runs, royal marriages and `classic`'s extra K/Q."""

    runs: int
    royal_marriages: int
    extras: int  # extra trump K/Q scored one by one (run_extra_kq "half")
    points: int


# ---------------------------------------------------------------- the scale of one game


@dataclass(frozen=True, slots=True)
class MeldScale:
    """A variant's meld table with one game's meld settings applied (§4); tuples by count."""

    run: tuple[int, ...]
    royal_marriage: tuple[int, ...]
    extra_trump_kq: int  # 0 unless run_extra_kq is "half"
    run_extra_kq: str
    marriage: int
    dix: int
    pinochle: tuple[int, ...]
    arounds: tuple[tuple[int, ...], ...]  # aces, kings, queens, jacks
    roundhouse_bonus: bool
    double_roundhouse_extra: int

    @classmethod
    def of(cls, variant: Variant, settings: Settings) -> MeldScale:
        table = variant.meld_table
        top = variant.copies + 1
        run, pinochle = list(_padded(table.run, top)), list(_padded(table.pinochle, top))
        if settings.npa_values and table.npa_run is not None and table.npa_pinochle is not None:
            run[1], pinochle[1] = table.npa_run, table.npa_pinochle
        arounds = tuple(
            tuple(around_points(_padded(values, top), k, settings.double_around_scale) for k in range(top))
            for values in table.arounds
        )
        return cls(
            run=tuple(run),
            royal_marriage=tuple(
                royal_marriage_points(k, table.royal_marriage, table.double_royal_marriage, settings)
                for k in range(top)
            ),
            extra_trump_kq=table.extra_trump_kq if settings.run_extra_kq == "half" else 0,
            run_extra_kq=settings.run_extra_kq,
            marriage=table.marriage,
            dix=table.dix,
            pinochle=tuple(pinochle),
            arounds=arounds,
            roundhouse_bonus=settings.roundhouse_mode == "bonus",
            double_roundhouse_extra=max(0, settings.double_roundhouse - _double_roundhouse_parts(variant)),
        )


def _padded(values: tuple[int, ...], length: int) -> tuple[int, ...]:
    """A by-count table long enough for every count the deck allows (a short table repeats its top)."""
    return values + (values[-1],) * (length - len(values))


def royal_marriage_points(count: int, each: int, pair: int, settings: Settings) -> int:
    """Royal marriages are additive (§1.4), unless `double_royal_marriage` "30" prices two as a pair."""
    if settings.double_royal_marriage == "30" and pair and count >= 2:
        return pair + each * (count - 2)
    return each * count


def around_points(values: tuple[int, ...], k: int, scale: str) -> int:
    """Points for ``k`` complete arounds of one rank: the table's value replaces, never adds (§0.6).

    `double_around_scale` (§4): "table" reads the variant's table; "×10" makes a double ten
    singles (as the `classic` and `six-handed` tables already do); "two_singles" makes every
    k-fold around k singles.
    """
    if k == 0:
        return 0
    if scale == "two_singles":
        return k * values[1]
    if scale == "×10" and k == 2:
        return 10 * values[1]
    return values[k]


def _double_roundhouse_parts(variant: Variant) -> int:
    """A double roundhouse counted by its parts (§2.4: 80 + 60 + 2×4 + 3×2×2 = 160)."""
    table = variant.meld_table
    kings, queens = table.around(KING), table.around(QUEEN)
    if len(kings) < 3 or len(queens) < 3:
        return 0
    return kings[2] + queens[2] + 2 * table.royal_marriage + 6 * table.marriage


# ---------------------------------------------------------------- the rules, one function each


def runs(n: Counts, trump: Suit) -> int:
    """Complete runs, A T K Q J of trump (§0.6: ``min(n(A,t), n(T,t), n(K,t), n(Q,t), n(J,t))``)."""
    base = trump * 6
    return min(n[base + rank] for rank in RUN_RANKS)


def trump_kq_rule(declared_runs: int, kings: int, queens: int, scale: MeldScale) -> tuple[int, int]:
    """§0.6 TRUMP_KQ_RULE: (royal marriages, extra trump K/Q scored one by one) beside the runs.

    The K and Q inside a run are never a royal marriage themselves (§0.5, same class). What the
    extra ones earn is `run_extra_kq` (§1.4, §4): "strict" needs an extra K *and* Q; "half" scores
    each extra K and each extra Q on its own (2 each in `classic`); "marry" lets a run's K or Q
    marry a lone extra, one extra per run.
    """
    if declared_runs == 0:
        return min(kings, queens), 0
    extra_kings, extra_queens = kings - declared_runs, queens - declared_runs
    if scale.run_extra_kq == "half":
        return 0, extra_kings + extra_queens
    pairs = min(extra_kings, extra_queens)
    if scale.run_extra_kq == "marry":
        return pairs + min(abs(extra_kings - extra_queens), declared_runs), 0
    return pairs, 0


def trump_melds(n: Counts, trump: Suit, scale: MeldScale) -> TrumpMelds:
    """Class I in trump, declared to score most. Under the default settings that is always every
    complete run (§0.6's greedy argument); ``double_royal_marriage`` "30" can make two royal
    marriages worth more than a run, so each possible number of runs is tried."""
    base = trump * 6
    kings, queens = n[base + KING], n[base + QUEEN]
    best = TrumpMelds(0, 0, 0, -1)
    for declared in range(runs(n, trump), -1, -1):  # most runs first: they win a tie
        royal, extras = trump_kq_rule(declared, kings, queens, scale)
        points = scale.run[declared] + scale.royal_marriage[royal] + extras * scale.extra_trump_kq
        if points > best.points:
            best = TrumpMelds(declared, royal, extras, points)
    return best


def marriages(n: Counts, suit: Suit) -> int:
    """K-Q pairs of one plain suit (§0.6); a plain A-T-K-Q-J is no run, only its marriage."""
    return min(n[suit * 6 + KING], n[suit * 6 + QUEEN])


def dix(n: Counts, trump: Suit) -> int:
    """Nines of trump, counted card by card (`classic` and `six-handed`; `double-deck` has no 9)."""
    return n[trump * 6 + NINE]


def arounds(n: Counts, rank: Rank) -> int:
    """Complete arounds of one rank: the fewest copies of it in any suit (§0.6 Class II)."""
    return min(n[rank], n[6 + rank], n[12 + rank], n[18 + rank])


def pinochle(n: Counts) -> int:
    """Pinochles: Q♠ with J♦ (§0.6 Class III)."""
    return min(n[QUEEN_OF_SPADES], n[JACK_OF_DIAMONDS])


def roundhouse(n: Counts) -> int:
    """Roundhouses held (a K and Q in every suit, §0.6): 1 for a roundhouse, 2 for a double."""
    return min(arounds(n, KING), arounds(n, QUEEN))


def roundhouse_value(trump: Suit | None, trump_class_one: TrumpMelds, n: Counts, scale: MeldScale) -> int:
    """What one roundhouse is worth as the sum of its parts (§0.6): kings and queens around as
    counted, a marriage in each plain suit, and in trump a royal marriage or, when the trump K-Q
    sit in a run, the run (24, 35 with a run, 96 in C9). Scored again only under `bonus`."""
    plain_suits = 4 if trump is None else 3
    value = scale.arounds[1][arounds(n, KING)] + scale.arounds[2][arounds(n, QUEEN)]
    value += plain_suits * scale.marriage
    if trump is not None:
        value += scale.run[1] if trump_class_one.runs else scale.royal_marriage[1]
    return value


# ---------------------------------------------------------------- how far meld can go


def meld_ceiling(variant: Variant, settings: Settings) -> int:
    """More than any one hand's meld can be: every meld class at its most at once, as if every
    card served each class (§0.5 lets a card serve only some, so no hand reaches it)."""
    scale = _counter(variant, settings).scale
    copies = variant.copies
    most = max(scale.run) + max(scale.royal_marriage) + 2 * copies * scale.extra_trump_kq
    most += 4 * copies * scale.marriage + copies * scale.dix + max(scale.pinochle)
    most += sum(max(values) for values in scale.arounds)
    if scale.roundhouse_bonus:  # the roundhouse's parts once more (``roundhouse_value``)
        most += max(scale.arounds[1]) + max(scale.arounds[2]) + 4 * scale.marriage
        most += max(scale.run[1], scale.royal_marriage[1])
    return most + scale.double_roundhouse_extra


def hand_score_ceiling(variant: Variant, settings: Settings) -> int:
    """More than any side can score in one hand: its seats' meld ceilings and every trick point.
    No bid above it can be made, so none is allowed (``answers.check_answer``)."""
    seats = max(len(side) for side in variant.sides)
    return seats * meld_ceiling(variant, settings) + variant.trick_points_total(settings)


# ---------------------------------------------------------------- the breakdown


def count_meld(counts: Counts, trump: Suit | None, variant: Variant, settings: Settings) -> MeldResult:
    """The meld of one hand (§0.6) with its §9.2 breakdown; ``trump=None`` counts with no trump
    suit (§2.3): no run, royal marriage or dix, every K-Q a plain marriage."""
    scale = _counter(variant, settings).scale
    n = counts
    lines: list[MeldLine] = []
    trump_class_one = TrumpMelds(0, 0, 0, 0)
    if trump is not None:
        trump_class_one = trump_melds(n, trump, scale)
        _add(lines, RUN, trump_class_one.runs, scale.run[trump_class_one.runs])
        royal = trump_class_one.royal_marriages
        _add(lines, ROYAL_MARRIAGE, royal, scale.royal_marriage[royal])
        extras = trump_class_one.extras
        _add(lines, EXTRA_TRUMP_KQ, extras, extras * scale.extra_trump_kq)
    plain = sum(marriages(n, suit) for suit in range(4) if suit != trump)
    _add(lines, MARRIAGE, plain, plain * scale.marriage)
    if trump is not None:
        nines = dix(n, trump)
        _add(lines, DIX, nines, nines * scale.dix)
    held = pinochle(n)
    _add(lines, PINOCHLE, held, scale.pinochle[held])
    for index, rank in enumerate(AROUND_RANKS):
        k = arounds(n, rank)
        _add(lines, AROUND_NAMES[rank], k, scale.arounds[index][k])
    labels: tuple[str, ...] = ()
    roundhouses = roundhouse(n)
    if roundhouses:
        labels = (ROUNDHOUSE,)
        if scale.roundhouse_bonus:
            _add(lines, ROUNDHOUSE, 1, roundhouse_value(trump, trump_class_one, n, scale))
        if roundhouses >= 2:
            _add(lines, DOUBLE_ROUNDHOUSE, 1, scale.double_roundhouse_extra)
    return MeldResult(sum(line.points for line in lines), tuple(lines), labels)


def _add(lines: list[MeldLine], name: str, count: int, points: int) -> None:
    """§9.2 lists only melds that score."""
    if count and points:
        lines.append(MeldLine(name, count, points))


# ---------------------------------------------------------------- the fast path


class _MeldCounter:
    """``meld_points`` for one (variant, settings): the rules above read from flat tables.

    The trump suit's Class I depends only on (runs, kings, queens), so ``trump_melds`` is
    tabled for every count the deck allows; the other rules are a ``min`` and a lookup each.
    """

    __slots__ = ("arounds", "dix", "marriage", "pinochle", "scale", "simple", "trump_points")

    def __init__(self, variant: Variant, settings: Settings) -> None:
        self.scale = scale = MeldScale.of(variant, settings)
        top = variant.copies + 1
        self.trump_points = tuple(
            tuple(
                tuple(_trump_points_for(r, k, q, scale) if min(k, q) >= r else 0 for q in range(top))
                for k in range(top)
            )
            for r in range(top)
        )
        self.marriage = scale.marriage
        self.dix = scale.dix
        self.pinochle = scale.pinochle
        self.arounds = scale.arounds
        # Roundhouse extras exist only under non-default settings; leave them to count_meld.
        self.simple = not scale.roundhouse_bonus and not scale.double_roundhouse_extra

    def points(self, n: Counts, trump: Suit | None) -> int:
        married = min(n[2], n[3]) + min(n[8], n[9]) + min(n[14], n[15]) + min(n[20], n[21])
        total = married * self.marriage
        if trump is not None:
            total += self._trump_part(n, trump * 6)
        aces, kings_, queens_, jacks = self.arounds
        total += aces[min(n[0], n[6], n[12], n[18])] + kings_[min(n[2], n[8], n[14], n[20])]
        total += queens_[min(n[3], n[9], n[15], n[21])] + jacks[min(n[4], n[10], n[16], n[22])]
        return total + self.pinochle[min(n[3], n[16])]

    def points_by_trump(self, n: Counts) -> tuple[int, int, int, int]:
        """``points(n, suit)`` for each suit, the melds that do not depend on trump counted once."""
        common = self.points(n, None)
        part = self._trump_part
        return common + part(n, 0), common + part(n, 6), common + part(n, 12), common + part(n, 18)

    def _trump_part(self, n: Counts, b: int) -> int:
        """What naming the suit whose cards start at ``b`` adds to the meld: its Class I and dix,
        less the plain marriages its K-Q no longer are."""
        kings, queens = n[b + 2], n[b + 3]
        runs_held = min(n[b], n[b + 1], kings, queens, n[b + 4])
        return (
            self.trump_points[runs_held][kings][queens]
            + self.dix * n[b + 5]
            - min(kings, queens) * self.marriage
        )


def _trump_points_for(runs_held: int, kings: int, queens: int, scale: MeldScale) -> int:
    """``trump_melds`` for a trump suit holding exactly these runs, kings and queens."""
    n = [0] * CARD_COUNT
    n[ACE] = n[TEN] = n[JACK] = runs_held
    n[KING], n[QUEEN] = kings, queens
    return trump_melds(n, SPADES, scale).points


# One counter per (variant, settings) object. Keyed by identity because hashing two frozen
# dataclasses on every call would cost more than the count; the values keep the keys alive.
_COUNTERS: dict[tuple[int, int], tuple[Variant, Settings, _MeldCounter]] = {}
_COUNTER_LIMIT = 512


def _counter(variant: Variant, settings: Settings) -> _MeldCounter:
    key = (id(variant), id(settings))
    found = _COUNTERS.get(key)
    if found is not None:
        return found[2]
    if len(_COUNTERS) >= _COUNTER_LIMIT:
        _COUNTERS.clear()
    counter = _MeldCounter(variant, settings)
    _COUNTERS[key] = (variant, settings, counter)
    return counter


def meld_points(counts: Counts, trump: Suit | None, variant: Variant, settings: Settings) -> int:
    """``count_meld(...).total``, without building the breakdown."""
    counter = _counter(variant, settings)
    if counter.simple:
        return counter.points(counts, trump)
    return count_meld(counts, trump, variant, settings).total


def meld_points_by_trump(counts: Counts, variant: Variant, settings: Settings) -> tuple[int, ...]:
    """``meld_points`` with each suit as trump, in suit order: what the bots value a hand by, for
    every sampled deal of a bid analysis, so the melds every trump shares are counted once."""
    counter = _counter(variant, settings)
    if counter.simple:
        return counter.points_by_trump(counts)
    return tuple(count_meld(counts, suit, variant, settings).total for suit in range(4))


def best_trumps(counts: Counts, variant: Variant, settings: Settings) -> list[tuple[Suit, MeldResult]]:
    """Every suit as trump, most meld first; ties keep suit order S H D C."""
    results = [(suit, count_meld(counts, suit, variant, settings)) for suit in range(4)]
    return sorted(results, key=lambda pair: -pair[1].total)


# ---------------------------------------------------------------- cards shown (§9.6)


def shown_cards(counts: Counts, trump: Suit | None, variant: Variant, settings: Settings) -> tuple[Card, ...]:
    """The cards a player lays down to show the scoring melds (§9.6 ``shown``).

    Within a class the melds use different copies, so their needs add up; across classes a card
    may serve again (§0.5), so a card is shown as often as the class that needs it most.
    """
    n = counts
    result = count_meld(counts, trump, variant, settings)
    scoring = {line.name for line in result.melds}
    scale = _counter(variant, settings).scale
    need = [0] * CARD_COUNT
    for suit in range(4):
        if suit != trump and MARRIAGE in scoring:
            married = marriages(n, suit)
            need[suit * 6 + KING] = need[suit * 6 + QUEEN] = married
    if trump is not None:
        _trump_cards_needed(n, trump, scale, need)
    for rank in AROUND_RANKS:
        k = arounds(n, rank) if AROUND_NAMES[rank] in scoring else 0
        for suit in range(4):
            need[suit * 6 + rank] = max(need[suit * 6 + rank], k)
    if PINOCHLE in scoring:
        held = pinochle(n)
        need[QUEEN_OF_SPADES] = max(need[QUEEN_OF_SPADES], held)
        need[JACK_OF_DIAMONDS] = max(need[JACK_OF_DIAMONDS], held)
    return tuple(Card(c) for c in range(CARD_COUNT) for _ in range(need[c]))


def _trump_cards_needed(n: Counts, trump: Suit, scale: MeldScale, need: list[int]) -> None:
    base = trump * 6
    declared = trump_melds(n, trump, scale)
    extra_kings, extra_queens = n[base + KING] - declared.runs, n[base + QUEEN] - declared.runs
    if declared.extras and scale.extra_trump_kq:
        kings, queens = extra_kings, extra_queens  # "half": every extra K and Q scores
    else:
        kings = min(extra_kings, declared.royal_marriages)
        queens = min(extra_queens, declared.royal_marriages)
    for rank in (ACE, TEN, JACK):
        need[base + rank] = declared.runs
    need[base + KING] = declared.runs + kings
    need[base + QUEEN] = declared.runs + queens
    need[base + NINE] = dix(n, trump) if scale.dix else 0


# ---------------------------------------------------------------- cards in, JSON out (§9.1, §9.2)

_RANK_SPELLINGS = {rank: {letter, letter.lower()} for rank, letter in enumerate(RANKS)}
_RANK_SPELLINGS[TEN].add("10")
_SUIT_SPELLINGS = {suit: {letter, letter.lower()} for suit, letter in enumerate(SUITS)}
for _symbol, _letter in SUIT_SYMBOLS.items():
    _SUIT_SPELLINGS[SUITS.index(_letter)].add(_symbol)
# Every spelling §9.1 accepts, looked up whole; anything else goes through cards.parse_card.
_SPELLINGS: dict[str, Card] = {
    r + s: card(rank, suit)
    for rank, rank_spellings in _RANK_SPELLINGS.items()
    for suit, suit_spellings in _SUIT_SPELLINGS.items()
    for r in rank_spellings
    for s in suit_spellings
}


def parse_hand(cards: str | Iterable[str], variant: Variant) -> list[Card]:
    """A hand as §9.1 writes it, checked against the variant's deck; an empty hand is valid."""
    return _parse_hand_counts(cards, variant)[0]


def _parse_hand_counts(cards: str | Iterable[str], variant: Variant) -> tuple[list[Card], list[int]]:
    tokens = cards.replace(",", " ").split() if isinstance(cards, str) else cards
    spellings = _SPELLINGS
    hand = [spellings[t] if isinstance(t, str) and t in spellings else parse_card(str(t)) for t in tokens]
    counts = [0] * CARD_COUNT
    for c in hand:
        counts[c] += 1
    limits = _deck_limits(variant)
    if len(hand) > limits[0] or max(counts) > limits[1] or any(counts[c] for c in limits[2]):
        variant.check_hand(hand)  # raises, naming the card, as §9.1 asks
    return hand, counts


_DECK_LIMITS: dict[int, tuple[Variant, tuple[int, int, tuple[int, ...]]]] = {}


def _deck_limits(variant: Variant) -> tuple[int, int, tuple[int, ...]]:
    """(hand size, copies, cards not in the deck) for a quick check before the detailed one."""
    found = _DECK_LIMITS.get(id(variant))
    if found is None:
        missing = tuple(c for c in range(CARD_COUNT) if c % 6 not in variant.ranks)
        found = _DECK_LIMITS[id(variant)] = (variant, (variant.hand_size, variant.copies, missing))
    return found[1]


def meld_json(
    variant: Variant, trump: Suit | None, cards: Sequence[Card], result: MeldResult
) -> dict[str, Any]:
    """The §9.2 object. ``labels`` appears only when there is one (a roundhouse)."""
    data: dict[str, Any] = {
        "variant": variant.id,
        "trump": None if trump is None else SUITS[trump],
        "cards": [CODES[c] for c in sorted(cards)],
        "total": result.total,
        "melds": [{"name": line.name, "count": line.count, "points": line.points} for line in result.melds],
    }
    if result.labels:
        data["labels"] = list(result.labels)
    return data
