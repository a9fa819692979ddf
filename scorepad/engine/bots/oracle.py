"""The `oracle-auction` bot: the expert's card play behind an auction that sees every hand.

A yardstick, never a player: it measures what a perfect auction would be worth over the expert's
(``manage.py botmatch --a oracle-auction``, ``bots/FINDINGS.md``). Only the duplicate match shows
it the deal (``see_deal``, called by ``match.play_deal_twice``); anywhere else it refuses to bid
or name trump, since no seat at a table may see the others' cards. It is not in ``make_bot``, so
no practice table, review or hint can start it.

How it values a contract, kept simple (an approximation, said plainly): for every seat that may
still take the contract and every suit that seat may name, the hand is simulated once on the true
deal (``search.simulate_contract``, as the expert's bid analysis simulates a sampled one: the
heuristic's passes, then the variant's ``search.playout_policy``, seeing the deal with partners and
blind in `six-handed`, with the last ``EXACT_TRICKS`` tricks searched exactly). That policy is
deterministic, so one playout is all a deal gives: an estimate of how the cards fall, neither a
perfect play (no double-dummy search of the whole hand) nor what the expert's own play makes of the
contract. Where the policy rates contracts below what the expert's play makes of them (`six-handed`,
blind or seeing the deal) the oracle bids too little, and its match is then no ceiling. A contract
at bid ``b`` is worth the deciding side's margin (its score less the others' average) of that
simulated hand scored at ``b`` by the real scorer (``scoring.score_hand``).

The auction: at each call the oracle finds the seat of its side still in the auction whose best suit
is worth most at the least bid now allowed, and compares that with letting the contract go: the
other seat (the current high bidder, or one still to call) that values the contract most for its own
side takes it at the current high bid (the least bid if nobody has bid), and the oracle's side gets
that hand's margin. It bids the least bid when it is that seat, makes the least bid in some suit (no
sacrifice: a contract it goes set in is never bid for, even where the set costs less than the
opponents' contract) and winning beats letting go; else it passes (its partner, if it is the better
seat, bids in its turn). It names the suit worth most at the bid won. A dealer forced to bid bids
the least bid. Passing cards, playing them and conceding are the expert's (``ExpertBot``), so the
measure is of the bids and the trump alone.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from functools import partial

from ..auction import high_bid, trump_suits
from ..cards import Suit, counts_of
from ..game import HandState
from ..scoring import HandEntry, HandScore, score_hand
from ..search import Outcome, simulate_contract
from ..view import Answer, Decision, SeatView
from .expert import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, ExpertBot
from .heuristic import choose_pass, profile_of

ORACLE_AUCTION = "oracle-auction"
EXACT_TRICKS = 2  # each simulated contract's last tricks searched exactly, as the expert's playouts

# Per seat that may bid, per suit it may name: the contract simulated on the true deal.
Table = dict[int, dict[Suit, Outcome]]


class OracleAuctionBot:
    name = ORACLE_AUCTION

    def __init__(
        self,
        seat: int,
        rng: random.Random,
        *,
        playouts: int = DEFAULT_PLAYOUTS,
        budget_ms: float = DEFAULT_BUDGET_MS,
    ) -> None:
        self.seat = seat
        self.expert = ExpertBot(seat, rng, playouts=playouts, budget_ms=budget_ms)
        self._dealt: tuple[tuple[int, ...], ...] | None = None
        self._table: Table | None = None

    def see_deal(self, state: HandState) -> None:
        """Show the oracle the whole deal (every seat's hand as dealt). The duplicate match alone does."""
        self._dealt = tuple(tuple(counts_of(hand)) for hand in state.dealt)
        self._table = None

    def decide(self, view: SeatView) -> Answer:
        return self.explain(view)[0]

    def explain(self, view: SeatView) -> tuple[Answer, str | None]:
        if view.decision == Decision.BID:
            return self._bid(view), "the oracle's bid"
        if view.decision == Decision.TRUMP:
            return self._trump(view), "the oracle's trump"
        return self.expert.explain(view)

    def close(self) -> None:
        self.expert.close()

    # ------------------------------------------------------------ the table of contracts

    def table(self, view: SeatView) -> Table:
        """Every seat's contract in every suit it may name, simulated once on the true deal."""
        if self._dealt is None:
            raise ValueError(
                "the oracle-auction bot bids only in a duplicate deal match (botmatch --deals), "
                "which shows it each deal"
            )
        if self._table is None:
            p = profile_of(view.variant, view.settings)
            passer = partial(choose_pass, p=p)
            self._table = {
                seat: {
                    trump: simulate_contract(
                        view.variant, view.settings, self._dealt, seat, trump, passer, exact_from=EXACT_TRICKS
                    )
                    for trump in trump_suits(hand, view.settings)
                }
                for seat, hand in enumerate(self._dealt)
            }
        return self._table

    def worth(
        self, view: SeatView, bidder: int, bid: int, side: int, *, made_only: bool = False
    ) -> tuple[float, Suit | None]:
        """``side``'s margin were ``bidder`` to win at ``bid`` and name its best suit for its own side,
        and that suit; with ``made_only`` only the suits it makes ``bid`` in count. Minus infinity
        (and None) where no suit counts."""
        own = view.variant.side_of(bidder)
        scored = {
            t: score_hand(
                view.variant,
                view.settings,
                HandEntry(
                    bidder, bid, t, o.meld, o.points if o.played else None, o.took if o.played else None
                ),
            )
            for t, o in self.table(view)[bidder].items()
        }
        counted = [t for t, score in scored.items() if score.made or not made_only]
        if not counted:
            return -math.inf, None
        best = max(counted, key=lambda t: (margin(scored[t].scores, own), -t))
        return margin(scored[best].scores, side), best

    # ------------------------------------------------------------ decisions

    def _bid(self, view: SeatView) -> Answer:
        least = view.least_bid
        if not view.may_pass:
            return least
        variant = view.variant
        side = variant.side_of(self.seat)
        out = passed_for_good(view)
        live = [s for s in range(variant.seats) if s not in out]
        ours = [s for s in live if variant.side_of(s) == side]
        takings = {s: self.worth(view, s, least, side, made_only=True)[0] for s in ours}
        best_seat = max(ours, key=lambda s: (takings[s], s == self.seat))
        taking = takings[best_seat]
        high = high_bid(view.auction)
        at = high[1] if high is not None else view.settings.min_bid
        others = [s for s in live if s != self.seat and s not in ours]
        if high is not None and high[0] not in others:
            others.append(high[0])
        if best_seat != self.seat or taking == -math.inf:
            return None  # a partner takes it, or no contract of ours is made at this level
        if not others:
            return least
        # The seat that takes it if we let it go: the one it is worth most to, for its own side.
        taker = max(others, key=lambda s: self.worth(view, s, at, variant.side_of(s))[0])
        letting_go = self.worth(view, taker, at, side)[0]
        return least if taking > letting_go else None

    def _trump(self, view: SeatView) -> Answer:
        assert view.bid is not None
        side = view.variant.side_of(self.seat)
        suit = self.worth(view, self.seat, view.bid, side)[1]
        legal = view.legal_suits
        return suit if suit in legal else legal[0]


def scored_at(view: SeatView, outcome: Outcome, bidder: int, bid: int, trump: Suit) -> HandScore:
    """A simulated hand scored by the real scorer had the bid been ``bid``: the scores and whether made."""
    tricks, took = (outcome.points, outcome.took) if outcome.played else (None, None)
    return score_hand(view.variant, view.settings, HandEntry(bidder, bid, trump, outcome.meld, tricks, took))


def margin(scores: Sequence[int], side: int) -> float:
    """``side``'s score less the other sides' average."""
    others = [score for s, score in enumerate(scores) if s != side]
    return scores[side] - statistics.fmean(others)


def passed_for_good(view: SeatView) -> set[int]:
    """The seats that may bid no more: those that passed, where a pass is final."""
    if not view.settings.pass_is_final:
        return set()
    return {seat for seat, bid in view.auction if bid is None}
