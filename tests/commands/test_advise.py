"""``manage.py advise``: the bid advisor for a full hand, as text or JSON; bad input in one line."""

import json
import random
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scorepad.engine.advisor import MIN_SAMPLES, advise
from scorepad.engine.cards import parse_cards
from scorepad.engine.variants import get_variant

ROOT = Path(__file__).resolve().parents[2]
HEART_RUN = "AH TH KH QH JH 9H AS KS QD JD AC 9C"
FEW = "--samples=40"  # fast, and still a clear answer for these hands


def advice_json(*args: str) -> dict:
    out = StringIO()
    call_command("advise", "--json", FEW, *args, stdout=out)
    return json.loads(out.getvalue())


def test_json_gives_every_trump_its_meld_spread_and_bids_best_first():
    advice = advice_json("--variant", "classic", *HEART_RUN.split())
    assert advice["best_trump"] == "H"
    assert {t["trump"] for t in advice["trumps"]} == set("SHDC")
    hearts = advice["trumps"][0]
    assert hearts["meld"] == 16  # run 15 + dix 1
    spread = list(hearts["percentiles"].values())
    assert spread == sorted(spread)
    assert hearts["meld"] <= spread[0]  # the bidder keeps its meld in (nearly) every simulated hand
    bids = advice["bids"]
    assert set(bids) == {"safe", "standard", "bold"}
    assert 20 <= bids["safe"] <= bids["standard"] <= bids["bold"]


def test_the_bids_are_made_in_the_promised_share_of_the_simulations():
    variant = get_variant("classic")
    cards = parse_cards(HEART_RUN)
    advice = advise(variant, variant.defaults, cards, random.Random(0), samples=200)
    hearts = advice.trumps[0]
    # p10 of what the bidders counted is the highest total that 90% of the hands reach: the safe bid
    # can be no higher than it, and the bold bid (60%) no higher than the median's neighbourhood.
    assert hearts.bids["safe"] <= hearts.percentiles[0] + 1
    assert hearts.bids["bold"] <= hearts.percentiles[2]


def test_a_double_deck_hand_without_a_marriage_is_told_to_pass():
    hand = "AS AS AS TS TS JS AH AH TH TH JH JH AD AD TD TD JD AC TC JC"
    advice = advice_json("--variant", "double-deck", *hand.split())
    assert advice["trumps"] == []
    assert advice["bids"] == {"safe": None, "standard": None, "bold": None}


def test_text_names_the_three_bids_and_a_row_per_trump():
    out = StringIO()
    call_command(
        "advise",
        FEW,
        "--variant",
        "six-handed",
        *["AH", "TH", "KH", "QH", "JH", "AS", "KD", "QD"],
        stdout=out,
    )
    text = out.getvalue()
    for word in ("safe", "standard", "bold", "hearts", "diamonds"):
        assert word in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["AH", "TH"], "a classic hand holds 12 cards, not 2"),
        (["--variant", "double-deck", *HEART_RUN.split()], "9H is not in the double-deck deck"),
        (["--variant", "euchre", "AH"], "unknown variant 'euchre'"),
        (["--samples", "0", *HEART_RUN.split()], "--samples must be 1 to"),
        ([*HEART_RUN.split()[:-1], "XX"], "unknown card 'XX'"),
    ],
)
def test_bad_input_is_refused_in_one_line(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("advise", *args, stdout=StringIO())


@pytest.mark.slow  # a process of its own
def test_from_the_shell_bad_input_exits_non_zero_with_one_line():
    done = subprocess.run(
        [sys.executable, "manage.py", "advise", "AH", "TH"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_a_time_budget_stops_the_simulations_early_and_says_how_many_ran():
    variant = get_variant("six-handed")
    cards = parse_cards("AH TH KH QH JH AS KD QD")
    advice = advise(variant, variant.defaults, cards, random.Random(0), samples=500, budget_s=0.0)
    assert advice.samples == MIN_SAMPLES
    assert advice.to_json()["samples"] == MIN_SAMPLES
