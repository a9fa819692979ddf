"""``{% club_clock view %}``: the round's time left on a table phone (and the director's page)."""

from typing import Any

from django import template
from django.utils import timezone

from ..models import ClubEvent, ClubRound
from ..pages.club_director import round_clock

register = template.Library()


@register.inclusion_tag("scorepad/club/director_clock.html")
def club_clock(event: ClubEvent, club_round: ClubRound | None) -> dict[str, Any]:
    """The bell of ``club_round`` as drawn now; ``static/js/clock.js`` counts it down on the phone."""
    return {"clock": round_clock(event, club_round, timezone.now())}
