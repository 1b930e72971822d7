"""Dice a person has confirmed: the family's own dice, remembered to read them surely.

Every die a person confirms or corrects on the control page is a die of the family's
set with its true value. The calibration keeps the crop of each
(:class:`calibration.KnownDie`), with the throw it was seen in. A die the networks read
below the threshold is read as a value after all when it looks very like remembered
dice of that value from two different throws, and no remembered die of another value
looks nearly as like it: the dark die with faint red pips that the nets never learned
well is flagged a few times, then read.

"Looks like" is measured on what the second-look network sees in the crop: the
average of its last feature map (before the layer that names the class), over four
quarter turns of the crop, as a unit vector; two dice alike have a dot product near 1.
Two throws, not one, because the memory may name a value the nets did not read first:
one throw confirmed with a wrong value, or a die of another set that happens to look
alike while the family's own die of the true value is not yet remembered, must not be
enough to read a die wrongly and surely (vision/training/README.md, twenty-fourth
round).

>>> from vision.calibration_data import KnownDie, PictureFace
>>> import numpy as np
>>> grey = np.full((CROP_PX, CROP_PX, 3), 128, np.uint8)
>>> KnownDie(3, grey, source_of("throw 7", 0)).source
'throw 7 die 1'
>>> throw_of('throw 7 die 1')
'throw 7'
"""
from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from typing import TypeVar

import cv2
import numpy as np

from vision.calibration_data import KnownDie, PictureFace
from vision import classify
from vision.crops import cut
from vision.nets import read_onnx

CROP_PX = classify.SECOND_CROP_PX  # the crop a remembered die is kept as (the second look's)
# Set on held-out train photos (nets trained without them; the memory made of the
# other train photos' dice with their labels; vision/training/README.md, tenth round):
# of 20 dice flagged for low confidence, 6 had a remembered die of their value at 0.95
# or more and 0.06 above any of another value, all read right; the 5 misread ones
# lay at 0.87-0.95, at most 0.048 above.
ALIKE = 0.95
MARGIN = 0.06
# A remembered value speaks only when dice of it from this many throws look alike.
THROWS = 2
# The oldest go first. 600 crops are ~2.6 MB of calibration file and ~2.4 s of features
# here (4 views each; a Pi 4 takes ~10 s), worked out once per start, in the background
# (prepare). A family's game of Sum Chicago remembers perhaps 10-20 dice.
MAX_KNOWN = 600

_LAYER_SUFFIX = "GlobalAveragePool"
# What was seen at a source and named a value by a person: a remembered die, or a picture.
Seen = TypeVar("Seen", KnownDie, PictureFace)
_BATCH = 64


def crop_of(image: np.ndarray, x: float, y: float, face: float) -> np.ndarray:
    """The crop a die at ``(x, y)`` with a ``face`` px top face is remembered as."""
    return cut(image, x, y, face, out=CROP_PX)


def source_of(throw: str, die: int) -> str:
    """Where a remembered die was seen: its throw, and its place (from 0) among the
    throw's dice."""
    return f"{throw} die {die + 1}"


def throw_of(source: str) -> str:
    """The throw a remembered die was seen in (:func:`source_of` read back)."""
    return source.rsplit(" die ", 1)[0]


def remember(known: Sequence[KnownDie], image: np.ndarray,
             dice: Sequence[tuple[float, float, float, int]],
             sources: Sequence[str | None] | None = None) -> tuple[KnownDie, ...]:
    """``known`` with the dice ``(x, y, face, value)`` of ``image`` added (newest last),
    each seen at the same place in ``sources``; the oldest forgotten beyond
    :data:`MAX_KNOWN`."""
    where = list(sources) if sources is not None else [None] * len(dice)
    new = [KnownDie(int(v), crop_of(image, x, y, f), s) for (x, y, f, v), s in zip(dice, where)]
    return tuple([*known, *new][-MAX_KNOWN:])


def relabelled(known: tuple[Seen, ...], values: dict[str, int]) -> tuple[Seen, ...]:
    """``known`` (remembered dice, or taught pictures) with those seen at a source in
    ``values`` given the value there (a person corrected that throw afterwards); the same
    tuple when nothing changes."""
    new = tuple(dataclasses.replace(k, value=values[k.source])
                if k.source in values and values[k.source] != k.value else k for k in known)
    return known if all(a is b for a, b in zip(new, known)) else new


def features(crops: np.ndarray, net: cv2.dnn.Net | None = None) -> np.ndarray:
    """Unit feature vectors (n, k) of a stack of second-look crops (n, 40, 40, 3), read
    by ``net`` (the reader's second-look network by default)."""
    if len(crops) == 0:
        return np.zeros((0, 0), np.float32)
    net = net if net is not None else classify.second_net()
    layer = next(name for name in net.getLayerNames() if name.endswith(_LAYER_SUFFIX))
    out = []
    for start in range(0, len(crops), _BATCH):  # a bounded blob: a Pi has little memory
        part = crops[start:start + _BATCH]
        turned = np.concatenate([np.rot90(part, k, axes=(1, 2)) for k in range(4)])
        blob = turned.astype(np.float32).transpose(0, 3, 1, 2) * (1.0 / 255.0)
        net.setInput(np.ascontiguousarray(blob))
        out.append(net.forward(layer).reshape(4, len(part), -1).mean(axis=0))
    pooled = np.concatenate(out)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return np.asarray(pooled / np.maximum(norms, 1e-9), np.float32)


class Memory:
    """The features of a calibration's known dice, computed once per die.

    A new calibration usually keeps most of the last one's dice (a die is added, or the
    oldest forgotten), so features are kept per crop and only new crops are embedded.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: tuple[KnownDie, ...] = ()
        self._by_crop: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._matrix = np.zeros((0, 0), np.float32)
        self._values = np.zeros(0, np.int64)
        self._throws = np.zeros(0, np.int64)

    def use(self, known: tuple[KnownDie, ...], net: cv2.dnn.Net | None = None) -> None:
        """Make ``known`` the remembered dice (their features read by ``net``)."""
        with self._lock:
            self._use(known, net)

    def _use(self, known: tuple[KnownDie, ...], net: cv2.dnn.Net | None = None) -> None:
        if known is self._known:
            return
        new = [k for k in known if id(k.crop) not in self._by_crop]
        if new:
            for k, f in zip(new, features(np.stack([k.crop for k in new]), net)):
                # The crop is held with its features so its id is not reused meanwhile.
                self._by_crop[id(k.crop)] = (k.crop, f)
        self._by_crop = {id(k.crop): self._by_crop[id(k.crop)] for k in known}
        self._known = known
        self._matrix = (np.stack([self._by_crop[id(k.crop)][1] for k in known])
                        if known else np.zeros((0, 0), np.float32))
        self._values = np.array([k.value for k in known], np.int64)
        # Dice whose throw is unknown count as one throw together: nothing says they
        # were confirmed apart.
        throws: dict[str | None, int] = {}
        self._throws = np.array([throws.setdefault(
            throw_of(k.source) if k.source is not None else None, len(throws))
            for k in known], np.int64)

    def reads(self, known: tuple[KnownDie, ...], crops: np.ndarray) -> list[int | None]:
        """For each die in ``crops``, the value the dice ``known`` say it shows, or
        ``None`` when they say nothing sure."""
        with self._lock:
            self._use(known)
            matrix, remembered, throws = self._matrix, self._values, self._throws
        if not len(crops):
            return []
        return [_value_of(alike, remembered, throws) for alike in features(crops) @ matrix.T]


def _value_of(alike: np.ndarray, remembered: np.ndarray, throws: np.ndarray) -> int | None:
    """The value the remembered dice (their values and throws) name for a die as like
    each of them as ``alike`` says, or ``None``.

    >>> _value_of(np.array([0.97, 0.96, 0.80]), np.array([4, 4, 5]), np.array([0, 1, 1]))
    4
    >>> _value_of(np.array([0.97, 0.96, 0.80]), np.array([4, 4, 5]), np.array([0, 0, 1])) is None
    True
    """
    best_at = int(np.argmax(alike))
    value = int(remembered[best_at])
    same = remembered == value
    if same.all():
        return None  # with no other value remembered, "unlike the others" means nothing
    best, other = float(alike[best_at]), float(alike[~same].max())
    seen_in = len(set(throws[same & (alike >= ALIKE)].tolist()))
    if best >= ALIKE and best - other >= MARGIN and seen_in >= THROWS:
        return value
    return None


_memory = Memory()


def read(known: tuple[KnownDie, ...], image: np.ndarray,
         dice: Sequence[tuple[float, float, float]]) -> list[int | None]:
    """For each die ``(x, y, face)`` of ``image``, the value the dice ``known`` say it
    shows (:meth:`Memory.reads`), or ``None``."""
    if not known or not dice or not classify.second_available():
        return [None] * len(dice)
    crops = np.stack([crop_of(image, x, y, f) for x, y, f in dice])
    return _memory.reads(known, crops)


def prepare(known: tuple[KnownDie, ...]) -> None:
    """Work out the features of ``known`` now, so that the first unsure die does not
    wait for them. A table calls this in a thread of its own when its calibration
    changes; that thread reads them with a network of its own, as one OpenCV network
    must not run in two threads at once."""
    if known and classify.second_available():
        _memory.use(known, read_onnx(str(classify.SECOND_MODEL), "classic"))
