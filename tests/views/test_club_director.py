"""Club night, the director's pages: progress, clock, corrections with their trail, the room's live
standings (a 204 while nothing changed), prizes, score sheets and CSV; and the table phone's clock
and offline outbox. Bad input is answered in words and changes nothing."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from scorepad.models import ClubEvent, ClubRound, ClubTable, Correction, TableHand
from scorepad.selectors.club_director import (
    event_id_of_standings_token,
    standings_fingerprint,
    standings_token_of,
)
from scorepad.services.clubs import round_close, round_start, table_hand_confirm
from tests.sample_games import CLUB_HAND_FORM, CLUB_MADE, club_event, club_hand, make_user, numbered_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return ()


@pytest.fixture(autouse=True)
def _fingerprints_read_every_time(monkeypatch):
    """A poll reads the standings' fingerprint afresh (in production it is shared for a moment)."""
    monkeypatch.setattr("scorepad.selectors.club_director.FINGERPRINT_SECONDS", 0)


def _fresh(event):
    return ClubEvent.objects.get(pk=event.pk)


@pytest.fixture
def event(household, ann):
    return club_event(household, ann, pairs=numbered_pairs(2), started=True)


@pytest.fixture
def table(event):
    return ClubTable.objects.get(round__event=event)


def _enter(table, number=0, data=CLUB_MADE):
    return club_hand(table, number=number, data=data, entry_key=f"k{number}")


def test_the_director_sees_every_tables_progress_and_a_stranger_sees_nothing(client, ann, event, table):
    _enter(table)
    client.force_login(ann)
    page = client.get(reverse("club_director", args=[event.pk])).content.decode()
    assert "1 of 1 tables still playing." in page
    assert "Waiting</th>" in page
    assert "<td>1</td><td>1</td>" in page
    assert "Round 1, table 1, hand 1: waiting for the other side" in page

    client.force_login(make_user("mallory"))
    assert client.get(reverse("club_director", args=[event.pk])).status_code == 404
    assert client.get(reverse("club_results_csv", args=[event.pk])).status_code == 404


def test_the_rooms_standings_need_no_account_and_answer_204_until_a_hand_is_confirmed(event, table):
    th = _enter(table)
    url = reverse("club_standings_live", args=[standings_token_of(event)])
    watcher = Client()
    page = watcher.get(url + "?big=1")
    assert page.status_code == 200
    assert 'class="big-screen"' in page.content.decode()
    since = standings_fingerprint(event.pk)
    assert watcher.get(url, {"since": since}, headers={"HX-Request": "true"}).status_code == 204

    table_hand_confirm(table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1)

    fresh = watcher.get(url, {"since": since}, headers={"HX-Request": "true"})
    assert fresh.status_code == 200
    body = fresh.content.decode()
    assert body.lstrip().startswith('<div id="live-standings"')  # the partial only
    assert 'hx-trigger="every 1s"' in body  # a screen that polls (an older page) polls on
    assert '<td class="num">25</td>' in body
    assert watcher.get(url[:-2] + "x/").status_code == 404
    assert watcher.post(url).status_code == 405  # read-only


def test_a_correction_needs_a_reason_then_rescores_and_lists_who_what_when(client, ann, event, table):
    th = _enter(table, data={**CLUB_MADE, "bid": 50})
    client.force_login(ann)
    url = reverse("club_hand_correct", args=[event.pk, th.hand_id])
    assert "Save correction" in client.get(url).content.decode()
    posted = {**CLUB_HAND_FORM, "number": "0", "version": str(th.hand.version), "dealer": "0", "save": "1"}

    refused = client.post(url, {**posted, "reason": ""})
    assert "Say why, in a few words" in refused.content.decode()
    assert not Correction.objects.exists()

    done = client.post(url, {**posted, "reason": "bid was 20"}, follow=True)
    page = done.content.decode()
    assert "Hand 1 at table 1, round 1 corrected" in page
    assert "bid 50 (P0a), hearts, meld 10/5, tricks 15/10, not confirmed → bid 20 (P0a)" in page
    assert "“bid was 20”" in page
    assert "by ann" in page
    assert TableHand.objects.get(pk=th.pk).state == TableHand.State.CONFIRMED

    again = client.post(url, {**posted, "reason": "again"})  # sent again: its answer was lost
    assert "Hand 1 already reads as this correction: nothing was changed." in again.content.decode()
    assert Correction.objects.count() == 1  # the trail lists it once
    stale = client.post(url, {**posted, "bid": "25", "reason": "once more"})  # another, from that page
    assert "was changed on another phone" in stale.content.decode()
    assert Correction.objects.count() == 1


def test_a_corrections_count_it_keeps_the_form_as_typed_and_its_stepper_moves_the_bid(
    client, ann, event, table
):
    th = _enter(table)
    client.force_login(ann)
    url = reverse("club_hand_correct", args=[event.pk, th.hand_id])
    posted = {**CLUB_HAND_FORM, "bid": "25", "number": "0", "version": str(th.hand.version), "dealer": "0"}

    same = client.post(url, {**posted, "count_meld": "0"})  # the director types the meld
    assert same.context["form"]["bid"].value() == "25"
    lowered = client.post(url, {**posted, "bid_step": "-"})
    assert lowered.context["form"]["bid"].value() == 24
    assert not Correction.objects.exists()


def test_a_director_on_a_second_device_carries_on_and_a_stale_page_is_refused(ann, event):
    phone, laptop = Client(), Client()
    phone.force_login(ann)
    laptop.force_login(ann)
    old = event.version
    phone.post(reverse("club_clock", args=[event.pk]), {"version": old, "minutes": "20"})
    page = laptop.post(reverse("club_clock", args=[event.pk]), {"version": old, "minutes": "5"}, follow=True)
    assert "This page is out of date" in page.content.decode()
    ends = ClubRound.objects.get(event=event).ends_at
    assert timedelta(minutes=19) < ends - timezone.now() <= timedelta(minutes=20)
    assert "the bell at" in laptop.get(reverse("club_director", args=[event.pk])).content.decode()


def test_the_table_phone_shows_the_time_left_and_keeps_offline_hands_in_the_outbox(event, table):
    ClubRound.objects.filter(event=event).update(ends_at=timezone.now() + timedelta(minutes=10, seconds=30))
    phone = Client()
    phone.post(reverse("club_table", args=[table.token]), {"pin": table.pin, "side": 0})
    page = phone.get(reverse("club_table", args=[table.token])).content.decode()
    assert "10:29 left" in page or "10:30 left" in page
    assert 'data-ends-at="' in page
    assert "js/clock.js" in page
    assert "js/outbox.js" in page
    assert 'id="outbox"' in page
    assert f'data-game-page="{reverse("club_table", args=[table.token])}"' in page
    assert 'name="entry_key"' in page
    assert "data-offline-rules=" in page


def test_prizes_print_and_csv_after_the_round(client, ann, event, table):
    th = _enter(table)
    table_hand_confirm(table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1)
    round_close(event=event, version=event.version)
    client.force_login(ann)
    final = reverse("club_final", args=[event.pk])
    version = _fresh(event).version
    client.post(final, {"version": version, "prizes": ["winners", "high_round"]})
    page = client.get(final).content.decode()
    assert "1st place</th><td>Team 1</td><td>25 points</td>" in page
    assert "High round</th><td>Team 1</td><td>25 in round 1</td>" in page
    assert "High average" not in page.split("<h2>Standings</h2>")[0]
    assert "css/club.css" in page

    results = client.get(reverse("club_results_csv", args=[event.pk]))
    assert results["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(results.content.decode())))
    assert rows == [
        ["round", "entrant number", "entrant", "players", "table", "points", "won", "bye"],
        ["1", "1", "Team 1", "P0a & P0b", "1", "25", "yes", "no"],
        ["1", "2", "Team 2", "P1a & P1b", "1", "15", "no", "no"],
    ]
    hands = list(
        csv.reader(io.StringIO(client.get(reverse("club_hands_csv", args=[event.pk])).content.decode()))
    )
    assert hands[1][:8] == ["1", "1", "1", "P0a", "P0a", "20", "hearts", "confirmed"]
    sheets = client.get(reverse("club_sheets", args=[event.pk])).content.decode()
    assert "Round 1, table 1" in sheets
    assert "hearts" in sheets


def test_delete_asks_first_and_stands_as_entered_settles_each_with_its_reason(client, ann, event, table):
    first, second = _enter(table, 0), _enter(table, 1)
    client.force_login(ann)
    delete = reverse("club_hand_delete", args=[event.pk, first.hand_id])
    assert "Delete hand 1?" in client.get(delete).content.decode()
    assert "Say why" in client.post(delete, {"version": first.hand.version, "reason": ""}).content.decode()
    client.post(delete, {"version": first.hand.version, "reason": "misdeal"})
    assert list(table.game.hands.values_list("number", "bid")) == [(0, 20)]

    second.refresh_from_db()
    settle = reverse("club_hand_settle", args=[event.pk, second.pk])
    page = client.post(settle, {"version": second.version, "reason": "both sides agree"}, follow=True)
    text = page.content.decode()
    assert "Hand 1 at table 1, round 1 stands as entered" in text
    assert "Hand 1 at table 1, round 1 deleted" in text
    assert "Hands for the director (0)" in text


def _locked_out(table, settings):
    """Wrong PINs from many places, over the table's ceiling: a new phone is refused."""
    settings.LOGIN_FAILURES_PER_ACCOUNT = (3, 3600)
    url = reverse("club_table", args=[table.token])
    wrong = "0000" if table.pin != "0000" else "1111"
    for n in range(3):
        Client().post(url, {"pin": wrong, "side": 0}, REMOTE_ADDR=f"10.9.{n}.1")
    return Client().post(url, {"pin": table.pin, "side": 0}, REMOTE_ADDR="10.1.1.1")


def test_the_director_unlocks_a_locked_table_from_the_tables_page(client, ann, event, table, settings):
    assert _locked_out(table, settings).status_code == 429
    client.force_login(ann)
    tables_page = client.get(reverse("club_tables", args=[event.pk])).content.decode()
    assert "Locked for phones that have not opened it" in tables_page
    done = client.post(
        reverse("club_table_unlock", args=[event.pk, table.card_id]),
        {"version": "0", "reason": "phones locked out"},
        follow=True,
    )
    assert "Table 1 is unlocked" in done.content.decode()
    url = reverse("club_table", args=[table.token])
    assert Client().post(url, {"pin": table.pin, "side": 0}, REMOTE_ADDR="10.1.1.1").status_code == 302
    trail = client.get(reverse("club_director", args=[event.pk])).content.decode()
    assert "Table 1: unlocked" in trail
    assert "phones locked out" in trail


def test_a_phone_the_director_let_back_in_takes_its_slips_off_the_rooms_count(
    client, ann, event, table, settings
):
    """The room is one network: a phone locked by its five wrong PINs, unlocked by the director,
    then right, leaves nothing of them in the count that would lock every phone in the room."""
    settings.LOGIN_FAILURES_PER_ACCOUNT = (8, 3600)
    url = reverse("club_table", args=[table.token])
    wrong = "0000" if table.pin != "0000" else "1111"
    slipping = Client()
    slipping.get(url)  # its phone cookie
    for _ in range(5):
        slipping.post(url, {"pin": wrong, "side": 0})
    assert slipping.post(url, {"pin": table.pin, "side": 0}).status_code == 429
    client.force_login(ann)
    client.post(
        reverse("club_table_unlock", args=[event.pk, table.card_id]), {"version": "0", "reason": "slips"}
    )
    assert slipping.post(url, {"pin": table.pin, "side": 0}).status_code == 302
    for _ in range(2):  # two more phones in the room slip three times each: six, under eight
        neighbour = Client()
        neighbour.get(url)
        for _ in range(3):
            assert neighbour.post(url, {"pin": wrong, "side": 0}).status_code == 200
    assert Client().post(url, {"pin": table.pin, "side": 0}).status_code == 302


def test_the_director_gives_a_table_a_new_pin_and_its_phones_stay_in(client, ann, event, table):
    url = reverse("club_table", args=[table.token])
    holder = Client()
    assert holder.post(url, {"pin": table.pin, "side": 0}).status_code == 302
    client.force_login(ann)
    done = client.post(
        reverse("club_table_pin", args=[event.pk, table.card_id]), {"version": "0"}, follow=True
    )
    fresh = ClubTable.objects.get(pk=table.pk)
    assert escape(f"Table 1's new PIN is {fresh.pin}, for the rest of the night") in done.content.decode()
    assert Client().post(url, {"pin": table.pin, "side": 0}).status_code == 200  # the old PIN: wrong
    assert Client().post(url, {"pin": fresh.pin, "side": 0}).status_code == 302
    assert holder.get(url).status_code == 200
    assert "Table 1: a new PIN" in client.get(reverse("club_director", args=[event.pk])).content.decode()
    again = client.post(
        reverse("club_table_pin", args=[event.pk, table.card_id]), {"version": "0"}, follow=True
    )
    assert "unlocked or given a new PIN on another screen" in again.content.decode()
    assert ClubTable.objects.get(pk=table.pk).pin == fresh.pin


def test_only_the_director_unlocks_or_changes_a_pin(client, event, table):
    client.force_login(make_user("mallory"))
    for name in ("club_table_unlock", "club_table_pin"):
        assert client.post(reverse(name, args=[event.pk, table.card_id]), {"version": "0"}).status_code == 404
    assert ClubTable.objects.get(pk=table.pk).pin_unlocks == 0


def test_standings_say_the_last_finished_round_and_how_they_rank(client, ann, event, table):
    client.force_login(ann)
    event = ClubEvent.objects.get(pk=event.pk)
    final = client.get(reverse("club_final", args=[event.pk])).content.decode()
    assert "no round finished yet" in final
    round_close(event=event, version=event.version, accept_open_hands=True)
    event = ClubEvent.objects.get(pk=event.pk)
    round_start(event=event, version=event.version, accept_repeats=True)
    final = client.get(reverse("club_final", args=[event.pk])).content.decode()
    assert "standings after round 1 (not final)" in final  # round 2 has started, not finished
    assert "Ranked by rounds won, then by total points; equal records share a rank." in final
    page = client.get(reverse("club_event", args=[event.pk])).content.decode()
    assert "Ranked by rounds won, then by total points" in page
    # The link is signed with the second it was made in: read it off the page, as the room's screen would.
    link = re.search(r'<a href="(/club/s/([^/"]+)/)\?big=1">Live standings for the room</a>', page)
    assert link is not None
    assert event_id_of_standings_token(link.group(2)) == event.pk
    assert "Ranked by rounds won, then by total points" in client.get(link.group(1)).content.decode()


def test_a_confirmed_club_hand_is_not_changed_through_the_scorepad_by_any_member(ann, event, table):
    entered = _enter(table)
    table_hand_confirm(table=table, table_hand_id=entered.pk, version=entered.version, phone="p2", side=1)
    bea = make_user("bea")
    event.household.members.add(bea)
    hand, game = entered.hand, table.game
    version = hand.version
    forged = {**CLUB_HAND_FORM, "bid": "50", "meld_0": "60", "number": "0", "version": str(hand.version)}
    for user in (bea, ann):  # another member, and the director too: the scorepad keeps no trail
        phone = Client()
        phone.force_login(user)
        page = phone.get(reverse("game", args=[game.pk])).content.decode()
        assert "only the director corrects them" in page
        for offered in (
            'id="hand-form"',
            "Undo hand",
            ">Edit</a>",
            ">Delete</a>",
            "Delete this game",
            "Abandon",
        ):
            assert offered not in page
        said = [
            phone.post(reverse("hand_edit", args=[game.pk, hand.pk]), {**forged, "dealer": "0"}, follow=True),
            phone.post(reverse("hand_delete", args=[game.pk, hand.pk]), {"version": version}, follow=True),
            phone.post(reverse("game_undo", args=[game.pk]), {"hand_id": hand.pk, "version": version}),
            phone.post(reverse("game_redo", args=[game.pk])),
            phone.post(reverse("hand_create", args=[game.pk]), {**forged, "number": "1", "dealer": "1"}),
            phone.post(reverse("hand_create", args=[game.pk]), {"thrown_in": "1", "number": "1"}),
            phone.post(reverse("game_delete", args=[game.pk]), follow=True),
        ]
        for response in said:
            assert response.status_code < 500
        assert phone.get(reverse("hand_edit", args=[game.pk, hand.pk])).status_code == 302
        words = [response.content.decode() for response in said]
        assert "changed only by the director&#x27;s correction" in words[0]
        assert "changed only by the director&#x27;s correction" in words[1]
        assert "changed only by the director&#x27;s correction" in words[6]
    stored = TableHand.objects.select_related("hand").get(pk=entered.pk)
    assert (stored.hand.bid, stored.hand.meld, stored.state) == (20, [10, 5], TableHand.State.CONFIRMED)
    assert list(game.hands.values_list("pk", flat=True)) == [hand.pk]
    # The trail has the confirmation, and no change came of the scorepad's refused writes.
    assert list(Correction.objects.values_list("what", flat=True)) == ["Hand 1 at table 1, round 1 confirmed"]
