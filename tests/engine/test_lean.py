"""The lean play-only state (lean.py) against the game engine, its exact search, and the compact
state against the list state it replaced (``lean_reference``): the same card at every turn."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.engine.bots import HeuristicBot
from scorepad.engine.cards import HEARTS, Card, Suit, counts_of, parse_cards
from scorepad.engine.game import deal, seat_view
from scorepad.engine.lean import (
    INFINITY,
    Chooser,
    Contract,
    Plan,
    PlayState,
    blind_policy,
    playout,
    policy,
    solve,
)
from scorepad.engine.play import play_rules
from scorepad.engine.search import play_state
from scorepad.engine.variants import COUNT_SYSTEMS, FOLLOW, HEAD, VARIANTS, get_variant
from tests.engine import lean_reference as reference
from tests.engine.test_knowledge import advance
from tests.examples import examples


def playing_hand(variant_id: str, seed: int, extra_steps: int, overrides: dict[str, object]):  # type: ignore[no-untyped-def]
    """A real hand advanced by heuristic bots into its trick play (None if it never gets there)."""
    variant = get_variant(variant_id)
    state = deal(variant, variant.settings(overrides), seed % variant.seats, random.Random(seed))
    bots = [HeuristicBot(seat) for seat in range(variant.seats)]
    while state.decision not in ("play", None):
        assert state.to_act is not None
        state.push(bots[state.to_act].decide(seat_view(state, state.to_act)))
    if state.decision is None:
        return None, bots
    return advance(state, extra_steps), bots


@settings(max_examples=examples(40), deadline=None)
@given(
    variant_id=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 10_000),
    extra_steps=st.integers(0, 30),
    exempt=st.booleans(),
    lead_trump=st.booleans(),
)
def test_the_lean_state_allows_and_scores_exactly_what_the_game_engine_does(
    variant_id: str, seed: int, extra_steps: int, exempt: bool, lead_trump: bool
) -> None:
    overrides = {"head_partner_exempt": exempt, "bidder_must_lead_trump": lead_trump}
    state, bots = playing_hand(variant_id, seed, extra_steps, overrides)
    if state is None or state.decision is None:
        return
    assert state.to_act is not None
    lean, contract = play_state(seat_view(state, state.to_act), state.hands)
    while state.decision is not None:
        assert lean.to_act == state.to_act
        assert sorted(lean.legal()) == sorted(set(state.legal()))
        card = bots[state.to_act].decide(seat_view(state, state.to_act))
        state.push(card)
        lean.play(card)
    assert lean.over()
    assert state.result is not None
    assert contract.scores(lean.points, lean.took) == state.result.scores


@settings(max_examples=examples(60), deadline=None)
@given(
    variant_id=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 10_000),
    extra_steps=st.integers(0, 30),
    play_mode=st.sampled_from([HEAD, FOLLOW]),
    exempt=st.booleans(),
    overtrump=st.booleans(),
    trump_when_void=st.booleans(),
    lead_trump=st.booleans(),
    count_system=st.sampled_from(sorted(COUNT_SYSTEMS)),
    last_trick=st.sampled_from([0, 10, 25]),
)
def test_under_every_play_setting_random_legal_play_agrees_card_by_card_with_the_full_rules(
    variant_id: str,
    seed: int,
    extra_steps: int,
    play_mode: str,
    exempt: bool,
    overtrump: bool,
    trump_when_void: bool,
    lead_trump: bool,
    count_system: str,
    last_trick: int,
) -> None:
    overrides = {
        "play_mode": play_mode,
        "head_partner_exempt": exempt,
        "must_overtrump": overtrump,
        "must_trump_when_void": trump_when_void,
        "bidder_must_lead_trump": lead_trump,
        "count_system": count_system,
        "last_trick": last_trick,
    }
    state, _ = playing_hand(variant_id, seed, extra_steps, overrides)  # the lean state starts mid-hand
    if state is None or state.decision is None:
        return
    assert state.to_act is not None
    lean, contract = play_state(seat_view(state, state.to_act), state.hands)
    rng = random.Random(seed)
    while state.decision is not None:
        assert lean.to_act == state.to_act
        legal = state.legal()
        assert sorted(lean.legal()) == sorted(legal)
        card = rng.choice(legal)
        state.push(card)
        lean.play(card)
        if not lean.trick:  # a trick just closed: the same winner leads, the same points counted
            assert lean.leader == state.tricks[-1].winner
            assert lean.points == state.points
            assert lean.took == state.took_trick
    assert lean.over()
    assert state.result is not None
    assert contract.scores(lean.points, lean.took) == state.result.scores


PLAY_SETTINGS = {
    "play_mode": st.sampled_from([HEAD, FOLLOW]),
    "head_partner_exempt": st.booleans(),
    "must_overtrump": st.booleans(),
    "must_trump_when_void": st.booleans(),
    "bidder_must_lead_trump": st.booleans(),
    "count_system": st.sampled_from(sorted(COUNT_SYSTEMS)),
    "last_trick": st.sampled_from([0, 10, 25]),
}


def brute_force(state: PlayState, contract: Contract, side: int) -> float:
    """Minimax without pruning: the yardstick for ``solve``."""
    if state.over():
        return contract.margin(state.points, state.took, side)
    values = []
    for c in state.legal():
        child = state.copy()
        child.play(c)
        values.append(brute_force(child, contract, side))
    return max(values) if state.rules.side_of[state.to_act] == side else min(values)


@settings(max_examples=examples(40), deadline=None)
@given(
    variant_id=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 10_000),
    tricks=st.sampled_from([2, 3]),
    overrides=st.fixed_dictionaries(PLAY_SETTINGS),
)
def test_the_exact_search_of_the_last_tricks_equals_plain_minimax(
    variant_id: str, seed: int, tricks: int, overrides: dict[str, object]
) -> None:
    """Two or three tricks left, give or take, under every §4 play setting (from three, ``solve``
    tries the policy's card first; two left at a trick's start go to ``_two_tricks``)."""
    variant = get_variant(variant_id)
    steps = (variant.hand_size - tricks) * variant.seats + seed % variant.seats
    state, _ = playing_hand(variant_id, seed, steps, overrides)
    if state is None or state.decision is None:
        return
    assert state.to_act is not None
    lean, contract = play_state(seat_view(state, state.to_act), state.hands)
    side = variant.side_of(state.to_act)
    assert solve(lean.copy(), contract, side, -INFINITY, INFINITY) == brute_force(lean, contract, side)


# A real hand in every variant, some decisions into its trick play, under any §4 play settings.
HANDS = {
    "variant_id": st.sampled_from(sorted(VARIANTS)),
    "seed": st.integers(0, 100_000),
    "extra_steps": st.integers(0, 60),
    "overrides": st.fixed_dictionaries(PLAY_SETTINGS),
}


def compact_and_list(
    variant_id: str, seed: int, extra_steps: int, overrides: dict[str, object]
) -> tuple[PlayState, Contract, reference.PlayState] | None:
    """A real hand at its first lead or later, as the compact state and the list state."""
    state, _ = playing_hand(variant_id, seed, extra_steps, overrides)
    if state is None or state.decision is None:
        return None
    assert state.to_act is not None
    lean, contract = play_state(seat_view(state, state.to_act), state.hands)
    old = reference.PlayState(
        lean.rules,
        lean.trump,
        lean.hands,
        lean.leader,
        lean.trick[:],
        lean.points[:],
        lean.took[:],
        lean.done,
    )
    return lean, contract, old


@settings(max_examples=examples(200), deadline=None)
@given(
    **HANDS,
    wander=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_the_compact_state_allows_chooses_and_counts_every_card_as_the_list_state_did(
    variant_id: str, seed: int, extra_steps: int, overrides: dict[str, object], wander: float
) -> None:
    """From the first lead or mid-trick, under every §4 play setting: the same legal cards in the
    same order, the same policy card, the same winner, points and tricks taken. With ``wander``
    some turns play a random legal card instead, so the policy is also asked off its own path."""
    found = compact_and_list(variant_id, seed, extra_steps, overrides)
    if found is None:
        return
    lean, contract, old = found
    rng = random.Random(seed)
    while not old.over():
        assert not lean.over()
        assert (lean.to_act, lean.leader, lean.trick) == (old.to_act, old.leader, old.trick)
        assert lean.legal() == old.legal()
        choice = reference.policy(old)
        assert policy(lean) == choice
        card = rng.choice(old.legal()) if rng.random() < wander else choice
        lean.play(card)
        old.play(card)
        assert (lean.points, lean.took, lean.hands) == (old.points, old.took, old.hands)
    assert lean.over()
    assert contract.scores(lean.points, lean.took) == contract.scores(old.points, old.took)


@settings(max_examples=examples(100), deadline=None)
@given(
    **HANDS,
    side=st.integers(0, 2),
)
def test_a_compact_playout_scores_what_the_list_state_scored(
    variant_id: str, seed: int, extra_steps: int, overrides: dict[str, object], side: int
) -> None:
    found = compact_and_list(variant_id, seed, extra_steps, overrides)
    if found is None:
        return
    lean, contract, old = found
    side %= len(contract.meld)
    assert playout(lean, contract, side, 0, policy) == reference.playout(old, contract, side)


@settings(max_examples=examples(25), deadline=None)
@given(
    variant_id=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10_000), exact=st.sampled_from([2, 3])
)
def test_a_playout_searches_exactly_its_last_tricks_and_plays_the_policy_before(
    variant_id: str, seed: int, exact: int
) -> None:
    """What the expert's play search scores each card by (``exact_from``): the policy's cards until
    ``exact`` tricks are left (the one that sees the deal, or the blind one six-handed's expert
    plays its playouts by), then ``solve``'s value of that position."""
    state, _ = playing_hand(variant_id, seed, seed % 7, {})
    if state is None or state.decision is None:
        return
    assert state.to_act is not None
    lean, contract = play_state(seat_view(state, state.to_act), state.hands)
    side = lean.table.side_of[lean.to_act]
    for choose in (policy, blind_policy):
        by_hand = lean.copy()
        while by_hand.left > exact or by_hand.trick:
            by_hand.play(choose(by_hand))
        expected = solve(by_hand, contract, side, -INFINITY, INFINITY)
        assert playout(lean.copy(), contract, side, exact, choose) == expected


def planted(leader: int, trick: str, *hands: str, bidder: int | None = None) -> PlayState:
    """`classic` trick play with hearts trump: four seats' hands (and the trick so far, led by ``leader``)."""
    variant = get_variant("classic")
    rules = play_rules(variant, variant.defaults, 25)
    counts = [counts_of(parse_cards(hand)) for hand in hands]
    return PlayState(rules, HEARTS, counts, leader, parse_cards(trick), [0, 0], [False, False], 8, bidder)


def test_the_blind_policy_judges_sure_winners_by_the_cards_it_cannot_see_not_by_where_they_lie() -> None:
    # Seat 0 leads: seat 1, an opponent, holds no spade and a trump. Seeing it, the policy keeps the
    # ace from the ruff and leads its cheapest card; blind to it, as a player, it cashes the ace.
    lead = planted(0, "", "AS 9D", "9H JD", "KS QC", "JS QD")
    assert policy(lead) == parse_cards("9D")[0]
    assert blind_policy(lead) == parse_cards("AS")[0]
    # The partner's K♠ leads the trick and seat 0 holds no spade; the only spade above the king is
    # the partner's own A♠. Seeing that, seat 0 smears its ten of diamonds; blind to it, the king
    # may fall to the ace, so it plays its nine.
    follow = planted(2, "KS 9S", "TD 9D", "QS JD", "AS", "QC")
    assert policy(follow) == parse_cards("TD")[0]
    assert blind_policy(follow) == parse_cards("9D")[0]


def test_a_blind_defender_on_lead_keeps_its_boss_trump_and_the_bidders_side_cashes_it() -> None:
    # Seat 0 leads with the A♥ (every other heart is out) and the 9♦. Defending, it does not pull
    # the bidder's trumps for it: it leads the nine. On the bidder's side it cashes the ace. (No
    # bidder known: the policy as the sure-winner rule alone, the ace.)
    hands = ("AH 9D", "JH QD", "KH QC", "QH JD")
    assert blind_policy(planted(0, "", *hands, bidder=1)) == parse_cards("9D")[0]
    assert blind_policy(planted(0, "", *hands, bidder=2)) == parse_cards("AH")[0]
    assert blind_policy(planted(0, "", *hands, bidder=0)) == parse_cards("AH")[0]
    assert blind_policy(planted(0, "", *hands)) == parse_cards("AH")[0]
    # With a side boss as well, the defender cashes that before anything.
    assert (
        blind_policy(planted(0, "", "AH AD 9C", "JH QD KC", "KH QC JC", "QH JD 9S", bidder=1))
        == (parse_cards("AD")[0])
    )


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 10_000), extra_steps=st.integers(0, 40))
def test_a_plan_still_within_its_patience_plays_the_policys_playout(seed: int, extra_steps: int) -> None:
    """Until a node has had ``patience`` visits the plan's seat plays the policy's card: so a plan
    changes nothing until it has something to go on, and its playout is the plain one."""
    state, _ = playing_hand("six-handed", seed, extra_steps, {})
    if state is None or state.decision is None:
        return
    assert state.to_act is not None
    lean, contract = play_state(seat_view(state, state.to_act), state.hands)
    seat, side = lean.to_act, lean.table.side_of[lean.to_act]
    plan = Plan(seat, 10.0, patience=1_000, explore=0.5)
    value = plan.playout(lean.copy(), contract, side, 0, blind_policy)
    assert value == playout(lean.copy(), contract, side, 0, blind_policy)
    # and it has counted each choice the seat had on the way once, with this playout's margin
    for cards in plan.nodes.values():
        assert list(cards.values()) == [[1, value]]
    if len(lean.legal()) > 1:
        assert plan.nodes[()] == {blind_policy(lean): [1, value]}


def _by_line(seat: int, line: Sequence[Card], choose: Chooser) -> Chooser:
    """A chooser playing ``line``'s cards for ``seat`` wherever it has a choice, ``choose`` for the
    others (an impossible card where the line's next card is not legal)."""
    left = list(line)

    def chooser(state: PlayState) -> Card:
        if state.to_act == seat:
            legal = state.legal_mask()
            if legal & (legal - 1):
                return left.pop(0) if left and legal >> left[0] & 1 else Card(-1)
        return choose(state)

    return chooser


PLAN_TRIES = 2_000


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_plan_learns_the_best_line_of_the_seats_own_cards(seed: int) -> None:
    """Three tricks of `classic` played again and again from the same deal: the others by the
    policy, seat 0 by its plan. The line the plan then follows (its most chosen card at each of
    its choices) scores what the best order of seat 0's own cards scores, found by trying them all."""
    rng = random.Random(seed)
    variant = get_variant("classic")
    rules = play_rules(variant, variant.defaults, 25)
    trump = Suit(rng.randrange(4))
    cards = rng.sample(variant.deck(), 12)
    hands = [counts_of(cards[3 * seat : 3 * seat + 3]) for seat in range(4)]
    contract = Contract(variant, variant.defaults, 0, 25, trump, (0, 0))
    start = PlayState(rules, trump, hands, 0, [], [0, 0], [False, False], 9, 0)

    def line_value(line: Sequence[Card]) -> float | None:
        state = start.copy()
        chooser = _by_line(0, line, policy)
        while not state.over():
            c = chooser(state)
            if c < 0 or not state.legal_mask() >> c & 1:
                return None  # not a line seat 0 can play on this deal
            state.play(c)
        return contract.margin(state.points, state.took, 0)

    lines = {tuple(order[:n]) for order in permutations(cards[:3]) for n in range(4)}
    best = max(v for v in map(line_value, lines) if v is not None)
    plan = Plan(0, 10.0, patience=0, explore=0.5)  # margins here span a few tens of points
    for _ in range(PLAN_TRIES):
        plan.playout(start.copy(), contract, 0, 0, policy)
    learned: list[Card] = []
    while (node := plan.nodes.get(tuple(learned))) is not None:
        learned.append(max(node, key=lambda c: node[c][0]))
    assert line_value(learned) == best
