"""The rules pages, the words and Learn to play: every number from the engine, house rules marked."""

import re
from html import unescape

import pytest
from django.test import Client

from scorepad.engine.meld import MeldScale
from scorepad.engine.variants import VARIANTS
from scorepad.models import Game
from scorepad.pages.lessons import lesson
from scorepad.pages.rules import glossary, meld_rows
from scorepad.services.practice import practice_start
from tests.pages.test_lessons import follow_suggestions
from tests.sample_games import make_household, make_user

pytestmark = pytest.mark.django_db

ENGINE_CODE = re.compile(r"(?<![\w#/=.-])[ATKQJ9][SHDC](?![\w-])")


def visible_text(html: str) -> str:
    """What a player reads in <main>: tags, and so URLs and class names, left out."""
    main = html.split('<main class="page" id="main">', 1)[1].split("</main>", 1)[0]
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))


def meld_table_on_page(html: str) -> dict[str, list[int | None]]:
    """Each row of the page's meld table: its name and the numbers in its count columns."""
    body = html.split('<table class="meld-table">', 1)[1].split("</tbody>", 1)[0].split("<tbody>", 1)[1]
    table = {}
    for row in re.findall(r"<tr.*?</tr>", body, re.S):
        name = re.sub(
            r"<[^>]+>|House rule", "", re.search(r'<span class="meld-name">(.*?)</span>', row, re.S)[1]
        ).strip()
        cells = re.findall(r'<td class="num">(.*?)</td>', row, re.S)
        table[name] = [None if "cannot occur" in cell else int(cell) for cell in cells]
    return table


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_meld_table_on_each_rules_page_is_the_engines_table(client: Client, variant_id: str):
    variant = VARIANTS[variant_id]
    page = meld_table_on_page(client.get(f"/rules/{variant_id}/").content.decode())

    assert page == {row.name: list(row.values) for row in meld_rows(variant, variant.defaults)}
    scale = MeldScale.of(variant, variant.defaults)
    assert page["Run"][0] == scale.run[1]
    assert page["Pinochle"] == [
        scale.pinochle[k] if 2 * k <= variant.hand_size else None for k in range(1, variant.copies + 1)
    ]
    assert page["Aces around"] == [
        scale.arounds[0][k] if 4 * k <= variant.hand_size else None for k in range(1, variant.copies + 1)
    ]


@pytest.mark.parametrize(
    ("variant_id", "house_rules", "says", "default_says"),
    [
        ("six-handed", {"last_trick": 10}, "scores 10 more", "earns nothing extra"),
        ("six-handed", {"last_trick": 10}, "holds 250 trick points in all", "holds 240 trick points in all"),
        ("classic", {"set_penalty": "double_bid"}, "loses 2 times the bid", "is set and loses the bid"),
        ("classic", {"min_bid": 30}, "The lowest bid is 30", "The lowest bid is 20"),
        ("classic", {"min_bid": 30}, "must take the bid at 30", "must take the bid at 20"),
        ("double-deck", {"rule_of_20": [25, 20]}, "meld is under 25", "meld is under 20"),
        ("classic", {"roundhouse_mode": "bonus"}, "then their value again: 48 in all", "(24 here"),
        ("classic", {"bid_increment": 5}, "bids go up in steps of 5 (20, 25, 30 …)", "at least 1 more than"),
        ("double-deck", {"forfeit_opponents": "meld20+25"}, "no trump suit, plus 25", "no trump suit."),
    ],
)
def test_a_games_house_rule_changes_its_rules_page_and_is_marked(
    client: Client, variant_id: str, house_rules: dict, says: str, default_says: str
):
    ann = make_user("ann")
    game = Game.objects.create(household=make_household(ann), variant=variant_id, settings=house_rules)
    client.force_login(ann)

    html = client.get(f"/rules/games/{game.pk}/").content.decode()
    text, default = visible_text(html), visible_text(client.get(f"/rules/{variant_id}/").content.decode())

    assert says in text
    assert says not in default
    assert default_says in default
    assert "House rules at this table" in text
    marked = re.search(
        r'<li class="changed">(?:(?!</li>).)*' + re.escape(says) + r"(?:(?!</li>).)*House rule", html, re.S
    )
    assert marked, f"{says!r} is not marked as a house rule"
    assert "House rule " not in default


def test_a_games_house_rules_are_listed_beside_the_variants_defaults(client: Client):
    ann = make_user("ann")
    game = Game.objects.create(
        household=make_household(ann), variant="classic", settings={"set_penalty": "double_bid", "target": 50}
    )
    client.force_login(ann)

    text = visible_text(client.get(f"/rules/games/{game.pk}/").content.decode())

    assert "Set costs double the bid (the variant's default: set costs the bid)" in text
    assert "Play to 50 (the variant's default: play to 150)" in text
    assert "The game is played to 50" in text


def test_a_house_rule_that_changes_meld_marks_the_meld_table_row(client: Client):
    ann = make_user("ann")
    game = Game.objects.create(
        household=make_household(ann), variant="classic", settings={"double_around_scale": "two_singles"}
    )
    client.force_login(ann)

    html = client.get(f"/rules/games/{game.pk}/").content.decode()

    assert meld_table_on_page(html)["Aces around"] == [10, 20]
    assert meld_table_on_page(client.get("/rules/classic/").content.decode())["Aces around"] == [10, 100]
    assert re.search(
        r'<tr class="changed">\s*<th scope="row"><span class="meld-name"><a [^>]*>Aces around</a></span> '
        r'<strong class="house-rule">',
        html,
    )
    assert "Double arounds: two singles" in visible_text(html)


def test_a_games_rules_page_is_only_for_its_household(client: Client):
    game = Game.objects.create(household=make_household(make_user("ann")), variant="classic")
    client.force_login(make_user("bo"))

    assert client.get(f"/rules/games/{game.pk}/").status_code == 404


def test_a_practice_games_rules_page_applies_its_house_rules(client: Client):
    ann = make_user("ann")
    practice = practice_start(user=ann, variant_id="six-handed", overrides={"last_trick": 10}, seed=1)
    client.force_login(ann)

    text = visible_text(client.get(f"/rules/practice/{practice.pk}/").content.decode())

    assert "Rules of this game" in text
    assert "scores 10 more" in text
    assert (
        client.get(f"/practice/{practice.pk}/").content.decode().count(f"/rules/practice/{practice.pk}/") == 1
    )


def test_an_unknown_variant_is_not_found(client: Client):
    assert client.get("/rules/bridge/").status_code == 404
    assert client.get("/rules/bridge/learn/").status_code == 404


@pytest.mark.parametrize(
    "url", ["/rules/", "/rules/classic/", "/rules/double-deck/", "/rules/six-handed/", "/rules/words/"]
)
def test_rules_pages_show_suits_as_symbols_never_engine_codes(client: Client, url: str):
    text = visible_text(client.get(url).content.decode())

    assert not ENGINE_CODE.findall(text)


def test_rules_pages_show_the_worked_examples_counted_by_the_engine(client: Client):
    classic = visible_text(client.get("/rules/classic/").content.decode())
    six = visible_text(client.get("/rules/six-handed/").content.decode())

    assert "A♠ A♠ A♥ A♥ A♦ A♦ A♣ A♣ K♠ K♥ K♦ K♣ , trump ♦ diamonds: 108" in classic  # RULES.md C8
    assert "+43 (made 43 of 30)" in classic  # RULES.md §6 classic case c
    assert "took no trick: meld lost" in classic
    assert "K♠ Q♠ K♥ Q♥ K♦ Q♦ K♣ Q♣ , trump ♣ clubs: 240" in six  # S4: a roundhouse is its parts


def test_every_glossary_link_on_the_rules_pages_has_an_entry(client: Client):
    slugs = {term.slug for term in glossary()}
    linked = set()
    for variant_id in VARIANTS:
        linked |= set(
            re.findall(r'href="/rules/words/#([\w-]+)"', client.get(f"/rules/{variant_id}/").content.decode())
        )

    assert linked <= slugs
    for word in (
        "meld",
        "trump",
        "dix",
        "run",
        "marriage",
        "pinochle",
        "around",
        "roundhouse",
        "counters",
        "set",
        "crawl",
        "forfeit",
        "rule-of-20",
    ):
        assert word in slugs
        assert word in linked, f"the rules pages never link {word!r}"


# -- Learn to play -------------------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_every_learn_page_is_a_plain_page_in_card_words_ending_with_play_a_real_hand(
    client: Client, variant_id: str
):
    pages = follow_suggestions(variant_id)
    html = ""
    for page in pages:
        response = client.get(f"/rules/{variant_id}/learn/", {"moves": page.done_moves})
        html = response.content.decode()
        assert response.status_code == 200
        assert not ENGINE_CODE.findall(visible_text(html)), page.stage

    assert "Counters, step by step" in visible_text(html)
    assert f'href="/practice/?variant={variant_id}"' in html


def test_a_move_the_rules_refuse_is_explained_and_changes_nothing(client: Client):
    response = client.get("/rules/classic/learn/", {"moves": "ok,5"})
    text = visible_text(response.content.decode())

    assert response.status_code == 200
    assert "Not allowed: the bid must be at least 20." in text
    assert "Bidding" in text
    assert 'href="?moves=ok%2C20"' in response.content.decode()


@pytest.mark.parametrize(("stage", "wrong"), [("play", "9C"), ("pass", "AS.AS.AS.AS"), ("trump", "X")])
def test_a_refused_card_pass_or_suit_is_explained_in_card_words(client: Client, stage: str, wrong: str):
    at = next(page for page in follow_suggestions("classic") if page.stage == stage)

    response = client.get("/rules/classic/learn/", {"moves": f"{at.done_moves},{wrong}"})
    text = visible_text(response.content.decode())

    assert "Not allowed" in text
    assert not ENGINE_CODE.findall(text)
    assert lesson("classic", f"{at.done_moves},{wrong}").moves == at.moves  # the move changed nothing


def test_nonsense_in_the_lesson_url_is_refused_in_words(client: Client):
    response = client.get("/rules/six-handed/learn/", {"moves": "ok,zz"})

    assert response.status_code == 200
    assert "is not an answer to this question" in visible_text(response.content.decode())


def test_the_pass_form_passes_the_cards_ticked(client: Client):
    pages = follow_suggestions("classic")
    at_pass = next(page for page in pages if page.stage == "pass")
    mine = [choice.move for choice in at_pass.pass_cards][:4]

    response = client.get(
        "/rules/classic/learn/", [("moves", at_pass.done_moves), *(("pass", code) for code in mine)]
    )
    page = lesson("classic", f"{at_pass.done_moves},{'.'.join(mine)}")

    assert page.stage == "meld"
    assert "Meld, step by step" in visible_text(response.content.decode())


def test_htmx_gets_only_the_lesson(client: Client):
    response = client.get("/rules/classic/learn/", {"moves": "ok"}, headers={"HX-Request": "true"})

    assert response.content.decode().lstrip().startswith('<section id="lesson"')


def test_the_learners_hand_shows_each_card_in_its_suits_colour(client: Client):
    page = client.get("/rules/classic/learn/").content.decode()
    hand = re.search(r'<span class="hand">(.*?)</span></p>', page)
    assert hand is not None
    spans = re.findall(r'<span class="suit-([SHDC])">(10|[AKQJ9])([♠♥♦♣])</span>', hand.group(1))
    assert len(spans) == 12  # a classic hand, every card wrapped
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    assert all(symbols[letter] == symbol for letter, _, symbol in spans)
    assert any(letter == "H" for letter, _, _ in spans)  # the friendly deal is strong in hearts


# -- one set of seat names, glossary words ----------------------------------------------------------


def seat_names_on_practice_table(html: str) -> list[str]:
    return [name.strip() for name in re.findall(r'<span class="seat-name">([^<]+)', html)]


def names_in_what_happened(pages: list) -> set[str]:
    """Who the lesson's "At the table" lines name: "Left: bid 21", "Partner passed …", "Right won …"."""
    said = set()
    for page in pages:
        for line in page.happened:
            said.add(re.split(r": | named | passed | won ", line, maxsplit=1)[0])
    return said


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_practice_table_and_the_lesson_name_the_seats_the_same_way(client: Client, variant_id: str):
    ann = make_user("ann")
    practice = practice_start(user=ann, variant_id=variant_id, seed=1)
    client.force_login(ann)

    table = seat_names_on_practice_table(client.get(f"/practice/{practice.pk}/").content.decode())
    pages = follow_suggestions(variant_id)
    lesson_names = pages[-1].names

    assert len(table) == VARIANTS[variant_id].seats - 1  # every other seat, by name
    assert set(table) == set(lesson_names) - {"You"}
    assert names_in_what_happened(pages) <= set(lesson_names)
    assert not set(table) & {"West", "East", "North", "South"}
    assert not any(re.match(r"(Bot|Player) \d", name) for name in table)


def test_the_lessons_sides_are_named_as_the_practice_tables():
    end = follow_suggestions("classic")[-1]

    assert [line.split(":")[0] for line in end.side_melds] == ["You & Partner", "Left & Right"]
    assert end.result[1].startswith("You & Partner: ")


@pytest.mark.parametrize(
    "term", ["bid", "contract", "trick", "lead", "follow suit", "dealer", "trick points"]
)
def test_the_glossary_explains_the_words_of_every_hand(client: Client, term: str):
    entries = {entry.term: entry for entry in glossary()}
    html = client.get("/rules/words/").content.decode()

    assert term in entries
    shown = re.search(rf'<dt id="{entries[term].slug}">(.*?)</dt>\s*<dd>(.*?)</dd>', html, re.S)
    assert shown, f"no entry for {term!r} on the Words page"
    assert shown[1] == term.capitalize()
    assert len(re.sub(r"<[^>]+>", "", shown[2]).split()) >= 12  # a sentence or two, not a stub


def test_the_glossary_numbers_are_rules_mds():
    """§1.1/§2.1/§3.1 tricks a hand (one per card held); §1.2/§2.2/§3.2 lowest bids;
    §1.6/§2.7/§3.5 trick points a hand."""
    entries = {entry.term: entry.meaning for entry in glossary()}

    assert "12 in classic, 20 in double-deck, 8 in six-handed" in entries["trick"]
    assert "20 in classic, 50 in double-deck, 50 in six-handed" in entries["bid"]
    assert "25 in classic, 50 in double-deck, 240 in six-handed" in entries["trick points"]
    assert "not the number of tricks" in entries["trick points"]
    assert "1 in classic, 10 in six-handed" in entries["dix"]
    assert "nothing in double-deck" not in entries["dix"]  # §2.1: double-deck has no nines at all
    assert "under 20 trick points" in entries["set"]  # §2.8: set under 20 trick points
    assert "in the trump the bidder named" in entries["rule of 20"]  # §2.5


def test_the_glossary_links_its_own_words():
    html = Client().get("/rules/words/").content.decode()

    assert '<a class="term" href="/rules/words/#trick-points">trick points</a>' in html
    assert "[[" not in html
