"""Every household page survives any value already stored: dates at the ends of what the database
and Python hold, names at their longest and oddest. Written straight to the database, past every
check, as an old version or a hand-edited row may have left them."""

from datetime import UTC, datetime, timedelta

import pytest

from scorepad.models import Game, Household, Player
from tests.sample_games import household_pages, make_household, make_user, three_games

pytestmark = pytest.mark.django_db

EARLIEST = datetime(1, 1, 2, tzinfo=UTC)  # a day inside year 1, so a zone's offset still reads it
LATEST = datetime(9999, 12, 30, 23, 59, 59, tzinfo=UTC)
ODD_NAMES = [
    "W" * 40,
    "\u202eevil\u202c",  # a right-to-left override
    "<b>Al</b> & {{ x }} 100% %s",
    "\u200b",  # a zero-width space: looks empty
    "🂡" * 40,
]


@pytest.fixture
def stored(client):
    user = make_user("ann")
    client.force_login(user)
    household = make_household(user)
    games = three_games(household)
    Household.objects.filter(pk=household.pk).update(created_at=EARLIEST, name="H" * 80)
    Game.objects.filter(pk=games["won"].pk).update(created_at=EARLIEST)
    Game.objects.filter(pk=games["playing"].pk).update(created_at=LATEST)
    Game.objects.filter(pk=games["double"].pk).update(created_at=LATEST - timedelta(days=1))
    for player, name in zip(household.players.order_by("pk"), ODD_NAMES, strict=False):
        Player.objects.filter(pk=player.pk).update(name=name)
    return household, games


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Kiritimati", "Etc/GMT+12"])
def test_every_household_page_survives_the_worst_stored_values(client, settings, stored, zone):
    settings.TIME_ZONE = zone
    household, games = stored
    urls = household_pages(household, games)
    client.raise_request_exception = False
    answers = {url: client.get(url).status_code for url in urls}
    assert answers == dict.fromkeys(urls, 200)
