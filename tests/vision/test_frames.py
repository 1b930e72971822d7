"""Frame hand-off: consumers see newer frames, the camera thread never waits for them."""
from __future__ import annotations

import queue
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.frames import CameraThread, LatestFrame, SimCamera, SourceClosed, picture_sample


def _frame(k: int) -> np.ndarray:
    return np.full((4, 4, 3), k % 256, np.uint8)


def test_wait_newer_returns_the_newest_and_times_out() -> None:
    latest = LatestFrame()
    assert latest.latest() is None
    assert latest.wait_newer(0, timeout=0.01) is None
    latest.publish(_frame(1))
    latest.publish(_frame(2))
    got = latest.wait_newer(0, timeout=0.1)
    assert got is not None and got[0] == 2 and got[1][0, 0, 0] == 2  # skipped frame 1
    assert latest.wait_newer(2, timeout=0.02) is None
    assert latest.latest() is not None and latest.latest()[0] == 2  # type: ignore[index]


def test_waiting_consumer_wakes_on_publish() -> None:
    latest = LatestFrame()
    results: list[int] = []

    def consume() -> None:
        got = latest.wait_newer(0, timeout=2.0)
        results.append(-1 if got is None else got[0])

    thread = threading.Thread(target=consume)
    thread.start()
    time.sleep(0.05)
    latest.publish(_frame(7))
    thread.join(1.0)
    assert results == [1]


def test_publisher_never_blocks_on_slow_or_absent_consumers() -> None:
    latest = LatestFrame()
    stuck = threading.Event()

    def slow_consumer() -> None:
        seen = 0
        while not stuck.is_set():
            got = latest.wait_newer(seen, timeout=0.5)
            if got is None:
                return
            seen = got[0]
            time.sleep(0.05)  # much slower than the publisher

    threads = [threading.Thread(target=slow_consumer) for _ in range(3)]
    for t in threads:
        t.start()
    start = time.perf_counter()
    for k in range(2000):
        latest.publish(_frame(k))
    elapsed = time.perf_counter() - start
    stuck.set()
    latest.close()
    for t in threads:
        t.join(1.0)
    assert elapsed < 0.5, f"2000 publishes took {elapsed:.3f} s: the publisher waited"
    assert latest.latest() is not None and latest.latest()[0] == 2000  # type: ignore[index]


def test_close_wakes_waiters_with_none() -> None:
    latest = LatestFrame()
    out: list[object] = []
    thread = threading.Thread(target=lambda: out.append(latest.wait_newer(0, timeout=5.0)))
    thread.start()
    time.sleep(0.05)
    latest.close()
    thread.join(1.0)
    assert out == [None] and latest.closed


def test_camera_thread_publishes_sim_frames_and_roll_is_thread_safe() -> None:
    cam = SimCamera(seed=4, size=(160, 120), fps=200.0)
    cam_thread = CameraThread(cam).start()
    try:
        got = cam_thread.latest.wait_newer(0, timeout=2.0)
        assert got is not None and got[1].shape == (120, 160, 3) and got[1].dtype == np.uint8
        assert cam.roll([3, 3]) == (3, 3)
        seen = got[0]
        newer = cam_thread.latest.wait_newer(seen, timeout=2.0)
        assert newer is not None and newer[0] > seen
    finally:
        cam_thread.stop()
    assert not cam_thread.running and cam_thread.error is None
    assert cam_thread.latest.closed
    with pytest.raises(SourceClosed):
        cam.read()


def test_sim_camera_paces_real_time_unless_told_not_to() -> None:
    paced = SimCamera(seed=1, size=(160, 120), fps=50.0)
    start = time.perf_counter()
    for _ in range(6):
        paced.read()
    assert time.perf_counter() - start >= 5 / 50 * 0.9
    fast = SimCamera(seed=1, size=(160, 120), fps=1.0, realtime=False)
    start = time.perf_counter()
    for _ in range(6):
        fast.read()
    assert time.perf_counter() - start < 1.0


def test_camera_thread_reports_a_failing_source() -> None:
    class Broken:
        name = "broken"

        def read(self) -> np.ndarray:
            raise OSError("device unplugged")

        def close(self) -> None:
            pass

    cam_thread = CameraThread(Broken()).start()
    assert cam_thread.latest.wait_newer(0, timeout=2.0) is None
    cam_thread.stop()
    assert isinstance(cam_thread.error, OSError)


class _QueuedSource:
    """Gives the frames a test puts in ``frames``, and nothing meanwhile (as a hung camera)."""

    name = "queued"
    message = "frames put by the test"

    def __init__(self) -> None:
        self.frames: queue.Queue[np.ndarray] = queue.Queue()
        self._closed = threading.Event()

    def read(self) -> np.ndarray:
        while not self._closed.is_set():
            try:
                return self.frames.get(timeout=0.05)
            except queue.Empty:
                pass
        raise SourceClosed("queued source closed")

    def close(self) -> None:
        self._closed.set()


def test_camera_thread_tells_how_long_the_source_has_given_no_frame() -> None:
    now = [100.0]
    source = _QueuedSource()
    cam_thread = CameraThread(source, clock=lambda: now[0]).start()
    try:
        now[0] += 7.0
        assert cam_thread.since_last_frame() == 7.0  # none yet: counted from the start
        source.frames.put(np.zeros((4, 4, 3), np.uint8))
        assert cam_thread.latest.wait_newer(0, timeout=2.0) is not None
        assert cam_thread.since_last_frame() == 0.0
        now[0] += 3.0
        assert cam_thread.since_last_frame() == 3.0
        assert cam_thread.running
    finally:
        cam_thread.stop()


def test_a_source_giving_no_picture_looks_stalled_not_healthy() -> None:
    # A source that returns None or an empty array instead of raising (a third-party
    # camera whose grab failed) gives no picture: the table must see it stall and open
    # the camera again, not wait forever on a camera that looks well.
    now = [100.0]
    source = _QueuedSource()
    cam_thread = CameraThread(source, clock=lambda: now[0]).start()
    try:
        source.frames.put(np.zeros((4, 4, 3), np.uint8))
        got = cam_thread.latest.wait_newer(0, timeout=2.0)
        assert got is not None
        now[0] += 5.0
        for nothing in (None, np.zeros((0, 0, 3), np.uint8), None):
            source.frames.put(nothing)  # type: ignore[arg-type]
        deadline = time.monotonic() + 2.0
        while not source.frames.empty() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)  # the last one taken is handled
        assert cam_thread.since_last_frame() == 5.0
        assert cam_thread.latest.wait_newer(got[0], timeout=0.1) is None
        assert cam_thread.running
    finally:
        cam_thread.stop()


def test_a_source_giving_the_same_picture_again_gives_no_new_picture() -> None:
    # A hung webcam whose driver hands out its last frame again: frames come, the picture
    # does not change, and no throw is ever seen.
    now = [100.0]
    source = _QueuedSource()
    cam_thread = CameraThread(source, clock=lambda: now[0]).start()
    try:
        picture = np.full((48, 64, 3), 90, np.uint8)
        source.frames.put(picture)
        seen = cam_thread.latest.wait_newer(0, timeout=2.0)
        assert seen is not None
        now[0] += 7.0
        source.frames.put(picture.copy())                  # the same picture, to the bit
        seen = cam_thread.latest.wait_newer(seen[0], timeout=2.0)
        assert seen is not None
        assert cam_thread.since_last_frame() == 0.0 and cam_thread.since_new_picture() == 7.0
        grain = picture.copy()
        grain[0, 0, 0] += 1                                # a grey level of sensor noise
        source.frames.put(grain)
        assert cam_thread.latest.wait_newer(seen[0], timeout=2.0) is not None
        assert cam_thread.since_new_picture() == 0.0
    finally:
        cam_thread.stop()


def _handed_on(source: "_QueuedSource", cam_thread: CameraThread, frame: np.ndarray,
               seen: int) -> int:
    """Give the camera ``frame`` and wait until its thread hands it on: its number."""
    source.frames.put(frame)
    got = cam_thread.latest.wait_newer(seen, timeout=2.0)
    assert got is not None
    return got[0]


def test_one_frame_late_does_not_change_the_cameras_pace() -> None:
    # A webcam measuring the light again holds one frame for 1.5 s: its pace, which times
    # the roll watcher's waits, stayed a frame every 0.35 s for the next four frames, and a
    # throw made then was waited on as at three frames a second.
    now = [100.0]
    source = _QueuedSource()
    cam_thread = CameraThread(source, clock=lambda: now[0]).start()
    try:
        seen = 0
        for k, gap in enumerate([0.0, 0.0625, 0.0625, 1.5, 0.0625, 0.0625, 0.0625]):
            now[0] += gap
            seen = _handed_on(source, cam_thread, _frame(k), seen)
        assert cam_thread.seconds_per_frame() == 0.0625
        for k in range(5):                       # slowed down for good: it follows
            now[0] += 3.0
            seen = _handed_on(source, cam_thread, _frame(10 + k), seen)
        assert cam_thread.seconds_per_frame() == 3.0
    finally:
        cam_thread.stop()


def test_a_camera_in_the_dark_is_not_called_stuck() -> None:
    # Lights off after the game: a sensor whose noise is cut off below black gives the
    # same black frame over and over, and is not to be opened again every 30 s all night.
    now = [100.0]
    source = _QueuedSource()
    cam_thread = CameraThread(source, clock=lambda: now[0]).start()
    try:
        seen = (0, None)
        for dark in (0, 0, 5, 5):
            source.frames.put(np.full((48, 64, 3), dark, np.uint8))
            got = cam_thread.latest.wait_newer(seen[0], timeout=2.0)
            assert got is not None
            seen = got
            now[0] += 20.0
            assert cam_thread.since_new_picture() == 20.0      # since this dark frame
    finally:
        cam_thread.stop()


def test_the_simulated_tray_at_rest_never_gives_the_same_picture_twice() -> None:
    # Its dice lie still for long between throws; its sensor noise must change each frame,
    # or the appliance on the simulated tray would call its camera stuck.
    camera = SimCamera(seed=3, size=(320, 240), realtime=False)
    before = picture_sample(camera.read())
    for _ in range(150):                                   # ten seconds at 15 fps
        sample = picture_sample(camera.read())
        assert not np.array_equal(sample, before)
        before = sample


def test_a_replayed_photo_is_no_stuck_camera(tmp_path: Path) -> None:
    from vision.replay import Replay

    photo = tmp_path / "tray.png"
    cv2.imwrite(str(photo), np.full((48, 64, 3), 120, np.uint8))
    now = [100.0]
    cam_thread = CameraThread(Replay(photo, realtime=False), clock=lambda: now[0]).start()
    try:
        seen = cam_thread.latest.wait_newer(0, timeout=2.0)
        assert seen is not None
        now[0] += 30.0
        assert cam_thread.latest.wait_newer(seen[0] + 1, timeout=2.0) is not None
        assert cam_thread.since_new_picture() == 0.0
    finally:
        cam_thread.stop()
