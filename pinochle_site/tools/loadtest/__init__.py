"""The load benchmark behind ``manage.py loadtest``: simulated players against the real server."""
