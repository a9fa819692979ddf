"""Reads for live scoreboards: a game's fingerprint, and the game behind a shared link.

Every phone at the table asks "has this game changed since what I show?" about once a second.
The answer must be cheap, so it never scores the game: ``game_fingerprint`` hashes what the
players entered (seats, house rules, every hand's §9.3 entry) in three small indexed queries.
``sheet_fingerprint`` hashes the same values from a ``Scoresheet`` already read for a page, so a
page's fingerprint describes exactly the hands it shows, even if a hand was recorded while it
was being drawn. Any write changes what is hashed (a new, edited or deleted hand), with no
``updated_at`` column for every write to remember to bump.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.shortcuts import get_object_or_404

from ..models import Game, ScoreboardLink
from .games import Scoresheet

POLL_SECONDS = 1  # how often a phone asks: a hand shows everywhere within this plus one round trip


def _fingerprint(game: Game, players: Iterable[Sequence[Any]], entries: Iterable[Any]) -> str:
    payload = [game.pk, game.variant, game.settings, game.first_dealer, list(players), list(entries)]
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def game_fingerprint(game: Game) -> str:
    """What ``game`` holds now, as a short string: equal strings mean nothing a page shows changed."""
    players = game.seats.order_by("position").values_list("player_id", "player__name")
    # Each deal by id and version (every correction bumps it), number, dealer and whether thrown in.
    deals = game.hands.order_by("number").values_list("pk", "version", "number", "dealer", "thrown_in")
    return _fingerprint(game, ([pk, name] for pk, name in players), (list(deal) for deal in deals))


def sheet_fingerprint(sheet: Scoresheet) -> str:
    """The fingerprint of the hands ``sheet`` was scored from (same value as ``game_fingerprint``)."""
    players = ([player.pk, player.name] for player in sheet.players)
    deals = ([row.hand_id, row.version, row.number, row.dealer_seat, row.thrown_in] for row in sheet.rows)
    return _fingerprint(sheet.game, players, deals)


def shared_game(token: str) -> Game:
    """The game behind a scoreboard link; a wrong or revoked token is a 404, whoever asks."""
    links = ScoreboardLink.objects.live().select_related("game")
    return get_object_or_404(links, token=token).game


def active_links(game: Game) -> list[ScoreboardLink]:
    return list(game.scoreboard_links.live())
