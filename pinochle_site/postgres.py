"""PostgreSQL dates Python cannot hold, read as the nearest date it can.

PostgreSQL stores timestamps from 4713 BC to 294276 AD; Python's ``datetime`` holds years 1 to
9999. A row written before the app checked dates (a restored backup whose ``created_at`` was
``0001-01-01T00:30:00+01:00``: year 0 in UTC) would make psycopg raise ``DataError`` on every
page that loads it, for good. Such a value is read as ``datetime.min`` or ``datetime.max`` (in
UTC) instead: the page shows "year 1" or "year 9999", and the row can still be exported, fixed
or deleted. Values inside Python's range are read exactly as psycopg reads them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.backends.signals import connection_created

EARLIEST = datetime.min.replace(tzinfo=UTC)
LATEST = datetime.max.replace(tzinfo=UTC)


def clamp_out_of_range_dates(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: on a new PostgreSQL connection, wrap the timestamptz loader
    Django registered (it sets the time zone) in one that clamps what Python cannot hold."""
    if connection.vendor != "postgresql":
        return
    from psycopg import DataError
    from psycopg.pq import Format

    adapters = connection.connection.adapters
    djangos_loader = adapters.get_loader(adapters.types["timestamptz"].oid, Format.TEXT)

    class ClampedTimestamptzLoader(djangos_loader):  # type: ignore[misc, valid-type]
        def load(self, data: Any) -> datetime:
            try:
                return super().load(data)
            except DataError:
                nearest = EARLIEST if b"BC" in bytes(data) else LATEST
                return nearest.replace(tzinfo=getattr(self, "timezone", UTC))

    adapters.register_loader("timestamptz", ClampedTimestamptzLoader)


def connect() -> None:
    connection_created.connect(clamp_out_of_range_dates, dispatch_uid="clamp_out_of_range_dates")
