"""The game log of RULES.md §9.5 (one JSON line per hand) and its replay.

``hand_line(state)`` writes an ended hand as its §9.5 object; ``dumps`` makes it the line.
``replay_hand(line)`` deals the logged cards again, re-applies every logged action under the
logged rules and returns the line it rebuilds, raising ``ReplayError`` when an action is
illegal or the rebuilt line differs from the logged one in any key. ``replay_steps(line)`` gives
every decision of the hand as the state before it and the logged answer (a review's input, or a
hand stepped through trick by trick).

A hand thrown in before trump (everyone passed under ``all_pass: redeal``, or ``misdeal_nines``)
is logged too, so hand numbers stay consecutive: ``bidder``, ``bid`` and ``trump`` null, ``meld``
and ``tricks`` empty, ``points`` null and every score 0. A hand the bidder conceded
(``bidder_may_concede``) is logged with its meld, ``tricks`` empty and ``points`` null: the
§9.5 line needs no new key, since a hand that could have been played and was not was thrown in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from .cards import SUITS, Card, codes, parse_card, parse_cards, parse_suit
from .game import HandState, IllegalAction, deal_hands
from .variants import get_variant
from .view import BID, CONCEDE, PASS, PLAY, TRUMP

LINE_KEYS = (
    "variant",
    "settings",
    "game",
    "hand",
    "dealer",
    "dealt",
    "auction",
    "bidder",
    "bid",
    "trump",
    "passes",
    "meld",
    "tricks",
    "points",
    "scores",
    "totals",
)


class ReplayError(ValueError):
    """A logged hand that does not replay: an illegal action, or a line that differs."""


def hand_line(state: HandState) -> dict[str, Any]:
    """The §9.5 object of an ended hand, keys in the order RULES.md writes them."""
    result = state.result
    if result is None:
        raise ValueError("only an ended hand has a log line")
    return {
        "variant": state.variant.id,
        "settings": state.settings.changes(state.variant.defaults),
        "game": state.game,
        "hand": state.hand_number,
        "dealer": state.dealer,
        "dealt": [codes(cards) for cards in state.dealt],
        "auction": [[seat, bid] for seat, bid in state.auction],
        "bidder": state.bidder,
        "bid": state.bid,
        "trump": None if state.trump is None else SUITS[state.trump],
        "passes": [[giver, taker, codes(cards)] for giver, taker, cards in state.passes],
        "meld": list(state.meld or ()),
        "tricks": [trick.to_json() for trick in state.tricks],
        "points": list(state.points) if result.played else None,
        "scores": list(result.scores),
        "totals": list(result.totals),
    }


def dumps(line: dict[str, Any]) -> str:
    """One log line, without the newline; the same hand always gives the same bytes."""
    return json.dumps(line, ensure_ascii=False)


# -- replay ------------------------------------------------------------------------------------


def replay_hand(line: str | dict[str, Any]) -> dict[str, Any]:
    """Re-apply a logged hand under the rules; returns the rebuilt line, equal to the logged one."""
    try:
        logged = json.loads(line) if isinstance(line, str) else line
        state = deal_logged(logged)
        _replay_actions(state, logged)
    except ReplayError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        raise ReplayError(_describe(error)) from None
    if state.result is None:
        raise ReplayError(
            f"the log ends before the hand does: seat {state.to_act} still has to {state.decision}"
        )
    rebuilt = hand_line(state)
    for key in LINE_KEYS:
        if logged.get(key) != rebuilt[key]:
            raise ReplayError(f"{key}: logged {logged.get(key)!r}, replayed {rebuilt[key]!r}")
    extra = sorted(set(logged) - set(LINE_KEYS))
    if extra:
        raise ReplayError(f"unknown key {extra[0]!r}")
    return rebuilt


def replay_steps(line: str | dict[str, Any]) -> list[tuple[HandState, Any]]:
    """Every decision of a logged hand, in order: (the state before it, a copy; the logged answer)."""
    steps: list[tuple[HandState, Any]] = []
    try:
        logged = json.loads(line) if isinstance(line, str) else line
        _replay_actions(
            deal_logged(logged), logged, lambda state, action: steps.append((state.copy(), action))
        )
    except ReplayError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        raise ReplayError(_describe(error)) from None
    return steps


def replay_log(lines: Iterable[str]) -> int:
    """Replay every line of a log; the number of hands checked, or ReplayError naming the line."""
    checked = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            replay_hand(line)
        except ReplayError as error:
            raise ReplayError(f"line {number}: {error}") from None
        checked += 1
    return checked


def deal_logged(logged: dict[str, Any]) -> HandState:
    """The logged hand as dealt, about to be bid (ReplayError if the deal is not one whole deck)."""
    variant = get_variant(logged["variant"])
    settings = variant.settings(logged["settings"])
    before = [total - score for total, score in zip(logged["totals"], logged["scores"], strict=True)]
    hands = [parse_cards(cards) for cards in logged["dealt"]]
    if len(hands) != variant.seats:
        raise ReplayError(f"dealt: {len(hands)} hands for {variant.seats} seats")
    for cards in hands:
        variant.check_hand(cards)
    if sorted(c for cards in hands for c in cards) != variant.deck():
        raise ReplayError("dealt: the hands are not one whole deck")
    return deal_hands(
        variant,
        settings,
        logged["dealer"],
        hands,
        game=logged["game"],
        hand_number=logged["hand"],
        totals=before,
    )


Visit = Callable[[HandState, Any], None]  # sees the state before each logged action, and the action


def _replay_actions(state: HandState, logged: dict[str, Any], visit: Visit | None = None) -> None:
    def step(decision: str, seat: int | None, action: Any, where: str) -> None:
        _step(state, decision, seat, action, where, visit)

    for index, (seat, bid) in enumerate(logged["auction"]):
        step(BID, seat, bid, f"auction call {index + 1}")
    if logged["trump"] is not None:
        step(TRUMP, logged["bidder"], parse_suit(logged["trump"]), "trump")
    for index, (giver, _taker, cards) in enumerate(logged["passes"]):
        step(PASS, giver, tuple(parse_cards(cards)), f"pass {index + 1}")
    if state.decision == CONCEDE:  # `bidder_may_concede`: a hand with no tricks logged was thrown in
        step(CONCEDE, logged["bidder"], logged["points"] is None, "concede")
    for number, trick in enumerate(logged["tricks"], start=1):
        if trick["leader"] != state.to_act:
            raise ReplayError(f"trick {number}: led by seat {trick['leader']}, but seat {state.to_act} leads")
        for code in trick["cards"]:
            card: Card = parse_card(code)
            step(PLAY, state.to_act, card, f"trick {number}, {code}")


def _step(
    state: HandState, decision: str, seat: int | None, action: Any, where: str, visit: Visit | None = None
) -> None:
    if state.decision != decision or state.to_act != seat:
        expected = (
            "the hand is over" if state.decision is None else f"seat {state.to_act} is to {state.decision}"
        )
        raise ReplayError(f"{where}: seat {seat} acts ({decision}), but {expected}")
    if visit is not None:
        visit(state, action)
    try:
        state.push(action)
    except IllegalAction as error:
        raise ReplayError(f"{where}: {error}") from None


def _describe(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"missing key {error.args[0]!r}"
    if isinstance(error, json.JSONDecodeError):
        return f"not a JSON line: {error.msg}"
    return str(error) or type(error).__name__
