"""The classic published recipe, kept as the benchmark's baseline.

Median blur, OpenCV's blob detector for the pips, then pips grouped into dice by
distance; a die's value is the number of pips in its group. It knows nothing about
die colour and finds only dark pips, which is why it reads few real dice right.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np


@dataclass(frozen=True)
class BaselineDie:
    """One die as the baseline sees it: a group of pips."""

    value: int
    center: tuple[float, float]
    box: tuple[float, float, float, float]


def _detector(image_area: float) -> Any:
    # OpenCV's stubs lack the blob detector in the 5.0 wheels, hence Any.
    params = cv2.SimpleBlobDetector_Params()  # type: ignore[attr-defined]
    # Pip area bounds relative to the frame, so one recipe serves 640 and 1280 frames.
    params.filterByArea = True
    params.minArea = max(6.0, image_area * 1.5e-5)
    params.maxArea = image_area * 2e-3
    params.filterByCircularity = True
    params.minCircularity = 0.6
    params.filterByInertia = True
    params.minInertiaRatio = 0.5
    params.filterByConvexity = True
    params.minConvexity = 0.8
    return cv2.SimpleBlobDetector_create(params)  # type: ignore[attr-defined]


def read_baseline(image: np.ndarray) -> list[BaselineDie]:
    """Read dice with the classic recipe; returns one entry per pip group (value ≤ 6)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    gray = cv2.medianBlur(gray, 5)
    h, w = gray.shape
    points = _detector(float(h * w)).detect(gray)
    if not points:
        return []
    xy = np.array([p.pt for p in points], dtype=np.float64)
    size = np.array([p.size for p in points], dtype=np.float64)
    # Pips of one die lie within about three pip diameters of a neighbour.
    link = 3.0 * float(np.median(size))
    groups = _group(xy, link)
    dice: list[BaselineDie] = []
    for members in groups:
        pts = xy[members]
        r = float(np.median(size[members]))
        x0, y0 = pts.min(axis=0) - r
        x1, y1 = pts.max(axis=0) + r
        value = min(6, len(members))
        dice.append(
            BaselineDie(value, (float(pts[:, 0].mean()), float(pts[:, 1].mean())), (x0, y0, x1, y1))
        )
    return dice


def _group(xy: np.ndarray, link: float) -> list[list[int]]:
    """Single-linkage groups of points closer than ``link`` (union-find)."""
    n = len(xy)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    for i, j in zip(*np.nonzero(np.triu(d < link, 1))):
        parent[find(int(i))] = find(int(j))
    out: dict[int, list[int]] = {}
    for i in range(n):
        out.setdefault(find(i), []).append(i)
    return list(out.values())
