"""gunicorn's settings: ``gunicorn -c python:pinochle_site.gunicorn_conf pinochle_site.wsgi``.

Threaded workers, one per core and one more: a request mostly renders a page (CPU, so more
processes than cores buys nothing under the GIL) or waits on the database (threads cover that).
``WEB_CONCURRENCY`` and ``GUNICORN_THREADS`` change the counts; ``GUNICORN_CMD_ARGS`` or
command-line options override anything here (``--bind`` for the address).
"""

import os

wsgi_app = "pinochle_site.wsgi"
bind = [os.getenv("BIND", "127.0.0.1:8000")]
workers = int(os.getenv("WEB_CONCURRENCY") or (os.cpu_count() or 1) + 1)
worker_class = "gthread"
threads = int(os.getenv("GUNICORN_THREADS") or 4)
# Practice bots think in a lower-priority process per worker, not in a request thread beside the
# scorekeepers' (scorepad/bot_pool.py). Read by the settings, which the workers load after this.
os.environ.setdefault("PRACTICE_BOT_PROCESSES", "1")
timeout = 30  # a request that takes longer is stuck: its worker is restarted
graceful_timeout = 10
keepalive = 5
# The reverse proxy's X-Forwarded-* headers are read by Django (SECURE_PROXY_SSL_HEADER), not here.
# gunicorn's control socket sits at one path per user: two servers on one machine would collide.
control_socket_disable = True
