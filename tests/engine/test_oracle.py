"""The `oracle-auction` yardstick: legal calls only, and it sees the deal only where a match shows it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorepad.engine.bots import PRACTICE_STRENGTHS, HeuristicBot, make_bot
from scorepad.engine.bots.oracle import OracleAuctionBot
from scorepad.engine.cards import parse_cards
from scorepad.engine.game import HandState, deal, deal_hands, seat_view
from scorepad.engine.match import MatchResult, duplicate_match
from scorepad.engine.simulate import play_hand
from scorepad.engine.variants import get_variant
from scorepad.engine.view import Bot

# Seat 1 holds a run in spades, both aces of every other suit and more: the contract is its side's.
STRONG = "AS AS TS KS QS JS AH AH AD AD AC AC"


def oracle(seat: int) -> OracleAuctionBot:
    return OracleAuctionBot(seat, random.Random(seat), playouts=8, budget_ms=60_000.0)


def dealt_with(hand: str, seat: int, seed: int = 1) -> HandState:
    """A `classic` deal (seat 0 dealing) with ``hand`` at ``seat``, the rest shuffled."""
    variant = get_variant("classic")
    rest = variant.deck()
    for c in parse_cards(hand):
        rest.remove(c)
    random.Random(seed).shuffle(rest)
    hands = [rest[0:12], rest[12:24], rest[24:36]]
    hands.insert(seat, parse_cards(hand))
    return deal_hands(variant, variant.defaults, 0, hands)


def played(state: HandState, bots: list[Bot]) -> HandState:
    for bot in bots:
        see = getattr(bot, "see_deal", None)
        if see is not None:
            see(state)
    play_hand(state, bots)
    return state


def test_the_oracle_takes_the_contract_with_overwhelming_cards() -> None:
    state = dealt_with(STRONG, 1)
    bots: list[Bot] = [HeuristicBot(0), oracle(1), HeuristicBot(2), oracle(3)]
    played(state, bots)
    assert state.bidder in (1, 3)
    assert state.result is not None
    assert state.result.made


def test_the_oracle_passes_holding_nothing_while_the_opponents_hold_everything() -> None:
    # Seats 0 and 2 hold the nines, jacks and queens, no meld past a dix (one 9 of each suit, no
    # pinochle, no jacks or queens around) and no cards are passed to make one; seats 1 and 3 hold
    # every ace, ten and king.
    variant = get_variant("classic")
    settings = replace(variant.defaults, pass_cards=0)
    hands = [
        parse_cards("9S 9H 9D 9C JD JD JC JC QD QD QC QC"),
        parse_cards("AS AS AH AH AD AD TS TS TH TH TD TD"),
        parse_cards("9S 9H 9D 9C JS JS JH JH QS QS QH QH"),
        parse_cards("AC AC TC TC KS KS KH KH KD KD KC KC"),
    ]
    state = deal_hands(variant, settings, 0, hands)
    bots: list[Bot] = [oracle(0), HeuristicBot(1), oracle(2), HeuristicBot(3)]
    played(state, bots)
    assert state.bidder in (1, 3)
    assert all(bid is None for seat, bid in state.auction if seat in (0, 2)), "the oracles only passed"


@pytest.mark.parametrize("variant_id", ["classic", "six-handed", "double-deck"])
def test_the_oracle_makes_only_legal_calls(variant_id: str) -> None:
    # ``HandState.push`` refuses an illegal answer (the match stops with ``GameStopped``): every
    # call of the oracles at every seat is checked against the legal ones before it is pushed.
    variant = get_variant(variant_id)
    for seed in range(3):
        state = deal(variant, variant.defaults, seed % variant.seats, random.Random(seed))
        bots: list[Bot] = [oracle(s) if s % 2 == 0 else HeuristicBot(s) for s in range(variant.seats)]
        for bot in bots:
            if isinstance(bot, OracleAuctionBot):
                bot.see_deal(state)
        while state.decision == "bid":
            seat = state.to_act
            assert seat is not None
            view = seat_view(state, seat)
            answer = bots[seat].decide(view)
            if isinstance(bots[seat], OracleAuctionBot):
                assert answer in view.legal_bids
                assert answer in (None, view.least_bid)
            state.push(answer)
        if state.decision == "trump" and isinstance(bots[state.bidder or 0], OracleAuctionBot):
            assert state.to_act is not None
            assert bots[state.to_act].decide(seat_view(state, state.to_act)) in state.legal()


def test_the_oracle_refuses_to_bid_unless_shown_the_deal() -> None:
    state = dealt_with(STRONG, 1)
    with pytest.raises(ValueError, match="duplicate deal match"):
        oracle(1).decide(seat_view(state, 1))


def test_no_table_can_start_the_oracle() -> None:
    # Practice tables, reviews and hints start bots by ``make_bot`` (the web by its strengths): the
    # oracle is in neither, only in the match command's own factory.
    assert "oracle-auction" not in PRACTICE_STRENGTHS
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle-auction", 0, random.Random(0))


def test_the_duplicate_match_shows_the_oracle_each_deal() -> None:
    variant = get_variant("classic")

    def make(name: str, seat: int, rng: random.Random) -> Bot:
        return OracleAuctionBot(seat, rng, playouts=4) if name == "oracle-auction" else HeuristicBot(seat)

    result = duplicate_match(
        variant,
        variant.defaults,
        "oracle-auction",
        "heuristic",
        2,
        1,
        make,
        result=MatchResult("classic", "o", "h"),
    )
    assert len(result.margins) == 2
