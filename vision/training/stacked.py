"""Write the first look's stacked twin: the same net, faster on a batch of crops.

Run from the repository root in the training venv (onnx), after training the first look::

    python -m vision.training.stacked vision/models/classifier.onnx

which writes ``vision/models/classifier_stacked.onnx`` beside it. The reader reads a batch
of four or more crops with the twin, fewer with the net itself
(``vision.classify``); it leaves a twin that does not compute what the net computes
unused, and logs that this command should be run again.

Why: the first look's last two convolutions run on 8×8 maps, and OpenCV's classic engine
uses its Winograd convolution only on maps at least 12 px each way (below that its
general convolution, about half as fast here). The twin stacks the batch's 8×8 maps in
one column, each crop followed by one row of zeros and padded with zeros to
:data:`WIDTH` columns, so those two convolutions run once on one tall map. A 3×3
convolution with padding 1 then reads around each crop exactly the zeros it read at the
crop's border before. What it writes on the zero rows and columns is not part of any
crop: a mask sets it back to zero before the second convolution, and again before the
per-crop sum that replaces the global average (its ``1/64`` moved into the last layer's
weights, a power of two, so the products are the same). Each output is the same sum of
the same products; only the order of the additions differs (the logits agree within
about 3e-5, the probabilities within about 5e-6).

A single crop gains nothing (its 9×12 map is still too small for Winograd), and two or
three little (``vision.classify.STACK_FROM``). Everything up to the last pooling is
untouched.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

# OpenCV's classic engine runs a 3×3 convolution as Winograd only on maps this big each way.
WIDTH = 12
SUFFIX = "_stacked"


class NotStackable(ValueError):
    """The model does not end as the first look does (a pooling, two 3×3 convolutions
    with ReLU, a global average, a linear layer)."""


def twin_path(model: Path) -> Path:
    """Where the stacked twin of ``model`` is written: beside it, ``_stacked`` added."""
    return model.with_name(model.stem + SUFFIX + model.suffix)


def column_mask(size: int, width: int = WIDTH) -> np.ndarray:
    """One crop's share of the column: ``size`` rows of ``size`` ones, then zeros to
    ``width`` columns and one row of zeros below (shape ``(size + 1, width)``).

    >>> column_mask(2, 4)
    array([[1., 1., 0., 0.],
           [1., 1., 0., 0.],
           [0., 0., 0., 0.]], dtype=float32)
    """
    mask = np.zeros((size + 1, width), np.float32)
    mask[:size, :size] = 1.0
    return mask


def stack_maps(maps: np.ndarray, width: int = WIDTH) -> np.ndarray:
    """What the twin's first new layers make of maps ``(n, c, s, s)``: one picture
    ``(1, c, n * (s + 1), width)`` with crop k's map at rows ``k * (s + 1)`` on, zeros
    elsewhere (numpy, to show and test the layout)."""
    n, c, s, _ = maps.shape
    padded = np.pad(maps, ((0, 0), (0, 0), (0, 1), (0, width - s)))
    return padded.transpose(1, 0, 2, 3).reshape(1, c, n * (s + 1), width)


def crop_sums(column: np.ndarray, size: int, width: int = WIDTH) -> np.ndarray:
    """Each crop's sum over its own ``size``×``size`` part of a stacked ``column``
    ``(1, c, n * (size + 1), width)``, as ``(n, c)`` (numpy, as :func:`stack_maps`)."""
    c = column.shape[1]
    cells = column.reshape(c, -1, size + 1, width) * column_mask(size, width)
    return np.asarray(cells.sum(axis=(2, 3)).T)


def _attrs(node: Any) -> dict[str, Any]:
    from onnx import helper

    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _tail(model: Any) -> tuple[int, list[Any]]:
    """The index of the last MaxPool and the nodes after it, checked to be the first
    look's tail: Conv, Relu, Conv, Relu, GlobalAveragePool, Flatten, Gemm."""
    nodes = list(model.graph.node)
    pools = [i for i, node in enumerate(nodes) if node.op_type == "MaxPool"]
    if not pools:
        raise NotStackable("the model has no MaxPool")
    tail = nodes[pools[-1] + 1:]
    kinds = [node.op_type for node in tail]
    want = ["Conv", "Relu", "Conv", "Relu", "GlobalAveragePool", "Flatten", "Gemm"]
    if kinds != want:
        raise NotStackable(f"after the last MaxPool the model has {kinds}, not {want}")
    for conv in (tail[0], tail[2]):
        a = _attrs(conv)
        if (list(a.get("kernel_shape", [])) != [3, 3] or list(a.get("pads", [])) != [1, 1, 1, 1]
                or list(a.get("strides", [1, 1])) != [1, 1] or a.get("group", 1) != 1
                or list(a.get("dilations", [1, 1])) != [1, 1]):
            raise NotStackable(f"{conv.name} is not a 3×3 convolution with padding 1: {a}")
    chain = [nodes[pools[-1]], *tail]
    for before, after in zip(chain, chain[1:]):
        if after.input[0] != before.output[0]:
            raise NotStackable(f"{after.name} does not read {before.name}")
    return pools[-1], tail


def _map_size(model: Any) -> int:
    """The side of the maps after the last pooling, checking that every pooling halves
    them (2×2, stride 2, an even side) and that no convolution is strided."""
    dims = model.graph.input[0].type.tensor_type.shape.dim
    side = dims[2].dim_value
    if side <= 0 or side != dims[3].dim_value:
        raise NotStackable("the model's input is not a square of a fixed size")
    for node in model.graph.node:
        a = _attrs(node)
        if node.op_type == "Conv" and list(a.get("strides", [1, 1])) != [1, 1]:
            raise NotStackable(f"{node.name} is strided")
        if node.op_type == "MaxPool":
            if (list(a.get("kernel_shape", [])) != [2, 2] or list(a.get("strides", [])) != [2, 2]
                    or any(a.get("pads", [0, 0, 0, 0])) or a.get("ceil_mode", 0)
                    or list(a.get("dilations", [1, 1])) != [1, 1] or side % 2):
                raise NotStackable(f"{node.name} does not halve {side}×{side} maps: {a}")
            side //= 2
    return side


class _Builder:
    """Adds constants and nodes to an ONNX model, each named after what it holds."""

    def __init__(self, model: Any) -> None:
        from onnx import helper, numpy_helper  # training venv only

        self.model, self.helper, self.numpy_helper = model, helper, numpy_helper

    def const(self, name: str, value: np.ndarray) -> str:
        """A constant tensor ``name``; returns its name."""
        self.model.graph.initializer.append(self.numpy_helper.from_array(value, name))
        return name

    def ints(self, name: str, *values: int) -> str:
        """A constant int64 vector (a shape, pads, axes), named ``name`` + ``_const``."""
        return self.const(name + "_const", np.array(values, np.int64))

    def node(self, op: str, inputs: list[str], output: str, **attrs: Any) -> Any:
        """A node ``op`` of ``inputs`` writing ``output`` (its name too)."""
        return self.helper.make_node(op, inputs, [output], name=output, **attrs)


def _stacking(b: _Builder, pooled: str, size: int, channels: int) -> list[Any]:
    """Nodes turning maps ``pooled`` (n, channels, size, size) into one column, as
    :func:`stack_maps` does: ``stack_column``."""
    return [b.node("Pad", [pooled, b.ints("stack_pads", 0, 0, 0, 0, 0, 0, 1, WIDTH - size)],
                   "stack_padded"),
            b.node("Transpose", ["stack_padded"], "stack_by_channel", perm=[1, 0, 2, 3]),
            b.node("Reshape", ["stack_by_channel", b.ints("stack_column", 1, channels, -1, WIDTH)],
                   "stack_column")]


def _masked(b: _Builder, column: str, size: int, channels: int, tag: str) -> list[Any]:
    """Nodes setting what a convolution wrote outside the crops of ``column`` to zero:
    ``{tag}_masked``, shaped (1, channels, n, size + 1, WIDTH)."""
    mask = f"{tag}_mask"
    b.const(mask, column_mask(size).reshape(1, 1, 1, size + 1, WIDTH))
    return [b.node("Reshape", [column, b.ints(f"{tag}_cells", 1, channels, -1, size + 1, WIDTH)],
                   f"{tag}_cells"),
            b.node("Mul", [f"{tag}_cells", mask], f"{tag}_masked")]


def _sums(b: _Builder, masked: str, size: int, channels: int) -> list[Any]:
    """Nodes summing each crop's part of ``masked`` (as :func:`crop_sums`): the
    ``stack_features`` (n, channels)."""
    return [b.node("Reshape", [masked, b.ints("stack_rows", 1, channels, -1, (size + 1) * WIDTH)],
                   "stack_rows"),
            b.node("ReduceSum", ["stack_rows", b.ints("stack_sum_axes", 3)], "stack_sums",
                   keepdims=0),
            b.node("Transpose", ["stack_sums"], "stack_sums_by_crop", perm=[0, 2, 1]),
            b.node("Reshape", ["stack_sums_by_crop", b.ints("stack_features", -1, channels)],
                   "stack_features")]


def _average_into_weights(model: Any, gemm: Any, area: int) -> None:
    """Divide the linear layer's weights by ``area`` (a power of two): fed sums instead
    of averages, every product it forms is the same number."""
    from onnx import numpy_helper

    a = _attrs(gemm)
    if a.get("transB", 0) != 1 or a.get("alpha", 1.0) != 1.0:
        raise NotStackable(f"{gemm.name} is not the linear layer torch exports: {a}")
    weights = next(i for i in model.graph.initializer if i.name == gemm.input[1])
    weights.CopyFrom(numpy_helper.from_array(
        numpy_helper.to_array(weights) / np.float32(area), weights.name))


def _channels(model: Any, conv: Any) -> tuple[int, int]:
    """A convolution's (output, input) channels, from its weights."""
    weights = next(i for i in model.graph.initializer if i.name == conv.input[1])
    return int(weights.dims[0]), int(weights.dims[1])


def stack(model: Any) -> Any:
    """Rewrite an ONNX first look ``model`` (an ``onnx.ModelProto``) in place into its
    stacked twin; returns it."""
    last_pool, tail = _tail(model)
    conv_a, relu_a, conv_b, relu_b, _, _, gemm = tail
    size = _map_size(model)
    if size >= WIDTH or (size * size) & (size * size - 1):
        raise NotStackable(f"the last maps are {size}×{size}: not under {WIDTH} px, or "
                           "their area is not a power of two")
    _average_into_weights(model, gemm, size * size)
    (c_mid, c_in), (c_out, _) = _channels(model, conv_a), _channels(model, conv_b)
    b = _Builder(model)
    nodes = list(model.graph.node)
    stacking = _stacking(b, nodes[last_pool].output[0], size, c_in)
    conv_a.input[0] = "stack_column"
    between = _masked(b, relu_a.output[0], size, c_mid, "stack_mid") + [
        b.node("Reshape", ["stack_mid_masked", b.ints("stack_mid_column", 1, c_mid, -1, WIDTH)],
               "stack_mid_column")]
    conv_b.input[0] = "stack_mid_column"
    summing = (_masked(b, relu_b.output[0], size, c_out, "stack_out")
               + _sums(b, "stack_out_masked", size, c_out))
    gemm.input[0] = "stack_features"
    # The global average and the Flatten after it are left out: the sums replace them.
    rebuilt = (nodes[:last_pool + 1] + stacking + [conv_a, relu_a] + between + [conv_b, relu_b]
               + summing + [gemm] + nodes[nodes.index(gemm) + 1:])
    del model.graph.node[:]
    model.graph.node.extend(rebuilt)
    return model


def check(plain: Path, twin: Path, tolerance: float = 1e-4) -> float:
    """The largest difference between the two files' logits on random crops in batches
    of 2-13, read by OpenCV's classic engine as the reader reads them; raises
    ``ValueError`` above ``tolerance``."""
    import cv2

    rng = np.random.default_rng(0)
    a = cv2.dnn.readNetFromONNX(str(plain), cv2.dnn.ENGINE_CLASSIC)
    b = cv2.dnn.readNetFromONNX(str(twin), cv2.dnn.ENGINE_CLASSIC)
    side = _input_side(plain)
    worst = 0.0
    for n in (2, 5, 13):
        blob = rng.random((n, 3, side, side), dtype=np.float32)
        a.setInput(blob)
        b.setInput(blob)
        worst = max(worst, float(np.abs(a.forward() - b.forward()).max()))
    if worst > tolerance:
        raise ValueError(f"{twin} differs from {plain} by {worst:g} (more than {tolerance:g})")
    return worst


def _input_side(path: Path) -> int:
    import onnx

    return int(onnx.load(str(path)).graph.input[0].type.tensor_type.shape.dim[2].dim_value)


def write_twin(path: Path) -> tuple[Path, float]:
    """Write the stacked twin of the first look in ``path`` beside it, after checking it
    against the net; returns the twin's path and the largest logit difference."""
    import shutil
    import tempfile

    import onnx  # training venv only

    out = twin_path(path)
    model = stack(onnx.load(str(path)))
    onnx.checker.check_model(model)
    with tempfile.TemporaryDirectory() as tmp:
        candidate = Path(tmp) / out.name
        onnx.save(model, str(candidate))
        worst = check(path, candidate)
        shutil.copyfile(candidate, out)
    return out, worst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", type=Path, help="the first look (classifier.onnx)")
    args = ap.parse_args()
    try:
        out, worst = write_twin(args.model)
    except NotStackable as exc:
        raise SystemExit(f"{args.model}: {exc}") from None
    print(f"wrote {out}: logits within {worst:.1e} of {args.model}")


if __name__ == "__main__":
    main()
