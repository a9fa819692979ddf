"""Opening a private table for a household from its page: the roster in the seats, the table's
hands in the household's history."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.engine.game import from_json
from scorepad.models import Game, PrivateTable
from scorepad.services.households import household_create
from tests.services.test_household_tables import play_hand
from tests.views.test_tables import form_defaults

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


def household_form(client: Client, household_id: int, variant_id: str = "classic") -> dict[str, str]:
    """The start form as shown for the household: the roster's first players preselected."""
    shown = client.get(reverse("tables_new"), {"variant": variant_id, "household": household_id})
    form = shown.context["form"]
    values = {name: form[name].value() for name in form.fields}
    data = {name: str(value) for name, value in values.items() if value is not None and value is not False}
    return data | {"variant": variant_id, "household": str(household_id)}


def test_the_household_page_offers_a_table_for_the_household(member, household):
    page = member.get(reverse("household", args=[household.pk])).content.decode()
    assert f'href="{reverse("tables_new")}?household={household.pk}"' in page
    assert "Play together online" in page


def test_the_form_seats_the_roster_and_its_hands_land_in_the_households_history(member, household):
    page = member.get(reverse("tables_new"), {"household": household.pk}).content.decode()
    assert "You are" in page
    assert '<option value="player:' in page
    assert ">Flo</option>" in page  # every roster name is a seat choice
    ids = {p.name: p.pk for p in household.players.all()}
    form = household_form(member, household.pk) | {
        "seat_0": f"player:{ids['Ann']}",
        "seat_1": "bot:heuristic",
        "seat_2": f"player:{ids['Cy']}",
        "seat_3": "bot:heuristic",
    }
    response = member.post(reverse("tables_new"), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    table = PrivateTable.objects.get()
    assert table.household_id == household.pk
    join = Client().get(reverse("table_join", args=[table.link_token])).content.decode()
    assert "saved for Cy" in join
    cy = Client()
    taken = cy.post(reverse("table_take", args=[table.link_token, 2]), {"name": "cy"})
    assert taken.status_code == 302
    assert "Cy" in cy.get(reverse("table_play", args=[table.pk])).content.decode()
    table = play_hand(table)
    totals = table.hands[-1]["totals"]
    history = member.get(reverse("history", args=[household.pk])).content.decode()
    assert reverse("game", args=[table.game_id]) in history
    assert "Ann &amp; Cy" in history
    game = member.get(reverse("game", args=[table.game_id])).content.decode()
    for total in totals:
        assert str(total) in game
    statistics = member.get(reverse("statistics", args=[household.pk])).content.decode()
    assert "Cy" in statistics
    assert Game.objects.get().hands.count() == 1 == len(table.hands)
    assert from_json(table.state).result is not None


def test_a_household_not_ones_own_is_refused_in_words_and_opens_nothing(member, household, django_user_model):
    bob = django_user_model.objects.create_user(username="bob")
    theirs = household_create(user=bob, name="The Joneses")
    form = form_defaults(member, "classic") | {"host_name": "Ann", "household": str(theirs.pk)}
    form |= {f"seat_{seat}": "bot:heuristic" for seat in range(1, 4)}
    response = member.post(reverse("tables_new"), form)
    assert response.status_code == 200
    assert "only for a household you belong to" in response.content.decode()
    assert "The Joneses" not in response.content.decode()
    assert not PrivateTable.objects.exists()
    assert not Game.objects.exists()


def test_six_handed_seats_six_of_the_roster_each_for_themselves(member, household):
    ids = [p.pk for p in household.players.all()]
    form = household_form(member, household.pk, "six-handed")
    assert [form[f"seat_{seat}"] for seat in range(6)] == [f"player:{pk}" for pk in ids]
    response = member.post(reverse("tables_new"), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    assert [seat.player_id for seat in game.seats.all()] == ids
    assert game.variant == "six-handed"


def test_a_household_with_no_players_is_told_to_add_the_host_first(member, ann):
    empty = household_create(user=ann, name="The Newlyweds")
    form = form_defaults(member, "classic") | {"household": str(empty.pk)}
    response = member.post(reverse("tables_new"), form)
    assert response.status_code == 200
    assert "Add yourself to The Newlyweds&#x27;s players first." in response.content.decode()
    assert not PrivateTable.objects.exists()
