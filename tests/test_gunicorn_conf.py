"""The server's settings: each worker listens on a socket of its own only where that is safe."""

from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from pinochle_site import gunicorn_conf


def _started(*binds: str) -> Config:
    config = Config()
    config.set("bind", list(binds))
    config.set("reuse_port", gunicorn_conf.reuse_port)
    gunicorn_conf.on_starting(SimpleNamespace(cfg=config))
    return config


def test_workers_on_a_tcp_address_each_listen_on_their_own_socket():
    assert _started("127.0.0.1:8000", "[::1]:8000").reuse_port is True


@pytest.mark.parametrize("bind", ["unix:/run/pinochle.sock", "fd://3"])
def test_a_unix_socket_or_a_handed_over_one_stays_shared(bind):
    # Each worker binding a unix path of its own would take it from the last: one worker would answer.
    assert _started("127.0.0.1:8000", bind).reuse_port is False


def test_sockets_handed_over_by_systemd_stay_shared(monkeypatch):
    monkeypatch.setenv("LISTEN_FDS", "1")
    assert _started("127.0.0.1:8000").reuse_port is False


def test_each_worker_starts_the_tables_clock_and_importing_the_application_starts_none(monkeypatch):
    from scorepad.live import clock

    started = []
    monkeypatch.setattr(clock, "start", started.append)
    import pinochle_site.asgi  # noqa: F401 (a test importing the application)

    assert started == []
    gunicorn_conf.post_worker_init(SimpleNamespace())
    assert len(started) == 1  # the services' tick, in the worker that gunicorn made
