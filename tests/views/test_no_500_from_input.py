"""Arbitrary values in every field of every form of the scorepad, practice and import pages: each
is answered (a page, a refusal in words, a redirect), never a 500.

The forms are read from the pages themselves, as a browser does, so a field added later is posted
to as well. Hypothesis sends each form a modest number of examples (CI replays them derandomized).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import resolve, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.services.games import hand_record
from scorepad.services.practice import practice_start
from tests.examples import examples
from tests.sample_games import CLASSIC_PLAYING, import_game, make_household, make_user

pytestmark = pytest.mark.django_db

# Values a phone, a script or an attacker might send: numbers far out of range, codes and symbols,
# NUL and other control characters, thousands of digits, and anything else. (Not "expert": a start
# would think for seconds; its strength is a choice like any other.)
AWKWARD = st.sampled_from(
    ["", " ", "-5", "0", "4", "99999999999999999999", "1" + "0" * 400, "9" * 5000, "1e400", "NaN",
     "-0", "3.5", "pass", "H", "♥", "10♥", "AS", "TH", "\x00", "Ann\x00", "[]", "{}", "null",
     "random", "on", "1", "true", "six-handed", "classic", "double-deck", "easy", "<script>"]
)  # fmt: skip
VALUES = st.one_of(AWKWARD, st.integers(-3, 10).map(str), st.text(max_size=40), st.integers().map(str))
SENT = st.integers(0, 4).map(bool)  # a browser sends every field; a script may leave some out


# Forms that end what the others need (the session, the game, the membership): posted to, they
# would leave the rest of the examples a 404 or a log-in page. Their own tests cover them.
LEFT_ALONE = ("/accounts/logout/", "/delete/", "/remove/")


class Forms(HTMLParser):
    """Every form of a page: its action, its method, the names of its fields and of its buttons
    (a browser sends one button, the one tapped)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, str, list[str], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "form":
            self.forms.append((named.get("action") or "", (named.get("method") or "get").lower(), [], []))
        elif tag in ("input", "select", "textarea", "button") and self.forms and named.get("name"):
            button = tag == "button" or named.get("type") == "submit"
            names = self.forms[-1][3 if button else 2]
            if named["name"] not in names:
                names.append(named["name"])


def forms_of(client: Client, url: str) -> list[tuple[str, str, list[str], list[str]]]:
    page = client.get(url)
    assert page.status_code == 200, url
    parser = Forms()
    parser.feed(page.content.decode())
    return [
        (action or url, method, fields, buttons)
        for action, method, fields, buttons in parser.forms
        if (fields or buttons) and not any(part in (action or url) for part in LEFT_ALONE)
    ]


@pytest.fixture
def pages(client):
    """A member's household with a game under way, and a practice game: every page with a form."""
    user = make_user("ann")
    client.force_login(user)
    household = make_household(user)
    game = import_game(household, CLASSIC_PLAYING, ("Ann", "Bo", "Cy", "Di"))
    hand_record(
        game=game, number=1, data={"bidder": 0, "bid": 20, "trump": "H", "meld": [4, 6], "tricks": [12, 13]}
    )
    hand = game.hands.last()
    practice = practice_start(user=user, variant_id="classic", strength="heuristic", seed=3)
    urls = [
        reverse("household_new"),
        reverse("household", args=[household.pk]),
        reverse("game_new", args=[household.pk]) + "?variant=six-handed",
        reverse("game", args=[game.pk]),
        reverse("hand_edit", args=[game.pk, hand.pk]),
        reverse("hand_delete", args=[game.pk, hand.pk]),
        reverse("game_import", args=[household.pk]),
        reverse("household_restore"),
        reverse("practice"),
        reverse("practice_game", args=[practice.pk]),
        reverse("meld"),
    ]
    found: dict[tuple[str, str], tuple[set[str], set[str]]] = {}
    for url in urls:
        for action, method, fields, buttons in forms_of(client, url):
            known = found.setdefault((action, method), (set(), set()))
            known[0].update(fields)
            known[1].update(buttons)
    return {key: (sorted(fields), sorted(buttons - fields)) for key, (fields, buttons) in found.items()}


def test_the_pages_offer_the_forms_this_test_posts_to(pages):
    names = {resolve(action.split("?")[0]).url_name for action, _method in pages}
    assert {
        "household_new",
        "player_add",
        "player_edit",
        "game_new",
        "hand_create",
        "hand_edit",
        "game_undo",
        "game_abandon",
        "game_import",
        "household_restore",
        "practice",
        "practice_act",
        "meld",
    } <= names


@settings(
    max_examples=examples(25),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_value_in_any_field_of_any_form_gets_a_500(client, pages, data):
    for (action, method), (fields, buttons) in pages.items():
        chosen = {name: data.draw(VALUES, label=name) for name in fields if data.draw(SENT, label=action)}
        tapped = data.draw(st.sampled_from([None, *buttons]), label="button")
        if tapped is not None:
            chosen[tapped] = data.draw(VALUES, label=tapped)
        posted = {
            name: SimpleUploadedFile("x.json", value.encode()) if name == "file" else value
            for name, value in chosen.items()
        }
        send = client.post if method == "post" else client.get
        response = send(action, posted, headers={"HX-Request": "true"} if data.draw(st.booleans()) else {})
        assert response.status_code < 500, (action, chosen)
