"""Housekeeping: abandon or delete a game, rename or retire players, remove members, withdraw or
outlive invitation links, carry on the current game from home, and the partnership leaderboard."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scorepad.models import Game, Invite
from scorepad.services.households import invite_create
from tests.sample_games import CLASSIC_PLAYING, make_user

# Every test here acts as Ann, signed in, at a household with three games.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("member", "games")]


def test_an_abandoned_game_leaves_the_statistics_and_can_be_resumed(client, household):
    playing = household.games.get(settings=CLASSIC_PLAYING["settings"])
    before = client.get(reverse("statistics", args=[household.pk])).context["by_variant"]
    classic_games = {row.player.name: row.games for row in before[0][1]}
    client.post(reverse("game_abandon", args=[playing.pk]), {"abandoned": "1"})
    after = client.get(reverse("statistics", args=[household.pk])).context["by_variant"]
    assert {row.player.name: row.games for row in after[0][1]}["Bo"] == classic_games["Bo"] - 1
    assert b"Abandoned" in client.get(reverse("history", args=[household.pk])).content
    client.post(reverse("game_abandon", args=[playing.pk]), {"abandoned": "0"})
    assert not Game.objects.get(pk=playing.pk).abandoned


def test_a_finished_game_cannot_be_abandoned(client, household):
    won = household.games.get(finished=True)
    response = client.post(reverse("game_abandon", args=[won.pk]), {"abandoned": "1"}, follow=True)
    assert b"A finished game can&#x27;t be abandoned" in response.content
    assert not Game.objects.get(pk=won.pk).abandoned


def test_deleting_a_game_asks_first(client, household):
    game = household.games.first()
    assert b"Delete this game?" in client.get(reverse("game_delete", args=[game.pk])).content
    response = client.post(reverse("game_delete", args=[game.pk]))
    assert response["Location"] == reverse("household", args=[household.pk])
    assert not Game.objects.filter(pk=game.pk).exists()


def test_rename_and_retire_a_player(client, household):
    bo = household.players.get(name="Bo")
    client.post(reverse("player_edit", args=[household.pk, bo.pk]), {"name": "Bob"})
    bo.refresh_from_db()
    assert bo.name == "Bob"
    taken = client.post(reverse("player_edit", args=[household.pk, bo.pk]), {"name": "ann"}, follow=True)
    assert b"ann is already on the roster" in taken.content
    client.post(reverse("player_edit", args=[household.pk, bo.pk]), {"retire": "1"})
    new_game = client.get(reverse("game_new", args=[household.pk]), {"variant": "classic"})
    assert "Bob" not in [player.name for player in new_game.context["form"].fields["seat_0"].queryset]
    assert b"Bob" in client.get(reverse("history", args=[household.pk])).content  # old games keep him


def test_a_member_can_be_removed_but_not_the_last(client, household, ann):
    bea = make_user("bea")
    household.members.add(bea)
    client.post(reverse("member_remove", args=[household.pk, bea.pk]))
    assert list(household.members.all()) == [ann]
    last = client.post(reverse("member_remove", args=[household.pk, ann.pk]), follow=True)
    assert b"The last member can&#x27;t be removed" in last.content
    assert list(household.members.all()) == [ann]


def test_a_withdrawn_or_expired_invite_no_longer_joins(client, household, ann):
    withdrawn = invite_create(household=household, user=ann)
    client.post(reverse("invite_revoke", args=[household.pk, withdrawn.pk]))
    old = invite_create(household=household, user=ann)
    Invite.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=8))
    client.force_login(make_user("cy"))
    for invite, words in ((withdrawn, b"withdrawn"), (old, b"expired")):
        assert words in client.get(reverse("invite", args=[invite.token])).content
        client.post(reverse("invite", args=[invite.token]))
    assert household.members.count() == 1


def test_home_offers_the_current_game(client, household):
    playing = household.games.filter(finished=False).order_by("-created_at", "-id").first()
    response = client.get(reverse("home"))
    assert response.context["current_game"] == playing
    assert reverse("game", args=[playing.pk]).encode() in response.content


def test_the_partnership_leaderboard_counts_pairs_across_seats(client, household):
    rows = client.get(reverse("statistics", args=[household.pk])).context["partnerships"]
    by_pair = {(row.variant.id, row.names): (row.games, row.finished, row.wins) for row in rows}
    # Ann & Cy partnered in the won classic game and the playing one (seated apart: Bo, Ann, Di, Cy).
    assert by_pair[("classic", "Ann & Cy")] == (2, 1, 1)
    assert by_pair[("classic", "Bo & Di")] == (2, 1, 0)
    assert rows[0].names == "Ann & Cy"
