"""Games and their hands: the only place where the ORM meets the scoring engine.

Every write re-scores the whole game with ``score_game`` (the one scoring function is
``score_hand``; ``score_game`` runs it hand after hand) and copies ``finished`` and the
winners onto the ``Game`` row, so those columns never drift from what the hands say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from ..constants import NUMBER_LIMIT
from ..engine.scoring import (
    HandEntry,
    HandScore,
    Problem,
    RecordError,
    next_dealer,
    score_hand,
    validate_hand,
)
from ..engine.variants import SettingsError, Variant, get_variant
from ..models import ClubTable, Game, Hand, Household, Player, Seat
from ..selectors.games import Scoresheet, game_settings, scoresheet, tally_written
from . import ServiceError


class HandRefused(ServiceError):
    """A hand the rules refuse; ``errors`` are the engine's structured refusals (field, side, words)."""

    def __init__(self, errors: Sequence[Problem]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(problem.message for problem in self.errors))


class HandAlreadyRecorded(ServiceError):
    """The same hand sent twice (a double tap, a resent form): the first one stands."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(f"Hand {number + 1} was already recorded.")


class HandConflict(HandAlreadyRecorded):
    """Hand ``number`` was recorded from another entry (another phone) since this one was made:
    ``stored`` is that hand. The two are never merged: the player keeps one or the other."""

    def __init__(self, number: int, stored: Hand) -> None:
        ServiceError.__init__(self, f"Hand {number + 1} was recorded on another phone meanwhile.")
        self.number, self.stored = number, stored


class GameOver(ServiceError):
    """No hand is accepted after the game has been won."""


class ClubGameRefused(ServiceError):
    """A club table's game written to by the scorepad: its hands are the table phones' and the
    director's (``services.clubs``, ``services.club_director``), who keep confirmations and the
    trail of corrections. Nothing is changed."""


CLUB_GAME = (
    "This is a club table's game: its hands are entered on the table's phone and changed only by "
    "the director's correction, which keeps the trail. Nothing was changed."
)


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


def _locked(game: Game, *, club: bool = False) -> Game:
    """The game row, locked so two phones writing to one game take turns. A club table's game is
    written only by the club's own services (``club``): any other caller is ``ClubGameRefused``."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if not club and ClubTable.objects.filter(game_id=locked.pk).exists():
        raise ClubGameRefused(CLUB_GAME)
    return locked


def checked_entry(game: Game, number: int, data: Mapping[str, Any]) -> HandEntry:
    """The §9.3 hand ``data`` as an entry the rules accept, or ``HandRefused`` naming each field."""
    try:
        entry = HandEntry.from_json(dict(data), number)
    except RecordError as error:
        raise HandRefused([Problem(error.field or "", error.detail)]) from None
    errors = bid_problems(entry) + validate_hand(game.rules, game_settings(game), entry)
    if errors:
        raise HandRefused(errors)
    return entry


def bid_problems(entry: HandEntry) -> list[Problem]:
    """A bid too big to store; the rules themselves set no upper bound."""
    if entry.bid <= NUMBER_LIMIT:
        return []
    return [Problem("bid", f"{entry.bid} is more than any real bid: at most {NUMBER_LIMIT}")]


class StaleCorrection(ServiceError):
    """A correction made from a page the table has since moved past: nothing is changed."""


class CorrectionAlreadyMade(StaleCorrection):
    """A correction sent again (its answer was lost): the hand already reads as it asks, so nothing
    is changed, and a caller that keeps a trail of corrections adds nothing to it."""


HAND_GONE = (
    "That hand is no longer in the game: it was undone or deleted on another phone. Nothing was changed."
)


def _rescore(game: Game) -> Scoresheet:
    """Score every hand again and keep ``finished``/``winner_sides``/``revision`` in step with them."""
    try:
        sheet = scoresheet(game)
    except RecordError as error:
        # The engine counts the hands of the §9.3 record, which leaves out thrown-in deals.
        number = None if error.hand is None else _stored_number(game, error.hand)
        if error.field is None and number is not None:
            # A correction that ends the game before hands that were played after it.
            won = f"With this change the game is won before hand {number + 1}"
            message = f"{won}: delete the later hands first."
        else:
            message = ("" if number is None else f"Hand {number + 1}: ") + error.detail
        raise HandRefused([Problem("", message)]) from None
    game.finished, game.winner_sides = sheet.finished, list(sheet.score.winners)
    game.revision += 1
    game.save(update_fields=["finished", "winner_sides", "revision"])
    tally_written([(game, sheet.score)])
    return sheet


def _stored_number(game: Game, record_index: int) -> int:
    played = game.hands.filter(thrown_in=False).values_list("number", flat=True)
    return list(played)[record_index] if record_index < len(played) else record_index


def _dealer(game: Game, dealer: int | None) -> int:
    """The seat that dealt: as named, or by default the seat after the last deal's dealer (RULES §8),
    read under the game's lock so two phones never both take the same default."""
    if dealer is None:
        return next_dealer_of(game)
    if not 0 <= dealer < game.rules.seats:
        raise HandRefused([Problem("dealer", f"The dealer must be one of the {game.rules.seats} seats.")])
    return dealer


def _stored_entry(game: Game, entry_key: str | None) -> Hand | None:
    """The hand an entry already stored, found by the key its phone made for it."""
    return game.hands.filter(entry_key=entry_key).first() if entry_key else None


def _append(game: Game, number: int, fields: Mapping[str, Any], entry_key: str | None = None) -> bool:
    """Hand ``number`` added at the end; False when the entry ``entry_key`` turns out to be stored
    already (two sends at the same instant: nothing is added). The form names the hand, so a resend
    is refused, and another entry for a hand taken meanwhile is a ``HandConflict``."""
    next_number = game.hands.count()
    if number > next_number:
        raise ServiceError(f"Hand {number + 1} cannot be recorded before hand {next_number + 1}.")
    try:
        with transaction.atomic():  # a savepoint, so the outer transaction survives the refusal
            Hand.objects.create(game=game, number=number, entry_key=entry_key or None, **fields)
    except IntegrityError:
        # Two sends of one entry at the same instant: the one that lost finds the other's hand.
        if _stored_entry(game, entry_key) is not None:
            return False
        stored = game.hands.filter(number=number).first()
        if entry_key and stored is not None:
            raise HandConflict(number, stored) from None
        raise HandAlreadyRecorded(number) from None
    if game.finished:
        raise GameOver("The game is over: no more hands can be recorded.")
    return True


@transaction.atomic
def hand_record(
    *,
    game: Game,
    number: int,
    data: Mapping[str, Any],
    dealer: int | None = None,
    entry_key: str | None = None,
    club: bool = False,
) -> Scoresheet:
    """Record hand ``number`` (from 0) dealt by ``dealer`` (by default the seat after the last
    hand's dealer, RULES §8). The form says which hand it is for, so a second submission of the
    same hand meets the unique (game, number) constraint and is refused.

    ``entry_key`` (made on the phone, one per entry) makes sending again harmless: the entry
    already stored answers as if just recorded, and nothing is added. Another entry of a hand
    recorded meanwhile is a ``HandConflict`` naming the stored hand. ``club``: the club's own
    services are the caller (a table phone's entry); anyone else writing to a club table's game is
    ``ClubGameRefused``, as for every write here."""
    game = _locked(game, club=club)
    if _stored_entry(game, entry_key) is not None:
        return scoresheet(game)
    entry = checked_entry(game, number, data)
    fields = {"dealer": _dealer(game, dealer), **Hand.fields_from_entry(entry.to_json())}
    if not _append(game, number, fields, entry_key):
        return scoresheet(game)
    return _rescore(game)


@dataclass(frozen=True, slots=True)
class HandPreview:
    """What recording a hand would do, worked out by the recording's own check and scorer."""

    entry: HandEntry
    score: HandScore


def hand_preview(*, game: Game, number: int, data: Mapping[str, Any]) -> HandPreview:
    """A dry run of ``hand_record``: the same check (``HandRefused`` naming each field) and the one
    scorer (``score_hand``), with nothing locked or saved."""
    entry = checked_entry(game, number, data)
    return HandPreview(entry=entry, score=score_hand(game.rules, game_settings(game), entry))


@transaction.atomic
def hand_throw_in(
    *, game: Game, number: int, dealer: int | None = None, entry_key: str | None = None, club: bool = False
) -> Scoresheet:
    """Record deal ``number`` dealt by ``dealer`` (by default as for ``hand_record``) as thrown in
    (a misdeal, or all passed and the cards were redealt): it scores nothing, and the deal passes
    on to the left as after any hand. ``entry_key`` and ``club`` as for ``hand_record``."""
    game = _locked(game, club=club)
    if _stored_entry(game, entry_key) is not None:
        return scoresheet(game)
    if not _append(game, number, {"dealer": _dealer(game, dealer), "thrown_in": True}, entry_key):
        return scoresheet(game)
    return _rescore(game)


def next_dealer_of(game: Game) -> int:
    """The seat on the left of the last deal's dealer; the first dealer before any hand (§8)."""
    last = game.hands.order_by("-number").values_list("dealer", flat=True).first()
    return game.first_dealer if last is None else next_dealer(game.rules, last)


def _current(game: Game, hand_id: int, version: int, *, seen: str) -> Hand:
    """The hand a correction names, as long as nobody has changed it since the phone ``seen`` it."""
    hand = game.hands.filter(pk=hand_id).first()
    if hand is None:
        raise StaleCorrection(HAND_GONE)
    if hand.version != version:
        raise StaleCorrection(f"Hand {hand.number + 1} was changed on another phone since you {seen}.")
    return hand


@transaction.atomic
def hand_edit(
    *,
    game: Game,
    hand_id: int,
    version: int,
    data: Mapping[str, Any],
    dealer: int | None = None,
    club: bool = False,
) -> Scoresheet:
    """Correct hand ``hand_id`` as it was at ``version``; every later hand is scored again.

    The same correction sent again (its answer was lost) finds the hand already as it asks, past
    ``version``: ``CorrectionAlreadyMade`` says so, instead of blaming another phone. ``club``: the
    director's correction is the caller (``services.club_director``, which keeps the trail)."""
    game = _locked(game, club=club)
    stored = game.hands.filter(pk=hand_id).first()
    if stored is not None and stored.version > version and _holds(game, stored, data, dealer):
        words = f"Hand {stored.number + 1} already reads as this correction: nothing was changed."
        raise CorrectionAlreadyMade(words)
    hand = _current(game, hand_id, version, seen="opened it: here it is now")
    fields = _correction(game, hand, data, dealer)
    # Compare-and-set: the row changes only if it is still the version the phone saw.
    updated = Hand.objects.filter(pk=hand.pk, version=version).update(version=version + 1, **fields)
    if not updated:
        raise StaleCorrection(f"Hand {hand.number + 1} was changed on another phone since you opened it.")
    return _rescore(game)


def _correction(game: Game, hand: Hand, data: Mapping[str, Any], dealer: int | None) -> dict[str, Any]:
    """The stored fields of ``hand`` corrected to ``data`` (and ``dealer``), or ``HandRefused``."""
    entry = checked_entry(game, hand.number, data)
    fields = {**Hand.fields_from_entry(entry.to_json()), "thrown_in": False}
    if dealer is not None:
        fields["dealer"] = _dealer(game, dealer)
    return fields


def _holds(game: Game, hand: Hand, data: Mapping[str, Any], dealer: int | None) -> bool:
    """Whether ``hand`` already reads exactly as the correction ``data`` would make it."""
    try:
        fields = _correction(game, hand, data, dealer)
    except HandRefused:
        return False
    return all(getattr(hand, name) == value for name, value in fields.items())


@transaction.atomic
def hand_delete(*, game: Game, hand_id: int, version: int, club: bool = False) -> Scoresheet:
    """Remove a hand; later hands move up one so hands stay numbered 0, 1, 2 … and keep their dealers.
    ``club`` as for ``hand_edit``."""
    game = _locked(game, club=club)
    hand = _current(game, hand_id, version, seen="looked at it")
    _remove(game, hand)
    return _rescore(game)


def _remove(game: Game, hand: Hand) -> None:
    number = hand.number
    hand.delete()
    # Ascending order: each hand moves into the number just freed, so (game, number) stays unique.
    for later in game.hands.filter(number__gt=number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number"])


@dataclass(frozen=True, slots=True)
class UndoneHand:
    """What an undo took away, to put back exactly by a redo while the game is as the undo left it."""

    number: int
    fields: dict[str, Any]
    revision: int  # the game's revision right after the undo

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "fields": self.fields, "revision": self.revision}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UndoneHand:
        return cls(int(data["number"]), dict(data["fields"]), int(data["revision"]))


UNDO_FIELDS = ("dealer", "thrown_in", *Hand.ENTRY_FIELDS)


@transaction.atomic
def hand_undo(*, game: Game, hand_id: int, version: int) -> tuple[Scoresheet, UndoneHand]:
    """Take back the last hand, named by id and version: a second phone's "Undo hand 3" after the
    first one's is refused, never taken as "undo hand 2"."""
    game = _locked(game)
    hand = _current(game, hand_id, version, seen="saw it: nothing was undone")
    last = game.hands.order_by("-number").values_list("number", flat=True).first()
    assert last is not None  # the hand just found is in this game
    if hand.number != last:
        raise StaleCorrection(
            f"Hand {hand.number + 1} is no longer the last hand: hand {last + 1} "
            "was recorded since. Nothing was undone."
        )
    fields = {name: getattr(hand, name) for name in UNDO_FIELDS}
    hand.delete()
    sheet = _rescore(game)
    return sheet, UndoneHand(hand.number, fields, game.revision)


@transaction.atomic
def hand_redo(*, game: Game, undone: UndoneHand) -> Scoresheet:
    """Put back exactly the hand an undo took, if nothing has changed in the game since."""
    game = _locked(game)
    if game.revision != undone.revision:
        raise StaleCorrection(
            f"Hand {undone.number + 1} can't be redone: the game has changed since the undo. Record it again."
        )
    Hand.objects.create(game=game, number=undone.number, **undone.fields)
    return _rescore(game)


@transaction.atomic
def game_abandon(*, game: Game, abandoned: bool) -> Game:
    """An unfinished game left for good: it stays in the history, out of the statistics."""
    game = _locked(game)
    if abandoned and game.finished:
        raise ServiceError("A finished game can't be abandoned: it was won.")
    game.abandoned = abandoned
    game.save(update_fields=["abandoned"])
    return game


@transaction.atomic
def game_delete(*, game: Game) -> None:
    """Delete a game and every hand of it (a game started by mistake); never a club table's."""
    _locked(game)
    Game.objects.filter(pk=game.pk).delete()
