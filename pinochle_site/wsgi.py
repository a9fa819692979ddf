"""The WSGI application (``runserver``), with the private tables' clock (``scorepad.live.clock``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
application = get_wsgi_application()

from scorepad.services.tables import table_clock_start  # noqa: E402 (needs the settings above)

table_clock_start()
