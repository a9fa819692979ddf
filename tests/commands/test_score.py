"""``manage.py score``: a §9.3 record from a file or stdin in, the §9.4 scored game out."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.engine.test_scoring import RULES_EXAMPLE_RECORD, RULES_EXAMPLE_SCORED

MANAGE = Path(__file__).resolve().parents[2] / "manage.py"


def run_score(*args: str, stdin: str = "") -> str:
    out = io.StringIO()
    call_command("score", *args, stdout=out, stdin=io.StringIO(stdin))
    return out.getvalue()


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RULES_EXAMPLE_RECORD), encoding="utf-8")
    return path


def test_scores_a_record_file_and_prints_the_scored_game_as_one_json_object(record_file):
    output = run_score(str(record_file))
    assert json.loads(output) == RULES_EXAMPLE_SCORED
    assert output.count("\n") == 1  # one object, on one line


def test_reads_the_record_from_stdin_with_a_dash():
    assert json.loads(run_score("-", stdin=json.dumps(RULES_EXAMPLE_RECORD))) == RULES_EXAMPLE_SCORED


def test_indent_pretty_prints_the_same_object(record_file):
    output = run_score(str(record_file), "--indent", "2")
    assert json.loads(output) == RULES_EXAMPLE_SCORED
    assert '\n  "hands": [' in output


def test_an_invalid_record_is_refused_naming_the_hand_and_the_field():
    record = {**RULES_EXAMPLE_RECORD, "hands": [{**RULES_EXAMPLE_RECORD["hands"][0], "bid": 45}]}
    with pytest.raises(CommandError, match=r"^hand 1: bid: 45 is under the minimum bid of 50$"):
        run_score("-", stdin=json.dumps(record))


def test_bad_json_is_refused_with_where_it_broke():
    with pytest.raises(CommandError, match=r"^standard input: not valid JSON: .* at line 1 column 2$"):
        run_score("-", stdin="{variant")


def test_a_missing_file_is_refused_naming_it(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(CommandError, match=rf"^{missing}: cannot read: No such file or directory$"):
        run_score(str(missing))


def test_a_file_that_is_not_text_is_refused(tmp_path):
    binary = tmp_path / "game.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(CommandError, match=r"not UTF-8 text$"):
        run_score(str(binary))


def run_manage(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MANAGE), "score", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow  # a process of its own
def test_from_the_shell_an_invalid_hand_exits_non_zero_with_one_line_and_no_traceback():
    record = {
        "variant": "six-handed",
        "hands": [{"bidder": 0, "bid": 50, "trump": "S", "meld": [35, 0, 0, 0, 0, 0]}],
    }
    finished = run_manage("-", stdin=json.dumps(record))
    assert finished.returncode != 0
    assert finished.stdout == ""
    assert finished.stderr.strip().splitlines() == ["CommandError: hand 1: tricks: missing"]


@pytest.mark.slow  # a process of its own
def test_from_the_shell_bad_json_and_a_missing_file_exit_non_zero_with_one_line(tmp_path):
    for finished in (run_manage("-", stdin="[1,"), run_manage(str(tmp_path / "nope.json"))):
        assert finished.returncode != 0
        assert len(finished.stderr.strip().splitlines()) == 1
        assert "Traceback" not in finished.stderr


@pytest.mark.slow  # a process of its own
def test_from_the_shell_a_valid_record_prints_the_scored_game(record_file):
    finished = run_manage(str(record_file))
    assert finished.returncode == 0
    assert json.loads(finished.stdout) == RULES_EXAMPLE_SCORED
