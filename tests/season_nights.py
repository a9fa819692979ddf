"""Short club nights played through the services, for the seasons' tests: members checked in by
name from the roster, one hand per table per round entered and confirmed, every round closed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User

from scorepad.models import ClubEvent, ClubSeason, ClubTable, Household, Player
from scorepad.services.clubs import (
    entrant_check_in,
    event_create,
    round_close,
    round_start,
    table_hand_confirm,
)
from scorepad.services.households import player_create
from tests.sample_games import club_hand

# One hand each way: side 0 (North–South, the first team) makes 20 and scores 25 to 15; or side 1 does.
SIDE_0_WINS = {"bidder": 0, "bid": 20, "trump": "H", "meld": [10, 5], "tricks": [15, 10]}
SIDE_1_WINS = {"bidder": 1, "bid": 20, "trump": "S", "meld": [5, 10], "tricks": [10, 15]}


def members(household: Household, *names: str) -> list[Player]:
    """Roster players by name, made the first time they are named."""
    return [
        Player.objects.filter(household=household, name=name).first()
        or player_create(household=household, name=name)
        for name in names
    ]


def _fresh(event: ClubEvent) -> ClubEvent:
    return ClubEvent.objects.get(pk=event.pk)


def play_night(
    household: Household,
    director: User,
    *,
    name: str,
    entrants: Sequence[Sequence[str]],
    format: str = "teams",
    rounds: int = 1,
    hands: Sequence[dict[str, Any]] = (SIDE_0_WINS,),
    season: ClubSeason | None = None,
) -> ClubEvent:
    """A finished night: ``entrants`` (a pair of names per team, one name per player) checked in in
    order, ``rounds`` rounds, each table entering ``hands`` in turn (round r's table t plays
    ``hands[(r + t) % len(hands)]``), confirmed by the other side, then closed."""
    event = event_create(
        household=household,
        director=director,
        name=name,
        variant_id="classic",
        overrides={},
        format=format,
        rounds=rounds,
        round_end="hands",
        hands_per_round=1,
        season=season,
    )
    for names in entrants:
        event = _fresh(event)
        entrant_check_in(event=event, version=event.version, players=members(household, *names))
    for number in range(1, rounds + 1):
        event = _fresh(event)
        club_round = round_start(event=event, version=event.version, accept_repeats=True)
        for table in ClubTable.objects.filter(round=club_round).select_related("round").order_by("number"):
            data = hands[(number + table.number) % len(hands)]
            entered = club_hand(table, data=data, phone=f"p{table.pk}")
            table_hand_confirm(
                table=table, table_hand_id=entered.pk, version=entered.version, phone="other", side=1
            )
        event = _fresh(event)
        round_close(event=event, version=event.version)
    return _fresh(event)
