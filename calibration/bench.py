"""``make bench`` for the calibration: the die size the table measures from the first
throws, and a die size gone stale (:mod:`calibration.bench_die_size`)."""
from __future__ import annotations

from typing import Any

import cv2

from calibration.bench_die_size import bench_die_size, bench_stale_size


def run() -> dict[str, Any]:
    """The die-size benches, timed on one thread as the reader's are."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return {"sim_die_size_measured_640x480": bench_die_size(),
                "sim_die_size_stale_640x480": bench_stale_size()}
    finally:
        cv2.setNumThreads(threads)
