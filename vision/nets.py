"""Read an ONNX network through OpenCV's dnn module, on OpenCV 5 or 4.

OpenCV 5 has two dnn engines, and the reader picks one per net (the detector runs
fastest on the new one, the crop classifiers on the classic one). OpenCV 4 has one
engine and no ``cv2.dnn.ENGINE_*`` names; it is what a Raspberry Pi OS whose numpy is
1.x gets (``opencv-python-headless<4.12``, deploy/install.sh). There every net is read
with that one engine: the check photos of both shared folders read the same dice right
on OpenCV 4.11 as on 5.0.
"""
from __future__ import annotations

from pathlib import Path

import cv2

__all__ = ["read_onnx"]


def read_onnx(path: Path | str, engine: str) -> cv2.dnn.Net:
    """The network in ``path``, on OpenCV 5's ``engine`` (``"new"`` or ``"classic"``)
    where there is one."""
    chosen = getattr(cv2.dnn, f"ENGINE_{engine.upper()}", None)
    if chosen is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), chosen)
