"""``--camera`` choices: the simulated tray opens, sources not built yet are refused clearly."""
from __future__ import annotations

import pytest

from vision.cameras import AUTO_FALLBACK, CameraUnavailable, open_camera
from vision.frames import FrameSource, SimCamera


def test_sim_opens_and_reads_frames() -> None:
    cam = open_camera("sim", seed=1, dice=3)
    try:
        assert isinstance(cam, FrameSource) and cam.name == "sim"
        assert isinstance(cam, SimCamera) and len(cam.tray.truth) == 3
        assert cam.tray.size == (1280, 960)
    finally:
        cam.close()


def test_auto_falls_back_to_sim_and_says_so() -> None:
    cam = open_camera("auto")
    assert cam.name == "sim"
    assert getattr(cam, "message") == AUTO_FALLBACK
    assert "simulated tray" in AUTO_FALLBACK
    cam.close()


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("picamera", "picamera2 source is not built yet"),
        ("usb:0", "USB camera source is not built yet"),
        ("usb:12", "USB camera source is not built yet"),
        ("tray.mp4", "from a file is not built yet"),
        ("/tmp/frames/", "from a file is not built yet"),
    ],
)
def test_sources_not_built_yet_are_refused_with_the_way_out(spec: str, words: str) -> None:
    with pytest.raises(CameraUnavailable) as info:
        open_camera(spec)
    assert words in str(info.value) and "--camera sim" in str(info.value) and spec in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("spec", ["webcam", "usb:x", "usb:", ""])
def test_unknown_specs_name_the_spec_and_list_valid_ones(spec: str) -> None:
    with pytest.raises(CameraUnavailable) as info:
        open_camera(spec)
    message = str(info.value)
    assert repr(spec) in message
    for valid in ("auto", "sim", "picamera", "usb:N", "PATH"):
        assert valid in message
