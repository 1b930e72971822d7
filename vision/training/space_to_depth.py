"""Give an exported detector its input as 2×2 space-to-depth: the same net, read faster.

Run from the repository root in the training venv (onnx), after ``train_detector``
(which calls it itself)::

    python -m vision.training.space_to_depth vision/models/detector.onnx

The detector's first layer is a 3×3 convolution of stride 2 over the three colour
channels. OpenCV's new dnn engine runs a layer on three channels badly: it pads them to
a block of eight and reorders the picture into its blocked layout first, and these two
steps took 45 % of a 320×240 pass here. The rewritten net takes the picture as sixteen
channels at half its size, each 2×2 block of pixels stacked into one cell (channel
``(dy * 2 + dx) * 3 + c``, then four zero channels; ``vision.detect._blob`` builds it),
and its first layer becomes a 2×2 convolution of stride 1 over them, with the taps
moved so every output is the same sum of the same products. The outputs agree to
float rounding (about 1e-6); the rest of the net is untouched.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from vision.detect import BLOB_CHANNELS, _blob

# The input channels the reader gives the net (12 of pixels, padded to two of the engine's
# blocks of eight): one number, kept where the blob is built.
CHANNELS = BLOB_CHANNELS

# A 3×3 stride-2 tap ``k`` (padding 1) reads pixel row 2i - 1 + k of output row i: the
# block row i - 1 (kernel row 0 of the 2×2 conv, with one block of padding on top) or i
# (kernel row 1), and the pixel row dy inside that block.
_TAP = {0: (0, 1), 1: (1, 0), 2: (1, 1)}  # k -> (kernel row in the 2×2 conv, dy)


class NotAStem(ValueError):
    """The model's first layer is not the detector's 3×3 stride-2 conv on 3 channels."""


def stem_weights_to_depth(w: np.ndarray) -> np.ndarray:
    """The 2×2 kernel over the space-to-depth input that computes what the 3×3 stride-2
    kernel ``w`` (out, 3, 3, 3) computes over the picture.

    >>> stem_weights_to_depth(np.ones((8, 3, 3, 3), np.float32)).shape
    (8, 16, 2, 2)
    """
    if w.ndim != 4 or w.shape[1:] != (3, 3, 3):
        raise NotAStem(f"the first conv's weights are {w.shape}, not (out, 3, 3, 3)")
    out = np.zeros((w.shape[0], CHANNELS, 2, 2), np.float32)
    for ky, (a, dy) in _TAP.items():
        for kx, (b, dx) in _TAP.items():
            for c in range(3):
                out[:, (dy * 2 + dx) * 3 + c, a, b] = w[:, c, ky, kx]
    return out


def convert(model: Any) -> Any:
    """Rewrite an ONNX detector ``model`` (an ``onnx.ModelProto``) in place to take the
    space-to-depth input; returns it."""
    from onnx import helper, numpy_helper  # training venv only

    first = model.graph.node[0]
    attrs = {a.name: helper.get_attribute_value(a) for a in first.attribute}
    if (first.op_type != "Conv" or list(attrs.get("strides", [])) != [2, 2]
            or list(attrs.get("kernel_shape", [])) != [3, 3]
            or list(attrs.get("pads", [])) != [1, 1, 1, 1] or attrs.get("group", 1) != 1):
        raise NotAStem(f"the first layer is {first.op_type} {attrs}, not a 3×3 stride-2 conv "
                       "with padding 1 (already converted?)")
    inits = {i.name: i for i in model.graph.initializer}
    weights = inits[first.input[1]]
    weights.CopyFrom(numpy_helper.from_array(
        stem_weights_to_depth(numpy_helper.to_array(weights)), weights.name))
    del first.attribute[:]
    # One block of padding on top and left only: block row i - 1 of output row i.
    first.attribute.extend([helper.make_attribute("dilations", [1, 1]),
                            helper.make_attribute("group", 1),
                            helper.make_attribute("kernel_shape", [2, 2]),
                            helper.make_attribute("pads", [1, 1, 0, 0]),
                            helper.make_attribute("strides", [1, 1])])
    model.graph.input[0].type.tensor_type.shape.dim[1].dim_value = CHANNELS
    return model


def check(before: Path, after: Path, tolerance: float = 1e-4) -> float:
    """The largest difference between the two files' outputs on random pictures, read by
    OpenCV as the reader reads them; raises ``ValueError`` above ``tolerance``."""
    import cv2

    rng = np.random.default_rng(0)
    old = cv2.dnn.readNetFromONNX(str(before), cv2.dnn.ENGINE_NEW)
    new = cv2.dnn.readNetFromONNX(str(after), cv2.dnn.ENGINE_NEW)
    worst = 0.0
    for h, w in ((64, 64), (240, 320), (96, 160)):
        image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        old.setInput(cv2.dnn.blobFromImage(image, 1.0 / 255.0))
        new.setInput(_blob(image))
        worst = max(worst, float(np.abs(old.forward() - new.forward()).max()))
    if worst > tolerance:
        raise ValueError(f"{after} differs from {before} by {worst:g} (more than {tolerance:g})")
    return worst


def rewrite(path: Path) -> float:
    """Convert the detector file ``path`` in place, after checking the converted net
    against it; returns the largest output difference."""
    import shutil
    import tempfile

    import onnx  # training venv only

    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before.onnx"
        shutil.copyfile(path, before)
        after = Path(tmp) / "after.onnx"
        onnx.save(convert(onnx.load(str(path))), str(after))
        worst = check(before, after)
        shutil.copyfile(after, path)
    return worst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", type=Path, help="an exported detector.onnx, rewritten in place")
    args = ap.parse_args()
    try:
        worst = rewrite(args.model)
    except NotAStem as exc:
        raise SystemExit(f"{args.model}: {exc}") from None
    print(f"wrote {args.model}: space-to-depth input, outputs within {worst:.1e} of before")


if __name__ == "__main__":
    main()
