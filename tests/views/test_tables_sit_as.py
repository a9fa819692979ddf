"""A household's member opens its table's link and sits as their roster player with one tap
("Sit as Cy", a POST naming the seat and the table's version); everyone else types a name."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.models import TableSeat
from scorepad.services.households import player_claim
from scorepad.services.tables import table_take_seat
from tests.services.test_household_table_seats import hands_played
from tests.services.test_household_tables import play_hand, roster_player, smiths_table
from tests.services.test_tables import deal_next_hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


@pytest.fixture
def cy_phone(household, django_user_model) -> Client:
    """Cy's phone, signed in as a member of the Smiths who has not yet said which player he is."""
    account = django_user_model.objects.create_user(username="cyrus")
    household.members.add(account)
    phone = Client()
    phone.force_login(account)
    return phone


def test_a_member_says_i_am_cy_on_the_household_page(household, cy_phone):
    page = cy_phone.get(reverse("household", args=[household.pk])).content.decode()
    assert "Which player are you?" in page
    assert "I am Cy" in page
    cy = roster_player(household, "Cy")
    done = cy_phone.post(reverse("player_me", args=[household.pk, cy.pk]), {"mine": "1"}, follow=True)
    page = done.content.decode()
    assert "You sit as <strong>Cy</strong>" in page
    assert "Cy (you)" in page
    assert "I am Cy" not in page
    cy.refresh_from_db()
    assert cy.account is not None
    assert cy.account.username == "cyrus"


def test_a_linked_member_sits_as_their_player_with_one_tap(household, ann, cy_phone):
    player_claim(player=roster_player(household, "Cy"), user=_account(cy_phone), mine=True)
    table = smiths_table(household, ann)
    join = reverse("table_join", args=[table.link_token])
    page = cy_phone.get(join).content.decode()
    assert "Sit as Cy" in page
    assert f'name="version" value="{table.version}"' in page
    assert table.seats.get(seat=2).kind == TableSeat.OPEN  # nobody is seated by opening the link
    sat = cy_phone.post(reverse("table_sit_as", args=[table.link_token, 2]), {"version": table.version})
    assert sat.status_code == 302
    assert sat["Location"] == reverse("table_play", args=[table.pk])
    row = table.seats.get(seat=2)
    assert (row.kind, row.name, row.user_id) == (TableSeat.PERSON, "Cy", _account(cy_phone).pk)
    assert cy_phone.get(sat["Location"]).status_code == 200  # his seat's screen
    assert cy_phone.get(join)["Location"] == reverse("table_play", args=[table.pk])  # he sits there


def test_a_stale_or_repeated_tap_is_refused_in_words(household, ann, cy_phone):
    player_claim(player=roster_player(household, "Cy"), user=_account(cy_phone), mine=True)
    table = smiths_table(household, ann)
    sit = reverse("table_sit_as", args=[table.link_token, 2])
    stale = cy_phone.post(sit, {"version": table.version - 1})
    assert stale.status_code == 409
    assert "The table moved on while you chose (nothing was changed)" in stale.content.decode()
    assert "Sit as Cy" in stale.content.decode()  # the page as it is now, with the button again
    assert cy_phone.post(sit, {"version": table.version}).status_code == 302
    again = cy_phone.post(sit, {"version": table.version})
    assert again.status_code == 409
    assert "You already sit in seat 3 at this table." in again.content.decode()
    assert cy_phone.post(sit, {"version": "x"}).status_code == 409  # no version: words, never a 500


def test_an_unlinked_member_or_a_guest_gets_no_such_button(household, ann, cy_phone):
    table = smiths_table(household, ann)
    join = reverse("table_join", args=[table.link_token])
    for phone in (cy_phone, Client()):
        page = phone.get(join).content.decode()
        assert "Sit as" not in page
        assert "Sit here" in page
    refused = cy_phone.post(reverse("table_sit_as", args=[table.link_token, 2]), {"version": table.version})
    assert refused.status_code == 409
    assert "Your account is not one of this household" in refused.content.decode()
    assert table.seats.get(seat=2).kind == TableSeat.OPEN


def test_the_game_page_names_who_played_each_hand(household, ann, member):
    """Di sat down in a bot's seat after two hands: the game's page says so, and names her as the
    dealer of the hands she dealt from then on, the bot before."""
    table = smiths_table(household, ann)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    table = hands_played(table, 2)
    table_take_seat(table=table, seat=1, name="Di", user=None, holding=None)
    for _ in range(3):
        table = play_hand(deal_next_hand(table=table, seat=0, version=table.version))
    page = member.get(reverse("game", args=[table.game_id])).content.decode()
    assert "From hand 3, Di (guest) played seat 2 in place of Bot (heuristic)." in page
    dealt = re.findall(r'<td>(\d+)<small class="dealt" title="dealer">([^<]+)</small>', page)
    assert len(dealt) == 5
    for number, dealer in dealt:
        assert dealer != ("Di (guest)" if int(number) <= 2 else "Bot (heuristic)")
    assert any(dealer == "Di (guest)" for _, dealer in dealt)
    listed = member.get(reverse("history", args=[household.pk])).content.decode()
    assert "Di (guest) &amp; Bot (heuristic) 2" in listed  # the game's sides as they sat at its end


def _account(phone: Client):
    from django.contrib.auth import get_user

    return get_user(phone)
