"""A card played at a private table costs one read of the table, one parse of its state and one
store: counted (queries, parses, serialisations), never timed."""

from __future__ import annotations

import sys

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorepad import bot_pool
from scorepad.engine import game as engine_game
from scorepad.engine.game import from_json
from scorepad.models import PrivateTable
from tests.services.test_tables import form_for
from tests.views.test_tables import HTMX, open_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


@pytest.fixture
def counted(monkeypatch) -> dict[str, int]:
    """How often the table's state is parsed (``from_json``) and serialised (``to_json``), wherever
    the project calls them from."""
    counts = {"from_json": 0, "to_json": 0}
    for name in counts:
        real = getattr(engine_game, name)

        def counting(*args, _real=real, _name=name, **kwargs):
            counts[_name] += 1
            return _real(*args, **kwargs)

        for module in [m for key, m in sys.modules.items() if key.startswith("scorepad") and m is not None]:
            if getattr(module, name, None) is real:
                monkeypatch.setattr(module, name, counting)
    return counts


def _table_writes(queries: list[dict[str, str]]) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith("UPDATE") and "privatetable" in q["sql"]]


def _table_reads(queries: list[dict[str, str]], table: str) -> list[str]:
    return [
        q["sql"] for q in queries if q["sql"].startswith("SELECT") and f'FROM "scorepad_{table}"' in q["sql"]
    ]


def _post_a_card(
    phone, table: PrivateTable, counted: dict[str, int], seat: int = 0
) -> tuple[dict[str, int], list[dict[str, str]]]:
    """``seat``'s card, posted as htmx does: what it cost (parses, serialisations; queries)."""
    form = {**form_for(table, seat), "version": str(table.version)}
    counted.update(from_json=0, to_json=0)
    with CaptureQueriesContext(connection) as queries:
        response = phone.post(reverse("table_act", args=[table.pk]), form, **HTMX)
    cost = dict(counted)
    assert response.status_code == 200
    assert 'id="screen"' in response.content.decode()  # the phone's screen, drawn
    return cost, queries.captured_queries


def test_a_card_answered_by_bots_at_once_reads_parses_and_stores_the_table_once(counted):
    table, phones = open_table(bots=3)  # the host, and three bots of rules of thumb
    table = PrivateTable.objects.get(pk=table.pk)
    assert from_json(table.state).to_act == 0
    cost, queries = _post_a_card(phones[0], table, counted)
    assert cost == {"from_json": 1, "to_json": 1}
    assert len(_table_reads(queries, "privatetable")) == 1  # the table's row and its seats, once
    assert len(_table_reads(queries, "tableseat")) == 1
    assert len(_table_writes(queries)) == 1  # the card and the bots' answers together
    assert len(queries) <= 6  # with the messages, and the write's transaction
    stored = PrivateTable.objects.get(pk=table.pk)
    assert from_json(stored.state).to_act == 0  # the bots answered, back to the host
    assert stored.version == table.version + 1  # at one version


def test_a_card_answered_by_searching_bots_is_stored_then_their_answer(counted, monkeypatch):
    # Bots that search answer in the bot process (here, in this thread: no processes in tests):
    # the card is stored and told first. Their state crosses as JSON: written once by the table
    # and once by the bots, parsed by each side; the table is still read once.
    table, phones = open_table(bots=3)
    table = PrivateTable.objects.get(pk=table.pk)
    monkeypatch.setattr(bot_pool, "answers_at_once", lambda strengths: False)
    cost, queries = _post_a_card(phones[0], table, counted)
    assert cost == {"from_json": 3, "to_json": 2}
    assert len(_table_reads(queries, "privatetable")) == 1
    assert len(_table_reads(queries, "tableseat")) == 1
    assert len(_table_writes(queries)) == 2
    assert len(queries) <= 9  # two writes, each in its transaction
    assert PrivateTable.objects.get(pk=table.pk).version == table.version + 2


def test_a_card_at_a_table_of_people_reads_parses_and_stores_once(counted):
    table, phones = open_table()  # a person in every seat
    table = PrivateTable.objects.get(pk=table.pk)
    seat = from_json(table.state).to_act
    cost, queries = _post_a_card(phones[seat], table, counted, seat)
    assert cost == {"from_json": 1, "to_json": 1}
    assert len(_table_reads(queries, "privatetable")) == 1
    assert len(_table_reads(queries, "tableseat")) == 1
    assert len(_table_writes(queries)) == 1
    assert len(queries) <= 6


def test_the_next_hand_dealt_reads_parses_and_stores_once(counted):
    table, phones = open_table(bots=3)
    table = PrivateTable.objects.get(pk=table.pk)
    while from_json(table.state).result is None:  # the host plays the hand out with the bots
        form = {**form_for(table, 0), "version": str(table.version)}
        assert phones[0].post(reverse("table_act", args=[table.pk]), form, **HTMX).status_code == 200
        table = PrivateTable.objects.get(pk=table.pk)
    counted.update(from_json=0, to_json=0)
    with CaptureQueriesContext(connection) as queries:
        response = phones[0].post(reverse("table_next", args=[table.pk]), {"version": table.version}, **HTMX)
    cost = dict(counted)
    assert response.status_code == 200
    assert cost == {"from_json": 1, "to_json": 1}
    assert len(_table_reads(queries.captured_queries, "privatetable")) == 1
    assert len(_table_reads(queries.captured_queries, "tableseat")) == 1
    assert len(_table_writes(queries.captured_queries)) == 1  # the deal and the bots' answers
    assert len(queries.captured_queries) <= 6
    assert from_json(PrivateTable.objects.get(pk=table.pk).state).hand_number == 1
