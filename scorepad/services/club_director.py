"""Club nights, the director's writes: corrections with their audit trail, a table unlocked or
given a new PIN (in the trail too), the round clock and the bell rule, and the prizes awarded.

A correction changes a table's hand through the scorepad's own services (``hand_edit``,
``hand_delete``: one check, one scorer, versions that refuse a stale page), settles its
confirmation, writes a ``Correction`` row (what it was before and after, who, when and why) and,
when the hand's round is already closed, writes that round's results again. Everything in one
transaction: a refused correction leaves no trail and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ..models import ClubEvent, ClubRound, ClubTable, ClubTableCard, Correction, Hand, TableHand
from ..models.clubs import new_table_pin
from ..selectors.club_director import keep_table_points
from ..selectors.games import Scoresheet
from . import ServiceError
from .clubs import event_bump, hand_snapshot, locked_event, results_refresh, standings_changed
from .games import hand_delete, hand_edit
from .households import refuse_unprintable

REASON_MAX = 200
DIRECTOR = "director"  # who confirmed a hand the director settled (``TableHand.confirmed_by``)
PRIZES = ("winners", "high_round", "high_average")
MAX_CLOCK_MINUTES = 240


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise ServiceError("Say why, in a few words: the trail keeps it beside the change.")
    if len(reason) > REASON_MAX:
        raise ServiceError(f"Say why in at most {REASON_MAX} characters.")
    refuse_unprintable(reason, "The reason")
    return reason


def _event_hand(event: ClubEvent, hand_id: int) -> tuple[Hand, ClubTable]:
    """A hand of one of ``event``'s tables, or refused in words (never another event's)."""
    hand = (
        Hand.objects.select_related("game").filter(pk=hand_id, game__club_table__round__event=event).first()
    )
    if hand is None:
        raise ServiceError(
            "That hand is no longer at its table: it was deleted or corrected meanwhile. Nothing was changed."
        )
    table = ClubTable.objects.select_related("round").get(game_id=hand.game_id)
    return hand, table


def _where(table: ClubTable, number: int) -> str:
    return f"Hand {number + 1} at table {table.number}, round {table.round.number}"


def _settle(table_hand: TableHand | None) -> None:
    """The director's word stands for the other side's: the hand counts as confirmed."""
    if table_hand is None or table_hand.state == TableHand.State.CONFIRMED:
        return
    table_hand.state = TableHand.State.CONFIRMED
    table_hand.confirmed_by, table_hand.countersigned = DIRECTOR, False
    table_hand.confirmed_at = timezone.now()
    table_hand.version += 1
    table_hand.save(update_fields=["state", "confirmed_by", "countersigned", "confirmed_at", "version"])


def _after_change(table: ClubTable, sheet: Scoresheet | None = None) -> None:
    """Phones and standings see a change (the table's version), and a closed round is re-tallied.
    ``sheet``: the table's game as the correction just scored it, kept for the standings once
    committed (``keep_table_points``), so they do not score it again."""
    if sheet is not None:
        transaction.on_commit(lambda: keep_table_points(table, sheet))
    ClubTable.objects.filter(pk=table.pk).update(version=table.version + 1)
    club_round = ClubRound.objects.select_related("event").get(pk=table.round_id)
    results_refresh(club_round=club_round)
    standings_changed(club_round.event_id)


@transaction.atomic
def hand_correct(
    *,
    event: ClubEvent,
    made_by: User,
    hand_id: int,
    version: int,
    data: Mapping[str, Any],
    dealer: int | None,
    reason: str,
) -> Correction:
    """Correct a table's hand as the director saw it at ``version``; the game is scored again,
    the hand counts as confirmed, and a closed round's results are written again."""
    reason = _reason(reason)
    hand, table = _event_hand(event, hand_id)
    table_hand = TableHand.objects.select_for_update().filter(hand=hand).first()
    before = hand_snapshot(hand, table_hand)
    sheet = hand_edit(game=hand.game, hand_id=hand.pk, version=version, data=data, dealer=dealer, club=True)
    hand.refresh_from_db()
    _settle(table_hand)
    correction = Correction.objects.create(
        event=event,
        table=table,
        hand_number=hand.number + 1,
        made_by=made_by,
        what=f"{_where(table, hand.number)} corrected",
        before=before,
        after=hand_snapshot(hand, table_hand),
        reason=reason,
    )
    _after_change(table, sheet)
    return correction


@transaction.atomic
def hand_remove(*, event: ClubEvent, made_by: User, hand_id: int, version: int, reason: str) -> Correction:
    """Delete a table's hand (the later ones move up); the trail keeps what it was."""
    reason = _reason(reason)
    hand, table = _event_hand(event, hand_id)
    table_hand = TableHand.objects.filter(hand=hand).first()
    before = hand_snapshot(hand, table_hand)
    sheet = hand_delete(game=hand.game, hand_id=hand.pk, version=version, club=True)
    correction = Correction.objects.create(
        event=event,
        table=table,
        hand_number=before["number"],
        made_by=made_by,
        what=f"{_where(table, before['number'] - 1)} deleted",
        before=before,
        after=None,
        reason=reason,
    )
    _after_change(table, sheet)
    return correction


@transaction.atomic
def hand_settle(
    *, event: ClubEvent, made_by: User, table_hand_id: int, version: int, reason: str
) -> Correction:
    """A hand marked for the director (not confirmed, or disputed) stands as entered."""
    reason = _reason(reason)
    table_hand = (
        TableHand.objects.select_for_update()
        .select_related("hand", "table__round")
        .filter(pk=table_hand_id, table__round__event=event)
        .first()
    )
    if table_hand is None:
        raise ServiceError(
            "That hand is no longer at its table: it was deleted meanwhile. Nothing was changed."
        )
    if table_hand.version != version:
        raise ServiceError(
            f"Hand {table_hand.hand.number + 1} was confirmed, disputed or corrected since this page was "
            "opened. Nothing was changed: look again."
        )
    if table_hand.state == TableHand.State.CONFIRMED:
        raise ServiceError(f"Hand {table_hand.hand.number + 1} is already confirmed.")
    before = hand_snapshot(table_hand.hand, table_hand)
    _settle(table_hand)
    correction = Correction.objects.create(
        event=event,
        table=table_hand.table,
        hand_number=table_hand.hand.number + 1,
        made_by=made_by,
        what=f"{_where(table_hand.table, table_hand.hand.number)} stands as entered",
        before=before,
        after=hand_snapshot(table_hand.hand, table_hand),
        reason=reason,
    )
    _after_change(table_hand.table)
    return correction


# ---- a table's PIN --------------------------------------------------------------------------------

PIN_STALE = (
    "Table {number} was unlocked or given a new PIN on another screen since this page was opened. "
    "Nothing was changed: look again."
)


def _pin_card(event: ClubEvent, card_id: int, version: int) -> ClubTableCard:
    """One of the event's table cards, locked, as the page showed it (``pin_unlocks``); else refused."""
    card = ClubTableCard.objects.select_for_update().filter(pk=card_id).first()
    if card is None or card.event_id != event.pk:
        raise ServiceError("That is not a table of this event. Nothing was changed.")
    if card.pin_unlocks != version:
        raise ServiceError(PIN_STALE.format(number=card.number))
    return card


def _optional_reason(reason: str) -> str:
    return _reason(reason) if reason.strip() else ""


def _card_trail(event: ClubEvent, made_by: User, card: ClubTableCard, did: str, reason: str) -> Correction:
    words = {"unlocked": ("wrong PINs counted", "counted afresh"), "a new PIN": ("the old PIN", "a new PIN")}
    before, after = words[did]
    return Correction.objects.create(
        event=event,
        table=card.tables.order_by("-round__number").first(),
        made_by=made_by,
        what=f"Table {card.number}: {did}",
        before={"words": before},
        after={"words": after},
        reason=reason,
    )


@transaction.atomic
def table_unlock(*, event: ClubEvent, made_by: User, card_id: int, version: int, reason: str) -> Correction:
    """Clear a table's counts of wrong PINs (kept under its card's ``pin_unlocks``): phones locked
    out by guesses, their own or anyone's, may type the PIN again. The trail keeps who and when."""
    reason = _optional_reason(reason)
    card = _pin_card(event, card_id, version)
    card.pin_unlocks += 1
    card.save(update_fields=["pin_unlocks"])
    return _card_trail(event, made_by, card, "unlocked", reason)


@transaction.atomic
def table_pin_change(
    *, event: ClubEvent, made_by: User, card_id: int, version: int, reason: str
) -> Correction:
    """Give a table a new PIN for the rest of the night (the old one is refused from now on) and
    clear its counts of wrong PINs. Phones that already opened the table stay in. The trail keeps
    no PIN, only the change."""
    reason = _optional_reason(reason)
    card = _pin_card(event, card_id, version)
    old = card.pin
    while card.pin == old:
        card.pin = new_table_pin()
    card.pin_unlocks += 1
    card.save(update_fields=["pin", "pin_unlocks"])
    return _card_trail(event, made_by, card, "a new PIN", reason)


# ---- the round clock ------------------------------------------------------------------------------


@transaction.atomic
def clock_set(*, event: ClubEvent, version: int, minutes: int) -> ClubRound:
    """The bell of the round being played rings ``minutes`` from now (started, moved or extended)."""
    event = locked_event(event, version)
    club_round = event.club_rounds.filter(status=ClubRound.Status.PLAYING).first()
    if club_round is None:
        raise ServiceError("No round is being played: start one first.")
    if not 1 <= minutes <= MAX_CLOCK_MINUTES:
        raise ServiceError(f"Give the minutes left, 1 to {MAX_CLOCK_MINUTES}.")
    club_round.ends_at = timezone.now() + timedelta(minutes=minutes)
    club_round.save(update_fields=["ends_at"])
    event_bump(event)
    return club_round


@transaction.atomic
def bell_set(*, event: ClubEvent, version: int, bell: str) -> ClubEvent:
    """What happens to a hand still being played at the bell: it is finished and counts, or not."""
    event = locked_event(event, version)
    if bell not in ClubEvent.Bell.values:
        raise ServiceError("Choose whether a hand being played at the bell counts.")
    event.bell = bell
    event_bump(event, "bell")
    return event


@transaction.atomic
def prizes_choose(*, event: ClubEvent, version: int, prizes: Sequence[str]) -> ClubEvent:
    """The prizes the director awards (any of winners, high round, high average), in that order."""
    event = locked_event(event, version)
    unknown = [prize for prize in prizes if prize not in PRIZES]
    if unknown:
        raise ServiceError("Choose among the winners, the high round and the high average.")
    event.prizes = [prize for prize in PRIZES if prize in prizes]
    event_bump(event, "prizes")
    return event
