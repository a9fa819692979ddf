"""The rules pages (``/rules/``): each variant's rules, one game's rules, the words, and Learn to play.

Every page is read-only (GET) and reads its numbers from the engine through ``rules_selectors``;
a game's page applies that game's house rules and marks what differs from the variant's defaults.
Learn to play keeps the whole lesson in its URL (``learn.py``), so it works with plain links.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from ..engine.variants import VARIANTS, Variant, get_variant
from ..pages.lessons import lesson
from ..pages.rules import RulesPage, glossary, rules_page
from ..selectors.access import get_game_for_user
from ..selectors.practice import get_practice_for_request
from .rendering import HtmxHttpRequest, page_or_partial


def _variant(variant_id: str) -> Variant:
    if variant_id not in VARIANTS:
        raise Http404("No such variant")
    return VARIANTS[variant_id]


def _rules(
    request: HtmxHttpRequest, page: RulesPage, *, game_title: str = "", back_url: str = ""
) -> HttpResponse:
    context = {"page": page, "game_title": game_title, "back_url": back_url, "variants": VARIANTS.values()}
    return render(request, "scorepad/rules.html", context)


@require_GET
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    """Every variant's rules and first hand, and the words."""
    return render(request, "scorepad/rules_index.html", {"variants": VARIANTS.values()})


@require_GET
def rules_variant(request: HtmxHttpRequest, variant_id: str) -> HttpResponse:
    return _rules(request, rules_page(_variant(variant_id)))


@require_GET
@login_required
def rules_game(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A scorepad game's rules: its variant with the game's house rules applied and marked."""
    game = get_game_for_user(request.user, game_id)
    variant = get_variant(game.variant)
    page = rules_page(variant, variant.settings(game.settings))
    return _rules(
        request, page, game_title=str(game.household.name), back_url=reverse("game", args=[game.pk])
    )


@require_GET
def rules_practice(request: HtmxHttpRequest, practice_id: int) -> HttpResponse:
    """A practice game's rules, with its house rules applied and marked."""
    game = get_practice_for_request(request, practice_id)
    variant = get_variant(game.variant)
    page = rules_page(variant, variant.settings(game.settings))
    back = reverse("practice_game", args=[game.pk])
    return _rules(request, page, game_title="your practice game", back_url=back)


@require_GET
def rules_words(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "scorepad/glossary.html", {"terms": glossary()})


@require_GET
def learn(request: HtmxHttpRequest, variant_id: str) -> HttpResponse:
    """One stage of the guided first hand; ``moves`` in the URL is every answer so far."""
    variant = _variant(variant_id)
    moves = request.GET.get("moves", "")
    if "pass" in request.GET:  # the pass form: the cards ticked are one more answer
        moves = ",".join(part for part in (moves, ".".join(request.GET.getlist("pass"))) if part)
    page = lesson(variant.id, moves)
    return page_or_partial(request, "scorepad/learn.html", "lesson", {"lesson": page, "variant": variant})
