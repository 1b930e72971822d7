"""A stand-in settle detector, used only while ``vision.watcher`` is not in the tree.

The table service prefers ``vision.watcher.RollWatcher``; this keeps ``dicetray serve``
working end to end before it lands. It compares small grey thumbnails of consecutive
frames: a large change means the dice move; ``settle_frames`` quiet frames after a
movement mean they came to rest, and only then is the (slow) reader run, once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import cv2
import numpy as np


@dataclass(frozen=True)
class WatchEvent:
    """What the watcher saw: ``moving`` or ``settled`` (with the reading)."""

    kind: str
    frame_index: int
    reading: Any = None


class MotionWatcher:
    """Frames in, ``moving`` / ``settled`` events out; one settled reading per movement."""

    def __init__(self, read: Callable[[np.ndarray], Any], settle_frames: int = 3,
                 threshold: float = 4.0) -> None:
        self._read = read
        self._settle = settle_frames
        self._threshold = threshold      # mean absolute grey difference (0-255) on thumbnails
        self._previous: np.ndarray | None = None
        self._quiet = 0
        self._moved = False
        self._index = -1

    def feed(self, frame: np.ndarray) -> list[WatchEvent]:
        """Look at the next frame; returns the events it caused (often none)."""
        self._index += 1
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        thumb = cv2.resize(grey, (80, 60), interpolation=cv2.INTER_AREA).astype(np.int16)
        previous, self._previous = self._previous, thumb
        if previous is None:
            return []
        change = float(np.mean(np.abs(thumb - previous)))
        if change > self._threshold:
            first = not self._moved
            self._moved, self._quiet = True, 0
            return [WatchEvent("moving", self._index)] if first else []
        if not self._moved:
            return []
        self._quiet += 1
        if self._quiet < self._settle:
            return []
        self._moved = False
        return [WatchEvent("settled", self._index, self._read(frame))]
