"""Club night pages: the director checks in and starts rounds; a table's phone opens its table with
the PIN and enters, confirms and disputes hands. Every bad input is answered in words, never a 500."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from scorepad.forms.fields import NOT_LISTED
from scorepad.models import ClubEvent, ClubRound, ClubTable, TableHand
from scorepad.selectors import games as games_selectors
from scorepad.services.clubs import round_close, round_start, table_cards_make
from scorepad.services.households import player_create
from tests.sample_games import CLUB_HAND_FORM, club_check_in, club_event, numbered_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return ()


@pytest.fixture
def event(household, ann):
    return club_event(household, ann, pairs=numbered_pairs(4), rounds=3)


def _started(event):
    round_start(event=event, version=event.version)
    return ClubRound.objects.get(event=event, number=1).tables.order_by("number")


def _phone(table, side=0):
    phone = Client()
    response = phone.post(reverse("club_table", args=[table.token]), {"pin": table.pin, "side": side})
    assert response.status_code == 302
    return phone


def _hand_url(table):
    return f"{reverse('club_table_hand', args=[table.token])}?round={table.round.number}&table={table.number}"


def _send(phone, table, number=0, key="entrykey01", **changes):
    data = {**CLUB_HAND_FORM, "number": str(number), "dealer": "0", "entry_key": key, "save": "1", **changes}
    return phone.post(_hand_url(table), data)


def test_the_director_creates_an_event_and_checks_in_a_team_in_one_line(member, household):
    bob = player_create(household=household, name="Bob")
    response = member.post(
        reverse("club_event_new", args=[household.pk]),
        {
            "name": "Friday",
            "format": "teams",
            "variant": "classic",
            "rounds": "4",
            "round_end": "target",
            "bye_score": "winners_average",
        },
    )
    event = ClubEvent.objects.get(name="Friday")
    assert response.url == reverse("club_event", args=[event.pk])
    page = member.post(
        reverse("club_check_in", args=[event.pk]),
        {"version": event.version, "players": [bob.pk], "newcomers": "Cy"},
        follow=True,
    )
    assert "Checked in: Bob &amp; Cy." in page.content.decode()
    assert "Round 1: the seating" in page.content.decode()


def test_a_player_checked_in_twice_is_refused_in_words(member, event):
    player = event.members.first().player
    page = member.post(
        reverse("club_check_in", args=[event.pk]),
        {"version": event.version, "players": [player.pk], "newcomers": "Zed"},
        follow=True,
    )
    assert page.status_code == 200
    assert (
        f"{player.name} is already checked in (Team 1): a player sits at one table only."
        in page.content.decode()
    )


def test_another_directors_event_is_a_404(client, django_user_model, event):
    client.force_login(django_user_model.objects.create_user(username="eve", password="x-long-password"))
    assert client.get(reverse("club_event", args=[event.pk])).status_code == 404


def test_a_table_needs_its_pin_and_wrong_guesses_are_limited(event):
    table = _started(event)[0]
    phone = Client()
    url = reverse("club_table", args=[table.token])
    assert "Type the table's PIN" in phone.get(url).content.decode()
    wrong = "0000" if table.pin != "0000" else "1111"
    for _ in range(5):
        page = phone.post(url, {"pin": wrong, "side": 0})
        assert "That is not this table&#x27;s PIN" in page.content.decode()
    locked = phone.post(url, {"pin": table.pin, "side": 0})
    assert locked.status_code == 429
    assert "Too many wrong PINs from this phone: try again in 15 minutes" in locked.content.decode()


def _wrong(table):
    return "0000" if table.pin != "0000" else "1111"


def _pin(phone, table, pin, **extra):
    return phone.post(reverse("club_table", args=[table.token]), {"pin": pin, "side": 0}, **extra)


def _a_phone(table, **extra):
    """A phone that opened the table's PIN page (and keeps its cookies)."""
    phone = Client()
    phone.get(reverse("club_table", args=[table.token]), **extra)
    return phone


def test_one_phones_wrong_pins_lock_that_phone_and_not_the_others_in_the_room(event):
    table = _started(event)[0]
    slipping = _a_phone(table)
    for _ in range(5):
        assert _pin(slipping, table, _wrong(table)).status_code == 200
    assert _pin(slipping, table, table.pin).status_code == 429
    neighbour = _a_phone(table)  # the same network: the club's wifi
    assert _pin(neighbour, table, table.pin).status_code == 302


def test_wrong_pins_without_cookies_are_limited_per_network_of_an_ipv6_64(event, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = (10, 900)
    table = _started(event)[0]
    for n in range(10):  # a script that drops its cookies, at a new address of its /64 each time
        assert _pin(Client(), table, _wrong(table), REMOTE_ADDR=f"2001:db8::{n + 1:x}").status_code == 200
    refused = _pin(Client(), table, table.pin, REMOTE_ADDR="2001:db8::ff")
    assert refused.status_code == 429
    assert "Too many wrong PINs for this table from your network" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert _pin(Client(), table, table.pin, REMOTE_ADDR="2001:db8:0:1::1").status_code == 302


def test_phones_that_get_the_pin_right_take_their_slips_back_from_the_network(event, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = (10, 900)
    table = _started(event)[0]
    for _ in range(4):  # a room of phones, each slipping four times before typing it right
        phone = _a_phone(table)
        for _ in range(4):
            _pin(phone, table, _wrong(table))
        assert _pin(phone, table, table.pin).status_code == 302
    assert _pin(_a_phone(table), table, table.pin).status_code == 302


def test_guesses_from_everywhere_lock_the_table_only_for_phones_that_have_not_opened_it(event, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = (20, 3600)
    table = _started(event)[0]
    real = _phone(table)
    for n in range(20):  # scattered addresses, a few guesses each
        _pin(Client(), table, _wrong(table), REMOTE_ADDR=f"10.9.{n}.1")
    newcomer = _pin(_a_phone(table), table, table.pin, REMOTE_ADDR="10.1.1.1")
    assert newcomer.status_code == 429
    assert "locked for phones that have not opened it yet" in newcomer.content.decode()
    assert real.get(reverse("club_table", args=[table.token])).status_code == 200
    assert _pin(real, table, table.pin).status_code == 302  # it may type the PIN again (another side)


def test_a_hand_sent_without_the_pin_is_refused_and_not_recorded(event):
    table = _started(event)[0]
    response = _send(Client(), table)
    assert response.status_code == 403
    assert "type its PIN first. Nothing was recorded." in response.content.decode()
    assert not table.game.hands.exists()


def test_one_tables_cookie_does_not_open_another_table(event):
    first, second = _started(event)
    phone = _phone(first)
    # The cookie's path is the first table's link: the browser never sends it to the second's.
    cookie = phone.cookies["club_table"]
    assert cookie["path"] == reverse("club_table", args=[first.token])
    phone.cookies["club_table"]["path"] = "/"  # even a phone that sends it everywhere
    response = _send(phone, second)
    assert response.status_code == 403
    assert not second.game.hands.exists()


def test_the_table_phone_enters_a_hand_and_the_other_side_confirms_it(event):
    table = _started(event)[0]
    north_south, east_west = _phone(table, side=0), _phone(table, side=1)
    page = north_south.get(reverse("club_table", args=[table.token]))
    assert 'id="hand-form"' in page.content.decode()
    assert _send(north_south, table).status_code == 302
    entered = TableHand.objects.get(table=table)
    assert entered.state == "entered"
    assert entered.hand.bid == 20
    assert entered.hand.tricks == [15, 10]  # the blank side worked out, as on the scorepad
    confirm = {"table_hand": entered.pk, "version": entered.version}
    refused = north_south.post(reverse("club_table_confirm", args=[table.token]), confirm)
    assert "the other side confirms it" in refused.content.decode()
    east_west.post(reverse("club_table_confirm", args=[table.token]), confirm)
    assert TableHand.objects.get(pk=entered.pk).state == "confirmed"


def test_the_same_phone_countersigns_after_the_other_side_reads_it(event):
    table = _started(event)[0]
    phone = _phone(table)
    _send(phone, table)
    entered = TableHand.objects.get(table=table)
    page = phone.get(reverse("club_table", args=[table.token])).content.decode()
    assert "Countersign: the other side read it and agrees" in page
    # The hand in words, for the other side to read first: no card codes.
    assert "P0a bid 20 in ♥ hearts · P0a &amp; P0b: meld 10, tricks 15, +25 · " in page
    assert "P2a &amp; P2b: meld 5, tricks 10, +15" in page
    phone.post(
        reverse("club_table_confirm", args=[table.token]),
        {"table_hand": entered.pk, "version": entered.version, "countersign": "1"},
    )
    confirmed = TableHand.objects.get(pk=entered.pk)
    assert confirmed.state == "confirmed"
    assert confirmed.countersigned


def test_two_phones_entering_the_same_hand_are_told_and_one_is_kept(event):
    table = _started(event)[0]
    first, second = _phone(table, 0), _phone(table, 1)
    _send(first, table, key="firstkey01")
    response = _send(second, table, key="secondkey1", bid="25")
    assert response.status_code == 409
    assert "Hand 1 was recorded on another phone meanwhile" in response.content.decode()
    assert table.game.hands.count() == 1
    resent = _send(first, table, key="firstkey01")  # the first phone resending: stored once
    assert resent.status_code == 302
    assert table.game.hands.count() == 1


def test_a_page_from_another_round_or_table_is_refused(event):
    tables = _started(event)
    table = tables[0]
    phone = _phone(table)
    data = {**CLUB_HAND_FORM, "number": "0", "dealer": "0", "entry_key": "entrykey01", "save": "1"}
    wrong = phone.post(f"{reverse('club_table_hand', args=[table.token])}?round=1&table=2", data)
    assert wrong.status_code == 409
    assert "entered for table 2, round 1, but this is table 1 of round 1" in wrong.content.decode()
    event = ClubEvent.objects.get(pk=event.pk)
    round_close(event=event, version=event.version)
    late = _send(phone, table)
    assert "Round 1 is over: this table takes no more hands" in late.content.decode()
    assert not table.game.hands.exists()


def test_a_disputed_hand_is_marked_for_the_director(member, event):
    table = _started(event)[0]
    phone, other = _phone(table, 0), _phone(table, 1)
    _send(phone, table)
    entered = TableHand.objects.get(table=table)
    other.post(
        reverse("club_table_dispute", args=[table.token]),
        {"table_hand": entered.pk, "version": entered.version, "reason": "Our meld was 10"},
    )
    page = member.get(reverse("club_event", args=[event.pk])).content.decode()
    assert "Round 1, table 1, hand 1: disputed — “Our meld was 10”" in page
    closing = member.post(
        reverse("club_round_close", args=[event.pk]), {"version": event.version + 1}, follow=True
    )
    assert "table 1, hand 1 disputed" in closing.content.decode()


def test_after_the_round_the_table_sees_where_each_goes_next(member, event):
    table = _started(event)[0]
    phone = _phone(table)
    event = ClubEvent.objects.get(pk=event.pk)
    member.post(reverse("club_round_close", args=[event.pk]), {"version": event.version})
    page = phone.get(reverse("club_table", args=[table.token])).content.decode()
    # Four teams: team 1 stays North–South at table 1; team 3 moves up to table 2, East–West.
    assert "Team 1: table 1, North–South" in page
    assert "Team 3: table 2, East–West" in page


def test_the_qr_code_is_an_svg_of_the_tables_link(member, event):
    table = _started(event)[0]
    response = member.get(reverse("club_table_qr", args=[event.pk, table.card_id]))
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')  # else <img> draws nothing
    tables_page = member.get(reverse("club_tables", args=[event.pk])).content.decode()
    assert table.pin in tables_page
    assert re.search(rf"/club/t/{table.token}/", tables_page)


def test_a_repeat_is_said_on_the_page_before_the_round_starts(member, household, ann):
    event = club_event(household, ann, name="Two", pairs=numbered_pairs(2, "Q"))
    page = member.get(reverse("club_event", args=[event.pk])).content.decode()
    assert "Later rounds would repeat" in page
    assert "Team 1 and Team 2 would meet again in round 2 (round 1 too)" in page
    assert ClubTable.objects.count() == 0


def test_the_events_house_rules_go_to_every_tables_game(member, household):
    member.post(
        reverse("club_event_new", args=[household.pk]),
        {
            "name": "House rules night",
            "format": "teams",
            "variant": "classic",
            "rounds": "1",
            "round_end": "target",
            "bye_score": "winners_average",
            "target": "250",
            "set_penalty": "double_bid",
        },
    )
    event = ClubEvent.objects.get(name="House rules night")
    assert event.settings == {"target": 250, "set_penalty": "double_bid"}
    table = _started(club_check_in(event, numbered_pairs(2, "H")))[0]
    assert table.game.settings == {"target": 250, "set_penalty": "double_bid"}


def test_an_event_form_with_bad_values_is_answered_in_words(member, household):
    page = member.post(
        reverse("club_event_new", args=[household.pk]),
        {"name": "", "format": "six-handed", "variant": "classic", "rounds": "0", "round_end": "time"},
    )
    assert page.status_code == 200
    text = page.content.decode()
    assert "Name the event." in text
    assert not ClubEvent.objects.exists()
    page = member.post(
        reverse("club_event_new", args=[household.pk]),
        {
            "name": "Six",
            "format": "six-handed",
            "variant": "classic",
            "rounds": "2",
            "round_end": "time",
            "bye_score": "winners_average",
        },
    )
    assert "The six-handed format is played with Six-handed" in page.content.decode()
    assert not ClubEvent.objects.exists()


def test_with_htmx_a_recorded_hand_answers_with_the_table_part_only(event):
    table = _started(event)[0]
    phone = _phone(table)
    data = {**CLUB_HAND_FORM, "number": "0", "dealer": "0", "entry_key": "entrykey01", "save": "1"}
    response = phone.post(_hand_url(table), data, headers={"HX-Request": "true"})
    text = response.content.decode()
    assert response.status_code == 200
    assert text.lstrip().startswith('<div id="club-table">')
    assert "waiting for the other side to confirm" in text
    assert 'id="hand-form"' in text  # the next hand's form, blank
    preview = phone.post(
        _hand_url(table), {**data, "preview": "1", "number": "1"}, headers={"HX-Request": "true"}
    )
    assert "made" in preview.content.decode()


def test_a_hand_entered_at_a_table_scores_its_game_once_to_check_it_and_once_to_record_it(event, monkeypatch):
    # The page after the entry is drawn from the recording's own scoring, not a third one.
    table = _started(event)[0]
    phone = _phone(table)
    data = {**CLUB_HAND_FORM, "number": "0", "dealer": "0", "entry_key": "entrykey01", "save": "1"}
    scorings = []
    score_game = games_selectors.score_game
    monkeypatch.setattr(games_selectors, "score_game", lambda *args: scorings.append(1) or score_game(*args))
    response = phone.post(_hand_url(table), data, headers={"HX-Request": "true"})
    assert "waiting for the other side to confirm" in response.content.decode()
    assert len(scorings) == 2


def test_the_tables_stepper_and_count_it_work_as_on_the_scorepad(event):
    table = _started(event)[0]
    phone = _phone(table)
    typed = {**CLUB_HAND_FORM, "number": "0", "dealer": "0", "meld_1": "24"}

    raised = phone.post(_hand_url(table), {**typed, "bid_step": "+"})
    assert raised.context["form"]["bid"].value() == 21  # one step up; nothing recorded
    assert not TableHand.objects.exists()

    counting = phone.post(_hand_url(table), {**typed, "count_meld": "1"})
    query = parse_qs(urlsplit(counting["Location"]).query)
    assert query["return"][0].startswith(reverse("club_table", args=[table.token]) + "?")
    assert query["meld_now"] == ["24"]  # the partner's meld already typed adds (RULES.md §1.4)
    assert query["trump"] == ["H"]


def test_once_disputed_the_other_side_is_offered_no_confirm_and_the_director_sees_it(member, event):
    table = _started(event)[0]
    north_south, east_west = _phone(table, 0), _phone(table, 1)
    _send(north_south, table)
    entered = TableHand.objects.get(table=table)
    east_west.post(
        reverse("club_table_dispute", args=[table.token]),
        {"table_hand": entered.pk, "version": entered.version, "reason": "Our meld was 10"},
    )
    page = north_south.get(reverse("club_table", args=[table.token])).content.decode()
    assert "Countersign" not in page
    assert ">Confirm<" not in page
    assert "Only the director settles a disputed hand now" in page
    disputed = TableHand.objects.get(pk=entered.pk)
    refused = north_south.post(
        reverse("club_table_confirm", args=[table.token]),
        {"table_hand": disputed.pk, "version": disputed.version, "countersign": "1"},
    )
    assert refused.status_code == 409
    assert "Hand 1 is disputed: only the director settles it now" in refused.content.decode()
    assert TableHand.objects.get(pk=entered.pk).state == "disputed"
    director = member.get(reverse("club_director", args=[event.pk])).content.decode()
    assert "Hands for the director (1)" in director
    assert "Hand 1 at table 1, round 1 disputed</strong> by P2a &amp; P2b&#x27;s phone" in director
    final = member.get(reverse("club_final", args=[event.pk])).content.decode()
    assert "Hand 1 at table 1, round 1 disputed" in final  # on the printout too


def test_a_second_phone_of_the_entering_side_is_offered_the_countersign_not_confirm(event):
    table = _started(event)[0]
    first, second = _phone(table, 0), _phone(table, 0)
    _send(first, table)
    page = second.get(reverse("club_table", args=[table.token])).content.decode()
    assert "Countersign: the other side read it and agrees" in page
    assert ">Confirm<" not in page


def _next_round(event):
    event = ClubEvent.objects.get(pk=event.pk)
    round_close(event=event, version=event.version, accept_open_hands=True)
    event = ClubEvent.objects.get(pk=event.pk)
    round_start(event=event, version=event.version, accept_repeats=True)
    return ClubRound.objects.get(event=event, number=event.current_round + 1)


def test_one_card_per_table_all_night_and_its_phone_follows_the_movement(event):
    first = _started(event)[0]
    phone = _phone(first, side=1)
    url = reverse("club_table", args=[first.token])
    page = phone.get(url).content.decode()
    assert "Round 1: North–South Team 1 (P0a &amp; P0b), East–West Team 3 (P2a &amp; P2b)" in page
    second_round = _next_round(event)
    again = second_round.tables.get(number=1)
    assert again.card_id == first.card_id  # the same link and PIN: nothing new to hand out
    assert again.token == first.token
    assert again.pin == first.pin
    page = phone.get(url).content.decode()  # the same phone, no PIN typed again
    assert "Round 2: North–South Team 1 (P0a &amp; P0b), East–West Team 4 (P3a &amp; P3b)" in page
    assert "?round=2&amp;table=1" in page
    assert _send(phone, again, key="round2key1").status_code == 302
    assert TableHand.objects.get(table=again).entered_side == 1  # it still enters for East–West
    _next_round(event)
    assert ClubTable.objects.filter(round__event=event).count() == 6
    assert event.table_cards.count() == 2  # handouts for the night: one per table


def test_a_phone_waiting_after_a_round_reloads_when_the_next_one_seats_its_table(event):
    table = _started(event)[0]
    phone = _phone(table)
    url = reverse("club_table", args=[table.token]) + "?after=1"
    event = ClubEvent.objects.get(pk=event.pk)
    round_close(event=event, version=event.version)
    waiting = phone.get(url, headers={"HX-Request": "true"})
    assert waiting.status_code == 200
    assert "Round 1 is over" in waiting.content.decode()
    event = ClubEvent.objects.get(pk=event.pk)
    round_start(event=event, version=event.version)
    moved = phone.get(url, headers={"HX-Request": "true"})
    assert moved["HX-Refresh"] == "true"


def test_a_table_done_with_its_hands_asks_again_until_the_round_moves_on(household, ann):
    event = club_event(
        household, ann, pairs=numbered_pairs(4), rounds=3, round_end="hands", hands_per_round=1
    )
    table = _started(event)[0]
    phone = _phone(table)
    url = reverse("club_table", args=[table.token])
    _send(phone, table)
    waiting = phone.get(url).content.decode()
    assert "This table has played its hands for this round" in waiting
    # The other side has yet to read the hand here: nothing replaces the page unasked.
    assert f'hx-get="{url}?after=1"' not in waiting
    entered = TableHand.objects.get(table=table)
    phone.post(
        reverse("club_table_confirm", args=[table.token]),
        {"table_hand": entered.pk, "version": entered.version, "countersign": "1"},
    )
    done = phone.get(url).content.decode()
    assert "Wait for the director to close the round" in done
    assert f'hx-get="{url}?after=1"' in done  # so the closed round's where-next comes by itself
    _next_round(event)
    moved = phone.get(url + "?after=1", headers={"HX-Request": "true"})
    assert moved["HX-Refresh"] == "true"


def test_after_the_last_round_the_tables_phone_thanks_them_and_asks_no_more(event):
    table = _started(event)[0]
    phone = _phone(table)
    url = reverse("club_table", args=[table.token])
    _next_round(event)
    event = ClubEvent.objects.get(pk=event.pk)
    round_close(event=event, version=event.version, accept_open_hands=True)
    between = phone.get(url).content.decode()  # round 2 over, round 3 to come: it asks
    assert f'hx-get="{url}?after=2"' in between
    event = ClubEvent.objects.get(pk=event.pk)
    round_start(event=event, version=event.version, accept_repeats=True)
    event = ClubEvent.objects.get(pk=event.pk)
    round_close(event=event, version=event.version, accept_open_hands=True)
    assert ClubEvent.objects.get(pk=event.pk).status == ClubEvent.Status.FINISHED
    over = phone.get(url).content.decode()
    assert "That was the last round: thank you for playing." in over
    assert "hx-get" not in over


def test_a_page_left_open_from_the_last_round_is_refused_in_words(event):
    table = _started(event)[0]
    phone = _phone(table)
    _next_round(event)
    late = _send(phone, table)  # the form of round 1, sent during round 2
    assert late.status_code == 409
    assert "entered for table 1, round 1, but this is table 1 of round 2" in late.content.decode()


def test_the_director_makes_and_prints_the_cards_before_the_first_round(member, event):
    tables_url = reverse("club_tables", args=[event.pk])
    page = member.get(tables_url).content.decode()
    assert 'name="count"' in page
    assert 'value="2"' in page  # the tables round 1 would seat
    bad = member.post(
        reverse("club_cards_make", args=[event.pk]), {"version": event.version, "count": "0"}, follow=True
    )
    assert "Say how many tables, 1 to 100." in bad.content.decode()
    done = member.post(
        reverse("club_cards_make", args=[event.pk]), {"version": event.version, "count": "2"}, follow=True
    )
    assert "2 table cards, one per table for the whole night" in done.content.decode()
    cards = list(event.table_cards.order_by("number"))
    waiting = _phone_by_card(cards[0])
    assert (
        "No round has seated this table yet"
        in waiting.get(reverse("club_table", args=[cards[0].token])).content.decode()
    )
    table = _started(ClubEvent.objects.get(pk=event.pk))[0]
    assert table.card_id == cards[0].pk
    page = member.get(tables_url).content.decode()
    assert page.count('class="panel club-table-card"') == 2
    assert f"/club/t/{cards[1].token}/" in page
    assert "2 cards to hand out" in page


def test_a_phone_opened_before_the_first_round_loads_the_whole_table_page_when_it_starts(event):
    card = table_cards_make(event=event, version=event.version, count=2)[0]
    phone = _phone_by_card(card)
    url = reverse("club_table", args=[card.token])
    waiting = phone.get(url).content.decode()
    assert f'hx-get="{url}?after=0"' in waiting
    assert phone.get(url + "?after=0", headers={"HX-Request": "true"}).status_code == 200
    _started(ClubEvent.objects.get(pk=event.pk))
    moved = phone.get(url + "?after=0", headers={"HX-Request": "true"})
    assert moved["HX-Refresh"] == "true"  # not the table's part alone: no seating line nor outbox there
    assert "Round 1: North–South Team 1" in phone.get(url).content.decode()


def _phone_by_card(card):
    phone = Client()
    assert (
        phone.post(reverse("club_table", args=[card.token]), {"pin": card.pin, "side": 0}).status_code == 302
    )
    return phone


def test_the_director_chooses_matchpoints_and_every_standings_screen_says_so(member, household):
    new_event = {
        "name": "Matchpoint night",
        "format": "teams",
        "variant": "classic",
        "rounds": "2",
        "round_end": "target",
        "bye_score": "winners_average",
    }
    url = reverse("club_event_new", args=[household.pk])
    refused = member.post(url, {**new_event, "ranking": "coin toss"})
    assert "Choose how the standings rank." in refused.content.decode()
    member.post(url, {**new_event, "ranking": "matchpoints"})
    event = ClubEvent.objects.get(name="Matchpoint night")
    assert event.ranking == "matchpoints"
    event = club_check_in(event, numbered_pairs(2))
    round_start(event=event, version=event.version)
    event = ClubEvent.objects.get(pk=event.pk)
    round_close(event=event, version=event.version)
    page = member.get(reverse("club_event", args=[event.pk])).content.decode()
    assert "Ranked by matchpoints (each round, 1 for every entrant scoring fewer, ½ for a tie" in page
    assert "<th>Matchpoints</th>" in page
    final = member.get(reverse("club_final", args=[event.pk])).content.decode()
    assert "<th>Matchpoints</th>" in final
    assert '<td class="num">½</td>' in final  # two teams, no hands: a tie


@pytest.mark.parametrize("player", ["99999999999999999999", "-1", "9" * 400, "x", "\x00"])
def test_a_forged_roster_player_at_check_in_is_refused_in_words(member, event, player):
    entrants = event.entrants.count()
    page = member.post(
        reverse("club_check_in", args=[event.pk]),
        {"version": event.version, "players": [player], "newcomers": ""},
        follow=True,
    )
    assert page.status_code == 200
    said = page.content.decode()
    assert "is not one of the available choices" in said or escape(NOT_LISTED) in said
    assert event.entrants.count() == entrants


@pytest.mark.parametrize("version", ["99999999999999999999", "-1", "9" * 400])
def test_a_forged_version_at_check_in_is_refused_in_words(member, event, version):
    page = member.post(
        reverse("club_check_in", args=[event.pk]), {"version": version, "newcomers": "Zed"}, follow=True
    )
    assert page.status_code == 200
    assert "This page is out of date" in page.content.decode()
