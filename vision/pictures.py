"""Taught picture faces: a die face with a logo instead of pips, and the value its
owner says it stands for (kept in the calibration as a small grey template)."""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.calibration_data import PictureFace
from vision.crops import cut
from vision.reader import face_of

TEMPLATE_PX = 32
MATCH_THRESHOLD = 0.6  # normalised correlation a face needs to count as the taught one
_ANGLES = tuple(range(0, 360, 15))
_SCALES = (0.87, 1.0, 1.15)  # the size estimate of a die varies from frame to frame
_SLACK = 4  # pixels of shift searched each way: the centre estimate varies too
FACE_SCALE = 0.9  # the template covers this much of the face (its edge is noisy)


def face_template(image: np.ndarray, x: float, y: float, face: float,
                  slack: int = 0) -> np.ndarray:
    """The grey, face-only crop of a die's top face used as (and matched to) a template.

    ``slack`` adds that many pixels on each side, at the same pixel scale."""
    out = TEMPLATE_PX + 2 * slack
    crop = cut(image, x, y, face, out=out, scale=FACE_SCALE * out / TEMPLATE_PX)
    return np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY))


def teach_from_box(image: np.ndarray, center: Sequence[float], box: Sequence[float],
                   value: int) -> PictureFace:
    """A :class:`PictureFace` from a die's ``center`` and ``box`` as ``dicetray read
    --json`` gives them (the control page teaches from these)."""
    face = face_of(box)
    return teach(image, float(center[0]), float(center[1]), face, value)


def teach(image: np.ndarray, x: float, y: float, face: float, value: int) -> PictureFace:
    """A :class:`PictureFace` from a die in a frame: what a calibration wizard stores."""
    return PictureFace(int(value), face_template(image, x, y, face))


def match(image: np.ndarray, x: float, y: float, face: float,
          taught: tuple[PictureFace, ...]) -> tuple[int, float] | None:
    """The taught value this die's face shows, and the match score, or ``None``.

    The die may lie at any angle, so the template is compared at every 15 degrees, at
    three sizes and a few pixels' shift, as the reader's estimates of a die vary.
    """
    if not taught:
        return None
    views = [face_template(image, x, y, face * k, _SLACK).astype(np.float32) for k in _SCALES]
    best: tuple[int, float] | None = None
    c = TEMPLATE_PX / 2 - 0.5
    for pf in taught:
        tpl = cv2.resize(pf.template, (TEMPLATE_PX, TEMPLATE_PX)).astype(np.float32)
        for a in _ANGLES:
            m = cv2.getRotationMatrix2D((c, c), a, 1.0)
            rot = cv2.warpAffine(tpl, m, (TEMPLATE_PX, TEMPLATE_PX), borderMode=cv2.BORDER_REPLICATE)
            for grey in views:
                score = float(cv2.matchTemplate(grey, rot, cv2.TM_CCOEFF_NORMED).max())
                if best is None or score > best[1]:
                    best = (pf.value, score)
    if best is None or best[1] < MATCH_THRESHOLD:
        return None
    return best
