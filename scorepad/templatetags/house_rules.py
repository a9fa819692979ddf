"""``{% house_rules state as rules %}``: a game's rules that differ from its variant's, in a few words."""

from django import template

from ..forms import house_rules_brief
from ..services.games import GameState

register = template.Library()


@register.simple_tag
def house_rules(state: GameState) -> str:
    """ "set costs double the bid; last trick 10", or "" when the game plays by its variant's defaults."""
    return "; ".join(house_rules_brief(state.variant, state.settings))
