"""The reader: its JSON shape, flagging rules, simulated tray frames, taught faces."""
from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration import Calibration
from vision import pictures
from vision.reader import REASON_BESIDE_TILTED, THRESHOLD, Reading, make_die, read_dice
from vision.sim import TrayStyle, empty_tray, render_tray

from logo_frames import frame_with_logo


def test_die_json_shape() -> None:
    die = make_die(4, (10.0, 20.0), (1.0, 2.0, 30.0, 40.0), 0.97)
    j = die.to_json()
    assert set(j) == {"value", "center", "box", "confidence", "flagged", "reason"}
    assert j["value"] == 4 and j["center"] == [10.0, 20.0] and j["box"] == [1.0, 2.0, 30.0, 40.0]
    assert j["flagged"] is False and j["reason"] is None


def test_flagging_rules() -> None:
    low = make_die(3, (0, 0), (0, 0, 1, 1), THRESHOLD - 0.01)
    assert low.flagged and low.reason == "low confidence" and low.value == 3
    tilted = make_die(5, (0, 0), (0, 0, 1, 1), 0.99, tilted=True)
    assert tilted.flagged and tilted.reason == "tilted" and tilted.value is None
    picture = make_die(None, (0, 0), (0, 0, 1, 1), 0.99, picture=True)
    assert picture.flagged and picture.reason == "picture face"
    reading = Reading((make_die(2, (0, 0), (0, 0, 1, 1), 0.99), low), 1.0)
    assert reading.values == (2,) and reading.flagged


def test_rejects_empty_image() -> None:
    with pytest.raises(ValueError):
        read_dice(np.zeros((0, 0, 3), np.uint8))


@pytest.mark.parametrize(("image", "says"), [
    (np.zeros((48, 64, 2), np.uint8), "2 channels"),
    (np.zeros((48, 64, 3), np.float32), "8-bit"),
])
def test_refuses_frames_it_cannot_read_and_says_why(image: np.ndarray, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        read_dice(image)


def test_four_channel_frames_read_like_three() -> None:
    import cv2

    image, _truth = _sim_frame(2, SIM_SIZES[1])
    bgra = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    assert [d.to_json() for d in read_dice(bgra).dice] == [d.to_json() for d in read_dice(image).dice]
    assert read_dice(image).dice


def test_empty_tray_reads_no_dice() -> None:
    import dataclasses

    rng = np.random.default_rng(7)
    style = dataclasses.replace(TrayStyle.random(rng), clutter=0)
    image, _ = render_tray(rng, [], style=style)
    assert read_dice(image).dice == ()


SIM_SEEDS = range(1, 7)
SIM_SIZES = ((1280, 960), (640, 480))
# Measured with the committed models: 8 of these 12 frames read entirely right (the
# others hold a die leaning on the wall that is read instead of flagged, or a die
# flagged for low confidence); the floor is that less a margin.
SIM_FRAMES_RIGHT_FLOOR = 7


def _sim_frame(seed: int, size: tuple[int, int]) -> tuple[np.ndarray, tuple]:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    values = [int(v) for v in rng.integers(1, 7, size=5)]
    return render_tray(rng, values, size)


def test_simulated_frames_read_right() -> None:
    right = 0
    for size in SIM_SIZES:
        for seed in SIM_SEEDS:
            image, truth = _sim_frame(seed, size)
            reading = read_dice(image)
            flat = sorted(d.value for d in truth if not d.tilted)
            right += (sorted(reading.values) == flat and len(reading.dice) == len(truth)
                      and all(d.flagged for d in reading.dice if d.value is None))
            for die in truth:
                # Each flat die is found at its top face's centre, and never misread.
                near = [d for d in reading.dice
                        if np.hypot(d.center[0] - die.center[0], d.center[1] - die.center[1])
                        < 0.5 * die.side]
                if die.tilted:
                    continue
                assert near, (seed, size, die)
                assert all(d.flagged or d.value == die.value for d in near), (seed, size, die, near)
    assert right >= SIM_FRAMES_RIGHT_FLOOR


def test_a_reading_tells_how_big_its_dice_looked_against_a_calibrated_size() -> None:
    """Dice are cut at a calibrated size whatever size they are; the reading still says
    how big the detector saw them, so a size gone stale (other dice) can be noticed
    (calibration.die_size.SizeCheck, whose bounds are 0.85 and 1.25)."""
    for seed in (11, 12, 13):
        image, truth = _sim_frame(seed, (640, 480))
        side = float(np.median([d.side for d in truth]))
        assert read_dice(image).seen_size is None          # no size: dice cut as seen
        seen = {}
        for factor in (0.7, 1.0, 1.4):
            cal = Calibration.from_rect(0, 0, 640, 480, die_size_px=side * factor)
            reading = read_dice(image, cal)
            assert reading.seen_size is not None, (seed, factor)
            seen[factor] = reading.seen_size / (side * factor)
        assert 0.85 <= seen[1.0] <= 1.25, (seed, seen)
        assert seen[0.7] > 1.25, (seed, seen)                # the dice are bigger than the size
        assert seen[1.4] < seen[1.0], (seed, seen)


def test_a_dim_frame_reads_as_well_as_a_lit_one() -> None:
    """The exposure is locked at start-up; when the room darkens the frames do too.
    (Seeds 0-11 at 640x480: 7 read entirely right lit, 7 at a third of the light, and
    3 there without vision.exposure.)"""
    def right(image: np.ndarray, truth: tuple) -> bool:  # type: ignore[type-arg]
        reading = read_dice(image)
        flat = sorted(d.value for d in truth if not d.tilted)
        return sorted(reading.values) == flat and not any(d.flagged for d in reading.dice)

    lit = dim = 0
    for seed in range(12):
        image, truth = _sim_frame(seed, (640, 480))
        lit += right(image, truth)
        dim += right((image * 0.35).astype(np.uint8), truth)
    assert lit >= 6 and dim >= lit - 1, (lit, dim)


@given(st.lists(st.integers(0, 255), min_size=1, max_size=5000))
@settings(max_examples=300, deadline=None)
def test_the_dim_frame_level_is_numpys_99th_percentile(levels: list[int]) -> None:
    """Whether a frame is dim, and how much it is brightened, hang on this level."""
    from vision.exposure import _percentile_99

    values = np.array(levels, np.uint8)
    assert _percentile_99(values) == float(np.percentile(values, 99))


@given(st.lists(st.integers(0, 255), min_size=1, max_size=5000))
@settings(max_examples=300, deadline=None)
def test_a_frame_told_lit_by_its_count_is_lit_by_its_percentile(levels: list[int]) -> None:
    """The count that spares most frames the percentile must never pass a dim one."""
    from vision.exposure import DIM_LEVEL, _percentile_99, _surely_lit

    values = np.array(levels, np.uint8)
    if _surely_lit(values):
        assert _percentile_99(values) >= DIM_LEVEL


@pytest.mark.parametrize("channels", [0, 1, 3, 4])
def test_the_brightest_channel_is_the_largest_of_each_pixel(channels: int) -> None:
    from vision.exposure import _brightest_channel

    rng = np.random.default_rng(channels)
    shape = (61, 83) if channels == 0 else (61, 83, channels)
    frame = rng.integers(0, 256, shape, dtype=np.uint8)
    thumb = frame[::8, ::8]
    expected = thumb if channels == 0 else thumb.max(axis=2)
    np.testing.assert_array_equal(_brightest_channel(frame), expected)


def test_the_examples_in_the_exposure_docstrings_hold() -> None:
    import doctest

    from vision import exposure

    result = doctest.testmod(exposure)
    assert result.attempted > 0 and result.failed == 0


def test_calibration_ignores_dice_outside_the_tray() -> None:
    rng = np.random.default_rng(11)
    image, truth = render_tray(rng, [2, 3, 4, 5], (1280, 960))
    xs = sorted(d.center[0] for d in truth)
    cut_x = (xs[1] + xs[2]) / 2  # a "tray" holding only the two right-hand dice
    cal = Calibration.from_rect(cut_x, 0, 1280, 960,
                                die_size_px=float(np.median([d.side for d in truth])))
    reading = read_dice(image, cal)
    assert len(reading.dice) == 2
    assert all(d.center[0] > cut_x for d in reading.dice)
    right = sorted(d.value for d in truth if d.center[0] > cut_x)
    assert sorted(reading.values) == right



def test_calibration_background_ignores_what_the_empty_tray_shows() -> None:
    """A die printed on the tray (it is in the empty-tray picture) is not read; a die
    thrown into that tray is, with or without the background in the calibration."""
    import dataclasses

    rng = np.random.default_rng(21)
    style = dataclasses.replace(TrayStyle.random(rng, (640, 480)), tilt=0.0, clutter=0)
    printed, printed_truth = render_tray(rng, [4, 6], (640, 480), style=style)
    thrown, thrown_truth = render_tray(rng, [2, 5, 3], (640, 480), style=style)
    # The tray "has" the printed dice: paste them into the frame with thrown dice,
    # away from the thrown ones.
    frame = thrown.copy()
    # The empty tray's picture: the tray with the printed dice that fit, and nothing else.
    empty = empty_tray(style, (640, 480), seed=3)
    kept = []
    for d in printed_truth:
        x0, y0, x1, y1 = (int(v) for v in d.box)
        pad = int(0.3 * d.side)
        x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
        if all(np.hypot(t.center[0] - d.center[0], t.center[1] - d.center[1]) > 2 * d.side
               for t in thrown_truth):
            frame[y0:y1, x0:x1] = printed[y0:y1, x0:x1]
            empty[y0:y1, x0:x1] = printed[y0:y1, x0:x1]
            kept.append(d)
    assert kept, "the layout left no room for a printed die"
    size = float(np.median([d.side for d in thrown_truth]))
    plain = Calibration(die_size_px=size)
    with_bg = Calibration(die_size_px=size, background=empty)
    # Without the empty tray, the printed dice look like dice and are read.
    assert len(read_dice(frame, plain).dice) == len(thrown_truth) + len(kept)
    # With it, only the thrown dice are.
    reading = read_dice(frame, with_bg)
    assert sorted(reading.values) == sorted(d.value for d in thrown_truth)
    assert len(reading.dice) == len(thrown_truth)
    # The empty tray itself (another frame of it, with its own noise) reads no dice at
    # all, printed ones included.
    again = empty_tray(style, (640, 480), seed=4)
    for d in kept:
        x0, y0, x1, y1 = (int(v) for v in d.box)
        pad = int(0.3 * d.side)
        again[y0 - pad:y1 + pad, x0 - pad:x1 + pad] = printed[y0 - pad:y1 + pad, x0 - pad:x1 + pad]
    assert len(read_dice(again, plain).dice) == len(kept)
    assert read_dice(again, with_bg).dice == ()

# Measured over these 10 logo dice: 9 flagged before teaching (one not found), 8 read
# as the taught value afterwards in another tray at another angle.
PICTURE_FLAGGED_FLOOR = 8
PICTURE_TAUGHT_FLOOR = 7


def test_picture_face_flagged_until_taught() -> None:
    from vision.training.synth import synth_face

    flagged = taught_right = 0
    for seed in range(10):
        canvas, face = synth_face(np.random.default_rng(1000 + seed), 1, picture=True)
        image, (x, y), side = frame_with_logo(seed, canvas, face, 0)
        near = [d for d in read_dice(image).dice
                if np.hypot(d.center[0] - x, d.center[1] - y) < side / 2]
        flagged += bool(near) and all(d.flagged for d in near)
        if not near:
            continue
        cal = Calibration(picture_faces=(pictures.teach_from_box(image, near[0].center, near[0].box, 1),))
        other, (x, y), side = frame_with_logo(seed + 50, canvas, face, 40 + 25 * seed)
        near = [d for d in read_dice(other, cal).dice
                if np.hypot(d.center[0] - x, d.center[1] - y) < side / 2]
        taught_right += bool(near) and all(d.value == 1 and not d.flagged for d in near)
    assert flagged >= PICTURE_FLAGGED_FLOOR
    assert taught_right >= PICTURE_TAUGHT_FLOOR


def test_taught_picture_face_matches_itself_at_any_angle() -> None:
    rng = np.random.default_rng(3)
    image = np.full((200, 200, 3), 200, np.uint8)
    # A die face with a letter on it.
    import cv2

    cv2.rectangle(image, (70, 70), (130, 130), (30, 30, 160), -1)
    cv2.putText(image, "K", (82, 118), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (240, 240, 240), 4)
    taught = (pictures.teach(image, 100, 100, 60, 1),)
    m = cv2.getRotationMatrix2D((100, 100), 37, 1.0)
    turned = cv2.warpAffine(image, m, (200, 200), borderMode=cv2.BORDER_REPLICATE)
    found = pictures.match(turned, 100, 100, 60, taught)
    assert found is not None and found[0] == 1
    # A plain face of pips is not the taught picture.
    plain = np.full((200, 200, 3), 200, np.uint8)
    cv2.rectangle(plain, (70, 70), (130, 130), (30, 30, 160), -1)
    for x, y in ((85, 85), (115, 115)):
        cv2.circle(plain, (x, y), 6, (240, 240, 240), -1)
    assert pictures.match(plain, 100, 100, 60, taught) is None
    assert rng is not None


def test_tilted_dice_are_flagged_not_scored() -> None:
    """Dice leaning on the tray wall (the simulator's tilted dice) are flagged, not scored."""
    from vision.sim import leaning_flagged

    flagged, total = leaning_flagged(read_dice, range(100, 112))
    assert total >= 10
    assert flagged / total >= TILTED_FLAGGED_FLOOR, (flagged, total)


def test_most_dice_leaning_on_other_dice_are_flagged() -> None:
    """A die cocked against another die (no wall near) is mostly flagged, by the first
    look, and the flat dice beside it are still read."""
    from vision.bench import die_leaning_counts

    flagged, leaning, right, flat = die_leaning_counts(range(100, 116))
    assert leaning >= 15 and flat >= 30
    assert flagged / leaning >= DIE_LEANING_FLAGGED_FLOOR, (flagged, leaning)
    assert right / flat >= 0.8, (right, flat)


def test_a_die_on_or_under_a_tilted_die_is_marked_in_the_throw_held_for_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a die is flagged tilted, a die read closer to it than two flat dice can lie
    is flagged too ("beside a tilted die", its value kept): no throw that would have
    been scored is held for it, and more of the cocked dice are marked."""
    from vision import learned
    from vision.sim import die_leaning_trays, read_near

    trays = list(die_leaning_trays(range(300, 340)))
    with_rule = [read_dice(image) for image, _truth in trays]
    monkeypatch.setattr(learned, "BESIDE_TILTED", 0.0)
    without = [read_dice(image) for image, _truth in trays]

    def leaning_scored(reading: Reading, truth: Any) -> int:
        return sum(any(not d.flagged for d in read_near(reading, t)) for t in truth if t.tilted)

    for after, before in zip(with_rule, without):
        assert after.flagged == before.flagged
        # Only flags are added, and only as "beside a tilted die"; values stay.
        assert [d.value for d in after.dice] == [d.value for d in before.dice]
        assert all(a.reason == b.reason or a.reason == REASON_BESIDE_TILTED
                   for a, b in zip(after.dice, before.dice))
    scored_before = sum(leaning_scored(r, t) for r, (_i, t) in zip(without, trays))
    scored_after = sum(leaning_scored(r, t) for r, (_i, t) in zip(with_rule, trays))
    # Measured: of 60 cocked dice, 17 scored without it, 15 with it.
    assert scored_after < scored_before, (scored_before, scored_after)


def test_dice_leaning_on_a_calibrated_trays_wall_are_flagged() -> None:
    """With the tray calibrated, a die leaning on its wall is flagged even when the first
    look reads its top face surely, and a flat die lying against the wall is still read."""
    from vision.bench import wall_counts

    flagged, leaning, right, by_wall = wall_counts(range(100, 114), calibrated=True)
    assert leaning >= 12 and by_wall >= 12
    assert flagged / leaning >= WALL_LEANING_FLAGGED_FLOOR, (flagged, leaning)
    assert right / by_wall >= WALL_FLAT_RIGHT_FLOOR, (right, by_wall)


def test_with_the_empty_tray_too_dice_cocked_on_dice_are_flagged_by_the_pair_s_shape(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"Take the empty tray" as well: two dice with one cocked against the other reach
    further along the line between them than two flat dice, and the cocked one is
    flagged where the looks read its top face surely."""
    from vision import learned
    from vision.bench import empty_tray_counts

    flagged, leaning, right, flat = empty_tray_counts("on_die", range(100, 120))
    monkeypatch.setattr(learned, "SHAPES", False)
    without = empty_tray_counts("on_die", range(100, 120))
    # Measured: 17 of 25 cocked dice flagged (14 without the pairs' shape), 59 of 63
    # flat dice read right either way.
    assert leaning >= 20 and flat >= 50
    assert flagged >= without[0] + 2, (flagged, without)
    assert right == without[2], (right, without)


# Measured on these trays: 14 of 16 leaning dice flagged with the calibration (9 without
# the closer look at dice by the wall, vision.learned.WALL_TILT), 21 of 21 flat dice
# against the wall read right either way.
WALL_LEANING_FLAGGED_FLOOR = 0.8
WALL_FLAT_RIGHT_FLOOR = 0.9


def test_dice_touching_in_clusters_are_found_and_read() -> None:
    """Six dice thrown together often end touching: every die of the cluster is read,
    with or without a die-size calibration."""
    from vision.bench import tray_read_right
    from vision.sim import cluster_trays

    frames = list(cluster_trays(range(500, 520)))
    assert len(frames) >= 18
    right = sum(tray_read_right(read_dice(image), truth) for image, truth in frames)
    assert right >= CLUSTER_FRAMES_FLOOR, right
    sized = sum(tray_read_right(read_dice(image, Calibration(die_size_px=float(np.median(
        [d.side for d in truth])))), truth) for image, truth in frames)
    assert sized >= CLUSTER_FRAMES_FLOOR, sized


# Measured: 14 of 20 frames read entirely right, 12 without reading the dice the
# detector sizes too small again at the frame's die size (vision.learned._recut); with
# a die-size calibration 14, and 10 with the detector's pass at 14 px dice instead of
# 18 (vision.detect.CAL_DIE_PX).
CLUSTER_FRAMES_FLOOR = 13


# Measured: 19 of 27 leaning dice flagged (14 before a die alone got the closer look
# for leaning, vision.learned.LEAN_HINT; the rest read as their top face); floor a
# little below, so it cannot get worse unnoticed.
TILTED_FLAGGED_FLOOR = 0.65
# Measured: 14 of 21 dice leaning on another die flagged (the first look calls them
# tilted or is unsure; the closer look is not asked beside a neighbour), 43 of 50 flat
# dice read right; floor a little below, so it cannot get worse unnoticed.
DIE_LEANING_FLAGGED_FLOOR = 0.65


def _probs(value: int, p: float, tilted: float = 0.0) -> np.ndarray:
    """Class probabilities: ``value`` at ``p``, a little ``tilted``, the rest on 'not a die'
    and the other values."""
    from vision import classify

    row = np.full(classify.N_CLASSES, (1.0 - p - tilted) / (classify.N_CLASSES - 2), np.float32)
    row[value - 1] = p
    row[classify.TILTED] = tilted
    return row


@pytest.mark.parametrize(
    ("first", "closer", "expect"),
    [
        # The first look is unsure; the closer look is sure: the die is scored.
        (_probs(5, 0.6), _probs(5, 0.97), (5, False)),
        # The closer look reads another value, and surely: its reading wins.
        (_probs(5, 0.6), _probs(4, 0.95), (4, False)),
        # Both unsure: a person confirms it.
        (_probs(5, 0.6), _probs(5, 0.7), (5, True)),
        # The first look suspects a leaning die and so does the closer look: a person
        # confirms it.
        (_probs(5, 0.6, tilted=0.05), _probs(5, 0.97, tilted=0.02), (5, True)),
        # The first look suspects a leaning die, the closer look finds it flat: scored.
        (_probs(5, 0.6, tilted=0.05), _probs(5, 0.99), (5, False)),
        # The first look is sure: no closer look is needed.
        (_probs(3, 0.95), _probs(5, 0.99), (3, False)),
    ],
)
def test_second_look_decides_unsure_dice(monkeypatch: pytest.MonkeyPatch, first: np.ndarray,
                                         closer: np.ndarray, expect: tuple[int, bool]) -> None:
    from vision import classify, learned

    image, truth = _sim_frame(0, SIM_SIZES[0])
    calls: list[int] = []

    def closely(_image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
        calls.append(len(centres))
        return np.tile(closer, (len(centres), 1))

    n_cands: list[int] = []

    def first_look(crops: np.ndarray, views: int = 1) -> np.ndarray:
        n_cands.append(len(crops))
        return np.tile(first, (len(crops), 1))

    monkeypatch.setattr(classify, "classify", first_look)
    monkeypatch.setattr(classify, "classify_closely", closely)
    monkeypatch.setattr(learned, "THIRD_LOOK", False)   # the second look's own verdict
    reading = read_dice(image)
    assert reading.dice
    assert {(d.value, d.flagged) for d in reading.dice} == {expect}
    unsure = first.max() < learned.SECOND_LOOK_BELOW
    # Every unsure candidate gets the closer look, in the usual pass and in the extra
    # passes that a frame with no sure die gets (vision.learned: _maybe_bigger/_smaller).
    assert calls == ([n for n in n_cands if n] if unsure else [])


def test_a_die_by_the_wall_gets_one_closer_look_not_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """A die by a calibrated tray's wall that the second look has read already (the first
    look was unsure) is checked for leaning with that reading, not read again."""
    from vision import classify, learned
    from vision.sim import wall_trays

    image, truth, rect = next(wall_trays(range(2000, 2001)))
    cal = Calibration.from_rect(*rect, die_size_px=float(np.median([d.side for d in truth])))
    looked: list[tuple[float, float, float]] = []

    def closely(_image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
        looked.extend(centres)
        return np.tile(_probs(5, 0.97), (len(centres), 1))

    monkeypatch.setattr(classify, "classify",
                        lambda crops, views=1: np.tile(_probs(5, 0.6), (len(crops), 1)))
    monkeypatch.setattr(classify, "classify_closely", closely)
    reading = read_dice(image, cal)
    by_wall = [d for d in reading.dice
               if cal.edge_distance(*d.center) <= learned.WALL_NEAR * d.face]
    assert by_wall and all(d.value == 5 and not d.flagged for d in reading.dice)
    assert len(looked) == len(set(looked)) == len(reading.dice)


@pytest.mark.parametrize(
    ("first_tilted", "closer_tilted", "touching", "expect"),
    [
        # Read surely, but the first look finds it possibly leaning, and so does the
        # closer look: tilted, with no calibration to say where the wall is.
        (0.03, 0.3, False, (None, "tilted")),
        # The closer look finds it flat: scored.
        (0.03, 0.02, False, (5, None)),
        # The first look finds nothing of a lean: no closer look, scored.
        (0.001, 0.3, False, (5, None)),
        # Beside another die the closer look is not asked: scored.
        (0.03, 0.3, True, (5, None)),
    ],
)
def test_a_surely_read_die_alone_that_may_lean_gets_a_closer_look(
        monkeypatch: pytest.MonkeyPatch, first_tilted: float, closer_tilted: float,
        touching: bool, expect: tuple[int | None, str | None]) -> None:
    from vision import classify

    from vision.sim import cluster_trays

    if touching:   # two dice side by side, as a throw's dice often end
        image, _truth = next((im, t) for im, t in cluster_trays(range(500, 600), count=2)
                             if np.hypot(t[0].center[0] - t[1].center[0],
                                         t[0].center[1] - t[1].center[1]) < 1.3 * t[0].side)
    else:
        image, _truth = render_tray(np.random.default_rng(11), [5], SIM_SIZES[0])
    looked: list[int] = []

    def closely(_image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
        looked.append(len(centres))
        return np.tile(_probs(5, 0.97, tilted=closer_tilted), (len(centres), 1))

    monkeypatch.setattr(classify, "classify", lambda crops, views=1: np.tile(
        _probs(5, 0.95, tilted=first_tilted), (len(crops), 1)))
    monkeypatch.setattr(classify, "classify_closely", closely)
    reading = read_dice(image)
    assert reading.dice
    assert {(d.value, d.reason) for d in reading.dice} == {expect}
    assert bool(looked) == (first_tilted >= 0.01 and not touching)


def test_without_the_second_look_model_unsure_dice_stay_flagged(
        monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    from pathlib import Path

    from vision import classify, learned

    image, _truth = _sim_frame(0, SIM_SIZES[0])
    monkeypatch.setattr(classify, "SECOND_MODEL", Path(str(tmp_path)) / "missing.onnx")
    monkeypatch.setattr(classify, "classify",
                        lambda crops, views=1: np.tile(_probs(2, 0.6), (len(crops), 1)))
    # The fourth look, which does not need the second, would confirm any die here that it
    # reads surely as a two itself.
    monkeypatch.setattr(learned, "FOURTH_LOOK", False)
    reading = read_dice(image)
    assert reading.dice and all(d.flagged and d.value == 2 for d in reading.dice)


@pytest.mark.parametrize(("look", "px"), [("classify_closely", 40), ("classify_third", 56),
                                         ("classify_fourth", 32)])
def test_the_later_looks_read_their_own_crops(look: str, px: int) -> None:
    from vision import classify, crops

    assert classify.second_available() and classify.third_available()
    assert classify.fourth_available()
    image, truth = _sim_frame(1, SIM_SIZES[0])
    die = next(d for d in truth if not d.tilted)
    probs = getattr(classify, look)(image, [(die.center[0], die.center[1], die.side)])
    assert probs.shape == (1, classify.N_CLASSES)
    assert int(np.argmax(probs[0])) == die.value - 1
    assert crops.cut(image, *die.center, die.side, out=px).shape[:2] == (px, px)


@pytest.mark.parametrize(("closer", "third", "expect", "asked"), [
    # Both looks unsure: the third reads it surely, and it is scored.
    (0.7, 0.95, (5, None), True),
    # The third look unsure as well: flagged, as the first two were.
    (0.7, 0.6, (5, "low confidence"), True),
    # The second look sure: no third look.
    (0.95, 0.6, (5, None), False),
])
def test_a_die_both_looks_are_unsure_of_gets_a_third_look(
        monkeypatch: pytest.MonkeyPatch, closer: float, third: float,
        expect: tuple[int | None, str | None], asked: bool) -> None:
    from vision import classify, learned

    image, _truth = render_tray(np.random.default_rng(11), [5], SIM_SIZES[0])
    looked: list[int] = []

    def thirdly(_image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
        looked.append(len(centres))
        return np.tile(_probs(5, third), (len(centres), 1))

    monkeypatch.setattr(classify, "classify",
                        lambda crops, views=1: np.tile(_probs(5, 0.6), (len(crops), 1)))
    monkeypatch.setattr(classify, "classify_closely", lambda _image, centres: np.tile(
        _probs(5, closer), (len(centres), 1)))
    monkeypatch.setattr(classify, "classify_third", thirdly)
    monkeypatch.setattr(learned, "FOURTH_LOOK", False)   # the third look's own verdict
    reading = read_dice(image)
    assert reading.dice
    assert {(d.value, d.reason) for d in reading.dice} == {expect}
    assert bool(looked) == asked


def _unsure_to_the_third_look(monkeypatch: pytest.MonkeyPatch, closer_tilted: float = 0.0
                              ) -> np.ndarray:
    """A tray with one five, which the first three looks read as a five unsurely (the
    second finding it ``closer_tilted``)."""
    from vision import classify

    monkeypatch.setattr(classify, "classify",
                        lambda crops, views=1: np.tile(_probs(5, 0.6), (len(crops), 1)))
    monkeypatch.setattr(classify, "classify_closely", lambda _image, centres: np.tile(
        _probs(5, 0.7, tilted=closer_tilted), (len(centres), 1)))
    monkeypatch.setattr(classify, "classify_third", lambda _image, centres: np.tile(
        _probs(5, 0.6), (len(centres), 1)))
    image, _truth = render_tray(np.random.default_rng(11), [5], SIM_SIZES[0])
    return image


@pytest.mark.parametrize(("fourth", "closer_tilted", "expect"), [
    # Every look unsure; the fourth sure of the same value: scored, as sure as it is.
    (_probs(5, 0.95), 0.0, (5, None, 0.95)),
    # The fourth look sure of another value: it only confirms, so a person looks.
    (_probs(3, 0.95), 0.0, (5, "low confidence", 0.6)),
    # The fourth look unsure as well.
    (_probs(5, 0.7), 0.0, (5, "low confidence", 0.6)),
    # The fourth look, shown leaning dice in training, finds this one leaning.
    (_probs(5, 0.1, tilted=0.85), 0.0, (5, "low confidence", 0.6)),
    # A hint of a lean from the second look does not overrule it: the fourth look judges
    # leaning dice itself (it was trained with them; a gate on the second look's "tilted"
    # cost 10 dice of an unseen set and flagged 1 more leaning die of 85).
    (_probs(5, 0.95), 0.03, (5, None, 0.95)),
])
def test_a_value_no_look_is_sure_of_is_scored_when_the_fourth_look_confirms_it(
        monkeypatch: pytest.MonkeyPatch, fourth: np.ndarray, closer_tilted: float,
        expect: tuple[int, str | None, float]) -> None:
    from vision import classify

    image = _unsure_to_the_third_look(monkeypatch, closer_tilted)
    monkeypatch.setattr(classify, "classify_fourth", lambda _image, centres: np.tile(
        fourth, (len(centres), 1)))
    reading = read_dice(image)
    assert reading.dice
    assert {(d.value, d.reason, round(d.confidence, 2)) for d in reading.dice} == {expect}


def test_the_fourth_look_is_asked_only_about_unsure_values(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import classify

    image, _truth = render_tray(np.random.default_rng(11), [5], SIM_SIZES[0])
    asked: list[int] = []

    def fourthly(_image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
        asked.append(len(centres))
        return np.tile(_probs(5, 0.95), (len(centres), 1))

    monkeypatch.setattr(classify, "classify_fourth", fourthly)
    for first in (_probs(5, 0.97), _probs(5, 0.3, tilted=0.6)):   # sure; or leaning (no value)
        monkeypatch.setattr(classify, "classify",
                            lambda crops, views=1, first=first: np.tile(first, (len(crops), 1)))
        monkeypatch.setattr(classify, "classify_closely", lambda _image, centres, first=first:
                            np.tile(first, (len(centres), 1)))
        read_dice(image)
    assert asked == []


def test_without_the_fourth_look_model_unsure_dice_stay_flagged(
        monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    from pathlib import Path

    from vision import classify

    monkeypatch.setattr(classify, "FOURTH_MODEL", Path(str(tmp_path)) / "missing.onnx")
    reading = read_dice(_unsure_to_the_third_look(monkeypatch))
    assert reading.dice
    assert {(d.value, d.reason) for d in reading.dice} == {(5, "low confidence")}


def _close_up(seed: int, side: float, n: int) -> tuple[np.ndarray, tuple]:  # type: ignore[type-arg]
    from vision.sim import render_close_up

    return render_close_up(np.random.default_rng(seed), n, side)


# Simulated close-ups, seeds 0-9, frames read entirely right: 6 of 10 with two dice a
# quarter of the width across, 8 of 10 with one die a third across (with the coarse
# passes; without them, none). The floors leave a frame's margin.
@pytest.mark.parametrize(("side", "n", "floor"), [(0.25, 2, 5), (0.35, 1, 7)])
def test_close_ups_are_read(side: float, n: int, floor: int) -> None:
    right = 0
    for seed in range(10):
        image, truth = _close_up(seed, side, n)
        reading = read_dice(image)
        right += (sorted(reading.values) == sorted(d.value for d in truth)
                  and len(reading.dice) == len(truth))
    assert right >= floor


def test_coarse_passes_only_report_big_dice() -> None:
    from vision import detect

    image, truth = _close_up(3, 0.25, 2)
    found = detect.detect_coarse(image)
    assert found
    # Every coarse candidate is at least COARSE_MIN_FACE px at its pass, i.e. at least
    # that at half the usual scale.
    half = detect.usual_scale(image, None) / 2
    assert all(c.face * half >= detect.COARSE_MIN_FACE - 1e-6 for c in found)
    centres = [d.center for d in truth]
    for x, y in centres:
        assert any(np.hypot(c.x - x, c.y - y) < 0.3 * truth[0].side for c in found)


def _far_away(seed: int) -> tuple[np.ndarray, tuple]:  # type: ignore[type-arg]
    """Four dice 2.5 % of a 1280x960 frame's width across: a camera far above the tray."""
    from vision.sim import render_close_up

    return render_close_up(np.random.default_rng(seed), 4, 0.025, (1280, 960))


# Simulated far-away frames, seeds 0-9, read entirely right: 8 of 10 with the fine pass,
# 1 of 10 without it (seeds 0-19: 14 and 2). The floor leaves a frame's margin.
def test_dice_far_away_are_read() -> None:
    right = 0
    for seed in range(10):
        image, truth = _far_away(seed)
        reading = read_dice(image)
        right += (sorted(reading.values) == sorted(d.value for d in truth)
                  and len(reading.dice) == len(truth))
    assert right >= 7


def test_the_fine_pass_runs_only_for_small_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fine pass costs four times the usual one: a close-up, whose big dice the
    coarse passes read, must not pay for it; a frame from far away does."""
    from vision import detect

    calls: list[int] = []
    fine = detect.detect_fine

    def counted(image: np.ndarray, calibration: object = None, **kw: object) -> list:  # type: ignore[type-arg]
        calls.append(1)
        return fine(image, calibration, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(detect, "detect_fine", counted)
    image, truth = _close_up(3, 0.25, 2)
    assert sorted(read_dice(image).values) == sorted(d.value for d in truth)
    assert calls == []
    image, truth = _far_away(0)
    assert sorted(read_dice(image).values) == sorted(d.value for d in truth)
    assert calls == [1]


@pytest.mark.parametrize("frame", ["close_up", "far_away"])
def test_passes_sharing_the_frames_halvings_find_what_they_find_alone(frame: str) -> None:
    """The reader hands the usual pass's halvings of the frame to the coarse and fine
    passes: they must find the very candidates they find halving the frame themselves."""
    from vision import detect

    image, _ = _close_up(3, 0.25, 2) if frame == "close_up" else _far_away(0)
    halvings: detect.Halvings = {}
    detect.detect(image, halvings=halvings)
    assert halvings  # the usual pass halved the frame
    for find in (detect.detect_coarse, detect.detect_fine):
        alone = find(image)
        assert find(image, halvings=halvings) == alone
    assert detect.detect_coarse(image) or detect.detect_fine(image)


def test_fine_pass_finds_the_small_dice_and_only_them() -> None:
    from vision import detect

    image, truth = _far_away(0)
    found = detect.detect_fine(image)
    usual = detect.usual_scale(image, None)
    assert all(c.face * usual < detect.FINE_MAX_FACE for c in found)
    for d in truth:
        assert any(np.hypot(c.x - d.center[0], c.y - d.center[1]) < 0.3 * d.side for c in found)
    # A frame whose dice the usual pass sees well gets no fine pass at all: at 640 px
    # the fine pass would be the frame itself, twice the usual scale, so it runs there,
    # but a 320 px frame is already read at its own size.
    assert detect.detect_fine(cv2.resize(image, (320, 240))) == []


def test_a_frame_reads_its_dice_at_one_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A candidate far bigger than the dice read surely (a card, a tray corner) is
    dropped when there is no calibrated size."""
    from vision import detect, learned

    sure = _probs(4, 0.97)
    odd = _probs(2, 0.5)
    cands = [detect.Candidate(100, 100, 50, 0.9), detect.Candidate(300, 100, 52, 0.8),
             detect.Candidate(250, 300, 200, 0.7)]
    kept = learned._one_size(list(zip(cands, [sure, sure, odd])))
    assert [c.face for c, _ in kept] == [50, 52]
    # With no sure die there is no size to hold the others to.
    assert len(learned._one_size(list(zip(cands, [odd, odd, odd])))) == 3


def _not_die(p_not_die: float) -> np.ndarray:
    """Class probabilities: 'not a die' at ``p_not_die``, the rest on the values (no
    hint of a lean)."""
    from vision import classify

    row = np.zeros(classify.N_CLASSES, np.float32)
    row[:6] = (1.0 - p_not_die) / 6
    row[classify.NOT_DIE] = p_not_die
    return row


@pytest.mark.parametrize(("p_not_die", "reported"), [(0.6, True), (0.9, False)])
def test_a_sure_peak_the_classifiers_doubt_is_flagged_not_dropped(
        monkeypatch: pytest.MonkeyPatch, p_not_die: float, reported: bool) -> None:
    """Dice of a kind the nets never saw (a new set) often read "not a die" without
    conviction: where the detector is sure, a person is asked instead of the die going
    missing; what the classifiers reject firmly stays out."""
    from vision import classify, detect

    image, truth = _sim_frame(0, SIM_SIZES[0])
    heat = {(round(c.x), round(c.y)): c.score for c in detect.detect(image)}
    monkeypatch.setattr(classify, "classify",
                        lambda crops, views=1: np.tile(_not_die(p_not_die), (len(crops), 1)))
    # The second look, asked of a candidate the first doubts, doubts it as much.
    monkeypatch.setattr(classify, "classify_closely",
                        lambda _image, centres: np.tile(_not_die(p_not_die), (len(centres), 1)))
    reading = read_dice(image)
    if not reported:
        assert reading.dice == ()
        return
    assert reading.dice and len(reading.dice) <= len(truth)
    assert all(d.flagged and d.value is None and d.reason == "maybe not a die"
               for d in reading.dice)
    # Every sure peak on a die is there, at its die.
    sure = [xy for xy, s in heat.items() if s >= 0.7]
    for d in truth:
        if any(np.hypot(x - d.center[0], y - d.center[1]) < d.side / 2 for x, y in sure):
            assert any(np.hypot(r.center[0] - d.center[0], r.center[1] - d.center[1]) < d.side / 2
                       for r in reading.dice)


@pytest.mark.parametrize(
    ("first", "closer", "expect"),
    [
        # The first look doubts it is a die; the closer look reads a three surely.
        (_not_die(0.4), _probs(3, 0.95), {(3, False)}),
        # Both looks call it no die: nothing is reported.
        (_not_die(0.4), _not_die(0.9), set()),
        # The first look is sure it is no die: no closer look, nothing reported.
        (_not_die(0.9), _probs(3, 0.95), set()),
    ],
)
def test_a_candidate_the_first_look_doubts_is_a_die_gets_the_second_look(
        monkeypatch: pytest.MonkeyPatch, first: np.ndarray, closer: np.ndarray,
        expect: set[tuple[int, bool]]) -> None:
    from vision import classify, learned

    image, _truth = _sim_frame(0, SIM_SIZES[0])
    calls: list[int] = []

    def closely(_image: np.ndarray, centres: list[tuple[float, float, float]]) -> np.ndarray:
        calls.append(len(centres))
        return np.tile(closer, (len(centres), 1))

    monkeypatch.setattr(classify, "classify", lambda crops, views=1: np.tile(first, (len(crops), 1)))
    monkeypatch.setattr(classify, "classify_closely", closely)
    monkeypatch.setattr(learned, "THIRD_LOOK", False)
    # A frame with no sure die gets the extra passes (close-up, far away); one is enough.
    monkeypatch.setattr(learned, "_maybe_bigger", lambda *_a: False)
    monkeypatch.setattr(learned, "_maybe_smaller", lambda *_a: False)
    reading = read_dice(image)
    assert {(d.value, d.flagged) for d in reading.dice} == expect
    assert bool(calls) == (first[classify.NOT_DIE] < learned.NOT_DIE_SECOND)


def test_a_die_cut_by_the_pictures_edge_is_flagged() -> None:
    """Half a die may hide pips outside the picture: its value is only a guess."""
    for seed in SIM_SEEDS:
        image, truth = _sim_frame(seed, SIM_SIZES[1])
        read = read_dice(image)
        flat = [d for d in truth if not d.tilted]
        if read.flagged or sorted(read.values) != sorted(d.value for d in flat):
            continue       # a frame read entirely right, so only the cut can flag a die
        die = min(flat, key=lambda d: d.center[0])
        for share, flagged in ((0.5, True), (0.1, False)):
            # Cut the picture through the leftmost die, `share` of its side left out.
            x0 = int(round(die.center[0] - die.side / 2 + share * die.side))
            cut = read_dice(np.ascontiguousarray(image[:, x0:]))
            near = [r for r in cut.dice
                    if abs(r.center[0] + x0 - die.center[0]) < die.side
                    and abs(r.center[1] - die.center[1]) < die.side / 2]
            assert near, (seed, share)
            assert near[0].flagged is flagged, (seed, share, near[0])
            if flagged:
                assert near[0].reason == "cut by the picture's edge"
        others = [r for r in cut.dice if r not in near]
        assert not any(r.flagged for r in others)
        return
    pytest.fail("no simulated frame read entirely right to cut")


def test_two_threads_reading_at_once_take_turns_with_the_networks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's service thread reads frames while a request thread reads one too (the
    control page taking the empty tray): the networks and the detector's kept input are
    shared in the process, and one OpenCV network must not run in two threads at once,
    or a read can get the other thread's picture (or worse)."""
    import threading

    from vision import pipeline

    count = threading.Lock()
    reading: list[int] = []     # the frames being read at the moment
    most_at_once: list[int] = [0]
    other_came = threading.Event()
    frames_read: list[int] = []

    def read(image: np.ndarray, calibration: Any) -> tuple[list[Any], None]:
        with count:
            reading.append(int(image[0, 0, 0]))
            most_at_once[0] = max(most_at_once[0], len(reading))
            if len(reading) > 1:
                other_came.set()
        # Wait a moment for the other thread to come in: it does only if reads overlap.
        other_came.wait(0.5)
        with count:
            reading.remove(int(image[0, 0, 0]))
        frames_read.append(int(image[0, 0, 0]))
        return [], None

    monkeypatch.setattr(pipeline, "read", read)
    threads = [threading.Thread(target=read_dice, args=(np.full((8, 8, 3), n, np.uint8),))
               for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert sorted(frames_read) == [1, 2]
    assert most_at_once == [1]
