"""Reads: a game's scoresheet, its history and the tallies statistics count (``pages/statistics.py``
sums them). Every number comes from the engine's ``score_game``.

The game rows keep a copy of ``finished`` for filtering in SQL; totals, winners, made bids
and the like are always scored afresh from the hands as entered (``Game.record()``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import BaseCache
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.http import Http404
from redis.exceptions import RedisError

from ..engine.cards import SUITS
from ..engine.scoring import GameScore, ScoredHand, next_dealer, parse_record, score_game
from ..engine.variants import VARIANTS, Settings, Variant
from ..models import ClubTable, Game, Hand, Household, Player, Seat, SeatTaken, record_of

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SideResult:
    """One side's line of one hand: what it scored, its running total and why, in words."""

    name: str
    score: int
    total: int
    reason: str
    bidding: bool
    meld: int = 0
    tricks: int | None = None  # None: not played


@dataclass(frozen=True, slots=True)
class HandRow:
    """One line of the game page's table: a stored hand with its score."""

    number: int
    hand_id: int
    version: int  # what a correction posts back, so a stale one is refused
    dealer_seat: int
    dealer: str
    thrown_in: bool
    bidder: str
    bidder_side: int
    bid: int
    trump: str | None
    meld: list[int]
    tricks: list[int] | None
    made: bool
    played: bool
    scores: list[int]
    totals: list[int]
    reasons: list[str]
    sides: list[SideResult]

    @property
    def bidder_reason(self) -> str:
        return "thrown in: no score" if self.thrown_in else self.reasons[self.bidder_side]


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """Everything a game's page shows, read from the hands as entered and scored by the engine.

    (Not the engine's ``HandState``: a scoresheet holds what the table wrote down.)
    """

    game: Game
    variant: Variant
    settings: Settings
    players: list[Player]  # by seat position: who sits there now
    side_names: list[str]
    score: GameScore
    rows: list[HandRow]
    # Seats taken over during the game: (from hand, seat, who sat there before, who sits from then).
    taken: tuple[tuple[int, int, Player, Player], ...] = ()

    @property
    def next_number(self) -> int:
        return len(self.rows)

    @property
    def finished(self) -> bool:
        return self.score.finished

    @property
    def next_dealer(self) -> int | None:
        """The seat on the left of the last dealer (RULES §8); hands store who dealt them."""
        if self.finished:
            return None
        if not self.rows:
            return self.game.first_dealer
        return next_dealer(self.variant, self.rows[-1].dealer_seat)

    @property
    def next_dealer_name(self) -> str:
        dealer = self.next_dealer
        return "" if dealer is None else self.players[dealer].name

    @property
    def last_row(self) -> HandRow | None:
        return self.rows[-1] if self.rows else None

    @property
    def tied_at_target(self) -> list[str]:
        """Who is tied at the top, at or past the target, while the game goes on: only a
        `tie_break` of "play_on" leaves a side there without a winner (§3.7)."""
        totals = self.score.totals
        if self.finished or not self.rows or max(totals) < self.settings.target:
            return []
        return [name for name, total in zip(self.side_names, totals, strict=True) if total == max(totals)]

    @property
    def winner_names(self) -> list[str]:
        return [self.side_names[side] for side in self.score.winners]

    @property
    def trick_total(self) -> int:
        return self.variant.trick_points_total(self.settings)

    @property
    def totals(self) -> list[tuple[str, int]]:
        return list(zip(self.side_names, self.score.totals, strict=True))


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sat where in a game, hand by hand: the game's seats, each replaced from a hand on by a
    person who took it over at a household's table (``SeatTaken``, ordered by ``from_hand``)."""

    first: tuple[Player, ...]
    taken: tuple[tuple[int, int, Player], ...] = ()  # (from_hand, position, player)

    def at(self, number: int) -> list[Player]:
        """The players by seat who played hand ``number`` (counting from 0)."""
        players = list(self.first)
        for from_hand, position, player in self.taken:
            if from_hand <= number:
                players[position] = player
        return players

    @property
    def last(self) -> list[Player]:
        """Who sits in each seat now (after the last take-over)."""
        return self.at(2**31)

    @property
    def changes(self) -> tuple[int, ...]:
        """The hands from which someone else sits somewhere (none: one seating all game)."""
        return tuple(sorted({from_hand for from_hand, _, _ in self.taken}))


def seating(game: Game, first: Sequence[Player] | None = None) -> Seating:
    """``game``'s seating (``first``: its seats' players in order, when the caller has them)."""
    if first is None:
        first = [seat.player for seat in game.seats.select_related("player").order_by("position")]
    taken = SeatTaken.objects.filter(game=game).select_related("player").order_by("from_hand", "position")
    return Seating(tuple(first), tuple((t.from_hand, t.position, t.player) for t in taken))


def game_settings(game: Game) -> Settings:
    return game.rules.settings(game.settings)


def side_names(variant: Variant, players: Sequence[Player]) -> list[str]:
    return [" & ".join(players[seat].name for seat in seats) for seats in variant.sides]


def game_score(game: Game) -> GameScore:
    """The game scored by the engine from the hands as entered (``Game.record()``, §9.3).

    Every read of a stored game's totals, winners or results goes through here.
    """
    return score_game(*parse_record(game.record()))


def scoresheet(game: Game) -> Scoresheet:
    """Score ``game`` as stored. Read-only: writes go through ``services.games``.

    A game deleted from another phone while this is read is a 404. The seats are read before the
    hands for that: a deletion committed between the two reads leaves seats and no hands (which
    scores), never hands whose dealers have no seat.
    """
    first = [seat.player for seat in game.seats.select_related("player").order_by("position")]
    if not first:
        raise Http404("That game was just deleted.")
    sitting = seating(game, first)
    hands = list(game.hands.all())
    score = score_game(*parse_record(record_of(game, hands)))
    variant, settings = score.variant, score.settings
    players = sitting.last  # the heading's names, and who deals next: whoever sits there now
    names = side_names(variant, players)
    rows: list[HandRow] = []
    scored = iter(score.hands)
    totals = [0] * len(names)
    for hand in hands:
        played_by = sitting.at(hand.number) if sitting.taken else players  # each hand: who played it
        if hand.thrown_in:
            rows.append(_thrown_in_row(hand, played_by, side_names(variant, played_by), totals))
        else:
            rows.append(_row(variant, hand, played_by, side_names(variant, played_by), next(scored)))
            totals = rows[-1].totals
    taken = tuple(
        (number, position, sitting.at(number - 1)[position], player)
        for number, position, player in sitting.taken
    )
    return Scoresheet(game, variant, settings, players, names, score, rows, taken)


def _stored(hand: Hand, players: list[Player]) -> dict[str, Any]:
    """What every row takes from the stored hand: which deal it is, its version and its dealer."""
    return {
        "number": hand.number,
        "hand_id": hand.pk,
        "version": hand.version,
        "dealer_seat": hand.dealer,
        "dealer": players[hand.dealer].name,
    }


def _thrown_in_row(hand: Hand, players: list[Player], names: list[str], totals: list[int]) -> HandRow:
    """A deal thrown in: no bid and no score; the totals stand."""
    sides = [SideResult(name, 0, total, "", False) for name, total in zip(names, totals, strict=True)]
    return HandRow(
        **_stored(hand, players),
        thrown_in=True,
        bidder="",
        bidder_side=0,
        bid=0,
        trump=None,
        meld=[0] * len(names),
        tricks=None,
        made=False,
        played=False,
        scores=[0] * len(names),
        totals=list(totals),
        reasons=[""] * len(names),
        sides=sides,
    )


def _row(
    variant: Variant, hand: Hand, players: list[Player], names: list[str], scored: ScoredHand
) -> HandRow:
    entry, score = scored.entry, scored.score
    bidder_side = variant.side_of(entry.bidder)
    sides = [
        SideResult(
            name,
            points,
            total,
            reason,
            side == bidder_side,
            meld=entry.meld[side],
            tricks=None if entry.tricks is None else entry.tricks[side],
        )
        for side, (name, points, total, reason) in enumerate(
            zip(names, score.scores, scored.totals, score.reasons, strict=True)
        )
    ]
    return HandRow(
        **_stored(hand, players),
        thrown_in=False,
        bidder=players[entry.bidder].name,
        bidder_side=bidder_side,
        bid=entry.bid,
        trump=None if entry.trump is None else SUITS[entry.trump],
        meld=list(entry.meld),
        tricks=None if entry.tricks is None else list(entry.tricks),
        made=score.made,
        played=score.played,
        scores=list(score.scores),
        totals=list(scored.totals),
        reasons=list(score.reasons),
        sides=sides,
    )


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
    games = household.games.prefetch_related("seats__player", "seats_taken__player").annotate(
        hand_count=Count("hands", distinct=True)
    )
    if variant is not None:
        games = games.filter(variant=variant)
    if player is not None:
        # Who sat down first, or took a seat over during the game (``SeatTaken``).
        games = games.filter(Q(seats__player=player) | Q(seats_taken__player=player)).distinct()
    if finished is not None:
        games = games.filter(finished=finished)
    return games.order_by("-created_at", "-id")


def seated_side_names(game: Game, variant: Variant) -> list[str]:
    """Each side's players ("Ann & Cy"; one name in six-handed) as they sat at the end (a seat
    taken over during the game names who took it), from prefetched seats and seats taken."""
    taken = tuple((take.from_hand, take.position, take.player) for take in game.seats_taken.all())
    return side_names(variant, Seating(tuple(seat.player for seat in game.seats.all()), taken).last)


@dataclass(frozen=True, slots=True)
class GameTally:
    """What history and statistics read of one game, summed once from its scored hands: the
    result, each side's total and meld, and each seat's bids. A game's tally is cached under its
    ``revision`` (every hand write moves it on), so a page of hundreds of games scores only the
    games changed since it was last shown."""

    variant_id: str
    finished: bool
    winners: tuple[int, ...]
    totals: tuple[int, ...]  # per side
    hands: int  # hands scored (thrown-in deals are not)
    side_meld: tuple[int, ...]  # per side, over every hand
    bids_won: tuple[int, ...]  # per seat
    bids_made: tuple[int, ...]
    bid_total: tuple[int, ...]
    # Per seat, in one part of a game whose seats changed hands (``scored_games``): whether this
    # part counts the game for the player in that seat (they play no later part). Empty: all do.
    counted: tuple[bool, ...] = ()

    def counts(self, seat: int) -> bool:
        """Whether this tally counts the game for the player in ``seat`` (once per game each)."""
        return not self.counted or self.counted[seat]

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.variant_id]

    @classmethod
    def of(cls, scored: GameScore) -> GameTally:
        variant = scored.variant
        side_meld, won, made, total = (
            [0] * len(variant.sides),
            [0] * variant.seats,
            [0] * variant.seats,
            [0] * variant.seats,
        )
        for hand in scored.hands:
            for side, meld in enumerate(hand.entry.meld):
                side_meld[side] += meld
            bidder = hand.entry.bidder
            won[bidder] += 1
            made[bidder] += hand.score.made
            total[bidder] += hand.entry.bid
        return cls(
            variant.id,
            scored.finished,
            tuple(scored.winners),
            tuple(scored.totals),
            len(scored.hands),
            tuple(side_meld),
            tuple(won),
            tuple(made),
            tuple(total),
        )


TALLY_KEY = "game-tally:v2:{pk}:{revision}:{created}"  # created: a recreated database reuses ids


def tally_key(game: Game) -> str:
    return TALLY_KEY.format(pk=game.pk, revision=game.revision, created=game.created_at.timestamp())


TALLY_SECONDS = 30 * 24 * 3600  # a month unread, then scored again when next shown


# A cache that does not answer (Redis down, restarting or paused; the socket timeout in the
# settings bounds each wait): the tallies are a copy of what the database holds, so a read scores
# the games from their hands instead, and a write that committed stands. After a failure this
# thread's connection rests a few seconds, so a paused Redis costs one timeout, not one per call.
CACHE_ERRORS = (RedisError, OSError)
CACHE_REST_SECONDS = 5.0
_resting_until: dict[int, float] = {}  # by id of a cache connection: when to try it again


def _tally_cache[T](call: Callable[[BaseCache], T], instead: T) -> T:
    connection = caches[DEFAULT_CACHE_ALIAS]  # this thread's own
    if _resting_until.get(id(connection), 0.0) > time.monotonic():
        return instead
    try:
        return call(connection)
    except CACHE_ERRORS as error:
        _resting_until[id(connection)] = time.monotonic() + CACHE_REST_SECONDS
        logger.warning("tallies scored from the database, the cache did not answer: %s", error)
        return instead


def _cache_get_many(keys: list[str]) -> dict[str, Any]:
    return _tally_cache(lambda cache: cache.get_many(keys), {}) if keys else {}


def _cache_set_many(values: Mapping[str, Any]) -> None:
    """Keep ``values``; a cache that does not answer loses nothing (the next read scores again)."""
    _tally_cache(lambda cache: cache.set_many(dict(values), timeout=TALLY_SECONDS), [])


def tally_written(games: Sequence[tuple[Game, GameScore]]) -> None:
    """Keep the tallies of games just written, once the write commits (a write rolled back leaves
    nothing behind): the next statistics view finds them. Aggregated once per write. The write has
    committed by then: a cache that does not answer never turns a stored hand into an error."""
    tallies = {tally_key(game): GameTally.of(scored) for game, scored in games}
    transaction.on_commit(lambda: _cache_set_many(tallies))


def game_tallies(games: Sequence[Game], known: Mapping[str, GameTally] | None = None) -> list[GameTally]:
    """Each game's tally: from ``known`` or the cache where it holds this revision; the others are
    scored (their hands in one query) and cached. A game changed while this runs moves to a new
    revision, so a tally of newer hands under the older key is never read again."""
    keys = [tally_key(game) for game in games]
    found = {key: known[key] for key in keys if known and key in known}
    if len(found) < len(keys):
        found.update(_cache_get_many([key for key in keys if key not in found]))
    missing = [game for game, key in zip(games, keys, strict=True) if key not in found]
    if missing:
        hands: dict[int, list[Hand]] = {game.pk: [] for game in missing}
        for hand in Hand.objects.filter(game__in=[game.pk for game in missing]).order_by("game", "number"):
            hands[hand.game_id].append(hand)
        scored = {
            tally_key(game): GameTally.of(score_game(*parse_record(record_of(game, hands[game.pk]))))
            for game in missing
        }
        _cache_set_many(scored)
        found.update(scored)
    return [found[key] for key in keys]


def household_tallies_key(household: Household) -> str:
    return f"household-tallies:v2:{household.pk}:{household.created_at.timestamp()}"


# Each game statistics count: its players by seat (RULES §8), and its tally.
ScoredGames = Sequence[tuple[list[Player], GameTally]]


def scored_games(household: Household) -> list[tuple[list[Player], GameTally]]:
    """The games statistics count (every game but the abandoned ones): who sat where, and the tally.

    The household's tallies are also kept together, in one cache entry read in one go: a view
    after a hand was written looks up only that game's new tally (kept by the write). Seats are
    read as plain ids, and the roster once: no model per seat for hundreds of games."""
    games = list(
        household.games.filter(abandoned=False).only("revision", "created_at", "variant", "settings")
    )
    roster = {player.pk: player for player in household.players.all()}
    seated: dict[int, list[Player]] = {game.pk: [] for game in games}
    seats = Seat.objects.filter(game__household=household, game__abandoned=False).order_by("game", "position")
    for game_id, player_id in seats.values_list("game_id", "player_id"):
        if game_id in seated:  # a game started since the games were read waits for the next view
            seated[game_id].append(roster[player_id])
    taken: dict[int, list[tuple[int, int, Player]]] = {}
    takes = SeatTaken.objects.filter(game__household=household, game__abandoned=False)
    for game_id, from_hand, position, player_id in takes.order_by("from_hand", "position").values_list(
        "game_id", "from_hand", "position", "player_id"
    ):
        if game_id in seated:
            taken.setdefault(game_id, []).append((from_hand, position, roster[player_id]))
    book_key = household_tallies_key(household)
    book: dict[str, GameTally] = _cache_get_many([book_key]).get(book_key) or {}
    tallies = game_tallies(games, known=book)
    current = {tally_key(game): tally for game, tally in zip(games, tallies, strict=True)}
    if current.keys() != book.keys():
        _cache_set_many({book_key: current})
    sittings = {pk: Seating(tuple(seated[pk]), tuple(takes)) for pk, takes in taken.items()}
    parts = _seating_tallies([game for game in games if game.pk in sittings], sittings)
    counted: list[tuple[list[Player], GameTally]] = []
    for game, tally in zip(games, tallies, strict=True):
        counted.extend(parts[game.pk] if game.pk in parts else [(seated[game.pk], tally)])
    return counted


SEATING_TALLY_KEY = "seating-tally:v2:{game}:{changes}"  # changes: the hands from which someone else sat


def _seating_tallies(
    games: Sequence[Game], sittings: Mapping[int, Seating]
) -> dict[int, list[tuple[list[Player], GameTally]]]:
    """A game whose seats changed hands in play (``SeatTaken``) is counted in parts, one per
    seating: each player is credited with the hands they played, their bids and their side's meld
    in those hands, and the game once as one they played; the game's result (finished, who won)
    goes to whoever sat in the seats at its end. The parts are cached under the game's revision and the
    hands where the seating changed (a take-over moves the key on, a play moves the revision)."""
    keys = {
        game.pk: SEATING_TALLY_KEY.format(game=tally_key(game), changes=sittings[game.pk].changes)
        for game in games
    }
    found: dict[str, tuple[GameTally, ...]] = _cache_get_many(list(keys.values()))
    missing = [game for game in games if keys[game.pk] not in found]
    if missing:
        hands: dict[int, list[Hand]] = {game.pk: [] for game in missing}
        for hand in Hand.objects.filter(game__in=[game.pk for game in missing]).order_by("game", "number"):
            hands[hand.game_id].append(hand)
        made = {keys[game.pk]: _parts(game, hands[game.pk], sittings[game.pk].changes) for game in missing}
        _cache_set_many(made)
        found.update(made)
    return {game.pk: _counted(sittings[game.pk], found[keys[game.pk]]) for game in games}


def _counted(sitting: Seating, parts: Sequence[GameTally]) -> list[tuple[list[Player], GameTally]]:
    """Each part of a game with who played it; a player counts the game in the last part they play."""
    seated = [sitting.at(start) for start in (0, *sitting.changes)]
    later: set[int] = set()
    counted: list[tuple[list[Player], GameTally]] = []
    for players, part in reversed(list(zip(seated, parts, strict=True))):
        counted.append((players, replace(part, counted=tuple(player.pk not in later for player in players))))
        later.update(player.pk for player in players)
    return counted[::-1]


def _parts(game: Game, hands: list[Hand], changes: Sequence[int]) -> tuple[GameTally, ...]:
    """``game``'s tally cut where the seating changed: one part per seating, only the last with
    the game's result."""
    scored = score_game(*parse_record(record_of(game, hands)))
    numbers = [hand.number for hand in hands if not hand.thrown_in]  # the scored hands, in order
    bounds = [0, *changes, 2**31]
    parts = []
    for index, (start, stop) in enumerate(pairwise(bounds)):
        played = tuple(h for h, n in zip(scored.hands, numbers, strict=False) if start <= n < stop)
        last = index == len(bounds) - 2
        part = (
            replace(scored, hands=played)
            if last
            else replace(scored, hands=played, finished=False, winners=())
        )
        parts.append(GameTally.of(part))
    return tuple(parts)


def club_table_of(game: Game) -> ClubTable | None:
    """The club table whose game this is (its round and event with it), or None for a household's
    own game. A club table's hands are the table phones' and the director's: the scorepad only reads."""
    return ClubTable.objects.select_related("round__event").filter(game_id=game.pk).first()


def game_hand(game: Game, hand_id: int) -> Hand | None:
    """A hand of this game by id, or None once it is gone (undone or deleted on another phone)."""
    return game.hands.filter(pk=hand_id).first()


def entry_stored(game: Game, entry_key: str) -> bool:
    """Whether the phone's entry ``entry_key`` is already a hand of this game (sent before)."""
    return bool(entry_key) and game.hands.filter(entry_key=entry_key).exists()


def latest_current_game(user_households: QuerySet[Household]) -> Game | None:
    """The latest game still going in these households, for the front page's "carry on" link."""
    return current_games(user_households).first()


def current_games(user_households: QuerySet[Household]) -> QuerySet[Game]:
    """Games still going (neither finished nor abandoned) in these households, latest first."""
    games = Game.objects.filter(household__in=user_households, finished=False, abandoned=False)
    return (
        games.select_related("household").annotate(hand_count=Count("hands")).order_by("-created_at", "-id")
    )
