"""Trick play: the trick winner (RULES.md §0.3) and the legal-play algorithms (§0.4).

The hot path of every search bot, so everything here works on plain ints: a card is
``suit * 6 + rank`` (rank 0 = ace), a hand is a list of 24 counts indexed by card. Within a
suit a *smaller* card int is a *higher* card, so "higher" is ``<`` between cards of one suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ALL_CARDS, Card, Suit

_SUIT_CARDS = tuple(ALL_CARDS[suit * 6 : suit * 6 + 6] for suit in range(4))


def beats(card: Card, winning: Card, trump: Suit | None) -> bool:
    """Whether ``card`` would take over a trick now won by ``winning`` (§0.3).

    A higher card of the winning card's suit, or any trump over a non-trump. An identical
    card does not beat: the copy played first keeps the trick (§0.2).
    """
    if card // 6 == winning // 6:
        return card < winning
    return card // 6 == trump


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index (in play order) of the card that wins ``cards`` under §0.3."""
    best = 0
    winning = cards[0]
    for index in range(1, len(cards)):
        card = cards[index]
        suit = card // 6
        if (suit == winning // 6 and card < winning) or (suit == trump and winning // 6 != trump):
            best = index
            winning = card
    return best


def held(counts: Sequence[int], suit: Suit) -> list[Card]:
    """The distinct cards of ``suit`` in a hand, highest first."""
    return [c for c in _SUIT_CARDS[suit] if counts[c]]


def whole_hand(counts: Sequence[int]) -> list[Card]:
    """The distinct cards of a hand, in canonical order."""
    return [c for c in ALL_CARDS if counts[c]]


def legal_plays(
    counts: Sequence[int],
    led: Suit,
    winning: Card,
    trump: Suit | None,
    *,
    head: bool,
    overtrump: bool,
    trump_when_void: bool,
) -> list[Card]:
    """The distinct cards a hand may add to a trick already led (§0.4).

    ``head`` is Mode HEAD's duty to beat the winning card of the led suit; ``overtrump``
    the duty to beat a winning trump when void; ``trump_when_void`` the duty to trump at
    all. Mode FOLLOW is ``head=False, overtrump=False``. The caller drops ``head`` and
    ``overtrump`` when ``head_partner_exempt`` and a partner is winning.
    """
    follow = held(counts, led)
    if follow:  # a trumped trick leaves no led-suit card able to beat: any of them
        return beat_if_able(follow, winning, duty=head)
    if trump_when_void and trump is not None:
        trumps = held(counts, trump)
        if trumps:  # must trump even when it cannot win
            return beat_if_able(trumps, winning, duty=overtrump)
    return whole_hand(counts)


def beat_if_able(cards: list[Card], winning: Card, *, duty: bool) -> list[Card]:
    """``cards`` (all of one suit) cut to those higher than ``winning``, when the duty applies and one is."""
    if duty and cards[0] // 6 == winning // 6:
        higher = [c for c in cards if c < winning]
        if higher:
            return higher
    return cards


def leads(counts: Sequence[int], trump: Suit | None, *, must_lead_trump: bool) -> list[Card]:
    """The distinct cards the leader may lead: any, or trump first when the rules say so."""
    if must_lead_trump and trump is not None:
        trumps = held(counts, trump)
        if trumps:
            return trumps
    return whole_hand(counts)
