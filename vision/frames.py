"""Frame sources and the hand-off from a camera thread to the rest of the appliance.

A camera produces frames at its own pace and must never wait for a slow consumer, or
frames pile up in the driver and the picture lags. So, as in the picamera2 examples, a
camera thread only ever *publishes* the newest frame into a :class:`LatestFrame`;
consumers (the roll watcher, the MJPEG preview) wait for a frame newer than the one they
last saw, and simply skip frames they were too slow for.
"""
from __future__ import annotations

import statistics
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar, runtime_checkable

import numpy as np

from vision.sim import SimulatedTray

__all__ = ["CameraThread", "FramePacer", "FrameSource", "Latest", "LatestFrame", "SimCamera", "SourceClosed",
           "picture_sample"]

T = TypeVar("T")


NO_PICTURE_PAUSE_S = 0.02  # a source's read gave no picture: wait this long to read again

# Every this many rows and columns of a frame are compared with the frame before, to tell
# a camera that keeps giving the same picture (a hung webcam, a stuck driver buffer). A
# real sensor's noise changes every pixel of every frame, so a sample that stays the same
# to the bit means the picture stopped changing; at 1280x960 the sample is 80x60 pixels,
# a few tens of microseconds a frame (the whole frame would cost ten times that).
SAME_PICTURE_STEP = 16

# A picture black to the bit (every sampled pixel at this level or under) says nothing
# of a camera being stuck: a room with the lights off, or a lens covered, gives the same
# black frame after frame where the sensor's noise is cut off below black.
DARK_PICTURE = 8

# How many of the latest gaps between frames make the camera's pace (their median): a
# few, so that a camera that slows down is seen to soon, and one frame late (the light
# measured again) not at all.
PACE_FRAMES = 5


def picture_sample(frame: np.ndarray) -> np.ndarray:
    """The pixels of ``frame`` compared to tell whether its picture is new (a copy)."""
    return np.ascontiguousarray(frame[::SAME_PICTURE_STEP, ::SAME_PICTURE_STEP])


class SourceClosed(RuntimeError):
    """Raised by ``read()`` on a source that has been closed."""


@runtime_checkable
class FrameSource(Protocol):
    """Anything that yields camera frames: BGR uint8, height x width x 3.

    A source whose frames may repeat a picture to the bit as a matter of course (a replay
    of a photo, or of a video that ended) says so with a true ``repeats_pictures``; any
    other that does is taken to be stuck (:meth:`CameraThread.since_new_picture`).
    """

    name: str
    message: str
    """Which source this is and why it was chosen, for the log and the control page."""

    def read(self) -> np.ndarray:
        """Block until the next frame and return it."""
        ...

    def close(self) -> None:
        """Release the device; later reads raise :class:`SourceClosed`."""
        ...


class Latest(Generic[T]):
    """The newest value, numbered, for any number of consumers that wait for a newer one.

    ``publish`` never blocks beyond a short lock; consumers wait on a condition variable
    and skip values they were too slow for. Numbers only rise: by default each value
    takes the next one; a value given an explicit number below the newest is ignored.

    >>> box: Latest[str] = Latest()
    >>> box.publish("a"), box.publish("b"), box.wait_newer(1, timeout=0.1)
    (1, 2, (2, 'b'))
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._number = 0
        self._value: T | None = None
        self._closed = False

    def publish(self, value: T, number: int | None = None) -> int:
        """Make ``value`` the newest and wake every waiting consumer; returns its number.

        Consumers get this very object: they must not change it.
        """
        with self._cond:
            if number is None:
                number = self._number + 1
            elif number < self._number:
                return self._number
            self._number, self._value = number, value
            self._cond.notify_all()
            return number

    def latest(self) -> tuple[int, T] | None:
        """The newest ``(number, value)``, or None before the first."""
        with self._cond:
            if self._value is None:
                return None
            return self._number, self._value

    def wait_newer(self, after: int, timeout: float) -> tuple[int, T] | None:
        """Wait up to ``timeout`` s for a value numbered above ``after``.

        Returns the newest ``(number, value)`` (values in between are skipped), or None
        on timeout or once :meth:`close` was called.
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._number <= after or self._value is None:
                if self._closed:
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self._number, self._value

    def close(self) -> None:
        """Wake every waiting consumer with None: no more values will come."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        with self._cond:
            return self._closed


class LatestFrame(Latest[np.ndarray]):
    """The newest camera frame. Frames are numbered from 1, so ``wait_newer(0, ...)``
    returns the first frame published."""


class CameraThread:
    """Runs a :class:`FrameSource` in a daemon thread, publishing every frame.

    The thread reads as fast as the source delivers (the source paces itself, as a real
    camera does). If the source fails, the thread stops, ``error`` holds the exception
    and the :class:`LatestFrame` is closed so consumers notice instead of waiting. A
    source that stops delivering without failing (a hung webcam) is noticed by
    :meth:`since_last_frame` growing; one that goes on giving the same picture (a stuck
    driver buffer) by :meth:`since_new_picture` growing. ``clock`` tells the time for both
    (tests pass a fake).
    """

    def __init__(self, source: FrameSource, latest: LatestFrame | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.latest = latest if latest is not None else LatestFrame()
        self.error: BaseException | None = None
        self._clock = clock
        self._last_frame_at = self._last_new_at = clock()
        self._last_sample: np.ndarray | None = None
        self._gaps: deque[float] = deque(maxlen=PACE_FRAMES)
        self._had_frame = False
        # A recording may show one picture for long; a camera's sensor never does.
        self._repeats = bool(getattr(source, "repeats_pictures", False))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> CameraThread:
        """Start reading; returns self so ``CameraThread(src).start()`` reads naturally."""
        if self._thread is not None:
            raise RuntimeError("camera thread already started")
        self._last_frame_at = self._last_new_at = self._clock()
        self._thread = threading.Thread(target=self._run, name=f"camera-{self.source.name}", daemon=True)
        self._thread.start()
        return self

    def since_last_frame(self) -> float:
        """Seconds since the source last gave a frame (since the start, before the first)."""
        return self._clock() - self._last_frame_at

    def since_new_picture(self) -> float:
        """Seconds since the source last gave a frame unlike the one before it (since the
        start, before the first): it grows while the source gives no frame, and while it
        gives the same picture again and again."""
        return self._clock() - self._last_new_at

    def seconds_per_frame(self) -> float | None:
        """How long the source has taken for a frame, over its latest few (None before
        it has given two): a camera slowed to a frame every few seconds reads throws late.

        Their median, not their mean: one frame held for the light to be measured again
        is no change of pace (the roll watcher times its waits by this)."""
        return statistics.median(self._gaps) if self._gaps else None

    def _is_new_picture(self, frame: np.ndarray) -> bool:
        """Whether ``frame`` differs from the frame before (always, for a source that
        repeats pictures as a matter of course, and for a black one: see DARK_PICTURE)."""
        if self._repeats:
            return True
        sample = picture_sample(frame)
        if sample.size and int(sample.max()) <= DARK_PICTURE:
            self._last_sample = None
            return True
        same = self._last_sample is not None and np.array_equal(sample, self._last_sample)
        self._last_sample = sample
        return not same

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                frame = self.source.read()
                if self._stop.is_set():
                    break
                if frame is None or getattr(frame, "size", 0) == 0:
                    # A grab that failed without raising gives no picture: it must not
                    # count as one, or a camera that gives none would look well forever
                    # instead of stalled (and be opened again). The pause keeps a source
                    # that fails at once from spinning a core.
                    self._stop.wait(NO_PICTURE_PAUSE_S)
                    continue
                # Taken when the frame arrives, not when a consumer gets to it: a busy
                # reader must not make a camera look stalled.
                now = self._clock()
                if self._had_frame:     # the wait for the first is the camera starting
                    self._gaps.append(now - self._last_frame_at)
                self._had_frame = True
                self._last_frame_at = now
                if self._is_new_picture(frame):
                    self._last_new_at = self._last_frame_at
                self.latest.publish(frame)
        except SourceClosed:
            pass
        except Exception as exc:  # noqa: BLE001 - reported through .error, not lost in a thread
            self.error = exc
        finally:
            self.latest.close()

    @property
    def running(self) -> bool:
        """True while the thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and close the source (which unblocks a pending read)."""
        self._stop.set()
        self.source.close()
        if self._thread is not None:
            self._thread.join(timeout)


class FramePacer:
    """Keeps a recorded or simulated stream to ``fps`` frames a second in real time, as a
    camera is: :meth:`wait` returns when the next frame is due. A consumer that fell
    behind gets the next frame at once, without a burst of frames to catch up.

    ``closed`` cuts a wait short; :meth:`wait` then returns False.
    """

    def __init__(self, fps: float, closed: threading.Event) -> None:
        self.fps = fps
        self._closed = closed
        self._next_due = 0.0

    def wait(self) -> bool:
        """Wait until the next frame is due; False if ``closed`` was set meanwhile."""
        now = time.monotonic()
        period = 1.0 / self.fps
        if self._next_due <= now - period:
            self._next_due = now  # fell behind (or the first frame)
        if self._closed.wait(max(0.0, self._next_due - now)):
            return False
        self._next_due += period
        return True


class SimCamera:
    """The simulated tray as a camera: frames at ``fps`` in real time, and throws on request.

    ``realtime=False`` returns frames as fast as they render, for tests. ``roll`` is
    thread-safe, so the control page's "roll for me" and the demo timer can call it while
    the camera thread reads.
    """

    def __init__(
        self,
        seed: int = 0,
        size: tuple[int, int] = (1280, 960),
        dice: int = 2,
        fps: float = 15.0,
        *,
        realtime: bool = True,
        tray: SimulatedTray | None = None,
    ) -> None:
        self.tray = tray if tray is not None else SimulatedTray(seed=seed, size=size, dice=dice, fps=fps)
        self.name = "sim"
        self.message = "simulated tray"
        """Which source this is and why it was chosen, for the log and the control page."""
        self.realtime = realtime
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._pacer = FramePacer(self.tray.fps, self._closed)

    @property
    def fps(self) -> float:
        """Frames per second of the stream."""
        return self.tray.fps

    def roll(self, values: Sequence[int] | None = None, count: int | None = None) -> tuple[int, ...]:
        """Throw the dice (values drawn from the seeded generator when None)."""
        with self._lock:
            return self.tray.roll(values, count)

    def read(self) -> np.ndarray:
        """The next frame; in real time, waits until it is due."""
        if self._closed.is_set():
            raise SourceClosed("sim camera is closed")
        if self.realtime and not self._pacer.wait():
            raise SourceClosed("sim camera is closed")
        with self._lock:
            return self.tray.next_frame()

    def close(self) -> None:
        """Stop the stream; a read in progress or later raises :class:`SourceClosed`."""
        self._closed.set()
