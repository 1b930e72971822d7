"""The benchmark's changed photos: a reading of a changed photo is scored against the
photo's own labels, so it must come back where those labels are."""
from __future__ import annotations

import numpy as np
import pytest

from vision import bench, learned
from vision.sim import TrayStyle, render_tray


def test_sensor_noise_is_as_strong_as_asked_and_the_same_every_run() -> None:
    grey = np.full((240, 320, 3), 128, np.uint8)
    once, again = bench._noisy(grey, 8.0), bench._noisy(grey, 8.0)
    assert np.array_equal(once, again)
    assert 7.6 < float(np.std(once.astype(np.float32) - 128)) < 8.4


def test_jpeg_at_low_quality_changes_the_picture_but_not_its_size() -> None:
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (96, 128, 3), dtype=np.uint8)
    saved = bench._jpeg(image, 40)
    assert saved.shape == image.shape and saved.dtype == np.uint8
    assert not np.array_equal(saved, image)


@pytest.mark.skipif(not learned.available(), reason="needs the model files")
def test_a_photo_read_at_twice_its_size_gives_its_dice_at_its_own_scale() -> None:
    rng = np.random.default_rng(21)
    style = TrayStyle.random(rng, (640, 480))
    image, truth = render_tray(rng, [2, 5, 6], (640, 480), style=style)
    reading = bench._doubled_jpeg_reader(image, None)
    assert len(reading.dice) == len(truth)
    for die in truth:
        nearest = min(reading.dice, key=lambda d: np.hypot(d.center[0] - die.center[0],
                                                           d.center[1] - die.center[1]))
        assert np.hypot(nearest.center[0] - die.center[0],
                        nearest.center[1] - die.center[1]) < 0.25 * die.side
        x0, y0, x1, y1 = nearest.box
        assert 0.8 * die.side < x1 - x0 < 2.0 * die.side


def test_best_guesses_are_the_dice_a_person_is_shown_with_their_flags_off() -> None:
    from vision.reader import Reading, make_die

    low = make_die(3, (10.0, 10.0), (0.0, 0.0, 20.0, 20.0), 0.5)
    tilted = make_die(None, (50.0, 10.0), (40.0, 0.0, 60.0, 20.0), 0.9, tilted=True)
    sure = make_die(6, (90.0, 10.0), (80.0, 0.0, 100.0, 20.0), 0.99)
    reading = bench._best_guesses(lambda _im, _cal: Reading((low, tilted, sure), 1.0))(
        np.zeros((1, 1, 3), np.uint8), None)
    assert reading.values == (3, 6)           # the flagged 3 counts as its value now
    assert reading.dice[1] == tilted          # a die with no value stays as it was
    assert reading.dice[2] == sure
