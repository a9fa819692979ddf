"""A new game at the same table once a side has won (``table_rematch``): everyone stays in their
seat, the scores start at nought, and a household's scorepad gets one new game, never two."""

from __future__ import annotations

import pytest
from django.db.models import F

from scorepad.engine.game import from_json
from scorepad.models import Game, PrivateTable
from scorepad.services import tables as service
from scorepad.services.tables import (
    NOT_OVER,
    STALE,
    TableRefused,
    table_rematch,
    table_take_seat,
)
from tests.services.test_household_tables import smiths_table
from tests.services.test_tables import deal_next_hand, play

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


def finished_table(household, ann) -> PrivateTable:
    table = smiths_table(household, ann, target=10)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    while True:
        while from_json(table.state).result is None:
            table = play(table, from_json(table.state).to_act)
        table.refresh_from_db()
        if table.finished:
            return table
        table = deal_next_hand(table=table, seat=0, version=table.version)


def test_a_game_not_over_is_refused_in_words(household, ann):
    table = smiths_table(household, ann)
    with pytest.raises(TableRefused, match=NOT_OVER):
        table_rematch(table=table, seat=0, version=table.version)


def test_a_rematch_that_lost_the_race_starts_no_scorepad_game(household, ann, monkeypatch):
    table = finished_table(household, ann)
    games = Game.objects.count()
    current = service._current

    def moved_on_meanwhile(table, version):  # another phone's rematch lands between read and write
        read = current(table, version)
        PrivateTable.objects.filter(pk=table.pk).update(version=F("version") + 1)
        return read

    monkeypatch.setattr(service, "_current", moved_on_meanwhile)
    with pytest.raises(TableRefused, match=STALE[:20]):
        table_rematch(table=table, seat=0, version=table.version)
    assert Game.objects.count() == games  # the new game's start was rolled back with the write
    assert PrivateTable.objects.get(pk=table.pk).finished


def test_a_rematch_deals_a_new_game_to_the_same_seats_once(household, ann):
    table = finished_table(household, ann)
    seed, game = table.seed, table.game_id
    again = table_rematch(table=table, seat=2, version=table.version)  # any person at the table
    assert again.seed != seed
    assert again.game_id != game
    assert from_json(again.state).totals == (0, 0)
    with pytest.raises(TableRefused):
        table_rematch(table=table, seat=0, version=table.version)  # the same tap again
    assert Game.objects.filter(household=household).count() == 2


def test_a_rematch_is_due_for_the_tables_clock_when_the_bots_are_busy(household, ann, monkeypatch):
    table = finished_table(household, ann)
    assert table.due_at is None  # a finished game waits for a person

    def busy(*args, **kwargs):
        raise service.bot_pool.BotsBusy

    monkeypatch.setattr(service.bot_pool, "table_play_on", busy)
    again = table_rematch(table=table, seat=0, version=table.version)
    again.refresh_from_db()
    assert again.due_at is not None  # at a bot's turn soon, at a person's by the grace's end
