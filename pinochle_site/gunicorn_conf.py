"""gunicorn's settings: ``gunicorn -c python:pinochle_site.gunicorn_conf`` (the README's one command).

gunicorn keeps managing the processes (one per core and one more, restarted when stuck), but each
worker is uvicorn's ASGI worker serving ``pinochle_site.asgi``: a table's phones hold a server-sent
events stream open for as long as they sit at it, and under ASGI an idle stream is a coroutine
waiting on a queue, not a thread held for its lifetime (a threaded worker's 4 threads would be
taken by 4 phones). Every other request runs whole in one of the worker's ``GUNICORN_THREADS``
request threads (``scorepad.live.request_threads``), as it did under threaded workers, so the
scorepad's pages and a practice request waiting for its bot (``scorepad/bot_pool.py``) still run
side by side. ``WEB_CONCURRENCY`` and ``GUNICORN_THREADS`` change the counts; ``GUNICORN_CMD_ARGS``
or command-line options override anything here (``--bind`` for the address).
"""

import os
from typing import Any

wsgi_app = "pinochle_site.asgi:application"
bind = [os.getenv("BIND", "127.0.0.1:8000")]
workers = int(os.getenv("WEB_CONCURRENCY") or (os.cpu_count() or 1) + 1)
worker_class = "uvicorn_worker.UvicornWorker"
# Practice bots think in a lower-priority process per worker, not in a request thread beside the
# scorekeepers' (scorepad/bot_pool.py). Read by the settings, which the workers load after this.
os.environ.setdefault("PRACTICE_BOT_PROCESSES", "1")
timeout = 30  # a worker that stops answering gunicorn's heartbeat that long is restarted
graceful_timeout = 10  # open event streams are cut at a restart; phones reconnect by themselves
keepalive = 5
# Each worker listens on a socket of its own (SO_REUSEPORT) and the kernel shares new connections
# out among them. On one shared socket the first worker to wake takes every connection waiting, so
# kept-alive connections pile up in one worker while the others idle (DEPLOYMENT.md says what the
# load test measured). A unix socket or sockets handed over by systemd stay shared (on_starting).
reuse_port = True
# The reverse proxy's X-Forwarded-* headers are read by Django (SECURE_PROXY_SSL_HEADER), not here.
# gunicorn's control socket sits at one path per user: two servers on one machine would collide.
control_socket_disable = True


def on_starting(server: Any) -> None:  # gunicorn's Arbiter
    """Sockets of one's own per worker only for TCP addresses bound here (see ``reuse_port``)."""
    tcp_only = all(not str(address).startswith(("unix:", "fd://")) for address in server.cfg.bind)
    if not tcp_only or os.getenv("LISTEN_FDS"):
        server.cfg.set("reuse_port", False)


def post_worker_init(worker: Any) -> None:  # gunicorn's Worker, its application loaded
    """Each worker keeps the private tables' clock: one thread looking for tables due, of which the
    lease in the database gives each table to one worker at a time (``scorepad.live.clock``)."""
    from scorepad.services.tables import table_clock_start

    table_clock_start()
