"""The scorepad's writes: each atomic, each re-scoring the game and keeping its flags in step."""

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from scorepad.engine.scoring import Problem
from scorepad.models import Game, Hand, Invite
from scorepad.selectors.games import scoresheet
from scorepad.services import ServiceError
from scorepad.services import games as games_service
from scorepad.services.games import (
    CorrectionAlreadyMade,
    GameOver,
    HandAlreadyRecorded,
    HandConflict,
    HandRefused,
    StaleCorrection,
    game_start,
    hand_delete,
    hand_edit,
    hand_preview,
    hand_record,
    hand_redo,
    hand_throw_in,
    hand_undo,
)
from scorepad.services.households import household_create, invite_accept, invite_create, player_create

pytestmark = pytest.mark.django_db

# RULES §9.3/§9.4's example: side 1 bids 55 and is set; then a no-marriage forfeit.
SET_HAND = {"bidder": 1, "bid": 55, "trump": "H", "meld": [24, 31], "tricks": [28, 22]}
NO_MARRIAGE = {"bidder": 2, "bid": 50, "trump": None, "meld": [0, 26], "tricks": None}


@pytest.fixture
def roster():
    """These tests seat players of their own: Ann's household starts with none."""
    return ()


def _players(household, *names):
    return [player_create(household=household, name=name) for name in names]


@pytest.fixture
def double_deck(household):
    players = _players(household, "Ann", "Bob", "Cat", "Dan")
    return game_start(
        household=household, variant_id="double-deck", overrides={}, players=players, first_dealer=0
    )


@pytest.fixture
def six_handed(household):
    players = _players(household, "P1", "P2", "P3", "P4", "P5", "P6")
    return game_start(
        household=household,
        variant_id="six-handed",
        overrides={"target": 500},
        players=players,
        first_dealer=5,
    )


def six(bidder, meld, tricks, bid=50):
    return {"bidder": bidder, "bid": bid, "trump": "S", "meld": meld, "tricks": tricks}


# ---- households ----------------------------------------------------------------------------------


def test_household_creator_is_its_first_member(ann, household):
    assert list(household.members.all()) == [ann]


def test_invite_link_works_once(household, ann):
    invite = invite_create(household=household, user=ann)
    bea = User.objects.create_user("bea", password="pw-bea-12345")
    cy = User.objects.create_user("cy", password="pw-cy-123456")
    assert invite_accept(token=invite.token, user=bea) == household
    with pytest.raises(ServiceError, match="already been used"):
        invite_accept(token=invite.token, user=cy)
    assert set(household.members.values_list("username", flat=True)) == {"ann", "bea"}
    assert Invite.objects.get().used_by == bea


def test_a_member_opening_an_invite_leaves_it_for_the_invitee(household, ann):
    invite = invite_create(household=household, user=ann)
    assert invite_accept(token=invite.token, user=ann) == household
    bea = User.objects.create_user("bea", password="pw-bea-12345")
    invite_accept(token=invite.token, user=bea)
    assert Invite.objects.get().used_by == bea


def test_unknown_invite_token_is_refused(ann):
    with pytest.raises(ServiceError, match="not valid"):
        invite_accept(token="nope", user=ann)


def test_roster_refuses_a_duplicate_name_whatever_its_case(household):
    player_create(household=household, name="Ann")
    with pytest.raises(ServiceError, match="already on the roster"):
        player_create(household=household, name=" ann ")
    assert household.players.count() == 1


# ---- starting a game -----------------------------------------------------------------------------


def test_game_start_stores_only_the_settings_that_differ(household):
    players = _players(household, "A", "B", "C", "D")
    game = game_start(
        household=household,
        variant_id="classic",
        overrides={"target": 50, "min_bid": 20, "bid_increment": 5},
        players=players,
        first_dealer=2,
    )
    assert game.settings == {"target": 50, "bid_increment": 5}
    assert [seat.player.name for seat in game.seats.all()] == ["A", "B", "C", "D"]
    assert game.record()["settings"] == {"target": 50, "bid_increment": 5}


@pytest.mark.parametrize(
    ("names", "message"),
    [(("A", "B", "C"), "seats 4 players, not 3"), (("A", "B", "C", "D", "E"), "seats 4 players, not 5")],
)
def test_game_start_refuses_the_wrong_number_of_players(household, names, message):
    with pytest.raises(ServiceError, match=message):
        game_start(
            household=household,
            variant_id="classic",
            overrides={},
            players=_players(household, *names),
            first_dealer=0,
        )
    assert Game.objects.count() == 0


def test_six_handed_refuses_a_seventh_player(household):
    players = _players(household, *"ABCDEFG")
    with pytest.raises(ServiceError, match="seats 6 players, not 7"):
        game_start(
            household=household, variant_id="six-handed", overrides={}, players=players, first_dealer=0
        )


def test_game_start_refuses_one_player_in_two_seats(household):
    a, b, c = _players(household, "A", "B", "C")
    with pytest.raises(ServiceError, match="A can sit in only one seat"):
        game_start(
            household=household, variant_id="classic", overrides={}, players=[a, b, c, a], first_dealer=0
        )
    assert Game.objects.count() == 0


def test_game_start_refuses_another_households_player(household, ann):
    other = household_create(user=ann, name="Joneses")
    players = _players(household, "A", "B", "C") + _players(other, "Zed")
    with pytest.raises(ServiceError, match="Zed is not on this household's roster"):
        game_start(household=household, variant_id="classic", overrides={}, players=players, first_dealer=0)


def test_game_start_refuses_a_bad_setting_by_name(household):
    with pytest.raises(ServiceError, match="pass_cards"):
        game_start(
            household=household,
            variant_id="classic",
            overrides={"pass_cards": 2},
            players=_players(household, "A", "B", "C", "D"),
            first_dealer=0,
        )
    assert Game.objects.count() == 0


# ---- recording hands -----------------------------------------------------------------------------


def test_hand_record_scores_the_rules_example(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    state = hand_record(game=double_deck, number=1, data=NO_MARRIAGE)
    assert [row.scores for row in state.rows] == [[52, -55], [-50, 26]]
    assert list(state.score.totals) == [2, -29]
    assert state.rows[0].made is False
    assert state.rows[1].played is False
    assert state.rows[1].trump is None
    assert double_deck.hands.get(number=1).tricks is None


def test_a_refused_hand_saves_nothing_and_names_each_field(double_deck):
    bad = {"bidder": 1, "bid": 40, "trump": "H", "meld": [24, -1], "tricks": [28, 20]}
    with pytest.raises(HandRefused) as refused:
        hand_record(game=double_deck, number=0, data=bad)
    assert refused.value.errors == [
        Problem("bid", "40 is under the minimum bid of 50"),
        Problem("meld", "has -1; it cannot be negative", side=1),
        Problem("tricks", "add up to 48; a hand's trick points add up to 50"),
    ]
    assert str(refused.value).startswith("40 is under the minimum bid of 50; side 1 has -1; it cannot")
    assert Hand.objects.count() == 0


def test_tricks_that_do_not_add_up_are_refused(double_deck):
    with pytest.raises(HandRefused) as refused:
        hand_record(game=double_deck, number=0, data={**SET_HAND, "tricks": [28, 21]})
    assert refused.value.errors == [Problem("tricks", "add up to 49; a hand's trick points add up to 50")]
    assert Hand.objects.count() == 0


def test_the_same_hand_sent_twice_is_recorded_once(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    with pytest.raises(HandAlreadyRecorded, match="Hand 1 was already recorded"):
        hand_record(game=double_deck, number=0, data=SET_HAND)
    assert double_deck.hands.count() == 1
    # The refusal left the transaction usable: the next hand still records.
    hand_record(game=double_deck, number=1, data=NO_MARRIAGE)
    assert double_deck.hands.count() == 2


def test_an_entry_sent_again_with_its_key_answers_with_the_stored_hand_and_adds_none(double_deck):
    first = hand_record(game=double_deck, number=0, data=SET_HAND, entry_key="phone-entry-1")
    again = hand_record(game=double_deck, number=0, data=SET_HAND, entry_key="phone-entry-1")
    assert double_deck.hands.count() == 1
    assert double_deck.hands.get().entry_key == "phone-entry-1"
    assert [row.scores for row in again.rows] == [row.scores for row in first.rows] == [[52, -55]]
    double_deck.refresh_from_db()
    assert double_deck.revision == first.game.revision  # the resend wrote nothing


def test_an_entry_resent_after_the_game_moved_on_is_still_the_one_hand(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND, entry_key="phone-entry-1")
    hand_record(game=double_deck, number=1, data=NO_MARRIAGE, entry_key="phone-entry-2")
    hand_record(game=double_deck, number=0, data=SET_HAND, entry_key="phone-entry-1")
    assert list(double_deck.hands.values_list("entry_key", flat=True)) == ["phone-entry-1", "phone-entry-2"]


def test_another_phones_entry_for_a_taken_hand_is_a_conflict_naming_the_stored_hand(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND, entry_key="phone-a-entry")
    with pytest.raises(HandConflict, match="Hand 1 was recorded on another phone") as conflict:
        hand_record(game=double_deck, number=0, data=NO_MARRIAGE, entry_key="phone-b-entry")
    assert conflict.value.stored.entry_key == "phone-a-entry"
    assert conflict.value.stored.bid == 55
    assert double_deck.hands.count() == 1


def test_a_send_that_loses_the_race_to_the_same_entry_finds_its_hand_and_adds_none(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND, entry_key="phone-entry-1")
    # Past the first look-up (the other send had not committed yet), the insert meets the constraint.
    fields = {"dealer": 0, **Hand.fields_from_entry(SET_HAND)}
    assert games_service._append(double_deck, 0, fields, "phone-entry-1") is False
    assert double_deck.hands.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs row locks across connections")
def test_two_sends_of_one_entry_at_the_same_instant_store_one_hand_and_both_succeed(double_deck):
    start = threading.Barrier(2)
    answers: list[object] = []

    def send() -> None:
        start.wait()
        try:
            sheet = hand_record(game=double_deck, number=0, data=SET_HAND, entry_key="phone-entry-1")
            answers.append(sheet.next_number)
        except Exception as error:  # the test shows whatever came out
            answers.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [1, 1]
    assert double_deck.hands.count() == 1


def test_a_thrown_in_deal_sent_again_with_its_key_is_stored_once(double_deck):
    hand_throw_in(game=double_deck, number=0, entry_key="phone-entry-1")
    hand_throw_in(game=double_deck, number=0, entry_key="phone-entry-1")
    assert double_deck.hands.count() == 1


def test_a_hand_number_past_the_next_one_is_refused(double_deck):
    with pytest.raises(ServiceError, match="before hand 1"):
        hand_record(game=double_deck, number=3, data=SET_HAND)
    assert Hand.objects.count() == 0


def test_game_end_sets_finished_and_winners_and_refuses_more_hands(six_handed):
    hand_record(game=six_handed, number=0, data=six(0, [150, 150, 0, 0, 0, 0], [100, 100, 10, 10, 10, 10]))
    state = hand_record(
        game=six_handed, number=1, data=six(1, [150, 150, 0, 0, 0, 0], [100, 100, 10, 10, 10, 10])
    )
    assert state.finished
    assert list(state.score.totals[:2]) == [500, 500]
    assert list(state.score.winners) == [0, 1]  # tied at the target: co-winners (six-handed default)
    assert state.winner_names == ["P1", "P2"]
    six_handed.refresh_from_db()
    assert six_handed.finished
    assert six_handed.winner_sides == [0, 1]
    with pytest.raises(GameOver):
        hand_record(game=six_handed, number=2, data=six(2, [0] * 6, [40] * 6))
    assert six_handed.hands.count() == 2


def test_dealer_moves_one_seat_clockwise_each_hand(six_handed):
    assert scoresheet(six_handed).next_dealer == 5
    state = hand_record(game=six_handed, number=0, data=six(0, [0] * 6, [40] * 6))
    assert state.next_dealer == 0
    assert state.rows[0].dealer == "P6"


# ---- corrections ---------------------------------------------------------------------------------


def named(game, number):
    """What a page shows of hand ``number``: its id and version, as a correction posts them back."""
    hand = game.hands.get(number=number)
    return {"hand_id": hand.pk, "version": hand.version}


def test_editing_a_hand_rescores_the_later_hands(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    hand_record(game=double_deck, number=1, data=NO_MARRIAGE)
    made = {**SET_HAND, "tricks": [20, 30]}  # side 1 now makes 31 + 30 = 61 ≥ 55
    state = hand_edit(game=double_deck, **named(double_deck, 0), data=made)
    assert state.rows[0].scores == [44, 61]
    assert state.rows[1].totals == [44 - 50, 61 + 26]
    assert double_deck.hands.get(number=0).tricks == [20, 30]
    assert double_deck.hands.get(number=0).version == 2


def test_a_refused_edit_changes_nothing(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    with pytest.raises(HandRefused):
        hand_edit(game=double_deck, **named(double_deck, 0), data={**SET_HAND, "bid": 10})
    assert double_deck.hands.get(number=0).bid == 55


def test_an_edit_made_from_an_older_version_is_refused_in_words(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    seen = named(double_deck, 0)
    hand_edit(game=double_deck, **seen, data={**SET_HAND, "tricks": [20, 30]})  # the other phone
    with pytest.raises(StaleCorrection, match="Hand 1 was changed on another phone since you opened it"):
        hand_edit(game=double_deck, **seen, data={**SET_HAND, "bid": 60})
    assert double_deck.hands.get(number=0).bid == 55


def test_a_correction_sent_again_after_its_answer_was_lost_is_answered_as_made(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    hand_record(game=double_deck, number=1, data=NO_MARRIAGE)
    seen = named(double_deck, 0)
    made = {**SET_HAND, "tricks": [20, 30]}
    hand_edit(game=double_deck, **seen, data=made, dealer=2)
    revision = Game.objects.get(pk=double_deck.pk).revision
    with pytest.raises(CorrectionAlreadyMade, match="Hand 1 already reads as this correction: nothing was"):
        hand_edit(game=double_deck, **seen, data=made, dealer=2)  # the same phone, the same correction
    assert double_deck.hands.get(number=0).version == 2  # applied once
    assert Game.objects.get(pk=double_deck.pk).revision == revision
    with pytest.raises(StaleCorrection, match="changed on another phone"):  # another dealer: not this one
        hand_edit(game=double_deck, **seen, data=made, dealer=1)


def test_an_edit_names_its_hand_by_id_so_an_earlier_delete_cannot_redirect_it(double_deck):
    for number in range(3):
        hand_record(game=double_deck, number=number, data={**SET_HAND, "bid": 55 + 5 * number})
    third = named(double_deck, 2)  # "Correct hand 3" left open on one phone
    hand_delete(game=double_deck, **named(double_deck, 0))  # another phone deletes hand 1
    hand_edit(game=double_deck, **third, data={**SET_HAND, "bid": 70})
    assert list(double_deck.hands.values_list("bid", flat=True)) == [60, 70]


def test_an_edit_that_ends_the_game_before_later_hands_is_refused(six_handed):
    hand_record(game=six_handed, number=0, data=six(0, [0] * 6, [40] * 6))
    hand_record(game=six_handed, number=1, data=six(1, [0] * 6, [40] * 6))
    winning = six(0, [300, 0, 0, 0, 0, 0], [240, 0, 0, 0, 0, 0])
    with pytest.raises(HandRefused, match="won before hand 2"):
        hand_edit(game=six_handed, **named(six_handed, 0), data=winning)
    assert six_handed.hands.get(number=0).meld == [0] * 6
    six_handed.refresh_from_db()
    assert not six_handed.finished


def test_deleting_a_hand_renumbers_the_later_ones_and_keeps_their_dealers(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    hand_record(game=double_deck, number=1, data=NO_MARRIAGE)
    state = hand_delete(game=double_deck, **named(double_deck, 0))
    assert list(double_deck.hands.values_list("number", "bidder", "dealer")) == [(0, 2, 1)]
    assert list(state.score.totals) == [-50, 26]
    assert state.next_dealer == 2  # the seat after hand 2's dealer, not a shifted rotation


def test_a_resent_or_concurrent_delete_is_refused_and_deletes_nothing_else(double_deck):
    for number in range(3):
        hand_record(game=double_deck, number=number, data=SET_HAND)
    second = named(double_deck, 1)
    hand_delete(game=double_deck, **second)
    with pytest.raises(StaleCorrection, match="no longer in the game"):
        hand_delete(game=double_deck, **second)  # the same confirmation sent again
    assert double_deck.hands.count() == 2


def test_two_phones_undoing_the_same_hand_undo_it_once(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    hand_record(game=double_deck, number=1, data=SET_HAND)
    both_see = named(double_deck, 1)  # both phones show "Undo hand 2"
    hand_undo(game=double_deck, **both_see)
    with pytest.raises(StaleCorrection, match="no longer in the game"):
        hand_undo(game=double_deck, **both_see)
    assert list(double_deck.hands.values_list("number", flat=True)) == [0]


def test_undo_of_a_hand_that_is_no_longer_the_last_is_refused(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    seen = named(double_deck, 0)
    hand_record(game=double_deck, number=1, data=SET_HAND)  # another phone records hand 2
    with pytest.raises(StaleCorrection, match="Hand 1 is no longer the last hand: hand 2 was recorded"):
        hand_undo(game=double_deck, **seen)
    assert double_deck.hands.count() == 2


def test_undo_removes_the_last_hand_and_reopens_a_won_game(six_handed):
    hand_record(game=six_handed, number=0, data=six(0, [150, 150, 0, 0, 0, 0], [100, 100, 10, 10, 10, 10]))
    hand_record(game=six_handed, number=1, data=six(1, [150, 150, 0, 0, 0, 0], [100, 100, 10, 10, 10, 10]))
    state, _undone = hand_undo(game=six_handed, **named(six_handed, 1))
    assert state.next_number == 1
    assert not state.finished
    six_handed.refresh_from_db()
    assert (six_handed.finished, six_handed.winner_sides) == (False, [])


def test_redo_puts_back_exactly_what_was_undone(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND, dealer=2)
    before = double_deck.hands.values("bidder", "bid", "trump", "meld", "tricks", "dealer").get()
    _state, undone = hand_undo(game=double_deck, **named(double_deck, 0))
    state = hand_redo(game=double_deck, undone=undone)
    assert double_deck.hands.values("bidder", "bid", "trump", "meld", "tricks", "dealer").get() == before
    assert list(state.score.totals) == [52, -55]


def test_redo_is_refused_once_the_game_has_moved_on(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)
    _state, undone = hand_undo(game=double_deck, **named(double_deck, 0))
    hand_record(game=double_deck, number=0, data=NO_MARRIAGE)  # another phone records a hand 1
    with pytest.raises(StaleCorrection, match="can't be redone"):
        hand_redo(game=double_deck, undone=undone)
    assert list(double_deck.hands.values_list("bidder", flat=True)) == [2]


# ---- the dealer ----------------------------------------------------------------------------------


def test_a_dealer_override_is_stored_and_the_deal_passes_on_from_it(double_deck):
    state = hand_record(game=double_deck, number=0, data=SET_HAND, dealer=2)
    assert (state.rows[0].dealer_seat, state.next_dealer) == (2, 3)


def test_a_thrown_in_deal_scores_nothing_and_passes_the_deal(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND)  # dealt by seat 0
    state = hand_throw_in(game=double_deck, number=1, dealer=1)
    hand_record(game=double_deck, number=2, data=NO_MARRIAGE)
    state = scoresheet(double_deck)
    assert [row.thrown_in for row in state.rows] == [False, True, False]
    assert [row.dealer_seat for row in state.rows] == [0, 1, 2]
    assert state.rows[1].totals == [52, -55]
    assert list(state.score.totals) == [2, -29]  # §9.4: the thrown-in deal changes no score
    assert len(double_deck.record()["hands"]) == 2  # §9.3 has no thrown-in hand: left out


def test_a_thrown_in_deal_without_a_named_dealer_is_dealt_by_the_seat_after_the_last_dealer(double_deck):
    hand_record(game=double_deck, number=0, data=SET_HAND, dealer=2)
    state = hand_throw_in(game=double_deck, number=1)
    assert [row.dealer_seat for row in state.rows] == [2, 3]


def test_a_thrown_in_deal_is_refused_twice_like_any_hand(double_deck):
    hand_throw_in(game=double_deck, number=0, dealer=0)
    with pytest.raises(HandAlreadyRecorded):
        hand_throw_in(game=double_deck, number=0, dealer=0)


def test_the_preview_is_a_dry_run_of_recording_the_same_hand(double_deck):
    preview = hand_preview(game=double_deck, number=0, data=SET_HAND)
    assert Hand.objects.count() == 0  # nothing saved
    sheet = hand_record(game=double_deck, number=0, data=SET_HAND)
    assert preview.score == sheet.score.hands[0].score
    with pytest.raises(HandRefused) as refused:
        hand_preview(game=double_deck, number=1, data={**SET_HAND, "bid": 40})
    assert refused.value.errors == [Problem("bid", "40 is under the minimum bid of 50")]


def test_a_refusal_is_structured_so_the_form_names_the_side_without_parsing_words():
    problem = Problem("took_trick", "has 10 trick points, so it took a trick", side=2)
    assert problem.message == "side 2 has 10 trick points, so it took a trick"
    unplayed = Problem("tricks", "the bidder has no marriage, so the hand is not played", unplayed=True)
    assert unplayed.message == "must be null: the bidder has no marriage, so the hand is not played"
