"""The reader on OpenCV 4, whose ``cv2.dnn`` has one engine and no ``ENGINE_*`` names.

On a Raspberry Pi OS whose numpy is 1.x, deploy/install.sh installs
``opencv-python-headless<4.12`` (DESIGN.md, "Choices already made"). Its
``readNetFromONNX`` takes the file alone; the reader must load its nets there too.
"""
from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from vision import classify, detect
from vision.reader import read_dice
from vision.sim import render_tray

_CACHED = (detect._net, classify._net, classify._stacked_net, classify.second_net,
           classify._third_net, classify._fourth_net)


@pytest.fixture
def opencv4_dnn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[object, ...]]]:
    """``cv2.dnn`` as OpenCV 4.11 has it; yields the arguments each net was read with."""
    read = cv2.dnn.readNetFromONNX
    calls: list[tuple[object, ...]] = []

    def read_one_engine(path: str) -> cv2.dnn.Net:  # OpenCV 4's signature
        calls.append((path,))
        return read(path)

    for name in ("ENGINE_NEW", "ENGINE_CLASSIC", "ENGINE_AUTO"):
        monkeypatch.delattr(cv2.dnn, name, raising=False)
    monkeypatch.setattr(cv2.dnn, "readNetFromONNX", read_one_engine)
    for cached in _CACHED:
        cached.cache_clear()
    yield calls
    for cached in _CACHED:
        cached.cache_clear()


def test_the_reader_loads_its_nets_on_opencv_4(opencv4_dnn: list[tuple[object, ...]]) -> None:
    if not (detect.available() and classify.available()):
        pytest.skip("the models are not in this checkout")
    frame, truth = render_tray(np.random.default_rng(3), [2, 5, 6])
    reading = read_dice(frame, None)
    assert len(reading.dice) == len(truth)
    assert opencv4_dnn, "no net was read through cv2.dnn.readNetFromONNX"


def test_every_engine_asked_for_is_read_on_opencv_4(
        opencv4_dnn: list[tuple[object, ...]]) -> None:
    from vision.nets import read_onnx

    for engine in ("new", "classic"):
        assert read_onnx(detect.MODEL, engine) is not None
    assert opencv4_dnn == [(str(detect.MODEL),)] * 2
