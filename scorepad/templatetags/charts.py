"""``{% totals_chart game_score side_names %}``: a game's running totals as server-drawn SVG."""

from collections.abc import Sequence
from typing import Any

from django import template

from ..charts import totals_chart as chart_of
from ..engine.scoring import GameScore

register = template.Library()


@register.inclusion_tag("scorepad/_totals_chart.html")
def totals_chart(game_score: GameScore, side_names: Sequence[str]) -> dict[str, Any]:
    """The chart of ``game_score``'s totals after each hand, one line per side, target from its settings."""
    chart = chart_of(
        [hand.totals for hand in game_score.hands],
        target=game_score.settings.target,
        labels=list(side_names),
    )
    return {"chart": chart}
