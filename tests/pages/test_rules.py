"""The rules pages' words and tables, built from the engine (``pages/rules.py``), checked against the
rule book (RULES.md), not against the page.

Each number below is copied by hand from RULES.md, with the section it comes from, so a page that
says something else fails here even when the page and the engine agree with each other.
"""

import re

import pytest

from scorepad.engine.variants import VARIANTS
from scorepad.pages.rules import meld_rows, rules_page, term_parts


def test_meld_tables_match_the_numbers_of_rules_md():
    """A cross-check against RULES.md §1.4, §2.4 and §3.3, typed here on purpose."""
    tables = {
        v: {row.name: row.values for row in meld_rows(VARIANTS[v], VARIANTS[v].defaults)} for v in VARIANTS
    }
    classic, double, six = tables["classic"], tables["double-deck"], tables["six-handed"]
    assert classic["Run"] == (15, 150)
    assert classic["Pinochle"] == (4, 30)
    assert classic["Aces around"] == (10, 100)
    assert classic["Jacks around"] == (4, 40)
    assert classic["Dix"][0] == 1
    assert classic["Extra trump K or Q beside a run"][0] == 2
    assert classic["Roundhouse"][0] == 24
    assert double["Run"] == (15, 150, 225, 300)
    assert double["Pinochle"] == (4, 30, 60, 90)
    assert double["Kings around"] == (8, 80, 120, 160)
    assert double["Royal marriage"] == (4, 8, 12, 16)
    assert double["Roundhouse"][:2] == (24, 160)
    assert "Dix" not in double
    assert six["Run"] == (150, None)  # a double run needs 10 cards: no 8-card hand holds one
    assert six["Marriage"][0] == 20
    assert six["Royal marriage"][0] == 40
    assert six["Dix"][0] == 10
    assert six["Pinochle"] == (40, 300)
    assert six["Aces around"] == (100, 1000)
    assert six["Roundhouse"][0] == 240


# RULES.md, by section: (§1.1 / §2.1 / §3.1) players, deck, copies, ranks, cards each;
# (§1.2 / §2.2 / §3.2) lowest bid, and how bids go up; (§1.5 / §2.6 / §3.4) tricks a hand;
# (§1.6 / §2.7 / §3.5) counter values, last trick, trick points a hand; (§1.8 / §2.9 / §3.7) target.
RULES_MD = {
    "classic": {
        "players": "4 players in 2 partnerships",  # §1.1
        "deck": (48, 2, "A 10 K Q J 9"),  # §1.1: two copies of each of A T K Q J 9 in each suit
        "each": 12,  # §1.1
        "min_bid": 20,  # §1.2
        "raise": "each bid must be at least 1 more than the bid before",  # §1.2
        "tricks": 12,  # §1.5
        "counters": "A, 10, K: 1 point each; Q, J, 9: nothing",  # §1.6
        "last_trick": 1,  # §1.6
        "trick_points": 25,  # §1.6
        "target": (150, 50),  # §1.8: Full game 150, Quick game 50
    },
    "double-deck": {
        "players": "4 players in 2 partnerships",  # §2.1
        "deck": (80, 4, "A 10 K Q J"),  # §2.1: no nines
        "each": 20,  # §2.1
        "min_bid": 50,  # §2.2
        "raise": "each bid must be at least 1 more than the bid before",  # §2.2
        "tricks": 20,  # §2.6
        "counters": "A, 10, K: 1 point each; Q, J: nothing",  # §2.7
        "last_trick": 2,  # §2.7
        "trick_points": 50,  # §2.7
        "target": (500,),  # §2.9
    },
    "six-handed": {
        "players": "6 players, each playing for themselves",  # §3.1
        "deck": (48, 2, "A 10 K Q J 9"),  # §3.1
        "each": 8,  # §3.1
        "min_bid": 50,  # §3.2
        "raise": "bids go up in steps of 10 (50, 60, 70 …)",  # §3.2: "Bids in multiples of 10"
        "tricks": 8,  # §3.4
        "counters": "A, 10: 10 points each; K, Q: 5 points each; J, 9: nothing",  # §3.5
        "last_trick": 0,  # §3.5: no bonus
        "trick_points": 240,  # §3.5
        "target": (1000, 500),  # §3.7
    },
}


def page_lines(variant_id: str) -> dict[str, list[str]]:
    """The rules page's sentences by section (the meld notes under "meld"), glossary links unwrapped."""
    page = rules_page(VARIANTS[variant_id])
    plain = {section.slug: [_words(line.text) for line in section.lines] for section in page.sections}
    plain["meld"] = [_words(line.text) for line in page.meld_notes]
    return plain


def _words(text: str) -> str:
    return "".join(words for words, _ in term_parts(text))


def only_line(lines: list[str], *words: str) -> str:
    found = [line for line in lines if all(word in line for word in words)]
    assert len(found) == 1, f"one line should say {words}: {lines}"
    return found[0]


@pytest.mark.parametrize("variant_id", list(RULES_MD))
def test_deck_deal_and_players_are_rules_mds(variant_id: str):
    rules, deal = RULES_MD[variant_id], page_lines(variant_id)["deal"]
    cards, copies, ranks = rules["deck"]

    assert deal[0].startswith(rules["players"])
    assert f"The deck has {cards} cards: {copies} copies of each of {ranks} in each" in deal[1]
    assert f"deals every card, {rules['each']} to each player" in deal[2]


@pytest.mark.parametrize("variant_id", list(RULES_MD))
def test_bids_go_up_as_rules_md_says(variant_id: str):
    rules, bidding = RULES_MD[variant_id], page_lines(variant_id)["bidding"]

    assert only_line(bidding, "lowest bid") == f"The lowest bid is {rules['min_bid']}; {rules['raise']}."
    assert f"the dealer must take the bid at {rules['min_bid']}" in only_line(bidding, "dealer must")


@pytest.mark.parametrize("variant_id", list(RULES_MD))
def test_tricks_counters_and_trick_points_are_rules_mds(variant_id: str):
    rules, lines = RULES_MD[variant_id], page_lines(variant_id)

    assert f"there are {rules['tricks']} tricks in a hand" in lines["play"][0]
    assert f": {rules['counters']}." in lines["counters"][0]
    last = lines["counters"][1]
    assert f"scores {rules['last_trick']} more" in last if rules["last_trick"] else "nothing extra" in last
    assert f"holds {rules['trick_points']} trick points in all" in lines["counters"][2]


@pytest.mark.parametrize("variant_id", list(RULES_MD))
def test_the_target_is_rules_mds(variant_id: str):
    target, *others = RULES_MD[variant_id]["target"]
    end = page_lines(variant_id)["game-end"]

    assert end[0].startswith(f"The game is played to {target}")
    assert all(f"play to {other}" in end[0] for other in others)
    assert f"at {target} or more wins" in end[1]


def test_the_rule_of_20_counts_the_opponents_meld_in_the_named_trump():
    """§2.5: "Mb and Mo ... team meld totals with the named trump"; no trump is only §2.3's forfeit."""
    lines = page_lines("double-deck")
    rule_of_20 = only_line(lines["scoring"], "Rule of 20")
    no_marriage = only_line(lines["trump"], "no marriage at all")

    assert "meld is under 20 scores no meld" in rule_of_20
    assert "If the bidders' meld is under 20 they forfeit: they lose the bid without playing" in rule_of_20
    assert "their meld if it is 20 or more, counted in the trump the bidder named" in rule_of_20
    assert "no trump" not in rule_of_20
    assert "their meld if it is 20 or more, counted with no trump suit" in no_marriage


@pytest.mark.parametrize("variant_id", list(RULES_MD))
def test_meld_with_no_trump_suit_is_said_only_of_the_no_marriage_forfeit(variant_id: str):
    said = [line for lines in page_lines(variant_id).values() for line in lines if "no trump suit" in line]

    assert all("no marriage" in line for line in said), said


def test_double_deck_trick_points_under_20_void_everything():
    """§2.8: a side under 20 trick points scores nothing, not even meld; the bidders are set."""
    line = only_line(page_lines("double-deck")["scoring"], "under 20 trick points")

    assert "scores nothing at all, not even its meld" in line
    assert "if it is the bidders, they are set" in line


@pytest.mark.parametrize(
    ("variant_id", "words"),
    [
        ("classic", "If both sides reach it in the same hand, the bidders win"),  # §1.8
        ("double-deck", "If both sides reach it in the same hand, the higher score wins."),  # §2.9
        ("double-deck", "On an exact tie, the bidders win."),  # §2.9
        ("six-handed", "If several players reach it in the same hand, the highest score wins."),  # §3.7
        ("six-handed", "Players tied for the highest score win together (co-winners)."),  # §3.7
    ],
)
def test_who_wins_when_several_reach_the_target_is_rules_mds(variant_id: str, words: str):
    end = page_lines(variant_id)["game-end"]

    assert any(line.startswith(words) for line in end), end
    assert not any("share the win" in line for line in end)  # two sides: the bidders are in every tie


@pytest.mark.parametrize(
    ("variant_id", "words"),
    [
        ("classic", "Follow suit if you can, and if nobody has trumped, play a card that beats"),  # §1.5
        ("classic", "You must beat the winning card even when it is your partner's."),  # §1.5
        ("classic", "Once a trump is in a trick of another suit, any card of the suit led will do."),  # §1.5
        ("double-deck", "Once a trump is in a trick of another suit, any card of the suit led will do."),
        ("double-deck", "a higher trump if you hold one, else any trump"),  # §2.6
        ("six-handed", "Follow suit if you can. You need not play a higher card."),  # §3.4 Mode FOLLOW
    ],
)
def test_how_to_play_a_card_is_rules_mds(variant_id: str, words: str):
    assert any(words in line for line in page_lines(variant_id)["play"])


def test_six_handed_never_says_a_side_or_a_higher_trump():
    """§3.1 no partnerships; §3.4 no duty to overtrump."""
    lines = [line for lines in page_lines("six-handed").values() for line in lines]

    assert not [line for line in lines if re.search(r"\bsides?\b|partner|higher trump", line)]


# RULES.md §5: (label, total) of the worked meld examples the pages show.
MELD_TOTALS = {
    "classic": {"C1": 16, "C2": 17, "C5": 29, "C8": 108},
    "double-deck": {"D1": 10, "D3": 15, "D6": 38, "D9": 35},
    "six-handed": {"S2": 190, "S4": 240, "S5": 330, "S7": 180},
}
# RULES.md §6: each scoring example's change per side (bidders first).
SCORES = {
    "classic": [(31, 21), (-30, 24), (43, 0)],
    "double-deck": [(62, 20), (-60, 56), (-55, 22), (-65, 0)],
    "six-handed": [(155,), (-100,)],  # the bidder's score: §6 gives only theirs
}


@pytest.mark.parametrize("variant_id", list(RULES_MD))
def test_the_worked_examples_come_out_as_in_rules_md(variant_id: str):
    page = rules_page(VARIANTS[variant_id])

    assert {example.label: example.total for example in page.meld_examples} == MELD_TOTALS[variant_id]
    for example, scores in zip(page.score_examples, SCORES[variant_id], strict=True):
        shown = [int(n) for n in re.findall(r"\b(?:Bidders|Opponents|You) ([+-]\d+)", example.scores)]
        assert tuple(shown[: len(scores)]) == scores, example.scores


@pytest.mark.parametrize("variant_id", list(RULES_MD))
def test_trick_points_are_never_written_as_a_number_of_tricks(variant_id: str):
    """ "tricks 12" read as twelve tricks: points are "12 in tricks" or "trick points", counts "3 tricks"."""
    page = rules_page(VARIANTS[variant_id])
    texts = [line for lines in page_lines(variant_id).values() for line in lines]
    texts += [f"{example.label}. {example.entry}. {example.scores}" for example in page.score_examples]

    for text in texts:
        assert not re.search(r"\btricks? \d|\bin counters\b|\btricks under", text), text
