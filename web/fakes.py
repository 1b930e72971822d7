"""Small stand-ins for the camera and the reader, for tests, the screenshot and the bench.

They carry just what the table service uses: a reading is a list of dice in the shape
of ``dicetray read --json`` and a time in ms; a camera yields frames and can be thrown.
"""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np


def die(value: int | None, *, flagged: bool = False, reason: str | None = None,
        x: float = 100.0) -> dict[str, Any]:
    """A die as the reader reports it (``DieRead.to_json`` shape)."""
    return {"value": value, "center": [x, 100.0], "box": [x - 20, 80.0, x + 20, 120.0],
            "confidence": 0.5 if flagged else 0.99, "flagged": flagged,
            "reason": reason or ("low confidence" if flagged else None)}


@dataclass
class FakeReading:
    """What ``vision.reader.read_dice`` returns, reduced to what the table uses."""

    dice: list[dict[str, Any]] = field(default_factory=list)
    ms: float = 3.0


def reading(*values: int | None, flagged: Sequence[int] = ()) -> FakeReading:
    """A reading of ``values``; dice at the indices in ``flagged`` (and unread ones) are flagged.

    >>> [d["flagged"] for d in reading(3, 4, flagged=[1]).dice]
    [False, True]
    """
    return FakeReading([die(v, flagged=i in flagged or v is None, x=100.0 + 60 * i)
                        for i, v in enumerate(values)])


@dataclass
class FakeEvent:
    """A roll watcher's event."""

    kind: str
    frame_index: int
    reading: Any = None
    rolled_on: bool = False


@dataclass(frozen=True)
class TruthDie:
    """A die as it really lies (what the simulated tray knows and a person would see)."""

    value: int
    center: tuple[float, float]


@dataclass
class FakeTray:
    """The dice in the fake tray, like ``SimulatedTray.truth``."""

    truth: tuple[TruthDie, ...] = ()


class FakeCamera:
    """A frame source of tiny grey frames; ``roll()`` queues a throw for the fake watcher.

    With ``unreadable_first`` the first die of every throw is read as unknown (flagged),
    as a reader unsure of a die would report it.
    """

    name = "fake"
    message = "a fake camera for tests"

    def __init__(self, fps: float = 100.0, *, unreadable_first: bool = False) -> None:
        self.throws: "queue.Queue[tuple[int | None, ...]]" = queue.Queue()
        self.tray = FakeTray()
        self.unreadable_first = unreadable_first
        self._closed = threading.Event()
        self._period = 1.0 / fps
        self._frames = 0

    def roll(self, values: Sequence[int] | None = None, count: int | None = None) -> tuple[int, ...]:
        """Throw: the next frames carry these values (4s when not given)."""
        chosen = tuple(values) if values is not None else (4,) * (2 if count is None else count)
        self.tray.truth = tuple(TruthDie(v, (100.0 + 60 * i, 100.0)) for i, v in enumerate(chosen))
        read: tuple[int | None, ...] = chosen
        if self.unreadable_first and chosen:
            read = (None,) + chosen[1:]
        self.throws.put(read)
        return chosen

    def read(self) -> np.ndarray:
        if self._closed.wait(self._period):
            from vision.frames import SourceClosed

            raise SourceClosed("fake camera closed")
        # A grey level of sensor noise, as any real camera has: a picture repeated to the
        # bit is a stuck camera (vision.frames.CameraThread.since_new_picture).
        self._frames += 1
        frame = np.zeros((8, 8, 3), np.uint8)
        frame[0, 0, 0] = self._frames % 2
        return frame

    def close(self) -> None:
        self._closed.set()


class FakeClock:
    """A monotonic clock that moves only when a test (or a :class:`SlowCamera`) moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FakeWall:
    """A Pi's wall clock over a :class:`FakeClock`: it runs with it, and a test sets it
    (as the network's time does, a minute after a Pi starts)."""

    def __init__(self, monotonic: FakeClock, now: float) -> None:
        self.monotonic = monotonic
        self.set(now)

    def set(self, now: float) -> None:
        self.ahead = now - self.monotonic.now

    def __call__(self) -> float:
        return self.monotonic.now + self.ahead


class SlowCamera(FakeCamera):
    """A fake camera that takes ``seconds`` of ``clock`` for each frame (without the
    wait: the clock is moved as each frame is given)."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        super().__init__()
        self.clock, self.seconds = clock, seconds

    def read(self) -> np.ndarray:
        frame = super().read()
        self.clock.now += self.seconds
        return frame


class FakeWatcher:
    """Reports each throw of a :class:`FakeCamera`: ``moving``, then ``settled`` a frame later."""

    def __init__(self, camera: FakeCamera, read: Callable[[Any], Any]) -> None:
        self.camera = camera
        self._pending: tuple[int | None, ...] | None = None
        self._index = 0

    def feed(self, frame: np.ndarray) -> list[FakeEvent]:
        self._index += 1
        if self._pending is not None:
            values, self._pending = self._pending, None
            return [FakeEvent("settled", self._index, reading(*values))]
        try:
            self._pending = self.camera.throws.get_nowait()
        except queue.Empty:
            return []
        return [FakeEvent("moving", self._index)]
