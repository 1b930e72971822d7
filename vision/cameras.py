"""Open a camera from the ``--camera`` option of ``dicetray serve``.

Specs: ``auto`` (picamera2, then a USB camera, then the simulated tray), ``sim``,
``picamera``, ``usb:N`` and a file ``PATH``. Only the simulated tray is built so far;
the other sources are refused with a message that says so, and ``auto`` falls back to
the simulated tray and says why in the source's ``message``.
"""
from __future__ import annotations

import re
from pathlib import Path

from vision.frames import FrameSource, SimCamera

__all__ = ["AUTO_FALLBACK", "CameraUnavailable", "SPECS", "open_camera"]

SPECS = ("auto", "sim", "picamera", "usb:N", "PATH")
"""The ``--camera`` values, as shown in messages."""

AUTO_FALLBACK = "no picamera2 / USB camera support yet: using the simulated tray"


class CameraUnavailable(ValueError):
    """The requested camera cannot be opened; the message says why and what to use."""


def _looks_like_path(spec: str) -> bool:
    # A path names a file: it has a folder part or a suffix, or it exists.
    return "/" in spec or "\\" in spec or bool(Path(spec).suffix) or Path(spec).exists()


def open_camera(spec: str, *, seed: int = 0, dice: int = 2) -> FrameSource:
    """Open the camera named by ``spec``; raises :class:`CameraUnavailable` when it can't.

    The returned source has ``name`` (``"sim"``, ...) and ``message``, one line saying
    which source was chosen and why, to print at start-up.
    """
    spec = spec.strip()
    if spec == "sim":
        camera = SimCamera(seed=seed, dice=dice)
        camera.message = "using the simulated tray (--camera sim)"
        return camera
    if spec == "auto":
        # picamera2 and USB capture are not built yet (issue 2), so there is nothing to
        # probe: say so rather than pretend to have looked.
        camera = SimCamera(seed=seed, dice=dice)
        camera.message = AUTO_FALLBACK
        return camera
    if spec == "picamera":
        raise CameraUnavailable("--camera picamera: the picamera2 source is not built yet; use --camera sim")
    if re.fullmatch(r"usb:\d+", spec):
        raise CameraUnavailable(f"--camera {spec}: the USB camera source is not built yet; use --camera sim")
    if spec and not spec.startswith("usb:") and _looks_like_path(spec):
        raise CameraUnavailable(
            f"--camera {spec}: reading frames from a file is not built yet; use --camera sim"
        )
    raise CameraUnavailable(f"--camera {spec!r} is not a camera; valid values: {', '.join(SPECS)}")
