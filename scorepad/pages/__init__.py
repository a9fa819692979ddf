"""Page builders: what a page shows, in a player's words.

A page builder takes what the selectors read (their read models, such as ``Scoresheet``) and
engine values (a ``Variant``, its ``Settings``, a replayed hand) and builds the text and view
models a template lays out. It never queries the ORM (the selectors read) and never runs a bot
search (``bot_pool`` does, outside any page); so a page builder is quick, and the same values
always build the same page. ``tests/test_layers.py`` holds the package to both.
"""
