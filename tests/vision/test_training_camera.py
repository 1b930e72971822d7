"""Training frames changed as another camera would give them (vision/training/common.py)."""
from __future__ import annotations

import cv2
import numpy as np

from vision.training.common import camera_change

PIPS = ((100, 100), (80, 80), (120, 120), (80, 120), (120, 80))  # a five


def _face() -> np.ndarray:
    """A white five with black pips, 60 px across, on a grey floor."""
    frame = np.full((200, 200, 3), 120, np.uint8)
    cv2.rectangle(frame, (70, 70), (130, 130), (235, 235, 235), -1)
    for x, y in PIPS:
        cv2.circle(frame, (x, y), 6, (20, 20, 20), -1)
    return frame


def test_a_changed_frame_keeps_its_size_and_its_die_in_place() -> None:
    frame = _face()
    for seed in range(20):
        changed = camera_change(np.random.default_rng(seed), frame)
        assert changed.shape == frame.shape and changed.dtype == np.uint8
        assert not np.array_equal(changed, frame)
        # Blur, grain and JPEG change pixels a little, never the picture: the die's
        # dark pips stay where the labels put them.
        diff = np.abs(changed.astype(np.int16) - frame.astype(np.int16))
        assert float(diff.mean()) < 20.0, seed
        grey = changed.mean(axis=2)
        for x, y in PIPS:
            assert grey[y, x] < grey[y, x + 10] - 100, (seed, x, y)


def test_the_same_seed_gives_the_same_change() -> None:
    frame = _face()
    a = camera_change(np.random.default_rng(7), frame)
    b = camera_change(np.random.default_rng(7), frame)
    assert np.array_equal(a, b)
