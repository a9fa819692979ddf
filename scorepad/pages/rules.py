"""The rules pages: a variant and one table's house rules (RULES.md §4) turned into what a page says.

Every number on a rules page is read here from the engine: the deck and seats from the
``Variant``, bidding, play and scoring from the ``Settings``, the meld table from the engine's
``MeldScale`` (the table the counter itself reads), the roundhouse and the worked examples by
counting and scoring them with ``count_meld`` and ``score_hand``. Templates only lay it out, so a
changed setting changes the page.

Each line names the settings it reads (``keys``); on a game's rules page a line whose setting
differs from the variant's default is marked. Words of the glossary are written ``[[term]]`` or
``[[shown words|term]]``; ``_link_first`` keeps the link on a term's first appearance on a page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine.cards import (
    ACE,
    JACK,
    KING,
    NINE,
    QUEEN,
    RANK_SHOWN,
    RANKS,
    SUIT_NAMES,
    SUITS,
    SYMBOL_OF_SUIT,
    card,
    cards_in_words,
    counts_of,
    parse_cards,
)
from ..engine.meld import (
    AROUND_RANKS,
    DIX,
    EXTRA_TRUMP_KQ,
    MARRIAGE,
    ROYAL_MARRIAGE,
    MeldLine,
    MeldScale,
    count_meld,
)
from ..engine.scoring import FORFEIT_OPPONENTS, SET_PENALTY_FACTOR, HandEntry, score_hand
from ..engine.variants import BID_STEPS_1_THEN_5, FOLLOW, HEAD, VARIANTS, Settings, Variant
from ..selectors.practice import seat_names
from .house_rules import house_rules_brief

COUNT_WORDS = ("", "single", "double", "triple", "quadruple")
RANK_PLURALS = {ACE: "aces", KING: "kings", QUEEN: "queens", JACK: "jacks"}
ROUNDHOUSE_CARDS = 8  # a K and a Q of each suit
ADDITIVE = (ROYAL_MARRIAGE, EXTRA_TRUMP_KQ, MARRIAGE, DIX)  # two of them are worth twice one
_TERM = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")


# -- what a page holds ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One rule in a sentence or two; ``changed`` when a setting it reads is a house rule."""

    text: str
    keys: tuple[str, ...] = ()
    changed: bool = False


@dataclass(frozen=True, slots=True)
class Section:
    slug: str
    title: str
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class MeldRow:
    """One meld of the table: points for one, two … of it in a hand (None: no hand holds that many)."""

    name: str
    cards: str
    values: tuple[int | None, ...]
    term: str | None = None  # its glossary entry
    changed: bool = False


@dataclass(frozen=True, slots=True)
class MeldExample:
    """A RULES.md §5 hand, counted by the engine under this table's rules."""

    label: str
    trump: str
    hand: str
    total: int
    breakdown: str


@dataclass(frozen=True, slots=True)
class ScoreExample:
    """A RULES.md §6 hand, scored by the engine under this table's rules."""

    label: str
    entry: str
    scores: str


@dataclass(frozen=True, slots=True)
class RulesPage:
    variant: Variant
    settings: Settings
    house_rules: tuple[tuple[str, str], ...]  # each difference from the defaults, and the default, in words
    sections: tuple[Section, ...]
    meld_counts: tuple[str, ...]  # the table's column heads: single, double …
    meld_rows: tuple[MeldRow, ...]
    meld_notes: tuple[Line, ...]
    meld_examples: tuple[MeldExample, ...]
    score_examples: tuple[ScoreExample, ...]


# -- small words --------------------------------------------------------------------------------------


def suit_words(suit: int) -> str:
    letter = SUITS[suit]
    return f"{SYMBOL_OF_SUIT[letter]} {SUIT_NAMES[letter]}"


def rank_words(rank: int) -> str:
    letter = RANKS[rank]
    return RANK_SHOWN.get(letter, letter)


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _seat_words(variant: Variant) -> str:
    if variant.partnerships:
        size = len(variant.sides[0])
        return (
            f"{variant.seats} players in {len(variant.sides)} partnerships of {size}; "
            "partners sit opposite each other."
        )
    return f"{variant.seats} players, each playing for themselves."


def _increment_words(settings: Settings) -> str:
    """How bids go up (§4 `bid_increment`): a bid must also land on the increment, not just exceed."""
    low = settings.min_bid
    if settings.bid_increment == BID_STEPS_1_THEN_5:
        return (
            "each bid must be at least 1 more than the bid before, and from 60 on bids go in fives "
            "(60, 65, 70 …)"
        )
    step = int(settings.bid_increment)
    if step == 1:
        return "each bid must be at least 1 more than the bid before"
    return f"bids go up in steps of {step} ({low}, {low + step}, {low + 2 * step} …)"


# -- the sections -----------------------------------------------------------------------------------


def _deck(variant: Variant, settings: Settings) -> Section:
    ranks = " ".join(rank_words(rank) for rank in variant.ranks)
    lines = [
        Line(_seat_words(variant)),
        Line(
            f"The deck has {variant.deck_size} cards: {variant.copies} copies of each of {ranks} "
            f"in each of the four suits ♠ ♥ ♦ ♣."
        ),
        Line(
            f"The dealer deals every card, {variant.hand_size} to each player; there is no widow. "
            "The deal moves one seat to the left each hand."
        ),
        Line(
            "Within a suit the cards rank A, 10, K, Q, J"
            + (", 9" if NINE in variant.ranks else "")
            + " from high to low: a ten beats a king. Identical cards are equal: the one played first wins."
        ),
    ]
    if settings.misdeal_nines != "off":
        no_ace = " and no ace" if settings.misdeal_nines == "5 nines and no ace" else ""
        lines.append(
            Line(f"A hand dealt five or more nines{no_ace} is thrown in and dealt again.", ("misdeal_nines",))
        )
    return Section("deal", "Deck and deal", tuple(lines))


def _bidding(variant: Variant, settings: Settings) -> Section:
    lines = [
        Line(
            "Bidding starts with the player to the [[dealer]]'s left and goes clockwise. A [[bid]] is the "
            "number of points ([[meld]] plus [[trick points]]) the "
            + ("bidder's side promises" if variant.partnerships else "bidder promises")
            + " to take.",
        ),
        Line(
            f"The lowest bid is {settings.min_bid}; {_increment_words(settings)}.",
            ("min_bid", "bid_increment"),
        ),
    ]
    if settings.single_round_bidding:
        lines.append(
            Line("Each player bids once, or passes; the highest bid wins.", ("single_round_bidding",))
        )
    elif settings.pass_is_final:
        lines.append(
            Line(
                "A player who passes is out of the auction. It ends when all but one have passed; "
                "the last bid wins.",
                ("pass_is_final",),
            )
        )
    else:
        lines.append(
            Line(
                f"A player who passed may bid again later. The auction ends when {variant.seats - 1} "
                "players in a row pass after the last bid.",
                ("pass_is_final",),
            )
        )
    if settings.all_pass == "dealer_forced":
        text = f"If everyone before the dealer passes, the dealer must take the bid at {settings.min_bid}."
    else:
        text = "If everyone passes, the cards are thrown in and dealt again."
    lines.append(Line(text, ("all_pass", "min_bid")))
    return Section("bidding", "Bidding", tuple(lines))


def _trump(variant: Variant, settings: Settings) -> Section:
    if settings.trump_requires_marriage:
        lines = [
            Line(
                "The bidder names [[trump]], and only a suit in which they hold a [[marriage]] "
                "(a K and Q of that suit).",
                ("trump_requires_marriage",),
            ),
            Line(
                "A bidder with no marriage at all cannot name trump: the hand is not played, the bidder's "
                "side loses the bid ([[forfeit]]), and the other side scores "
                f"{_forfeit_words(settings, NO_TRUMP)}.",
                ("trump_requires_marriage", "forfeit_opponents"),
            ),
        ]
    else:
        lines = [
            Line(
                "The bidder names any suit as [[trump]]; no marriage is needed.", ("trump_requires_marriage",)
            )
        ]
    return Section("trump", "Trump", tuple(lines))


NO_TRUMP = "counted with no trump suit"  # §2.3: the bidder named none
NAMED_TRUMP = "counted in the trump the bidder named"  # §2.5: Mo is "with the named trump"


def _forfeit_words(settings: Settings, counted: str) -> str:
    """What the other side scores on a forfeit (`forfeit_opponents`); ``counted`` says in which trump."""
    rule = FORFEIT_OPPONENTS[settings.forfeit_opponents]
    if rule is None:
        return "nothing"
    threshold, bonus = rule
    words = f"their meld if it is {threshold} or more, {counted}"
    return f"{words}, plus {bonus}" if bonus else words


def _passing(variant: Variant, settings: Settings) -> Section | None:
    if not variant.partnerships:
        return None
    if not settings.pass_cards:
        return Section(
            "passing",
            "Passing",
            (Line("There is no passing: you play the cards you were dealt.", ("pass_cards",)),),
        )
    count = settings.pass_cards
    return Section(
        "passing",
        "Passing",
        (
            Line(
                f"Once trump is named, the bidder's partner passes {count} cards face down to the bidder, "
                f"and the bidder passes {count} back (they may include cards just received).",
                ("pass_cards",),
            ),
            Line("Partners may not otherwise tell each other what they hold."),
        ),
    )


def _play(variant: Variant, settings: Settings) -> Section:
    lines = [
        Line(
            f"The bidder [[leads|lead]] the first [[trick]]; there are {variant.hand_size} tricks in a hand. "
            "The winner of a trick leads the next."
        ),
        Line(
            "The highest [[trump]] wins a trick; with no trump in it, the highest card of the suit led. "
            "A card of another suit never wins."
        ),
    ]
    if settings.play_mode == FOLLOW:
        lines.append(
            Line("[[Follow suit|follow suit]] if you can. You need not play a higher card.", ("play_mode",))
        )
    else:
        lines.append(
            Line(
                "[[Follow suit|follow suit]] if you can, and if nobody has trumped, play a card that beats "
                "the winning card if you hold one (heading, or [[crawling|crawl]]). Once a trump is in a "
                "trick of another suit, any card of the suit led will do.",
                ("play_mode",),
            )
        )
        if settings.head_partner_exempt:
            lines.append(Line("You need not beat your partner's winning card.", ("head_partner_exempt",)))
        elif variant.partnerships:
            lines.append(
                Line(
                    "You must beat the winning card even when it is your partner's.", ("head_partner_exempt",)
                )
            )
    if settings.must_trump_when_void:
        text = "If you cannot follow suit you must play a trump"
        if settings.must_overtrump:
            text += "; if a trump is already winning, a higher trump if you hold one, else any trump"
        lines.append(Line(text + ".", ("must_trump_when_void", "must_overtrump")))
    else:
        lines.append(Line("If you cannot follow suit you may play any card.", ("must_trump_when_void",)))
    lines.append(Line("If you can neither follow suit nor trump, play any card."))
    if settings.bidder_must_lead_trump:
        lines.append(
            Line(
                f"The bidder's first lead must be a trump, unless the bid was {settings.min_bid}.",
                ("bidder_must_lead_trump", "min_bid"),
            )
        )
    return Section("play", "Playing the tricks", tuple(lines))


def _counters(variant: Variant, settings: Settings) -> Section:
    values = settings.counter_values
    nothing = [rank_words(rank) for rank in variant.ranks if not values[rank]]
    text = f"Cards taken in tricks score ([[counters]]): {counter_words(variant, settings)}"
    text += f"; {', '.join(nothing)}: nothing." if nothing else "."
    lines = [Line(text, ("count_system",))]
    if settings.last_trick:
        lines.append(
            Line(f"The side that wins the [[last trick]] scores {settings.last_trick} more.", ("last_trick",))
        )
    else:
        lines.append(Line("The [[last trick]] earns nothing extra.", ("last_trick",)))
    total = variant.trick_points_total(settings)
    lines.append(
        Line(
            f"So every hand holds {total} [[trick points]] in all"
            + (": the counters, plus the last trick." if settings.last_trick else ", all of them counters."),
            ("count_system", "last_trick"),
        )
    )
    return Section("counters", "Counters and the last trick", tuple(lines))


def _scoring(variant: Variant, settings: Settings) -> Section:
    side, its = ("side", "its") if variant.partnerships else ("player", "their")
    it, is_, scores, loses = (
        ("it", "is", "scores", "loses") if variant.partnerships else ("they", "are", "score", "lose")
    )
    penalty = SET_PENALTY_FACTOR[settings.set_penalty]
    lines = [
        Line(
            f"The bidding {side} adds up {its} meld and trick points. "
            f"If that reaches the bid, {it} {scores} all of it; "
            + (
                f"otherwise {it} {is_} [[set]] and {loses} the bid."
                if penalty == 1
                else f"otherwise {it} {is_} [[set]] and {loses} {penalty} times the bid."
            )
            + " Scores may go below zero.",
            ("set_penalty",),
        ),
        Line(f"Every other {side} scores {its} meld and trick points, whether the bid was made or not."),
    ]
    if settings.meld_requires_trick:
        lines.append(
            Line(
                (
                    "A side that takes no trick scores no meld ([[no trick, no meld]]), bidders included."
                    if variant.partnerships
                    else "A player who takes no trick scores no meld ([[no trick, no meld]]), "
                    "the bidder included."
                ),
                ("meld_requires_trick",),
            )
        )
    if settings.rule_of_20 is not None:
        meld, tricks = settings.rule_of_20
        lines.append(
            Line(
                f"[[Rule of 20|rule of 20]]: a side whose meld is under {meld} scores no meld. "
                f"If the bidders' meld is under {meld} they [[forfeit]]: they lose the bid"
                + (
                    " and the hand is still played out, so the other side can take trick points."
                    if settings.bidders_short_meld_play_out
                    else " without playing, and the other side scores "
                    f"{_forfeit_words(settings, NAMED_TRUMP)}."
                ),
                ("rule_of_20", "bidders_short_meld_play_out", "forfeit_opponents"),
            )
        )
        lines.append(
            Line(
                f"A side that takes under {tricks} trick points scores nothing at all, not even its meld; "
                "if it is the bidders, they are [[set]].",
                ("rule_of_20",),
            )
        )
    if settings.bidder_may_concede:
        lines.append(
            Line(
                "The bidders may throw the hand in before the first lead; it scores as a forfeit.",
                ("bidder_may_concede",),
            )
        )
    return Section("scoring", "Scoring a hand", tuple(lines))


def _game_end(variant: Variant, settings: Settings) -> Section:
    side = "side" if variant.partnerships else "player"
    targets = " or ".join(str(target) for target in variant.quick_targets if target != settings.target)
    text = f"The game is played to {settings.target}"
    text += f" (some tables play to {targets})." if targets else "."
    lines = [
        Line(text, ("target",)),
        Line(f"Scores are checked only after a whole hand: a {side} at {settings.target} or more wins."),
    ]
    several = f"both {side}s" if len(variant.sides) == 2 else f"several {side}s"
    bidders = "the bidders" if variant.partnerships else "the bidder"
    if variant.bidders_win_when_both_reach or settings.bidder_out:
        are, win = ("are", "win") if variant.partnerships else ("is", "wins")
        among = "" if len(variant.sides) == 2 else f" and {bidders} {are} among them"
        lines.append(
            Line(
                f"If {several} reach it in the same hand{among}, {bidders} {win} even with a lower score.",
                ("bidder_out",),
            )
        )
    else:
        lines.append(
            Line(f"If {several} reach it in the same hand, the higher score wins.", ("bidder_out",))
            if len(variant.sides) == 2
            else Line(f"If {several} reach it in the same hand, the highest score wins.", ("bidder_out",))
        )
    if not (len(variant.sides) == 2 and (variant.bidders_win_when_both_reach or settings.bidder_out)):
        lines.append(Line(_tie_words(variant, settings), ("tie_break",)))
    return Section("game-end", "Winning the game", tuple(lines))


def _tie_words(variant: Variant, settings: Settings) -> str:
    """`tie_break` (§2.9, §3.7): who wins when the highest scores at or over the target are equal."""
    if settings.tie_break == "play_on":
        return "On a tie for the highest score, another hand is played."
    if len(variant.sides) == 2:  # with two sides the bidders are always in a tie
        if settings.tie_break == "bidder":
            return "On an exact tie, the bidders win."
        return "On an exact tie, both sides win together."
    if settings.tie_break == "bidder":
        return (
            "A tie for the highest score goes to the bidder if they are in it; "
            "otherwise the tied players win together."
        )
    return "Players tied for the highest score win together (co-winners)."


# -- the meld table ---------------------------------------------------------------------------------


def meld_rows(variant: Variant, settings: Settings) -> tuple[MeldRow, ...]:
    """The meld table as the engine reads it for this variant and these rules (§1.4, §2.4, §3.3)."""
    scale = MeldScale.of(variant, settings)
    top = variant.copies
    hand = variant.hand_size

    def by_count(cards_each: int, value: Any) -> tuple[int | None, ...]:
        return tuple(value(k) if k * cards_each <= hand else None for k in range(1, top + 1))

    rows = [
        MeldRow("Run", "A 10 K Q J of trump", by_count(5, lambda k: scale.run[k]), "run"),
        MeldRow(
            "Royal marriage",
            "K Q of trump, not in a run",
            by_count(2, lambda k: scale.royal_marriage[k]),
            "marriage",
        ),
    ]
    if scale.extra_trump_kq:
        rows.append(
            MeldRow(
                "Extra trump K or Q beside a run",
                "each trump K and Q beyond the run's",
                by_count(1, lambda k: k * scale.extra_trump_kq),
            )
        )
    rows.append(
        MeldRow(
            "Marriage",
            "K Q of a suit that is not trump",
            by_count(2, lambda k: k * scale.marriage),
            "marriage",
        )
    )
    if scale.dix:
        rows.append(MeldRow("Dix", "9 of trump", by_count(1, lambda k: k * scale.dix), "dix"))
    rows.append(MeldRow("Pinochle", "Q♠ J♦", by_count(2, lambda k: scale.pinochle[k]), "pinochle"))
    for index, rank in enumerate(AROUND_RANKS):
        letter = rank_words(rank)
        rows.append(
            MeldRow(
                f"{RANK_PLURALS[rank].capitalize()} around",
                f"{letter}♠ {letter}♥ {letter}♦ {letter}♣",
                by_count(4, lambda k, i=index: scale.arounds[i][k]),
                "around",
            )
        )
    rows.append(
        MeldRow(
            "Roundhouse",
            "K and Q of every suit",
            by_count(ROUNDHOUSE_CARDS, lambda k: _roundhouse(variant, settings, k)),
            "roundhouse",
        )
    )
    return tuple(rows)


def _roundhouse(variant: Variant, settings: Settings, copies: int) -> int:
    """A roundhouse counted by the engine: K and Q of every suit, ``copies`` times, ♠ trump."""
    hand = [card(rank, suit) for suit in range(4) for rank in (KING, QUEEN) for _ in range(copies)]
    return count_meld(counts_of(hand), 0, variant, settings).total


def _marked_rows(variant: Variant, settings: Settings) -> tuple[MeldRow, ...]:
    rows = meld_rows(variant, settings)
    defaults = meld_rows(variant, variant.defaults)
    return tuple(replace(row, changed=row != default) for row, default in zip(rows, defaults, strict=False))


def _doubles_line(variant: Variant, settings: Settings) -> Line:
    adds = "Marriages" + (" and dix" if NINE in variant.ranks else "") + " simply add up"
    if settings.double_royal_marriage == "30":
        pair = MeldScale.of(variant, settings).royal_marriage[2]
        adds += f", but two royal marriages together are worth {pair}"
    if settings.double_around_scale == "two_singles":
        text = "A double around counts as two single arounds; a double run or pinochle replaces the single."
    elif variant.copies > 2:
        text = "A double (two of each card), triple or quadruple replaces the single; it is not added to it."
    else:
        text = "A double (two of each card) replaces the single; it is not added to it."
    return Line(f"{text} {adds}.", ("double_around_scale", "double_royal_marriage"))


def _roundhouse_line(settings: Settings, value: int) -> Line:
    parts = "kings and queens around, three marriages and a royal marriage"
    if settings.roundhouse_mode == "bonus":
        text = f"A [[roundhouse]] scores its parts ({parts}) and then their value again: {value} in all."
    else:
        text = f"A [[roundhouse]] is worth what its parts are worth ({value} here: {parts}); "
        text += "it is never counted again."
    return Line(text, ("roundhouse_mode",))


def _meld_notes(variant: Variant, settings: Settings) -> tuple[Line, ...]:
    roundhouse = _roundhouse(variant, settings, 1)
    notes = [
        Line(
            "Meld is counted from your hand once trump is named"
            + (" and the cards are passed" if variant.partnerships and settings.pass_cards else "")
            + ". "
            + (
                "Partners add their meld together."
                if variant.partnerships
                else "Each player melds for themselves."
            )
        ),
        Line(
            "A card may count in melds of different kinds at once (Q♠ in a marriage, "
            "[[queens around|around]] and a [[pinochle]]), but never twice in the same kind: "
            "the K and Q of a [[run]] are not also a "
            "[[royal marriage|marriage]]."
        ),
        _doubles_line(variant, settings),
        _roundhouse_line(settings, roundhouse),
    ]
    double = _roundhouse(variant, settings, 2) if variant.hand_size >= 2 * ROUNDHOUSE_CARDS else 0
    if double and settings.double_roundhouse != variant.defaults.double_roundhouse:
        notes.append(Line(f"A double roundhouse is worth {double}.", ("double_roundhouse",)))
    if variant.meld_table.extra_trump_kq and settings.run_extra_kq != "half":
        words = {
            "strict": "A trump K or Q beyond a run scores only as a royal marriage: "
            "it needs an extra K and an extra Q.",
            "marry": "A lone extra trump K or Q beside a run may marry the run's Q or K: a royal marriage.",
        }[settings.run_extra_kq]
        notes.append(Line(words, ("run_extra_kq",)))
    return tuple(notes)


# -- worked examples (RULES.md §5 and §6) -------------------------------------------------------

# (label, trump, hand) from RULES.md §5; the totals and breakdowns are the engine's, so they
# follow the table's house rules.
MELD_EXAMPLES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "classic": (
        ("C1", "S", "AS TS KS QS JS 9S 9H 9D JC TC 9C QH"),
        ("C2", "H", "AH TH KH KH QH JH 9S 9D JC TC 9C TS"),
        ("C5", "H", "KS QS KH QH KD QD KC QC JD 9H AS TS"),
        ("C8", "D", "AS AS AH AH AD AD AC AC KS KH KD KC"),
    ),
    "double-deck": (
        ("D1", "S", "KS KH KD KC QC AS AS TS TS JS JS AH TH TH JH AD TD TD TC JC"),
        ("D3", "C", "AC TC KC KC QC JC AS AS TS TS TS JS AH AH TH TH TH TD TD TD"),
        ("D6", "H", "QS QS QS JD JD QH QD QC KS AS AS TS TS AH AH TH TH TD TD TC"),
        ("D9", "H", "AH TH KH QH JH KS QS KD QD KC QC AS AS TS TS TD TD AD TC TC"),
    ),
    "six-handed": (
        ("S2", "H", "AH TH KH KH QH QH JH 9S"),
        ("S4", "C", "KS QS KH QH KD QD KC QC"),
        ("S5", "H", "QS QS JD JD KS 9H AH TC"),
        ("S7", "H", "AS AH AD AC KS KH KD KC"),
    ),
}

# (label, bidder seat, bid, meld per side, trick points per side) from RULES.md §6.
SCORE_EXAMPLES: dict[str, tuple[tuple[str, int, int, tuple[int, ...], tuple[int, ...] | None], ...]] = {
    "classic": (
        ("Made", 0, 30, (18, 9), (13, 12)),
        ("Set", 0, 30, (18, 9), (10, 15)),
        ("All 12 tricks", 0, 30, (18, 14), (25, 0)),
    ),
    "double-deck": (
        ("Made", 0, 60, (32, 18), (30, 20)),
        ("Set: under 20 trick points", 0, 60, (45, 24), (18, 32)),
        ("Forfeit: bidders' meld short", 0, 55, (16, 22), None),
        ("Set", 0, 65, (30, 40), (31, 19)),
    ),
    "six-handed": (
        ("Made", 0, 120, (110, 0, 0, 40, 0, 0), (45, 40, 40, 0, 60, 55)),
        ("Set", 0, 100, (60, 0, 0, 40, 0, 0), (35, 60, 40, 0, 50, 55)),
    ),
}


def meld_examples(variant: Variant, settings: Settings) -> tuple[MeldExample, ...]:
    found = []
    for label, trump, hand in MELD_EXAMPLES[variant.id]:
        cards = parse_cards(hand)
        suit = SUITS.index(trump)
        result = count_meld(counts_of(cards), suit, variant, settings)
        parts = " + ".join(meld_line_words(line) for line in result.melds)
        if result.labels:
            parts += " (a roundhouse)"
        found.append(MeldExample(label, suit_words(suit), cards_in_words(cards), result.total, parts))
    return tuple(found)


def meld_line_words(line: MeldLine) -> str:
    """ "run 15", "double aces around 100", "3 × marriage 6"."""
    if line.count == 1:
        return f"{line.name} {line.points}"
    if line.name in ADDITIVE:
        return f"{line.count} × {line.name} {line.points}"
    return f"{COUNT_WORDS[line.count]} {line.name} {line.points}"


def score_examples(variant: Variant, settings: Settings) -> tuple[ScoreExample, ...]:
    found = []
    names = _side_names(variant)
    for label, bidder, bid, meld, tricks in SCORE_EXAMPLES[variant.id]:
        entry = HandEntry(bidder=bidder, bid=bid, trump=1, meld=meld, tricks=tricks)
        score = score_hand(variant, settings, entry)
        said = f"{names[variant.side_of(bidder)]} bid {bid}; meld " + ", ".join(
            f"{name} {value}" for name, value in zip(names, meld, strict=True)
        )
        if tricks is not None:
            said += "; trick points " + ", ".join(
                f"{name} {value}" for name, value in zip(names, tricks, strict=True)
            )
        scored = "; ".join(
            f"{name} {value:+d} ({reason})" if reason else f"{name} {value:+d}"
            for name, value, reason in zip(names, score.scores, score.reasons, strict=True)
        )
        found.append(ScoreExample(label, said, scored))
    return tuple(found)


def _side_names(variant: Variant) -> list[str]:
    """Partnerships: the two sides; six-handed: the practice table's seat names (you are the bidder)."""
    if variant.partnerships:
        return ["Bidders", "Opponents"]
    return seat_names(variant)


# -- the page -----------------------------------------------------------------------------------------


def rules_page(variant: Variant, settings: Settings | None = None) -> RulesPage:
    """Everything a rules page says, for ``variant`` under ``settings`` (its defaults when None)."""
    settings = settings or variant.defaults
    changed = set(settings.changes(variant.defaults))
    builders = (_deck, _bidding, _trump, _passing, _play, _counters, _scoring, _game_end)
    sections = tuple(section for build in builders if (section := build(variant, settings)) is not None)
    sections = tuple(replace(s, lines=_mark(s.lines, changed)) for s in sections)
    notes = _mark(_meld_notes(variant, settings), changed)
    sections, notes = _link_first(sections, notes)
    return RulesPage(
        variant=variant,
        settings=settings,
        house_rules=house_rule_changes(variant, settings),
        sections=sections,
        meld_counts=tuple(COUNT_WORDS[k].capitalize() for k in range(1, variant.copies + 1)),
        meld_rows=_marked_rows(variant, settings),
        meld_notes=notes,
        meld_examples=meld_examples(variant, settings),
        score_examples=score_examples(variant, settings),
    )


def house_rule_changes(variant: Variant, settings: Settings) -> tuple[tuple[str, str], ...]:
    """Each of a game's house rules in the game page's words, beside the variant's default in the same
    words: ("set costs double the bid", "set costs the bid")."""
    pairs = []
    for key in settings.changes(variant.defaults):
        if key == "target":
            pairs.append((f"play to {settings.target}", f"play to {variant.defaults.target}"))
            continue
        this_rule = replace(variant.defaults, **{key: getattr(settings, key)})
        # The same words for the default: ask as if the house rule were the variant's default.
        as_if = replace(variant, defaults=this_rule)
        pairs.append(
            (house_rules_brief(variant, this_rule)[0], house_rules_brief(as_if, variant.defaults)[0])
        )
    return tuple(pairs)


def _mark(lines: Iterable[Line], changed: set[str]) -> tuple[Line, ...]:
    return tuple(replace(line, changed=bool(changed.intersection(line.keys))) for line in lines)


def _link_first(
    sections: Sequence[Section], notes: Sequence[Line]
) -> tuple[tuple[Section, ...], tuple[Line, ...]]:
    """Keep a glossary link only where its term first appears, in the order the page shows lines."""
    seen: set[str] = set()

    def once(line: Line) -> Line:
        def keep(match: re.Match[str]) -> str:
            words, term = match.group(1), (match.group(2) or match.group(1)).lower()
            if term in seen:
                return words
            seen.add(term)
            return match.group(0)

        return replace(line, text=_TERM.sub(keep, line.text))

    linked = tuple(replace(s, lines=tuple(once(line) for line in s.lines)) for s in sections)
    return linked, tuple(once(line) for line in notes)


def glossary_slug(term: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def term_parts(text: str) -> list[tuple[str, str | None]]:
    """A line as (words, glossary slug or None) pieces, for the template to link."""
    parts: list[tuple[str, str | None]] = []
    at = 0
    for match in _TERM.finditer(text):
        if match.start() > at:
            parts.append((text[at : match.start()], None))
        parts.append((match.group(1), glossary_slug(match.group(2) or match.group(1))))
        at = match.end()
    if at < len(text):
        parts.append((text[at:], None))
    return parts


# -- the glossary ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    term: str
    slug: str
    meaning: str


def _per_variant(value: Any, variants: Iterable[Variant] | None = None) -> str:
    """ "1 in Classic, 10 in Six-handed": a number read from each variant (or from ``variants``)."""
    found = [(variant, value(variant)) for variant in (VARIANTS.values() if variants is None else variants)]
    return ", ".join(f"{number or 'nothing'} in {_short_label(variant)}" for variant, number in found)


def _short_label(variant: Variant) -> str:
    return variant.label.split(" (")[0].lower()


def glossary() -> tuple[Term, ...]:
    """The words players argue about, each in a sentence; numbers read from the variants."""
    no_nines = [_short_label(v) for v in VARIANTS.values() if NINE not in v.ranks]
    with_nines = [v for v in VARIANTS.values() if NINE in v.ranks]
    entries = (
        (
            "dealer",
            "The player who deals every card; the deal moves one seat to the left each hand. Bidding "
            "starts at the dealer's left, so the dealer bids last, and if everyone else passes the dealer "
            "must take the bid at the lowest bid.",
        ),
        (
            "bid",
            "In the auction, the number of points ([[meld]] plus [[trick points]]) a player promises their "
            "side will take if they name trump (in six-handed, that they alone will take); or pass. "
            "The lowest bid is " + _per_variant(lambda v: v.defaults.min_bid) + ". The highest bid wins.",
        ),
        (
            "contract",
            "The winning bid: the bidder names trump, and the bidder's side must take at least that "
            "many points in meld and trick points, or be [[set]].",
        ),
        (
            "trick",
            "One card from each player in turn, starting with the one who leads; the highest trump in it, "
            "or else the highest card of the suit led, wins all its cards. Every card in a hand is played "
            "to a trick, so the number of tricks in a hand is "
            + _per_variant(lambda v: v.hand_size)
            + ". Not to be confused with [[trick points]].",
        ),
        (
            "lead",
            "To play the first card of a trick; any card may be led. The bidder leads the first trick, and "
            "whoever wins a trick leads the next.",
        ),
        (
            "follow suit",
            "To play a card of the suit that was led. You must when you can; if you cannot, you must "
            "play a trump if you hold one, and only then may you play any card.",
        ),
        (
            "trick points",
            "What a side's tricks are worth: the [[counters]] it took, plus the [[last trick]] bonus. "
            "All the trick points of a hand add up to "
            + _per_variant(lambda v: v.trick_points_total(v.defaults))
            + ". They are points, not the number of tricks taken.",
        ),
        (
            "meld",
            "The cards in your hand that score by themselves, counted once trump is named and "
            "shown to the table before the tricks are played.",
        ),
        ("trump", "The suit the bidder names. Any trump beats any card of another suit."),
        (
            "marriage",
            "A K and Q of the same suit: worth "
            + _per_variant(lambda v: v.meld_table.marriage)
            + ". In trump it is a royal marriage, worth "
            + _per_variant(lambda v: v.meld_table.royal_marriage)
            + ".",
        ),
        (
            "run",
            "A 10 K Q J of trump (also called a flush): worth "
            + _per_variant(lambda v: v.meld_table.run[1])
            + ". The same cards in another suit are only a marriage.",
        ),
        (
            "dix",
            "The 9 of trump, pronounced “deece”: each one is worth "
            + _per_variant(lambda v: v.meld_table.dix, with_nines)
            + (f" ({', '.join(no_nines)} has no nines)." if no_nines else "."),
        ),
        (
            "pinochle",
            "The Q♠ with the J♦: worth "
            + _per_variant(lambda v: v.meld_table.pinochle[1])
            + "; a double pinochle (both Q♠ and both J♦) is worth "
            + _per_variant(lambda v: v.meld_table.pinochle[2])
            + ".",
        ),
        (
            "around",
            "One card of a rank in every suit, such as A♠ A♥ A♦ A♣ (aces around): aces around are worth "
            + _per_variant(lambda v: v.meld_table.arounds[0][1])
            + ".",
        ),
        (
            "roundhouse",
            "A K and Q in every suit. It is not a meld of its own: it is worth what its kings "
            "around, queens around, three marriages and royal marriage are worth.",
        ),
        (
            "counters",
            "The cards that score when you take them in a trick: "
            + "; ".join(f"in {_short_label(v)} {counter_words(v, v.defaults)}" for v in VARIANTS.values())
            + ".",
        ),
        (
            "last trick",
            "The trick that empties the hands: winning it scores "
            + _per_variant(lambda v: v.defaults.last_trick)
            + " by default.",
        ),
        (
            "set",
            "A bidding side whose meld and trick points come to less than the bid is set (goes set)"
            + "".join(
                f"; in {_short_label(v)} so is one that takes under {v.defaults.rule_of_20[1]} trick points"
                for v in VARIANTS.values()
                if v.defaults.rule_of_20
            )
            + ". The bid is taken off their score, and nothing they took counts.",
        ),
        (
            "no trick, no meld",
            "A side that takes no trick at all loses its meld ("
            + " and ".join(_short_label(v) for v in VARIANTS.values() if v.defaults.meld_requires_trick)
            + ").",
        ),
        (
            "crawl",
            "Heading, or crawling: playing a card that beats the winning card when you can, as "
            + " and ".join(_short_label(v) for v in VARIANTS.values() if v.defaults.play_mode == HEAD)
            + " require.",
        ),
        (
            "forfeit",
            "A bidder who cannot play the hand (no marriage to name trump, or too little meld) loses "
            "the bid without playing.",
        ),
        ("rule of 20", _rule_of_20_words()),
    )
    return tuple(Term(term, glossary_slug(term), meaning) for term, meaning in entries)


def counter_words(variant: Variant, settings: Settings) -> str:
    """ "A, 10, K: 1 point each", from the settings' count."""
    values = settings.counter_values
    by_value: dict[int, list[str]] = {}
    for rank in variant.ranks:
        if values[rank]:
            by_value.setdefault(values[rank], []).append(rank_words(rank))
    return "; ".join(f"{', '.join(ranks)}: {_points(value)} each" for value, ranks in by_value.items())


def _rule_of_20_words() -> str:
    found = [(v, v.defaults.rule_of_20) for v in VARIANTS.values() if v.defaults.rule_of_20]
    return " ".join(
        f"In {_short_label(v)} a side needs {meld} in meld for its meld to count, and {tricks} trick points "
        f"for anything to count; bidders under {meld} in meld [[forfeit]]. The meld is counted in the "
        "trump the bidder named."
        for v, (meld, tricks) in found
    )
