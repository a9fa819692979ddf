"""The statistics page's tables: each player's record per variant and the partnerships' leaderboard.

Summed from the tallies ``selectors.games.scored_games`` read (one per game, cached under the
game's revision), so building the tables reads nothing more. A game in which someone took a seat
over at a household's table comes in parts, one per seating: each player is credited with the
hands they played in it, counts the game once, and its result goes to whoever sat at its end.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.variants import VARIANTS, Variant
from ..models import Player
from ..selectors.games import GameTally, ScoredGames


@dataclass(slots=True)
class GameRecord:
    """Games played, finished and won: what a player and a partnership both count."""

    games: int = 0
    finished: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game; games still going count for neither side."""
        return self.wins / self.finished if self.finished else None

    def count_game(self, side: int, scored: GameTally, *, counted: bool = True) -> None:
        """One more game, played on ``side`` (not ``counted``: a part of a game counted in a later
        part, where someone took a seat over; only a game's last part has its result)."""
        self.games += int(counted)
        if scored.finished:
            self.finished += 1
            self.wins += side in scored.winners


@dataclass(slots=True, kw_only=True)
class PlayerStatistics(GameRecord):
    """One player's record in one variant.

    ``average_meld`` is the meld of the player's *side* per hand: meld is entered per side,
    so a partner's meld counts too (in six-handed a side is one player).
    """

    player: Player
    variant: Variant
    hands: int = 0
    bids_won: int = 0
    bids_made: int = 0
    bid_total: int = 0
    side_meld_total: int = 0

    @property
    def bids_made_rate(self) -> float | None:
        return self.bids_made / self.bids_won if self.bids_won else None

    @property
    def average_bid(self) -> float | None:
        return self.bid_total / self.bids_won if self.bids_won else None

    @property
    def average_meld(self) -> float | None:
        return self.side_meld_total / self.hands if self.hands else None


def player_statistics(games: ScoredGames) -> list[PlayerStatistics]:
    """Per player and variant they played: games, wins, bids and meld; by name, then variant."""
    table: dict[tuple[int, str], PlayerStatistics] = {}
    for players, tally in games:
        variant = tally.variant
        for position, player in enumerate(players):
            key = (player.pk, variant.id)
            stats = table.setdefault(key, PlayerStatistics(player=player, variant=variant))
            _add_game(stats, position, tally)
    variant_order = list(VARIANTS)
    return sorted(
        table.values(),
        key=lambda s: (s.player.name.casefold(), s.player.pk, variant_order.index(s.variant.id)),
    )


def _add_game(stats: PlayerStatistics, seat: int, tally: GameTally) -> None:
    side = stats.variant.side_of(seat)
    stats.count_game(side, tally, counted=tally.counts(seat))
    stats.hands += tally.hands
    stats.side_meld_total += tally.side_meld[side]
    stats.bids_won += tally.bids_won[seat]
    stats.bids_made += tally.bids_made[seat]
    stats.bid_total += tally.bid_total[seat]


@dataclass(slots=True, kw_only=True)
class PartnershipRecord(GameRecord):
    """Two partners in one partnership variant: the games they played together and won."""

    names: str  # "Ann & Cy"
    variant: Variant


def partnership_leaderboard(games: ScoredGames) -> list[PartnershipRecord]:
    """Every pair that sat as partners, best share of finished games won first (then most wins)."""
    table: dict[tuple[str, tuple[int, ...]], PartnershipRecord] = {}
    for seats, scored in games:
        variant = scored.variant
        if not variant.partnerships:
            continue
        for side, positions in enumerate(variant.sides):
            players = sorted((seats[position] for position in positions), key=lambda p: p.name.casefold())
            key = (variant.id, tuple(player.pk for player in players))
            names = " & ".join(player.name for player in players)
            record = table.setdefault(key, PartnershipRecord(names=names, variant=variant))
            record.count_game(side, scored, counted=any(scored.counts(seat) for seat in positions))
    return sorted(table.values(), key=lambda r: (-(r.win_rate or 0), -r.wins, r.names.casefold()))
