"""Log-in and sign-up limits: per account, per address, refused in words, before any password hashing."""

from unittest import mock

import pytest
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from scorepad import throttle

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


@pytest.fixture
def limits(settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = (3, 900)
    settings.LOGIN_FAILURES_PER_ADDRESS = (5, 900)
    settings.SIGNUPS_PER_ADDRESS = (2, 3600)


def log_in(client, username, password=PASSWORD, url=None, **extra):
    return client.post(url or reverse("login"), {"username": username, "password": password}, **extra)


def logged_in(client) -> bool:
    return client.get(reverse("home")).context["user"].is_authenticated


def test_an_account_is_refused_after_its_wrong_passwords_without_checking_the_next(client, limits):
    User.objects.create_user("ann", password=PASSWORD)
    for _ in range(3):
        assert log_in(client, "ann", "guess").status_code == 200
    with mock.patch.object(auth_forms, "authenticate", wraps=auth_forms.authenticate) as authenticate:
        response = log_in(client, "ANN")  # the right password, and the name in other letters
    assert not authenticate.called  # no password hashed for a refused attempt
    assert response.status_code == 429
    assert "Too many wrong passwords for ANN: try again in 15 minutes." in response.content.decode()
    assert not logged_in(client)


def test_a_password_is_not_checked_while_another_from_the_same_address_is(client, limits):
    """A burst of guesses is hashed one at a time, leaving the other cores to the players."""
    User.objects.create_user("ann", password=PASSWORD)
    address = throttle.login_limits()[1]
    busy = f"{throttle._key(address, '10.0.0.9')}:checking"
    cache.add(busy, True)  # a guess from 10.0.0.9 being checked in another worker
    with mock.patch.object(auth_forms, "authenticate", wraps=auth_forms.authenticate) as authenticate:
        response = log_in(client, "ann", REMOTE_ADDR="10.0.0.9")
    assert not authenticate.called
    assert response.status_code == 429
    assert "Another log-in is being checked for this account or your network" in response.content.decode()
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


def test_the_admin_log_in_has_the_same_limits(client, limits):
    User.objects.create_superuser("root", password=PASSWORD)
    for _ in range(3):
        log_in(client, "root", "guess", url=reverse("admin:login"))
    response = log_in(client, "root", url=reverse("admin:login"))
    assert "Too many wrong passwords for root" in response.content.decode()
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
