"""The §9.5 game log: one line per hand, and a replay that re-applies it under the rules."""

import copy
import itertools
import json
import random

import pytest

from scorepad.engine.bots import make_bot
from scorepad.engine.game import deal
from scorepad.engine.log import LINE_KEYS, ReplayError, dumps, hand_line, replay_hand, replay_log
from scorepad.engine.simulate import simulate
from scorepad.engine.variants import VARIANTS, get_variant


def simulated_lines(variant_id: str, games: int = 2, seed: int = 7, **rules) -> list[str]:
    variant = get_variant(variant_id)
    lines: list[str] = []
    simulate(
        variant,
        variant.settings(rules),
        ["random"] * variant.seats,
        games,
        seed,
        make_bot,
        on_hand=lambda state: lines.append(dumps(hand_line(state))),
    )
    return lines


@pytest.fixture(scope="module")
def classic_lines() -> list[str]:
    return simulated_lines("classic")


def played_line(lines: list[str]) -> dict:
    return next(json.loads(line) for line in lines if json.loads(line)["tricks"])


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_replaying_a_simulated_log_reproduces_every_line_exactly(variant_id):
    lines = simulated_lines(variant_id)
    for line in lines:
        assert dumps(replay_hand(line)) == line
    assert replay_log(lines) == len(lines)


def test_a_log_line_has_the_keys_of_rules_9_5_in_order(classic_lines):
    line = json.loads(classic_lines[0])
    assert tuple(line) == LINE_KEYS
    assert line["game"] == 0
    assert line["hand"] == 0
    assert len(line["dealt"]) == 4


def test_hands_of_a_game_are_numbered_in_order_and_totals_run_on(classic_lines):
    games = [json.loads(line) for line in classic_lines if json.loads(line)["game"] == 0]
    assert [line["hand"] for line in games] == list(range(len(games)))
    for before, after in itertools.pairwise(games):
        expected = [total + score for total, score in zip(before["totals"], after["scores"], strict=True)]
        assert after["totals"] == expected
        assert after["dealer"] == (before["dealer"] + 1) % 4


def test_a_played_hand_logs_every_trick_and_points_adding_to_the_hand_total(classic_lines):
    line = played_line(classic_lines)
    assert len(line["tricks"]) == 12
    assert sum(line["points"]) == 25
    assert line["tricks"][0]["leader"] == line["bidder"]


def test_a_forfeited_hand_logs_no_tricks_and_null_points():
    lines = [json.loads(line) for line in simulated_lines("double-deck", games=3)]
    unplayed = [line for line in lines if line["bidder"] is not None and not line["tricks"]]
    assert unplayed
    assert all(line["points"] is None for line in unplayed)


def test_a_changed_card_in_a_trick_is_caught(classic_lines):
    line = played_line(classic_lines)
    tampered = copy.deepcopy(line)
    trick = tampered["tricks"][0]["cards"]
    trick[0], trick[1] = trick[1], trick[0]
    with pytest.raises(ReplayError, match="trick 1"):
        replay_hand(json.dumps(tampered))


def test_a_changed_score_is_caught_and_named(classic_lines):
    tampered = played_line(classic_lines)
    tampered["scores"][0] += 1
    tampered["totals"][0] += 1
    with pytest.raises(ReplayError, match=r"^scores: logged"):
        replay_hand(tampered)


def test_a_changed_meld_is_caught_and_named(classic_lines):
    tampered = played_line(classic_lines)
    tampered["meld"][0] += 1
    with pytest.raises(ReplayError, match=r"^meld: logged"):
        replay_hand(tampered)


def test_a_call_out_of_turn_is_refused(classic_lines):
    tampered = played_line(classic_lines)
    tampered["auction"][0][0] = (tampered["auction"][0][0] + 1) % 4
    with pytest.raises(ReplayError, match="auction call 1"):
        replay_hand(tampered)


def test_a_deal_that_is_not_one_whole_deck_is_refused(classic_lines):
    tampered = played_line(classic_lines)
    tampered["dealt"][0][0] = tampered["dealt"][1][0]
    with pytest.raises(ReplayError, match="dealt"):
        replay_hand(tampered)


def test_a_log_that_stops_mid_hand_is_refused(classic_lines):
    tampered = played_line(classic_lines)
    tampered["tricks"] = tampered["tricks"][:-1]
    with pytest.raises(ReplayError, match="ends before the hand does"):
        replay_hand(tampered)


def test_replay_log_names_the_line_that_fails(classic_lines):
    broken = [*classic_lines[:2], "{not json", *classic_lines[2:]]
    with pytest.raises(ReplayError, match=r"^line 3: not a JSON line"):
        replay_log(broken)


def test_a_line_missing_a_key_is_refused(classic_lines):
    line = played_line(classic_lines)
    del line["auction"]
    with pytest.raises(ReplayError, match="missing key 'auction'"):
        replay_hand(line)


def test_house_rules_are_logged_as_changes_and_replayed_under_them():
    lines = simulated_lines("classic", games=1, pass_cards=0, play_mode="FOLLOW")
    first = json.loads(lines[0])
    assert first["settings"] == {"pass_cards": 0, "play_mode": "FOLLOW"}
    assert first["passes"] == []
    assert replay_log(lines) == len(lines)


def test_the_same_seed_logs_the_same_hands():
    assert simulated_lines("six-handed", games=1, seed=3) == simulated_lines("six-handed", games=1, seed=3)
    assert simulated_lines("six-handed", games=1, seed=3) != simulated_lines("six-handed", games=1, seed=4)


def test_a_thrown_in_hand_is_logged_with_no_bidder_and_zero_scores_and_replays():
    variant = get_variant("classic")
    state = deal(variant, variant.settings({"all_pass": "redeal"}), 2, random.Random(4))
    for _ in range(4):
        state.push(None)
    line = hand_line(state)
    assert (line["bidder"], line["bid"], line["trump"], line["points"]) == (None, None, None, None)
    assert (line["meld"], line["tricks"], line["scores"]) == ([], [], [0, 0])
    assert line["auction"] == [[3, None], [0, None], [1, None], [2, None]]
    assert replay_hand(dumps(line)) == line
