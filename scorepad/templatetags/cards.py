"""``{{ trump|suit_symbol }}``: a suit letter (S H D C) as its symbol, from the engine's one table."""

from django import template
from django.utils.html import format_html_join

from ..engine import cards
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


@register.filter
def card_words(code: str) -> str:
    """A §9.1 card code as players write it: "TH" -> "10♥"; unknown text is shown as it came."""
    try:
        return cards.card_words(cards.parse_card(code))
    except cards.CardError:
        return code


@register.filter
def coloured_cards(text: str) -> str:
    """Cards in words ("10♥ A♠ …"), each in a span of its suit's class, so hearts and diamonds take
    their colour (the symbol still says the suit); every word is escaped."""
    words = ((cards.SUIT_SYMBOLS.get(word[-1:], "none"), word) for word in str(text).split())
    return format_html_join(" ", '<span class="suit-{}">{}</span>', words)
