"""A USB (UVC) webcam, through OpenCV's video capture, as a frame source.

As with the Pi camera, automatic exposure and white balance settle for a moment and
are then locked where they are, so pip contrast stays the same from throw to throw.
Webcams differ in which of those controls they obey; the source says in its
``message`` what it could lock, and reads on either way. If the light later grows too
strong for the lock (vision.exposure.OverexposureWatch), it is measured again.
"""
from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from vision.exposure import OverexposureWatch
from vision.frames import SourceClosed

__all__ = ["MAX_FAILED_READS", "UsbCamera", "UsbCameraUnavailable"]

log = logging.getLogger(__name__)

MAX_FAILED_READS = 30
"""Reads in a row that may fail (about two seconds at 15 fps) before the camera is
taken to be gone (unplugged, or taken by another program)."""

CLOSE_WAIT_S = 2.0
"""How long ``close`` waits for a read in progress."""

# V4L2's exposure modes as OpenCV's V4L2 backend passes them through.
_V4L2_MANUAL, _V4L2_AUTO = 1.0, 3.0

MJPG = cv2.VideoWriter.fourcc(*"MJPG")
"""Motion JPEG, the pixel format asked for first (see :class:`UsbCamera`)."""


class UsbCameraUnavailable(ValueError):
    """The USB camera cannot be opened or gives no picture."""


class UsbCameraError(RuntimeError):
    """The USB camera stopped delivering frames while in use."""


# OpenCV's own level for errors alone (its LOG_LEVEL_ERROR), in every version.
OPENCV_ERRORS_ONLY = 2


def _opencv_log_level() -> tuple[Callable[[], int], Callable[[int], Any]] | None:
    """OpenCV's log level getter and setter: in cv2.utils.logging from OpenCV 5, at the
    top of cv2 in 4.x (the build that Raspberry Pi OS Bookworm's numpy 1.24 gets)."""
    where = getattr(cv2.utils, "logging", None)
    if where is None and hasattr(cv2, "setLogLevel") and hasattr(cv2, "getLogLevel"):
        where = cv2
    if where is None:
        return None
    return where.getLogLevel, where.setLogLevel


def _open_capture(index: int) -> Any:
    # V4L2 directly on Linux: it is what a Pi has, and it skips GStreamer's start-up.
    backend = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
    # A missing device is an answer, not a warning: --camera auto probes several.
    log_level = _opencv_log_level()
    if log_level is None:
        return cv2.VideoCapture(index, backend)
    get_level, set_level = log_level
    level = get_level()
    set_level(OPENCV_ERRORS_ONLY)
    try:
        return cv2.VideoCapture(index, backend)
    finally:
        set_level(level)


class UsbCamera:
    """Frames from USB camera ``index`` (``/dev/video<index>``), BGR uint8.

    ``size`` is asked for, in motion JPEG: over USB 2 most webcams send 1280×960
    uncompressed at a few frames a second or not at all, compressed at 15-30 (OpenCV
    decodes it). The camera may choose another size or format; ``size`` afterwards
    says what it gives, and ``message`` names the format. ``capture`` opens the
    device (the tests pass a fake of OpenCV's ``VideoCapture``).
    """

    name = "usb"

    def __init__(self, index: int, *, size: tuple[int, int] = (1280, 960), fps: float = 15.0,
                 settle_s: float = 1.5,
                 capture: Callable[[int], Any] = _open_capture) -> None:
        self.index = index
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._released = False
        self._settle_s = settle_s
        self._overexposed = OverexposureWatch(fps)
        self.measured_again = 0
        """How often overexposed frames made the camera measure the light again."""
        try:
            self._cap = capture(index)
        except Exception as exc:  # noqa: BLE001 - OpenCV raises cv2.error, no ValueError
            # Said as the camera being unavailable, so that "auto" goes on to the next
            # camera or the simulated tray instead of the service crashing at start.
            raise UsbCameraUnavailable(f"/dev/video{index} would not open: {exc}") from exc
        if not self._cap.isOpened():
            self._cap.release()
            raise UsbCameraUnavailable(f"no camera at /dev/video{index}")
        try:
            first = self._start(size, fps, settle_s)
        except Exception as exc:  # noqa: BLE001 - as above: a broken driver's cv2.error
            self._cap.release()
            raise UsbCameraUnavailable(f"/dev/video{index} would not start: {exc}") from exc
        if first is None:
            self._cap.release()
            raise UsbCameraUnavailable(f"/dev/video{index} opens but gives no picture")
        self.size = (first.shape[1], first.shape[0])
        what = " and ".join(self.locked) if self.locked else "nothing"
        shown = " ".join(filter(None, (f"{self.size[0]}x{self.size[1]}",
                                       _format_name(self._cap.get(cv2.CAP_PROP_FOURCC)))))
        self.message = (f"USB camera {index}, {shown}; locked {what}"
                        + ("" if len(self.locked) == 2 else
                           " (this camera keeps adjusting the rest itself)"))
        """Which source this is, for the log and the control page."""

    def _start(self, size: tuple[int, int], fps: float, settle_s: float) -> np.ndarray | None:
        """Ask for ``size`` at ``fps``, let exposure settle and lock it; the first frame
        (None when the camera gives none)."""
        # The format first: V4L2 fits the size to the formats the camera offers.
        self._cap.set(cv2.CAP_PROP_FOURCC, float(MJPG))
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, float(size[0]))
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, float(size[1]))
        self._cap.set(cv2.CAP_PROP_FPS, float(fps))
        # One buffered frame: a full queue of old frames would make the picture lag.
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1.0)
        first = self._grab(settle_s)
        if first is None:
            return None
        # The rate the camera took (some give 30 whatever is asked): the roll watcher
        # times its waits by it.
        got = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = got if 1.0 <= got <= 240.0 else float(fps)
        self.locked = self._lock_exposure()
        return first

    def _grab(self, settle_s: float) -> np.ndarray | None:
        """Read frames for ``settle_s`` seconds (exposure settles); the last, or None."""
        start, frame = time.monotonic(), None
        failed = 0
        while failed < MAX_FAILED_READS:
            ok, got = self._cap.read()
            if ok and got is not None:
                frame, failed = got, 0
                if time.monotonic() - start >= settle_s:
                    break
            else:
                failed += 1
        return None if frame is None else _bgr(frame)

    def _measure_again(self) -> None:
        """The light grew too strong for the locked exposure: let it adjust, and lock again."""
        self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, _V4L2_AUTO)
        if self._cap.get(cv2.CAP_PROP_AUTO_EXPOSURE) != _V4L2_AUTO:
            self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.75)  # builds that map V4L2's modes
        self._cap.set(cv2.CAP_PROP_AUTO_WB, 1.0)
        self._grab(self._settle_s)
        self.locked = self._lock_exposure()
        self.measured_again += 1
        log.info("usb:%d: the tray was overexposed; locked again: %s", self.index, self.locked)

    def _lock_exposure(self) -> list[str]:
        """Fix exposure and white balance at what auto chose; the names of those that held."""
        locked = []
        exposure = self._cap.get(cv2.CAP_PROP_EXPOSURE)
        # OpenCV builds differ on the value meaning "manual": V4L2's own 1, or 0.25.
        for manual in (_V4L2_MANUAL, 0.25):
            if self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, manual) and \
                    self._cap.get(cv2.CAP_PROP_AUTO_EXPOSURE) == manual:
                self._cap.set(cv2.CAP_PROP_EXPOSURE, exposure)
                locked.append("exposure")
                break
        temperature = self._cap.get(cv2.CAP_PROP_WB_TEMPERATURE)
        if self._cap.set(cv2.CAP_PROP_AUTO_WB, 0.0) and self._cap.get(cv2.CAP_PROP_AUTO_WB) == 0.0:
            if temperature > 0:
                self._cap.set(cv2.CAP_PROP_WB_TEMPERATURE, temperature)
            locked.append("white balance")
        return locked

    def read(self) -> np.ndarray:
        """The next frame; raises :class:`UsbCameraError` when the camera has gone."""
        for _ in range(MAX_FAILED_READS):
            # OpenCV's capture is not thread-safe: close() waits for a read in progress.
            with self._lock:
                if self._closed.is_set():
                    # Closed while a read hung past CLOSE_WAIT_S: release the device now
                    # it is free, so that opening the camera again can take it.
                    self._release()
                    raise SourceClosed(f"usb:{self.index} is closed")
                ok, frame = self._cap.read()
                if self._closed.is_set():
                    # Closed during this read (hung past CLOSE_WAIT_S): its frame is not
                    # wanted, and the device is let go now, as no later read may come.
                    self._release()
                    raise SourceClosed(f"usb:{self.index} is closed")
                if ok and frame is not None:
                    frame = _bgr(frame)
                    if self._overexposed.due(frame):
                        self._measure_again()
                    return frame
        raise UsbCameraError(f"usb:{self.index} stopped giving pictures (unplugged?)")

    def close(self) -> None:
        """Release the device; later reads raise :class:`SourceClosed`."""
        self._closed.set()
        # A read blocks at most a frame or so; a camera hung in one is not released
        # under it, but by that read when it returns.
        if self._lock.acquire(timeout=CLOSE_WAIT_S):
            try:
                self._release()
            finally:
                self._lock.release()

    def _release(self) -> None:
        """Release the capture once; the caller holds the lock."""
        if not self._released:
            self._released = True
            self._cap.release()


def _format_name(fourcc: float) -> str:
    """``MJPG`` for the four-character code OpenCV reports; empty if it reports none."""
    code = int(fourcc)
    name = "".join(chr((code >> (8 * k)) & 0xFF) for k in range(4))
    return name if code and name.isprintable() and name.strip() else ""


def _bgr(frame: np.ndarray) -> np.ndarray:
    """A 3-channel BGR frame from what a webcam gives (grey, BGR or BGRA)."""
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame
