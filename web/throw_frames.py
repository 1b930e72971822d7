"""The camera frames of the latest waiting throws, kept in memory and in the data folder.

A throw the reader is unsure of waits for a person, and its frame is what shows which die
is which and what a picture face is taught from. The game itself is in the database; the
frame is kept beside it (``DATA/frames/<reading id>.jpg``) so that a waiting throw still
has its picture after the appliance restarts (a power cut, an update).
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import cv2
import numpy as np

log = logging.getLogger("dicetray.web")

# JPEG at this quality keeps pips and logos sharp for the picture and a taught face, at
# a tenth of a PNG's size (about 300 kB at 1280×960).
QUALITY = 95


class ThrowFrames:
    """The frames of the latest ``keep`` throws, by reading id.

    ``folder`` is where they are written (``None``: memory only). A frame that cannot be
    written stays in memory; a file that cannot be read is no frame.
    """

    def __init__(self, folder: str | Path | None, keep: int = 4) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.keep = keep
        self._frames: dict[int, np.ndarray] = {}

    def add(self, reading_id: int, frame: np.ndarray) -> None:
        """Keep ``frame`` as the picture of reading ``reading_id``; older ones beyond
        ``keep`` are let go, from memory and from the folder."""
        self._frames[reading_id] = frame
        for old in sorted(self._frames)[:-self.keep]:
            del self._frames[old]
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
            if ok:
                self._path(reading_id).write_bytes(jpeg.tobytes())
            for path in self.folder.glob("*.jpg"):
                if path.stem.isdigit() and int(path.stem) not in self._frames:
                    path.unlink()
        except OSError as exc:
            log.warning("the picture of reading %s is kept in memory only: %s", reading_id, exc)

    def get(self, reading_id: int) -> np.ndarray | None:
        """The frame of reading ``reading_id``, from memory or else from the folder."""
        frame = self._frames.get(reading_id)
        if frame is None and self.folder is not None and self._path(reading_id).is_file():
            read: Any = cv2.imread(str(self._path(reading_id)), cv2.IMREAD_COLOR)
            if read is not None:
                frame = self._frames[reading_id] = np.asarray(read)
        return frame

    def __contains__(self, reading_id: object) -> bool:
        return isinstance(reading_id, int) and (
            reading_id in self._frames
            or (self.folder is not None and self._path(reading_id).is_file()))

    def _path(self, reading_id: int) -> Path:
        assert self.folder is not None
        return self.folder / f"{reading_id}.jpg"
