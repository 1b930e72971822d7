"""Where a frame differs from the calibrated empty tray: the only places a die can be.

A camera fixed over a tray sees the same empty tray between throws. With that picture in
the calibration, the detector need not search the whole tray: only the parts that
changed (dice, their shadows, a hand), each with a die's width of floor around it for
the network's context. The detector's pass is about half of a calibrated read's time;
on simulated trays of two or three dice it searches a quarter to a third of the tray.

Nothing is lost when the picture no longer fits: if more than :data:`MOST` of the tray
looks changed (the light changed more than brightness matching undoes, the camera or
tray was moved), or the boxes would cost as much as the whole tray (many dice, a card
in the tray), :func:`changed_boxes` answers ``None`` and the whole tray is searched.

The same picture tells when the tray was pushed aside: :func:`tray_shift` finds how far,
on a tray seen empty, so its outline can follow.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import cv2
import numpy as np

from vision.exposure import MAX_GAIN

# A pixel differs from the empty tray when one of its colour channels, after matching
# the frames' brightness, is this many levels away. The same level as the reader's
# check that a candidate is not part of the tray (vision.learned.BACKGROUND_LEVEL); on
# the shrunk pass image sensor noise is a few levels. A channel, not grey: a red die on
# green felt of the same brightness differs in colour only.
LEVEL = 25
# More of the tray changed than this, and the empty-tray picture is stale (or a hand is
# in the tray): search it all.
MOST = 0.5
# What a pixel of a small search costs the network against one of the whole tray's
# (a 64 px box against a 320 px tray, padding included, measured here).
SMALL_SEARCH_COST = 1.6
# Changed pixels this close (in die sizes) are one place: a die's pips, edges and shadow.
JOIN = 0.5
# Floor kept around a place (in die sizes): the network looks about a die around a
# centre to find a face, as it did in the whole frames it was trained on.
MARGIN = 1.0

# Boxes start and end on the network's grid (it halves four times, counting the padding
# to a multiple of 16): shifted off it by a few pixels, the network puts a die's centre
# a few pixels elsewhere (2-6 px on 35 px dice, measured) and reads some dice worse.
GRID = 16
# The pictures compared by tray_shift are this wide; at 160 px a 640 px frame's tray
# moved by 20 px shows as 5 px, and it costs about 1.7 ms, once a tray is seen empty.
SHIFT_WIDTH = 160
# The edges of an empty tray and of its picture correlate this much when it is the same
# tray in the same place; a shift is taken when, undone, it correlates this much and
# MOVE_GAIN more than without it.
SAME_EDGES = 0.6
MOVE_GAIN = 0.1
# A changed pixel is shadow when each of its channels is below SHADE of the empty tray's
# and they are darkened alike (within SHADE_SPREAD): the floor with less light on it.
SHADE = 0.92
SHADE_SPREAD = 0.12


def changed_boxes(small: np.ndarray, empty: np.ndarray, die_px: float
                  ) -> list[tuple[int, int, int, int]] | None:
    """Boxes ``(x0, y0, x1, y1)`` of ``small`` holding everything that differs from
    ``empty`` (the empty tray at the same size), or ``None`` when searching them would
    cost about as much as searching it all (most of it differs).

    ``die_px`` is a die's side in ``small``'s pixels. The boxes do not overlap; an
    unchanged tray gives none.

    >>> empty = np.full((200, 240, 3), 90, np.uint8)
    >>> frame = empty.copy(); frame[80:98, 100:118] = 230   # a die 18 px across
    >>> changed_boxes(frame, empty, 18.0)
    [(80, 48, 144, 128)]
    >>> changed_boxes(empty, empty, 18.0)
    []
    >>> lit = empty.copy(); lit[:, :120] = 200             # half the tray in sunlight
    >>> changed_boxes(lit, empty, 18.0) is None
    True
    """
    # Found at half the pass's size: the detector's own grid is a quarter of it, and
    # halving averages the sensor noise away.
    # (An even size: OpenCV's area resize is fast only for whole-number ratios.)
    h, w = small.shape[:2]
    even = (slice(0, h - h % 2), slice(0, w - w % 2))
    half = (w // 2, h // 2)
    mask = _differs(cv2.resize(small[even], half, interpolation=cv2.INTER_AREA),
                    _kept.get(empty, ("half", half), lambda: cv2.resize(
                        empty[even], half, interpolation=cv2.INTER_AREA)))
    if np.count_nonzero(mask) > MOST * mask.size:
        return None
    join = max(1, round(JOIN * die_px / 2))
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (join, join)))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    margin = round(MARGIN * die_px)
    boxes = _merged([(_down(2 * int(x) - margin), _down(2 * int(y) - margin),
                      min(w, _up(2 * int(x + bw) + margin)), min(h, _up(2 * int(y + bh) + margin)))
                     for x, y, bw, bh, _ in stats[1:count]])
    # A small search costs the network more per pixel than a big one.
    searched = sum(_up(x1 - x0) * _up(y1 - y0) for x0, y0, x1, y1 in boxes)
    if SMALL_SEARCH_COST * searched >= w * h:
        return None
    return boxes


@dataclass(frozen=True)
class Shape:
    """What differs from the empty tray in a patch, its shadow aside: how many pixels,
    their centroid ``(x, y)`` in the patch, how elongated they are (the ratio of the
    spreads along their principal axes, 1 for a square or a disc), and their second
    central moments ``(xx, xy, yy)`` in square pixels (the spread along a unit
    direction ``(u, v)`` is ``xx u² + 2 xy u v + yy v²``)."""

    pixels: int
    x: float
    y: float
    elongation: float
    moments: tuple[float, float, float]

    def spread_along(self, u: float, v: float) -> float:
        """The variance of the pixels' positions along the unit direction ``(u, v)``."""
        xx, xy, yy = self.moments
        return xx * u * u + 2 * xy * u * v + yy * v * v


def shape_of_change(frame: np.ndarray, empty: np.ndarray, gains: tuple[float, float, float],
                    step: int = 1, cores: tuple[tuple[float, float, float], ...] = ()
                    ) -> Shape | None:
    """The :class:`Shape` of what differs from ``empty`` in ``frame`` (a patch of a
    frame and the empty tray's same patch, ``gains`` times darker channel by channel, as
    :func:`channel_ratios` gives them), every ``step``-th pixel looked at (``pixels`` is
    still of the whole patch: each one looked at counts for ``step``²); ``None`` when
    nothing does.
    With ``cores``, each ``(x, y, r)``, only the changed parts that reach within ``r``
    pixels of one of them (across or down) count: what lies apart from a die (a crumb
    gone since the empty tray was taken, a pen nearby) is not the die's shape.

    A die's top face is symmetric about its centre, pips included, and square: seen
    from above its changed pixels lie round its centre, not elongated, whatever its
    value and turn. Its shadow is told by colour: the floor, darker by about one factor
    in every channel (:data:`SHADE`, :data:`SHADE_SPREAD`).

    >>> empty = np.full((40, 40, 3), 90, np.uint8)
    >>> flat = empty.copy(); flat[11:29, 11:29] = 230              # a die from above
    >>> flat[29:33, 14:32] = 50                                    # and its shadow
    >>> s = shape_of_change(flat, empty, (1.0, 1.0, 1.0)); (s.pixels, s.x, s.y, round(s.elongation, 2))
    (324, 19.5, 19.5, 1.0)
    >>> round(s.spread_along(1.0, 0.0), 2)                         # 18² / 12, less a pixel's
    26.92
    >>> lean = flat.copy(); lean[29:38, 11:29] = 170               # a side face shows too
    >>> s = shape_of_change(lean, empty, (1.0, 1.0, 1.0)); (s.pixels, round(s.y, 1), round(s.elongation, 2))
    (486, 24.0, 1.5)
    >>> crumb = flat.copy(); crumb[34:39, 2:7] = 200               # apart from the die
    >>> shape_of_change(crumb, empty, (1.0, 1.0, 1.0), cores=((19.5, 19.5, 6.0),)).pixels
    324
    """
    # OpenCV's per-channel calls: numpy's max over the channel axis costs ~40 times more.
    now = np.ascontiguousarray(frame[::step, ::step])
    then = cv2.transform(np.ascontiguousarray(empty[::step, ::step]), np.diag(gains))
    differs = cv2.split(cv2.absdiff(now, then))
    gain = cv2.split(cv2.divide(now.astype(np.float32) + 1.0, then.astype(np.float32) + 1.0))
    brightest = cv2.max(cv2.max(gain[0], gain[1]), gain[2])
    darkest = cv2.min(cv2.min(gain[0], gain[1]), gain[2])
    shade = (brightest < SHADE) & (brightest - darkest < SHADE_SPREAD)
    mask = (cv2.max(cv2.max(differs[0], differs[1]), differs[2]) > LEVEL) & ~shade
    if cores:
        mask = _reaching(mask, [(x / step, y / step, r / step) for x, y, r in cores])
    m = cv2.moments(mask.view(np.uint8), binaryImage=True)
    if m["m00"] < 3:
        return None
    xx, xy, yy = (m[k] / m["m00"] * step * step for k in ("mu20", "mu11", "mu02"))
    # The spreads along the principal axes: the eigenvalues of the second moments.
    mean, half_gap = (xx + yy) / 2, float(np.hypot((xx - yy) / 2, xy))
    return Shape(int(m["m00"]) * step * step, m["m10"] / m["m00"] * step, m["m01"] / m["m00"] * step,
                 float(np.sqrt((mean + half_gap) / max(mean - half_gap, 1e-9))), (xx, xy, yy))


def _reaching(mask: np.ndarray, cores: list[tuple[float, float, float]]) -> np.ndarray:
    """The parts of boolean ``mask`` (a pixel's gap joins them: pips to their face)
    that reach into the square of ``r`` pixels either side of one of the ``cores``
    ``(x, y, r)``."""
    joined = cv2.dilate(mask.view(np.uint8), np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    wanted = np.zeros(count, bool)
    for x, y, r in cores:
        x0, y0 = max(0, int(x - r)), max(0, int(y - r))
        wanted[labels[y0:int(y + r) + 1, x0:int(x + r) + 1]] = True
    wanted[0] = False
    return np.asarray(mask & wanted[labels])


def _down(n: int) -> int:
    """``n`` rounded down onto the network's grid, at least 0."""
    return max(0, n - n % GRID)


def _up(n: int) -> int:
    """``n`` rounded up onto the network's grid."""
    return n + (-n % GRID)


def tray_shift(frame: np.ndarray, empty: np.ndarray,
               region: tuple[int, int, int, int] | None = None) -> tuple[float, float] | None:
    """How far the tray has moved since its empty picture ``empty`` was taken, judged on
    ``frame``, a picture of the tray with nothing in it: ``(dx, dy)`` in frame pixels,
    ``(0.0, 0.0)`` when it has not moved (a change of light is no move), and ``None``
    when it looks otherwise changed, in a way a shift does not undo (the camera turned or
    was raised, another tray or lining).

    ``region`` is the tray's box; the search looks a fifth of its size further round it.

    >>> rng = np.random.default_rng(0)
    >>> empty = cv2.GaussianBlur(rng.integers(0, 255, (240, 320, 3), dtype=np.uint8), (0, 0), 3)
    >>> bumped = cv2.warpAffine(empty, np.float32([[1, 0, 12], [0, 1, -7]]), (320, 240),
    ...                         borderMode=cv2.BORDER_REFLECT)
    >>> [round(v) for v in tray_shift(bumped, empty)]
    [12, -7]
    >>> tray_shift(cv2.convertScaleAbs(empty, alpha=1.3), empty)
    (0.0, 0.0)
    >>> tray_shift(cv2.flip(empty, 1), empty) is None
    True
    """
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = region if region is not None else (0, 0, w, h)
    grow_x, grow_y = (x1 - x0) // 5, (y1 - y0) // 5
    x0, y0, x1, y1 = max(0, x0 - grow_x), max(0, y0 - grow_y), min(w, x1 + grow_x), min(h, y1 + grow_y)
    scale = min(1.0, SHIFT_WIDTH / max(1, x1 - x0))
    size = (max(8, round((x1 - x0) * scale)), max(8, round((y1 - y0) * scale)))
    now = cv2.resize(frame[y0:y1, x0:x1], size, interpolation=cv2.INTER_AREA)
    then = cv2.resize(empty[y0:y1, x0:x1], size, interpolation=cv2.INTER_AREA)
    # The edges, not the brightness: where the rim and the lining's texture are does not
    # change with the light.
    e_then, e_now = _edges(then), _edges(now)
    (dx, dy), _ = cv2.phaseCorrelate(e_then, e_now, cv2.createHanningWindow(size, cv2.CV_32F))
    if abs(dx) > size[0] / 4 or abs(dy) > size[1] / 4:
        return None  # further than a bump: nothing left to compare, or no match at all
    # Compared where both pictures show the tray (the strip a shift brings in is new).
    mx, my = int(abs(dx)) + 2, int(abs(dy)) + 2
    inner = (slice(my, size[1] - my), slice(mx, size[0] - mx))
    back = cv2.warpAffine(e_now, np.array([[1, 0, -dx], [0, 1, -dy]], np.float32), size)
    as_is, shifted = _alike(e_now[inner], e_then[inner]), _alike(back[inner], e_then[inner])
    if as_is >= SAME_EDGES and as_is >= shifted - MOVE_GAIN:
        return 0.0, 0.0
    if shifted >= SAME_EDGES and shifted >= as_is + MOVE_GAIN:
        return dx / scale, dy / scale
    return None


def _alike(a: np.ndarray, b: np.ndarray) -> float:
    """How alike two edge pictures are: their normalised correlation, -1 to 1."""
    return float(cv2.matchTemplate(a, b, cv2.TM_CCOEFF_NORMED)[0, 0])


def _edges(image: np.ndarray) -> np.ndarray:
    """Gradient magnitude of ``image`` in grey (float32), for phase correlation."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.asarray(cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)))


def brightness_ratio(frame: np.ndarray, empty: np.ndarray) -> float:
    """How much brighter ``frame`` is than ``empty``, the empty tray's picture: matched
    before comparing, as the roll watcher does, so a lamp or the exposure drifting since
    the empty tray was taken is no die, nor is the reader brightening a dim frame (up to
    :data:`vision.exposure.MAX_GAIN` times). The means include the dice, a small part of
    a tray.

    >>> empty = np.full((4, 4, 3), 60, np.uint8)
    >>> brightness_ratio(empty * 2, empty)
    2.0
    """
    ratio = _mean(frame) / max(1.0, sum(_empty_means(empty)) / 3)
    return min(max(ratio, 1 / MAX_GAIN), MAX_GAIN)


def channel_ratios(frame: np.ndarray, empty: np.ndarray) -> tuple[float, float, float]:
    """How much brighter ``frame`` is than ``empty`` in each colour channel (blue, green,
    red), each kept within :data:`vision.exposure.MAX_GAIN` as :func:`brightness_ratio`
    is: a camera's white balance drifts with the light (a warm lamp in the evening), and
    matched channel by channel the empty tray's floor is the floor again.

    >>> empty = np.full((4, 4, 3), 60, np.uint8)
    >>> warm = (empty * np.array([0.8, 1.0, 1.25])).astype(np.uint8)
    >>> channel_ratios(warm, empty)
    (0.8, 1.0, 1.25)
    """
    now, then = _means(frame), _empty_means(empty)
    b, g, r = (min(max(n / max(1.0, t), 1 / MAX_GAIN), MAX_GAIN) for n, t in zip(now, then))
    return b, g, r


def _means(image: np.ndarray) -> tuple[float, float, float]:
    """The mean level of each channel of ``image``, sampled on a grid of 80 columns (the
    whole of a 1280×960 frame takes 0.3 ms; this 0.01)."""
    h, w = image.shape[:2]
    grid = (min(w, 80), max(1, min(h, round(80 * h / w))))
    b, g, r, _ = cv2.mean(cv2.resize(image, grid, interpolation=cv2.INTER_NEAREST))
    return b, g, r


def _empty_means(empty: np.ndarray) -> tuple[float, float, float]:
    """:func:`_means` of an empty tray's picture, kept for the frames to come."""
    return _kept.get(empty, "means", lambda: _means(empty))


_T = TypeVar("_T")


class _KeptForPictures:
    """Values worked out from empty-tray pictures, kept by the picture's identity: the
    same picture comes back frame after frame (the calibration's, and the detector's
    shrunk copy of it, vision.detect), and working its values out again costs as much as
    the frame's own (resizes and means, about 0.1 ms a read with the empty tray). The
    newest few are kept; each entry holds its picture, so no other picture can take its
    id meanwhile."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: list[tuple[np.ndarray, Hashable, Any]] = []

    def get(self, picture: np.ndarray, what: Hashable, make: Callable[[], _T]) -> _T:
        """The value ``what`` of ``picture``: kept, or made by ``make`` and kept."""
        for kept, name, value in self._entries:
            if kept is picture and name == what:
                return cast(_T, value)
        made = make()
        self._entries = [(picture, what, made)] + self._entries[:self._size - 1]
        return made


# A calibration has three: its picture, its shrunk copy's half, and that half's means.
_kept = _KeptForPictures(4)


def _mean(image: np.ndarray) -> float:
    """The mean level of ``image`` over its channels, sampled as :func:`_means` does."""
    # Plain Python on the three channel means: numpy's mean of a tuple costs half as much
    # as the resize itself (this runs twice a calibrated read).
    return sum(_means(image)) / 3


def _differs(small: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """A 0/255 mask of the pixels of ``small`` that differ from ``empty``."""
    diff = cv2.absdiff(small, cv2.convertScaleAbs(empty, alpha=brightness_ratio(small, empty)))
    blue, green, red = cv2.split(diff)  # OpenCV's max is ~40 times numpy's over an axis
    _, mask = cv2.threshold(cv2.max(cv2.max(blue, green), red), LEVEL, 255, cv2.THRESH_BINARY)
    return np.asarray(mask)


def _merged(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Overlapping boxes joined into their bounding box, until none overlap (a die is
    then searched once, in one piece)."""
    out = list(boxes)
    joined = True
    while joined:
        joined = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    joined = True
                    break
            if joined:
                break
    return sorted(out)
