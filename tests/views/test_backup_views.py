"""Backing up a household from its page and restoring it by upload; bad uploads are told, never a 500."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scorepad.models import Household

# Every test here acts as Ann, signed in, at her household with three games.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("member", "games")]


def upload(content: bytes | str) -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile("backup.json", data, "application/json")


def test_the_backup_downloads_and_restores_as_a_new_household(client, household):
    response = client.get(reverse("household_backup", args=[household.pk]))
    assert response["Content-Disposition"].startswith(
        'attachment; filename="pinochle-the-smiths-backup.json"'
    )
    restored = client.post(reverse("household_restore"), {"file": upload(response.content)}, follow=True)
    new = Household.objects.exclude(pk=household.pk).get()
    assert restored.redirect_chain[-1][0] == reverse("household", args=[new.pk])
    assert b"Restored The Smiths: 3 games." in restored.content
    again = client.post(reverse("household_restore"), {"file": upload(response.content)})
    assert "already restored" in again.content.decode()
    assert Household.objects.count() == 2


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("[" * 200_000 + "]" * 200_000, "nests too deeply"),
        ('{"players": [' + "7" * 10_000 + "]}", "number far too long"),
        (b"\xff\xfe\x00", "not a text file"),
        ('{"format": "pinochle-table-household-backup"}', "This backup is version None"),
    ],
)
def test_a_bad_upload_is_told_in_words(client, content, words):
    response = client.post(reverse("household_restore"), {"file": upload(content)})
    assert response.status_code == 200
    assert words in response.content.decode()
    assert Household.objects.count() == 1


def test_an_upload_over_the_size_cap_is_refused_before_reading(client, household, monkeypatch):
    monkeypatch.setattr("scorepad.forms.history.MAX_BACKUP_BYTES", 50)
    backup = client.get(reverse("household_backup", args=[household.pk])).content
    response = client.post(reverse("household_restore"), {"file": upload(backup)})
    assert "too big for a household backup: at most 50 bytes" in response.content.decode()


def test_a_game_import_bomb_is_told_in_words(client, household):
    response = client.post(reverse("game_import", args=[household.pk]), {"record": "[" * 100_000})
    assert response.status_code == 200
    assert "nests too deeply" in response.content.decode()
