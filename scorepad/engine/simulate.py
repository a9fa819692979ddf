"""The game loop: bots play whole games to the target, one seat view per decision (§9.6).

Randomness comes from one seed: a master ``random.Random(seed)`` draws, per game, the seed
of that game's deals (first dealer included) and one seed per bot, so the same seed and
bots give the same games, hand for hand, whatever else runs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .game import HandState, IllegalAction, new_game, next_hand, seat_view
from .variants import Settings, Variant
from .view import BID, Bot

BotFactory = Callable[[str, int, random.Random], Bot]
MAX_HANDS_PER_GAME = 10_000  # a guard against a game that never ends (a bot that always goes set)
MAX_BOT_CALLS = 200  # a guard against an auction the bots never end: far past any real one (classic's
# bids would be past 200), and what a practice worker spends before it stops is bounded


class GameStopped(RuntimeError):
    """A bot answered something the rules refuse; the message names seat, decision and answer."""


@dataclass(frozen=True, slots=True)
class Move:
    """One decision a bot took while the game advanced: who, which decision, what answer, and the
    CPU time the bot took for it (this process's, so a busy machine does not inflate it)."""

    seat: int
    decision: str
    answer: Any
    cpu_seconds: float = field(default=0.0, compare=False)


def advance_until(
    state: HandState, bots: Sequence[Bot] | Mapping[int, Bot], stop_at: Collection[int] = ()
) -> list[Move]:
    """Let the bots answer, in place, until a seat of ``stop_at`` must decide or the hand is over.

    ``bots`` needs a bot for every seat that is not in ``stop_at``. Returns the bots' moves in
    the order they were made (practice mode shows the bots' cards in that order). ``GameStopped`` if
    a bot answers what the rules refuse, or the bots' auction runs past ``MAX_BOT_CALLS`` calls.
    """
    moves: list[Move] = []
    calls = 0
    while state.decision is not None:
        seat = state.to_act
        assert seat is not None
        if seat in stop_at:
            break
        decision = state.decision
        calls += decision == BID
        if calls > MAX_BOT_CALLS:
            raise GameStopped(
                f"the bots made more than {MAX_BOT_CALLS} calls in one auction without ending it"
            )
        started = time.process_time()
        answer = bots[seat].decide(seat_view(state, seat))
        cpu = time.process_time() - started
        try:
            state.push(answer)
        except IllegalAction as error:
            name = getattr(bots[seat], "name", "bot")
            raise GameStopped(
                f"seat {seat} ({name}), decision {decision}: answer {answer!r} is illegal: {error}"
            ) from None
        moves.append(Move(seat, decision, answer, cpu))
    return moves


def play_hand(state: HandState, bots: Sequence[Bot]) -> None:
    """Ask the seat to act for its answer until the hand is over (in place)."""
    advance_until(state, bots)


def play_game(
    variant: Variant,
    settings: Settings,
    bots: Sequence[Bot],
    rng: random.Random | Callable[[int], random.Random],
    *,
    game: int = 0,
) -> Iterator[HandState]:
    """Every hand of one game, each yielded once it has ended, until a side wins (§0.7).

    ``rng`` deals every hand (the first dealer too), or, as a function, gives hand ``k``'s own
    generator: then hand ``k`` is the same cards whatever the bots did before it.
    """
    dealer_of = rng if callable(rng) else lambda _: rng
    state = new_game(variant, settings, dealer_of(0), game=game)
    for _ in range(MAX_HANDS_PER_GAME):
        play_hand(state, bots)
        yield state
        assert state.result is not None
        if state.result.winners:
            return
        state = next_hand(state, dealer_of(state.hand_number + 1))
    raise GameStopped(f"game {game} did not end within {MAX_HANDS_PER_GAME} hands")


@dataclass(frozen=True, slots=True)
class Summary:
    variant: str
    games: int
    hands: int
    seconds: float
    bid_hands: int  # hands with a bidder (not thrown in)
    made: int  # of those, how many the bidders made

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "games": self.games,
            "hands": self.hands,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "bid_made_rate": round(self.made / self.bid_hands, 4) if self.bid_hands else None,
        }


def simulate(
    variant: Variant,
    settings: Settings,
    bot_names: Sequence[str],
    games: int,
    seed: int,
    make_bot: BotFactory,
    on_hand: Callable[[HandState], None] | None = None,
) -> Summary:
    """Play ``games`` whole games with a bot per seat; ``on_hand`` sees every ended hand."""
    master = random.Random(seed)
    hands = bid_hands = made = 0
    started = time.perf_counter()
    for game in range(games):
        deal_rng = random.Random(master.getrandbits(64))
        bots = [
            make_bot(name, seat, random.Random(master.getrandbits(64))) for seat, name in enumerate(bot_names)
        ]
        try:
            for state in play_game(variant, settings, bots, deal_rng, game=game):
                assert state.result is not None
                hands += 1
                if state.bidder is not None:
                    bid_hands += 1
                    made += state.result.made
                if on_hand is not None:
                    on_hand(state)
        finally:
            for bot in bots:
                bot.close()
    return Summary(variant.id, games, hands, time.perf_counter() - started, bid_hands, made)
