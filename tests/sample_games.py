"""Households and hand-worked games shared by the history, exchange, statistics and access tests.

Each record's scores were worked by hand from RULES.md (noted beside each hand), so a test
can check the app's numbers against them rather than against the engine's own output.
"""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User

from scorepad.models import ClubEvent, ClubTable, Game, Household, TableHand
from scorepad.services.clubs import entrant_check_in, event_create, round_start, table_hand_record
from scorepad.services.exchange import game_import
from scorepad.services.households import household_create, player_create

ROSTER = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")

# classic, target 150, trick points add up to 25. Sides: 0 = Ann & Cy, 1 = Bo & Di.
CLASSIC_WON = {
    "variant": "classic",
    "settings": {},
    "hands": [
        # Ann bids 30: 18 + 13 = 31 made, +31; Bo & Di 9 + 12 = +21.          totals 31, 21
        {"bidder": 0, "bid": 30, "trump": "H", "meld": [18, 9], "tricks": [13, 12]},
        # Bo bids 25: 12 + 10 = 22 short, −25; Ann & Cy 10 + 15 = +25.        totals 56, −4
        {"bidder": 1, "bid": 25, "trump": "S", "meld": [10, 12], "tricks": [15, 10]},
        # Cy bids 40: 20 + 25 = 45 made; Bo & Di took no trick, so 0.         totals 101, −4
        {"bidder": 2, "bid": 40, "trump": "D", "meld": [20, 4], "tricks": [25, 0]},
        # Di bids 21: 14 + 13 = 27 made; Ann & Cy 30 + 12 = +42.              totals 143, 23
        {"bidder": 3, "bid": 21, "trump": "C", "meld": [30, 14], "tricks": [12, 13]},
        # Ann bids 22: 8 + 16 = 24 made; Bo & Di 6 + 9 = +15.                totals 167, 38: Ann & Cy win
        {"bidder": 0, "bid": 22, "trump": "H", "meld": [8, 6], "tricks": [16, 9]},
    ],
}
CLASSIC_WON_TOTALS = [[31, 21], [56, -4], [101, -4], [143, 23], [167, 38]]

# classic in progress, seated Bo, Ann, Di, Cy: side 0 = Bo & Di, side 1 = Ann & Cy.
CLASSIC_PLAYING = {
    "variant": "classic",
    "settings": {"target": 50},
    "hands": [
        # Ann (seat 1) bids 20: 15 + 15 = 30 made, +30; Bo & Di 5 + 10 = +15.
        {"bidder": 1, "bid": 20, "trump": "S", "meld": [5, 15], "tricks": [10, 15]},
    ],
}

# RULES.md §9.3's double-deck record, scored in §9.4: [52, −55] then [−50, 26]; totals 2, −29.
DOUBLE_DECK_SET = {
    "variant": "double-deck",
    "settings": {"bidder_out": True},
    "hands": [
        {"bidder": 1, "bid": 55, "trump": "H", "meld": [24, 31], "tricks": [28, 22]},
        {"bidder": 2, "bid": 50, "trump": None, "meld": [0, 26], "tricks": None},
    ],
}


def make_user(username: str) -> User:
    return User.objects.create_user(username=username)  # tests log in with force_login


def make_household(user: User, name: str = "The Smiths") -> Household:
    household = household_create(user=user, name=name)
    for player in ROSTER:
        player_create(household=household, name=player)
    return household


def import_game(household: Household, record: dict, seated: tuple[str, ...]) -> Game:
    players = {player.name: player for player in household.players.all()}
    return game_import(household=household, data=record, seats=[players[name] for name in seated])


def three_games(household: Household) -> dict[str, Game]:
    """Classic won by Ann & Cy, classic in progress (Ann & Cy against Bo & Di), double-deck in progress."""
    return {
        "won": import_game(household, CLASSIC_WON, ("Ann", "Bo", "Cy", "Di")),
        "playing": import_game(household, CLASSIC_PLAYING, ("Bo", "Ann", "Di", "Cy")),
        "double": import_game(household, DOUBLE_DECK_SET, ("Ann", "Bo", "Cy", "Ed")),
    }


def household_pages(household: Household, games: dict[str, Game]) -> list[str]:
    """Every page and export that shows a household's stored games: where a bad stored value shows."""
    from django.urls import reverse

    return [
        reverse("home"),
        reverse("household", args=[household.pk]),
        reverse("history", args=[household.pk]),
        reverse("statistics", args=[household.pk]),
        reverse("household_csv", args=[household.pk]),
        reverse("household_backup", args=[household.pk]),
        *(reverse("game", args=[game.pk]) for game in games.values()),
        *(reverse("game_export", args=[game.pk]) for game in games.values()),
    ]


# A club hand, classic: seat 0 bids 20 in hearts, its side melds 10 and takes 15 of the 25 trick points.
CLUB_MADE = {"bidder": 0, "bid": 20, "trump": "H", "meld": [10, 5], "tricks": [15, 10]}
# The same hand as a table phone's form posts it, the other side's tricks left blank.
CLUB_HAND_FORM = {
    "bidder": "0",
    "bid": "20",
    "trump": "H",
    "meld_0": "10",
    "meld_1": "5",
    "tricks_0": "15",
    "tricks_1": "",
}


def numbered_pairs(count: int, prefix: str = "P") -> list[list[str]]:
    """``count`` pairs of newcomers, "P0a & P0b", "P1a & P1b", …"""
    return [[f"{prefix}{n}a", f"{prefix}{n}b"] for n in range(count)]


def club_check_in(event: ClubEvent, pairs: Sequence[Sequence[str]]) -> ClubEvent:
    """Each pair of newcomer names checked in as a team, in order; the event as it is now."""
    for pair in pairs:
        event = ClubEvent.objects.get(pk=event.pk)
        entrant_check_in(event=event, version=event.version, newcomers=list(pair))
    return ClubEvent.objects.get(pk=event.pk)


def club_event(
    household: Household,
    director: User,
    *,
    pairs: Sequence[Sequence[str]] = (),
    started: bool = False,
    **values: Any,
) -> ClubEvent:
    """A classic teams event named "Tuesday" of two rounds (``values`` change any of these), with
    ``pairs`` checked in and, if ``started``, round 1 begun."""
    settings: dict[str, Any] = {
        "name": "Tuesday",
        "variant_id": "classic",
        "overrides": {},
        "format": "teams",
        "rounds": 2,
    }
    created = event_create(household=household, director=director, **{**settings, **values})
    event = club_check_in(created, pairs)
    if started:
        round_start(event=event, version=event.version)
        event = ClubEvent.objects.get(pk=event.pk)
    return event


def club_hand(
    table: ClubTable,
    *,
    number: int = 0,
    data: dict[str, Any] = CLUB_MADE,
    phone: str = "p1",
    entry_key: str | None = None,
    **sent: int,
) -> TableHand:
    """Hand ``number`` entered on side 0's phone for ``table`` (its own round and table number,
    unless ``sent`` says another)."""
    addressed = {"round_number": table.round.number, "table_number": table.number, "side": 0, **sent}
    return table_hand_record(
        table=table, number=number, data=data, phone=phone, entry_key=entry_key, **addressed
    ).table_hand


def club_night(household: Household, director: User) -> TableHand:
    """A club event of ``household`` with round 1 started and a hand entered at its one table."""
    event = club_event(household, director, pairs=[["N1", "N2"], ["E1", "E2"]], started=True)
    return club_hand(ClubTable.objects.get(round__event=event), entry_key="k")
