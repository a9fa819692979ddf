"""Hand review: every decision one seat made in a hand, weighed by the expert (issue 16).

A hand's §9.5 log line is replayed (``log.replay_steps``); at each decision of the seat, the
expert looks at that seat's view as it was then (its cards, the calls, the shown meld, the
tricks so far: nothing hidden) and weighs its own best answer and the seat's answer on the same
sampled deals (``ExpertBot.evaluate``). What the seat's answer gave up against the best one is
"left on the table" (never below 0: a choice that did better on the deals cost nothing), and the
hand's total is the sum over its decisions.

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
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .answers import answer_json
from .bots.expert import ExpertBot
from .game import HandState, seat_view
from .log import deal_logged, replay_steps
from .simulate import advance_until
from .view import PASS, PLAY, Answer, Bot

REVIEW_PLAYOUTS = 400  # simulated hands per decision reviewed: the same work as a practice hint
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
    lost: float  # points left on the table: the best answer's value less the seat's, at least 0
    reason: str  # why the expert's answer, in a player's words
    deals: int  # sampled deals both answers were weighed on

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
    lost = 0.0
    mine = choice.values.get(answer)  # None only for an answer the expert cannot weigh (a forced
    if choice.answer != answer and mine is not None:  # dealer's jump bid): it costs nothing then
        lost = max(0.0, choice.values[choice.answer] - mine)
    return Verdict(
        number=number,
        decision=state.decision,
        trick=trick,
        answer=answer_json(state.decision, answer),
        best=answer_json(state.decision, choice.answer),
        lost=round(lost, 1),
        reason=choice.reason,
        deals=choice.deals,
    )


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


@dataclass(frozen=True, slots=True)
class Difference:
    """The seat's k-th decision in two plays of one deal, when they differ (once the plays part
    ways the k-th decisions may even be of different kinds: a bid beside a card)."""

    decision: str
    trick: int | None
    yours: Any
    experts_decision: str
    experts_trick: int | None
    experts: Any


def differences(yours: str | dict[str, Any], experts: str | dict[str, Any], seat: int) -> list[Difference]:
    """Decision by decision (the seat's first, second …), where the two plays of a deal differ."""
    found: list[Difference] = []
    mine, theirs = decisions_of(yours, seat), decisions_of(experts, seat)
    for (_, before, answer), (_, other_before, other) in zip(mine, theirs, strict=False):
        said, other_said = _said(before, answer), _said(other_before, other)
        if said != other_said or before.decision != other_before.decision:
            found.append(
                Difference(
                    before.decision or "",
                    _trick(before),
                    said,
                    other_before.decision or "",
                    _trick(other_before),
                    other_said,
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
    "REVIEW_PLAYOUTS",
    "Difference",
    "Verdict",
    "costliest",
    "decisions_of",
    "differences",
    "expert_duplicate",
    "expert_for",
    "left_on_table",
    "review_decision",
    "review_hand",
]
