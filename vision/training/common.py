"""Training data shared by the detector and classifier scripts.

Only the ``train`` split of each shared folder is used. Each labelled die becomes
``(cx, cy, face, value)``: the centre and side length (px) of its top face. The two
folders label differently, so the face size is estimated per folder:

* byler-d6 boxes cover the whole die (top face plus some side), so the face is a bit
  smaller than the box;
* matteop65-oblique boxes cover the pip cluster only (for a one, sometimes just the
  pip), so the face is larger than the box; a lone pip takes the face size of the
  other dice in the photo, or the folder's median.
"""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.evaluate import shared_datasets

DATASETS = shared_datasets()  # $DICETRAY_DATASETS, else ../shared/datasets beside the clone
FOLDERS = ("byler-d6", "matteop65-oblique")  # the shared folders trained on

# Classifier classes: 0-5 are values 1-6; then "not a die centre", "tilted" and
# "picture face" (a logo instead of pips).
NOT_DIE = 6
TILTED = 7
PICTURE = 8
N_CLASSES = 9


@dataclass
class Sample:
    """One training photo with its dice as (cx, cy, face, value) rows."""

    image: np.ndarray
    dice: np.ndarray  # float32 (n, 4)
    source: str
    file: str = ""


def _faces_byler(entry: dict) -> list[tuple[float, float, float, int]]:
    out = []
    for d in entry["dice"]:
        x0, y0, x1, y1 = d["box"]
        out.append(((x0 + x1) / 2, (y0 + y1) / 2, 0.85 * min(x1 - x0, y1 - y0), int(d["value"])))
    return out


def _faces_matteo(entry: dict, folder_median: float) -> list[tuple[float, float, float, int]]:
    rows = []
    multi = []
    for d in entry["dice"]:
        x0, y0, x1, y1 = d["box"]
        side = max(x1 - x0, y1 - y0)
        if d["value"] != 1:
            multi.append(1.45 * side)
    image_face = statistics.median(multi) if multi else folder_median
    for d in entry["dice"]:
        x0, y0, x1, y1 = d["box"]
        side = max(x1 - x0, y1 - y0)
        if d["value"] != 1:
            face = 1.45 * side
        elif side > 0.5 * image_face:
            face = side  # this one was labelled with the whole top face
        else:
            face = image_face
        rows.append(((x0 + x1) / 2, (y0 + y1) / 2, face, int(d["value"])))
    return rows


def load_train(root: Path = DATASETS) -> list[Sample]:
    """Every ``train`` photo of both shared folders, decoded, with face geometry."""
    samples: list[Sample] = []
    for name in FOLDERS:
        folder = root / name
        labels = json.loads((folder / "labels.json").read_text())
        train = set(json.loads((folder / "split.json").read_text())["train"])
        entries = [e for e in labels["images"] if e["file"] in train]
        if name.startswith("matteop"):
            sides = [
                1.45 * max(d["box"][2] - d["box"][0], d["box"][3] - d["box"][1])
                for e in entries for d in e["dice"] if d["value"] != 1
            ]
            median = statistics.median(sides)
        for e in entries:
            image = cv2.imread(str(folder / e["file"]), cv2.IMREAD_COLOR)
            rows = _faces_byler(e) if name == "byler-d6" else _faces_matteo(e, median)
            samples.append(Sample(image, np.array(rows, np.float32).reshape(-1, 4), name,
                                  e["file"]))
    return samples


HOLDOUT_EVERY = 4  # --holdout leaves every fourth train photo out of training


def held_out(samples: list[Sample]) -> tuple[list[Sample], list[Sample]]:
    """``load_train()``'s photos split into (kept for training, held out to judge)."""
    keep = [s for k, s in enumerate(samples) if k % HOLDOUT_EVERY != 0]
    held = [s for k, s in enumerate(samples) if k % HOLDOUT_EVERY == 0]
    return keep, held


def sim_samples(n: int, seed: int, tilt: float = 0.0, touch: float = 0.0,
                on_die: float = 0.0) -> list[Sample]:
    """Simulated tray frames (``vision.sim``), with tilted dice marked by value -1.

    With ``tilt`` > 0, half the trays lean that share of their dice on the wall (the
    simulator's own mix has few leaning dice). With ``touch`` > 0, a third of the trays
    hold 6-12 dice, each placed touching another with that chance: clusters, where a
    crop shows the neighbours' pips at its edges (the simulator's own mix touches at
    most 30 % of its dice). With ``on_die`` > 0, a quarter of the trays lean 30 % of
    their dice, each on a flat die with that chance (on the wall otherwise)."""
    try:
        from vision.sim import TrayStyle, render_tray
    except ImportError:
        return []
    import dataclasses
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = int(rng.integers(1, 9))
        values = [int(v) for v in rng.integers(1, 7, size=k)]
        style = TrayStyle.random(rng, (1280, 960))
        if tilt > 0 and rng.random() < 0.5:
            style = dataclasses.replace(style, tilt=tilt)
        if on_die > 0 and rng.random() < 0.25:
            style = dataclasses.replace(style, tilt=0.3, on_die=on_die)
            values = [int(v) for v in rng.integers(1, 7, size=int(rng.integers(3, 9)))]
        if touch > 0 and rng.random() < 1 / 3:
            style = dataclasses.replace(style, touching=touch, die_side=min(style.die_side, 0.06))
            values = [int(v) for v in rng.integers(1, 7, size=int(rng.integers(6, 13)))]
        image, dice = render_tray(rng, values, (1280, 960), style=style)
        rows = []
        for d in dice:
            face = d.side or 0.9 * min(d.box[2] - d.box[0], d.box[3] - d.box[1])
            rows.append((d.center[0], d.center[1], face, -1 if d.tilted else d.value))
        out.append(Sample(image, np.array(rows, np.float32).reshape(-1, 4), "sim"))
    return out


def colour_jitter(rng: np.random.Generator, image: np.ndarray, max_blur: int = 5,
                  strength: float = 1.0) -> np.ndarray:
    """Hue rotation, saturation, brightness, contrast, blur and noise: dice of any colour
    under any light, so the nets do not learn the shared photos' few dice sets.

    ``strength`` below 1 narrows the ranges and makes the destructive changes (grey,
    blur, noise) rarer: a real photo's hard die (red pips on a dark marbled body) must
    stay readable, or the net learns that such dice are unreadable."""
    img = image
    k = strength
    if rng.random() < 0.8:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + int(rng.integers(0, 180))) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(1 - 0.5 * k, 1 + 0.5 * k), 0, 255)
        img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if rng.random() < 0.15 * k:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.1:
        img = 255 - img  # dark dice with light pips from light dice with dark pips
    f = img.astype(np.float32)
    f = (f - 128) * rng.uniform(1 - 0.4 * k, 1 + 0.4 * k) + 128 + rng.uniform(-50 * k, 50 * k)
    f *= rng.uniform(1 - 0.15 * k, 1 + 0.15 * k, size=3).astype(np.float32)  # white balance
    if rng.random() < 0.3 * k:
        size = int(rng.choice([3, max_blur]))
        f = cv2.GaussianBlur(f, (size, size), 0)
    if rng.random() < 0.5 * k:
        f += rng.normal(0, rng.uniform(2, 10), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def camera_change(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """``image`` as another camera would have given it: saved as a webcam's or a phone's
    JPEG, softened by a cheap lens or focus, or grainy from a small sensor (one or two
    of these, each at a random strength).

    Applied to the whole frame before the dice are cut from it, because that is where a
    camera does it: JPEG's 8×8 blocks and its halved colour lie on the frame's pixels,
    not the crop's, and a crop shrinks a frame's noise and blur with it. The shared
    photos are clean (the seventeenth round: JPEG 40 costs byler-d6 4 points); shown
    such frames, the first and second looks read changed held-out photos hardly better
    (twentieth round), so the committed nets are trained without it."""
    out = image
    kinds = rng.permutation(3)[:int(rng.integers(1, 3))]
    for kind in sorted(kinds):  # blur and grain before compression, as in a camera
        if kind == 0:
            out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 1.5)))
        elif kind == 1:
            grain = rng.normal(0.0, rng.uniform(2.0, 10.0), out.shape).astype(np.float32)
            out = np.clip(out.astype(np.float32) + grain, 0, 255).astype(np.uint8)
        else:
            quality = int(rng.integers(25, 91))
            ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
            if ok:
                out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out
