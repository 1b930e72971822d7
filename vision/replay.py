"""Recorded frames as a camera: a video file, one photo, or a folder of photos.

A replay lets the whole appliance run on a recording of a real tray (to try the reader
on one's own dice before the camera is mounted, or to show a bug). It plays in real
time: a video at its own frame rate, each photo of a folder for ``hold_s`` seconds (a
throw that lands, lies still, and is replaced by the next). When the recording ends,
the last frame stays, as a camera over a still tray would keep showing it.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.frames import FramePacer, SourceClosed
from vision.photos import read_photo

__all__ = ["IMAGE_SUFFIXES", "Replay", "ReplayUnavailable"]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
"""Files of a folder that are played as photos, in name order."""

log = logging.getLogger(__name__)


class ReplayUnavailable(ValueError):
    """The path is missing, empty, or not a picture or video OpenCV can read."""


class Replay:
    """Frames from ``path`` (video, photo or folder of photos), BGR uint8.

    ``realtime=False`` gives frames as fast as they are asked for (tests).

    >>> Replay("no/such/tray.mp4")
    Traceback (most recent call last):
    ...
    vision.replay.ReplayUnavailable: no/such/tray.mp4: no such file or folder
    """

    name = "replay"
    repeats_pictures = True
    """A photo, or a video that ended, gives the same picture again: no stuck camera."""

    def __init__(self, path: str | Path, *, fps: float = 15.0, hold_s: float = 3.0,
                 realtime: bool = True) -> None:
        self.path = Path(path)
        self._closed = threading.Event()
        self._video: cv2.VideoCapture | None = None
        if not self.path.exists():
            raise ReplayUnavailable(f"{path}: no such file or folder")
        if self.path.is_dir():
            # By content too: a Mac leaves a "._" file beside each photo it copies to a
            # USB stick, named like the photo.
            photos = sorted(p for p in self.path.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and cv2.haveImageReader(str(p)))
            if not photos:
                raise ReplayUnavailable(
                    f"{path}: no photos in this folder ({', '.join(IMAGE_SUFFIXES)})")
            self._frames: Iterator[np.ndarray] = self._photos(photos, max(1, round(hold_s * fps)))
            what = f"{len(photos)} photos, {hold_s:g} s each"
        elif cv2.haveImageReader(str(self.path)):
            still = _imread(self.path)
            self._frames = self._still(still)
            what = f"one photo, {still.shape[1]}x{still.shape[0]}"
        else:
            self._video = cv2.VideoCapture(str(self.path))
            # A file a video reader opens may still hold no frame (a text file named
            # .jpg opens as an image sequence): the first frame is read now, to say so.
            if not self._video.isOpened():
                raise ReplayUnavailable(f"{path}: not a photo or a video OpenCV can read")
            ok, first = self._video.read()
            if not ok:
                self._video.release()
                raise ReplayUnavailable(f"{path}: not a photo or a video OpenCV can read "
                                        "(it opens, but holds no frames)")
            got = self._video.get(cv2.CAP_PROP_FPS)
            fps = got if 1.0 <= got <= 240.0 else fps  # some containers report 0 or nonsense
            self._frames = self._played(self._video, first)
            what = f"a video at {fps:g} fps"
        self.fps = fps
        self.realtime = realtime
        self._pacer = FramePacer(fps, self._closed)
        self._last: np.ndarray | None = None
        self.message = f"replaying {path} ({what})"
        """Which source this is, for the log and the control page."""

    @staticmethod
    def _still(frame: np.ndarray) -> Iterator[np.ndarray]:
        while True:
            yield frame

    @staticmethod
    def _photos(paths: list[Path], repeat: int) -> Iterator[np.ndarray]:
        for p in paths:
            frame = read_photo(p)
            if frame is None:
                # A photo half copied (its header is right, the rest is not): one bad
                # file must not stop the replay of the others.
                log.warning("replay: %s is not a photo OpenCV can read; skipped", p)
                continue
            for _ in range(repeat):
                yield frame

    @staticmethod
    def _played(video: cv2.VideoCapture, first: np.ndarray) -> Iterator[np.ndarray]:
        yield first
        while True:
            ok, frame = video.read()
            if not ok:
                return
            yield frame

    def read(self) -> np.ndarray:
        """The next frame; in real time, waits until it is due."""
        if self.realtime:
            self._pacer.wait()  # returns at once when closed, which is checked next
        if self._closed.is_set():
            if self._video is not None:
                self._video.release()  # here, on the reading thread: captures are not thread-safe
            raise SourceClosed(f"the replay of {self.path} is closed")
        frame = next(self._frames, None)
        if frame is None:  # the recording ended: the tray stays as it was last seen
            if self._last is None:
                # Not SourceClosed: that is a clean stop, and the reason would be lost.
                raise ReplayUnavailable(f"{self.path} holds no frames")
            return self._last
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        self._last = frame
        return frame

    def close(self) -> None:
        """Stop the replay; later reads raise :class:`SourceClosed`."""
        self._closed.set()


def _imread(path: Path) -> np.ndarray:
    frame = read_photo(path)
    if frame is None:
        raise ReplayUnavailable(f"{path}: not a photo OpenCV can read (or damaged or cut short)")
    return frame
