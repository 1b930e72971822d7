"""Timings for the roll watcher and the simulated tray, for ``make bench``.

``vision/bench.py`` calls :func:`bench_watcher` and puts the result under ``watcher``.
One thread, as on the Pi where the other cores serve the web pages.
"""
from __future__ import annotations

import statistics
import time

import cv2
import numpy as np

from vision.sim import SimulatedTray, render_tray
from vision.watcher import RollWatcher


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 3)


def _motion_check_ms(size: tuple[int, int], frames: int) -> float:
    """Median cost of ``RollWatcher.feed`` on a frame that needs no read (the common case)."""
    tray = SimulatedTray(seed=1, size=size, dice=5)
    stream = [tray.next_frame() for _ in range(8)]
    tray.roll()
    stream += [tray.next_frame() for _ in range(22)]
    watcher = RollWatcher()  # no reader: only the per-frame check is timed
    samples = []
    for k in range(frames):
        frame = stream[k % len(stream)]
        start = time.perf_counter()
        watcher.feed(frame)
        samples.append(time.perf_counter() - start)
    return _median_ms(samples)


def bench_watcher(frames: int = 300) -> dict[str, object]:
    """Median ms: the watcher's per-frame motion check at 1280x960 and 640x480, and the
    simulated tray's render time per frame (moving, resting, and a fresh still tray)."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        result: dict[str, object] = {
            "motion_check_ms_1280x960": _motion_check_ms((1280, 960), frames),
            "motion_check_ms_640x480": _motion_check_ms((640, 480), frames),
        }
        tray = SimulatedTray(seed=2, size=(1280, 960), dice=5)
        moving: list[float] = []
        resting: list[float] = []
        for _ in range(4):
            tray.roll()
            for _ in range(30):
                start = time.perf_counter()
                tray.next_frame()
                (moving if tray.moving else resting).append(time.perf_counter() - start)
        result["sim_frame_ms_moving_1280x960"] = _median_ms(moving)
        result["sim_frame_ms_resting_1280x960"] = _median_ms(resting)
        rng = np.random.default_rng(3)
        stills = []
        for _ in range(10):
            start = time.perf_counter()
            render_tray(rng, [1, 2, 3, 4, 5])
            stills.append(time.perf_counter() - start)
        result["render_tray_ms_1280x960"] = _median_ms(stills)
        result["threads"] = 1
        return result
    finally:
        cv2.setNumThreads(threads)


if __name__ == "__main__":
    import json

    print(json.dumps(bench_watcher(), indent=2))
