"""Games and their hands: the only place where the ORM meets the scoring engine.

Every write re-scores the whole game with ``score_game`` (the one scoring function is
``score_hand``; ``score_game`` runs it hand after hand) and copies ``finished`` and the
winners onto the ``Game`` row, so those columns never drift from what the hands say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction

from ..engine.scoring import HandEntry, RecordError, validate_hand
from ..engine.variants import SettingsError, Variant, get_variant
from ..models import Game, Hand, Household, Player, Seat
from ..selectors import Scoresheet, game_settings, scoresheet
from . import ServiceError

# No real bid, meld, trick count or target comes near it. It keeps a slip of the thumb
# (300000000000000000000) out of the bid column, whose integers stop at 2**31 on PostgreSQL and
# 2**63 on SQLite (which raises OverflowError above that), and out of the scores.
NUMBER_LIMIT = 99_999


class HandRefused(ServiceError):
    """A hand the rules refuse; ``errors`` pairs each §9.3 field with what is wrong, in words."""

    def __init__(self, errors: Sequence[tuple[str, str]]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(message for _field, message in self.errors))


class HandAlreadyRecorded(ServiceError):
    """The same hand sent twice (a double tap, a resent form): the first one stands."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(f"Hand {number + 1} was already recorded.")


class GameOver(ServiceError):
    """No hand is accepted after the game has been won."""


@transaction.atomic
def game_start(
    *,
    household: Household,
    variant_id: str,
    overrides: Mapping[str, Any],
    players: Sequence[Player],
    first_dealer: int,
) -> Game:
    """Seat ``players`` clockwise from seat 0 (partners opposite: 0 & 2 against 1 & 3)."""
    try:
        variant = get_variant(variant_id)
        settings = variant.settings(dict(overrides))
    except SettingsError as error:
        raise ServiceError(str(error)) from None
    _check_players(variant, household, players)
    if not 0 <= first_dealer < variant.seats:
        raise ServiceError(f"The first dealer must be one of the {variant.seats} seats.")
    game = Game.objects.create(
        household=household,
        variant=variant.id,
        settings=settings.changes(variant.defaults),
        first_dealer=first_dealer,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=position) for position, player in enumerate(players)
    )
    return game


def _check_players(variant: Variant, household: Household, players: Sequence[Player]) -> None:
    if len(players) != variant.seats:
        raise ServiceError(f"{variant.label} seats {variant.seats} players, not {len(players)}.")
    seen: set[int] = set()
    for player in players:
        if player.household_id != household.pk:
            raise ServiceError(f"{player.name} is not on this household's roster.")
        if player.pk in seen:
            raise ServiceError(f"{player.name} can sit in only one seat.")
        seen.add(player.pk)


def _locked(game: Game) -> Game:
    """The game row, locked so two phones writing to one game take turns."""
    return Game.objects.select_for_update().get(pk=game.pk)


def checked_entry(game: Game, number: int, data: Mapping[str, Any]) -> HandEntry:
    """The §9.3 hand ``data`` as an entry the rules accept, or ``HandRefused`` naming each field."""
    try:
        entry = HandEntry.from_json(dict(data), number)
    except RecordError as error:
        raise HandRefused([(error.field or "", error.detail)]) from None
    errors = bid_problems(entry) + validate_hand(game.rules, game_settings(game), entry)
    if errors:
        raise HandRefused(errors)
    return entry


def bid_problems(entry: HandEntry) -> list[tuple[str, str]]:
    """A bid too big to store; the rules themselves set no upper bound."""
    if entry.bid <= NUMBER_LIMIT:
        return []
    return [("bid", f"{entry.bid} is more than any real bid: at most {NUMBER_LIMIT}")]


def _rescore(game: Game) -> Scoresheet:
    """Score every hand again and keep ``finished``/``winner_sides`` in step with them."""
    try:
        sheet = scoresheet(game)
    except RecordError as error:
        if error.field is None and error.hand is not None:
            # A correction that ends the game before hands that were played after it.
            won = f"With this change the game is won before hand {error.hand + 1}"
            message = f"{won}: delete the later hands first."
        else:
            message = ("" if error.hand is None else f"Hand {error.hand + 1}: ") + error.detail
        raise HandRefused([("", message)]) from None
    winners = list(sheet.score.winners)
    if game.finished != sheet.finished or game.winner_sides != winners:
        game.finished, game.winner_sides = sheet.finished, winners
        game.save(update_fields=["finished", "winner_sides"])
    return sheet


@transaction.atomic
def hand_record(*, game: Game, number: int, data: Mapping[str, Any]) -> Scoresheet:
    """Record hand ``number`` (from 0). The form says which hand it is for, so a second
    submission of the same hand meets the unique (game, number) constraint and is refused."""
    game = _locked(game)
    entry = checked_entry(game, number, data)
    next_number = game.hands.count()
    if number > next_number:
        raise ServiceError(f"Hand {number + 1} cannot be recorded before hand {next_number + 1}.")
    try:
        with transaction.atomic():  # a savepoint, so the outer transaction survives the refusal
            Hand.objects.create(game=game, number=number, **Hand.fields_from_entry(entry.to_json()))
    except IntegrityError:
        raise HandAlreadyRecorded(number) from None
    if game.finished:
        raise GameOver("The game is over: no more hands can be recorded.")
    return _rescore(game)


@transaction.atomic
def hand_edit(*, hand: Hand, data: Mapping[str, Any]) -> Scoresheet:
    """Correct a past hand; every later hand is scored again from the new totals."""
    game = _locked(hand.game)
    entry = checked_entry(game, hand.number, data)
    for name, value in Hand.fields_from_entry(entry.to_json()).items():
        setattr(hand, name, value)
    hand.save()
    return _rescore(game)


@transaction.atomic
def hand_delete(*, hand: Hand) -> Scoresheet:
    """Remove a hand; later hands move up one so hands stay numbered 0, 1, 2 …"""
    game = _locked(hand.game)
    number = hand.number
    hand.delete()
    # Ascending order: each hand moves into the number just freed, so (game, number) stays unique.
    for later in game.hands.filter(number__gt=number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number"])
    return _rescore(game)


@transaction.atomic
def hand_undo_last(*, game: Game) -> Scoresheet:
    game = _locked(game)
    last = game.hands.order_by("-number").first()
    if last is None:
        raise ServiceError("There is no hand to undo.")
    last.delete()
    return _rescore(game)
