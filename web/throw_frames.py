"""The camera frames of the latest throws, kept in memory and in the data folder.

A throw the reader is unsure of waits for a person, and its frame is what shows which die
is which and what a picture face is taught from; a scored throw's frame shows which die to
correct, and is remembered with the corrected values. The game itself is in the database;
the frames are kept beside it (``DATA/frames/<reading id>.jpg`` for waiting throws,
``DATA/scored-frames/`` for scored ones) so that a throw still has its picture after the
appliance restarts (a power cut, an update).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

log = logging.getLogger("dicetray.web")

# JPEG at this quality keeps pips and logos sharp for the picture and a taught face, at
# a tenth of a PNG's size (about 300 kB at 1280×960).
QUALITY = 95
# A frame being written is named so until it is whole.
PART = ".jpg-part"


class ThrowFrames:
    """The frames of the latest ``keep`` throws, by reading id.

    ``folder`` is where they are written (``None``: memory only). A frame that cannot be
    written stays in memory; a file that cannot be read is no frame. Frames left in the
    folder by an earlier run count among the latest, so a restart forgets none early.
    """

    def __init__(self, folder: str | Path | None, keep: int = 4) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.keep = keep
        self._frames: dict[int, np.ndarray] = {}
        self._ids: set[int] = set(self._on_disk())
        self._unsaved: set[int] = set()  # kept in memory, not written yet
        self._dropped: set[int] = set()  # let go, perhaps still in the folder

    def add(self, reading_id: int, frame: np.ndarray, *, save: bool = True) -> None:
        """Keep ``frame`` as the picture of reading ``reading_id``; older ones beyond
        ``keep`` are let go. With ``save`` it is written to the folder at once, else at
        the next :meth:`save` (encoding takes tens of milliseconds on a Pi)."""
        self._frames[reading_id] = frame
        self._ids.add(reading_id)
        self._unsaved.add(reading_id)
        for old in sorted(self._ids)[:-self.keep]:
            self._ids.discard(old)
            self._frames.pop(old, None)
            self._unsaved.discard(old)
            self._dropped.add(old)
        if save:
            self.save()

    def save(self) -> None:
        """Write the frames not written yet, and delete those let go, in the folder."""
        if self.folder is None or not (self._unsaved or self._dropped):
            return
        for reading_id in sorted(self._unsaved):
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                ok, jpeg = cv2.imencode(".jpg", self._frames[reading_id],
                                        [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
                if ok:
                    self._write(reading_id, jpeg.tobytes())
            except OSError as exc:
                log.warning("the picture of reading %s is kept in memory only: %s",
                            reading_id, exc)
        for old in sorted(self._dropped):
            try:
                self._path(old).unlink(missing_ok=True)
            except OSError as exc:
                log.warning("the picture of reading %s could not be deleted: %s", old, exc)
        self._unsaved.clear()
        self._dropped.clear()

    def _write(self, reading_id: int, jpeg: bytes) -> None:
        """Write a frame under a name of its own, renamed into place once whole: cut short
        (a full memory card, a power cut), a JPEG still reads, its lower part grey, and
        after a restart that picture was shown, and taught from when a die was corrected."""
        part = self._path(reading_id).with_suffix(PART)
        try:
            part.write_bytes(jpeg)
            os.replace(part, self._path(reading_id))
        except OSError:
            part.unlink(missing_ok=True)
            raise

    def drop_others(self, ours: Callable[[int], bool]) -> None:
        """Let go of the frames of readings that are not ``ours`` (deleted from the
        folder): a database moved away to start afresh, or the copy gone back to, counts
        its readings from where it stands, and a frame the other one left would be taken
        for a new reading's picture, or push that picture out as older."""
        for reading_id in sorted(i for i in self._ids if not ours(i)):
            self._ids.discard(reading_id)
            self._frames.pop(reading_id, None)
            self._unsaved.discard(reading_id)
            self._dropped.add(reading_id)
        self.save()

    def _on_disk(self) -> list[int]:
        """The reading ids with a frame in the folder."""
        if self.folder is None or not self.folder.is_dir():
            return []
        for part in self.folder.glob(f"*{PART}"):   # a write a power cut cut short
            part.unlink(missing_ok=True)
        return [int(p.stem) for p in self.folder.glob("*.jpg") if p.stem.isdigit()]

    def get(self, reading_id: int) -> np.ndarray | None:
        """The frame of reading ``reading_id``, from memory or else from the folder."""
        if reading_id not in self._ids:
            return None
        frame = self._frames.get(reading_id)
        if frame is None and self.folder is not None:
            read: Any = cv2.imread(str(self._path(reading_id)), cv2.IMREAD_COLOR)
            if read is None:
                log.warning("the picture of reading %s cannot be read: %s", reading_id,
                            self._path(reading_id))
                self._ids.discard(reading_id)
                return None
            frame = self._frames[reading_id] = np.asarray(read)
        return frame

    def __contains__(self, reading_id: object) -> bool:
        # Asked on every publish: no look at the folder.
        return reading_id in self._ids

    def _path(self, reading_id: int) -> Path:
        assert self.folder is not None
        return self.folder / f"{reading_id}.jpg"
