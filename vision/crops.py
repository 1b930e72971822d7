"""The die crop both the classifier's training and the reader cut: one definition, so
what the network saw in training is exactly what it sees at run time."""
from __future__ import annotations

import cv2
import numpy as np

CROP_PX = 32  # classifier input side
CROP_SCALE = 1.4  # crop side relative to the die's top face: the face plus a margin


def crop_matrix(cx: float, cy: float, side: float, angle_deg: float = 0.0,
                out: int = CROP_PX) -> np.ndarray:
    """The affine map taking a ``side``-px square centred at (cx, cy), turned by
    ``angle_deg``, onto an ``out``×``out`` crop."""
    scale = out / max(side, 1.0)
    m = cv2.getRotationMatrix2D((cx, cy), angle_deg, scale)
    m[0, 2] += out / 2 - cx
    m[1, 2] += out / 2 - cy
    return m


def cut(image: np.ndarray, cx: float, cy: float, face: float, angle_deg: float = 0.0,
        out: int = CROP_PX, scale: float = CROP_SCALE) -> np.ndarray:
    """The classifier's crop of a die whose top face is ``face`` px, centred at (cx, cy)."""
    m = crop_matrix(cx, cy, face * scale, angle_deg, out)
    # Area-like smoothing when shrinking a lot keeps small pips from aliasing away.
    shrink = face * scale / out
    src = image
    if shrink > 2.5:
        k = int(shrink) | 1
        blur = k // 2 + 1
        x0 = max(0, int(cx - face * scale))
        y0 = max(0, int(cy - face * scale))
        # Blurred only as far right and down as the crop reads: the turned square's half
        # extent, then a pixel for the bilinear neighbour and the blur's own reach, with
        # room to spare (a square as far again was blurred for nothing: about 40 % of
        # the blurring); and, for a crop beyond the left or top edge, which
        # repeats the edge, the blur's reach from there. The left and top edges stay
        # where they were: the crop's matrix is taken from them, and moved, its float
        # rounding could move a pixel.
        turn = np.deg2rad(angle_deg)
        reach = face * scale / 2 * (abs(np.cos(turn)) + abs(np.sin(turn))) + blur + 2
        x1 = min(image.shape[1], int(cx + face * scale) + 1, max(x0 + blur, int(cx + reach)) + 1)
        y1 = min(image.shape[0], int(cy + face * scale) + 1, max(y0 + blur, int(cy + reach)) + 1)
        src = image[y0:y1, x0:x1]
        src = cv2.blur(src, (blur, blur)) if src.size else src
        m[0, 2] += m[0, 0] * x0 + m[0, 1] * y0
        m[1, 2] += m[1, 0] * x0 + m[1, 1] * y0
    return cv2.warpAffine(src, m, (out, out), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
