"""A database that does not answer is a 503 that asks to retry, not the 500 page of a fault."""

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.urls import reverse

from scorepad.views import households


@pytest.mark.django_db
def test_a_database_that_does_not_answer_is_a_503_that_asks_to_retry(client, monkeypatch):
    def down(**kwargs):
        raise OperationalError("the database system is shutting down")

    client.force_login(User.objects.create_user("ann"))
    monkeypatch.setattr(households, "household_create", down)
    response = client.post(reverse("household_new"), {"name": "Smiths"})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "it is probably restarting" in response.content.decode()
