"""Practice with `bidder_may_concede`: the table offers throwing in beside playing on, each with its
expected result, and a throw-in is scored as a forfeit."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scorepad.engine.bots import ExpertBot
from scorepad.engine.game import from_json
from scorepad.engine.view import CONCEDE
from scorepad.models import PracticeGame
from scorepad.services.practice import practice_act, practice_start
from tests.sample_games import make_user
from tests.services.test_practice import hinted, said

pytestmark = pytest.mark.django_db


def at_players_concede(user) -> PracticeGame:
    """A classic game (heuristic answers for the player) where the player won the bid and meld is shown."""
    for seed in range(60):
        rules = {"bidder_may_concede": True}
        game = practice_start(user=user, variant_id="classic", overrides=rules, seed=seed)
        while True:
            state = from_json(game.state)
            if state.decision == CONCEDE and state.to_act == 0:
                return game
            if state.result is not None or state.tricks:
                break
            game = practice_act(game=game, version=game.version, answer=said(game, hinted(game))).game
    raise AssertionError("the player never won a bid")


def test_the_table_offers_throwing_in_with_both_expected_results_and_scores_it_as_a_forfeit(client):
    user = make_user("concede")
    client.force_login(user)
    game = at_players_concede(user)
    url = reverse("practice_game", args=[game.pk])
    page = client.get(url).content.decode()
    offer = page[page.index('aria-label="Throw in or play on"') :]
    offer = offer[: offer.index("</section>")]
    buttons = re.findall(r'<button type="submit" name="concede" value="(true|false)" class="([^"]*)">', offer)
    assert [value for value, _ in buttons] == ["true", "false"]
    assert buttons[0][1] == buttons[1][1] == "chip"  # the same style: neither is the green default
    assert "primary" not in offer
    assert "Throw in <small" in offer
    assert "your side loses" in offer
    assert "Play on <small" in offer
    assert re.search(r"the expert would (throw in|play on)\.", offer)  # the advice, in words
    bid = from_json(game.state).bid
    client.post(reverse("practice_act", args=[game.pk]), {"concede": "true", "version": game.version})
    game.refresh_from_db()
    [entry] = game.hands
    assert entry["played"] is False
    assert entry["scores"][0] == -bid
    assert entry["reasons"][0] == "conceded: loses the bid"


def test_after_throwing_in_the_headline_says_the_player_threw_in(client):
    user = make_user("threw")
    client.force_login(user)
    game = at_players_concede(user)
    bid = from_json(game.state).bid
    client.post(reverse("practice_act", args=[game.pk]), {"concede": "true", "version": game.version})
    table = client.get(reverse("practice_game", args=[game.pk])).context["table"]
    assert table.result_words == f"You bid {bid} and threw the hand in."
    assert "forfeited" not in table.result_words


def test_the_hint_at_the_concede_decision_names_it_in_words(client):
    user = make_user("hint")
    client.force_login(user)
    game = at_players_concede(user)
    table = client.get(reverse("practice_game", args=[game.pk]), {"hint": "1"}).context["table"]
    assert table.hint.words in ("Throw the hand in", "Play on")
    assert table.hint.value in ("true", "false")
    assert table.hint.reason.startswith(("throw in:", "play on:"))


def test_a_conceded_hand_is_reviewed_with_the_concede_decision_in_words(client, monkeypatch):
    monkeypatch.setattr("scorepad.engine.review.REVIEW_PLAYOUTS", 24)
    monkeypatch.setattr("scorepad.services.practice_review.REVIEW_PLAYOUTS", 24)
    user = make_user("review")
    client.force_login(user)
    game = at_players_concede(user)
    game = practice_act(game=game, version=game.version, answer=said(game, {"concede": "true"})).game
    url = reverse("practice_review", args=[game.pk, 0])
    for _ in range(40):
        page = client.get(url)
        if page.context["review"].done:
            break
    rows = page.context["review"].rows
    assert rows[-1].where == "Throw in?"
    assert rows[-1].yours == "throw in"
    assert rows[-1].best in ("throw in", "play on")


def test_reloading_the_table_at_the_concede_decision_does_not_search_again(client, monkeypatch):
    user = make_user("reload")
    client.force_login(user)
    game = at_players_concede(user)
    searches = []
    real = ExpertBot.evaluate
    monkeypatch.setattr(ExpertBot, "evaluate", lambda bot, view: searches.append(1) or real(bot, view))
    url = reverse("practice_game", args=[game.pk])
    pages = [client.get(url).content.decode() for _ in range(3)]
    assert len(searches) == 1  # the offer is weighed once for this version of the game
    offers = [re.findall(r"(?:Throw in|Play on) <small[^>]*>your side [^<]+", page) for page in pages]
    assert len(offers[0]) == 2
    assert offers[0] == offers[1] == offers[2]  # the same words each time
