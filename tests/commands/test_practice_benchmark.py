"""``manage.py practice_benchmark`` prints the bots' time per player action, and saves nothing."""

import io
import re

import pytest
from django.core.management import CommandError, call_command

from scorepad.models import PracticeGame

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_the_benchmark_prints_p50_and_p95_per_variant_and_stage_and_rolls_back():
    out = io.StringIO()
    call_command("practice_benchmark", "--hands", "2", "--variant", "six-handed", stdout=out)
    line, *stages, machine = out.getvalue().splitlines()
    assert line.startswith("six-handed")
    assert "bots p50" in line
    assert "p95" in line
    names = [stage.split()[0] for stage in stages]  # in the order of a hand; six-handed passes no cards
    assert names[0] == "bid"
    assert names[-1] == "play"
    assert set(names) <= {"bid", "trump", "play"}
    assert all("bots CPU p50" in stage and "p95" in stage for stage in stages)
    speed = re.fullmatch(r"machine: ([\d,]+) classic playouts per CPU second \(expert_benchmark's\)", machine)
    assert speed is not None
    assert int(speed[1].replace(",", "")) > 0
    assert not PracticeGame.objects.exists()


def test_the_benchmark_refuses_no_hands():
    with pytest.raises(CommandError, match="--hands must be at least 1"):
        call_command("practice_benchmark", "--hands", "0")
