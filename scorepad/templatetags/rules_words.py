"""``{{ line.text|term_parts }}``: a rules line as (words, glossary slug or None) pieces to link."""

from django import template

from ..pages.rules import term_parts as split_terms

register = template.Library()


@register.filter
def term_parts(text: str) -> list[tuple[str, str | None]]:
    return split_terms(text)
