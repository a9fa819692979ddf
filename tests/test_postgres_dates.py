"""Dates PostgreSQL holds but Python cannot (pinochle_site/postgres.py): a page that loads one
answers, showing the nearest date Python holds, instead of a 500 for good."""

from datetime import UTC, datetime

import pytest
from django.db import connection

from scorepad.models import Game, Household
from tests.sample_games import household_pages, make_household, make_user, three_games

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite keeps no date Python cannot read"),
]

# What a crafted backup once stored: year 0 and year 10000 once their zones are applied.
BEFORE_YEAR_1 = "0001-01-01T00:30:00+01:00"
AFTER_YEAR_9999 = "9999-12-31T23:59:59-14:00"


def store_created_at(table: str, pk: int, value: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET created_at = %s::timestamptz WHERE id = %s", [value, pk])


def test_dates_python_cannot_hold_are_read_as_its_first_and_last(client):
    user = make_user("ann")
    household = make_household(user)
    games = three_games(household)
    store_created_at(Game._meta.db_table, games["won"].pk, BEFORE_YEAR_1)
    store_created_at(Game._meta.db_table, games["playing"].pk, AFTER_YEAR_9999)
    store_created_at(Household._meta.db_table, household.pk, BEFORE_YEAR_1)

    assert Game.objects.get(pk=games["won"].pk).created_at == datetime.min.replace(tzinfo=UTC)
    assert Game.objects.get(pk=games["playing"].pk).created_at == datetime.max.replace(tzinfo=UTC)

    client.force_login(user)
    client.raise_request_exception = False
    urls = household_pages(household, games)
    assert {url: client.get(url).status_code for url in urls} == dict.fromkeys(urls, 200)
