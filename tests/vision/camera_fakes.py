"""Fakes of the camera libraries: a ``picamera2`` module and OpenCV's ``VideoCapture``.

They behave as the real ones do where the sources depend on it: picamera2 must be
configured before it starts and started before it captures, its automatic exposure
drifts for some frames and then reports itself converged; a webcam gives frames at
its own size, may refuse some controls, and can be unplugged. And Linux's description of
the video devices under ``/sys/class/video4linux``, where a webcam plugged back in may
have another number.
"""
from __future__ import annotations

import shutil
import threading
import time
import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np


IMX708_MODES = [  # a Camera Module 3, as `rpicam-hello --list-cameras` lists them
    {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (1536, 864), "fps": 120.13,
     "crop_limits": (768, 432, 3072, 1728)},
    {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (2304, 1296), "fps": 56.03,
     "crop_limits": (0, 0, 4608, 2592)},
    {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (4608, 2592), "fps": 14.35,
     "crop_limits": (0, 0, 4608, 2592)}]
IMX219_MODES = [  # a Camera Module 2
    {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (640, 480), "fps": 206.65,
     "crop_limits": (1000, 752, 1280, 960)},
    {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (1640, 1232), "fps": 41.85,
     "crop_limits": (0, 0, 3280, 2464)},
    {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (1920, 1080), "fps": 47.57,
     "crop_limits": (680, 692, 1920, 1080)},
    {"format": "SRGGB10_CSI2P", "bit_depth": 10, "size": (3280, 2464), "fps": 21.19,
     "crop_limits": (0, 0, 3280, 2464)}]


class FakePicamera2:
    """One Pi camera; the module's ``cameras`` list says what is connected."""

    cameras: list[dict[str, Any]] = [{"Model": "imx708", "Num": 0}]
    modes: list[dict[str, Any]] | Exception = IMX708_MODES  # an Exception: listing them fails
    sensor_key = True  # False: a picamera2 older than the configuration's "sensor" key
    autofocus: bool | None = True  # None: a fixed-focus module with no AfMode control
    exposure_modes = False  # True: libcamera 0.5 on, with ExposureTimeMode and AnalogueGainMode
    fill: int | None = None  # every channel of every frame at this level (None: blue 200)
    opened: list["FakePicamera2"] = []
    fail_start: str | None = None

    @classmethod
    def global_camera_info(cls) -> list[dict[str, Any]]:
        return list(cls.cameras)

    def __init__(self, camera_num: int = 0) -> None:
        if camera_num >= len(self.cameras):
            raise IndexError("list index out of range")  # what picamera2 itself raises
        self.config: dict[str, Any] | None = None
        self.started = False
        self.closed = False
        self.controls: dict[str, Any] = {}
        self.control_log: list[dict[str, Any]] = []
        self.frames = 0
        self.captures = 0
        self.capturing = threading.Event()
        self.autofocus_cycles = 0
        self.camera_controls: dict[str, Any] = {"ExposureTime": (1, 1000000, None)}
        if self.autofocus is not None:
            self.camera_controls["AfMode"] = (0, 2, 0)
        if self.exposure_modes:      # libcamera 0.5 on
            self.camera_controls["ExposureTimeMode"] = (0, 1, 0)
            self.camera_controls["AnalogueGainMode"] = (0, 1, 0)
        type(self).opened.append(self)

    @property
    def sensor_modes(self) -> list[dict[str, Any]]:
        if isinstance(self.modes, Exception):
            raise self.modes
        return [dict(mode) for mode in self.modes]

    def create_video_configuration(self, main: dict[str, Any], controls: dict[str, Any],
                                   sensor: dict[str, Any] | None = None) -> dict[str, Any]:
        if sensor is not None and not self.sensor_key:
            raise TypeError("create_video_configuration() got an unexpected keyword argument 'sensor'")
        config = {"main": dict(main), "controls": dict(controls)}
        return config if sensor is None else {**config, "sensor": dict(sensor)}

    def configure(self, config: dict[str, Any]) -> None:
        assert not self.started, "picamera2 cannot be configured while running"
        self.config = config

    def start(self) -> None:
        assert self.config is not None, "picamera2 must be configured before it starts"
        if self.fail_start:
            raise RuntimeError(self.fail_start)
        self.started = True

    def autofocus_cycle(self, wait: bool = True) -> bool:
        assert self.started, "picamera2 focuses only while running"
        assert "AfMode" in self.camera_controls, "this camera has no motorised lens"
        self.autofocus_cycles += 1
        return bool(self.autofocus)

    def capture_metadata(self) -> dict[str, Any]:
        assert self.started and not self.closed
        self.frames += 1
        # Auto exposure walks towards 10000 us and converges after 5 frames, unless locked.
        exposure = self.controls.get("ExposureTime", 20000 - 2000 * min(self.frames, 5))
        return {"ExposureTime": exposure, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5),
                "AeLocked": self.frames >= 5, "Lux": 120.0}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.control_log.append(dict(controls))
        self.controls.update(controls)

    def capture_array(self, name: str = "main") -> np.ndarray:
        assert self.started and not self.closed and name == "main"
        assert self.config is not None
        self.captures += 1
        width, height = self.config["main"]["size"]
        fmt = self.config["main"]["format"]
        frame = np.zeros((height, width, 4 if fmt.startswith("X") else 3), np.uint8)
        if self.fill is not None:
            frame[...] = self.fill
        else:
            frame[..., 0] = 200  # blue, in OpenCV's order: RGB888 is BGR in memory
        return frame

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.started = False
        self.closed = True


def fake_picamera2(cameras: list[dict[str, Any]] | None = None, *,
                   fail_start: str | None = None,
                   autofocus: bool | None = True,
                   exposure_modes: bool = False,
                   modes: list[dict[str, Any]] | Exception = IMX708_MODES,
                   sensor_key: bool = True) -> types.ModuleType:
    """A stand-in ``picamera2`` module with ``cameras`` connected; ``autofocus`` says
    whether their lens focuses (None: a fixed-focus module), ``exposure_modes`` whether
    its libcamera has the ExposureTimeMode and AnalogueGainMode controls (0.5 on);
    ``modes`` are the sensor's modes (an Exception: listing them raises it),
    ``sensor_key`` whether the configuration takes a sensor mode (picamera2 0.3.13 on)."""
    module = types.ModuleType("picamera2")
    cls = type("Picamera2", (FakePicamera2,), {
        "cameras": list(FakePicamera2.cameras if cameras is None else cameras),
        "opened": [], "fail_start": fail_start, "autofocus": autofocus,
        "exposure_modes": exposure_modes, "modes": modes, "sensor_key": sensor_key})
    module.Picamera2 = cls  # type: ignore[attr-defined]
    return module


YUYV = cv2.VideoWriter.fourcc(*"YUYV")
MJPG = cv2.VideoWriter.fourcc(*"MJPG")


class FakeCapture:
    """OpenCV's ``VideoCapture`` on a webcam that gives ``size`` frames, whatever is asked.

    ``obeys`` lists the properties the camera accepts; ``frames_left`` (when set) is how
    many frames it gives before it is unplugged. With ``raw_size`` it gives ``size``
    only in motion JPEG, and ``raw_size`` uncompressed (YUYV, its default format).
    With ``noisy`` no two frames in a row are alike, as a real sensor's, until ``stuck`` is
    set: it then gives the same picture again and again (a hung driver buffer). ``fps``
    paces its frames as a camera's (None: as fast as they are read).
    """

    def __init__(self, index: int, *, present: bool = True, size: tuple[int, int] = (640, 480),
                 obeys: tuple[int, ...] = (cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE,
                                           cv2.CAP_PROP_AUTO_WB, cv2.CAP_PROP_WB_TEMPERATURE),
                 frames_left: int | None = None, channels: int = 3, black: bool = False,
                 level: int = 90, raw_size: tuple[int, int] | None = None,
                 noisy: bool = False, fps: float | None = None) -> None:
        self.index = index
        self.present = present
        self.size = size
        self.raw_size = raw_size
        self.obeys = obeys
        self.frames_left = frames_left
        self.channels = channels
        self.black = black
        self.level = level
        self.noisy = noisy
        self.period = 0.0 if fps is None else 1.0 / fps
        self.stuck = False
        self._grain = 0
        self.released = False
        self.reads = 0
        self.props: dict[int, float] = {cv2.CAP_PROP_AUTO_EXPOSURE: 3.0, cv2.CAP_PROP_EXPOSURE: 156.0,
                                        cv2.CAP_PROP_AUTO_WB: 1.0, cv2.CAP_PROP_WB_TEMPERATURE: 4600.0,
                                        cv2.CAP_PROP_FOURCC: float(YUYV)}
        self.set_calls: list[tuple[int, float]] = []

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.present and not self.released

    def set(self, prop: int, value: float) -> bool:
        self.set_calls.append((prop, value))
        if prop == cv2.CAP_PROP_FOURCC and self.raw_size is not None:
            self.props[prop] = value
            return True
        if prop not in self.obeys:
            return False
        if prop == cv2.CAP_PROP_AUTO_EXPOSURE and value not in (1.0, 3.0):
            return False  # a V4L2 build: only the driver's own values
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def read(self) -> tuple[bool, np.ndarray | None]:
        assert not self.released, "read after release"
        if not self.present or self.frames_left == 0 or self.black:
            return False, None
        if self.frames_left is not None:
            self.frames_left -= 1
        if self.period:
            time.sleep(self.period)  # the camera's own pace
        self.reads += 1
        w, h = self.size
        if self.raw_size is not None and self.props[cv2.CAP_PROP_FOURCC] != MJPG:
            w, h = self.raw_size
        frame = np.full((h, w) if self.channels == 1 else (h, w, self.channels), self.level, np.uint8)
        if self.noisy:
            if not self.stuck:
                self._grain ^= 1
            frame.flat[0] ^= self._grain
        return True, frame

    def release(self) -> None:
        self.released = True


def plug_webcam(sysfs: Path, number: int, name: str, port: str, node: str = "0") -> None:
    """Describe ``/dev/video<number>`` in a fake ``/sys/class/video4linux`` as Linux does:
    the webcam's model ``name``, which of its nodes it is (``index``: 0 gives pictures, 1
    metadata) and a ``device`` link to its USB interface at ``port``."""
    interface = sysfs.parent / "devices" / port
    interface.mkdir(parents=True, exist_ok=True)
    folder = sysfs / f"video{number}"
    folder.mkdir(parents=True)
    (folder / "name").write_text(name + "\n")
    (folder / "index").write_text(node + "\n")
    (folder / "device").symlink_to(interface)


def unplug_webcam(sysfs: Path, *numbers: int) -> None:
    """The ``/dev/videoN`` of ``numbers`` are gone from the fake sysfs."""
    for number in numbers:
        shutil.rmtree(sysfs / f"video{number}")
