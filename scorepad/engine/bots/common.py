"""What every bot shares: the error a bad answer raises, and the check that an answer is legal (§9.6)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..cards import CODES, SUITS
from ..view import BID, PASS, PLAY, TRUMP, Answer, SeatView


class BotError(ValueError):
    """A bot broke the §9.6 protocol; the message names the seat, the decision and the answer."""


def answer_json(decision: str, answer: Any) -> Any:
    """An engine answer written the §9.6 way (codes and suit letters), for messages."""
    try:
        if decision == TRUMP:
            return SUITS[answer]
        if decision == PLAY:
            return CODES[answer]
        if decision == PASS:
            return [CODES[c] for c in answer]
    except (IndexError, TypeError):
        pass
    return answer


def refuse(view: SeatView, answer: Any, reason: str) -> BotError:
    return BotError(f"seat {view.seat}, decision {view.decision}: answer {answer!r} {reason}")


def check_answer(view: SeatView, answer: Answer) -> None:
    """Raise ``BotError`` unless ``answer`` is one of the answers ``view.legal`` allows."""
    shown = answer_json(view.decision, answer)
    if view.decision == BID:
        _check_bid(view, answer, shown)
    elif view.decision == PASS:
        _check_pass(view, answer, shown)
    elif answer not in view.legal or isinstance(answer, bool):
        raise refuse(view, shown, f"is not legal here: choose one of {answer_json_list(view)}")


def answer_json_list(view: SeatView) -> list[Any]:
    return [answer_json(view.decision, option) for option in view.legal]


def _check_bid(view: SeatView, answer: Any, shown: Any) -> None:
    minimum = max(bid for bid in view.legal if bid is not None)
    if answer is None:
        if None not in view.legal:
            raise refuse(view, shown, f"is a pass, but the dealer is forced to bid {minimum}")
        return
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise refuse(view, shown, "is not a whole number or null")
    if answer < minimum:
        raise refuse(view, shown, f"is below the lowest bid allowed now, {minimum}")
    if not view.settings.bid_on_increment(answer):
        raise refuse(view, shown, f"does not keep to the bid increment ({view.settings.bid_increment})")


def _check_pass(view: SeatView, answer: Any, shown: Any) -> None:
    if not isinstance(answer, tuple) or len(answer) != view.pass_count:
        raise refuse(view, shown, f"must be exactly {view.pass_count} cards")
    missing = Counter(answer) - Counter(view.hand)
    if missing:
        absent = answer_json(PASS, list(missing.elements()))
        raise refuse(view, shown, f"passes cards not in the hand: {absent}")
