"""Read a die's top face: the crop classifiers.

``models/classifier.onnx`` reads every candidate from a 32 px crop (about 0.4 ms a
crop on one thread); a batch of :data:`STACK_FROM` crops or more is read by its stacked
twin, ``models/classifier_stacked.onnx``: the same net, rewritten to run faster on a
batch (``vision/training/stacked.py``). ``models/second_look.onnx``, a deeper net on
40 px crops that costs half as much again per crop, reads only the dice the first one
is unsure of, and ``models/third_look.onnx``, the same net on 56 px crops, only those
both are unsure of. ``models/fourth_look.onnx``, the first one's net trained with
marbled synthetic dice and leaning simulated dice too, is asked only whether it agrees
with a value the others read unsurely.

Classes 0-5 are values 1-6; 6 is "not a die centre" (a detector false alarm: a pen,
a hand, a corner between dice); 7 is "tilted" (a die leaning on the wall); 8 is
"picture face" (a logo instead of pips).
"""
from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from vision.crops import CROP_PX, cut
from vision.nets import read_onnx

MODEL = Path(__file__).resolve().parent / "models" / "classifier.onnx"
SECOND_MODEL = Path(__file__).resolve().parent / "models" / "second_look.onnx"
SECOND_CROP_PX = 40
THIRD_MODEL = Path(__file__).resolve().parent / "models" / "third_look.onnx"
THIRD_CROP_PX = 56
FOURTH_MODEL = Path(__file__).resolve().parent / "models" / "fourth_look.onnx"
NOT_DIE = 6
TILTED = 7
PICTURE = 8
N_CLASSES = 9
# The stacked twin runs the last two convolutions of a batch as one picture, which
# OpenCV's classic engine convolves faster (Winograd) once it is 12 px high (2 crops).
# Logits per batch, one thread, here on OpenCV 5.0: 4 crops 3.12 -> 2.85 ms, 9 crops
# 7.20 -> 6.38, 12 crops 9.89 -> 8.59, but 2 or 3 crops about the same and one crop
# slower; on OpenCV 4.11 (a Pi whose numpy is 1.x) 2 or 3 crops 5-8 % slower, 4 or 5
# the same, 9 and 12 crops 2 % and 6 % faster. Smaller batches are read by the net itself.
STACK_FROM = 4
# How far the twin's logits may stray from the net's before it is taken for another
# net's twin (they differ by float rounding, about 3e-5 on the shared photos' crops).
STACK_TOLERANCE = 1e-4

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _net() -> cv2.dnn.Net:
    # The classic engine runs small batches of crops faster than the new one (measured).
    return read_onnx(str(MODEL), "classic")


@lru_cache(maxsize=1)
def second_net() -> cv2.dnn.Net:
    """The second-look network (vision.known_dice also reads its features)."""
    return read_onnx(str(SECOND_MODEL), "classic")


@lru_cache(maxsize=1)
def _third_net() -> cv2.dnn.Net:
    return read_onnx(str(THIRD_MODEL), "classic")


@lru_cache(maxsize=1)
def _fourth_net() -> cv2.dnn.Net:
    return read_onnx(str(FOURTH_MODEL), "classic")


def stacked_model() -> Path:
    """Where the first look's stacked twin is: beside :data:`MODEL`, ``_stacked`` added
    (as ``vision/training/stacked.py`` writes it)."""
    return MODEL.with_name(MODEL.stem + "_stacked" + MODEL.suffix)


@lru_cache(maxsize=1)
def _stacked_net() -> cv2.dnn.Net | None:
    """The first look's stacked twin, or ``None`` (then the net itself reads every batch)
    when there is none or it does not compute what the net computes: a twin of an
    earlier net, or an OpenCV that runs its layers differently."""
    path = stacked_model()
    if not path.is_file():
        return None
    twin = read_onnx(str(path), "classic")
    if not same_logits(_net(), twin):
        log.warning("%s does not compute what %s computes; reading batches with the latter. "
                    "Write it again: python -m vision.training.stacked %s", path, MODEL, MODEL)
        return None
    return twin


def same_logits(net: cv2.dnn.Net, twin: cv2.dnn.Net) -> bool:
    """Whether ``twin`` gives ``net``'s logits, within :data:`STACK_TOLERANCE`, for a
    batch of three fixed noise crops."""
    probe = np.random.default_rng(0).random((3, 3, CROP_PX, CROP_PX), dtype=np.float32)
    net.setInput(probe)
    expected = np.array(net.forward())
    twin.setInput(probe)
    got = twin.forward()
    return got.shape == expected.shape and float(np.abs(got - expected).max()) <= STACK_TOLERANCE


def available() -> bool:
    """Whether the classifier model is in this checkout."""
    return MODEL.is_file()


def second_available() -> bool:
    """Whether the second-look model is in this checkout."""
    return SECOND_MODEL.is_file()


def classify_closely(image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
    """Class probabilities (n, 9) for ``(x, y, face)`` dice, read by the second-look
    model from 40 px crops."""
    return _read_closely(second_net, SECOND_CROP_PX, image, centres)


def third_available() -> bool:
    """Whether the third-look model is in this checkout."""
    return THIRD_MODEL.is_file()


def classify_third(image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
    """Class probabilities (n, 9) for ``(x, y, face)`` dice, read by the third-look model
    from 56 px crops: about a die's own pixels in a photo like byler-d6's."""
    return _read_closely(_third_net, THIRD_CROP_PX, image, centres)


def fourth_available() -> bool:
    """Whether the fourth-look model is in this checkout."""
    return FOURTH_MODEL.is_file()


def classify_fourth(image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
    """Class probabilities (n, 9) for ``(x, y, face)`` dice, read by the fourth-look model
    from the first look's 32 px crops."""
    return _read_closely(_fourth_net, CROP_PX, image, centres)


def _read_closely(net: Callable[[], cv2.dnn.Net], px: int, image: np.ndarray,
                  centres: list[tuple[float, float, float]]) -> np.ndarray:
    """Probabilities from model ``net()`` for ``(x, y, face)`` dice cut at ``px`` px."""
    if not centres:
        return np.zeros((0, N_CLASSES), np.float32)
    return probabilities(net(), np.stack([cut(image, x, y, f, out=px) for x, y, f in centres]))


def crops_of(image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
    """The classifier's crops for ``(x, y, face)`` dice, as a stack of BGR images."""
    if not centres:
        return np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8)
    return np.stack([cut(image, x, y, f) for x, y, f in centres])


def classify(crops: np.ndarray, views: int = 1) -> np.ndarray:
    """Class probabilities (n, 9) for a stack of crops.

    With ``views=2`` each crop is also read mirrored across its diagonal (a mirrored
    face shows the same number of pips) and each class keeps the smaller of its two
    probabilities: two views that disagree lower the confidence instead of averaging
    a misread into a confident one.
    """
    if len(crops) == 0:
        return np.zeros((0, N_CLASSES), np.float32)
    if views == 2:
        both = _probs(np.concatenate([crops, crops.transpose(0, 2, 1, 3)]))
        a, b = both[: len(crops)], both[len(crops):]
        return np.asarray(np.minimum(a, b), np.float32)
    return _probs(crops)


def _probs(crops: np.ndarray) -> np.ndarray:
    # The twin is set up with the net (some 40 ms, its check included), at the first
    # read, which callers run untimed to load the models, whatever its batch.
    twin = _stacked_net()
    return probabilities(twin if twin is not None and len(crops) >= STACK_FROM else _net(), crops)


def probabilities(net: cv2.dnn.Net, crops: np.ndarray) -> np.ndarray:
    """Class probabilities (n, 9) that classifier ``net`` gives a stack of BGR crops."""
    blob = crops.astype(np.float32).transpose(0, 3, 1, 2) * (1.0 / 255.0)
    net.setInput(np.ascontiguousarray(blob))
    logits = net.forward().reshape(len(crops), -1)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    if probs.shape[1] < N_CLASSES:  # an older model without the last classes
        probs = np.pad(probs, ((0, 0), (0, N_CLASSES - probs.shape[1])))
    return np.asarray(probs, np.float32)
