"""Taught picture faces: a die face with a logo instead of pips, and the value its
owner says it stands for (kept in the calibration as a small grey template)."""
from __future__ import annotations

import cv2
import numpy as np

from calibration import PictureFace
from vision.crops import cut

TEMPLATE_PX = 32
MATCH_THRESHOLD = 0.6  # normalised correlation a face needs to count as the taught one
_ANGLES = tuple(range(0, 360, 15))


def face_template(image: np.ndarray, x: float, y: float, face: float) -> np.ndarray:
    """The grey, face-only crop of a die's top face used as (and matched to) a template."""
    crop = cut(image, x, y, face, out=TEMPLATE_PX, scale=0.9)
    return cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)


def teach(image: np.ndarray, x: float, y: float, face: float, value: int) -> PictureFace:
    """A :class:`PictureFace` from a die in a frame: what a calibration wizard stores."""
    return PictureFace(int(value), face_template(image, x, y, face))


def match(image: np.ndarray, x: float, y: float, face: float,
          taught: tuple[PictureFace, ...]) -> tuple[int, float] | None:
    """The taught value this die's face shows, and the match score, or ``None``.

    The die may lie at any angle, so the template is compared at every 15 degrees.
    """
    if not taught:
        return None
    grey = face_template(image, x, y, face).astype(np.float32)
    best: tuple[int, float] | None = None
    c = TEMPLATE_PX / 2 - 0.5
    for pf in taught:
        tpl = cv2.resize(pf.template, (TEMPLATE_PX, TEMPLATE_PX)).astype(np.float32)
        for a in _ANGLES:
            m = cv2.getRotationMatrix2D((c, c), a, 1.0)
            rot = cv2.warpAffine(tpl, m, (TEMPLATE_PX, TEMPLATE_PX), borderMode=cv2.BORDER_REPLICATE)
            score = float(cv2.matchTemplate(grey, rot, cv2.TM_CCOEFF_NORMED)[0, 0])
            if best is None or score > best[1]:
                best = (pf.value, score)
    if best is None or best[1] < MATCH_THRESHOLD:
        return None
    return best
