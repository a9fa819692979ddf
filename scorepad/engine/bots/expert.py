"""The `expert` bot: determinized Monte Carlo search, from its ``SeatView`` alone.

Every decision samples deals of the cards it cannot see that fit everything it has seen
(``knowledge.determinize``: its cards and passes, shown meld, voids and failures to head shown in
play, the cards played), preferring deals whose hands explain the auction, and tries each answer on
those same deals:

* play: each legal card, then a fast playout (``search.playout_policy``) whose last tricks of at most
  ``PLAYOUT_EXACT_CARDS`` cards are searched exactly (``lean.solve``); once few cards are left
  (``EXACT_CARDS``), the whole rest of the hand is. The bidder plays its own later cards in those
  playouts by a plan each candidate learns across the sampled deals (``plans_of``,
  ``lean.Plan``: an open-loop tree of its own choices, so a line it can follow without seeing the
  deal, such as drawing the trumps before cashing). The natural play (the heuristic's card) stands unless
  another card beats it on the same sampled deals by clearly more than the noise (``clearly_better``):
  a few dozen playouts are noisy, and a search that trusts them alone throws away counters on a coin
  toss. Measured in duplicate matches, the pair plays far better than either alone. A habit players
  hate (``habit``: a defender's trump lead while the bidder often holds the last trumps, a counter
  thrown onto an opponent's trick, or one left on a trick an opponent still to play could often
  take, ``counters_at_risk``) never overrides a natural play that shows none: sampled deals that
  "know" where every card is overrate such moves (strategy fusion). Any other trump lead of a
  defender's needs far more than the noise. A natural play that shows a habit gives way to a card
  that does not and did at most three of the least counter worse on the same deals (``habit_free``:
  players count a thrown ace; the deals that score the ace's win know too much);
* bid: the hand simulated as the bidder's in the two suits the heuristic values most
  (``search.simulate_contract``), once a hand (``_bid_analysis``: kept on the bot, or with an
  ``analysis_seed`` in a process-wide cache); it raises while its best trump makes the next bid
  often enough and gains on average; a short trump or a thin gain needs a higher made rate
  (``stricter_made_needed``), and near the end of a game the bid is weighed for the game
  (``stakes``), without a partner never below the lone bar and over a partner's bid never below
  the bar over a partner (``game_bid_floor``); its first raise over an opponent jumps to the
  highest bid made 85% of the time, and from the third on (a raise war) it goes no further than
  a tenth past the hand's worth as a partner counts it (``_raise``);
* trump: of those suits, the one whose simulated hands score best at the bid won, a short one only
  when clearly better than the best longer suit (``long_trump_first``);
* pass: a handful of sensible candidates (the heuristic's, trump-first, aces-first, voiding a short
  suit …), each simulated on the same deals.

The work per decision is ``playouts`` simulated hands: that count decides, so the same view and
the same random generator give the same answer however busy the machine is. ``budget_ms`` of wall
clock only caps it (a safety net, well above what the count needs); a decision the cap cuts short
is logged (logger ``scorepad.engine.bots.expert``), since it may then differ from run to run.

``explain(view)`` gives the answer and one reason in a player's words (``reasons.py``);
``evaluate(view, also=answer)`` gives the same choice with the value of each answer it weighed
on the same sampled deals, ``also`` included: what a hand review compares a player's answer with.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal

from ..auction import high_bid, trump_suits
from ..cards import Card, Suit, counts_of
from ..habits import RAISE_WAR_RAISES, bidder_holds_last_trumps, raises_over_opponents, short_trump
from ..knowledge import Dealer, Knowledge, knowledge_of
from ..lean import INFINITY, Plan, playout, solve
from ..play import PlayRules, beats, legal_cards, trick_winner
from ..scoring import HandEntry, score_hand
from ..search import Outcome, outcome_scores, play_state, playout_policy, simulate_contract
from ..view import BID, PLAY, TRUMP, Answer, Decision, SeatView
from . import reasons, stakes
from .analysis import BidAnalysis, auction_misfits, kept, worth_on
from .heuristic import (
    Memory,
    Profile,
    choose_card,
    choose_pass,
    counted_suit_values,
    hand_worth,
    profile_of,
)
from .inference import as_dealt, call_likelihood, pass_likelihood, systematic_resample, weighted_pick

DEFAULT_PLAYOUTS = 400  # simulated hands per decision at the practice default: the count decides …
DEFAULT_BUDGET_MS = 3000.0  # … and this much wall clock only caps it (about 20× what it needs idle)
MIN_ROUNDS = 4  # deals tried per decision, whatever the clock says
EXACT_CARDS = 12  # search the rest of the hand exactly once at most this many cards are left to play
PLAYOUT_EXACT_CARDS = 8  # before that, each play decision's playout searches its last tricks of at
# most this many cards exactly: two tricks of four seats (the policy misplays endings that decide the
# last counters; two gained where none and three did not, bots/FINDINGS.md). In six-handed that is no
# whole trick past the last: two tricks of six cost far more play CPU for a gain within the noise
MADE_NEEDED = 0.6  # bid on while the best trump makes the next bid this often …
MADE_NEEDED_OVER_PARTNER = 0.85  # … and over a partner's bid only with this much confidence
MADE_NEEDED_ALONE = 0.6  # without a partner (six-handed): its contracts simulated blind
# (``search.playout_policy``) rate fewer hands safe, so the bar is lower (bots/FINDINGS.md)
MADE_NEEDED_SHORT_TRUMP = 0.95  # a contract on a short trump (``habits.short_trump``) needs far more
THIN_GAIN_SHARE = 0.1  # a gain under this share of the bid is thin: the made rate then needs …
MADE_NEEDED_THIN = 0.7  # … at least this (the best of several trumps and bids is overrated)
CLEAR_GAIN_Z = 1.5  # leave the natural (heuristic) play only for a card this many standard errors better …
CLEAR_GAIN_MIN = 0.25  # … and by at least this many points a hand (the natural play is sound)
HABIT_GAIN_Z = 3.0  # a doubtful move (``doubtful_bar``) needs this many standard errors …
HABIT_GAIN_COUNTERS = 4.0  # … and this many of the least counter better a hand (sampled deals that
# "know" where the cards are overrate it)
HABIT_SLACK_COUNTERS = 3.0  # a natural play showing a habit gives way to a card this many of the
# least counter worse a hand (``habit_free``)
EXPOSED_SHARE = 0.1  # a counter on a trick our side wins for now is exposed (a habit) when an
# opponent still to play could take that trick on more than this share of the sampled deals
LAST_TRUMPS_SHARE = 0.1  # a defender's trump lead is a habit when the bidder holds every trump
# outside the leader's hand on more than this share of the sampled deals (``habits.py``'s rule)
PLAN_PATIENCE = 8  # a bidder's plan node (``plans_of``) follows the policy this many visits …
PLAN_EXPLORE = 0.5  # … then picks by UCB1 with this much exploration (margins in bids)
PLAN_MAX_HAND = 12  # … in hands of at most this many cards: classic (12) and six-handed (8) gained;
# double-deck (20) gained nothing clear, and its defenders' trump leads went over their habit bar
PASS_PLAYOUT_SHARE = 2  # a pass weighs its candidates on the playouts / this: against many more
# playouts, half the count chooses nearly as well as the whole, for half the CPU (bots/FINDINGS.md)
FIT_TRIES = 6  # deals drawn per sample to find one whose hands explain the auction
HARD_MISFIT_WEIGHT = 1e-4  # with passes weighed too, a hard fit's misfit call weighs this (near a veto)
ANALYSED_TRUMPS = 2  # a bid analysis simulates the suits the heuristic values most, this many …
SECOND_TRUMP_GAP = 0.4  # … past the first only those the heuristic values within this many least bids
# of it: beyond that the other suit was never the best at the least bid, and six-handed's match
# played the same to the deal without it (bots/FINDINGS.md)
TRUMP_SHARE = 4  # … each on playouts / TRUMP_SHARE deals (what each of the four suits had before)
ANALYSIS_CACHE_SIZE = 128  # bid analyses kept per process (each a few hundred simulated hands)
WAR_JUMP_RAISE = 1  # at its first raise over an opponent the bot jumps to the highest bid still
WAR_JUMP_MADE = 0.85  # made this often (``highest_bid``), not creeping into a raise war
# (``habits.raise_war``): a war then needs the opponents to outbid that twice (at the second raise
# instead, classic's and six-handed's wars stayed over half the heuristic's); from its third raise on
# (a war) it raises only …
WAR_WORTH_SHARE = 1.1  # … up to this share of the hand's worth as a partner counts it
# (``heuristic.hand_worth``), and a jump goes no higher either


log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Choice:
    """An answer, its reason, and each answer weighed: its mean margin (points for the deciding
    side less the others' average) over the same sampled deals. Empty when nothing was weighed."""

    answer: Answer
    reason: str
    values: Mapping[Any, float] = field(default_factory=dict)
    deals: int = 0
    scores: Mapping[Any, float] = field(default_factory=dict)  # the side's own score, where weighed


@dataclass(frozen=True, slots=True)
class Reading:
    """How the expert reads the other seats' calls and passes into its sampled deals.

    ``calls``: ``"hard"`` keeps the first of ``FIT_TRIES`` deals that explains every call (else the
    one that explains most); ``"soft"`` keeps one of them with chance in proportion to how likely
    the calls were on it (``inference.call_likelihood``); ``"none"`` deals at random. Either way
    only at calls, trump and passes: in play, unless ``calls_in_play``. ``later_calls``: a bid
    analysis, drawn at the seat's first call, is resampled by the likelihood of the calls since
    (``inference.systematic_resample``). ``passes`` (classic): deals weighted by how likely the
    partner's pass, or the bidder's return, was (``inference.pass_likelihood``), from the pass on.

    The default is the reading that measured best; each other one is kept as an option for a match
    to measure, and none of them gained on the saved baseline (``bots/FINDINGS.md``): the calls say
    too little about a hand that the hard fit does not already read."""

    calls: Literal["hard", "soft", "none"] = "hard"
    calls_in_play: bool = False
    later_calls: bool = False
    passes: bool = False


class ExpertBot:
    name = "expert"

    def __init__(
        self,
        seat: int,
        rng: random.Random,
        *,
        playouts: int = DEFAULT_PLAYOUTS,
        budget_ms: float = DEFAULT_BUDGET_MS,
        score_aware: bool = True,
        analysis_seed: str | None = None,
        reading: Reading = Reading(),
    ) -> None:
        self.seat = seat
        self.reading = reading
        self.score_aware = score_aware  # bids for the game near its end (``stakes``)
        self.rng = rng
        self.playouts = max(1, playouts)
        self.budget = budget_ms / 1000.0
        # With a seed, the bid analysis is a function of the hand alone and outlives this bot in
        # the process's cache (practice rebuilds its bots for every write); without one it is
        # drawn from ``rng`` and kept for this bot's later bids and trump (a match's bots live on).
        self.analysis_seed = analysis_seed
        self._bid_memo: tuple[object, BidAnalysis] | None = None
        self.memory = Memory()  # the heuristic's reading of the tricks, for its natural play

    def decide(self, view: SeatView) -> Answer:
        return self.explain(view)[0]

    def explain(self, view: SeatView) -> tuple[Answer, str | None]:
        """The answer to ``view`` and one line saying why, in a player's words."""
        choice = self.evaluate(view)
        return choice.answer, choice.reason

    def evaluate(self, view: SeatView, also: Answer = None) -> Choice:
        """The choice for ``view``, with the value of every answer weighed on the same deals;
        ``also`` (a legal answer, such as the one a player gave) is weighed too."""
        deadline = time.perf_counter() + self.budget
        p = profile_of(view.variant, view.settings)
        match view.decision:
            case Decision.PLAY:
                return self._play(view, p, deadline)
            case Decision.BID:
                return self._bid(view, p, deadline, also)
            case Decision.TRUMP:
                return self._trump(view, p, deadline, also)
            case Decision.PASS:
                return self._pass(view, p, deadline, also)
            case Decision.CONCEDE:
                return self._concede(view, p, deadline)
            case _:
                raise ValueError(f"no answer once the hand is {view.decision}")

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ sampling

    def _deals(
        self,
        view: SeatView,
        k: Knowledge,
        p: Profile,
        rounds: int,
        deadline: float,
        rng: random.Random | None = None,
    ) -> Iterator[list[list[int]]]:
        """Up to ``rounds`` deals sampled from ``k`` (what ``view``'s seat knows), one at a time: after
        ``MIN_ROUNDS`` the next one comes only while the clock allows, so the caller's work on each
        deal counts against the budget. Drawn with ``rng``, else the bot's own."""
        rng = rng or self.rng
        dealer = Dealer(k)
        weigh = self._weigher(view, k, p)
        hard = self.reading.calls == "hard" and self._reads_calls(view)
        for i in range(rounds):
            if i >= MIN_ROUNDS and time.perf_counter() > deadline:
                log.warning(
                    "expert: the %.0f ms cap cut a %s decision (seat %d) to %d of %d deals",
                    self.budget * 1000,
                    view.decision,
                    view.seat,
                    i,
                    rounds,
                )
                return
            if weigh is not None:
                yield self._weighted_deal(dealer, weigh, rng)
            else:
                yield self._fitted_deal(view, dealer, p, rng) if hard else dealer.deal(rng)

    def _reads_calls(self, view: SeatView) -> bool:
        """Whether this decision's deals are fitted to the other seats' calls (``Reading``)."""
        if self.reading.calls == "none" or (view.decision == PLAY and not self.reading.calls_in_play):
            return False
        return any(seat != view.seat for seat, _ in view.auction)

    def _weigher(self, view: SeatView, k: Knowledge, p: Profile) -> Callable[[list[list[int]]], float] | None:
        """How likely a sampled deal makes what ``view``'s seat has seen the others do (``Reading``),
        or None where nothing is weighed (dealt at random, or the hard fit)."""
        reading = self.reading
        calls = self._reads_calls(view)
        passes = reading.passes and bool(view.received) and view.bidder is not None
        if not passes and (not calls or reading.calls == "hard"):
            return None  # ``_fitted_deal`` or a plain deal: the same draws as without weights
        hard = calls and reading.calls == "hard"

        def weigh(hands: list[list[int]]) -> float:
            dealt = as_dealt(view, hands, k.played_by)
            weight = pass_likelihood(view, dealt, p) if passes else 1.0
            if calls and weight > 0:
                worth = worth_on(dealt, p)
                if hard:
                    weight *= HARD_MISFIT_WEIGHT ** auction_misfits(view, worth)
                else:
                    weight *= call_likelihood(view, worth, p)
            return weight

        return weigh

    def _weighted_deal(
        self, dealer: Dealer, weigh: Callable[[list[list[int]]], float], rng: random.Random
    ) -> list[list[int]]:
        """One of ``FIT_TRIES`` deals, with chance in proportion to its weight (``weigh``)."""
        drawn = [dealer.deal(rng) for _ in range(FIT_TRIES)]
        return drawn[weighted_pick([weigh(hands) for hands in drawn], rng)]

    def _fitted_deal(self, view: SeatView, dealer: Dealer, p: Profile, rng: random.Random) -> list[list[int]]:
        """The first of ``FIT_TRIES`` deals whose hands explain every other seat's calls, or the
        one that explains most."""
        best: list[list[int]] | None = None
        best_misfits = math.inf
        for _ in range(FIT_TRIES):
            hands = dealer.deal(rng)
            misfits = auction_misfits(view, worth_on(hands, p), enough=best_misfits)
            if misfits < best_misfits:
                best, best_misfits = hands, misfits
            if not misfits:
                break
        assert best is not None
        return best

    # ------------------------------------------------------------ play

    def _play(self, view: SeatView, p: Profile, deadline: float) -> Choice:
        legal = list(dict.fromkeys(view.legal_cards))
        if len(legal) == 1:
            return Choice(legal[0], reasons.play_reason(view, legal[0], p), {legal[0]: 0.0})
        side = view.variant.side_of(view.seat)
        k = knowledge_of(view)
        exact_root = sum(k.sizes) <= EXACT_CARDS
        exact_tricks = PLAYOUT_EXACT_CARDS // view.variant.seats
        choose = playout_policy(view.variant)
        rounds = max(MIN_ROUNDS, self.playouts // len(legal))
        values: dict[Card, list[float]] = {c: [] for c in legal}  # per card, one value per sampled deal
        at_risk = counters_at_risk(view, legal, p)
        overtaken = dict.fromkeys(at_risk, 0)  # per such counter, the deals on which it could be taken
        trump_leads = defenders_trump_leads(view, legal)
        into_last_trumps = 0  # the deals on which the bidder holds every trump the leader does not
        plans = {} if exact_root else plans_of(view, legal)
        for hands in self._deals(view, k, p, rounds, deadline):
            state, contract = play_state(view, hands)
            for c in legal:
                child = state.copy()
                child.play(c)
                if exact_root:
                    values[c].append(solve(child, contract, side, -INFINITY, INFINITY))
                elif plans:
                    values[c].append(plans[c].playout(child, contract, side, exact_tricks, choose))
                else:
                    values[c].append(playout(child, contract, side, exact_tricks, choose))
            for c, winning in at_risk.items():
                overtaken[c] += can_overtake(view, state.rules, hands, c, winning)
            if trump_leads:
                bidder, trump = contract.bidder, contract.trump
                into_last_trumps += bidder_holds_last_trumps(hands, view.seat, bidder, trump)
        done = len(values[legal[0]])
        flagged = {c for c, n in overtaken.items() if n > EXPOSED_SHARE * done}
        if into_last_trumps > LAST_TRUMPS_SHARE * done:
            flagged |= trump_leads
        natural = habit_free(view, choose_card(view, p, self.memory), values, p, flagged)
        top = max(legal, key=lambda c: sum(values[c]))
        best = natural
        if top != natural and not habit_move(view, top, natural, p, flagged):
            # Any other trump lead of a defender's needs far more than the noise (strategy fusion).
            bar = doubtful_bar(p) if top in trump_leads else ()
            best = top if clearly_better(values[top], values[natural], *bar) else natural
        reason = reasons.play_reason(view, best, p, reasons.best_in(values, best))
        return Choice(best, reason, {c: sum(values[c]) / done for c in legal}, done)

    # ------------------------------------------------------------ conceding (§4 `bidder_may_concede`)

    def _concede(self, view: SeatView, p: Profile, deadline: float) -> Choice:
        """Throw in when the forfeit costs the side less, on average over sampled deals played out,
        than playing on: both weighed by the margin, as every other decision is."""
        assert view.bidder is not None
        assert view.bid is not None
        assert view.trump is not None
        side = view.variant.side_of(view.seat)
        meld = view.variant.side_totals(view.meld)
        forfeit = score_hand(
            view.variant, view.settings, HandEntry(view.bidder, view.bid, view.trump, meld, None, None)
        ).scores
        margins: list[float] = []
        own: list[int] = []
        for hands in self._deals(view, knowledge_of(view), p, self.playouts, deadline):
            state, contract = play_state(view, hands)
            margins.append(playout(state, contract, side, 0, playout_policy(view.variant)))
            own.append(contract.scores(state.points, state.took)[side])
        values = {True: _margin(forfeit, side), False: sum(margins) / len(margins)}
        throw_in = values[True] > values[False]
        words = reasons.concede_reason(forfeit[side], sum(own) / len(own), len(own), throw_in=throw_in)
        return Choice(throw_in, words, values, len(own), {True: forfeit[side], False: sum(own) / len(own)})

    # ------------------------------------------------------------ bidding and trump

    def _analysis(
        self,
        view: SeatView,
        p: Profile,
        deadline: float,
        trumps: Sequence[Suit],
        bidder: int,
        rng: random.Random | None = None,
    ) -> BidAnalysis:
        """The hand simulated with ``bidder`` naming each of ``trumps``, on the same sampled deals
        (kept with the outcomes)."""
        results: dict[Suit, list[Outcome]] = {t: [] for t in trumps}
        deals = []
        passer = partial(choose_pass, p=p)
        for hands in self._deals(view, knowledge_of(view), p, self._per_trump(trumps), deadline, rng):
            deals.append(kept(hands))
            for t in trumps:
                results[t].append(simulate_contract(view.variant, view.settings, hands, bidder, t, passer))
        return BidAnalysis(results, tuple(deals), p)

    def _per_trump(self, trumps: Sequence[Suit]) -> int:
        """Deals per simulated trump: a share of the playouts as if all four suits were tried, so
        a hand with one or two suits worth naming costs a quarter or half of a four-suit one."""
        return max(MIN_ROUNDS, self.playouts // max(len(trumps), TRUMP_SHARE))

    def _bid_analysis(self, view: SeatView, p: Profile, deadline: float) -> BidAnalysis:
        """The hand simulated as this seat's contract in each ``analysed_trumps`` suit, once a hand: it serves
        every bid of the auction and the trump choice. The deals are drawn at the seat's first call,
        fitted to the calls before it, and kept: a later call of another seat does not refilter them.
        Refiltering would throw away samples (so add noise) to read a call the bid rule reads anyway
        (over a partner, it asks more), and the match bots already bid so. (Where the game is at
        stake, ``stakes`` refits them to the calls since: ``BidAnalysis.fitting``.)"""
        first = _first_call_view(view)
        if self.analysis_seed is None:
            key: Hashable = (first.hand, first.dealer)
            if self._bid_memo is None or self._bid_memo[0] != key:
                trumps = analysed_trumps(first.hand, p)
                self._bid_memo = (key, self._analysis(first, p, deadline, trumps, view.seat))
            return self._bid_memo[1]
        key = (self.analysis_seed, self.playouts, first)
        return _cached(key, lambda: self._seeded_analysis(first, p, deadline))

    def _seeded_analysis(self, first: SeatView, p: Profile, deadline: float) -> tuple[BidAnalysis, bool]:
        """The bid analysis from ``analysis_seed`` and the view at the first call alone, and whether
        it is complete (the clock did not cut it): the cache keeps only what the playout count decided."""
        trumps = analysed_trumps(first.hand, p)
        rng = random.Random(f"{self.analysis_seed}:{first.auction}")
        found = self._analysis(first, p, deadline, trumps, first.seat, rng)
        return found, len(found.deals) == self._per_trump(trumps)

    def _bid(self, view: SeatView, p: Profile, deadline: float, also: Answer = None) -> Choice:
        least = view.least_bid
        if not view.may_pass:
            return Choice(least, f"everyone else passed, so the dealer must bid {least}", {least: 0.0})
        trumps = trump_suits(counts_of(view.hand), view.settings)
        if not trumps:
            return Choice(None, "you hold no marriage, so you could not name trump", {None: 0.0})
        analysis = self._bid_analysis(view, p, deadline)
        outcomes = self._reweighted(view, analysis)
        scored = scored_at(view, outcomes, least)  # each simulated hand scored once at this bid
        trump, made, gain = best_trump_at(view, scored)
        partner_high = _partner_holds_bid(view)
        needed = MADE_NEEDED if p.partners[view.seat] else MADE_NEEDED_ALONE
        if partner_high:
            needed = MADE_NEEDED_OVER_PARTNER
        needed = max(needed, stricter_made_needed(view, trump, least, gain))
        samples = len(outcomes[trump])
        made_in = round(made * samples)
        # A bid is valued as the contract at that bid in its best trump; a pass as 0 (the hand left
        # to the others): the scale a review measures a player's bid against the expert's on.
        values: dict[Any, float] = {None: 0.0, least: gain}
        if isinstance(also, int) and also not in values:
            values[also] = best_trump_at(view, scored_at(view, outcomes, also))[2]
        stake = stakes.game_bid(view, scored, analysis) if self.score_aware else None
        floor = game_bid_floor(p, view.seat, over_partner=partner_high)
        if stake is not None and (not stake.bid or made >= floor):
            return Choice(least if stake.bid else None, stake.reason, values, samples)  # the game at stake
        if made >= needed and gain > 0 and raise_over_opponent(view) is not None:
            return self._raise(view, p, outcomes, needed, values, samples)
        if made >= needed and gain > 0:
            return Choice(least, reasons.bid_reason(view, least, trump, made_in, samples), values, samples)
        why = reasons.pass_bid_reason(
            view, least, trump, made_in, samples, enough=made >= needed, over_partner=partner_high
        )
        return Choice(None, why, values, samples)

    def _reweighted(self, view: SeatView, analysis: BidAnalysis) -> Mapping[Suit, Sequence[Outcome]]:
        """The analysis's outcomes, resampled by how likely the other seats' calls since this seat's
        first were on each deal (``Reading.later_calls``; the calls before it chose the deals), with
        a generator seeded by the auction, so a cached analysis answers the same view the same."""
        first = next((i for i, (seat, _) in enumerate(view.auction) if seat == view.seat), None)
        later = first is not None and any(seat != view.seat for seat, _ in view.auction[first:])
        if not self.reading.later_calls or not later or not analysis.deals:
            return analysis.outcomes
        p = analysis.profile
        weights = [
            call_likelihood(view, partial(analysis.worth, deal), p, since=first or 0)
            for deal in range(len(analysis.deals))
        ]
        picked = systematic_resample(weights, random.Random(repr(view.auction)))
        return {t: [found[i] for i in picked] for t, found in analysis.outcomes.items()}

    def _raise(
        self,
        view: SeatView,
        p: Profile,
        outcomes: Mapping[Suit, Sequence[Outcome]],
        needed: float,
        values: dict[Any, float],
        samples: int,
    ) -> Choice:
        """A raise over an opponent's bid that the simulated hands take (made ``needed`` of the
        time, a gain). The first jumps to the highest bid still made ``WAR_JUMP_MADE`` of the time,
        so that an opponent raising one step at a time must outbid all of that at once; from the
        third on (a raise war, ``habits.raise_war``) it goes no higher than ``WAR_WORTH_SHARE`` of
        the hand's worth as a partner counts it (``heuristic.hand_worth``: meld in trump, the trick
        points the side should take, a partner's share), and the jump no higher either.

        Why: creeping up one step at a time against an opponent, on a hand whose meld is not there,
        is a habit players hate (a classic hand of six aces and one meld in its trump raised to 27
        that way and went set). By the numbers such a bid is no blunder: where the opponent's hand
        bids to 26, that hand makes 27 far more often than not (``bots/FINDINGS.md``). A made
        contract scores the same at any bid, so the jump costs only the sets between the bid the
        opponent would have stopped at and the jump, hence the high bar."""
        least, number = view.least_bid, raise_over_opponent(view)
        cap = WAR_WORTH_SHARE * hand_worth(view, p)
        if number is not None and number >= RAISE_WAR_RAISES and least > cap:
            return Choice(None, war_pass_reason(view, least, cap), values, samples)
        top = highest_bid(view, outcomes, needed, least)
        if number == WAR_JUMP_RAISE:
            top = highest_bid(view, outcomes, max(needed, WAR_JUMP_MADE), cap) or top
        assert top is not None  # the least bid passed the usual rule
        bid, trump, made = top
        values[bid] = best_trump_at(view, scored_at(view, outcomes, bid))[2]
        words = reasons.bid_reason(view, bid, trump, round(made * samples), samples)
        return Choice(bid, words, values, samples)

    def _trump(self, view: SeatView, p: Profile, deadline: float, also: Answer = None) -> Choice:
        """The best of the suits its bid analysis tried; every legal suit searched afresh when
        ``also`` (a review's suit) is one the analysis left out as hopeless."""
        assert view.bid is not None
        legal = list(view.legal_suits)
        if len(legal) == 1:
            only = f"{reasons.suit_words(legal[0])} is the only suit allowed"
            return Choice(legal[0], only, {legal[0]: 0.0})
        analysed = self._reweighted(view, self._bid_analysis(view, p, deadline))
        outcomes: Mapping[Suit, Sequence[Outcome]] = {t: analysed[t] for t in legal if t in analysed}
        if not outcomes or (also in legal and also not in outcomes):
            outcomes = self._analysis(view, p, deadline, legal, view.seat).outcomes
        side = view.variant.side_of(view.seat)
        scored = scored_at(view, outcomes, view.bid)
        gains = {t: _mean(_margin(scores, side) for scores in found) for t, found in scored.items()}
        best = long_trump_first(view, p, scored, max(gains, key=lambda t: gains[t]))
        samples = len(outcomes[best])
        made = round(_made_rate(view, scored[best]) * samples)
        return Choice(best, reasons.trump_reason(view, best, made, samples), gains, samples)

    # ------------------------------------------------------------ passing

    def _pass(self, view: SeatView, p: Profile, deadline: float, also: Answer = None) -> Choice:
        assert view.bidder is not None
        assert view.trump is not None
        candidates = pass_candidates(view, p)
        tried = len(candidates)  # the expert chooses among its own; ``also`` is only weighed
        if isinstance(also, tuple) and tuple(sorted(also)) not in candidates:
            candidates.append(tuple(sorted(also)))
        if len(candidates) == 1:
            return Choice(candidates[0], "it is the only pass that makes sense", {candidates[0]: 0.0})
        side = view.variant.side_of(view.seat)
        passer = partial(choose_pass, p=p)
        partner = next(s for s in view.variant.sides[side] if s != view.seat)
        rounds = max(MIN_ROUNDS, self.playouts // (PASS_PLAYOUT_SHARE * len(candidates)))
        totals = [0.0] * len(candidates)
        deals = 0
        for hands in self._deals(view, knowledge_of(view), p, rounds, deadline):
            deals += 1
            if view.seat == view.bidder:  # the partner has passed: deal from before its pass
                hands = [h[:] for h in hands]
                for c in view.received:
                    hands[view.seat][c] -= 1
                    hands[partner][c] += 1
            for i, cards in enumerate(candidates):
                fixed = {view.seat: cards}
                if view.seat == view.bidder:
                    fixed[partner] = view.received
                outcome = simulate_contract(
                    view.variant,
                    view.settings,
                    hands,
                    view.bidder,
                    view.trump,
                    passer,
                    passes=fixed,
                )
                scores = outcome_scores(
                    view.variant, view.settings, outcome, view.bidder, view.bid or 0, view.trump
                )
                totals[i] += _margin(scores, side)
        best = max(range(tried), key=lambda i: totals[i])
        cards = candidates[best]
        values = {candidates[i]: totals[i] / deals for i in range(len(candidates))}
        return Choice(cards, reasons.pass_cards_reason(view, cards, tried, deals), values, deals)


# ---------------------------------------------------------------- helpers


_ANALYSES: OrderedDict[Hashable, BidAnalysis] = OrderedDict()


def plans_of(view: SeatView, legal: Sequence[Card]) -> dict[Card, Plan]:
    """Per candidate card, the ``lean.Plan`` its playouts learn the bidder's own later cards by;
    none for the other seats, or where a hand is longer than ``PLAN_MAX_HAND``. The bidder's play
    is where a search gains most (six-handed's ceilings in ``bots/FINDINGS.md``: every hidden card
    shown to the bidder's play alone is worth far more than to the defenders'), and a plan of its
    own later cards is a search no fixed playout policy is: it can learn to draw the trumps before
    it cashes."""
    if view.seat != view.bidder or view.variant.hand_size > PLAN_MAX_HAND:
        return {}
    scale = float(view.bid or 1)  # margins in bids: about one either way
    return {c: Plan(view.seat, scale, patience=PLAN_PATIENCE, explore=PLAN_EXPLORE) for c in legal}


def _cached(key: Hashable, analyse: Callable[[], tuple[BidAnalysis, bool]]) -> BidAnalysis:
    """The analysis under ``key`` from the process's cache (the least recently used of
    ``ANALYSIS_CACHE_SIZE`` goes first), else ``analyse()``'s, kept if it is complete."""
    found = _ANALYSES.get(key)
    if found is not None:
        _ANALYSES.move_to_end(key)
        return found
    made, complete = analyse()
    if complete:
        _ANALYSES[key] = made
        if len(_ANALYSES) > ANALYSIS_CACHE_SIZE:
            _ANALYSES.popitem(last=False)
    return made


def clear_analyses() -> None:
    """Forget every cached bid analysis (tests compare a cold cache with a warm one)."""
    _ANALYSES.clear()


def analysed_trumps(hand: Sequence[Card], p: Profile) -> tuple[Suit, ...]:
    """The ``ANALYSED_TRUMPS`` suits the hand may name that the heuristic values most (meld plus
    trick points), but of those past the first only the ones within ``SECOND_TRUMP_GAP`` least bids
    of it: a suit further down is almost never the best, and not worth its samples. Every suit is
    simulated on the same deals, so leaving one out changes no other suit's outcomes."""
    counts = counts_of(hand)
    suits = trump_suits(counts, p.settings)
    values = {
        suit: meld + tricks
        for suit, (meld, tricks) in zip(suits, counted_suit_values(counts, p), strict=True)
    }
    ranked = sorted(suits, key=lambda suit: -values[suit])[:ANALYSED_TRUMPS]
    close = [
        suit for suit in ranked if values[ranked[0]] - values[suit] <= SECOND_TRUMP_GAP * p.settings.min_bid
    ]
    return tuple(sorted(close))


def _first_call_view(view: SeatView) -> SeatView:
    """A bid or trump ``view`` as its seat saw it at its first call of the auction (or now, before
    it): all a bid analysis reads, and nothing else (no cards are passed, shown or played yet), so
    the same first call always gives the same analysis."""
    assert view.decision in (BID, TRUMP)
    first = next((i for i, (seat, _) in enumerate(view.auction) if seat == view.seat), len(view.auction))
    auction = view.auction[:first]
    hand = tuple(sorted(view.hand))
    return replace(view, decision=BID, hand=hand, auction=auction, bidder=None, bid=None, totals=(), legal=())


def clearly_better(
    candidate: Sequence[float],
    natural: Sequence[float],
    z: float = CLEAR_GAIN_Z,
    least: float = CLEAR_GAIN_MIN,
) -> bool:
    """Whether ``candidate`` beats ``natural`` on the same sampled deals by more than the noise:
    the mean paired gain exceeds ``z`` standard errors (and ``least`` points). A doubtful move is
    held to ``doubtful_bar`` instead."""
    gains = [c - n for c, n in zip(candidate, natural, strict=True)]
    mean = sum(gains) / len(gains)
    if mean <= least:
        return False
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, len(gains) - 1))
    return mean > z * spread / math.sqrt(len(gains))


def counters_at_risk(view: SeatView, legal: Sequence[Card], p: Profile) -> dict[Card, Card]:
    """The counters of ``legal`` that would leave the trick to ``view``'s side for now only (an
    opponent still plays to it), each with the card that would then be winning it."""
    if view.trick is None or not view.trick.cards or len(view.trick.cards) == view.variant.seats - 1:
        return {}
    trick, leader, side_of = view.trick.cards, view.trick.leader, view.variant.side_of
    found: dict[Card, Card] = {}
    for c in legal:
        if p.value[c]:
            after = (*trick, c)
            best = trick_winner(after, view.trump)
            if side_of((leader + best) % view.variant.seats) == side_of(view.seat):
                found[c] = after[best]
    return found


def can_overtake(
    view: SeatView, rules: PlayRules, hands: Sequence[Sequence[int]], card: Card, winning: Card
) -> bool:
    """Whether, on the sampled deal ``hands``, an opponent still to play to the trick after ``card``
    holds a legal card that beats ``winning`` (the card our side would be winning it with)."""
    assert view.trick is not None
    after = (*view.trick.cards, card)
    seats, side_of, leader = view.variant.seats, view.variant.side_of, view.trick.leader
    for index in range(len(after), seats):
        seat = (leader + index) % seats
        if side_of(seat) != side_of(view.seat):
            plays = legal_cards(rules, hands[seat], view.trump, leader, after, len(view.tricks))
            if any(beats(c, winning, view.trump) for c in plays):
                return True
    return False


def defenders_trump_leads(view: SeatView, legal: Iterable[Card]) -> frozenset[Card]:
    """The trumps of ``legal`` when ``view``'s seat leads a trick against the bidder; else none."""
    if (view.trick is not None and view.trick.cards) or view.bidder is None:
        return frozenset()
    if view.variant.side_of(view.bidder) == view.variant.side_of(view.seat):
        return frozenset()
    return frozenset(c for c in legal if c // 6 == view.trump)


def least_counter(p: Profile) -> int:
    """The points of the cheapest counter (1 in `classic`, 5 in `six-handed`): the scale of a habit."""
    return min(v for v in p.value if v)


def doubtful_bar(p: Profile) -> tuple[float, float]:
    """``clearly_better``'s bar (standard errors, points) for a move the sampled deals overrate but
    that is no habit: a short trump named over a longer suit, a defender's trump lead while the
    partner may still hold trumps."""
    return HABIT_GAIN_Z, HABIT_GAIN_COUNTERS * least_counter(p)


def habit(view: SeatView, card: Card, p: Profile, flagged: Collection[Card] = ()) -> bool:
    """Whether playing ``card`` shows a habit players hate (``habits.py``): a counter thrown onto a
    trick an opponent is winning (``card`` does not beat it), or one of the cards the sampled deals
    ``flagged``: a defender's trump lead while the bidder often holds the last trumps
    (``LAST_TRUMPS_SHARE``), a counter left on a trick our side wins for now that the opponents
    still to play could often take (``EXPOSED_SHARE``)."""
    if card in flagged:
        return True
    if view.trick is None or not view.trick.cards or not p.value[card]:
        return False
    winning = opponents_winning(view)
    return winning is not None and not beats(card, winning, view.trump)


def opponents_winning(view: SeatView) -> Card | None:
    """The card winning the trick in progress when an opponent of ``view``'s seat played it; None
    when no card is on the table or the seat's own side is winning."""
    if view.trick is None or not view.trick.cards:
        return None
    trick = view.trick.cards
    best = trick_winner(trick, view.trump)
    side_of = view.variant.side_of
    if side_of((view.trick.leader + best) % view.variant.seats) == side_of(view.seat):
        return None
    return trick[best]


def habit_move(view: SeatView, card: Card, natural: Card, p: Profile, flagged: Collection[Card] = ()) -> bool:
    """Whether ``card`` instead of the ``natural`` play shows a habit the natural play does not:
    such a card never overrides the natural play, however the sampled deals rate it (deals that
    "know" where every card is overrate such moves: strategy fusion)."""
    return habit(view, card, p, flagged) and not habit(view, natural, p, flagged)


def habit_free(
    view: SeatView,
    natural: Card,
    values: Mapping[Card, Sequence[float]],
    p: Profile,
    flagged: Collection[Card] = (),
) -> Card:
    """The natural play, unless it shows a habit (``habit``) and a card that does not did at most
    ``HABIT_SLACK_COUNTERS`` of the least counter worse a hand on the same sampled deals: then the
    best such card."""
    if not habit(view, natural, p, flagged):
        return natural
    others = [c for c in values if not habit(view, c, p, flagged)]
    if not others:
        return natural
    other = max(others, key=lambda c: sum(values[c]))
    lost = (sum(values[natural]) - sum(values[other])) / max(1, len(values[natural]))
    return other if lost <= HABIT_SLACK_COUNTERS * least_counter(p) else natural


def _margin(scores: Sequence[int], side: int) -> float:
    others = len(scores) - 1
    return scores[side] - (sum(scores) - scores[side]) / others


def _mean(values: Iterable[float]) -> float:
    total, n = 0.0, 0
    for value in values:
        total, n = total + value, n + 1
    return total / max(1, n)


def scored_at(
    view: SeatView, outcomes: Mapping[Suit, Sequence[Outcome]], bid: int
) -> dict[Suit, list[tuple[int, ...]]]:
    """Per trump, each simulated hand's scores (per side) as the contract at ``bid`` of the seat
    bidding (``view``'s, or the bidder's once there is one)."""
    bidder = view.seat if view.bidder is None else view.bidder
    variant, settings = view.variant, view.settings
    return {
        t: [outcome_scores(variant, settings, o, bidder, bid, t) for o in found]
        for t, found in outcomes.items()
    }


def _made_rate(view: SeatView, scored: Sequence[Sequence[int]]) -> float:
    """The share of ``scored`` hands (``scored_at``) in which the bidder's side made its bid."""
    side = view.variant.side_of(view.seat if view.bidder is None else view.bidder)
    return sum(1 for scores in scored if scores[side] > 0) / max(1, len(scored))


def best_trump_at(
    view: SeatView, scored: Mapping[Suit, Sequence[Sequence[int]]]
) -> tuple[Suit, float, float]:
    """The trump whose ``scored`` hands (``scored_at`` a bid) are best for ``view``'s side: (trump,
    made rate, mean margin)."""
    side = view.variant.side_of(view.seat)
    gains = {t: _mean(_margin(scores, side) for scores in found) for t, found in scored.items()}
    trump = max(gains, key=lambda t: gains[t])
    return trump, _made_rate(view, scored[trump]), gains[trump]


def stricter_made_needed(view: SeatView, trump: Suit, bid: int, gain: float) -> float:
    """The made rate a bid of ``bid`` in ``trump`` needs at least, whatever the auction: a short
    trump (a habit players hate, and the sampled deals overrate it) needs ``MADE_NEEDED_SHORT_TRUMP``,
    a thin gain ``MADE_NEEDED_THIN``; otherwise nothing more."""
    trumps = sum(1 for c in view.hand if c // 6 == trump)
    if short_trump(view.variant, trumps):
        return MADE_NEEDED_SHORT_TRUMP
    return MADE_NEEDED_THIN if gain < THIN_GAIN_SHARE * bid else 0.0


def long_trump_first(
    view: SeatView, p: Profile, scored: Mapping[Suit, Sequence[Sequence[int]]], best: Suit
) -> Suit:
    """The trump to name: ``best`` (the best on average), unless it is short (``habits.short_trump``)
    and not clearly better (``doubtful_bar``) on the same sampled deals
    than the best of the longer suits weighed in ``scored`` (``scored_at`` the bid won): then that one."""
    held = counts_of(view.hand)
    trumps = {t: sum(held[t * 6 : t * 6 + 6]) for t in scored}
    longer = [t for t in scored if not short_trump(view.variant, trumps[t])]
    if not longer or not short_trump(view.variant, trumps[best]):
        return best
    side = view.variant.side_of(view.seat)
    margins = {t: [_margin(scores, side) for scores in scored[t]] for t in (best, *longer)}
    other = max(longer, key=lambda t: sum(margins[t]))
    return best if clearly_better(margins[best], margins[other], *doubtful_bar(p)) else other


def game_bid_floor(p: Profile, seat: int, *, over_partner: bool = False) -> float:
    """The made rate below which a bid for the game (``stakes``) gives way to the usual rule.

    With a partner, none: the game's value decides, a sacrifice included. Without one, the lone
    bar (``MADE_NEEDED_ALONE``): ``stakes`` weighs a pass as the hand the leader then takes, but four
    other seats want to stop the leader as well, and a contract taken short of the bar to stop it
    went set half the time (38 of 78 made, in 80 games). Six-handed games, seeds 1 to 4, 40 a seed
    (``botmatch --games 20``): 120 of 160 won and one shared with the floor, 114 without it; made
    87.7% of contracts, not 84.1%. Classic with its bar as the floor won 31 of 40 on seed 1, not 33:
    there only the other side can stop the leader.

    Over a partner's bid, the bar over a partner (``MADE_NEEDED_OVER_PARTNER``): the side holds the
    contract already, so there is nothing to sacrifice for. Without it, near the end of a game the
    others win on their defence alone, two experts of one side raised each other without end: the
    pass (the partner set at its bid) and the bid (this seat set at one more) both lose the game,
    and a hair of the race chose the bid (classic, ``botmatch --games 20 --seed 3``: past 7,000)."""
    if over_partner:
        return MADE_NEEDED_OVER_PARTNER
    return 0.0 if p.partners[seat] else MADE_NEEDED_ALONE


def raise_over_opponent(view: SeatView) -> int | None:
    """Which of this seat's raises over an opponent's bid (1, 2 …) a bid now would be; ``None``
    when the high bid is no opponent's (none yet, or a partner's)."""
    high = high_bid(view.auction)
    if high is None or view.variant.side_of(high[0]) == view.variant.side_of(view.seat):
        return None
    return raises_over_opponents(view.variant, view.auction, view.seat) + 1


def highest_bid(
    view: SeatView, outcomes: Mapping[Suit, Sequence[Outcome]], needed: float, cap: float
) -> tuple[int, Suit, float] | None:
    """The highest bid from the least up to ``cap`` that the simulated hands still take (made at
    least ``needed``, and the stricter bars of ``stricter_made_needed``, with a gain), with its best
    trump and made rate; ``None`` when not even the least bid is."""
    settings = view.settings
    bid, found = view.least_bid, None
    while bid <= cap:
        trump, made, gain = best_trump_at(view, scored_at(view, outcomes, bid))
        if gain <= 0 or made < max(needed, stricter_made_needed(view, trump, bid, gain)):
            break
        found = (bid, trump, made)
        bid += settings.next_bid_step(bid)
    return found


def war_pass_reason(view: SeatView, least: int, cap: float) -> str:
    """Why not raise the opponents again: the bid would go past what the hand is worth."""
    worth = round(cap / WAR_WORTH_SHARE)
    counted = "meld, the tricks it should take and your partner's share"
    if not view.variant.partnerships:
        counted = "meld and the tricks it should take"
    return (
        f"the bidding keeps going up; your hand is worth about {worth} ({counted}), "
        f"so {least} is too high to chase"
    )


def _partner_holds_bid(view: SeatView) -> bool:
    high = next(((seat, bid) for seat, bid in reversed(view.auction) if bid is not None), None)
    if high is None or high[0] == view.seat:
        return False
    return view.variant.side_of(high[0]) == view.variant.side_of(view.seat)


def pass_candidates(view: SeatView, p: Profile) -> list[tuple[Card, ...]]:
    """A few sensible passes: the heuristic's, and others built by simple priorities."""
    hand = list(view.hand)
    count = view.pass_count
    trump = view.trump
    value = p.value
    found: list[tuple[Card, ...]] = [tuple(sorted(choose_pass(view, p)))]
    if view.seat != view.bidder:  # the partner sends strength
        orders: list[Callable[[Card], tuple[float, ...]]] = [
            lambda c: (c // 6 != trump, c % 6),  # trumps first, highest first
            lambda c: (c % 6 != 0, c // 6 != trump, c % 6),  # aces first, then trumps
            lambda c: (c // 6 != trump and c % 6 != 0, -value[c], c % 6),  # trumps and aces, counters
        ]
    else:  # the bidder returns what it needs least
        lengths = {s: sum(1 for c in hand if c // 6 == s) for s in range(4)}
        orders = [
            lambda c: (c // 6 == trump, lengths[c // 6], value[c], -(c % 6)),  # void the shortest suit
            lambda c: (c // 6 == trump, value[c], -(c % 6)),  # the cheapest cards
            lambda c: (
                c // 6 == trump,
                -(c % 6 == 0 and lengths[c // 6] <= 2),
                value[c],
                -(c % 6),
            ),  # lone aces back
        ]
    for order in orders:
        cards = tuple(sorted(sorted(hand, key=order)[:count]))
        if cards not in found:
            found.append(cards)
    return found
