"""The `heuristic` bot: plays a seat the way a sensible player does, from its ``SeatView`` alone.

* Bid: meld for the best trump (``meld_points``) plus the trick points its hand should take,
  plus, with a partner, a modest share of the partner's meld; raise by the least step while the
  estimate covers it, then pass.
* Trump: the legal suit with the most meld plus trick strength (trump length, trump and side aces).
* Pass: the partner sends trumps and aces; the bidder returns low non-counters from short side
  suits without breaking its meld.
* Play: cash sure winners (sure trumps only on the bidder's side), feed counters to a partner whose
  card is safe, win a trick as cheaply as it can be won for sure, otherwise throw the cheapest card;
  never waste a high trump.

The counting is rough on purpose: a decision costs microseconds, so whole games run at hundreds
of hands a second. Whatever the bot cannot see, it treats as held by an opponent.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..auction import high_bid, trump_suits
from ..cards import ACE, ALL_CARDS, CARD_COUNT, KING, TEN, Card, Suit, counts_of, suit_lengths
from ..meld import meld_points, meld_points_by_trump
from ..play import beats, trick_winner
from ..variants import Settings, Variant
from ..view import (
    Answer,
    BidAnswer,
    ConcedeAnswer,
    Decision,
    PassAnswer,
    PassingView,
    PlayAnswer,
    SeatView,
    Trick,
    TrumpAnswer,
)
from .reasons import heuristic_reason

# Expected tricks a card wins, by role (rough, calibrated against whole games).
TRUMP_ACE, TRUMP_TEN, TRUMP_KING, LONG_TRUMP = 1.0, 0.6, 0.3, 0.6
SIDE_ACE, SIDE_EXTRA_ACE, GUARDED_TEN, VOID_WITH_TRUMP = 0.9, 0.5, 0.4, 0.3
BIDDER_EDGE = 1.5  # the bidder names trump and leads first: its winners count half again
PASSED_CARD_WINNERS = 0.5  # each card the partner passes the bidder (`pass_cards`) is a trump or an ace
PASSED_CARD_MELD = 0.25  # … and adds about a quarter of a plain marriage of meld
PARTNER_MELD_SHARE = 0.5  # of a random hand's meld: a partner's meld with someone else's trump
PARTNER_BID_BONUS = 0.25  # of the minimum bid, when the partner has bid: a sign of strength
BID_MARGIN = 0.05  # bid to 95% of the estimate: the highest estimate wins the auction, errors included
OVERBID_PARTNER_MARGIN = 0.25  # of the minimum bid: overbid a partner only with a clearly better hand
SAMPLE_HANDS = 300  # random hands that measure an average hand of a variant
HOPELESS_SHARE = 0.75  # concede (`bidder_may_concede`) a bid that needs more than this share of the
# trick points: bidders rarely take that much, and playing on gives the opponents their counters


@dataclass(frozen=True, slots=True)
class Profile:
    """What the bot knows about a (variant, settings) before it sees a card."""

    variant: Variant
    settings: Settings
    value: tuple[int, ...]  # counter points per card
    copies: tuple[int, ...]  # copies of each card in the deck (0: not in this deck)
    total_points: int  # every counter plus the last trick
    seats: int
    side_size: int
    partners: tuple[tuple[int, ...], ...]  # per seat, the other seats of its side
    opponents: tuple[tuple[int, ...], ...]  # per seat, the seats of the other sides
    later: tuple[tuple[tuple[int, ...], ...], ...]  # [leader][cards played]: seats to play after the next
    average_trumps: float  # trumps in a random hand
    average_winners: float  # ``winners`` of a random hand with a random trump
    average_meld: float  # meld of a random hand with a random trump
    passed_winners: float  # what the cards a bidder receives add to its winners
    passed_meld: float  # … and to its meld
    meld_weight: float  # pass priority per meld point: a marriage is worth 200
    value_weight: float  # pass priority per counter point: the top counter is worth 400


_PROFILES: dict[tuple[int, Settings], Profile] = {}
_PROFILE_LIMIT = 256  # house rules seen; a long-lived process starts over


def profile_of(variant: Variant, settings: Settings) -> Profile:
    """The profile of one variant under one game's house rules, built once per process: keyed by the
    rules' values, since a stored game read again (a practice move, a table's bots) has rules equal
    to the last request's but not the same object; the profile keeps its variant alive."""
    key = (id(variant), settings)
    found = _PROFILES.get(key)
    if found is None or found.variant is not variant:
        if len(_PROFILES) >= _PROFILE_LIMIT:
            _PROFILES.clear()
        found = _PROFILES[key] = _build_profile(variant, settings)
    return found


def _build_profile(variant: Variant, settings: Settings) -> Profile:
    copies = [0] * CARD_COUNT
    for c in variant.deck():
        copies[c] += 1
    rank_values = settings.counter_values
    value = tuple(rank_values[c % 6] if copies[c] else 0 for c in range(CARD_COUNT))
    seats = variant.seats
    passed = settings.pass_cards if variant.partnerships else 0
    draft = Profile(
        variant=variant,
        settings=settings,
        value=value,
        copies=tuple(copies),
        total_points=variant.trick_points_total(settings),
        seats=seats,
        side_size=seats // len(variant.sides),
        partners=tuple(
            tuple(s for s in variant.sides[variant.side_of(seat)] if s != seat) for seat in range(seats)
        ),
        opponents=tuple(
            tuple(s for s in range(seats) if variant.side_of(s) != variant.side_of(seat))
            for seat in range(seats)
        ),
        later=tuple(
            tuple(tuple((leader + i) % seats for i in range(played + 1, seats)) for played in range(seats))
            for leader in range(seats)
        ),
        average_trumps=variant.deck_size / 4 / seats,
        average_winners=0.0,
        average_meld=0.0,
        passed_winners=PASSED_CARD_WINNERS * passed,
        passed_meld=PASSED_CARD_MELD * variant.meld_table.marriage * passed,
        meld_weight=200 / variant.meld_table.marriage,
        value_weight=400 / max(rank_values),
    )
    # A fixed seed: the same profile every time, so the bot's decisions are repeatable.
    rng = random.Random(0)
    deck = variant.deck()
    winners_sum = meld_sum = 0.0
    for _ in range(SAMPLE_HANDS):
        counts = counts_of(rng.sample(deck, variant.hand_size))
        trump = rng.randrange(4)
        winners_sum += winners(counts, trump, draft)
        meld_sum += meld_points(counts, trump, variant, settings)
    return dataclasses.replace(
        draft, average_winners=winners_sum / SAMPLE_HANDS, average_meld=meld_sum / SAMPLE_HANDS
    )


def winners(n: Sequence[int], trump: Suit, p: Profile, lengths: Sequence[int] | None = None) -> float:
    """Roughly how many tricks a hand wins with this trump: top trumps, length, side aces, voids.
    ``lengths`` (cards per suit) where the caller has counted them already."""
    if lengths is None:
        lengths = suit_lengths(n)
    total = 0.0
    trumps = lengths[trump]
    for suit in range(4):
        base = suit * 6
        aces, tens, kings = n[base + ACE], n[base + TEN], n[base + KING]
        if suit == trump:
            total += aces * TRUMP_ACE + tens * TRUMP_TEN + kings * TRUMP_KING
            total += max(0.0, trumps - p.average_trumps) * LONG_TRUMP
        elif aces:
            total += SIDE_ACE + (aces - 1) * SIDE_EXTRA_ACE + tens * GUARDED_TEN
        elif trumps and not lengths[suit]:
            total += VOID_WITH_TRUMP
    return total


def trick_points(n: Sequence[int], trump: Suit, p: Profile, lengths: Sequence[int] | None = None) -> float:
    """The trick points this hand's side should take: its share of the winners at the table."""
    mine = BIDDER_EDGE * (winners(n, trump, p, lengths) + p.passed_winners)
    others = p.average_winners
    share = (mine + (p.side_size - 1) * others) / (mine + (p.seats - 1) * others)
    return share * p.total_points


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.memory = Memory()
        self._valued: tuple[tuple[Card, ...], Profile, tuple[tuple[int, float], ...]] | None = None
        self._profile: Profile | None = None
        self._rules: Settings | None = None  # the settings object the profile was looked up for

    def decide(self, view: SeatView) -> Answer:
        p = self._profile
        # Looked up once a game, not once a card: within a game every view holds one settings object
        # (comparing equal rules field by field at each decision of a search would cost more).
        if p is None or p.variant is not view.variant or self._rules is not view.settings:
            p = self._profile = profile_of(view.variant, view.settings)
            self._rules = view.settings
        match view.decision:
            case Decision.PLAY:
                return choose_card(view, p, self.memory)
            case Decision.BID:
                return choose_bid(view, p, self._suit_values(view, p))
            case Decision.TRUMP:
                return choose_trump(view, p)
            case Decision.PASS:
                return choose_pass(view, p)
            case Decision.CONCEDE:
                return choose_concede(view, p)
            case _:
                raise ValueError(f"no answer once the hand is {view.decision}")

    def explain(self, view: SeatView) -> tuple[Answer, str | None]:
        """The answer to ``view`` and one reason in a player's words (``reasons.py``)."""
        answer = self.decide(view)
        return answer, heuristic_reason(view, answer, profile_of(view.variant, view.settings))

    def close(self) -> None:
        pass

    def _suit_values(self, view: SeatView, p: Profile) -> tuple[tuple[int, float], ...]:
        """``suit_values`` of the hand, counted once per auction: the hand does not change in it."""
        if self._valued is None or self._valued[0] != view.hand or self._valued[1] is not p:
            self._valued = (view.hand, p, suit_values(view.hand, p))
        return self._valued[2]


# ---------------------------------------------------------------- bidding and trump


def suit_values(hand: tuple[Card, ...], p: Profile) -> tuple[tuple[int, float], ...]:
    """(meld, trick points) for every suit this hand may name as trump."""
    return counted_suit_values(counts_of(hand), p)


def counted_suit_values(n: Sequence[int], p: Profile) -> tuple[tuple[int, float], ...]:
    """``suit_values`` of the hand held as ``n`` (24 counts): what a sampled deal deals. (Fitting
    a deal to the auction values every hand on it, so the suit lengths and the melds every trump
    shares are counted once a hand.)"""
    lengths = suit_lengths(n)
    meld = meld_points_by_trump(n, p.variant, p.settings)
    return tuple((meld[suit], trick_points(n, suit, p, lengths)) for suit in trump_suits(n, p.settings))


def meld_allowance(seat: int, p: Profile) -> float:
    """The meld ``seat`` counts on beyond its own hand: a share of its partner's, and what passing
    brings; nothing without a partner."""
    return PARTNER_MELD_SHARE * p.average_meld + p.passed_meld if p.partners[seat] else 0.0


def valued_trump(n: Sequence[int], seat: int, p: Profile) -> tuple[float, Suit] | None:
    """The worth (``hand_value``) for ``seat`` of the hand held as ``n`` (24 counts) in the trump it
    values most, and that trump; None when it may name none."""
    allowance = meld_allowance(seat, p)
    suits = trump_suits(n, p.settings)
    values = counted_suit_values(n, p)
    return max(
        ((hand_value(m, t, allowance, p), s) for (m, t), s in zip(values, suits, strict=True)), default=None
    )


def hand_value(meld: int, tricks: float, meld_allowance: float, p: Profile) -> float:
    """Meld plus trick points with this trump, or 0 when the rule of 20 would sink the bid."""
    if p.settings.rule_of_20 is not None:
        least_meld, least_tricks = p.settings.rule_of_20
        if meld + meld_allowance < least_meld or tricks < least_tricks:
            return 0.0
    return meld + tricks + meld_allowance


def choose_bid(view: SeatView, p: Profile, values: tuple[tuple[int, float], ...] | None = None) -> BidAnswer:
    """Raise by the least step while the estimate covers it; ``values`` are the hand's ``suit_values``."""
    least = view.least_bid
    if not view.may_pass:
        return least  # the forced dealer
    high = high_bid(view.auction)
    partner_high = high is not None and high[0] in p.partners[view.seat]
    limit = (1 - BID_MARGIN) * hand_worth(view, p, values)
    if partner_high:
        limit -= OVERBID_PARTNER_MARGIN * p.settings.min_bid
    return least if least <= limit else None


def hand_worth(view: SeatView, p: Profile, values: tuple[tuple[int, float], ...] | None = None) -> float:
    """What the bidding seat's hand is worth as a contract, as a partner counts it: meld in the
    trump plus the trick points its side should take plus what a partner adds (``hand_value`` with
    ``meld_allowance``), in its best suit; ``values`` are the hand's ``suit_values``."""
    partners = p.partners[view.seat]
    high = high_bid(view.auction)
    partner_high = high is not None and high[0] in partners
    allowance = meld_allowance(view.seat, p)
    # A partner's bid shows strength: worth counting to outbid an opponent, but over the partner
    # itself it would only bid the side up against itself.
    if not partner_high and any(seat in partners and bid is not None for seat, bid in view.auction):
        allowance += PARTNER_BID_BONUS * p.settings.min_bid
    if values is None:
        values = suit_values(view.hand, p)
    return max((hand_value(meld, tricks, allowance, p) for meld, tricks in values), default=0.0)


def choose_trump(view: SeatView, p: Profile) -> TrumpAnswer:
    n = counts_of(view.hand)
    suits = view.legal_suits
    return max(
        suits,
        key=lambda suit: meld_points(n, suit, p.variant, p.settings) + trick_points(n, suit, p),
    )


# ---------------------------------------------------------------- passing (`classic`)


def choose_concede(view: SeatView, p: Profile) -> ConcedeAnswer:
    """Throw the hand in when the bid needs more trick points than the side can hope to take."""
    assert view.bid is not None
    side = view.variant.side_of(view.seat)
    meld = sum(view.meld[seat] for seat in view.variant.sides[side])
    need = view.bid - meld
    if view.settings.rule_of_20 is not None:
        need = max(need, view.settings.rule_of_20[1])
    return need > HOPELESS_SHARE * p.total_points


def choose_pass(view: PassingView, p: Profile) -> PassAnswer:
    """Greedy, one card at a time, re-counting the meld each time a card leaves the hand."""
    n = list(counts_of(view.hand))
    priority = _send_priority if view.seat != view.bidder else _return_priority
    chosen: list[Card] = []
    for _ in range(view.pass_count):
        best = _best_to_pass(n, view.trump, priority, p)
        chosen.append(best)
        n[best] -= 1
    return tuple(chosen)


# A card's priority to pass: (card, suit lengths of the hand, trump, profile) -> higher goes first.
type PassPriority = Callable[[Card, Sequence[int], Suit | None, Profile], float]


def _best_to_pass(n: list[int], trump: Suit | None, priority: PassPriority, p: Profile) -> Card:
    """The card with the best priority less its meld loss (``meld_points`` before and after).

    A loss only lowers a priority, so the cards are tried best priority first and the search
    stops once no priority left can beat the best found: a few meld counts instead of one a card.
    (Every simulated hand of a classic bid analysis passes twice, so this is on the bots' hot path:
    the suit lengths are counted once a card, not once a candidate.)
    """
    meld = meld_points(n, trump, p.variant, p.settings)
    lengths = suit_lengths(n)
    ranked = sorted([(priority(c, lengths, trump, p), c) for c in ALL_CARDS if n[c]], reverse=True)
    best, best_score = ranked[0][1], -math.inf
    for upper, c in ranked:
        if upper <= best_score:
            break
        n[c] -= 1
        score = upper - p.meld_weight * (meld - meld_points(n, trump, p.variant, p.settings))
        n[c] += 1
        if score > best_score:
            best, best_score = c, score
    return best


def _send_priority(c: Card, lengths: Sequence[int], trump: Suit | None, p: Profile) -> float:
    """The partner sends what wins tricks and builds meld in the bidder's hand: trumps, then aces."""
    if c // 6 == trump:
        kind = 3000
    elif c % 6 == ACE:
        kind = 2000
    else:
        kind = 1000
    return kind - 10 * (c % 6)


def _return_priority(c: Card, lengths: Sequence[int], trump: Suit | None, p: Profile) -> float:
    """The bidder returns low non-counters, from short side suits: trumps and counters stay."""
    cost = p.value_weight * p.value[c] + 3000 * (c // 6 == trump) + 20 * (5 - c % 6) + 40 * lengths[c // 6]
    return -cost


# ---------------------------------------------------------------- play


class Memory:
    """What the completed tricks of a hand have shown, carried from one decision to the next.

    Every view of a hand holds its completed tricks as the same ``Trick`` objects, so the memory
    stays valid while the trick it read last is the very object at that place (and the seat,
    trump and profile are the same); anything else starts it afresh. It only ever holds what the
    view says.
    """

    __slots__ = (
        "count",
        "known",
        "known_from",
        "last",
        "partner_played",
        "profile",
        "seat",
        "trump",
        "unseen",
        "voids",
    )

    def __init__(self) -> None:
        self.known: dict[int, int] = {}
        self.known_from: tuple[object, tuple[Card, ...]] | None = None
        self.count = 0
        self.last: Trick | None = None
        self.profile: Profile | None = None
        self.seat = -1
        self.trump: Suit | None = None
        self.unseen: list[int] = []  # copies of each card not yet seen in a completed trick
        self.partner_played: list[int] = []
        self.voids: list[int] = []

    def catch_up(self, view: SeatView, p: Profile) -> None:
        tricks, count = view.tricks, self.count
        fresh = not count or len(tricks) < count or tricks[count - 1] is not self.last
        if fresh or self.seat != view.seat or self.trump != view.trump or self.profile is not p:
            self.count, self.seat, self.trump, self.profile = 0, view.seat, view.trump, p
            self.unseen, self.partner_played, self.voids = list(p.copies), [0] * CARD_COUNT, [0] * p.seats
        partners = p.partners[view.seat]
        for trick in tricks[self.count :]:
            read_trick(trick, view.trump, partners, p.seats, self.unseen, self.partner_played, self.voids)
        self.count = len(tricks)
        self.last = tricks[-1] if tricks else None

    def known_with_partners(self, view: SeatView, partners: tuple[int, ...]) -> dict[int, int]:
        """Copies of each card known to have reached a partner: passed to it, or shown in its meld."""
        source = self.known_from
        if source is not None and source[0] is view.shown and source[1] == view.passed:
            return self.known
        known: dict[int, int] = {}
        for c in view.passed:
            known[c] = known.get(c, 0) + 1
        for partner in partners:
            shown: dict[int, int] = {}
            for shown_card in view.shown[partner] if view.shown else ():
                shown[shown_card] = shown.get(shown_card, 0) + 1
            for held, copies in shown.items():
                known[held] = max(known.get(held, 0), copies)
        self.known, self.known_from = known, (view.shown, view.passed)
        return known


def read_trick(
    trick: Trick,
    trump: Suit | None,
    partners: tuple[int, ...],
    seats: int,
    unseen: list[int],
    partner_played: list[int],
    voids: list[int],
) -> None:
    """Take a trick's cards off ``unseen``; note who showed a void: off the led suit (and off trump too)."""
    cards = trick.cards
    if not cards:
        return
    led = cards[0] // 6
    for index, c in enumerate(cards):
        unseen[c] -= 1
        if index and c // 6 != led:
            seat = (trick.leader + index) % seats
            voids[seat] |= 1 << led
            if trump is not None and c // 6 != trump:
                voids[seat] |= 1 << trump
    for partner in partners:
        index = (partner - trick.leader) % seats
        if index < len(cards):
            partner_played[cards[index]] += 1


class Table:
    """What the seat can work out about the cards it cannot see, from the tricks so far."""

    __slots__ = ("opponents", "partners", "ruffers", "threat", "top_rank", "trump", "voids")

    def __init__(self, view: SeatView, p: Profile, memory: Memory) -> None:
        seats, trump = p.seats, view.trump
        self.trump = trump
        self.partners = partners = p.partners[view.seat]
        self.opponents = p.opponents[view.seat]
        memory.catch_up(view, p)
        # The memory's lists are only read here unless the trick in progress adds to them.
        unseen, partner_played, voids = memory.unseen[:], memory.partner_played, memory.voids
        trick = view.trick
        if trick is not None and trick.cards:
            partner_played, voids = partner_played[:], voids[:]
            read_trick(trick, trump, partners, seats, unseen, partner_played, voids)
        for c in view.hand:
            unseen[c] -= 1
        self.voids = voids  # bit per suit the seat has shown it lacks
        if partners:  # what is unseen but known to sit with a partner threatens nothing
            for known_card, copies in memory.known_with_partners(view, partners).items():
                still_held = copies - partner_played[known_card]
                if still_held > 0:
                    unseen[known_card] = max(0, unseen[known_card] - still_held)
        self.threat = threat = unseen  # copies an opponent may hold
        self.ruffers = trump is not None and any(threat[trump * 6 : trump * 6 + 6])
        self.top_rank = top_ranks(threat)

    def top(self, c: Card) -> bool:
        """No opponent can hold a higher card of its suit."""
        return self.top_rank[c // 6] >= c % 6

    def may_ruff(self, seat: int, suit: Suit) -> bool:
        """``seat`` has shown it lacks ``suit`` and has not shown it lacks trump."""
        trump = self.trump
        void = self.voids[seat]
        return suit != trump and trump is not None and bool(void >> suit & 1) and not void >> trump & 1

    def safe(self, c: Card, led: Suit, later: tuple[int, ...]) -> bool:
        """Whether ``c``, winning the trick now, stays the winner whatever the opponents in ``later`` hold.

        Seats are assumed to hold the led suit until they have shown they do not.
        """
        top = self.top(c)
        ruffers = self.ruffers
        for seat in later:
            if seat not in self.opponents:
                continue
            void = self.voids[seat]
            void_led = void >> led & 1
            void_trump = self.trump is None or void >> self.trump & 1
            if c // 6 == self.trump:
                if not top and not void_trump and (led == self.trump or void_led):
                    return False
            elif (not top and not void_led) or (void_led and ruffers and not void_trump):
                return False
        return True


def top_ranks(threat: list[int]) -> list[int]:
    """Per suit, the rank of the highest card an opponent may hold (6: none)."""
    tops = []
    for base in (0, 6, 12, 18):
        rank = 0
        while rank < 6 and not threat[base + rank]:
            rank += 1
        tops.append(rank)
    return tops


def choose_card(view: SeatView, p: Profile, memory: Memory | None = None) -> PlayAnswer:
    legal = view.legal_cards
    if len(legal) == 1:  # (with copies of one card listed twice, every path below picks that card too)
        return legal[0]
    table = Table(view, p, memory or Memory())
    trick = view.trick
    if trick is None or not trick.cards:
        return _lead(view, table, p)
    return _follow(view, table, p)


def _cheapest(cards: tuple[Card, ...] | list[Card], trump: Suit | None, p: Profile) -> Card:
    """The card it hurts least to lose: fewest counter points, not a trump, lowest rank."""
    return min(cards, key=lambda c: (p.value[c], c // 6 == trump, -(c % 6)))


def _lead(view: SeatView, table: Table, p: Profile) -> Card:
    trump = view.trump
    everyone = table.opponents + table.partners
    legal = view.legal_cards
    sure = [c for c in set(legal) if table.safe(c, c // 6, everyone)]
    side = [c for c in sure if c // 6 != trump]
    if side:  # cash side-suit winners before the opponents run out of the suit
        return max(side, key=lambda c: (p.value[c], -(c % 6)))
    # The bidder's side then draws the opponents' trumps with sure trump winners. A defender does not:
    # leading trump pulls the bidder's trumps for it (measured against the old lead, bots/FINDINGS.md:
    # the defenders' trump leads into the bidder's last trumps became rare, and no variant lost).
    defending = view.bidder not in (view.seat, *table.partners)
    if sure and table.ruffers and not defending:
        return min(sure, key=lambda c: c % 6)

    def lead_key(c: Card) -> tuple[bool, int, bool, int]:
        # A suit the partner can trump and no opponent can comes first; then the cheapest card.
        suit = c // 6
        partner_ruffs = any(table.may_ruff(s, suit) for s in table.partners)
        opponent_ruffs = any(table.may_ruff(s, suit) for s in table.opponents)
        return (not partner_ruffs or opponent_ruffs, p.value[c], suit == trump, -(c % 6))

    return min(legal, key=lead_key)


def _follow(view: SeatView, table: Table, p: Profile) -> Card:
    trump, trick = view.trump, view.trick
    assert trick is not None
    cards = trick.cards
    seats = p.seats
    led = cards[0] // 6
    best = trick_winner(cards, trump)
    winning = cards[best]
    later = p.later[trick.leader][len(cards)]
    legal = view.legal_cards
    if (trick.leader + best) % seats in table.partners and table.safe(winning, led, later):
        # Partner has it: give it counters, keeping sure winners back; a trump only when forced,
        # and then the lowest.
        side = [c for c in legal if c // 6 != trump]
        if not side:
            return _cheapest(legal, trump, p)
        return max(side, key=lambda c: (p.value[c], not table.top(c), c % 6))
    takers = [c for c in legal if beats(c, winning, trump)]
    sure = [c for c in takers if table.safe(c, led, later)]
    if sure:  # win it as cheaply as it can be won for certain
        return min(sure, key=lambda c: (c // 6 == trump, -(c % 6)))
    return _cheapest(legal, trump, p)
