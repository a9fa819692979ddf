"""``manage.py simulate``: whole games between bots, a byte-identical log per seed, one-line errors."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> dict:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_plays_whole_games_and_prints_a_summary_line(tmp_path):
    log = tmp_path / "games.jsonl"
    summary = run(
        "--variant", "classic", "--games", "2", "--seed", "5", "--bots", "random", "--log", str(log)
    )
    assert set(summary) == {"variant", "games", "hands", "seconds", "hands_per_second", "bid_made_rate"}
    assert summary["variant"] == "classic"
    assert summary["games"] == 2
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == summary["hands"]
    assert {line["game"] for line in lines} == {0, 1}
    assert 0 <= summary["bid_made_rate"] <= 1


@pytest.mark.parametrize(
    ("variant", "bots"),
    [("classic", "random"), ("double-deck", "random"), ("six-handed", "random"), ("classic", "heuristic")],
)
def test_the_same_seed_writes_a_byte_identical_log(tmp_path, variant, bots):
    first, second, other = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for path, seed in ((first, "9"), (second, "9"), (other, "10")):
        run("--variant", variant, "--games", "1", "--seed", seed, "--bots", bots, "--log", str(path))
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()


def test_the_first_dealer_comes_from_the_seed(tmp_path):
    dealers = set()
    for seed in range(8):
        path = tmp_path / f"{seed}.jsonl"
        run("--variant", "classic", "--seed", str(seed), "--bots", "random", "--log", str(path))
        dealers.add(json.loads(path.read_text(encoding="utf-8").splitlines()[0])["dealer"])
    assert len(dealers) > 1


def test_one_bot_per_seat_and_house_rules(tmp_path):
    log = tmp_path / "games.jsonl"
    run(
        "--variant", "six-handed", "--bots", "random,heuristic,random,heuristic,random,heuristic",
        "--house-rules", '{"target": 500}', "--log", str(log),
    )  # fmt: skip
    first = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert first["settings"] == {"target": 500}


def test_replay_checks_every_hand_of_a_log(tmp_path):
    log = tmp_path / "games.jsonl"
    summary = run("--variant", "double-deck", "--games", "1", "--bots", "random", "--log", str(log))
    assert run("--replay", str(log)) == {"replayed": str(log), "hands_checked": summary["hands"]}


def test_replay_reports_the_first_mismatch(tmp_path):
    log = tmp_path / "games.jsonl"
    run("--variant", "classic", "--games", "1", "--bots", "random", "--log", str(log))
    lines = log.read_text(encoding="utf-8").splitlines()
    second = json.loads(lines[1])
    second["meld"][0] += 1
    lines[1] = json.dumps(second)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 2: meld: logged"):
        call_command("simulate", "--replay", str(log))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "pinochle"], "unknown variant 'pinochle'"),
        ([], "--variant is required"),
        (["--variant", "classic", "--games", "0"], "--games must be at least 1"),
        (["--variant", "classic", "--bots", "random,random"], "names 2 bots; classic has 4 seats"),
        (["--variant", "classic", "--bots", "genius"], "unknown bot 'genius'"),
        (["--variant", "classic", "--house-rules", "{bad"], "--house-rules is not JSON"),
        (["--variant", "classic", "--house-rules", '{"pass_cards": 5}'], "pass_cards must be one of"),
        (["--variant", "classic", "--log", "/nonexistent/dir/log"], "cannot write /nonexistent/dir/log"),
        (["--replay", "/nonexistent/log"], "cannot read /nonexistent/log"),
    ],
)
def test_bad_arguments_are_refused_with_a_message(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate", *args)


@pytest.mark.slow  # a process of its own
@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "classic", "--bots", "random,random"],
        ["--variant", "classic", "--games", "many"],
        ["--variant", "classic", "--frobnicate"],
    ],
)
def test_from_the_shell_a_bad_argument_exits_non_zero_with_one_line_and_no_traceback(args):
    done = subprocess.run(
        [sys.executable, "manage.py", "simulate", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_bot_that_answers_illegally_stops_the_game_with_a_message(tmp_path):
    program = tmp_path / "bad_bot.py"
    program.write_text(
        "import sys\nfor line in sys.stdin:\n    print('{\"bid\": 7}', flush=True)\n", encoding="utf-8"
    )
    with pytest.raises(CommandError, match="decision bid: answer 7"):
        call_command("simulate", "--variant", "classic", "--bots", f"cmd:{sys.executable} {program}")


class Terminal(StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_goes_to_stderr_only_when_it_is_a_terminal(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    run("--variant", "classic", "--games", "2", "--bots", "random")
    assert "game 2/2" in terminal.getvalue()
    plain = StringIO()
    monkeypatch.setattr(sys, "stderr", plain)
    run("--variant", "classic", "--games", "2", "--bots", "random")
    assert plain.getvalue() == ""
