"""Restores, imports and exports cost the server a whole household's rows: each is limited per
account and per address, and over it answered 429 in words with ``Retry-After``, nothing done."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorepad.models import Household
from tests.sample_games import CLASSIC_WON, make_household, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.EXCHANGE_LIMITS = {"restore": (2, 3, 600), "export": (2, 3, 600)}


def upload(content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("backup.json", content, "application/json")


@pytest.mark.usefixtures("member", "games")  # Ann, signed in, at her household
def test_restores_over_the_accounts_limit_are_refused_in_words_and_restore_nothing(client, household, limits):
    backup = client.get(reverse("household_backup", args=[household.pk])).content
    assert client.post(reverse("household_restore"), {"file": upload(backup)}).status_code == 302
    assert client.post(reverse("household_restore"), {"file": upload(backup)}).status_code == 200  # twice
    refused = client.post(reverse("household_restore"), {"file": upload(backup)}, REMOTE_ADDR="10.0.0.2")
    assert refused.status_code == 429
    assert 590 <= int(refused["Retry-After"]) <= 600
    assert "Too many restores and imports on your account in a short time: try again in 10 minutes." in (
        refused.content.decode()
    )
    assert Household.objects.count() == 2
    assert client.get(reverse("household_restore")).status_code == 200  # the form itself is not counted


@pytest.mark.usefixtures("member", "games")  # Ann, signed in, at her household
def test_imports_count_with_restores(client, household, limits):
    url = reverse("game_import", args=[household.pk])
    for _ in range(2):
        assert client.post(url, {"record": json.dumps(CLASSIC_WON)}).status_code == 200
    refused = client.post(url, {"record": json.dumps(CLASSIC_WON)})
    assert refused.status_code == 429
    assert "Too many restores and imports on your account" in refused.content.decode()


@pytest.mark.usefixtures("member", "games")  # Ann, signed in, at her household
def test_exports_over_the_limit_are_refused_and_another_account_elsewhere_goes_on(client, household, limits):
    assert client.get(reverse("household_csv", args=[household.pk])).status_code == 200
    assert client.get(reverse("household_backup", args=[household.pk])).status_code == 200
    refused = client.get(reverse("household_csv", args=[household.pk]))
    assert refused.status_code == 429
    assert "Too many exports on your account in a short time" in refused.content.decode()
    bea = make_user("bea")
    other = Client()
    other.force_login(bea)
    theirs = make_household(bea, "The Joneses")
    assert other.get(reverse("household_csv", args=[theirs.pk]), REMOTE_ADDR="10.0.0.3").status_code == 200


def test_one_address_cannot_export_without_end_by_using_many_accounts(limits):
    for name in ("bea", "cy", "dot", "eve"):
        user = make_user(name)
        browser = Client()
        browser.force_login(user)
        mine = make_household(user, f"{name}'s")
        answer = browser.get(reverse("household_backup", args=[mine.pk]), REMOTE_ADDR="10.0.0.9")
    assert answer.status_code == 429
    assert "Too many exports from your network" in answer.content.decode()
