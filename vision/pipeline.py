"""Chooses how to read a frame: the learned models when present, else the classic recipe."""
from __future__ import annotations

import statistics

import numpy as np

from vision.calibration_data import Calibration
from vision import noise
from vision.reader import DieRead, make_die


def read(image: np.ndarray, calibration: Calibration | None
         ) -> tuple[list[DieRead], float | None]:
    """Read the dice in ``image`` with the best reader available in this checkout, and the
    size the dice looked where they were cut at a calibrated size (the learned reader
    only; see ``vision.learned._seen_size``).

    A grainy frame is smoothed, or its dice held for a person, by its grain as the nets
    see it at the dice's size (:func:`vision.noise.judged_at`): the calibrated die size,
    or without one, the size of the dice a first read of it found.
    """
    from vision.exposure import brightened

    image = brightened(image)
    grain = noise.grain(image)
    if not grain.calls_for_anything:
        return _read_quieted(image, grain, calibration)
    if calibration is not None and calibration.die_size_px:
        return _read_quieted(image, noise.judged_at(image, calibration.die_size_px, grain),
                             calibration)
    first = _read_quieted(image, grain, calibration)
    judged = noise.judged_at(image, _face(first[0]), grain)
    if (judged.blur, judged.held) == (grain.blur, grain.held):
        return first            # judged alike at the dice's size: the first read stands
    return _read_quieted(image, judged, calibration)


def _read_quieted(image: np.ndarray, grain: noise.Grain, calibration: Calibration | None
                  ) -> tuple[list[DieRead], float | None]:
    """``image``, whose grain is ``grain``, smoothed as that asks and read; its dice held
    for a person if that asks."""
    from vision import learned

    image = noise.quieted(image, grain)
    if learned.available():
        dice, seen_size = learned.read(image, calibration)
    else:
        dice, seen_size = _read_classic(image, calibration), None
    return (noise.flag_noisy(dice) if grain.held else dice), seen_size


def _face(dice: list[DieRead]) -> float | None:
    """The median top face (px) of the dice read with a value, ``None`` if there is none."""
    faces = [d.face for d in dice if d.value is not None]
    return statistics.median(faces) if faces else None


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
