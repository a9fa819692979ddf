"""What each phone at a private table shows through a hand, from its own seat: the auction as it
happens, the contract, its own passed cards, everyone's meld, the trick, the counters, the hand's
result (the scorepad's own figures), the game's end and a new game in one tap; and never another
seat's hidden cards."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from scorepad.engine.cards import SUITS, SYMBOL_OF_SUIT
from scorepad.engine.game import from_json
from scorepad.live import bus
from scorepad.models import Game, PrivateTable, TableSeat
from scorepad.pages.practice import face
from scorepad.pages.tables import table_screen
from scorepad.selectors.games import game_score
from scorepad.selectors.tables import table_read
from scorepad.services.tables import table_take_seat
from scorepad.views.tables import NO_SEAT
from tests.services.test_household_tables import roster_player, smiths_table
from tests.services.test_tables import deal_next_hand, play
from tests.views.test_tables import assert_only_own_cards, open_table
from tests.views.test_tables import visible_words as tagless

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE_CODE = re.compile(r"(?<![\w-])[AKQJT9][SHDC](?![\w-])")


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


def screens(table: PrivateTable, phones: list[Client]) -> list[str]:
    """Each phone's page as it stands, checked to hold only that seat's own cards and to write
    every card as players do (10♥, never TH)."""
    table.refresh_from_db()
    pages = []
    for seat, phone in enumerate(phones):
        page = phone.get(reverse("table_play", args=[table.pk])).content.decode()
        assert_only_own_cards(table, seat, page)
        words = visible_words(page)
        assert not ENGINE_CODE.search(words), f"seat {seat} reads an engine code: {ENGINE_CODE.search(words)}"
        pages.append(page)
    return pages


def visible_words(page: str) -> str:
    """The page's words as a player reads them: no tags, and "&amp;" read as "&"."""
    return html.unescape(tagless(page))


def written(card: int) -> str:
    return f"{face(card).rank}{face(card).symbol}"


def play_until(table: PrivateTable, done) -> PrivateTable:
    while not done(from_json(table.state)):
        table = play(table, from_json(table.state).to_act)
    return table


NAMES = ["Ann", "Friend 1", "Friend 2", "Friend 3"]


def test_each_phone_follows_the_auction_call_by_call_with_the_high_bid_and_whose_turn():
    table, phones = open_table()
    table = play_until(table, lambda state: len(state.auction) >= 3)
    state = from_json(table.state)
    calls = [(NAMES[seat], "Pass" if bid is None else str(bid)) for seat, bid in state.auction]
    bids = [(seat, bid) for seat, bid in state.auction if bid is not None]
    for seat, page in enumerate(screens(table, phones)):
        now = page.split('class="auction-now"', 1)[1].split("</ol>", 1)[0]  # in view while it is on
        folded = page.split('class="fold auction"', 1)[1].split("</details>", 1)[0]  # and on a tap
        for auction in (now, folded):
            shown = re.findall(r'<li><span class="who">([^<]+)</span> ([^<]+)</li>', auction)
            assert shown == calls, seat
        words = visible_words(page)
        if bids:
            assert f"high bid {NAMES[bids[-1][0]]} {bids[-1][1]}" in words, seat
        turn = "Your turn to bid." if state.to_act == seat else f"{NAMES[state.to_act]}'s turn to bid."
        assert turn in words, seat


def test_the_contract_the_passed_cards_the_meld_the_trick_and_the_counters_through_play():
    table, phones = open_table()  # classic: the bidder's partner passes 4, the bidder 4 back
    table = play_until(table, lambda state: bool(state.passes) and len(state.passes) == 2)
    state = from_json(table.state)
    (giver, taker, given), (_, _, back) = state.passes
    pages = screens(table, phones)
    for seat, page in enumerate(pages):
        words = visible_words(page)
        assert f"{NAMES[giver]} passed 4 cards to {NAMES[taker]}" in words
        assert f"{NAMES[taker]} passed 4 cards to {NAMES[giver]}" in words
        if seat == giver:
            assert f"You passed to {NAMES[taker]}: {' '.join(written(c) for c in given)}" in words
            assert f"You received from {NAMES[taker]}: {' '.join(written(c) for c in back)}" in words
        elif seat == taker:
            assert f"You passed to {NAMES[giver]}: {' '.join(written(c) for c in back)}" in words
        else:
            assert "You passed" not in words
            assert "You received" not in words

    table = play_until(table, lambda state: len(state.trick) == 2 and len(state.tricks) == 1)
    state = from_json(table.state)
    suit = SYMBOL_OF_SUIT[SUITS[state.trump]]
    leader, winner = NAMES[state.trick_leader], None
    for seat, page in enumerate(screens(table, phones)):
        words = visible_words(page)
        assert 'class="auction-now"' not in page  # the auction is over: its calls are in the fold
        assert f"contract {NAMES[state.bidder]} {state.bid} {suit}" in words, seat
        meld = page.split('class="fold melds"', 1)[1].split("<summary>", 1)[1].split("</summary>", 1)[0]
        assert visible_words(meld).strip() == "Meld : " + ", ".join(
            f"{NAMES[s]} {state.meld[s]}" for s in range(4)
        ), seat  # every seat's meld with its points, one tap away during play
        winner = table_screen(table_read(table.pk), seat).trick_winning
        assert f"{leader} led · {winner} is winning" in words, seat
        taken = re.findall(r'<small class="taken">\+(\d+)<', page)
        assert [int(points) for points in taken] == list(state.points), seat  # each side's counters
        assert "Last trick, taken by" in words, seat  # the trick before, on a tap
    assert winner in NAMES


def test_the_hand_result_shows_at_once_with_the_scorepads_own_totals_hand_after_hand(household, ann, member):
    """The table showed "0 / 0" at the end of the first hand while the scorepad had scored it, and
    one hand behind after that: its totals are now the scorepad's, shown the moment a hand ends."""
    table = smiths_table(household, ann)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    game = Game.objects.get(pk=table.game_id)
    for hand in range(2):
        table = play_until(table, lambda state: state.result is not None)
        scorepad = game_score(game).totals
        assert list(scorepad) == table.hands[-1]["totals"]
        page = member.get(reverse("table_play", args=[table.pk])).content.decode()
        shown = re.findall(r'<span class="side-total"><strong>(-?\d+)</strong>', page)
        totals = [int(total) for total in shown]
        assert totals == list(scorepad), hand
        words = visible_words(page)
        row = table.hands[-1]
        outcome = "made it" if row["made"] else "went set"
        assert f"Hand {hand + 1}: " in words
        assert outcome in words
        for score, total in zip(row["scores"], row["totals"], strict=True):
            assert f"{'+' if score > 0 else ''}{score} " in words
            assert f"→ {total}" in words
        for seat in (0, 2):  # every seat's screen says the same
            assert [total for _, total in table_screen(table_read(table.pk), seat).scores] == list(scorepad)
        if hand == 0:
            table = deal_next_hand(table=table, seat=0, version=table.version)


def test_the_end_of_the_game_names_the_winner_and_one_tap_starts_a_new_game_in_the_same_seats(
    household, ann, member
):
    table = smiths_table(household, ann, target=10)
    table_take_seat(table=table, seat=2, name="Cy", user=None, holding=None)
    while not PrivateTable.objects.get(pk=table.pk).finished:
        table = play_until(table, lambda state: state.result is not None)
        table.refresh_from_db()
        if not table.finished:
            table = deal_next_hand(table=table, seat=0, version=table.version)
    first_game = table.game_id
    winners = from_json(table.state).result.winners
    page = member.get(reverse("table_play", args=[table.pk])).content.decode()
    words = visible_words(page)
    names = " and ".join(table_screen(table_read(table.pk), 0).side_names[side] for side in winners)
    assert f"Game over: {names} won." in words
    assert "Next hand" not in words
    assert "New game, same seats" in words
    response = member.post(reverse("table_rematch", args=[table.pk]), {"version": str(table.version)})
    assert response.status_code == 302
    table.refresh_from_db()
    assert not table.finished
    assert table.hands == []
    state = from_json(table.state)
    assert state.result is None
    assert state.totals == (0, 0)
    assert state.game == 1
    assert [row.kind for row in table.seats.order_by("seat")] == ["person", "bot", "person", "bot"]
    new_game = Game.objects.get(pk=table.game_id)
    assert new_game.pk != first_game  # the household's scorepad starts a new game, same players
    assert [seat.player.name for seat in new_game.seats.all()] == [
        seat.player.name for seat in Game.objects.get(pk=first_game).seats.all()
    ]
    again = member.post(reverse("table_rematch", args=[table.pk]), {"version": str(table.version - 1)})
    assert again.status_code == 302  # a second tap (another phone's, or a double tap): told, nothing new
    assert Game.objects.filter(household=household).count() == 2
    assert roster_player(household, "Ann")


def test_a_game_not_over_is_not_restarted():
    table, phones = open_table()
    response = phones[0].post(
        reverse("table_rematch", args=[table.pk]), {"version": str(table.version)}, HTTP_HX_REQUEST="true"
    )
    assert "This game is not over yet" in response.content.decode()
    assert PrivateTable.objects.get(pk=table.pk).version == table.version


def test_six_handed_offers_no_thanks_to_a_partner_and_four_handed_does():
    six, phones = open_table("six-handed", bots=5)
    assert "Thanks, partner" not in phones[0].get(reverse("table_play", args=[six.pk])).content.decode()
    said = phones[0].post(reverse("table_say", args=[six.pk]), {"message": "thanks"}, HTTP_HX_REQUEST="true")
    assert "no partner to thank" in said.content.decode()
    four, phones = open_table(bots=3)
    assert "Thanks, partner" in phones[0].get(reverse("table_play", args=[four.pk])).content.decode()


def test_a_visitor_with_no_seat_is_told_so_not_that_their_seat_was_opened():
    table, _ = open_table()
    page = Client().get(reverse("table_play", args=[table.pk]))
    assert page.status_code == 403
    assert escape(NO_SEAT) in page.content.decode()
    assert "yours was opened" not in page.content.decode()


def test_the_new_table_form_names_each_seat_by_where_it_sits_and_the_partner():
    page = visible_words(Client().get(reverse("tables_new")).content.decode())
    assert "Seat 2, on your left" in page
    assert "Seat 3, your partner" in page
    assert "Seat 4, on your right" in page
    assert "Saved for (a name, optional) 2" not in page
    six = visible_words(Client().get(reverse("tables_new"), {"variant": "six-handed"}).content.decode())
    assert "partner" not in six.split("Seat 2", 1)[1]


def test_the_host_is_asked_before_a_player_is_removed_and_the_answer_names_seat_and_version():
    table, phones = open_table()
    host = phones[0]
    page = host.get(reverse("table_play", args=[table.pk])).content.decode()
    assert '<button type="submit" class="open-seat">Open this seat</button>' in page
    asked = visible_words(host.get(reverse("table_play", args=[table.pk]), {"open": "3"}).content.decode())
    assert "Remove Friend 3 from seat 4?" in asked
    assert TableSeat.objects.get(table=table, seat=3).kind == TableSeat.PERSON  # only asked
    unconfirmed = host.post(
        reverse("table_host", args=[table.pk]), {"action": "open-seat", "seat": "3"}, HTTP_HX_REQUEST="true"
    )
    assert "confirm" in unconfirmed.content.decode()
    assert TableSeat.objects.get(table=table, seat=3).kind == TableSeat.PERSON
    stale = host.post(
        reverse("table_host", args=[table.pk]),
        {"action": "open-seat", "seat": "3", "version": str(table.version - 1)},
        HTTP_HX_REQUEST="true",
    )
    assert "table moved on" in stale.content.decode()
    assert TableSeat.objects.get(table=table, seat=3).kind == TableSeat.PERSON
    again = host.post(  # without htmx: the question again, naming the table's version now
        reverse("table_host", args=[table.pk]),
        {"action": "open-seat", "seat": "3", "version": str(table.version - 1)},
        follow=True,
    )
    assert "Remove Friend 3 from seat 4?" in visible_words(again.content.decode())
    assert "answer again" in again.content.decode()
    table.refresh_from_db()
    done = host.post(
        reverse("table_host", args=[table.pk]),
        {"action": "open-seat", "seat": "3", "version": str(table.version)},
    )
    assert done.status_code == 302
    assert TableSeat.objects.get(table=table, seat=3).kind == TableSeat.OPEN
    # A guest's phone is asked nothing: only the host opens seats.
    assert "Remove" not in visible_words(
        phones[1].get(reverse("table_play", args=[table.pk]), {"open": "2"}).content.decode()
    )


def test_the_invite_link_wraps_and_has_a_share_or_copy_button():
    table, phones = open_table()
    page = phones[0].get(reverse("table_play", args=[table.pk])).content.decode()
    assert '<p class="invite-link"><a href="http://testserver/tables/join/' in page
    assert 'class="share-link"' in page
    assert 'class="copy-link"' in page
    assert "<script>" not in page  # CSP: every script is a file of ours


def test_a_phone_away_is_named_on_every_other_with_the_grace_left_at_its_turn_and_cleared_when_back():
    table, phones = open_table()
    to_act = from_json(table.state).to_act
    assert to_act is not None
    names = ["Ann", "Friend 1", "Friend 2", "Friend 3"]
    for seat in range(4):
        if seat != to_act:
            bus.mark_present(table.pk, seat, "stream")
    watcher = (to_act + 1) % 4

    def read(phone: Client) -> str:
        return html.unescape(tagless(phone.get(reverse("table_play", args=[table.pk])).content.decode()))

    away = read(phones[watcher])
    name = names[to_act]
    assert f"{name}'s phone is away — a bot plays for {name} in " in away
    seconds = re.search(rf"plays for {name} in (\d+) s", away)
    assert seconds is not None
    assert int(seconds.group(1)) <= table.grace_seconds
    # Not at their turn: when the bot would play for them, not a count.
    later = (to_act + 2) % 4
    bus.forget_present(table.pk, later, "stream")
    both = read(phones[watcher])
    other = names[later]
    grace = table.grace_seconds
    assert f"{other}'s phone is away — a bot plays for {other} if not back {grace} s into" in both
    bus.mark_present(table.pk, to_act, "stream")
    bus.mark_present(table.pk, later, "stream")
    back = read(phones[watcher])
    assert "phone is away" not in back
    # The phone itself never reads itself away.
    bus.forget_present(table.pk, to_act, "stream")
    own = read(phones[to_act])
    assert "phone is away" not in own
    # The phone deciding keeps its room for the hand: another seat away says so on the felt only.
    bus.forget_present(table.pk, later, "stream")
    deciding = phones[to_act].get(reverse("table_play", args=[table.pk])).content.decode()
    assert "phone is away" not in html.unescape(tagless(deciding))
    assert '<span class="seat-said seat-away">away</span>' in deciding
