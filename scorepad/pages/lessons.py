"""Learn to play: one guided hand per variant, on a fixed friendly deal, for someone who never played.

The whole lesson lives in the URL: ``moves`` is the learner's answers so far, comma-separated
(``ok`` to go on from a stage that needs no answer, a bid or ``pass``, a suit letter for trump,
four cards joined by ``.`` for a pass, a card to play). Every page replays the hand from the fixed
deal with the engine: the other seats are the heuristic bot, which is deterministic and quick, so
the same URL always shows the same table, and nothing is stored. A move the rules refuse stops the
replay there and says why; the table shown is the one before it.

The learner always sits at seat 0 and bids first (the dealer is the last seat). The suggested
answer at each decision is the heuristic bot's for seat 0, with the practice table's one-line reason,
except the bidder's pass back: the lesson says "keep your meld", so it suggests the pass that keeps
the most meld any pass can (the bot may give up meld to keep a trump). The seats are named as at the
practice table.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from ..engine.bots import HeuristicBot
from ..engine.cards import (
    CODES,
    SUITS,
    Card,
    card_name,
    card_words,
    cards_in_words,
    counts_of,
    parse_card,
    parse_cards,
    rank_of,
    sort_cards,
    suit_of,
)
from ..engine.game import HandState, IllegalAction, deal_hands, seat_view
from ..engine.meld import MeldResult, count_meld, meld_points
from ..engine.variants import HEAD, VARIANTS, Variant
from ..engine.view import BID, PASS, PLAY, TRUMP, Answer, SeatView
from ..selectors.practice import seat_names as table_seat_names
from .practice import hint_reason
from .rules import counter_words, meld_line_words, suit_words

LEARNER = 0
OK = "ok"
PASS_WORD = "pass"
MAX_MOVES = 200  # more than any hand needs (20 plays, a few bids, a pass): longer is not a lesson

# The learner's friendly hand per variant: a run in hearts with its dix, aces and a pinochle, so
# the first hand shows the common melds and the learner wins the bid. The other seats get the
# rest of the deck, shuffled by a fixed seed.
FRIENDLY_HANDS = {
    "classic": "AH TH KH QH JH 9H AS AD AC QS JD KS",
    "double-deck": "AH TH TH KH KH QH QH JH AS AS AD AC TS TD TC QS JD KC QC KD",
    "six-handed": "AH TH KH QH JH 9H AS AD",
}
# The seed that deals the rest: picked among a few so the auction is short and, in the
# partnership variants, both sides take something to count (tests/views/test_rules.py checks it).
DEAL_SEEDS = {
    "classic": "learn:classic",
    "double-deck": "learn:double-deck:2",
    "six-handed": "learn:six-handed",
}


class LessonError(ValueError):
    """A move in the URL that is not a move, or that the rules do not allow at that point."""


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    move: str
    suggested: bool = False
    name: str = ""  # what a screen reader says, when the label is a card
    moves: str = ""  # the lesson's ``moves`` once this answer is given


@dataclass(frozen=True, slots=True)
class SeatMeld:
    name: str
    total: int
    lines: tuple[str, ...]


@dataclass
class Lesson:
    """One page of the guided hand: the stage, what happened since the last answer, the choices."""

    variant: Variant
    state: HandState
    names: tuple[str, ...]
    moves: tuple[str, ...]
    stage: str = ""
    title: str = ""
    explain: tuple[str, ...] = ()
    happened: list[str] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    suggestion: str = ""
    reason: str = ""
    refused: str = ""
    hand: str = ""
    pass_cards: list[Choice] = field(default_factory=list)
    melds: list[SeatMeld] = field(default_factory=list)
    side_melds: list[str] = field(default_factory=list)
    counting: list[str] = field(default_factory=list)
    result: list[str] = field(default_factory=list)

    @property
    def done_moves(self) -> str:
        return ",".join(self.moves)

    def then(self, move: str) -> str:
        """The ``moves`` value after one more answer."""
        return ",".join((*self.moves, move))

    @property
    def bidder_name(self) -> str:
        return "" if self.state.bidder is None else self.names[self.state.bidder]

    @property
    def trump_words(self) -> str:
        return "" if self.state.trump is None else suit_words(self.state.trump)

    @property
    def trick(self) -> str:
        """The trick being played: "Left K♠, Partner A♠"."""
        leader = self.state.trick_leader or 0
        seats = self.variant.seats
        return ", ".join(
            f"{self.names[(leader + i) % seats]} {card_words(c)}" for i, c in enumerate(self.state.trick)
        )


def seat_names(variant: Variant) -> tuple[str, ...]:
    """The practice table's names, so a learner meets the same Left, Partner and Right there."""
    return tuple(table_seat_names(variant))


def friendly_deal(variant: Variant) -> HandState:
    """The lesson's deal: the learner's hand as written, the rest of the deck dealt by a fixed seed."""
    mine = parse_cards(FRIENDLY_HANDS[variant.id])
    rest = variant.deck()
    for c in mine:
        rest.remove(c)
    random.Random(DEAL_SEEDS[variant.id]).shuffle(rest)
    size = variant.hand_size
    hands = [mine, *(rest[i * size : (i + 1) * size] for i in range(variant.seats - 1))]
    return deal_hands(variant, variant.defaults, variant.seats - 1, hands)


def parse_moves(text: str) -> tuple[str, ...]:
    moves = tuple(token.strip() for token in text.split(",") if token.strip())
    if len(moves) > MAX_MOVES:
        raise LessonError(f"{len(moves)} answers is more than one hand holds")
    return moves


def _action(state: HandState, move: str) -> Any:
    """The engine's answer for a ``move`` token at the learner's current decision."""
    try:
        if state.decision == BID:
            return None if move == PASS_WORD else int(move)
        if state.decision == TRUMP:
            if move not in SUITS:
                raise LessonError(f"“{move}” is not a suit")
            return SUITS.index(move)
        if state.decision == PASS:
            return tuple(parse_card(token) for token in move.split("."))
        return parse_card(move)
    except ValueError as error:
        if isinstance(error, LessonError):
            raise
        raise LessonError(f"“{move}” is not an answer to this question") from None


def _move_of(decision: str, answer: Answer) -> str:
    if decision == BID:
        return PASS_WORD if answer is None else str(answer)
    if decision == TRUMP:
        assert isinstance(answer, int)
        return SUITS[answer]
    if decision == PASS:
        assert isinstance(answer, tuple)
        return ".".join(CODES[c] for c in answer)
    assert isinstance(answer, int)
    return CODES[answer]


def _answer_words(decision: str, answer: Answer) -> str:
    if decision == BID:
        return "Pass" if answer is None else f"Bid {answer}"
    if decision == TRUMP:
        assert isinstance(answer, int)
        return f"Name {suit_words(answer)} trump"
    if decision == PASS:
        assert isinstance(answer, tuple)
        return f"Pass {cards_in_words(answer)}"
    assert isinstance(answer, int)
    return f"Play {card_words(Card(answer))}"


def lesson(variant_id: str, moves_text: str) -> Lesson:
    """Replay the guided hand up to the learner's next question (or the end) and describe it."""
    variant = VARIANTS[variant_id]
    state = friendly_deal(variant)
    names = seat_names(variant)
    refused = ""
    try:
        moves = parse_moves(moves_text)
    except LessonError as error:
        moves, refused = (), str(error)
    bots = {seat: HeuristicBot(seat) for seat in range(variant.seats) if seat != LEARNER}
    advisor = HeuristicBot(LEARNER)
    happened: list[str] = []
    used: list[str] = []
    acked: set[str] = set()
    at = 0
    while True:
        pause = _pause(state, acked)
        if pause is not None:
            if at < len(moves) and moves[at] == OK:
                acked.add(pause)
                used.append(OK)
                at += 1
                happened = []
                continue
            if at < len(moves):
                refused = refused or "That answer does not fit this point of the hand: carry on from here."
            break
        seat = state.to_act
        assert seat is not None
        view = seat_view(state, seat)
        if seat != LEARNER:
            answer = bots[seat].decide(view)
            before = len(state.tricks)
            state.push(answer)
            happened.extend(_said(state, names, view.decision, seat, answer, before))
            continue
        suggestion, reason = _advice(advisor, view)
        if at >= len(moves):
            page = Lesson(variant, state, names, tuple(used), happened=happened, refused=refused)
            _decision_page(page, view.decision, suggestion, reason)
            return _linked(page)
        earlier = _trick_so_far(state, names) if view.decision == PLAY else []
        try:
            answer = _action(state, moves[at])
            before = len(state.tricks)
            state.push(answer)
        except (LessonError, IllegalAction) as error:
            refused = _refusal(state, error)
            page = Lesson(variant, state, names, tuple(used), happened=happened, refused=refused)
            _decision_page(page, view.decision, suggestion, reason)
            return _linked(page)
        used.append(moves[at])
        at += 1
        # The learner's card joins a trick others may have started: show those cards too.
        happened = [*earlier, *_said(state, names, view.decision, seat, answer, before)]
    page = Lesson(variant, state, names, tuple(used), happened=happened, refused=refused)
    _pause_page(page, _pause(state, acked) or "end")
    return _linked(page)


def _advice(advisor: HeuristicBot, view: SeatView) -> tuple[Answer, str]:
    """The suggested answer and its reason: the heuristic bot's, except the bidder's pass back.

    The lesson tells the bidder to keep their meld, so its pass back is the one that keeps the
    most of it (the bot weighs meld against keeping trumps and may break a pinochle to keep a 9).
    """
    if view.decision == PASS and view.seat == view.bidder:
        return _keeping_pass(view)
    suggestion = advisor.decide(view)
    return suggestion, hint_reason(view, suggestion)


def _keeping_pass(view: SeatView) -> tuple[tuple[Card, ...], str]:
    """The pass that leaves the most meld in hand; among those, the fewest trumps, then counters."""
    variant, settings, trump = view.variant, view.settings, view.trump
    held = Counter(view.hand)
    whole = meld_points(counts_of(view.hand), trump, variant, settings)
    values = settings.counter_values

    def kept(cards: tuple[Card, ...]) -> int:
        return meld_points(counts_of(list((held - Counter(cards)).elements())), trump, variant, settings)

    def cost(cards: tuple[Card, ...]) -> tuple[int, int, int, int]:
        trumps = sum(1 for c in cards if suit_of(c) == trump)
        counters = sum(values[rank_of(c)] for c in cards)
        return (-kept(cards), trumps, counters, -sum(rank_of(c) for c in cards))  # low ranks go first

    options = set(combinations(sorted(view.hand), view.pass_count))
    best = min(sorted(options), key=cost)
    meld = kept(best)
    if meld == whole:
        reason = f"your meld stays whole ({meld}), and it sends back cards that win few tricks."
    else:
        reason = (
            f"no pass of {view.pass_count} keeps all your meld ({whole}); this one keeps {meld}, "
            "the most any pass keeps, and gives up as few trumps and counters as it can."
        )
    return tuple(Card(c) for c in best), reason


def _trick_so_far(state: HandState, names: tuple[str, ...]) -> list[str]:
    """The cards already in the trick the learner is about to play to: "Right: A♠"."""
    leader = state.trick_leader or 0
    seats = state.variant.seats
    return [f"{names[(leader + i) % seats]}: {card_words(c)}" for i, c in enumerate(state.trick)]


def _linked(page: Lesson) -> Lesson:
    """Each choice carries the ``moves`` its link leads to."""
    page.choices = [replace(choice, moves=page.then(choice.move)) for choice in page.choices]
    return page


def _refusal(state: HandState, error: Exception) -> str:
    """Why the rules refuse a move, in players' words: the engine's own message names cards by code."""
    if isinstance(error, LessonError):
        return f"Not allowed: {error}."
    if state.decision == PLAY:
        return f"Not allowed: play one of {cards_in_words(sort_cards(state.legal()))}."
    if state.decision == PASS:
        return f"Not allowed: pass exactly {state.pass_count} cards from your hand."
    if state.decision == TRUMP:
        return f"Not allowed: name one of {', '.join(suit_words(suit) for suit in state.legal())}."
    text = str(error)  # a bid: the auction's reason is already in words ("the bid must be at least 20")
    return f"Not allowed: {text.split(': ', 1)[1] if ': ' in text else text}."


def _pause(state: HandState, acked: set[str]) -> str | None:
    """A stage with nothing to answer that the learner has not read yet: the deal, the meld, the end."""
    if "deal" not in acked:
        return "deal"
    if state.meld is not None and not state.tricks and not state.trick and "meld" not in acked:
        return "meld"
    if state.decision is None:
        return "end"
    return None


def _said(
    state: HandState, names: tuple[str, ...], decision: str, seat: int, answer: Answer, before: int
) -> list[str]:
    """What the table saw: "Left bids 21", "Partner plays K♠", "You win the trick"."""
    who = names[seat]
    lines: list[str] = []
    if decision == BID:
        lines.append(f"{who}: pass" if answer is None else f"{who}: bid {answer}")
        if state.bidder is not None:
            lines.append(f"{names[state.bidder]} won the bid at {state.bid}.")
    elif decision == TRUMP:
        assert isinstance(answer, int)
        lines.append(f"{who} named {suit_words(answer)} trump.")
    elif decision == PASS:
        assert isinstance(answer, tuple)
        count = len(answer)
        shown = cards_in_words(answer) if LEARNER in (seat, state.passes[-1][1]) else f"{count} cards"
        lines.append(f"{who} passed {shown}.")
    elif decision == PLAY:
        assert isinstance(answer, int)
        lines.append(f"{who}: {card_words(Card(answer))}")
        if len(state.tricks) > before:
            winner = state.tricks[-1].winner
            assert winner is not None
            lines.append(f"{names[winner]} won the trick.")
    return lines


# -- the stages -------------------------------------------------------------------------------------


def _hand_words(state: HandState) -> str:
    return cards_in_words(sort_cards(_held(state)))


def _held(state: HandState) -> list[Card]:
    return [Card(c) for c, n in enumerate(state.hands[LEARNER]) for _ in range(n)]


def _decision_page(page: Lesson, decision: str, suggestion: Answer, reason: str) -> None:
    state, variant, settings = page.state, page.variant, page.state.settings
    page.hand = _hand_words(state)
    page.stage = decision
    page.suggestion = _answer_words(decision, suggestion)
    page.reason = reason[0].upper() + reason[1:] if reason else ""
    suggested = _move_of(decision, suggestion)
    legal = state.legal()
    if decision == BID:
        page.title = "Bidding"
        page.explain = (
            "Each player in turn [[bids|bid]] the points "
            + ("their side" if variant.partnerships else "they")
            + " will take ([[meld]] plus [[trick points]]) or passes. "
            f"The lowest bid is {settings.min_bid}; a pass is for the whole auction.",
            "Count your meld for your best trump, then add what your high cards should win.",
        )
        least = legal[-1]
        options = ([] if len(legal) == 1 else [PASS_WORD]) + [str(least)]
        if suggested not in options:
            options.append(suggested)
        page.choices = [Choice(_bid_label(move), move, move == suggested) for move in options]
    elif decision == TRUMP:
        page.title = "Naming trump"
        page.explain = (
            "You won the bid, so you name [[trump]]. A trump beats any card of the other suits, and the "
            + (
                "[[run]], [[royal marriage|marriage]] and [[dix]]"
                if variant.meld_table.dix
                else "[[run]] and [[royal marriage|marriage]]"
            )
            + " count only in trump.",
            "Pick the suit that gives the most meld and where you hold the most cards."
            + (
                " You may name only a suit in which you hold a K and Q."
                if settings.trump_requires_marriage
                else ""
            ),
        )
        page.choices = [Choice(suit_words(suit), SUITS[suit], SUITS[suit] == suggested) for suit in legal]
    elif decision == PASS:
        page.title = "Passing"
        count = state.pass_count
        sender = "your partner" if state.to_act != state.bidder else "you"
        page.explain = (
            f"After trump is named, the bidder's partner passes {count} cards to the bidder, who passes "
            f"{count} back.",
            "Send your partner trumps and aces."
            if sender == "your partner"
            else "Keep your meld: send back cards that neither meld nor win tricks. When every card "
            "you could send breaks some meld, give up the least, and keep your trumps.",
        )
        page.choices = [Choice(page.suggestion, suggested, True)]
        page.pass_cards = [
            Choice(card_words(c), CODES[c], name=card_name(c)) for c in sort_cards(_held(state))
        ]
    else:
        page.title = "Tricks"
        page.explain = _play_explained(state)
        page.choices = [
            Choice(card_words(c), CODES[c], CODES[c] == suggested, card_name(c)) for c in sort_cards(legal)
        ]


def _bid_label(move: str) -> str:
    return "Pass" if move == PASS_WORD else f"Bid {move}"


def _play_explained(state: HandState) -> tuple[str, ...]:
    settings = state.settings
    if not state.trick:
        lead = "You lead: any card may start a trick. An ace usually wins it."
    else:
        lead = "Follow the suit led if you can"
        if settings.play_mode == HEAD:
            lead += ", with a card that beats the winning one if you hold one ([[crawl]])"
        lead += "; if you cannot, play a trump. Only the cards the rules allow are offered."
    first = not state.tricks and not state.trick
    intro = (
        f"The bidder leads the first trick; there are {state.variant.hand_size}. The highest [[trump]] wins, "
        "else the highest card of the suit led; the winner leads next."
    )
    return (intro, lead) if first else (lead,)


def _pause_page(page: Lesson, pause: str) -> None:
    state, variant = page.state, page.variant
    page.stage = pause
    page.hand = _hand_words(state)
    page.choices = [Choice("Next", OK, True)]
    if pause == "deal":
        page.title = "The deal"
        together = (
            "You and your partner (opposite) score together."
            if variant.partnerships
            else "Everyone plays alone."
        )
        page.explain = (
            f"The {variant.deck_size}-card deck is dealt out, {variant.hand_size} cards each. {together}",
            "A hand goes: bid, name trump, "
            + ("pass cards, " if state.settings.pass_cards and variant.partnerships else "")
            + "show meld, play the tricks, count. Look at your hand: hearts are strong.",
        )
    elif pause == "meld":
        page.title = "Meld"
        page.explain = (
            "Everyone lays down the cards that [[meld]], scores them, and picks them up again.",
            "Each card may count in melds of different kinds (Q♠ in a [[pinochle]] and a [[marriage]]) "
            "but never twice in the same kind.",
        )
        page.melds = _melds(page)
    else:
        page.title = "Counting"
        page.choices = []
        page.explain = (
            "The hand is over: here is how it scored, step by step: [[meld]], then the [[trick points]] ("
            + ("[[counters]] and the [[last trick]]" if state.settings.last_trick else "[[counters]]")
            + "), then the bid made or [[set]].",
        )
        page.melds = _melds(page)
        page.counting = _counting(page)
        page.result = _result(page)


def _melds(page: Lesson) -> list[SeatMeld]:
    state, variant = page.state, page.variant
    held = [list(state.dealt[seat]) for seat in range(variant.seats)]
    for giver, taker, cards in state.passes:
        for c in cards:
            held[giver].remove(c)
            held[taker].append(c)
    found = []
    for seat, hand in enumerate(held):
        result: MeldResult = count_meld(counts_of(hand), state.trump, variant, state.settings)
        lines = tuple(meld_line_words(line) for line in result.melds)
        found.append(SeatMeld(page.names[seat], result.total, lines))
    if variant.partnerships:
        page.side_melds = [
            f"{_side_name(page, seats)}: "
            + " + ".join(str(found[seat].total) for seat in seats)
            + f" = {sum(found[seat].total for seat in seats)}"
            for seats in variant.sides
        ]
    return found


def _counting(page: Lesson) -> list[str]:
    state, variant, settings = page.state, page.variant, page.state.settings
    if not state.tricks:
        return ["No tricks were played."]
    values = settings.counter_values
    lines = [f"Counters: {counter_words(variant, settings)}."]
    for side, seats in enumerate(variant.sides):
        won = [c for trick in state.tricks if variant.side_of(trick.winner or 0) == side for c in trick.cards]
        counted = sorted((c for c in won if values[rank_of(c)]), key=lambda c: (rank_of(c), c))
        total = sum(values[rank_of(c)] for c in counted)
        who = _side_name(page, seats)
        tricks = len(won) // variant.seats
        took = f"{tricks} trick" if tricks == 1 else f"{tricks} tricks"
        text = f"{who} took {took}, " + (
            f"with counters {cards_in_words(counted)}" if counted else "no counters"
        )
        last = state.tricks[-1].winner
        if settings.last_trick and last is not None and variant.side_of(last) == side:
            text += (f" = {total}" if counted else "") + f", plus {settings.last_trick} for the last trick"
            total += settings.last_trick
        lines.append(f"{text}: {total} trick points.")
    return lines


def _side_name(page: Lesson, seats: tuple[int, ...]) -> str:
    return " & ".join(page.names[seat] for seat in seats)  # as the practice table names a side


def _result(page: Lesson) -> list[str]:
    state, variant = page.state, page.variant
    result = state.result
    assert result is not None
    assert state.bidder is not None
    bidders = _side_name(page, variant.sides[variant.side_of(state.bidder)])
    said = "made it" if result.made else "did not make it"
    lines = [f"{bidders} bid {state.bid} and {said}."]
    for seats, score, reason in zip(
        variant.sides, result.scores, result.reasons or ("",) * len(result.scores), strict=True
    ):
        lines.append(f"{_side_name(page, seats)}: {score:+d}" + (f" ({reason})" if reason else "") + ".")
    return lines
