"""The newest published state, for any number of Server-Sent Events streams.

The table publishes ``(revision, state JSON)`` after each committed change; each open
stream waits for a revision above the one it sent last. A slow screen simply skips to
the newest state: every event carries the whole state, so nothing is lost by skipping.
It is the camera's hand-off (:class:`vision.frames.Latest`) carrying text.
"""
from __future__ import annotations

from vision.frames import Latest


class Publisher(Latest[str]):
    """Holds the latest ``(revision, JSON text)`` and wakes waiting streams."""

    def latest_state(self) -> tuple[int, str]:
        """The latest ``(revision, JSON text)``; ``(-1, "null")`` before the first."""
        got = self.latest()
        return (-1, "null") if got is None else got
