"""The detector reads its picture as 2×2 space-to-depth (vision/training/space_to_depth.py):
the rewritten first layer on ``vision.detect._blob`` must compute what the trained one
computes on the picture."""
from __future__ import annotations

import numpy as np
import pytest

from vision import detect
from vision.training.space_to_depth import NotAStem, stem_weights_to_depth


def _conv(x: np.ndarray, w: np.ndarray, stride: int, pads: tuple[int, int, int, int]
          ) -> np.ndarray:
    """A plain convolution (as ONNX Conv: x (c, h, w), w (o, c, kh, kw); pads top, left,
    bottom, right), the slow and obvious way."""
    top, left, bottom, right = pads
    x = np.pad(x, ((0, 0), (top, bottom), (left, right)))
    o, _, kh, kw = w.shape
    oh = (x.shape[1] - kh) // stride + 1
    ow = (x.shape[2] - kw) // stride + 1
    out = np.zeros((o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, i, j] = np.tensordot(w, patch, axes=([1, 2, 3], [0, 1, 2]))
    return out


def test_the_rewritten_first_layer_computes_the_trained_one() -> None:
    rng = np.random.default_rng(3)
    picture = rng.integers(0, 256, (12, 10, 3), dtype=np.uint8)
    w = rng.normal(size=(5, 3, 3, 3)).astype(np.float32)
    trained = _conv(picture.transpose(2, 0, 1) / 255.0, w, 2, (1, 1, 1, 1))
    rewritten = _conv(detect._blob(picture)[0].astype(np.float64), stem_weights_to_depth(w),
                      1, (1, 1, 0, 0))
    assert rewritten.shape == trained.shape == (5, 6, 5)
    np.testing.assert_allclose(rewritten, trained, atol=1e-5)


def test_the_blob_stacks_each_block_of_pixels_in_one_cell() -> None:
    picture = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
    blob = detect._blob(picture)
    assert blob.shape == (1, 16, 2, 3)
    # Colour 2 of pixel (3, 4) is in block (1, 2), at dy = 1, dx = 0.
    assert blob[0, (1 * 2 + 0) * 3 + 2, 1, 2] == pytest.approx(picture[3, 4, 2] / 255.0)
    assert not blob[0, 12:].any()


def test_a_layer_that_is_not_the_stem_is_refused() -> None:
    with pytest.raises(NotAStem, match=r"\(8, 16, 2, 2\)"):
        stem_weights_to_depth(np.zeros((8, 16, 2, 2), np.float32))


class _FakeNet:
    """A stand-in for cv2.dnn.Net that answers with maps of a given size, as a detector
    does for a 32 px picture (its output is a quarter of what it takes as the picture)."""

    def __init__(self, out: int) -> None:
        self.out = out

    def setInput(self, blob: np.ndarray) -> None:  # noqa: N802 (OpenCV's name)
        assert blob.shape == (1, 16, 16, 16)

    def forward(self) -> np.ndarray:
        return np.zeros((1, 4, self.out, self.out), np.float32)


def test_a_detector_made_for_three_channels_is_refused_not_read() -> None:
    # OpenCV runs such a net on the 16 channels without a word, reading them as a
    # picture of half the size (4x4 maps for a 32 px picture): dice that are not there.
    assert not detect._reads_blocks(_FakeNet(4))  # type: ignore[arg-type]
    assert detect._reads_blocks(_FakeNet(8))  # type: ignore[arg-type]


def test_the_committed_detector_takes_blocks_of_pixels() -> None:
    detect._net.cache_clear()
    assert detect._reads_blocks(detect._net())
