"""A household's member opens the table's invitation link on a phone and sits as their roster player
with one tap ("Sit as Cy"): their seat's screen, their name at their seat."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from scorepad.services.households import player_claim
from tests.helpers import watch_console, with_session
from tests.services.test_household_tables import roster_player, smiths_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


@pytest.mark.parametrize("size", [{"width": 375, "height": 812}, {"width": 320, "height": 568}])
def test_a_member_taps_sit_as_and_sees_their_seat(
    live_server, new_phone: Callable[..., BrowserContext], household, ann, django_user_model, size
):
    cy = django_user_model.objects.create_user(username="cyrus")
    household.members.add(cy)
    player_claim(player=roster_player(household, "Cy"), user=cy, mine=True)
    table = smiths_table(household, ann)
    phone = with_session(new_phone(viewport=size), live_server, cy).new_page()
    errors = watch_console(phone)
    phone.goto(f"{live_server.url}/tables/join/{table.link_token}/")
    button = phone.get_by_role("button", name="Sit as Cy")
    expect(button).to_be_visible()
    assert table.seats.get(seat=2).kind == "open"  # opening the link seats nobody
    box = button.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= size["width"]  # the whole button on the phone's screen
    button.tap()
    expect(phone.locator("#screen")).to_be_visible()
    expect(phone.locator(".seat.me .seat-name")).to_contain_text("3. Cy (you)")
    assert table.seats.get(seat=2).user == cy
    assert errors == []
