"""Every write a player makes, one atomic function each (``<thing>_<action>``, keyword-only).

Views call these; nothing else writes households, players, games or hands. A refusal is a
``ServiceError`` whose message says in words what was wrong, and nothing was saved.
"""


class ServiceError(ValueError):
    """A write refused for a reason the player can fix; the message is shown as is."""
