"""How many examples a Hypothesis property tries: its full count in the full suite, a quarter of it in
the quick run (``--hypothesis-profile=quick``, whose default is a quarter of Hypothesis's 100)."""

from hypothesis import settings


def examples(full: int) -> int:
    """``full`` examples under the full suite's profiles, fewer in the same proportion as the loaded
    profile's default (read when the test module is imported, after the profile is loaded)."""
    return max(1, full * settings.default.max_examples // 100)
