"""The die-size benches of `make bench` (:mod:`calibration.bench_die_size`): what they
count, and that each set is read the three ways they report."""
from __future__ import annotations

import pytest

from vision import learned


def test_silent_errors_are_wrong_scores_nobody_is_asked_about() -> None:
    from calibration.bench_die_size import silent_errors
    from vision.reader import Reading, make_die
    from vision.sim import SimDie

    flat = SimDie(4, (100.0, 100.0), (80.0, 80.0, 120.0, 120.0), 0.0, False, 40.0)
    leaning = SimDie(2, (200.0, 100.0), (180.0, 80.0, 220.0, 120.0), 0.0, True, 40.0)

    def die(value: int | None, x: float, **kw: bool) -> object:
        return make_die(value, (x, 100.0), (x - 24, 76.0, x + 24, 124.0), 0.95 if value else 0.5, **kw)

    truth = (flat, leaning)
    assert silent_errors(Reading((die(4, 100), die(None, 200, tilted=True)), 1.0), truth) == 0
    assert silent_errors(Reading((die(4, 100), die(2, 200)), 1.0), truth) == 1      # the lean scored
    assert silent_errors(Reading((die(5, 100), die(None, 200, tilted=True)), 1.0), truth) == 1
    assert silent_errors(Reading((die(4, 100), die(None, 200, tilted=True), die(3, 400)), 1.0),
                         truth) == 1                                              # an extra die
    assert silent_errors(Reading((), 1.0), truth) == 0       # missed: the throw's count asks


@pytest.mark.skipif(not learned.available(), reason="needs the model files")
def test_the_measured_die_size_bench_reads_each_set_three_ways() -> None:
    from calibration.bench_die_size import bench_die_size

    out = bench_die_size(sets=2)
    assert out["sets"] == 2 and 0 <= out["sets_measured"] <= 2
    assert set(out["next_throw_read_right"]) == {"without_die_size", "with_measured_die_size",
                                                 "with_true_die_size"}
    assert all(v.endswith("/2") for v in out["next_throw_read_right"].values())
    if out["sets_measured"]:
        assert 0.8 < out["measured_over_true_size"]["median"] < 1.25


@pytest.mark.skipif(not learned.available(), reason="needs the model files")
def test_the_stale_die_size_bench_finds_a_size_for_dice_far_bigger() -> None:
    from calibration.bench_die_size import STALE_THROWS_GIVEN, bench_stale_size

    out = bench_stale_size(sets=2)
    assert out["throws_given"] == STALE_THROWS_GIVEN
    # Dice 1.4 times the size read with, six throws: the throws show it in both sets.
    assert out["size_0.7_of_the_dice"]["sets_found_stale"] == "2/2"
    assert out["size_1.0_of_the_dice"] == {"sets_found_stale": "0/2", "throws_to_find": None}
