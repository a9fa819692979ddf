"""Games and households out of the app, read only: the §9.3 JSON export of a game, a
household's CSV of every hand and its backup (restored by ``services/exchange.py``)."""

import csv
import io
import uuid
from collections.abc import Iterable
from typing import Any

from django.utils.timezone import localdate, now

from ..engine.variants import VARIANTS
from ..models import Game, Hand, Household
from .games import Seating, game_score, side_names

BACKUP_FORMAT = "pinochle-table-household-backup"
BACKUP_VERSION = 1

# Wide enough for the variant with the most sides, so every game fits one header.
MAX_SIDES = max(len(variant.sides) for variant in VARIANTS.values())
PER_SIDE_COLUMNS = ("side", "meld", "tricks", "score", "total")
CSV_HEADER = (
    "game",
    "date",
    "variant",
    "hand",
    "dealer",
    "bidder",
    "bid",
    "trump",
    *(f"{column}_{side}" for column in PER_SIDE_COLUMNS for side in range(MAX_SIDES)),
    "made",
    "played",
)


def game_export(*, game: Game) -> dict[str, Any]:
    """The game as RULES.md §9.3 writes it; ``game_import`` reads it back unchanged."""
    return game.record()


def household_history_csv(*, household: Household) -> str:
    """Every hand of every game of the household, oldest first, one CSV row per hand, with the names
    of who played that hand (a seat taken over during a game names its new player from then on)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    games = household.games.order_by("created_at", "id").prefetch_related(
        "seats__player", "hands", "seats_taken__player"
    )
    for game in games:
        writer.writerows(_game_rows(game))
    return out.getvalue()


def _game_rows(game: Game) -> Iterable[list[Any]]:
    scored = game_score(game)
    variant = scored.variant
    taken = tuple((take.from_hand, take.position, take.player) for take in game.seats_taken.all())
    sitting = Seating(tuple(seat.player for seat in game.seats.all()), taken)
    date = localdate(game.created_at).isoformat()
    stored = [hand for hand in game.hands.all() if not hand.thrown_in]  # the record's hands, in order
    for row_hand, hand in zip(stored, scored.hands, strict=True):
        entry = hand.entry.to_json()
        players = sitting.at(row_hand.number)
        names, sides = [player.name for player in players], side_names(variant, players)
        per_side = {
            "side": [_cell(name) for name in sides],
            "meld": entry["meld"],
            "tricks": entry["tricks"] or [],  # empty when the hand was not played
            "score": list(hand.score.scores),
            "total": list(hand.totals),
        }
        row = [
            game.pk,
            date,
            variant.id,
            row_hand.number + 1,
            _cell(names[row_hand.dealer]),
            _cell(names[entry["bidder"]]),
            entry["bid"],
            entry["trump"] or "",
        ]
        for column in PER_SIDE_COLUMNS:
            values = per_side[column]
            row.extend([*values, *[""] * (MAX_SIDES - len(values))])
        row.extend(["yes" if hand.score.made else "no", "yes" if hand.score.played else "no"])
        yield row


def _cell(text: str) -> str:
    """A name a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``) is quoted."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def household_backup(*, household: Household) -> dict[str, Any]:
    """Everything a household keeps (README "Household backup"): its players, and every game with
    its seats, first dealer, date and every deal as entered (§9.3 hands plus each dealer)."""
    players = list(household.players.order_by("id"))
    index = {player.pk: number for number, player in enumerate(players)}
    games = household.games.order_by("created_at", "id").prefetch_related("seats", "hands", "seats_taken")
    return {
        "format": BACKUP_FORMAT,
        "version": BACKUP_VERSION,
        "backup_id": uuid.uuid4().hex,
        "exported_at": now().isoformat(),
        "household": {"name": household.name, "created_at": household.created_at.isoformat()},
        "players": [{"name": player.name, "retired": player.retired} for player in players],
        "games": [_game_backup(game, index) for game in games],
    }


def _game_backup(game: Game, index: dict[int, int]) -> dict[str, Any]:
    backup = {
        "created_at": game.created_at.isoformat(),
        "variant": game.variant,
        "settings": dict(game.settings),
        "first_dealer": game.first_dealer,
        "abandoned": game.abandoned,
        "seats": [index[seat.player_id] for seat in game.seats.all()],  # players by seat, clockwise
        "hands": [_deal_backup(hand) for hand in game.hands.all()],
    }
    taken = [
        {"from_hand": take.from_hand, "seat": take.position, "player": index[take.player_id]}
        for take in game.seats_taken.all()
    ]
    if taken:  # a seat taken over during the game at a household's table: who played it from then on
        backup["seats_taken"] = taken
    return backup


def _deal_backup(hand: Hand) -> dict[str, Any]:
    """A §9.3 hand object with its ``dealer``; a thrown-in deal is ``{"dealer": d, "thrown_in": true}``."""
    if hand.thrown_in:
        return {"dealer": hand.dealer, "thrown_in": True}
    return {"dealer": hand.dealer, **hand.entry()}
