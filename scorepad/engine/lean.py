"""A lean state for trick play only, a fast playout policy and an exact search of the last tricks.

Search bots play thousands of hands per decision on deals they sampled themselves
(``knowledge.determinize``), so this path carries only what trick play needs, in a compact form:
each hand as a bit set of the distinct cards it holds (bit ``c`` for card ``c``, six bits a suit)
beside its counts (double-deck holds up to four copies), the trick with its winning card and
counters kept as it grows, the points and who took a trick. The §4 play keys of ``play.PlayRules``
are read once per hand and trump into a ``Table``: legal plays are masks (the suit led, the cards
above the winning one), and each of the policy's preferences is one precomputed order of the 24
cards, so a choice is the first card of an order that the mask holds. The hand's score comes from
the real scorer (``scoring.score_hand``, cached per result), so a playout scores exactly as the
real hand would; the tests hold the legal plays to ``play.legal_cards`` and the trick winner to
``play.close_trick`` card by card.

The playout policy (``policy``) sees every hand of the sampled deal (each deal is only one guess,
and the playouts are averaged over many): it cashes winners nobody can beat, feeds counters to a
partner whose card nobody can beat, wins as cheaply as it can for certain, and otherwise throws its
cheapest card. ``blind_policy`` makes the same choices as a player at the table would, judging "for
certain" by the cards the seat cannot see, wherever they lie: what every simulated hand is played
by where no seat has a partner (``search.playout_policy``: measured). A ``Plan`` plays one seat's
cards in the playouts of a search instead, learnt across the deals it samples (an open-loop tree).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress
from math import log, sqrt

from .cards import ALL_CARDS, CARD_COUNT, Card, Suit
from .play import PlayRules
from .scoring import HandEntry, score_hand
from .variants import Settings, Variant

INFINITY = 10.0**9

BIT = tuple(1 << c for c in range(CARD_COUNT))
SUIT_MASK = tuple(0x3F << (6 * suit) for suit in range(4))
# Per card, the higher cards of its suit (a smaller card int is a higher card within a suit).
ABOVE = tuple(((1 << c) - 1) & SUIT_MASK[c // 6] for c in range(CARD_COUNT))
_HALF = 12  # a mask's cards are read 12 bits at a time from these tables
_LOW = tuple(tuple(ALL_CARDS[c] for c in range(_HALF) if m >> c & 1) for m in range(1 << _HALF))
_HIGH = tuple(tuple(ALL_CARDS[_HALF + c] for c in range(_HALF) if m >> c & 1) for m in range(1 << _HALF))


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit set, in canonical (ascending) order."""
    return list(_LOW[mask & 0xFFF] + _HIGH[mask >> _HALF])


def mask_of(counts: Sequence[int]) -> int:
    """The bit set of the distinct cards a hand of counts holds."""
    return sum(compress(BIT, counts))  # distinct bits: their sum is their union


Order = tuple[tuple[int, Card], ...]  # (bit, card), the preferred card first
Chooser = Callable[["PlayState"], Card]  # a playout's policy: the card for the seat to act


def _order(key: Callable[[int], tuple[object, ...]], *, highest: bool) -> Order:
    """The 24 cards from the one ``max`` (``highest``) or ``min`` of ``key`` would pick first; ties
    go to the smaller card int, as ``max``/``min`` over a hand in canonical order break them."""
    ranked = sorted(range(CARD_COUNT), key=key, reverse=highest)  # stable: ties stay ascending
    return tuple((BIT[c], ALL_CARDS[c]) for c in ranked)


def _first(order: Order, mask: int) -> Card:
    """The first card of ``order`` in ``mask`` (which holds one)."""
    for bit, c in order:
        if mask & bit:
            return c
    raise ValueError("an empty mask")


class Table:
    """One hand's play rules and trump, read once: seats, sides, duties and the policy's orders."""

    __slots__ = (
        "beaten_by",
        "cash",
        "cheap",
        "hand_size",
        "head",
        "last_trick",
        "later",
        "lead_trump_first",
        "next_seat",
        "opponents",
        "overtrump",
        "partner_exempt",
        "seats",
        "side_of",
        "smear",
        "sure",
        "trump",
        "trump_mask",
        "trump_when_void",
        "value",
    )

    def __init__(self, rules: PlayRules, trump: Suit) -> None:
        seats, side_of, value = rules.seats, rules.side_of, rules.value
        self.seats, self.side_of, self.value, self.trump = seats, side_of, value, trump
        self.trump_mask = SUIT_MASK[trump]
        self.last_trick, self.hand_size = rules.last_trick, rules.hand_size
        self.head, self.overtrump, self.trump_when_void = rules.head, rules.overtrump, rules.trump_when_void
        self.partner_exempt, self.lead_trump_first = rules.partner_exempt, rules.lead_trump_first
        self.next_seat = tuple((seat + 1) % seats for seat in range(seats))
        self.opponents = tuple(
            tuple(other for other in range(seats) if side_of[other] != side_of[seat]) for seat in range(seats)
        )
        # later[leader * seats + n]: the opponents of the n-th seat to play who play after it
        self.later = tuple(
            tuple(
                (leader + i) % seats
                for i in range(n + 1, seats)
                if side_of[(leader + i) % seats] != side_of[(leader + n) % seats]
            )
            for leader in range(seats)
            for n in range(seats)
        )
        # per card, the cards that take over a trick it is winning (§0.3, ``play.beats``): a higher
        # card of its suit, or any trump over a side card
        self.beaten_by = tuple(
            ABOVE[w] | (0 if w // 6 == trump else self.trump_mask) for w in range(CARD_COUNT)
        )
        self.cash = _order(lambda c: (c // 6 != trump, value[c], -(c % 6)), highest=True)
        self.smear = _order(lambda c: (c // 6 != trump, value[c], c % 6), highest=True)
        self.sure = _order(lambda c: (c // 6 == trump, -value[c], -(c % 6)), highest=False)
        self.cheap = _order(lambda c: (value[c], c // 6 == trump, -(c % 6)), highest=False)

    def follow_mask(self, hand: int, seat: int, led: int, winning: Card, win_seat: int) -> int:
        """The cards of ``hand`` that ``seat`` may play to a trick already led (``led`` the mask of
        the suit led, ``winning`` the card winning it, played by ``win_seat``): §0.4 on masks."""
        duty = not (self.partner_exempt and win_seat != seat and self.side_of[win_seat] == self.side_of[seat])
        follow = hand & led
        if follow:  # a trumped trick leaves no led-suit card able to beat: any of them
            if duty and self.head and led >> winning & 1:
                higher = follow & ABOVE[winning]
                if higher:
                    return higher
            return follow
        if self.trump_when_void:
            trumps = hand & self.trump_mask
            if trumps:  # must trump even when it cannot win
                if duty and self.overtrump and winning // 6 == self.trump:
                    higher = trumps & ABOVE[winning]
                    if higher:
                        return higher
                return trumps
        return hand


_TABLES: dict[tuple[PlayRules, Suit], Table] = {}


def table_of(rules: PlayRules, trump: Suit) -> Table:
    """The ``Table`` of these rules and trump (built once, then shared by every state)."""
    found = _TABLES.get((rules, trump))
    if found is None:
        found = _TABLES[rules, trump] = Table(rules, trump)
    return found


# Scores per hand (variant, settings, bidder, bid, trump, meld), then per trick points and tricks
# taken: the sampled deals of one decision mostly share a contract and end in the same few results.
_SCORES: dict[tuple[object, ...], dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[int, ...]]] = {}
_HANDS_KEPT = 4096


@dataclass(slots=True)
class Contract:
    """The hand being played: who bid what in which trump, and each side's meld, for scoring."""

    variant: Variant
    settings: Settings
    bidder: int
    bid: int
    trump: Suit
    meld: tuple[int, ...]  # per side
    _scores: dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[int, ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        hand = (self.variant.id, self.settings, self.bidder, self.bid, self.trump, self.meld)
        found = _SCORES.get(hand)
        if found is None:
            if len(_SCORES) >= _HANDS_KEPT:
                _SCORES.clear()
            found = _SCORES[hand] = {}
        self._scores = found

    def scores(self, points: Sequence[int], took: Sequence[bool]) -> tuple[int, ...]:
        """Each side's score for a hand ending with these trick points (the real scorer, cached)."""
        key = (tuple(points), tuple(took))
        found = self._scores.get(key)
        if found is None:
            entry = HandEntry(self.bidder, self.bid, self.trump, self.meld, key[0], key[1])
            found = self._scores[key] = score_hand(self.variant, self.settings, entry).scores
        return found

    def margin(self, points: Sequence[int], took: Sequence[bool], side: int) -> float:
        """``side``'s score less the average of the other sides': what a seat plays to maximise."""
        scores = self.scores(points, took)
        others = len(scores) - 1
        return scores[side] - (sum(scores) - scores[side]) / others


class PlayState:
    """Trick play in progress: mutable, copied before each playout.

    ``masks[seat]`` is the bit set of the distinct cards a seat holds, ``counts[seat * 24 + c]``
    how many copies of ``c``; ``led`` the mask of the suit led to the trick in progress,
    ``winning`` and ``win_seat`` the card winning it and who played it, ``trick_value`` its
    counters so far.
    """

    __slots__ = (
        "bidders",
        "counts",
        "done",
        "leader",
        "led",
        "left",
        "masks",
        "points",
        "rules",
        "table",
        "to_act",
        "took",
        "trick",
        "trick_value",
        "trump",
        "win_seat",
        "winning",
    )

    def __init__(
        self,
        rules: PlayRules,
        trump: Suit,
        hands: Sequence[Sequence[int]],  # per seat, counts indexed by card (copied, not kept)
        leader: int,
        trick: list[Card],
        points: list[int],
        took: list[bool],
        done: int,
        bidder: int | None = None,  # the bidder's seat, where a policy asks who defends
    ) -> None:
        table = table_of(rules, trump)
        self.bidders = None if bidder is None else table.side_of[bidder]
        self.rules = rules
        self.table = table
        self.trump = trump
        self.counts = list(chain.from_iterable(hands))
        self.masks = [mask_of(hand) for hand in hands]
        self.leader = leader
        self.trick = trick
        self.points = points
        self.took = took
        self.done = done  # completed tricks
        self.left = sum(hands[leader]) + (1 if trick else 0)  # tricks not yet completed
        self.to_act = (leader + len(trick)) % rules.seats
        self.led = SUIT_MASK[trick[0] // 6] if trick else 0
        self.winning, self.win_seat, self.trick_value = Card(0), leader, 0
        for n, c in enumerate(trick):
            if not n or table.beaten_by[self.winning] >> c & 1:
                self.winning, self.win_seat = c, (leader + n) % rules.seats
            self.trick_value += table.value[c]

    @property
    def hands(self) -> list[list[int]]:
        """Each seat's counts, indexed by card (a fresh copy)."""
        counts = self.counts
        return [counts[seat * CARD_COUNT : (seat + 1) * CARD_COUNT] for seat in range(self.rules.seats)]

    def copy(self) -> PlayState:
        copied = PlayState.__new__(PlayState)
        copied.rules, copied.table, copied.trump = self.rules, self.table, self.trump
        copied.bidders = self.bidders
        copied.counts, copied.masks = self.counts[:], self.masks[:]
        copied.trick, copied.points, copied.took = self.trick[:], self.points[:], self.took[:]
        copied.leader, copied.led, copied.done, copied.left = self.leader, self.led, self.done, self.left
        copied.to_act, copied.winning, copied.win_seat = self.to_act, self.winning, self.win_seat
        copied.trick_value = self.trick_value
        return copied

    def legal_mask(self) -> int:
        """The bit set of the cards the seat to act may play: ``play.legal_cards`` on masks (§0.4)."""
        table = self.table
        seat = self.to_act
        hand = self.masks[seat]
        trick = self.trick
        if not trick:
            if table.lead_trump_first and not self.done:
                trumps = hand & table.trump_mask
                if trumps:
                    return trumps
            return hand
        return table.follow_mask(hand, seat, self.led, self.winning, self.win_seat)

    def legal(self) -> list[Card]:
        """The distinct cards the seat to act may play (the game engine's rules, ``play.legal_cards``)."""
        return cards_of(self.legal_mask())

    def play(self, c: Card) -> None:
        table = self.table
        seat = self.to_act
        counts = self.counts
        at = seat * 24 + c
        left = counts[at] - 1
        counts[at] = left
        if not left:
            self.masks[seat] ^= 1 << c
        trick = self.trick
        if not trick:
            self.led = SUIT_MASK[c // 6]
            self.winning, self.win_seat, self.trick_value = c, seat, table.value[c]
        else:
            if table.beaten_by[self.winning] >> c & 1:
                self.winning, self.win_seat = c, seat
            self.trick_value += table.value[c]
        trick.append(c)
        if len(trick) < table.seats:
            self.to_act = table.next_seat[seat]
            return
        # the trick is complete: its counters (and the last trick's bonus) to the winner's side
        winner = self.win_seat
        side = table.side_of[winner]
        self.done += 1
        self.points[side] += self.trick_value + (table.last_trick if self.done == table.hand_size else 0)
        self.took[side] = True
        self.left -= 1
        self.trick = []
        self.leader = self.to_act = winner

    def over(self) -> bool:
        return self.left == 0


# ---------------------------------------------------------------- the playout policy


def _safe(state: PlayState, c: Card) -> bool:
    """``c``, winning the trick in progress for the side to act, cannot be beaten by an
    opponent still to play.

    Following the suit led, an opponent beats only with a higher card of ``c``'s suit; void in it,
    with a higher trump over a trump, or any trump over a side card.
    """
    table = state.table
    led = state.led
    same = led >> c & 1
    higher = ABOVE[c]
    ruff = higher if c // 6 == table.trump else table.trump_mask
    masks = state.masks
    for other in table.later[state.leader * table.seats + len(state.trick)]:
        hand = masks[other]
        if hand & led:
            if same and hand & higher:
                return False
        elif hand & ruff:
            return False
    return True


def _bosses(state: PlayState, legal: int) -> int:
    """The cards of ``legal`` that, led now, win whatever the opponents hold: no opponent holds a
    higher card of the suit, and none is void in a side suit with a trump to play on it."""
    table = state.table
    masks = state.masks
    trump_mask = table.trump_mask
    held = ruffed = 0
    for other in table.opponents[state.to_act]:
        hand = masks[other]
        held |= hand
        if hand & trump_mask:
            for suit_mask in SUIT_MASK:
                if not hand & suit_mask:
                    ruffed |= suit_mask
    return _unbeaten(legal & ~(ruffed & ~trump_mask), held)


def _unbeaten(cards: int, others: int) -> int:
    """The cards of ``cards`` that no card of ``others`` beats in its suit."""
    found = 0
    for suit_mask in SUIT_MASK:
        mine = cards & suit_mask
        if mine:
            theirs = others & suit_mask
            if theirs:
                top = theirs & -theirs  # their highest card: an identical one does not beat
                mine &= (top << 1) - 1
            found |= mine
    return found


def policy(state: PlayState) -> Card:
    """The playout's choice for the seat to act (it sees every hand of the sampled deal)."""
    return _choose(state, _bosses, _safe)


def blind_policy(state: PlayState) -> Card:
    """The playout's choice as the seat to act would make it at the table, blind to the sampled
    deal: a card is a sure winner when no card the seat cannot see beats it in its suit, wherever
    that card lies (a partner's too), and nobody is guessed void. What every simulated hand is
    played by where no seat has a partner (``search.playout_policy``): a policy
    that sees the deal rates a card by later plays no player could make (strategy fusion), and
    players, like the heuristic, lead their aces without knowing who is void."""
    return _choose(state, _bosses_blind, _safe_blind)


def _choose(
    state: PlayState,
    bosses: Callable[[PlayState, int], int],
    safe: Callable[[PlayState, Card], bool],
) -> Card:
    """The policy, with ``bosses`` and ``safe`` saying which cards win for certain."""
    legal = state.legal_mask()
    if not legal & (legal - 1):
        return ALL_CARDS[legal.bit_length() - 1]
    table = state.table
    if not state.trick:
        sure = bosses(state, legal)
        if sure:  # cash a sure winner, side suits and counters first
            return _first(table.cash, sure)
        return _first(table.cheap, legal)
    seat = state.to_act
    winning = state.winning
    if table.side_of[state.win_seat] == table.side_of[seat] and safe(state, winning):
        # partner has it: smear the richest card, a trump only when nothing else is left
        return _first(table.smear, legal)
    over = legal & table.beaten_by[winning]
    if over:  # win as cheaply as it can for certain
        for bit, c in table.sure:
            if over & bit and safe(state, c):
                return c
    return _first(table.cheap, legal)


def _unseen(state: PlayState) -> int:
    """The cards the seat to act cannot see: those every other seat holds, taken together."""
    held = 0
    to_act = state.to_act
    for seat, hand in enumerate(state.masks):
        if seat != to_act:
            held |= hand
    return held


def _bosses_blind(state: PlayState, legal: int) -> int:
    """The cards of ``legal`` no card the seat to act cannot see beats in its suit; a defender's
    trumps left out. A defender does not cash its boss trumps, as the heuristic's does not: a trump
    lead pulls the bidder's trumps for it. Played so, six-handed's simulated defenders are nearer
    the heuristic's (three-trump contracts are overvalued by about half as much), and the expert
    gained over 1,000 paired deals (``bots/FINDINGS.md``)."""
    sure = _unbeaten(legal, _unseen(state))
    if state.bidders is not None and state.table.side_of[state.to_act] != state.bidders:
        sure &= ~state.table.trump_mask
    return sure


def _safe_blind(state: PlayState, c: Card) -> bool:
    """``c``, winning the trick in progress, holds as far as the seat to act can tell: no opponent
    is still to play, or no card it cannot see is higher in ``c``'s suit."""
    table = state.table
    if not table.later[state.leader * table.seats + len(state.trick)]:
        return True
    return not _unseen(state) & ABOVE[c]


def playout(
    state: PlayState,
    contract: Contract,
    side: int,
    exact_from: int,
    choose: Chooser,
) -> float:
    """Play ``state`` (in place) to the end by ``choose``; ``side``'s margin. The last
    ``exact_from`` tricks are searched exactly instead. ``choose`` has no default: which policy a
    variant's simulated hands play by is ``search.playout_policy``'s to say."""
    play = state.play
    while state.left > 1:
        if state.left <= exact_from and not state.trick:
            return solve(state, contract, side, -INFINITY, INFINITY)
        play(choose(state))
    _last_trick(state)
    return contract.margin(state.points, state.took, side)


class Plan:
    """What a seat searching its play learns about its own later cards, across the deals it
    samples for one candidate: an open-loop tree keyed by the cards that seat has chosen since
    (never by what a deal holds or what the others played), so every line it learns is one the
    seat could follow at the table. A playout of a fixed policy plays each deal as the policy
    would, one trick at a time; a plan can learn a line that pays over several tricks (draw the
    trumps, then cash), and cannot learn one that only pays on some deals it cannot tell apart.

    A node follows the policy for its first ``patience`` visits, then picks by UCB1 over its
    cards: the mean margin in units of ``scale`` points plus ``explore`` times the usual bonus
    (a card never tried there first)."""

    __slots__ = ("explore", "nodes", "patience", "scale", "seat")

    def __init__(self, seat: int, scale: float, *, patience: int, explore: float) -> None:
        self.seat, self.scale, self.patience, self.explore = seat, scale, patience, explore
        # per line (the seat's choices so far): {card: [times chosen, margin summed]}; a node's
        # visits are its cards' times chosen (each is tallied as its playout ends, and a line is
        # met at most once a playout)
        self.nodes: dict[tuple[Card, ...], dict[Card, list[float]]] = {}

    def playout(self, state: PlayState, contract: Contract, side: int, exact: int, choose: Chooser) -> float:
        """``playout`` (``exact`` its ``exact_from``) with the plan's seat choosing by the plan and
        every other seat by ``choose``; the plan then learns the margin of each card it chose."""
        line: list[Card] = []
        chosen: list[tuple[dict[Card, list[float]], Card]] = []

        def by_plan(state: PlayState) -> Card:
            if state.to_act == self.seat:
                legal = state.legal_mask()
                if legal & (legal - 1):
                    cards = self.nodes.setdefault(tuple(line), {})
                    visits = 1 + sum(tally[0] for tally in cards.values())  # this one included
                    c = choose(state) if visits <= self.patience else self._pick(visits, cards, legal)
                    chosen.append((cards, c))
                    line.append(c)
                    return c
            return choose(state)

        value = playout(state, contract, side, exact, by_plan)
        for cards, c in chosen:
            tally = cards.setdefault(c, [0, 0.0])
            tally[0] += 1
            tally[1] += value
        return value

    def _pick(self, visits: float, cards: dict[Card, list[float]], legal: int) -> Card:
        """UCB1 over the cards of ``legal`` at a node visited ``visits`` times."""
        best, pick = -INFINITY, Card(0)
        bonus = self.explore * sqrt(log(visits))
        for c in cards_of(legal):
            tally = cards.get(c)
            if tally is None or not tally[0]:
                return c
            score = tally[1] / tally[0] / self.scale + bonus / sqrt(tally[0])
            if score > best:
                best, pick = score, c
        return pick


def _last_trick(state: PlayState) -> None:
    """Play out the last trick (in place): every seat still to play holds one card."""
    play, masks = state.play, state.masks
    while state.left:
        play(ALL_CARDS[masks[state.to_act].bit_length() - 1])


def solve(state: PlayState, contract: Contract, side: int, alpha: float, beta: float) -> float:
    """The exact value for ``side`` of the rest of the hand: ``side`` maximises, every other seat
    minimises (alpha-beta over the distinct legal cards; from three tricks left the policy's card
    first: a good card tried first cuts more, and the value is the same whatever the order; two
    tricks left at a trick's start go to ``_two_tricks``). ``state`` is left as it was."""
    if state.left <= 1:  # the last trick: no choice left
        if state.left:
            state = state.copy()
            _last_trick(state)
        return contract.margin(state.points, state.took, side)
    if state.left == 2 and not state.trick:
        return _two_tricks(state, contract, side, alpha, beta)
    maximising = state.table.side_of[state.to_act] == side
    best = -INFINITY if maximising else INFINITY
    legal = state.legal_mask()
    c = policy(state) if state.left > 2 else ALL_CARDS[(legal & -legal).bit_length() - 1]
    legal ^= 1 << c
    while True:
        child = state.copy()
        child.play(c)
        value = solve(child, contract, side, alpha, beta)
        if maximising:
            if value > best:
                best = value
            alpha = max(alpha, value)
        else:
            if value < best:
                best = value
            beta = min(beta, value)
        if alpha >= beta or not legal:
            break
        bit = legal & -legal
        legal ^= bit
        c = ALL_CARDS[bit.bit_length() - 1]
    return best


def _two_tricks(state: PlayState, contract: Contract, side: int, alpha: float, beta: float) -> float:
    """``solve`` with two tricks left and none in progress: each seat holds two cards, so the card
    it plays to the first trick decides its card in the second. The first trick is searched on
    plain ints, the second follows without a choice: no state is copied or played, which makes
    this ending (where every playout's exact search comes down) several times cheaper."""
    table = state.table
    seats, side_of, value, beaten_by = table.seats, table.side_of, table.value, table.beaten_by
    masks = state.masks
    order = [(state.leader + i) % seats for i in range(seats)]  # the first trick's seats in turn
    # each seat's two cards (the same card twice for a pair): the lowest and highest bit of its mask
    low = [(masks[seat] & -masks[seat]).bit_length() - 1 for seat in order]
    high = [masks[seat].bit_length() - 1 for seat in order]
    first = [0] * seats  # the card each seat (by turn) plays to the first trick
    bonus = table.last_trick
    points, took = state.points, state.took

    def ending(win_turn: int, first_value: int) -> float:
        # the second trick: led by the first one's winner, each seat playing the card it kept
        lead_turn = win_turn
        winning = low[lead_turn] + high[lead_turn] - first[lead_turn]
        second_win, second_value = lead_turn, 0
        for step in range(seats):
            turn = (lead_turn + step) % seats
            c = low[turn] + high[turn] - first[turn]
            if step and beaten_by[winning] >> c & 1:
                winning, second_win = c, turn
            second_value += value[c]
        final, taken = points[:], took[:]
        first_side, second_side = side_of[order[win_turn]], side_of[order[second_win]]
        final[first_side] += first_value
        final[second_side] += second_value + bonus
        taken[first_side] = taken[second_side] = True
        return contract.margin(final, taken, side)

    def trick(
        turn: int, led: int, winning: int, win_turn: int, trick_value: int, alpha: float, beta: float
    ) -> float:
        if turn == seats:
            return ending(win_turn, trick_value)
        seat = order[turn]
        one, other = low[turn], high[turn]
        if one == other:  # a pair: no choice
            legal = BIT[one]
        elif turn:
            legal = table.follow_mask(BIT[one] | BIT[other], seat, led, Card(winning), order[win_turn])
        else:
            legal = BIT[one] | BIT[other]
        maximising = side_of[seat] == side
        best = -INFINITY if maximising else INFINITY
        while legal:
            bit = legal & -legal
            legal ^= bit
            c = bit.bit_length() - 1
            first[turn] = c
            if not turn:
                result = trick(1, SUIT_MASK[c // 6], c, 0, value[c], alpha, beta)
            elif beaten_by[winning] >> c & 1:
                result = trick(turn + 1, led, c, turn, trick_value + value[c], alpha, beta)
            else:
                result = trick(turn + 1, led, winning, win_turn, trick_value + value[c], alpha, beta)
            if not legal:  # the last (or only) card: no bound to tighten for a sibling
                return result if (result > best if maximising else result < best) else best
            if maximising:
                if result > best:
                    best = result
                    if result > alpha:
                        alpha = result
            elif result < best:
                best = result
                if result < beta:
                    beta = result
            if alpha >= beta:
                break
        return best

    return trick(0, 0, 0, 0, 0, alpha, beta)
