"""The calibration data object and its file format.

A calibration says what the reader may assume about one camera and tray: where the
tray is, what the empty tray looks like, how big a die appears, the pip colour, and
which picture faces (logos) stand for which value. The reader works without one; with
one it looks only inside the tray and at the known die scale, which is faster and
avoids reading things outside the tray.

The file is JSON. Images (the empty-tray background, the taught picture faces) are
stored inside it as base64 PNG so that one atomic rename replaces the whole calibration.
"""
from __future__ import annotations

import base64
import dataclasses
import functools
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.classify import SECOND_CROP_PX
from vision.json_text import unique_keys, whole_number

FORMAT_VERSION = 1
KNOWN_CROP_PX = SECOND_CROP_PX  # the side of a remembered die's crop (vision.known_dice)
# The most corners a tray's outline may have: a tray has four, a round one is tapped in a
# few more; checking that no two sides cross takes time growing with their square (3000
# corners took 7.4 s), at every load and under the table's lock when marked on the page.
MAX_TRAY_CORNERS = 40


class CalibrationError(ValueError):
    """A calibration file that cannot be used; the message names the file and the fault."""


@dataclass(frozen=True, eq=False)
class PictureFace:
    """A taught picture face: a grey, square template of the top face and its value."""

    value: int
    template: np.ndarray

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
    ``image_size`` the ``(width, height)`` of the frames it was made for.
    """

    tray: tuple[tuple[float, float], ...] | None = None
    background: np.ndarray | None = field(default=None, repr=False)
    die_size_px: float | None = None
    pip_color: tuple[int, int, int] | None = None
    picture_faces: tuple[PictureFace, ...] = ()
    image_size: tuple[int, int] | None = None
    known_dice: tuple[KnownDie, ...] = ()

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

    def to_json(self) -> dict[str, Any]:
        """The JSON form written by :func:`save_calibration`."""
        return {
            "version": FORMAT_VERSION,
            "tray": [list(map(float, p)) for p in self.tray] if self.tray is not None else None,
            "background": _encode_png(self.background) if self.background is not None else None,
            "die_size_px": self.die_size_px,
            "pip_color": list(self.pip_color) if self.pip_color is not None else None,
            "picture_faces": [
                {"value": f.value, "template": _encode_png(f.template)} for f in self.picture_faces
            ],
            "image_size": list(self.image_size) if self.image_size is not None else None,
            "known_dice": [
                {"value": k.value, "crop": _encode_png(k.crop), "source": k.source}
                for k in self.known_dice
            ],
        }

    @staticmethod
    def from_json(data: Any) -> Calibration:
        """Build a calibration from its JSON form; raises ``ValueError`` naming the fault."""
        if not isinstance(data, dict):
            raise ValueError("top level is not a JSON object")  # noqa: TRY004 (bad content)
        version = data.get("version")
        if isinstance(version, bool) or version != FORMAT_VERSION:
            raise ValueError(f"unknown format version {version!r} (expected {FORMAT_VERSION})")
        _only(data, _KEYS, "the calibration")
        tray_raw = data.get("tray")
        tray = None
        if tray_raw is not None:
            tray = tuple((_num(p[0], "tray"), _num(p[1], "tray")) for p in _pairs(tray_raw, "tray"))
        bg_raw = data.get("background")
        background = _decode_png(bg_raw, "background", colour=True) if bg_raw is not None else None
        size = data.get("die_size_px")
        pip = data.get("pip_color")
        faces = tuple(
            PictureFace(
                value=_whole(f.get("value"), "picture_faces.value"),
                template=_decode_png(f.get("template"), "picture_faces.template", colour=False),
            )
            for f in _objects(data.get("picture_faces"), "picture_faces")
        )
        known = tuple(
            KnownDie(
                value=_whole(k.get("value"), "known_dice.value"),
                crop=_decode_png(k.get("crop"), "known_dice.crop", colour=True),
                source=_text(k.get("source"), "known_dice.source"),
            )
            for k in _objects(data.get("known_dice"), "known_dice")
        )
        image_size = data.get("image_size")
        return Calibration(
            tray=tray,
            background=background,
            die_size_px=_die_size(size, image_size) if size is not None else None,
            pip_color=(
                tuple(_whole(c, "pip_color") for c in _list(pip, "pip_color", 3))  # type: ignore[arg-type]
                if pip is not None
                else None
            ),
            picture_faces=faces,
            image_size=(
                tuple(_whole(v, "image_size") for v in _list(image_size, "image_size", 2))  # type: ignore[arg-type]
                if image_size is not None
                else None
            ),
            known_dice=known,
        )


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


def _num(value: Any, name: str) -> float:
    # bool is an int in Python; a true/false where a number belongs is a corrupt file.
    # JSON as Python reads it also allows NaN and Infinity, which no position or size is.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name}: expected a number, found {value!r}")  # noqa: TRY004
    try:
        number = float(value)
    except OverflowError:  # an integer of hundreds of digits
        raise ValueError(f"{name}: expected a finite number, found one too big for any "
                         "picture") from None
    if not np.isfinite(number):
        raise ValueError(f"{name}: expected a finite number, found {value!r}")
    return number


def _whole(value: Any, name: str) -> int:
    """``value`` as a whole number (a die's value, a colour, a size in pixels), or
    ``ValueError`` naming ``name``: 3.5 is no die's value, and was read as 3."""
    number = _num(value, name)
    if not number.is_integer():
        raise ValueError(f"{name}: expected a whole number, found {value!r}")
    return int(number)


def _list(value: Any, name: str, length: int) -> list[Any]:
    """``value`` as a list of ``length`` items, or ``ValueError`` naming ``name``."""
    if not isinstance(value, list) or len(value) != length:
        raise ValueError(f"{name}: expected a list of {length} numbers, found {value!r}")
    return value


def _pairs(value: Any, name: str) -> list[list[Any]]:
    """``value`` as a list of ``[x, y]`` pairs, or ``ValueError`` naming ``name``."""
    if not isinstance(value, list):
        raise ValueError(f"{name}: expected a list of [x, y] points, found {value!r}")
    return [_list(p, f"{name} point {i + 1}", 2) for i, p in enumerate(value)]


def _objects(value: Any, name: str) -> list[dict[str, Any]]:
    """``value`` (absent: none) as a list of JSON objects, or ``ValueError`` naming ``name``."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(f"{name}: expected a list of objects, found {str(value)[:80]!r}")
    for item in value:
        _only(item, _ENTRY_KEYS[name], name)
    return value


# The keys the file holds (Calibration.to_json). The file may be written by hand: a key
# misspelt there ("die_sise_px") would be left out without a word, and the reader would
# work without what the person meant to give it.
_KEYS = frozenset({"version", "tray", "background", "die_size_px", "pip_color",
                   "picture_faces", "image_size", "known_dice"})
_ENTRY_KEYS = {"picture_faces": frozenset({"value", "template"}),
               "known_dice": frozenset({"value", "crop", "source"})}


def _only(data: dict[str, Any], keys: frozenset[str], name: str) -> None:
    """Refuse keys of ``data`` that are not in ``keys``, naming them and ``name``."""
    unknown = sorted(set(map(str, data)) - keys)
    if unknown:
        raise ValueError(f"{name}: unknown key {', '.join(map(repr, unknown))} "
                         f"(known: {', '.join(sorted(keys))})")


def _text(value: Any, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name}: expected text, found {value!r}")  # noqa: TRY004
    return value


def _encode_png(image: np.ndarray) -> str:
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("could not encode image as PNG")
    return base64.b64encode(buf.tobytes()).decode("ascii")


def _decode_png(text: Any, name: str, *, colour: bool) -> np.ndarray:
    if not isinstance(text, str):
        raise ValueError(f"{name}: expected base64 PNG text")  # noqa: TRY004
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError as exc:
        raise ValueError(f"{name}: not valid base64 ({exc})") from None
    if not raw:
        raise ValueError(f"{name}: empty image")
    flag = cv2.IMREAD_COLOR if colour else cv2.IMREAD_GRAYSCALE
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), flag)
    if image is None:
        raise ValueError(f"{name}: not a decodable PNG image")
    return image


# A die size in a file beyond these is a slip of the hand (1 for 100, a size in mm):
# the reader would find no die in any frame, silently. No reader finds a die's pips
# below a few pixels; no camera's frame is as big as the upper one.
MIN_DIE_PX = 4.0
MAX_DIE_PX = 20000.0


def _die_size(raw: Any, image_size: Any) -> float:
    """A calibration file's ``die_size_px``, checked to be a die a frame can show."""
    size = float(_num(raw, "die_size_px"))
    if size < MIN_DIE_PX:
        raise ValueError(f"die_size_px {raw!r} is smaller than any die the reader can read "
                         f"(at least {MIN_DIE_PX:g} px)")
    frame = None
    if isinstance(image_size, list) and len(image_size) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in image_size):
        frame = max(image_size)
    if size > (frame or MAX_DIE_PX):
        raise ValueError(f"die_size_px {raw!r} is larger than the camera's frame "
                         f"({frame or MAX_DIE_PX:g} px)")
    return size


def load_calibration(path: str | os.PathLike[str]) -> Calibration:
    """Read a calibration file; a missing or corrupt file raises :class:`CalibrationError`.

    A corrupt file is never replaced by defaults: the caller decides what to do.
    """
    p = Path(path)
    try:
        # utf-8-sig: a file edited by hand in Windows' Notepad begins with a byte-order mark.
        text = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CalibrationError(f"{p}: cannot read calibration file ({exc.strerror or exc})") from exc
    except UnicodeDecodeError:
        raise CalibrationError(f"{p}: calibration file is not UTF-8 text") from None
    try:
        # A key twice (Python keeps the last: a second die size added by hand would win
        # unseen) and an integer of over 4300 digits are refused in words.
        data = json.loads(text, parse_int=whole_number, object_pairs_hook=unique_keys)
    except ValueError as exc:
        raise CalibrationError(f"{p}: calibration file is not valid JSON ({exc})") from None
    except RecursionError:
        raise CalibrationError(f"{p}: calibration file is not valid JSON (nested too deeply)") from None
    try:
        return Calibration.from_json(data)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise CalibrationError(f"{p}: bad calibration file: {exc}") from None


def save_calibration(cal: Calibration, path: str | os.PathLike[str]) -> None:
    """Write the calibration atomically: a temp file in the same folder, then a rename.

    A reader of the file (or a crash mid-write) sees either the old or the new
    calibration, never half of one.
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(cal.to_json(), indent=1)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
