"""The learned reader (placeholder until the models are trained)."""
from __future__ import annotations

import numpy as np

from calibration import Calibration
from vision.reader import DieRead


def available() -> bool:
    """Whether the model files are in this checkout."""
    return False


def read(image: np.ndarray, calibration: Calibration | None) -> list[DieRead]:
    """Read with the learned models."""
    raise NotImplementedError
