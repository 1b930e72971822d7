"""The appliance around the rules and the reader: pages, JSON API, live stream, storage, CLI.

- ``store``: SQLite (WAL, one writer): games, their action logs, readings, the revision.
- ``table``: camera → roll watcher → reader → engine → store → every screen.
- ``publisher``: the newest state for the Server-Sent Events streams.
- ``app``: the Flask app (``/``, ``/control``, ``/history``, ``/api/...``).
- ``families``: the start form's game families and option tables.
- ``cli``: ``dicetray serve | read | eval | replay``.
- ``live``, ``fakes``, ``screenshot``, ``bench``: an in-process server, stand-ins for the
  camera and reader, the docs screenshot and ``make bench``'s web numbers.
"""
