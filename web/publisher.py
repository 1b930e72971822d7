"""The newest published state, for any number of Server-Sent Events streams.

The table publishes ``(revision, state JSON)`` after each committed change; each open
stream waits for a state published after the one it sent last. A slow screen simply
skips to the newest state: every event carries the whole state, so nothing is lost by
skipping. It is the camera's hand-off (:class:`vision.frames.Latest`) carrying text.

Streams follow the order of publishing, not the revision: a state published again at
the same revision (what a full memory card kept from being stored, said on the screens
all the same) reaches every screen too.
"""
from __future__ import annotations

import threading

from vision.frames import Latest


class Publisher:
    """Holds the latest ``(revision, JSON text)`` and wakes waiting streams."""

    def __init__(self) -> None:
        self._states: Latest[tuple[int, str]] = Latest()
        self._lock = threading.Lock()

    def publish(self, text: str, revision: int) -> None:
        """Make ``text``, the state at ``revision``, the newest; a state of a revision
        below the newest (published late by a slower thread) is ignored."""
        with self._lock:
            if revision < self.latest_state()[0]:
                return
            self._states.publish((revision, text))

    def latest_state(self) -> tuple[int, str]:
        """The latest ``(revision, JSON text)``; ``(-1, "null")`` before the first."""
        got = self._states.latest()
        return (-1, "null") if got is None else got[1]

    def latest_published(self) -> tuple[int, int, str]:
        """The latest ``(publish number, revision, JSON text)``, the number for
        :meth:`wait_newer`; ``(0, -1, "null")`` before the first."""
        got = self._states.latest()
        return (0, -1, "null") if got is None else (got[0], *got[1])

    def wait_newer(self, after: int, timeout: float) -> tuple[int, int, str] | None:
        """Wait up to ``timeout`` s for a state published after publish number ``after``:
        the newest ``(publish number, revision, JSON text)``, or None on timeout or once
        closed."""
        got = self._states.wait_newer(after, timeout)
        return None if got is None else (got[0], *got[1])

    def close(self) -> None:
        """Wake every waiting stream with None: no more states will come."""
        self._states.close()

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._states.closed
