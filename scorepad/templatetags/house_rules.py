"""``{% house_rules sheet as rules %}``: a game's rules that differ from its variant's, in a few words."""

from django import template

from ..pages.house_rules import house_rules_brief
from ..selectors.games import Scoresheet

register = template.Library()


@register.simple_tag
def house_rules(sheet: Scoresheet) -> str:
    """ "set costs double the bid; last trick 10", or "" when the game plays by its variant's defaults."""
    return "; ".join(house_rules_brief(sheet.variant, sheet.settings))
