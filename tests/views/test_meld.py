"""The meld calculator page: hands in the URL, totals from RULES.md §5, refusals of §9.1 inline."""

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from scorepad.engine.variants import VARIANTS
from scorepad.forms.meld import MELD_SETTING_CHOICES

C1 = "AS TS KS QS JS 9S 9H 9D JC TC 9C QH"
C2 = "AH TH KH KH QH JH 9S 9D JC TC 9C TS"
C5 = "KS QS KH QH KD QD KC QC JD 9H AS TS"
C10 = "KH KH QH QH AH TH 9H 9H JS JD QS TC"
D8 = "QS QS QS QS JD JD JD JD QH QH QH QD QD QD QC QC QC KS KH JC"
S9 = "AS AS AH AH AD AD AC AC"
HTMX = {"HTTP_HX_REQUEST": "true"}


def meld_page(client, **params):
    response = client.get(reverse("meld"), params)
    assert response.status_code == 200
    return response.content.decode()


def total_shown(page: str) -> int | None:
    found = re.search(r'id="meld-total">(\d+)<', page)
    return int(found.group(1)) if found else None


def links(page: str, attribute: str = "href") -> list[str]:
    return [html.unescape(url) for url in re.findall(rf'<a [^>]*?{attribute}="([^"]*)"', page, re.S)]


def link_params(page: str, code: str) -> dict[str, list[str]]:
    """The query of the link that carries ``data-code=code`` (a deck button or a hand chip)."""
    tag = re.search(rf'<a [^>]*href="([^"]*)"[^>]*data-code="{code}"', page, re.S)
    assert tag, f"no link for {code}"
    return parse_qs(urlsplit(html.unescape(tag.group(1))).query)


def test_plain_request_gets_the_whole_page(client):
    page = meld_page(client, cards=C1, trump="S")
    assert "<html" in page
    assert 'id="calculator"' in page
    assert "css/meld.css" in page


def test_htmx_request_gets_only_the_calculator_section(client):
    response = client.get(reverse("meld"), {"cards": C1, "trump": "S"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in page
    assert page.strip().startswith('<section id="calculator"')
    assert total_shown(page) == 16
    assert "HX-Request" in response["Vary"]


def test_history_restore_after_a_cache_miss_gets_the_whole_page(client):
    response = client.get(
        reverse("meld"), {"cards": C1}, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert "<html" in response.content.decode()


@pytest.mark.parametrize(
    ("variant", "trump", "hand", "total"),
    [
        ("classic", "S", C1, 16),
        ("classic", "H", C5, 29),
        ("classic", "H", C10, 14),
        ("double-deck", "C", D8, 184),
        ("double-deck", "H", "AS AS AS AS TS TS TS TS KS KS KS KS QS QS QS QS JS JS JS JS", 8),
        ("six-handed", "S", S9, 1000),
        ("six-handed", "D", "AD TD KD KD QD JD 9C 9S", 150),
    ],
)
def test_rules_examples_total_from_the_url(client, variant, trump, hand, total):
    assert total_shown(meld_page(client, variant=variant, trump=trump, cards=hand)) == total


def test_breakdown_lists_name_count_and_points(client):
    page = meld_page(client, trump="H", cards=C10)
    rows = re.findall(r'<tr><td>([^<]+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td></tr>', page)
    assert rows == [("Royal marriage", "2", "8"), ("Dix", "2", "2"), ("Pinochle", "1", "4")]


def test_roundhouse_is_a_label_not_points(client):
    assert "Roundhouse" in meld_page(client, trump="H", cards=C5)
    assert "Roundhouse" not in meld_page(client, trump="S", cards=C1)


def test_without_trump_every_suit_is_compared_best_first(client):
    page = meld_page(client, cards=C2)
    rows = re.findall(r'<th scope="row"><a class="suit-(\w)".*?<td class="num">(\d+)</td>', page, re.S)
    # Hearts holds the run; ties keep the order S H D C.
    assert rows == [("H", "17"), ("S", "3"), ("D", "3"), ("C", "3")]
    assert total_shown(page) == 17
    assert "Best trump" in page


def test_comparison_rows_pick_that_trump(client):
    page = meld_page(client, cards=C2)
    first_row = re.search(r'<th scope="row"><a class="suit-H" href="([^"]*)"', page)
    assert parse_qs(urlsplit(html.unescape(first_row.group(1))).query)["trump"] == ["H"]


@pytest.mark.parametrize(("rule", "total"), [("", 17), ("half", 17), ("strict", 15), ("marry", 19)])
def test_run_extra_kq_setting_applies(client, rule, total):
    assert total_shown(meld_page(client, trump="H", cards=C2, run_extra_kq=rule)) == total


@pytest.mark.parametrize(("scale", "total"), [("×10", 1000), ("x10", 1000), ("two_singles", 200)])
def test_double_around_scale_setting_applies(client, scale, total):
    page = meld_page(client, variant="six-handed", trump="S", cards=S9, double_around_scale=scale)
    assert total_shown(page) == total


def test_every_offered_setting_value_is_one_the_engine_accepts():
    for variant in VARIANTS.values():
        for key, choices in MELD_SETTING_CHOICES.items():
            for value in choices:
                assert getattr(variant.settings({key: value}), key) == value


def test_chosen_setting_stays_in_every_link(client):
    page = meld_page(client, trump="H", cards=C2, run_extra_kq="marry")
    assert all(parse_qs(urlsplit(url).query)["run_extra_kq"] == ["marry"] for url in links(page, "hx-get"))


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"cards": "AS ZZ"}, "'ZZ'"),
        ({"variant": "double-deck", "cards": "AS 9S"}, "9S is not in the double-deck deck"),
        ({"cards": "AS AS AS"}, "3 × AS"),
        ({"cards": C1 + " AH"}, "13 cards"),
        ({"variant": "six-handed", "cards": "AS TS KS QS JS 9S 9H JC AD"}, "9 cards"),
        ({"variant": "double-deck", "cards": "KS KS KS KS KS"}, "5 × KS"),
    ],
)
def test_refused_hand_is_named_inline_and_not_counted(client, params, named):
    page = meld_page(client, **params)
    assert html.escape(named) in page
    assert total_shown(page) is None  # nothing half-counted
    assert f'value="{html.escape(params["cards"])}"' in page  # the typed text stays, to be fixed
    assert 'name="cards"' in page


def test_unknown_variant_is_named_and_falls_back_to_classic(client):
    page = meld_page(client, variant="euchre", cards=C1, trump="S")
    assert "unknown variant &#x27;euchre&#x27;" in page
    assert 'name="variant" value="classic"' in page
    assert total_shown(page) == 16


def test_unknown_trump_is_named_and_treated_as_not_chosen(client):
    page = meld_page(client, trump="X", cards=C2)
    assert "unknown suit &#x27;X&#x27;" in page
    assert total_shown(page) == 17
    assert "Best trump" in page


@pytest.mark.parametrize(("key", "value"), [("run_extra_kq", "sometimes"), ("double_around_scale", "x100")])
def test_unknown_setting_value_is_named_and_the_default_used(client, key, value):
    page = meld_page(client, trump="H", cards=C2, **{key: value})
    assert f"{key} must be one of" in page
    assert f"got &#x27;{value}&#x27;" in page
    assert total_shown(page) == 17


def test_typed_cards_accept_every_spelling_of_section_9_1(client):
    page = meld_page(client, trump="H", cards="10♥, ah  k♥,Q♥ jh 9h")
    assert total_shown(page) == 16
    assert 'value="AH TH KH QH JH 9H"' in page  # shown back in canonical codes


def test_card_button_adds_one_copy(client):
    page = meld_page(client, trump="S", cards="AS")
    assert link_params(page, "AS")["cards"] == ["AS AS"]
    assert link_params(page, "KH")["cards"] == ["AS KH"]
    assert link_params(page, "KH")["trump"] == ["S"]


def test_card_at_deck_limit_or_full_hand_adds_nothing(client):
    page = meld_page(client, cards="AS AS")
    assert re.search(r'<span class="card suit-S full held" data-code="AS"\s*>.*?, no more fit</span>', page)
    full = meld_page(client, cards=C1)
    assert "data-code" in full
    assert not re.search(r'<a class="card[^>]*>\s*<span class="visually-hidden">Add ', full)


def test_hand_chip_takes_out_one_copy_and_clear_empties(client):
    page = meld_page(client, trump="S", cards="AS AS KH")
    take_out = re.search(r'<a class="chip[^"]*" href="([^"]*)"[^>]*data-code="AS"', page)
    assert parse_qs(urlsplit(html.unescape(take_out.group(1))).query)["cards"] == ["AS KH"]
    clear = re.search(r'<a class="button clear" href="([^"]*)"', page)
    assert parse_qs(urlsplit(html.unescape(clear.group(1))).query) == {"variant": ["classic"], "trump": ["S"]}


def test_every_tap_is_a_plain_link_that_htmx_swaps_into_the_calculator(client):
    page = meld_page(client, cards="AH TH KH", trump="H")
    anchors = re.findall(r"<a [^>]*>", page, re.S)
    tapped = [a for a in anchors if "hx-get" in a]
    assert len(tapped) >= 24 + 3 + 5  # deck, variants, trumps
    for anchor in tapped:
        assert re.search(r'href="([^"]*)"', anchor).group(1) == re.search(r'hx-get="([^"]*)"', anchor).group(
            1
        )
        assert 'hx-target="#calculator"' in anchor
        assert 'hx-swap="outerHTML"' in anchor
        assert 'hx-push-url="true"' in anchor


def test_variant_switch_keeps_the_cards_that_fit_and_says_why(client):
    page = meld_page(client, cards=C1, trump="S")
    params = parse_qs(urlsplit(next(u for u in links(page) if "double-deck" in u)).query)
    assert params["cards"] == ["AS TS KS QS JS QH TC JC"]
    assert params["dropped"] == ["9S 9H 9D 9C"]
    switched = meld_page(client, **{key: values[0] for key, values in params.items()})
    assert "left out 9S 9H 9D 9C, because the double-deck deck has no 9s" in switched
    assert total_shown(switched) == 15  # the spade run survives


@pytest.mark.parametrize(
    ("start", "cards", "to", "kept", "reason"),
    [
        ("classic", C1, "six-handed", 8, "a six-handed hand holds at most 8 cards"),
        ("double-deck", "AS AS AS KH", "classic", 3, "the classic deck holds only 2 of each card"),
    ],
)
def test_variant_switch_explains_each_kind_of_misfit(client, start, cards, to, kept, reason):
    page = meld_page(client, variant=start, cards=cards)
    params = parse_qs(urlsplit(next(u for u in links(page) if f"variant={to}" in u)).query)
    assert len(params["cards"][0].split()) == kept
    switched = meld_page(client, **{key: values[0] for key, values in params.items()})
    assert reason in switched


def test_page_needs_no_inline_script_or_style_under_the_csp(client):
    response = client.get(reverse("meld"), {"cards": C5, "trump": "H"})
    page = response.content.decode()
    assert " style=" not in page
    assert "hx-on" not in page
    assert not re.search(r"<[^>]*\son[a-z]+=", page)  # no inline event handlers
    scripts = re.findall(r"<script[^>]*>", page)
    assert scripts
    assert all("nonce=" in tag for tag in scripts)
    assert "unsafe-inline" not in response["Content-Security-Policy"]


def test_only_get_is_allowed(client):
    assert client.post(reverse("meld"), {"cards": C1}).status_code == 405


def test_home_links_to_the_calculator(client):
    assert reverse("meld") in client.get(reverse("home")).content.decode()


# ---- the round trip from a scorepad hand form ("Count it") ----------------------------------------

RETURN = "/games/7/?bidder=1&bid=55&trump=H&meld_0=24"
TRIP = {"return": RETURN, "side": "1", "side_label": "Bob & Dan"}


def use_total_url(page: str) -> str | None:
    found = re.search(r'<a class="button primary use-total" href="([^"]*)"', page)
    return html.unescape(found.group(1)) if found else None


def trip_of(url: str) -> dict[str, list[str]]:
    params = parse_qs(urlsplit(url).query)
    return {key: params[key] for key in ("return", "side", "side_label") if key in params}


def test_the_way_back_survives_every_tap_with_and_without_htmx(client):
    expected = {key: [value] for key, value in TRIP.items()}
    page = meld_page(client, cards="KS QS", trump="H", **TRIP)
    taps = links(page, "hx-get")
    assert len(taps) >= 24 + 3 + 5 + 2 + 1  # deck, variants, trumps, chips, clear
    assert all(trip_of(url) == expected for url in taps)
    partial = client.get(reverse("meld"), {"cards": "KS QS", **TRIP}, **HTMX).content.decode()
    assert all(trip_of(url) == expected for url in links(partial, "hx-get"))
    assert use_total_url(partial) is not None  # the swapped section brings its way back along


def test_the_typed_cards_and_settings_form_carry_the_way_back_as_hidden_inputs(client):
    page = meld_page(client, cards="KS QS", trump="H", **TRIP)
    form = re.search(r'<form class="meld-form".*?</form>', page, re.S).group(0)
    hidden = {
        name: html.unescape(value)
        for name, value in re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form)
    }
    assert {key: hidden.get(key) for key in TRIP} == TRIP
    # Submitting it (as a browser would, with a setting changed) keeps the trip.
    submitted = meld_page(client, **hidden, cards="KS QS", run_extra_kq="strict")
    assert parse_qs(urlsplit(use_total_url(submitted)).query)["meld_1"] == ["2"]  # a spade marriage
    assert all(trip_of(url)["return"] == [RETURN] for url in links(submitted, "hx-get"))


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/games/7/", "/games/7/?meld_1=6"),
        ("/games/7/?bid=55&trump=H", "/games/7/?bid=55&trump=H&meld_1=6"),
        ("/games/7/?meld_1=31&bid=55&meld_0=24", "/games/7/?bid=55&meld_0=24&meld_1=6"),
        ("/games/7/hands/0/edit/?meld_1=", "/games/7/hands/0/edit/?meld_1=6"),
    ],
)
def test_use_this_total_sets_the_sides_meld_on_the_return_path(client, path, expected):
    # Hearts trump, double-deck: K♠ Q♠ marriage 2 + Q♠ J♦ pinochle 4 (§2.4).
    page = meld_page(client, variant="double-deck", trump="H", cards="KS QS JD", **{**TRIP, "return": path})
    assert use_total_url(page) == expected
    assert "Use this total (6) for Bob &amp; Dan" in page
    assert f'href="{html.escape(path)}">Back without counting' in page


def test_without_a_trump_the_best_suits_total_goes_back_and_says_which(client):
    page = meld_page(client, cards=C2, **TRIP)  # hearts holds the run: 17
    assert parse_qs(urlsplit(use_total_url(page)).query)["meld_1"] == ["17"]
    assert re.search(r"counted with the best trump, <span class=\"suit-H\">♥ hearts</span>", page)
    chosen = meld_page(client, cards=C2, trump="S", **TRIP)
    assert parse_qs(urlsplit(use_total_url(chosen)).query)["meld_1"] == ["3"]
    assert "counted with the best trump" not in chosen


def test_side_label_is_shown_as_text(client):
    page = meld_page(client, cards="KS QS", **{**TRIP, "side_label": "<b>Ann</b>"})
    assert "for &lt;b&gt;Ann&lt;/b&gt;" in page
    assert "<b>Ann</b>" not in page
    plain = meld_page(client, cards="KS QS", trump="H", **{**TRIP, "side_label": ""})
    assert "Use this total (2) for side 2" in plain


@pytest.mark.parametrize(
    "unsafe",
    [
        "https://evil.example/",
        "//evil.example",
        "/\\evil.example",
        "javascript:alert(1)",
        "games/7/",
        "http://testserver/games/7/",  # even this host, when written as an absolute URL
    ],
)
def test_a_return_that_is_not_a_local_path_is_ignored(client, unsafe):
    page = meld_page(client, cards="KS QS", **{**TRIP, "return": unsafe})
    assert use_total_url(page) is None
    assert "Back without counting" not in page
    assert "evil" not in page
    assert all("return" not in parse_qs(urlsplit(url).query) for url in links(page, "hx-get"))
    assert 'name="return"' not in page


@pytest.mark.parametrize("side", ["", "x", "-1", "+1", " 1", "6", "99", "1.0", "١"])
def test_a_side_that_is_not_a_small_number_leaves_only_the_way_back(client, side):
    page = meld_page(client, cards="KS QS", **{**TRIP, "side": side})
    assert use_total_url(page) is None
    assert f'href="{html.escape(RETURN)}">Back without counting' in page
    assert all(trip_of(url) == {"return": [RETURN]} for url in links(page, "hx-get"))


def test_a_refused_hand_offers_no_total_to_take_back(client):
    page = meld_page(client, cards="AS ZZ", **TRIP)
    assert use_total_url(page) is None
    assert "Back without counting" in page


def test_without_a_return_there_is_no_way_back(client):
    page = meld_page(client, cards="KS QS", side="1", side_label="Bob & Dan")
    assert "Back without counting" not in page
    assert all("side" not in parse_qs(urlsplit(url).query) for url in links(page, "hx-get"))


# ---- a partner's hand added to the side's meld so far (meld_now, RULES.md §1.4, §2.4) -------------

SECOND = {**TRIP, "return": "/games/7/?bid=55&trump=H&meld_0=24", "meld_now": "6"}


def link_after(page: str, css_class: str) -> str | None:
    found = re.search(rf'<a class="{css_class}" href="([^"]*)"', page)
    return html.unescape(found.group(1)) if found else None


def test_meld_now_survives_every_tap_with_and_without_htmx(client):
    page = meld_page(client, cards="KH", trump="H", **SECOND)
    taps = links(page, "hx-get")
    assert taps
    assert all(parse_qs(urlsplit(url).query)["meld_now"] == ["6"] for url in taps)
    partial = client.get(reverse("meld"), {"cards": "KH", **SECOND}, **HTMX).content.decode()
    assert all(parse_qs(urlsplit(url).query)["meld_now"] == ["6"] for url in links(partial, "hx-get"))
    form = re.search(r'<form class="meld-form".*?</form>', page, re.S).group(0)
    assert '<input type="hidden" name="meld_now" value="6">' in form


def test_with_meld_now_the_total_is_offered_added_or_instead(client):
    # Hearts trump: K♥ Q♥ is a royal marriage, 4 (§2.4); the first partner counted 6.
    page = meld_page(client, variant="double-deck", trump="H", cards="KH QH", **SECOND)
    assert 'Add to Bob &amp; Dan\'s meld: <span class="sum">6 + 4 = 10</span>' in page
    assert link_after(page, "button primary add-total") == "/games/7/?bid=55&trump=H&meld_0=24&meld_1=10"
    assert "Use 4 instead" in page
    assert link_after(page, "button use-total") == "/games/7/?bid=55&trump=H&meld_0=24&meld_1=4"
    assert "Use this total" not in page
    # Back without counting leaves the side's meld as it was, not blank.
    assert 'href="/games/7/?bid=55&amp;trump=H&amp;meld_0=24&amp;meld_1=6">Back without counting' in page


def test_without_meld_now_only_the_total_is_offered(client):
    page = meld_page(client, variant="double-deck", trump="H", cards="KH QH", **TRIP)
    assert "Use this total (4) for Bob &amp; Dan" in page
    assert "add-total" not in page
    assert "instead" not in page


@pytest.mark.parametrize("meld_now", ["", "x", "-6", "+6", " 6", "6.0", "٦", "100000", "1e3"])
def test_a_meld_now_that_is_not_a_whole_number_up_to_99999_is_dropped(client, meld_now):
    page = meld_page(
        client, variant="double-deck", trump="H", cards="KH QH", **{**SECOND, "meld_now": meld_now}
    )
    assert "add-total" not in page
    assert use_total_url(page) == "/games/7/?bid=55&trump=H&meld_0=24&meld_1=4"
    assert all("meld_now" not in parse_qs(urlsplit(url).query) for url in links(page, "hx-get"))
    assert 'name="meld_now"' not in page


def test_meld_now_of_99999_is_kept_and_of_0_adds_nothing(client):
    top = meld_page(client, trump="H", cards="KH QH", **{**SECOND, "meld_now": "99999"})
    assert ">99999 + 4 = 100003<" in top  # the hand form then refuses it, naming the side's meld
    zero = meld_page(client, trump="H", cards="KH QH", **{**SECOND, "meld_now": "0"})
    assert "add-total" not in zero
    assert "Use this total (4) for Bob &amp; Dan" in zero


def test_meld_now_without_a_side_is_dropped(client):
    page = meld_page(client, cards="KH QH", trump="H", **{**SECOND, "side": "x"})
    assert "add-total" not in page
    assert all("meld_now" not in parse_qs(urlsplit(url).query) for url in links(page, "hx-get"))


FULL_CLASSIC = "AS KS AH TH KH QH JH 9H QD JD AC 9C"  # canonical order, as the URLs write it


def test_a_full_hand_offers_the_bid_advisor_and_a_short_one_does_not(client):
    assert "Advise a bid" not in meld_page(client, cards=C1[:-3])
    page = meld_page(client, cards=FULL_CLASSIC)
    ask = next(url for url in links(page) if "advise=1" in url)
    assert parse_qs(urlsplit(ask).query)["cards"] == [FULL_CLASSIC]
    assert "Advise a bid" in page


def test_the_advisor_shows_safe_standard_and_bold_bids_for_the_best_trump(client):
    response = client.get(reverse("meld"), {"cards": FULL_CLASSIC, "advise": "1"}, **HTMX)
    page = response.content.decode()
    bids = dict(re.findall(r'advice-(safe|standard|bold)">.*?class="advice-bid">(\d+|pass)<', page, re.S))
    assert set(bids) == {"safe", "standard", "bold"}
    assert (
        int(bids["safe"]) <= int(bids["standard"]) <= int(bids["bold"])
    )  # a six-card heart run: hearts bids
    assert 'Best trump <span class="suit-H">' in page
    assert page.count('<th scope="row" class="suit-') == 4  # every suit classic lets it name


def test_changing_the_hand_drops_the_advice_request(client):
    page = meld_page(client, cards=FULL_CLASSIC, advise="1")
    chip = link_params(page, "9C")  # taking a card out: the hand is no longer full
    assert "advise" not in chip


def test_no_trump_counts_a_no_marriage_hand_without_run_royal_marriage_or_dix(client):
    # C10 with hearts trump is 14 (2 royal marriages 8, pinochle 4, 2 dix 2); with no trump, RULES §2.3,
    # its K♥ Q♥ pairs are plain marriages (4) and there is no dix: 4 + 4 = 8.
    page = meld_page(client, cards=C10, trump="none")
    assert total_shown(page) == 8
    assert "No trump: no run, royal marriage or dix" in page
    assert "Every trump, best first" not in page
    assert link_params(page, "KH")["trump"] == ["none"]  # every tap keeps it


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("[1]", "The house rules are not readable (a JSON object)."),
        ("{", "The house rules are not readable (a JSON object)."),
        ('{"min_bid": "x"}', "min_bid"),
        ('{"no_such_rule": 1}', "no_such_rule"),
    ],
)
def test_house_rules_that_are_not_rules_are_refused_in_words_and_dropped(client, rules, message):
    response = client.get(reverse("meld"), {"variant": "classic", "cards": C1, "rules": rules})
    assert response.status_code == 200
    assert message in html.unescape(response.content.decode())
    assert response.context["query"].rules == ""
    assert all("rules" not in parse_qs(urlsplit(url).query) for url in links(response.content.decode()))


def test_a_games_house_rules_stay_through_every_tap_but_not_into_another_variant(client):
    page = meld_page(client, variant="classic", cards="KS QS", rules='{"min_bid":25}')
    for url in links(page, "hx-get"):
        query = parse_qs(urlsplit(url).query)
        assert query.get("rules") == (['{"min_bid":25}'] if query["variant"] == ["classic"] else None)
    assert 'name="rules" value="{&quot;min_bid&quot;:25}"' in page
