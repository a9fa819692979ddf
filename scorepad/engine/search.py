"""The engine's search kit: from a sampled deal to a lean play state, and whole contracts simulated.

* ``play_state(view, hands)``: the trick play of ``view``'s hand continued on a sampled deal
  (``knowledge.determinize``), as a ``lean.PlayState`` and the ``lean.Contract`` that scores it.
* ``contract_state(...)``: a sampled deal with a given bidder, bid and trump carried through the
  passing (§1.3) and the meld (a real ``HandState``, so every rule applies) up to the first lead.
* ``playout_policy(variant)``: the lean policy every simulated hand of the variant is played by.
* ``simulate_contract(...)``: the same contract played out by that policy: what the hand
  scores. It passes the cards on the counts (``passed_hands``) and counts the meld as points only,
  since nobody looks at a simulated hand's shown cards; a test holds it to ``contract_state``.

Nothing here sees a real hidden card: callers pass deals they sampled themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .cards import Card, Suit, cards_from_counts
from .game import HandState, seat_view
from .lean import Chooser, Contract, PlayState, blind_policy, playout, policy
from .meld import meld_points
from .play import close_trick, play_rules
from .scoring import HandEntry, score_hand, short_meld_stops_play
from .variants import Settings, Variant
from .view import CONCEDE, PASS, PLAY, PassingView, SeatView

# Chooses the cards a seat passes, from that seat's own view (a real ``SeatView`` in a game state,
# a ``PassingSeat`` in a simulated hand).
Passer = Callable[[PassingView], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class PassingSeat:
    """A seat about to pass in a simulated hand: what a passer reads of its view (``PassingView``)."""

    seat: int
    hand: tuple[Card, ...]
    bidder: int
    trump: Suit
    pass_count: int


def playout_policy(variant: Variant) -> Chooser:
    """The policy every simulated hand of ``variant`` is played by: the expert's play decisions'
    playouts, its bid analyses' contracts (``simulate_contract``) and the bid advisor's.

    Without a partner (`six-handed`) every seat plays blind to the sampled deal, as it would at the
    table (``lean.blind_policy``): a policy that sees the deal rates a card by later plays no player
    could make, and a contract by a play of the cards nobody at the table would find. Paired on
    the same deals, blind playouts gained in six-handed's play decisions, and again in its bid
    analyses with the lone bidder's made bar lowered to match (``bots.expert.MADE_NEEDED_ALONE``).
    With a partner, the policy that sees the deal (``lean.policy``) stands in for partners who read
    each other's play: blind play decisions were no clear gain in `classic` or `double-deck`, and
    blind bids in `classic` lost even at a lower made bar (the figures: ``bots/FINDINGS.md``)."""
    return policy if variant.partnerships else blind_policy


def play_state(view: SeatView, hands: Sequence[Sequence[int]]) -> tuple[PlayState, Contract]:
    """``view``'s trick play (its completed tricks and the trick in progress) on the deal ``hands``."""
    variant, settings = view.variant, view.settings
    assert view.bidder is not None
    assert view.bid is not None
    assert view.trump is not None
    rules = play_rules(variant, settings, view.bid)
    sides = rules.sides
    points, took = [0] * sides, [False] * sides
    for done, trick in enumerate(view.tricks):
        close_trick(rules, trick.cards, trick.leader, view.trump, done, points, took)
    current = view.trick
    state = PlayState(
        rules,
        view.trump,
        hands,
        current.leader if current is not None else view.bidder,
        list(current.cards) if current is not None else [],
        points,
        took,
        len(view.tricks),
        view.bidder,
    )
    meld = variant.side_totals(view.meld)
    return state, Contract(variant, settings, view.bidder, view.bid, view.trump, meld)


def contract_state(
    variant: Variant,
    settings: Settings,
    dealer: int,
    hands: Sequence[Sequence[int]],
    bidder: int,
    bid: int,
    trump: Suit,
    passer: Passer,
) -> HandState:
    """The deal ``hands`` after an auction won by ``bidder`` at ``bid``, with ``trump`` named, the
    cards passed (``passer`` answers for each seat that passes) and meld shown, playing on where
    the bidder may concede: at the first lead, or over (the rule of 20 stopped it)."""
    state = trump_named(variant, settings, dealer, hands, bidder, bid, trump)
    while state.decision == PASS:
        assert state.to_act is not None
        state.push(passer(seat_view(state, state.to_act)))
    if state.decision == CONCEDE:  # `bidder_may_concede`: a simulated contract is played out
        state.push(False)
    return state


def trump_named(
    variant: Variant,
    settings: Settings,
    dealer: int,
    hands: Sequence[Sequence[int]],
    bidder: int,
    bid: int,
    trump: Suit,
) -> HandState:
    """The deal ``hands`` with the auction won by ``bidder`` at ``bid`` and ``trump`` named."""
    dealt = [cards_from_counts(hand) for hand in hands]
    state = HandState.auction_won(variant, settings, dealer, dealt, bidder=bidder, bid=bid)
    state.push(trump)
    return state


def lean_of(state: HandState) -> tuple[PlayState, Contract]:
    """A ``HandState`` at its first lead as a lean play state and its contract."""
    assert state.decision == PLAY
    assert state.bidder is not None
    assert state.bid is not None
    assert state.trump is not None
    assert state.meld is not None
    return first_lead(
        state.variant,
        state.settings,
        state.hands,
        state.bidder,
        state.bid,
        state.trump,
        state.variant.side_totals(state.meld),
    )


def first_lead(
    variant: Variant,
    settings: Settings,
    hands: Sequence[Sequence[int]],
    bidder: int,
    bid: int,
    trump: Suit,
    meld: tuple[int, ...],
) -> tuple[PlayState, Contract]:
    """The hands ``hands`` at the bidder's first lead (``PlayState`` keeps its own copy), and the
    contract (``meld`` per side)."""
    rules = play_rules(variant, settings, bid)
    sides = rules.sides
    lean = PlayState(rules, trump, hands, bidder, [], [0] * sides, [False] * sides, 0, bidder)
    return lean, Contract(variant, settings, bidder, bid, trump, meld)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One simulated hand: what the bidders' side counted towards the bid, and every side's score."""

    bidders_took: int  # meld + trick points of the bidders' side (no meld without a trick where it needs one)
    meld: tuple[int, ...]  # per side
    points: tuple[int, ...]  # per side (zeros when the hand was not played)
    took: tuple[bool, ...]
    played: bool


def simulate_contract(
    variant: Variant,
    settings: Settings,
    hands: Sequence[Sequence[int]],
    bidder: int,
    trump: Suit,
    passer: Passer,
    *,
    passes: Mapping[int, Sequence[Card]] | None = None,
    exact_from: int = 0,
) -> Outcome:
    """Simulate the hand with ``bidder`` playing in ``trump``: what each side melds and takes.
    ``passes`` are the cards some seats pass, already chosen (``passer`` chooses the others').

    The bid only decides the score, so it is left out: score an ``Outcome`` at any bid with
    ``outcome_scores``. (One above the minimum stands in while playing: the play rules look at the
    bid only for `bidder_must_lead_trump`'s "unless the bid was the minimum".) Nor does the dealer
    count: the bidder leads.
    """
    bid = settings.min_bid + 1
    held = passed_hands(variant, settings, hands, bidder, trump, passer, passes or {})
    # The meld as points only: nobody looks at the cards shown in a simulated hand, and laying
    # them out (``meld.shown_cards``) took a third of a bid search. Past the meld the rules are
    # ``HandState._show_meld``'s: a short meld stops play, a bidder who may concede plays on.
    meld = variant.side_totals(tuple(meld_points(hand, trump, variant, settings) for hand in held))
    bidders = variant.side_of(bidder)
    if short_meld_stops_play(settings, meld[bidders]):
        nothing = (0,) * len(variant.sides)
        return Outcome(meld[bidders], meld, nothing, (False,) * len(nothing), played=False)
    lean, contract = first_lead(variant, settings, held, bidder, bid, trump, meld)
    playout(lean, contract, bidders, exact_from, playout_policy(variant))
    took_meld = meld[bidders] if (lean.took[bidders] or not settings.meld_requires_trick) else 0
    return Outcome(took_meld + lean.points[bidders], meld, tuple(lean.points), tuple(lean.took), played=True)


def passed_hands(
    variant: Variant,
    settings: Settings,
    hands: Sequence[Sequence[int]],
    bidder: int,
    trump: Suit,
    passer: Passer,
    passes: Mapping[int, Sequence[Card]],
) -> Sequence[Sequence[int]]:
    """The deal ``hands`` once the cards are passed (§1.3), the partner first: ``passes[seat]`` where
    given, else ``passer``'s answer for that seat (a ``PassingSeat``: a game state's whole view is not
    needed, and building one for every simulated hand cost a sixth of a classic bid analysis);
    ``hands`` itself where nobody passes. ``tests/engine/test_search.py`` holds the result to a real
    ``HandState``'s passing."""
    partner = next((s for s in variant.sides[variant.side_of(bidder)] if s != bidder), None)
    if not settings.pass_cards or partner is None:
        return hands
    held = [list(hand) for hand in hands]
    for giver, taker in ((partner, bidder), (bidder, partner)):
        cards = passes.get(giver)
        if cards is None:
            seat = PassingSeat(
                giver, tuple(cards_from_counts(held[giver])), bidder, trump, settings.pass_cards
            )
            cards = passer(seat)
        for c in cards:
            held[giver][c] -= 1
            held[taker][c] += 1
    return held


def outcome_scores(
    variant: Variant, settings: Settings, outcome: Outcome, bidder: int, bid: int, trump: Suit
) -> tuple[int, ...]:
    """Each side's score for a simulated hand had the bid been ``bid`` (the real scorer)."""
    tricks = outcome.points if outcome.played else None
    took = outcome.took if outcome.played else None
    return score_hand(variant, settings, HandEntry(bidder, bid, trump, outcome.meld, tricks, took)).scores
