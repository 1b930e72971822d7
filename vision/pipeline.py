"""Chooses how to read a frame: the learned models when present, else the classic recipe."""
from __future__ import annotations

import numpy as np

from calibration import Calibration
from vision.reader import DieRead, make_die


def read(image: np.ndarray, calibration: Calibration | None
         ) -> tuple[list[DieRead], float | None]:
    """Read the dice in ``image`` with the best reader available in this checkout, and the
    size the dice looked where they were cut at a calibrated size (the learned reader
    only; see ``vision.learned._seen_size``)."""
    from vision import learned, noise
    from vision.exposure import brightened

    image = brightened(image)
    grain = noise.grain(image)
    image = noise.quieted(image, grain)
    if learned.available():
        dice, seen_size = learned.read(image, calibration)
    else:
        dice, seen_size = _read_classic(image, calibration), None
    return (noise.flag_noisy(dice) if grain.held else dice), seen_size


def _read_classic(image: np.ndarray, calibration: Calibration | None) -> list[DieRead]:
    # The classic recipe has no notion of confidence; give it one just under the
    # threshold so a person confirms everything it reads.
    from vision.baseline import read_baseline

    out = []
    for d in read_baseline(image):
        if calibration is not None and not calibration.in_tray(*d.center):
            continue
        out.append(make_die(d.value, d.center, d.box, 0.5))
    return out
