"""Export and import of §9.3 game records, and the household's CSV of every hand."""

import copy
import csv
import io

import pytest

from scorepad.models import Game, Hand, Seat
from scorepad.selectors.exchange import CSV_HEADER, game_export, household_history_csv
from scorepad.services import ServiceError
from scorepad.services.exchange import game_import
from tests.sample_games import (
    CLASSIC_PLAYING,
    CLASSIC_WON,
    DOUBLE_DECK_SET,
    ROSTER,
    import_game,
    make_household,
    make_user,
)

pytestmark = pytest.mark.django_db


def seats(household, names):
    players = {player.name: player for player in household.players.all()}
    return [players[name] for name in names]


def nothing_saved():
    return not Game.objects.exists() and not Hand.objects.exists() and not Seat.objects.exists()


# A side that took a trick worth no counters keeps its meld: took_trick must survive the trip.
TOOK_A_BARE_TRICK = {
    "variant": "classic",
    "settings": {"target": 50, "last_trick": 10},
    "hands": [
        {"bidder": 2, "bid": 20, "trump": "C", "meld": [12, 6], "tricks": [34, 0], "took_trick": [True, True]}
    ],
}


@pytest.mark.parametrize("record", [CLASSIC_WON, CLASSIC_PLAYING, DOUBLE_DECK_SET, TOOK_A_BARE_TRICK])
def test_export_of_an_imported_game_is_the_record_it_came_from(household, record):
    game = import_game(household, record, ROSTER[:4])

    assert game_export(game=game) == record


def test_export_then_import_round_trips_exactly(household):
    first = import_game(household, DOUBLE_DECK_SET, ("Ann", "Bo", "Cy", "Di"))
    exported = game_export(game=first)

    second = game_import(
        household=household, data=exported, seats=seats(household, ("Di", "Cy", "Bo", "Ann"))
    )

    assert game_export(game=second) == exported
    assert [s.player.name for s in second.seats.all()] == ["Di", "Cy", "Bo", "Ann"]


def test_import_keeps_only_the_settings_that_differ_from_the_variant_defaults(household):
    record = {**DOUBLE_DECK_SET, "settings": {"target": 500, "bidder_out": True}}

    game = import_game(household, record, ROSTER[:4])

    assert game.settings == {"bidder_out": True}


def test_import_stores_the_result_the_engine_gives(household):
    won = import_game(household, CLASSIC_WON, ROSTER[:4])
    playing = import_game(household, CLASSIC_PLAYING, ROSTER[:4])

    won.refresh_from_db()
    assert (won.finished, won.winner_sides) == (True, [0])
    assert (playing.finished, playing.winner_sides) == (False, [])
    assert list(won.hands.values_list("number", flat=True)) == [0, 1, 2, 3, 4]


def test_import_seats_the_chosen_players_and_first_dealer(household):
    game = game_import(
        household=household,
        data=CLASSIC_WON,
        seats=seats(household, ("Cy", "Ann", "Di", "Bo")),
        first_dealer=3,
    )

    assert [(s.position, s.player.name) for s in game.seats.all()] == [
        (0, "Cy"),
        (1, "Ann"),
        (2, "Di"),
        (3, "Bo"),
    ]
    assert game.first_dealer == 3


@pytest.mark.parametrize(
    ("hand", "change", "words"),
    [
        (2, {"bid": 19}, ["hand 3", "bid", "minimum"]),
        (0, {"bidder": 4}, ["hand 1", "bidder", "out of range"]),
        (1, {"tricks": [15, 11]}, ["hand 2", "tricks", "add up"]),
        (3, {"meld": [-2, 14]}, ["hand 4", "meld", "negative"]),
        (4, {"bid": 10**20}, ["hand 5", "bid", "at most 99999"]),  # too big for the bid column
    ],
)
def test_a_bad_hand_saves_nothing_and_names_the_hand_and_field(household, hand, change, words):
    record = copy.deepcopy(CLASSIC_WON)
    record["hands"][hand].update(change)

    with pytest.raises(ServiceError) as refused:
        import_game(household, record, ROSTER[:4])

    assert all(word in str(refused.value) for word in words), str(refused.value)
    assert nothing_saved()


def test_a_hand_after_the_game_was_won_is_refused(household):
    record = copy.deepcopy(CLASSIC_WON)
    record["hands"].append({"bidder": 1, "bid": 20, "trump": "S", "meld": [0, 0], "tricks": [12, 13]})

    with pytest.raises(ServiceError, match=r"hand 6.*already won"):
        import_game(household, record, ROSTER[:4])
    assert nothing_saved()


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ({"variant": "bezique", "hands": []}, ["variant", "bezique"]),
        ({"variant": "classic", "settings": {"target": -5}, "hands": []}, ["settings", "target"]),
        ({"variant": "classic", "hands": [{"bidder": 0}]}, ["hand 1", "bid", "missing"]),
        ([1, 2, 3], ["record"]),
    ],
)
def test_a_malformed_record_is_refused_in_words(household, record, words):
    with pytest.raises(ServiceError) as refused:
        import_game(household, record, ROSTER[:4])

    assert all(word in str(refused.value) for word in words), str(refused.value)
    assert nothing_saved()


def test_seats_must_match_the_variant_and_the_roster(household):
    other = make_household(make_user("zed"), name="The Joneses")

    with pytest.raises(ServiceError, match="4"):
        import_game(household, CLASSIC_WON, ROSTER[:3])
    with pytest.raises(ServiceError, match="roster"):
        game_import(household=household, data=CLASSIC_WON, seats=seats(other, ROSTER[:4]))
    with pytest.raises(ServiceError, match="Ann"):
        game_import(household=household, data=CLASSIC_WON, seats=seats(household, ("Ann", "Bo", "Ann", "Di")))
    assert nothing_saved()


def csv_rows(household):
    return list(csv.DictReader(io.StringIO(household_history_csv(household=household))))


def test_csv_has_a_header_and_one_row_per_hand_oldest_game_first(household):
    won = import_game(household, CLASSIC_WON, ("Ann", "Bo", "Cy", "Di"))
    dd = import_game(household, DOUBLE_DECK_SET, ("Ann", "Bo", "Cy", "Di"))

    text = household_history_csv(household=household)
    rows = csv_rows(household)

    assert text.splitlines()[0] == ",".join(CSV_HEADER)
    assert [(row["game"], row["hand"]) for row in rows] == [
        *((str(won.pk), str(n)) for n in range(1, 6)),
        (str(dd.pk), "1"),
        (str(dd.pk), "2"),
    ]


def test_csv_rows_carry_the_hand_as_entered_and_as_scored(household):
    import_game(household, CLASSIC_WON, ("Ann", "Bo", "Cy", "Di"))

    second = csv_rows(household)[1]

    assert second["variant"] == "classic"
    assert second["dealer"] == "Bo"  # first dealer is seat 0, so hand 2 is dealt by seat 1
    assert (second["bidder"], second["bid"], second["trump"]) == ("Bo", "25", "S")
    assert (second["side_0"], second["side_1"]) == ("Ann & Cy", "Bo & Di")
    assert (second["meld_0"], second["meld_1"], second["tricks_0"], second["tricks_1"]) == (
        "10",
        "12",
        "15",
        "10",
    )
    assert (second["score_0"], second["score_1"], second["total_0"], second["total_1"]) == (
        "25",
        "-25",
        "56",
        "-4",
    )
    assert (second["made"], second["played"]) == ("no", "yes")
    assert second["side_2"] == second["meld_5"] == ""  # six-handed columns stay empty


def test_csv_shows_an_unplayed_hand_with_empty_tricks_and_no_trump(household):
    import_game(household, DOUBLE_DECK_SET, ("Ann", "Bo", "Cy", "Di"))

    forfeit = csv_rows(household)[1]

    assert (forfeit["bidder"], forfeit["trump"], forfeit["tricks_0"], forfeit["tricks_1"]) == (
        "Cy",
        "",
        "",
        "",
    )
    assert (forfeit["score_0"], forfeit["score_1"], forfeit["total_0"], forfeit["total_1"]) == (
        "-50",
        "26",
        "2",
        "-29",
    )
    assert (forfeit["made"], forfeit["played"]) == ("no", "no")


def test_csv_covers_six_handed_games_with_one_column_per_player(household):
    record = {
        "variant": "six-handed",
        "hands": [
            {
                "bidder": 4,
                "bid": 120,
                "trump": "S",
                "meld": [0, 40, 0, 0, 110, 20],
                "tricks": [50, 0, 60, 40, 45, 45],
            }
        ],
    }
    import_game(household, record, ROSTER)

    (row,) = csv_rows(household)

    assert [row[f"side_{s}"] for s in range(6)] == list(ROSTER)
    assert row["bidder"] == "Ed"
    # Ed: 110 + 45 = 155 ≥ 120, +155; Bo's 40 meld needs a trick and he took none, 0.
    assert [row[f"score_{s}"] for s in range(6)] == ["50", "0", "60", "40", "155", "65"]


def test_csv_quotes_names_a_spreadsheet_would_run_as_formulas():
    user = make_user("eve")
    from scorepad.services.households import household_create, player_create

    household = household_create(user=user, name="Formulas")
    for name in ("=SUM(A1)", "Bo", "Cy", "Di"):
        player_create(household=household, name=name)
    import_game(household, CLASSIC_PLAYING, ("=SUM(A1)", "Bo", "Cy", "Di"))

    (row,) = csv_rows(household)

    assert row["dealer"] == "'=SUM(A1)"
    assert row["side_0"] == "'=SUM(A1) & Cy"


def test_csv_of_a_household_without_games_is_just_the_header(household):
    assert household_history_csv(household=household) == ",".join(CSV_HEADER) + "\r\n"
