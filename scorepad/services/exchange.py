"""Games in and out of the app: the §9.3 JSON export and import, and a household's CSV.

An import is checked in full by the engine (``parse_record`` then ``score_game``) before
anything is written, so a bad record saves nothing and its message names the hand and the
field; the write itself is one transaction.
"""

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.timezone import localdate

from ..engine.scoring import GameScore, HandEntry, RecordError, dealer_for_hand, parse_record, score_game
from ..engine.variants import VARIANTS, Settings, SettingsError, Variant
from ..models import Game, Hand, Household, Player
from ..selectors import game_score, seated_side_names
from . import ServiceError
from .games import bid_problems, game_start

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


def record_check(data: Any) -> tuple[Variant, Settings, list[HandEntry], GameScore]:
    """Parse and score a §9.3 record; a refusal is a ServiceError naming the hand and field."""
    try:
        variant, settings, entries = parse_record(data)
        scored = score_game(variant, settings, entries)
    except (RecordError, SettingsError) as error:
        raise ServiceError(str(error)) from error
    for number, entry in enumerate(entries):
        for field, problem in bid_problems(entry):
            raise ServiceError(f"hand {number + 1}: {field} {problem}")
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


def household_history_csv(*, household: Household) -> str:
    """Every hand of every game of the household, oldest first, one CSV row per hand."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    games = household.games.order_by("created_at", "id").prefetch_related("seats__player", "hands")
    for game in games:
        writer.writerows(_game_rows(game))
    return out.getvalue()


def _game_rows(game: Game) -> Iterable[list[Any]]:
    scored = game_score(game)
    variant = scored.variant
    names = [seat.player.name for seat in game.seats.all()]
    sides = seated_side_names(game, variant)
    date = localdate(game.created_at).isoformat()
    stored = [hand for hand in game.hands.all() if not hand.thrown_in]  # the record's hands, in order
    for row_hand, hand in zip(stored, scored.hands, strict=True):
        entry = hand.entry.to_json()
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
