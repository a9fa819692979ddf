"""The daily deal's writes: a day's deal, the expert's result on it, an attempt, its score.

Each (day, variant) has one seed, drawn from the site's secret key and nothing else, so nobody can
work out tomorrow's cards from the code, and stored with the day's ``DailyDeal`` when it is first
needed. An attempt is a one-hand practice game at expert strength dealt from that seed
(``practice_start``): the same cards for everyone, the player in seat 0, and bots whose every
answer comes from the seed and the state (``engine.practice``), so the same play always meets
the same answers. The bots see their own seat's view only, as in every practice game.

The expert's result is the deal played by the expert in the player's seat around the same bots,
exactly as a hand review's duplicate plays it (``engine.practice.review_slice``, same seed, same
playouts), so the daily page and the review agree. It is worked out once per deal, with no
transaction open: ahead of time by ``manage.py daily_deals``, or else by the first start of the
day (a request that already pays for the bots), and stored with a conditional update. No page
that only shows the daily deal ever searches.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import bot_pool
from ..constants import PLAYER
from ..engine.cards import codes
from ..engine.game import new_game
from ..engine.review import REVIEW_PLAYOUTS
from ..engine.simulate import GameStopped
from ..engine.variants import SettingsError, get_variant
from ..models import DailyAttempt, DailyDeal, DailyPlayer, PracticeGame
from ..selectors.daily import Who, counted_attempt
from . import ServiceError
from .practice import BOTS_BUSY, BOTS_GONE, PracticeBusy, deal_rng, practice_start

DAILY_STRENGTH = "expert"
FIRST_DAY = dt.date(2000, 1, 1)  # the archive reaches no further back


class DailyRefused(ServiceError):
    """A daily start refused (a day not dealt yet, a second counted attempt, an unknown variant);
    nothing was changed."""


class DailyAlreadyStarted(DailyRefused):
    """The counted attempt exists and is not finished: the player goes back to it (``attempt``)."""

    def __init__(self, attempt: DailyAttempt) -> None:
        super().__init__("You have already started today's deal: here it is, as you left it.")
        self.attempt = attempt


# -- reading a day and a variant from a URL ------------------------------------------------------


def daily_day(text: str, *, today: dt.date) -> dt.date:
    """``YYYY-MM-DD`` as a day with a deal (2000-01-01 to today), or refused in words."""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise DailyRefused(f"{text[:20]!r} is not a day: write it as 2026-12-06.") from None
    if day > today:
        raise DailyRefused("That day's deal is not dealt yet: come back on the day.")
    if day < FIRST_DAY:
        raise DailyRefused(f"The daily deals begin on {FIRST_DAY:%-d %B %Y}.")
    return day


def daily_variant(text: str) -> str:
    """A variant's id, or refused in words."""
    try:
        return get_variant(text).id
    except (SettingsError, ValueError, KeyError):
        raise DailyRefused(
            f"There is no daily deal for {text[:30]!r}: choose classic, double-deck or six-handed."
        ) from None


# -- the day's deal -----------------------------------------------------------------------------


def daily_seed(day: dt.date, variant_id: str) -> int:
    """The deal's seed: 48 bits of an HMAC of the day and variant under the site's secret key."""
    message = f"daily-deal:{day.isoformat()}:{variant_id}".encode()
    digest = hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:6], "big")


@transaction.atomic
def daily_deal_get(*, day: dt.date, variant_id: str) -> DailyDeal:
    """The day's deal for the variant, made (with its seed) the first time it is asked for."""
    found = DailyDeal.objects.filter(day=day, variant=variant_id).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():  # two first starts at once: the second finds the first's row
            return DailyDeal.objects.create(day=day, variant=variant_id, seed=daily_seed(day, variant_id))
    except IntegrityError:
        return DailyDeal.objects.get(day=day, variant=variant_id)


def deal_line(deal: DailyDeal) -> dict[str, object]:
    """The deal as dealt, in the §9.5 keys a replay reads (``engine.log.deal_logged``)."""
    variant = get_variant(deal.variant)
    state = new_game(variant, variant.settings({}), deal_rng(deal.seed, 0))
    sides = len(variant.sides)
    return {
        "variant": variant.id,
        "settings": {},
        "game": state.game,
        "hand": state.hand_number,
        "dealer": state.dealer,
        "dealt": [codes(cards) for cards in state.dealt],
        "totals": [0] * sides,
        "scores": [0] * sides,
    }


def daily_expert_work(*, deal: DailyDeal) -> DailyDeal:
    """The deal with the expert's result: worked out now if it is not stored yet (about a second of
    CPU, where ``bot_pool`` says, no transaction open), then stored once."""
    if deal.expert_score is not None:
        return deal
    try:
        worked = bot_pool.review_slice(
            deal_line(deal), f"{deal.seed}:0", (), True, 0.0, DAILY_STRENGTH, deal.seed, REVIEW_PLAYOUTS
        )
    except bot_pool.BotsBusy:
        raise PracticeBusy(BOTS_BUSY) from None
    except bot_pool.BrokenProcessPool:
        raise DailyRefused(BOTS_GONE) from None
    except GameStopped as error:  # a bug in a bot of ours, never the player's doing
        raise DailyRefused(f"A bot broke the rules ({error}); nothing was changed.") from None
    line = worked.duplicate
    assert line is not None, "a finished review slice plays the duplicate"
    score = int(line["scores"][get_variant(deal.variant).side_of(PLAYER)])
    _store_expert(deal, line, score)
    deal.refresh_from_db()
    return deal


@transaction.atomic
def _store_expert(deal: DailyDeal, line: dict[str, object], score: int) -> None:
    # Two first starts at once both work it out (the same result): the first to store it wins.
    DailyDeal.objects.filter(pk=deal.pk, expert_score__isnull=True).update(
        expert_line=line, expert_score=score
    )


def daily_deal_prepare(*, day: dt.date, variant_id: str) -> DailyDeal:
    """The day's deal with the expert's result stored (``manage.py daily_deals`` runs this ahead)."""
    return daily_expert_work(deal=daily_deal_get(day=day, variant_id=variant_id))


# -- an attempt ---------------------------------------------------------------------------------


def daily_start(
    *, day: dt.date, variant_id: str, today: dt.date, user: User | None, guest: str, counted: bool
) -> DailyAttempt:
    """A new attempt at the day's deal: the one that counts (today's only, the player's first), or
    practice. A second counted attempt is refused in words; a counted one not finished yet is
    ``DailyAlreadyStarted``. The bots think before anything is stored."""
    user = user if user is not None and user.is_authenticated else None
    who = Who(user, guest)
    if not who.known:
        raise DailyRefused("Your browser kept no session: allow cookies for this site to play.")
    if counted and day != today:
        raise DailyRefused("Only today's deal counts: a past day's deal is played as practice.")
    deal = daily_deal_prepare(day=day, variant_id=variant_id)
    first = counted_attempt(who, deal) if day == today else None
    if counted and first is not None:
        if first.score is None and first.game is not None:
            raise DailyAlreadyStarted(first)
        raise DailyRefused(
            f"You have already played today's {get_variant(variant_id).id} deal: one attempt counts. "
            "You may play it again as practice."
        )
    if not counted and day == today and (first is None or (first.score is None and first.game is not None)):
        # Practice first (hints, undo) and the counted attempt after would not be a first attempt.
        raise DailyRefused(
            "Play today's deal for real first, to the end of the hand: practice on it comes after."
        )
    game = practice_start(user=user, variant_id=variant_id, strength=DAILY_STRENGTH, seed=deal.seed)
    try:
        attempt = _save_attempt(deal, game, user, guest, counted)
    except IntegrityError:  # the same player's other start got there first: that one counts
        game.delete()
        first = counted_attempt(who, deal)
        assert first is not None
        raise DailyAlreadyStarted(first) from None
    daily_note_hand(game=game)  # a deal thrown in as dealt ends before the player decides
    return attempt


@transaction.atomic
def _save_attempt(
    deal: DailyDeal, game: PracticeGame, user: User | None, guest: str, counted: bool
) -> DailyAttempt:
    return DailyAttempt.objects.create(
        deal=deal, game=game, user=user, guest="" if user is not None else guest, counted=counted
    )


def daily_note_hand(*, game: PracticeGame) -> bool:
    """Once the attempt's hand has ended, its score (the player's side's) is kept on the attempt;
    whether it was noted now. Nothing changes for a game that plays no daily deal.

    Every practice move asks, so the question is a read: the write (and on SQLite its lock) only
    comes when a daily attempt's hand has just ended."""
    if len(game.hands) != 1:  # a daily attempt ends after its one hand
        return False
    if not DailyAttempt.objects.filter(game=game, score__isnull=True).exists():
        return False
    return _note_score(game, int(game.hands[0]["scores"][get_variant(game.variant).side_of(PLAYER)]))


@transaction.atomic
def _note_score(game: PracticeGame, score: int) -> bool:
    noted = DailyAttempt.objects.filter(game=game, score__isnull=True).update(
        score=score, finished_at=timezone.now()
    )
    return bool(noted)


@transaction.atomic
def daily_show_name(*, user: User, show: bool) -> DailyPlayer:
    """Whether the account's name shows on the daily leaderboards."""
    player, _ = DailyPlayer.objects.update_or_create(user=user, defaults={"show_name": show})
    return player
