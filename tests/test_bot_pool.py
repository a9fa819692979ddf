"""``bot_pool`` is the one roof of every bot search a request pays for: moves, hints, the throw-in
offer, review slices, replays and the bid advisor all think under it (never in the web thread
itself), each search is charged in CPU seconds to the visitor's address, and a bot process leaves
with the web worker that started it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from contextvars import ContextVar
from pathlib import Path

import pytest
from django.urls import reverse

from scorepad import bot_pool
from scorepad.engine import advisor, review, search, simulate
from scorepad.engine import practice as engine_practice
from scorepad.engine.bots import ExpertBot
from scorepad.engine.cards import parse_cards
from scorepad.engine.game import deal, from_json, to_json
from scorepad.engine.variants import VARIANTS
from scorepad.models import PracticeGame
from scorepad.services.practice import practice_start
from tests.sample_games import make_user
from tests.services.test_practice import hinted, play_out_hand
from tests.views.test_practice_concede import at_players_concede

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]
FULL_CLASSIC = "AS KS AH TH KH QH JH 9H QD JD AC 9C"
_under_think: ContextVar[bool] = ContextVar("under_think", default=False)


def watch_searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Every entry into a search (the expert's weighing, the bid advisor, a contract's simulation,
    a review's verdict, the bots playing on), with whether it ran inside ``bot_pool.think``: each
    function is wrapped wherever a module of the app holds it."""
    seen: list[tuple[str, bool]] = []

    def recorded(name, function):
        def run(*args, **kwargs):
            seen.append((name, _under_think.get()))
            return function(*args, **kwargs)

        return run

    searches = {
        "advise": advisor.advise,
        "simulate_contract": search.simulate_contract,
        "review_decision": review.review_decision,
        "advance_until": simulate.advance_until,
    }
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("scorepad."):
            for name, function in searches.items():
                if getattr(module, name, None) is function:
                    monkeypatch.setattr(module, name, recorded(name, function))
    monkeypatch.setattr(ExpertBot, "evaluate", recorded("evaluate", ExpertBot.evaluate))

    real_think = bot_pool.think

    def think(function, /, *args):
        token = _under_think.set(True)
        try:
            return real_think(function, *args)
        finally:
            _under_think.reset(token)

    monkeypatch.setattr(bot_pool, "think", think)
    return seen


def post_answer(client, game: PracticeGame) -> PracticeGame:
    client.post(reverse("practice_act", args=[game.pk]), {**hinted(game), "version": game.version})
    return PracticeGame.objects.get(pk=game.pk)


@pytest.mark.slow  # a process of its own
def test_every_search_a_request_asks_for_runs_under_the_bot_pools_roof(client, monkeypatch):
    monkeypatch.setattr(review, "REVIEW_PLAYOUTS", 24)
    monkeypatch.setattr("scorepad.services.practice_review.REVIEW_PLAYOUTS", 24)
    user = make_user("roof")
    client.force_login(user)
    conceding = at_players_concede(user)  # set up through the services, before anything is watched
    seen = watch_searches(monkeypatch)

    form = client.get(reverse("practice")).context["form"]
    start = {name: str(form[name].value()) for name in form.fields if form[name].value() not in (None, False)}
    started = client.post(reverse("practice"), {**start, "strength": "heuristic"})  # the bots play on
    game = PracticeGame.objects.get(pk=started["Location"].rstrip("/").split("/")[-1])
    assert client.get(reverse("practice_game", args=[game.pk]), {"hint": "1"}).context["table"].hint
    while from_json(game.state).result is None:  # moves
        game = post_answer(client, game)
    assert client.get(reverse("practice_game", args=[conceding.pk])).context["concede"]  # weighed
    review_url = reverse("practice_review", args=[game.pk, 0])
    for _ in range(60):  # review slices, then the expert's duplicate of the deal
        if client.get(review_url).context["review"].done:
            break
    token = client.get(review_url).context["replay_token"]
    client.post(reverse("practice_replay", args=[game.pk, 0]), {"start_token": token})
    client.post(reverse("practice_next", args=[game.pk]), {"version": game.version})
    advised = client.get(reverse("meld"), {"cards": FULL_CLASSIC, "advise": "1"})
    assert advised.context["advisor"].rows

    names = {name for name, _ in seen}
    assert names == {"advise", "simulate_contract", "review_decision", "advance_until", "evaluate"}
    assert [name for name, under in seen if not under] == []


def test_a_network_that_spent_its_cpu_is_refused_in_words_and_another_is_not(client, monkeypatch, settings):
    settings.CPU_SECONDS_PER_ADDRESS = (0.001, 60)  # one search spends it
    user = make_user("spender")
    client.force_login(user)
    game = at_players_concede(user)
    searches = []
    real = ExpertBot.evaluate
    monkeypatch.setattr(
        ExpertBot, "evaluate", lambda bot, view, also=None: searches.append(1) or real(bot, view, also)
    )
    url = reverse("practice_game", args=[game.pk])

    first = client.get(url, {"hint": "1"}, REMOTE_ADDR="203.0.113.7")
    assert first.status_code == 200
    assert first.context["table"].hint
    thought = len(searches)
    refused = client.get(url, {"hint": "1"}, REMOTE_ADDR="203.0.113.7")
    other = client.get(url, {"hint": "1"}, REMOTE_ADDR="198.51.100.2")

    assert refused.status_code == 429
    assert (
        "The bots have thought a lot for your network in a short time: try again in"
        in refused.content.decode()
    )
    assert int(refused["Retry-After"]) >= 1
    assert other.status_code == 200
    assert other.context["table"].hint
    assert len(searches) == thought + 1  # the refused request searched nothing; the other address did


@pytest.mark.slow  # a process of its own
def test_a_bot_process_finds_what_the_request_thread_finds(settings):
    """Under gunicorn every search runs in the bot process: the same hint, throw-in weighing,
    review verdicts and advice as in the thread (so the same deals give the same figures)."""
    fresh = practice_start(user=None, variant_id="classic", seed=4)
    line = play_out_hand(practice_start(user=None, variant_id="classic", seed=4)).hands[0]["log"]
    conceding = at_players_concede(make_user("weigher"))

    def searched() -> list[object]:
        sliced = bot_pool.review_slice(line, "4:0", (), False, 0.0, "heuristic", 4, 24)
        advice = bot_pool.advise("classic", {}, parse_cards(FULL_CLASSIC), 0, 1000.0).to_json()
        return [
            bot_pool.hint(fresh.state, fresh.seed, fresh.version),
            bot_pool.think(
                engine_practice.weigh_concession, conceding.state, conceding.seed, conceding.version
            ),
            (sliced.verdicts, sliced.finished, sliced.duplicate),
            {**advice, "seconds": None},
        ]

    in_thread = searched()
    settings.PRACTICE_BOT_PROCESSES = 1
    try:
        assert bot_pool.think(os.getpid) != os.getpid()
        in_process = searched()
    finally:
        bot_pool.shutdown()
    assert in_process == in_thread


@pytest.mark.slow  # a process of its own
def test_a_bot_process_and_its_resource_tracker_leave_with_a_web_worker_killed_outright():
    """``kill -9`` runs no clean-up in the worker: its bot process must notice on its own."""
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "pinochle_site.settings", "PRACTICE_BOT_PROCESSES": "1"},
        text=True,
    )
    try:
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == "thinking"
        children = _children_of(worker.pid)
        assert len(children) >= 2  # the bot process and multiprocessing's resource tracker
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in children):
        time.sleep(0.1)
    assert [pid for pid in children if _alive(pid)] == []


WORKER = textwrap.dedent(
    """
    import django
    django.setup()
    from scorepad import bot_pool
    assert bot_pool.think(abs, -1) == 1  # the pool's process is up and has answered
    print("thinking", flush=True)
    import time
    time.sleep(60)
    """
)


def _children_of(parent: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                children.append(int(entry.name))
    return children


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_tables_rule_of_thumb_bots_play_at_once_in_the_request_and_are_paid_for(settings):
    """Easy and steady bots at a private table search nothing: they play in the request's thread
    even while the worker's one search is taken (a practice expert thinking), and their CPU is
    charged; a table with an expert waits for the search like practice does."""
    settings.PRACTICE_BOT_PROCESSES = 1
    classic = VARIANTS["classic"]
    state = to_json(deal(classic, classic.defaults, 3, random.Random(5)))  # seat 0 bids first
    bot_pool._thinking = settings.PRACTICE_BOTS_AT_ONCE  # the worker's search is taken
    try:
        with bot_pool.paying(lambda: None) as purse:
            played = bot_pool.table_play_on(state, {1: "heuristic", 2: "easy", 3: "heuristic"}, 7)
        with pytest.raises(bot_pool.BotsBusy):
            bot_pool.table_play_on(state, {1: "expert", 2: "easy", 3: "heuristic"}, 7)
    finally:
        bot_pool._thinking = 0
    assert from_json(played.state).to_act == 0
    assert purse.spent > 0
    assert bot_pool._pool is None  # no bot process was started for any of it
