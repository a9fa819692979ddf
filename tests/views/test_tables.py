"""Private table views: each phone holds one seat and is sent its own seat's view, nothing else."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.core import signing
from django.core.cache import cache
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from scorepad import bot_pool
from scorepad.engine.cards import card_name
from scorepad.engine.game import from_json, seat_view
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.live import bus, clock
from scorepad.models import PrivateTable, TableSeat
from scorepad.pages.practice import face
from scorepad.selectors.tables import table_read
from scorepad.services import tables as services_tables
from scorepad.services.tables import (
    HOST_STAYS,
    NOT_SEATED,
    NOT_YOUR_TURN,
    SEAT_TAKEN,
    STALE,
    TABLE_FULL,
    table_clock_tick,
)
from scorepad.views import tables as views_tables
from tests.sample_games import make_user
from tests.services.test_tables import form_for

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    """The web workers' mailboxes (``live.bus``) go in this test's folder, not the checkout's var/."""
    settings.VAR_DIR = tmp_path


def form_defaults(client: Client, variant_id: str) -> dict[str, str]:
    """The start form as shown for ``variant_id``: its house rules at their defaults."""
    shown = client.get(reverse("tables_new"), {"variant": variant_id}).context["form"]
    values = {name: shown[name].value() for name in shown.fields}
    return {name: str(value) for name, value in values.items() if value is not None and value is not False}


def open_table(variant_id: str = "classic", bots: int = 0) -> tuple[PrivateTable, list[Client]]:
    """The host opens a table from the form; friends take every open seat from the link."""
    seats = get_variant(variant_id).seats
    host = Client()
    form = form_defaults(host, variant_id)
    form |= {"host_name": "Ann", "variant": variant_id, "grace": "60"}
    for seat in range(1, seats):
        form[f"seat_{seat}"] = "bot:heuristic" if seat > seats - 1 - bots else "open"
    response = host.post(reverse("tables_new"), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    table = PrivateTable.objects.latest("id")
    phones = [host]
    for seat in range(1, seats - bots):
        phone = Client()
        taken = phone.post(reverse("table_take", args=[table.link_token, seat]), {"name": f"Friend {seat}"})
        assert taken.status_code == 302, taken.content.decode()[:2000]
        phones.append(phone)
    return table, phones


def open_seat(host: Client, table: PrivateTable, seat: int) -> None:
    """The host opens ``seat`` as the page asks it: the question, then the confirmation naming the
    table's version."""
    asked = host.get(reverse("table_play", args=[table.pk]), {"open": str(seat)}).content.decode()
    version = re.search(r'name="version" value="(\d+)"><button type="submit" class="primary">', asked)
    assert version, "the host was not asked to confirm"
    form = {"action": "open-seat", "seat": str(seat), "version": version.group(1)}
    assert host.post(reverse("table_host", args=[table.pk]), form).status_code == 302


def card_labels_in(html: str, variant_id: str) -> set[str]:
    """Every card of the deck named in ``html`` in any of its forms: as a screen reader says it
    ("Ace of clubs"), as it is written on the card ("A♣"), or by its code in a form's value ("AC")."""
    seen = set()
    for card in set(get_variant(variant_id).deck()):
        label, written = card_name(card), f"{face(card).rank}{face(card).symbol}"
        forms = (rf"(?<![0-9A-Za-z]){re.escape(label)}", rf"(?<![0-9A-Za-z]){re.escape(written)}")
        code = rf"(?<![0-9A-Za-z_-]){face(card).code}(?![0-9A-Za-z_-])"  # not inside a link's token
        if any(re.search(form, html) for form in forms) or re.search(code, html):
            seen.add(label)
    return seen


def may_see(table: PrivateTable, seat: int) -> set[str]:
    """What ``seat`` may know of the cards: its own hand, the cards played, the meld shown."""
    state = from_json(table.state)
    view = seat_view(state, seat)
    public = [*view.hand, *(c for trick in view.tricks for c in trick.cards)]
    public += [*(state.trick or ())]
    public += [c for shown in view.shown for c in shown]
    public += [*view.passed, *view.received]
    return {card_name(c) for c in public}


def assert_only_own_cards(table: PrivateTable, seat: int, html: str) -> None:
    shown = card_labels_in(html, table.variant)
    leaked = shown - may_see(table, seat)
    assert not leaked, f"seat {seat} was sent another seat's cards: {sorted(leaked)}"


def screen_sent_to(seat: int, table: PrivateTable, phone: Client) -> str:
    """What seat's event stream sends when the table changes (the same function the stream uses)."""
    request = phone.get(reverse("table_play", args=[table.pk])).wsgi_request
    html, _ = views_tables._screen_html(request, table.pk, seat)
    return html


@pytest.mark.parametrize(
    "variant_id",
    [pytest.param(v, marks=pytest.mark.slow) if v != "classic" else v for v in VARIANTS],  # 80 and 72 cards
)
def test_a_whole_hand_with_a_person_in_every_seat_sends_each_phone_only_its_own_cards(variant_id):
    table, phones = open_table(variant_id)
    actions = 0
    while True:
        table.refresh_from_db()
        state = from_json(table.state)
        if state.result is not None:
            break
        seat = state.to_act
        form = {**form_for(table, seat), "version": str(table.version)}
        response = phones[seat].post(reverse("table_act", args=[table.pk]), form, **HTMX)
        assert response.status_code == 200, response.content.decode()[:2000]
        table.refresh_from_db()
        assert_only_own_cards(table, seat, response.content.decode())
        if actions % 5 == 0 or from_json(table.state).result is not None:  # the others' streams too
            for other, phone in enumerate(phones):
                assert_only_own_cards(table, other, screen_sent_to(other, table, phone))
                page = phone.get(reverse("table_play", args=[table.pk])).content.decode()
                assert_only_own_cards(table, other, page)
        actions += 1
    assert table.hands
    assert actions > state.variant.seats


def test_the_table_page_shows_the_phones_own_hand():
    table, phones = open_table()
    hand = seat_view(from_json(table.state), 2).hand
    page = phones[2].get(reverse("table_play", args=[table.pk])).content.decode()
    assert {card_name(c) for c in hand} <= card_labels_in(page, "classic")
    assert "Friend 2 (you)" in page
    assert 'class="fan held cols-6"' in page or 'class="fan cols-6"' in page  # 12 cards, two rows


def test_an_action_out_of_turn_or_stale_is_refused_in_words():
    table, phones = open_table()
    state = from_json(table.state)
    other = (state.to_act + 1) % 4
    response = phones[other].post(
        reverse("table_act", args=[table.pk]), {"bid": "pass", "version": str(table.version)}, **HTMX
    )
    assert response.status_code == 200  # the table as it stands, the refusal at the decision
    assert escape(NOT_YOUR_TURN) in response.content.decode()
    seat = state.to_act
    form = {**form_for(table, seat), "version": str(table.version)}
    assert phones[seat].post(reverse("table_act", args=[table.pk]), form, **HTMX).status_code == 200
    again = phones[seat].post(reverse("table_act", args=[table.pk]), form, **HTMX)
    assert escape(STALE) in again.content.decode()
    assert PrivateTable.objects.get(pk=table.pk).version == table.version + 1


def test_a_forged_seat_cookie_is_refused_in_words():
    table, _ = open_table()
    forged = Client()
    forged.cookies[f"table-{table.pk}"] = "not-signed"
    response = forged.get(reverse("table_play", args=[table.pk]))
    assert response.status_code == 403
    assert escape(views_tables.FORGED) in response.content.decode()
    guessed = Client()
    guessed.cookies[f"table-{table.pk}"] = signing.dumps(
        {"t": table.pk, "s": 1, "k": "guess"}, salt=views_tables.SEAT_SALT
    )
    assert escape(NOT_SEATED) in guessed.get(reverse("table_play", args=[table.pk])).content.decode()


def test_a_taken_seat_is_refused_in_words_while_another_is_free():
    table, phones = open_table()
    open_seat(phones[0], table, 3)
    late = Client()
    response = late.post(reverse("table_take", args=[table.link_token, 1]), {"name": "Late"})
    assert response.status_code == 409
    assert escape(SEAT_TAKEN) in response.content.decode()


def test_a_removed_player_is_refused_and_the_old_link_stops_working():
    table, phones = open_table()
    open_seat(phones[0], table, 3)
    assert TableSeat.objects.get(table=table, seat=3).kind == TableSeat.OPEN
    response = phones[3].get(reverse("table_play", args=[table.pk]))
    assert response.status_code == 403
    assert escape(NOT_SEATED) in response.content.decode()
    phones[0].post(reverse("table_host", args=[table.pk]), {"action": "new-link"})
    old = Client().get(reverse("table_join", args=[table.link_token]))
    assert old.status_code == 404
    assert "replaced by its host" in old.content.decode()


def test_only_the_host_ends_the_table_and_then_nothing_is_played():
    table, phones = open_table()
    refused = phones[1].post(reverse("table_host", args=[table.pk]), {"action": "end"}, **HTMX)
    assert "Only the table" in refused.content.decode()
    phones[0].post(reverse("table_host", args=[table.pk]), {"action": "end"})
    seat = from_json(table.state).to_act
    form = {**form_for(table, seat), "version": str(PrivateTable.objects.get(pk=table.pk).version)}
    response = phones[seat].post(reverse("table_act", args=[table.pk]), form, **HTMX)
    assert "ended this table" in response.content.decode()


@pytest.mark.parametrize(
    "form",
    [
        {"card": "X" * 100_000, "version": "1"},
        {"bid": "<script>", "version": "nan"},
        {"version": "99999999999999999999999"},
        {},
    ],
)
def test_huge_or_malformed_actions_are_refused_in_words(form):
    table, phones = open_table()
    seat = from_json(table.state).to_act
    response = phones[seat].post(reverse("table_act", args=[table.pk]), form, **HTMX)
    assert re.search(r'class="notice refused" role="alert">[A-Z][^<]{10,}<', response.content.decode())
    assert PrivateTable.objects.get(pk=table.pk).version == table.version


def test_a_short_code_finds_the_table_and_a_wrong_one_is_told():
    table, _ = open_table()
    found = Client().get(reverse("table_code"), {"code": table.code.lower()})
    assert found["Location"] == reverse("table_join", args=[table.link_token])
    wrong = Client().get(reverse("table_code"), {"code": "ZZZ"})
    assert "No open table has that code" in wrong.content.decode()


def test_wrong_table_codes_are_limited_per_network_and_a_right_code_from_elsewhere_still_works(settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = (10, 900)
    table, _ = open_table()
    guesser = Client()
    for n in range(10):  # each guess from a new address of one IPv6 /64
        wrong = guesser.get(reverse("table_code"), {"code": "ZZZZZZ"}, REMOTE_ADDR=f"2001:db8:1:2::{n + 1:x}")
        assert wrong.status_code == 200
    refused = guesser.get(reverse("table_code"), {"code": table.code}, REMOTE_ADDR="2001:db8:1:2::ff")
    assert refused.status_code == 429
    assert "Too many wrong table codes from your network: try again in 15 minutes" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    found = Client().get(reverse("table_code"), {"code": table.code}, REMOTE_ADDR="2001:db8:1:3::1")
    assert found["Location"] == reverse("table_join", args=[table.link_token])


def test_a_right_code_does_not_use_up_the_networks_guesses(settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = (2, 900)
    table, _ = open_table()
    phone = Client()
    for _ in range(3):
        assert phone.get(reverse("table_code"), {"code": table.code}).status_code == 302
    assert phone.get(reverse("table_code"), {"code": "ZZZ"}).status_code == 200


def test_the_qr_code_is_an_image_of_the_link():
    table, _ = open_table()
    response = Client().get(reverse("table_qr", args=[table.link_token]))
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')  # else <img> draws nothing


def test_the_event_stream_sends_the_seats_screen_then_the_next_change():
    table, phones = open_table(bots=2)
    cookie = phones[0].cookies[f"table-{table.pk}"].value
    seat = 0

    async def listen() -> list[str]:
        client = AsyncClient()
        client.cookies[f"table-{table.pk}"] = cookie
        response = await client.get(reverse("table_events", args=[table.pk]))
        assert response["Content-Type"] == "text/event-stream"
        chunks: list[str] = []
        stream = response.streaming_content.__aiter__()
        while sum("event: screen" in chunk for chunk in chunks) < 2:
            chunk = await asyncio.wait_for(stream.__anext__(), 10)
            chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
            if len(chunks) == 2:  # the screen as it stands: now another phone acts
                await sync_to_async(_someone_acts)(table, phones)
        await stream.aclose()
        return chunks

    chunks = asyncio.run(listen())
    assert chunks[0].startswith("retry:")
    table.refresh_from_db()
    assert_only_own_cards(table, seat, "".join(chunks))
    assert f'data-version="{table.version}"' in chunks[-1]


def _someone_acts(table: PrivateTable, phones: list[Client]) -> None:
    table.refresh_from_db()
    seat = from_json(table.state).to_act
    form = {**form_for(table, seat), "version": str(table.version)}
    assert phones[seat].post(reverse("table_act", args=[table.pk]), form, **HTMX).status_code == 200


def test_the_house_rules_chosen_are_the_tables():
    host = Client()
    form = form_defaults(host, "classic")
    form |= {"host_name": "Ann", "target": "300", "min_bid": "60", "must_overtrump": "on"}
    assert host.post(reverse("tables_new"), form).status_code == 302
    table = PrivateTable.objects.latest("id")
    assert table.settings["target"] == 300
    assert table.settings["min_bid"] == 60
    assert from_json(table.state).settings.target == 300


def visible_words(html: str) -> str:
    """The page's words as a player reads them (no tags, no attributes)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.split("<body", 1)[-1]))


def test_a_full_table_says_so_on_its_link_and_to_a_late_friend():
    table, _ = open_table()
    late = Client()
    page = late.get(reverse("table_join", args=[table.link_token])).content.decode()
    assert escape(TABLE_FULL) in page
    assert "Sit here" not in page
    response = late.post(reverse("table_take", args=[table.link_token, 2]), {"name": "Late"})
    assert response.status_code == 409
    assert escape(TABLE_FULL) in response.content.decode()  # not "choose another": there is none
    assert TableSeat.objects.get(table=table, seat=2).name == "Friend 2"


def test_the_host_keeps_their_seat_and_is_told_to_end_the_table_instead():
    table, phones = open_table()
    page = phones[0].get(reverse("table_play", args=[table.pk])).content.decode()
    assert "Leave the table" not in page
    left = phones[0].post(reverse("table_quit", args=[table.pk]), follow=True)
    assert escape(HOST_STAYS) in left.content.decode()
    assert TableSeat.objects.get(table=table, seat=0).kind == TableSeat.PERSON
    # Nobody else can sit down in seat 1 and hold the host's controls.
    taken = Client().post(reverse("table_take", args=[table.link_token, 0]), {"name": "Mallory"})
    assert taken.status_code == 409


def test_a_trick_the_bots_finish_stays_on_view_with_who_took_it():
    table, phones = open_table(bots=3)
    while not from_json(table.state).tricks:
        form = {**form_for(table, 0), "version": str(table.version)}
        assert phones[0].post(reverse("table_act", args=[table.pk]), form, **HTMX).status_code == 200
        table.refresh_from_db()
    state = from_json(table.state)
    last = state.tricks[-1]
    winner = "Ann" if last.winner == 0 else f"Bot {last.winner + 1}"
    words = visible_words(phones[0].get(reverse("table_play", args=[table.pk])).content.decode())
    assert f"Last trick, taken by {winner}:" in words
    shown = words.split("Last trick", 1)[1]
    written = [f"{face(c).rank}{face(c).symbol}" for c in last.cards]  # "10♥", in play order
    assert re.findall(r"(?:10|[AKQJ9])[♠♥♦♣]", shown)[: len(last.cards)] == written


def test_bots_are_named_by_their_strength_as_practice_names_them_and_told_apart_by_seat():
    table, phones = open_table(bots=2)
    assert "Bot (Steady)" in visible_words(Client().get(reverse("tables_new")).content.decode())
    pages = {
        "join": Client().get(reverse("table_join", args=[table.link_token])).content.decode(),
        "table": phones[0].get(reverse("table_play", args=[table.pk])).content.decode(),
    }
    for name, page in pages.items():
        words = visible_words(page)
        assert "Bot 3 (Steady)" in words, name  # two bots at the table: each its own name
        assert "Bot 4 (Steady)" in words, name
        assert "Bot (Steady)" not in words, name
        assert "heuristic" not in words, name


def test_an_account_opens_a_table_under_its_own_name_and_sits_down_under_it():
    user = make_user("bea")
    phone = Client()
    phone.force_login(user)
    form = phone.get(reverse("tables_new")).context["form"]
    assert form["host_name"].value() == "bea"
    table, phones = open_table(bots=2)
    open_seat(phones[0], table, 1)
    page = phone.get(reverse("table_join", args=[table.link_token])).content.decode()
    assert 'name="name" maxlength="40" value="bea"' in page


def test_the_table_pages_link_to_the_help_on_playing_together():
    table, phones = open_table()
    help_link = f'href="{reverse("help", args=["play-together"])}"'
    assert help_link in Client().get(reverse("tables_new")).content.decode()
    assert help_link in Client().get(reverse("table_join", args=[table.link_token])).content.decode()
    assert help_link in phones[1].get(reverse("table_play", args=[table.pk])).content.decode()


PLAYED = re.compile(r'<li class="played ([^"]*)"[^>]*>.*?<span class="card[^>]*>([^<]+)</span>', re.S)


def played_on(html: str) -> list[tuple[set[str], str]]:
    """Each card on the felt as (its classes, its face as written: "10♥"), in the page's order."""
    felt = html.split('class="center"', 1)[1].split("</div>", 1)[0]
    return [(set(classes.split()), written) for classes, written in PLAYED.findall(felt)]


def written(card: int) -> str:
    return f"{face(card).rank}{face(card).symbol}"


def test_the_other_phone_lands_the_cards_played_since_its_last_screen_in_playing_order():
    """Friend 1 plays and the two bots answer: Ann's stream numbers those cards 0, 1, 2 as they were
    played (``--at``), a trick they finished is gathered, a second telling of the same change sends
    nothing, and her page loaded again lands nothing."""
    table, phones = open_table(bots=2)  # Ann, Friend 1, two bots after Friend 1
    stream = phones[0].get(reverse("table_play", args=[table.pk])).wsgi_request  # Ann's stream
    checked = gathered = 0
    while from_json(table.state).result is None:
        state = from_json(table.state)
        seat = state.to_act
        assert seat in (0, 1)
        playing = seat == 1 and state.decision == "play"
        if playing:
            views_tables._screen_html(stream, table.pk, 0)  # what Ann's phone shows
            before = [*(c for t in state.tricks for c in t.cards), *state.trick]
        form = {**form_for(table, seat), "version": str(table.version)}
        assert phones[seat].post(reverse("table_act", args=[table.pk]), form, **HTMX).status_code == 200
        table.refresh_from_db()
        if not playing:
            continue
        after = from_json(table.state)
        since = [*(c for t in after.tricks for c in t.cards), *after.trick][len(before) :]
        html, _ = views_tables._screen_html(stream, table.pk, 0)
        cards = played_on(html)
        landing = [(classes, face) for classes, face in cards if "seen" not in classes]
        assert [face for _, face in landing] == [written(c) for c in since]  # Friend 1's card, the bots'
        assert [f"play-{i}" in classes for i, (classes, _) in enumerate(landing)] == [True] * len(since)
        won = len(after.tricks) > len(state.tricks)
        assert ('class="trick gathered' in html) == won
        gathered += won
        checked += len(since) == 3
        again, _ = views_tables._screen_html(stream, table.pk, 0)
        assert again == ""  # told again of what it drew already (the bots' answer): nothing is sent
        page = phones[0].get(reverse("table_play", args=[table.pk])).content.decode()
        assert all("seen" in classes for classes, _ in played_on(page))  # a reload: settled
        assert 'class="trick gathered' not in page
    assert checked  # three cards in a row: Friend 1's and the two bots' answers
    assert gathered  # and a trick won on the way


def _waited(table: PrivateTable, seconds: float) -> None:
    PrivateTable.objects.filter(pk=table.pk).update(turn_since=timezone.now() - timedelta(seconds=seconds))


def test_a_quiet_stream_at_a_persons_turn_reads_one_small_row(django_assert_num_queries):
    # Every few seconds each connected phone looks in: one small row, however long the turn has
    # waited; the table's clock, not the stream, moves the table.
    table, _ = open_table(bots=2)
    to_act = from_json(PrivateTable.objects.get(pk=table.pk).state).to_act
    assert TableSeat.objects.get(table=table, seat=to_act).kind == TableSeat.PERSON
    _waited(table, services_tables.BOTS_LATE_SECONDS + 1)
    drawn = table_read(table.pk)
    away = views_tables._away(drawn, 0)
    with django_assert_num_queries(1):
        assert views_tables._keep_going(table.pk, 0, drawn, away, "stream", mark=False) is False


def test_a_quiet_stream_draws_again_when_a_quick_message_was_said_unheard():
    # A message moves no version (the version guards stale plays); with Redis down on several
    # servers the look is all that tells another server's phones of it.
    table, phones = open_table()
    drawn = table_read(table.pk)
    away = views_tables._away(drawn, 0)
    assert views_tables._keep_going(table.pk, 0, drawn, away, "stream", mark=False) is False
    said = phones[1].post(reverse("table_say", args=[table.pk]), {"message": "nice"}, **HTMX)
    assert said.status_code == 200
    assert PrivateTable.objects.get(pk=table.pk).version == drawn.version
    assert views_tables._keep_going(table.pk, 0, drawn, away, "stream", mark=False) is True
    assert views_tables._keep_going(table.pk, 0, table_read(table.pk), away, "stream", mark=False) is False


def test_a_quiet_stream_draws_again_when_another_phone_stops_marking_its_seat_or_marks_it_again():
    # A phone that stops marking (its mark expired, no goodbye) is away on the others' next look.
    table, _ = open_table()
    for seat in range(4):
        bus.mark_present(table.pk, seat, "stream")
    drawn = table_read(table.pk)
    assert drawn is not None
    away = views_tables._away(drawn, 0)
    assert away == frozenset()
    assert views_tables._keep_going(table.pk, 0, drawn, away, "stream", mark=False) is False
    cache.delete(f"table:{table.pk}:seat:2:seen")  # as when the mark runs out
    assert views_tables._keep_going(table.pk, 0, drawn, away, "stream", mark=False) is True
    assert views_tables._away(drawn, 0) == {2}
    bus.mark_present(table.pk, 2, "stream")
    assert views_tables._keep_going(table.pk, 0, drawn, away, "stream", mark=False) is False


def test_a_quiet_stream_only_reads_and_the_clock_has_the_bots_take_a_turn_they_were_too_busy_for(
    monkeypatch,
):
    table, phones = open_table(bots=2)
    real = bot_pool.table_play_on

    def busy(*args, **kwargs):
        raise bot_pool.BotsBusy

    monkeypatch.setattr(bot_pool, "table_play_on", busy)
    while TableSeat.objects.get(table=table, seat=from_json(table.state).to_act).kind == TableSeat.PERSON:
        _someone_acts(table, phones)
        table.refresh_from_db()
    waiting = table.version  # a bot's turn, left waiting: the bots were busy
    monkeypatch.setattr(bot_pool, "table_play_on", real)
    drawn = table_read(table.pk)
    away = views_tables._away(drawn, 0)
    _waited(table, services_tables.BOTS_LATE_SECONDS + 1)
    assert views_tables._keep_going(table.pk, 0, drawn, away, "stream", mark=False) is False
    assert PrivateTable.objects.get(pk=table.pk).version == waiting  # a stream moves nothing
    assert table.due_at is not None
    assert clock.run_due(table_clock_tick, now=table.due_at) == [table.pk]
    table.refresh_from_db()
    assert table.version > waiting
    assert TableSeat.objects.get(table=table, seat=from_json(table.state).to_act).kind == TableSeat.PERSON
    assert views_tables._keep_going(table.pk, 0, drawn, away, "stream", mark=False) is True  # drawn anew


@pytest.mark.parametrize("name", ["a\x00b", "\x00", "Ann\x07"])
def test_a_name_with_control_characters_is_refused_in_words_and_no_seat_is_taken(name):
    host = Client()
    form = form_defaults(host, "classic") | {"host_name": "Ann", "variant": "classic", "grace": "60"}
    form |= {f"seat_{seat}": "open" for seat in (1, 2, 3)}
    assert host.post(reverse("tables_new"), form).status_code == 302
    table = PrivateTable.objects.latest("id")
    response = Client().post(reverse("table_take", args=[table.link_token, 1]), {"name": name})
    assert response.status_code == 409
    assert "cannot hold control characters" in response.content.decode()
    assert TableSeat.objects.get(table=table, seat=1).kind == TableSeat.OPEN
