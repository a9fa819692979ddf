"""What the other seats' calls and passes say about their hands, as weights on sampled deals.

A search bot deals the cards it cannot see at random (``knowledge.Dealer``); a deal in which a seat
that bid 30 holds nothing is as likely as any other, though that seat would never have bid so. As
GIB does in bridge, each sampled deal is weighted by how likely the other seats' calls were with
the hands it gives them, under the bots' own model of a call (the heuristic's: ``choose_bid``,
``choose_pass``), made soft because the seats are not all heuristics and the model is rough:

* ``call_likelihood``: each bid and pass of another seat, a logistic of how far the call lies from
  the heuristic's limit for that hand (``heuristic.choose_bid``: 95% of the hand's worth, less a
  margin over a partner's bid), so a hand well past the threshold explains a bid almost surely, one
  at the threshold half the time, one far short of it hardly ever;
* ``pass_likelihood`` (classic): the cards the partner passed (or the bidder passed back), against
  what the heuristic would have passed from that seat's hand before the pass: each card it would
  not have passed divides the weight by ``PASS_MISS``.

``weighted_pick`` turns weights into a sample (sampling-importance-resampling: of a few deals
drawn at random, one kept with chance in proportion to its weight), so every consumer of deals
reads the weighted deals without weighing anything itself.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ..auction import dealer_forced, high_bid, least_bid
from ..cards import CARD_COUNT, Card
from ..search import PassingSeat
from ..view import SeatView
from .heuristic import (
    BID_MARGIN,
    OVERBID_PARTNER_MARGIN,
    PARTNER_BID_BONUS,
    Profile,
    choose_pass,
)

CALL_SOFTNESS = 0.1  # of the minimum bid: the logistic's scale around a call's threshold
PASS_MISS = 4.0  # a passed card the heuristic would not have passed divides a deal's weight by this


def call_likelihood(view: SeatView, worth: Callable[[int], float], p: Profile, since: int = 0) -> float:
    """How likely the other seats' calls in ``view``'s auction (from call number ``since`` on) were,
    ``worth(seat)`` being that seat's hand value on a sampled deal (``analysis.worth_on``): the
    product over their calls of a logistic around the heuristic's limit. A forced dealer's bid says
    nothing."""
    settings = view.settings
    scale = CALL_SOFTNESS * settings.min_bid
    likelihood = 1.0
    for index, (seat, bid) in enumerate(view.auction):
        if seat == view.seat or index < since:
            continue
        before = view.auction[:index]
        if bid is not None and dealer_forced(before, view.variant.seats, settings):
            continue
        limit = _bid_limit(before, seat, worth(seat), p)
        if bid is None:
            likelihood *= _logistic((least_bid(before, settings) - limit) / scale)
        else:
            likelihood *= _logistic((limit - bid) / scale)
    return likelihood


def _bid_limit(before: Sequence[tuple[int, int | None]], seat: int, worth: float, p: Profile) -> float:
    """The highest bid the heuristic would make with a hand worth ``worth`` (its partnerless value,
    ``valued_trump``) after the calls ``before`` (``heuristic.choose_bid``, ``hand_worth``)."""
    partners = p.partners[seat]
    high = high_bid(before)
    partner_high = high is not None and high[0] in partners
    if not partner_high and any(other in partners and bid is not None for other, bid in before):
        worth += PARTNER_BID_BONUS * p.settings.min_bid
    limit = (1 - BID_MARGIN) * worth
    if partner_high:
        limit -= OVERBID_PARTNER_MARGIN * p.settings.min_bid
    return limit


def _logistic(x: float) -> float:
    if x < -30:
        return math.exp(x)
    return 1.0 / (1.0 + math.exp(-x))


def as_dealt(
    view: SeatView, hands: Sequence[Sequence[int]], played: Sequence[Sequence[int]]
) -> list[list[int]]:
    """The hands of a sampled deal (``hands``: what each seat holds now) as they were dealt, before
    any card was passed or played (``played``: per seat, ``Knowledge.played_by``): what the calls
    were made on. Only this seat's own passing is undone: the only passes it has seen."""
    dealt = [[held[c] + done[c] for c in range(CARD_COUNT)] for held, done in zip(hands, played, strict=True)]
    other = _pass_partner(view)
    if other is not None:
        for c in view.passed:
            dealt[view.seat][c] += 1
            dealt[other][c] -= 1
        for c in view.received:
            dealt[view.seat][c] -= 1
            dealt[other][c] += 1
    return dealt


def _pass_partner(view: SeatView) -> int | None:
    """The seat this one passes with (its partner, one of them the bidder), or None before a pass."""
    if view.bidder is None or not (view.passed or view.received):
        return None
    side = view.variant.sides[view.variant.side_of(view.seat)]
    return next(s for s in side if s != view.seat)


def pass_likelihood(view: SeatView, dealt: Sequence[Sequence[int]], p: Profile) -> float:
    """How likely the pass this seat received was on the sampled deal ``dealt`` (``as_dealt``): the
    bidder reads the partner's pass, the partner the bidder's return, each against the heuristic's
    (``choose_pass``) from that seat's hand at its pass; 1 where no pass was received."""
    other = _pass_partner(view)
    if other is None or not view.received or view.bidder is None or view.trump is None:
        return 1.0
    before = list(dealt[other])
    if other == view.bidder:  # the bidder returned from its hand with the partner's pass in it
        for c in view.passed:
            before[c] += 1
    if min(before) < 0:  # this deal cannot have given the pass: no weight
        return 0.0
    held = tuple(Card(c) for c in range(CARD_COUNT) for _ in range(before[c]))
    model = list(choose_pass(PassingSeat(other, held, view.bidder, view.trump, len(view.received)), p))
    misses = 0
    for c in view.received:
        if c in model:
            model.remove(c)
        else:
            misses += 1
    return PASS_MISS**-misses


def weighted_pick(weights: Sequence[float], rng: random.Random) -> int:
    """An index drawn with chance in proportion to ``weights`` (the first where all are 0)."""
    total = sum(weights)
    if total <= 0:
        return 0
    pick = rng.random() * total
    for index, weight in enumerate(weights):
        pick -= weight
        if pick < 0:
            return index
    return len(weights) - 1


def systematic_resample(weights: Sequence[float], rng: random.Random) -> list[int]:
    """As many indices as ``weights``, each about ``len × weight / total`` times (systematic
    resampling: one random offset, so the counts stray from their share by under one); every index
    once where all weights are 0."""
    total, n = sum(weights), len(weights)
    if total <= 0:
        return list(range(n))
    step = total / n
    point = rng.random() * step
    picked: list[int] = []
    cumulative = 0.0
    for index, weight in enumerate(weights):
        cumulative += weight
        while point < cumulative and len(picked) < n:
            picked.append(index)
            point += step
    while len(picked) < n:  # rounding at the top end
        picked.append(n - 1)
    return picked
