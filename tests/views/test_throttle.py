"""Log-in and sign-up limits: per account and address, per address, per account for new browsers;
refused in words with 429, before any password hashing."""

from unittest import mock

import pytest
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse

from scorepad import throttle
from tests.helpers import PASSWORD, log_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = (3, 900)
    settings.LOGIN_FAILURES_PER_ADDRESS = (5, 900)
    settings.LOGIN_FAILURES_PER_ACCOUNT = (8, 3600)
    settings.SIGNUPS_PER_ADDRESS = (2, 3600)


def logged_in(client) -> bool:
    return client.get(reverse("home")).context["user"].is_authenticated


def test_an_account_is_refused_from_an_address_after_its_wrong_passwords_without_checking_the_next(
    client, limits
):
    User.objects.create_user("ann", password=PASSWORD)
    for _ in range(3):
        assert log_in(client, "ann", "guess").status_code == 200
    with mock.patch.object(auth_forms, "authenticate", wraps=auth_forms.authenticate) as authenticate:
        response = log_in(client, "ANN")  # the right password, and the name in other letters
    assert not authenticate.called  # no password hashed for a refused attempt
    assert response.status_code == 429
    assert "Too many wrong passwords for ANN from your network: try again in 15 minutes." in (
        response.content.decode()
    )
    assert not logged_in(client)


def test_a_password_is_not_checked_while_another_from_the_same_address_is(client, limits):
    """A burst of guesses is hashed one at a time, leaving the other cores to the players."""
    User.objects.create_user("ann", password=PASSWORD)
    address = throttle.login_limits().address
    busy = f"{throttle._key(address, '10.0.0.9')}:checking"
    cache.add(busy, True)  # a guess from 10.0.0.9 being checked in another worker
    with mock.patch.object(auth_forms, "authenticate", wraps=auth_forms.authenticate) as authenticate:
        response = log_in(client, "ann", REMOTE_ADDR="10.0.0.9")
    assert not authenticate.called
    assert response.status_code == 429
    assert "Another log-in from your network is being checked: try again." in response.content.decode()
    cache.delete(busy)  # that check is over
    assert log_in(client, "ann", REMOTE_ADDR="10.0.0.9").status_code == 302
    assert cache.get(busy) is None  # and this one let its turn go


def test_the_refusal_ends_with_its_window(client, limits, monkeypatch):
    User.objects.create_user("ann", password=PASSWORD)
    for _ in range(3):
        log_in(client, "ann", "guess")
    now = throttle.time.time()
    monkeypatch.setattr(throttle.time, "time", lambda: now + 840)
    assert "try again in a minute" in log_in(client, "ann").content.decode()
    monkeypatch.setattr(throttle.time, "time", lambda: now + 901)
    assert log_in(client, "ann").status_code == 302


def test_the_right_password_clears_the_accounts_count(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    log_in(client, "ann", "guess")
    log_in(client, "ann", "guess")
    assert log_in(client, "ann").status_code == 302
    client.post(reverse("logout"))
    log_in(client, "ann", "guess")
    log_in(client, "ann", "guess")
    assert log_in(client, "ann").status_code == 302


def test_one_address_trying_many_accounts_is_refused_and_others_are_not(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    for name in ["bea", "cy", "dot", "eve", "fay"]:
        log_in(client, name, "guess", REMOTE_ADDR="10.0.0.9")
    response = log_in(client, "ann", REMOTE_ADDR="10.0.0.9")
    assert response.status_code == 429
    assert "Too many failed log-ins from your network" in response.content.decode()
    assert log_in(client, "ann", REMOTE_ADDR="10.0.0.10").status_code == 302


def test_the_admin_log_in_has_the_same_limits_and_refuses_with_429(client, limits):
    User.objects.create_superuser("root", password=PASSWORD)
    for _ in range(3):
        assert log_in(client, "root", "guess", url=reverse("admin:login")).status_code == 200
    response = log_in(client, "root", url=reverse("admin:login"))
    assert response.status_code == 429
    assert "Too many wrong passwords for root from your network" in response.content.decode()
    assert not logged_in(client)


def test_sign_ups_from_one_address_are_limited(client, limits):
    def sign_up(name, **extra):
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        return client.post(reverse("signup"), data, **extra)

    assert sign_up("bea").status_code == 302
    client.post(reverse("logout"))
    assert sign_up("bea").status_code == 200  # taken: a probe for a name counts too
    response = sign_up("cy")
    assert response.status_code == 429
    assert "Too many sign-ups from your network: try again in 60 minutes." in response.content.decode()
    assert not User.objects.filter(username="cy").exists()
    assert sign_up("cy", REMOTE_ADDR="10.0.0.10").status_code == 302


def test_behind_a_proxy_the_address_is_the_one_it_appended(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 10.1.2.3")
    assert throttle.client_address(request) == "127.0.0.1"  # the header is ignored unless trusted
    settings.BEHIND_PROXY = True
    assert throttle.client_address(request) == "10.1.2.3"


def test_log_ins_that_succeed_do_not_use_up_the_addresss_attempts(client, limits):
    """A household's phones logging in from one network are not held against it."""
    User.objects.create_user("ann", password=PASSWORD)
    for name in ["bea", "cy", "dot", "eve"]:
        log_in(client, name, "guess")
    for _ in range(3):
        assert log_in(client, "ann").status_code == 302
        client.post(reverse("logout"))
    assert log_in(client, "ann").status_code == 302


def test_a_flood_of_guesses_costs_only_a_handful_of_password_checks(client, limits):
    """Hundreds of guesses from one place (a hundred times the limits) are refused unhashed once the
    account's limit there is used up."""
    User.objects.create_user("ann", password=PASSWORD)
    with mock.patch.object(auth_forms, "authenticate", wraps=auth_forms.authenticate) as authenticate:
        statuses = [log_in(client, "ann", f"guess{n}").status_code for n in range(300)]
    assert authenticate.call_count == 3  # the account-and-address limit, not one more
    assert statuses.count(429) == 297


def test_a_guesser_elsewhere_cannot_keep_the_member_out(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    for n in range(3):
        log_in(client, "ann", "guess", REMOTE_ADDR=f"10.6.6.{n}")  # one address, then another…
    assert log_in(client, "ann", REMOTE_ADDR="10.0.0.10").status_code == 302  # ann at home is let in


def test_guesses_from_everywhere_lock_the_account_only_for_browsers_new_to_it(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    assert log_in(client, "ann", REMOTE_ADDR="10.0.0.10").status_code == 302  # ann's phone, once
    client.post(reverse("logout"))
    for n in range(8):  # a guesser on eight addresses, under each address's own limit
        log_in(Client(), "ann", "guess", REMOTE_ADDR=f"10.6.6.{n}")
    new = log_in(Client(), "ann", REMOTE_ADDR="10.0.0.11")  # the right password, on a new browser
    assert new.status_code == 429
    assert "Too many wrong passwords for ann from many places" in new.content.decode()
    assert log_in(client, "ann", REMOTE_ADDR="10.0.0.12").status_code == 302  # her phone, on any network


def test_the_known_browser_mark_cannot_be_made_up(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    for n in range(8):
        log_in(Client(), "ann", "guess", REMOTE_ADDR=f"10.6.6.{n}")
    client.cookies[throttle.KNOWN_DEVICE_COOKIE] = throttle._device_mark("ann")  # unsigned
    assert log_in(client, "ann", REMOTE_ADDR="10.0.0.11").status_code == 429


def test_one_accounts_guesser_does_not_lock_a_shared_address_for_everyone(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    User.objects.create_user("bea", password=PASSWORD)
    for _ in range(20):  # ann's account guessed from the café's address
        log_in(Client(), "ann", "guess", REMOTE_ADDR="10.0.0.9")
    assert log_in(client, "bea", REMOTE_ADDR="10.0.0.9").status_code == 302  # bea, in the same café


def test_a_browser_that_logged_in_before_is_let_in_though_guessers_locked_its_network(client, limits):
    """The lock wears off for a browser that proves itself: a member's phone (its signed mark) with
    the right password is never held by locks others ran into, on its network or from anywhere."""
    User.objects.create_user("ann", password=PASSWORD)
    assert log_in(client, "ann", REMOTE_ADDR="10.0.0.9").status_code == 302
    client.post(reverse("logout"))
    guesser = Client()
    for name in ["ann", "ann", "ann", "bea", "cy"]:  # ann's lock from the address, then the address's
        log_in(guesser, name, "guess", REMOTE_ADDR="10.0.0.9")
    for n in range(8):  # and the account's lock from everywhere
        log_in(Client(), "ann", "guess", REMOTE_ADDR=f"10.6.6.{n}")
    assert log_in(guesser, "ann", REMOTE_ADDR="10.0.0.9").status_code == 429
    assert log_in(client, "ann", REMOTE_ADDR="10.0.0.9").status_code == 302  # her phone, same network


def test_a_known_browser_meets_its_own_count_of_wrong_passwords(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    assert log_in(client, "ann").status_code == 302
    client.post(reverse("logout"))
    for _ in range(3):
        assert log_in(client, "ann", "guess").status_code == 200
    refused = log_in(client, "ann")
    assert refused.status_code == 429
    assert "Too many wrong passwords for ann from this browser: try again in 15 minutes." in (
        refused.content.decode()
    )


def test_ipv6_is_counted_by_its_64_and_ipv4_by_its_address():
    def address(remote):
        return throttle.client_address(RequestFactory().get("/", REMOTE_ADDR=remote))

    assert address("2001:db8:1:2::5") == address("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert address("2001:db8:1:3::5") == "2001:db8:1:3::/64"
    assert address("::ffff:10.0.0.9") == address("10.0.0.9") == "10.0.0.9"
    assert address("10.0.0.8") != address("10.0.0.9")


def test_a_guesser_taking_a_new_ipv6_address_each_time_meets_the_lock(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    for n in range(3):
        log_in(client, "ann", "guess", REMOTE_ADDR=f"2001:db8:1:2::{n + 1:x}")
    assert log_in(client, "ann", REMOTE_ADDR="2001:db8:1:2:abcd::9").status_code == 429


def test_a_slow_drip_of_guesses_during_the_accounts_lock_does_not_stretch_it(client, limits, monkeypatch):
    """The lock for new browsers lasts its window: guesses refused meanwhile are not counted, so it
    ends on time however the drip goes on, and the member's new phone gets in."""
    User.objects.create_user("ann", password=PASSWORD)
    now = throttle.time.time()
    for n in range(8):
        log_in(Client(), "ann", "guess", REMOTE_ADDR=f"10.6.6.{n}")
    for minute in range(0, 60, 5):  # one more guess from a new address every five minutes
        monkeypatch.setattr(throttle.time, "time", lambda minute=minute: now + minute * 60)
        assert log_in(Client(), "ann", "guess", REMOTE_ADDR=f"10.7.7.{minute}").status_code == 429
    monkeypatch.setattr(throttle.time, "time", lambda: now + 3601)
    assert log_in(Client(), "ann", REMOTE_ADDR="10.0.0.11").status_code == 302
