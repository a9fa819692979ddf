"""``{{ trump|suit_symbol }}``: a suit letter (S H D C) as its symbol, from the engine's one table."""

from django import template

from ..engine.cards import SUIT_NAMES, SYMBOL_OF_SUIT

register = template.Library()


@register.filter
def suit_symbol(letter: str | None) -> str:
    """ "H" -> "♥"; anything else (no trump) -> ""."""
    return SYMBOL_OF_SUIT.get(letter or "", "")


@register.filter
def suit_name(letter: str | None) -> str:
    """ "H" -> "hearts": what a screen reader says beside the symbol; anything else -> ""."""
    return SUIT_NAMES.get(letter or "", "")
