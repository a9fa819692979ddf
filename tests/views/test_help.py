"""The help pages (``/help/``): every topic answers, every link on them leads somewhere, and every
page a topic explains links to it with a named link."""

import dataclasses
import re
from html import unescape

import pytest
from django.urls import Resolver404, resolve, reverse

from scorepad.engine.variants import Settings
from scorepad.services.practice import practice_start
from scorepad.views.help import HELP_TOPICS
from tests.sample_games import CLASSIC_PLAYING, import_game, make_household, make_user

pytestmark = pytest.mark.django_db

SLUGS = [topic.slug for topic in HELP_TOPICS]
HREF = re.compile(r'<a [^>]*href="([^"]*)"')  # links, not stylesheets
ENGINE_CARD = re.compile(r"\b[AKQJT9][SHDC]\b")


def help_url(slug: str) -> str:
    return reverse("help", args=[slug])


def visible_text(html: str) -> str:
    """The page's words as a reader meets them: no tags, no attributes, entities decoded."""
    body = html.split("<body", 1)[1].split(">", 1)[1]
    return unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("slug", SLUGS)
def test_every_help_page_answers_a_visitor(client, slug):
    response = client.get(help_url(slug))

    assert response.status_code == 200
    topic = next(topic for topic in HELP_TOPICS if topic.slug == slug)
    assert f"<h1>{topic.title}</h1>" in response.content.decode()


def test_the_index_lists_every_help_page(client):
    body = client.get(reverse("help_index")).content.decode()

    listed = {href for href in HREF.findall(body) if href.startswith("/help/") and href != "/help/"}
    assert listed == {help_url(slug) for slug in SLUGS}


def test_an_unknown_help_page_is_a_404(client):
    assert client.get("/help/no-such-topic/").status_code == 404
    assert client.get("/help/Scorepad/").status_code == 404


@pytest.mark.parametrize("slug", SLUGS)
def test_help_pages_show_cards_as_players_write_them(client, slug):
    text = visible_text(client.get(help_url(slug)).content.decode())

    assert ENGINE_CARD.findall(text) == []


@pytest.mark.parametrize("slug", [*SLUGS, None])
def test_every_link_on_a_help_page_leads_somewhere(client, slug):
    """Each internal link resolves to a view and answers a logged-in player without 404 or 500."""
    client.force_login(make_user("ann"))
    page = reverse("help_index") if slug is None else help_url(slug)
    hrefs = set(HREF.findall(client.get(page).content.decode()))
    internal = {href.split("#", 1)[0] for href in hrefs if href.startswith("/")} - {""}
    assert internal, page

    for href in sorted(internal):
        try:
            resolve(href.split("?", 1)[0])
        except Resolver404:
            pytest.fail(f"{page}: {href} is no page of the site")
        status = client.get(href).status_code
        assert status not in (404, 500), (page, href, status)
    anchors = {href[1:] for href in hrefs if href.startswith("#")}
    body = client.get(page).content.decode()
    assert all(f'id="{anchor}"' in body for anchor in anchors), (page, anchors)


def test_the_house_rules_page_explains_every_house_rule(client):
    """One entry per RULES.md §4 key the engine knows: a new setting fails here until it is explained."""
    body = client.get(help_url("house-rules")).content.decode()

    explained = set(re.findall(r'<dt id="([a-z_0-9]+)"', body))
    assert explained == {field.name for field in dataclasses.fields(Settings)}


@pytest.fixture
def world():
    from tests.services.test_practice import play_out_hand  # the practice tests' own way to finish a hand

    ann = make_user("ann")
    household = make_household(ann)
    game = import_game(household, CLASSIC_PLAYING, ("Bo", "Ann", "Di", "Cy"))
    practice = practice_start(user=ann, variant_id="classic", seed=1)
    played = play_out_hand(practice_start(user=ann, variant_id="classic", seed=4))
    return {
        "user": ann,
        "household": household.pk,
        "game": game.pk,
        "practice": practice.pk,
        "played": played.pk,
    }


FULL_HAND = "/meld/?variant=classic&trump=S&cards=AS+TS+KS+QS+JS+9S+9H+9D+JC+TC+9C+QH"
# (the page, as a function of the world's ids) → the help page it links to
EXPLAINED_BY = [
    ("home", lambda w: "/", "install"),
    ("game", lambda w: f"/games/{w['game']}/", "scorepad"),
    ("new game", lambda w: f"/households/{w['household']}/games/new/?variant=classic", "house-rules"),
    ("household", lambda w: f"/households/{w['household']}/", "households"),
    ("household backup", lambda w: f"/households/{w['household']}/", "backups"),
    ("new household", lambda w: "/households/new/", "households"),
    ("restore", lambda w: "/households/restore/", "backups"),
    ("import", lambda w: f"/households/{w['household']}/import/", "backups"),
    ("history", lambda w: f"/households/{w['household']}/games/", "history"),
    ("statistics", lambda w: f"/households/{w['household']}/statistics/", "history"),
    ("share", lambda w: f"/games/{w['game']}/share/", "live-scoreboard"),
    ("practice start", lambda w: "/practice/", "practice"),
    ("practice table", lambda w: f"/practice/{w['practice']}/", "practice"),
    ("practice review", lambda w: f"/practice/{w['played']}/hands/0/review/", "review"),
    ("practice step", lambda w: f"/practice/{w['played']}/hands/0/step/", "review"),
    ("daily deal", lambda w: "/daily/", "daily-and-puzzles"),
    ("club night", lambda w: f"/households/{w['household']}/club/new/", "club-night"),
    ("meld calculator", lambda w: FULL_HAND, "meld-calculator"),
    ("bid advisor", lambda w: FULL_HAND, "bid-advisor"),
]


@pytest.mark.parametrize(("screen", "url_of", "slug"), EXPLAINED_BY, ids=[row[0] for row in EXPLAINED_BY])
def test_each_page_links_to_the_help_that_explains_it(client, world, screen, url_of, slug):
    client.force_login(world["user"])
    response = client.get(url_of(world))
    assert response.status_code == 200, screen
    links = re.findall(
        rf'<a ([^>]*)href="{re.escape(help_url(slug))}"([^>]*)>(.*?)</a>', response.content.decode()
    )

    assert links, f"{screen} has no link to {help_url(slug)}"
    for before, after, text in links:  # a name a screen reader reads out, holding the words seen
        label = re.search(r'aria-label="([^"]+)"', before + after)
        seen = visible_text(f"<body>{text}").strip()
        assert seen, screen
        assert label is None or seen.lower() in label.group(1).lower(), (screen, seen, label.group(1))


def test_a_members_top_bar_and_a_visitors_home_page_link_to_the_help_index(client):
    index = f'href="{reverse("help_index")}"'
    assert index in client.get(reverse("home")).content.decode()  # a visitor's bar is full

    client.force_login(make_user("ann"))
    top_bar = client.get(reverse("meld")).content.decode().split("</header>", 1)[0]
    assert re.search(rf'<a {re.escape(index)} aria-label="Help"', top_bar)
