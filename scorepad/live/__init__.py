"""Everything live, in one home: how a change reaches the phones and screens watching it.

- ``bus``: "this changed" on a named channel (a private table's, a club night's standings), to
  every open stream of every web process: in-process, between one machine's workers, or through
  Redis; and which seats' phones are connected now (presence: a stream that closes tells its
  table, so the other phones say that seat away at once).
- ``postgres_bus``: the bus's way round a Redis that fails, on PostgreSQL (NOTIFY and LISTEN).
- ``streams``: the server-sent events format and the one stream loop every event stream runs:
  draw, wait for a change (or the wait period), draw again.
- ``feeds``: a reading shared by every stream of a process that shows the same thing (a club
  night's standings on every screen of the room), read once per change.
- ``request_threads``: every ordinary request runs whole in one of the worker's threads; a
  stream's reads wait their turn there too (``in_request_thread``).
- ``request_slots``: at most a few streams of a worker start at once.
- ``stream_caps``: how many streams may be open at once, per table seat, per address and per
  web process, counted in the process.
- ``clock``: the private tables' clock, which moves a table nobody's request moves (bots that
  were busy, a player away past the grace), one runner per table at a time, wherever it lives.

It is infrastructure (README "How the code is laid out"), beside ``throttle`` and ``bot_pool``:
it imports Django, the engine, the constants and the models, never a selector, a service or a
page. What a stream draws, and what the clock does to a table, come from above as callables.
"""
