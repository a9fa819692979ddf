"""Club night, the director's writes and reads: corrections leave a trail and re-score (a closed
round's results too), the bell rule, the clock, prizes, live standings from confirmed hands, and
club games in the players' history."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scorepad.models import ClubEvent, ClubResult, ClubRound, ClubTable, Correction, Game, Hand, TableHand
from scorepad.selectors.club_director import (
    event_by_standings_token,
    live_standings,
    recent_standings_fingerprint,
    standings_fingerprint,
    standings_token_of,
)
from scorepad.selectors.games import games_for_household, scoresheet
from scorepad.services import ServiceError
from scorepad.services.club_director import (
    bell_set,
    clock_set,
    hand_correct,
    hand_remove,
    hand_settle,
    prizes_choose,
    table_pin_change,
    table_unlock,
)
from scorepad.services.clubs import (
    round_close,
    table_hand_confirm,
    table_hand_dispute,
)
from scorepad.services.games import (
    ClubGameRefused,
    UndoneHand,
    game_delete,
    hand_delete,
    hand_edit,
    hand_record,
    hand_redo,
    hand_throw_in,
    hand_undo,
)
from tests.sample_games import CLUB_MADE, club_event, club_hand, numbered_pairs

pytestmark = pytest.mark.django_db

SET = {**CLUB_MADE, "bid": 50}  # short: set


@pytest.fixture
def roster():
    return ()


@pytest.fixture(autouse=True)
def _no_fingerprint_from_another_test(monkeypatch):
    """Each test's own fingerprints: a rolled-back database hands out the same event ids again."""
    monkeypatch.setattr("scorepad.selectors.club_director._recent_fingerprints", {})


def _fresh(event):
    return ClubEvent.objects.get(pk=event.pk)


def _playing(household, ann, prefix="P", **extra):
    """Two teams, round 1 started: one table."""
    event = club_event(
        household, ann, name="Tuesday club", pairs=numbered_pairs(2, prefix), started=True, **extra
    )
    return event, ClubTable.objects.get(round__event=event, round__number=1)


def _enter(table, number, data=CLUB_MADE, key=None, phone="p1"):
    return club_hand(table, number=number, data=data, phone=phone, entry_key=key or f"key-{number}-{phone}")


def _totals(table):
    return list(scoresheet(table.game).score.totals)


def test_a_correction_rescores_settles_the_hand_and_keeps_before_after_who_and_why(household, ann):
    event, table = _playing(household, ann)
    th = _enter(table, 0, SET)
    th = table_hand_dispute(
        table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1, reason="bid was 20"
    )
    assert _totals(table)[0] < 0  # set as entered

    correction = hand_correct(
        event=event,
        made_by=ann,
        hand_id=th.hand_id,
        version=th.hand.version,
        data=CLUB_MADE,
        dealer=None,
        reason="  they bid 20, not 50 ",
    )

    assert _totals(table) == [25, 15]
    assert TableHand.objects.get(pk=th.pk).state == TableHand.State.CONFIRMED
    assert correction.made_by == ann
    assert correction.reason == "they bid 20, not 50"
    assert correction.what == "Hand 1 at table 1, round 1 corrected"
    assert correction.before["entry"]["bid"] == 50
    assert correction.before["state"] == "disputed"
    assert correction.after["entry"]["bid"] == 20
    assert correction.after["state"] == "confirmed"


def test_a_stale_or_unexplained_correction_changes_nothing_and_leaves_no_trail(household, ann):
    event, table = _playing(household, ann)
    th = _enter(table, 0, SET)
    stale = th.hand.version
    hand_correct(
        event=event, made_by=ann, hand_id=th.hand_id, version=stale, data=CLUB_MADE, dealer=None, reason="a"
    )
    with pytest.raises(ServiceError, match="changed on another phone"):
        hand_correct(
            event=event, made_by=ann, hand_id=th.hand_id, version=stale, data=SET, dealer=None, reason="b"
        )
    with pytest.raises(ServiceError, match="Say why"):
        hand_correct(
            event=event, made_by=ann, hand_id=th.hand_id, version=stale + 1, data=SET, dealer=None, reason=" "
        )
    assert Correction.objects.count() == 1
    assert Hand.objects.get(pk=th.hand_id).bid == 20


def test_a_hand_of_another_event_is_refused(household, ann):
    event, _table = _playing(household, ann)
    _other, other_table = _playing(household, ann, prefix="Q")
    th = _enter(other_table, 0)
    with pytest.raises(ServiceError, match="no longer at its table"):
        hand_remove(event=event, made_by=ann, hand_id=th.hand_id, version=th.hand.version, reason="x")
    assert Hand.objects.filter(pk=th.hand_id).exists()


def test_correcting_a_closed_round_rewrites_its_results(household, ann):
    event, table = _playing(household, ann)
    th = _enter(table, 0, SET)
    table_hand_confirm(table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1)
    round_close(event=event, version=_fresh(event).version)
    assert ClubResult.objects.get(round__event=event, table=table, entrant__number=1).points < 0

    hand_correct(
        event=event,
        made_by=ann,
        hand_id=th.hand_id,
        version=th.hand.version,
        data=CLUB_MADE,
        dealer=None,
        reason="bid misread",
    )

    results = ClubResult.objects.filter(round__event=event).order_by("entrant__number")
    assert [(r.points, r.won) for r in results] == [(25, True), (15, False)]


def test_delete_and_stands_as_entered_are_in_the_trail(household, ann):
    event, table = _playing(household, ann)
    first, second = _enter(table, 0), _enter(table, 1)
    hand_remove(
        event=event, made_by=ann, hand_id=first.hand_id, version=first.hand.version, reason="dealt twice"
    )
    assert list(table.game.hands.values_list("number", flat=True)) == [0]  # the later hand moved up
    second.refresh_from_db()
    settled = hand_settle(
        event=event, made_by=ann, table_hand_id=second.pk, version=second.version, reason="ok"
    )
    with pytest.raises(ServiceError, match="since this page was opened"):
        hand_settle(event=event, made_by=ann, table_hand_id=second.pk, version=second.version, reason="ok")

    assert TableHand.objects.get(pk=second.pk).confirmed_by == "director"
    assert settled.before["state"] == "entered"
    assert settled.after["state"] == "confirmed"
    deleted = Correction.objects.get(after__isnull=True)
    assert deleted.what == "Hand 1 at table 1, round 1 deleted"
    assert deleted.before["entry"]["bid"] == 20


def _ring(table, minutes_ago=1):
    ClubRound.objects.filter(pk=table.round_id).update(
        ends_at=timezone.now() - timedelta(minutes=minutes_ago)
    )


def test_finish_at_the_bell_takes_the_hand_in_progress_then_no_more(household, ann):
    _event, table = _playing(household, ann)
    _enter(table, 0)
    TableHand.objects.update(entered_at=timezone.now() - timedelta(minutes=5))  # before the bell
    _ring(table)
    _enter(table, 1)  # the hand being played at the bell
    assert _enter(table, 1).hand.number == 1  # its resend is the same hand, not refused
    with pytest.raises(ServiceError, match="has entered the hand it was playing then"):
        _enter(table, 2)
    assert table.game.hands.count() == 2


def test_a_hand_after_the_bell_does_not_count_when_the_director_says_so(household, ann):
    event, table = _playing(household, ann)
    bell_set(event=event, version=event.version, bell=ClubEvent.Bell.VOID)
    _ring(table)
    with pytest.raises(ServiceError, match="does not count tonight"):
        _enter(table, 0)
    assert not table.game.hands.exists()


def test_the_clock_moves_the_bell_and_refuses_a_stale_page(household, ann):
    event, _table = _playing(household, ann)
    club_round = clock_set(event=event, version=event.version, minutes=15)
    left = (club_round.ends_at - timezone.now()).total_seconds()
    assert 14 * 60 < left <= 15 * 60
    with pytest.raises(ServiceError, match="out of date"):
        clock_set(event=event, version=event.version, minutes=5)
    with pytest.raises(ServiceError, match="1 to 240"):
        clock_set(event=event, version=_fresh(event).version, minutes=0)


def test_prizes_are_the_directors_choice(household, ann):
    event, _ = _playing(household, ann)
    event = prizes_choose(event=event, version=event.version, prizes=["high_average", "winners"])
    assert event.prizes == ["winners", "high_average"]
    with pytest.raises(ServiceError, match="Choose among"):
        prizes_choose(event=event, version=event.version, prizes=["best_dressed"])


def test_live_standings_count_only_confirmed_hands_and_change_on_confirmation(household, ann):
    event, table = _playing(household, ann)
    th = _enter(table, 0)
    before = standings_fingerprint(event.pk)
    assert [row.points for row in live_standings(event).rows] == [0, 0]  # waiting: not counted

    table_hand_confirm(table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1)

    assert standings_fingerprint(event.pk) != before
    live = live_standings(_fresh(event))
    assert live.round_number == 1
    assert [(row.label, row.points) for row in live.rows] == [("Team 1", 25), ("Team 2", 15)]
    assert event_by_standings_token(standings_token_of(event)) == event
    assert event_by_standings_token(standings_token_of(event) + "x") is None


def test_every_players_table_games_are_in_their_history(household, ann):
    _event, table = _playing(household, ann)
    _enter(table, 0)
    for seat in table.game.seats.select_related("player"):
        assert table.game in games_for_household(household, player=seat.player)


def test_a_fingerprint_is_shared_by_the_polls_of_a_moment_then_read_again(household, ann, monkeypatch):
    event, table = _playing(household, ann)
    th = _enter(table, 0)
    monkeypatch.setattr("scorepad.selectors.club_director.FINGERPRINT_SECONDS", 60)
    before = recent_standings_fingerprint(event.pk)
    table_hand_confirm(table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1)
    assert recent_standings_fingerprint(event.pk) == before  # within the moment: the same answer
    monkeypatch.setattr("scorepad.selectors.club_director.FINGERPRINT_SECONDS", 0)
    assert recent_standings_fingerprint(event.pk) == standings_fingerprint(event.pk) != before


def test_the_director_unlocks_a_table_and_the_trail_says_so(household, ann):
    event, table = _playing(household, ann)
    correction = table_unlock(event=event, made_by=ann, card_id=table.card_id, version=0, reason="")
    table.refresh_from_db()
    assert table.pin_unlocks == 1  # its wrong PINs are counted afresh
    assert correction.table == table
    assert correction.made_by == ann
    assert correction.what == "Table 1: unlocked"
    with pytest.raises(ServiceError, match="unlocked or given a new PIN on another screen"):
        table_unlock(event=event, made_by=ann, card_id=table.card_id, version=0, reason="")  # sent twice
    assert Correction.objects.count() == 1


def test_the_director_gives_a_table_a_new_pin_kept_out_of_the_trail(household, ann):
    event, table = _playing(household, ann)
    old = table.pin
    correction = table_pin_change(
        event=event, made_by=ann, card_id=table.card_id, version=0, reason="PIN seen"
    )
    table.refresh_from_db()
    assert table.pin != old
    assert table.pin_unlocks == 1
    assert correction.what == "Table 1: a new PIN"
    assert correction.reason == "PIN seen"
    assert old not in str(correction.before)
    assert table.pin not in str(correction.after)


def test_another_events_table_is_refused_in_words(household, ann):
    event, _ = _playing(household, ann)
    _, other = _playing(household, ann, prefix="Q")
    with pytest.raises(ServiceError, match="not a table of this event"):
        table_unlock(event=event, made_by=ann, card_id=other.card_id, version=0, reason="")
    assert not Correction.objects.exists()


def _confirmed(table):
    th = _enter(table, 0)
    return table_hand_confirm(table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1)


WRITES_BY_THE_SCOREPAD = {
    "edit": lambda game, hand: hand_edit(
        game=game, hand_id=hand.pk, version=hand.version, data={**CLUB_MADE, "bid": 50, "meld": [60, 5]}
    ),
    "delete": lambda game, hand: hand_delete(game=game, hand_id=hand.pk, version=hand.version),
    "undo": lambda game, hand: hand_undo(game=game, hand_id=hand.pk, version=hand.version),
    "redo": lambda game, hand: hand_redo(
        game=game, undone=UndoneHand(number=1, fields=dict(CLUB_MADE, meld=[60, 5]), revision=game.revision)
    ),
    "record": lambda game, hand: hand_record(game=game, number=1, data=CLUB_MADE),
    "throw in": lambda game, hand: hand_throw_in(game=game, number=1),
    "delete the game": lambda game, hand: game_delete(game=game),
}


@pytest.mark.parametrize("write", WRITES_BY_THE_SCOREPAD.values(), ids=WRITES_BY_THE_SCOREPAD.keys())
def test_a_club_tables_game_changes_only_through_the_table_and_the_director(household, ann, write):
    _event, table = _playing(household, ann)
    th = _confirmed(table)
    game = Game.objects.get(pk=table.game_id)
    hand = Hand.objects.get(pk=th.hand_id)
    revision = game.revision

    with pytest.raises(ClubGameRefused, match="the director's correction"):
        write(game, hand)

    assert list(Game.objects.get(pk=game.pk).hands.values_list("pk", "version", "bid", "meld")) == [
        (hand.pk, hand.version, 20, [10, 5])
    ]
    assert Game.objects.get(pk=game.pk).revision == revision
    assert TableHand.objects.get(pk=th.pk).state == TableHand.State.CONFIRMED
    # Only the confirmation is in the trail: no correction came of the refused write.
    assert list(Correction.objects.values_list("what", flat=True)) == ["Hand 1 at table 1, round 1 confirmed"]


def test_a_disputed_hand_is_the_directors_alone_and_the_trail_says_who_did_what(household, ann):
    event, table = _playing(household, ann)
    th = _enter(table, 0)
    th = table_hand_dispute(
        table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1, reason="meld was 10"
    )
    for phone, side, countersign in (("p1", 0, True), ("p2", 1, False)):
        with pytest.raises(ServiceError, match="Hand 1 is disputed: only the director settles it now"):
            table_hand_confirm(
                table=table,
                table_hand_id=th.pk,
                version=th.version,
                phone=phone,
                side=side,
                countersign=countersign,
            )
    with pytest.raises(ServiceError, match="already disputed: the director settles it"):
        table_hand_dispute(
            table=table, table_hand_id=th.pk, version=th.version, phone="p2", side=1, reason="again"
        )
    assert TableHand.objects.get(pk=th.pk).state == TableHand.State.DISPUTED
    with pytest.raises(ServiceError, match="Say why"):
        hand_settle(event=event, made_by=ann, table_hand_id=th.pk, version=th.version, reason=" ")
    hand_settle(event=event, made_by=ann, table_hand_id=th.pk, version=th.version, reason="we counted it")

    dispute, settled = reversed(Correction.objects.filter(event=event))
    assert dispute.made_by is None
    assert dispute.who == "P1a & P1b's phone"
    assert dispute.what == "Hand 1 at table 1, round 1 disputed"
    assert dispute.reason == "meld was 10"
    assert dispute.after["state"] == "disputed"
    assert settled.who == ann.get_username()
    assert settled.reason == "we counted it"
    assert settled.after["state"] == "confirmed"


def test_every_confirmation_is_in_the_trail_a_countersign_named_as_such(household, ann):
    event, table = _playing(household, ann)
    first, second = _enter(table, 0), _enter(table, 1, key="second")
    table_hand_confirm(table=table, table_hand_id=first.pk, version=first.version, phone="p2", side=1)
    table_hand_confirm(
        table=table, table_hand_id=second.pk, version=second.version, phone="p1", side=0, countersign=True
    )
    by_phone, countersigned = reversed(Correction.objects.filter(event=event))
    assert (by_phone.what, by_phone.who) == ("Hand 1 at table 1, round 1 confirmed", "P1a & P1b's phone")
    assert by_phone.before["state"] == "entered"
    assert by_phone.after["state"] == "confirmed"
    assert countersigned.who == "P1a & P1b, countersigned on P0a & P0b's phone"
