"""Sign up, log in and out, households, the roster and one-time invitation links."""

from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scorepad.models import Household, Invite
from scorepad.services.households import household_create, invite_create
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_up_logs_the_new_user_in(client):
    response = client.post(
        reverse("signup"), {"username": "bea", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    home = client.get(reverse("home"))
    assert home.context["user"].username == "bea"
    assert b"New household" in home.content


@pytest.mark.parametrize("back", ["-1", "0", "[]", "login", "//evil.example/", "https://evil.example/"])
def test_sign_up_with_a_forged_way_back_goes_home(client, back):
    data = {"username": "bea", "password1": PASSWORD, "password2": PASSWORD, "next": back}
    response = client.post(reverse("signup"), data)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


@pytest.mark.parametrize("back", ["-1", "[]", "//evil.example/", "https://evil.example/"])
def test_log_in_with_a_forged_way_back_goes_to_the_default_page(client, ann, back):
    data = {"username": "ann", "password": PASSWORD, "next": back}
    response = client.post(reverse("login"), data)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_sign_up_shows_a_password_mismatch_next_to_the_field(client):
    response = client.post(reverse("signup"), {"username": "bea", "password1": PASSWORD, "password2": "x"})
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert b"didn" in response.content  # "The two password fields didn't match."
    assert not User.objects.filter(username="bea").exists()


def test_login_page_and_logging_in(client):
    User.objects.create_user("ann", password=PASSWORD)
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"].is_authenticated


@pytest.mark.usefixtures("member")
def test_logout_is_a_post(client, ann):
    assert client.get(reverse("logout")).status_code == 405
    client.post(reverse("logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated


@pytest.mark.parametrize(
    "url",
    [
        reverse("household_new"),
        reverse("household", args=[1]),
        reverse("game_new", args=[1]),
        reverse("game", args=[1]),
        reverse("hand_edit", args=[1, 0]),
        reverse("hand_delete", args=[1, 0]),
        reverse("invite", args=["token"]),
    ],
)
def test_anonymous_visitors_are_sent_to_log_in(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_pages_open_to_everyone(client):
    assert client.get(reverse("home")).status_code == 200
    assert client.get(reverse("signup")).status_code == 200


def test_an_invitee_without_an_account_is_offered_sign_up_that_comes_back_to_the_link(client):
    url = reverse("invite", args=["some-token"])
    page = client.get(url, follow=True).content.decode()
    assert "Log in to open that page, or sign up below" in page
    back = f'href="{reverse("signup")}?next={quote(url)}"'
    assert back in page
    response = client.post(
        f"{reverse('signup')}?next={url}",
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD, "next": url},
    )
    assert response["Location"] == url


def test_the_home_page_tells_a_visitor_how_to_sign_up_and_offers_only_what_exists(client):
    page = client.get(reverse("home")).content.decode()
    assert f'<a class="button primary wide" href="{reverse("signup")}">Sign up to keep score</a>' in page
    assert f'<a href="{reverse("login")}">Log in</a>' in page
    assert f'href="{reverse("meld")}">Count meld</a>' in page
    assert f'href="{reverse("practice")}">Practice against the bots</a>' in page


def test_a_new_member_is_led_to_create_a_household(client):
    client.force_login(User.objects.create_user("bea", password=PASSWORD))
    page = client.get(reverse("home")).content.decode()
    assert f'<a class="button wide primary" href="{reverse("household_new")}">New household</a>' in page


def test_the_meld_calculator_carries_the_account_links_in_the_top_bar(client):
    anonymous = client.get(reverse("meld")).content.decode()
    assert f'href="{reverse("login")}"' in anonymous
    assert f'href="{reverse("signup")}"' in anonymous
    client.force_login(User.objects.create_user("bea", password=PASSWORD))
    member = client.get(reverse("meld")).content.decode()
    assert f'action="{reverse("logout")}"' in member
    assert f'href="{reverse("login")}"' not in member


@pytest.mark.usefixtures("member")
def test_creating_a_household_makes_the_user_a_member(client, ann):
    response = client.post(reverse("household_new"), {"name": "Smiths"})
    household = Household.objects.get()
    assert response["Location"] == reverse("household", args=[household.pk])
    assert list(household.members.all()) == [ann]
    assert b"Smiths" in client.get(reverse("home")).content


@pytest.mark.usefixtures("member")
def test_a_household_needs_a_name(client, ann):
    response = client.post(reverse("household_new"), {"name": " "})
    assert response.status_code == 200
    assert response.context["form"].errors["name"]
    assert not Household.objects.exists()


@pytest.mark.usefixtures("member")
def test_adding_a_player_to_the_roster(client, ann):
    household = household_create(user=ann, name="Smiths")
    client.post(reverse("player_add", args=[household.pk]), {"name": "Grandpa Joe"})
    page = client.get(reverse("household", args=[household.pk]))
    assert b"Grandpa Joe" in page.content


@pytest.mark.usefixtures("member")
def test_a_duplicate_player_is_refused_next_to_the_name(client, ann):
    household = household_create(user=ann, name="Smiths")
    client.post(reverse("player_add", args=[household.pk]), {"name": "Joe"})
    response = client.post(reverse("player_add", args=[household.pk]), {"name": "joe"})
    assert response.status_code == 200
    assert response.context["player_form"].errors["name"] == ["joe is already on the roster."]
    assert household.players.count() == 1


@pytest.mark.usefixtures("member")
def test_another_households_page_is_a_404(client, ann):
    other = household_create(user=User.objects.create_user("zed", password=PASSWORD), name="Joneses")
    assert client.get(reverse("household", args=[other.pk])).status_code == 404
    assert client.post(reverse("player_add", args=[other.pk]), {"name": "Mole"}).status_code == 404
    assert client.post(reverse("invite_new", args=[other.pk])).status_code == 404
    assert client.get(reverse("game_new", args=[other.pk])).status_code == 404
    assert not other.players.exists()


@pytest.mark.usefixtures("member")
def test_an_invitation_link_joins_once(client, ann):
    household = household_create(user=ann, name="Smiths")
    response = client.post(reverse("invite_new", args=[household.pk]))
    assert response.status_code == 302  # POST, then redirect: a reload makes no second link
    token = Invite.objects.get().token
    page = client.get(response["Location"])
    assert [link for _invite, link in page.context["invites"]] == [f"http://testserver/invite/{token}/"]
    assert b'data-copy="invite-' in page.content

    bea = User.objects.create_user("bea", password=PASSWORD)
    client.force_login(bea)
    assert b"Join Smiths" in client.get(reverse("invite", args=[token])).content
    assert household.members.filter(pk=bea.pk).count() == 0  # opening the link alone changes nothing
    response = client.post(reverse("invite", args=[token]))
    assert response["Location"] == reverse("household", args=[household.pk])
    assert household.members.filter(pk=bea.pk).exists()

    cy = User.objects.create_user("cy", password=PASSWORD)
    client.force_login(cy)
    assert b"already been used" in client.get(reverse("invite", args=[token])).content
    client.post(reverse("invite", args=[token]))
    assert not household.members.filter(pk=cy.pk).exists()


@pytest.mark.usefixtures("member")
def test_a_user_in_two_households_sees_both_on_home(client, ann):
    household_create(user=ann, name="Smiths")
    other = household_create(user=User.objects.create_user("zed", password=PASSWORD), name="Joneses")
    invite = invite_create(household=other, user=other.members.get())
    client.post(reverse("invite", args=[invite.token]))
    content = client.get(reverse("home")).content
    assert b"Smiths" in content
    assert b"Joneses" in content
