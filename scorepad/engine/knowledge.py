"""What one seat knows about the cards it cannot see, and deals of the hidden cards that fit it.

Search bots decide from their §9.6 ``SeatView`` alone, so before they can simulate anything they
must *determinize*: deal the cards they cannot see to the other seats, consistently with
everything the view shows. ``knowledge_of(view)`` reads that once:

* the seat's own hand, and every card played (completed tricks and the trick in progress);
* cards another seat surely still holds: its shown meld, what this seat passed to it (less what
  came back and what it has played since), copy for copy, and the trump marriage a bidder must
  hold to name trump (`trump_requires_marriage`) until its meld is shown;
* cards another seat surely lacks: a suit it failed to follow (and trump too, when it neither
  followed nor trumped where it had to), cards above one it had to beat and did not (`HEAD`,
  `must_overtrump`), trump when it had to lead trump and did not;
* how many cards each seat holds now.

``determinize(view, rng)`` then deals the unknown cards so that every seat gets exactly its count,
its known cards, and nothing it has shown it lacks. ``auction_fit`` scores how well a deal fits the
calls made so far, for the bots that want to prefer deals that explain the auction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARD_COUNT, KING, QUEEN, Card
from .play import PlayRules, must_beat, play_rules, trick_winner
from .view import SeatView, Trick

ALL_SUIT_CARDS = tuple(sum(1 << (suit * 6 + rank) for rank in range(6)) for suit in range(4))
GREEDY_ATTEMPTS = 20  # tries of the fast deal before the exact (flow) deal


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Everything a seat knows about where the cards are, as counts indexed by card."""

    seat: int
    sizes: tuple[int, ...]  # cards each seat holds now
    known: tuple[tuple[int, ...], ...]  # per seat, copies it surely holds (the seat's own: its hand)
    forbidden: tuple[int, ...]  # per seat, a bit per card it cannot hold
    unseen: tuple[int, ...]  # copies of each card whose holder is unknown
    played_by: tuple[tuple[int, ...], ...]  # per seat, copies of each card it has played this hand

    def need(self, seat: int) -> int:
        """How many unknown cards ``seat`` must be dealt."""
        return self.sizes[seat] - sum(self.known[seat])


def knowledge_of(view: SeatView) -> Knowledge:
    variant, me = view.variant, view.seat
    seats = variant.seats
    copies = [0] * CARD_COUNT
    for c in variant.deck():
        copies[c] += 1
    played_by = [[0] * CARD_COUNT for _ in range(seats)]
    forbidden = [0] * seats
    tricks: list[Trick] = list(view.tricks)
    if view.trick is not None and view.trick.cards:
        tricks.append(view.trick)
    rules = play_rules(variant, view.settings, view.bid)
    for number, trick in enumerate(tricks):
        _read_trick(view, rules, trick, number, played_by, forbidden)
    mine = [0] * CARD_COUNT
    for c in view.hand:
        mine[c] += 1
    known = [[0] * CARD_COUNT for _ in range(seats)]
    known[me] = mine
    for seat in range(seats):
        if seat != me and view.shown:
            _at_least(known[seat], _counts(view.shown[seat]), played_by[seat])
    receiver = _pass_receiver(view)
    if receiver is not None:
        # What this seat passed is still with the receiver, unless it came back or was played.
        sent = _counts(view.passed)
        if view.seat != view.bidder:  # the partner passes first; the bidder may return some of it
            back = _counts(view.received)
            sent = [max(0, s - b) for s, b in zip(sent, back, strict=True)]
        _at_least(known[receiver], sent, played_by[receiver])
    bidder = view.bidder
    named = view.trump is not None and not view.shown  # trump named, meld not shown yet
    if view.settings.trump_requires_marriage and named and bidder is not None and bidder != me:
        assert view.trump is not None
        royal = [0] * CARD_COUNT  # the marriage it needed to name trump
        royal[view.trump * 6 + KING] = royal[view.trump * 6 + QUEEN] = 1
        _at_least(known[bidder], royal, played_by[bidder])
    sizes = [variant.hand_size - sum(played_by[seat]) for seat in range(seats)]
    if len(view.hand) != sizes[me]:  # between the two passes: the bidder holds its partner's cards too
        sizes[_partner(view)] -= len(view.hand) - sizes[me]
        sizes[me] = len(view.hand)
    unseen = list(copies)
    for seat in range(seats):
        for index in range(CARD_COUNT):
            unseen[index] -= played_by[seat][index] + known[seat][index]
    if min(unseen) < 0:  # a view no deal explains: a bug upstream, never silently "fixed"
        raise ValueError(f"seat {me}'s view accounts for more copies than the deck holds")
    return Knowledge(
        seat=me,
        sizes=tuple(sizes),
        known=tuple(tuple(k) for k in known),
        forbidden=tuple(forbidden),
        unseen=tuple(unseen),
        played_by=tuple(tuple(p) for p in played_by),
    )


def _counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * CARD_COUNT
    for c in cards:
        counts[c] += 1
    return counts


def _at_least(known: list[int], shown: Sequence[int], played: Sequence[int]) -> None:
    """Raise ``known`` to the copies of ``shown`` not played since (a copy played may be the shown one)."""
    for c in range(CARD_COUNT):
        still = shown[c] - played[c]
        if still > known[c]:
            known[c] = still


def _pass_receiver(view: SeatView) -> int | None:
    if not view.passed or view.bidder is None:
        return None
    return _partner(view) if view.seat == view.bidder else view.bidder


def _partner(view: SeatView) -> int:
    side = view.variant.sides[view.variant.side_of(view.seat)]
    return next(s for s in side if s != view.seat)


def _read_trick(
    view: SeatView,
    rules: PlayRules,
    trick: Trick,
    number: int,
    played_by: list[list[int]],
    forbidden: list[int],
) -> None:
    """Note who played what, and what each play proves a seat lacks (the §0.4 duties it kept)."""
    trump, seats = view.trump, rules.seats
    cards = trick.cards
    led = cards[0] // 6
    leader = trick.leader
    played_by[leader][cards[0]] += 1
    first_lead = number == 0 and leader == view.bidder and rules.lead_trump_first
    if first_lead and trump is not None and led != trump:
        forbidden[leader] |= ALL_SUIT_CARDS[trump]
    for index in range(1, len(cards)):
        seat = (leader + index) % seats
        c = cards[index]
        played_by[seat][c] += 1
        win = trick_winner(cards[:index], trump)
        winning = cards[win]
        duty = must_beat(rules, (leader + win) % seats, seat)
        if c // 6 != led:
            forbidden[seat] |= ALL_SUIT_CARDS[led]
            if trump is None or not rules.trump_when_void:
                continue
            if c // 6 != trump:
                forbidden[seat] |= ALL_SUIT_CARDS[trump]
            elif rules.overtrump and duty and winning // 6 == trump and not c < winning:
                forbidden[seat] |= _higher_than(winning)
        elif rules.head and duty and winning // 6 == led and not c < winning:
            forbidden[seat] |= _higher_than(winning)


def _higher_than(c: int) -> int:
    """The bits of the cards of ``c``'s suit that beat it."""
    base = c // 6 * 6
    return sum(1 << card for card in range(base, c))


# ---------------------------------------------------------------- dealing the hidden cards


def determinize(view: SeatView, rng: random.Random, knowledge: Knowledge | None = None) -> list[list[int]]:
    """One full deal (24 counts per seat) that fits everything ``view`` shows; the seat's own hand
    is its real one. Pass ``knowledge`` (``knowledge_of(view)``) when dealing many times."""
    k = knowledge if knowledge is not None else knowledge_of(view)
    return deal_unknown(k, rng)


def deal_unknown(k: Knowledge, rng: random.Random) -> list[list[int]]:
    """The known cards where they are, and the unseen ones dealt at random within the constraints."""
    return Dealer(k).deal(rng)


class Dealer:
    """``deal_unknown`` for many deals from one ``Knowledge``: what depends on the knowledge alone
    (the pool of unseen cards, the seats that may hold each) is read once, not once a deal."""

    __slots__ = ("allowed", "barred", "k", "others", "pool")

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.others = [s for s in range(len(k.sizes)) if s != k.seat and k.need(s) > 0]
        self.pool = [Card(c) for c in range(CARD_COUNT) for _ in range(k.unseen[c])]
        # Per card, the seats that may hold it (in seat order), and how many of the others may not.
        self.allowed = [[s for s in self.others if not k.forbidden[s] >> c & 1] for c in range(CARD_COUNT)]
        barred = [len(self.others) - len(seats) for seats in self.allowed]
        self.barred = barred if any(barred) else None

    def deal(self, rng: random.Random) -> list[list[int]]:
        """One deal, drawn with ``rng``: the same as ``deal_unknown(k, rng)``."""
        hands = [list(known) for known in self.k.known]
        if not self.others:
            return hands
        if self.barred is None:
            self._fair_deal(hands, rng)
            return hands
        for _ in range(GREEDY_ATTEMPTS):
            dealt = self._greedy_deal(rng)
            if dealt is not None:
                break
        else:
            dealt = _flow_deal(self.pool, self.others, self.k, rng)
        for seat, cards in dealt.items():
            for c in cards:
                hands[seat][c] += 1
        return hands

    def _fair_deal(self, hands: list[list[int]], rng: random.Random) -> None:
        """With nothing barred: shuffle, then give each card to a seat chosen in proportion to its
        room, into ``hands`` (in place). Exactly a fair deal, and what ``_greedy_deal`` draws when
        nothing is barred, card for card, at three quarters of its CPU (every bid analysis deals
        this way, a quarter of its time)."""
        cards = self.pool[:]
        rng.shuffle(cards)
        draw = rng._randbelow  # type: ignore[attr-defined]  # see _greedy_deal
        room = [self.k.need(s) for s in self.others]
        holders = [hands[s] for s in self.others]
        left = sum(room)
        for c in cards:
            pick = draw(left)
            seat = 0
            while pick >= room[seat]:  # a seat with no room left takes nothing off ``pick``
                pick -= room[seat]
                seat += 1
            holders[seat][c] += 1
            room[seat] -= 1
            left -= 1

    def _greedy_deal(self, rng: random.Random) -> dict[int, list[Card]] | None:
        """Shuffle and deal, each card to a seat that may hold it (``allowed``), chosen in
        proportion to its room; the most constrained cards go first so a dead end is rare, and a
        dead end returns None for another try."""
        k, others, allowed = self.k, self.others, self.allowed
        assert self.barred is not None  # else ``_fair_deal``
        room = {s: k.need(s) for s in others}
        cards = self.pool[:]
        rng.shuffle(cards)
        dealt: dict[int, list[Card]] = {s: [] for s in others}
        left = sum(room.values())  # room left at every seat: a card any seat may hold picks from it all
        # ``rng._randbelow(n)`` is what ``rng.randrange(n)`` returns for n > 0, without its checks:
        # a deal draws once a card, and the checks were a sixth of a bid analysis's dealing.
        draw = rng._randbelow  # type: ignore[attr-defined]
        cards.sort(key=self.barred.__getitem__, reverse=True)  # stable: the shuffle orders ties
        everyone = len(others)
        for c in cards:
            eligible = [s for s in allowed[c] if room[s]]
            if not eligible:
                return None
            size = left if len(allowed[c]) == everyone else sum(room[s] for s in eligible)
            pick = draw(size)
            for s in eligible:
                pick -= room[s]
                if pick < 0:
                    break
            dealt[s].append(c)
            room[s] -= 1
            left -= 1
        return dealt


def _flow_deal(
    pool: list[Card], others: list[int], k: Knowledge, rng: random.Random
) -> dict[int, list[Card]]:
    """A deal that fits for certain (a max flow from card copies to seats' room), in random order."""
    order = pool[:]
    rng.shuffle(order)
    owner: list[int | None] = [None] * len(order)
    room = {s: k.need(s) for s in others}
    holding: dict[int, list[int]] = {s: [] for s in others}

    def place(i: int, visited: set[int]) -> bool:
        seats = others[:]
        rng.shuffle(seats)
        for s in seats:
            if k.forbidden[s] >> order[i] & 1 or s in visited:
                continue
            visited.add(s)
            if room[s] > 0:
                room[s] -= 1
                holding[s].append(i)
                owner[i] = s
                return True
            for j in holding[s]:  # move a card this seat holds elsewhere to make room
                if place(j, visited):
                    holding[s].remove(j)
                    holding[s].append(i)
                    owner[i] = s
                    return True
        return False

    for i in range(len(order)):
        if not place(i, set()):
            raise ValueError(f"no deal fits seat {k.seat}'s view")
    return {s: [order[i] for i in holding[s]] for s in others}


def fits(k: Knowledge, hands: Sequence[Sequence[int]]) -> str | None:
    """Why ``hands`` do not fit ``k`` (None when they do): for tests and assertions."""
    total = [0] * CARD_COUNT
    for seat, hand in enumerate(hands):
        if sum(hand) != k.sizes[seat]:
            return f"seat {seat} holds {sum(hand)} cards, not {k.sizes[seat]}"
        for c in range(CARD_COUNT):
            if hand[c] < k.known[seat][c]:
                return f"seat {seat} lacks a card it is known to hold"
            if hand[c] and k.forbidden[seat] >> c & 1:
                return f"seat {seat} holds a card it has shown it lacks"
            total[c] += hand[c]
    if k.seat is not None and list(hands[k.seat]) != list(k.known[k.seat]):
        return "the seat's own hand changed"
    for c in range(CARD_COUNT):
        expected = k.unseen[c] + sum(known[c] for known in k.known)
        if total[c] != expected:
            return f"card {c}: {total[c]} copies dealt, {expected} expected"
    return None
