"""Practice games: the bots play on to the player's seat, every write names its version, undo, history."""

from __future__ import annotations

import os
import random
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from scorepad import bot_pool
from scorepad.engine import practice as practice_bots
from scorepad.engine.answers import ANSWER_KEYS, FormAnswer, answer_json, read_form_answer
from scorepad.engine.bots import make_bot
from scorepad.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, parse_cards
from scorepad.engine.game import deal_hands, from_json, seat_view, to_json
from scorepad.engine.variants import get_variant
from scorepad.models import PracticeGame
from scorepad.pages.practice import Hint, held_order, hint_of, practice_table
from scorepad.selectors.practice import history_rows, practice_statistics, statistics_by_variant
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


def said(game: PracticeGame, data: dict[str, str]) -> FormAnswer:
    """A form's answer read as the practice view reads it, once, against the game as stored."""
    return read_form_answer(seat_view(from_json(game.state), 0), data)


def practice_hint(game: PracticeGame) -> Hint:
    """The hint the practice page shows: thought where the bots think, then worded."""
    answer, reason = bot_pool.hint(game.state, game.seed, game.version)
    return hint_of(seat_view(from_json(game.state), 0), answer, reason)


def play_out_hand(game: PracticeGame) -> PracticeGame:
    while from_json(game.state).result is None:
        game = practice_act(game=game, version=game.version, answer=said(game, hinted(game))).game
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
    game = practice_act(game=game, version=tapped_on, answer=said(game, answer)).game
    after_first = PracticeGame.objects.get(pk=game.pk)
    with pytest.raises(PracticeRefused, match=STALE):
        practice_act(game=game, version=tapped_on, answer=said(game, answer))
    again = PracticeGame.objects.get(pk=game.pk)
    assert (again.state, again.version, again.undo) == (
        after_first.state,
        after_first.version,
        after_first.undo,
    )


def test_an_illegal_card_is_refused_in_words_and_changes_nothing():
    game = practice_start(user=None, variant_id="classic", seed=5)
    while from_json(game.state).decision != "play" or not _illegal_card(game):
        game = practice_act(game=game, version=game.version, answer=said(game, hinted(game))).game
        if from_json(game.state).result is not None:
            game = practice_next_hand(game=game, version=game.version).game
    before = (game.state, game.version)
    with pytest.raises(PracticeRefused, match=r"You must|first lead|trump"):
        practice_act(game=game, version=game.version, answer=said(game, {"card": _illegal_card(game)}))
    game.refresh_from_db()
    assert (game.state, game.version) == before


def _at_the_pass(seed: int = 5) -> PracticeGame:
    """A classic game at the player's first pass of cards (bid out of reach, first trump named)."""
    game = practice_start(user=None, variant_id="classic", seed=seed)
    while from_json(game.state).decision != "pass":
        view = seat_view(from_json(game.state), 0)
        data = {"bid": "60"} if view.decision == "bid" else {"trump": "S"} if view.decision == "trump" else {}
        game = practice_act(game=game, version=game.version, answer=said(game, data)).game
    return game


def test_a_wrong_number_of_cards_to_pass_is_refused_naming_cards_as_players_write_them():
    game = _at_the_pass()
    two = " ".join(answer_json("pass", seat_view(from_json(game.state), 0).hand[:2]))
    before = (game.state, game.version)
    with pytest.raises(PracticeRefused) as refused:
        practice_act(game=game, version=game.version, answer=said(game, {"pass": two}))
    assert str(refused.value).startswith("Choose exactly 4 cards to pass; you chose 2: ")
    assert not re.search(r"\b[AKQJT9][SHDC]\b", str(refused.value))
    with pytest.raises(PracticeRefused, match=r"you chose 0\.$"):
        practice_act(game=game, version=game.version, answer=said(game, {}))
    game.refresh_from_db()
    assert (game.state, game.version) == before


def _illegal_card(game: PracticeGame) -> str | None:
    table = practice_table(game)
    return next((card.code for row in table.hand for card in row.cards if not card.playable), None)


def test_undo_goes_back_to_the_players_previous_decision():
    game = practice_start(user=None, variant_id="classic", seed=5)
    start = game.state
    game = practice_act(game=game, version=game.version, answer=said(game, hinted(game))).game
    assert game.state != start
    game = practice_undo(game=game, version=game.version)
    assert game.state == start
    assert game.undo == []
    with pytest.raises(PracticeRefused, match="Nothing to undo"):
        practice_undo(game=game, version=game.version)


def test_a_stale_undo_is_refused():
    game = practice_start(user=None, variant_id="classic", seed=5)
    game = practice_act(game=game, version=game.version, answer=said(game, hinted(game))).game
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

    monkeypatch.setattr("scorepad.engine.practice.make_bot", lambda *args, **kwargs: Explaining())
    hint = practice_hint(game)
    assert (hint.words, hint.reason, hint.value) == ("Pass", "a pass keeps the partner's bid alive", "pass")


def test_a_bots_reason_is_shown_with_cards_as_players_write_them(monkeypatch):
    game = practice_start(user=None, variant_id="classic", seed=5)

    class Terse:
        def explain(self, view):
            return None, "TC and AS are out; JH/KD still to come"

    monkeypatch.setattr("scorepad.engine.practice.make_bot", lambda *args, **kwargs: Terse())
    assert practice_hint(game).reason == "10♣ and A♠ are out; J♥/K♦ still to come"


def test_without_an_explanation_the_hint_reason_comes_from_the_view(monkeypatch):
    game = practice_start(user=None, variant_id="classic", seed=5)
    monkeypatch.setattr("scorepad.engine.practice.HINT_BOT", "easy")  # its explain gives no reason
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
    with pytest.raises(PracticeRefused, match="The game is over: start a rematch"):
        practice_undo(game=game, version=game.version)
    assert not practice_table(game).can_undo
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
    game = practice_act(game=game, version=game.version, answer=said(game, hinted(game))).game
    mine, rival = game.version, []

    def other_tab_undoes_first() -> None:
        if not rival:
            rival.append(practice_undo(game=PracticeGame.objects.get(pk=game.pk), version=mine))

    watch_the_bots(monkeypatch, other_tab_undoes_first)
    with pytest.raises(PracticeRefused, match=STALE):
        practice_act(game=game, version=mine, answer=said(game, hinted(game)))
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
                practice_act(game=other, version=other.version, answer=said(other, hinted(other)))
            refused.append(busy.value)

    watch_the_bots(monkeypatch, another_table_moves_meanwhile)
    practice_act(game=game, version=game.version, answer=said(game, hinted(game)))
    other.refresh_from_db()
    assert refused
    assert (other.state, other.version) == before
    # and once they are free
    practice_act(game=other, version=other.version, answer=said(other, hinted(other)))


def _game_at(variant_id: str, hands: list[str], *calls: int | None) -> PracticeGame:
    """A stored game where seat 0 dealt ``hands`` (codes, one string per seat), after ``calls``."""
    variant = get_variant(variant_id)
    state = deal_hands(variant, variant.defaults, 0, [parse_cards(hand) for hand in hands])
    for call in calls:
        state.push(call)
    return PracticeGame.objects.create(variant=variant_id, strength="heuristic", seed=1, state=to_json(state))


CLASSIC_DEAL = [
    "AS AS TS KS QH QH KH 9C JD QD KD 9D",
    "TS KS QS QS JS JS 9S 9S AH AH TH TH",
    "KH 9H 9H AC AC TC TC KC KC QC QC JC",
    "JH JH JC 9C AD AD TD TD KD QD JD 9D",
]


def test_a_forced_dealer_is_offered_the_minimum_as_the_one_button():
    table = practice_table(_game_at("classic", CLASSIC_DEAL, None, None, None))
    assert table.forced
    assert table.bid_chips == (("20", "Bid 20: everyone passed, the dealer must"),)


def test_the_hand_is_held_trump_first_then_colours_alternating():
    table = practice_table(_game_at("classic", CLASSIC_DEAL))
    suits = [row.letter for row in table.hand]
    assert suits == ["S", "H", "C", "D"]  # black, red, black, red
    assert held_order(parse_cards("QH 9C JD AS"), trump=HEARTS) == [HEARTS, SPADES, DIAMONDS, CLUBS]


def test_the_bid_step_shows_the_meld_in_each_trump_and_warns_without_a_marriage():
    table = practice_table(_game_at("double-deck", DOUBLE_DECK_NO_MARRIAGE, 50, None, None))
    assert table.decision == "bid"
    assert not table.forced
    assert [m.letter for m in table.suit_melds] == ["S", "H", "D", "C"]
    assert table.bid_warning.startswith("You hold no marriage")
    assert "20 meld to play" in table.bid_warning


DOUBLE_DECK_NO_MARRIAGE = [
    "AS AS AS AS TS TS TS TS AH AH AH AH TH TH TH TH JD JD JD JD",
    "KS KS KS KS QH QH QH QH KD KD KD KD QC QC QC QC JC JC JC JC",
    "QS QS QS QS KH KH KH KH QD QD QD QD KC KC KC KC 9S 9S 9S 9S",
    "JS JS JS JS JH JH JH JH AD AD AD AD TD TD TD TD 9H 9H 9H 9H",
]


def test_statistics_are_kept_per_variant_and_history_rows_show_score_strength_and_target():
    classic = play_out_hand(
        practice_start(user=None, variant_id="classic", overrides={"target": 300}, seed=3)
    )
    six = play_out_hand(practice_start(user=None, variant_id="six-handed", strength="easy", seed=2))

    by_variant = statistics_by_variant([classic, six])

    assert [(row.label, row.stats.hands) for row in by_variant] == [
        ("Classic (4 players, partners)", 1),
        ("Six-handed (Schoneboom family rules)", 1),
    ]
    assert by_variant[0].stats.margin == practice_statistics([classic]).margin
    assert by_variant[1].stats.margin == practice_statistics([six]).margin
    rows = {row.game.variant: row for row in history_rows([classic, six])}
    assert (rows["classic"].target, rows["classic"].strength) == (300, "Steady")
    totals = classic.hands[-1]["totals"]
    assert rows["classic"].score == [("You & Partner", totals[0]), ("Left & Right", totals[1])]
    assert (rows["six-handed"].strength, len(rows["six-handed"].score)) == ("Easy", 6)
