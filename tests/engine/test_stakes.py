"""The expert bids for the game near its end (``bots/stakes.py``): planted scores, and the game values."""

from __future__ import annotations

import random
import statistics
from dataclasses import replace
from functools import partial

import pytest

from scorepad.engine.bots import ExpertBot, expert, make_bot
from scorepad.engine.bots import analysis as analysis_module
from scorepad.engine.bots.analysis import REFIT_KEPT_SHARE, BidAnalysis, auction_misfits, kept, worth_of
from scorepad.engine.bots.heuristic import profile_of
from scorepad.engine.bots.stakes import game_value, game_won
from scorepad.engine.game import deal, seat_view
from scorepad.engine.knowledge import Dealer, knowledge_of
from scorepad.engine.simulate import advance_until
from scorepad.engine.variants import get_variant
from scorepad.engine.view import BID, SeatView

CLASSIC = get_variant("classic")
# Six-handed: seat 1, at 950 of 1000, bids 100 on this deal and seat 2 (at 600) is to call. Making it
# ends the game, and seat 2's hand is one it would pass, though it makes 110 often enough to bid
# (seeds 115 and 222 plant it too).
LEADER_DEAL, LEADER_TOTALS = 46, (700, 950, 600, 700, 700, 700)


def bid_after(seed: int, totals: tuple[int, ...], *bids: int | None, variant_id: str = "classic") -> SeatView:
    """The view of the seat to bid once ``bids`` are in, on the deal ``seed`` with ``totals`` before it."""
    variant = get_variant(variant_id)
    dealer = 0 if bids else variant.seats - 1
    state = deal(variant, variant.defaults, dealer, random.Random(seed), totals=totals)
    for bid in bids:
        state.push(bid)
    assert state.to_act is not None
    return seat_view(state, state.to_act)


def answers(view: SeatView) -> tuple[object, object, str | None]:
    """The expert's answer blind to the score, then aware of it (same seed), and the aware reason."""
    blind = ExpertBot(view.seat, random.Random(1), playouts=100, score_aware=False).decide(view)
    aware, why = ExpertBot(view.seat, random.Random(1), playouts=100).explain(view)
    return blind, aware, why


def test_far_from_the_end_of_the_game_the_score_changes_no_bid() -> None:
    for seed in (4, 12):
        blind, aware, _ = answers(bid_after(seed, (40, 30), 25))
        assert aware == blind


def test_when_whoever_makes_the_contract_goes_out_the_expert_outbids_them() -> None:
    # Classic at 130 to 140 of 150: both sides reach it on any made contract, and the bidders win.
    # With 5 spades and 6 meld, 26 over their 25 is made too rarely to bid at 0 to 0.
    assert ExpertBot(2, random.Random(1), playouts=100).decide(bid_after(12, (0, 0), 25)) is None
    blind, aware, why = answers(bid_after(12, (130, 140), 25))
    assert blind is None
    assert aware == 26
    assert why is not None
    assert why.startswith("bidding to go out: 26 wins the game in ")
    assert "if you pass, they go out in " in why


def test_in_six_handed_the_others_push_the_leader_who_would_go_out_into_a_set() -> None:
    # Seat 1 at 950 of 1000 bid 100: making it ends the game, so seat 2 (at 600) bids on a hand it
    # would pass.
    blind, aware, why = answers(bid_after(LEADER_DEAL, LEADER_TOTALS, 100, variant_id="six-handed"))
    assert blind is None
    assert aware == 110
    assert why is not None
    assert why.startswith("pushing them: they go out if they make it (in ")


def test_without_a_partner_a_push_short_of_the_made_bar_is_left_to_the_others(monkeypatch) -> None:
    # Seat 1 at 950 bid 100; seat 2, at 850, would push it on a hand that makes 110 too rarely to
    # bid. Four other seats want to stop the leader too: below the lone bar the usual rule answers.
    view = bid_after(2, (800, 950, 850, 800, 800, 800), 100, variant_id="six-handed")
    blind, aware, why = answers(view)
    assert blind is None
    assert aware is None
    assert why is not None
    assert not why.startswith("pushing them")
    monkeypatch.setattr(expert, "game_bid_floor", lambda p, seat, **_: 0.0)  # as with a partner
    _, pushed, why = answers(view)
    assert pushed == 110
    assert why is not None
    assert why.startswith("pushing them: they go out if they make it (in ")


def test_two_experts_of_one_side_never_bid_each_other_up_for_the_game() -> None:
    # Classic: the others (side 0, at 129 of 150) go out on their defence alone. Seat 3 holds the
    # bid at 41, far more than its side can make; seat 1, its partner, is to call. Passing leaves
    # the partner set at 41, bidding 42 gets this seat set instead: both lose the game. Before the
    # bar over a partner a hair of the race between them chose the bid (here seat 1 bid 42), and in
    # a game of `botmatch --variant classic --games 20 --seed 3` two experts raised each other
    # past 7,000.
    state = deal(CLASSIC, CLASSIC.defaults, 0, random.Random(1), totals=(129, 83))
    for bid in (40, None, 41, None):
        state.push(bid)
    experts = {seat: ExpertBot(seat, random.Random(seat), playouts=100) for seat in (1, 3)}
    advance_until(state, experts, stop_at={0, 2})  # the auction, the trump and passes: to seat 0's lead
    assert state.decision != BID
    assert state.auction[-1] == (1, None)  # seat 1 passed: its partner's 41 stands


def test_a_game_won_without_the_contract_lets_it_go() -> None:
    # At 140 of 150 the side goes out on its defence alone: no need to risk the set.
    assert ExpertBot(0, random.Random(1), playouts=100).decide(bid_after(4, (0, 0))) == 20
    blind, aware, why = answers(bid_after(4, (140, 0)))
    assert blind == 20
    assert aware is None
    assert why is not None
    assert why.startswith("letting it go: the game is won without bidding in ")


def test_the_hand_only_expert_is_the_expert_blind_to_the_score() -> None:
    view = bid_after(12, (130, 140), 25)
    assert make_bot("expert-hand-only", view.seat, random.Random(1), playouts=100).decide(view) is None
    assert make_bot("expert", view.seat, random.Random(1), playouts=100).decide(view) == 26


def test_a_hand_that_ends_no_game_is_worth_its_chance_in_the_race_to_the_target() -> None:
    view = replace(bid_after(4, (40, 30)), seat=0)
    assert game_won(view, (25, 15), 0) is None
    assert game_value(view, (25, 15), 0) == pytest.approx(150 * (2 * 105 / (85 + 105) - 1))  # 85 to go, 105
    assert game_value(view, (25, 15), 0) > game_value(view, (15, 25), 0)
    near = replace(view, totals=(115, 105))  # the same 20-point lead, 10 points from the target
    assert game_value(near, (25, 15), 0) > 2 * game_value(view, (25, 15), 0)


def test_with_bidder_out_the_bidders_win_when_both_sides_go_out() -> None:
    variant = get_variant("double-deck")
    view = bid_after(1, (480, 490), variant_id="double-deck")
    assert variant.side_of(view.seat) == 0
    scores = [25, 30]  # 505 to 520: the others have more …
    assert game_won(view, scores, view.seat) == 0  # … so without `bidder_out` they win
    assert game_value(view, scores, view.seat) == -500
    out = replace(view, settings=replace(view.settings, bidder_out=True))
    assert game_won(out, scores, view.seat) == 1  # with it, making the contract wins
    assert game_value(out, scores, view.seat) == 500


def test_in_six_handed_any_other_seat_going_out_is_a_loss_and_a_tie_is_shared() -> None:
    view = replace(bid_after(1, (900, 0, 0, 990, 0, 0), variant_id="six-handed"), seat=0)
    scores = [0] * 6
    scores[3] = 20  # seat 3 goes out: every other seat has lost
    assert game_value(view, scores, 3) == -1000
    scores[0] = 110  # 1010 each: co-winners share the game
    assert game_won(view, scores, 3) == 0.5
    assert game_value(view, scores, 3) == 0


def test_a_bidding_war_simulates_the_pass_once_a_hand(monkeypatch) -> None:
    # Seat 2 pushes the leader (seat 1) at 110, the leader bids on: seat 2's second call weighs
    # passing on the same deals and the same taker, so it simulates nothing anew (it cost a
    # fresh sample of fitted deals a call, half a six-handed bid round's CPU).
    simulated: list[int] = []
    simulate = analysis_module.simulate_contract

    def counted(*args, **kwargs):
        simulated.append(1)
        return simulate(*args, **kwargs)

    monkeypatch.setattr(analysis_module, "simulate_contract", counted)
    bot = ExpertBot(2, random.Random(1), playouts=100)
    assert bot.decide(bid_after(LEADER_DEAL, LEADER_TOTALS, 100, variant_id="six-handed")) == 110
    first = len(simulated)
    assert first > 0  # the pass was weighed
    again = bid_after(
        LEADER_DEAL, LEADER_TOTALS, 100, 110, None, None, None, None, 120, variant_id="six-handed"
    )
    assert again.seat == 2
    bot.decide(again)
    assert len(simulated) == first


def test_a_refit_keeps_the_analysis_deals_that_explain_the_calls_since() -> None:
    first = bid_after(3, (0,) * 6, None, variant_id="six-handed")  # seat 2's first call
    assert first.seat == 2
    p = profile_of(first.variant, first.settings)
    dealer = Dealer(knowledge_of(first))
    rng = random.Random(2)
    analysis = BidAnalysis({}, tuple(kept(dealer.deal(rng)) for _ in range(40)), p)

    def worth(deal: int, seat: int = 4) -> float:
        return worth_of(analysis.valued(deal, seat))

    def second_call(seat_4_bid: int) -> SeatView:
        view = bid_after(3, (0,) * 6, None, 50, None, seat_4_bid, None, None, variant_id="six-handed")
        assert view.seat == 2
        return view

    def refit(view: SeatView) -> tuple[list[int], list[int]]:
        """The deals the refit keeps, and each deal's misfits with ``view``'s auction."""
        misfits = [auction_misfits(view, partial(worth, deal)) for deal in range(len(analysis.deals))]
        fit = analysis.fitting(view)
        dropped = [deal for deal in range(len(analysis.deals)) if deal not in fit]
        assert max(misfits[deal] for deal in fit) < min((misfits[deal] for deal in dropped), default=99)
        return fit, misfits

    fit, _ = refit(second_call(100))  # seat 4 bid 100 since, seats 3, 5 and 0 passed
    assert len(analysis.deals) // REFIT_KEPT_SHARE <= len(fit) < len(analysis.deals)
    assert statistics.fmean(worth(deal) for deal in fit) > statistics.fmean(map(worth, range(40)))
    # A bid no sampled hand explains: still a quarter of the deals, those that explain the rest best.
    best, misfits = refit(second_call(500))
    assert len(best) >= len(analysis.deals) // REFIT_KEPT_SHARE
    assert all(misfits[deal] for deal in range(40))
