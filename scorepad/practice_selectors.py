"""Reads for practice mode: which games a request may open, the table a page shows, hints, history.

``practice_table(game)`` turns the stored engine state into ``PracticeTable``, everything the
practice page shows, from the player's seat only (``seat_view``): the player never sees a bot's
hand, only what the rules show everyone (calls, meld, played cards).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from .engine.answers import ANSWER_KEYS, why_not_playable
from .engine.bots import HINT_BOT, make_bot
from .engine.cards import (
    CODES,
    RANK_SHOWN,
    RANKS,
    SUIT_NAMES,
    SUITS,
    SYMBOL_OF_SUIT,
    Card,
    card_name,
    counts_of,
    rank_of,
    suit_of,
)
from .engine.game import HandState, from_json, seat_view
from .engine.meld import count_meld, meld_points
from .engine.play import trick_winner
from .engine.variants import Variant
from .engine.view import BID, CONCEDE, PASS, PLAY, TRUMP, Answer, Bot, SeatView
from .models import PracticeGame
from .services.practice import PLAYER

SESSION_KEY = "practice_games"  # ids of the games this browser started without an account
BID_CHIPS = 6  # quick bids offered: the least bid and the next steps up, then a few jumps
BID_JUMPS = (5, 10)  # … the bids that many steps above the least


# -- access ---------------------------------------------------------------------------------------


def practice_games_for(request: HttpRequest) -> QuerySet[PracticeGame]:
    """The games this request may open: the user's own, and those this browser started as a visitor."""
    started_here = Q(user__isnull=True, pk__in=request.session.get(SESSION_KEY, []))
    if request.user.is_authenticated:
        return PracticeGame.objects.filter(Q(user=request.user) | started_here)
    return PracticeGame.objects.filter(started_here)


def get_practice_for_request(request: HttpRequest, game_id: int) -> PracticeGame:
    return get_object_or_404(practice_games_for(request), pk=game_id)


def current_practice(request: HttpRequest) -> PracticeGame | None:
    """The newest unfinished game this request may continue."""
    return practice_games_for(request).filter(finished=False).first()


# -- the table --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardFace:
    card: Card
    code: str  # "TH": what a form posts
    rank: str  # "10"
    symbol: str  # "♥"
    label: str  # "Ten of hearts": what a screen reader says
    red: bool
    trump: bool = False
    playable: bool = True


@dataclass(frozen=True, slots=True)
class SuitRow:
    letter: str
    symbol: str
    name: str
    trump: bool
    cards: tuple[CardFace, ...]


@dataclass(frozen=True, slots=True)
class Played:
    """A card on the table: who played it, and its place in the trick (for the CSS delay)."""

    name: str
    face: CardFace
    order: int
    winning: bool = False


@dataclass(frozen=True, slots=True)
class SeatMeld:
    name: str
    total: int
    lines: tuple[tuple[str, int, int], ...]  # (§9.2 name, count, points)
    shown: tuple[CardFace, ...]


@dataclass(frozen=True, slots=True)
class SideLine:
    name: str
    score: int
    total: int
    reason: str


@dataclass(frozen=True, slots=True)
class Hint:
    words: str  # "Bid 25", "Play A♠"
    reason: str
    value: str  # what the form would post
    key: str  # … under this field name


@dataclass
class PracticeTable:
    """Everything the practice page shows, from the player's seat."""

    game: PracticeGame
    state: HandState
    view: SeatView
    names: list[str]
    side_names: list[str]
    hand: list[SuitRow] = field(default_factory=list)
    bid_chips: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    least_bid: int | None = None
    bid_step: int = 1
    trump_options: list[tuple[str, str, str]] = field(default_factory=list)  # (letter, symbol, name)
    auction: list[tuple[str, str]] = field(default_factory=list)
    passed: list[CardFace] = field(default_factory=list)
    received: list[CardFace] = field(default_factory=list)
    pass_lines: list[str] = field(default_factory=list)
    melds: list[SeatMeld] = field(default_factory=list)
    trick: list[Played] = field(default_factory=list)
    last_trick: list[Played] = field(default_factory=list)
    last_winner: str = ""
    play_rule: str = ""
    result: list[SideLine] = field(default_factory=list)
    result_words: str = ""
    totals: list[tuple[int, list[int]]] = field(default_factory=list)  # (hand from 1, totals per side)
    winners: list[str] = field(default_factory=list)
    hint: Hint | None = None

    @property
    def decision(self) -> str | None:
        return self.state.decision if self.state.to_act == PLAYER else None

    @property
    def hand_over(self) -> bool:
        return self.state.result is not None

    @property
    def trump(self) -> str:
        return (
            ""
            if self.state.trump is None
            else f"{SYMBOL_OF_SUIT[SUITS[self.state.trump]]} {SUIT_NAMES[SUITS[self.state.trump]]}"
        )

    @property
    def scores(self) -> list[tuple[str, int]]:
        """Each side's total now: after this hand once it is over."""
        result = self.state.result
        totals = result.totals if result is not None else self.state.totals
        return list(zip(self.side_names, totals, strict=True))

    @property
    def dealer_name(self) -> str:
        return self.names[self.state.dealer]

    @property
    def bidder_name(self) -> str:
        return "" if self.state.bidder is None else self.names[self.state.bidder]

    @property
    def can_undo(self) -> bool:
        return bool(self.game.undo)


def seat_names(variant: Variant) -> list[str]:
    if variant.seats == 4:
        return ["You", "West", "Partner", "East"]
    return ["You", *(f"Bot {seat + 1}" for seat in range(1, variant.seats))]


def side_names(variant: Variant, names: Sequence[str]) -> list[str]:
    return [" & ".join(names[seat] for seat in side) for side in variant.sides]


def face(card: Card, trump: int | None = None, playable: bool = True) -> CardFace:
    code = CODES[card]
    rank, suit = code[0], code[1]
    return CardFace(
        card=card,
        code=code,
        rank=RANK_SHOWN.get(rank, rank),
        symbol=SYMBOL_OF_SUIT[suit],
        label=card_name(card),
        red=suit in "HD",
        trump=trump is not None and suit_of(card) == trump,
        playable=playable,
    )


def practice_table(game: PracticeGame, *, hint: bool = False) -> PracticeTable:
    state = from_json(game.state)
    variant = state.variant
    names = seat_names(variant)
    view = seat_view(state, PLAYER)
    table = PracticeTable(game, state, view, names, side_names(variant, names))
    deciding = state.to_act == PLAYER
    _hand(table, deciding)
    table.auction = [(names[seat], "Pass" if bid is None else str(bid)) for seat, bid in state.auction]
    if deciding and state.decision == BID:
        _bids(table)
    if deciding and state.decision == TRUMP:
        table.trump_options = [(SUITS[s], SYMBOL_OF_SUIT[SUITS[s]], SUIT_NAMES[SUITS[s]]) for s in view.legal]
    table.passed = [face(c, state.trump) for c in view.passed]
    table.received = [face(c, state.trump) for c in view.received]
    table.pass_lines = [
        f"{names[giver]} passed {len(cards)} cards to {_object(names[taker])}"
        for giver, taker, cards in state.passes
    ]
    _melds(table)
    _tricks(table)
    _result(table)
    table.totals = [(entry["hand"] + 1, entry["totals"]) for entry in game.hands]
    if hint and deciding:
        table.hint = practice_hint(game, state)
    return table


def _object(name: str) -> str:
    """A seat's name after a verb: "to you", "to Partner"."""
    return "you" if name == "You" else name


def _hand(table: PracticeTable, deciding: bool) -> None:
    state, view = table.state, table.view
    playing = deciding and state.decision == PLAY
    rows = []
    order = [state.trump] if state.trump is not None else []
    order += [s for s in range(4) if s != state.trump]
    for suit in order:
        cards = [c for c in view.hand if suit_of(c) == suit]
        if not cards:
            continue
        cards.sort(key=rank_of)
        faces = tuple(face(c, state.trump, playable=not playing or c in view.legal) for c in cards)
        letter = SUITS[suit]
        rows.append(SuitRow(letter, SYMBOL_OF_SUIT[letter], SUIT_NAMES[letter], suit == state.trump, faces))
    table.hand = rows
    if playing:
        refused = next((c for c in view.hand if c not in view.legal), None)
        table.play_rule = "" if refused is None else (why_not_playable(view, refused) or "")


def _bids(table: PracticeTable) -> None:
    view, settings = table.view, table.view.settings
    least: int = view.legal[-1]
    chips: list[tuple[str, str]] = [("pass", "Pass")] if None in view.legal else []
    bids, bid = [], least
    for steps in range(BID_JUMPS[-1] + 1):
        if steps < BID_CHIPS - len(BID_JUMPS) or steps in BID_JUMPS:
            bids.append(bid)
        bid += settings.next_bid_step(bid)
    chips += [(str(b), str(b)) for b in bids]
    table.bid_chips = chips
    table.least_bid = least
    table.bid_step = settings.next_bid_step(least)


def _melds(table: PracticeTable) -> None:
    state = table.state
    if state.shown is None or state.meld is None:
        return
    for seat, shown in enumerate(state.shown):
        counted = count_meld(counts_of(shown), state.trump, state.variant, state.settings)
        lines = tuple((line.name, line.count, line.points) for line in counted.melds)
        faces = tuple(face(c, state.trump) for c in shown)
        table.melds.append(SeatMeld(table.names[seat], state.meld[seat], lines, faces))


def _tricks(table: PracticeTable) -> None:
    state, names, seats = table.state, table.names, table.state.variant.seats

    def played(leader: int, cards: Sequence[Card], winner: int | None) -> list[Played]:
        win = trick_winner(cards, state.trump) if cards else -1
        return [
            Played(
                names[(leader + i) % seats], face(c, state.trump), i, winning=winner is not None and i == win
            )
            for i, c in enumerate(cards)
        ]

    if state.trick_leader is not None and state.decision == PLAY:
        table.trick = played(state.trick_leader, state.trick, None)
    if state.tricks:
        last = state.tricks[-1]
        table.last_trick = played(last.leader, last.cards, last.winner)
        table.last_winner = "" if last.winner is None else names[last.winner]


def _result(table: PracticeTable) -> None:
    result, state = table.state.result, table.state
    if result is None:
        return
    table.result = [
        SideLine(name, score, total, reason)
        for name, score, total, reason in zip(
            table.side_names,
            result.scores,
            result.totals,
            result.reasons or ("",) * len(result.scores),
            strict=True,
        )
    ]
    if state.bidder is None:
        table.result_words = "Everyone passed: the hand is thrown in."
    elif not result.played:
        bidder = table.names[state.bidder]
        why = "no marriage to name trump" if state.trump is None else "not enough meld to play"
        table.result_words = f"{bidder} bid {state.bid} and forfeited: {why}."
    else:
        bidder = table.names[state.bidder]
        table.result_words = f"{bidder} bid {state.bid} and {'made it' if result.made else 'went set'}."
    table.winners = [table.side_names[side] for side in result.winners]


# -- hints ------------------------------------------------------------------------------------------


def practice_hint(game: PracticeGame, state: HandState | None = None) -> Hint | None:
    """What the strongest bot would do in the player's seat, with a one-line reason."""
    state = state or from_json(game.state)
    if state.to_act != PLAYER:
        return None
    view = seat_view(state, PLAYER)
    bot = make_bot(HINT_BOT, PLAYER, random.Random(f"{game.seed}:hint:{game.version}"))
    answer, reason = _explained(bot, view)
    words, value = _answer_words(view, answer), _answer_value(view, answer)
    return Hint(words, reason or hint_reason(view, answer), value, ANSWER_KEYS[view.decision])


def _explained(bot: Bot, view: SeatView) -> tuple[Answer, str | None]:
    """The bot's answer, and its own one-line reason when it offers one (``Bot.explain``)."""
    answer, reason = bot.explain(view)
    return answer, reason or None


def _answer_words(view: SeatView, answer: Answer) -> str:
    if view.decision == CONCEDE:
        return "Throw the hand in" if answer else "Play on"
    if view.decision == BID:
        return "Pass" if answer is None else f"Bid {answer}"
    if view.decision == TRUMP:
        assert isinstance(answer, int)
        return f"Name {SUIT_NAMES[SUITS[answer]]} trump"
    if view.decision == PASS:
        assert isinstance(answer, tuple)
        return "Pass " + " ".join(_short(c) for c in answer)
    assert isinstance(answer, int)
    return f"Play {_short(answer)}"


def _answer_value(view: SeatView, answer: Answer) -> str:
    if view.decision == CONCEDE:
        return "true" if answer else "false"
    if view.decision == BID:
        return "pass" if answer is None else str(answer)
    if view.decision == TRUMP:
        assert isinstance(answer, int)
        return SUITS[answer]
    if view.decision == PASS:
        assert isinstance(answer, tuple)
        return " ".join(CODES[c] for c in answer)
    assert isinstance(answer, int)
    return CODES[answer]


def _short(card: Card) -> str:
    code = CODES[card]
    return RANK_SHOWN.get(code[0], code[0]) + SYMBOL_OF_SUIT[code[1]]


def hint_reason(view: SeatView, answer: Answer) -> str:
    """A one-line reason for ``answer``, from what the view shows."""
    counts = counts_of(view.hand)
    if view.decision == BID:
        best = max(range(4), key=lambda s: meld_points(counts, s, view.variant, view.settings))
        meld = meld_points(counts, best, view.variant, view.settings)
        aces = sum(1 for c in view.hand if RANKS[rank_of(c)] == "A")
        hand = f"your meld with {SUIT_NAMES[SUITS[best]]} is {meld} and you hold {aces} aces"
        return f"{hand}." if answer is not None else f"{hand}: not enough to go higher."
    if view.decision == TRUMP:
        assert isinstance(answer, int)
        length = sum(1 for c in view.hand if suit_of(c) == answer)
        meld = meld_points(counts, answer, view.variant, view.settings)
        return f"it gives the most meld ({meld}) and you hold {length} of them."
    if view.decision == PASS:
        if view.seat == view.bidder:
            return "low cards from short suits go back; your meld stays whole."
        return "the bidder wants trumps and aces."
    assert isinstance(answer, int)
    trick = view.trick.cards if view.trick is not None else ()
    if not trick:
        return "a strong lead: it should take the trick." if rank_of(answer) == 0 else "a safe lead."
    after = (*trick, answer)
    if trick_winner(after, view.trump) == len(trick):
        return "it takes the trick."
    return "it cannot win this trick, and it is your cheapest card."


# -- history ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PracticeStatistics:
    games: int
    finished: int
    won: int
    bids: int  # hands the player's side bid
    bids_made: int
    hands: int
    margin: float | None  # the player's side's score less the best other side's, per hand
    replays: int = 0  # replayed deals: kept apart, none of the figures above counts them

    @property
    def won_share(self) -> float | None:
        return self.won / self.finished if self.finished else None

    @property
    def made_share(self) -> float | None:
        return self.bids_made / self.bids if self.bids else None


def practice_history(user: Any) -> QuerySet[PracticeGame]:
    return PracticeGame.objects.filter(user=user)


def practice_statistics(games: Sequence[PracticeGame]) -> PracticeStatistics:
    replays = sum(1 for game in games if game.replay_of_id is not None)
    games = [game for game in games if game.replay_of_id is None]  # first tries only
    bids = made = hands = 0
    margin = 0
    for game in games:
        variant = game.rules
        mine = variant.side_of(PLAYER)
        for entry in game.hands:
            hands += 1
            scores = entry["scores"]
            others = [score for side, score in enumerate(scores) if side != mine]
            margin += scores[mine] - max(others)
            bidder = entry["bidder"]
            if bidder is not None and variant.side_of(bidder) == mine:
                bids += 1
                made += bool(entry["made"])
    finished = [game for game in games if game.finished]
    return PracticeStatistics(
        games=len(games),
        finished=len(finished),
        won=sum(bool(game.won) for game in finished),
        bids=bids,
        bids_made=made,
        hands=hands,
        margin=margin / hands if hands else None,
        replays=replays,
    )
