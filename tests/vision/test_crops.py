"""The die crop (vision.crops.cut): a big die's crop blurs only what it reads."""
from __future__ import annotations

import cv2
import numpy as np

from vision.crops import crop_matrix, cut


def _cut_blurring_all_round(image: np.ndarray, cx: float, cy: float, face: float,
                            angle_deg: float, out: int, scale: float) -> np.ndarray:
    """The crop as it was first written: the die's surroundings blurred a whole crop
    side all round it before the crop is cut from them."""
    m = crop_matrix(cx, cy, face * scale, angle_deg, out)
    side = face * scale
    src = image
    if side / out > 2.5:
        k = int(side / out) | 1
        x0, y0 = max(0, int(cx - side)), max(0, int(cy - side))
        x1 = min(image.shape[1], int(cx + side) + 1)
        y1 = min(image.shape[0], int(cy + side) + 1)
        src = image[y0:y1, x0:x1]
        src = cv2.blur(src, (k // 2 + 1, k // 2 + 1)) if src.size else src
        m[0, 2] += m[0, 0] * x0 + m[0, 1] * y0
        m[1, 2] += m[1, 0] * x0 + m[1, 1] * y0
    return cv2.warpAffine(src, m, (out, out), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def test_a_big_dies_crop_is_the_crop_of_its_blurred_surroundings() -> None:
    """Every pixel of the crop as the reader's networks were trained on it, for dice
    anywhere (at the picture's edges and beyond them too), of any size and turn."""
    rng = np.random.default_rng(5)
    compared = 0
    for picture in range(20):
        h, w = int(rng.integers(60, 500)), int(rng.integers(60, 700))
        image = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), np.uint8), (0, 0), 0.7)
        for _ in range(100):
            face = float(rng.uniform(20, 300))
            out = int(rng.choice([8, 32, 40, 56]))
            scale = float(rng.choice([1.4, 1.75]))
            side = face * scale
            # Near an edge a third of the time: that is where the blurred part ends.
            cx = float(rng.choice([rng.uniform(0, w), rng.uniform(-side, side),
                                   w + rng.uniform(-side, side)]))
            cy = float(rng.choice([rng.uniform(0, h), rng.uniform(-side, side),
                                   h + rng.uniform(-side, side)]))
            angle = float(rng.choice([0.0, 45.0, rng.uniform(-180.0, 180.0)]))
            if min(cx + side, cy + side) < 1 or cx - side >= w or cy - side >= h:
                continue  # nothing of the picture left to cut from
            expected = _cut_blurring_all_round(image, cx, cy, face, angle, out, scale)
            np.testing.assert_array_equal(cut(image, cx, cy, face, angle, out, scale), expected)
            compared += side / out > 2.5
    assert compared > 1000  # most were big enough to be blurred
