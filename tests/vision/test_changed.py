"""An empty-tray picture in the calibration: the detector searches only what changed."""
from __future__ import annotations

import dataclasses
import doctest
from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from calibration import Calibration
from vision import changed, detect
from vision.reader import read_dice
from vision.sim import TrayStyle, empty_tray, render_tray

SIZE = (640, 480)


def _tray(seed: int, values: list[int]) -> tuple[np.ndarray, tuple, TrayStyle, Calibration]:  # type: ignore[type-arg]
    """A simulated tray of flat dice, its style, and a calibration of outline and die size."""
    rng = np.random.default_rng(seed)
    style = dataclasses.replace(TrayStyle.random(rng, SIZE), tilt=0.0, clutter=0)
    image, truth = render_tray(rng, values, SIZE, style=style)
    m = style.margin * SIZE[0]
    cal = Calibration.from_rect(m, m, SIZE[0] - m, SIZE[1] - m,
                                die_size_px=float(np.median([d.side for d in truth])))
    return image, truth, style, cal


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pixels the detector network is given, pass by pass."""
    seen: list[int] = []
    real = detect._peaks

    def spy(small: np.ndarray, *args: float) -> list[detect.Candidate]:
        seen.append(small.shape[0] * small.shape[1])
        return real(small, *args)

    monkeypatch.setattr(detect, "_peaks", spy)
    return seen


def _pass_pixels(image: np.ndarray, cal: Calibration) -> int:
    x0, y0, x1, y1, scale = detect._region(image, cal)
    return round((x1 - x0) * scale) * round((y1 - y0) * scale)


@pytest.mark.parametrize("seed", [3, 4, 5, 8])
def test_with_the_empty_tray_the_same_dice_are_read_from_a_fraction_of_the_tray(
        seed: int, searched: list[int]) -> None:
    image, truth, style, cal = _tray(seed, [2, 5, 6])
    with_empty = dataclasses.replace(cal, background=empty_tray(style, SIZE, seed=99))
    plain = read_dice(image, cal)
    searched.clear()
    reading = read_dice(image, with_empty)
    assert sorted(reading.values) == sorted(d.value for d in truth) == sorted(plain.values)
    assert not any(d.flagged for d in reading.dice)
    # Three dice: the network saw a fraction of the tray's pass (dice are 5-8 % of the
    # frame's width in these trays; with the biggest, 53 %).
    assert 0 < sum(searched) < 0.6 * _pass_pixels(image, with_empty), searched


def test_an_empty_tray_costs_no_search_at_all(searched: list[int]) -> None:
    rng = np.random.default_rng(6)
    style = dataclasses.replace(TrayStyle.random(rng, SIZE), clutter=0)
    m = style.margin * SIZE[0]
    cal = Calibration.from_rect(m, m, SIZE[0] - m, SIZE[1] - m, die_size_px=30.0,
                                background=empty_tray(style, SIZE, seed=1))
    assert read_dice(empty_tray(style, SIZE, seed=2), cal).dice == ()
    assert searched == []


def test_a_change_of_light_since_the_empty_tray_is_matched(searched: list[int]) -> None:
    """The lamp brighter, or the exposure drifted: brightness is matched, not a die."""
    image, truth, style, cal = _tray(3, [1, 3, 4])
    with_empty = dataclasses.replace(cal, background=empty_tray(style, SIZE, seed=5))
    brighter = cv2.convertScaleAbs(image, alpha=1.35)
    reading = read_dice(brighter, with_empty)
    assert sorted(reading.values) == sorted(d.value for d in truth)
    assert sum(searched) < 0.5 * _pass_pixels(image, with_empty)


def test_in_a_dim_room_the_empty_tray_taken_in_daylight_still_matches(searched: list[int]) -> None:
    """Evening: the frames come out at a third of the light and the reader brightens them
    (vision.exposure); the empty tray was taken lit."""
    image, truth, style, cal = _tray(3, [2, 3, 6])
    with_empty = dataclasses.replace(cal, background=empty_tray(style, SIZE, seed=5))
    reading = read_dice((image * 0.35).astype(np.uint8), with_empty)
    assert sorted(reading.values) == sorted(d.value for d in truth)
    assert sum(searched) < 0.5 * _pass_pixels(image, with_empty)


def test_a_stale_empty_tray_makes_the_whole_tray_searched(searched: list[int]) -> None:
    """The tray was swapped (or the camera moved) since its empty picture: nearly all of
    it differs, so all of it is searched, and the dice are read as without the picture."""
    image, truth, _style, cal = _tray(5, [2, 4, 6])
    _other, _t, other_style, _c = _tray(12, [1])
    stale = dataclasses.replace(cal, background=empty_tray(other_style, SIZE, seed=3))
    reading = read_dice(image, stale)
    assert sorted(reading.values) == sorted(d.value for d in truth)
    assert searched[0] == _pass_pixels(image, stale)


def test_the_boxes_lie_on_the_networks_grid_and_hold_every_die() -> None:
    image, truth, style, cal = _tray(8, [1, 2, 3, 4, 5])
    x0, y0, x1, y1, scale = detect._region(image, cal)
    w, h = round((x1 - x0) * scale), round((y1 - y0) * scale)
    small = detect._shrink(image[y0:y1, x0:x1], w, h)
    empty = detect._shrink(empty_tray(style, SIZE, seed=4)[y0:y1, x0:x1], w, h)
    die_px = float(cal.die_size_px or 0) * scale
    boxes = changed.changed_boxes(small, empty, die_px)
    assert boxes
    for bx0, by0, bx1, by1 in boxes:
        assert bx0 % changed.GRID == 0 and by0 % changed.GRID == 0
        assert (bx1 % changed.GRID == 0 or bx1 == w) and (by1 % changed.GRID == 0 or by1 == h)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
    for die in truth:
        # Each die's face, with half a die of floor round it, lies inside one box.
        cx, cy = (die.center[0] - x0) * scale, (die.center[1] - y0) * scale
        reach = die_px
        assert any(bx0 <= cx - reach and cx + reach <= bx1 and by0 <= cy - reach and cy + reach <= by1
                   for bx0, by0, bx1, by1 in boxes), die


def test_a_die_the_floors_brightness_is_found_by_its_colour() -> None:
    """A red die on green felt of the same grey differs in colour only."""
    floor = np.zeros((160, 192, 3), np.uint8)
    floor[:] = (60, 140, 60)            # green felt, grey about 106
    frame = floor.copy()
    frame[70:88, 90:108] = (40, 40, 215)  # a red die, grey about 92
    assert abs(int(cv2.cvtColor(frame[75:76, 95:96], cv2.COLOR_BGR2GRAY)[0, 0])
               - int(cv2.cvtColor(floor[:1, :1], cv2.COLOR_BGR2GRAY)[0, 0])) < changed.LEVEL
    boxes = changed.changed_boxes(frame, floor, 18.0)
    assert boxes and any(b[0] <= 90 and 108 <= b[2] and b[1] <= 70 and 88 <= b[3] for b in boxes)


def test_the_examples_in_the_docstrings_hold() -> None:
    result = doctest.testmod(changed)
    assert result.attempted > 0 and result.failed == 0


def test_a_bumped_tray_is_found_where_it_went_and_a_turned_camera_is_not_taken_for_one() -> None:
    """Read empty, a tray knocked 18 px right and 9 px up is found within 2 px on most
    linings (plain ones show too little but their rim to be sure, and say "changed"); a
    dimmer room is no move; a camera turned 4 degrees is not a shift."""
    found = wrong = others = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        style = dataclasses.replace(TrayStyle.random(rng, SIZE), clutter=0)
        empty, now = empty_tray(style, SIZE, seed=1), empty_tray(style, SIZE, seed=2)
        m = int(style.margin * SIZE[0])
        region = (m, m, SIZE[0] - m, SIZE[1] - m)
        bumped = cv2.warpAffine(now, np.array([[1, 0, 18], [0, 1, -9]], np.float32), SIZE,
                                borderMode=cv2.BORDER_REPLICATE)
        shift = changed.tray_shift(bumped, empty, region)
        if shift is not None:
            found += 1
            wrong += float(np.hypot(shift[0] - 18, shift[1] + 9)) > 2.0
        turned = cv2.warpAffine(now, cv2.getRotationMatrix2D((320, 240), 4, 1.0), SIZE,
                                borderMode=cv2.BORDER_REPLICATE)
        assert changed.tray_shift(turned, empty, region) is None, seed
        assert changed.tray_shift(cv2.convertScaleAbs(now, alpha=0.6), empty, region) == (0.0, 0.0)
        other = dataclasses.replace(TrayStyle.random(np.random.default_rng(seed + 100), SIZE), clutter=0)
        taken = changed.tray_shift(empty_tray(other, SIZE, seed=3), empty, region)
        # Two plain trays of nearly one size can pass for one nudged a few pixels.
        assert taken is None or float(np.hypot(*taken)) < 6, (seed, taken)
        others += taken is not None
    assert found >= 9 and wrong == 0 and others <= 1, (found, wrong, others)


def test_the_reader_keeps_one_shrunk_empty_tray_however_many_trays_it_has_seen() -> None:
    """A long evening of frames must not pile up memory: the shrunk empty tray is kept
    for the calibration in use only (``make bench`` reports the resident memory)."""
    for seed in (3, 4, 5):
        image, _truth, style, cal = _tray(seed, [2, 5])
        with_empty = dataclasses.replace(cal, background=empty_tray(style, SIZE, seed=seed))
        read_dice(image, with_empty)
        read_dice(image, with_empty)
        assert len(detect._empty_cache) == 1
        assert detect._empty_cache[0][0] is with_empty.background


def _leaning_tray(seed: int, on_die: float = 0.0, cast: tuple[float, float, float] = (1, 1, 1)
                  ) -> tuple[np.ndarray, tuple, Calibration]:  # type: ignore[type-arg]
    """A simulated tray of four dice, about half of them leaning on the wall (or, with
    ``on_die``, on another die), and a calibration of outline, die size and the empty
    tray (another frame of it, its channels multiplied by ``cast``: the camera's white
    balance was elsewhere when it was taken)."""
    rng = np.random.default_rng(seed)
    style = dataclasses.replace(TrayStyle.random(rng, SIZE), tilt=0.5, clutter=0, on_die=on_die)
    values = [int(v) for v in rng.integers(1, 7, size=4)]
    image, truth = render_tray(rng, values, SIZE, style=style)
    m = style.margin * SIZE[0]
    cal = Calibration.from_rect(m, m, SIZE[0] - m, SIZE[1] - m,
                                die_size_px=float(np.median([d.side for d in truth])),
                                background=cv2.transform(empty_tray(style, SIZE, seed=seed + 1),
                                                         np.diag(cast)))
    return image, truth, cal


def _leaning_counts(seeds: range, on_die: float = 0.0, cast: tuple[float, float, float] = (1, 1, 1)
                    ) -> tuple[int, int, int, int]:
    """Over :func:`_leaning_tray` ``seeds``: leaning dice flagged, leaning dice, flat dice
    read right, flat dice (counted as the benchmark counts them)."""
    from vision.bench import _leaning_tally

    def trays() -> Iterator[tuple[np.ndarray, tuple, Calibration]]:  # type: ignore[type-arg]
        for seed in seeds:
            try:
                yield _leaning_tray(seed, on_die, cast)
            except ValueError:
                continue  # the dice did not fit

    return _leaning_tally((read_dice(image, cal), truth) for image, truth, cal in trays())


def test_with_the_empty_tray_a_flat_die_by_the_wall_is_spared_the_closer_look(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen from above, a flat die changes a square round its centre: by a marked wall
    such a die needs no closer look for leaning, and every die reads as before."""
    from vision import classify, learned

    crops: list[int] = []
    real = classify.classify_closely

    def spy(image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
        crops.append(len(centres))
        return real(image, centres)

    monkeypatch.setattr(classify, "classify_closely", spy)
    seeds = range(7000, 7040)
    with_shape, asked = _leaning_counts(seeds), sum(crops)
    crops.clear()
    monkeypatch.setattr(learned, "SHAPES", False)
    without, asked_without = _leaning_counts(seeds), sum(crops)
    # Measured: 67 of 79 leaning dice flagged and 77 of 81 flat dice read right either
    # way, for 94 closer crops instead of 108 (in these trays half the dice lean).
    assert with_shape == without
    assert asked <= asked_without - 8, (asked, asked_without)


def test_with_the_empty_tray_a_die_leaning_on_another_shows_by_their_shape(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two dice close together, one leaning on the other: what they change reaches
    further along the line between them than two flat dice's, on the leaning die's side.
    The leaning die is flagged; the die it leans on keeps its reading."""
    from vision import learned

    seeds = range(7000, 7060)
    with_pairs = _leaning_counts(seeds, on_die=1.0)
    monkeypatch.setattr(learned, "PAIR_SPREAD", float("inf"))
    without = _leaning_counts(seeds, on_die=1.0)
    flagged, leaning, right, flat = with_pairs
    assert (leaning, flat) == (without[1], without[3])
    # Measured: 98 of 120 leaning dice flagged (92 without the pairs' shape), 100 of 120
    # flat dice read right either way.
    assert flagged >= without[0] + 4, (with_pairs, without)
    assert right == without[2], (with_pairs, without)


def test_a_colour_cast_since_the_empty_tray_does_not_spoil_the_shapes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera's white balance drifted since the empty tray was taken (bluer, less
    red): the floor is matched channel by channel, so a die cocked against another still
    shows by the pair's shape, and no flat die is taken for leaning."""
    from vision import learned

    seeds, cast = range(7000, 7060), (1.2, 1.0, 0.8)
    with_shape = _leaning_counts(seeds, on_die=1.0, cast=cast)
    monkeypatch.setattr(learned, "SHAPES", False)
    without = _leaning_counts(seeds, on_die=1.0, cast=cast)
    # Measured: 96 of 120 cocked dice flagged (90 without the shapes), 101 of 120 flat
    # dice read right either way.
    assert with_shape[2] >= without[2], (with_shape, without)
    assert with_shape[0] >= without[0] + 3, (with_shape, without)


def test_a_flat_die_alone_has_a_flat_die_s_shape_whatever_its_value_and_turn() -> None:
    """Every face is symmetric about its centre and square: its changed pixels lie
    square round it, and a die's side face showing beside its top face does not."""
    from vision import learned

    flat = []
    for seed in range(10, 22):
        image, truth, style, cal = _tray(seed, [1 + seed % 6])
        cal = dataclasses.replace(cal, background=empty_tray(style, SIZE, seed=seed))
        die = truth[0]
        basis = learned._shape_basis(image, cal)
        assert basis is not None
        flat.append(learned._looks_flat(basis, die.center))
    assert flat.count(True) >= 10, flat
    empty = np.full((120, 120, 3), 90, np.uint8)
    frame = empty.copy()
    frame[42:78, 42:78] = (230, 230, 230)          # a die's top face, 36 px
    assert learned._looks_flat(learned.ShapeBasis(frame, empty, 36.0, (1.0, 1.0, 1.0)), (60, 60))
    frame[42:78, 78:92] = (160, 160, 160)          # and a side face beside it
    assert not learned._looks_flat(learned.ShapeBasis(frame, empty, 36.0, (1.0, 1.0, 1.0)),
                                   (60, 60))
