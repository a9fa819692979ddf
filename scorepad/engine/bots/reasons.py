"""One reason for an answer, in a player's words and grounded in the cards (hints and reviews).

The expert decides by simulation; a player learns from what the cards say. So each reason
names the cards (``A♦``, never ``AD``), the suit and the counts a player can check at the table
("both other A♦ are gone", "your partner is winning the trick: give him a counter", "you hold
5 spades and 18 meld; 23 is made in about 8 of 10 hands"), and it never argues against the
answer it explains: a pass is explained by why bidding on does not pay, a card by what it does
in this trick or what it keeps for later. A reason never reads like the search's log: no count
of deals or of answers tried, and a trump is never explained by "lead trump" alone (which
trump, and why that one, is what a player can use).

Only words live here: nothing a bot decides depends on them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..cards import ACE, SUIT_NAMES, SUITS, Card, Suit, card_words, counts_of, rank_of, suit_of
from ..meld import meld_points
from ..play import trick_winner
from ..view import Answer, Decision, SeatView

if TYPE_CHECKING:  # the heuristic explains itself with these words: no import of it at run time
    from .heuristic import Profile


def suit_words(suit: Suit) -> str:
    return SUIT_NAMES[SUITS[suit]]


def one_of(suit: Suit) -> str:
    """ "spade": one card of the suit."""
    return suit_words(suit).removesuffix("s")


def holding_words(view: SeatView, trump: Suit) -> str:
    """ "5 spades and 18 meld": what the hand holds with ``trump`` named, as a player counts it."""
    trumps = sum(1 for c in view.hand if suit_of(c) == trump)
    meld = meld_points(counts_of(view.hand), trump, view.variant, view.settings)
    return f"{trumps} {suit_words(trump)} and {meld} meld"


def out_of(count: int, total: int) -> str:
    """How often, as a player says it: "about 8 of 10 hands", "every hand", "hardly any hand"."""
    if total <= 0 or count <= 0:
        return "hardly any hand"
    if count >= total:
        return "every hand"
    tenths = round(10 * count / total)
    if tenths == 0:
        return "fewer than 1 of 10 hands"
    if tenths == 10:
        return "nearly every hand"
    return f"about {tenths} of 10 hands"


# -- bidding, trump, passing ---------------------------------------------------------------------


def bid_reason(view: SeatView, bid: int, trump: Suit, made: int, samples: int) -> str:
    return f"you hold {holding_words(view, trump)}; {bid} is made in {out_of(made, samples)}"


def pass_bid_reason(
    view: SeatView, least: int, trump: Suit, made: int, samples: int, *, enough: bool, over_partner: bool
) -> str:
    """Why not bid ``least``: too rarely made, or made often enough but the sets cost more."""
    odds = f"{least} is made in only {out_of(made, samples)}"
    holding = f"with {holding_words(view, trump)}"
    if over_partner:
        return f"your partner holds the bid; {holding}, {odds}: not enough to outbid him"
    if enough:
        return (
            f"{holding}, {least} is made in {out_of(made, samples)}, "
            "but the sets cost more than the made hands score"
        )
    return f"{holding}, your best trump, {odds}"


def game_bid_reason(
    bid: int, *, bidding: bool, going_out: int, pushed: int, safe: int, samples: int, passes: int
) -> str:
    """Why bid or pass near the end of the game: what each does to the game, not only to the hand."""
    if bidding and going_out:
        words = f"bidding to go out: {bid} wins the game in {out_of(going_out, samples)}"
        return f"{words}; if you pass, they go out in {out_of(pushed, passes)}" if pushed else words
    if bidding and pushed:
        return f"pushing them: they go out if they make it (in {out_of(pushed, passes)} if you pass)"
    if not bidding and safe:
        return f"letting it go: the game is won without bidding in {out_of(safe, passes)}"
    if bidding:
        return f"for the game, bidding {bid} is worth more than passing"
    return f"for the game, passing is worth more than bidding {bid}"


def trump_reason(view: SeatView, trump: Suit, made: int, samples: int) -> str:
    return f"you hold {holding_words(view, trump)}; the bid is made in {out_of(made, samples)}"


def pass_cards_reason(view: SeatView, cards: Sequence[Card], tried: int, samples: int) -> str:
    """What a pass does for the side, in cards: what the bidder gets, or what the bidder keeps.
    (``tried`` and ``samples`` are how the expert chose it: not a player's reason, so not said.)"""
    assert view.trump is not None
    effect = pass_effect(view, cards)
    winners = [c for c in cards if suit_of(c) == view.trump or rank_of(c) == ACE]
    if view.seat != view.bidder:
        return f"{effect}: cards that take tricks for the contract" if winners else effect
    kept = [c for c in view.hand if suit_of(c) == view.trump or rank_of(c) == ACE]
    for c in cards:
        if c in kept:
            kept.remove(c)
    if not winners:
        return f"{effect}, and you keep every trump and ace for the play"
    if not kept:
        return effect
    return f"{effect}, and you keep {len(kept)} of your trumps and aces for the play"


def pass_effect(view: SeatView, cards: Sequence[Card]) -> str:
    """What a pass does: trumps and aces sent to the bidder, or the meld the bidder keeps."""
    assert view.trump is not None
    trumps = sum(1 for c in cards if suit_of(c) == view.trump)
    aces = sum(1 for c in cards if rank_of(c) == ACE and suit_of(c) != view.trump)
    if view.seat != view.bidder:
        parts = [_count(trumps, "trump"), _count(aces, "side ace")]
        sent = " and ".join(part for part in parts if part) or "your least useful cards"
        return f"it sends the bidder {sent}"
    before = meld_points(counts_of(view.hand), view.trump, view.variant, view.settings)
    kept = list(view.hand)
    for c in cards:
        kept.remove(c)
    after = meld_points(counts_of(kept), view.trump, view.variant, view.settings)
    return f"your meld stays {before}" if after == before else f"your meld drops only to {after}"


def heuristic_reason(view: SeatView, answer: Answer, p: Profile) -> str:
    """The heuristic's reason for ``answer``: what its rules of thumb read in the cards."""
    match view.decision:
        case Decision.BID:
            return _bid_reason(view, answer)
        case Decision.TRUMP:
            assert isinstance(answer, int)
            return f"you hold {holding_words(view, answer)}: the most meld and winners"
        case Decision.PASS:
            assert isinstance(answer, tuple)
            return pass_effect(view, answer)
        case Decision.CONCEDE:
            return _concede_reason(view, bool(answer), p)
        case Decision.PLAY:
            assert isinstance(answer, int)
            return play_reason(view, Card(answer), p)
        case _:
            raise ValueError(f"no answer once the hand is {view.decision}")


def _bid_reason(view: SeatView, answer: Answer) -> str:
    least = view.least_bid
    if not view.may_pass:
        return f"everyone else passed, so the dealer must bid {least}"
    best = max(range(4), key=lambda s: meld_points(counts_of(view.hand), s, view.variant, view.settings))
    holding = holding_words(view, best)
    if answer is None:
        return f"with {holding}, your best trump, the hand is not worth {least}"
    return f"you hold {holding}: with your winners the hand is worth {least} or more"


def _concede_reason(view: SeatView, throw_in: bool, p: Profile) -> str:
    assert view.bid is not None
    meld = sum(view.meld[seat] for seat in view.variant.sides[view.variant.side_of(view.seat)])
    need = f"{view.bid} needs {max(0, view.bid - meld)} of the {p.total_points} trick points"
    if throw_in:
        return f"throw in: {need} beyond your side's meld, more than a side can hope to take"
    return f"play on: {need} beyond your side's meld"


def concede_reason(forfeit: int, playing_on: float, samples: int, *, throw_in: bool) -> str:
    """Both outcomes, the chosen first: "throw in: your side loses 25; playing on, it loses 31 on
    average"."""
    on_average = f"{gain_words(round(playing_on))} on average"
    if throw_in:
        return f"throw in: your side {gain_words(forfeit)}; playing on, it {on_average}"
    return f"play on: your side {on_average}; throwing in, it {gain_words(forfeit)}"


def gain_words(score: int) -> str:
    """ "loses 25" or "scores 12"."""
    return f"loses {-score}" if score < 0 else f"scores {score}"


def _count(n: int, word: str) -> str:
    return "" if not n else f"{n} {word}{'s' if n > 1 else ''}"


# -- trick play ----------------------------------------------------------------------------------


def play_reason(view: SeatView, card: Card, p: Profile, best_in: tuple[int, int] | None = None) -> str:
    """Why ``card`` now: what it does in this trick, or what it keeps for later, read from the
    cards. (``best_in``, how often it did best on the expert's deals, is how the expert chose:
    not a player's reason, so never said.)"""
    if len(set(view.legal_cards)) == 1:
        return "it is the only card the rules allow"
    trick = view.trick.cards if view.trick is not None else ()
    if not trick:
        return _lead_reason(view, card, p)
    return _follow_reason(view, trick, card, p)


def _lead_reason(view: SeatView, card: Card, p: Profile) -> str:
    suit = suit_of(card)
    if is_boss(view, card, p):
        top = _top_words(view, card, p)
        if suit == view.trump:
            return f"{card_words(card)} draws trumps and cannot lose the trick: {top}"
        return f"{card_words(card)} wins the trick unless it is trumped: {top}"
    higher = _higher_held(view, card)
    if suit == view.trump:
        if higher:
            return f"{card_words(card)} draws trumps and keeps your {card_words(higher[0])} for later"
        return (
            f"{card_words(card)} is your highest trump: it draws the opponents' trumps "
            "before they can trump your winners"
        )
    if _is_last_of_suit(view, card):
        if _trumps_kept(view, card):
            return f"{_last_words(card)}: once it is gone you can trump {suit_words(suit)}"
        return f"{_last_words(card)} and a higher one is still out: it gives up the lead"
    out = f"a higher {one_of(suit)} is still out, so {card_words(card)}"  # not the boss: checked above
    if higher:
        return f"{out} gives up the lead and keeps your {card_words(higher[0])} for later"
    return f"{out} gives the lead away{_keeps_words(view, card)}"


def _rest(view: SeatView, card: Card) -> list[Card]:
    """The seat's hand once ``card`` is played (one copy of it gone)."""
    rest = list(view.hand)
    rest.remove(card)
    return rest


def _is_last_of_suit(view: SeatView, card: Card) -> bool:
    return not any(suit_of(c) == suit_of(card) for c in _rest(view, card))


def _trumps_kept(view: SeatView, card: Card) -> bool:
    return view.trump is not None and any(suit_of(c) == view.trump for c in _rest(view, card))


def _last_words(card: Card) -> str:
    return f"{card_words(card)} is your last {one_of(suit_of(card))}"


def _keeps_words(view: SeatView, card: Card) -> str:
    """ " and keeps your trumps and aces for later", naming only what the hand still holds."""
    rest = _rest(view, card)
    trumps = _trumps_kept(view, card)
    aces = any(rank_of(c) == ACE and suit_of(c) != view.trump for c in rest)
    kept = " and ".join(word for word, held in (("trumps", trumps), ("aces", aces)) if held)
    return f" and keeps your {kept} for later" if kept else ""


def _higher_held(view: SeatView, card: Card) -> list[Card]:
    """The seat's other cards of ``card``'s suit that rank above it, highest first."""
    return sorted({c for c in view.hand if suit_of(c) == suit_of(card) and c < card})


def _follow_reason(view: SeatView, trick: Sequence[Card], card: Card, p: Profile) -> str:
    seats = view.variant.seats
    assert view.trick is not None
    winner = (view.trick.leader + trick_winner(trick, view.trump)) % seats
    side = view.variant.side_of(view.seat)
    partner_winning = winner != view.seat and view.variant.side_of(winner) == side
    if trick_winner((*trick, card), view.trump) == len(trick):
        return _winning_reason(view, trick, card, p)
    if partner_winning:
        return _partner_winning_reason(view, card, p)
    return _losing_reason(view, trick, card, p)


def _winning_reason(view: SeatView, trick: Sequence[Card], card: Card, p: Profile) -> str:
    if len(trick) == view.variant.seats - 1:
        return f"{card_words(card)} wins the trick: you play last"
    if is_boss(view, card, p):
        top = _top_words(view, card, p)
        if suit_of(card) == view.trump:
            return f"{card_words(card)} wins the trick: {top}"
        return f"{card_words(card)} wins the trick unless it is trumped: {top}"
    return f"{card_words(card)} takes the trick for now"


def _partner_winning_reason(view: SeatView, card: Card, p: Profile) -> str:
    winning = "your partner is winning the trick"
    if not p.value[card]:
        if any(p.value[c] for c in _rest(view, card)):
            return f"{winning}: this keeps your counters for later"
        return f"{winning}, and you hold no counter to give him"
    if any(not p.value[c] for c in view.legal_cards):
        return f"{winning}: give him a counter"
    kept = _kept_words(view, card, p)
    return f"{winning}: every card you may play is a counter{f', and {kept}' if kept else ''}"


def _losing_reason(view: SeatView, trick: Sequence[Card], card: Card, p: Profile) -> str:
    """A card that does not take the trick: who may still take it, and what the card keeps."""
    partner_may = _partner_may_take(view, trick, p)
    if partner_may:
        head = "your partner plays after you and may still take the trick"
    elif any(trick_winner((*trick, c), view.trump) == len(trick) for c in view.legal_cards):
        head = f"{card_words(card)} lets the trick go"
    else:
        head = "you cannot win this trick"
    return f"{head}: {_losing_clause(view, trick, card, p, partner_may=partner_may)}"


def _losing_clause(
    view: SeatView, trick: Sequence[Card], card: Card, p: Profile, *, partner_may: bool
) -> str:
    others = [c for c in view.legal_cards if c != card]
    value = p.value[card]
    if not value:
        return f"{card_words(card)} {'risks' if partner_may else 'gives the opponents'} no counter"
    led = suit_of(trick[0])
    if suit_of(card) not in (led, view.trump) and _is_last_of_suit(view, card) and _trumps_kept(view, card):
        return f"{_last_words(card)}, so you can trump {suit_words(suit_of(card))} later"
    if all(value < p.value[c] for c in others):
        return f"{card_words(card)} is the cheapest card the rules allow"
    kept = _kept_words(view, card, p)
    if kept:
        return kept
    cheapest = min(others, key=lambda c: (p.value[c], -rank_of(c)))
    return (
        f"{card_words(card)} is the card you can best spare; "
        f"{card_words(cheapest)} stays in your hand for a later trick"
    )


def _kept_words(view: SeatView, card: Card, p: Profile) -> str:
    """ "K♦ keeps your A♦ for a later trick": the highest other card the rules allow that is worth
    as much as ``card`` (empty when every other is worth less)."""
    alike = [c for c in view.legal_cards if c != card and p.value[c] >= p.value[card]]
    if not alike:
        return ""
    kept = min(alike, key=lambda c: (rank_of(c), c))
    return f"{card_words(card)} keeps your {card_words(kept)} for a later trick"


def _partner_may_take(view: SeatView, trick: Sequence[Card], p: Profile) -> bool:
    """Whether a partner plays after this seat and a card still out could take the trick."""
    assert view.trick is not None
    seats = view.variant.seats
    after = [(view.trick.leader + i) % seats for i in range(len(trick) + 1, seats)]
    side = view.variant.side_of(view.seat)
    if not any(view.variant.side_of(seat) == side for seat in after):
        return False
    seen = _seen(view)
    out = [Card(c) for c in range(len(seen)) if p.copies[c] > seen[c]]
    return any(trick_winner((*trick, c), view.trump) == len(trick) for c in out)


def _seen(view: SeatView) -> list[int]:
    """Copies of each card this seat has seen: its hand, every trick played, the trick so far."""
    seen = list(counts_of(view.hand))
    for trick in view.tricks:
        for c in trick.cards:
            seen[c] += 1
    if view.trick is not None:
        for c in view.trick.cards:
            seen[c] += 1
    return seen


def is_boss(view: SeatView, card: Card, p: Profile) -> bool:
    """Whether no card of ``card``'s suit that could beat it is still out (copies of the card
    itself lose to the first one played, so only higher ranks count)."""
    seen = _seen(view)
    suit = suit_of(card)
    return all(seen[higher] >= p.copies[higher] for higher in range(suit * 6, card))


def _top_words(view: SeatView, card: Card, p: Profile) -> str:
    """Why nothing beats ``card`` in its suit: "both other A♦ are gone" when every other copy of
    an ace was played, else "it is the highest spade left"."""
    played = _seen(view)[card] - view.hand.count(card)
    others = p.copies[card] - 1
    if rank_of(card) == ACE and 0 < others <= played:
        many = {1: "the other", 2: "both other"}.get(others, f"all {others} other")
        return f"{many} {card_words(card)} {'is' if others == 1 else 'are'} gone"
    kind = "trump" if suit_of(card) == view.trump else one_of(suit_of(card))
    return f"it is the highest {kind} left"


def best_in(values: Mapping[Card, Sequence[float]], card: Card) -> tuple[int, int]:
    """(deals on which no other card did better than ``card``, deals simulated)."""
    deals = len(values[card])
    wins = sum(1 for i in range(deals) if all(values[card][i] >= v[i] for v in values.values()))
    return wins, deals
