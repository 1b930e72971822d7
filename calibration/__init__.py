"""Tray calibration: the data object the reader takes, and its atomic load/save."""
from calibration.calibration import (
    Calibration,
    CalibrationError,
    KnownDie,
    PictureFace,
    load_calibration,
    save_calibration,
)

__all__ = ["Calibration", "CalibrationError", "KnownDie", "PictureFace", "load_calibration", "save_calibration"]
