"""Find dice: the die-centre network (``models/detector.onnx``) and its decoding.

The frame (or, with a calibration, the tray's bounding box) is shrunk so the long
side is :data:`LONG_SIDE` px, or so a calibrated die is :data:`CAL_DIE_PX` px; without
a calibration, coarser and finer passes look for dice too big or too small for that. The
network returns, at a quarter of that resolution, a die-centre heatmap, the log of the
top face's size and the centre's sub-cell offset; local maxima above
:data:`PEAK_THRESHOLD` are dice.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.calibration_data import Calibration
from vision import changed
from vision.nets import read_onnx

MODEL = Path(__file__).resolve().parent / "models" / "detector.onnx"
STRIDE = 4
LONG_SIDE = 320
# With a known die size, shrink so a die face is this big, when that is smaller than
# the usual pass. At 14 px touching dice merge: with a calibration the reader read
# 77.7 % of the dice in simulated trays of 12 clustered dice (89.2 % at 18 px, 85.4 %
# without a calibration) and 83.8 % in trays of 6 (94.2 % at 18 px); held-out train
# photos and simulated loose frames read as well or better at 18 px. It costs about
# 1 ms at 640x480.
CAL_DIE_PX = 18.0
PEAK_THRESHOLD = 0.3  # heat a peak needs to be a candidate (fixed on the train split)
# The net was trained on dice up to about 50 px at LONG_SIDE (15 % of the frame's
# width): a close-up of a few dice finds nothing. detect_coarse looks again at 1/2 and
# 1/4 of LONG_SIDE, keeping peaks with a face of COARSE_MIN_FACE px or more there.
# The reader runs them when the usual pass reads no die surely, or when a die it reads
# surely is BIG_FACE px or more at LONG_SIDE (near the largest it was trained on), as
# such a frame may hold dice it cannot see. Simulated 640x480 trays (25 each) read
# entirely right with dice 15 % / 25 % / 35 % of the width: one pass 4 / 0 / 0, coarse
# passes always 16 / 19 / 22, only when nothing is sure 7 / 19 / 22.
COARSE_PASSES = 2
COARSE_MIN_FACE = 20.0
BIG_FACE = 32.0
# At the other end, the net saw dice down to about 10 px at LONG_SIDE (3 % of the
# frame's width); a frame taken from further away loses them. The reader runs
# detect_fine, a pass at twice LONG_SIDE (never above the frame's own size), when it
# reads no die surely or when the dice it reads surely are smaller than SMALL_FACE px
# at LONG_SIDE; that pass keeps the dice under FINE_MAX_FACE px at LONG_SIDE (the
# usual pass sees the bigger ones). Simulated 1280x960 frames of four dice 2.5 % / 3 %
# of the width across (20 each) read entirely right: 2 / 7 without it, 14 / 15 with
# it. byler-d6 train photos set in a frame twice their size (the tray seen from twice
# as high): 57 % of dice right without it, 95 % with it (96 % at their own size). It
# runs on no photo of either shared folder at its own size.
SMALL_FACE = 12.0
FINE_MAX_FACE = 18.0


@dataclass(frozen=True)
class Candidate:
    """A possible die: top-face centre and face size in frame pixels, and the heat.

    ``seen`` is the face size the detector saw, where ``face`` was set to a calibrated
    die size instead (``None`` otherwise)."""

    x: float
    y: float
    face: float
    score: float
    seen: float | None = None


class NotSpaceToDepth(ValueError):
    """The detector file takes the picture as three channels, not as :func:`_blob` gives it."""


@lru_cache(maxsize=1)
def _net() -> cv2.dnn.Net:
    # OpenCV 5's new engine runs this fully-convolutional net fastest (measured here).
    net = read_onnx(str(MODEL), "new")
    if not _reads_blocks(net):
        raise NotSpaceToDepth(
            f"{MODEL} takes the picture as three channels; the reader gives it 2x2 blocks "
            "of pixels: rewrite it with python -m vision.training.space_to_depth")
    return net


def _reads_blocks(net: cv2.dnn.Net) -> bool:
    """Whether ``net`` takes :func:`_blob`'s input. OpenCV does not refuse a blob of the
    wrong channel count: a net made for three channels reads the 16 as if they were a
    picture of half the size and finds dice that are not there, so this asks: a 32 px
    picture must come out as a quarter of it, 8x8."""
    net.setInput(_blob(np.zeros((32, 32, 3), np.uint8)))
    return tuple(net.forward().shape[2:]) == (8, 8)


def available() -> bool:
    """Whether the detector model is in this checkout."""
    return MODEL.is_file()


def _bounds(image: np.ndarray, calibration: Calibration | None) -> tuple[int, int, int, int]:
    """The part of the frame searched: the calibrated tray's bounding box, or all."""
    h, w = image.shape[:2]
    if calibration is not None and calibration.tray is not None:
        return calibration.tray_bounds(w, h)
    return 0, 0, w, h


def usual_scale(image: np.ndarray, calibration: Calibration | None) -> float:
    """How much :func:`detect` shrinks the frame (frame px to its pass's px)."""
    return _region(image, calibration)[4]


def _region(image: np.ndarray, calibration: Calibration | None) -> tuple[int, int, int, int, float]:
    x0, y0, x1, y1 = _bounds(image, calibration)
    scale = LONG_SIDE / max(x1 - x0, y1 - y0)
    if calibration is not None and calibration.die_size_px:
        # A known die size makes the pass smaller when the dice are big, never bigger
        # than the pass without it.
        scale = min(scale, CAL_DIE_PX / calibration.die_size_px)
    return x0, y0, x1, y1, min(scale, 2.0)


# A frame region's halvings by their size (width, height), as _shrink makes them: one
# read's passes over the same region share them (the coarse passes start from the usual
# pass's halving instead of halving the frame again, ~0.2 ms a 640x480 photo).
Halvings = dict[tuple[int, int], np.ndarray]


def _shrink(roi: np.ndarray, w: int, h: int, halvings: Halvings | None = None) -> np.ndarray:
    """Resize ``roi`` to ``w``×``h`` as an area average, fast.

    OpenCV's area resize is quick only for whole-number ratios (about 0.1 ms for a
    640 px halving, 1.8 ms for a ratio of 2.2), so halve while the ratio allows, then
    finish with a bilinear step of less than 2×, which adds no aliasing to speak of.
    The halvings are taken from and kept in ``halvings``, which must be this ``roi``'s.
    """
    src = roi
    while src.shape[1] >= 2 * w and src.shape[0] >= 2 * h:
        size = (src.shape[1] // 2, src.shape[0] // 2)
        half = halvings.get(size) if halvings is not None else None
        if half is None:
            half = cv2.resize(src, size, interpolation=cv2.INTER_AREA)
            if halvings is not None:
                halvings[size] = half
        src = half
    if src.shape[1] != w or src.shape[0] != h:
        src = cv2.resize(src, (w, h), interpolation=cv2.INTER_LINEAR)
    return src


def detect(image: np.ndarray, calibration: Calibration | None = None, *,
           suppress: bool = True, limit: int = 64, halvings: Halvings | None = None
           ) -> list[Candidate]:
    """Candidate dice in a BGR frame, strongest first (at most ``limit``).

    With ``suppress`` a weaker candidate near a stronger one is dropped here; the reader
    instead suppresses after the classifier has rejected non-dice, so a false peak on
    one pip cannot hide the die's real centre. ``halvings``, given to each pass over
    this frame with this calibration (:func:`detect_coarse`, :func:`detect_fine`),
    keeps the searched region's halvings for the others.
    """
    x0, y0, x1, y1, scale = _region(image, calibration)
    w = max(16, round((x1 - x0) * scale))
    h = max(16, round((y1 - y0) * scale))
    small = _shrink(image[y0:y1, x0:x1], w, h, halvings)
    sx, sy = w / (x1 - x0), h / (y1 - y0)
    boxes = _changed(small, image.shape, calibration, (x0, y0, x1, y1), scale)
    if boxes is None:
        out = _peaks(small, x0, y0, sx, sy, 0.0)
    else:
        # Only where the tray differs from its empty picture (vision.changed).
        out = [c for bx0, by0, bx1, by1 in boxes
               for c in _peaks(small[by0:by1, bx0:bx1], x0 + bx0 / sx, y0 + by0 / sy, sx, sy, 0.0)]
    out.sort(key=lambda c: -c.score)
    out = out[:limit]
    return suppress_near(out) if suppress else out


# Where the tray differs from its empty picture: vision.changed; default die size (in
# the pass's pixels) without a calibrated one, about the middle of what it was trained on.
PASS_DIE_PX = 16.0
_empty_cache: list[tuple[np.ndarray, tuple[int, ...], np.ndarray]] = []


def _changed(small: np.ndarray, frame_shape: tuple[int, ...], calibration: Calibration | None,
             region: tuple[int, int, int, int], scale: float
             ) -> list[tuple[int, int, int, int]] | None:
    """The boxes of ``small`` (the pass's picture of ``region``) that differ from the
    calibrated empty tray; ``None`` to search it all (no empty tray, or mostly changed)."""
    if calibration is None or calibration.background is None:
        return None
    background = calibration.background
    if background.shape != frame_shape:
        return None  # not this camera's picture of this tray
    empty = _empty_at(background, region, small.shape[1], small.shape[0])
    die_px = calibration.die_size_px * scale if calibration.die_size_px else PASS_DIE_PX
    return changed.changed_boxes(small, empty, die_px)


def _empty_at(background: np.ndarray, region: tuple[int, int, int, int], w: int, h: int
              ) -> np.ndarray:
    """The empty tray shrunk as the pass shrinks the frame; kept for the next frame,
    which almost always has the same calibration (one entry, held by identity)."""
    key = (*region, w, h)
    if _empty_cache and _empty_cache[0][0] is background and _empty_cache[0][1] == key:
        return _empty_cache[0][2]
    x0, y0, x1, y1 = region
    empty = _shrink(background[y0:y1, x0:x1], w, h)
    _empty_cache[:] = [(background, key, empty)]
    return empty


def detect_coarse(image: np.ndarray, calibration: Calibration | None = None, *,
                  limit: int = 64, halvings: Halvings | None = None) -> list[Candidate]:
    """Dice too big for :func:`detect`'s pass (a close-up), strongest first.

    The frame is searched again at 1/2 and 1/4 of :data:`LONG_SIDE`; only peaks with
    a face of :data:`COARSE_MIN_FACE` px or more there count, as the usual pass finds
    the smaller ones better. ``halvings`` as for :func:`detect`."""
    x0, y0, x1, y1 = _bounds(image, calibration)
    scale = LONG_SIDE / 2 / max(x1 - x0, y1 - y0)
    # At least a pixel: a strip of a photo (a few pixels by thousands) would round its
    # short side to nothing, which OpenCV cannot resize to; the loop below then stops.
    small = _shrink(image[y0:y1, x0:x1], max(1, round((x1 - x0) * scale)),
                    max(1, round((y1 - y0) * scale)), halvings)
    out: list[Candidate] = []
    for _ in range(COARSE_PASSES):
        h, w = small.shape[:2]
        if min(w, h) < 32:
            break
        out += _peaks(small, x0, y0, w / (x1 - x0), h / (y1 - y0), COARSE_MIN_FACE)
        # Each further pass halves the last one's picture instead of the frame again.
        small = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    out.sort(key=lambda c: -c.score)
    return out[:limit]


def detect_fine(image: np.ndarray, calibration: Calibration | None = None, *,
                limit: int = 64, halvings: Halvings | None = None) -> list[Candidate]:
    """Dice too small for :func:`detect`'s pass (a frame taken from far away).

    The frame is searched at twice :data:`LONG_SIDE`, or at its own size if that is
    smaller; nothing is returned when that is no finer than the usual pass.
    ``halvings`` as for :func:`detect`."""
    x0, y0, x1, y1, usual = _region(image, calibration)
    scale = min(1.0, 2 * LONG_SIDE / max(x1 - x0, y1 - y0))
    if scale < 1.5 * usual:
        return []
    w, h = max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale))  # as above
    small = _shrink(image[y0:y1, x0:x1], w, h, halvings)
    out = [c for c in _peaks(small, x0, y0, w / (x1 - x0), h / (y1 - y0), 0.0)
           if c.face * usual < FINE_MAX_FACE]
    out.sort(key=lambda c: -c.score)
    return out[:limit]


def _peaks(small: np.ndarray, x0: float, y0: float, sx: float, sy: float,
           min_face: float) -> list[Candidate]:
    """The network's peaks on ``small`` (the region from (x0, y0) scaled by sx, sy) as
    candidates in frame pixels; only those at least ``min_face`` px big in ``small``."""
    h, w = small.shape[:2]
    # The network halves three times; pad to a multiple of 16 with edge pixels.
    pw, ph = -w % 16, -h % 16
    if pw or ph:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    net = _net()
    net.setInput(_blob(small, reuse=True))
    maps = net.forward()[0]
    heat = maps[0]
    peaks = (heat >= PEAK_THRESHOLD) & (heat >= cv2.dilate(heat, _NEIGHBOURS))
    ys, xs = np.nonzero(peaks)
    # Every peak's heat, log size and offsets gathered at once (numpy's per-element
    # indexing costs more than the rest of the loop); the sizes are exponentiated in
    # float32, as the maps are.
    at_peaks = maps[:4, ys, xs]
    scores, _, dxs, dys = at_peaks.tolist()
    faces = np.exp(at_peaks[1]).tolist()
    out: list[Candidate] = []
    for iy, ix, dx, dy, face, score in zip(ys.tolist(), xs.tolist(), dxs, dys, faces, scores):
        px = (ix + dx) * STRIDE
        py = (iy + dy) * STRIDE
        if px >= w or py >= h:
            continue  # a peak in the padding
        if face < min_face:
            continue
        out.append(Candidate(x0 + px / sx, y0 + py / sy, face / sx, score))
    return out


_NEIGHBOURS = np.ones((3, 3), np.uint8)  # a peak is the largest of its 3x3 neighbourhood


# The network's input channels: a 2x2 block of BGR pixels (12), padded to two of OpenCV's
# blocks of eight (vision/training/space_to_depth.py rewrites the exported net to match).
BLOB_CHANNELS = 16
# The blobs of the last few pass sizes, kept to be filled again: a new 1.6 MB array for
# each 640 px frame is memory the system must map and zero anew, about 0.3 ms a read
# here. Each is read by the network before the next pass of its size fills it: reads
# never overlap in a process (vision.reader.read_dice holds a lock).
_kept_blobs: dict[tuple[int, int, int, int], np.ndarray] = {}
KEPT_BLOBS = 4


def _blob(small: np.ndarray, reuse: bool = False) -> np.ndarray:
    """The network's input for a BGR picture of even height and width: its 2x2 blocks of
    pixels stacked as 16 channels at half the size (channel ``(dy * 2 + dx) * 3 + c`` of
    cell (i, j) is colour c of pixel (2i + dy, 2j + dx), 0-1; the last four are zero).

    The committed net takes its picture this way because OpenCV runs a first layer on
    three channels slowly (vision/training/space_to_depth.py, which rewrites the
    exported net to match). With ``reuse`` the blob is the one last given for a picture
    of this size, overwritten.

    >>> _blob(np.full((4, 6, 3), 255, np.uint8)).shape
    (1, 16, 2, 3)
    """
    h, w = small.shape[:2]
    cells = small.reshape(h // 2, 2, w // 2, 2, 3).transpose(1, 3, 4, 0, 2)
    shape = (1, BLOB_CHANNELS, h // 2, w // 2)
    blob = _kept_blobs.get(shape) if reuse else None
    if blob is None:
        blob = np.zeros(shape, np.float32)  # the padding channels stay zero when reused
        if reuse:
            if len(_kept_blobs) >= KEPT_BLOBS:
                _kept_blobs.clear()
            _kept_blobs[shape] = blob
    np.multiply(cells.reshape(12, h // 2, w // 2), np.float32(1.0 / 255.0), out=blob[0, :12],
                casting="unsafe")
    return blob


def suppress_near(cands: list[Candidate]) -> list[Candidate]:
    """Drop a candidate whose centre lies within half a face of an earlier one.

    ``cands`` must be ordered best first."""
    if not cands:
        return []
    # Whether each two lie apart, for all pairs at once: numpy's hypot called pair by
    # pair cost more than the rest of the read's bookkeeping (the same values: c.x - k.x
    # in float64, and hypot, either way).
    xs, ys, faces = (np.array(v) for v in zip(*((c.x, c.y, c.face) for c in cands)))
    apart = (np.hypot(xs[:, None] - xs, ys[:, None] - ys)
             > 0.5 * np.maximum(faces[:, None], faces)).tolist()
    kept: list[int] = []
    for i, far in enumerate(apart):
        if all(far[k] for k in kept):
            kept.append(i)
    return [cands[i] for i in kept]
