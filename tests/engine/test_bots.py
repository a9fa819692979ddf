"""Bots (RULES.md §9.6): `random`, `heuristic` and outside programs, and what they may see."""

from __future__ import annotations

import ast
import dataclasses
import random
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_site.tools.benchmarks.bots_benchmark import versus
from scorepad.engine import bots as bots_package
from scorepad.engine.bots import (
    PRACTICE_STRENGTHS,
    BotError,
    HeuristicBot,
    OutsideBot,
    RandomBot,
    check_answer,
    make_bot,
)
from scorepad.engine.bots.outside import parse_answer
from scorepad.engine.cards import HEARTS, SPADES, counts_of, parse_card, parse_cards, parse_suit
from scorepad.engine.game import HandState, new_game, seat_view
from scorepad.engine.meld import meld_points
from scorepad.engine.simulate import play_game, play_hand
from scorepad.engine.variants import VARIANTS, get_variant
from scorepad.engine.view import BID, PASS, PLAY, TRUMP, Answer, SeatView, Trick
from tests.examples import examples

TINY_BOT = Path(__file__).with_name("tiny_bot.py")


def tiny_bot(mode: str = "first") -> str:
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(TINY_BOT))} {mode}"


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def make_view(variant_id: str = "classic", decision: str = PLAY, hand: str = "", **fields) -> SeatView:
    """A seat view built by hand: seat 0 deciding, nothing known yet unless given."""
    variant = get_variant(variant_id)
    values = {
        "variant": variant,
        "settings": variant.defaults,
        "seat": 0,
        "dealer": 3,
        "decision": decision,
        "hand": cards(hand),
        "auction": (),
        "bidder": None,
        "bid": None,
        "trump": None,
        "passed": (),
        "received": (),
        "meld": (),
        "shown": (),
        "tricks": (),
        "trick": None,
        "totals": (0,) * len(variant.sides),
        "legal": (),
    }
    values.update(fields)
    return SeatView(**values)


def play_view(
    hand: str, legal: str, trick: Trick | None, tricks: tuple[Trick, ...] = (), **fields
) -> SeatView:
    """Seat 0 of `classic` playing with hearts trump, after seat 0 bid 25."""
    fields = {"bidder": 0, "bid": 25, "trump": HEARTS, **fields}
    return make_view(hand=hand, legal=cards(legal), trick=trick, tricks=tricks, **fields)


def run_to(state: HandState, steps: int) -> HandState:
    """Let heuristic bots make up to ``steps`` decisions, stopping early when the hand ends."""
    bots = [HeuristicBot(seat) for seat in range(state.variant.seats)]
    for _ in range(steps):
        if state.decision is None:
            break
        seat = state.to_act
        assert seat is not None
        state.push(bots[seat].decide(seat_view(state, seat)))
    return state


# ---------------------------------------------------------------- make_bot


def test_make_bot_builds_each_kind_of_bot():
    rng = random.Random(1)
    assert isinstance(make_bot("random", 0, rng), RandomBot)
    assert isinstance(make_bot("heuristic", 1, rng), HeuristicBot)
    outside = make_bot("cmd:python3 -u my_bot.py --fast", 2, rng, timeout=3)
    assert isinstance(outside, OutsideBot)
    assert outside.args == ["python3", "-u", "my_bot.py", "--fast"]
    assert outside.process is None  # started on the first decision, not before
    outside.close()


def test_make_bot_refuses_an_unknown_name_and_lists_the_choices():
    with pytest.raises(ValueError, match="unknown bot 'clever'") as error:
        make_bot("clever", 0, random.Random(1))
    assert all(choice in str(error.value) for choice in ("random", "heuristic", "cmd:PROGRAM ARGS"))


def test_make_bot_refuses_cmd_without_a_program():
    with pytest.raises(ValueError, match="cmd: needs a program"):
        make_bot("cmd:  ", 0, random.Random(1))


# ---------------------------------------------------------------- what a bot may see


SEAT_VIEW_FIELDS = {
    # §9.6, one field per key; the seat's own cards, and of others only what the table saw.
    "variant": "game",
    "settings": "game",
    "seat": "game",
    "dealer": "game",
    "decision": "game",
    "hand": "own cards",
    "auction": "public",
    "bidder": "public",
    "bid": "public",
    "trump": "public",
    "passed": "own cards",
    "received": "own cards",
    "meld": "public",
    "shown": "public: melds laid on the table",
    "tricks": "public: cards played",
    "trick": "public: cards played",
    "totals": "public",
    "legal": "own cards",
    "pass_count": "game",
}


def test_seat_view_has_no_field_for_another_seats_unshown_cards():
    assert {field.name for field in dataclasses.fields(SeatView)} == set(SEAT_VIEW_FIELDS)


def test_seat_view_json_holds_exactly_the_section_9_6_keys():
    classic = VARIANTS["classic"]
    view = seat_view(run_to(new_game(classic, classic.defaults, random.Random(3)), 20), 1)
    assert set(view.to_json()) == set(SEAT_VIEW_FIELDS) - {"pass_count"}


BOT_MODULES = ("common.py", "random_bot.py", "heuristic.py", "outside.py", "__init__.py")


@pytest.mark.parametrize("module", BOT_MODULES)
def test_bot_modules_cannot_reach_the_game_state(module):
    # Bots see a SeatView only: none imports the game state, the game loop or the log.
    tree = ast.parse((Path(bots_package.__file__).parent / module).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not {name.rsplit(".", 1)[-1] for name in imported} & {"game", "simulate", "log", "HandState"}


def hidden_swap(state: HandState, seat: int, rng: random.Random) -> HandState | None:
    """The same state with one card ``seat`` cannot see swapped between two other seats' hands."""
    others = [s for s in range(state.variant.seats) if s != seat]
    rng.shuffle(others)
    for a in others:
        for b in others:
            x = hidden_card(state, a, seat)
            y = hidden_card(state, b, seat, avoid=x)
            if a != b and x is not None and y is not None:
                swapped = state.copy()
                swapped.hands[a][x] -= 1
                swapped.hands[a][y] += 1
                swapped.hands[b][y] -= 1
                swapped.hands[b][x] += 1
                return swapped
    return None


def hidden_card(state: HandState, holder: int, seat: int, avoid: int | None = None) -> int | None:
    """A card ``holder`` has more copies of than ``seat`` knows about (shown as meld, or passed to it)."""
    known = list(counts_of(state.shown[holder])) if state.shown else [0] * 24
    for giver, taker, passed in state.passes:
        if giver == seat and taker == holder:
            for c in passed:
                known[c] += 1
    for c, held in enumerate(state.hands[holder]):
        if held > known[c] and c != avoid:
            return c
    return None


@settings(max_examples=examples(60))
@given(variant_id=st.sampled_from(list(VARIANTS)), seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_hidden_cards_change_neither_the_view_nor_the_heuristic_decision(variant_id, seed, steps):
    variant = VARIANTS[variant_id]
    state = run_to(new_game(variant, variant.defaults, random.Random(seed)), steps)
    if state.decision is None:
        return
    seat = state.to_act
    swapped = hidden_swap(state, seat, random.Random(seed))
    if swapped is None:
        return
    assert swapped.hands != state.hands  # the other seats really hold different cards
    view, view_swapped = seat_view(state, seat), seat_view(swapped, seat)
    assert view.to_json() == view_swapped.to_json()
    assert HeuristicBot(seat).decide(view) == HeuristicBot(seat).decide(view_swapped)


@pytest.mark.parametrize("strength", PRACTICE_STRENGTHS)
@pytest.mark.parametrize(
    ("variant_id", "steps"), [("classic", 2), ("classic", 15), ("double-deck", 30), ("six-handed", 20)]
)
def test_every_practice_strength_decides_the_same_whatever_the_cards_it_cannot_see(
    strength, variant_id, steps
):
    # The practice bots get the seat view only: the other seats' hidden cards swapped, each decides
    # the same, with the same random generator (the expert at a fixed playout count).
    variant = VARIANTS[variant_id]
    state = run_to(new_game(variant, variant.defaults, random.Random(7)), steps)
    seat = state.to_act
    assert seat is not None
    swapped = hidden_swap(state, seat, random.Random(7))
    assert swapped is not None
    assert swapped.hands != state.hands

    def answer(of: HandState) -> Answer:
        return make_bot(strength, seat, random.Random(3), playouts=12).decide(seat_view(of, seat))

    assert answer(state) == answer(swapped)


# ---------------------------------------------------------------- the heuristic plays legally

HOUSE_RULES = [
    ("classic", {}),
    ("classic", {"pass_cards": 3, "bid_increment": 5, "head_partner_exempt": True}),
    ("classic", {"pass_cards": 0, "count_system": "A,T=10;K,Q=5", "last_trick": 10}),
    ("double-deck", {}),
    ("double-deck", {"bid_increment": "1 below 60, then 5", "bidders_short_meld_play_out": True}),
    ("six-handed", {}),
    ("six-handed", {"play_mode": "HEAD", "must_overtrump": True, "last_trick": 10}),
]


def checked_hand(rules, seed, make) -> Iterator[tuple[SeatView, Answer]]:
    """Play one hand with ``make(seat)`` in every seat, yielding each view and its answer, checked legal."""
    variant_id, overrides = rules
    variant = VARIANTS[variant_id]
    state = new_game(variant, variant.settings(overrides), random.Random(seed))
    players = [make(seat) for seat in range(variant.seats)]
    while state.decision is not None:
        view = seat_view(state, state.to_act)
        answer = players[view.seat].decide(view)
        check_answer(view, answer)
        yield view, answer
        state.push(answer)
    assert state.result is not None


@settings(max_examples=examples(40))
@given(rules=st.sampled_from(HOUSE_RULES), seed=st.integers(0, 10**6))
def test_heuristic_answers_are_always_legal(rules, seed):
    for view, answer in checked_hand(rules, seed, HeuristicBot):
        assert HeuristicBot(view.seat).decide(view) == answer  # what it remembers changes nothing


@settings(max_examples=examples(20))
@given(rules=st.sampled_from(HOUSE_RULES), seed=st.integers(0, 10**6))
def test_random_answers_are_always_legal(rules, seed):
    def random_bot(seat: int) -> RandomBot:
        return RandomBot(seat, random.Random(seed + seat))

    decisions = {view.decision for view, _ in checked_hand(rules, seed, random_bot)}
    assert BID in decisions


# ---------------------------------------------------------------- the heuristic plays well


@pytest.mark.parametrize(
    ("variant_id", "least_win_rate"), [("classic", 0.8), ("double-deck", 0.8), ("six-handed", 0.5)]
)
def test_heuristic_beats_random_by_a_wide_margin(variant_id, least_win_rate):
    # A fixed seed: the same games every run. One random seat of six would win 1 game in 6.
    record = versus(VARIANTS[variant_id], 30, seed=2026)
    assert record["won"] >= least_win_rate
    assert record["made"] > 0.5


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_heuristic_makes_most_of_its_bids_against_itself(variant_id):
    variant = VARIANTS[variant_id]
    bots = [HeuristicBot(seat) for seat in range(variant.seats)]
    rng = random.Random(7)
    results = [state.result.made for state in play_game(variant, variant.defaults, bots, rng)]
    assert sum(results) > len(results) / 2


# ---------------------------------------------------------------- the heuristic's choices


def test_heuristic_leads_a_sure_ace():
    view = play_view("AS 9S JD 9D QC 9C", legal="AS 9S JD 9D QC 9C", trick=Trick(0, ()))
    assert HeuristicBot(0).decide(view) == parse_card("AS")


def test_heuristic_draws_trump_with_a_sure_trump_winner_as_the_bidder_but_not_as_a_defender():
    hand = "AH 9S JD"  # the ace of hearts is a sure winner; no side card is
    assert HeuristicBot(0).decide(play_view(hand, legal=hand, trick=Trick(0, ()))) == parse_card("AH")
    defending = play_view(hand, legal=hand, trick=Trick(0, ()), bidder=1)
    assert HeuristicBot(0).decide(defending) in cards("9S JD")


def test_heuristic_counts_the_aces_its_partner_showed_as_no_threat_to_its_ten():
    # Both aces of spades sit in the partner's shown meld: the ten of spades is the top spade left.
    shown = ((), (), tuple(cards("AS AS AH AD AC")), ())
    view = play_view("TS 9C", legal="TS 9C", trick=Trick(0, ()), shown=shown, meld=(0, 0, 10, 0))
    assert HeuristicBot(0).decide(view) == parse_card("TS")


def test_heuristic_does_not_lead_a_ten_while_its_ace_is_out():
    # AS unseen: the ten would fall to it, so lead something that costs nothing.
    view = play_view("TS JD 9D 9C", legal="TS JD 9D 9C", trick=Trick(0, ()))
    assert HeuristicBot(0).decide(view) in cards("JD 9D 9C")


def test_heuristic_leads_a_ten_once_both_aces_have_fallen():
    gone = Trick(1, cards("AS AS 9S 9S"), winner=1)
    view = play_view("TS JD 9D 9C", legal="TS JD 9D 9C", trick=Trick(1, ()), tricks=(gone,))
    assert HeuristicBot(0).decide(view) == parse_card("TS")


def test_heuristic_feeds_a_counter_to_a_partner_winning_for_sure():
    # Partner (seat 2) led the top spade; seat 1 still to play but has followed spades before.
    trick = Trick(2, cards("AS 9S"))
    view = play_view("KD 9D TC", legal="KD 9D TC", trick=trick, bidder=2)
    assert HeuristicBot(0).decide(view) in cards("KD TC")


def test_heuristic_made_to_trump_its_partners_trick_uses_its_lowest_trump():
    trick = Trick(2, cards("AS 9S"))  # void in spades, it must trump even its partner's ace
    view = play_view("AH KH 9H KD", legal="AH KH 9H", trick=trick, bidder=2)
    assert HeuristicBot(0).decide(view) == parse_card("9H")


def test_heuristic_leads_a_suit_its_partner_can_trump():
    # Seat 2 (partner) showed no diamonds but a trump; the opponents followed diamonds.
    ruffed = Trick(1, cards("AD 9H JD 9D"), winner=2)
    won = Trick(2, cards("KS 9S AS 9S"), winner=0)
    view = play_view("KC 9C QD QS", legal="KC 9C QD QS", trick=Trick(0, ()), tricks=(ruffed, won))
    assert HeuristicBot(0).decide(view) == parse_card("QD")


def test_heuristic_keeps_counters_back_when_a_partners_card_may_be_beaten():
    trick = Trick(2, cards("KS 9S"))  # AS and TS are still out, and seat 1 plays after us
    view = play_view("KD 9D TC", legal="KD 9D TC", trick=trick, bidder=2)
    assert HeuristicBot(0).decide(view) == parse_card("9D")


def test_heuristic_throws_its_cheapest_card_on_a_lost_trick():
    trick = Trick(1, cards("AD 9D JD"))  # an opponent's ace leads; we cannot follow or trump
    view = play_view("KS TC 9C", legal="KS TC 9C", trick=trick)
    assert HeuristicBot(0).decide(view) == parse_card("9C")


def test_heuristic_trumps_with_its_lowest_trump_when_that_wins_for_sure():
    trick = Trick(1, cards("AD TD KD"))  # last to play: any trump takes it
    view = play_view("AH 9H JH KS", legal="AH 9H JH", trick=trick)
    assert HeuristicBot(0).decide(view) == parse_card("9H")


def test_heuristic_wins_as_last_player_with_the_cheapest_winner():
    trick = Trick(1, cards("QD 9D KD"))
    view = play_view("AD TD JD", legal="AD TD", trick=trick)
    assert HeuristicBot(0).decide(view) == parse_card("TD")


def bid_view(variant_id: str, hand: str, legal: tuple, auction: tuple = (), **fields) -> SeatView:
    return make_view(variant_id, BID, hand, legal=legal, auction=auction, **fields)


STRONG_CLASSIC = "AH AH TH KH QH JH 9H AS AD AC KS QS"  # run, aces around, dix, a marriage
WEAK_CLASSIC = "9S 9S JS 9H JH QH 9D QD 9C JC QC TH"  # no ace, no king: at most two dix


def test_heuristic_bids_on_a_strong_hand_and_passes_a_weak_one():
    legal = (None, 20)
    assert HeuristicBot(0).decide(bid_view("classic", STRONG_CLASSIC, legal)) == 20
    assert HeuristicBot(0).decide(bid_view("classic", WEAK_CLASSIC, legal)) is None


def test_heuristic_stops_at_its_estimate():
    bot = HeuristicBot(0)
    high = [
        least for least in range(20, 200) if bot.decide(bid_view("classic", STRONG_CLASSIC, (None, least)))
    ]
    assert high == list(range(20, high[-1] + 1))  # every raise up to a limit, none after
    assert 40 <= high[-1] < 80  # 42 meld and a strong share of the 25 trick points


def test_heuristic_outbids_its_partner_only_with_room_to_spare():
    bot = HeuristicBot(0)
    over_opponent = bid_view("classic", STRONG_CLASSIC, (None, 46), auction=((1, 45),))
    over_partner = bid_view("classic", STRONG_CLASSIC, (None, 46), auction=((1, None), (2, 45)))
    assert bot.decide(over_opponent) == 46
    assert bot.decide(over_partner) is None
    low = dataclasses.replace(over_partner, legal=(None, 30), auction=((1, None), (2, 29)))
    assert bot.decide(low) == 30  # with room to spare it takes the bid and names its own trump


def test_heuristic_forced_dealer_bids_the_minimum():
    assert HeuristicBot(0).decide(bid_view("classic", WEAK_CLASSIC, (20,))) == 20


def test_heuristic_bids_keep_to_the_increment():
    hand = "AS TS KS QS JS AH AD AC"  # run and aces around: 250 meld in six-handed
    view = bid_view("six-handed", hand, (None, 60), auction=((1, 50),))
    answer = HeuristicBot(0).decide(view)
    assert answer == 60
    check_answer(view, answer)


def test_heuristic_double_deck_bids_only_with_a_marriage():
    no_marriage = "AS AS AS TS TS AH AH TH TH AD AD TD TD AC AC TC TC JS JH JD"
    assert HeuristicBot(0).decide(bid_view("double-deck", no_marriage, (None, 50))) is None


def test_heuristic_names_the_trump_of_its_meld_and_length():
    view = make_view(decision=TRUMP, hand=STRONG_CLASSIC, legal=(0, 1, 2, 3), bidder=0, bid=30)
    assert HeuristicBot(0).decide(view) == HEARTS


def test_heuristic_names_only_a_legal_trump():
    hand = "AS AS AS TS TS TS KS KS JS JS KH QH AD AD TD TD AC TC JC JD"  # spades long, marriage in hearts
    view = make_view("double-deck", TRUMP, hand, legal=(HEARTS,), bidder=0, bid=50)
    assert HeuristicBot(0).decide(view) == HEARTS


def test_heuristic_partner_passes_trumps_and_aces():
    hand = "AH TH 9H AS AC KD QD JS 9S 9D JC 9C"
    view = make_view(
        decision=PASS, hand=hand, legal=cards(hand), bidder=2, bid=25, trump=HEARTS, pass_count=4
    )
    answer = HeuristicBot(0).decide(view)
    assert set(cards("AH TH 9H")) < set(answer) < set(cards("AH TH 9H AS AC"))


def test_heuristic_bidder_returns_cards_without_breaking_its_meld():
    hand = "AH TH KH QH JH 9H AS AD AC KS QS QC 9C JD 9D JC"  # 16 cards: 4 received
    view = make_view(
        decision=PASS, hand=hand, legal=cards(hand), bidder=0, bid=30, trump=HEARTS, pass_count=4
    )
    answer = HeuristicBot(0).decide(view)
    check_answer(view, answer)
    before = counts_of(cards(hand))
    after = list(before)
    for c in answer:
        after[c] -= 1
    variant = view.variant
    assert meld_points(after, HEARTS, variant, view.settings) == meld_points(
        before, HEARTS, variant, view.settings
    )
    assert all(c // 6 != HEARTS for c in answer)
    assert not any(view.settings.counter_values[c % 6] for c in answer)


# ---------------------------------------------------------------- the random bot


def test_random_bot_passes_or_bids_the_minimum_and_always_bids_when_forced():
    bot = RandomBot(0, random.Random(5))
    answers = {bot.decide(bid_view("classic", WEAK_CLASSIC, (None, 23))) for _ in range(50)}
    assert answers == {None, 23}
    assert {bot.decide(bid_view("classic", WEAK_CLASSIC, (20,))) for _ in range(20)} == {20}


def test_random_bot_passes_a_sample_of_its_hand():
    hand = "AH TH 9H AS AC KD QD JS 9S 9D JC 9C"
    view = make_view(decision=PASS, hand=hand, legal=cards(hand), bidder=2, trump=SPADES, pass_count=4)
    bot = RandomBot(0, random.Random(5))
    passes = {bot.decide(view) for _ in range(30)}
    assert len(passes) > 1
    for answer in passes:
        check_answer(view, answer)


# ---------------------------------------------------------------- checking answers


@pytest.mark.parametrize(
    ("legal", "answer", "message"),
    [
        ((None, 23), 22, "below the lowest bid allowed now, 23"),
        ((20,), None, "the dealer is forced to bid 20"),
        ((None, 23), True, "not a whole number"),
        ((None, 23), 23.5, "not a whole number"),
    ],
)
def test_check_answer_refuses_bad_bids(legal, answer, message):
    with pytest.raises(BotError, match=message) as error:
        check_answer(bid_view("classic", WEAK_CLASSIC, legal), answer)
    assert str(error.value).startswith("seat 0, decision bid: answer")


def test_check_answer_refuses_a_bid_off_the_increment():
    view = bid_view("six-handed", "AS TS KS QS JS AH AD AC", (None, 60))
    check_answer(view, 80)
    with pytest.raises(BotError, match="answer 75 does not keep to the bid increment"):
        check_answer(view, 75)


def test_check_answer_refuses_a_pass_of_the_wrong_size_or_of_cards_not_held():
    hand = "AH TH 9H AS AC KD QD JS 9S 9D JC 9C"
    view = make_view(decision=PASS, hand=hand, legal=cards(hand), bidder=2, trump=SPADES, pass_count=4)
    with pytest.raises(BotError, match="exactly 4 cards"):
        check_answer(view, cards("AH TH 9H"))
    with pytest.raises(BotError, match=r"not in the hand: \['AH'\]"):
        check_answer(view, cards("AH AH TH 9H"))


def test_check_answer_refuses_an_illegal_card_naming_it():
    view = play_view("AD TD JD", legal="AD TD", trick=Trick(1, cards("QD 9D KD")))
    with pytest.raises(
        BotError, match=r"seat 0, decision play: answer 'JD' is not legal here: choose one of \['AD', 'TD'\]"
    ):
        check_answer(view, parse_card("JD"))


@pytest.mark.parametrize(
    ("decision", "line", "message"),
    [
        (PLAY, "I play the ace", "is not JSON"),
        (PLAY, '{"cards": "AD"}', 'the single key "card"'),
        (PLAY, '{"card": "ZZ"}', "unknown card 'ZZ'"),
        (PLAY, '{"card": 7}', "7 is not a code in quotes"),
        (TRUMP, '{"trump": "X"}', "unknown suit 'X'"),
        (PASS, '{"pass": "AD TD"}', "must be a list"),
        (BID, '["bid", 23]', 'the single key "bid"'),
    ],
)
def test_parse_answer_names_what_is_wrong(decision, line, message):
    view = make_view(decision=decision, hand="AD TD", legal=cards("AD TD"))
    with pytest.raises(BotError, match=message) as error:
        parse_answer(view, line)
    assert str(error.value).startswith(f"seat 0, decision {decision}: answer {line!r}")


def test_parse_answer_reads_each_decision():
    hand = make_view(decision=PASS, hand="AD TD", legal=cards("AD TD"))
    assert parse_answer(hand, '{"pass": ["AD", "TD"]}') == cards("AD TD")
    assert parse_answer(dataclasses.replace(hand, decision=PLAY), '{"card": "TD"}') == parse_card("TD")
    assert parse_answer(dataclasses.replace(hand, decision=TRUMP), '{"trump": "D"}') == parse_suit("D")
    assert parse_answer(dataclasses.replace(hand, decision=BID), '{"bid": null}') is None
    assert parse_answer(dataclasses.replace(hand, decision=BID), '{"bid": 23}') == 23


# ---------------------------------------------------------------- outside bots


@pytest.fixture
def started(monkeypatch) -> list:
    """Every process an outside bot starts during the test."""
    processes = []
    original = OutsideBot._start

    def remember(self, view):
        process = original(self, view)
        if process not in processes:
            processes.append(process)
        return process

    monkeypatch.setattr(OutsideBot, "_start", remember)
    return processes


def play_classic_hand(bots) -> HandState:
    classic = VARIANTS["classic"]
    state = new_game(classic, classic.defaults, random.Random(11))
    try:
        play_hand(state, bots)
    finally:
        for bot in bots:
            bot.close()
    return state


def test_a_hand_against_the_tiny_outside_bot_completes(started):
    rng = random.Random(2)
    bots = [make_bot(tiny_bot(), 0, rng), HeuristicBot(1), make_bot(tiny_bot(), 2, rng), HeuristicBot(3)]
    state = play_classic_hand(bots)
    assert state.result is not None
    assert len(state.tricks) == 12
    assert len(started) == 2  # one program per outside seat, kept for the whole hand
    assert all(process.poll() is not None for process in started)  # and ended by close()


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("illegal", r"answer '\w\w' is not legal here: choose one of \["),
        ("garbage", r"answer 'I play the ace' is not JSON"),
        ("die", r"cmd:.*tiny_bot.py die exited with status 3"),
        ("hang", r"cmd:.*tiny_bot.py hang no answer within 0\.5 s"),
    ],
)
def test_a_misbehaving_outside_bot_stops_the_game_naming_seat_decision_and_answer(started, mode, message):
    # Only the hanging bot is meant to run out of time, and only where it hangs (its first play):
    # starting the program and its bids get long enough on a busy machine.
    outside = make_bot(tiny_bot(mode), 0, random.Random(2), timeout=30)
    if mode == "hang":
        assert isinstance(outside, OutsideBot)
        assert outside.decide(bid_view("classic", WEAK_CLASSIC, (None, 20))) is None  # started, answering
        outside.timeout = 0.5
    bots = [outside] + [HeuristicBot(s) for s in (1, 2, 3)]
    with pytest.raises(BotError, match=message) as error:
        play_classic_hand(bots)
    assert str(error.value).startswith("seat 0, decision play:")
    assert len(started) == 1
    assert started[0].poll() is not None  # killed, not left behind


def test_an_outside_program_that_cannot_start_is_named():
    bot = make_bot("cmd:/no/such/bot --fast", 1, random.Random(2))
    view = bid_view("classic", WEAK_CLASSIC, (None, 20))
    with pytest.raises(BotError, match="seat 1, decision bid: cannot start /no/such/bot --fast"):
        bot.decide(dataclasses.replace(view, seat=1))


def test_a_stored_game_read_again_reuses_its_profile_and_other_rules_get_their_own():
    # A practice move or a table's bots read the game from JSON on every request: equal rules, new
    # objects. Building the profile (300 sampled hands) for each would cost more than the decision.
    from scorepad.engine.bots.heuristic import profile_of

    variant = get_variant("classic")
    first = profile_of(variant, dataclasses.replace(variant.defaults))
    again = profile_of(variant, dataclasses.replace(variant.defaults))
    assert again is first
    other = profile_of(
        variant, dataclasses.replace(variant.defaults, last_trick=variant.defaults.last_trick + 10)
    )
    assert other is not first
    assert other.total_points == first.total_points + 10
