"""Picture faces taught at the table: a die with a logo is named once on the control page.

The reader flags a die whose top face shows a picture instead of pips until its owner
has said which value the picture stands for. The :class:`Teacher` reads the frames
with the current calibration and keeps the last few frames it read, so that when a
person picks a value for a flagged picture face it can cut that face out of the very
frame it was read in, add it to the calibration, and save the calibration file (one
atomic write) before the next throw is read with it.
"""
from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from calibration import Calibration, save_calibration

# Frames of the latest readings kept in memory (3.7 MB each at 1280×960). A reading
# reaches the table as soon as the watcher has voted over its few still frames, and the
# table then keeps the frame of a waiting reading with a picture face itself.
KEEP_FRAMES = 4


class Teacher:
    """The reader's calibration at run time, and the frames of its recent readings.

    ``read(frame, calibration)`` is the reader (by default ``vision.reader.read_dice``);
    ``path`` is where the calibration is saved when a face is taught.
    """

    def __init__(self, path: str | Path, calibration: Calibration | None = None,
                 read: Callable[[np.ndarray, Calibration | None], Any] | None = None) -> None:
        self.path = Path(path)
        self.calibration = calibration
        self._read = read
        self._lock = threading.Lock()
        # Keyed by id(reading); the reading is kept with its frame, so its id stays its own.
        self._frames: OrderedDict[int, tuple[Any, np.ndarray]] = OrderedDict()

    def read(self, frame: np.ndarray) -> Any:
        """Read ``frame`` with the current calibration, and keep the frame for a while."""
        if self._read is None:
            from vision.reader import read_dice

            self._read = read_dice
        reading = self._read(frame, self.calibration)
        with self._lock:
            self._frames[id(reading)] = (reading, frame)
            while len(self._frames) > KEEP_FRAMES:
                self._frames.popitem(last=False)
        return reading

    def frame_of(self, reading: Any) -> np.ndarray | None:
        """The frame ``reading`` was read from, while it is still kept."""
        with self._lock:
            kept = self._frames.get(id(reading))
        return kept[1] if kept is not None and kept[0] is reading else None

    def teach(self, frame: np.ndarray, die: Mapping[str, Any], value: int) -> None:
        """Add the top face of ``die`` (as the reader reported it, in ``frame``) to the
        calibration as a picture of ``value``, and save the calibration.

        Raises ``OSError`` when the file cannot be written; then nothing changes.
        """
        from vision.pictures import teach_from_box

        face = teach_from_box(frame, die["center"], die["box"], value)
        old = self.calibration or Calibration()
        new = dataclasses.replace(old, picture_faces=old.picture_faces + (face,))
        save_calibration(new, self.path)
        self.calibration = new
