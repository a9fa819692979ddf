"""Puzzles: positions from the bots' hands where one answer is clearly better than every other.

The finder plays seeded hands with the steady bot in every seat (``scan_game``: one hand per game
index, so any puzzle can be found again from its seed and index alone) and stops at each decision
of seat 0, the seat the puzzle page shows as "You". Each answer the seat may give is weighed on the
same deals of the cards it cannot see, sampled from what it knows (``knowledge.Dealer``, as the
expert and the hand review sample them):

* a play or a lead: every legal card, the rest of the hand searched exactly (``lean.solve``) once at
  most ``EXACT_CARDS`` cards are left, else played out by the expert's fast policy with its last
  tricks searched exactly (``lean.playout``);
* the trump: every suit the bidder may name, each contract simulated on the deal as the expert's
  bid analysis does (``search.simulate_contract``);
* the cards to pass (classic): the expert's candidate passes (``pass_candidates``), each simulated.

Bids are not puzzles: a bid's worth depends on how the auction would have gone on, which a sample
of deals cannot show, so no bid is ever "clearly" best in a way a strong player would accept.

An answer's value on a deal is the margin the hand ends with for the seat's side (its score less
the others' average), as everywhere in the engine. A position is a puzzle when one answer is the
best (ties included) on at least ``BEST_SHARE`` of the deals and ahead of the second best on
average by at least ``MARGIN_COUNTERS`` of the variant's least counter. Why these figures:

* 90% of deals: a strong player accepts "this is right" when it is right whatever the layout,
  except a rare one; at 80% a good player can name the layout that beats it too often, and most
  such positions are guesses, not lessons. Deals are what the seat knows, so the 90% is the
  player's own chance of being right.
* two of the least counter (2 points in classic and double-deck, 10 in six-handed): one counter
  kept from the opponents moves the margin by about one counter, a difference any player shrugs
  at; two is a counter won and one saved, or a trick's worth, which a strong player calls a
  mistake. Ties and near-ties (two cards that do the same, such as two low spades) never pass.
* answers within ``TIE_VALUE`` of each other on average do the same: no answer is called better
  than one it ties, neither by the verdict nor in the words, which name such answers together.

A screening sample (``SCREEN_DEALS``) rejects most positions cheaply; the ones that pass are
weighed again on ``FIND_DEALS`` deals continuing the same generator, where they must clear the
thresholds with a guard band (``FIND_SHARE``, ``FIND_MARGIN_PART``) so that a shipped puzzle still
clears them on a fresh sample. The ``check_puzzles`` command weighs every shipped answer once more
on ``CHECK_DEALS`` fresh deals and counts those still best, and those still clear; and weighs it
by the deeper weighing (``deep_weigh``: the rest of each hand searched exactly where affordable,
``weighing``) on ``EXACT_CHECK_DEALS`` deals the finder never used (``exact_check``), a second
verdict independent of the finder's policy line. ``bots_missing`` names the app's bots that answer
a puzzle wrong: none, and it is a warm-up.

Each puzzle carries its position (the hand state, hidden cards included: the page shows only the
seat's view), the answer and the others' values, the reason in a player's words (``reasons.py``),
the worst other answer, a theme a player recognises and a difficulty from 1 to 5. The words are
built from the position and the stored values alone, so ``reworded`` says a shipped set again
without a search (``check_puzzles --reword``).

Pure: no Django; deterministic for a seed, a variant and a game index.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from functools import partial
from typing import Any

from .answers import answer_json
from .bots.easy import EasyBot
from .bots.expert import ExpertBot, pass_candidates
from .bots.heuristic import HeuristicBot, choose_pass, profile_of
from .bots.reasons import is_boss, out_of, pass_cards_reason, play_reason, trump_reason
from .cards import SUIT_NAMES, SUITS, Card, card_words, cards_in_words, parse_card, parse_suit, suit_of
from .game import HandState, from_json, new_game, seat_view
from .knowledge import Dealer, knowledge_of
from .lean import INFINITY, playout, solve
from .play import trick_winner
from .search import Passer, outcome_scores, play_state, playout_policy, simulate_contract
from .simulate import advance_until
from .variants import Variant
from .view import PASS, PLAY, TRUMP, Answer, SeatView
from .weighing import deep_contract, exact_cards, weigh_cards

PUZZLE_SEAT = 0  # the seat every puzzle is seen from ("You" on the page)
BEST_SHARE = 0.9  # the answer is the best (ties included) on at least this share of the deals …
MARGIN_COUNTERS = 2  # … and ahead of the second best by this many of the least counter on average
SCREEN_DEALS = 16  # deals that reject most positions cheaply …
SCREEN_SHARE = 0.75  # … unless the best answer is best on this share of them and ahead by …
SCREEN_MARGIN = 0.5  # … this share of the margin: only those are weighed on …
FIND_DEALS = 200  # … this many deals in all (the screening deals included), where the answer must
FIND_SHARE = 0.92  # … clear a guard band above the thresholds: a share of 90% on 200 deals has a
FIND_MARGIN_PART = 1.1  # standard error of 2 points, and the best of several answers measured on one
# sample is flattered by it: without the band, part of the set fell short on the check's fresh deals
# (``bots/FINDINGS.md``)
CHECK_DEALS = 800  # the check command's sample: fresh deals, four times the finder's
EXACT_CHECK_DEALS = 100  # the exact check's fresh deals: each costs an exact search an answer
WARM_UP_PLAYOUTS = 40  # the expert at a low budget, the strongest of the bots a warm-up must not fool
PER_HAND = 3  # puzzles kept from one hand at most: a set of many hands, not many tricks of a few
EXACT_CARDS = 12  # at most this many cards left in all hands: the rest of the hand is searched exactly
PLAYOUT_EXACT_CARDS = 8  # before that, the last tricks of this many cards are (as the expert does)
TIE = 1e-6  # values this close are equal on a deal
TIE_VALUE = 0.1  # answers this close on average do the same: neither is called the better one
LATE_TRICKS = 3  # the last tricks: at most this many tricks left (two in six-handed, eight cards each)
THEMES = (
    "counting to the contract",
    "drawing trump",
    "saving counters for a partner",
    "the pass",
    "the defence's lead",
    "the last tricks",
    "cashing winners",
    "taking tricks",
    "keeping counters",
)
DIFFICULTIES = (1, 2, 3, 4, 5)
BASE_RATING = 1200  # a difficulty-1 puzzle's first rating (Glicko-2 scale: players start at 1500) …
RATING_STEP = 150  # … and each step of difficulty adds this


@dataclass(frozen=True, slots=True)
class Weighed:
    """Each answer's value on each sampled deal (the same deals for every answer)."""

    values: dict[Any, list[float]]  # answer (engine value; a pass as a sorted tuple) -> one per deal

    @property
    def deals(self) -> int:
        return len(next(iter(self.values.values()))) if self.values else 0

    def mean(self, answer: Any) -> float:
        found = self.values[answer]
        return sum(found) / max(1, len(found))

    def ranked(self) -> list[Any]:
        """The answers, best mean first (ties by the order they were weighed in)."""
        return sorted(self.values, key=lambda a: -self.mean(a))

    def best_share(self, answer: Any) -> float:
        """The share of deals on which no answer did better than ``answer``."""
        mine = self.values[answer]
        wins = sum(
            1
            for i, value in enumerate(mine)
            if all(value >= other[i] - TIE for other in self.values.values())
        )
        return wins / max(1, len(mine))


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a weighing makes a puzzle: the best answer, how often it was best, its lead."""

    best: Any
    second: Any
    worst: Any
    share: float
    margin: float

    def clear(self, least: float, *, share: float = BEST_SHARE, part: float = 1.0) -> bool:
        lead = self.margin >= part * MARGIN_COUNTERS * least and self.margin > TIE_VALUE
        return self.share >= share and lead


def verdict_of(weighed: Weighed) -> Verdict | None:
    ranked = weighed.ranked()
    if len(ranked) < 2:
        return None
    best, second, worst = ranked[0], ranked[1], ranked[-1]
    margin = weighed.mean(best) - weighed.mean(second)
    return Verdict(best, second, worst, weighed.best_share(best), margin)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One shipped puzzle, as its JSON file holds it."""

    key: str  # "classic-0042-17": variant, game index, decision number in the hand
    variant: str
    game: int
    number: int  # the decision's place among the hand's decisions, from 0
    state: dict[str, Any]  # the hand state at the decision (seat 0 to act)
    decision: str
    answer: Any  # as §9.6 writes it (codes, suit letters)
    second: Any
    worst: Any
    values: list[list[Any]]  # [[answer, mean value], …] best first
    share: float  # of the deals on which the answer was best
    margin: float  # its mean lead over the second answer, in points
    deals: int
    theme: str
    difficulty: int
    reason: str  # why the answer, in a player's words
    worst_words: str  # the worst other answer and what it costs, in a player's words

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Puzzle:
        return cls(**data)

    @property
    def rating(self) -> int:
        """The puzzle's first rating, from its difficulty (the site's players then move it)."""
        return first_rating(self.difficulty)

    @property
    def digest(self) -> str:
        """A short fingerprint of the position: an answer sent for a changed position is refused."""
        return position_digest(self.state)

    def hand_state(self) -> HandState:
        return from_json(self.state)

    def view(self) -> SeatView:
        return seat_view(self.hand_state(), PUZZLE_SEAT)


def first_rating(difficulty: int) -> int:
    return BASE_RATING + RATING_STEP * (difficulty - 1)


def position_digest(state: Mapping[str, Any]) -> str:
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- weighing the answers ------------------------------------------------------------------------


def least_counter(view: SeatView) -> int:
    return min(v for v in view.settings.counter_values if v)


def _margin(scores: Sequence[int], side: int) -> float:
    return scores[side] - (sum(scores) - scores[side]) / (len(scores) - 1)


def weigh(view: SeatView, rng: random.Random, deals: int, *, start: Weighed | None = None) -> Weighed:
    """Every answer of ``view`` weighed on ``deals`` deals sampled with ``rng`` (continuing the
    deals of ``start``, weighed with the same generator before)."""
    values: dict[Any, list[float]] = {a: list(v) for a, v in start.values.items()} if start else {}
    done = start.deals if start else 0
    if view.decision == PLAY:
        _weigh_play(view, rng, deals - done, values)
    elif view.decision == TRUMP:
        _weigh_trump(view, rng, deals - done, values)
    elif view.decision == PASS:
        _weigh_pass(view, rng, deals - done, values)
    else:
        raise ValueError(f"{view.decision} is not a puzzle decision")
    return Weighed(values)


def _weigh_play(view: SeatView, rng: random.Random, deals: int, values: dict[Any, list[float]]) -> None:
    legal = list(dict.fromkeys(view.legal_cards))
    k = knowledge_of(view)
    dealer = Dealer(k)
    side = view.variant.side_of(view.seat)
    exact = sum(k.sizes) <= EXACT_CARDS
    exact_tricks = PLAYOUT_EXACT_CARDS // view.variant.seats
    choose = playout_policy(view.variant)
    for c in legal:
        values.setdefault(c, [])
    for _ in range(deals):
        state, contract = play_state(view, dealer.deal(rng))
        for c in legal:
            child = state.copy()
            child.play(c)
            if exact:
                values[c].append(solve(child, contract, side, -INFINITY, INFINITY))
            else:
                values[c].append(playout(child, contract, side, exact_tricks, choose))


def _weigh_trump(view: SeatView, rng: random.Random, deals: int, values: dict[Any, list[float]]) -> None:
    assert view.bid is not None
    p = profile_of(view.variant, view.settings)
    dealer = Dealer(knowledge_of(view))
    side = view.variant.side_of(view.seat)
    passer = partial(choose_pass, p=p)
    for suit in view.legal_suits:
        values.setdefault(suit, [])
    for _ in range(deals):
        hands = dealer.deal(rng)
        for suit in view.legal_suits:
            outcome = simulate_contract(view.variant, view.settings, hands, view.seat, suit, passer)
            scores = outcome_scores(view.variant, view.settings, outcome, view.seat, view.bid, suit)
            values[suit].append(_margin(scores, side))


def _weigh_pass(view: SeatView, rng: random.Random, deals: int, values: dict[Any, list[float]]) -> None:
    assert view.bidder is not None
    assert view.trump is not None
    p = profile_of(view.variant, view.settings)
    candidates = list(values) or pass_candidates(view, p)
    dealer = Dealer(knowledge_of(view))
    side = view.variant.side_of(view.seat)
    partner = next(s for s in view.variant.sides[side] if s != view.seat)
    passer = partial(choose_pass, p=p)
    for cards in candidates:
        values.setdefault(cards, [])
    for _ in range(deals):
        hands = dealer.deal(rng)
        if view.seat == view.bidder:  # the partner has passed: deal from before its pass
            hands = [h[:] for h in hands]
            for c in view.received:
                hands[view.seat][c] -= 1
                hands[partner][c] += 1
        for cards in candidates:
            fixed = {view.seat: cards}
            if view.seat == view.bidder:
                fixed[partner] = view.received
            outcome = simulate_contract(
                view.variant, view.settings, hands, view.bidder, view.trump, passer, passes=fixed
            )
            scores = outcome_scores(
                view.variant, view.settings, outcome, view.bidder, view.bid or 0, view.trump
            )
            values[cards].append(_margin(scores, side))


def deep_weigh(view: SeatView, rng: random.Random, deals: int) -> Weighed:
    """Every answer of ``view`` weighed on ``deals`` deals sampled with ``rng`` by the deeper
    weighing (``weighing``): each play's rest searched exactly where affordable, played by the
    expert's fast policy down to that point before; a trump or a pass, its contract so played. The same
    answers as ``weigh``'s (a pass: the expert's candidates)."""
    values: dict[Any, list[float]] = {}
    if view.decision == PLAY:
        _deep_play(view, rng, deals, values)
    elif view.decision in (TRUMP, PASS):
        _deep_contract(view, rng, deals, values)
    else:
        raise ValueError(f"{view.decision} is not a puzzle decision")
    return Weighed(values)


def _deep_play(view: SeatView, rng: random.Random, deals: int, values: dict[Any, list[float]]) -> None:
    legal = dict.fromkeys(view.legal_cards)
    values.update(weigh_cards(view, legal, rng, deals, exact_cards(view.variant)))


def _deep_contract(view: SeatView, rng: random.Random, deals: int, values: dict[Any, list[float]]) -> None:
    """A trump (each suit the bidder may name) or a pass (each candidate), its hand played out."""
    assert view.bid is not None
    p = profile_of(view.variant, view.settings)
    passer = partial(choose_pass, p=p)
    side = view.variant.side_of(view.seat)
    dealer = Dealer(knowledge_of(view))
    if view.decision == TRUMP:
        answers: list[Any] = list(view.legal_suits)
    else:
        answers = pass_candidates(view, p)
    for answer in answers:
        values[answer] = []
    for _ in range(deals):
        hands = dealer.deal(rng)
        for answer in answers:
            if view.decision == TRUMP:
                values[answer].append(
                    deep_contract(
                        view.variant, view.settings, hands, (view.seat, view.bid, answer), side, passer
                    )
                )
            else:
                values[answer].append(_deep_pass(view, hands, answer, side, passer))


def _deep_pass(
    view: SeatView, hands: list[list[int]], cards: tuple[Card, ...], side: int, passer: Passer
) -> float:
    """A pass's hand: dealt as before the partner's pass where the seat is the bidder."""
    assert view.bidder is not None
    assert view.trump is not None
    partner = next(s for s in view.variant.sides[side] if s != view.seat)
    fixed = {view.seat: cards}
    if view.seat == view.bidder:  # the partner has passed: deal from before its pass
        hands = [h[:] for h in hands]
        for c in view.received:
            hands[view.seat][c] -= 1
            hands[partner][c] += 1
        fixed[partner] = view.received
    contract = (view.bidder, view.bid or 0, view.trump)
    return deep_contract(view.variant, view.settings, hands, contract, side, passer, fixed)


def judge(
    view: SeatView, rng: random.Random, tally: Counter[str] | None = None
) -> tuple[Weighed, Verdict] | None:
    """The weighing and verdict of a clear position, or None: screened on ``SCREEN_DEALS`` deals,
    then weighed on ``FIND_DEALS`` in all. ``tally`` counts the positions weighed ("weighed"), those
    past the screen ("screened") and those found clear ("clear")."""
    tally = Counter() if tally is None else tally
    least = least_counter(view)
    tally["weighed"] += 1
    screened = weigh(view, rng, SCREEN_DEALS)
    first = verdict_of(screened)
    if first is None or not first.clear(least, share=SCREEN_SHARE, part=SCREEN_MARGIN):
        return None
    tally["screened"] += 1
    weighed = weigh(view, rng, FIND_DEALS, start=screened)
    found = verdict_of(weighed)
    if found is None or not found.clear(least, share=FIND_SHARE, part=FIND_MARGIN_PART):
        return None
    tally["clear"] += 1
    return weighed, found


# -- scanning the bots' hands --------------------------------------------------------------------


def candidate(view: SeatView) -> bool:
    """Whether a decision of seat 0 is worth weighing: a play with a real choice, the trump with
    more than one suit, a pass; never a bid."""
    if view.decision == PLAY:
        return len(set(view.legal_cards)) > 1
    if view.decision == TRUMP:
        return len(view.legal_suits) > 1
    return view.decision == PASS


def scan_game(variant: Variant, seed: int, game: int, tally: Counter[str] | None = None) -> Iterator[Puzzle]:
    """The puzzles of game ``game``'s first hand under ``seed``: the steady bot plays every seat,
    and each decision of seat 0 is judged before the bot's answer is played on (``tally`` counts
    what ``judge`` counts, and seat 0's decisions)."""
    settings = variant.defaults
    rng = random.Random(f"puzzles:{seed}:{variant.id}:{game}")
    state = new_game(variant, settings, rng, game=game)
    bots = [HeuristicBot(seat) for seat in range(variant.seats)]
    number = found = 0
    while state.decision is not None and found < PER_HAND:
        moves = advance_until(state, bots, stop_at={PUZZLE_SEAT})
        number += len(moves)
        if state.decision is None:
            return
        view = seat_view(state, PUZZLE_SEAT)
        if tally is not None:
            tally["decisions"] += 1
        if candidate(view):
            judged = judge(view, random.Random(f"puzzles:{seed}:{variant.id}:{game}:{number}"), tally)
            if judged is not None:
                found += 1
                yield make_puzzle(state, view, game, number, *judged)
        state.push(bots[PUZZLE_SEAT].decide(view))
        number += 1


def find_puzzles(variant: Variant, seed: int, games: range) -> Iterator[Puzzle]:
    for game in games:
        yield from scan_game(variant, seed, game)


# -- what a puzzle says --------------------------------------------------------------------------


def make_puzzle(
    state: HandState, view: SeatView, game: int, number: int, weighed: Weighed, verdict: Verdict
) -> Puzzle:
    decision = str(view.decision)
    ranked = weighed.ranked()
    puzzle = Puzzle(
        key=f"{view.variant.id}-{game:05d}-{number:03d}",
        variant=view.variant.id,
        game=game,
        number=number,
        state=state.to_json(),
        decision=decision,
        answer=answer_json(decision, verdict.best),
        second=answer_json(decision, verdict.second),
        worst=answer_json(decision, verdict.worst),
        values=[[answer_json(decision, a), round(weighed.mean(a), 2)] for a in ranked],
        share=round(verdict.share, 3),
        margin=round(verdict.margin, 2),
        deals=weighed.deals,
        theme=theme_of(view, weighed, verdict),
        difficulty=difficulty_of(view, weighed, verdict),
        reason="",
        worst_words="",
    )
    return worded(puzzle, view, why_of(view, weighed, verdict))


def reworded(puzzle: Puzzle) -> Puzzle:
    """The puzzle with its words built again from its position and stored values, without a
    search. A trump's why rests on the deals themselves (how often the bid was made), which the
    puzzle does not store, so it is kept as it was said."""
    view = puzzle.view()
    if view.decision == TRUMP:
        why = puzzle.reason.split(". ", 1)[0]
    else:
        why = _card_why(view, answer_from_json(puzzle.decision, puzzle.answer))
    return worded(puzzle, view, why)


def ties_the_answer(puzzle: Puzzle) -> bool:
    """Whether another answer is valued within ``TIE_VALUE`` of the answer: no puzzle then."""
    return bool(puzzle.values[0][1] - puzzle.values[1][1] <= TIE_VALUE)


def answer_from_json(decision: str, value: Any) -> Any:
    """An answer as §9.6 writes it (``answer_json``) as the engine's value."""
    if decision == PLAY:
        return parse_card(value)
    if decision == TRUMP:
        return parse_suit(value)
    return tuple(sorted(parse_card(code) for code in value))


def answer_words(view: SeatView, answer: Any) -> str:
    """An answer as a player says it: "10♥", "spades", "A♠ 10♠ K♥ Q♥"."""
    if view.decision == PLAY:
        return card_words(Card(answer))
    if view.decision == TRUMP:
        return SUIT_NAMES[SUITS[answer]]
    return cards_in_words(answer)


def _points(value: float) -> str:
    shown = f"{value:.1f}".removesuffix(".0")
    return f"{shown} point" if shown == "1" else f"{shown} points"


def why_of(view: SeatView, weighed: Weighed, verdict: Verdict) -> str:
    """What the answer does, read from the cards (a trump: how often the bid was made with it)."""
    if view.decision == TRUMP:
        made = sum(1 for v in weighed.values[verdict.best] if v > 0)
        return trump_reason(view, verdict.best, made, weighed.deals)
    return _card_why(view, verdict.best)


def _card_why(view: SeatView, best: Any) -> str:
    if view.decision == PLAY:
        return play_reason(view, Card(best), profile_of(view.variant, view.settings))
    return pass_cards_reason(view, best, 0, 0)


def worded(puzzle: Puzzle, view: SeatView, why: str) -> Puzzle:
    """``puzzle`` with its reason and its worst answer's cost said from its stored values: answers
    valued alike are named together, never one of them as the next best or the worst."""
    return replace(puzzle, reason=reason_words(puzzle, view, why), worst_words=worst_words(puzzle, view))


def reason_words(puzzle: Puzzle, view: SeatView, why: str) -> str:
    sure = out_of(round(puzzle.share * puzzle.deals), puzzle.deals)
    second = _alike_words(puzzle, view, puzzle.values[1][1])
    return (
        f"{why[0].upper()}{why[1:]}. Wherever the hidden cards lie, nothing does better in {sure}, "
        f"and it is {_points(puzzle.margin)} a hand better than {second}, the next best."
    )


def worst_words(puzzle: Puzzle, view: SeatView) -> str:
    worst = puzzle.values[-1][1]
    cost = _points(puzzle.values[0][1] - worst)
    costs = "each cost" if len(_alike(puzzle, worst)) > 1 else "costs"
    return f"{_alike_words(puzzle, view, worst)} {costs} {cost} a hand on average."


def _alike(puzzle: Puzzle, value: float) -> list[Any]:
    """The answers other than the best valued within ``TIE_VALUE`` of ``value``, best first."""
    return [a for a, v in puzzle.values[1:] if abs(v - value) <= TIE_VALUE]


def _alike_words(puzzle: Puzzle, view: SeatView, value: float) -> str:
    """ "K♥" or "K♥, Q♥ or A♦": the answers valued alike at ``value``."""
    named = [answer_words(view, answer_from_json(puzzle.decision, a)) for a in _alike(puzzle, value)]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"


def theme_of(view: SeatView, weighed: Weighed, verdict: Verdict) -> str:
    """The idea a player would name for the position."""
    if view.decision == PASS:
        return "the pass"
    if view.decision == TRUMP:
        return "counting to the contract"
    variant, seat = view.variant, view.seat
    side = variant.side_of(seat)
    assert view.bidder is not None
    bidders = variant.side_of(view.bidder) == side
    leading = view.trick is None or not view.trick.cards
    card = Card(verdict.best)
    points_left = variant.trick_points_total(view.settings) - _points_taken(view)
    # A lead over what the trick points left could swing alone: the contract (or a side's meld)
    # rides on the answer.
    if verdict.margin > 2 * points_left:
        return "counting to the contract"
    tricks_left = len(view.hand)
    if tricks_left <= (2 if variant.seats == 6 else LATE_TRICKS):
        return "the last tricks"
    if leading and bidders and suit_of(card) == view.trump:
        return "drawing trump"
    if leading and not bidders:
        return "the defence's lead"
    p = profile_of(variant, view.settings)
    if leading:
        return "cashing winners" if is_boss(view, card, p) else "taking tricks"
    if variant.partnerships and _partner_winning(view):
        return "saving counters for a partner"
    assert view.trick is not None
    if trick_winner((*view.trick.cards, card), view.trump) == len(view.trick.cards):
        return "taking tricks"
    if p.value[card] and variant.partnerships:  # a counter under a trick the partner may still take
        return "saving counters for a partner"
    return "keeping counters" if not p.value[card] else "taking tricks"


def _points_taken(view: SeatView) -> int:
    values = view.settings.counter_values
    taken = sum(values[c % 6] for trick in view.tricks for c in trick.cards)
    return taken + (view.settings.last_trick if len(view.tricks) == view.variant.hand_size else 0)


def _partner_winning(view: SeatView) -> bool:
    assert view.trick is not None
    cards = view.trick.cards
    winner = (view.trick.leader + trick_winner(cards, view.trump)) % view.variant.seats
    return winner != view.seat and view.variant.side_of(winner) == view.variant.side_of(view.seat)


def difficulty_of(view: SeatView, weighed: Weighed, verdict: Verdict) -> int:
    """1 (the easy bot finds it) to 5: a step for each bot that misses it (the easy one, the steady
    one), for many answers to choose from, and for a lead that is small beside the others'."""
    steps = 1
    if _bot_answer(view, EasyBot(view.seat, random.Random(0))) != verdict.best:
        steps += 1
    if _bot_answer(view, HeuristicBot(view.seat)) != verdict.best:
        steps += 1
    if len(weighed.values) >= 4:
        steps += 1
    if verdict.margin < 2 * MARGIN_COUNTERS * least_counter(view):
        steps += 1
    return min(steps, DIFFICULTIES[-1])


def _bot_answer(view: SeatView, bot: EasyBot | HeuristicBot | ExpertBot) -> Answer:
    answer = bot.decide(view)
    return tuple(sorted(answer)) if view.decision == PASS and isinstance(answer, tuple) else answer


def set_text(header: Mapping[str, Any], found: Sequence[Puzzle]) -> str:
    """A set as its JSON file holds it: the header's keys, then one puzzle a line (so a diff of a
    new set reads puzzle by puzzle)."""
    lines = [json.dumps(p.to_json(), separators=(",", ":"), sort_keys=True) for p in found]
    head = json.dumps(dict(header), sort_keys=True)[:-1]
    return head + ', "puzzles": [\n' + ",\n".join(lines) + "\n]}\n"


# -- checking an answer --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Recheck:
    """A shipped puzzle weighed again: the best answer now (as §9.6 writes it), how often it was
    best and by how much it led, and whether that is still the shipped answer and still clear."""

    best: Any
    share: float
    margin: float
    agrees: bool  # the shipped answer is still the best on average
    clear: bool  # … and still passes both thresholds


def recheck(puzzle: Puzzle, seed: int, deals: int = CHECK_DEALS) -> Recheck:
    """The shipped answer weighed again on ``deals`` deals from a generator of the check's own."""
    return _weighed_again(puzzle, weigh, random.Random(f"check:{seed}:{puzzle.key}"), deals)


def exact_check(puzzle: Puzzle, seed: int, deals: int = EXACT_CHECK_DEALS) -> Recheck:
    """The shipped answer weighed by the deeper weighing on ``deals`` deals of a generator of its
    own: a second verdict, independent of the finder's (the shipped answer, share and lead)."""
    return _weighed_again(puzzle, deep_weigh, random.Random(f"exact:{seed}:{puzzle.key}"), deals)


def _weighed_again(
    puzzle: Puzzle, weigher: Callable[[SeatView, random.Random, int], Weighed], rng: random.Random, deals: int
) -> Recheck:
    view = puzzle.view()
    found = verdict_of(weigher(view, rng, deals))
    assert found is not None  # a puzzle has at least two answers
    best = answer_json(str(view.decision), found.best)
    agrees = best == puzzle.answer
    return Recheck(best, found.share, found.margin, agrees, agrees and found.clear(least_counter(view)))


def bots_missing(puzzle: Puzzle, playouts: int = WARM_UP_PLAYOUTS) -> list[str]:
    """The app's own bots that answer the puzzle wrong: the easy one, the steady one and the expert
    at a low budget (``playouts``, the clock out of it), each seeded from the puzzle. None: a
    warm-up, a choice no club player would get wrong."""
    view = puzzle.view()
    answer = answer_from_json(puzzle.decision, puzzle.answer)
    bots: dict[str, EasyBot | HeuristicBot | ExpertBot] = {
        "easy": EasyBot(view.seat, random.Random(f"warm-up:{puzzle.key}")),
        "steady": HeuristicBot(view.seat),
        "expert": ExpertBot(
            view.seat, random.Random(f"warm-up:{puzzle.key}"), playouts=playouts, budget_ms=1e9
        ),
    }
    return [name for name, bot in bots.items() if _bot_answer(view, bot) != answer]


__all__ = [
    "BEST_SHARE",
    "CHECK_DEALS",
    "EXACT_CHECK_DEALS",
    "FIND_DEALS",
    "MARGIN_COUNTERS",
    "PUZZLE_SEAT",
    "THEMES",
    "WARM_UP_PLAYOUTS",
    "Puzzle",
    "Recheck",
    "Verdict",
    "Weighed",
    "answer_from_json",
    "answer_words",
    "bots_missing",
    "deep_weigh",
    "exact_check",
    "find_puzzles",
    "first_rating",
    "judge",
    "position_digest",
    "recheck",
    "reworded",
    "scan_game",
    "set_text",
    "ties_the_answer",
    "verdict_of",
    "weigh",
]
