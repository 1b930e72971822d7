"""Open a camera from the ``--camera`` option of ``dicetray serve``.

Specs: ``auto`` (picamera2, then a USB camera, then the simulated tray), ``sim``,
``picamera``, ``usb:N`` and a file ``PATH`` (a video, a photo, or a folder of photos,
replayed in real time). Every source has a ``message``: one line saying which source
this is and, for ``auto``, why the ones before it were passed over.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.frames import FrameSource, SimCamera

__all__ = ["CameraUnavailable", "SPECS", "WebcamIdentity", "find_camera", "open_camera",
           "reopener", "usb_candidates", "webcam_identity"]

log = logging.getLogger(__name__)

SPECS = ("auto", "sim", "picamera", "usb:N", "PATH")
"""The ``--camera`` values, as shown in messages."""

MAX_VIDEO_NUMBER = 255
"""The highest N of ``/dev/videoN`` (Linux's V4L2 has 256 of them)."""

SYSFS_VIDEO = Path("/sys/class/video4linux")
"""Where Linux describes each ``/dev/videoN``: its ``name``, and its ``device`` link."""


class CameraUnavailable(ValueError):
    """The requested camera cannot be opened; the message says why and what to use."""


def _looks_like_path(spec: str) -> bool:
    # A path names a file: it has a folder part or a suffix, or it exists.
    return "/" in spec or "\\" in spec or bool(Path(spec).suffix) or Path(spec).exists()


def usb_candidates(dev: Path = Path("/dev")) -> list[int]:
    """The numbers N of ``/dev/videoN`` below 10, where a USB webcam appears.

    Higher numbers on a Pi are its codec and ISP devices, never a camera."""
    found = []
    for p in dev.glob("video*"):
        number = p.name[len("video"):]
        if number.isdigit() and int(number) < 10:
            found.append(int(number))
    return sorted(found)


def _open_picamera() -> FrameSource:
    from vision.picamera import PiCamera

    return PiCamera()


def _open_usb(index: int) -> FrameSource:
    from vision.usbcamera import UsbCamera

    return UsbCamera(index)


def open_camera(spec: str, *, seed: int = 0, dice: int = 2,
                picamera: Callable[[], FrameSource] = _open_picamera,
                usb: Callable[[int], FrameSource] = _open_usb,
                usb_numbers: Callable[[], Sequence[int]] = usb_candidates) -> FrameSource:
    """Open the camera named by ``spec``; raises :class:`CameraUnavailable` when it can't.

    The returned source has ``name`` (``"sim"``, ``"picamera"``, ``"usb"``,
    ``"replay"``) and ``message``, to print at start-up and show on the control page.
    ``picamera``, ``usb`` and ``usb_numbers`` open the hardware (tests pass fakes).
    """
    spec = spec.strip()
    if spec == "sim":
        camera = SimCamera(seed=seed, dice=dice)
        camera.message = "using the simulated tray (--camera sim)"
        return camera
    if spec == "auto":
        return _auto(seed, dice, picamera, usb, usb_numbers)
    if spec == "picamera":
        try:
            return picamera()
        except ValueError as exc:
            raise CameraUnavailable(f"--camera picamera: {exc}") from exc
    if re.fullmatch(r"usb:\d+", spec):
        if len(spec[4:].lstrip("0")) > 3 or int(spec[4:]) > MAX_VIDEO_NUMBER:
            # OpenCV fails on a number beyond a C int with its own traceback (and Python
            # reads none of over 4300 digits).
            raise CameraUnavailable(f"--camera {spec}: no camera at /dev/video{spec[4:]} "
                                    f"(Linux numbers them 0 to {MAX_VIDEO_NUMBER})")
        try:
            return usb(int(spec[4:]))
        except ValueError as exc:
            raise CameraUnavailable(f"--camera {spec}: {exc}") from exc
    if spec and not spec.startswith("usb:") and _looks_like_path(spec):
        from vision.replay import Replay

        try:
            return Replay(spec)
        except ValueError as exc:  # its message starts with the path
            raise CameraUnavailable(f"--camera {exc}") from exc
    raise CameraUnavailable(f"--camera {spec!r} is not a camera; valid values: {', '.join(SPECS)}")


def reopener(camera: FrameSource, *, sysfs: Path = SYSFS_VIDEO,
             **kw: Any) -> Callable[[], FrameSource] | None:
    """How to open ``camera`` again after it failed or stalled: the same Pi camera or
    webcam (``kw`` as for :func:`open_camera`); None for a source that is not opened again.

    The device itself, not ``--camera auto`` again, which would fall back to the simulated
    tray while a webcam is unplugged and score its made-up throws. Neither the simulated
    tray (it does not fail) nor a replay (a recording that cannot be read will not become
    readable; one that ends keeps its last frame) is opened again. A webcam is looked for
    wherever it is now (:class:`_WebcamReopener`; ``sysfs`` is Linux's description of the
    video devices, a fake one in tests).
    """
    index = getattr(camera, "index", None)  # a webcam's N of /dev/videoN
    if camera.name == "picamera":
        return lambda: open_camera("picamera", **kw)
    if camera.name == "usb" and isinstance(index, int):
        return _WebcamReopener(index, sysfs, kw)
    return None


@dataclass(frozen=True)
class WebcamIdentity:
    """What Linux says of a webcam's ``/dev/videoN``, which stays when it comes back under
    another N: its model's ``name``, which of its device nodes this is (``node``: a webcam
    has one giving pictures and one giving only metadata) and the USB ``port`` it is in."""

    name: str
    node: str | None
    port: str | None


def _sysfs_text(path: Path) -> str | None:
    """The stripped text of a sysfs file; None when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def webcam_identity(number: int, sysfs: Path = SYSFS_VIDEO) -> WebcamIdentity | None:
    """What Linux says of ``/dev/video<number>``; None where it says nothing (not Linux,
    or no such device)."""
    folder = sysfs / f"video{number}"
    name = _sysfs_text(folder / "name")
    if not name:
        return None
    try:
        port: str | None = str((folder / "device").resolve(strict=True))
    except (OSError, RuntimeError):
        port = None
    return WebcamIdentity(name, _sysfs_text(folder / "index"), port)


def _described_as(identity: WebcamIdentity, sysfs: Path) -> dict[int, WebcamIdentity]:
    """Each ``/dev/videoN`` that Linux describes as a node of ``identity``'s model, by N."""
    found = {}
    for folder in sysfs.glob("video*"):
        number = folder.name[len("video"):]
        if not number.isdigit():
            continue
        other = webcam_identity(int(number), sysfs)
        if other is not None and (other.name, other.node) == (identity.name, identity.node):
            found[int(number)] = other
    return found


class _WebcamReopener:
    """Opens a webcam again wherever it is now: unplugged and plugged back, it often comes
    back as another ``/dev/videoN``, and was looked for under its old N alone until the
    appliance restarted.

    It is the device that Linux describes by the same model name and node, in the same
    USB port first, never one in the port of another webcam of its model plugged in when
    this one was opened; where Linux describes none (not Linux), its old N and then the
    other USB camera numbers are tried. ``kw`` are :func:`open_camera`'s.
    """

    def __init__(self, number: int, sysfs: Path, kw: dict[str, Any]) -> None:
        self.number = number
        """The N of ``/dev/videoN`` it was last opened as."""
        self._sysfs = sysfs
        self._kw = kw
        self._identity = webcam_identity(number, sysfs)
        # The USB ports of other webcams of its model plugged in now: never taken for it.
        self._twins = set() if self._identity is None else {
            twin.port for n, twin in _described_as(self._identity, sysfs).items()
            if n != number and twin.port not in (None, self._identity.port)}

    def _numbers(self) -> list[int]:
        """The numbers to try, the likeliest first: in its USB port, its old number."""
        if self._identity is not None:
            port = self._identity.port
            found = _described_as(self._identity, self._sysfs)
            return sorted((n for n, seen in found.items() if seen.port not in self._twins),
                          key=lambda n: (found[n].port != port, n != self.number, n))
        others = self._kw.get("usb_numbers", usb_candidates)()
        return [self.number] + [n for n in others if n != self.number]

    def __call__(self) -> FrameSource:
        numbers = self._numbers()
        if not numbers:
            assert self._identity is not None
            raise CameraUnavailable(f"the webcam {self._identity.name!r} is not plugged in "
                                    f"(it was /dev/video{self.number})")
        failures = []
        for number in numbers:
            try:
                camera = open_camera(f"usb:{number}", **self._kw)
            except CameraUnavailable as exc:
                failures.append(str(exc))
                continue
            if number != self.number:
                said = f"found again as /dev/video{number} (it was /dev/video{self.number})"
                log.info("camera: the webcam%s was %s",
                         f" {self._identity.name!r}" if self._identity else "", said)
                camera.message = f"{camera.message}; {said}"
                self.number = number
            return camera
        raise CameraUnavailable("; ".join(failures))


def find_camera(picamera: Callable[[], FrameSource] = _open_picamera,
                usb: Callable[[int], FrameSource] = _open_usb,
                usb_numbers: Callable[[], Sequence[int]] = usb_candidates) -> FrameSource:
    """The Pi camera, else the first USB camera that gives a picture, as ``--camera auto``
    looks for them; raises :class:`CameraUnavailable` giving each reason when none does.

    >>> def no_pi(): raise ValueError("picamera2 finds no camera")
    >>> find_camera(picamera=no_pi, usb_numbers=lambda: [])
    Traceback (most recent call last):
    ...
    vision.cameras.CameraUnavailable: no Pi camera (picamera2 finds no camera); no USB camera (/dev/video0-9)
    """
    passed: list[str] = []
    try:
        camera = picamera()
        camera.message = f"{camera.message} (--camera auto)"
        return camera
    except ValueError as exc:
        passed.append(f"no Pi camera ({exc})")
    numbers = list(usb_numbers())
    for n in numbers:
        try:
            camera = usb(n)
        except ValueError as exc:
            passed.append(f"usb:{n} ({exc})")
            continue
        camera.message = f"{camera.message} (--camera auto; {'; '.join(passed)})"
        return camera
    if not numbers:
        passed.append("no USB camera (/dev/video0-9)")
    raise CameraUnavailable("; ".join(passed))


def _auto(seed: int, dice: int, picamera: Callable[[], FrameSource],
          usb: Callable[[int], FrameSource],
          usb_numbers: Callable[[], Sequence[int]]) -> FrameSource:
    """The Pi camera, else the first USB camera that gives a picture, else the sim."""
    try:
        return find_camera(picamera, usb, usb_numbers)
    except CameraUnavailable as exc:
        sim = SimCamera(seed=seed, dice=dice)
        sim.message = f"no camera found, using the simulated tray: {exc}"
        return sim
