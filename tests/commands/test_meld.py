"""``manage.py meld``: text, §9.2 JSON, every suit best first, --jsonl batches and refusals."""

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError

from scorepad.management.commands.meld import process_jsonl
from tests.engine.test_meld import SECTION_9_2_EXAMPLE

ROOT = Path(__file__).resolve().parents[2]
C5 = "KS QS KH QH KD QD KC QC JD 9H AS TS"


def meld(*args: str, stdin: str | None = None) -> str:
    out = io.StringIO()
    extra = {} if stdin is None else {"stdin": io.StringIO(stdin)}
    call_command("meld", *args, stdout=out, **extra)
    return out.getvalue()


def run_meld(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``manage.py meld`` in a process of its own, as a shell runs it."""
    return subprocess.run(
        [sys.executable, "manage.py", "meld", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def run_meld_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py meld`` from its command line as ``run_meld`` runs it (the same parsing, refusals
    and exit), in this process: what it writes, its exit status, and any traceback it would print."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            execute_from_command_line(["manage.py", "meld", *args])
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_text_lists_each_meld_with_count_and_points_then_total_and_roundhouse():
    text = meld("--variant", "classic", "--trump", "H", *C5.split())
    lines = text.splitlines()
    assert lines[0] == "classic, trump H (hearts): AS TS KS QS KH QH 9H KD QD JD KC QC"
    assert lines[1].split() == ["royal", "marriage", "×1", "4"]
    assert lines[2].split() == ["marriage", "×3", "6"]
    assert [line.split()[-1] for line in lines[1:7]] == ["4", "6", "1", "4", "8", "6"]
    assert lines[7].split() == ["total", "29"]
    assert lines[8].startswith("  roundhouse")


def test_text_of_a_hand_without_meld_says_so():
    assert meld("--trump", "S", "9H", "TC").splitlines()[1:] == ["  no meld", f"  {'total':<32}{0:>6}"]


def test_json_prints_the_section_9_2_object():
    data = json.loads(meld("--variant", "classic", "--trump", "h", "--json", "9H,JH,QH,KH,10H,AH"))
    assert data == SECTION_9_2_EXAMPLE


def test_trump_none_counts_with_no_trump_suit():
    data = json.loads(meld("--variant", "six-handed", "--trump", "none", "--json", "KS", "QS", "KH", "QH"))
    assert data["trump"] is None
    assert data["melds"] == [{"name": "marriage", "count": 2, "points": 40}]


def test_house_rules_change_the_count():
    c2 = ["AH", "TH", "KH", "KH", "QH", "JH", "9S", "9D", "JC", "TC", "9C", "TS"]
    data = json.loads(meld("--trump", "H", "--json", "--house-rules", '{"run_extra_kq": "marry"}', *c2))
    assert data["total"] == 19


def test_without_trump_json_lists_every_suit_best_first():
    data = json.loads(meld("--variant", "classic", "--json", "AS", "TS", "KS", "QS", "JS", "KH", "QH", "9D"))
    assert [(item["trump"], item["total"]) for item in data] == [("S", 17), ("H", 6), ("D", 5), ("C", 4)]


def test_without_trump_text_shows_a_block_per_suit_best_first():
    blocks = meld("--variant", "classic", "AS", "TS", "KS", "QS", "JS").split("\n\n")
    assert [block.splitlines()[0].split(":")[0] for block in blocks] == [
        "classic, trump S (spades)",
        "classic, trump H (hearts)",
        "classic, trump D (diamonds)",
        "classic, trump C (clubs)",
    ]
    assert blocks[0].splitlines()[-1].split() == ["total", "15"]


JSONL_IN = "\n".join(
    [
        '{"variant": "classic", "trump": "H", "cards": "AH TH KH QH JH 9H"}',
        '{"variant": "classic", "cards": "AH"}',
        "",
        "not json",
        '{"variant": "six-handed", "trump": null, "cards": ["KS", "QS"]}',
        '{"variant": "double-deck", "trump": "S", "cards": "9S"}',
        '{"variant": "pinochle", "trump": "S", "cards": ""}',
        '{"variant": "double-deck", "trump": "S", "cards": "AS", "settings": {"npa_values": true}}',
    ]
)


def test_jsonl_answers_every_line_in_order_with_errors_in_place():
    out = io.StringIO()
    requests, failures = process_jsonl(io.StringIO(JSONL_IN), out.write)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert (requests, failures) == (7, 4)
    assert answers[0]["total"] == 16
    assert answers[1] == {"error": "line 2: missing key 'trump'"}
    assert answers[2]["error"].startswith("line 4: not JSON")
    assert answers[3] == {
        "variant": "six-handed",
        "trump": None,
        "cards": ["KS", "QS"],
        "total": 20,
        "melds": [{"name": "marriage", "count": 1, "points": 20}],
    }
    assert answers[4]["error"].startswith("line 6: 9S is not in the double-deck deck")
    assert answers[5]["error"].startswith("line 7: unknown variant 'pinochle'")
    assert answers[6]["cards"] == ["AS"]


def test_jsonl_raises_after_answering_when_a_line_failed():
    out = io.StringIO()
    with pytest.raises(CommandError, match="4 of 7 lines failed"):
        call_command("meld", "--jsonl", stdout=out, stdin=io.StringIO(JSONL_IN))
    assert len(out.getvalue().splitlines()) == 7


@pytest.mark.slow  # a process of its own
def test_jsonl_exits_1_when_a_line_failed_and_0_when_none_did():
    failed = run_meld("--jsonl", stdin=JSONL_IN)
    assert failed.returncode == 1
    assert len(failed.stdout.splitlines()) == 7
    assert failed.stderr.strip() == "CommandError: 4 of 7 lines failed"
    clean = run_meld("--jsonl", stdin=JSONL_IN.splitlines()[0] + "\n")
    assert clean.returncode == 0
    assert json.loads(clean.stdout)["total"] == 16


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--trump", "S", "AS", "XX"], "'XX'"),
        (["--variant", "double-deck", "--trump", "S", "9S"], "9S"),
        (["--variant", "euchre", "AS"], "'euchre'"),
        (["--trump", "Z", "AS"], "'Z'"),
        (["--trump", "S", "QS", "QS", "QS"], "3 × QS"),
        (["--house-rules", '{"run_extra_kq": "loose"}', "AS"], "'loose'"),
        (["--house-rules", "{", "AS"], "--house-rules"),
        (["--jsonl", "AS"], "--jsonl"),
        (["--frobnicate"], "--frobnicate"),
    ],
)
def test_bad_arguments_exit_non_zero_with_one_line_naming_the_culprit(args, named):
    result = run_meld_here(*args)
    assert result.returncode != 0
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert named in result.stderr
    assert "Traceback" not in result.stderr
