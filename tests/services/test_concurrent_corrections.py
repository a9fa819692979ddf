"""Two phones correcting one game at the same moment, on two database connections (PostgreSQL):
the game row's lock makes them take turns, so one wins and the other is refused in words."""

import threading

import pytest
from django.db import connection, connections

from scorepad.services import ServiceError
from scorepad.services.games import StaleCorrection, hand_delete, hand_record, hand_undo
from tests.sample_games import import_game, make_household, make_user

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs row locks across connections"),
]

HAND = {"bidder": 0, "bid": 30, "trump": "H", "meld": [18, 9], "tricks": [13, 12]}


def at_once(work, times: int = 2) -> list[BaseException | None]:
    """Run ``work`` in ``times`` threads released together; what each raised (None: it went through)."""
    start = threading.Barrier(times)
    outcomes: list[BaseException | None] = [None] * times

    def run(index: int) -> None:
        start.wait()
        try:
            work()
        except BaseException as error:  # the test inspects whatever came out
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.fixture
def game():
    game = import_game(
        make_household(make_user("ann")), {"variant": "classic", "hands": []}, ("Ann", "Bo", "Cy", "Di")
    )
    for number in range(3):
        hand_record(game=game, number=number, data={**HAND, "bid": 30 + number})
    return game


def test_two_concurrent_deletes_of_one_hand_delete_it_once(game):
    second = game.hands.get(number=1)
    outcomes = at_once(lambda: hand_delete(game=game, hand_id=second.pk, version=second.version))
    refused = [error for error in outcomes if error is not None]
    assert len(refused) == 1
    assert isinstance(refused[0], StaleCorrection)
    assert list(game.hands.values_list("number", "bid")) == [(0, 30), (1, 32)]


def test_two_concurrent_undos_undo_one_hand(game):
    last = game.hands.get(number=2)
    outcomes = at_once(lambda: hand_undo(game=game, hand_id=last.pk, version=last.version))
    assert sum(isinstance(error, ServiceError) for error in outcomes) == 1
    assert all(error is None or isinstance(error, ServiceError) for error in outcomes)
    assert game.hands.count() == 2
