"""Check-in by name: a member of the club is found on a roster of 150 by part of their name, and a
member's name typed at the door checks that member in (no account, no duplicate on the roster)."""

import pytest

from scorepad.models import Player
from scorepad.selectors.clubs import check_in_roster
from scorepad.services import ServiceError
from scorepad.services.clubs import entrant_check_in
from tests.sample_games import club_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster():
    return (*(f"Member {n:03d}" for n in range(148)), "Ann Lee", "Bob Marsh")


def test_a_member_is_found_among_150_by_part_of_their_name(household, ann):
    event = club_event(household, ann, format="progressive", rounds=2)
    assert household.players.count() == 150
    assert [p.name for p in check_in_roster(event, "  marsh ")] == ["Bob Marsh"]
    assert check_in_roster(event, "").count() == 150
    assert [p.name for p in check_in_roster(event, "ma\x00rsh")] == ["Bob Marsh"]  # a NUL is dropped


def test_a_members_typed_name_checks_that_member_in(household, ann):
    event = club_event(household, ann, rounds=2)
    team = entrant_check_in(event=event, version=event.version, newcomers=["ann lee", "Cy New"])
    assert team.name == "Ann Lee & Cy New"
    assert [m.player.name for m in team.members.all()] == ["Ann Lee", "Cy New"]
    assert Player.objects.filter(household=household, name__iexact="ann lee").count() == 1
    event.refresh_from_db()
    with pytest.raises(ServiceError, match="Ann Lee is already checked in"):
        entrant_check_in(event=event, version=event.version, newcomers=["Ann Lee", "Di"])
