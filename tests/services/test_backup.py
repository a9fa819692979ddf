"""Household backup and restore, and what any JSON import refuses: bombs, huge numbers, huge games."""

import copy
import json

import pytest

from scorepad.models import Game, Hand, Household, Player
from scorepad.selectors import games as selectors
from scorepad.selectors.exchange import household_backup
from scorepad.services import ServiceError
from scorepad.services.exchange import (
    MAX_HANDS,
    household_restore,
    load_json,
    record_check,
)
from scorepad.services.games import hand_record, hand_throw_in
from tests.sample_games import make_household, make_user, three_games

pytestmark = pytest.mark.django_db


def without_stamps(backup):
    """A backup less what differs between two exports of the same household by design."""
    return {key: value for key, value in backup.items() if key not in ("backup_id", "exported_at")}


@pytest.fixture
def backup():
    """A household with a won, a playing and a double-deck game; one with an override and a thrown-in deal."""
    household = make_household(make_user("ann"))
    games = three_games(household)
    playing = games["playing"]
    hand_throw_in(game=playing, number=1, dealer=2)
    hand_record(
        game=playing,
        number=2,
        data={"bidder": 0, "bid": 21, "trump": "C", "meld": [4, 6], "tricks": [11, 14]},
        dealer=0,
    )
    Game.objects.filter(pk=games["double"].pk).update(abandoned=True)
    household.players.filter(name="Flo").update(retired=True)
    return household_backup(household=household)


def wipe():
    """As good as a fresh database: the household and its games are gone."""
    Hand.objects.all().delete()
    Game.objects.all().delete()
    Household.objects.all().delete()


def test_a_restore_into_an_empty_database_gives_back_the_same_household(backup):
    wipe()
    restored = household_restore(data=json.loads(json.dumps(backup)), user=make_user("bea"))
    again = household_backup(household=restored)
    assert without_stamps(again) == without_stamps(backup)
    assert restored.members.get().username == "bea"
    playing = restored.games.get(hands__thrown_in=True)
    assert list(playing.hands.values_list("number", "dealer", "thrown_in")) == [
        (0, 0, False),
        (1, 2, True),
        (2, 0, False),
    ]
    assert Player.objects.get(name="Flo").retired


def test_a_backup_restored_twice_into_one_accounts_households_is_refused_naming_it(backup):
    user = make_user("bea")
    first = household_restore(data=backup, user=user)
    Household.objects.filter(pk=first.pk).update(name="Bea's table")
    with pytest.raises(ServiceError, match="You already restored this backup, as “Bea's table”"):
        household_restore(data=backup, user=user)
    assert Household.objects.filter(restored_from=backup["backup_id"]).count() == 1


def test_another_account_restores_the_same_backup_as_its_own_and_learns_nothing_of_the_first(backup):
    first = household_restore(data=backup, user=make_user("bea"))
    Household.objects.filter(pk=first.pk).update(name="Bea's secret table")
    cy = make_user("cy")
    mine = household_restore(data=backup, user=cy)
    assert mine.pk != first.pk
    assert (mine.name, list(mine.members.all())) == ("The Smiths", [cy])
    assert mine.games.count() == first.games.count() == 3
    with pytest.raises(ServiceError) as again:
        household_restore(data=backup, user=cy)
    assert "“The Smiths”" in str(again.value)
    assert "Bea" not in str(again.value)


def test_a_backup_larger_than_one_restore_holds_is_refused_before_it_is_scored(backup, monkeypatch):
    monkeypatch.setattr("scorepad.services.exchange.MAX_BACKUP_GAMES", 2)
    with pytest.raises(ServiceError, match="games: 3 games is more than one restore holds: at most 2"):
        household_restore(data=backup, user=make_user("bea"))
    monkeypatch.setattr("scorepad.services.exchange.MAX_BACKUP_GAMES", 3)
    monkeypatch.setattr("scorepad.services.exchange.MAX_BACKUP_DEALS", 4)
    deals = sum(len(game["hands"]) for game in backup["games"])
    with pytest.raises(ServiceError, match=f"games: {deals} hands in all is more than one restore holds"):
        household_restore(data=backup, user=make_user("cy"))
    assert Household.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda b: b.update(format="something else"), "not a household backup"),
        (lambda b: b["games"][0]["hands"][0].update(bid=19), "game 1: hand 1: bid: 19 is under the minimum"),
        (lambda b: b["games"][0].update(seats=[0, 0, 1, 2]), "game 1: seats"),
        (lambda b: b["games"][1]["hands"][0].update(dealer=7), "game 2: first_dealer and each hand's dealer"),
        (
            lambda b: b["games"][0]["hands"].extend([{"dealer": 0, "thrown_in": True}] * MAX_HANDS),
            "at most 500",
        ),
        (lambda b: b["games"][0]["hands"][0].update(meld=[100_000, 9]), "100000 is more than any real score"),
        (lambda b: b["players"].append({"name": "ann"}), "the same name twice"),
        (lambda b: b["players"].append({"name": "  Ann "}), "the same name twice"),  # as stored: "Ann"
        (lambda b: b["household"].update(created_at="2026-13-45T99:00:00"), "household: created_at must be"),
        (lambda b: b["games"][1].update(created_at="2026-02-30T10:00:00+00:00"), "game 2: created_at must"),
        (lambda b: b["household"].update(name="The\x00Smiths"), "household: its name cannot hold control"),
        (lambda b: b["players"][2].update(name="Cy\x00"), "players: player 3's name cannot hold control"),
        (lambda b: b["players"][2].update(name="Cy\ud800"), "player 3's name cannot hold control"),
    ],
)
def test_a_bad_backup_restores_nothing_and_says_what_is_wrong(backup, change, words):
    before = Household.objects.count()
    bad = copy.deepcopy(backup)
    change(bad)
    with pytest.raises(ServiceError, match=words):
        household_restore(data=bad, user=make_user("bea"))
    assert Household.objects.count() == before


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
        ('{"a": ' * 50 + "1" + "}" * 50, "nests too deeply"),
        ("[" + "9" * 5000 + "]", "number far too long"),
        ('{"variant": "classic", "hands": [], "x": NaN}', "NaN is not a number"),
        ("{", "This is not JSON"),
    ],
)
def test_json_bombs_are_refused_in_words(text, words):
    with pytest.raises(ServiceError, match=words):
        load_json(text)


def test_a_game_record_over_the_hand_cap_is_refused():
    hand = {"bidder": 0, "bid": 20, "trump": "H", "meld": [0, 0], "tricks": [13, 12]}
    record = {"variant": "classic", "settings": {"target": 99_999}, "hands": [hand] * (MAX_HANDS + 1)}
    with pytest.raises(ServiceError, match="501 hands is more than one game holds: at most 500"):
        record_check(record)


def test_a_huge_setting_in_a_game_record_is_refused():
    with pytest.raises(ServiceError, match="settings: target: 1000000 is more than any real score"):
        record_check({"variant": "classic", "settings": {"target": 10**6}, "hands": []})


def test_a_restored_households_statistics_need_no_scoring_once_it_is_written(
    backup, monkeypatch, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        restored = household_restore(data=backup, user=make_user("bea"))
    monkeypatch.setattr(selectors, "score_game", lambda *args: pytest.fail("scored a game again"))
    tallies = [tally for _game, tally in selectors.scored_games(restored)]
    assert sorted(tally.hands for tally in tallies) == [2, 5]  # the double-deck game is abandoned


@pytest.mark.parametrize(
    ("change", "words"),
    [
        # Dates whose UTC moment falls outside years 1..9999: PostgreSQL stores them, and no page
        # could read the row again; SQLite fails to store them.
        (lambda b: b["games"][0].update(created_at="0001-01-01T00:30:00+01:00"), "game 1: created_at"),
        (lambda b: b["games"][1].update(created_at="9999-12-31T23:59:59-14:00"), "game 2: created_at"),
        (lambda b: b["household"].update(created_at="0001-01-01T00:30:00+01:00"), "household: created_at"),
        (lambda b: b["games"][0].update(created_at="1999-12-31T23:00:00+00:00"), "between 2000-01-01 and"),
        (lambda b: b["games"][0].update(created_at="2999-01-01T00:00:00+00:00"), "between 2000-01-01 and"),
        (lambda b: b.update(backup_id="abcdefgh\x00ijkl"), "backup_id"),
        (lambda b: b.update(backup_id="abcdefgh ijkl"), "backup_id"),
        (lambda b: b["household"].update(name="S" * 81), "household: a name of at most 80 characters"),
        (lambda b: b["games"][0].update(abandoned="yes"), "game 1: abandoned is true or false"),
        (lambda b: b["games"][0].update(settings={"target\x00": 5}), "game 1"),
        (lambda b: b["games"][0].update(settings=["target"]), "game 1"),
    ],
)
def test_a_crafted_backup_is_refused_in_words_and_restores_nothing(backup, change, words):
    before = Household.objects.count()
    bad = copy.deepcopy(backup)
    change(bad)
    with pytest.raises(ServiceError, match=words):
        household_restore(data=bad, user=make_user("bea"))
    assert Household.objects.count() == before


def test_the_dates_of_a_backup_within_the_range_are_kept_as_written(backup):
    wipe()
    backup["games"][0]["created_at"] = "2000-01-01T00:00:00+00:00"  # the earliest a backup may hold
    restored = household_restore(data=backup, user=make_user("bea"))
    assert restored.games.order_by("created_at").first().created_at.isoformat() == "2000-01-01T00:00:00+00:00"


def _string_paths(value, path=()):
    """Every place in a backup that holds text: each string value, and each object's keys."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, ("key", key))
            yield from _string_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _string_paths(item, (*path, index))
    elif isinstance(value, str):
        yield path


def _with_nul(backup, path):
    bad = copy.deepcopy(backup)
    *parents, last = path
    holder = bad
    for step in parents:
        holder = holder[step]
    if isinstance(last, tuple):  # a key: renamed with a NUL in it
        holder[f"{last[1]}\x00"] = holder.pop(last[1])
    else:
        holder[last] = f"{holder[last]}\x00"
    return bad


def test_a_nul_anywhere_in_a_backup_is_refused_in_words_or_never_reaches_the_database(backup):
    """PostgreSQL cannot store a NUL in text or JSON: wherever one is, the restore refuses it in
    words, or (a key the app does not read) leaves it out; never a database error."""
    paths = list(_string_paths(backup))
    assert len(paths) > 50
    refused = 0
    for number, path in enumerate(paths):
        try:
            restored = household_restore(data=_with_nul(backup, path), user=make_user(f"member{number}"))
        except ServiceError:
            refused += 1
        else:
            assert "\x00" not in json.dumps(household_backup(household=restored)), path
    assert refused > 50


@pytest.mark.parametrize("when", ["2026-01-02T10:00:00+00:00\x00", "2026-01-02T10:00:00+00:00\n"])
def test_a_date_with_a_control_character_is_refused(backup, when):
    backup["games"][0]["created_at"] = when
    with pytest.raises(ServiceError, match="game 1: created_at must be a date and time"):
        household_restore(data=backup, user=make_user("bea"))
