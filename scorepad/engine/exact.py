"""The exact value of the rest of a hand, searched fast enough to start it several tricks earlier.

``lean.solve`` copies the play state at every card and keeps nothing between branches; this search
gives the same value (the tests hold it to ``lean.solve`` and to plain minimax) with the levers of
double-dummy solvers at bridge:

* **no copies**: one set of hands is changed in place and put back as the search returns, and the
  trick in progress travels in the arguments;
* **a transposition table** at each trick's start, keyed by every hand, the leader, the points and
  the tricks taken so far (the score is not a sum of tricks, so the points so far are part of the
  position): the same tricks in another order are searched once; it keeps a bound on each side
  where a window cut the search short, and the best lead found, tried first next time;
* **equivalent cards**: two cards of one seat in one suit, worth the same counters, with no card
  between them (or equal to either) held by another seat or already in the trick, do the same
  wherever they are played (every comparison with every card still to be played comes out the
  same), so only one of them is searched;
* **move order**: a cheap guess at the better card first (a lead that nobody can beat, a follow
  that wins as cheaply as it can, a counter onto a partner's trick), which cuts more.

The value is the same whatever the order, pruning and window: alpha-beta with a full window at the
root gives the minimax value, the table keeps only bounds that a searched window proved.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARD_COUNT, Card
from .lean import ABOVE, INFINITY, SUIT_MASK, Contract, PlayState

COUNT_BITS = 3  # a card's copies in a seat's code: up to four (double-deck), so three bits each
Memo = dict[tuple[int, ...], tuple[float, float, int]]  # position -> (lower, upper, best lead)

# Per pair of cards of one suit, ``c`` the higher, the cards from ``c`` down to ``d``: a span the two
# must not share with anyone else's cards to be equivalent (``None`` for cards of different suits).
_SPAN = tuple(
    tuple(((1 << (d + 1)) - (1 << c)) if d // 6 == c // 6 and d >= c else None for d in range(CARD_COUNT))
    for c in range(CARD_COUNT)
)


def solve_exact(state: PlayState, contract: Contract, side: int, memo: Memo | None = None) -> float:
    """``side``'s exact margin for the rest of ``state`` (left as it was), as
    ``lean.solve(state, contract, side, -INFINITY, INFINITY)`` gives it. ``memo`` may be shared by
    searches of the same deal, contract and side (the positions after each candidate card)."""
    return _Search(state, contract, side, {} if memo is None else memo).root(state)


class _Search:
    """One search's hands (changed in place and put back), the rules as plain tuples, the table."""

    __slots__ = (
        "beaten_by",
        "codes",
        "contract",
        "counts",
        "done",
        "hand_size",
        "last_trick",
        "lead_trump_first",
        "left",
        "masks",
        "maximising",
        "memo",
        "next_seat",
        "points",
        "seats",
        "side",
        "side_of",
        "table",
        "took",
        "trump_mask",
        "value",
    )

    def __init__(self, state: PlayState, contract: Contract, side: int, memo: Memo) -> None:
        table = state.table
        self.table, self.contract, self.side, self.memo = table, contract, side, memo
        self.seats, self.side_of, self.value = table.seats, table.side_of, table.value
        self.beaten_by, self.next_seat, self.trump_mask = table.beaten_by, table.next_seat, table.trump_mask
        self.hand_size, self.last_trick = table.hand_size, table.last_trick
        self.lead_trump_first = table.lead_trump_first
        self.maximising = tuple(table.side_of[seat] == side for seat in range(table.seats))
        self.masks, self.counts = state.masks[:], state.counts[:]
        self.codes = [
            _code(self.counts[seat * CARD_COUNT : (seat + 1) * CARD_COUNT]) for seat in range(self.seats)
        ]
        self.points, self.took, self.done, self.left = state.points[:], state.took[:], state.done, state.left

    def root(self, state: PlayState) -> float:
        if not state.trick:
            return self.boundary(state.leader, -INFINITY, INFINITY)
        trick_mask = 0
        for c in state.trick:
            trick_mask |= 1 << c
        return self.turn(
            state.to_act, len(state.trick), state.led, state.winning, state.win_seat, state.trick_value,
            trick_mask, -INFINITY, INFINITY,
        )  # fmt: skip

    def boundary(self, leader: int, alpha: float, beta: float) -> float:
        """The value at a trick's start, ``leader`` to lead: looked up, or searched and kept."""
        left = self.left
        if left <= 1:
            return self.last(leader) if left else self.contract.margin(self.points, self.took, self.side)
        key = (*self.codes, leader, *self.points, *self.took)
        found = self.memo.get(key)
        best_lead = -1
        if found is not None:
            lower, upper, best_lead = found
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        value, lead = self.lead(leader, best_lead, alpha, beta)
        lower, upper = (-INFINITY, INFINITY) if found is None else found[:2]
        if value <= alpha:
            upper = value
        elif value >= beta:
            lower = value
        else:
            lower = upper = value
        self.memo[key] = (lower, upper, lead)
        return value

    def last(self, leader: int) -> float:
        """The last trick: every seat plays its one card, no choice left."""
        seat, winning, win_seat, trick_value = leader, -1, leader, 0
        for _ in range(self.seats):
            c = self.masks[seat].bit_length() - 1
            if winning < 0 or self.beaten_by[winning] >> c & 1:
                winning, win_seat = c, seat
            trick_value += self.value[c]
            seat = self.next_seat[seat]
        won = self.side_of[win_seat]
        points, took = self.points[:], self.took[:]
        points[won] += trick_value + (self.last_trick if self.done + 1 == self.hand_size else 0)
        took[won] = True
        return self.contract.margin(points, took, self.side)

    def lead(self, leader: int, first: int, alpha: float, beta: float) -> tuple[float, int]:
        """The best lead's value for the seat on lead (and the card), within the window."""
        hand = self.masks[leader]
        legal = hand
        if self.lead_trump_first and not self.done and hand & self.trump_mask:
            legal = hand & self.trump_mask
        others = self.others(leader)
        cards = _lead_order(self.distinct(legal, others), others, first)
        maximising = self.maximising[leader]
        best, best_card = (-INFINITY if maximising else INFINITY), cards[0]
        for c in cards:
            self.take(leader, c)
            value = self.turn(
                self.next_seat[leader], 1, SUIT_MASK[c // 6], c, leader, self.value[c], 1 << c, alpha, beta
            )
            self.give(leader, c)
            if maximising:
                if value > best:
                    best, best_card = value, c
                    alpha = max(alpha, value)
            elif value < best:
                best, best_card = value, c
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best, best_card

    def turn(
        self,
        seat: int,
        played: int,
        led: int,
        winning: int,
        win_seat: int,
        trick_value: int,
        trick_mask: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The value with ``played`` cards of the trick down and ``seat`` to follow."""
        legal = self.table.follow_mask(self.masks[seat], seat, led, Card(winning), win_seat)
        if legal & (legal - 1):
            others = self.others(seat) | trick_mask
            partner_winning = self.maximising[win_seat] == self.maximising[seat]
            cards = _follow_order(
                self.distinct(legal, others), self.beaten_by[winning], self.value, partner_winning
            )
        else:  # a forced card: nothing to order
            cards = [legal.bit_length() - 1]
        maximising = self.maximising[seat]
        best = -INFINITY if maximising else INFINITY
        last = played + 1 == self.seats
        for c in cards:
            now, now_seat = (c, seat) if self.beaten_by[winning] >> c & 1 else (winning, win_seat)
            self.take(seat, c)
            if last:
                value = self.close(now_seat, trick_value + self.value[c], alpha, beta)
            else:
                value = self.turn(
                    self.next_seat[seat], played + 1, led, now, now_seat, trick_value + self.value[c],
                    trick_mask | 1 << c, alpha, beta,
                )  # fmt: skip
            self.give(seat, c)
            if maximising:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def close(self, winner: int, trick_value: int, alpha: float, beta: float) -> float:
        """The trick complete: its counters to the winner's side, then the next trick searched."""
        won = self.side_of[winner]
        points, took = self.points, self.took
        had = took[won]
        if self.done + 1 == self.hand_size:  # the last trick's bonus, as ``PlayState.play`` gives it
            trick_value += self.last_trick
        points[won] += trick_value
        took[won] = True
        self.done += 1
        self.left -= 1
        value = self.boundary(winner, alpha, beta)
        self.left += 1
        self.done -= 1
        took[won] = had
        points[won] -= trick_value
        return value

    def others(self, seat: int) -> int:
        """The cards every other seat holds, taken together."""
        held = 0
        for other, hand in enumerate(self.masks):
            if other != seat:
                held |= hand
        return held

    def distinct(self, legal: int, others: int) -> list[int]:
        """The cards of ``legal`` less all but one of each run of equivalent cards (highest first
        within a suit: a smaller card int is a higher card)."""
        kept: list[int] = []
        previous = -1
        value = self.value
        while legal:
            bit = legal & -legal
            legal ^= bit
            c = bit.bit_length() - 1
            span = _SPAN[previous][c] if previous >= 0 else None
            if span is not None and value[c] == value[previous] and not span & others:
                previous = c  # equivalent to the one before it: the run goes on
                continue
            kept.append(c)
            previous = c
        return kept

    def take(self, seat: int, c: int) -> None:
        at = seat * CARD_COUNT + c
        self.counts[at] -= 1
        if not self.counts[at]:
            self.masks[seat] ^= 1 << c
        self.codes[seat] -= 1 << (COUNT_BITS * c)

    def give(self, seat: int, c: int) -> None:
        at = seat * CARD_COUNT + c
        if not self.counts[at]:
            self.masks[seat] |= 1 << c
        self.counts[at] += 1
        self.codes[seat] += 1 << (COUNT_BITS * c)


def _code(counts: Sequence[int]) -> int:
    """A seat's hand as one int: each card's copies in ``COUNT_BITS`` bits."""
    return sum(n << (COUNT_BITS * c) for c, n in enumerate(counts))


def _lead_order(cards: list[int], others: int, first: int) -> list[int]:
    """Leads, the best found before first, then the cards nobody else can beat in their suit
    (high first), then the rest from the lowest: a boss lead or a cheap one usually settles it."""
    bosses: list[int] = []
    rest: list[int] = []
    for c in cards:
        if c == first:
            continue
        (rest if others & ABOVE[c] or others >> c & 1 else bosses).append(c)
    rest.reverse()
    ordered = bosses + rest
    return [first, *ordered] if first in cards else ordered


def _follow_order(cards: list[int], beats: int, value: Sequence[int], partner_winning: bool) -> list[int]:
    """Follows: onto a trick won by the same side of the search (a partner, or in six-handed any
    seat against the side searched for) the richest card first; else the cheapest card that takes
    the trick, then the cheapest that does not (the card found best most often comes first)."""
    if len(cards) == 1:
        return cards
    if partner_winning:
        return sorted(cards, key=lambda c: (beats >> c & 1, -value[c], -c))
    winners = [c for c in cards if beats >> c & 1]
    losers = [c for c in cards if not beats >> c & 1]
    winners.reverse()
    return winners + sorted(losers, key=lambda c: (value[c], -c))


__all__ = ["Memo", "solve_exact"]
