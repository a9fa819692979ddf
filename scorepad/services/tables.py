"""Private tables: open one, take a seat, play, and the host's controls (every write here).

Like practice (``services.practice``), a write reads the stored table, works out the new state
(bots included, through ``bot_pool`` and with no transaction open), then stores it with one
conditional update, ``UPDATE … WHERE id = … AND version = …``: an action made on an older version,
or sent twice, matches no row and is refused as stale; nothing is applied twice. A play works from
the table as its request read it (``table_act_read``: the row, the seats and the state parsed once,
``selectors.tables.TableRead``), and stores the play with the answers of bots that answer at once
in that one update. Seats change by
conditional updates too (two phones taking one seat at once: one row matches, the other is told).
Once a change is committed the table's phones are told (``live.bus.publish``): the event names
the table and its version only, and each phone's stream draws its own seat's view from it.

Every write also stores when the table next needs its clock (``due_at``, ``table_due``): bots that
were busy when their turn came, the grace of a seat with nobody there, a seat a bot covers. The
clock (``live.clock``, one thread per server process, a lease per table) then moves the table with
``table_clock``, whether or not any phone is watching; no request waits for busy bots.

A table started from a household seats its roster and keeps a scorepad ``Game`` beside it, made
when the table opens: each hand that ends is recorded there by the scorepad's own ``hand_record``
(the one scorer) in the same transaction as the play that ended it, so history, statistics and the
winner say what the table showed, and a hand is recorded once however the requests race. A seat
that is no roster player's (a bot's, or an open seat for a guest) sits in that game as a stand-in
roster player, "Bot (expert)" or "Guest", made once per household and retired, so it stays off
the scorepad's new-game form. A person who takes such a seat replaces its stand-in from that hand
on (``SeatTaken``; a guest as "Di (guest)", a member who said which roster player they are as that
player, ``table_sit_as``): the scorepad's history and statistics credit each with their hands.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .. import bot_pool
from ..constants import DEFAULT_STRENGTH, PLAYER_NAME_MAX
from ..engine.answers import AnswerError, FormAnswer, check_answer
from ..engine.bots import PRACTICE_STRENGTHS
from ..engine.cards import SUITS
from ..engine.game import HandState, IllegalAction, from_json, new_game, next_hand, seat_view, to_json
from ..engine.simulate import GameStopped
from ..engine.tables import moves_made
from ..engine.variants import SettingsError, Variant, get_variant
from ..live import bus, clock
from ..models import Game, Household, Player, PrivateTable, Seat, SeatTaken, TableMessage, TableSeat
from ..models.tables import TABLE_BOT_CPU_LIMIT, new_claim_key, new_code, new_link_token
from ..selectors.games import seating
from ..selectors.households import active_roster
from ..selectors.tables import TableRead, member_seats, table_read_of, takeable_kinds
from . import ServiceError
from .games import game_abandon, game_start, hand_record, hand_throw_in
from .households import refuse_unprintable
from .practice import hand_row, new_seed, refusal_words

STALE = "That was already played, or the table moved on: here is the table as it stands."
NOT_YOUR_TURN = "It is not your turn: here is the table as it stands."
ENDED = "The host has ended this table: no more play here."
NOT_SEATED = "You have no seat at this table (yours was opened or you were removed): take an open seat."
SEAT_TAKEN = "Someone else took that seat just now: choose another."
TABLE_FULL = "Every seat at this table is taken: ask the host to open one for you."
HOST_STAYS = "You host this table, so you keep your seat: to stop playing, end the table."
SEATS_MOVED = "The table moved on while you chose (nothing was changed): here are its seats as they are now."
NOT_LINKED = (
    "Your account is not one of this household's players: choose “I am …” on the household's page,"
    " or type your name at an open seat."
)
MESSAGE_GAP_SECONDS = 3  # one quick message per seat this often
TOO_CHATTY = "One message at a time: wait a moment before the next."
HOST_ONLY = "Only the table's host can do that."
BETWEEN_HANDS = "That can only be done between hands: wait until this hand is over."
GRACE_CHOICES = (15, 30, 60, 120, 300)
BOTS_LATE_SECONDS = 1  # the bots were busy when their turn came: the clock asks them again after this
AWAY_LOOK_SECONDS = 5  # a seat a bot covers, or a player there past the grace: looked at this often
COVER_STRENGTH = DEFAULT_STRENGTH  # the bot that plays for a player who is away
# The fixed quick messages: no free chat at a table of strangers' phones.
QUICK_MESSAGES = {
    "nice": "Nice hand!",
    "thinking": "Thinking…",
    "hurry": "Your turn!",
    "oops": "Oops",
    "thanks": "Thanks, partner",
    "gg": "Good game",
}
HOST_SEAT = 0
log = logging.getLogger(__name__)


class TableRefused(ServiceError):
    """An action refused (stale, out of turn, illegal, not allowed); nothing was changed."""


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """What the host chose for a seat: ``open`` (a name saves it for that person), or a ``bot``.
    At a household's table ``player_id`` holds an open seat for that roster player (and says which
    roster player the host is, in seat 0)."""

    kind: str = TableSeat.OPEN
    name: str = ""
    strength: str = DEFAULT_STRENGTH
    player_id: int | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat held by a phone: the seat and the key its guest cookie names."""

    table_id: int
    seat: int
    claim_key: str


# -- opening and joining ------------------------------------------------------------------------


def table_open(
    *,
    host_user: User | AnonymousUser | None,
    host_name: str,
    variant_id: str,
    overrides: Mapping[str, Any] | None = None,
    seats: Sequence[SeatPlan] = (),
    grace_seconds: int = 60,
    household: Household | None = None,
    seed: int | None = None,
) -> tuple[PrivateTable, Claim]:
    """A new table, dealt, the host in seat 0, bots played on to the first person's turn."""
    user = host_user if isinstance(host_user, User) else None
    host_name = _clean_name(host_name or (user.get_username() if user else ""))
    try:
        variant = get_variant(variant_id)
        settings = variant.settings(dict(overrides or {}))
    except (SettingsError, ValueError) as error:
        raise TableRefused(str(error)) from None
    plans = list(seats) or [SeatPlan(TableSeat.BOT)] * variant.seats
    if len(plans) != variant.seats:
        raise TableRefused(f"{variant.label} has {variant.seats} seats: say who sits in each.")
    if grace_seconds not in GRACE_CHOICES:
        raise TableRefused(
            f"Wait for a player who is away for one of {', '.join(map(str, GRACE_CHOICES))} s."
        )
    if household is not None and (user is None or not household.members.filter(pk=user.pk).exists()):
        raise TableRefused("Only a member of the household can start a table for it.")
    seated = _roster_seated(household, plans)
    if household is not None:
        host_name = seated[0].name
    for plan in plans[1:]:
        if plan.kind not in (TableSeat.OPEN, TableSeat.BOT):
            raise TableRefused("Each other seat is open (for anyone, or saved for a name) or a bot.")
        if plan.kind == TableSeat.BOT and plan.strength not in PRACTICE_STRENGTHS:
            raise TableRefused(f"Bots play at one of: {', '.join(PRACTICE_STRENGTHS)}.")
    seed = new_seed() if seed is None else seed
    table = PrivateTable(
        host=user,
        host_name=host_name,
        household=household,
        variant=variant.id,
        settings=settings.changes(variant.defaults),
        seed=seed,
        grace_seconds=grace_seconds,
        version=1,
    )
    rows = [
        TableSeat(seat=0, kind=TableSeat.PERSON, name=host_name, user=user, claim_key=new_claim_key()),
        *(
            TableSeat(
                seat=number,
                kind=plan.kind,
                name=_seat_name(plan, seated.get(number)),
                strength=plan.strength if plan.kind == TableSeat.BOT else "",
            )
            for number, plan in enumerate(plans[1:], start=1)
        ),
    ]
    state = new_game(variant, settings, deal_rng(seed, 0))
    _set_state(table, state, None)
    table.due_at = table_due(table, rows, timezone.now(), state=state)  # the bots, if they are busy now
    for _attempt in range(5):  # a short code already in use: draw another
        try:
            with transaction.atomic():
                if household is not None:
                    table.game = _household_game(table, household, variant, plans, seated, state)
                table.save()
                for row in rows:
                    row.table = table
                TableSeat.objects.bulk_create(rows)
            break
        except IntegrityError:
            table.pk = table.game = None
            table.code = new_code()
    else:  # pragma: no cover - five codes in a row taken
        raise TableRefused("Could not find a free table code just now: please try again.")
    return _bots_move(table, rows, state)[0], Claim(table.pk, 0, rows[0].claim_key)


def _roster_seated(household: Household | None, plans: Sequence[SeatPlan]) -> dict[int, Player]:
    """The roster players the plans seat, by seat; refused in words unless each is on the
    household's roster (not retired), in one seat only, and the host is one of them."""
    chosen = {seat: plan.player_id for seat, plan in enumerate(plans) if plan.player_id is not None}
    if household is None:
        if chosen:
            raise TableRefused("A seat is held for a roster player only at a household's table.")
        return {}
    if 0 not in chosen:
        raise TableRefused(f"Say which of {household.name}'s players you are.")
    if len(set(chosen.values())) != len(chosen):
        raise TableRefused("Each of the household's players sits in one seat only.")
    roster = {player.pk: player for player in active_roster(household).filter(pk__in=chosen.values())}
    if any(player_id not in roster for player_id in chosen.values()):
        raise TableRefused(f"Choose players from {household.name}'s roster.")
    for seat in chosen:
        if plans[seat].kind != TableSeat.OPEN:
            raise TableRefused("A seat held for a roster player is not a bot's.")
    return {seat: roster[player_id] for seat, player_id in chosen.items()}


def _seat_name(plan: SeatPlan, player: Player | None) -> str:
    if player is not None:
        return player.name  # held for that roster player: their name shows at the seat
    return _clean_name(plan.name, required=False) if plan.kind == TableSeat.OPEN else ""


def _household_game(
    table: PrivateTable,
    household: Household,
    variant: Variant,
    plans: Sequence[SeatPlan],
    seated: Mapping[int, Player],
    state: HandState,
) -> Game:
    """The scorepad game the table's hands are recorded in: the roster players in their seats, a
    stand-in player in each other seat, the table's house rules and first dealer."""
    taken = {player.name for player in seated.values()}
    players = [
        seated.get(seat) or _stand_in(household, _stand_in_label(plan), taken)
        for seat, plan in enumerate(plans)
    ]
    try:
        return game_start(
            household=household,
            variant_id=variant.id,
            overrides=table.settings,
            players=players,
            first_dealer=state.first_dealer,
        )
    except ServiceError as error:  # pragma: no cover - the table's own checks ran first
        raise TableRefused(str(error)) from None


def _stand_in_label(plan: SeatPlan) -> str:
    return f"Bot ({plan.strength})" if plan.kind == TableSeat.BOT else "Guest"


def _stand_in(household: Household, label: str, taken: set[str]) -> Player:
    """The household's stand-in player ``label`` (``label 2``, ``label 3`` … when one game seats
    several), made once and retired: the scorepad seats roster players, and a bot is none."""
    name, number = label, 2
    while name in taken:
        name, number = f"{label} {number}", number + 1
    taken.add(name)
    player, _ = Player.objects.get_or_create(household=household, name=name, defaults={"retired": True})
    return player


def table_take_seat(
    *, table: PrivateTable, seat: int, name: str, user: User | AnonymousUser | None, holding: int | None
) -> Claim:
    """Sit down in an open seat, or in a bot's seat between hands (the bot steps aside).

    ``holding`` is the seat this phone already holds at the table, if any: one seat per phone."""
    table = _fresh(table)
    account = user if isinstance(user, User) else None
    if holding is not None:
        raise TableRefused(f"You already sit in seat {holding + 1} at this table.")
    if account is not None and table.seats.filter(kind=TableSeat.PERSON, user=account).exists():
        raise TableRefused("Your account already has a seat at this table.")
    row = table.seats.filter(seat=seat).first()
    if row is None:
        raise TableRefused("This table has no such seat: choose one of its seats.")
    kinds = [TableSeat.OPEN]
    if from_json(table.state).result is not None or _untouched(table):
        kinds.append(TableSeat.BOT)  # between hands, a person may take a bot's place
    elif row.kind == TableSeat.BOT:
        raise TableRefused("A bot's seat can be taken between hands: wait until this hand is over.")
    key = new_claim_key()
    held_for = _roster_name(table, seat)  # a roster player's seat keeps their name, whoever types
    typed = "" if held_for else _clean_name(name or (account.get_username() if account else ""))
    with transaction.atomic():
        taken = TableSeat.objects.filter(pk=row.pk, kind__in=kinds).update(
            kind=TableSeat.PERSON,
            name=held_for or typed,
            user=account,
            claim_key=key,
            covered=False,
            quit=False,
        )
        if not taken:  # another phone got there first; were it the last seat, the table is full
            raise TableRefused(SEAT_TAKEN if table.seats.filter(kind__in=kinds).exists() else TABLE_FULL)
        if table.game_id is not None and not held_for:  # a guest, in for a bot or another guest
            _gives_way(table, seat, _guest_player(table, seat, typed))
        _seats_changed(table)
    return Claim(table.pk, seat, key)


def table_sit_as(
    *, table_id: int, version: Any, seat: int, user: User | AnonymousUser | None, holding: int | None
) -> Claim:
    """A member whose account is one of the household's players ("I am Cy") sits at its table
    as that player, with one tap: in the seat held for them, or in a seat a stand-in holds (an open
    one, a bot's between hands), where they replace the stand-in in the scorepad game from the
    hand in play on (``SeatTaken``). ``version``: the table's version the join page showed; a
    table moved on since, or a seat taken meanwhile, is refused in words and nothing changes."""
    table = _fresh(PrivateTable(pk=table_id))
    if holding is not None:
        raise TableRefused(f"You already sit in seat {holding + 1} at this table.")
    if str(version) != str(table.version):
        raise TableRefused(SEATS_MOVED)
    read = _read_of(table)
    player, seats = member_seats(read, user if user is not None else AnonymousUser())
    if player is None or not isinstance(user, User):
        raise TableRefused(NOT_LINKED)
    if seat not in seats:
        if any(row.kind == TableSeat.PERSON and row.user_id == user.pk for row in read.seats):
            raise TableRefused("Your account already has a seat at this table.")
        raise TableRefused(f"{player.name} cannot sit in seat {seat + 1} just now: choose a seat shown.")
    key = new_claim_key()
    with transaction.atomic():
        # The table's row held until this commits: a play racing this seat waits, then finds it.
        locked = PrivateTable.objects.select_for_update().filter(pk=table.pk, status=PrivateTable.OPEN)
        if not locked.filter(version=table.version).exists():
            raise TableRefused(SEATS_MOVED)
        if not TableSeat.objects.filter(table=table, seat=seat, kind__in=takeable_kinds(read.hand)).update(
            kind=TableSeat.PERSON, name=player.name, user=user, claim_key=key, covered=False, quit=False
        ):
            raise TableRefused(SEAT_TAKEN)
        _gives_way(table, seat, player)
        _seats_changed(table)
    return Claim(table.pk, seat, key)


def _guest_player(table: PrivateTable, seat: int, name: str, sitting: Sequence[Player] = ()) -> Player:
    """The household's stand-in for a guest who sat down as ``name``: "Di (guest)", retired.
    ``sitting``: who sits in the game's seats (read from its game when not given)."""
    assert table.household_id is not None
    others = sitting or seating(Game(pk=table.game_id)).last
    taken = {player.name for position, player in enumerate(others) if position != seat}
    label = f"{name[: PLAYER_NAME_MAX - len(' (guest)')]} (guest)"
    return _stand_in(Household(pk=table.household_id), label, taken)


def _person_player(table: PrivateTable, row: TableSeat, sitting: Sequence[Player]) -> Player:
    """Who the person in ``row`` is in a new game at the table: the roster player of a member who
    sat down as them ("Sit as Cy"), else a guest's stand-in by the name they sat down under."""
    if row.user_id is not None and table.household_id is not None:
        linked = Player.objects.filter(household_id=table.household_id, account_id=row.user_id).first()
        if linked is not None and linked.name == row.name and all(p.pk != linked.pk for p in sitting):
            return linked
    return _guest_player(table, row.seat, row.name, sitting)


def _gives_way(table: PrivateTable, seat: int, player: Player) -> None:
    """Inside a seat's write at a household's table: whoever the scorepad game has in ``seat`` gives
    way to ``player`` from the hand in play (between hands: the next) on. Before any hand, the
    game's seat itself changes; after the game is won, nothing (a new game seats them). The table
    is read again under its row's lock: a play that ends a hand meanwhile is counted first."""
    now = PrivateTable.objects.select_for_update().only("state", "finished", "game").get(pk=table.pk)
    if now.game_id is None or now.finished:
        return
    state, game = from_json(now.state), Game(pk=now.game_id)
    sitting = seating(game)
    if sitting.last[seat].pk == player.pk:
        return
    from_hand = state.hand_number + (state.result is not None)
    if from_hand == 0 and not sitting.taken and all(first.pk != player.pk for first in sitting.first):
        Seat.objects.filter(game=game, position=seat).update(player=player)
        return
    SeatTaken.objects.update_or_create(
        game=game, position=seat, from_hand=from_hand, defaults={"player": player}
    )


def _roster_name(table: PrivateTable, seat: int) -> str | None:
    """The roster player a household table's seat is held for (stand-ins are retired: none)."""
    if table.game_id is None:
        return None
    held = Seat.objects.filter(game_id=table.game_id, position=seat, player__retired=False)
    return held.values_list("player__name", flat=True).first()


def _untouched(table: PrivateTable) -> bool:
    """Nobody has decided anything yet in the table's first hand (bots included)."""
    state = from_json(table.state)
    return state.hand_number == 0 and not state.auction and not state.passes


# -- play -----------------------------------------------------------------------------------------


def table_act_read(*, read: TableRead, seat: int, version: Any, answer: FormAnswer) -> TableRead:
    """Apply the answer of the person in ``seat`` (read once from the form), then the bots', on the
    table as the request read it (``selectors.tables.table_read``): nothing read again, its state
    parsed once (``read.hand``, played on in place), the play and the bots' answers stored in one
    write when they answer at once. The table after it."""
    table, rows = _writable(read, version)
    if rows[seat].kind != TableSeat.PERSON:
        raise TableRefused(NOT_SEATED)
    state = read.hand
    if state.to_act != seat:
        raise TableRefused(NOT_YOUR_TURN)
    view = seat_view(state, seat)
    if answer.decision != view.decision:
        raise TableRefused(STALE)
    before = _turn(state)
    try:
        if answer.unreadable is not None:
            raise answer.unreadable
        check_answer(view, answer.answer)
        state.push(answer.answer)
    except (AnswerError, IllegalAction) as error:
        raise TableRefused(refusal_words(view, answer, error)) from None
    if rows[seat].covered:  # back at the table: the bot steps aside at once
        TableSeat.objects.filter(pk=rows[seat].pk).update(covered=False)
        rows[seat].covered = False
    return read.after(*_person_then_bots(table, rows, state, before))


def table_next_hand_read(*, read: TableRead, seat: int, version: Any) -> TableRead:
    """Deal the next hand (any person at the table may): the deal moves one seat clockwise. On the
    table as the request read it; the table after it."""
    table, rows = _writable(read, version)
    if rows[seat].kind != TableSeat.PERSON:
        raise TableRefused(NOT_SEATED)
    state = read.hand
    if state.result is None:
        raise TableRefused("This hand is not over yet.")
    if table.finished:
        raise TableRefused("The game is over: the host can start a new table.")
    dealt = next_hand(state, deal_rng(table.seed, state.hand_number + 1))
    return read.after(*_person_then_bots(table, rows, dealt, _turn(state)))


def table_cover_overdue(
    *, table: PrivateTable, present: Callable[[int], bool], now: datetime | None = None
) -> PrivateTable | None:
    """When the seat to act has nobody there (an open seat, or a person whose phone is away) past
    the table's grace, a bot plays that seat's turns until its person is back. None when nothing is
    overdue (asked by the table's clock: the cheap answer comes first)."""
    table = PrivateTable.objects.get(pk=table.pk)
    state = from_json(table.state)
    seat = state.to_act
    if table.ended or seat is None or table.turn_since is None:
        return None
    if (now or timezone.now()) - table.turn_since < timedelta(seconds=table.grace_seconds):
        return None
    rows = list(table.seats.all())
    row = rows[seat]
    if row.kind == TableSeat.BOT or row.covered or (row.kind == TableSeat.PERSON and present(seat)):
        return None
    TableSeat.objects.filter(pk=row.pk).update(covered=True)
    row.covered = True
    before = table.version
    moved, _, _ = _bots_move(table, rows, state)
    return moved if moved.version != before else None


def table_bots_catch_up(*, table: PrivateTable) -> PrivateTable:
    """The bots take their turn if it is theirs and they have not (they were busy when it came):
    asked by the table's clock."""
    return _bots_move(PrivateTable.objects.get(pk=table.pk))[0]


def table_clock(*, table: PrivateTable, present: Callable[[int], bool]) -> datetime | None:
    """What the table's clock does when the table is due (``live.clock`` claimed it): a person whose
    phone is back (``present``) takes their seat from their bot; bots that were busy take their
    turn; a seat with nobody there past the grace gets its bot. When the table is next due."""
    stored = PrivateTable.objects.filter(pk=table.pk).first()
    if stored is None or stored.ended:
        return None
    table = stored
    for row in table.seats.filter(kind=TableSeat.PERSON, covered=True):
        if present(row.seat):
            table_back(table=table, seat=row.seat)
    to_act = from_json(table.state).to_act
    if to_act is not None and to_act in bot_strengths(list(table.seats.all())):
        table_bots_catch_up(table=table)
    else:
        table_cover_overdue(table=table, present=present)
    table = PrivateTable.objects.get(pk=table.pk)
    now = timezone.now()
    due = table_due(table, list(table.seats.all()), now)
    # Past the grace with the player there: looked at again, in case their phone goes.
    return due if due is None or due > now else now + timedelta(seconds=AWAY_LOOK_SECONDS)


def table_clock_tick(*, table_id: int) -> datetime | None:
    """``table_clock`` for the clock's thread and ``manage.py table_clock``: presence as the
    phones' streams mark it (``live.bus``)."""
    return table_clock(table=PrivateTable(pk=table_id), present=lambda seat: bus.present(table_id, seat))


def table_clock_start() -> bool:
    """This server process's clock thread (``live.clock.start``), started by the server as a worker
    begins (gunicorn_conf, wsgi.py), never by importing the application: a test importing it runs
    no clock of its own beside the one it drives."""
    return clock.start(table_clock_tick)


def table_due(
    table: PrivateTable, rows: Sequence[TableSeat], now: datetime, *, state: HandState | None = None
) -> datetime | None:
    """When the table as it is (``rows``: its seats) next needs its clock: soon at the bots' turn
    (they answer within the write that gave it to them unless they were busy), at the grace's end
    at a person's or an open seat's turn, and often while a bot covers a seat (to see its person
    back). None when only a person can move it (between hands) or nothing can (ended, bots spent).
    ``state``: the table's state, when the caller has it parsed."""
    if state is None and table.state:
        state = from_json(table.state)
    to_act = state.to_act if state is not None else None
    if table.ended or to_act is None:
        return None
    if to_act in bot_strengths(rows):
        if table.bot_cpu_seconds >= TABLE_BOT_CPU_LIMIT:
            return None
        return now + timedelta(seconds=BOTS_LATE_SECONDS)
    grace_ends = (table.turn_since or now) + timedelta(seconds=table.grace_seconds)
    if any(row.covered for row in rows):
        return min(grace_ends, now + timedelta(seconds=AWAY_LOOK_SECONDS))
    return grace_ends


def table_back(*, table: PrivateTable, seat: int) -> bool:
    """The person in ``seat`` is back (their phone opened the table's page, or the table's clock saw
    their phone's stream): their bot steps aside at once."""
    with transaction.atomic():
        back = bool(TableSeat.objects.filter(table=table, seat=seat, covered=True).update(covered=False))
        if back:
            _seats_changed(table)
    return back


def table_say(*, table: PrivateTable, seat: int, message: str) -> TableMessage:
    """One of the fixed quick messages, said by ``seat``."""
    if message not in QUICK_MESSAGES:
        raise TableRefused(f"Say one of: {', '.join(QUICK_MESSAGES.values())}.")
    table = _fresh(table)
    if message == "thanks" and not get_variant(table.variant).partnerships:
        raise TableRefused("Everyone plays for themselves at this table: there is no partner to thank.")
    since = timezone.now() - timedelta(seconds=MESSAGE_GAP_SECONDS)
    if TableMessage.objects.filter(table=table, seat=seat, created_at__gte=since).exists():
        raise TableRefused(TOO_CHATTY)  # each message redraws every phone: a few, not a stream
    with transaction.atomic():
        said = TableMessage.objects.create(table=table, seat=seat, message=message)
        _announce(table)
    return said


def table_quit(*, table: PrivateTable, seat: int) -> None:
    """The person in ``seat`` leaves: the table shows it, the seat opens (a bot covers its turns
    after the grace, as for anyone away) and their phone's key opens nothing any more. The host
    stays (whoever sat down in seat 1 next would hold the host's controls): they end the table."""
    if seat == HOST_SEAT:
        raise TableRefused(HOST_STAYS)
    with transaction.atomic():
        TableSeat.objects.filter(table=table, seat=seat, kind=TableSeat.PERSON).update(
            kind=TableSeat.OPEN, user=None, claim_key="", quit=True, covered=False
        )
        _seats_changed(table)


# -- the host's controls --------------------------------------------------------------------------


def table_open_seat(*, table: PrivateTable, by_seat: int, seat: int, version: Any = None) -> None:
    """The host opens a seat (a bot's, or a person's: removing them); a person's phone loses it.
    ``version``: the table's version the host confirmed it at (moved on since: refused as stale)."""
    table = _hosted(table, by_seat)
    if version is not None:
        _current(table, version)
    if seat == HOST_SEAT:
        raise TableRefused("The host keeps seat 1: end the table instead.")
    held_for = _roster_name(table, seat) or ""  # a roster player's seat stays held for them
    with transaction.atomic():
        if (
            not TableSeat.objects.filter(table=table, seat=seat)
            .exclude(kind=TableSeat.OPEN)
            .update(
                kind=TableSeat.OPEN,
                user=None,
                claim_key="",
                name=held_for,
                strength="",
                covered=False,
                quit=False,
            )
        ):
            raise TableRefused("That seat is already open.")
        _seats_changed(table)


def table_end(*, table: PrivateTable, by_seat: int) -> None:
    table = _hosted(table, by_seat)
    with transaction.atomic():
        PrivateTable.objects.filter(pk=table.pk).update(
            status=PrivateTable.ENDED, version=F("version") + 1, updated_at=timezone.now()
        )
        if table.game is not None and not table.game.finished:
            # Ended before a side won: the household's history keeps it, its statistics leave it out.
            game_abandon(game=table.game, abandoned=True)
        _announce(table)


def table_new_link(*, table: PrivateTable, by_seat: int) -> str:
    """A new link and a new short code: the old ones are refused from now on (every phone at the
    table was shown both, a removed player's too, so a new link alone would leave the code open)."""
    table = _hosted(table, by_seat)
    token = new_link_token()
    for _attempt in range(5):  # a short code already in use: draw another
        try:
            with transaction.atomic():
                PrivateTable.objects.filter(pk=table.pk).update(link_token=token, code=new_code())
            break
        except IntegrityError:
            continue
    else:  # pragma: no cover - five codes in a row taken
        raise TableRefused("Could not find a free table code just now: please try again.")
    return token


# -- helpers ----------------------------------------------------------------------------------------


def deal_rng(seed: int, hand_number: int) -> random.Random:
    return random.Random(f"{seed}:table-deal:{hand_number}")


def bot_strengths(rows: Sequence[TableSeat]) -> dict[int, str]:
    """Who the bots play for: the bots' seats, and the seats of people away past the grace."""
    return {
        row.seat: row.strength or COVER_STRENGTH for row in rows if row.kind == TableSeat.BOT or row.covered
    }


class _Turn(NamedTuple):
    """Where a state stood before a change: whose turn, which hand, whether it was over."""

    to_act: int | None
    hand_number: int
    over: bool


def _turn(state: HandState) -> _Turn:
    return _Turn(state.to_act, state.hand_number, state.result is not None)


def _person_then_bots(
    table: PrivateTable, rows: Sequence[TableSeat], state: HandState, before: _Turn
) -> tuple[PrivateTable, Sequence[TableSeat], HandState]:
    """Store a person's play (``state``, changed from ``before``), then the bots' answers to it
    (``_bots_move``), and tell the phones. The table, its seats and its state as stored.

    Bots that answer at once (rules of thumb, in this thread: a few milliseconds) play on the
    same parsed state and are stored with the play, in one write at one version: each phone's
    stream wakes and draws once, the cards landing in turn, instead of drawing the play and then
    drawing again for the answer. Bots that search (expert, in the bot process) take longer: the
    play is stored and told now, the answer when it comes."""
    strengths = bot_strengths(rows)
    if state.to_act in strengths and bot_pool.answers_at_once(strengths):
        seconds, moved = _bots_play(table, strengths, state)
        _set_state(table, state, before, passed=moved)
        _save(table, rows, state, changed_from=table.version, spent=seconds, person=True)
        return table, rows, state
    _set_state(table, state, before)
    _save(table, rows, state, changed_from=table.version, person=True)
    return _bots_move(table, rows, state)


def _bots_play(table: PrivateTable, strengths: dict[int, str], state: HandState) -> tuple[float, bool]:
    """Bots that answer at once play on ``state`` in place, unless the table's CPU is spent; the
    seconds they took and whether they moved at all. Whatever they could not do waits for the
    table's clock (``table_due``)."""
    if table.ended or table.bot_cpu_seconds >= TABLE_BOT_CPU_LIMIT:
        return 0.0, False
    made = moves_made(state)
    try:
        played = bot_pool.table_play_on(state, strengths, table.seed)
    except bot_pool.BotsBusy:  # the clock asks them again once the table is due
        return 0.0, False
    except (GameStopped, bot_pool.BrokenProcessPool) as error:  # a bug of ours: the legal moves stand
        log.warning("table %s: the bots could not play on (%s)", table.pk, error)
        return 0.0, moves_made(state) != made
    return played.seconds, bool(played.moves)


def _bots_move(
    table: PrivateTable, rows: Sequence[TableSeat] | None = None, state: HandState | None = None
) -> tuple[PrivateTable, Sequence[TableSeat], HandState]:
    """The bots (and bots covering for people away) play on to a person's turn, and it is stored.
    ``rows`` and ``state`` are the table's seats and parsed state when the caller has them.

    Called once a person's write is stored and told, so the other phones see a card at once and the
    bots' answers right after; no transaction is open while they think (``bot_pool``). Bots busy at
    other tables (or the table's CPU spent): the table waits at the bot's turn, due for its clock
    (``table_due``), which asks them again (``table_bots_catch_up``); the request that gave them
    the turn does not wait. The table as stored, its seats and its state."""
    state = from_json(table.state) if state is None else state
    rows = list(TableSeat.objects.filter(table=table)) if rows is None else rows
    strengths = bot_strengths(rows)
    if table.ended or state.to_act not in strengths or table.bot_cpu_seconds >= TABLE_BOT_CPU_LIMIT:
        return table, rows, state
    before, data = _turn(state), None
    if bot_pool.answers_at_once(strengths):  # on the parsed state, in place
        seconds, moved = _bots_play(table, strengths, state)
        if not moved:
            return table, rows, state
    else:
        try:  # the stored JSON goes to the bot process as it is: written once, when it was stored
            played = bot_pool.table_play_on(table.state, strengths, table.seed)
        except bot_pool.BotsBusy:  # the clock asks them again once the table is due
            return table, rows, state
        except (GameStopped, bot_pool.BrokenProcessPool) as error:  # a bug of ours, or a bot process died
            log.warning("table %s: the bots could not play on (%s)", table.pk, error)
            return table, rows, state
        state, data, seconds, moved = (
            from_json(played.state),
            played.state,
            played.seconds,
            bool(played.moves),
        )
    _set_state(table, state, before, data=data, passed=moved)
    try:
        _save(table, rows, state, changed_from=table.version, spent=seconds)
    except TableRefused:  # someone else moved the table on meanwhile (the host ended it)
        stored = PrivateTable.objects.get(pk=table.pk)
        return stored, list(TableSeat.objects.filter(table=stored)), from_json(stored.state)
    return table, rows, state


def _set_state(
    table: PrivateTable,
    state: HandState,
    before: _Turn | None,
    *,
    data: dict[str, Any] | None = None,
    passed: bool = False,
) -> None:
    """Put ``state`` on ``table`` (not saved; ``data`` its JSON when already written, else it is
    written here): when the turn passed (``passed``: it went round and back), and the hand's record
    once it ends. ``before``: where the state stood before the change (None for a new table)."""
    table.state = to_json(state) if data is None else data
    if before is None or passed or before.to_act != state.to_act or before.hand_number != state.hand_number:
        table.turn_since = timezone.now()
    if state.result is not None and (before is None or not before.over):
        _record_hand(table, state)


def _record_hand(table: PrivateTable, state: HandState) -> None:
    result = state.result
    assert result is not None
    table.hands = [*table.hands, hand_row(state)]
    if result.winners:
        table.finished = True


def _read_of(table: PrivateTable) -> TableRead:
    """A table's read model from its row as read (its seats read now; no messages: no screen)."""
    return table_read_of(table, list(TableSeat.objects.filter(table=table)), ())


def _fresh(table: PrivateTable) -> PrivateTable:
    stored = PrivateTable.objects.get(pk=table.pk)
    if stored.ended:
        raise TableRefused(ENDED)
    return stored


def _current(table: PrivateTable, version: Any) -> PrivateTable:
    stored = _fresh(table)
    if str(version) != str(stored.version):
        raise TableRefused(STALE)
    return stored


def _writable(read: TableRead, version: Any) -> tuple[PrivateTable, list[TableSeat]]:
    """The rows a write works from, as the request read them: refused when the table ended or its
    version is not the one the phone acted on (the write's own version check refuses the rest)."""
    if read.ended:
        raise TableRefused(ENDED)
    if str(version) != str(read.version):
        raise TableRefused(STALE)
    assert read.row is not None, "a table read from its rows (table_read)"
    return read.row, list(read.seat_rows)


def _hosted(table: PrivateTable, by_seat: int) -> PrivateTable:
    table = _fresh(table)
    if by_seat != HOST_SEAT:
        raise TableRefused(HOST_ONLY)
    return table


def _save(
    table: PrivateTable,
    rows: Sequence[TableSeat],
    state: HandState,
    *,
    changed_from: int,
    spent: float = 0.0,
    person: bool = False,
    announce: bool = True,
) -> None:
    """Store the play at the next version if the stored one is still ``changed_from`` (one
    statement: a write that lost the race matches no row and is refused as stale), and when the
    table next needs its clock (``rows``: its seats); the phones are told once it is committed,
    unless the caller tells them itself (``announce``). ``state``: the table's state, parsed."""
    now = timezone.now()
    table.bot_cpu_seconds += spent
    due = table_due(table, rows, now, state=state)
    with transaction.atomic():
        if not PrivateTable.objects.filter(
            pk=table.pk, version=changed_from, status=PrivateTable.OPEN
        ).update(
            state=table.state,
            hands=table.hands,
            finished=table.finished,
            turn_since=table.turn_since,
            due_at=due,
            version=changed_from + 1,
            bot_cpu_seconds=F("bot_cpu_seconds") + spent,
            person_writes=F("person_writes") + int(person),
            updated_at=now,
        ):
            raise TableRefused(STALE)
        if table.game_id is not None and state.result is not None:
            _record_in_scorepad(table, state)
        if announce:
            _announce(table)
    table.version, table.updated_at = changed_from + 1, now


def _record_in_scorepad(table: PrivateTable, state: HandState) -> None:
    """The hand that just ended, recorded in the household's game by the scorepad's own service,
    inside the transaction that stores the play that ended it (the play that lost a race stores
    nothing, so records nothing). The entry key names the hand: recording it again adds nothing."""
    result = state.result
    assert result is not None
    game = Game(pk=table.game_id)
    key = f"table-{table.pk}-hand-{state.hand_number}"
    try:
        if state.bidder is None or state.meld is None:  # all passed, or a misdeal: thrown in
            hand_throw_in(game=game, number=state.hand_number, dealer=state.dealer, entry_key=key)
            return
        entry: dict[str, Any] = {
            "bidder": state.bidder,
            "bid": state.bid,
            "trump": None if state.trump is None else SUITS[state.trump],
            "meld": list(state.variant.side_totals(state.meld)),
            "tricks": list(state.points) if result.played else None,
        }
        if result.played:
            entry["took_trick"] = list(state.took_trick)
        hand_record(game=game, number=state.hand_number, data=entry, dealer=state.dealer, entry_key=key)
    except ServiceError as error:  # never: the table's hand is the scorepad's; play goes on regardless
        log.warning(
            "table %s: hand %s not recorded in game %s (%s)", table.pk, state.hand_number, game.pk, error
        )


def _seats_changed(table: PrivateTable) -> None:
    """Inside a seat's write: the table's clock looks at it at once (who covers whom, and when the
    table is next due, may have changed), and its phones are told once committed."""
    PrivateTable.objects.filter(pk=table.pk, status=PrivateTable.OPEN).update(due_at=timezone.now())
    _announce(table)


def _announce(table: PrivateTable) -> None:
    """Once committed, the table's phones hear that it changed (nothing of anyone's cards)."""
    table_id = table.pk
    transaction.on_commit(lambda: bus.publish(bus.table_channel(table_id)))


def _clean_name(name: str, *, required: bool = True) -> str:
    name = " ".join(str(name).split())
    if required and not name:
        raise TableRefused("Type a name the others will see at the table.")
    if len(name) > PLAYER_NAME_MAX:
        raise TableRefused(f"A name has at most {PLAYER_NAME_MAX} characters.")
    try:
        refuse_unprintable(name, "A name")
    except ServiceError as error:
        raise TableRefused(str(error)) from None
    return name


# -- a new game at the same table ---------------------------------------------------------------

NOT_OVER = "This game is not over yet: play on until a side wins."


def table_rematch(*, table: PrivateTable, seat: int, version: Any) -> PrivateTable:
    """Once a side has won, a new game at the same table with everyone in their seats (any person
    at the table may start it, as they may deal the next hand): a new deal, the scores back to
    nought, the bots played on to a person's turn. A household's table starts a new scorepad game
    with the same players in the same seats, in the same transaction (a start that lost the race
    to another phone's makes none)."""
    table = _current(table, version)
    rows = list(table.seats.all())
    if not 0 <= seat < len(rows) or rows[seat].kind != TableSeat.PERSON:
        raise TableRefused(NOT_SEATED)
    if not table.finished:
        raise TableRefused(NOT_OVER)
    before = from_json(table.state)
    seed = new_seed()
    state = new_game(before.variant, before.settings, deal_rng(seed, 0), game=before.game + 1)
    now = timezone.now()
    table.state, table.finished, table.turn_since = to_json(state), False, now
    with transaction.atomic():
        game = None if table.game_id is None else _rematch_game(table, table.game_id, state)
        if not PrivateTable.objects.filter(
            pk=table.pk, version=table.version, status=PrivateTable.OPEN, finished=True
        ).update(
            seed=seed,
            game=game,
            state=table.state,
            hands=[],
            finished=False,
            turn_since=now,
            due_at=table_due(table, rows, now),  # the bots may open the bidding: busy, the clock asks again
            version=table.version + 1,
            person_writes=F("person_writes") + 1,
            updated_at=now,
        ):
            raise TableRefused(STALE)
        _announce(table)
    return _bots_move(PrivateTable.objects.get(pk=table.pk))[0]


def _rematch_game(table: PrivateTable, game_id: int, state: HandState) -> Game:
    """The household's new scorepad game: the finished game's players in the same seats (who sat
    there at its end), save a stand-in's seat a person sat down in after it ended."""
    finished = Game.objects.get(pk=game_id)
    players = seating(finished).last  # who sat in each seat at its end
    for row in table.seats.filter(kind=TableSeat.PERSON):
        if players[row.seat].retired:  # a stand-in's seat: whoever sits there now plays the new game
            players[row.seat] = _person_player(table, row, players)
    try:
        return game_start(
            household=finished.household,
            variant_id=table.variant,
            overrides=table.settings,
            players=players,
            first_dealer=state.first_dealer,
        )
    except ServiceError as error:  # pragma: no cover - the same players started the last game
        raise TableRefused(str(error)) from None
