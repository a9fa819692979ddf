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


def check_lines(*args: str) -> tuple[list[dict], dict, dict]:
    """The check's puzzle lines, its variant line and its total line."""
    out = StringIO()
    call_command("check_puzzles", *args, stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return lines[:-2], lines[-2], lines[-1]["total"]


@pytest.mark.slow  # exact searches of whole hands and the bots' own answers, puzzle by puzzle
def test_the_check_gives_each_puzzle_the_finders_verdict_and_the_exact_checks_and_the_shares():
    puzzles, variant, total = check_lines(
        "--variant", "double-deck", "--first", "2", "--deals", "10", "--exact-deals", "10"
    )
    first = shipped("double-deck")[:2]
    assert [line["puzzle"] for line in puzzles] == [p.key for p in first]
    for line, puzzle in zip(puzzles, first, strict=True):
        assert line["finder"]["best"] == puzzle.answer
        for check in ("recheck", "exact"):
            assert line[check]["agree"] == (line[check]["best"] == puzzle.answer)
            assert line[check]["agree"] or not line[check]["clear"]
        assert set(line["missed_by"]) <= {"easy", "steady", "expert"}
    assert variant["variant"] == "double-deck"
    assert variant["puzzles"] == total["puzzles"] == 2
    assert variant["exact_agree"] == sum(line["exact"]["agree"] for line in puzzles)
    assert variant["exact_agreement_rate"] == variant["exact_agree"] / 2
    assert variant["agree"] == sum(line["recheck"]["agree"] for line in puzzles)
    assert variant["real_decisions"] == sum(bool(line["missed_by"]) for line in puzzles)
    assert variant["warm_ups"] + variant["real_decisions"] == 2
    assert variant["warm_up_share"] == variant["warm_ups"] / 2


@pytest.mark.slow  # exact searches of whole hands and the bots' own answers, puzzle by puzzle
def test_the_exact_check_alone_leaves_the_finders_weighing_out():
    puzzles, variant, _ = check_lines(
        "--variant", "double-deck", "--first", "1", "--deals", "0", "--exact-deals", "10"
    )
    assert "recheck" not in puzzles[0]
    assert "exact" in puzzles[0]
    assert "agreement_rate" not in variant
    assert "exact_agreement_rate" in variant


def test_reword_says_each_puzzle_again_drops_a_tied_answer_and_prints_the_counts(tmp_path):
    data = json.loads((DATA_DIR / "classic.json").read_text())
    first, tied = data["puzzles"][0], data["puzzles"][1]
    first["reason"] = "Anything at all."
    tied["values"][1][1] = tied["values"][0][1] - 0.05
    (tmp_path / "classic.json").write_text(json.dumps(data))
    out = StringIO()
    call_command("check_puzzles", "--reword", "--variant", "classic", "--dir", str(tmp_path), stdout=out)
    line = json.loads(out.getvalue())
    assert (line["before"], line["after"], line["dropped"]) == (320, 319, [tied["key"]])
    assert line["reworded"] == 2
    again = json.loads((tmp_path / "classic.json").read_text())
    assert again["puzzles"][0] == shipped("classic")[0].to_json()
    assert {k: v for k, v in again.items() if k != "puzzles"} == {
        k: v for k, v in data.items() if k != "puzzles"
    }


@pytest.mark.parametrize(
    ("command", "args", "words"),
    [
        ("find_puzzles", ["--variant", "bridge"], "bridge"),
        ("find_puzzles", ["--variant", "classic", "--limit", "0"], "--limit"),
        ("check_puzzles", ["--variant", "bridge"], "bridge"),
        ("check_puzzles", ["--deals", "3"], "--deals"),
        ("check_puzzles", ["--exact-deals", "3"], "--exact-deals"),
        ("check_puzzles", ["--warm-up-playouts", "0"], "--warm-up-playouts"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(command, args, words):
    with pytest.raises(CommandError, match=words):
        call_command(command, *args, stdout=StringIO())
