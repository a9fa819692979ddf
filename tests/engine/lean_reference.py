"""The yardstick for ``lean.py``: the lean state and playout policy as they were written first,
on lists of counts (``play.legal_cards``, ``play.close_trick``, a list built per choice). Kept so
that the tests can hold the compact state to playing every card of every deal exactly as this
did (its exact search is left out: the tests hold ``lean.solve`` to plain minimax); it is not
used outside the tests.

What it was:

Search bots play thousands of hands per decision on deals they sampled themselves
(``knowledge.determinize``), so this path carries only what trick play needs: the hands as counts,
the trick, the points and who took a trick, and the play rules as flags (``play.PlayRules``).
Legality and closing a trick come from the same functions the game engine uses
(``play.legal_cards``, ``play.close_trick``), and the hand's score
from the same scorer (``scoring.score_hand``, cached per result), so a playout scores exactly as the
real hand would.

The playout policy sees every hand of the sampled deal (each deal is only one guess, and the
playouts are averaged over many): it cashes winners nobody can beat, feeds counters to a partner
whose card nobody can beat, wins as cheaply as it can for certain, and otherwise throws its cheapest
card.
"""

from __future__ import annotations

from scorepad.engine.cards import Card, Suit
from scorepad.engine.lean import Contract
from scorepad.engine.play import PlayRules, close_trick, legal_cards, trick_winner


class PlayState:
    """Trick play in progress: mutable, copied before each playout."""

    __slots__ = ("done", "hands", "leader", "left", "points", "rules", "to_act", "took", "trick", "trump")

    def __init__(
        self,
        rules: PlayRules,
        trump: Suit,
        hands: list[list[int]],
        leader: int,
        trick: list[Card],
        points: list[int],
        took: list[bool],
        done: int,
    ) -> None:
        self.rules = rules
        self.trump = trump
        self.hands = hands
        self.leader = leader
        self.trick = trick
        self.points = points
        self.took = took
        self.done = done  # completed tricks
        self.left = sum(hands[leader]) + (1 if trick else 0)  # tricks not yet completed
        self.to_act = (leader + len(trick)) % rules.seats

    def copy(self) -> PlayState:
        copied = PlayState.__new__(PlayState)
        copied.rules, copied.trump, copied.leader = self.rules, self.trump, self.leader
        copied.hands = [hand[:] for hand in self.hands]
        copied.trick, copied.points, copied.took = self.trick[:], self.points[:], self.took[:]
        copied.done, copied.left, copied.to_act = self.done, self.left, self.to_act
        return copied

    def legal(self) -> list[Card]:
        """The distinct cards the seat to act may play (the game engine's rules, ``play.legal_cards``)."""
        counts = self.hands[self.to_act]
        return legal_cards(self.rules, counts, self.trump, self.leader, self.trick, self.done)

    def play(self, c: Card) -> None:
        rules = self.rules
        self.hands[self.to_act][c] -= 1
        trick = self.trick
        trick.append(c)
        if len(trick) < rules.seats:
            self.to_act = (self.to_act + 1) % rules.seats
            return
        winner = close_trick(rules, trick, self.leader, self.trump, self.done, self.points, self.took)
        self.done += 1
        self.left -= 1
        self.trick = []
        self.leader = self.to_act = winner

    def over(self) -> bool:
        return self.left == 0


# ---------------------------------------------------------------- the playout policy


def _beaten_by(hand: list[int], c: Card, led: Suit, trump: Suit) -> bool:
    """Whether a hand that must play to a trick led in ``led`` could take over card ``c``.

    Following suit it can only beat with a higher card of ``c``'s suit; void in ``led`` it may trump.
    """
    base = led * 6
    follows = any(hand[base : base + 6])
    suit = c // 6
    if follows:
        return suit == led and any(hand[suit * 6 : c])
    tbase = trump * 6
    if suit == trump:
        return any(hand[tbase:c])
    return any(hand[tbase : tbase + 6])


def _safe(state: PlayState, c: Card, led: Suit, seat: int) -> bool:
    """``c``, winning now for ``seat``'s side, cannot be beaten by an opponent still to play."""
    rules = state.rules
    mine = rules.side_of[seat]
    for i in range(len(state.trick) + 1, rules.seats):
        other = (state.leader + i) % rules.seats
        if rules.side_of[other] != mine and _beaten_by(state.hands[other], c, led, state.trump):
            return False
    return True


def _threats(state: PlayState, seat: int) -> list[tuple[list[int], bool]]:
    """Per opponent of ``seat``: its highest card per suit (past the suit: none), and whether it has trump."""
    rules, hands, trump = state.rules, state.hands, state.trump
    mine = rules.side_of[seat]
    found = []
    for other in range(rules.seats):
        if rules.side_of[other] == mine:
            continue
        hand = hands[other]
        tops = []
        for base in (0, 6, 12, 18):
            card = base
            while card < base + 6 and not hand[card]:
                card += 1
            tops.append(card)
        found.append((tops, tops[trump] < trump * 6 + 6))
    return found


def _boss(c: Card, trump: Suit, threats: list[tuple[list[int], bool]]) -> bool:
    """Led now, ``c`` wins the trick whatever the opponents hold (``_threats``)."""
    suit = c // 6
    end = suit * 6 + 6
    for tops, trumps in threats:
        top = tops[suit]
        if top < end:  # follows suit: beaten only by a higher card of it
            if top < c:
                return False
        elif trumps and suit != trump:  # void: trumps it
            return False
    return True


def policy(state: PlayState) -> Card:
    """The playout's choice for the seat to act (it sees every hand of the sampled deal)."""
    legal = state.legal()
    if len(legal) == 1:
        return legal[0]
    seat, trump, value = state.to_act, state.trump, state.rules.value
    trick = state.trick
    if not trick:
        threats = _threats(state, seat)
        bosses = [c for c in legal if _boss(c, trump, threats)]
        if bosses:  # cash a sure winner, side suits and counters first
            return max(bosses, key=lambda c: (c // 6 != trump, value[c], -(c % 6)))
        return min(legal, key=lambda c: (value[c], c // 6 == trump, -(c % 6)))
    led = trick[0] // 6
    win = trick_winner(trick, trump)
    winning = trick[win]
    rules = state.rules
    if rules.side_of[(state.leader + win) % rules.seats] == rules.side_of[seat] and _safe(
        state, winning, led, seat
    ):
        # partner has it: smear the richest card, a trump only when nothing else is left
        return max(legal, key=lambda c: (c // 6 != trump, value[c], c % 6))
    sure = [
        c
        for c in legal
        if (c // 6 == winning // 6 and c < winning) or (c // 6 == trump and winning // 6 != trump)
        if _safe(state, c, led, seat)
    ]
    if sure:
        return min(sure, key=lambda c: (c // 6 == trump, -value[c], -(c % 6)))
    return min(legal, key=lambda c: (value[c], c // 6 == trump, -(c % 6)))


def playout(state: PlayState, contract: Contract, side: int) -> float:
    """Play ``state`` (in place) to the end by the policy; ``side``'s margin."""
    while state.left:
        state.play(policy(state))
    return contract.margin(state.points, state.took, side)
