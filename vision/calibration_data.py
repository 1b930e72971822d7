"""The calibration as the reader takes it: a plain data object (and its tray geometry).

A calibration says what the reader may assume about one camera and tray: where the
tray is, what the empty tray looks like, how big a die appears, the pip colour, which
picture faces (logos) stand for which value, and the dice a person confirmed. The reader
works without one; with one it looks only inside the tray and at the known die scale,
which is faster and avoids reading things outside the tray. It lives here, beside the
reader, because the reader may import only numpy and OpenCV (DESIGN.md's layout);
``calibration`` makes it, and keeps it in its file.
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.classify import SECOND_CROP_PX

KNOWN_CROP_PX = SECOND_CROP_PX  # the side of a remembered die's crop (vision.known_dice)
# The most corners a tray's outline may have: a tray has four, a round one is tapped in a
# few more; checking that no two sides cross takes time growing with their square (3000
# corners took 7.4 s), at every load and under the table's lock when marked on the page.
MAX_TRAY_CORNERS = 40


@dataclass(frozen=True, eq=False)
class PictureFace:
    """A taught picture face: a grey, square template of the top face and its value, and
    the die it was taught from (``source``, as :class:`KnownDie` has it), so that a later
    correction of that throw renames the picture too."""

    value: int
    template: np.ndarray
    source: str | None = None

    def __post_init__(self) -> None:
        if not 1 <= int(self.value) <= 6:
            raise ValueError(f"picture face value must be 1-6, not {self.value!r}")
        if self.template.ndim != 2 or self.template.shape[0] != self.template.shape[1]:
            raise ValueError("picture face template must be a square grey image")


@dataclass(frozen=True, eq=False)
class KnownDie:
    """A die a person confirmed: its colour crop (as the reader's second look cuts it,
    see ``vision.known_dice``), the value the person gave it, and where it was seen
    (``source``, the throw and die, so that a later correction of that throw corrects
    the remembered value too)."""

    value: int
    crop: np.ndarray
    source: str | None = None

    def __post_init__(self) -> None:
        if not 1 <= int(self.value) <= 6:
            raise ValueError(f"known die value must be 1-6, not {self.value!r}")
        # The reader compares crops it cuts at this size, stacked together: a crop of
        # another size (a hand-edited file) would fail its network on the first unsure die.
        if self.crop.ndim != 3 or self.crop.shape[2] != 3 or self.crop.shape[:2] != (
                KNOWN_CROP_PX, KNOWN_CROP_PX):
            raise ValueError(f"known die crop must be a {KNOWN_CROP_PX}x{KNOWN_CROP_PX} BGR "
                             f"image, not {'x'.join(map(str, self.crop.shape[1::-1]))}")


@dataclass(frozen=True, eq=False)
class Calibration:
    """What the reader may assume about one camera and tray (every field optional).

    ``tray`` is the tray's outline as polygon points ``((x, y), ...)`` in frame pixels
    (a rectangle is four points, see :meth:`from_rect`); ``background`` an empty-tray
    BGR frame; ``die_size_px`` the side of a die's top face in pixels; ``pip_color`` a
    BGR triple (kept, but not used by the learned reader, which reads pips of any
    colour; the classic recipe does not use it either); ``picture_faces`` the taught
    logo faces; ``known_dice`` the dice a person confirmed (``vision.known_dice``);
    ``image_size`` the ``(width, height)`` of the frames it was made for;
    ``background_stale`` says the tray was marked again after the camera moved, and the
    empty tray's picture is of the view before (to be taken again), not the outline.
    """

    tray: tuple[tuple[float, float], ...] | None = None
    background: np.ndarray | None = field(default=None, repr=False)
    die_size_px: float | None = None
    pip_color: tuple[int, int, int] | None = None
    picture_faces: tuple[PictureFace, ...] = ()
    image_size: tuple[int, int] | None = None
    known_dice: tuple[KnownDie, ...] = ()
    background_stale: bool = False

    def __post_init__(self) -> None:
        # Each of these would leave the reader finding nothing, silently, or failing on
        # every frame: a calibration written by hand must say what is wrong instead.
        if self.tray is not None:
            if len(self.tray) < 3:
                raise ValueError("tray polygon needs at least 3 points")
            if len(self.tray) > MAX_TRAY_CORNERS:
                raise ValueError(f"tray polygon has {len(self.tray)} points, at most "
                                 f"{MAX_TRAY_CORNERS}: its corners, not a traced curve")
            if not np.all(np.isfinite(np.asarray(self.tray, np.float64))):
                raise ValueError(f"tray points must be finite numbers, not {self.tray!r}")
            if abs(float(cv2.contourArea(np.asarray(self.tray, np.float32)))) < 1.0:
                raise ValueError(f"tray polygon {self.tray!r} encloses no area: its points "
                                 "go round the tray in order")
            if crosses_itself(self.tray):
                raise ValueError(f"tray polygon {self.tray!r} crosses itself: its points "
                                 "go round the tray in order")
        if self.die_size_px is not None and not (self.die_size_px > 0 and np.isfinite(self.die_size_px)):
            raise ValueError(f"die_size_px must be a positive number, not {self.die_size_px!r}")
        if self.image_size is not None and not all(int(v) >= 1 for v in self.image_size):
            raise ValueError(f"image_size must be a width and height of at least 1 px, "
                             f"not {self.image_size!r}")
        if self.pip_color is not None and not all(0 <= int(v) <= 255 for v in self.pip_color):
            raise ValueError(f"pip_color must be 0-255 for each channel, not {self.pip_color!r}")
        if self.background is not None and (
            self.background.ndim != 3 or self.background.shape[2] != 3
        ):
            raise ValueError("background must be a BGR image (height, width, 3)")

    @staticmethod
    def from_rect(x0: float, y0: float, x1: float, y1: float, **kwargs: Any) -> Calibration:
        """A calibration whose tray is the axis-aligned rectangle ``(x0, y0)-(x1, y1)``."""
        tray = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        return Calibration(tray=tray, **kwargs)

    def tray_bounds(self, width: int, height: int) -> tuple[int, int, int, int]:
        """The tray's bounding box ``(x0, y0, x1, y1)`` clipped to a frame of this size."""
        if self.tray is None:
            return 0, 0, width, height
        xs = [p[0] for p in self.tray]
        ys = [p[1] for p in self.tray]
        # Kept inside the frame even for an outline wholly beyond it (one written for a
        # bigger camera): a box off the frame is no pixels at all, which the reader
        # cannot cut; a pixel at the edge it can, and finds nothing in the tray there.
        x0 = min(max(0, int(np.floor(min(xs)))), width - 1)
        y0 = min(max(0, int(np.floor(min(ys)))), height - 1)
        x1 = min(width, int(np.ceil(max(xs))))
        y1 = min(height, int(np.ceil(max(ys))))
        return x0, y0, max(x0 + 1, x1), max(y0 + 1, y1)

    def in_tray(self, x: float, y: float) -> bool:
        """Whether the point lies inside (or on) the tray outline; always true without one."""
        if self.tray is None:
            return True
        return cv2.pointPolygonTest(self._contour, (float(x), float(y)), False) >= 0

    def for_frame(self, width: int, height: int) -> Calibration:
        """This calibration for frames of ``width``×``height`` pixels.

        Made for frames of another size with the same shape (the camera's resolution was
        changed), its positions and die size are scaled. Made for another shape, its
        tray, empty-tray picture and die size say nothing reliable about these frames
        (an outline from elsewhere would hide dice) and are left out; the taught
        pictures are kept. Without ``image_size`` it is taken as it is.

        >>> cal = Calibration.from_rect(10, 10, 310, 230, die_size_px=20.0, image_size=(320, 240))
        >>> big = cal.for_frame(640, 480)
        >>> big.tray[2], big.die_size_px, big.image_size
        ((620.0, 460.0), 40.0, (640, 480))
        >>> cal.for_frame(640, 360).tray is None
        True
        """
        if self.image_size is None or tuple(self.image_size) == (width, height):
            return self
        w0, h0 = self.image_size
        sx, sy = width / w0, height / h0
        if abs(sx - sy) > 0.01 * max(sx, sy):
            return Calibration(pip_color=self.pip_color, picture_faces=self.picture_faces,
                               known_dice=self.known_dice)
        background = (cv2.resize(self.background, (width, height), interpolation=cv2.INTER_AREA)
                      if self.background is not None else None)
        return dataclasses.replace(
            self,
            tray=tuple((x * sx, y * sy) for x, y in self.tray) if self.tray is not None else None,
            background=background,
            die_size_px=self.die_size_px * sx if self.die_size_px else self.die_size_px,
            image_size=(width, height))

    def edge_distance(self, x: float, y: float) -> float | None:
        """How far the point lies inside the tray outline, in pixels (negative outside);
        ``None`` without a tray.

        >>> Calibration.from_rect(0, 0, 100, 50).edge_distance(30, 10)
        10.0
        """
        if self.tray is None:
            return None
        return float(cv2.pointPolygonTest(self._contour, (float(x), float(y)), True))

    @functools.cached_property
    def _contour(self) -> np.ndarray:
        """The tray outline as OpenCV takes a contour, made once: the reader asks about
        every candidate and die of every frame (a new array each time cost four times
        the test itself)."""
        return np.asarray(self.tray, dtype=np.float32).reshape(-1, 1, 2)


def crosses_itself(points: Sequence[tuple[float, float]]) -> bool:
    """Whether two sides of the outline through ``points`` (closed) cross each other.

    Corners taken out of order (the two top ones, then the bottom ones left to right)
    make a bow tie: whatever lies in the middle of the tray is then outside it, and the
    reader would ignore the dice there without a word. Sides that only touch do not
    count, so a corner tapped twice is no crossing.

    >>> crosses_itself([(0, 0), (10, 0), (10, 10), (0, 10)])
    False
    >>> crosses_itself([(0, 0), (10, 10), (10, 0), (0, 8)])
    True
    """
    sides = [(points[i], points[(i + 1) % len(points)]) for i in range(len(points))]
    return any(_cross(*sides[i], *sides[j])
               for i in range(len(sides)) for j in range(i + 2, len(sides))
               if not (i == 0 and j == len(sides) - 1))


def _cross(a: tuple[float, float], b: tuple[float, float],
           c: tuple[float, float], d: tuple[float, float]) -> bool:
    """Whether segments ``ab`` and ``cd`` cross at a point inside both."""
    def turn(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return (turn(a, b, c) * turn(a, b, d) < 0) and (turn(c, d, a) * turn(c, d, b) < 0)
