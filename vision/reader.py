"""Read the dice in one camera frame: find every die and read its top face.

``read_dice`` is the one entry point the rest of dicetray uses. It runs the learned
reader (a small die-centre network and a crop classifier, both ONNX files under
``vision/models/`` run by OpenCV's dnn module) when the model files are present, and
otherwise falls back to the classic pip-grouping recipe so the appliance still works
(badly) in a checkout without models.

Every die gets a confidence in 0-1. A die whose confidence is below :data:`THRESHOLD`,
or that is tilted, or that shows a picture face nobody has taught, or that the detector
is sure of but the classifiers doubt is a die at all, or whose face runs out of the
picture, or that lies closer to a tilted die than a flat die could, or that was read in a
frame too grainy to trust (:mod:`vision.noise`), is *flagged*: a
person confirms it on the control page instead of it being scored silently.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.calibration_data import Calibration

# Fixed before any measurement on the check split: a die read below this confidence is
# flagged for a person. Chosen to favour flagging over misreading (a misread costs trust).
THRESHOLD = 0.85

BOX_HALF = 0.6  # a die's reported box reaches this many face sides from its centre

REASON_LOW = "low confidence"
REASON_TILTED = "tilted"
REASON_PICTURE = "picture face"
REASON_MAYBE_NOT_DIE = "maybe not a die"
REASON_CUT = "cut by the picture's edge"
REASON_BESIDE_TILTED = "beside a tilted die"
REASON_NOISY = "noisy picture: more light on the tray"


def face_of(box: Any) -> float:
    """The side of a die's top face from the ``box`` the reader reports for it, which
    reaches :data:`BOX_HALF` of the face from its centre.

    >>> face_of((10, 10, 34, 34))
    20.0
    """
    return (float(box[2]) - float(box[0])) / (2 * BOX_HALF)


@dataclass(frozen=True)
class DieRead:
    """One die found in a frame.

    ``value`` is 1-6, or ``None`` when there is no best guess (tilted, unreadable);
    ``center`` the centre of its top face and ``box`` ``(x0, y0, x1, y1)``, both in
    frame pixels; ``flagged`` means a person should confirm it, ``reason`` says why.
    """

    value: int | None
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    confidence: float
    flagged: bool
    reason: str | None

    @property
    def face(self) -> float:
        """The side of its top face in frame pixels."""
        return face_of(self.box)

    def to_json(self) -> dict[str, Any]:
        """The die in the shape of ``dicetray read --json``."""
        return {
            "value": self.value,
            "center": [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
            "box": [round(float(v), 1) for v in self.box],
            "confidence": round(float(self.confidence), 4),
            "flagged": bool(self.flagged),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Reading:
    """Everything read from one frame, and how long the read took (ms).

    ``seen_size`` is, when the dice were cut at a calibrated die size, the median face
    side (frame pixels) the detector saw them at: far from the calibrated size, throw
    after throw, it tells that the size has gone stale (``calibration.die_size``).
    ``None`` without a calibrated size or with no die."""

    dice: tuple[DieRead, ...]
    ms: float
    seen_size: float | None = None

    @property
    def values(self) -> tuple[int, ...]:
        """Values of the dice that need no confirmation, in reading order."""
        return tuple(d.value for d in self.dice if not d.flagged and d.value is not None)

    @property
    def flagged(self) -> bool:
        """Whether any die needs a person to confirm it."""
        return any(d.flagged for d in self.dice)

    def to_json(self) -> dict[str, Any]:
        """The reading in the shape of ``dicetray read --json`` (without ``file``)."""
        return {"dice": [d.to_json() for d in self.dice], "ms": round(self.ms, 2)}


def make_die(
    value: int | None,
    center: tuple[float, float],
    box: tuple[float, float, float, float],
    confidence: float,
    *,
    tilted: bool = False,
    picture: bool = False,
    maybe_not_die: bool = False,
    cut: bool = False,
    beside_tilted: bool = False,
    noisy: bool = False,
) -> DieRead:
    """Build a :class:`DieRead`, applying the flagging rules in one place."""
    if maybe_not_die:
        return DieRead(None, center, box, confidence, True, REASON_MAYBE_NOT_DIE)
    if cut:
        return DieRead(value, center, box, confidence, True, REASON_CUT)
    if tilted:
        return DieRead(None, center, box, confidence, True, REASON_TILTED)
    if picture:
        return DieRead(value, center, box, confidence, True, REASON_PICTURE)
    if beside_tilted:
        return DieRead(value, center, box, confidence, True, REASON_BESIDE_TILTED)
    if noisy:
        return DieRead(value, center, box, confidence, True, REASON_NOISY)
    if value is None or confidence < THRESHOLD:
        return DieRead(value, center, box, confidence, True, REASON_LOW)
    return DieRead(value, center, box, confidence, False, None)


def _as_bgr(image: np.ndarray) -> np.ndarray:
    """A grey, BGR or BGRA 8-bit frame as BGR (cameras often deliver four channels)."""
    if image is None or image.ndim not in (2, 3) or image.size == 0:
        raise ValueError("read_dice needs a non-empty BGR image")
    if image.dtype != np.uint8:
        raise ValueError(f"read_dice needs an 8-bit image, not {image.dtype}")
    channels = 1 if image.ndim == 2 else image.shape[2]
    if channels not in (1, 3, 4):
        raise ValueError(f"read_dice needs a grey, BGR or BGRA image, not {channels} channels")
    if channels == 3:
        return image
    import cv2  # local: only these rarer frames need it here

    return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR if channels == 1 else cv2.COLOR_BGRA2BGR)


# One read at a time in the process: the networks are loaded once and shared, as are the
# detector's kept input blobs and the empty tray's kept values (vision.detect,
# vision.changed), and one OpenCV network must not run in two threads at once. A table
# reads in its service thread while a request may read too (taking the empty tray).
_READING = threading.Lock()


def read_dice(image: np.ndarray, calibration: Calibration | None = None) -> Reading:
    """Find and read every die in a BGR frame.

    Works with no calibration (die size found from the image); with one, it looks only
    inside the tray, at the calibrated die size, ignores what the empty tray already
    shows (a die printed on the felt), and reads taught picture faces.
    """
    image = _as_bgr(image)
    from vision import pipeline  # late import: keeps model loading out of import time

    with _READING:
        start = time.perf_counter()
        if calibration is not None:
            # A calibration made at another resolution is scaled (or, for another view,
            # stripped of its positions) rather than applied at the wrong place.
            calibration = calibration.for_frame(image.shape[1], image.shape[0])
        dice, seen_size = pipeline.read(image, calibration)
        ms = (time.perf_counter() - start) * 1000.0
    return Reading(tuple(dice), ms, seen_size)
