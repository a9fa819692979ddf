"""engine/answers.py: one reader and checker of answers for bots, outside programs and the web."""

from __future__ import annotations

import random

import pytest

from scorepad.engine.answers import AnswerError, parse_form, read_form, read_line, why_not_playable
from scorepad.engine.bots import BotError, make_bot
from scorepad.engine.cards import HEARTS, SPADES, parse_card
from scorepad.engine.game import deal_hands, new_game, seat_view
from scorepad.engine.simulate import MAX_BOT_CALLS, GameStopped, advance_until
from scorepad.engine.variants import get_variant
from scorepad.engine.view import BID, PASS, PLAY, TRUMP, Trick
from tests.engine.test_bots import cards, make_view, play_view


class PostedForm(dict):
    """A form as a web framework hands it over: repeated fields come back from ``getlist``."""

    def getlist(self, key):
        return self.get(key, [])


def test_a_form_and_a_line_read_the_same_answer():
    view = make_view(decision=PASS, hand="AD TD KD QD", legal=cards("AD TD KD QD"), pass_count=2)
    from_form = read_form(view, PostedForm({"pass": ["AD", "KD"]}))
    assert from_form == read_line(view, '{"pass": ["AD", "KD"]}') == cards("AD KD")
    assert read_form(view, {"pass": "AD, KD"}) == from_form  # one field of codes works too


@pytest.mark.parametrize(
    ("decision", "data", "answer"),
    [
        (BID, {"bid": "pass"}, None),
        (BID, {"bid": " 25 "}, 25),
        (TRUMP, {"trump": "♥"}, HEARTS),
        (TRUMP, {"trump": "s"}, SPADES),
        (PLAY, {"card": "TD"}, parse_card("TD")),
    ],
)
def test_parse_form_reads_each_decision(decision, data, answer):
    assert parse_form(make_view(decision=decision, hand="AD TD"), data) == answer


@pytest.mark.parametrize(
    ("decision", "data", "message"),
    [
        (BID, {}, 'is missing: the form needs a "bid" field'),
        (BID, {"bid": "lots"}, 'is not a whole number or "pass"'),
        (BID, {"bid": "21"}, "below the lowest bid allowed now, 23"),
        (PLAY, {"card": "ZZ"}, "unknown card 'ZZ'"),
        (PLAY, {"card": "JD"}, "is not legal here"),
        (PASS, {"pass": "AD"}, "must be exactly 2 cards"),
    ],
)
def test_read_form_refuses_what_a_bot_would_be_refused(decision, data, message):
    view = make_view(
        decision=decision, hand="AD TD JD", legal=(None, 23) if decision == BID else cards("AD TD")
    )
    if decision == PASS:
        view = make_view(decision=PASS, hand="AD TD JD", legal=cards("AD TD JD"), pass_count=2)
    with pytest.raises(AnswerError, match=message):
        read_form(view, data)


@pytest.mark.parametrize("variant_id", ["classic", "double-deck", "six-handed"])
def test_a_forced_dealers_one_legal_answer_is_the_variants_minimum(variant_id):
    variant = get_variant(variant_id)
    state = new_game(variant, variant.defaults, random.Random(1))
    while state.to_act != state.dealer:
        state.push(None)
    view = seat_view(state, state.dealer)
    minimum = variant.defaults.min_bid
    assert view.legal == (minimum,)
    assert read_line(view, f'{{"bid": {minimum}}}') == minimum
    higher = minimum + variant.defaults.next_bid_step(minimum)
    with pytest.raises(AnswerError, match=f"the dealer must bid exactly {minimum}"):
        read_line(view, f'{{"bid": {higher}}}')
    with pytest.raises(AnswerError, match="the dealer is forced to bid"):
        read_form(view, {"bid": "pass"})


@pytest.mark.parametrize(
    ("variant_id", "most"), [("classic", 1013), ("double-deck", 2046), ("six-handed", 5100)]
)
def test_a_bid_above_what_a_side_can_score_in_one_hand_is_refused(variant_id, most):
    view = make_view(variant_id, decision=BID, legal=(None, 50))
    assert read_form(view, {"bid": str(most)}) == most
    with pytest.raises(AnswerError, match=rf"is more than a side can score in one hand \({most}\)"):
        read_form(view, {"bid": str(most + 10)})


def test_a_bid_of_hundreds_of_digits_is_refused_by_its_length_from_a_line_or_a_form():
    view = make_view(decision=BID, legal=(None, 20))
    with pytest.raises(AnswerError, match="answer 'a number of about 401 digits' is more than") as line:
        read_line(view, '{"bid": 1%s}' % ("0" * 400))
    with pytest.raises(AnswerError, match="about 401 digits") as form:
        read_form(view, {"bid": "1" + "0" * 400})
    assert line.value.reason == form.value.reason


def test_a_bots_refusal_is_the_same_error():
    assert issubclass(BotError, AnswerError)


def test_a_refused_card_says_why_in_a_players_words():
    follow = play_view("AD TD JD KS", legal="AD TD", trick=Trick(1, cards("QD 9D KD")))
    assert (
        why_not_playable(follow, parse_card("JD"))
        == "You must follow suit (diamonds) and beat the K♦ if you can."
    )
    assert why_not_playable(follow, parse_card("KS")).startswith("You must follow suit (diamonds)")
    assert why_not_playable(follow, parse_card("AD")) is None
    assert why_not_playable(follow, parse_card("AH")) == "That card is not in your hand."


def test_advance_until_stops_at_the_humans_seat_and_lists_the_bots_moves_in_order():
    variant = get_variant("classic")
    state = new_game(variant, variant.defaults, random.Random(3))
    bots = {seat: make_bot("heuristic", seat, random.Random(seat)) for seat in (1, 2, 3)}
    moves = advance_until(state, bots, stop_at={0})
    assert state.to_act == 0 or state.decision is None
    assert [move.seat for move in moves] == [(state.dealer + 1 + i) % 4 for i in range(len(moves))]
    assert all(move.decision == BID for move in moves)


def test_advance_until_plays_a_whole_hand_without_a_stop():
    variant = get_variant("six-handed")
    hands = [variant.deck()[seat * 8 : seat * 8 + 8] for seat in range(6)]
    state = deal_hands(variant, variant.defaults, 0, hands)
    bots = [make_bot("heuristic", seat, random.Random(seat)) for seat in range(6)]
    moves = advance_until(state, bots)
    assert state.decision is None
    assert sum(move.decision == PLAY for move in moves) == 48
    assert seat_view(state, 0).decision == "done"


class AlwaysRaises:
    """A bot that bids the least bid at every call: with four of them an auction never ends."""

    name = "always-raises"

    def decide(self, view):
        return view.least_bid

    def close(self) -> None:
        pass


def test_advance_until_stops_an_auction_the_bots_never_end():
    variant = get_variant("classic")
    state = new_game(variant, variant.defaults, random.Random(3))
    with pytest.raises(GameStopped, match=f"more than {MAX_BOT_CALLS} calls in one auction"):
        advance_until(state, [AlwaysRaises() for _ in range(4)])
    assert len(state.auction) == MAX_BOT_CALLS  # every call the guard let through was a raise
