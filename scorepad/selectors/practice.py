"""Reads for practice mode: which games a request may open, the seats' names, and the history.

What the practice page shows is built in ``pages/practice.py`` from the game these read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from ..constants import PLAYER, STRENGTH_WORDS
from ..engine.meld import hand_score_ceiling
from ..engine.variants import VARIANTS, Settings, SettingsError, Variant
from ..models import PracticeGame

SESSION_KEY = "practice_games"  # ids of the games this browser started without an account


# -- access ---------------------------------------------------------------------------------------


def practice_games_for(request: HttpRequest) -> QuerySet[PracticeGame]:
    """The games this request may open: the user's own, and those this browser started as a visitor."""
    started_here = Q(user__isnull=True, pk__in=request.session.get(SESSION_KEY, []))
    if request.user.is_authenticated:
        return PracticeGame.objects.filter(Q(user=request.user) | started_here)
    return PracticeGame.objects.filter(started_here)


def get_practice_for_request(request: HttpRequest, game_id: int) -> PracticeGame:
    return get_object_or_404(practice_games_for(request), pk=game_id)


def current_practice(request: HttpRequest) -> PracticeGame | None:
    """The newest unfinished game this request may continue."""
    # A daily deal's attempt is one hand, continued from the daily deal's page (selectors/daily.py).
    return practice_games_for(request).filter(finished=False, daily_attempt__isnull=True).first()


# -- names ----------------------------------------------------------------------------------------


# Each seat as players name it from the human's chair (seat 0), clockwise: play passes to the left.
SEAT_NAMES = {
    4: ("You", "Left", "Partner", "Right"),
    6: ("You", "Left", "Far left", "Across", "Far right", "Right"),
}


def seat_names(variant: Variant) -> list[str]:
    """The one set of seat names of the practice table, its review, Learn to play and the rules pages."""
    return list(SEAT_NAMES[variant.seats])


def side_names(variant: Variant, names: Sequence[str]) -> list[str]:
    return [" & ".join(names[seat] for seat in side) for side in variant.sides]


# -- history ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PracticeStatistics:
    games: int
    finished: int
    won: int
    bids: int  # hands the player's side bid
    bids_made: int
    hands: int
    margin: float | None  # the player's side's score less the best other side's, per hand
    replays: int = 0  # replayed deals: kept apart, none of the figures above counts them

    @property
    def won_share(self) -> float | None:
        return self.won / self.finished if self.finished else None

    @property
    def made_share(self) -> float | None:
        return self.bids_made / self.bids if self.bids else None


def practice_history(user: Any) -> QuerySet[PracticeGame]:
    return PracticeGame.objects.filter(user=user)


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One practice game in the history: its final score, the bots' strength, the target."""

    game: PracticeGame
    score: list[tuple[str, int]]  # each side's total now
    strength: str  # "Steady", "Expert", …
    target: int | None  # None where the stored rules cannot be read


@dataclass(frozen=True, slots=True)
class VariantStatistics:
    label: str
    stats: PracticeStatistics


def history_rows(games: Sequence[PracticeGame]) -> list[HistoryRow]:
    """A row per game; a game whose stored rules or totals no variant can read still gets its row,
    with no score, so the page shows what it can and never fails."""
    rows = []
    for game in games:
        strength = STRENGTH_WORDS.get(game.strength, game.strength).split(":")[0]
        rules = _stored_rules(game)
        if rules is None:
            rows.append(HistoryRow(game, [], strength, None))
            continue
        variant, settings = rules
        last = game.hands[-1] if isinstance(game.hands, list) and game.hands else {}
        totals = _per_side(last.get("totals") if isinstance(last, dict) else None, variant)
        names = side_names(variant, seat_names(variant))
        score = list(zip(names, totals or [0] * len(variant.sides), strict=True))
        rows.append(HistoryRow(game, score, strength, settings.target))
    return rows


def statistics_by_variant(games: Sequence[PracticeGame]) -> list[VariantStatistics]:
    """``practice_statistics`` per variant: a margin means something only in one variant's points."""
    return [
        VariantStatistics(variant.label, practice_statistics([g for g in games if g.variant == variant.id]))
        for variant in VARIANTS.values()
        if any(g.variant == variant.id for g in games)
    ]


def practice_statistics(games: Sequence[PracticeGame]) -> PracticeStatistics:
    """The player's record over ``games``. A stored hand no rules could have scored (a bid of
    hundreds of digits from before bids had a ceiling, a summary of another shape) is left out:
    the history page shows what it can, never an error."""
    replays = sum(1 for game in games if game.replay_of_id is not None)
    games = [game for game in games if game.replay_of_id is None]  # first tries only
    bids = made = hands = 0
    margin = 0
    for game in games:
        for variant, scores, bidder, bid_made in _hand_summaries(game):
            mine = variant.side_of(PLAYER)
            hands += 1
            others = [score for side, score in enumerate(scores) if side != mine]
            margin += scores[mine] - max(others)
            if bidder is not None and variant.side_of(bidder) == mine:
                bids += 1
                made += bid_made
    finished = [game for game in games if game.finished]
    return PracticeStatistics(
        games=len(games),
        finished=len(finished),
        won=sum(bool(game.won) for game in finished),
        bids=bids,
        bids_made=made,
        hands=hands,
        margin=margin / hands if hands else None,
        replays=replays,
    )


def _hand_summaries(game: PracticeGame) -> list[tuple[Variant, list[int], int | None, bool]]:
    """Each stored hand summary of ``game`` the rules could have written: (variant, scores per
    side, bidder, made). A set bidder loses at most twice the bid, and no bid passes the variant's
    ``hand_score_ceiling``: a score beyond that was never scored by this engine."""
    rules = _stored_rules(game)
    if rules is None:
        return []
    variant, settings = rules
    most = 2 * hand_score_ceiling(variant, settings)
    summaries = []
    for entry in game.hands if isinstance(game.hands, list) else []:
        if not isinstance(entry, dict):
            continue
        scores, bidder = _per_side(entry.get("scores"), variant, most), entry.get("bidder")
        if scores is not None and (bidder is None or (type(bidder) is int and 0 <= bidder < variant.seats)):
            summaries.append((variant, scores, bidder, bool(entry.get("made"))))
    return summaries


def _stored_rules(game: PracticeGame) -> tuple[Variant, Settings] | None:
    """The variant and settings a stored game names, or None where no rules can read them."""
    try:
        variant = game.rules
        return variant, variant.settings(game.settings)
    except (SettingsError, TypeError, ValueError):
        return None


def _per_side(value: Any, variant: Variant, most: int | None = None) -> list[int] | None:
    """A stored list of one whole number per side (each within ``most`` when given), or None."""
    if not (isinstance(value, list) and len(value) == len(variant.sides)):
        return None
    if not all(type(number) is int and (most is None or abs(number) <= most) for number in value):
        return None
    return value
