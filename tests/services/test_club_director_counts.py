"""A director's correction scores its table's game once: the standings take the scoring the
correction did. Counted (calls of the one scorer), never timed."""

from __future__ import annotations

import pytest

from scorepad.models import ClubEvent, ClubTable, TableHand
from scorepad.selectors.club_director import live_standings
from scorepad.services.club_director import hand_correct
from tests.sample_games import CLUB_MADE, club_event, club_hand, numbered_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return ()


def test_a_correction_scores_its_tables_game_once_for_the_standings_too(
    household, ann, scored, django_capture_on_commit_callbacks
):
    event = club_event(household, ann, pairs=numbered_pairs(2), started=True)
    table = ClubTable.objects.get(round__event=event, round__number=1)
    entered = club_hand(table, number=0, data={**CLUB_MADE, "bid": 50}, phone="p1", entry_key="k0")
    event = ClubEvent.objects.get(pk=event.pk)
    before = live_standings(event)
    th = TableHand.objects.select_related("hand").get(pk=entered.pk)
    del scored[:]

    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(
            event=event,
            made_by=ann,
            hand_id=th.hand_id,
            version=th.hand.version,
            data=CLUB_MADE,
            dealer=None,
            reason="they bid 20",
        )
    after = live_standings(ClubEvent.objects.get(pk=event.pk))

    assert after.rows != before.rows  # the corrected hand counts, confirmed by the director
    assert scored == [1]  # scored by the correction; the standings took it
