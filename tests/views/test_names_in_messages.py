"""A name is text the table typed, never a format: a refusal that names a side says "Al 100%"
as it is, however Django words the refusal."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scorepad.constants import NUMBER_LIMIT
from scorepad.models import Hand
from scorepad.services.games import game_start
from scorepad.services.households import household_create, player_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["Al 100%", "100%s", "%(limit_value)s", "50 %d"])
def test_a_side_named_with_a_percent_sign_is_refused_in_words_not_a_500(client, name):
    user = User.objects.create_user("ann")
    client.force_login(user)
    household = household_create(user=user, name="Smiths")
    players = [player_create(household=household, name=who) for who in (name, "Bob", "Cat", "Dan")]
    game = game_start(
        household=household, variant_id="classic", overrides={}, players=players, first_dealer=0
    )
    hand = {"number": 0, "bidder": 0, "bid": 25, "trump": "H", "meld_0": 100_000, "meld_1": 5, "tricks_0": 15}
    response = client.post(reverse("hand_create", args=[game.pk]), hand)
    assert response.status_code == 200
    assert f"{name} &amp; Cat&#x27;s meld is at most {NUMBER_LIMIT}." in response.content.decode()
    assert not Hand.objects.filter(game=game).exists()
