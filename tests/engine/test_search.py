"""The search kit: a simulated contract scores as the full game state would play it."""

from __future__ import annotations

import random
from functools import partial

import pytest

from scorepad.engine.auction import trump_suits
from scorepad.engine.bots.heuristic import choose_pass, profile_of
from scorepad.engine.game import deal
from scorepad.engine.lean import blind_policy, playout, policy
from scorepad.engine.search import Outcome, contract_state, lean_of, playout_policy, simulate_contract
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.engine.view import PLAY

HOUSE_RULES = [
    {},
    {"pass_cards": 3, "bidder_may_concede": True, "meld_requires_trick": False},
    {"bidders_short_meld_play_out": True, "trump_requires_marriage": True},
]


def through_the_game_state(variant, settings, dealer, hands, bidder, trump, passer) -> Outcome:
    """What ``simulate_contract`` must give: the contract carried through a real ``HandState``
    (passes, shown meld, the rule of 20, conceding) and then played out by the variant's lean policy."""
    state = contract_state(variant, settings, dealer, hands, bidder, settings.min_bid + 1, trump, passer)
    assert state.meld is not None
    meld = variant.side_totals(state.meld)
    bidders = variant.side_of(bidder)
    if state.decision != PLAY:
        nothing = (0,) * len(variant.sides)
        return Outcome(meld[bidders], meld, nothing, (False,) * len(nothing), played=False)
    lean, contract = lean_of(state)
    playout(lean, contract, bidders, 0, playout_policy(variant))
    took_meld = meld[bidders] if (lean.took[bidders] or not settings.meld_requires_trick) else 0
    return Outcome(took_meld + lean.points[bidders], meld, tuple(lean.points), tuple(lean.took), played=True)


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
@pytest.mark.parametrize("rules", HOUSE_RULES, ids=lambda r: ",".join(r) or "defaults")
def test_a_simulated_contract_scores_as_the_full_game_state_plays_it(variant_id, rules) -> None:
    variant = get_variant(variant_id)
    settings = variant.settings(rules)
    passer = partial(choose_pass, p=profile_of(variant, settings))
    rng = random.Random(17)
    unplayed = 0
    for number in range(40):
        hands = deal(variant, settings, number % variant.seats, rng).hands
        bidder = rng.randrange(variant.seats)
        for trump in trump_suits(hands[bidder], settings):
            expected = through_the_game_state(
                variant, settings, number % variant.seats, hands, bidder, trump, passer
            )
            assert simulate_contract(variant, settings, hands, bidder, trump, passer) == expected
            unplayed += not expected.played
    assert unplayed < 40 * 4  # most contracts are played out, so the play is compared too


@pytest.mark.parametrize("rules", [{}, {"pass_cards": 3}], ids=["four passed", "three passed"])
def test_passes_chosen_beforehand_are_the_passes_the_simulated_hand_makes(rules) -> None:
    # The expert weighs its own candidate passes this way; with both passes given no state is built.
    variant = get_variant("classic")
    settings = variant.settings(rules)
    heuristic = partial(choose_pass, p=profile_of(variant, settings))
    rng = random.Random(5)
    for _ in range(20):
        hands = deal(variant, settings, 0, rng).hands
        bidder = rng.randrange(variant.seats)
        partner = (bidder + 2) % 4
        trump = rng.choice(trump_suits(hands[bidder], settings))
        chosen: dict[int, tuple] = {}

        def recording(view, chosen=chosen):
            chosen[view.seat] = heuristic(view)
            return chosen[view.seat]

        def never(view):
            raise AssertionError(f"seat {view.seat}'s pass was given")

        expected = through_the_game_state(variant, settings, 0, hands, bidder, trump, recording)
        args = (variant, settings, hands, bidder, trump)
        assert simulate_contract(*args, never, passes=chosen) == expected
        assert simulate_contract(*args, heuristic, passes={partner: chosen[partner]}) == expected


def test_simulated_hands_are_played_blind_where_no_seat_has_a_partner() -> None:
    # Measured per variant (``playout_policy``): blind in six-handed, the deal seen with a partner.
    assert playout_policy(get_variant("six-handed")) is blind_policy
    assert playout_policy(get_variant("classic")) is policy
    assert playout_policy(get_variant("double-deck")) is policy
