"""Reads for history and statistics. Every number comes from the engine's ``score_game``.

The game rows keep a copy of ``finished`` for filtering in SQL; totals, winners, made bids
and the like are always scored afresh from the hands as entered (``Game.record()``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, QuerySet

from .engine.variants import VARIANTS, Variant
from .models import Game, Household, Player
from .services.games import game_score, side_names

if TYPE_CHECKING:
    from .engine.scoring import GameScore


def last_game(household: Household, variant: Variant) -> Game | None:
    """The household's latest game of ``variant``: a new game starts at the same table."""
    games = household.games.filter(variant=variant.id).prefetch_related("seats")
    return games.order_by("-created_at", "-id").first()


def games_for_household(
    household: Household,
    *,
    variant: str | None = None,
    player: Player | None = None,
    finished: bool | None = None,
) -> QuerySet[Game]:
    """The household's games, newest first, narrowed by whichever filters are given."""
    games = household.games.prefetch_related("seats__player").annotate(
        hand_count=Count("hands", distinct=True)
    )
    if variant is not None:
        games = games.filter(variant=variant)
    if player is not None:
        games = games.filter(seats__player=player)
    if finished is not None:
        games = games.filter(finished=finished)
    return games.order_by("-created_at", "-id")


def seated_side_names(game: Game, variant: Variant) -> list[str]:
    """Each side's players ("Ann & Cy"; one name in six-handed), from prefetched seats."""
    return side_names(variant, [seat.player for seat in game.seats.all()])


@dataclass(slots=True)
class PlayerStatistics:
    """One player's record in one variant.

    ``average_meld`` is the meld of the player's *side* per hand: meld is entered per side,
    so a partner's meld counts too (in six-handed a side is one player).
    """

    player: Player
    variant: Variant
    games: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    bids_won: int = 0
    bids_made: int = 0
    bid_total: int = 0
    side_meld_total: int = 0

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game; games still going count for neither side."""
        return self.wins / self.finished if self.finished else None

    @property
    def bids_made_rate(self) -> float | None:
        return self.bids_made / self.bids_won if self.bids_won else None

    @property
    def average_bid(self) -> float | None:
        return self.bid_total / self.bids_won if self.bids_won else None

    @property
    def average_meld(self) -> float | None:
        return self.side_meld_total / self.hands if self.hands else None


def player_statistics(household: Household) -> list[PlayerStatistics]:
    """Per player and variant they played: games, wins, bids and meld; by name, then variant."""
    table: dict[tuple[int, str], PlayerStatistics] = {}
    for game in household.games.prefetch_related("seats__player", "hands"):
        scored = game_score(game)
        variant = scored.variant
        for seat in game.seats.all():
            key = (seat.player_id, variant.id)
            stats = table.setdefault(key, PlayerStatistics(player=seat.player, variant=variant))
            _add_game(stats, seat.position, scored)
    variant_order = list(VARIANTS)
    return sorted(
        table.values(),
        key=lambda s: (s.player.name.casefold(), s.player.pk, variant_order.index(s.variant.id)),
    )


def _add_game(stats: PlayerStatistics, seat: int, scored: GameScore) -> None:
    side = stats.variant.side_of(seat)
    stats.games += 1
    if scored.finished:
        stats.finished += 1
        stats.wins += side in scored.winners
    for hand in scored.hands:
        stats.hands += 1
        stats.side_meld_total += hand.entry.meld[side]
        if hand.entry.bidder == seat:
            stats.bids_won += 1
            stats.bids_made += hand.score.made
            stats.bid_total += hand.entry.bid
