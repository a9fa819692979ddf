"""The rules pages' words and tables, built from the engine (``pages/rules.py``)."""

from scorepad.engine.variants import VARIANTS
from scorepad.pages.rules import meld_rows


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
