"""What the puzzle pages show: the practice table frozen at the puzzle's position, from the seat
that decides ("You"), with only what that seat knows (its hand, the auction, the passes and the
cards it passed and received, each seat's meld, every trick played with who led and who won it);
after an answer, whether it was right, the reason in a player's words, the worst
other answer and the rating change. Built from the shipped puzzle and selector read models; no
search, no database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.answers import AnswerError, answer_json, check_answer, read_form_answer
from ..engine.cards import CODES, SUIT_NAMES, SUITS, SYMBOL_OF_SUIT, card_words
from ..engine.game import seat_view
from ..engine.puzzles import PUZZLE_SEAT, Puzzle, answer_from_json, answer_words
from ..engine.view import PASS, PLAY, TRUMP, SeatView, Trick
from ..selectors.practice import seat_names, side_names
from .practice import (
    CardFace,
    Held,
    PublicHand,
    SeatMeld,
    SeatSpot,
    TrickBoard,
    TrumpChoice,
    face,
    held,
    in_words,
    seat_melds,
    seat_spots,
    trick_board,
    trump_choice,
)

DECISION_WORDS = {PLAY: "a card to play", TRUMP: "a trump to name", PASS: "the cards to pass"}
FORGED = "This answer was sent from a position that is not this puzzle's: nothing was counted."
OTHER_PUZZLE = (
    "This answer was for another puzzle, not this one: nothing was counted. Here is the puzzle again."
)


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """One trick played before the position, as every seat saw it."""

    plays: tuple[tuple[str, str], ...]  # (seat name, card in words), the leader first
    winner: str


@dataclass(frozen=True, slots=True)
class PuzzleTable:
    """The frozen table: every piece is the practice table's, built from the seat's view."""

    puzzle: Puzzle
    view: SeatView
    names: tuple[str, ...]
    side_names: tuple[str, ...]
    held: Held
    tricks: TrickBoard
    seats: tuple[SeatSpot, ...]
    melds: tuple[SeatMeld, ...]
    auction: tuple[tuple[str, str], ...]
    trumps: TrumpChoice
    received: tuple[CardFace, ...]
    passed: tuple[CardFace, ...]
    passed_to: str
    received_from: str
    pass_lines: tuple[str, ...]  # the passes between other seats, by count
    played: tuple[PlayedTrick, ...]
    points: tuple[int, ...]

    @property
    def decision(self) -> str:
        return str(self.view.decision)

    @property
    def fan(self) -> tuple[CardFace, ...]:
        return self.held.fan

    @property
    def places(self) -> str:
        return "four" if self.view.variant.seats == 4 else "six"

    @property
    def contract(self) -> str:
        view = self.view
        if view.bidder is None:
            return ""
        suit = "" if view.trump is None else f" {SYMBOL_OF_SUIT[SUITS[view.trump]]}"
        return f"{self.names[view.bidder]} {view.bid}{suit}"

    @property
    def trump(self) -> str:
        t = self.view.trump
        return "" if t is None else f"{SYMBOL_OF_SUIT[SUITS[t]]} {SUIT_NAMES[SUITS[t]]}"

    @property
    def trump_letters(self) -> list[str]:
        return [letter for letter, _, _ in self.trumps.options]

    @property
    def score_lines(self) -> list[tuple[str, int, int | None]]:
        """Each side's total and the counter it has taken this hand: None before the first trick
        is won, as on the practice table."""
        sides = len(self.side_names)
        taken: tuple[int | None, ...] = (self.points or (0,) * sides) if self.view.tricks else (None,) * sides
        return list(zip(self.side_names, self.view.totals, taken, strict=True))

    @property
    def prompt(self) -> str:
        """The question, as a player reads it."""
        view = self.view
        if view.decision == TRUMP:
            return f"You won the bid at {view.bid}: which suit do you name trump?"
        if view.decision == PASS:
            to = "your partner" if view.seat == view.bidder else "the bidder"
            return f"Which {view.pass_count} cards do you pass to {to}?"
        leading = view.trick is None or not view.trick.cards
        trick = len(view.tricks) + 1
        return f"Trick {trick}: {'your lead' if leading else 'your play'}. Which card?"

    @property
    def play_rule(self) -> str:
        return self.held.play_rule

    @property
    def passing(self) -> bool:
        return bool(self.pass_lines or self.passed or self.received)

    @property
    def passing_open(self) -> bool:
        """The passing fold opens by itself until the first card is played, then folds away."""
        return not self.view.tricks and not self.tricks.trick


def puzzle_table(puzzle: Puzzle) -> PuzzleTable:
    state = puzzle.hand_state()
    view = seat_view(state, PUZZLE_SEAT)
    names = tuple(seat_names(state.variant))
    public = PublicHand.of(state)
    return PuzzleTable(
        puzzle=puzzle,
        view=view,
        names=names,
        side_names=tuple(side_names(state.variant, names)),
        held=held(view, deciding=True),
        tricks=_frozen(trick_board(view, public, names)),
        seats=seat_spots(view, public, names),
        melds=seat_melds(view, names),
        auction=tuple((names[seat], "Pass" if bid is None else str(bid)) for seat, bid in view.auction),
        trumps=trump_choice(view) if view.decision == TRUMP else TrumpChoice(),
        received=tuple(face(c, view.trump) for c in view.received),
        passed=tuple(face(c, view.trump) for c in view.passed),
        passed_to=_pass_partner(public, giver=True, names=names),
        received_from=_pass_partner(public, giver=False, names=names),
        pass_lines=tuple(  # the seat's own passes are told card by card
            f"{names[giver]} passed {count} cards to {names[taker]}"
            for giver, taker, count in public.passes
            if PUZZLE_SEAT not in (giver, taker)
        ),
        played=tuple(_played(view, trick, names) for trick in view.tricks),
        points=public.points,
    )


def _pass_partner(public: PublicHand, *, giver: bool, names: tuple[str, ...]) -> str:
    """Whom the seat passed to (``giver``), or whom it received from: "" when it did not."""
    for source, taker, _ in public.passes:
        if (source if giver else taker) == PUZZLE_SEAT:
            return names[taker if giver else source]
    return ""


def _played(view: SeatView, trick: Trick, names: tuple[str, ...]) -> PlayedTrick:
    seats = view.variant.seats
    plays = tuple((names[(trick.leader + i) % seats], card_words(c)) for i, c in enumerate(trick.cards))
    assert trick.winner is not None  # a trick played out
    return PlayedTrick(plays, names[trick.winner])


def _frozen(board: TrickBoard) -> TrickBoard:
    """The trick board held still: no trick gathered on its way to a winner (nothing moves)."""
    return TrickBoard(board.trick, board.last_trick, board.last_winner)


# -- the answer ------------------------------------------------------------------------------------


def read_answer(puzzle: Puzzle, data: Mapping[str, Any]) -> tuple[Any, str]:
    """The answer a form posts for ``puzzle`` as §9.6 writes it, or why it is refused, in words:
    ("", reason) when the form is for another puzzle, a changed position, or an answer the rules
    do not allow here."""
    if data.get("puzzle") != puzzle.key:
        return None, OTHER_PUZZLE
    if data.get("position") != puzzle.digest:
        return None, FORGED
    view = puzzle.view()
    said = read_form_answer(view, data)
    if said.unreadable is not None:
        return None, in_words(str(said.unreadable))
    try:
        check_answer(view, said.answer)
    except AnswerError as error:
        return None, in_words(str(error))
    answer = said.answer
    if view.decision == PASS and isinstance(answer, tuple):
        return sorted(puzzle_codes(answer)), ""
    return _json(view, answer), ""


def puzzle_codes(cards: tuple[int, ...]) -> list[str]:
    return [CODES[c] for c in cards]


def _json(view: SeatView, answer: Any) -> Any:
    return answer_json(str(view.decision), answer)


@dataclass(frozen=True, slots=True)
class PuzzleResult:
    solved: bool
    counted: bool
    yours: str  # the player's answer in words
    best: str
    reason: str
    worst: str  # the worst other answer and what it costs
    values: tuple[tuple[str, str, bool], ...]  # each answer in words, its average, whether the best
    rating: int
    change: int
    not_counted: str = ""  # why a first answer was not counted, in words

    @property
    def change_words(self) -> str:
        if self.not_counted:
            return self.not_counted
        if not self.counted:
            return "You answered this puzzle before: your rating stays as it was."
        sign = "+" if self.change >= 0 else "−"
        return f"Your puzzle rating: {self.rating} ({sign}{abs(self.change)})."


def puzzle_result(
    puzzle: Puzzle,
    answer: Any,
    *,
    solved: bool,
    counted: bool,
    rating: float,
    change: int,
    not_counted: str = "",
) -> PuzzleResult:
    view = puzzle.view()
    decision = puzzle.decision

    def words(value: Any) -> str:
        return answer_words(view, answer_from_json(decision, value))

    best = words(puzzle.answer)
    values = tuple((words(a), f"{v:+.1f}", i == 0) for i, (a, v) in enumerate(puzzle.values))
    return PuzzleResult(
        solved=solved,
        counted=counted,
        yours=words(answer),
        best=best,
        reason=in_words(puzzle.reason),
        worst=in_words(puzzle.worst_words),
        values=values,
        rating=round(rating),
        change=change,
        not_counted=not_counted,
    )


def difficulty_words(difficulty: int) -> str:
    return ("", "Easy", "Fair", "Tricky", "Hard", "Very hard")[difficulty]
