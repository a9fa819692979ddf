"""The puzzle pages: the frozen table with only what the seat knows, answers judged against the
shipped answer (the first moves both Glicko-2 ratings, a second counts nothing), refusals in
words that change nothing, the run, the puzzle of the day and the history."""

import datetime
import re

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from scorepad.engine.cards import CODES
from scorepad.engine.puzzles import PUZZLE_SEAT, Puzzle
from scorepad.models.puzzles import PuzzleAttempt, PuzzlePlayer, PuzzleRating
from scorepad.selectors.puzzles import puzzle_of_the_day, shipped

pytestmark = pytest.mark.django_db

ENGINE_CODE = re.compile(r"\b[AKQJT9][SHDC]\b")


def first_of(variant: str, decision: str = "play") -> Puzzle:
    return next(p for p in shipped(variant) if p.decision == decision)


def form_of(puzzle: Puzzle, answer) -> dict:
    data = {"puzzle": puzzle.key, "position": puzzle.digest}
    key = {"play": "card", "trump": "trump", "pass": "pass"}[puzzle.decision]
    data[key] = answer
    return data


def wrong_answer(puzzle: Puzzle):
    return next(a for a, _ in puzzle.values if a != puzzle.answer)


def answer(client, puzzle: Puzzle, said, **extra):
    """An answer sent from the puzzle's page, as a browser that keeps cookies sends it."""
    client.get(reverse("puzzle", args=[puzzle.key]), **extra)
    return client.post(reverse("puzzle_answer", args=[puzzle.key]), form_of(puzzle, said), **extra)


def visible_text(html: str) -> str:
    """The page without its tags and the values forms post (codes live only there)."""
    html = re.sub(r'(value|name|class|data-[a-z-]+)="[^"]*"', "", html)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_a_puzzle_page_shows_the_seats_hand_and_no_hidden_card_nor_engine_code(client, variant):
    puzzle = first_of(variant)
    page = client.get(reverse("puzzle", args=[puzzle.key]))
    assert page.status_code == 200
    text = page.content.decode()
    state = puzzle.hand_state()
    hand = [c for c in range(24) for _ in range(state.hands[PUZZLE_SEAT][c])]
    for c in set(hand):  # every card of the seat's hand is a button or a card on the page
        assert f'value="{CODES[c]}"' in text
    assert not ENGINE_CODE.search(visible_text(text))
    # a card only another seat holds (never played or shown) is never posted by a form here
    others = {c for seat, held in enumerate(state.hands) if seat != PUZZLE_SEAT for c in range(24) if held[c]}
    for c in others - set(hand):
        assert f'value="{CODES[c]}"' not in text


def test_the_right_answer_is_solved_and_raises_the_players_rating(client):
    puzzle = first_of("classic")
    page = answer(client, puzzle, puzzle.answer)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Right:" in text
    assert "The worst answer" in text
    player = PuzzlePlayer.objects.get()
    assert player.rating > 1500
    assert player.attempts == 1
    assert player.solved == 1


def test_a_wrong_answer_is_missed_says_the_answer_and_lowers_the_rating(client):
    puzzle = first_of("classic")
    page = answer(client, puzzle, wrong_answer(puzzle))
    text = page.content.decode()
    assert "Not quite" in text
    assert PuzzlePlayer.objects.get().rating < 1500
    assert not ENGINE_CODE.search(visible_text(text))


def test_a_second_answer_to_the_same_puzzle_counts_nothing(client):
    puzzle = first_of("classic")
    answer(client, puzzle, wrong_answer(puzzle))
    rating = PuzzlePlayer.objects.get().rating
    page = answer(client, puzzle, puzzle.answer)
    assert "your rating stays as it was" in page.content.decode()
    assert PuzzlePlayer.objects.get().rating == rating
    assert PuzzleAttempt.objects.count() == 1


def test_an_answer_for_another_puzzle_is_refused_in_words_and_counts_nothing(client):
    puzzle, other = shipped("classic")[:2]
    data = form_of(puzzle, puzzle.answer)
    data["puzzle"] = other.key
    page = client.post(reverse("puzzle_answer", args=[puzzle.key]), data)
    assert page.status_code == 400
    assert "another puzzle" in page.content.decode()
    assert not PuzzleAttempt.objects.exists()


def test_an_answer_from_a_forged_position_is_refused_in_words(client):
    puzzle = first_of("classic")
    data = form_of(puzzle, puzzle.answer)
    data["position"] = "0" * 16
    page = client.post(reverse("puzzle_answer", args=[puzzle.key]), data)
    assert page.status_code == 400
    assert "a position that is not this puzzle" in page.content.decode()
    assert not PuzzleAttempt.objects.exists()


def test_a_card_the_rules_refuse_or_a_card_not_held_is_refused_in_words(client):
    puzzle = next(
        p
        for p in shipped("classic")
        if p.decision == "play" and len(p.view().legal_cards) < len(set(p.view().hand))
    )
    view = puzzle.view()
    illegal = next(c for c in view.hand if c not in view.legal_cards)
    page = answer(client, puzzle, CODES[illegal])
    assert page.status_code == 400
    assert not ENGINE_CODE.search(visible_text(page.content.decode()))
    not_held = next(c for c in range(24) if c not in view.hand)
    assert answer(client, puzzle, CODES[not_held]).status_code == 400
    assert answer(client, puzzle, "<script>").status_code == 400
    assert not PuzzleAttempt.objects.exists()


def test_a_pass_puzzle_takes_the_cards_in_any_order(client):
    puzzle = first_of("classic", "pass")
    page = client.post(
        reverse("puzzle_answer", args=[puzzle.key]),
        {"puzzle": puzzle.key, "position": puzzle.digest, "pass": list(reversed(puzzle.answer))},
    )
    assert "Right:" in page.content.decode()


def test_an_unknown_puzzle_is_a_404_in_words(client):
    page = client.get(reverse("puzzle", args=["classic-99999-999"]))
    assert page.status_code == 404
    assert "no puzzle with that name" in page.content.decode()


def test_a_run_gives_an_unanswered_puzzle_near_the_players_rating(client):
    puzzle = first_of("classic")
    answer(client, puzzle, puzzle.answer)
    rating = PuzzlePlayer.objects.get().rating
    seen = set()
    for _ in range(5):
        found = client.get(reverse("puzzle_run", args=["classic"]))
        assert found.status_code == 302
        key = found["Location"].split("/")[2]
        seen.add(key)
    assert puzzle.key not in seen
    ratings = sorted(abs(p.rating - rating) for p in shipped("classic"))
    for key in seen:
        near = next(p for p in shipped("classic") if p.key == key)
        assert abs(near.rating - rating) <= ratings[20]


def test_the_puzzle_of_the_day_is_the_same_all_day_and_changes_with_the_day():
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=n) for n in range(6)]
    picks = [puzzle_of_the_day(day) for day in days]
    assert picks[0] == puzzle_of_the_day(days[0])
    assert len({p.key for p in picks}) == 6
    assert {p.variant for p in picks} == {"classic", "double-deck", "six-handed"}


def test_the_history_lists_a_visitors_answers_and_not_another_visitors(client, django_user_model):
    puzzle = first_of("classic")
    answer(client, puzzle, puzzle.answer)
    page = client.get(reverse("puzzle_history"))
    assert "Solved" in page.content.decode()
    other = Client().get(reverse("puzzle_history"))
    assert "Solved" not in other.content.decode()


def test_an_accounts_answers_are_kept_on_the_account_and_move_the_puzzles_rating(client, django_user_model):
    user = django_user_model.objects.create_user("ann", password="pw-long-enough-1")
    client.force_login(user)
    puzzle = first_of("six-handed")
    answer(client, puzzle, puzzle.answer)
    assert PuzzlePlayer.objects.get().user == user
    assert PuzzleRating.objects.get(key=puzzle.key).rating < puzzle.rating
    assert "Solved" in client.get(reverse("puzzle_history")).content.decode()


def test_a_guests_answer_moves_their_own_rating_and_not_the_puzzles(client):
    """A guest is a session anyone can start afresh: the puzzles are rated by accounts only."""
    puzzle = first_of("classic")
    answer(client, puzzle, wrong_answer(puzzle))
    assert PuzzlePlayer.objects.get().rating < 1500
    rating = client.get(reverse("puzzle", args=[puzzle.key])).context["puzzle_rating"]
    assert rating == round(puzzle.rating)
    assert not PuzzleRating.objects.filter(key=puzzle.key, attempts__gt=0).exists()


def test_cookie_less_answers_are_judged_and_move_no_rating_and_store_no_session(client):
    puzzle = first_of("classic")
    for _ in range(40):  # a script that drops its cookies: a new visitor at every answer
        page = Client().post(
            reverse("puzzle_answer", args=[puzzle.key]), form_of(puzzle, wrong_answer(puzzle))
        )
        assert page.status_code == 200
        assert "Not quite" in page.content.decode()
        assert "sent no cookies, so this answer was not counted" in page.content.decode()
    assert not Session.objects.exists()
    assert not PuzzlePlayer.objects.exists()
    assert not PuzzleRating.objects.filter(attempts__gt=0).exists()


def test_new_guests_from_one_network_are_limited_like_sign_ups(settings):
    settings.SIGNUPS_PER_ADDRESS = (2, 3600)
    puzzle = first_of("classic")
    for _ in range(2):
        assert "Your puzzle rating" in answer(Client(), puzzle, puzzle.answer).content.decode()
    page = answer(Client(), puzzle, puzzle.answer).content.decode()
    assert "Right:" in page
    assert "Too many new visitors answered puzzles from your network" in page
    assert PuzzlePlayer.objects.count() == Session.objects.count() == 2
    assert (
        "Your puzzle rating"
        in answer(Client(), puzzle, puzzle.answer, REMOTE_ADDR="10.0.0.2").content.decode()
    )


def test_answers_are_limited_like_practice_moves(client, settings):
    settings.CPU_BUDGETS = {name: (1, 1, 600) for name in settings.CPU_BUDGETS}
    first, second = [p for p in shipped("classic") if p.decision == "play"][:2]
    assert answer(client, first, first.answer).status_code == 200
    refused = answer(client, second, second.answer)
    assert refused.status_code == 429
    assert "Too many practice moves" in refused.content.decode()
    assert PuzzleAttempt.objects.count() == 1


def test_the_puzzles_page_links_the_day_a_run_per_variant_and_the_history(client):
    page = client.get(reverse("puzzles")).content.decode()
    assert reverse("puzzle_run", args=["six-handed"]) in page
    assert reverse("puzzle_history") in page
    assert reverse("puzzles") in client.get(reverse("home")).content.decode()


# -- the position as the seat knows it -------------------------------------------------------------


def page_words(client, key: str) -> str:
    """What a player reads on a puzzle's page, one space between words, none before a stop."""
    html = client.get(reverse("puzzle", args=[key])).content.decode()
    return re.sub(r" ([,.:])", r"\1", " ".join(visible_text(html).split()))


def test_every_trick_played_is_listed_with_who_led_it_and_who_won_it(client):
    words = page_words(client, "classic-00276-041")
    assert "Tricks 6 played" in words
    assert "You led A♦, Left 9♦, Partner K♦, Right J♦. You won." in words
    assert "Right led A♦, You J♥, Left K♦, Partner 10♦. You won." in words
    assert "You led 9♥, Left 9♠, Partner 9♦, Right A♥. Right won." in words


def test_a_six_handed_trick_names_all_six_seats_in_play_order(client):
    words = page_words(client, "six-handed-00005-020")
    assert "Across led A♦, Far right K♦, Right Q♦, You 9♦, Left 9♦, Far left J♦. Across won." in words


def test_once_play_has_begun_a_classic_puzzle_still_shows_the_cards_passed_and_received(client):
    words = page_words(client, "classic-00276-041")  # the bidder, six tricks in
    assert "You received from Partner: 10♥ 10♥ J♥ 9♥" in words
    assert "You passed to Partner: J♠ Q♦ J♦ 9♦" in words


def test_an_opponent_reads_who_passed_how_many_cards_to_whom(client):
    puzzle = next(p for p in shipped("classic") if p.view().bidder in (1, 3) and p.view().tricks)
    words = page_words(client, puzzle.key)
    bidder = ["You", "Left", "Partner", "Right"][puzzle.view().bidder]
    partner = {"Left": "Right", "Right": "Left"}[bidder]
    assert f"{partner} passed 4 cards to {bidder}" in words
    assert f"{bidder} passed 4 cards to {partner}" in words
    assert "You passed" not in words


def test_each_seats_meld_is_shown(client):
    words = page_words(client, "classic-00276-041")
    assert "Meld: You 9, Left 0, Partner 4, Right 5" in words
    assert "Partner: 4 (marriage ×2: 4) K♦ Q♦ K♣ Q♣" in words
