"""The bus's way round a Redis that is down, on PostgreSQL (``bus``).

Several app servers always share one PostgreSQL (SQLite means one machine, whose workers tell each
other through sockets). While a publish through Redis fails, or Redis rests after a failure, the
change goes out as a ``NOTIFY`` on this installation's channel (``notify``), and each web process
that has streams hears it through one ``LISTEN`` of its own (``relay``) and hands it to them.

The ``LISTEN`` runs whenever the database is PostgreSQL and Redis is configured, from a process's
first stream on, not only while Redis fails: it is the publishing server that finds Redis failing,
not the listening ones (a paused Redis leaves their subscriptions quiet, not broken), so a ``LISTEN``
begun on failure would miss the very changes it is there for. It costs one idle connection per web
process. A change is sometimes told twice (a publish that timed out on a Redis that delivered it
all the same; this process's own streams, told directly and through the database): harmless, as a
stream told of a change it has drawn already finds nothing new and draws nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction

__all__ = ["available", "channel_name", "notify", "relay"]

log = logging.getLogger(__name__)
NOTIFY_TIMEOUT_MS = 500  # a database slower than this to take a notification is skipped, as Redis is
CONNECT_TIMEOUT_SECONDS = 2  # libpq's least
RETRY_SECONDS = 1.0  # after a dropped or refused connection, the relay listens again after this
# A connection gone quiet without a word (a server or network gone) is found and listened again.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 5, "keepalives_count": 3}


def available() -> bool:
    """Whether the database can carry the changes (PostgreSQL)."""
    return connection.vendor == "postgresql"


def channel_name() -> str:
    """This installation's channel, named for its namespace as the Redis channel is: a PostgreSQL
    identifier, well inside its length limit whatever the namespace."""
    digest = hashlib.blake2b(settings.CACHE_NAMESPACE.encode(), digest_size=8).hexdigest()
    return f"pinochle_tables_{digest}"


def notify(channel: str) -> bool:
    """Tell every process listening (``relay``) that ``channel`` changed, in a short transaction of
    its own whose statements give up on a slow database; whether it was sent. Call it outside any
    transaction (once a change is committed)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT set_config('statement_timeout', %s, true)", [str(NOTIFY_TIMEOUT_MS)])
            cursor.execute("SELECT pg_notify(%s, %s)", [channel_name(), channel])
    except DatabaseError as error:  # the other servers' streams catch up at their next look
        log.warning("%s: could not notify through the database either (%s)", channel, error)
        return False
    return True


async def relay(deliver: Callable[[str], None], listening: asyncio.Event) -> None:
    """Hand each change notified on the channel to ``deliver``, ``listening`` set once it listens;
    listen again after a drop. It never blocks the event loop (psycopg's async connection), and its
    connection is closed when it is cancelled."""
    import psycopg
    from psycopg import sql

    listen = sql.SQL("LISTEN {}").format(sql.Identifier(channel_name()))
    params = _connection_params()
    while True:
        try:
            conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        except (psycopg.Error, OSError) as error:
            log.warning("table events: could not listen on the database (%s); retrying", error)
        else:
            try:
                await conn.execute(listen)
                listening.set()
                async for message in conn.notifies():
                    deliver(message.payload)
            except (psycopg.Error, OSError) as error:
                log.warning("table events: the database's notifications stopped (%s); retrying", error)
            finally:
                await conn.close()
        await asyncio.sleep(RETRY_SECONDS)


def _connection_params() -> dict[str, Any]:
    """Django's own connection settings, for a connection of the relay's own (what only Django's
    cursors use left out)."""
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    return {**KEEPALIVES, "connect_timeout": CONNECT_TIMEOUT_SECONDS, **params}
