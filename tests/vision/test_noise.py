"""A grainy frame (a dim room, the camera's gain up): measured, smoothed, never scored alone."""
from __future__ import annotations

import numpy as np
import pytest

from vision import noise
from vision.bench import _noisy
from vision.reader import REASON_NOISY, read_dice
from vision.sim import render_tray
from web.table import tray_problems


def _tray(seed: int, size: tuple[int, int] = (640, 480)) -> tuple[np.ndarray, tuple]:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    return render_tray(rng, [int(v) for v in rng.integers(1, 7, size=4)], size)


@pytest.mark.parametrize("sigma", [4.0, 12.0, 24.0])
def test_the_noise_measured_is_the_noise_added(sigma: float) -> None:
    flat = np.full((480, 640, 3), 110, np.uint8)
    assert noise.noise_level(flat) == 0.0
    assert noise.noise_level(_noisy(flat, sigma)) == pytest.approx(sigma, rel=0.1)


def test_the_simulated_trays_own_frames_are_read_untouched() -> None:
    # The demo's camera carries sensor noise of its own; it must stay under both levels.
    for seed in range(6):
        image, _truth = _tray(seed)
        assert noise.noise_level(image) < noise.QUIET_FROM, seed


def test_tiny_and_strip_frames_measure_without_error() -> None:
    for shape in ((1, 1, 3), (2, 500, 3), (500, 2, 3), (3, 3, 3)):
        assert noise.noise_level(np.zeros(shape, np.uint8)) == 0.0


def test_a_grainy_frame_is_not_scored_it_waits_and_says_why() -> None:
    for seed in (1, 2, 3):
        image, truth = _tray(seed)
        reading = read_dice(_noisy(image, 30.0))
        assert reading.dice, seed              # the dice are still found, as best guesses
        assert reading.values == (), seed      # but none is scored without a person
        assert all(d.flagged for d in reading.dice)
        assert any(d.reason == REASON_NOISY for d in reading.dice)
        problems = tray_problems([d.to_json() for d in reading.dice], len(truth))
        assert any("more light" in p for p in problems), problems


def test_smoothing_a_grainy_frame_keeps_out_dice_that_are_not_there() -> None:
    """Read with the smoothing and without (the same frames), the smoothed reads show no
    more dice than the trays hold, the others 12; the best guesses are about as often right
    (measured: 23 of the 24 dice against 22)."""
    def tally() -> tuple[int, int]:
        beyond = right = 0
        for seed in range(4, 10):
            image, truth = _tray(seed)
            dice = read_dice(_noisy(image, 32.0)).dice
            beyond += max(0, len(dice) - len(truth))
            right += sum(any(d.value == t.value and np.hypot(d.center[0] - t.center[0],
                                                             d.center[1] - t.center[1]) < t.side / 2
                             for d in dice) for t in truth if not t.tilted)
        return beyond, right

    smoothed = tally()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(noise, "QUIET_FROM", float("inf"))
        raw = tally()
    assert smoothed[0] == 0 < raw[0], (smoothed, raw)
    assert smoothed[1] >= raw[1] - 2, (smoothed, raw)


def test_a_die_flagged_for_another_reason_keeps_it() -> None:
    from vision.reader import make_die

    tilted = make_die(None, (5.0, 5.0), (0, 0, 10, 10), 0.9, tilted=True)
    sure = make_die(4, (20.0, 5.0), (15, 0, 25, 10), 0.97)
    kept, flagged = noise.flag_noisy([tilted, sure])
    assert kept == tilted
    assert flagged.flagged and flagged.reason == REASON_NOISY and flagged.value == 4
