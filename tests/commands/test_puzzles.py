"""``find_puzzles`` reproduces the shipped set from its seed; ``check_puzzles`` weighs shipped
answers again and prints the agreement rate; both refuse bad input in one line."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scorepad.selectors.puzzles import DATA_DIR, shipped

VARIANTS = ["classic", "double-deck", "six-handed"]


@pytest.mark.parametrize(
    "variant",
    [pytest.param(v, marks=pytest.mark.slow) if v == "classic" else v for v in VARIANTS],  # the longest
)
def test_the_command_with_the_shipped_seed_finds_the_first_shipped_puzzles_exactly(variant):
    data = json.loads((DATA_DIR / f"{variant}.json").read_text())
    out = StringIO()
    call_command(
        "find_puzzles", "--variant", variant, "--seed", str(data["seed"]), "--limit", "2", stdout=out
    )
    found = [json.loads(line) for line in out.getvalue().splitlines()]
    assert found == data["puzzles"][:2]


@pytest.mark.slow
def test_the_out_file_is_the_shipped_format_read_back_whole(tmp_path):
    path = tmp_path / "set.json"
    call_command("find_puzzles", "--variant", "classic", "--limit", "2", "--out", str(path))
    data = json.loads(path.read_text())
    assert data["variant"] == "classic"
    assert data["puzzles"] == [p.to_json() for p in shipped("classic")[:2]]


def test_the_check_prints_each_variants_agreement_rate_and_the_total():
    out = StringIO()
    call_command("check_puzzles", "--variant", "classic", "--first", "3", "--deals", "40", stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["variant"] == "classic"
    assert lines[0]["puzzles"] == 3
    assert 0 <= lines[0]["agreement_rate"] <= 1
    assert lines[0]["agree"] >= lines[0]["still_clear"]
    assert lines[-1]["total"]["puzzles"] == 3


@pytest.mark.parametrize(
    ("command", "args", "words"),
    [
        ("find_puzzles", ["--variant", "bridge"], "bridge"),
        ("find_puzzles", ["--variant", "classic", "--limit", "0"], "--limit"),
        ("check_puzzles", ["--variant", "bridge"], "bridge"),
        ("check_puzzles", ["--deals", "3"], "--deals"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(command, args, words):
    with pytest.raises(CommandError, match=words):
        call_command(command, *args, stdout=StringIO())
