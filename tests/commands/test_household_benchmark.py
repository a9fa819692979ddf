"""``manage.py household_benchmark`` restores a household, times its pages, and leaves nothing behind."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from scorepad.models import Game, Hand, Household

pytestmark = pytest.mark.django_db


def test_the_benchmark_times_restore_statistics_and_history_then_deletes_its_household():
    out = io.StringIO()
    call_command("household_benchmark", "--games", "3", "--views", "1", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("3 games, ")
    assert "of which the transaction" in lines[1]
    measured = [line.split()[:2] for line in lines[2:]]
    assert [words[0] for words in measured] == ["statistics"] * 3 + ["history"] * 3
    assert all("p95" in line and "CPU" in line for line in lines[2:])
    for model in (Household, Game, Hand, User):
        assert not model.objects.exists(), model


def test_the_benchmark_refuses_no_games():
    with pytest.raises(CommandError, match="--games and --views must be at least 1"):
        call_command("household_benchmark", "--games", "0")
