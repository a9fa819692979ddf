"""Every address of the site (``scorepad/urls.py``), with plausible and hostile path arguments, got
and posted with a small fixed set of hostile values in every field any form declares and some
extra keys: NUL bytes, numbers far out of range, negative numbers, empty and repeated lists, very
long strings, bad card codes and bytes that are not UTF-8. As a visitor and as a household member
with a game, a practice game, a private table and a club event in place. Nothing is a 500.

Unlike ``test_no_500_from_input`` (forms read from pages, Hypothesis's values), this walks the URL
patterns themselves, so a new address is covered the day it is added; its values are fixed, so a
red run is the same run again, on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from datetime import date
from urllib.parse import quote

import pytest
from asgiref.sync import iscoroutinefunction
from django import forms
from django.core.cache import cache
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, reverse
from django.utils import timezone

import scorepad.forms
from pinochle_site import urls as site_urls
from scorepad import urls as scorepad_urls
from scorepad.models import ClubTable, DailyDeal, PrivateTable
from scorepad.selectors.club_director import standings_token_of
from scorepad.selectors.puzzles import shipped
from scorepad.services.households import invite_create
from scorepad.services.practice import practice_start
from scorepad.services.scoreboards import scoreboard_link_create
from scorepad.services.seasons import season_create
from tests.sample_games import club_night, three_games
from tests.views.test_tables import form_defaults

pytestmark = pytest.mark.django_db

# A value in a field: far out of range, negative, NUL, very long, a bad or repeated card, not text.
HOSTILE = [
    "\x00",
    "a\x00b",
    "99999999999999999999",
    "-1",
    "0",
    "9" * 400,
    "x" * 5000,
    "ZZ",
    "AS AS AS AS AS",
    "10♥",
    "[]",
    "",
]
# Bytes sent as they are in a form's body and a query string: not UTF-8, a lone surrogate's bytes.
NOT_UTF8 = b"%ff%fe%c3%28%ed%a0%80"
# Keys no form declares that views read straight from the request, or that a script might add.
EXTRA_KEYS = [
    "next", "version", "hand_id", "entry_key", "action", "message", "seat", "counted", "show_name",
    "after", "since", "big", "round", "table", "number", "trick", "moves", "hint", "page", "code",
    "household", "variant", "revoke", "retire", "abandoned", "thrown_in", "count_meld", "bid_step",
    "bid_set", "preview", "accept", "cards", "card", "bid", "trump", "answer", "play", "meld", "pass",
    "run", "file", "text", "data", "id", "pk", "user", "player", "players", "newcomers", "pin", "side",
]  # fmt: skip
SIDES = 3  # sides of the widest variant: the hand forms' meld_0 … tricks_2
SEATS = 6  # seats of the widest variant: the start forms' seat_0 … name_5
# Addresses that end what the rest need (the session, the membership, the game): walked last.
LAST = ("logout", "delete", "remove", "revoke", "leave", "quit", "abandon", "undo")


def declared_fields() -> list[str]:
    """Every field of every form class in ``scorepad.forms``, with the numbered ones a form adds
    for each side or seat of a variant."""
    names: set[str] = set()
    for module in pkgutil.iter_modules(scorepad.forms.__path__):
        found = importlib.import_module(f"scorepad.forms.{module.name}")
        for _name, form in inspect.getmembers(found, inspect.isclass):
            if issubclass(form, forms.BaseForm) and hasattr(form, "base_fields"):
                names.update(form.base_fields)
    for number in range(max(SIDES, SEATS)):
        names.update(f"{prefix}_{number}" for prefix in ("meld", "tricks", "took", "seat", "name", "bot"))
    return sorted(names | set(EXTRA_KEYS))


def patterns() -> list[URLPattern]:
    """The site's addresses, the ones that end a session or a game last; never an event stream
    (an async view: it would wait for the table's next change)."""
    every = [*site_urls.urlpatterns, *scorepad_urls.urlpatterns]  # the site's own: health, log in, sign up
    found = [pattern for pattern in every if isinstance(pattern, URLPattern)]
    found = [pattern for pattern in found if not iscoroutinefunction(pattern.callback)]
    return sorted(found, key=lambda pattern: any(word in str(pattern.pattern) for word in LAST))


HOSTILE_INT = [0, 99999999999999999999]
HOSTILE_STR = ["\x00", "a" * 300, "%ff", "2026-02-30"]


def arguments(pattern: URLPattern, plausible: dict[str, object]) -> Iterator[dict[str, object]]:
    """The pattern's keywords as the world has them (the household, game, hand … made below), then
    each keyword hostile in turn with the others plausible."""
    converters = pattern.pattern.converters
    kwargs = {name: plausible.get(name, 1) for name in converters}
    yield kwargs
    for name, converter in converters.items():
        numeric = type(converter).__name__ == "IntConverter"
        for bad in HOSTILE_INT if numeric else HOSTILE_STR:
            if type(converter).__name__ == "SlugConverter" and not bad.replace("-", "").isalnum():
                continue
            yield {**kwargs, name: bad}


def address(pattern: URLPattern, kwargs: dict[str, object]) -> str:
    name = pattern.name
    assert name is not None
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:  # a value the converter refuses to write: built by hand, as a script would
        path = str(pattern.pattern)
        for key, value in kwargs.items():
            written = quote(str(value))
            path = re.sub(rf"<(?:\w+:)?{key}>", lambda _found, written=written: written, path)
        return "/" + path


def encoded(fields: list[str], value: str) -> bytes:
    """A form body with every field set to ``value``, and one field sent twice (a list)."""
    pairs = [f"{quote(field)}={quote(value)}" for field in fields]
    pairs.append(f"{quote(fields[0])}=1")
    return "&".join(pairs).encode()


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    """The web workers' mailboxes (``table_bus``) go in this test's folder, not the checkout's var/."""
    settings.VAR_DIR = tmp_path


@pytest.fixture
def world(member, ann, household) -> dict[str, object]:
    """Ann's household with its games, a practice game, a private table she hosts (this client
    holds seat 1), a club night with a hand entered (and this client as a table's phone), a share
    link, an invitation and today's deal: the plausible value of each URL keyword."""
    games = three_games(household)
    game = games["playing"]
    hand = game.hands.order_by("number").first()
    practice = practice_start(user=ann, variant_id="classic", strength="heuristic", seed=3)
    table_form = form_defaults(member, "classic") | {"host_name": "Ann", "variant": "classic", "grace": "60"}
    table_form |= {"seat_1": "open", "seat_2": "bot:heuristic", "seat_3": "bot:heuristic"}
    assert member.post(reverse("tables_new"), table_form).status_code == 302
    table = PrivateTable.objects.latest("id")
    entered = club_night(household, ann)
    club_table = ClubTable.objects.get(pk=entered.table_id)
    pin = {"pin": club_table.pin, "side": 0}
    assert member.post(reverse("club_table", args=[club_table.token]), pin).status_code == 302
    today = timezone.localdate()
    line = {"bidder": 1, "bid": 25, "trump": "H", "points": [10, 40], "scores": [17, 35]}
    DailyDeal.objects.create(day=today, variant="classic", seed=4, expert_score=17, expert_line=line)
    invite = invite_create(household=household, user=ann)
    puzzle_key = shipped("classic")[0].key
    return {
        "household_id": household.pk,
        "game_id": game.pk,
        "hand_id": hand.pk if hand else 1,
        "invite_id": invite.pk,
        "token": invite.token,
        "user_id": ann.pk,
        "player_id": household.players.first().pk,
        "practice_id": practice.pk,
        "hand": 0,
        "day": date.isoformat(today),
        "variant": "classic",
        "variant_id": "classic",
        "key": puzzle_key,
        "share_token": scoreboard_link_create(game=game, user=ann).token,
        "event_id": club_table.round.event_id,
        "table_id": club_table.pk,
        "card_id": club_table.card_id,
        "table_hand_id": entered.pk,
        "club_hand_id": entered.hand_id,
        "table_token": club_table.token,
        "standings_token": standings_token_of(club_table.round.event),
        "link_token": table.link_token,
        "seat": 1,
        "private_table_id": table.pk,
        "slug": "households",
        "season_id": season_create(household=household, name="Autumn").pk,
    }


def _answered(client: Client, url: str, fields: list[str], values: list[str]) -> list[tuple[str, str, int]]:
    """GET ``url`` (with every field set to the first value, and with bytes that are not UTF-8),
    POST it with each value in every field, and with bytes that are not a form: the 500s."""
    failed: list[tuple[str, str, int]] = []
    query = "&".join(f"{quote(field)}={quote(values[0])}" for field in fields[:40])
    sends = [("GET", f"{url}?{query}", b""), *(("POST", url, encoded(fields, value)) for value in values)]
    if len(values) > 1:  # and each field a different value, in turn
        for turn in range(3):
            mixed = [
                f"{quote(field)}={quote(values[(n + turn) % len(values)])}" for n, field in enumerate(fields)
            ]
            sends.append(("POST", url, "&".join(mixed).encode()))
        not_text = "&".join(f"{quote(field)}={NOT_UTF8.decode()}" for field in fields).encode()
        sends += [("GET", f"{url}?next={NOT_UTF8.decode()}", b""), ("POST", url, not_text)]
        sends += [("POST", url, b"\xff\xfe\x00")]
    for method, sent, body in sends:
        if method == "GET":
            response = client.get(sent)
        else:
            response = client.generic(method, sent, body, content_type="application/x-www-form-urlencoded")
        if response.status_code == 503:  # the bots busy, or the database: said in words
            assert "try again" in response.content.decode().lower(), (method, sent[:200])
        elif response.status_code >= 500:
            failed.append((method, sent[:200], response.status_code))
    return failed


@pytest.mark.slow  # every address, every field, every value: the full run's
def test_no_address_answers_any_value_with_a_500(world, member):
    fields = declared_fields()
    visitor = Client(raise_request_exception=False)
    member.raise_request_exception = False
    failed: list[tuple[str, str, int]] = []
    for pattern in patterns():
        for number, kwargs in enumerate(arguments(pattern, world)):
            url = address(pattern, kwargs)
            cache.clear()  # the limits' counts (a 429 would answer before the code under test runs)
            # Each address as the world has it, with every value; then each argument gone wrong.
            # The visitor first: the member's values may take what the visitor would (an open seat).
            failed += _answered(visitor, url, fields, HOSTILE[:2] if number == 0 else HOSTILE[:1])
            failed += _answered(member, url, fields, HOSTILE if number == 0 else HOSTILE[:1])
    assert failed == []
