"""Camera sources: ``--camera`` choices, the Pi camera and a webcam against fakes of their
libraries, and replays of recorded frames."""
from __future__ import annotations

import doctest
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from camera_fakes import (IMX219_MODES, IMX708_MODES, FakeCapture, fake_picamera2, plug_webcam,
                          unplug_webcam)

import vision.picamera
from vision.cameras import CameraUnavailable, open_camera, reopener, usb_candidates
from vision.frames import CameraThread, FrameSource, SimCamera, SourceClosed
from vision.picamera import PiCamera, PiCameraUnavailable
from vision.replay import Replay, ReplayUnavailable
from vision.usbcamera import UsbCamera, UsbCameraError, UsbCameraUnavailable


def _no_pi() -> FrameSource:
    raise PiCameraUnavailable("picamera2 is not installed")


# -- choosing a source ---------------------------------------------------------------------

def test_sim_opens_and_reads_frames() -> None:
    cam = open_camera("sim", seed=1, dice=3)
    try:
        assert isinstance(cam, FrameSource) and cam.name == "sim"
        assert isinstance(cam, SimCamera) and len(cam.tray.truth) == 3
        assert cam.tray.size == (1280, 960)
    finally:
        cam.close()


def test_auto_takes_the_pi_camera_first() -> None:
    module = fake_picamera2()
    cam = open_camera("auto", picamera=lambda: PiCamera(module=module, settle_s=0),
                      usb=lambda n: UsbCamera(n, capture=FakeCapture, settle_s=0),
                      usb_numbers=lambda: [0])
    try:
        assert cam.name == "picamera"
        assert "imx708" in cam.message and "--camera auto" in cam.message
    finally:
        cam.close()


def test_auto_takes_a_webcam_when_there_is_no_pi_camera_and_says_why() -> None:
    tried: list[int] = []

    def usb(n: int) -> FrameSource:
        tried.append(n)
        return UsbCamera(n, capture=lambda i: FakeCapture(i, present=i == 2), settle_s=0)

    cam = open_camera("auto", picamera=_no_pi, usb=usb, usb_numbers=lambda: [0, 2, 3])
    try:
        assert cam.name == "usb" and tried == [0, 2]
        assert cam.message.startswith("USB camera 2, 640x480")
        assert "picamera2 is not installed" in cam.message and "usb:0" in cam.message
    finally:
        cam.close()


def test_auto_falls_back_to_the_sim_and_says_what_it_looked_for() -> None:
    cam = open_camera("auto", picamera=_no_pi, usb_numbers=lambda: [])
    try:
        assert cam.name == "sim"
        assert cam.message.startswith("no camera found, using the simulated tray")
        assert "picamera2 is not installed" in cam.message and "/dev/video" in cam.message
    finally:
        cam.close()


def test_usb_candidates_are_the_low_video_devices(tmp_path: Path) -> None:
    for name in ("video0", "video2", "video10", "video19", "media0", "videoX"):
        (tmp_path / name).touch()
    assert usb_candidates(tmp_path) == [0, 2]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("picamera", "picamera2 is not installed"),
        ("usb:7", "no camera at /dev/video7"),
        ("no/such/tray.mp4", "no such file or folder"),
    ],
)
def test_cameras_that_cannot_open_are_refused_by_name(spec: str, words: str) -> None:
    with pytest.raises(CameraUnavailable) as info:
        open_camera(spec, picamera=_no_pi,
                    usb=lambda n: UsbCamera(n, capture=lambda i: FakeCapture(i, present=False)))
    assert words in str(info.value) and spec in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("spec", ["webcam", "usb:x", "usb:", ""])
def test_unknown_specs_name_the_spec_and_list_valid_ones(spec: str) -> None:
    with pytest.raises(CameraUnavailable) as info:
        open_camera(spec)
    message = str(info.value)
    assert repr(spec) in message
    for valid in ("auto", "sim", "picamera", "usb:N", "PATH"):
        assert valid in message


def test_a_camera_chosen_by_auto_is_opened_again_as_itself(tmp_path: Path) -> None:
    """After an unplug, ``auto`` again would take the simulated tray and score made-up
    throws: the device chosen is what is opened again. A sim and a replay are not."""
    module = fake_picamera2()
    chosen = open_camera("auto", picamera=_no_pi, usb=lambda n: UsbCamera(n, capture=FakeCapture,
                                                                          settle_s=0),
                         usb_numbers=lambda: [2])
    pi = PiCamera(module=module, settle_s=0)
    asked: list[str] = []

    def usb(n: int) -> FrameSource:
        asked.append(f"usb:{n}")
        return chosen

    def picamera() -> FrameSource:
        asked.append("picamera")
        return pi

    try:
        webcam_again = reopener(chosen, usb=usb)
        pi_again = reopener(pi, picamera=picamera)
        assert webcam_again is not None and webcam_again() is chosen
        assert pi_again is not None and pi_again() is pi
        assert asked == ["usb:2", "picamera"]
    finally:
        chosen.close()
        pi.close()
    assert reopener(open_camera("sim")) is None
    assert reopener(Replay(_photo(tmp_path / "tray.png", 90))) is None


# -- the Pi camera -------------------------------------------------------------------------

C920, PORT = "HD Pro Webcam C920", "usb1/1-1/1-1.2/1-1.2:1.0"


class PluggedWebcams:
    """Webcams on fakes of OpenCV's capture, at the numbers in ``present``; ``tried``
    lists the numbers opened, in order."""

    def __init__(self, *present: int) -> None:
        self.present = set(present)
        self.tried: list[int] = []

    def __call__(self, number: int) -> FrameSource:
        self.tried.append(number)
        return UsbCamera(number, settle_s=0,
                         capture=lambda i: FakeCapture(i, present=i in self.present))


def test_a_webcam_plugged_back_in_under_another_number_is_found_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Plugged back in, a webcam often comes back as another /dev/videoN; it was looked
    for under its old number alone, and the tray had no camera until a restart."""
    sysfs = tmp_path / "class" / "video4linux"
    plug_webcam(sysfs, 0, C920, PORT)
    plug_webcam(sysfs, 1, C920, PORT, node="1")          # its metadata node
    webcams = PluggedWebcams(0)
    webcam = webcams(0)
    again = reopener(webcam, sysfs=sysfs, usb=webcams)
    webcam.close()
    # Unplugged; meanwhile another webcam took /dev/video0, and this one came back as 2.
    unplug_webcam(sysfs, 0, 1)
    plug_webcam(sysfs, 0, "Laptop Camera", "usb1/1-1/1-1.3/1-1.3:1.0")
    plug_webcam(sysfs, 2, C920, PORT)
    plug_webcam(sysfs, 3, C920, PORT, node="1")
    webcams.present = {0, 2}
    assert again is not None
    with caplog.at_level("INFO", logger="vision.cameras"):
        found = again()
    try:
        assert getattr(found, "index", None) == 2 and webcams.tried == [0, 2]
        assert found.message.endswith("found again as /dev/video2 (it was /dev/video0)")
        assert "'HD Pro Webcam C920' was found again as /dev/video2" in caplog.text
    finally:
        found.close()
    # Plugged back once more, into another port: found there too, as itself.
    unplug_webcam(sysfs, 2, 3)
    plug_webcam(sysfs, 4, C920, "usb1/1-1/1-1.4/1-1.4:1.0")
    webcams.present = {0, 4}
    found = again()
    try:
        assert getattr(found, "index", None) == 4
        assert found.message.endswith("found again as /dev/video4 (it was /dev/video2)")
    finally:
        found.close()


def test_a_webcam_not_plugged_back_in_is_said_by_name_and_no_other_is_taken(
        tmp_path: Path) -> None:
    sysfs = tmp_path / "class" / "video4linux"
    plug_webcam(sysfs, 0, C920, PORT)
    webcams = PluggedWebcams(0)
    webcam = webcams(0)
    again = reopener(webcam, sysfs=sysfs, usb=webcams)
    webcam.close()
    unplug_webcam(sysfs, 0)
    plug_webcam(sysfs, 1, "Laptop Camera", "usb1/1-1/1-1.3/1-1.3:1.0")
    webcams.present = {1}
    assert again is not None
    with pytest.raises(CameraUnavailable, match=r"the webcam 'HD Pro Webcam C920' is not "
                                                r"plugged in \(it was /dev/video0\)"):
        again()
    assert webcams.tried == [0]                            # only its first opening


def test_a_second_webcam_of_the_same_model_is_not_taken_for_the_one_unplugged(
        tmp_path: Path) -> None:
    sysfs = tmp_path / "class" / "video4linux"
    plug_webcam(sysfs, 0, C920, PORT)
    plug_webcam(sysfs, 2, C920, "usb1/1-1/1-1.3/1-1.3:1.0")     # its twin, elsewhere
    webcams = PluggedWebcams(0, 2)
    webcam = webcams(0)
    again = reopener(webcam, sysfs=sysfs, usb=webcams)
    webcam.close()
    unplug_webcam(sysfs, 0)
    webcams.present = {2}
    assert again is not None
    with pytest.raises(CameraUnavailable, match="'HD Pro Webcam C920' is not plugged in"):
        again()
    plug_webcam(sysfs, 4, C920, "usb1/1-1/1-1.4/1-1.4:1.0")     # back, in another port
    webcams.present = {2, 4}
    found = again()
    try:
        assert getattr(found, "index", None) == 4 and webcams.tried == [0, 4]
    finally:
        found.close()


def test_where_linux_describes_no_webcam_the_other_numbers_are_tried(tmp_path: Path) -> None:
    webcams = PluggedWebcams(0)
    webcam = webcams(0)
    again = reopener(webcam, sysfs=tmp_path / "none", usb=webcams, usb_numbers=lambda: [1, 2])
    webcam.close()
    webcams.present = {2}
    assert again is not None
    found = again()
    try:
        assert getattr(found, "index", None) == 2 and webcams.tried == [0, 0, 1, 2]
        assert found.message.endswith("found again as /dev/video2 (it was /dev/video0)")
    finally:
        found.close()


def test_pi_camera_gives_bgr_frames_at_the_asked_size() -> None:
    module = fake_picamera2()
    cam = PiCamera(module=module, size=(1280, 960), fps=15, settle_s=0)
    try:
        frame = cam.read()
        assert frame.shape == (960, 1280, 3) and frame.dtype == np.uint8
        assert frame[0, 0, 0] == 200  # RGB888 is already OpenCV's BGR: no channel swap
        fake = module.Picamera2.opened[0]
        assert fake.config["main"] == {"size": (1280, 960), "format": "RGB888"}
        assert fake.config["controls"] == {"FrameRate": 15.0}
        assert cam.size == (1280, 960)
    finally:
        cam.close()


@pytest.mark.parametrize(("modes", "model", "mode"), [
    (IMX708_MODES, "imx708", (2304, 1296)),   # not its faster 1536x864, cut from the middle
    (IMX219_MODES, "imx219", (1640, 1232)),   # not its 1920x1080, cut from the middle
])
def test_pi_camera_frames_come_from_the_sensors_whole_view(
        modes: list[dict[str, Any]], model: str, mode: tuple[int, int]) -> None:
    # A camera that sees only the middle of its sensor must hang higher to take in the tray.
    module = fake_picamera2([{"Model": model, "Num": 0}], modes=modes)
    cam = PiCamera(module=module, size=(1280, 960), fps=15, settle_s=0)
    try:
        fake = module.Picamera2.opened[0]
        assert fake.config["sensor"] == {"output_size": mode, "bit_depth": 10}
        assert fake.config["main"]["size"] == (1280, 960)
        assert f"from its whole view ({mode[0]}x{mode[1]} mode)" in cam.message
        assert cam.read().shape == (960, 1280, 3)
    finally:
        cam.close()


def test_pi_camera_with_no_whole_view_mode_fast_enough_lets_picamera2_choose() -> None:
    module = fake_picamera2(modes=IMX708_MODES)
    cam = PiCamera(module=module, size=(1280, 960), fps=60, settle_s=0)   # 2304x1296: 56 fps
    try:
        assert "sensor" not in module.Picamera2.opened[0].config
        assert "whole view" not in cam.message
    finally:
        cam.close()


@pytest.mark.parametrize("fake", [
    {"sensor_key": False},                                       # picamera2 before 0.3.13
    {"modes": RuntimeError("Failed to configure camera")},       # its modes cannot be listed
    {"modes": [{"size": (2304, 1296)}]},                          # modes without their crop
])
def test_a_pi_camera_whose_modes_cannot_be_used_still_starts(fake: dict[str, Any]) -> None:
    module = fake_picamera2(**fake)
    cam = PiCamera(module=module, size=(1280, 960), fps=15, settle_s=0)
    try:
        assert "sensor" not in module.Picamera2.opened[0].config
        assert cam.read().shape == (960, 1280, 3)
        assert "whole view" not in cam.message
    finally:
        cam.close()


def test_whole_view_mode_examples() -> None:
    assert doctest.testmod(vision.picamera).failed == 0


def test_pi_camera_locks_exposure_and_white_balance_once_they_settle() -> None:
    module = fake_picamera2()
    cam = PiCamera(module=module, settle_s=0)
    try:
        fake = module.Picamera2.opened[0]
        # The fake's exposure converges (and says so) at its fifth frame; locked there.
        assert fake.frames == 5
        assert fake.controls == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 10000,
                                 "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}
        assert "exposure locked: ExposureTime 10000" in cam.message
    finally:
        cam.close()


@pytest.mark.parametrize(("autofocus", "cycles", "words"), [
    (True, 1, "focused on the tray"),
    (False, 1, "autofocus found no sharp picture"),
    (None, 0, None),
])
def test_pi_camera_focuses_once_when_its_lens_can(autofocus: bool | None, cycles: int,
                                                  words: str | None) -> None:
    module = fake_picamera2(autofocus=autofocus)
    cam = PiCamera(module=module, settle_s=0)
    try:
        assert module.Picamera2.opened[0].autofocus_cycles == cycles
        if words:
            assert words in cam.message
        else:
            assert "focus" not in cam.message
    finally:
        cam.close()


def test_pi_camera_measures_the_light_again_when_the_tray_stays_overexposed() -> None:
    module = fake_picamera2()
    cam = PiCamera(module=module, fps=2.0, settle_s=0)  # 10 s at 2 fps: 20 frames
    try:
        fake = module.Picamera2.opened[0]
        for _ in range(40):
            cam.read()  # well exposed (blue 200): nothing happens
        assert cam.measured_again == 0 and len(fake.control_log) == 1
        module.Picamera2.fill = 255
        for _ in range(19):
            cam.read()
        assert cam.measured_again == 0
        cam.read()
        assert cam.measured_again == 1
        # Auto exposure and white balance back on, then locked again where they settle.
        assert fake.control_log[1] == {"AeEnable": True, "AwbEnable": True}
        assert fake.control_log[2]["AeEnable"] is False and fake.control_log[2]["AwbEnable"] is False
    finally:
        cam.close()


def test_pi_camera_that_never_converges_is_locked_all_the_same() -> None:
    module = fake_picamera2()
    module.Picamera2.capture_metadata = lambda self: {"ExposureTime": 7000, "AeLocked": False}
    cam = PiCamera(module=module, settle_s=0, converge_s=0.05)
    try:
        assert module.Picamera2.opened[0].controls == {
            "AeEnable": False, "AwbEnable": False, "ExposureTime": 7000}
    finally:
        cam.close()


def test_pi_camera_without_a_camera_says_to_check_the_cable() -> None:
    with pytest.raises(PiCameraUnavailable, match="finds no camera.*ribbon cable"):
        PiCamera(module=fake_picamera2(cameras=[]))
    with pytest.raises(PiCameraUnavailable, match="only 1 camera"):
        PiCamera(1, module=fake_picamera2())


def test_pi_camera_that_will_not_start_is_released_and_explained() -> None:
    module = fake_picamera2(fail_start="Device or resource busy")
    with pytest.raises(PiCameraUnavailable, match=r"imx708\) would not start: Device or resource busy"):
        PiCamera(module=module)
    assert module.Picamera2.opened[0].closed


def test_pi_camera_drops_the_padding_of_a_4_channel_stream() -> None:
    module = fake_picamera2()
    cam = PiCamera(module=module, settle_s=0)
    try:
        module.Picamera2.opened[0].config["main"]["format"] = "XRGB8888"
        frame = cam.read()
        assert frame.shape[2] == 3 and frame.flags["C_CONTIGUOUS"]
    finally:
        cam.close()


def test_a_closed_pi_camera_is_released_and_stops_its_thread() -> None:
    module = fake_picamera2()
    cam = PiCamera(module=module, settle_s=0)
    thread = CameraThread(cam).start()
    assert thread.latest.wait_newer(0, 2.0) is not None
    thread.stop()
    assert not thread.running and thread.error is None
    assert module.Picamera2.opened[0].closed
    with pytest.raises(SourceClosed):
        cam.read()


# -- a USB webcam --------------------------------------------------------------------------

def test_webcam_gives_frames_at_its_own_size_and_locks_what_it_can() -> None:
    fake: dict[str, FakeCapture] = {}

    def capture(i: int) -> FakeCapture:
        fake["cap"] = FakeCapture(i, size=(800, 600))
        return fake["cap"]

    cam = UsbCamera(1, size=(1280, 960), settle_s=0, capture=capture)
    try:
        assert cam.read().shape == (600, 800, 3) and cam.size == (800, 600)
        cap = fake["cap"]
        assert (cv2.CAP_PROP_FRAME_WIDTH, 1280.0) in cap.set_calls
        # Locked at what auto exposure and white balance had chosen.
        assert cap.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1.0 and cap.props[cv2.CAP_PROP_EXPOSURE] == 156.0
        assert cap.props[cv2.CAP_PROP_AUTO_WB] == 0.0 and cap.props[cv2.CAP_PROP_WB_TEMPERATURE] == 4600.0
        assert cam.message == "USB camera 1, 800x600 YUYV; locked exposure and white balance"
    finally:
        cam.close()
    assert fake["cap"].released


def test_webcam_is_asked_for_motion_jpeg_so_it_can_give_the_full_size() -> None:
    # Like many USB 2 webcams: 1280x960 only compressed, 640x480 uncompressed.
    caps: list[FakeCapture] = []
    cam = UsbCamera(0, size=(1280, 960), settle_s=0,
                    capture=lambda i: caps.append(FakeCapture(i, size=(1280, 960),
                                                              raw_size=(640, 480))) or caps[-1])
    try:
        assert cam.read().shape == (960, 1280, 3) and cam.size == (1280, 960)
        assert cam.message.startswith("USB camera 0, 1280x960 MJPG; ")
        asked = [prop for prop, _ in caps[0].set_calls]
        assert asked.index(cv2.CAP_PROP_FOURCC) < asked.index(cv2.CAP_PROP_FRAME_WIDTH)
    finally:
        cam.close()


def test_webcam_measures_the_light_again_when_the_tray_stays_overexposed() -> None:
    caps: list[FakeCapture] = []
    cam = UsbCamera(0, fps=2.0, settle_s=0,
                    capture=lambda i: caps.append(FakeCapture(i, level=255)) or caps[-1])
    try:
        cap = caps[0]
        for _ in range(19):
            cam.read()
        assert cam.measured_again == 0
        before = len(cap.set_calls)
        cam.read()
        assert cam.measured_again == 1
        again = cap.set_calls[before:]
        # Auto exposure (V4L2's mode 3) and white balance back on, then locked again.
        assert again[:2] == [(cv2.CAP_PROP_AUTO_EXPOSURE, 3.0), (cv2.CAP_PROP_AUTO_WB, 1.0)]
        assert cap.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1.0 and cap.props[cv2.CAP_PROP_AUTO_WB] == 0.0
    finally:
        cam.close()


def test_a_hand_over_the_tray_for_a_moment_does_not_remeasure_the_light() -> None:
    from vision.exposure import OverexposureWatch

    watch = OverexposureWatch(fps=15.0)
    white = np.full((48, 64, 3), 255, np.uint8)
    tray = np.full((48, 64, 3), 120, np.uint8)
    # A white sleeve over the tray for 3 s of every 15, for a long game: never.
    for _ in range(20):
        assert not any(watch.due(white) for _ in range(45))
        assert not any(watch.due(tray) for _ in range(180))
    # White dice clipped 6 s of every 10 (thrown, read, picked up): within a minute.
    due = [watch.due(white) if k % 150 < 90 else watch.due(tray) for k in range(900)]
    assert any(due)


def test_a_scene_that_stays_clipped_is_measured_again_less_and_less_often() -> None:
    """A lamp's glare in view stays clipped whatever the exposure: measured again every
    10 s, the camera gave no pictures for a second or two of every ten, all evening."""
    from vision.exposure import CLIPPED_SECONDS_MOST, OverexposureWatch

    fps = 15
    watch = OverexposureWatch(fps=float(fps))
    glare = np.full((48, 64, 3), 255, np.uint8)
    tray = np.full((48, 64, 3), 120, np.uint8)
    hour = [k for k in range(3600 * fps) if watch.due(glare)]
    waits = [(b - a) / fps for a, b in zip([-1] + hour, hour)]
    assert waits[:4] == [10, 20, 40, 80]
    assert max(waits) == CLIPPED_SECONDS_MOST and len(hour) < 20    # not 360 an hour
    # The light put right (the lamp moved), the next change of light is met in 10 s again.
    for _ in range(fps * 60):
        watch.due(tray)
    assert [watch.due(glare) for _ in range(10 * fps)].index(True) == 10 * fps - 1


def test_webcam_that_refuses_the_controls_still_reads_and_says_so() -> None:
    cam = UsbCamera(0, settle_s=0, capture=lambda i: FakeCapture(i, obeys=(), channels=1))
    try:
        assert cam.read().shape == (480, 640, 3)  # a grey webcam's frames become BGR
        assert "locked nothing (this camera keeps adjusting the rest itself)" in cam.message
    finally:
        cam.close()


def test_webcam_that_gives_no_picture_is_refused() -> None:
    with pytest.raises(UsbCameraUnavailable, match="/dev/video3 opens but gives no picture"):
        UsbCamera(3, settle_s=0, capture=lambda i: FakeCapture(i, black=True))


class _BrokenDriverCapture(FakeCapture):
    """A webcam whose driver fails its first read with OpenCV's own error."""

    def read(self) -> tuple[bool, np.ndarray | None]:
        raise cv2.error("VIDIOC_DQBUF: No such device")


def _capture_that_raises(index: int) -> FakeCapture:
    raise cv2.error(f"can't open camera by index {index}")


@pytest.mark.parametrize("capture, words", [
    (_capture_that_raises, "/dev/video0 would not open: can't open camera by index 0"),
    (_BrokenDriverCapture, "/dev/video0 would not start: VIDIOC_DQBUF: No such device"),
])
def test_auto_goes_on_past_a_webcam_that_raises_as_it_opens(capture: Any, words: str) -> None:
    """OpenCV's cv2.error is no ValueError: it left "auto" with a traceback, and the service
    did not start."""
    cam = open_camera("auto", picamera=_no_pi, usb_numbers=lambda: [0],
                      usb=lambda n: UsbCamera(n, capture=capture, settle_s=0))
    try:
        assert cam.name == "sim" and words in cam.message
    finally:
        cam.close()


def test_a_webcam_whose_driver_fails_as_it_starts_is_let_go() -> None:
    held: dict[str, FakeCapture] = {}
    with pytest.raises(UsbCameraUnavailable, match="would not start"):
        UsbCamera(0, settle_s=0, capture=lambda i: held.setdefault("cap", _BrokenDriverCapture(i)))
    assert held["cap"].released


def test_unplugged_webcam_stops_the_camera_thread_with_a_reason() -> None:
    cam = UsbCamera(0, settle_s=0, capture=lambda i: FakeCapture(i, frames_left=4))
    thread = CameraThread(cam).start()
    deadline = time.monotonic() + 5
    while thread.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not thread.running
    assert isinstance(thread.error, UsbCameraError) and "unplugged" in str(thread.error)
    assert thread.latest.closed
    cam.close()


def test_webcam_closed_while_reading_releases_after_the_read() -> None:
    started, go_on = threading.Event(), threading.Event()

    class SlowCapture(FakeCapture):
        def read(self) -> tuple[bool, np.ndarray | None]:
            if started.is_set():
                go_on.wait(2)
            result = super().read()
            started.set()
            return result

    slow: dict[str, Any] = {}
    cam = UsbCamera(0, settle_s=0, capture=lambda i: slow.setdefault("cap", SlowCapture(i)))
    reader = threading.Thread(target=lambda: pytest.raises(SourceClosed, _read_until_closed, cam))
    reader.start()
    time.sleep(0.05)
    closer = threading.Thread(target=cam.close)
    closer.start()
    time.sleep(0.05)
    assert not slow["cap"].released  # FakeCapture asserts no read after release
    go_on.set()
    closer.join(3)
    reader.join(3)
    assert slow["cap"].released


def _hanging_webcam(monkeypatch: pytest.MonkeyPatch, hang: threading.Event,
                    hanging: threading.Event, go_on: threading.Event
                    ) -> tuple[UsbCamera, dict[str, Any]]:
    """A webcam whose reads hang once ``hang`` is set (setting ``hanging``) until
    ``go_on``, closed without waiting long; and where its fake capture is kept (``"cap"``)."""
    import vision.usbcamera

    monkeypatch.setattr(vision.usbcamera, "CLOSE_WAIT_S", 0.01)

    class HungCapture(FakeCapture):
        def read(self) -> tuple[bool, np.ndarray | None]:
            if hang.is_set():
                hanging.set()
                go_on.wait(5)
            return super().read()

    held: dict[str, Any] = {}
    cam = UsbCamera(0, settle_s=0, capture=lambda i: held.setdefault("cap", HungCapture(i)))
    return cam, held


def test_webcam_closed_while_hung_in_a_read_is_released_when_the_read_returns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hung webcam is closed to be opened again: the device must be let go once its read
    returns, or the camera plugged in again finds it still taken."""
    hang, hanging, go_on = threading.Event(), threading.Event(), threading.Event()
    cam, held = _hanging_webcam(monkeypatch, hang, hanging, go_on)
    thread = CameraThread(cam).start()
    assert thread.latest.wait_newer(0, timeout=2.0) is not None
    hang.set()
    assert hanging.wait(2.0)
    cam.close()  # gives up waiting for the hung read
    assert not held["cap"].released
    go_on.set()
    deadline = time.monotonic() + 5
    while thread.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not thread.running and thread.error is None
    assert held["cap"].released


def _read_until_closed(cam: UsbCamera) -> None:
    while True:
        cam.read()


# -- replays -------------------------------------------------------------------------------

def _photo(path: Path, level: int) -> Path:
    cv2.imwrite(str(path), np.full((48, 64, 3), level, np.uint8))
    return path


def test_replay_of_a_photo_shows_it_for_ever(tmp_path: Path) -> None:
    cam = open_camera(str(_photo(tmp_path / "tray.png", 70)))
    assert isinstance(cam, Replay) and "one photo, 64x48" in cam.message
    cam.realtime = False
    frames = [cam.read() for _ in range(100)]
    assert all(f.shape == (48, 64, 3) and f[0, 0, 0] == 70 for f in frames)


def test_replay_of_a_folder_holds_each_photo_then_keeps_the_last(tmp_path: Path) -> None:
    _photo(tmp_path / "b.png", 120)
    _photo(tmp_path / "a.png", 40)
    (tmp_path / "notes.txt").write_text("not a photo")
    cam = open_camera(str(tmp_path))
    assert isinstance(cam, Replay) and cam.name == "replay"
    assert "2 photos, 3 s each" in cam.message
    cam.realtime = False
    levels = [int(cam.read()[0, 0, 0]) for _ in range(2 * 45 + 5)]
    assert levels == [40] * 45 + [120] * 45 + [120] * 5  # 3 s at 15 fps each, name order


def test_replay_of_a_folder_skips_a_file_it_cannot_read(tmp_path: Path) -> None:
    """A Mac leaves a "._" file beside each photo it copies to a USB stick, and a photo can
    be half copied: one such file must not stop the replay of the others."""
    _photo(tmp_path / "a.png", 40)
    (tmp_path / "._a.png").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")
    _photo(tmp_path / "b.png", 120)
    (tmp_path / "c.png").write_bytes((tmp_path / "b.png").read_bytes()[:20])  # half copied
    _photo(tmp_path / "d.png", 200)
    cam = open_camera(str(tmp_path))
    assert isinstance(cam, Replay)
    cam.realtime = False
    levels = [int(cam.read()[0, 0, 0]) for _ in range(3 * 45 + 2)]
    assert levels == [40] * 45 + [120] * 45 + [200] * 47


def test_replay_of_a_folder_with_no_photo_it_can_read_is_refused(tmp_path: Path) -> None:
    (tmp_path / "._tray.jpg").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")
    with pytest.raises(CameraUnavailable, match="no photos in this folder"):
        open_camera(str(tmp_path))


def test_replay_of_a_video_plays_its_frames_then_keeps_the_last(tmp_path: Path) -> None:
    path = str(tmp_path / "tray.avi")
    out = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for level in (30, 90, 150, 210):
        out.write(np.full((48, 64, 3), level, np.uint8))
    out.release()
    cam = Replay(path, realtime=False)
    assert cam.fps == 10 and "a video at 10 fps" in cam.message
    levels = [int(cam.read()[10, 10].mean()) for _ in range(6)]
    assert [round(v / 10) * 10 for v in levels] == [30, 90, 150, 210, 210, 210]


def test_replay_of_a_video_with_no_frames_is_refused_with_a_reason(tmp_path: Path) -> None:
    """A recording that was never finished opens but holds no frame: it is refused when
    the camera is chosen, saying so, not only that the camera stopped."""
    path = tmp_path / "tray.avi"
    cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48)).release()
    with pytest.raises(ReplayUnavailable, match="it opens, but holds no frames"):
        Replay(path, realtime=False)


def test_replay_in_real_time_keeps_the_frame_rate(tmp_path: Path) -> None:
    cam = Replay(_photo(tmp_path / "tray.jpg", 80), fps=50)
    start = time.monotonic()
    for _ in range(11):
        cam.read()
    # Ten frame periods at 50 fps: at least 0.2 s (no upper bound: machines are noisy).
    assert time.monotonic() - start >= 0.19
    cam.close()
    with pytest.raises(SourceClosed):
        cam.read()


def test_the_examples_in_the_replay_docstrings_hold() -> None:
    import doctest

    from vision import replay

    result = doctest.testmod(replay)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(("name", "content", "words"), [
    ("empty", None, "no photos in this folder"),
    ("tray.mp4", b"not a video at all", "not a photo or a video OpenCV can read"),
    ("tray.png", b"\x89PNG\r\n\x1a\n broken", "not a photo OpenCV can read"),
])
def test_replay_refuses_what_it_cannot_play_by_name(tmp_path: Path, name: str,
                                                     content: bytes | None, words: str) -> None:
    path = tmp_path / name
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    with pytest.raises(CameraUnavailable) as info:
        open_camera(str(path))
    assert str(path) in str(info.value) and words in str(info.value)


def _stop_while_hung(camera: FrameSource, hang: threading.Event, hanging: threading.Event,
                     go_on: threading.Event) -> CameraThread:
    """Stop a camera thread (as the table does to open its camera again) while the source
    hangs in a read, then let that read return a frame, and wait for the thread to end."""
    thread = CameraThread(camera).start()
    assert thread.latest.wait_newer(0, timeout=2.0) is not None
    hang.set()
    assert hanging.wait(2.0)
    thread.stop(timeout=0.05)  # the close gives up waiting for the hung read
    go_on.set()
    deadline = time.monotonic() + 5
    while thread.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not thread.running
    return thread


def test_webcam_stopped_while_hung_lets_the_device_go_when_the_read_gives_a_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The table stops a hung webcam's thread to open the camera again: a read that then
    returns a picture (not a failure) must still let the device go, or it stays taken."""
    hang, hanging, go_on = threading.Event(), threading.Event(), threading.Event()
    cam, held = _hanging_webcam(monkeypatch, hang, hanging, go_on)
    _stop_while_hung(cam, hang, hanging, go_on)
    assert held["cap"].released


def test_pi_camera_stopped_while_hung_lets_the_camera_go_when_the_capture_returns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As for a webcam: a Pi camera closed while hung in a capture is stopped and closed
    once the capture returns, so that it can be opened again."""
    import vision.picamera

    monkeypatch.setattr(vision.picamera, "CLOSE_WAIT_S", 0.01)
    hang, hanging, go_on = threading.Event(), threading.Event(), threading.Event()
    module = fake_picamera2()
    base = module.Picamera2  # type: ignore[attr-defined]

    def capture_array(self: Any, name: str = "main") -> np.ndarray:
        if hang.is_set():
            hanging.set()
            go_on.wait(5)
        frame: np.ndarray = base.capture_array(self, name)
        return frame

    module.Picamera2 = type("HungPicamera2", (base,), {"capture_array": capture_array})  # type: ignore[attr-defined]
    cam = PiCamera(module=module, settle_s=0)
    _stop_while_hung(cam, hang, hanging, go_on)
    device = module.Picamera2.opened[-1]  # type: ignore[attr-defined]
    assert device.closed


def test_a_file_that_opens_as_a_video_but_holds_no_frame_is_refused(tmp_path: Path) -> None:
    """A text file named .jpg opens as an image sequence: no frame ever came, and the
    server ran on with nothing to show."""
    path = tmp_path / "tray.jpg"
    path.write_text("these are notes, not a photo\n" * 40)
    with pytest.raises(CameraUnavailable, match="not a photo or a video OpenCV can read"):
        open_camera(str(path))


def test_a_photo_cut_short_in_a_folder_is_skipped_not_shown_half_grey(tmp_path: Path) -> None:
    _photo(tmp_path / "a.jpg", 40)
    whole = (tmp_path / "a.jpg").read_bytes()
    (tmp_path / "b.jpg").write_bytes(whole[: len(whole) // 2])
    cam = open_camera(str(tmp_path))
    cam.realtime = False
    assert {int(cam.read()[0, 0, 0]) for _ in range(100)} <= {39, 40, 41}


def test_auto_goes_on_to_a_webcam_when_libcamera_cannot_list_the_cameras() -> None:
    """A broken libcamera raised out of "auto", and the service crashed in a loop."""
    module = fake_picamera2()

    def broken(cls: Any) -> list[dict[str, Any]]:
        raise RuntimeError("libcamera: failed to initialise camera manager")

    module.Picamera2.global_camera_info = classmethod(broken)
    cam = open_camera("auto", picamera=lambda: PiCamera(module=module, settle_s=0),
                      usb=lambda n: UsbCamera(n, capture=FakeCapture, settle_s=0),
                      usb_numbers=lambda: [0])
    try:
        assert cam.name == "usb"
        assert "libcamera cannot list the cameras: libcamera: failed to initialise" in cam.message
    finally:
        cam.close()


def test_a_pi_camera_closed_while_it_measures_the_light_again_is_let_go(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """close() gave up waiting for the read measuring the light, and the camera stayed
    taken: every later open found it busy until the service restarted."""
    monkeypatch.setattr("vision.picamera.CLOSE_WAIT_S", 0.05)
    module = fake_picamera2()
    cam = PiCamera(module=module, fps=2.0, settle_s=0)
    cam._settle_s = 30.0                      # the light is measured again for a long time
    module.Picamera2.fill = 255
    reads = []

    def reader() -> None:
        try:
            for _ in range(40):
                cam.read()
        except SourceClosed as exc:
            reads.append(exc)

    thread = threading.Thread(target=reader)
    thread.start()
    fake = module.Picamera2.opened[0]
    deadline = time.monotonic() + 5
    while len(fake.control_log) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)                      # the read is now measuring the light again
    cam.close()                               # gives up waiting after 0.05 s
    thread.join(5)
    assert reads and fake.closed


def test_a_webcam_says_the_frame_rate_it_took_for_the_roll_watcher_to_time_by() -> None:
    class Thirty(FakeCapture):
        def get(self, prop: int) -> float:
            return 30.0 if prop == cv2.CAP_PROP_FPS else super().get(prop)

    fast = UsbCamera(0, capture=Thirty, settle_s=0)
    silent = UsbCamera(0, capture=FakeCapture, settle_s=0)      # reports no rate: as asked
    try:
        assert fast.fps == 30.0 and silent.fps == 15.0
    finally:
        fast.close()
        silent.close()


def _opencv_with_log_level(where: str) -> Any:
    """A fake of the parts of OpenCV that opening a webcam uses: its log level in
    cv2.utils.logging (OpenCV 5), at the top of cv2 (4.x, which Raspberry Pi OS
    Bookworm's numpy 1.24 gets), or nowhere."""
    from types import SimpleNamespace

    level = {"now": 3, "while_opening": None}
    get_level = lambda: level["now"]                                   # noqa: E731
    set_level = lambda value: level.update(now=value)                  # noqa: E731

    def video_capture(index: int, backend: int) -> Any:
        level["while_opening"] = level["now"]
        return ("capture", index)

    fake = SimpleNamespace(CAP_V4L2=200, CAP_ANY=0, VideoCapture=video_capture,
                           utils=SimpleNamespace(), level=level)
    if where == "utils":
        fake.utils.logging = SimpleNamespace(getLogLevel=get_level, setLogLevel=set_level)
    elif where == "top":
        fake.getLogLevel, fake.setLogLevel = get_level, set_level
    return fake


@pytest.mark.parametrize("where", ["utils", "top", "nowhere"])
def test_a_webcam_opens_on_opencv_4_and_5_with_its_warnings_quiet(
        monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """OpenCV 4.11 has no cv2.utils.logging: a webcam once failed there with a
    traceback, and the Pi's service started again every 3 s."""
    import vision.usbcamera

    fake = _opencv_with_log_level(where)
    monkeypatch.setattr(vision.usbcamera, "cv2", fake)
    assert vision.usbcamera._open_capture(0) == ("capture", 0)
    if where != "nowhere":
        assert fake.level["while_opening"] == 2         # errors only: a probe is no warning
        assert fake.level["now"] == 3                   # and as it was afterwards


def test_pi_camera_sets_the_exposure_modes_where_libcamera_has_them() -> None:
    """libcamera 0.5 may ignore AeEnable ("Ctrl AeEnable is not handled"): where the camera
    lists ExposureTimeMode and AnalogueGainMode they are set too, manual to lock and auto
    to measure the light again, or an overexposed tray would stay so."""
    module = fake_picamera2(exposure_modes=True)
    cam = PiCamera(module=module, fps=2.0, settle_s=0)
    try:
        fake = module.Picamera2.opened[0]
        assert fake.control_log[0]["ExposureTimeMode"] == 1
        assert fake.control_log[0]["AnalogueGainMode"] == 1
        module.Picamera2.fill = 255
        for _ in range(20):
            cam.read()
        assert cam.measured_again == 1
        assert fake.control_log[1] == {"AeEnable": True, "AwbEnable": True,
                                       "ExposureTimeMode": 0, "AnalogueGainMode": 0}
        assert fake.control_log[2]["ExposureTimeMode"] == 1
    finally:
        cam.close()
