"""The WSGI application (``runserver``), with the private tables' clock (``scorepad.live.clock``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
application = get_wsgi_application()


def _start_the_tables_clock() -> None:
    from scorepad.live import clock
    from scorepad.services.tables import table_clock_tick

    clock.start(table_clock_tick)


_start_the_tables_clock()
