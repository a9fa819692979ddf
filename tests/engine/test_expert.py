"""The `expert` and `easy` bots: legal in every variant, and free of the heuristic's known weaknesses.

The expert samples with a seeded ``random.Random`` and a fixed number of playouts (with a generous
clock, so the machine's load cannot change its answer): every test here is deterministic.
"""

from __future__ import annotations

import random

import pytest

from scorepad.engine.bots import (
    HINT_BOT,
    PRACTICE_STRENGTHS,
    ExpertBot,
    HeuristicBot,
    check_answer,
    expert,
    make_bot,
)
from scorepad.engine.bots.expert import (
    Reading,
    can_overtake,
    clearly_better,
    counters_at_risk,
    defenders_trump_leads,
    habit,
    habit_free,
    habit_move,
    long_trump_first,
    plans_of,
    scored_at,
    stricter_made_needed,
)
from scorepad.engine.bots.heuristic import hand_worth, profile_of
from scorepad.engine.cards import HEARTS, SPADES, Card, counts_of, parse_cards
from scorepad.engine.game import deal, deal_hands, seat_view
from scorepad.engine.habits import bidder_holds_last_trumps
from scorepad.engine.play import play_rules
from scorepad.engine.search import Outcome
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.engine.view import SeatView, Trick
from tests.engine.test_bots import make_view

QUICK = {"playouts": 12, "budget_ms": 60_000.0}  # small and clock-proof: tests stay fast and repeatable
CAREFUL = {"playouts": 400, "budget_ms": 60_000.0}

HOUSE_RULES = [
    {},
    {"head_partner_exempt": True, "bidder_must_lead_trump": True},
    {"pass_cards": 3, "play_mode": "FOLLOW", "must_overtrump": False},
    {"must_trump_when_void": False, "trump_requires_marriage": True},
]


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
@pytest.mark.parametrize("rules", HOUSE_RULES, ids=lambda r: ",".join(r) or "defaults")
def test_the_expert_only_ever_answers_legally(variant_id: str, rules: dict[str, object]) -> None:
    variant = get_variant(variant_id)
    settings = variant.settings(rules)
    state = deal(variant, settings, 1, random.Random(len(rules) + len(variant_id)))
    bots = [ExpertBot(seat, random.Random(seat), **QUICK) for seat in range(variant.seats)]
    while state.decision is not None:
        assert state.to_act is not None
        view = seat_view(state, state.to_act)
        answer, reason = bots[state.to_act].explain(view)
        check_answer(view, answer)  # raises BotError on anything illegal
        assert reason
        state.push(answer)
    assert state.result is not None


def test_practice_strengths_run_weakest_to_strongest_and_hints_come_from_the_expert() -> None:
    assert PRACTICE_STRENGTHS == ("easy", "heuristic", "expert")
    assert HINT_BOT == "expert"
    bot = make_bot("expert", 0, random.Random(0), playouts=10, budget_ms=50)
    assert isinstance(bot, ExpertBot)
    assert bot.playouts == 10


def test_the_easy_bot_plays_whole_hands_legally() -> None:
    variant = get_variant("classic")
    state = deal(variant, variant.defaults, 0, random.Random(2))
    bots = [make_bot("easy", seat, random.Random(seat)) for seat in range(4)]
    while state.decision is not None:
        assert state.to_act is not None
        view = seat_view(state, state.to_act)
        answer = bots[state.to_act].decide(view)
        check_answer(view, answer)
        state.push(answer)


# ---------------------------------------------------------------- the heuristic's weaknesses


def bid_view(hand: str, least: int) -> SeatView:
    return make_view(decision="bid", hand=hand, seat=1, dealer=0, legal=(None, least))


def test_the_expert_does_not_bid_a_meld_hand_that_takes_no_tricks_as_high() -> None:
    # Jacks and queens around, a pinochle, two marriages, and not one ace or ten: meld, not tricks.
    weak = "JS JH JD JC QS QH QD QC KD KC 9S 9H"
    assert HeuristicBot(1).decide(bid_view(weak, 34)) == 34
    assert ExpertBot(1, random.Random(1), **CAREFUL).decide(bid_view(weak, 34)) is None


def after_auction(decision: str, hand: str, **fields: object) -> SeatView:
    """A `classic` view once seat 1 has won the auction at 25 (seat 0 dealt)."""
    auction = ((1, 25), (2, None), (3, None), (0, None))
    return make_view(decision=decision, hand=hand, dealer=0, auction=auction, bidder=1, bid=25, **fields)


def test_the_expert_names_its_long_trump_not_a_two_card_marriage_suit() -> None:
    hand = "AS TS QS 9S AH AH TH JH 9H KD QD AC"  # five hearts with both aces; KD QD is all of diamonds
    view = after_auction("trump", hand, seat=1, legal=(0, 1, 2, 3))
    diamonds, hearts = 2, HEARTS
    assert HeuristicBot(1).decide(view) == diamonds
    assert ExpertBot(1, random.Random(1), **CAREFUL).decide(view) == hearts


def test_the_partner_passes_the_bidder_trumps_rather_than_its_aces() -> None:
    hand = "AS AS TS KS AH TH KH QH JH JD 9D TC"
    whole_hand = tuple(sorted(parse_cards(hand)))
    view = after_auction("pass", hand, seat=3, trump=HEARTS, legal=whole_hand, pass_count=4)
    assert sorted(HeuristicBot(3).decide(view)) == sorted(parse_cards("AS AS AH TH"))  # both spade aces away
    passed = ExpertBot(3, random.Random(1), **CAREFUL).decide(view)
    assert all(c // 6 == HEARTS for c in passed)


def last_to_play(trick_cards: str) -> SeatView:
    """Seat 0, last to a spade trick led by seat 1, holding neither spades nor trump (hearts)."""
    hand = "AD TD KD 9D AC TC KC QC JC 9C JD QD"
    return make_view(
        hand=hand,
        decision="play",
        bidder=1,
        bid=25,
        trump=HEARTS,
        trick=Trick(1, tuple(parse_cards(trick_cards))),
        legal=tuple(sorted(set(parse_cards(hand)))),
        meld=(0, 4, 0, 0),
        shown=((), tuple(parse_cards("KH QH")), (), ()),
        auction=((1, 25), (2, None), (3, None), (0, None)),
    )


def test_counters_go_to_a_partner_who_is_winning_and_not_to_an_opponent() -> None:
    counter_values = get_variant("classic").defaults.counter_values
    bot = ExpertBot(0, random.Random(1), playouts=200, budget_ms=60_000)
    opponent_wins = bot.decide(last_to_play("AS 9S KS"))  # seat 1's ace takes it
    partner_wins = bot.decide(last_to_play("9S AS KS"))  # seat 2, the partner, has it
    assert counter_values[opponent_wins % 6] == 0
    assert counter_values[partner_wins % 6] > 0


def test_the_natural_play_gives_way_only_to_a_card_clearly_better_on_the_same_deals() -> None:
    natural = [0.0, 10.0, -5.0, 20.0, 3.0, 8.0]
    assert clearly_better([v + 2 for v in natural], natural)  # 2 points better on every deal
    assert not clearly_better([v + 0.2 for v in natural], natural)  # consistent, but too little to matter
    noisy = [v + gain for v, gain in zip(natural, [40, -30, 35, -25, 30, -20], strict=True)]
    assert sum(noisy) > sum(natural)  # better on average …
    assert not clearly_better(noisy, natural)  # … but within the noise of six deals


@pytest.mark.parametrize(
    ("variant_id", "bidder", "planned"),
    [
        ("classic", 0, True),
        ("classic", 2, False),
        ("classic", 1, False),
        ("six-handed", 0, True),
        ("six-handed", 3, False),
        ("double-deck", 0, False),
    ],
)
def test_only_the_bidder_plans_its_later_cards_and_only_where_that_was_measured_to_gain(
    variant_id: str, bidder: int, planned: bool
) -> None:
    """``plans_of``: seat 0 leading, one plan per candidate for the bidder in classic and
    six-handed; none for its partner or a defender, nor in double-deck (measured: bots/FINDINGS.md)."""
    legal = tuple(parse_cards("AS KD"))
    view = make_view(variant_id, hand="AS KD", bidder=bidder, bid=60, trump=HEARTS, legal=legal)
    plans = plans_of(view, legal)
    assert set(plans) == (set(legal) if planned else set())
    assert all(plan.seat == 0 for plan in plans.values())


# ------------------------------------------------- habits players hate (the expert must not show them)


def defender_leads(hand: str, bidder: int) -> SeatView:
    """Seat 0 to lead the second trick in `classic`, hearts trump, ``bidder`` holding the contract."""
    return make_view(
        hand=hand,
        decision="play",
        bidder=bidder,
        bid=25,
        trump=HEARTS,
        tricks=(Trick(bidder, tuple(parse_cards("AC 9C 9C 9C")), 0),),
        legal=tuple(sorted(set(parse_cards(hand)))),
    )


def test_a_defenders_trump_lead_into_the_bidders_last_trumps_and_a_counter_thrown_are_habit_moves() -> None:
    p = profile_of(get_variant("classic"), get_variant("classic").defaults)
    ah, nine_h, nine_d, ad = parse_cards("AH 9H 9D AD")
    assert defenders_trump_leads(defender_leads("AH 9H 9D", bidder=1), (ah, nine_h, nine_d)) == {ah, nine_h}
    assert not defenders_trump_leads(defender_leads("AH 9H 9D", bidder=2), (ah, nine_h, nine_d))  # ally bid
    into_last = {ah, nine_h}  # what the sampled deals flag when the bidder often holds the last trumps
    assert habit_move(defender_leads("AH 9H 9D", bidder=1), nine_h, nine_d, p, into_last)
    assert not habit_move(defender_leads("AH 9H 9D", bidder=1), nine_h, ah, p, into_last)  # natural is trump
    assert not habit_move(defender_leads("AH 9H 9D", bidder=1), nine_h, nine_d, p)  # the partner has trumps

    def deal(seat_1: str, seat_2: str) -> list[tuple[int, ...]]:  # seat 0 leads against seat 1
        return [counts_of(parse_cards(hand)) for hand in ("AH 9H 9D", seat_1, seat_2, "JS")]

    assert bidder_holds_last_trumps(deal("KH QH", "JD"), 0, 1, HEARTS)
    assert not bidder_holds_last_trumps(deal("KH QH", "JH"), 0, 1, HEARTS)  # seat 2 holds one
    assert not bidder_holds_last_trumps(deal("KS QS", "JD"), 0, 1, HEARTS)  # nobody else holds one
    assert habit_move(last_to_play("AS 9S KS"), ad, nine_d, p)  # the bidder's ace has the trick
    assert not habit_move(last_to_play("AS 9S KS"), nine_d, ad, p)  # keeping the counter is no habit
    assert not habit_move(last_to_play("9S AS KS"), ad, nine_d, p)  # the partner has the trick
    assert not habit_move(last_to_play("KD 9D JD"), ad, nine_d, p)  # the ace wins it: no throw


def test_a_natural_play_throwing_a_counter_gives_way_to_a_card_at_most_three_counters_worse() -> None:
    p = profile_of(get_variant("classic"), get_variant("classic").defaults)  # a counter is 1 point
    view = last_to_play("AS 9S KS")  # the bidder's A♠ has the trick: the A♦ on it is thrown
    ad, ten_d, nine_d = parse_cards("AD TD 9D")

    def kept(nine_loses: float) -> Card:  # the A♦ the natural play, the 9♦ ``nine_loses`` worse a deal
        values = {ad: [0.0] * 8, ten_d: [1.0] * 8, nine_d: [-nine_loses] * 8}
        return habit_free(view, ad, values, p)

    assert kept(3.0) == nine_d  # the 10♦ did best, but it is thrown too
    assert kept(3.5) == ad  # more than three counters worse: the natural play stands


def test_a_defender_leads_trump_only_at_the_high_bar_and_never_into_the_bidders_last_trumps(
    monkeypatch,
) -> None:
    # Seat 0 took the first trick with the A♣ and leads against seat 1's hearts, one heart in hand.
    hand = "9H 9D KD QD JD 9S JS QS KS QC JC"
    view = make_view(
        hand=hand,
        decision="play",
        bidder=1,
        bid=25,
        trump=HEARTS,
        tricks=(Trick(1, tuple(parse_cards("KC 9C TC AC")), 0),),
        trick=Trick(0, ()),
        legal=tuple(sorted(set(parse_cards(hand)))),
        meld=(0, 4, 0, 0),
        shown=((), tuple(parse_cards("KH QH")), (), ()),
        auction=((1, 25), (2, None), (3, None), (0, None)),
    )
    bot = ExpertBot(0, random.Random(1), playouts=40, budget_ms=60_000)
    assert bot.decide(view) // 6 != HEARTS  # the natural lead

    def lead(gain: float, into_last_trumps: bool) -> Card:  # a trump lead ``gain`` better on every deal
        def value(child, *args, **kwargs) -> float:
            return gain if child.trick[0] // 6 == HEARTS else 0.0

        monkeypatch.setattr(expert, "playout", value)
        monkeypatch.setattr(expert, "solve", value)
        monkeypatch.setattr(expert, "bidder_holds_last_trumps", lambda *args: into_last_trumps)
        return ExpertBot(0, random.Random(1), playouts=40, budget_ms=60_000).decide(view)

    assert lead(50.0, into_last_trumps=False) // 6 == HEARTS  # the partner may hold trumps: far better
    assert lead(2.0, into_last_trumps=False) // 6 != HEARTS  # two points are under four counters
    assert lead(50.0, into_last_trumps=True) // 6 != HEARTS  # into the bidder's last trumps: never


BIDS = (20, 21, 22, 23, 24, 25, None, None, 26, 27, None)


def test_a_counter_left_on_a_trick_an_opponent_still_to_play_could_take_is_at_risk() -> None:
    p = profile_of(get_variant("classic"), get_variant("classic").defaults)
    # Seat 0 plays second to seat 3's K♦; seat 1 (the bidder, an opponent) and seat 2 follow.
    second = make_view(
        hand="AD TD 9D", trick=Trick(3, tuple(parse_cards("KD"))), bidder=1, bid=25, trump=HEARTS
    )
    ad, ten_d, nine_d = parse_cards("AD TD 9D")
    assert counters_at_risk(second, (ad, ten_d, nine_d), p) == {ad: ad, ten_d: ten_d}  # the 9♦ counts nothing
    assert counters_at_risk(last_to_play("KD 9D JD"), (ad, ten_d, nine_d), p) == {}  # nobody plays after

    def seat_1_holds(seat_1: str) -> list[tuple[int, ...]]:  # the deal as seat 1 holds it, the rest elsewhere
        hands = ["AD TD 9D", seat_1, "JS", "JS"]
        return [counts_of(parse_cards(hand)) for hand in hands]

    rules = play_rules(second.variant, second.settings, second.bid)
    assert can_overtake(second, rules, seat_1_holds("AD 9S"), ten_d, ten_d)  # the other A♦ takes the 10♦ …
    assert not can_overtake(second, rules, seat_1_holds("AD 9S"), ad, ad)  # … but not the first A♦
    assert can_overtake(second, rules, seat_1_holds("9H 9S"), ad, ad)  # void in diamonds, it must trump
    assert not can_overtake(second, rules, seat_1_holds("9C 9S"), ten_d, ten_d)  # nothing to take it with
    assert habit(second, ten_d, p, flagged={ten_d})
    assert not habit(second, ten_d, p)  # not exposed on the sampled deals: no habit
    assert not habit(second, nine_d, p, flagged={ten_d})


def test_the_expert_keeps_its_trump_ten_under_the_bidders_ace_whatever_the_sampled_deals_say(
    monkeypatch,
) -> None:
    # Seat 1 won at 27 in spades and leads the A♠; it showed A♠ T♠ K♠ Q♠ J♠ K♠, so seat 2's T♠
    # can win nothing soon. Deals that know the cards like throwing it; the natural 9♠ stands.
    view = make_view(
        hand="TS 9S 9S KH JH TD KD 9D 9D AC JC 9C",
        decision="play",
        seat=2,
        dealer=3,
        bidder=1,
        bid=27,
        trump=SPADES,
        auction=tuple(zip((0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 0), BIDS, strict=True)),
        meld=(0, 21, 2, 4),
        shown=tuple(
            tuple(parse_cards(shown)) for shown in ("", "AS TS KS KS QS JS JD", "9S 9S", "KD QD KC QC")
        ),
        trick=Trick(1, tuple(parse_cards("AS"))),
        legal=tuple(parse_cards("TS 9S")),
    )
    ten, nine = parse_cards("TS 9S")
    assert ExpertBot(2, random.Random(1), playouts=200, budget_ms=60_000).decide(view) == nine
    monkeypatch.setattr(expert, "habit_move", lambda *args: False)  # were a habit any other move …
    assert ExpertBot(2, random.Random(1), playouts=200, budget_ms=60_000).decide(view) == ten  # … it shows


def test_a_bid_on_a_short_trump_or_a_thin_gain_needs_a_higher_made_rate() -> None:
    short = bid_view("AH TH KH AS AS TS KS QS JS AC TC KC", 25)  # 3 hearts of 12
    assert stricter_made_needed(short, HEARTS, 25, gain=20.0) == expert.MADE_NEEDED_SHORT_TRUMP
    assert stricter_made_needed(short, SPADES, 25, gain=20.0) == 0.0  # 5 spades, a clear gain
    assert stricter_made_needed(short, SPADES, 25, gain=1.0) == expert.MADE_NEEDED_THIN


def test_the_expert_names_a_short_trump_only_when_clearly_better_than_a_longer_one() -> None:
    view = after_auction("trump", "AH TH KH AS AS TS KS QS JS AC TC KC", seat=1, legal=(0, 1, 2, 3))
    p = profile_of(view.variant, view.settings)

    def deals(points: tuple[int, int]) -> list[Outcome]:  # seat 1's side melds 20 on every deal
        return [Outcome(20 + points[1], (0, 20), points, (True, True), played=True)] * 20

    spades = deals((6, 19))  # five spades: 39 to 6

    def scored(outcomes: dict[int, list[Outcome]]) -> dict[int, list[tuple[int, ...]]]:
        assert view.bid is not None
        return scored_at(view, outcomes, view.bid)

    assert long_trump_first(view, p, scored({SPADES: spades, HEARTS: deals((5, 20))}), HEARTS) == SPADES
    assert long_trump_first(view, p, scored({SPADES: spades, HEARTS: deals((0, 25))}), HEARTS) == HEARTS


class SlowClock:
    """A wall clock that moves ``step`` seconds at every look: a machine under load."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_the_playout_count_decides_and_the_clock_only_caps_it_with_a_log_line(monkeypatch, caplog) -> None:
    variant = get_variant("double-deck")
    state = deal(variant, variant.defaults, 3, random.Random(21))
    view = seat_view(state, 0)

    def answer(clock_step: float | None) -> tuple[object, str]:
        if clock_step is not None:
            monkeypatch.setattr("scorepad.engine.bots.expert.time.perf_counter", SlowClock(clock_step))
        return ExpertBot(0, random.Random(4), playouts=200).explain(view)

    idle = answer(None)
    with caplog.at_level("WARNING", logger="scorepad.engine.bots.expert"):
        busy = answer(0.01)  # every deal seems to take 10 ms more: still within the 3 s cap
        assert busy == idle
        assert caplog.records == []
        answer(0.2)  # 200 ms a deal: the cap cuts the decision short, and says so
    assert len(caplog.records) == 1
    assert "cap cut a bid decision (seat 0)" in caplog.records[0].getMessage()


REPORTED_HAND = "AS AS JS AH AH TH JD 9D AC QC JC 9C"  # six aces, one meld in clubs (the 9♣)


def raise_by_one_war(raiser: int, seed: int, hand: str = REPORTED_HAND) -> list[int]:
    """The expert's bids at seat 1 of `classic` (seat 0 dealt) holding ``hand``, while the
    opponent at ``raiser`` tops every bid of its by one and the other two seats pass."""
    variant = get_variant("classic")
    rest = variant.deck()
    for c in parse_cards(hand):
        rest.remove(c)
    random.Random(seed).shuffle(rest)
    hands = [rest[0:12], parse_cards(hand), rest[12:24], rest[24:36]]
    state = deal_hands(variant, variant.defaults, 0, hands)
    bot = ExpertBot(1, random.Random(seed), playouts=100, budget_ms=60_000.0)
    bids = []
    while state.decision == "bid":
        if state.to_act == 1:
            answer = bot.decide(seat_view(state, 1))
            bids += [answer] if answer is not None else []
        else:
            answer = state.legal()[1] if state.to_act == raiser else None  # the least bid, or pass
        state.push(answer)
    return bids


@pytest.mark.parametrize("raiser", [2, 0], ids=["left", "right"])
def test_the_expert_stops_a_raise_by_one_war_near_what_its_hand_is_worth(raiser: int) -> None:
    # The reported hand bid 27 in such a war and went set. As a partner counts it, it is worth
    # about 22.5: meld 1 in clubs, 17.4 of the 25 trick points, 4.1 for the partner's meld and the
    # cards passed (``heuristic.hand_worth``). At its first raise over the opponent it jumps to
    # what it makes 85% of the time, at most 10% past that worth (``WAR_WORTH_SHARE``: 24.8), so
    # 24 at once; outbid, it raises once more, to 26; a third raise (a war) would pass 24.8, so it
    # stops there. Before: 20, 22, 24 … 32 or more; then, jumping at its second raise, 20, 22, 24.
    variant = get_variant("classic")
    for seed in (1, 2):
        bids = raise_by_one_war(raiser, seed)
        assert bids[0] == 20, "a hand of six aces opens"
        assert bids[1] == 24, "its first raise is the jump"
        assert len(bids) <= 3, "two raises over the opponent at most: no raise war"
        assert max(bids) <= 26
    view = make_view(decision="bid", hand=REPORTED_HAND, seat=1, dealer=0, legal=(None, 20))
    assert 22 < hand_worth(view, profile_of(variant, variant.defaults)) < 23


def test_in_a_bidding_war_a_strong_hand_jumps_to_what_it_surely_makes_instead_of_creeping() -> None:
    # A run in hearts and aces around (meld 25) is worth about 53 as a partner counts it. At its
    # first raise over the opponent the expert bids at once the highest bid its simulated hands
    # make 85% of the time (``WAR_JUMP_MADE``), never past 10% over that worth, instead of raising
    # one step at a time (at first: 20, 22, 24, 26 … 54; then jumping at its second raise: 20, 22,
    # 52, 54, a raise war of three raises).
    strong = "AH TH KH QH JH AS AC AD KD QD QS JD"
    variant = get_variant("classic")
    view = make_view(decision="bid", hand=strong, seat=1, dealer=0, legal=(None, 20))
    cap = expert.WAR_WORTH_SHARE * hand_worth(view, profile_of(variant, variant.defaults))
    for raiser in (2, 0):
        bids = raise_by_one_war(raiser, 1, strong)
        assert bids[0] == 20
        assert bids[1] >= 40
        assert max(bids) <= cap


def test_the_same_hand_bids_or_passes_by_what_the_calls_before_it_said() -> None:
    # Seat 3 (seat 3 dealt) holds a heart run's makings and little else, and an opponent holds the
    # bid at 21 either way. Where its partner passed, the sampled partner hands are weak and it
    # passes; where its partner bid 20 they are strong and it bids. Dealt at random, the same deals
    # answer both auctions alike: the calls alone make the difference.
    hand = "KS TH TH KH JH JH 9H QD QD 9D 9D KC"
    partner_passed = ((0, 21), (1, None), (2, None))
    partner_bid = ((0, None), (1, 20), (2, 21))

    def bid(auction: tuple[tuple[int, int | None], ...], reading: Reading) -> int | None:
        view = make_view(decision="bid", hand=hand, seat=3, dealer=3, auction=auction, legal=(None, 22))
        answer = ExpertBot(3, random.Random(1), **CAREFUL, reading=reading).decide(view)
        assert answer is None or isinstance(answer, int)
        return answer

    for reading in (Reading(), Reading(calls="soft")):
        assert bid(partner_passed, reading) is None
        assert bid(partner_bid, reading) == 22
    at_random = Reading(calls="none")
    assert bid(partner_passed, at_random) == bid(partner_bid, at_random)
