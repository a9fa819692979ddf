"""Typed moves (view.py, game.py): the Decision enum speaks the §9.6 words, the seat view's
typed legal answers belong to their decision only, every bot explains, and a contract starts from
an auction won without writing a state's fields."""

from __future__ import annotations

import json
import random

import pytest

from scorepad.engine.bots import make_bot
from scorepad.engine.game import HandState, deal, seat_view
from scorepad.engine.variants import get_variant
from scorepad.engine.view import Decision


def test_a_decision_is_its_protocol_word_in_json_and_comes_back_as_the_enum():
    classic = get_variant("classic")
    state = deal(classic, classic.defaults, 0, random.Random(3))
    view = json.loads(json.dumps(seat_view(state, 1).to_json()))
    assert view["decision"] == "bid"
    restored = HandState.from_json(json.loads(json.dumps(state.to_json())))
    assert restored.decision is Decision.BID
    assert [d.value for d in Decision] == ["bid", "trump", "pass", "concede", "play", "done"]


def test_a_typed_legal_list_is_refused_for_another_decision():
    classic = get_variant("classic")
    state = deal(classic, classic.defaults, 0, random.Random(3))
    view = seat_view(state, 1)
    assert view.least_bid == classic.defaults.min_bid
    assert view.may_pass
    with pytest.raises(ValueError, match="decides bid, not play"):
        view.legal_cards  # noqa: B018 (the property is the check)


@pytest.mark.parametrize(
    ("name", "gives_words"), [("random", False), ("easy", False), ("heuristic", True), ("expert", True)]
)
def test_every_bot_explains_with_the_answer_it_would_give(name, gives_words):
    classic = get_variant("classic")
    state = deal(classic, classic.defaults, 0, random.Random(5))
    view = seat_view(state, 1)
    answer, reason = make_bot(name, 1, random.Random(9), playouts=20).explain(view)
    assert answer == make_bot(name, 1, random.Random(9), playouts=20).decide(view)
    assert answer in view.legal_bids
    assert bool(reason and reason.strip()) is gives_words


def test_an_auction_won_leaves_the_bidder_to_name_trump_as_a_real_auction_does():
    classic = get_variant("classic")
    rules = classic.settings({"pass_cards": 0})
    dealt = deal(classic, rules, 3, random.Random(11))
    hands = [list(cards) for cards in dealt.dealt]
    won = HandState.auction_won(classic, rules, 3, hands, bidder=0, bid=25)
    real = deal(classic, rules, 3, random.Random(11))
    for bid in (25, None, None, None):  # seat 0, after the dealer, bids; the others pass
        real.push(bid)
    assert (won.decision, won.to_act, won.bidder, won.bid) == (Decision.TRUMP, 0, 0, 25)
    assert (real.decision, real.to_act, real.bidder, real.bid) == (won.decision, 0, 0, 25)
    assert won.hands == real.hands
    trump = won.legal()[0]
    assert won.legal() == real.legal()
    won.push(trump)
    real.push(trump)
    assert (won.decision, won.meld, won.to_act) == (real.decision, real.meld, real.to_act)
