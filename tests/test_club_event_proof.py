"""The whole club night, end to end: 8 teams, 4 rounds to the target, every hand played by the
engine's bots and entered on the table's phone through the table pages (the PIN, the hand form, the
other side's confirmation), the director's pages for check-in, a team leaving, starting and closing
rounds. The movement, where each goes next, the byes, the standings and the prizes are checked
against a tally written here, from the bots' own games and the stay-and-move rule, not from the
app's code."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.engine.bots import make_bot
from scorepad.engine.cards import SUITS
from scorepad.engine.game import new_game, next_hand
from scorepad.engine.simulate import play_hand
from scorepad.engine.variants import get_variant
from scorepad.models import ClubEvent
from scorepad.selectors.clubs import event_prizes
from scorepad.services.households import player_create

pytestmark = pytest.mark.django_db

TEAMS, ROUNDS, TABLES = 8, 4, 4
LEAVER, LEAVES_AFTER = 8, 2  # team 8 goes home after round 2: its opponents then sit out
CLASSIC = get_variant("classic")
RULES = CLASSIC.settings({})


@pytest.fixture
def roster():
    return ()


# ---- the tally written here -----------------------------------------------------------------------


def expected_tables(round_number: int, *, leaver_gone: bool = True) -> dict[int, tuple[int, int]]:
    """Stay and move: teams 1–4 stay North–South at tables 1–4; team 5 + j sits East–West at
    table (j + round − 1) mod 4 + 1. A table whose East–West team has left does not play."""
    tables = {}
    for j in range(TEAMS - TABLES):
        team = TABLES + 1 + j
        table = (j + round_number - 1) % TABLES + 1
        if not (leaver_gone and team == LEAVER and round_number > LEAVES_AFTER):
            tables[table] = (table, team)
    return tables


def expected_bye(round_number: int) -> list[int]:
    """Once the leaver has gone, the North–South team of the table it would have moved to sits out."""
    if round_number <= LEAVES_AFTER:
        return []
    return [(LEAVER - TABLES - 1 + round_number - 1) % TABLES + 1]


def rank(records: dict[int, tuple[int, int]]) -> dict[int, int]:
    """Competition ranking (1, 2, 2, 4) by wins, then points."""
    ordered = sorted(records.values(), reverse=True)
    return {team: 1 + ordered.index(record) for team, record in records.items()}


# ---- the pages --------------------------------------------------------------------------------------


def version_on(page: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found, "the director's page shows the event's version in its forms"
    return found.group(1)


def director_post(director: Client, event: ClubEvent, name: str, **data) -> str:
    page = director.get(reverse("club_event", args=[event.pk])).content.decode()
    response = director.post(
        reverse(name, args=[event.pk]), {"version": version_on(page), **data}, follow=True
    )
    assert response.status_code == 200
    return response.content.decode()


def open_table(token: str, pin: str, side: int) -> Client:
    phone = Client()
    response = phone.post(reverse("club_table", args=[token]), {"pin": pin, "side": side})
    assert response.status_code == 302, "the right PIN opens the table"
    return phone


def seats_on(page: str) -> tuple[int, int]:
    north_south = re.search(r"North–South: Team (\d+)", page)
    east_west = re.search(r"East–West: Team (\d+)", page)
    assert north_south
    assert east_west
    return int(north_south.group(1)), int(east_west.group(1))


def hand_fields(state, number: int, key: str) -> dict[str, str]:
    """What the phone taps for one hand the bots played: as a player reads it off the table."""
    fields = {"number": str(number), "dealer": str(state.dealer), "entry_key": key}
    if state.bidder is None:  # all passed: thrown in
        return {**fields, "thrown_in": "1"}
    meld = CLASSIC.side_totals(state.meld)
    fields.update(
        {"bidder": str(state.bidder), "bid": str(state.bid), "trump": SUITS[state.trump], "save": "1"}
    )
    for side in range(len(CLASSIC.sides)):
        fields[f"meld_{side}"] = str(meld[side])
        fields[f"tricks_{side}"] = str(state.points[side]) if state.result.played else ""
        if state.result.played and state.took_trick[side]:
            fields[f"took_{side}"] = "on"
    return fields


def play_table(token: str, pin: str, seed: int) -> tuple[tuple[int, int], tuple[int, ...], tuple[int, ...]]:
    """Bots play the table's game to the target; North–South's phone enters every hand and
    East–West's confirms it. The seats, and the bots' own final totals and winners."""
    enters, confirms = open_table(token, pin, 0), open_table(token, pin, 1)
    url = reverse("club_table", args=[token])
    page = enters.get(url).content.decode()
    seats = seats_on(page)
    hand_url = re.search(r'action="(/club/t/[^"]+/hand/\?round=\d+&amp;table=\d+)"', page)
    assert hand_url
    action = hand_url.group(1).replace("&amp;", "&")
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seat, random.Random(rng.getrandbits(32))) for seat in range(4)]
    state = new_game(CLASSIC, RULES, rng, first_dealer=0)
    number = 0
    try:
        while True:
            play_hand(state, bots)
            response = enters.post(action, hand_fields(state, number, f"hand{seed}x{number}"))
            refusals = re.findall(r"(?s)errorlist.{0,300}|form-errors.{0,300}", response.content.decode())
            assert response.status_code == 302, refusals
            waiting = re.findall(
                r'name="table_hand" value="(\d+)"><input type="hidden" name="version" value="(\d+)">',
                confirms.get(url).content.decode(),
            )
            assert len(waiting) >= 1, "the hand waits for the other side"
            table_hand, version = waiting[0]
            confirms.post(
                reverse("club_table_confirm", args=[token]), {"table_hand": table_hand, "version": version}
            )
            number += 1
            if state.result.winners:
                break
            state = next_hand(state, rng)
    finally:
        for bot in bots:
            bot.close()
    after = enters.get(url).content.decode()
    assert "The game at this table is won." in after
    assert "waiting for the other side" not in after
    return seats, tuple(state.result.totals), tuple(state.result.winners)


@pytest.mark.slow
def test_a_whole_club_night(member, household):
    director = member
    # The event and the check-in, through the director's pages: one team from the roster, seven
    # typed at the door in one line each.
    ann, bob = player_create(household=household, name="Ann"), player_create(household=household, name="Bob")
    director.post(
        reverse("club_event_new", args=[household.pk]),
        {
            "name": "Club night",
            "format": "teams",
            "variant": "classic",
            "rounds": ROUNDS,
            "round_end": "target",
            "bye_score": "winners_average",
        },
    )
    event = ClubEvent.objects.get(name="Club night")
    director_post(director, event, "club_check_in", players=[ann.pk, bob.pk], newcomers="")
    for team in range(2, TEAMS + 1):
        page = director_post(director, event, "club_check_in", newcomers=f"North{team} & South{team}")
        assert f"Checked in: North{team} &amp; South{team}." in page

    points: dict[int, int] = dict.fromkeys(range(1, TEAMS + 1), 0)
    wins: dict[int, int] = dict.fromkeys(range(1, TEAMS + 1), 0)
    played: dict[int, list[int]] = {team: [] for team in range(1, TEAMS + 1)}
    for round_number in range(1, ROUNDS + 1):
        if round_number == LEAVES_AFTER + 1:
            leaver = event.entrants.get(number=LEAVER)
            director_post(director, event, "club_leave", entrant=leaver.pk)
        plan = director.get(reverse("club_event", args=[event.pk])).content.decode()
        sitting_out = re.findall(r"<li>Sits out: ([^<]+)</li>", plan)
        assert sitting_out == [f"Team {team}" for team in expected_bye(round_number)]
        page = director_post(director, event, "club_round_start")
        assert f"Round {round_number} started" in page
        tables_page = director.get(reverse("club_tables", args=[event.pk])).content.decode()
        links = re.findall(
            r"<h2>Table (\d+)</h2>\s*<p>PIN <strong class=\"pin\">(\d{4})</strong></p>\s*"
            r"<img src=\"[^\"]+\"[^>]*>\s*<p><input class=\"copy\" type=\"text\" readonly "
            r"value=\"http://testserver/club/t/([^/]+)/\"",
            tables_page,
        )
        if round_number == 1:
            cards = links
        # One card per physical table, printed once: the same link and PIN every round.
        assert links == cards
        assert len(cards) == TABLES
        expected = expected_tables(round_number)
        links = [link for link in cards if int(link[0]) in expected]
        assert sorted(int(number) for number, _, _ in links) == sorted(expected)

        winners_points = []
        for number, pin, token in links:
            seats, totals, winners = play_table(token, pin, seed=100 * round_number + int(number))
            assert seats == expected[int(number)], f"round {round_number}, table {number}"
            for side, team in enumerate(seats):
                points[team] += totals[side]
                played[team].append(totals[side])
                if side in winners:
                    wins[team] += 1
                    winners_points.append(totals[side])
        # The bye: the winners' average of the round, rounded half up, and no win.
        bye_score = int(Fraction(sum(winners_points), len(winners_points)) + Fraction(1, 2))
        for team in expected_bye(round_number):
            points[team] += bye_score

        director_post(director, event, "club_round_close")
        # Each table now says where its teams go next, as planned now (team 8 has not left yet).
        if round_number < ROUNDS:
            coming = expected_tables(round_number + 1, leaver_gone=round_number > LEAVES_AFTER)
            for number, pin, token in links:
                page = open_table(token, pin, 0).get(reverse("club_table", args=[token])).content.decode()
                for team in expected[int(number)]:
                    if round_number >= LEAVES_AFTER + 1 and team in expected_bye(round_number + 1):
                        assert f"Team {team}: sits out" in page
                        continue
                    table, pair = next((t, pair) for t, pair in coming.items() if team in pair)
                    where = "North–South" if pair[0] == team else "East–West"
                    assert f"Team {team}: table {table}, {where}" in page
        else:
            last = open_table(links[0][2], links[0][1], 0).get(reverse("club_table", args=[links[0][2]]))
            assert "That was the last round" in last.content.decode()

    # The standings on the director's page, against the tally.
    page = director.get(reverse("club_event", args=[event.pk])).content.decode()
    row = (
        r"<tr><td>(\d+)=?</td><td>Team (\d+) <span class=\"muted\">[^<]*</span></td>"
        r"<td>(\d+)</td><td>(-?\d+)</td>"
    )
    rows = re.findall(row, page)
    assert len(rows) == TEAMS
    shown = {int(team): (int(w), int(p)) for _, team, w, p in rows}
    assert shown == {team: (wins[team], points[team]) for team in range(1, TEAMS + 1)}
    ranks = rank({team: (wins[team], points[team]) for team in range(1, TEAMS + 1)})
    assert {int(team): int(r) for r, team, _, _ in rows} == ranks

    # The prizes: the first three places, the best single round, the best average (at least two rounds).
    prizes = event_prizes(event)
    assert sorted(s.entrant for s in prizes.winners) == sorted(t for t, r in ranks.items() if r <= 3)
    best = max(score for scores in played.values() for score in scores)
    assert {h.entrant for h in prizes.high_round} == {t for t, scores in played.items() if best in scores}
    assert {h.points for h in prizes.high_round} == {best}
    averages = {t: Fraction(sum(s), len(s)) for t, s in played.items() if len(s) >= 2}
    top = max(averages.values())
    assert {a.entrant for a in prizes.high_average} == {t for t, a in averages.items() if a == top}
    assert ClubEvent.objects.get(pk=event.pk).status == ClubEvent.Status.FINISHED
