"""The web layer's benchmark: each throw is followed from the camera to a screen."""
from __future__ import annotations

from web.bench import throw_latency


def test_each_throw_is_timed_from_its_dice_at_rest_to_its_reading_on_a_screen() -> None:
    result = throw_latency(2, "sum_chicago", throws=2)
    assert result["reached_a_screen"] == 2, result
    assert sum(result["became"].values()) == 2, result
    # The watcher must see the dice still in a later frame than the one they stop in,
    # and a simulated camera delivers frames no faster than its rate: no reading can
    # reach a screen within one frame of the dice coming to rest.
    assert result["median_ms"] >= result["frame_ms"], result
    assert result["median_frames"] >= 1.0, result
    # The simulated tray of this seed lands plain dice: both throws are scored as thrown.
    assert result["read_right"] == 2 and result["became"] == {"scored": 2}, result


def test_the_examples_in_the_web_bench_docstrings_hold() -> None:
    import doctest

    from web import bench

    result = doctest.testmod(bench)
    assert result.attempted > 0 and result.failed == 0
