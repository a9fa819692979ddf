"""Practice games: the bots play on to the player's seat, every write names its version, undo, history."""

from __future__ import annotations

import os
import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from scorepad import bot_pool
from scorepad.engine import practice as practice_bots
from scorepad.engine.answers import ANSWER_KEYS, answer_json
from scorepad.engine.bots import make_bot
from scorepad.engine.game import from_json, seat_view
from scorepad.models import PracticeGame
from scorepad.practice_selectors import practice_hint, practice_statistics, practice_table
from scorepad.services import practice as practice_service
from scorepad.services.practice import (
    STALE,
    PracticeAlreadyStarted,
    PracticeBusy,
    PracticeRefused,
    practice_act,
    practice_next_hand,
    practice_rematch,
    practice_start,
    practice_undo,
)

pytestmark = pytest.mark.django_db


def hinted(game: PracticeGame) -> dict[str, str]:
    """The form the `heuristic` bot would post in the player's seat (it takes no time to think,
    so a game played this way is the same every time)."""
    view = seat_view(from_json(game.state), 0)
    answer = answer_json(view.decision, make_bot("heuristic", 0, random.Random(0)).decide(view))
    value = "pass" if answer is None else " ".join(answer) if isinstance(answer, list) else str(answer)
    return {ANSWER_KEYS[view.decision]: value}


def play_out_hand(game: PracticeGame) -> PracticeGame:
    while from_json(game.state).result is None:
        game = practice_act(game=game, version=game.version, data=hinted(game)).game
    return game


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_a_new_game_waits_for_the_player_or_an_ended_hand(variant):
    game = practice_start(user=None, variant_id=variant, seed=7)
    state = from_json(game.state)
    assert state.to_act == 0 or state.result is not None
    assert game.version == 1


def test_the_same_seed_deals_and_plays_the_same_game():
    one = play_out_hand(practice_start(user=None, variant_id="classic", seed=11))
    two = play_out_hand(practice_start(user=None, variant_id="classic", seed=11))
    assert one.state == two.state
    assert one.hands == two.hands


def test_a_whole_hand_is_recorded_with_totals_and_reasons():
    game = play_out_hand(practice_start(user=None, variant_id="classic", seed=3))
    [entry] = game.hands
    assert entry["totals"] == entry["scores"]
    assert len(entry["reasons"]) == 2
    table = practice_table(game)
    assert table.hand_over
    assert table.result_words
    game = practice_next_hand(game=game, version=game.version).game
    assert from_json(game.state).hand_number == 1
    assert game.undo == []


def test_a_double_tap_is_refused_and_changes_nothing():
    game = practice_start(user=None, variant_id="classic", seed=5)
    answer = hinted(game)
    tapped_on = game.version
    game = practice_act(game=game, version=tapped_on, data=answer).game
    after_first = PracticeGame.objects.get(pk=game.pk)
    with pytest.raises(PracticeRefused, match=STALE):
        practice_act(game=game, version=tapped_on, data=answer)
    again = PracticeGame.objects.get(pk=game.pk)
    assert (again.state, again.version, again.undo) == (
        after_first.state,
        after_first.version,
        after_first.undo,
    )


def test_an_illegal_card_is_refused_in_words_and_changes_nothing():
    game = practice_start(user=None, variant_id="classic", seed=5)
    while from_json(game.state).decision != "play" or not _illegal_card(game):
        game = practice_act(game=game, version=game.version, data=hinted(game)).game
        if from_json(game.state).result is not None:
            game = practice_next_hand(game=game, version=game.version).game
    before = (game.state, game.version)
    with pytest.raises(PracticeRefused, match=r"You must|first lead|trump"):
        practice_act(game=game, version=game.version, data={"card": _illegal_card(game)})
    game.refresh_from_db()
    assert (game.state, game.version) == before


def _illegal_card(game: PracticeGame) -> str | None:
    table = practice_table(game)
    return next((card.code for row in table.hand for card in row.cards if not card.playable), None)


def test_undo_goes_back_to_the_players_previous_decision():
    game = practice_start(user=None, variant_id="classic", seed=5)
    start = game.state
    game = practice_act(game=game, version=game.version, data=hinted(game)).game
    assert game.state != start
    game = practice_undo(game=game, version=game.version)
    assert game.state == start
    assert game.undo == []
    with pytest.raises(PracticeRefused, match="Nothing to undo"):
        practice_undo(game=game, version=game.version)


def test_a_stale_undo_is_refused():
    game = practice_start(user=None, variant_id="classic", seed=5)
    game = practice_act(game=game, version=game.version, data=hinted(game)).game
    with pytest.raises(PracticeRefused, match=STALE):
        practice_undo(game=game, version=game.version - 1)


def test_undo_after_the_last_card_takes_the_hand_back_out_of_the_record():
    game = play_out_hand(practice_start(user=None, variant_id="six-handed", seed=2))
    assert len(game.hands) == 1
    game = practice_undo(game=game, version=game.version)
    assert game.hands == []
    assert from_json(game.state).result is None


def test_only_the_listed_strengths_may_be_started():
    with pytest.raises(PracticeRefused, match="Unknown bot strength"):
        practice_start(user=None, variant_id="classic", strength="cmd:rm -rf /")


START_TOKEN = "one-form-0123456789"


def test_a_start_form_sent_twice_starts_one_game():
    first = practice_start(user=None, variant_id="classic", start_token=START_TOKEN)
    with pytest.raises(PracticeAlreadyStarted, match="already started") as refused:
        practice_start(user=None, variant_id="classic", start_token=START_TOKEN)
    assert refused.value.game == first
    assert PracticeGame.objects.count() == 1


def test_a_start_form_sent_twice_at_once_starts_one_game(monkeypatch):
    """The second post passes the first check while the first is still playing its bots: the
    database's unique token refuses it when it saves."""
    play_on, rivals = practice_service._play_on, []

    def rival_saves_first(game: PracticeGame, state) -> None:
        monkeypatch.setattr(practice_service, "_play_on", play_on)
        rivals.append(practice_start(user=None, variant_id="classic", start_token=START_TOKEN))
        play_on(game, state)

    monkeypatch.setattr(practice_service, "_play_on", rival_saves_first)
    with pytest.raises(PracticeAlreadyStarted) as refused:
        practice_start(user=None, variant_id="classic", start_token=START_TOKEN)
    assert refused.value.game.pk == rivals[0].pk
    assert PracticeGame.objects.count() == 1


def test_statistics_count_wins_bids_made_and_the_margin_per_hand():
    game = PracticeGame(variant="classic", strength="heuristic", seed=1, state={}, finished=True, won=True)
    game.hands = [
        {"bidder": 0, "made": True, "scores": [30, 10]},
        {"bidder": 2, "made": False, "scores": [-25, 14]},
        {"bidder": 1, "made": True, "scores": [8, 30]},
    ]
    stats = practice_statistics([game])
    assert (stats.won, stats.bids, stats.bids_made) == (1, 2, 1)
    assert stats.margin == pytest.approx((20 - 39 - 22) / 3)


def test_the_hint_uses_the_bots_own_reason_when_it_explains_itself(monkeypatch):
    game = practice_start(user=None, variant_id="classic", seed=5)

    class Explaining:
        name = "explaining"

        def explain(self, view):
            return None, "a pass keeps the partner's bid alive"

        def decide(self, view):
            raise AssertionError("explain answers, decide is not asked")

    monkeypatch.setattr("scorepad.practice_selectors.make_bot", lambda *args, **kwargs: Explaining())
    hint = practice_hint(game)
    assert (hint.words, hint.reason, hint.value) == ("Pass", "a pass keeps the partner's bid alive", "pass")


def test_without_an_explanation_the_hint_reason_comes_from_the_view(monkeypatch):
    game = practice_start(user=None, variant_id="classic", seed=5)
    monkeypatch.setattr("scorepad.practice_selectors.HINT_BOT", "heuristic")  # a bot without explain
    hint = practice_hint(game)
    assert hint.words.startswith(("Bid", "Pass"))
    assert "your meld with" in hint.reason


def test_a_whole_game_ends_with_the_winners_and_offers_no_next_hand():
    game = practice_start(user=None, variant_id="classic", overrides={"target": 30}, seed=9)
    while not game.finished:
        game = play_out_hand(game)
        if not game.finished:
            game = practice_next_hand(game=game, version=game.version).game
    table = practice_table(game)
    assert table.winners
    assert game.won == ("You & Partner" in table.winners)
    with pytest.raises(PracticeRefused, match="The game is over"):
        practice_next_hand(game=game, version=game.version)
    rematch = practice_rematch(game=game, version=game.version, user=None)
    assert (rematch.variant, rematch.settings, rematch.finished) == ("classic", {"target": 30}, False)


def test_visitors_games_older_than_a_session_are_forgotten_when_a_visitor_starts_one(django_user_model):
    member = django_user_model.objects.create_user(username="ann", password="x")
    expired_session = timezone.now() - timedelta(seconds=settings.SESSION_COOKIE_AGE + 60)
    abandoned = practice_start(user=None, variant_id="classic", seed=1)
    kept_for_member = practice_start(user=member, variant_id="classic", seed=2)
    recent = practice_start(user=None, variant_id="classic", seed=3)
    PracticeGame.objects.filter(pk__in=[abandoned.pk, kept_for_member.pk]).update(updated_at=expired_session)

    started = practice_start(user=None, variant_id="classic", seed=4)

    remaining = set(PracticeGame.objects.values_list("pk", flat=True))
    assert remaining == {kept_for_member.pk, recent.pk, started.pk}


class WatchedBot:
    """The real bot of that strength, and at every decision ``watch()`` runs first."""

    def __init__(self, bot, watch) -> None:
        self.bot, self.watch, self.name = bot, watch, bot.name

    def decide(self, view):
        self.watch()
        return self.bot.decide(view)

    def close(self) -> None:
        self.bot.close()


def watch_the_bots(monkeypatch, watch) -> None:
    real = practice_bots.make_bot
    monkeypatch.setattr(
        practice_bots, "make_bot", lambda *args, **kwargs: WatchedBot(real(*args, **kwargs), watch)
    )


@pytest.mark.django_db(transaction=True)  # no test transaction around the service: as on the server
def test_the_bots_think_with_no_transaction_open_in_every_write_where_they_move(monkeypatch):
    """So a scorekeeper's hand never waits for the write lock while the expert thinks."""
    thought = []

    def no_transaction_open() -> None:
        assert not connection.in_atomic_block
        assert connection.get_autocommit()
        thought.append(1)

    watch_the_bots(monkeypatch, no_transaction_open)
    game = play_out_hand(practice_start(user=None, variant_id="classic", seed=3))
    game = practice_next_hand(game=game, version=game.version).game
    practice_rematch(game=game, version=game.version, user=None)
    assert len(thought) > 20  # a whole hand, a new deal and a rematch's first moves
    assert not connection.in_atomic_block


def test_a_write_overtaken_while_the_bots_think_is_refused_and_keeps_the_other_write(monkeypatch):
    """Another tab undoes while this tab's bots are thinking: the undo stands, this move is stale."""
    game = practice_start(user=None, variant_id="classic", seed=5)
    game = practice_act(game=game, version=game.version, data=hinted(game)).game
    mine, rival = game.version, []

    def other_tab_undoes_first() -> None:
        if not rival:
            rival.append(practice_undo(game=PracticeGame.objects.get(pk=game.pk), version=mine))

    watch_the_bots(monkeypatch, other_tab_undoes_first)
    with pytest.raises(PracticeRefused, match=STALE):
        practice_act(game=game, version=mine, data=hinted(game))
    stored = PracticeGame.objects.get(pk=game.pk)
    assert (stored.state, stored.undo, stored.version) == (rival[0].state, [], mine + 1)


def test_a_rematch_tapped_twice_starts_one_game():
    game = practice_start(user=None, variant_id="classic", seed=5)
    tapped_on = game.version
    practice_rematch(game=game, version=tapped_on, user=None)
    with pytest.raises(PracticeRefused, match=STALE):
        practice_rematch(game=game, version=tapped_on, user=None)
    assert PracticeGame.objects.count() == 2


def test_in_a_bot_process_the_bots_play_the_same_game_at_a_lower_priority(settings):
    """As under gunicorn: the bots' CPU goes to another process, which the scorepad's requests
    come before."""
    inline = play_out_hand(practice_start(user=None, variant_id="classic", seed=11))
    settings.PRACTICE_BOT_PROCESSES = 1
    try:
        pooled = play_out_hand(practice_start(user=None, variant_id="classic", seed=11))
        assert bot_pool.think(os.getpid) != os.getpid()
        assert bot_pool.think(os.nice, 0) == min(19, os.nice(0) + settings.PRACTICE_BOT_NICENESS)
    finally:
        bot_pool.shutdown()
    assert (pooled.state, pooled.hands) == (inline.state, inline.hands)


def test_beyond_the_bots_a_worker_may_run_at_once_a_move_is_refused_as_busy_and_changes_nothing(
    monkeypatch, settings
):
    """So practice can never hold every thread of a web worker while a scorekeeper waits."""
    settings.PRACTICE_BOTS_AT_ONCE = 1
    other = practice_start(user=None, variant_id="classic", seed=6)
    game = practice_start(user=None, variant_id="classic", seed=5)
    before, refused = (other.state, other.version), []

    def another_table_moves_meanwhile() -> None:
        if not refused:
            with pytest.raises(PracticeBusy, match="busy") as busy:
                practice_act(game=other, version=other.version, data=hinted(other))
            refused.append(busy.value)

    watch_the_bots(monkeypatch, another_table_moves_meanwhile)
    practice_act(game=game, version=game.version, data=hinted(game))
    other.refresh_from_db()
    assert refused
    assert (other.state, other.version) == before
    practice_act(game=other, version=other.version, data=hinted(other))  # and once they are free
