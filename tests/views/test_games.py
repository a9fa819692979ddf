"""The game screens: new game, the hand form (plain and htmx), corrections, scoping."""

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.http import QueryDict
from django.urls import reverse

from scorepad.engine.variants import get_variant, setting_choices
from scorepad.forms.games import NewGameForm
from scorepad.models import Game, Hand
from scorepad.services.games import HandRefused, game_start, hand_record, hand_undo
from scorepad.services.households import player_create
from scorepad.views import games as games_views

# Every test here acts as Ann, signed in.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("member")]

HTMX = {"HTTP_HX_REQUEST": "true"}
SET_HAND = {"bidder": 1, "bid": 55, "trump": "H", "meld": [24, 31], "tricks": [28, 22]}


@pytest.fixture
def roster():
    """These tests seat players of their own (``players``): Ann's household starts with none."""
    return ()


@pytest.fixture
def players(household):
    return [
        player_create(household=household, name=name) for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    ]


def start(household, players, variant="double-deck", first_dealer=0, **overrides):
    return game_start(
        household=household,
        variant_id=variant,
        overrides=overrides,
        players=players,
        first_dealer=first_dealer,
    )


@pytest.fixture
def game(household, players):
    return start(household, players[:4], first_dealer=3)


@pytest.fixture
def classic(household, players):
    return start(household, players[:4], "classic")


def form_data(number=0, **fields):
    data = {
        "number": number,
        "bidder": 1,
        "bid": 55,
        "trump": "H",
        "meld_0": 24,
        "meld_1": 31,
        "tricks_0": 28,
    }
    data.update(fields)
    return {key: value for key, value in data.items() if value is not None}


def errors_of(response, field):
    return response.context["form"].errors.get(field, [])


# ---- new game ------------------------------------------------------------------------------------


def test_new_game_first_asks_which_variant(client, household):
    response = client.get(reverse("game_new", args=[household.pk]))
    assert b"?variant=double-deck" in response.content
    assert b"?variant=six-handed" in response.content


def test_new_game_form_offers_the_variants_defaults_and_quick_targets(client, household, players):
    response = client.get(reverse("game_new", args=[household.pk]), {"variant": "six-handed"})
    form = response.context["form"]
    assert len(form.seat_fields) == 6
    assert form["min_bid"].value() == 50
    assert form["bid_increment"].value() == "10"
    assert [value for value, _ in form.fields["target"].choices] == ["500", "1000", "other"]
    assert form["target"].value() == "1000"


def _new_game_post(players, variant="double-deck", **extra):
    """What a browser sends for the form as it comes (the variant's defaults), with ``extra`` on top.

    An unticked box is not sent at all, so ``extra`` unticks one with ``name=None``."""
    defaults = NewGameForm.defaults_of(get_variant(variant))
    data = {
        key: "on" if value is True else str(value) for key, value in defaults.items() if value is not False
    }
    data.update({"variant": variant, "first_dealer": "2", "start": "1"})
    data.update({f"seat_{seat}": player.pk for seat, player in enumerate(players)})
    data.update(extra)
    return {key: value for key, value in data.items() if value is not None}


def test_starting_a_game_seats_the_players_and_stores_only_changed_rules(client, household, players):
    data = _new_game_post(players[:4], bidder_out="on", min_bid="60")
    response = client.post(reverse("game_new", args=[household.pk]), data)
    game = Game.objects.get()
    assert response["Location"] == reverse("game", args=[game.pk])
    assert game.settings == {"bidder_out": True, "min_bid": 60}
    assert game.first_dealer == 2
    assert [seat.player.name for seat in game.seats.all()] == ["Ann", "Bob", "Cat", "Dan"]


def test_a_new_game_starts_at_the_same_table_as_the_last_game_of_that_variant(client, household, players):
    ann, bob, cat, dan, eve, _ = players
    start(household, [dan, cat, bob, ann], target=650, min_bid=60, bidder_out=True)
    start(household, [eve, ann, bob, cat], "classic")  # another variant does not count
    form = client.get(reverse("game_new", args=[household.pk]), {"variant": "double-deck"}).context["form"]
    assert [form[f"seat_{seat}"].value() for seat in range(4)] == [dan.pk, cat.pk, bob.pk, ann.pk]
    assert (form["target"].value(), form["target_other"].value()) == ("other", 650)
    assert (form["min_bid"].value(), form["bidder_out"].value()) == (60, True)
    six = client.get(reverse("game_new", args=[household.pk]), {"variant": "six-handed"}).context["form"]
    assert six["seat_0"].value() is None
    assert six["target"].value() == "1000"


def test_a_player_in_two_seats_is_refused_next_to_the_seat(client, household, players):
    a, b, c, _ = players[:4]
    response = client.post(reverse("game_new", args=[household.pk]), _new_game_post([a, b, c, a]))
    assert response.status_code == 200
    assert response.context["form"].errors["seat_3"] == ["Ann already sits in seat 1."]
    assert not Game.objects.exists()


def test_an_empty_seat_is_refused_next_to_it(client, household, players):
    data = _new_game_post(players[:3])
    response = client.post(reverse("game_new", args=[household.pk]), data)
    assert response.context["form"].errors["seat_3"] == ["Choose who sits in seat 4."]
    assert not Game.objects.exists()


def test_other_target_needs_a_number(client, household, players):
    data = _new_game_post(players[:4], target="other")
    response = client.post(reverse("game_new", args=[household.pk]), data)
    assert response.context["form"].errors["target_other"] == ["Enter the target score."]
    data = _new_game_post(players[:4], target="other", target_other="750")
    client.post(reverse("game_new", args=[household.pk]), data)
    assert Game.objects.get().settings == {"target": 750}


def test_an_other_target_typed_beside_a_chosen_chip_is_told_not_dropped(client, household, players):
    data = _new_game_post(players[:4], target="500", target_other="750")
    response = client.post(reverse("game_new", args=[household.pk]), data)
    assert response.context["form"].errors["target_other"] == [
        "You typed 750 but 500 is chosen: tap “other” to play to 750, or clear it."
    ]
    assert not Game.objects.exists()


def test_a_target_or_minimum_bid_too_big_for_any_game_is_refused(client, household, players):
    data = _new_game_post(players[:4], target="other", target_other=str(10**20), min_bid=str(10**20))
    response = client.post(reverse("game_new", args=[household.pk]), data)
    errors = response.context["form"].errors
    assert errors["target_other"] == ["Ensure this value is less than or equal to 99999."]
    assert errors["min_bid"] == ["Ensure this value is less than or equal to 99999."]
    assert not Game.objects.exists()


def test_adding_a_player_from_the_new_game_form_seats_them_and_keeps_the_choices(client, household, players):
    data = _new_game_post(players[:2], new_player="Gus", add_player="1", min_bid="60")
    del data["start"]
    response = client.post(reverse("game_new", args=[household.pk]), data)
    gus = household.players.get(name="Gus")
    form = response.context["form"]
    assert str(form["seat_2"].value()) == str(gus.pk)
    assert str(form["seat_0"].value()) == str(players[0].pk)
    assert str(form["min_bid"].value()) == "60"
    assert not Game.objects.exists()


# ---- new game: more house rules (RULES §4) --------------------------------------------------------


def _new_game(client, household, data):
    return client.post(reverse("game_new", args=[household.pk]), data)


def test_more_house_rules_start_closed_with_the_engines_choices_and_the_variants_defaults(client, household):
    response = client.get(reverse("game_new", args=[household.pk]), {"variant": "six-handed"})
    page, form = response.content.decode(), response.context["form"]
    assert '<details class="panel more-rules">' in page  # closed: no "open"
    assert "Bidding and play rules are the players' to keep" in page
    assert [value for value, _ in form.fields["count_system"].choices] == list(
        setting_choices("count_system")
    )
    assert dict(form.fields["count_system"].choices)["A,T=10;K,Q=5"] == "A, T 10; K, Q 5 (240 in the deck)"
    assert form["count_system"].value() == "A,T=10;K,Q=5"  # six-handed's own count
    assert (form["meld_requires_trick"].value(), form["rule_of_20"].value()) == (True, False)
    for play_rule in ("play_mode", "must_overtrump", "single_round_bidding", "misdeal_nines"):
        assert play_rule not in form.fields


def test_double_set_penalty_and_another_count_are_stored_and_a_set_costs_double_the_bid(
    client, household, players
):
    data = _new_game_post(players[:4], "classic", set_penalty="double_bid", count_system="A,T=10;K,Q=5")
    _new_game(client, household, data)
    game = Game.objects.get()
    assert game.settings == {"set_penalty": "double_bid", "count_system": "A,T=10;K,Q=5"}
    # 241 trick points a hand (240 + the last trick); Bob & Dan take 30 + 100 = 130 of a 150 bid.
    hand = form_data(bid=150, meld_0=20, meld_1=30, tricks_0=141)
    page = client.post(reverse("hand_create", args=[game.pk]), hand, follow=True)
    assert list(page.context["sheet"].score.totals) == [161, -300]


def test_rule_of_20_off_lets_double_deck_bidders_with_16_meld_play(client, household, players):
    _new_game(client, household, _new_game_post(players[:4], rule_of_20=None))
    game = Game.objects.get()
    assert game.settings == {"rule_of_20": None}
    hand = form_data(bid=50, meld_0=24, meld_1=16, tricks_0=15)  # under the rule: forfeit unplayed
    page = client.post(reverse("hand_create", args=[game.pk]), hand, follow=True)
    row = page.context["sheet"].rows[0]
    assert (row.played, row.made, row.scores) == (True, True, [39, 51])


def test_rule_of_20_thresholds_are_stored_as_meld_and_tricks(client, household, players):
    data = _new_game_post(
        players[:4], "classic", rule_of_20="on", rule_of_20_meld="30", rule_of_20_tricks="5"
    )
    _new_game(client, household, data)
    assert Game.objects.get().settings == {"rule_of_20": [30, 5]}


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        (
            {"count_system": "A=100"},
            "count_system",
            "“A=100” is not one of the choices: pick one from the list.",
        ),
        (
            {"set_penalty": "triple"},
            "set_penalty",
            "“triple” is not one of the choices: pick one from the list.",
        ),
        ({"rule_of_20": "on", "rule_of_20_meld": "-5"}, "rule_of_20_meld", "Ensure this value is greater"),
        ({"rule_of_20": "on", "rule_of_20_tricks": ""}, "rule_of_20_tricks", "Enter the trick points a side"),
    ],
)
def test_a_bad_house_rule_is_refused_beside_its_field_and_nothing_is_saved(
    client, household, players, extra, field, message
):
    response = _new_game(client, household, _new_game_post(players[:4], **extra))
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert errors[field][0].startswith(message)
    assert '<details class="panel more-rules" open>' in response.content.decode()  # the refusal shows
    assert not Game.objects.exists()


def test_a_new_game_at_the_same_table_keeps_the_more_house_rules(client, household, players):
    start(household, players[:4], rule_of_20=None, set_penalty="double_bid", trump_requires_marriage=False)
    form = client.get(reverse("game_new", args=[household.pk]), {"variant": "double-deck"}).context["form"]
    assert form["rule_of_20"].value() is False
    assert (form["rule_of_20_meld"].value(), form["rule_of_20_tricks"].value()) == (20, 20)
    assert form["set_penalty"].value() == "double_bid"
    assert form["trump_requires_marriage"].value() is False
    assert form["forfeit_opponents"].value() == "meld20"  # unchanged: the variant's default


def test_adding_a_player_keeps_an_unticked_house_rule_unticked(client, household, players):
    data = _new_game_post(players[:2], new_player="Gus", add_player="1", trump_requires_marriage=None)
    del data["start"]
    form = client.post(reverse("game_new", args=[household.pk]), data).context["form"]
    assert form["trump_requires_marriage"].value() is False
    assert form["rule_of_20"].value() is True  # ticked by default and still ticked


def test_the_game_page_shows_the_house_rules_that_differ_from_the_variants(client, household, players):
    plain = start(household, players[:6], "six-handed")
    assert b"House rules:" not in client.get(reverse("game", args=[plain.pk])).content
    game = start(household, players[:6], "six-handed", set_penalty="double_bid", last_trick=10)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert '<p class="house-rules muted">House rules: last trick 10; set costs double the bid</p>' in page


# ---- the game page -------------------------------------------------------------------------------


def test_game_page_shows_the_dealer_and_a_form_for_hand_one(client, game):
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    assert b"<strong>Dan</strong> deals" in response.content
    form = response.context["form"]
    assert form["number"].value() == 0
    assert form["bid"].value() == 50  # the stepper starts at the minimum bid
    assert b"No marriage" in response.content  # double-deck: trump needs a marriage
    assert b"<html" in response.content


def test_htmx_gets_the_scorepad_partial_not_the_page(client, game):
    response = client.get(reverse("game", args=[game.pk]), **HTMX)
    assert response.content.lstrip().startswith(b'<div id="scorepad">')
    assert b"<html" not in response.content


def test_meld_prefill_from_the_calculator_link(client, game):
    response = client.get(reverse("game", args=[game.pk]), {"meld_1": "31", "trump": "S", "number": "7"})
    form = response.context["form"]
    assert form["meld_1"].value() == "31"
    assert form["trump"].value() == "S"
    assert form["number"].value() == 0  # a link cannot choose which hand it is


def test_count_it_goes_to_the_meld_calculator_with_the_hand_so_far(client, game):
    data = form_data(count_meld="1", trump="S", meld_0="24", meld_1="")
    response = client.post(reverse("hand_create", args=[game.pk]), data)
    location = response["Location"]
    assert location.startswith("/meld/?variant=double-deck&return=")
    assert "&side=1" in location
    assert "&trump=S" in location
    assert "meld_0%3D24" in location  # the return link keeps what was entered
    htmx = client.post(reverse("hand_create", args=[game.pk]), data, **HTMX)
    assert htmx["HX-Redirect"] == location


def test_count_it_on_a_no_marriage_hand_counts_with_no_trump(client, game):
    data = form_data(count_meld="1", bidder=2, trump="none", meld_0="0", tricks_0=None)
    query = parse_qs(urlsplit(client.post(reverse("hand_create", args=[game.pk]), data)["Location"]).query)
    assert query["trump"] == ["none"]  # RULES §2.3: not the best suit


def test_recording_over_htmx_drops_the_prefill_from_the_address(client, game):
    url = reverse("hand_create", args=[game.pk])
    response = client.post(url, form_data(), HTTP_HX_CURRENT_URL=f"/games/{game.pk}/?meld_0=24", **HTMX)
    assert response["HX-Replace-Url"] == reverse("game", args=[game.pk])


def test_count_it_names_the_side_for_the_calculators_way_back(client, game):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(count_meld="1"))
    assert parse_qs(urlsplit(response["Location"]).query)["side_label"] == ["Bob & Dan"]


def test_count_it_on_a_side_with_meld_sends_it_along_as_meld_now(client, game):
    data = form_data(count_meld="0", meld_0="24", meld_1="31")
    query = parse_qs(urlsplit(client.post(reverse("hand_create", args=[game.pk]), data)["Location"]).query)
    assert query["meld_now"] == ["24"]  # side 0's meld, not side 1's
    assert "meld_0" not in parse_qs(urlsplit(query["return"][0]).query)  # the way back sets it


@pytest.mark.parametrize("meld", ["", "0", "abc", "-5", "100000"])
def test_count_it_on_a_side_without_a_positive_meld_sends_no_meld_now(client, game, meld):
    data = form_data(count_meld="0", meld_0=meld, meld_1="31")
    location = client.post(reverse("hand_create", args=[game.pk]), data)["Location"]
    assert "meld_now" not in parse_qs(urlsplit(location).query)


def href_of(page: str, pattern: str) -> str:
    """The href of the first link whose opening tag matches ``pattern``."""
    tag = re.search(rf"<a [^>]*{pattern}[^>]*>", page)
    assert tag, f"no link matching {pattern}"
    return html.unescape(re.search(r'href="([^"]*)"', tag.group(0)).group(1))


def count_royal_marriage_for_side_1(client, game, meld_1: str) -> str:
    """Press side 1's "count it" with ``meld_1`` entered, tap K♥ Q♥ (hearts trump, double-deck:
    a royal marriage, 4 by §2.4) and return the calculator page."""
    data = form_data(count_meld="1", trump="H", meld_0="24", meld_1=meld_1)
    url = client.post(reverse("hand_create", args=[game.pk]), data)["Location"]
    for code in ("KH", "QH"):
        url = href_of(client.get(url).content.decode(), f'data-code="{code}"')
    return client.get(url).content.decode()


def test_the_calculators_total_comes_back_into_the_hand_form(client, game):
    calculator = count_royal_marriage_for_side_1(client, game, meld_1="")
    assert "Use this total (4) for Bob &amp; Dan" in calculator
    back = client.get(href_of(calculator, 'class="button primary use-total"'))
    assert back.context["form"]["meld_1"].value() == "4"
    page = back.content.decode()
    assert 'name="meld_1" id="id_meld_1" value="4"' in page
    assert 'name="meld_0" id="id_meld_0" value="24"' in page  # what was entered before stays
    assert back.context["form"]["bidder"].value() == "1"


def test_the_second_partners_meld_is_added_to_the_first_in_the_hand_form(client, game):
    calculator = count_royal_marriage_for_side_1(client, game, meld_1="6")
    assert 'Add to Bob &amp; Dan\'s meld: <span class="sum">6 + 4 = 10</span>' in calculator
    added = client.get(href_of(calculator, 'class="button primary add-total"'))
    assert added.context["form"]["meld_1"].value() == "10"
    assert added.context["form"]["meld_0"].value() == "24"
    instead = client.get(href_of(calculator, 'class="button use-total"'))
    assert instead.context["form"]["meld_1"].value() == "4"
    back = client.get(href_of(calculator, 'class="back"'))
    assert back.context["form"]["meld_1"].value() == "6"


def test_count_it_passes_the_tables_meld_rules_to_the_calculator(client, household, players):
    game = start(household, players[:4], "classic", run_extra_kq="strict")
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(count_meld="0", bid=20))
    assert "&run_extra_kq=strict" in response["Location"]
    assert "double_around_scale" not in response["Location"]  # the default needs no saying


def test_recording_a_hand_redirects_and_shows_totals_and_reasons(client, game):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data())
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.tricks, hand.meld) == ([28, 22], [24, 31])  # side 1's points filled in as 50 − 28
    page = client.get(reverse("game", args=[game.pk]))
    state = page.context["sheet"]
    assert list(state.score.totals) == [52, -55]
    assert b"set: 53 is short of 55" in page.content
    assert b"<strong>Ann</strong> deals" in page.content
    assert page.context["form"]["number"].value() == 1


def test_each_hand_row_shows_its_trump_as_a_suit_symbol(client, game):
    client.post(reverse("hand_create", args=[game.pk]), form_data(trump="D"))
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert '<span class="suit-D">♦</span>' in page
    assert not re.search(r'<span class="suit-[SHDC]"></span>', page)


def test_htmx_recording_returns_the_updated_scorepad_with_a_fresh_form(client, game):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(), **HTMX)
    assert response.status_code == 200
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="scorepad">')
    assert re.search(r'data-side="0">\s*52<', content)
    assert re.search(r'data-side="1">\s*-55<', content)
    assert response.context["form"]["number"].value() == 1
    assert response["HX-Reswap"] == "outerHTML show:top"  # the phone scrolls up to the result


def test_a_double_tap_records_one_hand(client, game):
    client.post(reverse("hand_create", args=[game.pk]), form_data())
    again = client.post(reverse("hand_create", args=[game.pk]), form_data(), follow=True)
    assert Hand.objects.count() == 1
    assert b"Hand 1 was already recorded." in again.content
    htmx = client.post(reverse("hand_create", args=[game.pk]), form_data(), **HTMX)
    assert htmx["HX-Redirect"] == reverse("game", args=[game.pk])
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"bid": 45}, "bid", "45 is under the minimum bid of 50"),
        ({"bid": None}, "bid", "Enter the bid."),
        ({"bid": "lots"}, "bid", "The bid is a whole number."),
        ({"bidder": None}, "bidder", "Tap who won the bid."),
        ({"trump": None}, "trump", "Tap the trump suit."),
    ],
)
def test_each_refusal_shows_next_to_its_field_and_saves_nothing(client, game, fields, field, message):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(**fields))
    assert response.status_code == 200
    assert any(message in error for error in errors_of(response, field))
    assert message.encode() in response.content
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("fields", "group", "message"),
    [
        ({"meld_1": -4}, "meld", "Bob & Dan has -4; it cannot be negative"),
        (
            {"tricks_0": 28, "tricks_1": 23},
            "tricks",
            "Trick points add up to 51; a hand's trick points add up to 50",
        ),
        ({"tricks_0": None}, "tricks", "Trick points missing: the hand is played"),
        (
            {"meld_1": 12, "tricks_0": 30, "tricks_1": 20},
            "tricks",
            "Leave the trick points blank: the bidders' meld 12 is under 20, so the hand is not played",
        ),
    ],
)
def test_meld_and_trick_refusals_show_beside_their_group_as_sentences(client, game, fields, group, message):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(**fields))
    errors = response.context["form"].group_errors[group]
    assert any(error.startswith(message) for error in errors)
    assert message in html.unescape(response.content.decode())
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"bid": 10**20}, "bid", "The bid is at most 99999."),
        ({"meld_1": 10**20}, "meld_1", "Bob & Dan's meld is at most 99999."),
        ({"tricks_0": 10**20}, "tricks_0", "Ann & Cat's trick points are at most 99999."),
    ],
)
def test_a_number_too_big_for_any_hand_is_refused_in_words_on_record_and_edit(
    client, game, fields, field, message
):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(**fields))
    assert errors_of(response, field) == [message]
    assert not Hand.objects.exists()
    hand_record(game=game, number=0, data=SET_HAND)
    edit = client.post(hand_url("hand_edit", game, 0), form_data(version=1, **fields))
    assert errors_of(edit, field) == [message]
    assert Hand.objects.get().bid == SET_HAND["bid"]


def test_the_service_refuses_a_bid_too_big_to_store(game):
    with pytest.raises(HandRefused, match="at most 99999"):
        hand_record(game=game, number=0, data={**SET_HAND, "bid": 10**20})
    assert not Hand.objects.exists()


def test_six_handed_needs_all_but_one_trick_field(client, household, players):
    six = start(household, players, "six-handed")
    data = {"number": 0, "bidder": 0, "bid": 50, "trump": "S", "tricks_0": 100, "tricks_1": 100}
    response = client.post(reverse("hand_create", args=[six.pk]), data)
    assert "Fill in the trick points of every side but one" in response.context["form"].errors["tricks_2"][0]
    data.update(tricks_1=40, tricks_2=0, tricks_3=0, tricks_4=0)
    client.post(reverse("hand_create", args=[six.pk]), data)
    assert Hand.objects.get().tricks == [100, 40, 0, 0, 0, 100]


def test_the_last_trick_field_left_blank_is_shown_filled_in_on_a_refusal(client, game):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(bid=45))
    assert response.context["form"]["tricks_1"].value() == "22"


def test_no_marriage_records_a_hand_not_played(client, game):
    data = form_data(bidder=2, bid=50, trump="none", meld_0=0, meld_1=26, tricks_0=None)
    client.post(reverse("hand_create", args=[game.pk]), data)
    hand = Hand.objects.get()
    assert (hand.trump, hand.tricks) == (None, None)
    page = client.get(reverse("game", args=[game.pk]))
    assert list(page.context["sheet"].score.totals) == [-50, 26]
    assert b"not played" in page.content


def test_trick_points_on_a_hand_not_played_are_told_not_dropped(client, game):
    data = form_data(bidder=2, bid=50, trump="none", meld_0=0, meld_1=26, tricks_0=30)
    response = client.post(reverse("hand_create", args=[game.pk]), data)
    assert errors_of(response, "tricks_0") == [
        "No marriage means the hand was not played: clear the trick points, or pick the trump."
    ]
    assert re.search(rb'<input[^>]*name="tricks_0"[^>]*value="30" autofocus', response.content)
    assert not Hand.objects.exists()


def test_took_a_trick_with_no_counters_keeps_the_meld(client, classic):
    # classic: side 1 took no counters but did win a trick, so its meld of 10 counts (§1.7).
    data = {"number": 0, "bidder": 0, "bid": 20, "trump": "S", "meld_0": 10, "meld_1": 10, "tricks_0": 25}
    client.post(reverse("hand_create", args=[classic.pk]), {**data, "took_1": "on"})
    assert Hand.objects.get().took_trick == [True, True]
    assert list(client.get(reverse("game", args=[classic.pk])).context["sheet"].score.totals) == [35, 10]


def test_classic_shows_the_took_a_trick_toggle_and_double_deck_does_not(client, game, classic):
    assert b"took a trick" in client.get(reverse("game", args=[classic.pk])).content
    assert b"took a trick" not in client.get(reverse("game", args=[game.pk])).content


# ---- the bid stepper -----------------------------------------------------------------------------


def test_bid_stepper_moves_by_the_increment_without_saving(client, game):
    url = reverse("hand_create", args=[game.pk])
    response = client.post(url, form_data(bid=55, bid_step="+", meld_0=24))
    form = response.context["form"]
    assert form["bid"].value() == 56
    assert form["meld_0"].value() == "24"  # what was entered stays
    assert not form.errors  # a step is not a submission: no "required" complaints
    assert client.post(url, form_data(bid=50, bid_step="-")).context["form"]["bid"].value() == 50
    assert not Hand.objects.exists()


def test_bid_stepper_follows_one_below_60_then_five(client, household, players):
    game = start(household, players[:4], bid_increment="1 below 60, then 5")
    url = reverse("hand_create", args=[game.pk])
    assert client.post(url, form_data(bid=59, bid_step="+")).context["form"]["bid"].value() == 60
    assert client.post(url, form_data(bid=60, bid_step="+")).context["form"]["bid"].value() == 65
    assert client.post(url, form_data(bid=65, bid_step="-")).context["form"]["bid"].value() == 60
    assert client.post(url, form_data(bid=60, bid_step="-")).context["form"]["bid"].value() == 59


def test_the_game_page_links_to_the_households_games_and_its_json_export(client, game):
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f'href="{reverse("history", args=[game.household_id])}"' in page
    assert f'href="{reverse("game_export", args=[game.pk])}" download>Export (JSON)</a>' in page


def test_htmx_stepper_returns_only_the_hand_form(client, game):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(bid_step="+"), **HTMX)
    assert response.content.lstrip().startswith(b'<form id="hand-form"')
    assert b'value="56"' in response.content


# ---- the end of the game -------------------------------------------------------------------------


def test_the_winner_is_announced_and_no_hand_is_accepted_after(client, household, players):
    game = start(household, players, "six-handed", target=500)
    hand = {"bid": 50, "trump": "S", "meld": [150, 150, 0, 0, 0, 0], "tricks": [100, 100, 10, 10, 10, 10]}
    hand_record(game=game, number=0, data={"bidder": 0, **hand})
    hand_record(game=game, number=1, data={"bidder": 1, **hand})
    page = client.get(reverse("game", args=[game.pk]))
    assert b"Game over: Ann and Bob are co-winners!" in page.content
    assert page.context["form"] is None
    late = {"number": 2, "bidder": 2, "bid": 50, "trump": "S", **{f"tricks_{s}": 40 for s in range(6)}}
    response = client.post(reverse("hand_create", args=[game.pk]), late, follow=True)
    assert b"The game is over: no more hands can be recorded." in response.content
    assert game.hands.count() == 2


def test_a_tie_at_the_target_under_play_on_says_why_the_game_goes_on(client, household, players):
    game = start(household, players, "six-handed", target=500, tie_break="play_on")
    hand = {"bid": 50, "trump": "S", "meld": [150, 150, 0, 0, 0, 0], "tricks": [100, 100, 10, 10, 10, 10]}
    hand_record(game=game, number=0, data={"bidder": 0, **hand})
    page = client.get(reverse("game", args=[game.pk]))
    assert b"tied at the top" not in page.content  # 250 each: nobody is at the target yet
    hand_record(game=game, number=1, data={"bidder": 1, **hand})
    page = client.get(reverse("game", args=[game.pk]))
    assert b"Ann and Bob are tied at the top: play on to break the tie." in page.content
    assert page.context["form"] is not None


@pytest.mark.parametrize(
    "late",
    [
        {"number": 2, "bid": 50},  # a half-filled form left open on another phone
        {"number": 2, "bid": 50, "bid_step": "+"},  # the stepper on a stale page
    ],
)
def test_a_hand_sent_after_the_end_goes_back_to_the_finished_game_without_a_form(client, classic, late):
    hand_record(
        game=classic,
        number=0,
        data={"bidder": 0, "bid": 30, "trump": "H", "meld": [140, 0], "tricks": [25, 0]},
    )
    response = client.post(reverse("hand_create", args=[classic.pk]), late, follow=True)
    assert response.redirect_chain == [(reverse("game", args=[classic.pk]), 302)]
    assert response.context["form"] is None
    assert b'id="hand-form"' not in response.content
    assert b"The game is over: no more hands can be recorded." in response.content
    htmx = client.post(reverse("hand_create", args=[classic.pk]), late, **HTMX)
    assert htmx["HX-Redirect"] == reverse("game", args=[classic.pk])


# ---- corrections ---------------------------------------------------------------------------------


def hand_url(name, game, number):
    return reverse(name, args=[game.pk, game.hands.get(number=number).pk])


def shown(game, number):
    """The hidden inputs a page holds for hand ``number``: its id and version."""
    hand = game.hands.get(number=number)
    return {"hand_id": hand.pk, "version": hand.version}


def test_editing_a_hand_rescores_and_returns_to_the_game(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    url = hand_url("hand_edit", game, 0)
    page = client.get(url)
    assert page.context["form"]["tricks_0"].value() == 28
    assert page.context["dealer"] == 3  # hand 1 was dealt by the first dealer, Dan
    assert b'Dan<small class="dealer-mark">deals</small>' in page.content
    assert b'name="version" value="1"' in page.content
    response = client.post(url, form_data(tricks_0=20, version=1))
    assert response["Location"] == reverse("game", args=[game.pk])
    assert list(client.get(reverse("game", args=[game.pk])).context["sheet"].score.totals) == [44, 61]


def test_each_button_of_the_hand_form_has_one_intent_and_the_correction_page_throws_nothing_in(client, game):
    """The dispatch table: a key names the intent; a correction has no throw-in, so a stray
    ``thrown_in`` key corrects the hand as typed and never turns it into a thrown-in deal."""
    assert games_views.intent_of(QueryDict("bid_step=%2B&count_meld=0"), games_views.NEXT_HAND_INTENTS) == (
        games_views.Intent.BID_STEP
    )
    assert (
        games_views.intent_of(QueryDict("bid=55"), games_views.NEXT_HAND_INTENTS) == games_views.Intent.RECORD
    )
    hand_record(game=game, number=0, data=SET_HAND)
    response = client.post(hand_url("hand_edit", game, 0), form_data(tricks_0=20, version=1, thrown_in=1))
    assert response["Location"] == reverse("game", args=[game.pk])
    hand = Hand.objects.get()
    assert (hand.thrown_in, hand.tricks) == (False, [20, 30])


def test_a_refused_edit_shows_its_error_and_changes_nothing(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    url = hand_url("hand_edit", game, 0)
    response = client.post(url, form_data(bid=40, version=1))
    assert "40 is under the minimum bid of 50" in errors_of(response, "bid")
    assert re.search(rb'<input[^>]*name="bid"[^>]*aria-invalid="true" autofocus', response.content)
    assert Hand.objects.get().bid == 55
    htmx = client.post(url, form_data(bid=40, version=1), **HTMX)
    assert htmx.content.lstrip().startswith(b"<form")


def test_a_stale_edit_is_refused_and_shows_the_hand_as_it_is_now(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    url = hand_url("hand_edit", game, 0)
    client.post(url, form_data(tricks_0=20, version=1))  # one phone corrects it
    response = client.post(url, form_data(bid=60, version=1))  # the other still had version 1
    assert "Hand 1 was changed on another phone since you opened it: here it is now." in html.unescape(
        response.content.decode()
    )
    assert response.context["form"]["tricks_0"].value() == 20
    assert b'name="version" value="2"' in response.content
    assert Hand.objects.get().bid == 55


def test_a_correction_sent_again_goes_back_to_the_game_saying_nothing_was_changed(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    url = hand_url("hand_edit", game, 0)
    client.post(url, form_data(tricks_0=20, version=1))
    again = client.post(url, form_data(tricks_0=20, version=1), follow=True)  # its answer was lost
    assert "Hand 1 already reads as this correction: nothing was changed." in again.content.decode()
    assert Hand.objects.get().version == 2


def test_editing_a_hand_deleted_on_another_phone_changes_nothing(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    url = hand_url("hand_edit", game, 0)
    Hand.objects.all().delete()
    response = client.post(url, form_data(version=1), follow=True)
    assert b"no longer in the game" in response.content
    assert not Hand.objects.exists()


def test_delete_asks_first_then_deletes_the_version_it_showed(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    url = hand_url("hand_delete", game, 0)
    confirm = client.get(url)
    assert b"Delete hand 1?" in confirm.content
    assert b'name="version" value="1"' in confirm.content
    assert Hand.objects.count() == 1
    client.post(url, {"version": 1})
    assert not Hand.objects.exists()


def test_a_resent_delete_confirmation_deletes_nothing_more(client, game):
    for number in range(3):
        hand_record(game=game, number=number, data=SET_HAND)
    url = hand_url("hand_delete", game, 1)
    client.post(url, {"version": 1})
    again = client.post(url, {"version": 1}, follow=True)
    assert b"no longer in the game" in again.content
    assert game.hands.count() == 2


def test_delete_of_a_hand_changed_since_asks_again(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    url = hand_url("hand_delete", game, 0)
    client.post(hand_url("hand_edit", game, 0), form_data(tricks_0=20, version=1))
    response = client.post(url, {"version": 1})
    assert b"was changed on another phone" in response.content
    assert b'name="version" value="2"' in response.content
    assert Hand.objects.count() == 1


def test_undo_removes_the_named_hand_and_offers_redo(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    response = client.post(reverse("game_undo", args=[game.pk]), shown(game, 0), **HTMX)
    assert b"Hand 1 undone." in response.content
    assert b"Redo hand 1" in response.content
    assert not Hand.objects.exists()
    redo = client.post(reverse("game_redo", args=[game.pk]), **HTMX)
    assert b"Hand 1 is back." in redo.content
    assert Hand.objects.get().bid == 55
    assert client.get(reverse("game_undo", args=[game.pk])).status_code == 405


def test_a_second_phones_stale_undo_is_refused_not_shifted(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    hand_record(game=game, number=1, data=SET_HAND)
    page = shown(game, 1)  # both phones show "Undo hand 2"
    client.post(reverse("game_undo", args=[game.pk]), page)
    response = client.post(reverse("game_undo", args=[game.pk]), page, follow=True)
    assert b"no longer in the game" in response.content
    assert list(game.hands.values_list("number", flat=True)) == [0]


def test_an_undo_without_a_named_hand_undoes_nothing(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    response = client.post(reverse("game_undo", args=[game.pk]), follow=True)
    assert b"Undo which hand?" in response.content
    assert game.hands.count() == 1


def test_a_thrown_in_deal_is_recorded_with_its_dealer(client, game):
    response = client.post(
        reverse("hand_create", args=[game.pk]), {"number": 0, "dealer": 3, "thrown_in": "1"}
    )
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.thrown_in, hand.dealer) == (True, 3)
    page = client.get(reverse("game", args=[game.pk]))
    assert page.context["sheet"].next_dealer == 0
    assert b"thrown in" in page.content


def test_a_stale_thrown_in_tap_after_an_undo_on_another_phone_is_refused_in_words(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    page = client.get(reverse("game", args=[game.pk]))  # phone 1 shows the form for hand 2
    assert page.context["form"].initial["number"] == 1
    hand = Hand.objects.get()
    hand_undo(game=game, hand_id=hand.pk, version=hand.version)  # phone 2 undoes hand 1
    response = client.post(
        reverse("hand_create", args=[game.pk]), {"number": 1, "dealer": 0, "thrown_in": "1"}
    )
    assert response.status_code == 200
    assert "Hand 2 cannot be recorded before hand 1." in response.context["refusal"]
    assert response.context["form"].initial["number"] == 0
    assert not Hand.objects.exists()


@pytest.mark.parametrize("dealer", ["-5", "4", "99999999999999999999"])
def test_a_thrown_in_deal_with_a_dealer_who_is_no_seat_is_refused_in_words(client, game, dealer):
    response = client.post(
        reverse("hand_create", args=[game.pk]), {"number": 0, "dealer": dealer, "thrown_in": "1"}
    )
    assert response.status_code == 200
    assert "The dealer must be one of the 4 seats." in response.content.decode()
    assert not Hand.objects.exists()


def test_the_dealer_can_be_overridden_on_the_hand_form(client, game):
    client.post(reverse("hand_create", args=[game.pk]), form_data(dealer=1))
    assert Hand.objects.get().dealer == 1


# ---- scoping -------------------------------------------------------------------------------------


def test_another_households_game_is_a_404_everywhere(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    client.force_login(User.objects.create_user("zed", password="pw-zed-12345"))
    assert client.get(reverse("game", args=[game.pk])).status_code == 404
    assert client.post(reverse("hand_create", args=[game.pk]), form_data(number=1)).status_code == 404
    assert client.get(hand_url("hand_edit", game, 0)).status_code == 404
    assert client.post(hand_url("hand_delete", game, 0)).status_code == 404
    assert client.post(reverse("game_undo", args=[game.pk])).status_code == 404
    assert game.hands.count() == 1


def test_a_link_to_a_hand_no_longer_in_the_game_says_so(client, game):
    response = client.get(reverse("hand_edit", args=[game.pk, 999]), follow=True)
    assert b"no longer in the game" in response.content


# ---- the bid advisor from the hand form ----------------------------------------------------------


def advisor_link(page: str) -> str:
    found = re.search(r'<a href="([^"]*)">Bid advisor</a>', page)
    assert found, "the hand form has no Bid advisor link"
    return html.unescape(found.group(1))


def test_the_bid_advisor_link_opens_the_calculator_with_the_games_rules_and_a_way_back(
    client, household, players
):
    game = start(household, players[:4], min_bid=60, double_around_scale="two_singles")
    back = reverse("game", args=[game.pk])
    url = advisor_link(client.get(back).content.decode())
    query = parse_qs(urlsplit(url).query)
    assert (query["variant"], query["return"]) == (["double-deck"], [back])
    assert query["double_around_scale"] == ["two_singles"]  # a meld rule, as the calculator's own setting
    calculator = client.get(url)
    settings = calculator.context["query"].settings
    assert (settings.min_bid, settings.double_around_scale) == (60, "two_singles")  # what the advisor bids by
    page = calculator.content.decode()
    assert "Your game's house rules: minimum bid 60" in page
    assert f'href="{back}">Back without counting' in page


def test_the_bid_advisor_link_from_a_correction_comes_back_to_it(client, game):
    hand_record(game=game, number=0, data=SET_HAND)
    edit = reverse("hand_edit", args=[game.pk, game.hands.get().pk])
    url = advisor_link(client.get(edit).content.decode())
    assert parse_qs(urlsplit(url).query)["return"] == [edit]


def test_the_bid_advisor_link_refuses_an_off_site_way_back(client, game):
    url = advisor_link(client.get(reverse("game", args=[game.pk])).content.decode())
    parts = urlsplit(url)
    query = {key: values[0] for key, values in parse_qs(parts.query).items()}
    page = client.get(parts.path, {**query, "return": "https://evil.example/games/1/"}).content.decode()
    assert "evil" not in page
    assert "Back without counting" not in page


@pytest.mark.parametrize("view_name", ["hand_delete", "hand_edit"])
def test_a_hand_deleted_on_another_phone_while_the_post_is_read_goes_back_to_the_game(
    client, game, monkeypatch, view_name
):
    """The other phone's delete lands after this request found the hand, before its own write."""
    hand_record(game=game, number=0, data=SET_HAND)
    url = hand_url(view_name, game, 0)
    real = getattr(games_views, view_name)  # the service the view calls has the view's own name

    def other_phone_first(**kwargs):
        Hand.objects.filter(pk=kwargs["hand_id"]).delete()
        return real(**kwargs)

    monkeypatch.setattr(games_views, view_name, other_phone_first)
    data = {"version": 1} if view_name == "hand_delete" else form_data(version=1)
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    assert b"no longer in the game" in response.content
    assert not Hand.objects.exists()


# ---- an entry sent again, and an entry that meets another phone's --------------------------------


def test_the_game_page_gives_the_hand_form_an_entry_key_of_its_own(client, game):
    form = client.get(reverse("game", args=[game.pk])).context["form"]
    key = form["entry_key"].value()
    assert key
    assert key != client.get(reverse("game", args=[game.pk])).context["form"]["entry_key"].value()


def test_a_hand_posted_twice_with_its_entry_key_is_stored_once_and_both_answers_say_stored(client, game):
    url = reverse("hand_create", args=[game.pk])
    first = client.post(url, form_data(entry_key="phone-entry-0001"))
    again = client.post(url, form_data(entry_key="phone-entry-0001"))
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == reverse("game", args=[game.pk])
    assert list(Hand.objects.values_list("number", "entry_key")) == [(0, "phone-entry-0001")]
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "already recorded" not in page  # the resend is a success, not a refusal


def test_an_entry_resent_after_its_winning_hand_ended_the_game_is_a_success(client, household, players):
    game = start(household, players[:4], target=100)
    url = reverse("hand_create", args=[game.pk])
    winning = form_data(entry_key="phone-entry-0001", bid=60, meld_1=60, tricks_0=10)
    assert client.post(url, winning).status_code == 302
    game.refresh_from_db()
    assert game.finished
    assert client.post(url, winning).status_code == 302
    assert Hand.objects.count() == 1


def test_a_new_entry_after_the_end_is_refused_in_words_even_with_its_key(client, household, players):
    game = start(household, players[:4], target=100)
    url = reverse("hand_create", args=[game.pk])
    client.post(url, form_data(entry_key="phone-entry-0001", bid=60, meld_1=60, tricks_0=10))
    late = client.post(url, form_data(number=1, entry_key="phone-entry-0002"), follow=True)
    assert b"The game is over: no more hands can be recorded." in late.content
    assert Hand.objects.count() == 1


def test_a_stale_hand_number_is_refused_in_words_showing_both_versions_never_merged(client, game):
    hand_record(game=game, number=0, data=SET_HAND, entry_key="other-phone-0001")
    mine = form_data(
        number=0, entry_key="this-phone-0001", bidder=2, bid=50, trump="S", meld_0=20, meld_1=10, tricks_0=30
    )
    response = client.post(reverse("hand_create", args=[game.pk]), mine)
    assert response.status_code == 409  # the offline outbox reads this as a conflict
    page = html.unescape(response.content.decode())
    assert "Hand 1 was recorded on another phone while this one was entering it." in page
    stored = "Bob bid 55 ♥ hearts · Ann & Cat: meld 24, trick points 28; Bob & Dan: meld 31, trick points 22"
    yours = "Cat bid 50 ♠ spades · Ann & Cat: meld 20, trick points 30; Bob & Dan: meld 10, trick points 20"
    assert stored in page
    assert yours in page
    assert list(Hand.objects.values_list("bid", flat=True)) == [55]  # nothing merged, nothing added
    # The form holds this phone's hand as the next hand: one deliberate tap records it as hand 2.
    form = response.context["form"]
    assert form["number"].value() == 1
    assert (form["bidder"].value(), form["bid"].value(), form["meld_0"].value()) == ("2", "50", "20")
    again = {name: form[name].value() for name in form.fields if form[name].value() not in (None, "")}
    assert client.post(reverse("hand_create", args=[game.pk]), again).status_code == 302
    assert list(Hand.objects.values_list("number", "bid", "entry_key")) == [
        (0, 55, "other-phone-0001"),
        (1, 50, "this-phone-0001"),
    ]


def test_a_conflict_over_htmx_swaps_in_the_scorepad_with_both_versions(client, game):
    hand_record(game=game, number=0, data=SET_HAND, entry_key="other-phone-0001")
    mine = form_data(number=0, entry_key="this-phone-0001", bid=60, meld_1=40)
    response = client.post(reverse("hand_create", args=[game.pk]), mine, **HTMX)
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert 'id="hand-conflict"' in page
    assert "Bob bid 60 ♥ hearts" in page
    assert Hand.objects.count() == 1


def test_a_garbled_entry_key_is_refused_in_words_and_nothing_is_stored(client, game):
    response = client.post(reverse("hand_create", args=[game.pk]), form_data(entry_key="<script>"))
    assert response.status_code == 200
    assert "This page is out of date: reload it and enter the hand again." in response.content.decode()
    assert Hand.objects.count() == 0
