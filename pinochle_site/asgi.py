"""The application gunicorn's uvicorn workers serve (``gunicorn_conf``).

Event streams (a table's phones) are async views on Django's ASGI handler, where a phone waiting
for the next card is a coroutine, not a thread. Every other request runs whole in one thread of the
worker's pool (``scorepad.live.request_threads``): the app's views are plain sync views, and Django's WSGI
handler runs them there without crossing back and forth to the event loop. (gunicorn_conf starts the
private tables' clock in each worker.) ``BodyLimit`` stands in front of both
handlers: it refuses a request body larger than any upload the site takes before it is read.
"""

import os

from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

from pinochle_site.middleware import BodyLimit
from scorepad.live.request_threads import InThreads, application_for

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
# A body over REQUEST_BODY_MAX_BYTES is refused before the threads' bridge or Django's handler reads it.
application = BodyLimit(
    application_for(streams=get_asgi_application(), requests=InThreads(get_wsgi_application()))
)
