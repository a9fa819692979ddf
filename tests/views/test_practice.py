"""Practice views: a visitor plays from the session, a user from their account; stale posts change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorepad.constants import STRENGTH_WORDS
from scorepad.engine import answers
from scorepad.engine.bots import PRACTICE_STRENGTHS
from scorepad.engine.cards import Card, card_name, card_words, cards_from_counts
from scorepad.engine.game import HandState, from_json, seat_view
from scorepad.models import PracticeGame
from scorepad.pages.practice import practice_table
from scorepad.services.practice import STALE, practice_start
from scorepad.views import practice as views_practice
from tests.sample_games import make_user
from tests.services.test_practice import hinted

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def start(client, variant="classic", **rules) -> PracticeGame:
    form = {"variant": variant, "strength": "heuristic", **_defaults(client, variant), **rules}
    response = client.post(reverse("practice"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    return PracticeGame.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def _defaults(client, variant) -> dict[str, str]:
    form = client.get(reverse("practice"), {"variant": variant}).context["form"]
    values = {name: form[name].value() for name in form.fields}
    return {name: str(value) for name, value in values.items() if value is not False and value is not None}


def answer_of(game: PracticeGame) -> dict[str, str]:
    return {**hinted(game), "version": str(game.version)}


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_a_visitor_starts_a_game_and_sees_their_hand(client, variant):
    game = start(client, variant)
    assert game.user is None
    page = client.get(reverse("practice_game", args=[game.pk]))
    assert page.status_code == 200
    assert "Your hand" in page.content.decode()


def test_another_visitor_gets_404_for_a_visitors_game(client):
    game = start(client)
    other = client.__class__()
    assert other.get(reverse("practice_game", args=[game.pk])).status_code == 404
    assert other.post(reverse("practice_act", args=[game.pk]), answer_of(game)).status_code == 404


def test_a_users_game_is_kept_in_their_history(client):
    client.force_login(make_user("ann"))
    game = start(client)
    assert game.user.username == "ann"
    history = client.get(reverse("practice_history"))
    assert reverse("practice_game", args=[game.pk]) in history.content.decode()


def test_a_double_tap_is_refused_in_words_and_changes_nothing(client):
    game = start(client)
    answer = answer_of(game)
    first = client.post(reverse("practice_act", args=[game.pk]), answer)
    assert first.status_code == 302
    game.refresh_from_db()
    after_first = (game.state, game.version)

    second = client.post(reverse("practice_act", args=[game.pk]), answer, follow=True)

    assert second.redirect_chain == [(reverse("practice_game", args=[game.pk]), 302)]
    assert STALE in second.content.decode()
    game.refresh_from_db()
    assert (game.state, game.version) == after_first


def test_htmx_gets_the_table_partial(client):
    game = start(client)
    response = client.post(
        reverse("practice_act", args=[game.pk]), answer_of(game), headers={"HX-Request": "true"}
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="table"')


def test_a_move_reads_its_answer_once_and_builds_the_table_once_after_the_write(client, monkeypatch):
    game = _to_my_bid(client)  # a bid: the step where the view also asks about a far bid
    counted = {"parsed": 0, "tables": 0, "version when drawn": []}
    real_parse, real_table = answers.parse_form, views_practice.practice_table

    def parse(*args):
        counted["parsed"] += 1
        return real_parse(*args)

    def table(game, **kwargs):
        counted["tables"] += 1
        counted["version when drawn"].append(PracticeGame.objects.get(pk=game.pk).version)
        return real_table(game, **kwargs)

    monkeypatch.setattr(answers, "parse_form", parse)
    monkeypatch.setattr(views_practice, "practice_table", table)
    response = client.post(
        reverse("practice_act", args=[game.pk]), answer_of(game), headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert counted == {"parsed": 1, "tables": 1, "version when drawn": [game.version + 1]}


def test_a_post_without_an_answer_is_refused_not_an_error(client):
    game = start(client)
    response = client.post(reverse("practice_act", args=[game.pk]), {"version": game.version}, follow=True)
    assert response.status_code == 200
    assert "Not allowed: your answer is missing: the form needs a" in response.content.decode()


def test_the_hint_names_a_move_and_a_reason(client):
    game = start(client)
    page = client.get(reverse("practice_game", args=[game.pk]), {"hint": "1"})
    assert page.context["table"].hint.reason
    assert "Hint:" in page.content.decode()


def test_only_the_listed_strengths_are_offered_and_accepted(client):
    response = client.post(reverse("practice"), {**_defaults(client, "classic"), "strength": "cmd:ls"})
    assert response.status_code == 200
    assert not PracticeGame.objects.exists()


def test_the_start_page_describes_each_strength_in_a_sentence_and_says_the_bots_are_fair(client):
    page = client.get(reverse("practice")).content.decode()
    for name in PRACTICE_STRENGTHS:
        label, sentence = STRENGTH_WORDS[name].split(": ", 1)
        assert f'value="{name}"' in page
        assert sentence.endswith(".")
        assert f"{label}: {sentence}" in page
    assert "The bots never look at your cards" in page


def test_a_visitors_game_joins_their_history_when_they_log_in(client):
    game = start(client)
    client.force_login(make_user("bo"))
    assert client.get(reverse("practice_game", args=[game.pk])).status_code == 200
    game.refresh_from_db()
    assert game.user.username == "bo"
    assert (
        reverse("practice_game", args=[game.pk]) in client.get(reverse("practice_history")).content.decode()
    )


def test_a_users_game_is_404_for_another_user(client):
    game = practice_start(user=make_user("cy"), variant_id="classic", seed=1)
    client.force_login(make_user("di"))
    assert client.get(reverse("practice_game", args=[game.pk])).status_code == 404


def test_htmx_gets_a_refusal_in_place(client):
    game = start(client)
    response = client.post(
        reverse("practice_act", args=[game.pk]), {"version": game.version - 1}, headers={"HX-Request": "true"}
    )
    assert response.content.decode().lstrip().startswith('<div id="table"')
    assert STALE in response.content.decode()


def test_a_second_tap_on_rematch_starts_no_second_game(client):
    game = start(client)
    game.finished = True
    game.save()
    form = {"version": game.version}
    first = client.post(reverse("practice_rematch", args=[game.pk]), form)
    second = client.post(reverse("practice_rematch", args=[game.pk]), form, follow=True)
    assert first.status_code == 302
    assert PracticeGame.objects.count() == 2
    assert STALE in second.content.decode()


def test_house_rules_come_with_the_variants_defaults_and_only_changes_are_stored(client):
    defaults = start(client, "double-deck")
    assert defaults.settings == {}
    changed = start(client, "classic", target="50", pass_cards="0", head_the_trick="")
    assert changed.settings == {"target": 50, "pass_cards": 0, "play_mode": "FOLLOW"}


def test_the_start_form_sent_twice_starts_one_game(client):
    form = {"variant": "classic", "strength": "heuristic", **_defaults(client, "classic")}
    first = client.post(reverse("practice"), form)
    again = client.post(reverse("practice"), form, follow=True)  # a double tap, or the form resent
    assert PracticeGame.objects.count() == 1
    assert again.redirect_chain == [(first["Location"], 302)]  # on to the game the first post started
    assert "That game was already started: the form was sent twice." in again.content.decode()


def test_a_start_form_without_its_one_time_token_is_refused_in_words(client):
    form = {"variant": "classic", "strength": "heuristic", **_defaults(client, "classic")}
    response = client.post(reverse("practice"), {**form, "start_token": ""})
    assert response.status_code == 200
    assert not PracticeGame.objects.exists()
    assert "This form is out of date" in response.content.decode()
    fresh = response.context["form"]["start_token"].value()
    assert fresh  # the form shown again can start the game
    assert fresh != form["start_token"]
    assert client.post(reverse("practice"), {**form, "start_token": fresh}).status_code == 302


def test_while_the_bots_are_busy_a_move_or_a_start_gets_a_503_in_words_with_when_to_retry(client, settings):
    game = start(client)
    settings.PRACTICE_BOTS_AT_ONCE = 0  # every bot of this worker already thinking
    moved = client.post(reverse("practice_act", args=[game.pk]), answer_of(game))
    form = {"variant": "classic", "strength": "heuristic", **_defaults(client, "classic")}
    started = client.post(reverse("practice"), form)
    for response in (moved, started):
        assert response.status_code == 503
        assert response["Retry-After"] == "2"
        assert "The bots are busy at other tables: nothing was changed." in response.content.decode()
    assert PracticeGame.objects.get(pk=game.pk).version == game.version
    assert PracticeGame.objects.count() == 1


def _to_my_bid(client) -> PracticeGame:
    """A classic game where the player is to bid and a quick bid is offered (no forced dealer)."""
    for seed in range(1, 40):
        game = practice_start(user=None, variant_id="classic", seed=seed)
        table = practice_table(game)
        if table.decision == "bid" and not table.forced:
            session = client.session
            session["practice_games"] = [game.pk]
            session.save()
            return game
    raise AssertionError("no seed deals the player a free bid")


def test_a_bid_far_above_the_last_is_asked_first_and_changes_nothing_until_confirmed(client):
    game = _to_my_bid(client)
    far = int(practice_table(game).bid_chips[-1][0]) + 1
    url = reverse("practice_act", args=[game.pk])

    asked = client.post(url, {"bid": str(far), "version": game.version})

    assert asked.status_code == 200
    assert f"Yes, bid {far}" in asked.content.decode()
    assert PracticeGame.objects.get(pk=game.pk).version == game.version  # nothing written yet
    client.post(url, {"bid": str(far), "sure": "1", "version": game.version})
    assert [0, far] in PracticeGame.objects.get(pk=game.pk).state["auction"]


def test_a_refusal_after_a_plain_form_is_shown_next_to_the_hand_once(client):
    game = _to_my_bid(client)
    response = client.post(reverse("practice_act", args=[game.pk]), {"bid": "1", "version": game.version})
    page = client.get(response["Location"]).content.decode()
    assert page.index("Not allowed: 1 is below") > page.index('class="thumb"')
    assert "Not allowed" not in client.get(response["Location"]).content.decode()


def _hidden_cards(state: HandState) -> set[Card]:
    """The bots' cards the player may not see: held now, and neither shown as meld, nor on the
    table, nor passed to or by the player (the same card may sit in two hands: two decks)."""
    view = seat_view(state, 0)
    seen = {*view.hand, *view.passed, *view.received, *(c for shown in view.shown for c in shown)}
    seen |= {*(view.trick.cards if view.trick else ()), *(view.tricks[-1].cards if view.tricks else ())}
    held = {c for seat in range(1, state.variant.seats) for c in cards_from_counts(state.hands[seat])}
    return held - seen


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_no_bots_unplayed_card_appears_in_any_practice_response_before_the_hand_ends(
    client, monkeypatch, variant
):
    # A fixed deal that is played out (a random one may end at once in a double-deck forfeit).
    monkeypatch.setattr("scorepad.services.practice.new_seed", lambda: 1)
    game = start(client, variant)
    page, act = reverse("practice_game", args=[game.pk]), reverse("practice_act", args=[game.pk])
    responses = [client.get(page), client.get(page, {"hint": "1"}), client.get(page, **HTMX)]
    mine = seat_view(from_json(game.state), 0).hand
    assert all(card_name(c) in responses[0].content.decode() for c in mine)  # the check sees faces
    checked = 0
    while True:
        state = from_json(game.state)
        hidden = _hidden_cards(state)
        for response in responses:
            text = response.content.decode()
            assert response.status_code == 200
            shown = [card_name(c) for c in hidden if card_name(c) in text or card_words(c) in text]
            assert not shown, f"hand {state.hand_number + 1}, decision {state.decision}: {shown}"
            checked += 1
        if state.result is not None:
            break
        responses = [client.post(act, answer_of(game), **HTMX), client.get(page)]
        game.refresh_from_db()
    assert checked > 10  # a whole hand, decision after decision
