"""``manage.py daily_deals`` works out the expert's result on the coming days' deals ahead of time."""

import io

import pytest
from django.core.management import CommandError, call_command

from scorepad import bot_pool
from scorepad.models import DailyDeal

pytestmark = pytest.mark.django_db


def test_the_coming_days_deals_are_made_and_worked_out_once(monkeypatch):
    # What the command stores and when it works a deal out, not how well: easy bots, few playouts.
    monkeypatch.setattr("scorepad.services.daily.DAILY_STRENGTH", "easy")
    monkeypatch.setattr("scorepad.services.daily.REVIEW_PLAYOUTS", 8)
    out = io.StringIO()
    call_command("daily_deals", "--from", "2026-12-06", "--days", "2", "--variant", "six-handed", stdout=out)

    deals = list(DailyDeal.objects.order_by("day"))
    assert [str(deal.day) for deal in deals] == ["2026-12-06", "2026-12-07"]
    assert all(deal.expert_score == deal.expert_line["scores"][0] for deal in deals)
    assert len(out.getvalue().splitlines()) == 2
    monkeypatch.setattr(bot_pool, "think", lambda *args: pytest.fail("worked out twice"))
    call_command("daily_deals", "--from", "2026-12-06", "--days", "2", "--variant", "six-handed", stdout=out)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [(["--days", "0"], "--days must be 1 to 366"), (["--from", "2026-02-30"], "--from is not a day")],
)
def test_bad_arguments_are_refused_in_one_line(arguments, said):
    with pytest.raises(CommandError, match=said):
        call_command("daily_deals", *arguments)
    assert not DailyDeal.objects.exists()
