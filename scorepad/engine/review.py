"""Hand review: every decision one seat made in a hand, weighed by the expert, so a practice player
sees what each choice gave up.

A hand's §9.5 log line is replayed (``log.replay_steps``); at each decision of the seat, the
expert looks at that seat's view as it was then (its cards, the calls, the shown meld, the
tricks so far: nothing hidden) and weighs its own best answer and the seat's answer on the same
sampled deals (``ExpertBot.evaluate``). What the seat's answer gave up against the best one is
"left on the table" (never below 0: a choice that did better on the deals cost nothing), and the
hand's total is the sum over its decisions, exactly as they are shown.

No decision is charged more than it could change (``at_stake``): the most the seat's side's
margin could still swing on the real deal when the decision was made, every trick point still
to be won going to one side or another, with what that does to the contract and the meld it
saves. The gap the expert measured is kept beside the charge (``gap``), so a page can say when
the bound applied.

A card is charged only as far as the deeper weighing agrees (``confirm``, kept as ``confirmed``):
the expert's playouts follow one policy's line to the last two tricks, and a card that policy
misplays later would be charged for the policy's line; the deeper weighing searches the rest
exactly from a few tricks out, on fresh deals of its own, and the charge is the smaller gap.

Values are each answer's mean margin on the deals: the points it brings the seat's side less the
others' average, the hand played out by the expert's fast policy. A bid is valued as the contract
at that bid in its best trump and a pass as 0 (the hand left to the others), so a review of the
auction says which contracts pay, not how the auction would have gone on.

Deterministic: decision ``number`` of a hand is weighed with its own generator, seeded from the
caller's ``seed`` and that number, and a count of playouts (``REVIEW_PLAYOUTS``) decides; the
wall clock only caps each decision, as in play. So a review worked out in slices, across
requests or processes, is the same review as one worked out at once.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .answers import answer_json
from .bots.expert import ExpertBot
from .cards import Card, Suit
from .game import HandState, seat_view
from .log import deal_logged, replay_steps
from .meld import meld_points
from .scoring import HandEntry, score_hand
from .simulate import advance_until
from .view import BID, CONCEDE, PASS, PLAY, TRUMP, Answer, Bot, SeatView
from .weighing import weigh_cards

REVIEW_PLAYOUTS = 400  # simulated hands per decision reviewed: the same work as a practice hint
CONFIRM_DEALS = 24  # fresh deals on which the deeper weighing confirms a card's charge
# Tricks left at which the confirming weighing searches the rest exactly: a few milliseconds a
# search, so a charged card costs a fraction of a second more (``review_benchmark``).
CONFIRM_EXACT_TRICKS = {4: 5, 6: 3}
REVIEW_CAP_MS = 3000.0  # wall clock that caps one decision (logged by the expert when it does)
COSTLIEST = 3  # decisions highlighted in a review


@dataclass(frozen=True, slots=True)
class Verdict:
    """The expert's view of one decision: what the seat did, what it would have done, the cost."""

    number: int  # the decision's place among all the hand's decisions (every seat's), from 0
    decision: str  # bid, trump, pass or play
    trick: int | None  # for a play, the trick it was in (from 1)
    answer: Any  # what the seat answered, as §9.6 writes it (codes, suit letters)
    best: Any  # the expert's answer, the same way
    lost: float  # points left on the table: ``gap``, at least 0 and at most ``cap`` (one decimal)
    reason: str  # why the expert's answer, in a player's words
    deals: int  # sampled deals both answers were weighed on
    gap: float  # the best answer's mean margin less the seat's, as measured (one decimal)
    cap: float  # the most this decision could move the side's margin on the real deal (``at_stake``)
    confirmed: float | None = None  # a charged card: the deeper weighing's gap (at least 0)

    @property
    def capped(self) -> bool:
        """The measured gap was more than the decision could change: the charge is the bound."""
        return self.gap > self.cap and self.lost == self.cap

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        return cls(**data)

    @property
    def agreed(self) -> bool:
        return bool(self.answer == self.best)


def decisions_of(line: str | dict[str, Any], seat: int) -> list[tuple[int, HandState, Answer]]:
    """Each decision ``seat`` made in the logged hand: (its number, the state before it, the answer)."""
    return [
        (number, state, action)
        for number, (state, action) in enumerate(replay_steps(line))
        if state.to_act == seat
    ]


def review_decision(state: HandState, answer: Answer, *, seed: str, number: int) -> Verdict:
    """The expert's verdict on ``answer``, given by the seat to act in ``state``."""
    seat = state.to_act
    assert seat is not None
    assert state.decision is not None
    view = seat_view(state, seat)
    trick = _trick(state)
    if state.decision == PASS:
        assert isinstance(answer, tuple)
        answer = tuple(sorted(answer))
    expert = expert_for(seat, seed, number)
    choice = expert.evaluate(view, also=answer)
    gap = 0.0
    mine = choice.values.get(answer)  # None only for an answer the expert cannot weigh (a forced
    if choice.answer != answer and mine is not None:  # dealer's jump bid): it costs nothing then
        gap = max(0.0, choice.values[choice.answer] - mine)
    bids = [a for a in (answer, choice.answer) if isinstance(a, int) and state.decision == BID]
    cap = round(at_stake(state, bids), 1)
    confirmed = None
    if state.decision == PLAY and gap > 0:
        assert isinstance(choice.answer, int)  # a play answers a card
        assert isinstance(answer, int)
        best, mine = Card(choice.answer), Card(answer)
        confirmed = round(confirm(view, best, mine, f"{seed}:confirm:{number}"), 1)
    charged = min(round(gap, 1), cap) if confirmed is None else min(round(gap, 1), cap, confirmed)
    return Verdict(
        number=number,
        decision=state.decision,
        trick=trick,
        answer=answer_json(state.decision, answer),
        best=answer_json(state.decision, choice.answer),
        lost=charged,
        reason=choice.reason,
        deals=choice.deals,
        gap=round(gap, 1),
        cap=cap,
        confirmed=confirmed,
    )


def confirm(view: SeatView, best: Card, answer: Card, seed: str) -> float:
    """How much ``answer`` gives up against ``best`` by the deeper weighing (``weighing``), on
    ``CONFIRM_DEALS`` fresh deals, at least 0: the expert's playouts follow one policy's line, so
    a card is charged only as far as an exact search of the rest agrees it cost points."""
    exact = CONFIRM_EXACT_TRICKS[view.variant.seats] * view.variant.seats
    values = weigh_cards(view, (best, answer), random.Random(seed), CONFIRM_DEALS, exact)
    return max(0.0, statistics.fmean(values[best]) - statistics.fmean(values[answer]))


# -- what one decision could change ---------------------------------------------------------------


def at_stake(state: HandState, bids: Sequence[int] = ()) -> float:
    """The most the decision in ``state`` could move the margin of the deciding seat's side (its
    score less the others' average) on this deal: the best result still open to the side less
    the worst, every trick point still to be won going to one side or another, scored by the
    rules (the contract made or set, the meld a trick saves, a throw-in's forfeit).

    Before the play the contract is the one the decision is about: for a bid, the seat's side
    bidding each of ``bids`` (and the least bid) in any suit, against passing (valued 0, as the
    expert values it); for trump, the bid in any suit; for a pass, the contract as it stands; the
    meld is the one the hands hold at the decision.
    """
    seat = state.to_act
    assert seat is not None
    variant, settings = state.variant, state.settings
    side = variant.side_of(seat)
    sides = len(variant.sides)
    if state.decision == PLAY:
        assert state.bidder is not None
        assert state.bid is not None
        assert state.meld is not None
        meld = variant.side_totals(state.meld)
        return _swing(
            state, state.bidder, state.bid, state.trump, meld, tuple(state.points), tuple(state.took_trick)
        )
    nothing, none_took = (0,) * sides, (False,) * sides
    if state.decision == CONCEDE:
        assert state.bidder is not None
        assert state.bid is not None
        assert state.meld is not None
        meld = variant.side_totals(state.meld)
        forfeit = score_hand(
            variant, settings, HandEntry(state.bidder, state.bid, state.trump, meld, None, None)
        )
        spread = _spread(state, state.bidder, state.bid, state.trump, meld, nothing, none_took)
        low, high = (
            min(spread[0], _margin(forfeit.scores, side)),
            max(spread[1], _margin(forfeit.scores, side)),
        )
        return high - low
    if state.decision == PASS:
        assert state.bidder is not None
        assert state.bid is not None
        return _swing(
            state, state.bidder, state.bid, state.trump, _held_meld(state, state.trump), nothing, none_took
        )
    if state.decision == TRUMP:
        assert state.bid is not None
        contracts = [(state.bid, suit) for suit in range(4)]
    else:
        weighed = {*bids, *(bid for bid in state.legal() if isinstance(bid, int))}  # the least bid
        contracts = [(bid, suit) for bid in sorted(weighed) for suit in range(4)]
    low, high = (0.0, 0.0) if state.decision == BID else (float("inf"), float("-inf"))
    for bid, suit in contracts:
        worst, best = _spread(state, seat, bid, suit, _held_meld(state, suit), nothing, none_took)
        low, high = min(low, worst), max(high, best)
    return high - low


def _held_meld(state: HandState, trump: Suit | None) -> tuple[int, ...]:
    per_seat = [meld_points(hand, trump, state.variant, state.settings) for hand in state.hands]
    return state.variant.side_totals(per_seat)


def _swing(
    state: HandState,
    bidder: int,
    bid: int,
    trump: Suit | None,
    meld: tuple[int, ...],
    points: tuple[int, ...],
    took: tuple[bool, ...],
) -> float:
    worst, best = _spread(state, bidder, bid, trump, meld, points, took)
    return best - worst


def _spread(
    state: HandState,
    bidder: int,
    bid: int,
    trump: Suit | None,
    meld: tuple[int, ...],
    points: tuple[int, ...],
    took: tuple[bool, ...],
) -> tuple[float, float]:
    """(worst, best) margin of the deciding side once the hand is played out: the best when it
    wins every trick point still out, the worst when one other side does (every other side
    taking a trick too, so saving its meld). A side's score never falls as it wins more, so
    no way of sharing the points lies outside these."""
    assert state.to_act is not None
    variant, settings = state.variant, state.settings
    side = variant.side_of(state.to_act)
    left = variant.trick_points_total(settings) - sum(points)

    def margin(taker: int, others_take: bool) -> float:
        tricks = [p + (left if s == taker else 0) for s, p in enumerate(points)]
        took_now = [t or s == taker or (others_take and s != side) for s, t in enumerate(took)]
        entry = HandEntry(bidder, bid, trump, tuple(meld), tuple(tricks), tuple(took_now))
        return _margin(score_hand(variant, settings, entry).scores, side)

    others = [s for s in range(len(points)) if s != side]
    best = margin(side, others_take=False)
    worst = min(margin(taker, others_take=True) for taker in others)
    return worst, best


def _margin(scores: Sequence[int], side: int) -> float:
    """The side's score less the others' average: the scale the expert weighs answers on."""
    return scores[side] - (sum(scores) - scores[side]) / (len(scores) - 1)


def expert_for(seat: int, seed: str, number: int) -> ExpertBot:
    """The expert that weighs decision ``number``: its own generator, a count of playouts."""
    rng = random.Random(f"{seed}:review:{number}")
    return ExpertBot(seat, rng, playouts=REVIEW_PLAYOUTS, budget_ms=REVIEW_CAP_MS)


def review_hand(
    line: str | dict[str, Any],
    seat: int,
    *,
    seed: str,
    done: Sequence[Verdict] = (),
    cpu_seconds: float | None = None,
) -> tuple[list[Verdict], bool]:
    """The verdicts on ``seat``'s decisions, continuing after those ``done``; (verdicts, finished).

    With ``cpu_seconds`` it stops once that much CPU time has gone (after one decision at
    least), so a caller can work a review out in slices; the verdicts do not depend on where
    the slices fall.
    """
    started = time.process_time()
    verdicts = list(done)
    reviewed = {v.number for v in verdicts}
    todo = [step for step in decisions_of(line, seat) if step[0] not in reviewed]
    for index, (number, state, answer) in enumerate(todo):
        if cpu_seconds is not None and index and time.process_time() - started > cpu_seconds:
            return verdicts, False
        verdicts.append(review_decision(state, answer, seed=seed, number=number))
    return verdicts, True


# -- duplicate against the expert -----------------------------------------------------------------

BotsFor = Callable[[HandState], Mapping[int, Bot]]  # the other seats' bots, made for a state


def expert_duplicate(line: str | dict[str, Any], seat: int, expert: Bot, bots_for: BotsFor) -> HandState:
    """The logged deal played again with ``expert`` in ``seat``: dealt the same cards, the other
    seats played by ``bots_for(state)``, made afresh before each of the seat's turns (as practice
    makes them). The expert is asked with ``seat_view`` alone: it never sees a hidden card."""
    state = deal_logged(json.loads(line) if isinstance(line, str) else line)
    while state.decision is not None:
        advance_until(state, bots_for(state), stop_at={seat})
        if state.decision is not None:
            state.push(expert.decide(seat_view(state, seat)))
    return state


PHASES = (BID, TRUMP, PASS, CONCEDE, PLAY)  # the order a seat meets its decisions in a hand


@dataclass(frozen=True, slots=True)
class Difference:
    """One decision where two plays of a deal differ, paired by what the decision is: the seat's
    n-th bid with the other play's n-th bid, its pass of cards with the other's, trick k's card
    with trick k's. A decision only one play had is kept, with None for the other's answer and
    its ``..._decided`` flag off (a bid's answer may itself be None: a pass)."""

    decision: str
    place: int  # the n-th of its kind for the seat (from 1); for a play, the trick
    yours: Any
    experts: Any
    you_decided: bool = True
    expert_decided: bool = True

    @property
    def trick(self) -> int | None:
        return self.place if self.decision == PLAY else None


DecisionKey = tuple[int, int]  # (phase, place): the same decision in any play of the deal


def decisions_by_kind(line: str | dict[str, Any], seat: int) -> dict[DecisionKey, tuple[str, Any]]:
    """The seat's decisions keyed by what they are (``PHASES`` index, place): the answer as §9.6
    writes it, a pass's cards sorted."""
    found: dict[DecisionKey, tuple[str, Any]] = {}
    seen: dict[str, int] = {}
    for _, before, answer in decisions_of(line, seat):
        decision = before.decision
        assert decision is not None
        seen[decision] = seen.get(decision, 0) + 1
        place = _trick(before) or seen[decision]
        found[(PHASES.index(decision), place)] = (decision, _said(before, answer))
    return found


def differences(yours: str | dict[str, Any], experts: str | dict[str, Any], seat: int) -> list[Difference]:
    """Where the two plays of a deal differ, in the order of the hand, each decision beside the
    same decision of the other play (never shifted when one play had a decision the other did not)."""
    mine, theirs = decisions_by_kind(yours, seat), decisions_by_kind(experts, seat)
    found: list[Difference] = []
    for key in sorted(mine.keys() | theirs.keys()):
        decision = PHASES[key[0]]
        said, other = mine.get(key), theirs.get(key)
        if said is not None and other is not None and said[1] == other[1]:
            continue
        found.append(
            Difference(
                decision,
                key[1],
                None if said is None else said[1],
                None if other is None else other[1],
                you_decided=said is not None,
                expert_decided=other is not None,
            )
        )
    return found


def _trick(state: HandState) -> int | None:
    return len(state.tricks) + 1 if state.decision == PLAY else None


def _said(state: HandState, answer: Answer) -> Any:
    assert state.decision is not None
    if state.decision == PASS and isinstance(answer, tuple):
        answer = tuple(sorted(answer))
    return answer_json(state.decision, answer)


def left_on_table(verdicts: Sequence[Verdict]) -> float:
    """The hand's total of points left on the table."""
    return round(sum(v.lost for v in verdicts), 1)


def costliest(verdicts: Sequence[Verdict], count: int = COSTLIEST) -> list[Verdict]:
    """The ``count`` decisions that cost most (only those that cost anything), costliest first."""
    return sorted((v for v in verdicts if v.lost > 0), key=lambda v: (-v.lost, v.number))[:count]


__all__ = [
    "COSTLIEST",
    "PHASES",
    "REVIEW_PLAYOUTS",
    "Difference",
    "Verdict",
    "at_stake",
    "costliest",
    "decisions_by_kind",
    "decisions_of",
    "differences",
    "expert_duplicate",
    "expert_for",
    "left_on_table",
    "review_decision",
    "review_hand",
]
