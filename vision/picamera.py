"""The Raspberry Pi camera (picamera2) as a frame source.

picamera2 comes from Raspberry Pi OS (``apt install python3-picamera2``) and is imported
only when this source is opened, so the rest of the appliance runs where it is absent.

The camera runs a video configuration with a ``RGB888`` main stream, which picamera2
lays out in OpenCV's BGR order. Automatic exposure and white balance are left to settle
for a moment and are then locked at the values they reached: a die's pips must keep
the same contrast from one throw to the next, and a hand reaching into the tray must
not change the exposure of the frames read after it leaves. If the light later grows
too strong for the lock (vision.exposure.OverexposureWatch), it is measured again.
"""
from __future__ import annotations

import importlib
import logging
import threading
import time
from types import ModuleType
from typing import Any, Iterable, Mapping

import numpy as np

from vision.exposure import OverexposureWatch
from vision.frames import SourceClosed

__all__ = ["LOCKED_CONTROLS", "PiCamera", "PiCameraUnavailable", "whole_view_mode"]

LOCKED_CONTROLS = ("ExposureTime", "AnalogueGain", "ColourGains")
# libcamera 0.5's modes of exposure time and gain, and their values.
EXPOSURE_MODE_CONTROLS = ("ExposureTimeMode", "AnalogueGainMode")
AUTO, MANUAL = 0, 1
"""The metadata values that are copied back as fixed controls once the camera settles."""


log = logging.getLogger(__name__)

CLOSE_WAIT_S = 2.0
"""How long ``close`` waits for a capture in progress."""


class PiCameraUnavailable(ValueError):
    """picamera2 is missing, finds no camera, or the camera would not start."""


class PiCamera:
    """Frames from the Pi camera ``number``, BGR uint8 at ``size``, ``fps`` a second.

    ``settle_s`` is how long automatic exposure and white balance may adjust before
    they are locked; a camera that reports its exposure still converging then gets up
    to ``converge_s`` more.
    ``module`` replaces the ``picamera2`` module (the tests pass a fake).
    """

    name = "picamera"

    def __init__(self, number: int = 0, *, size: tuple[int, int] = (1280, 960),
                 fps: float = 15.0, settle_s: float = 1.5, converge_s: float = 2.0,
                 module: ModuleType | None = None) -> None:
        picamera2 = module if module is not None else _import_picamera2()
        try:
            cameras = list(picamera2.Picamera2.global_camera_info())
        except Exception as exc:  # noqa: BLE001 - libcamera's errors come in many types
            # A broken libcamera: said as the camera being unavailable, so that "auto"
            # goes on to a webcam or the simulated tray instead of the service crashing.
            raise PiCameraUnavailable(f"libcamera cannot list the cameras: {exc}") from exc
        if number >= len(cameras):
            found = "no camera" if not cameras else f"only {len(cameras)} camera(s)"
            raise PiCameraUnavailable(
                f"picamera2 finds {found}; is the ribbon cable seated and the camera enabled?")
        self.model = str(cameras[number].get("Model", "unknown sensor"))
        self.fps = fps
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._settle_s, self._converge_s = settle_s, converge_s
        self._overexposed = OverexposureWatch(fps)
        self.measured_again = 0
        """How often overexposed frames made the camera measure the light again."""
        self.mode: Mapping[str, Any] | None = None
        """The sensor mode asked for (:func:`whole_view_mode`), or None: picamera2's pick."""
        try:
            self._cam: Any = picamera2.Picamera2(number)
            self.mode = whole_view_mode(_sensor_modes(self._cam), size, fps)
            self._cam.configure(self._video_configuration(size, fps))
            self._cam.start()
            self.focus = self._focus()
            self.locked = self._settle_and_lock(settle_s, converge_s)
            width, height = self.size = self._frame_size()
        except Exception as exc:  # noqa: BLE001 - libcamera's errors come in many types
            self._release()
            raise PiCameraUnavailable(f"the Pi camera ({self.model}) would not start: {exc}") from exc
        shown = ", ".join(f"{k} {_short(v)}" for k, v in self.locked.items())
        view = (f" from its whole view ({self.mode['size'][0]}x{self.mode['size'][1]} mode)"
                if self.mode is not None else "")
        self.message = (f"Pi camera {number} ({self.model}), {width}x{height} at {fps:g} fps"
                        f"{view}; "
                        + (f"{self.focus}; " if self.focus else "")
                        + (f"exposure locked: {shown}" if shown else
                           "this camera reports no exposure to lock"))
        """Which source this is, for the log and the control page."""

    def _video_configuration(self, size: tuple[int, int], fps: float) -> Any:
        """picamera2's video configuration: RGB888 frames of ``size`` at ``fps``, read from
        the sensor mode :func:`whole_view_mode` chose, where there is one."""
        main = {"size": tuple(size), "format": "RGB888"}
        controls = {"FrameRate": float(fps)}
        if self.mode is not None:
            sensor: dict[str, Any] = {"output_size": tuple(self.mode["size"])}
            if "bit_depth" in self.mode:
                sensor["bit_depth"] = self.mode["bit_depth"]
            try:
                return self._cam.create_video_configuration(main=main, controls=controls,
                                                            sensor=sensor)
            except TypeError:
                # A picamera2 older than its "sensor" key: it picks the mode itself.
                log.info("Pi camera: this picamera2 cannot be asked for a sensor mode")
                self.mode = None
        return self._cam.create_video_configuration(main=main, controls=controls)

    def _focus(self) -> str:
        """Focus once on the tray, where the camera has a motorised lens (Camera Module 3).

        The lens then stays where it is: the tray does not move, and a hand passing
        must not pull the focus away. Returns what happened, for the message."""
        if "AfMode" not in getattr(self._cam, "camera_controls", {}):
            return ""  # a fixed-focus module: focused by hand when it was mounted
        if self._cam.autofocus_cycle():
            return "focused on the tray"
        return "autofocus found no sharp picture (is the tray too close?)"

    def _settle_and_lock(self, settle_s: float, converge_s: float) -> dict[str, Any]:
        """Let exposure and white balance settle, then fix them where they are."""
        start = time.monotonic()
        metadata: dict[str, Any] = {}
        while True:
            metadata = dict(self._cam.capture_metadata())
            elapsed = time.monotonic() - start
            if self._closed.is_set():
                break                 # closed while the light is measured again
            # Some libcamera versions say when the exposure has converged; where they
            # do, wait for it a little longer than settle_s, never for ever.
            converged = metadata.get("AeLocked", True)
            if elapsed >= settle_s and (converged or elapsed >= settle_s + converge_s):
                break
        locked = {k: metadata[k] for k in LOCKED_CONTROLS if k in metadata}
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False,
                                    **self._exposure_modes(MANUAL), **locked}
        self._cam.set_controls(controls)
        return locked

    def _exposure_modes(self, mode: int) -> dict[str, int]:
        """Exposure and gain both set to ``mode`` (AUTO or MANUAL), where libcamera has
        the controls for it (0.5 on): there AeEnable may be ignored ("Ctrl AeEnable is
        not handled", picamera2 issue 1269), and only these bring auto exposure back."""
        controls = getattr(self._cam, "camera_controls", {})
        return {name: mode for name in EXPOSURE_MODE_CONTROLS if name in controls}

    def _frame_size(self) -> tuple[int, int]:
        frame = self.read()
        return frame.shape[1], frame.shape[0]

    def read(self) -> np.ndarray:
        """The next frame (blocks until the camera delivers it)."""
        if self._closed.is_set():
            # A close() that gave up waiting for a read (a light measured again takes
            # seconds) left the camera to the reader to let go.
            with self._lock:
                self._release()
            raise SourceClosed("the Pi camera is closed")
        with self._lock:  # close() waits for a capture in progress
            if self._closed.is_set():
                raise SourceClosed("the Pi camera is closed")
            frame = np.asarray(self._cam.capture_array("main"))
            if self._closed.is_set():
                # Closed while hung in this capture: close() could not stop the camera
                # under it, so it is stopped here, or opening it again finds it taken.
                self._release()
                raise SourceClosed("the Pi camera is closed")
            if frame.ndim == 3 and frame.shape[2] == 4:
                frame = frame[:, :, :3]  # an XBGR8888 stream: drop the padding byte
            if self._overexposed.due(frame):
                self._measure_again()
                if self._closed.is_set():      # closed meanwhile: see above
                    self._release()
                    raise SourceClosed("the Pi camera is closed")
        return np.ascontiguousarray(frame)

    def _measure_again(self) -> None:
        """The light grew too strong for the locked exposure: let it adjust, and lock again.

        The camera thread waits here (no frames for a second or two); the roll watcher
        takes the brighter or darker picture of the same dice for no new roll."""
        self._cam.set_controls({"AeEnable": True, "AwbEnable": True, **self._exposure_modes(AUTO)})
        self.locked = self._settle_and_lock(self._settle_s, self._converge_s)
        self.measured_again += 1
        log.info("Pi camera: the tray was overexposed; exposure locked again: %s", self.locked)

    def close(self) -> None:
        """Stop the camera and release it; later reads raise :class:`SourceClosed`."""
        self._closed.set()
        # A capture takes a frame or so; a camera hung in one is not stopped under it,
        # but by that capture when it returns.
        if self._lock.acquire(timeout=CLOSE_WAIT_S):
            try:
                self._release()
            finally:
                self._lock.release()

    def _release(self) -> None:
        cam = getattr(self, "_cam", None)
        if cam is None:
            return
        self._cam = None
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception:  # noqa: BLE001, S110 - releasing a camera that failed to start
                pass


def whole_view_mode(modes: Iterable[Mapping[str, Any]], size: tuple[int, int],
                    fps: float) -> Mapping[str, Any] | None:
    """The sensor mode to read ``size`` frames at ``fps`` from: the smallest that reads the
    whole sensor, is at least ``size`` each way and runs at ``fps`` or faster.

    Left to itself, picamera2 picks the mode nearest the asked size, which on a Camera
    Module 3 is its fast 1536x864 mode: that reads only the middle two thirds of the sensor
    each way, and the camera would have to hang half as high again to see the whole tray.
    A mode reads the whole sensor when its ``crop_limits`` are the largest of all modes.
    ``None`` when no mode qualifies (picamera2 then picks one itself).

    >>> imx708 = [
    ...     {"size": (1536, 864), "fps": 120.13, "crop_limits": (768, 432, 3072, 1728)},
    ...     {"size": (2304, 1296), "fps": 56.03, "crop_limits": (0, 0, 4608, 2592)},
    ...     {"size": (4608, 2592), "fps": 14.35, "crop_limits": (0, 0, 4608, 2592)}]
    >>> whole_view_mode(imx708, (1280, 960), 15)["size"]
    (2304, 1296)
    >>> whole_view_mode(imx708, (1280, 960), 60) is None
    True
    """
    modes = [m for m in modes if _mode_is_complete(m)]
    if not modes:
        return None
    sensor = max((m["crop_limits"][2] * m["crop_limits"][3] for m in modes))
    fitting = [m for m in modes
               if m["crop_limits"][2] * m["crop_limits"][3] == sensor
               and m["size"][0] >= size[0] and m["size"][1] >= size[1] and m["fps"] >= fps]
    return min(fitting, key=lambda m: m["size"][0] * m["size"][1], default=None)


def _sensor_modes(cam: Any) -> list[Mapping[str, Any]]:
    """The camera's sensor modes, or none where picamera2 cannot list them (it tries each
    mode in turn to learn its speed, which a busy or odd camera may refuse)."""
    try:
        return list(getattr(cam, "sensor_modes", []))
    except Exception as exc:  # noqa: BLE001 - libcamera's errors come in many types
        log.info("Pi camera: its sensor modes could not be listed (%s)", exc)
        return []


def _mode_is_complete(mode: Mapping[str, Any]) -> bool:
    """Whether ``mode`` says its size, speed and crop (a picamera2 may leave one out)."""
    try:
        return (len(mode["size"]) == 2 and len(mode["crop_limits"]) == 4
                and float(mode["fps"]) > 0)
    except (KeyError, TypeError, ValueError):
        return False


def _import_picamera2() -> ModuleType:
    try:
        return importlib.import_module("picamera2")
    except ImportError as exc:
        raise PiCameraUnavailable(
            "picamera2 is not installed (on Raspberry Pi OS: sudo apt install "
            "python3-picamera2, and a venv made with --system-site-packages)") from exc


def _short(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_short(v) for v in value) + ")"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)
