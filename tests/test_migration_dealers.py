"""Migration 0004 stores each old hand's dealer as RULES §8 gave it: (first dealer + number) mod seats."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scorepad", "0003_scoreboard_links")]
AFTER = [("scorepad", "0004_scorepad_corrections")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.slow
def test_old_hands_keep_the_dealers_the_rotation_gave_them():
    apps = migrate(BEFORE)
    household = apps.get_model("scorepad", "Household").objects.create(name="Smiths")
    Game = apps.get_model("scorepad", "Game")
    Hand = apps.get_model("scorepad", "Hand")
    six = Game.objects.create(household=household, variant="six-handed", first_dealer=4)
    classic = Game.objects.create(household=household, variant="classic", first_dealer=3)
    for game, hands in ((six, 4), (classic, 3)):
        for number in range(hands):
            Hand.objects.create(game=game, number=number, bidder=0, bid=50, trump="H", meld=[0], tricks=None)
    apps = migrate(AFTER)
    stored = apps.get_model("scorepad", "Hand").objects.order_by("number")
    assert list(stored.filter(game_id=six.pk).values_list("dealer", flat=True)) == [4, 5, 0, 1]
    assert list(stored.filter(game_id=classic.pk).values_list("dealer", flat=True)) == [3, 0, 1]
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # back to the latest for the next test
