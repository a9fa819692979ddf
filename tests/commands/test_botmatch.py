"""``manage.py botmatch``: duplicate matches (each deal twice, the seats swapped) and their JSON line."""

import json
import random
import signal
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scorepad.engine.bots import make_bot
from scorepad.engine.game import deal
from scorepad.engine.match import MatchResult, play_deal_twice
from scorepad.engine.variants import get_variant
from scorepad.engine.view import Answer, SeatView
from tests.engine.test_bots import tiny_bot

ROOT = Path(__file__).resolve().parents[2]
KEYS = {
    "variant",
    "deals",
    "a",
    "b",
    "margin_per_deal",
    "ci95",
    "a_made_rate",
    "b_made_rate",
    "decision_ms_p50",
    "decision_ms_p95",
    "habits",
}


def run(*args: str) -> dict:
    out, err = StringIO(), StringIO()
    call_command("botmatch", *args, stdout=out, stderr=err)
    return json.loads(out.getvalue().strip().splitlines()[-1])


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_the_last_line_is_the_match_summary(variant):
    summary = run("--variant", variant, "--deals", "3", "--seed", "2", "--a", "heuristic", "--b", "random")
    assert set(summary) == KEYS
    assert summary["deals"] == 3
    assert (summary["a"], summary["b"]) == ("heuristic", "random")
    low, high = summary["ci95"]
    assert low <= summary["margin_per_deal"] <= high
    assert summary["decision_ms_p50"] <= summary["decision_ms_p95"]


def test_habits_print_as_a_table_whose_counts_match_the_json_line():
    out = StringIO()
    args = ("--variant", "classic", "--deals", "3", "--seed", "2", "--a", "heuristic", "--b", "easy")
    call_command("botmatch", *args, "--habits", stdout=out, stderr=StringIO())
    *table, last = out.getvalue().strip().splitlines()
    made = json.loads(last)["habits"]["a"]["made"]
    assert made["of"] > 0
    assert [line.split()[0] for line in table] == [
        "habit",
        "short_trump",
        "junk_pass",
        "trump_lead",
        "counter_thrown",
        "made",
    ]
    assert f"({made['shown']}/{made['of']})" in table[-1].split("%")[1]


def test_a_bot_against_itself_with_the_same_answers_scores_a_zero_margin():
    # The duplicate swap gives each seat's cards to both bots: identical bots tie every deal exactly.
    summary = run(
        "--variant", "classic", "--deals", "4", "--seed", "3", "--a", "heuristic", "--b", "heuristic"
    )
    assert summary["margin_per_deal"] == 0
    assert summary["ci95"] == [0, 0]


def test_each_deal_is_played_twice_with_the_bots_swapped():
    variant = get_variant("classic")
    state = deal(variant, variant.defaults, 0, random.Random(4))
    seen: list[tuple[str, int, tuple[int, ...]]] = []

    class Recorder:
        def __init__(self, name: str, seat: int) -> None:
            self.name, self.seat, self.inner = name, seat, make_bot("heuristic", seat, random.Random(0))

        def decide(self, view: SeatView) -> Answer:
            if view.decision == "bid" and not any(s == self.seat for s, _ in view.auction):
                seen.append((self.name, self.seat, view.hand))
            return self.inner.decide(view)

        def close(self) -> None:
            pass

    result = MatchResult("classic", "a-bot", "b-bot")
    play_deal_twice(
        variant,
        variant.defaults,
        state,
        ("a-bot", "b-bot"),
        lambda n, s, r: Recorder(n, s),
        random.Random(1),
        result,
    )
    first, second = seen[:4], seen[4:]
    assert {(name, seat % 2) for name, seat, _ in first} == {("a-bot", 0), ("b-bot", 1)}
    assert {(name, seat % 2) for name, seat, _ in second} == {("a-bot", 1), ("b-bot", 0)}
    assert {(seat, hand) for _, seat, hand in first} == {(seat, hand) for _, seat, hand in second}


def test_outside_bots_can_play_a_match():
    summary = run("--variant", "classic", "--deals", "1", "--a", tiny_bot(), "--b", "random")
    assert summary["a"].startswith("cmd:")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "classic", "--a", "nobody", "--b", "random"], "--a: unknown bot 'nobody'"),
        (["--variant", "bridge", "--a", "random", "--b", "random"], "unknown variant 'bridge'"),
        (
            ["--variant", "classic", "--deals", "0", "--a", "random", "--b", "random"],
            "--deals must be at least 1",
        ),
    ],
)
def test_bad_arguments_are_refused_in_one_line(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("botmatch", *args, stdout=StringIO(), stderr=StringIO())


def test_from_the_shell_the_progress_goes_to_stderr_and_errors_exit_non_zero():
    command = [
        sys.executable,
        "manage.py",
        "botmatch",
        "--variant",
        "six-handed",
        "--deals",
        "2",
        "--a",
        "random",
        "--b",
        "heuristic",
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert set(json.loads(done.stdout.strip().splitlines()[-1])) == KEYS
    assert "deal 2/2" in done.stderr
    failed = subprocess.run([*command[:-1], "nobody"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert failed.returncode != 0
    assert failed.stderr.strip().count("\n") == 0
    assert "--b: unknown bot 'nobody'" in failed.stderr


def test_stopped_early_it_still_prints_the_deals_played_so_far():
    bots = ["--a=random", "--b=random"]
    command = [sys.executable, "manage.py", "botmatch", "--variant=classic", "--deals=100000", *bots]
    match = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert match.stderr is not None
    progress = ""
    while "deal 3/" not in progress:  # wait until a few deals are in
        progress += match.stderr.read(1)
    match.send_signal(signal.SIGTERM)
    out, err = match.communicate(timeout=60)
    assert match.returncode == 130
    summary = json.loads(out.strip().splitlines()[-1])
    assert set(summary) == KEYS
    assert 3 <= summary["deals"] < 100000
    assert f"stopped after {summary['deals']} of 100000 deals" in err
