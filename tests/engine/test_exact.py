"""The fast exact search (exact.py) gives the value ``lean.solve`` and plain minimax give, on random
positions of every variant under every §4 play setting, a trick in progress or not."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.engine.exact import Memo, solve_exact
from scorepad.engine.game import seat_view
from scorepad.engine.lean import INFINITY, Contract, PlayState, solve
from scorepad.engine.search import play_state
from scorepad.engine.variants import VARIANTS, get_variant
from tests.engine.test_lean import PLAY_SETTINGS, brute_force, playing_hand
from tests.examples import examples


def random_position(
    variant_id: str, seed: int, tricks: int, into_trick: int, overrides: dict[str, object]
) -> tuple[PlayState, Contract] | None:
    """A real hand's first lead, then random legal cards until ``tricks`` tricks are left and
    ``into_trick`` cards of the next are down (None if the hand never reaches its play)."""
    state, _ = playing_hand(variant_id, seed, 0, overrides)
    if state is None or state.decision is None:
        return None
    assert state.to_act is not None
    lean, contract = play_state(seat_view(state, state.to_act), state.hands)
    rng = random.Random(seed)
    while lean.left > tricks or (lean.trick and lean.left == tricks):
        lean.play(rng.choice(lean.legal()))
    for _ in range(into_trick % lean.rules.seats if lean.left > 1 else 0):
        lean.play(rng.choice(lean.legal()))
    return lean, contract


@settings(max_examples=examples(60), deadline=None)
@given(
    variant_id=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 100_000),
    tricks=st.sampled_from([1, 2, 3]),
    into_trick=st.integers(0, 5),
    overrides=st.fixed_dictionaries(PLAY_SETTINGS),
)
def test_the_fast_exact_search_equals_plain_minimax(
    variant_id: str, seed: int, tricks: int, into_trick: int, overrides: dict[str, object]
) -> None:
    found = random_position(variant_id, seed, tricks, into_trick, overrides)
    if found is None:
        return
    lean, contract = found
    for side in range(lean.rules.sides):
        assert solve_exact(lean, contract, side) == brute_force(lean.copy(), contract, side)


@settings(max_examples=examples(40), deadline=None)
@given(
    variant_id=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 100_000),
    into_trick=st.integers(0, 5),
    overrides=st.fixed_dictionaries(PLAY_SETTINGS),
)
def test_the_fast_exact_search_equals_the_plain_one_tricks_from_the_end(
    variant_id: str, seed: int, into_trick: int, overrides: dict[str, object]
) -> None:
    """Four tricks left (three in six-handed), a trick in progress or not: the table, equivalent
    cards and the move order at work, with one memo shared by the positions after each legal card,
    as a weighing shares it."""
    tricks = 3 if get_variant(variant_id).seats == 6 else 4
    found = random_position(variant_id, seed, tricks, into_trick, overrides)
    if found is None:
        return
    lean, contract = found
    side = lean.rules.side_of[lean.to_act]
    memo: Memo = {}
    for c in lean.legal():
        child = lean.copy()
        child.play(c)
        assert solve_exact(child, contract, side, memo) == solve(
            child.copy(), contract, side, -INFINITY, INFINITY
        )
    assert solve_exact(lean, contract, side) == solve(lean.copy(), contract, side, -INFINITY, INFINITY)


def test_the_search_leaves_the_state_as_it_was() -> None:
    found = random_position("classic", 7, 4, 2, {})
    assert found is not None
    lean, contract = found
    before = (lean.hands, lean.masks[:], lean.trick[:], lean.points[:], lean.took[:], lean.left, lean.to_act)
    solve_exact(lean, contract, 0)
    assert (lean.hands, lean.masks, lean.trick, lean.points, lean.took, lean.left, lean.to_act) == before
