"""Cards, suits, ranks and the card codes of RULES.md §0.1 and §9.1.

A card is a small int: ``suit * 6 + rank``, where rank 0 is the ace and 5 the nine, so
within a suit a *lower* rank index is a *higher* card (A > T > K > Q > J > 9, §0.2).
Identical copies share a value, so a hand is a multiset; where counting is what is
asked (meld), a hand is a tuple of 24 counts indexed by card.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NewType

Card = NewType("Card", int)
Suit = int
Rank = int

SUITS = "SHDC"
RANKS = "ATKQJ9"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SYMBOL_OF_SUIT = {letter: symbol for symbol, letter in SUIT_SYMBOLS.items()}  # "H" -> "♥"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_SHOWN = {"T": "10"}  # how players write the ten; every other rank is its letter
RANK_WORDS = {"A": "Ace", "T": "Ten", "K": "King", "Q": "Queen", "J": "Jack", "9": "Nine"}

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
ACE, TEN, KING, QUEEN, JACK, NINE = range(6)
CARD_COUNT = 24  # distinct card codes; copies are counted, not given new ids


class CardError(ValueError):
    """A card code, suit or hand that RULES.md refuses; the message names the culprit."""


def card(rank: Rank, suit: Suit) -> Card:
    return Card(suit * 6 + rank)


def suit_of(c: Card) -> Suit:
    return c // 6


def rank_of(c: Card) -> Rank:
    return c % 6


def card_code(c: Card) -> str:
    return RANKS[c % 6] + SUITS[c // 6]


ALL_CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(CARD_COUNT))
CODES: tuple[str, ...] = tuple(card_code(c) for c in ALL_CARDS)
_CODE_TO_CARD = {code: Card(i) for i, code in enumerate(CODES)}
_TOKEN_SPLIT = re.compile(r"[\s,]+")


def parse_suit(text: str) -> Suit:
    """``"H"``, ``"h"`` or ``"♥"`` -> HEARTS."""
    token = SUIT_SYMBOLS.get(text.strip(), text.strip().upper())
    if len(token) != 1 or token not in SUITS:
        raise CardError(f"unknown suit {text!r}: use S, H, D or C")
    return SUITS.index(token)


def parse_card(token: str) -> Card:
    """One card code as §9.1 accepts it: ``AS``, ``as``, ``10H``, ``T♥``."""
    text = token.strip().upper()
    for symbol, letter in SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    if text.startswith("10"):
        text = "T" + text[2:]
    found = _CODE_TO_CARD.get(text)
    if found is None:
        raise CardError(f"unknown card {token!r}: a card is a rank (A T K Q J 9) and a suit (S H D C)")
    return found


def split_tokens(text: str) -> list[str]:
    return [token for token in _TOKEN_SPLIT.split(text.strip()) if token]


def parse_cards(cards: str | Iterable[str]) -> list[Card]:
    """Parse a hand written as one string or as a list of codes; no deck checks here."""
    tokens = split_tokens(cards) if isinstance(cards, str) else [str(t) for t in cards]
    return [parse_card(token) for token in tokens]


def codes(cards: Iterable[Card]) -> list[str]:
    return [CODES[c] for c in cards]


def card_words(c: Card) -> str:
    """A card as players write it, for pages and messages: ``TH`` -> ``10♥``, ``AS`` -> ``A♠``.

    Engine codes belong to files and commands; anything a player reads uses this.
    """
    code = CODES[c]
    return RANK_SHOWN.get(code[0], code[0]) + SYMBOL_OF_SUIT[code[1]]


def cards_in_words(cards: Iterable[Card]) -> str:
    """Several cards for a sentence: ``"10♥ Q♠ Q♠"``."""
    return " ".join(card_words(c) for c in cards)


def card_name(c: Card) -> str:
    """What a screen reader says: ``TH`` -> ``"Ten of hearts"``."""
    code = CODES[c]
    return f"{RANK_WORDS[code[0]]} of {SUIT_NAMES[code[1]]}"


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Canonical display order: suits S H D C, ranks high to low."""
    return sorted(cards)


def suit_lengths(counts: Sequence[int]) -> list[int]:
    """How many cards of each suit (S H D C) the hand held as ``counts`` (24 counts) has."""
    return [sum(counts[base : base + 6]) for base in (0, 6, 12, 18)]


def counts_of(cards: Iterable[Card]) -> tuple[int, ...]:
    counts = [0] * CARD_COUNT
    for c in cards:
        counts[c] += 1
    return tuple(counts)


def cards_from_counts(counts: Sequence[int]) -> list[Card]:
    # On the game engine's hot path (a hand per seat view): no per-card call, no inner loop.
    cards: list[Card] = []
    for c in ALL_CARDS[: len(counts)]:
        n = counts[c]
        if n:
            cards.extend([c] * n)
    return cards
