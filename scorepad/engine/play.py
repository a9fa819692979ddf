"""Trick play, the one home of its rules: the trick winner (RULES.md §0.3), the legal plays
(§0.4 with the §4 play keys) and closing a trick (counters, the last trick).

The game engine (``game.py``), the lean playout state (``lean.py``), what a seat infers from the
tricks (``knowledge.py``) and the search kit (``search.py``) all ask these functions; none of them
spells a play rule again. ``PlayRules`` holds one hand's §4 play keys as plain values.

The hot path of every search bot, so everything here works on plain ints: a card is
``suit * 6 + rank`` (rank 0 = ace), a hand is a list of 24 counts indexed by card. Within a
suit a *smaller* card int is a *higher* card, so "higher" is ``<`` between cards of one suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import ALL_CARDS, CARD_COUNT, Card, Suit
from .variants import HEAD, Settings, Variant

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


def first_lead_must_be_trump(settings: Settings, bid: int | None) -> bool:
    """`bidder_must_lead_trump` (PINHELP): the bidder's first lead is trump "unless the bid was
    50", the minimum bid."""
    return settings.bidder_must_lead_trump and bid != settings.min_bid


@dataclass(frozen=True, slots=True)
class PlayRules:
    """The §4 play keys of one hand, and the table's shape, as plain values."""

    seats: int
    side_of: tuple[int, ...]
    sides: int
    value: tuple[int, ...]  # counter points per card
    last_trick: int
    hand_size: int  # tricks in a hand
    head: bool
    overtrump: bool
    trump_when_void: bool
    partner_exempt: bool
    lead_trump_first: bool  # the bidder's first lead must be trump


@lru_cache(maxsize=256)  # every sampled deal of a search asks again
def play_rules(variant: Variant, settings: Settings, bid: int | None) -> PlayRules:
    values = settings.counter_values
    return PlayRules(
        seats=variant.seats,
        side_of=tuple(variant.side_of(s) for s in range(variant.seats)),
        sides=len(variant.sides),
        value=tuple(values[c % 6] for c in range(CARD_COUNT)),
        last_trick=settings.last_trick,
        hand_size=variant.hand_size,
        head=settings.play_mode == HEAD,
        overtrump=settings.must_overtrump,
        trump_when_void=settings.must_trump_when_void,
        partner_exempt=settings.head_partner_exempt,
        lead_trump_first=first_lead_must_be_trump(settings, bid),
    )


def must_beat(rules: PlayRules, winner: int, seat: int) -> bool:
    """Whether ``seat`` has the duty to beat (`HEAD`, `must_overtrump`) a trick ``winner`` is
    winning: always, unless `head_partner_exempt` and the winner is its partner."""
    return not (rules.partner_exempt and winner != seat and rules.side_of[winner] == rules.side_of[seat])


def legal_cards(
    rules: PlayRules, counts: Sequence[int], trump: Suit | None, leader: int, trick: Sequence[Card], done: int
) -> list[Card]:
    """The distinct cards the next seat to play to ``trick`` (led by ``leader``) may play, after
    ``done`` completed tricks: §0.4 with every §4 play key of ``rules``."""
    if not trick:
        return leads(counts, trump, must_lead_trump=rules.lead_trump_first and not done)
    win = trick_winner(trick, trump)
    duty = True
    if rules.partner_exempt:  # the only key that can lift the duty: skip the call on the hot path
        seats = rules.seats
        duty = must_beat(rules, (leader + win) % seats, (leader + len(trick)) % seats)
    return legal_plays(
        counts,
        trick[0] // 6,
        trick[win],
        trump,
        head=duty and rules.head,
        overtrump=duty and rules.overtrump,
        trump_when_void=rules.trump_when_void,
    )


def close_trick(
    rules: PlayRules,
    trick: Sequence[Card],
    leader: int,
    trump: Suit | None,
    done: int,
    points: list[int],
    took: list[bool],
) -> int:
    """Close a full ``trick``, the ``done``-th completed before it: its counters (and the last
    trick's bonus) go to the winner's side in ``points``, ``took`` notes that side took a trick.
    The winning seat, which leads next."""
    winner = (leader + trick_winner(trick, trump)) % rules.seats
    side = rules.side_of[winner]
    value = rules.value
    points[side] += sum(value[c] for c in trick)
    took[side] = True
    if done + 1 == rules.hand_size:
        points[side] += rules.last_trick
    return winner
