"""The check-in's "Find a member": the roster of 150 narrowed to the names holding what was typed
(on the server without JavaScript; static/js/roster_filter.js narrows it as the director types)."""

import pytest
from django.urls import reverse

from tests.sample_games import club_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return (*(f"Member {n:03d}" for n in range(148)), "Ann Lee", "Bob Marsh")


def test_the_check_in_page_narrows_the_roster_by_name(member, household, ann):
    event = club_event(household, ann, format="progressive", rounds=2)
    page = member.get(reverse("club_event", args=[event.pk]), {"find": "ann"}).content.decode()
    assert 'data-roster-filter="id_players"' in page
    assert "Ann Lee" in page
    assert "Member 001" not in page
    nobody = member.get(reverse("club_event", args=[event.pk]), {"find": "zzz"}).content.decode()
    assert "has “zzz” in their name" in nobody
