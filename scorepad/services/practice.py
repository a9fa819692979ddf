"""Practice games against the bots: every write names the version it acts on.

The player sits at seat 0. After every decision of theirs the bots play on
(``engine.practice.play_on``, where ``bot_pool`` says) until the player must decide again or
the hand is over, and the engine's state is stored as JSON. Randomness comes from the game's
seed alone: hand k is dealt from ``Random(f"{seed}:deal:{k}")``, and the bots that play on from a
state get generators seeded from the seed and the number of moves made so far, so the same
state always plays on the same way.

Every write names the ``version`` it was made on. A stale one (a double tap, an old tab, the
back button) is refused with ``STALE`` and changes nothing; so is an illegal answer, in words.

The bots think with no transaction open. A write reads the stored game, works out the new state
(the expert can take most of a second per move), then saves it with one short conditional update,
``UPDATE … WHERE id = … AND version = …`` (``_save``). When another write got there first, no row
matches and the answer is ``STALE``, as if this one had arrived late; nothing is changed. So a
scorekeeper's hand never waits behind a bot: on SQLite the write lock is held for that statement.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import bot_pool
from ..constants import DEFAULT_STRENGTH
from ..engine.answers import AnswerError, FormAnswer, check_answer, why_not_playable
from ..engine.bots import PRACTICE_STRENGTHS
from ..engine.cards import SUIT_NAMES, SUITS, Card, cards_in_words
from ..engine.game import HandState, IllegalAction, from_json, new_game, next_hand, seat_view, to_json
from ..engine.log import hand_line
from ..engine.practice import PLAYER
from ..engine.practice import practice_bots as bots_for
from ..engine.simulate import GameStopped, Move
from ..engine.variants import SettingsError, Variant, get_variant
from ..engine.view import PASS, PLAY, TRUMP, Bot, SeatView
from ..models import PracticeGame
from ..selectors.daily import daily_attempt_of, is_counted_daily
from . import ServiceError

STALE = "That was already played; here is the game as it stands."
BOTS_GONE = "The bots could not think just now: nothing was changed. Please try again."
BOTS_BUSY = "The bots are busy at other tables: nothing was changed. Try again in a moment."
# What a player's write changes: ``_save`` stores these, with the next version, and nothing else.
PLAY_FIELDS = ("state", "undo", "hands", "finished", "won")
GAME_OVER = "The game is over: start a rematch for another."
# A daily deal's attempt (services/daily.py) is one hand, and the one that counts has no undo.
DAILY_NO_UNDO = "No undo on the daily deal's attempt that counts: every decision stands."
DAILY_ONE_HAND = "The daily deal is one hand: see how you did on the daily deal's page."


class PracticeRefused(ServiceError):
    """An action refused (stale, out of turn or illegal); nothing was changed."""


class PracticeBusy(PracticeRefused):
    """This web worker's bots are all thinking for other tables (``bot_pool.BotsBusy``); nothing was
    changed."""

    retry_after = 2  # seconds


class PracticeAlreadyStarted(PracticeRefused):
    """The start form was sent again (a double tap, a resent form): its game exists (``game``)."""

    def __init__(self, game: PracticeGame) -> None:
        super().__init__("That game was already started: the form was sent twice. Here it is.")
        self.game = game


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a write did: the bots' moves after it, and the time they took (for the benchmark)."""

    game: PracticeGame
    moves: tuple[Move, ...] = ()
    bot_seconds: float = 0.0


# -- starting ---------------------------------------------------------------------------------


def practice_start(
    *,
    user: User | None,
    variant_id: str,
    overrides: Mapping[str, Any] | None = None,
    strength: str = DEFAULT_STRENGTH,
    seed: int | None = None,
    start_token: str | None = None,
) -> PracticeGame:
    """A new game, dealt, with the bots played on up to the player's first decision.

    ``start_token`` (the start form's one-time token) makes one game of a form sent twice: the
    second is refused with ``PracticeAlreadyStarted`` naming the first, even when both arrive at once
    (the token is unique in the database). The bots play before any write; the insert is the write."""
    if start_token and (started := PracticeGame.objects.filter(start_token=start_token).first()):
        raise PracticeAlreadyStarted(started)
    game, state = _new_game(
        user=user, variant_id=variant_id, overrides=overrides, strength=strength, seed=seed
    )
    game.start_token = start_token or None
    _play_on(game, state)
    try:
        with transaction.atomic():  # a savepoint when the caller has a transaction open
            game.save()
    except IntegrityError:
        if not start_token:
            raise
        # The same form, sent at the same moment, got here first: that game is the one.
        raise PracticeAlreadyStarted(PracticeGame.objects.get(start_token=start_token)) from None
    if game.user is None:
        practice_forget_visitors()
    return game


def practice_forget_visitors(*, now: datetime | None = None) -> int:
    """Delete visitors' games nobody has touched for a session's lifetime; how many went.

    A visitor's games are found through their session alone, and that session has expired by
    then, so nobody can reach them again. Run whenever a visitor starts a game.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=django_settings.SESSION_COOKIE_AGE)
    deleted, _ = PracticeGame.objects.filter(user__isnull=True, updated_at__lt=cutoff).delete()
    return deleted


@transaction.atomic
def practice_drop_visitor_games(*, ids: list[int]) -> int:
    """Delete visitors' games no browser can open any more (they fell off their browser's list,
    ``PRACTICE_GAMES_PER_VISITOR``); a game claimed by an account meanwhile stays. How many went."""
    deleted, _ = PracticeGame.objects.filter(user__isnull=True, pk__in=ids).delete()
    return deleted


def practice_rematch(*, game: PracticeGame, version: Any, user: User | None) -> PracticeGame:
    """A new game with the same variant, house rules and bots (a fresh seed).

    The finished game's version moves on in the transaction that stores the new one, so a second
    tap on "Rematch" is stale, not a second game. The new game's bots play before it opens.
    """
    game = _current(game, version)
    rematch, state = _new_game(
        user=user, variant_id=game.variant, overrides=game.settings, strength=game.strength
    )
    _play_on(rematch, state)
    with transaction.atomic():
        _save(game, changed_from=game.version)
        rematch.save()
    if rematch.user is None:
        practice_forget_visitors()
    return rematch


@transaction.atomic
def practice_claim(*, user: User, ids: list[int]) -> int:
    """A visitor who logs in keeps the games this browser started: they join the user's history."""
    return PracticeGame.objects.filter(user__isnull=True, pk__in=ids).update(user=user)


# -- the player's decisions -----------------------------------------------------------------------


def practice_act(*, game: PracticeGame, version: Any, answer: FormAnswer) -> Outcome:
    """Apply the player's answer (read once from the form, ``read_form_answer``), then the bots'."""
    game = _current(game, version)
    state = from_json(game.state)
    if state.to_act != PLAYER:
        raise PracticeRefused("It is not your turn: here is the game as it stands.")
    view = seat_view(state, PLAYER)
    if answer.decision != view.decision:  # read for a decision the game has moved past
        raise PracticeRefused(STALE)
    before = game.state
    try:
        if answer.unreadable is not None:
            raise answer.unreadable
        check_answer(view, answer.answer)
        state.push(answer.answer)
    except (AnswerError, IllegalAction) as error:
        raise PracticeRefused(refusal_words(view, answer, error)) from None
    game.undo = [*game.undo, before]
    outcome = _play_on(game, state)
    _save(game, changed_from=game.version)
    return outcome


def practice_undo(*, game: PracticeGame, version: Any) -> PracticeGame:
    """Back to the player's previous decision in this hand; the bots' moves after it go too."""
    game = _current(game, version)
    if game.finished:
        raise PracticeRefused(GAME_OVER)
    if is_counted_daily(game):
        raise PracticeRefused(DAILY_NO_UNDO)
    if not game.undo:
        raise PracticeRefused("Nothing to undo in this hand.")
    ended = from_json(game.state).result is not None
    if ended and game.hands:  # the hand was recorded when it ended: take it back out
        game.hands = game.hands[:-1]
    *earlier, previous = game.undo
    game.undo, game.state = earlier, previous
    _save(game, changed_from=game.version)
    return game


def practice_next_hand(*, game: PracticeGame, version: Any) -> Outcome:
    """Deal the next hand (the deal moves one seat clockwise) and let the bots play on."""
    game = _current(game, version)
    state = from_json(game.state)
    if state.result is None:
        raise PracticeRefused("This hand is not over yet.")
    if game.finished:
        raise PracticeRefused(GAME_OVER)
    if daily_attempt_of(game) is not None:
        raise PracticeRefused(DAILY_ONE_HAND)
    state = next_hand(state, deal_rng(game.seed, state.hand_number + 1))
    game.undo = []
    outcome = _play_on(game, state)
    _save(game, changed_from=game.version)
    return outcome


# -- helpers ------------------------------------------------------------------------------------


def new_seed() -> int:
    """A fresh game's seed (tests fix it, to know the deal)."""
    return secrets.randbits(48)


def deal_rng(seed: int, hand_number: int) -> random.Random:
    return random.Random(f"{seed}:deal:{hand_number}")


def practice_bots(game: PracticeGame, state: HandState) -> dict[int, Bot]:
    """The game's bots for every seat but the player's (``engine.practice.practice_bots``)."""
    return bots_for(game.strength, game.seed, state)


def _new_game(
    *,
    user: User | None,
    variant_id: str,
    overrides: Mapping[str, Any] | None,
    strength: str,
    seed: int | None = None,
) -> tuple[PracticeGame, HandState]:
    """A game not yet stored, and its first deal; an unknown strength or rule is refused in words."""
    if strength not in PRACTICE_STRENGTHS:
        raise PracticeRefused(
            f"Unknown bot strength {strength!r}: choose one of {', '.join(PRACTICE_STRENGTHS)}."
        )
    try:
        variant = get_variant(variant_id)
        settings = variant.settings(dict(overrides or {}))
    except (SettingsError, ValueError) as error:
        raise PracticeRefused(str(error)) from None
    seed = new_seed() if seed is None else seed
    game = PracticeGame(
        user=user if user is not None and user.is_authenticated else None,
        variant=variant.id,
        settings=settings.changes(variant.defaults),
        strength=strength,
        seed=seed,
        state={},
        version=1,  # dealt and played on to the player: its first change
    )
    return game, new_game(variant, settings, deal_rng(seed, 0))


def _play_on(game: PracticeGame, state: HandState) -> Outcome:
    """Bots play until the player must decide (where ``bot_pool`` says); the new state is set on
    ``game``, not saved. No transaction is open here (see the module's docstring)."""
    try:
        played = bot_pool.play_on(to_json(state), game.strength, game.seed)
    except GameStopped as error:  # a bug in a bot of ours, never the player's doing
        raise PracticeRefused(f"A bot broke the rules ({error}); nothing was changed.") from None
    except bot_pool.BotsBusy:
        raise PracticeBusy(BOTS_BUSY) from None
    except bot_pool.BrokenProcessPool:
        raise PracticeRefused(BOTS_GONE) from None
    game.state = played.state
    state = from_json(played.state)
    if state.result is not None:
        _record_hand(game, state)
    return Outcome(game, played.moves, played.seconds)


def hand_row(state: HandState) -> dict[str, Any]:
    """A finished hand as a practice game or a private table keeps it in its ``hands``."""
    result = state.result
    assert result is not None
    return {
        "hand": state.hand_number,
        "dealer": state.dealer,
        "bidder": state.bidder,
        "bid": state.bid,
        "trump": to_json(state)["trump"],
        "scores": list(result.scores),
        "totals": list(result.totals),
        "made": result.made,
        "played": result.played,
        "reasons": list(result.reasons),
        "log": hand_line(state),  # RULES §9.5: what a review, a replay and a step-through read
    }


def _record_hand(game: PracticeGame, state: HandState) -> None:
    result = state.result
    assert result is not None
    variant: Variant = state.variant
    game.hands = [*game.hands, hand_row(state)]
    if result.winners:
        game.finished = True
        game.won = variant.side_of(PLAYER) in result.winners


def _current(game: PracticeGame, version: Any) -> PracticeGame:
    """The game as stored, if ``version`` is its version; otherwise ``STALE``. Nothing is locked:
    ``_save`` refuses the write if the game changed in between."""
    stored = PracticeGame.objects.get(pk=game.pk)
    if str(version) != str(stored.version):
        raise PracticeRefused(STALE)
    return stored


def _save(game: PracticeGame, *, changed_from: int) -> None:
    """Store ``game``'s play at the next version, if the stored one is still ``changed_from``.

    One statement, ``UPDATE … WHERE id = … AND version = changed_from``: when another write got
    there first no row matches, the answer is ``STALE`` and nothing is changed."""
    changes = {name: getattr(game, name) for name in PLAY_FIELDS}
    changes |= {"version": changed_from + 1, "updated_at": timezone.now()}
    if not PracticeGame.objects.filter(pk=game.pk, version=changed_from).update(**changes):
        raise PracticeRefused(STALE)
    game.version, game.updated_at = changes["version"], changes["updated_at"]


def refusal_words(view: SeatView, said: FormAnswer, error: Exception) -> str:
    """Why an answer was refused, in a player's words (cards as ``10♥``, suits by name): a card says
    which rule refuses it, a pass how many cards to choose."""
    answer = None if said.unreadable is not None else said.answer
    if view.decision == PLAY and isinstance(answer, int) and (why := why_not_playable(view, Card(answer))):
        return why
    if view.decision == PASS:
        chosen = answer if isinstance(answer, tuple) else ()
        if len(chosen) != view.pass_count:
            said_words = f": {cards_in_words(chosen)}" if chosen else ""
            return f"Choose exactly {view.pass_count} cards to pass; you chose {len(chosen)}{said_words}."
        return f"Not allowed: {cards_in_words(chosen)} are not all in your hand."
    if view.decision == TRUMP and isinstance(answer, int):
        allowed = " or ".join(SUIT_NAMES[SUITS[suit]] for suit in view.legal)
        return f"Not allowed: {SUIT_NAMES[SUITS[answer]]} can't be trump; name {allowed}."
    if isinstance(error, AnswerError):
        shown = error.answer
        if shown is None or shown == "" or shown == []:
            return f"Not allowed: your answer {error.reason}."
        return f"Not allowed: {shown} {error.reason}."
    return f"Not allowed: {error}."
