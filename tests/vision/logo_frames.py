"""Simulated tray frames with a die whose top face is a logo (for the taught-face tests)."""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision.sim import TrayStyle, render_tray


def frame_with_logo(seed: int, canvas: np.ndarray, face: float,
                    angle: float) -> tuple[np.ndarray, tuple[int, int], float]:
    """A simulated tray with two dice (a 3 and a 6) and a die showing the logo face
    ``canvas`` (whose face is ``face`` px) at ``angle``, pasted where it is farthest from
    them; returns the frame, the logo's centre and the die side."""
    rng = np.random.default_rng(seed)
    style = dataclasses.replace(TrayStyle.random(rng, (640, 480)), tilt=0.0, clutter=0)
    image, truth = render_tray(rng, [3, 6], (640, 480), style=style)
    side = truth[0].side
    centre = (canvas.shape[1] / 2, canvas.shape[0] / 2)
    m = cv2.getRotationMatrix2D(centre, angle, side / face)
    turned = cv2.warpAffine(canvas, m, canvas.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
    spots = [(x, y) for x in (140, 320, 500) for y in (130, 350)]
    x, y = max(spots, key=lambda p: min(np.hypot(p[0] - d.center[0], p[1] - d.center[1])
                                        for d in truth))
    k = int(side * 0.75)
    cy, cx = turned.shape[0] // 2, turned.shape[1] // 2
    image[y - k:y + k, x - k:x + k] = turned[cy - k:cy + k, cx - k:cx + k]
    return image, (x, y), side
