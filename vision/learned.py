"""The learned reader: find dice with the detector, read each with the classifier."""
from __future__ import annotations

import numpy as np

from calibration import Calibration
from vision import classify, detect, pictures
from vision.reader import THRESHOLD, DieRead, make_die


def available() -> bool:
    """Whether both model files are in this checkout."""
    return detect.available() and classify.available()


def read(image: np.ndarray, calibration: Calibration | None) -> list[DieRead]:
    """Read every die: detector candidates, each confirmed and read by the classifier."""
    cands = detect.detect(image, calibration)
    if calibration is not None:
        cands = [c for c in cands if calibration.in_tray(c.x, c.y)]
    faces = []
    for c in cands:
        # A calibrated die size is steadier than the per-die estimate.
        face = calibration.die_size_px if calibration is not None and calibration.die_size_px else c.face
        faces.append((c.x, c.y, float(face)))
    probs = classify.classify(classify.crops_of(image, faces))
    out: list[DieRead] = []
    for (x, y, face), p in zip(faces, probs):
        cls = int(np.argmax(p))
        if cls == classify.NOT_DIE:
            continue
        half = 0.6 * face
        box = (x - half, y - half, x + half, y + half)
        if cls == classify.TILTED:
            out.append(make_die(None, (x, y), box, float(p[cls]), tilted=True))
            continue
        taught = calibration.picture_faces if calibration is not None else ()
        if taught and (cls == classify.PICTURE or p[cls] < THRESHOLD):
            # A face the owner taught reads as its value (a logo has no pips to count).
            found = pictures.match(image, x, y, face, taught)
            if found is not None:
                out.append(make_die(found[0], (x, y), box, max(found[1], THRESHOLD)))
                continue
        if cls == classify.PICTURE:
            out.append(make_die(None, (x, y), box, float(p[cls]), picture=True))
            continue
        value = int(np.argmax(p[:6])) + 1
        out.append(make_die(value, (x, y), box, float(p[value - 1])))
    # Reading order: top to bottom, then left to right, so a list of values is stable.
    out.sort(key=lambda d: (round(d.center[1] / 20), d.center[0]))
    return out
