"""A club confirmation scores its table's game once: the confirming phone's page and the room's
standings share that scoring. Counted (calls of the one scorer), never timed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.models import ClubRound, TableHand
from scorepad.selectors.club_director import live_standings, standings_token_of
from scorepad.services.clubs import round_start
from scorepad.views.club_director import streamed_standings
from tests.sample_games import CLUB_HAND_FORM, club_event, numbered_pairs

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def roster():
    return ()


def _phone(table, side: int) -> Client:
    phone = Client()
    assert (
        phone.post(reverse("club_table", args=[table.token]), {"pin": table.pin, "side": side}).status_code
        == 302
    )
    return phone


def test_a_confirmation_scores_its_tables_game_once_for_the_phone_and_the_standings(household, ann, scored):
    event = club_event(household, ann, pairs=numbered_pairs(4), rounds=3)
    round_start(event=event, version=event.version)
    event.refresh_from_db()
    table = ClubRound.objects.get(event=event, number=1).tables.order_by("number")[0]
    north_south, east_west = _phone(table, 0), _phone(table, 1)
    url = f"{reverse('club_table_hand', args=[table.token])}?round=1&table={table.number}"
    data = {**CLUB_HAND_FORM, "number": "0", "dealer": "0", "entry_key": "entrykey01", "save": "1"}
    assert north_south.post(url, data).status_code == 302
    token = standings_token_of(event)
    before = live_standings(event)  # the room's screens show the standings before the confirmation
    assert streamed_standings(token) is not None
    entered = TableHand.objects.get(table=table)
    del scored[:]

    confirm = {"table_hand": entered.pk, "version": entered.version}
    response = east_west.post(reverse("club_table_confirm", args=[table.token]), confirm, **HTMX)
    assert response.status_code == 200
    after = streamed_standings(token)  # a server's feed reads the standings once the change is told
    live = Client().get(reverse("club_standings_live", args=[token]))  # a screen loading the page

    assert TableHand.objects.get(pk=entered.pk).state == "confirmed"
    assert after is not None
    assert live.status_code == 200
    assert live_standings(event).rows != before.rows  # the confirmed hand counts
    assert scored == [1]  # the table's one hand, scored once for the phone and the standings
