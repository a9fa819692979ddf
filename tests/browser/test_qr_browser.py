"""Every QR code the app draws, as the browser shows it on its page, is read by a real decoder
(zxing-cpp) and leads where it says: a private table's invitation and a club night's table card."""

import io

import pytest
import zxingcpp
from django.urls import reverse
from PIL import Image
from playwright.sync_api import Locator, Page, expect

from scorepad.models import ClubTable
from scorepad.services.households import household_create
from tests.helpers import with_session
from tests.sample_games import club_event
from tests.views.test_tables import open_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def read_qr(image: Locator) -> str:
    """What a phone's camera would read from ``image`` as drawn on the screen."""
    expect(image).to_be_visible()
    drawn = image.evaluate("img => img.complete && img.naturalWidth")
    assert drawn, "the browser drew the QR code at zero width"
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.screenshot())))
    assert [code.format for code in found] == [zxingcpp.BarcodeFormat.QRCode]
    return found[0].text


def test_a_private_tables_invitation_qr_code_reads_as_its_link_and_opens_the_join_page(
    live_server, page: Page, new_phone
):
    table, (host, *_) = open_table(bots=2)
    cookie = f"table-{table.pk}"
    page.context.add_cookies([{"name": cookie, "value": host.cookies[cookie].value, "url": live_server.url}])
    page.goto(live_server.url + reverse("table_play", args=[table.pk]))
    page.locator("details.invite summary").click()

    link = read_qr(page.get_by_alt_text("QR code of the table's link"))

    assert link == live_server.url + reverse("table_join", args=[table.link_token])
    friend = new_phone().new_page()
    friend.goto(link)
    expect(friend.get_by_role("heading", level=1)).to_have_text(f"Table {table.code}")
    expect(friend.locator(".join-seats")).to_contain_text("Seat 1: Ann")


def test_a_club_tables_qr_code_reads_as_its_link_and_asks_for_the_pin(
    live_server, page: Page, django_user_model
):
    director = django_user_model.objects.create_user(username="dee")
    event = club_event(
        household_create(user=director, name="The club"),
        director,
        pairs=[["Ann", "Cy"], ["Bo", "Di"]],
        started=True,
    )
    with_session(page.context, live_server, director)
    table = ClubTable.objects.get(round__event=event)
    page.goto(live_server.url + reverse("club_tables", args=[event.pk]))

    link = read_qr(page.get_by_alt_text(f"QR code of table {table.number}'s link"))

    assert link == live_server.url + reverse("club_table", args=[table.token])
    page.goto(link)
    expect(page.get_by_label("Table PIN")).to_be_visible()
