"""``{% live_updates sheet %}``: the game page's poller, which keeps its scores in step with other phones."""

from typing import Any

from django import template
from django.urls import reverse

from ..selectors.games import Scoresheet
from ..selectors.live import POLL_SECONDS, sheet_fingerprint

register = template.Library()


@register.inclusion_tag("scorepad/_live_game.html")
def live_updates(
    sheet: Scoresheet, *, changed: bool = False, form_number: int | None = None
) -> dict[str, Any]:
    """The poller for ``sheet``'s game, knowing the hands ``sheet`` shows (its fingerprint).

    ``changed``: this is the answer to a poll, sent because another phone changed the game;
    ``form_number`` is the hand the page's form is for, to warn when that hand is now recorded.
    """
    return {
        "sheet": sheet,
        "game": sheet.game,
        "live_url": reverse("game_live", args=[sheet.game.pk]),
        "since": sheet_fingerprint(sheet),
        "poll_seconds": POLL_SECONDS,
        "changed": changed,
        "stale_form": form_number is not None and form_number != sheet.next_number,
        "form_number": form_number,
    }
