"""One way to read and check an answer to a decision (RULES.md §9.6), for every caller.

An answer arrives as a §9.6 JSON line (outside bots), as a web form's fields (practice mode) or
as an engine value (the engine's own bots). ``parse_line`` and ``parse_form`` turn the first two
into an engine value; ``check_answer`` holds any of them against the seat's view, so a bid, a
trump, a pass or a card means the same thing and is refused for the same reason wherever it
comes from. ``AnswerError`` (a ``ValueError``) names the seat, the decision and the answer.

``why_not_playable`` says in a player's words why the rules refuse a card.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    CODES,
    SUIT_NAMES,
    SUITS,
    Card,
    CardError,
    Suit,
    card_words,
    cards_in_words,
    parse_card,
    parse_suit,
    rank_of,
    suit_of,
)
from .meld import hand_score_ceiling
from .play import trick_winner
from .view import BID, CONCEDE, PASS, PLAY, TRUMP, Answer, Decision, SeatView

# The key of each decision's answer, in a §9.6 line and in a web form alike.
ANSWER_KEYS = {BID: "bid", TRUMP: "trump", PASS: "pass", PLAY: "card", CONCEDE: "concede"}
FORM_PASS_BID = "pass"  # a form's bid field holds a number or this word
FORM_CONCEDE = {"true": True, "false": False}  # a form's concede field holds one of these words


class AnswerError(ValueError):
    """An answer the §9.6 protocol or the rules refuse; the message names seat, decision and answer.

    ``answer`` (as §9.6 writes it) and ``reason`` are kept apart for callers that word it their way.
    """

    def __init__(self, message: str, answer: Any = None, reason: str = "") -> None:
        super().__init__(message)
        self.answer = answer
        self.reason = reason or message


def answer_json(decision: str, answer: Any) -> Any:
    """An engine answer written the §9.6 way (codes and suit letters), for messages."""
    try:
        match decision:
            case Decision.TRUMP:
                return SUITS[answer]
            case Decision.PLAY:
                return CODES[answer]
            case Decision.PASS:
                return [CODES[c] for c in answer]
    except (IndexError, TypeError):
        pass
    return answer


def refuse(view: SeatView, answer: Any, reason: str) -> AnswerError:
    return AnswerError(
        f"seat {view.seat}, decision {view.decision}: answer {answer!r} {reason}", answer, reason
    )


# -- checking an engine value -------------------------------------------------------------------


def check_answer(view: SeatView, answer: Answer) -> None:
    """Raise ``AnswerError`` unless ``answer`` is one of the answers ``view.legal`` allows."""
    shown = answer_json(view.decision, answer)
    match view.decision:
        case Decision.BID:
            _check_bid(view, answer, shown)
        case Decision.PASS:
            _check_pass(view, answer, shown)
        case Decision.CONCEDE:
            if type(answer) is not bool:
                raise refuse(view, shown, "is not true (throw the hand in) or false (play on)")
        case _ if answer not in view.legal or isinstance(answer, bool):  # trump, play
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
    if None not in view.legal and answer != minimum:
        raise refuse(view, shown, f"is not the forced dealer's bid: the dealer must bid exactly {minimum}")
    if answer < minimum:
        raise refuse(view, shown, f"is below the lowest bid allowed now, {minimum}")
    most = hand_score_ceiling(view.variant, view.settings)
    if answer > most:
        raise refuse(view, _shortened(answer), f"is more than a side can score in one hand ({most})")
    if not view.settings.bid_on_increment(answer):
        raise refuse(view, shown, f"does not keep to the bid increment ({view.settings.bid_increment})")


def _shortened(number: int) -> int | str:
    """A number as a message can quote it: one of hundreds of digits by its length (and one past
    4300 digits cannot even be written out: Python refuses)."""
    if abs(number) < 10**12:
        return number
    return f"a number of about {int(number.bit_length() * math.log10(2)) + 1} digits"


def _check_pass(view: SeatView, answer: Any, shown: Any) -> None:
    if not isinstance(answer, tuple) or len(answer) != view.pass_count:
        raise refuse(view, shown, f"must be exactly {view.pass_count} cards")
    missing = Counter(answer) - Counter(view.hand)
    if missing:
        absent = answer_json(PASS, list(missing.elements()))
        raise refuse(view, shown, f"passes cards not in the hand: {absent}")


# -- reading a §9.6 line or a form --------------------------------------------------------------


def parse_line(view: SeatView, line: str) -> Answer:
    """One §9.6 answer line as an engine answer (not yet checked: see ``read_line``)."""
    key = ANSWER_KEYS[view.decision]
    try:
        data: Any = json.loads(line)
    except ValueError:
        raise refuse(view, line, "is not JSON") from None
    if not isinstance(data, dict) or set(data) != {key}:
        raise refuse(view, line, f'must be one JSON object with the single key "{key}"')
    return _parse_value(view, data[key], line)


def read_line(view: SeatView, line: str) -> Answer:
    """A §9.6 answer line, parsed and checked against the view."""
    answer = parse_line(view, line)
    check_answer(view, answer)
    return answer


def parse_form(view: SeatView, data: Mapping[str, Any]) -> Answer:
    """A web form's answer as an engine answer (not yet checked: see ``read_form``).

    The field is named as the §9.6 key: ``bid`` (a number, or ``pass``), ``trump`` (a suit
    letter or symbol), ``pass`` (card codes: repeated fields, or one field of codes split by
    spaces or commas), ``card`` (a code), ``concede`` (``true`` to throw the hand in, ``false``
    to play on). ``data`` is a ``QueryDict`` or a plain mapping.
    """
    key = ANSWER_KEYS[view.decision]
    values = _form_values(data, key)
    if not values or (view.decision != PASS and values == [""]):
        raise refuse(view, None, f'is missing: the form needs a "{key}" field')
    if view.decision == PASS:
        codes = [token for value in values for token in str(value).replace(",", " ").split()]
        return _parse_value(view, codes, codes)
    raw = values[-1]
    if view.decision == CONCEDE:
        word = str(raw).strip().lower()
        if word not in FORM_CONCEDE:
            raise refuse(view, word, 'is not "true" (throw the hand in) or "false" (play on)')
        return FORM_CONCEDE[word]
    if view.decision == BID:
        text = str(raw).strip()
        if text.lower() == FORM_PASS_BID:
            return None
        try:
            return int(text)
        except ValueError:
            raise refuse(view, text, 'is not a whole number or "pass"') from None
    return _parse_value(view, str(raw).strip(), raw)


@dataclass(frozen=True, slots=True)
class FormAnswer:
    """A web form's answer, read once: the engine answer to the ``decision`` it was read for, or
    why the form holds none (``unreadable``); and whether the player confirmed a bid far above
    the last one (``sure``). Not yet checked against the rules (``check_answer``)."""

    decision: Decision | None
    answer: Answer = None
    unreadable: AnswerError | None = None
    sure: bool = False


def read_form_answer(view: SeatView, data: Mapping[str, Any]) -> FormAnswer:
    """The answer a form posts for ``view``'s decision (``parse_form``), read once for every
    later use; none while the seat has nothing to decide."""
    sure = bool(data.get("sure"))
    if view.decision not in ANSWER_KEYS:  # the hand is over
        return FormAnswer(None, sure=sure)
    try:
        return FormAnswer(view.decision, parse_form(view, data), sure=sure)
    except AnswerError as error:
        return FormAnswer(view.decision, unreadable=error, sure=sure)


def read_form(view: SeatView, data: Mapping[str, Any]) -> Answer:
    """A web form's answer, parsed and checked against the view."""
    answer = parse_form(view, data)
    check_answer(view, answer)
    return answer


def _form_values(data: Mapping[str, Any], key: str) -> list[Any]:
    getlist = getattr(data, "getlist", None)
    if getlist is not None:
        return list(getlist(key))
    value = data.get(key)
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _parse_value(view: SeatView, value: Any, shown: Any) -> Answer:
    """The value under the answer's key, as an engine answer; ``shown`` is what messages quote."""
    try:
        match view.decision:
            case Decision.BID | Decision.CONCEDE:
                said: Answer = value  # any JSON value: check_answer refuses what is not a legal answer
                return said
            case Decision.TRUMP:
                return parse_suit(_text(value))
            case Decision.PASS:
                if not isinstance(value, list):
                    raise CardError("the cards must be a list of codes")
                return tuple(parse_card(_text(code)) for code in value)
            case _:
                return parse_card(_text(value))
    except CardError as error:
        raise refuse(view, shown, str(error)) from None


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise CardError(f"{json.dumps(value)} is not a code in quotes")
    return value


# -- a refused card in a player's words ---------------------------------------------------------


def why_not_playable(view: SeatView, card: Card) -> str | None:
    """Why the rules refuse ``card`` in this play view, in a player's words; None if it is legal."""
    if view.decision != PLAY or card in view.legal:
        return None
    if card not in view.hand:
        return "That card is not in your hand."
    trick = view.trick.cards if view.trick is not None else ()
    if not trick:
        return f"The first lead must be trump ({_suit_words(view.trump)})."
    led = suit_of(trick[0])
    legal_suits = {suit_of(c) for c in view.legal}
    if led in legal_suits:
        return _follow_words(view, trick, led)
    if view.trump is not None and view.trump in legal_suits:
        beat = _beats_trump_in_trick(view, trick)
        return f"You have no {SUIT_NAMES[SUITS[led]]}, so you must trump{beat}."
    return f"The rules require one of: {cards_in_words(view.legal)}."


def _follow_words(view: SeatView, trick: Sequence[Card], led: Suit) -> str:
    follow = f"You must follow suit ({_suit_words(led)})"
    winning = trick[trick_winner(tuple(trick), view.trump)]
    if suit_of(winning) == led and all(rank_of(c) < rank_of(winning) for c in view.legal):
        return f"{follow} and beat the {card_words(winning)} if you can."
    return f"{follow}."


def _beats_trump_in_trick(view: SeatView, trick: Sequence[Card]) -> str:
    trumps = [c for c in trick if suit_of(c) == view.trump]
    if not trumps:
        return ""
    return f" and beat the {card_words(min(trumps, key=rank_of))} if you can"


def _suit_words(suit: Suit | None) -> str:
    return "no trump" if suit is None else SUIT_NAMES[SUITS[suit]]


__all__ = [
    "ANSWER_KEYS",
    "AnswerError",
    "FormAnswer",
    "answer_json",
    "check_answer",
    "parse_form",
    "parse_line",
    "read_form",
    "read_form_answer",
    "read_line",
    "refuse",
    "why_not_playable",
]
