"""Club nights, read: who is checked in, the next round's seating, the tables, results and standings.

Seating comes from ``engine.events``: the movement for the entrants present is computed for the
event's planned rounds and its round ``n`` used for round ``n``. While nobody arrives or leaves that
is exactly the planned movement, with its guarantees; after a change the movement of the new count
takes over from that round on, and repeats against the rounds already played are said in words
before the round starts (``RoundPlan.repeats_now``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from ..engine import events
from ..engine.variants import get_variant
from ..models import (
    ClubEntrant,
    ClubEvent,
    ClubMember,
    ClubResult,
    ClubRound,
    ClubTable,
    ClubTableCard,
    Player,
    TableHand,
)
from .games import Scoresheet, scoresheet
from .households import active_roster


def director_event(user: User | AnonymousUser, event_id: int) -> ClubEvent:
    """The event ``event_id`` if ``user`` directs it; anything else is a 404."""
    found = ClubEvent.objects.select_related("household")
    found = found.filter(director=user) if user.is_authenticated else found.none()
    return get_object_or_404(found, pk=event_id)


def household_events(household_id: int, user: User) -> QuerySet[ClubEvent]:
    return ClubEvent.objects.filter(household_id=household_id, director=user)


def card_by_token(token: str) -> ClubTableCard | None:
    """The physical table whose link (printed on its card) is ``token``."""
    return ClubTableCard.objects.select_related("event__household").filter(token=token).first()


def card_table(card: ClubTableCard) -> ClubTable | None:
    """What a physical table plays now: its table of the latest round that seated it (None before
    its first round)."""
    return (
        ClubTable.objects.select_related("round__event__household", "game", "card")
        .filter(card=card)
        .order_by("-round__number")
        .first()
    )


def event_cards(event: ClubEvent) -> list[ClubTableCard]:
    return list(event.table_cards.order_by("number"))


def event_card(event: ClubEvent, card_id: int) -> ClubTableCard:
    return get_object_or_404(ClubTableCard, pk=card_id, event=event)


def event_table(event: ClubEvent, table_id: int) -> ClubTable:
    return get_object_or_404(ClubTable.objects.select_related("round"), pk=table_id, round__event=event)


def entrants_with_players(event: ClubEvent) -> list[ClubEntrant]:
    members = Prefetch("members", ClubMember.objects.select_related("player").order_by("order"))
    return list(event.entrants.prefetch_related(members).order_by("number"))


def present_for(entrants: list[ClubEntrant], round_number: int) -> list[ClubEntrant]:
    """The entrants who play round ``round_number``: arrived by then and not left before it."""
    return [
        entrant
        for entrant in entrants
        if entrant.arrived_before <= round_number
        and (entrant.left_after is None or entrant.left_after >= round_number)
    ]


def checked_in_player_ids(event: ClubEvent) -> set[int]:
    return set(event.members.values_list("player_id", flat=True))


def check_in_roster(event: ClubEvent, find: str = "") -> QuerySet[Player]:
    """The club's players not yet checked in to ``event`` (retired players left out); with
    ``find``, those whose name holds it (any case): a member found by name among 150."""
    roster = active_roster(event.household).exclude(pk__in=event.members.values("player_id"))
    find = " ".join("".join(ch for ch in find if ch.isprintable()).split())  # no NUL reaches the query
    return roster.filter(name__icontains=find) if find else roster


def roster_named(event: ClubEvent, names: list[str]) -> tuple[list[Player], list[str]]:
    """The names typed at check-in split into the club's members (a roster player of that name,
    any case) and newcomers (the rest), each in the order typed."""
    members: list[Player] = []
    newcomers: list[str] = []
    for name in names:
        found = event.household.players.filter(name__iexact=" ".join(name.split())).first()
        if found is None:
            newcomers.append(name)
        else:
            members.append(found)
    return members, newcomers


def player_busy_elsewhere(event: ClubEvent, player_ids: list[int]) -> ClubMember | None:
    """A member of another event of the club being played now, still there: one of ``player_ids``."""
    return (
        ClubMember.objects.select_related("player", "event")
        .filter(player_id__in=player_ids, event__household=event.household, event__status="playing")
        .exclude(event=event)
        .filter(entrant__left_after__isnull=True)
        .first()
    )


def entrant_label(event: ClubEvent, entrant: ClubEntrant) -> str:
    """How the tables say an entrant: "Team 7" for a team, the player's name otherwise."""
    return f"Team {entrant.number}" if event.format == ClubEvent.Format.TEAMS else entrant.name


# ---- the next round's seating -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlannedTable:
    number: int
    seats: list[ClubEntrant]  # in the engine's seat order


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """What starting the next round would do, or why it cannot start (``problem``)."""

    number: int
    tables: list[PlannedTable] = field(default_factory=list)
    sitting_out: list[ClubEntrant] = field(default_factory=list)
    repeats_now: list[str] = field(default_factory=list)  # this round repeats an earlier pairing
    repeats_later: list[str] = field(default_factory=list)  # later planned rounds would
    problem: str = ""

    def seat_of(self, entrant_id: int) -> tuple[int, int] | None:
        for table in self.tables:
            for seat, entrant in enumerate(table.seats):
                if entrant.pk == entrant_id:
                    return table.number, seat
        return None


@lru_cache(maxsize=64)
def _movement(kind: events.EventKind, entrants: int, rounds: int) -> events.Movement:
    """Pure and sometimes slow (a progressive search), so computed once per shape."""
    return events.movement(kind, entrants, rounds)


def _pairs(kind: str, seats: list[int]) -> list[tuple[int, int]]:
    """The pairings that must not repeat: partners (progressive), opponents (teams), tablemates."""
    if kind == events.PROGRESSIVE:
        return [tuple(sorted(pair)) for pair in ((seats[0], seats[2]), (seats[1], seats[3]))]  # type: ignore[misc]
    return [tuple(sorted(pair)) for pair in combinations(seats, 2)]  # type: ignore[misc]


def _played_tables(event: ClubEvent, before: int) -> list[tuple[int, list[int]]]:
    """(round, entrant ids by seat) of every table of the rounds before ``before``."""
    tables = ClubTable.objects.filter(round__event=event, round__number__lt=before)
    return [(number, list(seats)) for number, seats in tables.values_list("round__number", "seats")]


MINIMUM = {events.TEAMS: 2, events.PROGRESSIVE: 4, events.SIX_HANDED: 6}  # entrants a round needs
PAIR_WORDS = {events.TEAMS: "meet", events.PROGRESSIVE: "partner", events.SIX_HANDED: "share a table"}


def _seated(table: events.Table, by_index: dict[int, ClubEntrant], gone: set[int]) -> bool:
    """Whether a planned table plays: nobody at it has left."""
    return not any(by_index[i].pk in gone for i in table.seats)


def next_round_plan(event: ClubEvent, entrants: list[ClubEntrant] | None = None) -> RoundPlan:
    """The seating of round ``current_round + 1`` and the repeats it and the later rounds would make,
    in words; ``problem`` when it cannot start.

    Teams: the movement is made for every team that has arrived by then, those who left included, so
    a team leaving changes nobody else's path: its seat stays empty and the team that would have met
    it sits the round out (a bye). Individuals: the movement is made for the players present, since
    a table cannot play a player short."""
    number = event.current_round + 1
    if number > event.rounds:
        return RoundPlan(number, problem=f"All {event.rounds} rounds have been played.")
    entrants = entrants_with_players(event) if entrants is None else entrants
    present = present_for(entrants, number)
    kind: events.EventKind = event.format  # type: ignore[assignment]
    moving = [e for e in entrants if e.arrived_before <= number] if kind == events.TEAMS else present
    gone = {e.pk for e in moving} - {e.pk for e in present}
    if len(present) < MINIMUM[kind]:
        return RoundPlan(number, problem=_in_words(event, "", len(present)))
    try:
        planned = _movement(kind, len(moving), event.rounds)
    except events.EventError as error:
        return RoundPlan(number, problem=_in_words(event, str(error), len(present)))
    by_index = {index: entrant for index, entrant in enumerate(moving, start=1)}
    coming = planned.round(number)
    tables = [
        PlannedTable(t.number, [by_index[i] for i in t.seats])
        for t in coming.tables
        if _seated(t, by_index, gone)
    ]
    seated = {e.pk for table in tables for e in table.seats}
    out = [e for e in present if e.pk not in seated]  # the bye, and whoever met a team that left
    names = {entrant.pk: entrant_label(event, entrant) for entrant in entrants}
    seen: dict[tuple[int, int], list[int]] = {}
    for round_number, seats in _played_tables(event, number):
        for pair in _pairs(kind, seats):
            seen.setdefault(pair, []).append(round_number)
    now: list[str] = []
    later: list[str] = []
    for later_round in planned.rounds[number - 1 :]:
        for table in later_round.tables:
            if not _seated(table, by_index, gone):
                continue
            for pair in _pairs(kind, [by_index[i].pk for i in table.seats]):
                if seen.get(pair):
                    before = ", ".join(str(r) for r in seen[pair])
                    words = (
                        f"{names[pair[0]]} and {names[pair[1]]} would {PAIR_WORDS[kind]} again in round "
                        f"{later_round.number} (round {before} too)"
                    )
                    (now if later_round.number == number else later).append(words)
                seen.setdefault(pair, []).append(later_round.number)
    return RoundPlan(number, tables, out, now, later)


def _in_words(event: ClubEvent, error: str, count: int) -> str:
    least = MINIMUM[event.format]  # type: ignore[index]
    what = "teams" if event.format == ClubEvent.Format.TEAMS else "players"
    if count < least:
        return f"This event needs at least {least} {what} checked in to start a round; {count} are."
    return f"The seating cannot be made: {error}."


# ---- a table --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableView:
    """One table as its phone (or the director) sees it."""

    table: ClubTable
    event: ClubEvent
    round: ClubRound
    sheet: Scoresheet
    seats: list[ClubEntrant]
    hands: dict[int, TableHand]  # by scorepad hand id

    @property
    def open(self) -> bool:
        return self.round.status == ClubRound.Status.PLAYING

    @property
    def hands_left(self) -> int | None:
        """Hands this table may still enter (a fixed number of hands per round), None if no limit."""
        if self.event.round_end != ClubEvent.RoundEnd.HANDS or not self.event.hands_per_round:
            return None
        return max(0, self.event.hands_per_round - len(self.sheet.rows))


def table_view(table: ClubTable, sheet: Scoresheet | None = None) -> TableView:
    """``table`` as its phone sees it; ``sheet``: its game as a write just scored it, not scored again."""
    club_round = table.round
    event = club_round.event
    by_id = {entrant.pk: entrant for entrant in entrants_with_players(event)}
    hands = {th.hand_id: th for th in TableHand.objects.filter(table=table)}
    sheet = scoresheet(table.game) if sheet is None else sheet
    return TableView(table, event, club_round, sheet, [by_id[i] for i in table.seats], hands)


def table_hand(table: ClubTable, table_hand_id: int) -> TableHand | None:
    return TableHand.objects.select_related("hand").filter(table=table, pk=table_hand_id).first()


def round_tables(club_round: ClubRound) -> list[ClubTable]:
    return list(club_round.tables.select_related("game", "card").order_by("number"))


def current_round(event: ClubEvent) -> ClubRound | None:
    return event.club_rounds.filter(number=event.current_round).first()


def open_hands(event: ClubEvent) -> list[TableHand]:
    """Hands marked for the director: not yet confirmed by the other side, or disputed."""
    return list(
        TableHand.objects.filter(table__round__event=event)
        .exclude(state=TableHand.State.CONFIRMED)
        .select_related("table__round", "hand")
        .order_by("table__round__number", "table__number", "hand__number")
    )


# ---- results and standings ------------------------------------------------------------------------


def bye_rule(event: ClubEvent) -> events.ByeRule:
    return events.ByeRule(event.bye_score, event.bye_points)  # type: ignore[arg-type]


def event_results(event: ClubEvent) -> tuple[list[events.RoundResult], list[tuple[int, int]]]:
    """The closed rounds' results and byes, by entrant number, as ``engine.events`` reads them."""
    rows = ClubResult.objects.filter(round__event=event, round__status=ClubRound.Status.CLOSED).values_list(
        "entrant__number", "round__number", "points", "won", "bye"
    )
    results = [events.RoundResult(n, r, points, won) for n, r, points, won, bye in rows if not bye]
    byes = [(n, r) for n, r, _, _, bye in rows if bye]
    return results, byes


@dataclass(frozen=True, slots=True)
class StandingRow:
    standing: events.Standing
    entrant: ClubEntrant
    label: str

    @property
    def matchpoints(self) -> str:
        return events.matchpoints_words(self.standing.matchpoints)


def event_standings(event: ClubEvent) -> list[StandingRow]:
    results, byes = event_results(event)
    entrants = {entrant.number: entrant for entrant in entrants_with_players(event)}
    kind: events.EventKind = event.format  # type: ignore[assignment]
    ranked = events.standings(results, kind, byes, bye_rule(event), event.ranking)  # type: ignore[arg-type]
    return [StandingRow(s, entrants[s.entrant], entrant_label(event, entrants[s.entrant])) for s in ranked]


def event_prizes(event: ClubEvent, min_rounds: int | None = None, places: int = 3) -> events.Prizes:
    """Places, the best single round and the best average (over at least half the rounds, by default)."""
    results, byes = event_results(event)
    kind: events.EventKind = event.format  # type: ignore[assignment]
    ranked = events.standings(results, kind, byes, bye_rule(event), event.ranking)  # type: ignore[arg-type]
    least = min_rounds if min_rounds is not None else max(1, (event.rounds + 1) // 2)
    return events.prizes(ranked, results, least, places)


# ---- where next ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NextPlace:
    entrant: ClubEntrant
    label: str
    where: str  # "table 4, East–West" or "sits out"

    @property
    def line(self) -> str:
        return f"{self.label}: {self.where}"


def where_next(event: ClubEvent, entrant_ids: list[int]) -> list[NextPlace]:
    """Where each of ``entrant_ids`` goes in the next round, as planned now (the director may still
    check someone in or out before starting it); empty when no next round can start."""
    plan = next_round_plan(event)
    if plan.problem:
        return []
    words = events.seat_words(event.format)  # type: ignore[arg-type]
    entrants = {entrant.pk: entrant for table in plan.tables for entrant in table.seats}
    entrants.update({entrant.pk: entrant for entrant in plan.sitting_out})
    places = []
    for entrant_id in entrant_ids:
        entrant = entrants.get(entrant_id)
        if entrant is None:
            continue  # left the event
        seat = plan.seat_of(entrant_id)
        where = "sits out" if seat is None else f"table {seat[0]}, {words[seat[1]]}"
        places.append(NextPlace(entrant, entrant_label(event, entrant), where))
    return places


def variant_seats(event: ClubEvent) -> int:
    return get_variant(event.variant).seats


def closed_rounds(event: ClubEvent) -> int:
    """How many rounds are finished: the standings count those, not one just started."""
    return event.club_rounds.filter(status=ClubRound.Status.CLOSED).count()


def club_round(event: ClubEvent, number: int) -> ClubRound | None:
    return event.club_rounds.filter(number=number).first()
