"""The meld calculator (RULES.md §0.5–0.6, §4, §9.1–9.2): a hand in the URL, its meld on the page.

GET only, so a result can be bookmarked or shared. Every tap is a plain link to the next URL that
also carries ``hx-get``: with JavaScript the calculator section is swapped in place, without it
the whole page loads. Bad input is shown beside its field and never stops the page from working.

Opened from a scorepad hand form ("Count it"), the URL also carries ``return`` (that form's local
path), ``side``, ``side_label`` and maybe ``meld_now`` (the side's meld so far): every tap keeps them, and
the page offers the total back to the form, or added to ``meld_now`` (a partner's hand counted second).
From the scorepad ("Count it" or "Bid advisor") it also carries the game's house rules (``rules``, a
JSON object), so meld and the bid advisor follow that table's rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.views.decorators.http import require_GET

from scorepad import bot_pool
from scorepad.engine import cards
from scorepad.engine.advisor import BID_LEVELS, PERCENTILES, Advice
from scorepad.engine.cards import Card, Suit
from scorepad.engine.meld import MeldResult, best_trumps, count_meld
from scorepad.engine.variants import VARIANTS
from scorepad.forms.meld import (
    MELD_SETTING_CHOICES,
    MELD_SETTING_LABELS,
    MeldQuery,
    MeldQueryForm,
    ReturnTrip,
)
from scorepad.pages.house_rules import house_rules_brief

from .limits import limited
from .rendering import HtmxHttpRequest, page_or_partial
from .thinking import pays_for_thinking

MAIN_MELDS_SHOWN = 3  # melds named per suit when every trump is compared
ADVISOR_SEED = 0  # the same hand gets the same advice every time it is asked (on an idle server)
ADVISOR_BUDGET_S = 1.5  # a busy server answers on fewer simulations rather than late
ADVISOR_BUSY = "The bots are busy at other tables: ask for the advice again in a moment."


@dataclass(frozen=True, slots=True)
class AdvisorRow:
    """One trump of the bid advisor: its meld, the simulated results' spread and its three bids."""

    suit: SuitLabel
    meld: int
    mean: float
    percentiles: tuple[int, ...]
    bids: tuple[int | None, ...]  # safe, standard, bold


@dataclass(frozen=True, slots=True)
class Advisor:
    """The bid advisor's section: a link to ask (``ask_url``), or the advice once asked."""

    ask_url: str | None
    best: AdvisorRow | None = None
    rows: tuple[AdvisorRow, ...] = ()
    samples: int = 0
    levels: tuple[tuple[str, int], ...] = tuple((name, round(share * 100)) for name, share in BID_LEVELS)
    percentiles: tuple[int, ...] = PERCENTILES

    @property
    def best_bids(self) -> list[tuple[str, int, int | None]]:
        """(level, share made, bid) for the best trump."""
        assert self.best is not None
        return [(name, share, bid) for (name, share), bid in zip(self.levels, self.best.bids, strict=True)]


@dataclass(frozen=True, slots=True)
class CardButton:
    """One card of the deck grid (add a copy) or of the hand (remove one); ``url`` None: can't."""

    code: str
    rank: str
    suit: str
    symbol: str
    count: int
    url: str | None


@dataclass(frozen=True, slots=True)
class Choice:
    """One segment of a segmented control: a variant or a trump."""

    label: str
    url: str
    current: bool
    symbol: str = ""
    suit: str = ""


@dataclass(frozen=True, slots=True)
class SuitLabel:
    letter: str
    symbol: str
    name: str


def _suit_label(suit: Suit) -> SuitLabel:
    letter = cards.SUITS[suit]
    return SuitLabel(letter, cards.SYMBOL_OF_SUIT[letter], cards.SUIT_NAMES[letter])


@dataclass(frozen=True, slots=True)
class TrumpRow:
    """One line of the every-suit comparison."""

    suit: SuitLabel
    total: int
    main_melds: str
    url: str


@dataclass(frozen=True, slots=True)
class WayBack:
    """The links back to the hand form: this total added to the side's meld so far (``add_url``),
    this total instead (``use_url``), or without counting (``back_url``)."""

    back_url: str
    side_label: str
    use_url: str | None  # None: no side to fill, or the hand was refused and has no total
    total: int | None
    best_suit: SuitLabel | None  # set while trump is not chosen: the total is that suit's
    meld_now: int | None = None
    add_url: str | None = None  # None: nothing counted before (or it was 0), so nothing to add to

    @property
    def sum(self) -> int | None:
        return None if self.meld_now is None or self.total is None else self.meld_now + self.total


def _asks_advice(request: HtmxHttpRequest) -> bool:
    """``advise`` as the form reads it (a BooleanField): the bid advisor costs CPU, the rest little."""
    return request.GET.get("advise", "").strip().lower() not in {"", "0", "false"}


@require_GET
@limited("bid-advice", when=_asks_advice)
@pays_for_thinking
def meld_calculator(request: HtmxHttpRequest) -> HttpResponse:
    form = MeldQueryForm(request.GET)
    trip = ReturnTrip.from_query(request.GET, host=request.get_host(), secure=request.is_secure())
    query = form.query(trip)
    busy = False
    try:
        advice = None if form.errors.get("cards") else _advice(query)  # thought before the page
    except (bot_pool.BotsBusy, bot_pool.BrokenProcessPool):
        advice, busy = None, True
        messages.warning(request, ADVISOR_BUSY)
    context = {"form": form, "query": query, **calculator_context(query, form, advice)}
    response = page_or_partial(request, "scorepad/meld.html", "calculator", context)
    if busy:  # said in words, with when to ask again
        response.status_code, response["Retry-After"] = 503, "2"
    return response


def _advice(query: MeldQuery) -> Advice | None:
    """The bid advisor's simulation, once asked for a full hand, where the bots think."""
    if not query.advise or len(query.hand) != query.variant.hand_size:
        return None
    rules = {**query.table_rules, **dict(query.overrides)}
    return bot_pool.advise(query.variant.id, rules, query.hand, ADVISOR_SEED, ADVISOR_BUDGET_S)


def calculator_context(query: MeldQuery, form: MeldQueryForm, advice: Advice | None) -> dict[str, Any]:
    hand_error = "; ".join(str(error) for error in form.errors.get("cards", []))
    trump_results = best_trumps(query.counts, query.variant, query.settings)
    chosen = _chosen_result(query, trump_results)
    result_suit = _suit_label(trump_results[0][0] if query.trump is None else query.trump)
    return {
        "variants": _variant_choices(query),
        "trumps": _trump_choices(query),
        "deck_rows": _deck_rows(query),
        "hand_chips": _hand_chips(query),
        "clear_url": query.cleared().url(),
        "cards_text": form.data.get("cards", "") if hand_error else " ".join(cards.codes(query.hand)),
        "hand_error": hand_error,
        "result": chosen,
        "result_suit": result_suit,
        "trump_rows": [] if query.trump is not None or query.no_trump else _trump_rows(query, trump_results),
        "settings_fields": _settings_fields(query, form),
        "dropped_notes": query.why_dropped(),
        "table_rules": house_rules_brief(query.variant, query.variant.settings(query.table_rules)),
        "way_back": _way_back(query, None if hand_error else chosen, result_suit),
        "trip_params": query.trip.params() if query.trip else {},
        "advisor": None if hand_error else advisor_context(query, advice),
    }


def advisor_context(query: MeldQuery, advice: Advice | None) -> Advisor | None:
    """Nothing until the hand is full; then a link to ask, or, once asked, the advice itself
    (thought by the view: ``_advice``)."""
    if len(query.hand) != query.variant.hand_size:
        return None
    if advice is None:
        return Advisor(ask_url=query.advised().url())
    rows = tuple(_advisor_row(advice, index) for index in range(len(advice.trumps)))
    return Advisor(ask_url=None, best=rows[0] if rows else None, rows=rows, samples=advice.samples)


def _advisor_row(advice: Advice, index: int) -> AdvisorRow:
    found = advice.trumps[index]
    bids = tuple(found.bids[name] for name, _ in BID_LEVELS)
    return AdvisorRow(_suit_label(found.trump), found.meld, found.mean, found.percentiles, bids)


def _way_back(query: MeldQuery, result: MeldResult | None, suit: SuitLabel) -> WayBack | None:
    trip = query.trip
    if trip is None:
        return None
    if trip.side is None or result is None:
        return WayBack(trip.back_path, trip.label, None, None, None)
    # Trump not chosen: the best suit's total goes back, and the link says which suit that was.
    best = suit if query.trump is None and not query.no_trump and query.hand else None
    use_url = trip.with_meld(result.total)
    if not trip.meld_now:  # 0 + N is just N: one link is enough
        return WayBack(trip.back_path, trip.label, use_url, result.total, best)
    add_url = trip.with_meld(trip.meld_now + result.total)
    return WayBack(trip.back_path, trip.label, use_url, result.total, best, trip.meld_now, add_url)


def _chosen_result(query: MeldQuery, trump_results: list[tuple[Suit, MeldResult]]) -> MeldResult:
    """The chosen trump's meld, none's (a no-marriage hand, RULES §2.3), or the best suit's while
    trump is not chosen yet."""
    if query.no_trump:
        return count_meld(query.counts, None, query.variant, query.settings)
    if query.trump is None:
        return trump_results[0][1]
    return next(result for suit, result in trump_results if suit == query.trump)


def _variant_choices(query: MeldQuery) -> list[Choice]:
    return [
        Choice(variant.id.capitalize(), query.with_variant(variant).url(), variant is query.variant)
        for variant in VARIANTS.values()
    ]


def _trump_choices(query: MeldQuery) -> list[Choice]:
    choices = [Choice("Not chosen", query.with_trump(None).url(), query.trump is None and not query.no_trump)]
    for suit, letter in enumerate(cards.SUITS):
        url = query.with_trump(suit).url()
        label = cards.SUIT_NAMES[letter].capitalize()
        choices.append(Choice(label, url, query.trump == suit, cards.SYMBOL_OF_SUIT[letter], letter))
    choices.append(Choice("No trump", query.with_no_trump().url(), query.no_trump))
    return choices


def _deck_rows(query: MeldQuery) -> list[list[CardButton]]:
    """Four suit rows of the variant's ranks; a card at its deck limit, or a full hand, adds nothing."""
    counts = query.counts
    rows = []
    for suit in range(4):
        row = []
        for rank in query.variant.ranks:
            card = cards.card(rank, suit)
            addable = counts[card] < query.variant.copies and not query.full
            row.append(_button(card, counts[card], query.with_card(card).url() if addable else None))
        rows.append(row)
    return rows


def _hand_chips(query: MeldQuery) -> list[CardButton]:
    counts = query.counts
    return [_button(card, counts[card], query.without_card(card).url()) for card in sorted(set(query.hand))]


def _button(card: Card, count: int, url: str | None) -> CardButton:
    code = cards.CODES[card]
    rank = cards.RANK_SHOWN.get(code[0], code[0])  # "10", as players write it, never the code's "T"
    return CardButton(code, rank, code[1], cards.SYMBOL_OF_SUIT[code[1]], count, url)


def _trump_rows(query: MeldQuery, trump_results: list[tuple[Suit, MeldResult]]) -> list[TrumpRow]:
    rows = []
    for suit, result in trump_results:
        biggest = sorted(result.melds, key=lambda line: -line.points)[:MAIN_MELDS_SHOWN]
        main = ", ".join(line.name for line in biggest)
        url = query.with_trump(suit).url()
        rows.append(TrumpRow(_suit_label(suit), result.total, main, url))
    return rows


def _settings_fields(query: MeldQuery, form: MeldQueryForm) -> list[dict[str, Any]]:
    chosen = dict(query.overrides)
    defaults = query.variant.defaults
    return [
        {
            "name": key,
            "label": MELD_SETTING_LABELS[key],
            # A variant default with no words yet shows its §4 value rather than failing the page.
            "default": choices.get(getattr(defaults, key), getattr(defaults, key)),
            "options": [(value, words, chosen.get(key) == value) for value, words in choices.items()],
            "errors": form.errors.get(key, []),
        }
        for key, choices in MELD_SETTING_CHOICES.items()
    ]
