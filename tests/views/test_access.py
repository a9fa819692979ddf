"""Every URL of the site, walked from the URLconf: who may open it.

* An anonymous visitor is sent to the login page, except on the public views listed below.
* A member of another household gets 404 for every URL that names household A's objects.
* A member of household A gets past the scoping (not 404), which proves the ids are right.

New views are covered without editing this file. A URL keyword with no value in
``OBJECT_IDS`` fails the test, so a new kind of object needs a fixture here first.
"""

from collections.abc import Callable, Iterator

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from scorepad.selectors.club_director import standings_token_of
from scorepad.selectors.puzzles import shipped
from scorepad.services.practice import practice_start
from scorepad.services.seasons import season_create
from scorepad.services.tables import table_open
from tests.sample_games import CLASSIC_PLAYING, club_night, import_game, make_household, make_user

pytestmark = pytest.mark.django_db  # each test in a savepoint of the module's ``world``

# Views anyone may open, with the reason.
PUBLIC = {
    "home": "the front page",
    "meld": "the meld calculator needs no account",
    "login": "logging in",
    "admin_login": "the admin's log-in page, answered by our view so that a refusal is a 429",
    "signup": "signing up",
    "logout": "logging out changes nothing for a visitor",
    "practice": "practice against the bots needs no account (the game is kept in the session)",
    "practice_game": "a visitor's practice game is theirs through the session; anyone else's is a 404",
    "practice_act": "as practice_game",
    "practice_undo": "as practice_game",
    "practice_next": "as practice_game",
    "practice_rematch": "as practice_game",
    "practice_review": "as practice_game (a hand of it)",
    "practice_step": "as practice_game (a hand of it)",
    "practice_hand_log": "as practice_game (a hand of it)",
    "practice_replay": "as practice_game (a hand of it)",
    "scoreboard": "a shared scoreboard link needs no account; it names one game by an unguessable token",
    "manifest": "the web manifest: the browser fetches it to install the app",
    "service_worker": "the service worker script, fetched by the browser",
    "offline": "the page the service worker shows with no connection",
    "health": "a load balancer's check: it says only that the server answers",
    "rules_index": "the rules of each variant need no account",
    "rules": "as rules_index",
    "rules_words": "as rules_index",
    "learn": "learning to play needs no account (the lesson lives in its URL)",
    "rules_practice": "as practice_game",
    "help_index": "help for players needs no account",
    "help": "as help_index",
    # Puzzles: shipped positions anyone may solve; a visitor's ratings are theirs through the session
    "puzzles": "puzzles need no account",
    "puzzle_today": "as puzzles",
    "puzzle_run": "as puzzles",
    "puzzle": "as puzzles",
    "puzzle_answer": "as puzzles (an answer is counted for the account, else the session)",
    "puzzle_history": "as puzzle_answer",
    # The daily deal: the same deal for everyone; a visitor's attempts are theirs through the session
    "daily": "the daily deals need no account",
    "daily_archive": "as daily",
    "daily_deal": "as daily (one day's deal and its leaderboard)",
    "daily_play": "as daily (an attempt is kept for the account, else the session)",
    # Club night: a table's phone and the room's screens need no account
    "club_table": "a table's phone: its link and PIN (guesses limited) open that table only",
    "club_table_hand": "as club_table (no hand is taken without the PIN's cookie)",
    "club_table_confirm": "as club_table_hand",
    "club_table_dispute": "as club_table_hand",
    "club_standings_live": "the room's standings: read-only, named by a signed token",
    "club_standings_events": "as club_standings_live (the same standings, pushed as they change)",
    # Private tables: anyone with the link (or code) may sit down; a seat is held by its account or
    # by a guest's signed cookie, and every other phone is told it has no seat there
    "tables_new": "opening a private table needs no account (a guest types a name)",
    "table_code": "as tables_new: the short code read out across a room",
    "table_join": "as table_code: the table's link",
    "table_take": "as table_join",
    "table_sit_as": "as table_join (seats a signed-in member as their own roster player only)",
    "table_qr": "as table_join",
    "table_play": "a seat's own screen, by its account or its signed cookie; anyone else is told in words",
    "table_act": "as table_play",
    "table_next": "as table_play",
    "table_rematch": "as table_play",
    "table_say": "as table_play",
    "table_quit": "as table_play",
    "table_host": "as table_play (the host's seat only)",
    "table_events": "as table_play",
}
# Views that name household A's objects but are meant for outsiders too, with their rule.
OPEN_TO_OUTSIDERS = {
    "invite": "an invitation link is how an outsider joins: they see whose household it is",
}
SKIPPED_NAMESPACES = {"admin"}  # Django's admin has its own staff login


def walk(
    patterns: list[URLPattern | URLResolver], prefix: str = "", kwargs: tuple[str, ...] = ()
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(name, URL keywords) of every named pattern, includes followed."""
    for pattern in patterns:
        keywords = kwargs + tuple(pattern.pattern.regex.groupindex)
        if isinstance(pattern, URLResolver):
            if pattern.namespace in SKIPPED_NAMESPACES:
                continue
            space = f"{prefix}{pattern.namespace}:" if pattern.namespace else prefix
            yield from walk(pattern.url_patterns, space, keywords)
        else:
            yield f"{prefix}{pattern.name}" if pattern.name else f"<unnamed {pattern.pattern}>", keywords


ROUTES = sorted(set(walk(get_resolver().url_patterns)))


@pytest.fixture(autouse=True)
def _daily_bots_that_think_little(monkeypatch):
    """Who may open the daily deal does not depend on how its bots think: an attempt started here
    plays against easy bots, and the expert's result on the deal is worked out with few playouts."""
    monkeypatch.setattr("scorepad.services.daily.DAILY_STRENGTH", "easy")
    monkeypatch.setattr("scorepad.services.daily.REVIEW_PLAYOUTS", 8)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Household A with a game, a hand, an invite and a club night; a member of A; a member of B.

    Built once for the module's three walks of every URL, in a transaction rolled back after
    them; each test runs in a savepoint of it (the module's ``django_db`` mark), so whatever a
    request changes is undone before the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _world()
        transaction.set_rollback(True)


def _world() -> dict:
    member_a, member_b = make_user("alice"), make_user("bob")
    household = make_household(member_a, name="A")
    make_household(member_b, name="B")
    game = import_game(household, CLASSIC_PLAYING, ("Ann", "Bo", "Cy", "Di"))
    invite = household.invites.create(created_by=member_a)
    practice = practice_start(user=member_a, variant_id="classic", seed=1)
    scoreboard_link = game.scoreboard_links.create(created_by=member_a)
    table_hand = club_night(household, member_a)
    table = table_hand.table
    season = season_create(household=household, name="Autumn")
    private_table, _ = table_open(host_user=member_a, host_name="Alice", variant_id="classic", seed=1)
    object_ids: dict[str, Callable[[], object]] = {
        "household_id": lambda: household.pk,
        "game_id": lambda: game.pk,
        "hand_id": lambda: game.hands.get(number=0).pk,  # hand 1 of the game
        "token": lambda: invite.token,
        "practice_id": lambda: practice.pk,  # member A's practice game
        "hand": lambda: 0,  # … its first hand
        "share_token": lambda: scoreboard_link.token,
        "invite_id": lambda: invite.pk,
        "user_id": lambda: member_a.pk,
        "player_id": lambda: household.players.first().pk,
        "variant_id": lambda: "classic",
        "slug": lambda: "scorepad",  # a help page
        "key": lambda: shipped("classic")[0].key,  # a shipped puzzle
        "variant": lambda: "classic",  # a game with puzzles (and daily deals)
        "day": lambda: timezone.localdate().isoformat(),  # today's daily deal
        "event_id": lambda: table.round.event_id,  # A's club night, member A directing
        "table_id": lambda: table.pk,  # … the table of its round 1
        "card_id": lambda: table.card_id,  # … that table's card for the night
        "table_token": lambda: table.token,  # … that table's phone link
        "table_hand_id": lambda: table_hand.pk,  # … a hand entered there, waiting for the other side
        "club_hand_id": lambda: table_hand.hand_id,  # … the same hand in the table's game
        "standings_token": lambda: standings_token_of(table.round.event),  # … the room's standings
        "private_table_id": lambda: private_table.pk,  # a private table member A opened
        "link_token": lambda: private_table.link_token,  # … its link
        "seat": lambda: 1,  # … a seat at it
        "season_id": lambda: season.pk,  # a season of A's club
    }
    return {"a": member_a, "b": member_b, "ids": object_ids}


def url_of(world, name: str, keywords: tuple[str, ...]) -> str:
    assert not name.startswith("<unnamed"), (
        f"{name}: give the pattern a name so its access rule can be checked"
    )
    missing = [key for key in keywords if key not in world["ids"]]
    assert not missing, (
        f"{name}: no fixture value for URL keyword(s) {missing}: add them to the world fixture"
    )
    return reverse(name, kwargs={key: world["ids"][key]() for key in keywords})


def responses(client, url: str) -> dict[str, int]:
    return {"GET": client.get(url), "POST": client.post(url)}


def is_login_redirect(response, url: str) -> bool:
    return response.status_code == 302 and response["Location"].startswith(f"{reverse('login')}?next=")


def test_the_walk_finds_the_scorepad_urls():
    names = {name for name, _ in ROUTES}
    assert {"home", "meld", "login", "household", "game", "hand_edit", "history", "game_export"} <= names
    assert ("hand_edit", ("game_id", "hand_id")) in ROUTES


def test_every_public_view_exists():
    assert set(PUBLIC) | set(OPEN_TO_OUTSIDERS) <= {name for name, _ in ROUTES}


@pytest.mark.parametrize(("name", "keywords"), ROUTES, ids=[name for name, _ in ROUTES])
def test_anonymous_visitors_are_sent_to_log_in(client, world, name, keywords):
    url = url_of(world, name, keywords)
    answers = responses(client, url)

    if name in PUBLIC:
        assert all(r.status_code < 500 and not is_login_redirect(r, url) for r in answers.values())
        return
    assert all(is_login_redirect(r, url) or r.status_code == 405 for r in answers.values()), {
        method: (r.status_code, r.get("Location")) for method, r in answers.items()
    }
    assert any(is_login_redirect(r, url) for r in answers.values())


@pytest.mark.parametrize(("name", "keywords"), ROUTES, ids=[name for name, _ in ROUTES])
def test_members_of_another_household_get_404(client, world, name, keywords):
    url = url_of(world, name, keywords)
    client.force_login(world["b"])
    answers = responses(client, url)
    codes = {method: r.status_code for method, r in answers.items()}

    if not keywords or name in PUBLIC:
        assert all(code < 500 for code in codes.values()), codes  # names none of A's objects
    elif name in OPEN_TO_OUTSIDERS:
        assert codes["GET"] == 200, codes
    else:
        assert set(codes.values()) <= {404, 405}, codes
        assert 404 in codes.values(), codes


@pytest.mark.parametrize(("name", "keywords"), ROUTES, ids=[name for name, _ in ROUTES])
def test_members_of_the_household_get_past_the_scoping(client, world, name, keywords):
    """The control: if A's own member got 404 too, the ids above would prove nothing."""
    url = url_of(world, name, keywords)
    client.force_login(world["a"])
    codes = {method: r.status_code for method, r in responses(client, url).items()}

    assert 404 not in codes.values(), codes
    assert all(code < 500 for code in codes.values()), codes
