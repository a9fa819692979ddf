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

from ..constants import PLAYER
from ..engine.bots.reasons import gain_words, suit_words
from ..engine.cards import Card, cards_in_words, parse_card, parse_cards, parse_suit
from ..engine.practice import ConcedeWeights
from ..engine.review import Difference, Verdict
from ..engine.variants import get_variant
from ..engine.view import BID, CONCEDE, PASS, PLAY, TRUMP
from ..selectors.practice_review import HandReview
from .practice import CardFace, face, in_words, seat_names, side_names


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


def decision_words(decision: str, place: int | None) -> str:
    """Where in the hand: "Bid 2" (the seat's second call), "Trump", "Passing", "Trick 3"."""
    if decision == BID:
        return f"Bid {place}" if place else "Bid"
    words: dict[str, str] = {TRUMP: "Trump", PASS: "Passing", CONCEDE: "Throw in?"}
    return words.get(decision, f"Trick {place}")


# What one play of the deal did not have, said of "you" or "the expert" (paired by decision).
NOT_DECIDED: dict[str, str] = {
    BID: "the bidding was over for {who}",
    TRUMP: "{who} did not name trump",
    PASS: "{who} passed no cards",
    CONCEDE: "{who} had no throw-in to decide",
    PLAY: "the hand was not played with {who} in it",
}

LEFT_ON_TABLE_MEANS = (
    "Points left on the table: for each of your decisions, how much better the expert's answer did "
    "than yours on the same simulated deals, in your side's margin (your side's score less the "
    "opponents'); added over your decisions."
)
BOUND_WORDS = (
    "No decision is charged more than it could change: the most your side's margin could still swing "
    "on this deal at that moment, every point still to be won in tricks going to one side or the other, "
    "with the contract made or set and the meld a trick saves. Margins count meld and the bid, so a "
    "hand's total can be more than the points in tricks."
)
DUPLICATE_MEANS = (
    "A different measure: one deal played once, your side's score as you played it less its score "
    "with the expert in your seat (same cards, same bots), luck of the play included; the points left "
    "on the table average many simulated deals, decision by decision."
)


@dataclass(frozen=True, slots=True)
class ReviewRow:
    where: str  # "Bid 1", "Trick 3"
    yours: str
    best: str
    lost: float  # this decision's part of the hand's points left on the table
    reason: str
    agreed: bool
    capped: bool = False  # the expert measured more than the decision could change: ``lost`` is the bound


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
    differences: list[tuple[str, str, str]]  # where, what you did, what the expert did (whole words)
    duplicate_difference: int | None = None  # your side: as played less the expert's duplicate
    duplicate_words: str = ""  # that difference with both scores, in words
    means: str = LEFT_ON_TABLE_MEANS
    bound: str = BOUND_WORDS
    duplicate_means: str = DUPLICATE_MEANS


def review_page(review: HandReview) -> ReviewPage:
    variant = get_variant(review.line["variant"])
    names = side_names(variant, seat_names(variant))
    rows = _rows(review.verdicts)
    by_number = dict(zip((v.number for v in review.verdicts), rows, strict=True))
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
        costliest=[by_number[v.number] for v in review.costliest],
        left_on_table=review.left_on_table,
        done=review.done,
        finished=review.finished,
        cpu_seconds=review.cpu_seconds,
        result=list(zip(names, review.line["scores"], strict=True)),
        duplicate=duplicate,
        differences=[_difference(d) for d in review.differences],
        duplicate_difference=review.duplicate_difference,
        duplicate_words=_duplicate_words(review),
    )


def _duplicate_words(review: HandReview) -> str:
    """ "Duplicate against the expert: -7 (your side scored 18 …, 25 with the expert in your seat)"."""
    difference = review.duplicate_difference
    if difference is None or review.duplicate is None:
        return ""
    side = get_variant(review.line["variant"]).side_of(PLAYER)
    mine, theirs = review.line["scores"][side], review.duplicate["scores"][side]
    return (
        f"Duplicate against the expert: {difference:+d} (your side scored {mine} as you played the deal, "
        f"{theirs} with the expert in your seat)"
    ).replace("+0 ", "0 ")


def _rows(verdicts: Sequence[Verdict]) -> list[ReviewRow]:
    """One row a decision, in the hand's order; bids numbered as the seat made them."""
    rows, bids = [], 0
    for verdict in sorted(verdicts, key=lambda v: v.number):
        bids += verdict.decision == BID
        rows.append(
            ReviewRow(
                where=decision_words(verdict.decision, bids if verdict.decision == BID else verdict.trick),
                yours=answer_words(verdict.decision, verdict.answer),
                best=answer_words(verdict.decision, verdict.best),
                lost=verdict.lost,
                reason=in_words(verdict.reason),
                agreed=verdict.agreed,
                capped=verdict.capped,
            )
        )
    return rows


def _difference(difference: Difference) -> tuple[str, str, str]:
    """(where, what you did, what the expert did): the same decision of both plays side by side,
    or what one play did beside the words for the decision the other did not have."""
    missing = NOT_DECIDED[difference.decision]
    yours = (
        f"you {did_words(difference.decision, difference.yours)}"
        if difference.you_decided
        else missing.format(who="you")
    )
    experts = (
        f"the expert {did_words(difference.decision, difference.experts)}"
        if difference.expert_decided
        else missing.format(who="the expert")
    )
    return decision_words(difference.decision, difference.place), yours, experts


def did_words(decision: str, answer: Any) -> str:
    """What a seat did, as a player tells it: "passed", "bid 24", "passed J♥ 9♥ 9♦", "played J♠"."""
    if decision == BID:
        return "passed" if answer is None else f"bid {answer}"
    if decision == CONCEDE:
        return "threw in" if answer else "played on"
    if decision == TRUMP:
        return f"named {suit_words(parse_suit(answer))} trump"
    if decision == PASS:
        return "passed " + cards_in_words(parse_cards(answer))
    return "played " + cards_in_words([parse_card(answer)])


# -- conceding (§4 `bidder_may_concede`) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConcedeOffer:
    """The two choices' expected results, shown alike, and the expert's advice in words."""

    throw_in: str  # "your side loses 40"
    play_on: str  # "your side loses about 31 on average"
    advice: str  # "Both cost 40; throwing in keeps the opponents from scoring their tricks: …"
    expert_throws_in: bool


def concede_offer(weights: ConcedeWeights | None) -> ConcedeOffer | None:
    """The throw-in choices' words from the expert's weighing (``bot_pool.weigh_concession``),
    or None when the player has no throw-in to decide."""
    if weights is None:
        return None
    return ConcedeOffer(
        throw_in=f"your side {gain_words(weights.forfeit)}",
        play_on=f"your side {_about(gain_words(weights.playing_on))} on average",
        advice=concede_advice(weights),
        expert_throws_in=weights.throw_in,
    )


def concede_advice(weights: ConcedeWeights) -> str:
    """What each choice does for the side and why the expert picks one. The expert weighs the
    margin (your score less the opponents'), so where your own score alone points the other way
    the opponents' score is the reason: a hand thrown in is not played, so nobody scores tricks."""
    forfeit, playing_on, throw_in = weights.forfeit, weights.playing_on, weights.throw_in
    if forfeit == playing_on:
        costs = f"Both {'cost' if forfeit < 0 else 'score'} {abs(forfeit)}"
    else:
        costs = f"Throwing in {gain_words(forfeit)}, playing on {_about(gain_words(playing_on))} on average"
    if throw_in:
        why = (
            "throwing in costs your side less"
            if forfeit > playing_on
            else "throwing in keeps the opponents from scoring their tricks"
        )
        return f"{costs}; {why}: the expert would throw in."
    why = (
        "playing on does better for your side"
        if playing_on > forfeit
        else "playing on keeps your chance to make it, and a throw-in gives the opponents more"
    )
    return f"{costs}; {why}: the expert would play on."


def _about(words: str) -> str:
    """ "loses about 31": an average over sampled deals is not a promise."""
    verb, _, number = words.partition(" ")
    return f"{verb} about {number}"


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
    "BOUND_WORDS",
    "DUPLICATE_MEANS",
    "LEFT_ON_TABLE_MEANS",
    "ConcedeOffer",
    "ReviewPage",
    "StepBoard",
    "answer_words",
    "concede_advice",
    "concede_offer",
    "did_words",
    "review_page",
    "step_board",
]
