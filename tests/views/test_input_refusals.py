"""Input that once reached a 500: each is refused in words, or read as well as it can be."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from scorepad.engine.game import from_json
from scorepad.models import Household, Player, PracticeGame
from scorepad.services.practice import practice_start
from tests.sample_games import CLASSIC_PLAYING, import_game, make_household

# Every test here acts as Ann, signed in.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("member")]


def test_a_practice_bid_of_hundreds_of_digits_is_refused_in_words_and_changes_nothing(client, ann):
    game = practice_start(user=ann, variant_id="classic", strength="heuristic", seed=7)
    assert from_json(game.state).to_act == 0  # the player's first decision is a bid
    before = (game.state, game.version)
    response = client.post(
        reverse("practice_act", args=[game.pk]),
        {"bid": "1" + "0" * 400, "version": game.version},
        follow=True,
    )
    assert response.status_code == 200
    assert "a number of about 401 digits is more than a side can score in one hand (1013)" in (
        response.content.decode()
    )
    game.refresh_from_db()
    assert (game.state, game.version) == before


def _summary(scores, bidder=0, made=True):
    return {"hand": 0, "dealer": 3, "bidder": bidder, "bid": 25, "scores": scores, "made": made}


def test_practice_history_leaves_out_stored_hands_no_rules_could_score(client, ann):
    game = practice_start(user=ann, variant_id="classic", strength="heuristic", seed=7)
    game.hands = [
        _summary([30, -5]),  # the one real hand: the player's side bid 25 and made it
        _summary([-(10**400), 12]),  # a bid of 10^400 went set, before bids had a ceiling
        _summary(["30", 5]),
        _summary([30]),
        _summary([30, 5], bidder=9),
        "hand 2",
    ]
    game.save()
    PracticeGame.objects.create(user=ann, variant="gone", strength="heuristic", seed=1, state={}, hands=[1])

    response = client.get(reverse("practice_history"))

    assert response.status_code == 200
    stats = response.context["stats"]
    assert (stats.games, stats.hands, stats.bids, stats.bids_made, stats.margin) == (2, 1, 1, 1, 35.0)


@pytest.mark.parametrize(
    ("url", "field", "words"),
    [
        ("household_new", "name", "Null characters are not allowed."),
        ("player_add", "name", "Null characters are not allowed."),
        ("player_edit", "name", "A player's name cannot hold control characters (such as NUL)"),
        ("game_new", "new_player", "A player's name cannot hold control characters (such as NUL)"),
    ],
)
def test_a_nul_in_a_name_is_refused_in_words_and_stored_nowhere(client, ann, url, field, words):
    household = make_household(ann)
    player = household.players.first()
    args = {
        "household_new": [],
        "player_add": [household.pk],
        "player_edit": [household.pk, player.pk],
        "game_new": [household.pk],
    }[url]
    data = {field: "Cy\x00 Smith", **({"add_player": "1", "variant": "classic"} if url == "game_new" else {})}
    response = client.post(reverse(url, args=args), data, follow=True)
    assert response.status_code == 200
    assert words in html.unescape(response.content.decode())
    names = [*Household.objects.values_list("name", flat=True)]
    names += Player.objects.values_list("name", flat=True)
    assert not [name for name in names if "\x00" in name]


def test_a_paste_of_ten_megabytes_gets_a_page_in_words_not_a_bare_400(client, ann, settings):
    settings.DEBUG = False
    household = make_household(ann)
    response = client.post(reverse("game_import", args=[household.pk]), {"record": "x" * 10_000_000})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "That could not be read" in page
    assert "file</strong> instead of pasting it" in page
    assert "Back to your households" in page


@pytest.mark.parametrize("field", ["number", "version"])
@pytest.mark.parametrize("value", ["99999999999999999999", "-1"])
def test_a_forged_hidden_number_of_a_hand_is_refused_by_the_form_in_words(client, ann, field, value):
    household = make_household(ann)
    game = import_game(household, CLASSIC_PLAYING, ("Ann", "Bo", "Cy", "Di"))
    hands = game.hands.count()
    hand = game.hands.order_by("number").first()
    form = {"bidder": "0", "bid": "25", "trump": "H", "meld_0": "10", "meld_1": "5", "tricks_0": "15"}
    form |= {"tricks_1": "10", "number": str(hands), "version": str(hand.version), field: value}
    url = reverse("hand_edit", args=[game.pk, hand.pk]) if field == "version" else None
    response = client.post(url or reverse("hand_create", args=[game.pk]), form)
    assert response.status_code == 200
    said = html.unescape(response.content.decode())
    assert "This page is out of date: reload it and enter the hand again." in said
    assert game.hands.count() == hands
