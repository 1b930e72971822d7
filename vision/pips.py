"""A classical pip counter, used only as a cross-check on the classifier.

It looks at the top face alone, finds the pixels whose colour differs most from the
face's own colour (pips are dark on light dice, light on dark ones, coloured on
coloured ones: Lab distance covers all three), and counts round blobs of a pip's size.
It says whether its count is *clean* (blobs of one size, nothing pip-like left over);
only a clean count that disagrees with the classifier flags a die, because on its own
the counter is far less reliable than the network.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.crops import cut

FACE_PX = 48


@dataclass(frozen=True)
class PipCount:
    """How many pips the counter sees, and whether the count is unambiguous."""

    count: int
    clean: bool


def count_pips(image: np.ndarray, x: float, y: float, face: float) -> PipCount:
    """Count the pips on the top face centred at (x, y) whose side is ``face`` px."""
    crop = cut(image, x, y, face, out=FACE_PX, scale=0.92)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    body = np.median(lab.reshape(-1, 3), axis=0)
    dist = np.sqrt(((lab - body) ** 2).sum(axis=2))
    dist = cv2.GaussianBlur(dist, (3, 3), 0)
    top = float(dist.max())
    if top < 25:  # nothing stands out from the face: no pips to count
        return PipCount(0, False)
    mask = (dist > 0.5 * top).astype(np.uint8)
    n, _labels, stats, _cent = cv2.connectedComponentsWithStats(mask, connectivity=8)
    expected = np.pi * (0.09 * FACE_PX) ** 2
    areas = []
    stray = 0
    for i in range(1, n):
        x0, y0, w, h, area = stats[i]
        roundish = 0.5 < w / max(h, 1) < 2.0 and area > 0.45 * w * h
        if 0.3 * expected <= area <= 3.0 * expected and roundish:
            areas.append(area)
        elif area > 0.15 * expected:
            stray += 1
    clean = bool(areas) and stray == 0 and max(areas) <= 2.5 * min(areas) and len(areas) <= 6
    return PipCount(len(areas), clean)
