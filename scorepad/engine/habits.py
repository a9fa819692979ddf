"""Habits players hate in a bot, found in an ended hand: the expert must not show them, and each
rate is weighed against the heuristic's (the targets in ``bots/FINDINGS.md``).

``sightings(state)`` replays an ended hand from its deal (the passes, then every trick, with the
legal plays of ``play.legal_cards`` at each card) and reports each chance a seat had to show a
habit, and whether it did. A ``Tally`` per bot adds them up, so a rate always comes with the
sample it was taken from:

``short_trump``   a contract whose bidder was dealt a quarter of the hand or fewer in trump
                  (classic 3 of 12, double-deck 5 of 20, six-handed 2 of 8); chance: every contract
                  the bidder chose (a dealer forced to bid under `all_pass: dealer_forced` did not)
``set_by_a_third`` a contract set by more than a third of its bid: the bid less what the bidding
                  side counted (``counted``) is more than bid / 3 (classic 21 set at 14 is by exactly
                  a third, not more; at 13 it is); chance: every contract the bidder chose
``raise_war``     a contract whose bidder bid over an opponent's high bid three or more times in the
                  auction (``raises_over_opponents``; an opening bid, or one over a partner's bid, is
                  no raise against an opponent); chance: every contract the bidder chose
``junk_pass``     a pass to the bidder with a card that is neither trump nor an ace while the passer
                  keeps a trump or an ace; chance: every pass to the bidder
``trump_lead``    a defender leads trump while the bidder holds every trump left outside the
                  leader's hand; chance: such a lead where a trump and a non-trump were both legal
``counter_thrown`` a counter played onto a trick the opponents win; chance: a play (not a lead)
                  to such a trick where a counter and a non-counter were both legal
``made``          the contract made (the one rate here that should be high); chance: every contract
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .auction import Call, dealer_forced
from .cards import ACE, Card
from .game import HandState
from .play import legal_cards, play_rules
from .scoring import HandEntry, score_hand
from .variants import Variant


class Habit(StrEnum):
    SHORT_TRUMP = "short_trump"
    SET_BY_A_THIRD = "set_by_a_third"
    RAISE_WAR = "raise_war"
    JUNK_PASS = "junk_pass"
    TRUMP_LEAD = "trump_lead"
    COUNTER_THROWN = "counter_thrown"
    MADE = "made"


# Each habit in a line, as ``botmatch --habits`` prints it under its table: what counts, out of what.
DEFINITIONS: dict[Habit, str] = {
    Habit.SHORT_TRUMP: "bidder dealt a quarter of the hand or fewer in trump, of the contracts it chose",
    Habit.SET_BY_A_THIRD: (
        "set by more than a third of the bid (bid - what the side counted > bid/3; exactly a third"
        " is not), of the contracts it chose (a forced dealer's left out)"
    ),
    Habit.RAISE_WAR: (
        "bidder bid over an opponent's high bid 3 or more times, of the contracts it chose"
        " (a forced dealer's left out)"
    ),
    Habit.JUNK_PASS: "a pass to the bidder with junk while keeping a trump or an ace, of its passes",
    Habit.TRUMP_LEAD: "a defender's trump lead into the bidder's last trumps, of such leads with a choice",
    Habit.COUNTER_THROWN: "a counter played onto the opponents' trick, of such plays with a choice",
    Habit.MADE: "contracts made, of every contract (forced ones too)",
}


@dataclass(frozen=True, slots=True)
class Sighting:
    """One chance ``seat`` had to show ``habit``, and whether it did (``shown``)."""

    seat: int
    habit: Habit
    shown: bool


@dataclass(slots=True)
class Tally:
    """Per habit: how often it was shown, out of how many chances."""

    shown: dict[Habit, int] = field(default_factory=lambda: dict.fromkeys(Habit, 0))
    chances: dict[Habit, int] = field(default_factory=lambda: dict.fromkeys(Habit, 0))

    def add(self, sighting: Sighting) -> None:
        self.chances[sighting.habit] += 1
        self.shown[sighting.habit] += sighting.shown

    def rate(self, habit: Habit) -> float | None:
        chances = self.chances[habit]
        return round(self.shown[habit] / chances, 4) if chances else None

    def to_json(self) -> dict[str, dict[str, float | int | None]]:
        return {
            habit.value: {"rate": self.rate(habit), "shown": self.shown[habit], "of": self.chances[habit]}
            for habit in Habit
        }


RAISE_WAR_RAISES = 3  # raises over an opponent's bid that make a raise war (``raise_war``)


def short_trump(variant: Variant, trumps: int) -> bool:
    """Whether ``trumps`` cards of a hand make a short trump suit: a quarter of the hand or fewer
    (3 of 12, 5 of 20, 2 of 8)."""
    return trumps <= variant.hand_size // 4


def sightings(state: HandState) -> Iterator[Sighting]:
    """Every chance to show a habit in the ended hand ``state`` (none in a hand thrown in unbid)."""
    assert state.result is not None, "an ended hand"
    bidder, trump = state.bidder, state.trump
    if bidder is None or state.bid is None:
        return
    yield Sighting(bidder, Habit.MADE, state.result.made)
    chosen = not _forced(state)
    if chosen:
        yield Sighting(bidder, Habit.SET_BY_A_THIRD, set_by_a_third(state.bid, counted(state)))
        raises = raises_over_opponents(state.variant, state.auction, bidder)
        yield Sighting(bidder, Habit.RAISE_WAR, raises >= RAISE_WAR_RAISES)
    if trump is None:
        return
    if chosen:
        dealt_trumps = sum(1 for c in state.dealt[bidder] if c // 6 == trump)
        yield Sighting(bidder, Habit.SHORT_TRUMP, short_trump(state.variant, dealt_trumps))
    hands = [[0] * len(counts) for counts in state.hands]
    for seat, cards in enumerate(state.dealt):
        for c in cards:
            hands[seat][c] += 1
    for giver, receiver, cards in state.passes:
        for c in cards:
            hands[giver][c] -= 1
        if receiver == bidder:
            yield Sighting(giver, Habit.JUNK_PASS, _junk_passed(cards, hands[giver], trump))
        for c in cards:
            hands[receiver][c] += 1
    yield from _play_sightings(state, hands, bidder, trump)


def counted(state: HandState) -> int:
    """The points the bidding side counted towards its bid in the ended ``state``, by the variant's
    own scoring (``scoring.score_hand``, so §1.7, §2.5, §2.8, §3.6 and the house rules): its meld
    credit (none without a trick where `meld_requires_trick`, none under the `rule_of_20` meld)
    plus its trick points, and 0 when the rules count nothing for it: trick points under the
    `rule_of_20` threshold, a forfeit (no marriage, meld under 20) or a hand thrown in. That is the
    side's score were its bid 0: every rule that decides what a side counts, and no other."""
    assert state.bidder is not None
    assert state.result is not None
    assert state.meld is not None
    variant = state.variant
    played = state.result.played
    entry = HandEntry(
        bidder=state.bidder,
        bid=0,
        trump=state.trump,
        meld=variant.side_totals(state.meld),
        tricks=tuple(state.points) if played else None,
        took_trick=tuple(state.took_trick) if played else None,
    )
    return max(0, score_hand(variant, state.settings, entry).scores[variant.side_of(state.bidder)])


def set_by_a_third(bid: int, counted: int) -> bool:
    """Whether a contract at ``bid`` whose side counted ``counted`` fell short of it by more than a
    third of the bid: ``bid - counted > bid / 3`` (exactly a third is not more), in whole numbers."""
    return 3 * (bid - counted) > bid


def raises_over_opponents(variant: Variant, auction: Sequence[Call], seat: int) -> int:
    """How many of ``seat``'s bids in ``auction`` topped a high bid an opponent held (a seat of
    another side): its raises against an opponent. An opening bid, and a bid over a partner's,
    are none."""
    raises, high = 0, None
    for caller, bid in auction:
        if bid is None:
            continue
        if caller == seat and high is not None and variant.side_of(high) != variant.side_of(seat):
            raises += 1
        high = caller
    return raises


def _forced(state: HandState) -> bool:
    """The dealer took the contract because everyone else passed and the rules made it bid."""
    auction, seats = state.auction, state.variant.seats
    return len(auction) == seats and dealer_forced(auction[:-1], seats, state.settings)


def _junk_passed(cards: tuple[Card, ...], kept: list[int], trump: int) -> bool:
    def good(c: int) -> bool:
        return c // 6 == trump or c % 6 == ACE

    return any(not good(c) for c in cards) and any(n and good(c) for c, n in enumerate(kept))


def _play_sightings(state: HandState, hands: list[list[int]], bidder: int, trump: int) -> Iterator[Sighting]:
    variant = state.variant
    rules = play_rules(variant, state.settings, state.bid)
    side_of, value, seats = rules.side_of, rules.value, rules.seats
    for done, trick in enumerate(state.tricks):
        assert trick.winner is not None
        for index, card in enumerate(trick.cards):
            seat = (trick.leader + index) % seats
            legal = legal_cards(rules, hands[seat], trump, trick.leader, trick.cards[:index], done)
            if index == 0:
                if side_of[seat] != side_of[bidder] and bidder_holds_last_trumps(hands, seat, bidder, trump):
                    kinds = {c // 6 == trump for c in legal}
                    if len(kinds) == 2:
                        yield Sighting(seat, Habit.TRUMP_LEAD, card // 6 == trump)
            elif side_of[trick.winner] != side_of[seat]:
                kinds = {value[c] > 0 for c in legal}
                if len(kinds) == 2:
                    yield Sighting(seat, Habit.COUNTER_THROWN, value[card] > 0)
            hands[seat][card] -= 1


def bidder_holds_last_trumps(hands: Sequence[Sequence[int]], leader: int, bidder: int, trump: int) -> bool:
    """The bidder holds a trump, and no seat but it and ``leader`` holds any."""
    suit = range(trump * 6, trump * 6 + 6)

    def trumps(seat: int) -> int:
        return sum(hands[seat][c] for c in suit)

    return trumps(bidder) > 0 and all(
        trumps(seat) == 0 for seat in range(len(hands)) if seat not in (leader, bidder)
    )
