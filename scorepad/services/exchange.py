"""Games and households into the app: the §9.3 JSON import and the household restore (the
exports, which only read, are in ``selectors/exchange.py``).

An import is checked in full by the engine (``parse_record`` then ``score_game``) before
anything is written, so a bad record saves nothing and its message names the hand and the
field; the write itself is one transaction.
"""

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Field, Model
from django.utils.dateparse import parse_datetime
from django.utils.timezone import now

from ..constants import HOUSEHOLD_NAME_MAX, NUMBER_LIMIT, PLAYER_NAME_MAX
from ..engine.scoring import GameScore, HandEntry, RecordError, dealer_for_hand, parse_record, score_game
from ..engine.variants import Settings, SettingsError, Variant
from ..models import Game, Hand, Household, Player, Seat, SeatTaken
from ..selectors.exchange import BACKUP_FORMAT, BACKUP_VERSION
from ..selectors.games import tally_written
from . import ServiceError
from .games import game_start
from .households import refuse_unprintable

# A record nests four deep and a backup six; anything far deeper is not one of ours.
MAX_JSON_DEPTH = 20
# The longest real game is a few dozen hands (a six-handed game to 1000 takes about 20); 500 is far
# beyond any of them, and keeps a game's page quick: every page scores every hand of its game, and a
# 15,871-hand game made pages take seconds.
MAX_HANDS = 500
MAX_RECORD_BYTES = 1_000_000  # one game: a 500-hand record is about 50 kB
MAX_BACKUP_BYTES = 20_000_000  # a household: hundreds of full games
# What one restore may hold: years of a household's evenings (three games a week for six years, at
# the longest real games' length), written in one short transaction; more is refused before any of
# it is scored. `manage.py household_benchmark` measures the write's duration at this bound.
MAX_BACKUP_GAMES = 1_000
MAX_BACKUP_DEALS = 30_000


def _refuse_constant(name: str) -> Any:
    raise ServiceError(f"{name} is not a number a score can hold.")


def load_json(text: str | bytes) -> Any:
    """Parse an uploaded or pasted JSON document, refusing in words what would crash or bloat the
    app: bad syntax, nesting deeper than any record (Python raises RecursionError), integers of
    thousands of digits (ValueError beyond 4300) and NaN/Infinity."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise ServiceError(
            f"This is not JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from None
    except ServiceError:
        raise  # NaN or Infinity, refused by _refuse_constant (a ServiceError is a ValueError)
    except RecursionError:
        raise ServiceError(
            f"This JSON nests too deeply: a record nests at most {MAX_JSON_DEPTH} levels."
        ) from None
    except ValueError:
        raise ServiceError(
            f"This JSON holds a number far too long for any score (at most {NUMBER_LIMIT})."
        ) from None
    _check_shape(data)
    return data


def _check_shape(data: Any) -> None:
    """No nesting past ``MAX_JSON_DEPTH`` and no number past the form's limit, wherever it is."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise ServiceError(f"This JSON nests too deeply: a record nests at most {MAX_JSON_DEPTH} levels.")
        if isinstance(value, dict):
            stack.extend(
                (item, f"{path}.{key}" if path else str(key), depth + 1) for key, item in value.items()
            )
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{index}]", depth + 1) for index, item in enumerate(value))
        elif isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > NUMBER_LIMIT:
            limit = f"at most {NUMBER_LIMIT}"
            raise ServiceError(f"{_in_words(path)}: {value} is more than any real score: {limit}.")


_NUMBERED = re.compile(r"\b(hand|game)s\[(\d+)\]")


def _in_words(path: str) -> str:
    """``games[0].hands[4].bid`` as players count: ``game 1: hand 5: bid``."""
    return _NUMBERED.sub(lambda match: f"{match[1]} {int(match[2]) + 1}", path).replace(".", ": ")


def record_check(data: Any) -> tuple[Variant, Settings, list[HandEntry], GameScore]:
    """Parse and score a §9.3 record; a refusal is a ServiceError naming the hand and field."""
    _check_shape(data)
    if isinstance(data, dict) and isinstance(data.get("hands"), list) and len(data["hands"]) > MAX_HANDS:
        raise ServiceError(f"{len(data['hands'])} hands is more than one game holds: at most {MAX_HANDS}.")
    try:
        variant, settings, entries = parse_record(data)
        scored = score_game(variant, settings, entries)
    except (RecordError, SettingsError) as error:
        raise ServiceError(str(error)) from error
    return variant, settings, entries, scored


@transaction.atomic
def game_import(*, household: Household, data: Any, seats: Sequence[Player], first_dealer: int = 0) -> Game:
    """Create a game from a §9.3 record with ``seats[i]`` in seat ``i``; all or nothing."""
    variant, settings, entries, scored = record_check(data)
    game = game_start(
        household=household,
        variant_id=variant.id,
        overrides=settings.changes(variant.defaults),
        players=seats,
        first_dealer=first_dealer,
    )
    Hand.objects.bulk_create(
        Hand(
            game=game,
            number=number,
            dealer=dealer_for_hand(variant, first_dealer, number),  # §9.3 has no dealer: §8's rotation
            **Hand.fields_from_entry(entry.to_json()),
        )
        for number, entry in enumerate(entries)
    )
    game.finished, game.winner_sides = scored.finished, list(scored.winners)
    game.save(update_fields=["finished", "winner_sides"])
    return game


def _backup_problem(where: str, message: str) -> ServiceError:
    return ServiceError(f"{where}: {message}" if where else message)


# The dates a backup may hold: the app was written long after 2000, and nothing it stores is in the
# future (a day's margin for clocks). A date far outside would be stored by PostgreSQL as a moment
# before year 1 or after 9999 in UTC, which no page could read back.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST_AHEAD = timedelta(days=1)
BACKUP_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")  # what the export writes: a UUID's 32 hex digits


def _when(value: Any, where: str) -> datetime:
    try:
        moment = parse_datetime(value) if isinstance(value, str) and value.isprintable() else None
    except ValueError:  # well formed, but no such moment: month 13, hour 99
        moment = None
    if moment is None or moment.tzinfo is None:
        raise _backup_problem(where, "created_at must be a date and time with its zone (ISO 8601)")
    latest = now() + LATEST_AHEAD
    try:
        within = EARLIEST <= moment <= latest
    except OverflowError:  # its zone takes it past year 1 or 9999
        within = False
    if not within:
        raise _backup_problem(
            where, f"created_at must be between {EARLIEST:%Y-%m-%d} and {latest:%Y-%m-%d}: {value} is not"
        )
    return moment


def _checked_backup(data: Any) -> dict[str, Any]:
    """The backup read and checked in full (every game scored by the engine) before any write."""
    if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
        raise ServiceError("This is not a household backup: export one from a household's page.")
    if data.get("version") != BACKUP_VERSION:
        raise ServiceError(
            f"This backup is version {data.get('version')!r}: this app reads version {BACKUP_VERSION}."
        )
    backup_id = data.get("backup_id")
    if not isinstance(backup_id, str) or not BACKUP_ID.fullmatch(backup_id):
        raise ServiceError("This backup has no backup_id (8 to 64 letters and digits): export it again.")
    household = data.get("household")
    if (
        not isinstance(household, dict)
        or not isinstance(household.get("name"), str)
        or not household["name"].strip()
    ):
        raise ServiceError("household: a household needs a name.")
    if len(household["name"].strip()) > HOUSEHOLD_NAME_MAX:
        raise ServiceError(f"household: a name of at most {HOUSEHOLD_NAME_MAX} characters.")
    players = data.get("players")
    if not isinstance(players, list) or not all(_is_player(player) for player in players):
        raise ServiceError(
            f'players: a list of {{"name": …}} objects, names of 1 to {PLAYER_NAME_MAX} characters.'
        )
    # Names as they will be stored (spaces squeezed, as a roster name is), before they are compared.
    players = [{**player, "name": " ".join(player["name"].split())} for player in players]
    names = [player["name"] for player in players]
    refuse_unprintable(household["name"], "household: its name")
    for number, name in enumerate(names):
        refuse_unprintable(name, f"players: player {number + 1}'s name")
    if len({name.casefold() for name in names}) < len(names):
        raise ServiceError("players: the same name twice.")
    games = data.get("games")
    if not isinstance(games, list):
        raise ServiceError("games: a list of games.")
    _check_size(games)
    checked = [_checked_game(game, len(players), f"game {number + 1}") for number, game in enumerate(games)]
    return {
        "backup_id": backup_id,
        "household": household["name"].strip(),
        "created_at": _when(household.get("created_at"), "household"),
        "players": players,
        "games": checked,
    }


def _check_size(games: list[Any]) -> None:
    """Refuse, before anything is scored, a backup larger than one restore may hold."""
    if len(games) > MAX_BACKUP_GAMES:
        raise ServiceError(
            f"games: {len(games):,} games is more than one restore holds: at most {MAX_BACKUP_GAMES:,}."
        )
    deals = sum(
        len(game["hands"]) for game in games if isinstance(game, dict) and isinstance(game.get("hands"), list)
    )
    if deals > MAX_BACKUP_DEALS:
        raise ServiceError(
            f"games: {deals:,} hands in all is more than one restore holds: at most {MAX_BACKUP_DEALS:,}."
        )


def _stored_deals(deals: list[dict[str, Any]], entries: list[HandEntry]) -> list[dict[str, Any]]:
    """Each deal as it will be stored: its dealer, and the engine's reading of a played hand."""
    played = iter(entries)
    return [
        {"dealer": deal["dealer"], "thrown_in": True}
        if deal.get("thrown_in")
        else {"dealer": deal["dealer"], **Hand.fields_from_entry(next(played).to_json())}
        for deal in deals
    ]


def _is_player(player: Any) -> bool:
    name = player.get("name") if isinstance(player, dict) else None
    return (
        isinstance(name, str)
        and 0 < len(name.strip()) <= PLAYER_NAME_MAX
        and isinstance(player.get("retired", False), bool)
    )


def _checked_game(game: Any, roster: int, where: str) -> dict[str, Any]:
    if not isinstance(game, dict):
        raise _backup_problem(where, "must be an object")
    deals = game.get("hands")
    if not isinstance(deals, list) or not all(isinstance(deal, dict) for deal in deals):
        raise _backup_problem(where, "hands: a list of hand objects")
    played = [
        {key: value for key, value in deal.items() if key not in ("dealer", "thrown_in")}
        for deal in deals
        if not deal.get("thrown_in")
    ]
    try:
        variant, _settings, entries, scored = record_check(
            {"variant": game.get("variant"), "settings": game.get("settings") or {}, "hands": played}
        )
    except ServiceError as error:
        raise _backup_problem(where, str(error)) from None
    if len(deals) > MAX_HANDS:
        raise _backup_problem(where, f"{len(deals)} deals is more than one game holds: at most {MAX_HANDS}")
    seats = game.get("seats")
    if (
        not isinstance(seats, list)
        or len(seats) != variant.seats
        or not all(isinstance(seat, int) and 0 <= seat < roster for seat in seats)
        or len(set(seats)) != len(seats)
    ):
        raise _backup_problem(
            where, f"seats: {variant.seats} different players from the list, by their place in it"
        )
    seats_ok = range(variant.seats)
    first_dealer = game.get("first_dealer")
    if first_dealer not in seats_ok or not all(deal.get("dealer") in seats_ok for deal in deals):
        raise _backup_problem(
            where, f"first_dealer and each hand's dealer are seats 0 to {variant.seats - 1}"
        )
    for number, deal in enumerate(deals):
        if deal.get("thrown_in") and set(deal) != {"dealer", "thrown_in"}:
            raise _backup_problem(where, f"hand {number + 1}: a thrown-in deal has only its dealer")
    if not isinstance(game.get("abandoned", False), bool):
        raise _backup_problem(where, "abandoned is true or false")
    taken = game.get("seats_taken", [])
    if (
        not isinstance(taken, list)
        or not all(isinstance(take, dict) and set(take) == {"from_hand", "seat", "player"} for take in taken)
        or not all(
            _place(take["from_hand"], len(deals) + 1)
            and _place(take["seat"], variant.seats)
            and _place(take["player"], roster)
            for take in taken
        )
        or len({(take["seat"], take["from_hand"]) for take in taken}) != len(taken)
    ):
        raise _backup_problem(
            where, "seats_taken: who played a seat from which hand on, each as from_hand, seat and player"
        )
    return {
        "variant": variant.id,
        "settings": game.get("settings") or {},
        "first_dealer": first_dealer,
        "abandoned": game.get("abandoned") is True,
        "created_at": _when(game.get("created_at"), where),
        "seats": seats,
        "seats_taken": [(take["from_hand"], take["seat"], take["player"]) for take in taken],
        "deals": _stored_deals(deals, entries),
        "finished": scored.finished,
        "winners": list(scored.winners),
        "scored": scored,
    }


def household_restore(*, data: Any, user: User) -> Household:
    """A new household, made of a backup exactly, with ``user`` its member. All or nothing.

    Everything is checked first (every game scored by the engine) with no transaction open; the
    write is then one short transaction of bulk inserts, so other households' writes wait for it
    briefly (`manage.py household_benchmark` measures it at the bound). A backup already restored
    into one of ``user``'s households is refused with that household's name; another account's
    restore of the same file is none of this account's business, and its message says nothing of it.
    """
    return household_restore_write(backup=household_restore_check(data), user=user)


def household_restore_check(data: Any) -> dict[str, Any]:
    """The backup read and checked in full, every game scored: nothing is written, no transaction."""
    return _checked_backup(data)


HAND_COLUMNS = ("number", "dealer", "thrown_in", "version", *Hand.ENTRY_FIELDS, "created_at")


def household_restore_write(*, backup: dict[str, Any], user: User) -> Household:
    """Write a backup ``household_restore_check`` passed. Every hand's row is made ready for the
    database first (Django would build its SQL inside the transaction, a second for 5,000 hands);
    the one transaction then only sends it."""
    stamp = now()
    hands = [
        (
            index,
            _db_values(Hand, HAND_COLUMNS, {"version": 1, "created_at": stamp, "thrown_in": False, **deal}),
        )
        for index, game in enumerate(backup["games"])
        for deal in [{"number": number, **deal} for number, deal in enumerate(game["deals"])]
    ]
    dates = [_db_values(Game, ("created_at",), game)[0] for game in backup["games"]]
    return _restore_write(backup, user, hands, dates)


def _db_values(model: type[Model], names: Sequence[str], values: dict[str, Any]) -> tuple[Any, ...]:
    fields = model._meta
    return tuple(
        _concrete(fields.get_field(name)).get_db_prep_save(values.get(name), connection) for name in names
    )


def _concrete(field: Any) -> Field:
    """A model's own column (never a reverse relation): what a backup stores and restores."""
    assert isinstance(field, Field), field
    return field


ROWS_PER_INSERT = 500  # 6,000 parameters a statement: far under SQLite's and PostgreSQL's limits


def _insert(cursor: Any, model: type[Model], names: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert ``rows`` (values ready for the database) a few hundred to a statement."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(str(_concrete(model._meta.get_field(name)).column)) for name in names)
    row = f"({', '.join(['%s'] * len(names))})"
    for start in range(0, len(rows), ROWS_PER_INSERT):
        chunk = rows[start : start + ROWS_PER_INSERT]
        values = ", ".join([row] * len(chunk))
        cursor.execute(
            f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES {values}",
            [value for one in chunk for value in one],
        )


def _place(value: Any, size: int) -> bool:
    """``value`` is a whole number from 0 to ``size`` − 1 (not true or false, nor 2.0)."""
    return type(value) is int and 0 <= value < size


@transaction.atomic
def _restore_write(
    backup: dict[str, Any],
    user: User,
    hands: list[tuple[int, tuple[Any, ...]]],
    dates: list[Any],
) -> Household:
    # The account's row is locked, so two uploads of one file by one account take turns.
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
    mine = Household.objects.filter(members=user, restored_from=backup["backup_id"]).first()
    if mine is not None:
        raise ServiceError(f"You already restored this backup, as “{mine.name}”: nothing was imported twice.")
    household = Household.objects.create(name=backup["household"], restored_from=backup["backup_id"])
    Household.objects.filter(pk=household.pk).update(created_at=backup["created_at"])  # auto_now_add
    household.members.add(user)
    players = Player.objects.bulk_create(
        Player(household=household, name=p["name"], retired=p.get("retired", False))
        for p in backup["players"]
    )
    checked = backup["games"]
    games = Game.objects.bulk_create(
        Game(
            household=household,
            variant=game["variant"],
            settings=game["settings"],
            first_dealer=game["first_dealer"],
            abandoned=game["abandoned"],
            finished=game["finished"],
            winner_sides=game["winners"],
        )
        for game in checked
    )
    ids = [game.pk for game in games]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        # bulk_create stamped every game now (auto_now_add): each gets its date from the backup.
        table, created, pk = quote(Game._meta.db_table), quote("created_at"), quote("id")
        cursor.executemany(
            f"UPDATE {table} SET {created} = %s WHERE {pk} = %s", list(zip(dates, ids, strict=True))
        )
        seats = [
            (game_id, players[index].pk, position)
            for game_id, game in zip(ids, checked, strict=True)
            for position, index in enumerate(game["seats"])
        ]
        _insert(cursor, Seat, ("game", "player", "position"), seats)
        taken = [
            (game_id, position, from_hand, players[index].pk)
            for game_id, game in zip(ids, checked, strict=True)
            for from_hand, position, index in game["seats_taken"]
        ]
        _insert(cursor, SeatTaken, ("game", "position", "from_hand", "player"), taken)
        _insert(cursor, Hand, ("game", *HAND_COLUMNS), [(ids[index], *row) for index, row in hands])
    for stored, game in zip(games, checked, strict=True):
        stored.created_at = game["created_at"]
    tally_written([(stored, game["scored"]) for stored, game in zip(games, checked, strict=True)])
    household.refresh_from_db()
    return household
