"""The first look's stacked twin (vision/training/stacked.py): a batch of crops is read
as the first look reads each crop, only faster; a small batch by the net itself; a twin
that computes something else is not used."""
from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from vision import classify, detect
from vision.sim import render_tray
from vision.training.stacked import column_mask, crop_sums, stack_maps


def _conv3(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """A 3×3 convolution with padding 1 (x (c, h, w), w (o, c, 3, 3)), the obvious way."""
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    h, wd = x.shape[1:]
    out = np.zeros((w.shape[0], h, wd))
    for i in range(h):
        for j in range(wd):
            out[:, i, j] = np.tensordot(w, padded[:, i:i + 3, j:j + 3], axes=([1, 2, 3], [0, 1, 2]))
    return out


def test_two_convolutions_of_the_stacked_column_give_each_crop_its_own_sums() -> None:
    rng = np.random.default_rng(5)
    maps = rng.normal(size=(3, 2, 8, 8))
    w1, w2 = rng.normal(size=(4, 2, 3, 3)), rng.normal(size=(5, 4, 3, 3))
    alone = np.stack([_conv3(np.maximum(_conv3(m, w1), 0), w2).sum(axis=(1, 2)) for m in maps])

    column = stack_maps(maps)
    assert column.shape == (1, 2, 27, 12)
    first = np.maximum(_conv3(column[0], w1), 0)[None]
    # What the first convolution wrote on the zero rows and columns is set back to zero.
    masked = (first.reshape(1, 4, 3, 9, 12) * column_mask(8)).reshape(1, 4, 27, 12)
    second = _conv3(masked[0], w2)[None]
    np.testing.assert_allclose(crop_sums(second, 8), alone, rtol=1e-10, atol=1e-9)


@pytest.fixture
def fresh_nets() -> Iterator[None]:
    for cached in (classify._net, classify._stacked_net):
        cached.cache_clear()
    yield
    for cached in (classify._net, classify._stacked_net):
        cached.cache_clear()


def _crops_of_a_tray(n: int) -> np.ndarray:
    frame, _ = render_tray(np.random.default_rng(11), [1, 2, 3, 4, 5, 6, 2, 5, 3][:n])
    cands = detect.detect(frame)
    assert len(cands) >= n - 1
    return classify.crops_of(frame, [(c.x, c.y, c.face) for c in cands])


def test_the_committed_twin_reads_a_batch_as_the_first_look_reads_it(fresh_nets: None) -> None:
    if not classify.available():
        pytest.skip("the models are not in this checkout")
    crops = _crops_of_a_tray(9)
    assert classify._stacked_net() is not None  # the twin agrees and is used
    batch = classify.classify(crops)
    one_by_one = np.concatenate([classify.probabilities(classify._net(), c[None]) for c in crops])
    np.testing.assert_allclose(batch, one_by_one, atol=1e-5)
    assert (batch.argmax(axis=1) == one_by_one.argmax(axis=1)).all()


class _UnusedNet:
    """A twin that must not be read."""

    def setInput(self, blob: np.ndarray) -> None:  # noqa: N802 (OpenCV's name)
        raise AssertionError(f"the twin was given {len(blob)} crops")


def test_a_small_batch_is_read_by_the_net_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    crops = _crops_of_a_tray(9)[:classify.STACK_FROM - 1]
    monkeypatch.setattr(classify, "_stacked_net", _UnusedNet)
    assert classify.classify(crops).shape == (classify.STACK_FROM - 1, classify.N_CLASSES)


def test_a_twin_of_another_net_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           fresh_nets: None, caplog: pytest.LogCaptureFixture
                                           ) -> None:
    if not classify.available():
        pytest.skip("the models are not in this checkout")
    # The fourth look has the first look's shape and other weights: a net retrained
    # without writing its twin again.
    shutil.copyfile(classify.FOURTH_MODEL, tmp_path / "classifier.onnx")
    shutil.copyfile(classify.stacked_model(), tmp_path / "classifier_stacked.onnx")
    monkeypatch.setattr(classify, "MODEL", tmp_path / "classifier.onnx")
    crops = _crops_of_a_tray(6)
    with caplog.at_level(logging.WARNING, logger="vision.classify"):
        read = classify.classify(crops)
    assert classify._stacked_net() is None
    assert "python -m vision.training.stacked" in caplog.text
    np.testing.assert_array_equal(read, classify.probabilities(classify._net(), crops))


def test_the_first_read_sets_the_twin_up_whatever_its_batch(fresh_nets: None) -> None:
    # Callers run a first read untimed to load the models (vision/evaluate.py): the twin's
    # setting up (its check included) must not fall on a later, timed read.
    if not classify.available():
        pytest.skip("the models are not in this checkout")
    classify.classify(_crops_of_a_tray(9)[:1])
    assert classify._stacked_net.cache_info().currsize == 1
