"""Photos read from files: whole, or not at all.

``cv2.imread`` decodes a JPEG cut short (a copy interrupted, a memory card pulled)
with grey where the rest of the picture was, and says so only on stderr: the dice in
the lost part would be missed without a word. Decoded from the file's bytes, OpenCV
refuses such a file instead, and turns a photo upright by its EXIF orientation as
``imread`` does.
"""
from __future__ import annotations

import os

import cv2
import numpy as np


def read_photo(path: str | os.PathLike[str], flags: int = cv2.IMREAD_COLOR) -> np.ndarray | None:
    """The photo at ``path``, decoded whole with OpenCV's ``flags``; ``None`` when the
    file cannot be read, is empty, or cannot be decoded whole.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = cv2.imwrite(str(folder / "tray.jpg"), np.full((48, 64, 3), 90, np.uint8))
    >>> read_photo(folder / "tray.jpg").shape
    (48, 64, 3)
    >>> whole = (folder / "tray.jpg").read_bytes()
    >>> _ = (folder / "cut.jpg").write_bytes(whole[: len(whole) // 2])
    >>> read_photo(folder / "cut.jpg") is None
    True
    """
    try:
        data = np.fromfile(os.fspath(path), np.uint8)
    except (OSError, ValueError):
        return None
    if data.size == 0:
        return None
    image = cv2.imdecode(data, flags)
    return None if image is None else np.asarray(image)
