"""The rules of pinochle (RULES.md) as pure Python: no Django import anywhere below here."""

from .meld import (
    MeldLine,
    MeldResult,
    best_trumps,
    count_meld,
    meld_json,
    meld_points,
    parse_hand,
    shown_cards,
)

__all__ = [
    "MeldLine",
    "MeldResult",
    "best_trumps",
    "count_meld",
    "meld_json",
    "meld_points",
    "parse_hand",
    "shown_cards",
]
