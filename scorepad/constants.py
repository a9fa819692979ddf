"""Constants that several layers need (models, services, selectors, forms, views), kept below all of
them so no layer imports one from a layer beside or above it. Plain values, and the engine's."""

from .engine.practice import PLAYER as PLAYER  # the practising player's seat (the bots' engine's)

# No real bid, meld, trick count or target comes near it. It keeps a slip of the thumb
# (300000000000000000000) out of the bid column, whose integers stop at 2**31 on PostgreSQL and
# 2**63 on SQLite (which raises OverflowError above that), and out of the scores.
NUMBER_LIMIT = 99_999

HOUSEHOLD_NAME_MAX = 80  # characters in a household's name
PLAYER_NAME_MAX = 40  # characters in a player's name

DEFAULT_STRENGTH = "heuristic"  # the practice bots' strength when none is chosen

# One sentence each, what a player meets at the table; the word before the colon names the strength
# in the practice history.
STRENGTH_WORDS = {
    "easy": "Easy: a beginner who always plays legally and sensibly, bids timidly and now and then"
    " plays a careless card.",
    "heuristic": "Steady: a steady club player who bids its meld and the tricks its hand should take,"
    " counts the cards and never wastes a high trump.",
    "expert": "Expert: as strong as its thinking time allows: before each decision it plays the hand"
    " out on many deals of the cards it cannot see.",
}
