"""``manage.py botmatch``: duplicate matches (each deal twice, the seats swapped) and their JSON line."""

import json
import random
import re
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scorepad.engine.bots import make_bot
from scorepad.engine.game import deal
from scorepad.engine.match import (
    MatchResult,
    auction_kind,
    duplicate_games,
    paired_difference,
    play_deal_twice,
    wilson,
)
from scorepad.engine.variants import get_variant
from scorepad.engine.view import Answer, SeatView
from scorepad.management.base import variant_rules
from scorepad.management.commands.botmatch import DEALS, read_per_deal
from tests.engine.test_bots import tiny_bot

ROOT = Path(__file__).resolve().parents[2]
KEYS = {
    "variant",
    "deals",
    "a",
    "b",
    "margin_per_deal",
    "ci95",
    "by_auction",
    "a_made_rate",
    "b_made_rate",
    "decision_ms_p50",
    "decision_ms_p95",
    "habits",
}
GAME_KEYS = {
    "variant",
    "games",
    "a",
    "b",
    "a_games_won",
    "b_games_won",
    "games_shared",
    "a_win_rate",
    "a_win_ci95",
    "hands_per_game",
    "pairs_won_both",
    "pairs_split",
    "pairs_lost_both",
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
    kinds = summary["by_auction"].values()
    assert sum(kind["deals"] for kind in kinds) == 3
    assert sum(kind["part"] for kind in kinds) == pytest.approx(summary["margin_per_deal"], abs=0.02)


def test_habits_print_as_a_table_whose_counts_match_the_json_line():
    out = StringIO()
    args = ("--variant", "classic", "--deals", "3", "--seed", "2", "--a", "heuristic", "--b", "easy")
    call_command("botmatch", *args, "--habits", stdout=out, stderr=StringIO())
    *printed, last = out.getvalue().strip().splitlines()
    habits = json.loads(last)["habits"]["a"]
    names = list(habits)
    assert names == [
        "short_trump",
        "set_by_a_third",
        "raise_war",
        "junk_pass",
        "trump_lead",
        "counter_thrown",
        "made",
    ]
    table, legend = printed[: len(names) + 1], printed[len(names) + 2 :]
    assert [line.split()[0] for line in table] == ["habit", *names]
    made = habits["made"]
    assert made["of"] > 0
    assert f"({made['shown']}/{made['of']})" in table[-1].split("%")[1]
    # each habit says what it counts out of what, under the table
    assert [line.split(":")[0].strip() for line in legend] == names
    assert "more than a third of the bid" in legend[1]
    assert "exactly a third" in legend[1]
    assert "3 or more times" in legend[2]
    assert "of the contracts it chose" in legend[2]


def test_each_habit_rate_comes_with_its_wilson_interval():
    out = StringIO()
    args = ("--variant", "classic", "--deals", "2", "--seed", "2", "--a", "heuristic", "--b", "easy")
    call_command("botmatch", *args, "--habits", stdout=out, stderr=StringIO())
    made = json.loads(out.getvalue().strip().splitlines()[-1])["habits"]["a"]["made"]
    row = next(line for line in out.getvalue().splitlines() if line.startswith("made "))
    low, high = wilson(made["shown"], made["of"])
    assert f"({made['shown']}/{made['of']}) {low:.1%}-{high:.1%}" in row


def test_a_bot_against_itself_with_the_same_answers_scores_a_zero_margin():
    # The duplicate swap gives each seat's cards to both bots: identical bots tie every deal exactly.
    summary = run(
        "--variant", "classic", "--deals", "4", "--seed", "3", "--a", "heuristic", "--b", "heuristic"
    )
    assert summary["margin_per_deal"] == 0
    assert summary["ci95"] == [0, 0]
    # … and the same seat wins both auctions of every deal.
    assert summary["by_auction"] == {"same_seat": {"deals": 4, "margin": 0, "part": 0}}


@pytest.mark.parametrize(
    ("first", "second", "kind"),
    [
        ((2, "a"), (2, "b"), "same_seat"),
        ((0, "a"), (3, "a"), "a_both"),
        ((1, "b"), (4, "b"), "b_both"),
        ((0, "a"), (1, "b"), "one_each"),
        (None, (1, "b"), "no_contract"),
    ],
)
def test_a_deal_is_sorted_by_who_won_its_two_auctions(first, second, kind):
    assert auction_kind(first, second) == kind


def test_a_hand_everyone_passed_in_is_a_deal_without_a_contract():
    variant = get_variant("classic")
    settings = variant.settings({"all_pass": "redeal"})

    class Passer:
        name = "passer"

        def __init__(self, seat: int) -> None:
            self.inner = make_bot("heuristic", seat, random.Random(0))

        def decide(self, view: SeatView) -> Answer:
            return None if view.decision == "bid" else self.inner.decide(view)

        def close(self) -> None:
            pass

    result = MatchResult("classic", "p", "q")
    state = deal(variant, settings, 0, random.Random(1))
    play_deal_twice(variant, settings, state, ("p", "q"), lambda n, s, r: Passer(s), random.Random(2), result)
    assert result.to_json()["by_auction"] == {"no_contract": {"deals": 1, "margin": 0, "part": 0}}


def test_the_kinds_of_deal_split_the_margin_into_parts_that_add_up_to_it():
    result = MatchResult("six-handed", "expert", "heuristic", margins=[10.0, -2.0, 4.0])
    result.auctions = ["same_seat", "a_both", "same_seat"]
    summary = result.to_json()
    assert summary["margin_per_deal"] == 4.0
    assert summary["by_auction"] == {
        "same_seat": {"deals": 2, "margin": 7.0, "part": 4.67},
        "a_both": {"deals": 1, "margin": -2.0, "part": -0.67},
    }


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


def test_the_oracle_auction_yardstick_plays_deals_and_refuses_whole_games():
    args = ["--variant", "classic", "--a", "oracle-auction", "--b", "heuristic", "--playouts", "8"]
    summary = run(*args, "--deals", "1")
    assert summary["a"] == "oracle-auction"
    assert summary["deals"] == 1
    with pytest.raises(CommandError, match="only in a duplicate deal match"):
        call_command("botmatch", *args, "--games", "1", stdout=StringIO(), stderr=StringIO())


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


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize(
    ("unit", "played", "total", "keys"),
    [("deals", 3, 100000, KEYS), ("games", 6, 200000, GAME_KEYS)],  # each of 100000 games played twice
)
def test_stopped_early_it_still_prints_what_was_played_so_far(unit, played, total, keys):
    bots = ["--a=random", "--b=heuristic"]
    command = [sys.executable, "manage.py", "botmatch", "--variant=classic", f"--{unit}=100000", *bots]
    match = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert match.stderr is not None
    progress, give_up = "", time.monotonic() + 120  # a few deals (games) take seconds
    while f"{unit[:-1]} 3/" not in progress:  # wait until a few deals (games) are in
        letter = match.stderr.read(1)
        if not letter or time.monotonic() > give_up:  # the match died, or hangs: never wait forever
            match.kill()
            pytest.fail(f"botmatch never reached its third {unit[:-1]}: {progress[-300:]!r}")
        progress += letter
    match.send_signal(signal.SIGTERM)
    out, err = match.communicate(timeout=60)
    assert match.returncode == 130
    summary = json.loads(out.strip().splitlines()[-1])
    assert set(summary) == keys
    assert played <= summary[unit] < total
    assert f"stopped after {summary[unit]} of {total} {unit}" in err


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_in_whole_games_random_loses_to_the_heuristic_from_either_seats(variant):
    summary = run("--variant", variant, "--games", "2", "--seed", "5", "--a", "random", "--b", "heuristic")
    assert set(summary) == GAME_KEYS
    assert summary["games"] == 4
    assert summary["a_games_won"] + summary["b_games_won"] + summary["games_shared"] == 4
    assert summary["b_games_won"] > summary["a_games_won"]
    low, high = summary["a_win_ci95"]
    assert low <= summary["a_win_rate"] < high
    assert summary["hands_per_game"] > 1


def test_the_wilson_interval_is_the_textbook_one():
    low, high = wilson(0, 10)
    assert low == 0
    assert round(high, 4) == 0.2775
    low, high = wilson(25, 32)
    assert (round(low, 3), round(high, 3)) == (0.612, 0.890)


@pytest.mark.parametrize("variant", ["classic", "six-handed"])
def test_both_games_of_a_pair_get_the_same_hands_with_the_bots_swapped(variant):
    variant_ = get_variant(variant)
    seats = variant_.seats
    made: list[str] = []  # the name of each bot made, in order: one playing's seats, then the next
    dealt: dict[tuple[int, int], list[tuple[int, tuple[int, ...]]]] = {}  # (playing, seat): hand by hand

    class Recorder:
        def __init__(self, name: str, seat: int) -> None:
            self.playing = len(made) // seats
            made.append(name)
            self.name, self.seat, self.inner = name, seat, make_bot("heuristic", seat, random.Random(0))
            dealt[self.playing, seat] = []

        def decide(self, view: SeatView) -> Answer:
            if view.decision == "bid" and not any(s == self.seat for s, _ in view.auction):
                dealt[self.playing, self.seat].append((view.dealer, view.hand))  # its first call
            return self.inner.decide(view)

        def close(self) -> None:
            pass

    result = duplicate_games(
        variant_, variant_.defaults, "a-bot", "b-bot", 1, 7, lambda n, s, r: Recorder(n, s)
    )
    assert len(result.winners) == 2
    assert made[:seats] == ["a-bot" if seat % 2 == 0 else "b-bot" for seat in range(seats)]
    assert made[seats:] == ["b-bot" if seat % 2 == 0 else "a-bot" for seat in range(seats)]
    for seat in range(seats):
        first, second = dealt[0, seat], dealt[1, seat]
        both = min(len(first), len(second))
        assert both >= 2  # the comparison covers more than the first hand
        assert first[:both] == second[:both]


def test_a_paired_difference_is_the_mean_change_deal_by_deal():
    paired = paired_difference([1.0, 2.0, 3.0, 4.0, 9.0], [1.0, 2.0, 5.0, 8.0])  # the first four deals
    assert paired["deals"] == 4
    assert paired["difference"] == 1.5  # changes 0, 0, 2, 4
    assert paired["deals_changed"] == 2
    assert paired["ci95"] == [-0.38, 3.38]  # ± 1.96 × stdev(0, 0, 2, 4) / √4


def test_a_match_run_against_its_own_per_deal_file_changed_nothing(tmp_path):
    before = tmp_path / "before.jsonl"
    match = ["--variant", "six-handed", "--deals", "4", "--seed", "2", "--b", "heuristic"]
    first = run(*match, "--a", "random", "--per-deal", str(before))
    lines = [json.loads(line) for line in before.read_text().splitlines()]
    assert lines[0]["file"] == "botmatch per deal"
    assert [line["deal"] for line in lines[1:]] == [0, 1, 2, 3]
    assert round(sum(line["margin"] for line in lines[1:]) / 4, 2) == first["margin_per_deal"]
    again = run(*match, "--a", "random", "--against", str(before))
    assert again["paired"] == {"deals": 4, "difference": 0, "ci95": [0, 0], "deals_changed": 0}
    changed = run(*match, "--a", "heuristic", "--against", str(before))  # another bot: every deal moves
    assert changed["paired"]["deals_changed"] == 4
    assert changed["paired"]["difference"] == pytest.approx(
        changed["margin_per_deal"] - first["margin_per_deal"], abs=0.011
    )


def test_whole_games_are_paired_a_pair_of_games_at_a_time(tmp_path):
    before = tmp_path / "before.jsonl"
    match = ["--variant", "classic", "--games", "3", "--seed", "2", "--b", "heuristic"]
    first = run(*match, "--a", "random", "--per-deal", str(before))
    lines = [json.loads(line) for line in before.read_text().splitlines()]
    assert lines[0]["file"] == "botmatch per game"
    assert [line["pair"] for line in lines[1:]] == [0, 1, 2]
    assert sum(line["a_share"] for line in lines[1:]) / 3 == pytest.approx(first["a_win_rate"], abs=1e-4)
    again = run(*match, "--a", "random", "--against", str(before))
    assert again["paired"] == {"pairs": 3, "difference": 0, "ci95": [0, 0], "pairs_changed": 0}
    changed = run(*match, "--a", "heuristic", "--against", str(before))  # heuristic against itself: half
    assert changed["a_win_rate"] == 0.5
    assert changed["paired"]["difference"] == pytest.approx(0.5 - first["a_win_rate"], abs=1e-4)
    deals = ["--variant", "classic", "--deals", "1", "--seed", "2", "--a", "random", "--b", "heuristic"]
    with pytest.raises(CommandError, match=re.escape("before.jsonl holds pairs and this match plays deals")):
        call_command("botmatch", *deals, "--against", str(before), stdout=StringIO(), stderr=StringIO())


def test_a_pair_of_games_counts_a_shared_game_as_half_a_win():
    winners = ["a", "shared", "b", "b", "a", "b", "a", "a", "a"]  # the fifth pair is not over
    result = MatchResult("six-handed", "expert", "heuristic", games=True, winners=winners, hands=[12] * 9)
    assert result.paired_values() == [0.75, 0.0, 0.5, 1.0]
    summary = result.to_json()
    assert (summary["pairs_won_both"], summary["pairs_split"], summary["pairs_lost_both"]) == (1, 2, 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "3"], "was played with seed 2, this match with 3: its deals are not these"),
        (["--house-rules", '{"target": 200}'], "was played with house_rules"),
        (["--variant", "six-handed"], "was played with variant 'classic', this match with 'six-handed'"),
        (["--games", "1"], "before.jsonl holds deals and this match plays pairs"),
    ],
)
def test_deals_that_are_not_the_same_are_never_paired(tmp_path, args, message):
    before = tmp_path / "before.jsonl"
    match = {"--variant": "classic", "--deals": "2", "--seed": "2", "--a": "random", "--b": "heuristic"}
    run(*[f"{k}={v}" for k, v in match.items()], "--per-deal", str(before))
    other = {**match, **dict(zip(args[::2], args[1::2], strict=True))}
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command(
            "botmatch",
            *[f"{k}={v}" for k, v in other.items()],
            "--against",
            str(before),
            stdout=StringIO(),
            stderr=StringIO(),
        )


def test_a_file_that_is_not_a_per_deal_file_is_refused_in_words(tmp_path):
    base = ["--variant", "classic", "--deals", "1", "--a", "random", "--b", "heuristic"]
    binary = tmp_path / "binary.dat"
    binary.write_bytes(bytes(range(128, 256)))  # not UTF-8 text
    for path, message in [
        (ROOT / "README.md", "README.md is not a file written by botmatch --per-deal"),
        (binary, "binary.dat is not a file written by botmatch --per-deal"),
        (tmp_path / "missing.jsonl", "cannot read"),
    ]:
        with pytest.raises(CommandError, match=message):
            call_command("botmatch", *base, "--against", str(path), stdout=StringIO(), stderr=StringIO())
    with pytest.raises(CommandError, match="--per-deal: cannot write"):
        call_command(
            "botmatch", *base, "--per-deal", str(tmp_path / "no" / "x"), stdout=StringIO(), stderr=StringIO()
        )


BASELINES = Path(__file__).resolve().parents[2] / "pinochle_site/tools/benchmarks/baselines"


@pytest.mark.parametrize(("variant", "deals"), [("classic", 300), ("six-handed", 200), ("double-deck", 200)])
def test_the_saved_baseline_still_pairs_with_a_match_of_todays_rules(variant, deals):
    """The expert's saved per-deal results stay a baseline only while the deals are the same: the
    variant's default house rules changing (so every deal's scoring) would make ``--against`` refuse
    it; then the baseline must be played again."""
    rules, settings = variant_rules(variant, "{}")
    played = {"variant": rules.id, "seed": 1, "house_rules": settings.to_json()}
    margins = read_per_deal(str(BASELINES / f"expert-{variant}-seed1.jsonl"), played, DEALS)
    assert len(margins) == deals
