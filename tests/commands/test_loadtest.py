"""The load benchmark: its player fills the real hand form like a browser, its checks catch a lost
hand, and a short run against gunicorn loses nothing (speed itself is for the command to print)."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from scorepad.engine.variants import VARIANTS
from scorepad.models import Game
from scorepad.selectors.games import game_score
from scorepad.services.households import household_create, player_create
from tools.loadtest.run import (
    Player,
    Stats,
    _session_for,
    disruption_window,
    errors_outside,
    fill_hand,
    hand_form,
    new_game,
    page_totals,
    unmatched,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def player(db):
    def make(variant: str) -> Player:
        user = User.objects.create_user(f"lt-{variant}")
        household = household_create(user=user, name="Load")
        for seat in range(6):
            player_create(household=household, name=f"P{seat}")
        made = Player(0, user, household, variant, _session_for(user))
        made.games.append(new_game(made))
        return made

    return make


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_simulated_player_records_valid_hands_from_the_page_in_every_variant(client, player, variant):
    """Read from the page and posted as a browser would: hidden inputs kept, choices from the page."""
    someone = player(variant)
    client.force_login(someone.user)
    game_url = reverse("game", args=[someone.games[0]])
    rng = random.Random(3)
    posted = []
    for _ in range(5):
        form = hand_form(client.get(game_url).content.decode())
        data, entry = fill_hand(form, rng, someone.trick_total)
        assert ("save", "1") in data
        assert any(name == "csrfmiddlewaretoken" for name, _ in data)
        response = client.post(form.action, dict(data))
        assert response.status_code == 302, response.content.decode()[:2000]
        posted.append(entry)
    game = Game.objects.get(pk=someone.games[0])
    stored = [hand.entry() for hand in game.hands.all()]
    assert unmatched(posted, stored) == 0
    assert page_totals(client.get(game_url).content.decode()) == list(game_score(game).totals)


def test_a_hand_acknowledged_but_not_stored_is_counted_lost():
    hands = [{"bidder": b, "bid": 20, "trump": "H", "meld": [20, 30]} for b in range(4)]
    assert unmatched(hands, hands) == 0
    assert unmatched(hands, [hands[0], {**hands[1], "tricks": [10, 15]}, hands[3]]) == 1
    assert unmatched(hands, [hands[1], hands[0], hands[2], hands[3]]) == 1  # out of order is lost too
    assert unmatched(hands[1:], hands) == 0  # a stored hand whose answer was lost is not


def test_only_requests_in_flight_during_a_restart_may_fail():
    stats = Stats(disrupted=(30.0, 34.0))  # the restart command ran from 30 s to 34 s
    stats.answered = [(33.0, False), (34.5, False), (35.0, True), (36.0, True)]
    window = disruption_window(stats)
    assert window == (30.0, 35.0)  # until the first success of a request sent after it
    errors = [(29.0, 30.5, "sent before, answered during"), (34.5, 34.9, "sent after, still down")]
    errors += [(28.0, 29.5, "answered before"), (36.0, 36.2, "after the first success")]
    assert [what for _, _, what in errors_outside(errors, window)] == [
        "answered before",
        "after the first success",
    ]
    assert errors_outside(errors, None) == errors


def test_a_short_run_on_gunicorn_loses_nothing(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "SECURE"}}
    env["VAR_DIR"] = str(tmp_path)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
    run = subprocess.run(
        [*manage, "loadtest", "--users", "2", "--seconds", "3", "--warmup", "1", "--guessers", "1", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["acknowledged"] > 0
    assert report["lost"] == report["errors"] == 0
    assert report["totals_checked"] == report["games"] == 2
    assert sum(report["guesses"].values()) > 0  # wrong passwords were posted alongside


@pytest.mark.parametrize(
    ("variants", "words"),
    [("classic,bridge", r"--variants: unknown \['bridge'\]"), (",", "--variants: unknown none given")],
)
def test_bad_variants_are_named_in_one_line(variants, words):
    with pytest.raises(CommandError, match=words):
        call_command("loadtest", "--variants", variants)
