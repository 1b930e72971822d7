"""The newest published state, for any number of Server-Sent Events streams.

The table publishes ``(revision, state JSON)`` after each committed change; each open
stream waits for a revision above the one it sent last. A slow screen simply skips to
the newest state: every event carries the whole state, so nothing is lost by skipping.
"""
from __future__ import annotations

import threading
import time


class Publisher:
    """Holds the latest ``(revision, JSON text)`` and wakes waiting streams."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._revision = -1
        self._payload = "null"
        self._closed = False

    def publish(self, revision: int, payload: str) -> None:
        """Make this the latest state (a revision never goes back)."""
        with self._cond:
            if revision >= self._revision:
                self._revision, self._payload = revision, payload
                self._cond.notify_all()

    def latest(self) -> tuple[int, str]:
        """The latest ``(revision, JSON text)``."""
        with self._cond:
            return self._revision, self._payload

    def wait_newer(self, after: int, timeout: float) -> tuple[int, str] | None:
        """The latest state once its revision is above ``after``; None on timeout or close."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._revision <= after:
                left = deadline - time.monotonic()
                if self._closed or left <= 0:
                    return None
                self._cond.wait(left)
            return self._revision, self._payload

    def close(self) -> None:
        """Wake every stream: the server is stopping."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        with self._cond:
            return self._closed
