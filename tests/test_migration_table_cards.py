"""Migrations 0016–0017 give an event already under way one card per table number: the link, PIN
and unlock count of the table's latest round (the one its phones hold), and every round's table of
that number under it."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scorepad", "0015_club_trail_phones")]
AFTER = [("scorepad", "0017_club_table_cards_only")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_an_event_under_way_keeps_its_latest_links_and_pins_one_per_table():
    director = User.objects.create(username="dee")
    apps = migrate(BEFORE)
    household = apps.get_model("scorepad", "Household").objects.create(name="Club")
    Game = apps.get_model("scorepad", "Game")
    event = apps.get_model("scorepad", "ClubEvent").objects.create(
        household=household,
        director_id=director.pk,
        name="Friday",
        variant="classic",
        format="teams",
        rounds=2,
    )
    Round = apps.get_model("scorepad", "ClubRound")
    Table = apps.get_model("scorepad", "ClubTable")
    made = {}
    for number in (1, 2):
        club_round = Round.objects.create(event=event, number=number)
        for table in (1, 2):
            game = Game.objects.create(household=household, variant="classic", first_dealer=0)
            made[number, table] = Table.objects.create(
                round=club_round,
                number=table,
                game=game,
                token=f"tok-{number}-{table}",
                pin=f"{number}{table}00",
                pin_unlocks=number,
            )
    apps = migrate(AFTER)
    Card = apps.get_model("scorepad", "ClubTableCard")
    cards = {card.number: card for card in Card.objects.filter(event_id=event.pk)}
    assert {n: (c.token, c.pin, c.pin_unlocks) for n, c in cards.items()} == {
        1: ("tok-2-1", "2100", 2),
        2: ("tok-2-2", "2200", 2),
    }
    tables = apps.get_model("scorepad", "ClubTable").objects.all()
    assert {(t.round.number, t.number): t.card_id for t in tables} == {key: cards[key[1]].pk for key in made}
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # back to the latest for the next test
