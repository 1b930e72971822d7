"""``make bench``: the die size the table measures from the first throws
(:mod:`calibration.die_size`), on simulated sets of dice in trays marked as the control
page marks them (the outline and the empty tray, no die size).

Each set is a tray style and its dice: its throws are read without a die size and measure
it, as the table does, until it is measured (or MAX_THROWS have not agreed); one more
throw is then read three ways: without a die size (what the control page gave before),
with the measured one (none where it was not measured), and with the true one.

:func:`bench_stale_size` then gives sets a die size that no longer fits (as after a change
of dice) and counts the sets whose throws show it (:class:`calibration.die_size.SizeCheck`).
"""
from __future__ import annotations

import dataclasses
import statistics
from typing import Any

import numpy as np

from calibration import Calibration
from calibration.die_size import DieSizeEvidence, SizeCheck
from vision.bench import tray_read_right
from vision.reader import Reading, read_dice

SIZE = (640, 480)
SETS = 40
MAX_THROWS = 10  # throws a set is given to be measured in (the table goes on measuring)
SEED = 31000  # seeds no other bench or test draws
STALE_SEED = 32000  # ... and the stale sizes' sets
STALE_THROWS_GIVEN = 6
STALE_FACTORS = (0.7, 1.0, 1.4)  # the calibrated size over the dice's true size


def silent_errors(reading: Reading, truth: Any) -> int:
    """Wrong scores nobody is asked about: a leaning die read as a value, a flat die read
    as another value, a die read where there is none, each unflagged."""
    from vision.sim import read_near

    near = [read_near(reading, die) for die in truth]
    wrong = sum(any(not d.flagged and (die.tilted or d.value != die.value) for d in dice)
                for die, dice in zip(truth, near))
    placed = {id(d) for dice in near for d in dice}
    return wrong + sum(1 for d in reading.dice if id(d) not in placed and not d.flagged)


def bench_die_size(sets: int = SETS) -> dict[str, Any]:
    """The die size measured on ``sets`` simulated sets, and what it does to their reads."""
    from vision.sim import TrayStyle, empty_tray

    ratios: list[float] = []
    throws: list[int] = []
    right = {"without_die_size": 0, "with_measured_die_size": 0, "with_true_die_size": 0}
    silent = dict.fromkeys(right, 0)
    for k in range(sets):
        rng = np.random.default_rng(SEED + k)
        thrown = 0
        style = TrayStyle.random(rng, SIZE)
        margin = style.margin * SIZE[0]
        marked = Calibration.from_rect(margin, margin, SIZE[0] - margin, SIZE[1] - margin,
                                       background=empty_tray(style, SIZE, seed=SEED + k))

        evidence = DieSizeEvidence()
        while evidence.size() is None and thrown < MAX_THROWS:
            image, _truth = _throw(rng, style)
            thrown += 1
            evidence = evidence.with_throw(d.face for d in read_dice(image, marked).dice
                                           if not d.flagged and d.value is not None)
        image, truth = _throw(rng, style)
        measured, true_side = evidence.size(), float(np.median([d.side for d in truth]))
        if measured is not None:
            ratios.append(measured / true_side)
            throws.append(thrown)
        for name, size in (("without_die_size", None), ("with_measured_die_size", measured),
                           ("with_true_die_size", true_side)):
            reading = read_dice(image, dataclasses.replace(marked, die_size_px=size))
            right[name] += tray_read_right(reading, truth)
            silent[name] += silent_errors(reading, truth)
    # Deciles need two sets measured; JSON has no NaN to say there are none.
    cuts: list[float | None] = (list(statistics.quantiles(ratios, n=10)) if len(ratios) > 1
                                else [None] * 9)
    return {
        "sets": sets,
        "sets_measured": len(ratios),
        "throws_to_measure": {"median": statistics.median(throws) if throws else None,
                              "most": max(throws, default=None), "given": MAX_THROWS},
        "measured_over_true_size": {"p10": _rounded(cuts[0]),
                                    "median": _rounded(statistics.median(ratios) if ratios else None),
                                    "p90": _rounded(cuts[-1])},
        "next_throw_read_right": {name: f"{n}/{sets}" for name, n in right.items()},
        "next_throw_silent_errors": silent,
    }


def bench_stale_size(sets: int = 20) -> dict[str, Any]:
    """Sets read with a die size of :data:`STALE_FACTORS` times their dice's true size
    (0.7: the family took dice 1.4 times as big; 1.0: the size fits), for up to
    :data:`STALE_THROWS_GIVEN` throws: in how many sets the throws show the size stale, and
    after how many throws (the median over those sets)."""
    from vision.sim import TrayStyle, empty_tray

    out: dict[str, Any] = {}
    for factor in STALE_FACTORS:
        caught: list[int] = []
        for k in range(sets):
            rng = np.random.default_rng(STALE_SEED + k)
            style = TrayStyle.random(rng, SIZE)
            margin = style.margin * SIZE[0]
            throws = [_throw(rng, style) for _ in range(STALE_THROWS_GIVEN)]
            true_side = float(np.median([d.side for _im, truth in throws for d in truth]))
            cal = Calibration.from_rect(margin, margin, SIZE[0] - margin, SIZE[1] - margin,
                                        die_size_px=factor * true_side,
                                        background=empty_tray(style, SIZE, seed=STALE_SEED + k))
            check = SizeCheck()
            for n, (image, _truth) in enumerate(throws, 1):
                check = check.with_throw(read_dice(image, cal).seen_size, factor * true_side)
                if check.stale() is not None:
                    caught.append(n)
                    break
        out[f"size_{factor}_of_the_dice"] = {
            "sets_found_stale": f"{len(caught)}/{sets}",
            "throws_to_find": statistics.median(caught) if caught else None}
    out["throws_given"] = STALE_THROWS_GIVEN
    return out


def _throw(rng: np.random.Generator, style: Any) -> tuple[np.ndarray, Any]:
    """One throw of two to six dice into a tray of ``style``: the frame and its truth."""
    from vision.sim import render_tray

    values = [int(v) for v in rng.integers(1, 7, size=int(rng.integers(2, 7)))]
    return render_tray(rng, values, SIZE, style=style)


def _rounded(x: float | None) -> float | None:
    return round(x, 3) if x is not None else None
