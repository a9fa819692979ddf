"""Club nights, written: the event, check-in, rounds, the hands a table's phone enters, results.

Every director write names the event and the version its page showed (``ClubEvent.version``): a
page that is out of date, or a form sent twice, is refused in words and changes nothing. A table's
hands are scorepad hands, recorded by ``services.games`` (one check, one scorer, entry keys that
store a resent entry once); a ``TableHand`` beside each says which phone entered it and whether
the other side confirmed it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from ..engine import events
from ..engine.variants import SettingsError, get_variant
from ..live import bus
from ..models import (
    ClubEntrant,
    ClubEvent,
    ClubMember,
    ClubResult,
    ClubRound,
    ClubSeason,
    ClubTable,
    ClubTableCard,
    Correction,
    Hand,
    Household,
    Player,
    TableHand,
)
from ..models.clubs import EVENT_NAME_MAX
from ..selectors.club_director import bell_refusal
from ..selectors.clubs import (
    RoundPlan,
    bye_rule,
    entrant_label,
    entrants_with_players,
    next_round_plan,
    player_busy_elsewhere,
    roster_named,
)
from ..selectors.games import Scoresheet, scoresheet, side_names
from . import ServiceError
from .games import game_start, hand_record, hand_throw_in
from .households import player_create, refuse_unprintable

MAX_ROUNDS = 30
MAX_ROUND_MINUTES = 240
MAX_HANDS_PER_ROUND = 50
MAX_TABLE_CARDS = 100
FORMAT_VARIANTS: dict[str, tuple[str, ...]] = {
    ClubEvent.Format.TEAMS: ("classic", "double-deck"),
    ClubEvent.Format.PROGRESSIVE: ("classic", "double-deck"),
    ClubEvent.Format.SIX_HANDED: ("six-handed",),
}
STALE = (
    "This page is out of date: {what} changed on another screen since it was opened. "
    "Nothing was changed: look again."
)


def locked_event(event: ClubEvent, version: int) -> ClubEvent:
    """The event row, locked, if it is still at ``version``; else refused in words."""
    locked = ClubEvent.objects.select_for_update().get(pk=event.pk)
    if locked.version != version:
        raise ServiceError(STALE.format(what="the event"))
    return locked


def event_bump(event: ClubEvent, *fields: str) -> None:
    """Save ``fields`` with the event's version moved on: every page showing the old one is stale."""
    event.version += 1
    event.save(update_fields=["version", *fields])
    standings_changed(event.pk)


def standings_changed(event_id: int) -> None:
    """Once committed, the room's standings screens hear that the standings may have changed (a
    round, a check-in, a hand confirmed, disputed or corrected; a hand entered counts only once
    confirmed): each server reads them once and sends them on to its screens only if they did."""
    transaction.on_commit(lambda: bus.publish(bus.standings_channel(event_id)))


# ---- the event ------------------------------------------------------------------------------------


@transaction.atomic
def event_create(
    *,
    household: Household,
    director: User,
    name: str,
    variant_id: str,
    overrides: Mapping[str, Any],
    format: str,
    rounds: int,
    round_end: str = ClubEvent.RoundEnd.TARGET,
    round_minutes: int | None = None,
    hands_per_round: int | None = None,
    bye_score: str = ClubEvent.ByeScore.WINNERS_AVERAGE,
    bye_points: int = 0,
    ranking: str = ClubEvent.Ranking.USUAL,
    season: ClubSeason | None = None,
) -> ClubEvent:
    """A club night for ``household``'s roster, in check-in until its first round starts; counted
    in ``season`` (one of the club's) if given."""
    name = " ".join(name.split())
    if not name:
        raise ServiceError("The event needs a name.")
    if len(name) > EVENT_NAME_MAX:
        raise ServiceError(f"An event's name has at most {EVENT_NAME_MAX} characters.")
    refuse_unprintable(name, "The event's name")
    if format not in FORMAT_VARIANTS:
        raise ServiceError("Choose teams, progressive or six-handed tables.")
    try:
        variant = get_variant(variant_id)
        settings = variant.settings(dict(overrides))
    except (SettingsError, KeyError, ValueError) as error:
        raise ServiceError(str(error)) from None
    if variant.id not in FORMAT_VARIANTS[format]:
        allowed = " or ".join(get_variant(v).label for v in FORMAT_VARIANTS[format])
        raise ServiceError(f"The {format} format is played with {allowed}.")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError(f"An event has 1 to {MAX_ROUNDS} rounds.")
    if round_end not in ClubEvent.RoundEnd.values:
        raise ServiceError("Choose how a round ends: the target, a time limit or a number of hands.")
    if round_end == ClubEvent.RoundEnd.TIME and not (
        round_minutes and 1 <= round_minutes <= MAX_ROUND_MINUTES
    ):
        raise ServiceError(f"A round with a time limit needs its minutes (1 to {MAX_ROUND_MINUTES}).")
    if round_end == ClubEvent.RoundEnd.HANDS and not (
        hands_per_round and 1 <= hands_per_round <= MAX_HANDS_PER_ROUND
    ):
        raise ServiceError(f"Say how many hands a table plays each round (1 to {MAX_HANDS_PER_ROUND}).")
    if bye_score not in ClubEvent.ByeScore.values:
        raise ServiceError("Choose how a bye scores.")
    if ranking not in ClubEvent.Ranking.values:
        raise ServiceError(
            "Choose how the standings rank: total points, rounds won then points, or matchpoints."
        )
    if season is not None and season.household_id != household.pk:
        raise ServiceError("That season is another club's: a night counts in its own club's seasons only.")
    return ClubEvent.objects.create(
        household=household,
        director=director,
        name=name,
        variant=variant.id,
        settings=settings.changes(variant.defaults),
        format=format,
        rounds=rounds,
        round_end=round_end,
        round_minutes=round_minutes if round_end == ClubEvent.RoundEnd.TIME else None,
        hands_per_round=hands_per_round if round_end == ClubEvent.RoundEnd.HANDS else None,
        bye_score=bye_score,
        bye_points=bye_points if bye_score == ClubEvent.ByeScore.FIXED else 0,
        ranking=ranking,
        season=season,
    )


# ---- check-in -------------------------------------------------------------------------------------


def team_size(event: ClubEvent) -> int:
    return 2 if event.format == ClubEvent.Format.TEAMS else 1


def newcomer_names(line: str) -> list[str]:
    """Names typed in one line: "Ann", or "Ann & Bob", "Ann, Bob", "Ann and Bob" for a team."""
    return [name for name in (" ".join(part.split()) for part in re.split(r"[,&+]| and ", line)) if name]


@transaction.atomic
def entrant_check_in(
    *,
    event: ClubEvent,
    version: int,
    players: Sequence[Player] = (),
    newcomers: Sequence[str] = (),
) -> ClubEntrant:
    """Check in one entrant (a team of two, or a player): roster members and newcomers, who join the
    roster; a typed name that is a member's (any case) checks that member in, so a member is checked
    in by name. Someone arriving once rounds have begun plays from the next round on."""
    event = locked_event(event, version)
    named, newcomers = roster_named(event, list(newcomers))
    players = [*players, *named]
    if event.status == ClubEvent.Status.FINISHED:
        raise ServiceError("The event is over: nobody can check in.")
    size = team_size(event)
    count = len(players) + len(newcomers)
    if count != size:
        who = "A team is two players" if size == 2 else "Check in one player at a time"
        raise ServiceError(f"{who}: {count} given.")
    for player in players:
        if player.household_id != event.household_id:
            raise ServiceError(f"{player.name} is not on this club's roster.")
    if len({p.pk for p in players}) < len(players):
        raise ServiceError(f"{players[0].name} cannot partner themselves.")
    taken = event.members.filter(player__in=list(players)).select_related("player", "entrant").first()
    if taken is not None:
        raise ServiceError(
            f"{taken.player.name} is already checked in ({entrant_label(event, taken.entrant)}): "
            "a player sits at one table only."
        )
    elsewhere = player_busy_elsewhere(event, [p.pk for p in players])
    if elsewhere is not None:
        raise ServiceError(f"{elsewhere.player.name} is playing in {elsewhere.event.name} tonight.")
    seated = list(players) + [player_create(household=event.household, name=name) for name in newcomers]
    number = (event.entrants.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    entrant = ClubEntrant.objects.create(
        event=event,
        number=number,
        name=" & ".join(player.name for player in seated),
        arrived_before=event.current_round + 1,
    )
    try:
        with transaction.atomic():
            ClubMember.objects.bulk_create(
                ClubMember(event=event, entrant=entrant, player=player, order=order)
                for order, player in enumerate(seated)
            )
    except IntegrityError:
        raise ServiceError("One of these players was just checked in on another screen.") from None
    event_bump(event)
    return entrant


@transaction.atomic
def entrant_leave(*, event: ClubEvent, version: int, entrant_id: int) -> ClubEntrant:
    """An entrant leaves between rounds: not seated from the next round on; its results stay."""
    event = locked_event(event, version)
    entrant = event.entrants.filter(pk=entrant_id).first()
    if entrant is None:
        raise ServiceError("That entrant is not in this event.")
    label = entrant_label(event, entrant)
    if entrant.left_after is not None:
        raise ServiceError(f"{label} has already left.")
    playing = event.club_rounds.filter(number=event.current_round, status=ClubRound.Status.PLAYING).first()
    if playing is not None and any(
        entrant.pk in seats for seats in playing.tables.values_list("seats", flat=True)
    ):
        raise ServiceError(
            f"{label} is playing round {playing.number}: mark them as leaving once the round is closed."
        )
    entrant.left_after = event.current_round
    entrant.save(update_fields=["left_after"])
    event_bump(event)
    return entrant


# ---- rounds ---------------------------------------------------------------------------------------


def round_start(*, event: ClubEvent, version: int, accept_repeats: bool = False) -> ClubRound:
    """Seat the next round by the movement (computed before any row is locked: a progressive
    search can take a while), one scorepad game per table. Each table plays under its number's
    card (its link and PIN for the night), made the first time that number is needed."""
    plan = next_round_plan(event)
    return _start(event=event, version=version, plan=plan, accept_repeats=accept_repeats)


@transaction.atomic
def _start(*, event: ClubEvent, version: int, plan: RoundPlan, accept_repeats: bool) -> ClubRound:
    event = locked_event(event, version)
    if event.status == ClubEvent.Status.FINISHED:
        raise ServiceError("The event is over.")
    if event.club_rounds.filter(status=ClubRound.Status.PLAYING).exists():
        raise ServiceError(f"Round {event.current_round} is still being played: close it first.")
    if plan.number != event.current_round + 1:
        raise ServiceError(STALE.format(what="the rounds"))
    if plan.problem:
        raise ServiceError(plan.problem)
    if plan.repeats_now and not accept_repeats:
        raise ServiceError(
            "This round cannot avoid a repeat: "
            + "; ".join(plan.repeats_now)
            + ". Tick “start anyway” to play it like this."
        )
    now = timezone.now()
    minutes = event.round_minutes if event.round_end == ClubEvent.RoundEnd.TIME else None
    club_round = ClubRound.objects.create(
        event=event, number=plan.number, ends_at=now + timedelta(minutes=minutes) if minutes else None
    )
    club_round.sitting_out.set(plan.sitting_out)
    for planned in plan.tables:
        game = game_start(
            household=event.household,
            variant_id=event.variant,
            overrides=event.settings,
            players=_game_seats(event, planned.seats),
            first_dealer=0,
        )
        card, _ = ClubTableCard.objects.get_or_create(event=event, number=planned.number)
        ClubTable.objects.create(
            round=club_round, number=planned.number, card=card, game=game, seats=[e.pk for e in planned.seats]
        )
    event.current_round = plan.number
    event.status = ClubEvent.Status.PLAYING
    event_bump(event, "current_round", "status")
    return club_round


def _game_seats(event: ClubEvent, seats: Sequence[ClubEntrant]) -> list[Player]:
    """The players clockwise from seat 0 (RULES.md §8, partners opposite): a teams table is
    North–South's first player, East–West's first, North–South's second, East–West's second."""
    players = [[member.player for member in entrant.members.all()] for entrant in seats]
    if event.format == ClubEvent.Format.TEAMS:
        (north, south), (east, west) = players
        return [north, east, south, west]
    return [entrant_players[0] for entrant_players in players]


def _round_results(event: ClubEvent, club_round: ClubRound) -> list[ClubResult]:
    """Each seated entrant's points for the round (its side's total in the table's game) and
    whether it won (the game's winner, or when the round ended first the higher total)."""
    entrants = {entrant.pk: entrant for entrant in entrants_with_players(event)}
    results: list[ClubResult] = []
    for table in club_round.tables.select_related("game"):
        sheet = scoresheet(table.game)
        totals = list(sheet.score.totals)
        if sheet.finished:
            winners = set(sheet.score.winners)
        else:
            best = max(totals)
            winners = (
                {side for side, total in enumerate(totals) if total == best}
                if totals.count(best) == 1
                else set()
            )
        for seat, entrant_id in enumerate(table.seats):
            side = seat if event.format == ClubEvent.Format.TEAMS else sheet.variant.side_of(seat)
            results.append(
                ClubResult(
                    round=club_round,
                    entrant=entrants[entrant_id],
                    table=table,
                    points=totals[side],
                    won=side in winners,
                )
            )
    played = [events.RoundResult(r.entrant.number, club_round.number, r.points, r.won) for r in results]
    bye_points = events.bye_points(bye_rule(event), played, club_round.number)
    for entrant in club_round.sitting_out.all():
        results.append(ClubResult(round=club_round, entrant=entrant, points=bye_points, bye=True))
    return results


def _open_hands_words(club_round: ClubRound) -> list[str]:
    waiting = (
        TableHand.objects.filter(table__round=club_round)
        .exclude(state=TableHand.State.CONFIRMED)
        .select_related("table", "hand")
        .order_by("table__number", "hand__number")
    )
    return [
        f"table {th.table.number}, hand {th.hand.number + 1} "
        + ("disputed" if th.state == TableHand.State.DISPUTED else "not confirmed")
        for th in waiting
    ]


@transaction.atomic
def table_cards_make(*, event: ClubEvent, version: int, count: int) -> list[ClubTableCard]:
    """The cards of tables 1 to ``count`` (those missing made), to print before the first round:
    each physical table's link and PIN for the whole night."""
    event = locked_event(event, version)
    if not 1 <= count <= MAX_TABLE_CARDS:
        raise ServiceError(f"Say how many tables, 1 to {MAX_TABLE_CARDS}.")
    cards = [ClubTableCard.objects.get_or_create(event=event, number=n)[0] for n in range(1, count + 1)]
    event_bump(event)
    return cards


@transaction.atomic
def round_close(*, event: ClubEvent, version: int, accept_open_hands: bool = False) -> ClubRound:
    """End the round being played: its tables take no more hands and each entrant's result is
    written. Hands not confirmed or disputed are said first, and counted as entered if accepted."""
    event = locked_event(event, version)
    club_round = event.club_rounds.filter(number=event.current_round, status=ClubRound.Status.PLAYING).first()
    if club_round is None:
        raise ServiceError("No round is being played.")
    waiting = _open_hands_words(club_round)
    if waiting and not accept_open_hands:
        raise ServiceError(
            "Some hands are marked for the director: "
            + "; ".join(waiting)
            + ". Settle them, or tick “close anyway” to count them as entered."
        )
    ClubResult.objects.bulk_create(_round_results(event, club_round))
    club_round.status = ClubRound.Status.CLOSED
    club_round.closed_at = timezone.now()
    club_round.save(update_fields=["status", "closed_at"])
    fields = []
    if club_round.number >= event.rounds:
        event.status, event.finished_at = ClubEvent.Status.FINISHED, timezone.now()
        fields = ["status", "finished_at"]
    event_bump(event, *fields)
    return club_round


@transaction.atomic
def results_refresh(*, club_round: ClubRound) -> None:
    """Write a closed round's results again from its tables' games (after a correction)."""
    if club_round.status != ClubRound.Status.CLOSED:
        return
    club_round.results.all().delete()
    ClubResult.objects.bulk_create(_round_results(club_round.event, club_round))


@transaction.atomic
def event_finish(*, event: ClubEvent, version: int) -> ClubEvent:
    """End the event early (fewer rounds than planned): the standings are final."""
    event = locked_event(event, version)
    if event.club_rounds.filter(status=ClubRound.Status.PLAYING).exists():
        raise ServiceError(f"Round {event.current_round} is still being played: close it first.")
    event.status, event.finished_at = ClubEvent.Status.FINISHED, timezone.now()
    event_bump(event, "status", "finished_at")
    return event


# ---- a table's phone ------------------------------------------------------------------------------


def _check_table_open(table: ClubTable, round_number: int, table_number: int) -> None:
    """The hand is for this table in this round, and the round is still being played."""
    club_round = ClubRound.objects.get(pk=table.round_id)
    if (round_number, table_number) != (club_round.number, table.number):
        raise ServiceError(
            f"That hand was entered for table {table_number}, round {round_number}, but this is table "
            f"{table.number} of round {club_round.number}: nothing was recorded. "
            "Enter it on its own table's page."
        )
    if club_round.status != ClubRound.Status.PLAYING:
        raise ServiceError(
            f"Round {club_round.number} is over: this table takes no more hands. "
            "Tell the director if a hand is missing."
        )


def _check_hand_limit(table: ClubTable, number: int) -> None:
    event = ClubEvent.objects.get(pk=ClubRound.objects.values("event_id").get(pk=table.round_id)["event_id"])
    limit = event.hands_per_round if event.round_end == ClubEvent.RoundEnd.HANDS else None
    if limit is not None and number >= limit:
        raise ServiceError(f"This table has played its {limit} hands for this round.")


@dataclass(frozen=True, slots=True)
class RecordedTableHand:
    """A table phone's hand as stored, and its game scored with it (the phone's page is drawn from
    this scoring, not another)."""

    table_hand: TableHand
    sheet: Scoresheet


@transaction.atomic
def table_hand_record(
    *,
    table: ClubTable,
    round_number: int,
    table_number: int,
    phone: str,
    side: int,
    number: int,
    data: Mapping[str, Any] | None,
    dealer: int | None = None,
    entry_key: str | None = None,
) -> RecordedTableHand:
    """Hand ``number`` of this table's game as its phone entered it (``data`` None: thrown in),
    through the scorepad's own recording: the same entry sent again is stored once, and another
    phone's entry of the same hand is a ``HandConflict``. It waits for the other side to confirm."""
    table = ClubTable.objects.select_for_update().select_related("game").get(pk=table.pk)
    _check_table_open(table, round_number, table_number)
    if not 0 <= side < len(table.game.rules.sides):
        raise ServiceError("Say which side this phone enters for.")
    stored = table.game.hands.filter(entry_key=entry_key).first() if entry_key else None
    if stored is None:
        _check_hand_limit(table, number)
        if refusal := bell_refusal(table):  # the round's clock: the director's bell rule
            raise ServiceError(refusal)
    if data is None:
        sheet = hand_throw_in(game=table.game, number=number, dealer=dealer, entry_key=entry_key, club=True)
    else:
        sheet = hand_record(
            game=table.game, number=number, data=data, dealer=dealer, entry_key=entry_key, club=True
        )
    hand = table.game.hands.get(entry_key=entry_key) if entry_key else table.game.hands.get(number=number)
    table_hand, created = TableHand.objects.get_or_create(
        hand=hand, defaults={"table": table, "entered_by": phone, "entered_side": side}
    )
    if created:
        table.version += 1
        table.save(update_fields=["version"])  # the standings count it once confirmed: nothing to tell
    return RecordedTableHand(table_hand, sheet)


def _current_table_hand(table: ClubTable, table_hand_id: int, version: int) -> TableHand:
    table_hand = (
        TableHand.objects.select_for_update()
        .select_related("hand")
        .filter(table=table, pk=table_hand_id)
        .first()
    )
    if table_hand is None:
        raise ServiceError(
            "That hand is no longer at this table: it was undone or corrected. Nothing was changed."
        )
    if table_hand.version != version:
        raise ServiceError(
            f"Hand {table_hand.hand.number + 1} was confirmed, disputed or corrected on another phone "
            "since you saw it. Nothing was changed: look again."
        )
    return table_hand


def hand_snapshot(hand: Hand, table_hand: TableHand | None) -> dict[str, Any]:
    """What the trail keeps of a hand: its number, dealer, §9.3 entry and confirmation state."""
    names = list(hand.game.seats.order_by("position").values_list("player__name", flat=True))
    return {
        "number": hand.number + 1,
        "dealer": hand.dealer,
        "bidder_name": names[hand.bidder] if hand.bidder is not None and hand.bidder < len(names) else "",
        "thrown_in": hand.thrown_in,
        "entry": None if hand.thrown_in else hand.entry(),
        "state": table_hand.state if table_hand else "",
        "dispute": table_hand.dispute if table_hand else "",
    }


def _may_answer(table_hand: TableHand, phone: str, side: int, countersign: bool) -> None:
    """The other side answers for a hand: from its own phone, or on the entering phone by an
    explicit countersign after reading it."""
    if (phone == table_hand.entered_by or side == table_hand.entered_side) and not countersign:
        raise ServiceError(
            f"Hand {table_hand.hand.number + 1} was entered for this side: the other side confirms it, "
            "on their phone or here with “Countersign” after reading it."
        )


DISPUTED_WORDS = (
    "Hand {number} is disputed: only the director settles it now (the director's table lists it). "
    "Nothing was changed."
)


def _phone_words(table: ClubTable, table_hand: TableHand, side: int, countersign: bool) -> str:
    """Who answered, for the trail: "East–West's phone", or "North–South, countersigned on
    East–West's phone" when the other side tapped the entering phone. The names only: the game
    is not scored for them (the phone's page after the answer scores it, once)."""
    players = [seat.player for seat in table.game.seats.select_related("player")]
    names = side_names(table.game.rules, players)
    own = names[side] if 0 <= side < len(names) else f"side {side + 1}"
    if not countersign:
        return f"{own}'s phone"
    others = " and ".join(name for index, name in enumerate(names) if index != table_hand.entered_side)
    return f"{others}, countersigned on {own}'s phone"


def _phone_trail(
    table: ClubTable, table_hand: TableHand, before: dict[str, Any], who: str, did: str, reason: str = ""
) -> Correction:
    club_round = ClubRound.objects.get(pk=table.round_id)
    return Correction.objects.create(
        event_id=club_round.event_id,
        table=table,
        hand_number=table_hand.hand.number + 1,
        made_by=None,
        made_by_words=who,
        what=f"Hand {table_hand.hand.number + 1} at table {table.number}, round {club_round.number} {did}",
        before=before,
        after=hand_snapshot(table_hand.hand, table_hand),
        reason=reason,
    )


@transaction.atomic
def table_hand_confirm(
    *, table: ClubTable, table_hand_id: int, version: int, phone: str, side: int, countersign: bool = False
) -> TableHand:
    """The other side agrees with a hand as entered (the trail keeps whose phone and when). A
    disputed hand is the director's: no phone confirms it."""
    table = ClubTable.objects.select_related("game").get(pk=table.pk)
    table_hand = _current_table_hand(table, table_hand_id, version)
    club_round = ClubRound.objects.get(pk=table.round_id)
    _check_table_open(table, club_round.number, table.number)
    if table_hand.state == TableHand.State.CONFIRMED:
        raise ServiceError(f"Hand {table_hand.hand.number + 1} is already confirmed.")
    if table_hand.state == TableHand.State.DISPUTED:
        raise ServiceError(DISPUTED_WORDS.format(number=table_hand.hand.number + 1))
    _may_answer(table_hand, phone, side, countersign)
    before = hand_snapshot(table_hand.hand, table_hand)
    table_hand.state = TableHand.State.CONFIRMED
    table_hand.confirmed_by, table_hand.countersigned = phone, countersign
    table_hand.confirmed_at = timezone.now()
    table_hand.dispute = ""
    table_hand.version += 1
    table_hand.save()
    _phone_trail(table, table_hand, before, _phone_words(table, table_hand, side, countersign), "confirmed")
    standings_changed(club_round.event_id)
    return table_hand


DISPUTE_MAX = 200


@transaction.atomic
def table_hand_dispute(
    *,
    table: ClubTable,
    table_hand_id: int,
    version: int,
    phone: str,
    side: int,
    reason: str,
    countersign: bool = False,
) -> TableHand:
    """The other side does not agree with a hand: it is marked for the director, with their words,
    and from then on only the director settles it (the trail keeps whose phone and when)."""
    table = ClubTable.objects.select_related("game").get(pk=table.pk)
    table_hand = _current_table_hand(table, table_hand_id, version)
    club_round = ClubRound.objects.get(pk=table.round_id)
    _check_table_open(table, club_round.number, table.number)
    if table_hand.state == TableHand.State.CONFIRMED:
        raise ServiceError(
            f"Hand {table_hand.hand.number + 1} is already confirmed: ask the director to correct it."
        )
    if table_hand.state == TableHand.State.DISPUTED:
        raise ServiceError(
            f"Hand {table_hand.hand.number + 1} is already disputed: the director settles it. "
            "Nothing was changed."
        )
    _may_answer(table_hand, phone, side, countersign)
    reason = " ".join(reason.split())
    if not reason:
        raise ServiceError("Say in a few words what is wrong with the hand, for the director.")
    if len(reason) > DISPUTE_MAX:
        raise ServiceError(f"Say it in at most {DISPUTE_MAX} characters.")
    refuse_unprintable(reason, "The dispute")
    before = hand_snapshot(table_hand.hand, table_hand)
    table_hand.state = TableHand.State.DISPUTED
    table_hand.dispute = reason
    table_hand.version += 1
    table_hand.save(update_fields=["state", "dispute", "version"])
    _phone_trail(
        table, table_hand, before, _phone_words(table, table_hand, side, countersign), "disputed", reason
    )
    standings_changed(club_round.event_id)
    return table_hand
