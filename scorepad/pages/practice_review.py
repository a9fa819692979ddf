"""What the review, duplicate and step-through pages of a practice hand show, in player words,
and the throw-in offer's two buttons.

Everything here reads a finished hand's §9.5 log line, where every card is public: the hand is
over, so all four (six) hands may be shown face up. Nothing here searches: the review is worked
out by ``services/practice_review.py`` and the throw-in weighed by ``bot_pool``; these only word
what they found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.bots.reasons import gain_words, suit_words
from ..engine.cards import Card, cards_in_words, parse_card, parse_cards, parse_suit
from ..engine.practice import ConcedeWeights
from ..engine.review import Difference, Verdict
from ..engine.variants import get_variant
from ..engine.view import BID, CONCEDE, PASS, TRUMP
from ..selectors.practice_review import HandReview
from .practice import CardFace, face, seat_names, side_names


def answer_words(decision: str, answer: Any) -> str:
    """A §9.6 answer as a player says it: "bid 23", "pass", "spades", "pass A♠ 10♥ …", "A♦"."""
    if decision == BID:
        return "pass" if answer is None else f"bid {answer}"
    if decision == CONCEDE:
        return "throw in" if answer else "play on"
    if decision == TRUMP:
        return f"{suit_words(parse_suit(answer))} trump"
    if decision == PASS:
        return "pass " + cards_in_words(parse_cards(answer))
    return cards_in_words([parse_card(answer)])


def decision_words(decision: str, trick: int | None) -> str:
    words: dict[str, str] = {BID: "Bid", TRUMP: "Trump", PASS: "Passing", CONCEDE: "Throw in?"}
    return words.get(decision, f"Trick {trick}")


@dataclass(frozen=True, slots=True)
class ReviewRow:
    where: str  # "Bid", "Trick 3"
    yours: str
    best: str
    lost: float
    reason: str
    agreed: bool


@dataclass(frozen=True, slots=True)
class ReviewPage:
    hand: int
    rows: list[ReviewRow]
    costliest: list[ReviewRow]
    left_on_table: float
    done: bool
    finished: bool
    cpu_seconds: float
    result: list[tuple[str, int]]  # each side's score in the hand as played
    duplicate: list[tuple[str, int, int]] | None  # per side: name, your play's score, the expert's
    differences: list[tuple[str, str, str]]  # where, yours, the expert's


def review_page(review: HandReview) -> ReviewPage:
    variant = get_variant(review.line["variant"])
    names = side_names(variant, seat_names(variant))
    rows = [_row(v) for v in review.verdicts]
    duplicate = None
    if review.duplicate is not None:
        duplicate = [
            (name, mine, theirs)
            for name, mine, theirs in zip(
                names, review.line["scores"], review.duplicate["scores"], strict=True
            )
        ]
    return ReviewPage(
        hand=review.hand,
        rows=rows,
        costliest=[_row(v) for v in review.costliest],
        left_on_table=review.left_on_table,
        done=review.done,
        finished=review.finished,
        cpu_seconds=review.cpu_seconds,
        result=list(zip(names, review.line["scores"], strict=True)),
        duplicate=duplicate,
        differences=[_difference(d) for d in review.differences],
    )


def _row(verdict: Verdict) -> ReviewRow:
    return ReviewRow(
        where=decision_words(verdict.decision, verdict.trick),
        yours=answer_words(verdict.decision, verdict.answer),
        best=answer_words(verdict.decision, verdict.best),
        lost=verdict.lost,
        reason=verdict.reason,
        agreed=verdict.agreed,
    )


def _difference(difference: Difference) -> tuple[str, str, str]:
    """(where, yours, the expert's); the expert's says where too when the plays have parted ways."""
    experts = answer_words(difference.experts_decision, difference.experts)
    where = decision_words(difference.decision, difference.trick)
    theirs = decision_words(difference.experts_decision, difference.experts_trick)
    return (
        where,
        answer_words(difference.decision, difference.yours),
        (experts if theirs == where else f"{experts} ({theirs.lower()})"),
    )


# -- conceding (§4 `bidder_may_concede`) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConcedeOffer:
    """The two buttons' words, each with its expected result, and the expert's choice."""

    throw_in: str  # "Throw in: your side loses 25"
    play_on: str  # "Play on: your side loses 31 on average"
    advice: bool  # the expert would throw in


def concede_offer(weights: ConcedeWeights | None) -> ConcedeOffer | None:
    """The throw-in buttons' words from the expert's weighing (``bot_pool.weigh_concession``),
    or None when the player has no throw-in to decide."""
    if weights is None:
        return None
    return ConcedeOffer(
        throw_in=f"Throw in: your side {gain_words(weights.forfeit)}",
        play_on=f"Play on: your side {gain_words(weights.playing_on)} on average",
        advice=weights.throw_in,
    )


# -- stepping through a hand ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatHand:
    name: str
    cards: list[CardFace]
    played: CardFace | None  # this seat's card in the trick shown
    won: bool  # this seat won the trick shown


@dataclass(frozen=True, slots=True)
class StepBoard:
    hand: int
    step: int  # 0: the deal; 1 … tricks: that trick
    steps: int
    caption: str
    seats: list[SeatHand]
    previous: int | None
    next: int | None


def step_board(line: dict[str, Any], step: int) -> StepBoard:
    """Trick ``step`` of the logged hand (0: the hands as dealt), every hand face up."""
    variant = get_variant(line["variant"])
    names = seat_names(variant)
    trump = None if line["trump"] is None else parse_suit(line["trump"])
    tricks = line["tricks"]
    step = max(0, min(step, len(tricks)))
    hands = [list(parse_cards(cards)) for cards in line["dealt"]]
    if step:
        for giver, taker, cards in line["passes"]:
            for c in parse_cards(cards):
                hands[giver].remove(c)
                hands[taker].append(c)
        for trick in tricks[: step - 1]:
            _take_out(hands, trick, variant.seats)
    shown = tricks[step - 1] if step else None
    played: dict[int, Card] = {}
    if shown is not None:
        for offset, code in enumerate(shown["cards"]):
            played[(shown["leader"] + offset) % variant.seats] = parse_card(code)
    seats = [
        SeatHand(
            name=names[seat],
            cards=[face(c, trump) for c in sorted(hands[seat])],
            played=face(played[seat], trump) if seat in played else None,
            won=shown is not None and shown["winner"] == seat,
        )
        for seat in range(variant.seats)
    ]
    return StepBoard(
        hand=line["hand"],
        step=step,
        steps=len(tricks),
        caption=_caption(line, step, names),
        seats=seats,
        previous=step - 1 if step > 0 else None,
        next=step + 1 if step < len(tricks) else None,
    )


def _take_out(hands: list[list[Card]], trick: dict[str, Any], seats: int) -> None:
    for offset, code in enumerate(trick["cards"]):
        hands[(trick["leader"] + offset) % seats].remove(parse_card(code))


def _caption(line: dict[str, Any], step: int, names: Sequence[str]) -> str:
    if not step:
        if line["bidder"] is None:
            return "The deal: everyone passed, and it was thrown in."
        return f"The deal: {names[line['bidder']]} bid {line['bid']}."
    trick = line["tricks"][step - 1]
    return f"Trick {step}: {names[trick['leader']]} led, {names[trick['winner']]} won it."


__all__ = [
    "ConcedeOffer",
    "ReviewPage",
    "StepBoard",
    "answer_words",
    "concede_offer",
    "review_page",
    "step_board",
]
