"""The simulated tray: deterministic, well-formed frames, truthful labels, real throws."""
from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sim import PIP_LAYOUTS, SimDie, SimulatedTray, TrayStyle, render_tray, write_dataset

SMALL = (320, 240)


def _square(die: SimDie) -> np.ndarray:
    a = math.radians(die.angle)
    c, s = math.cos(a), math.sin(a)
    h = die.side / 2
    local = np.array([(-h, -h), (h, -h), (h, h), (-h, h)])
    return np.asarray(local @ np.array([[c, s], [-s, c]]).T + np.asarray(die.center))


def _overlap_depth(a: np.ndarray, b: np.ndarray) -> float:
    """Smallest penetration over the separating axes (<= 0 means apart or touching)."""
    depth = math.inf
    for poly in (a, b):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-edge[1], edge[0]]) / np.hypot(*edge)
            pa, pb = a @ axis, b @ axis
            depth = min(depth, min(pa.max(), pb.max()) - max(pa.min(), pb.min()))
    return depth


def test_same_seed_same_frames_and_different_seed_differs() -> None:
    a, b, c = SimulatedTray(seed=3, size=SMALL), SimulatedTray(seed=3, size=SMALL), SimulatedTray(seed=4, size=SMALL)
    for tray in (a, b, c):
        tray.roll()
    for _ in range(6):
        fa, fb, fc = a.next_frame(), b.next_frame(), c.next_frame()
        assert np.array_equal(fa, fb)
        assert not np.array_equal(fa, fc)
    assert a.truth == b.truth


def test_render_tray_is_deterministic_and_well_formed() -> None:
    img1, truth1 = render_tray(np.random.default_rng(11), [1, 2, 3, 4, 5, 6])
    img2, truth2 = render_tray(np.random.default_rng(11), [1, 2, 3, 4, 5, 6])
    assert np.array_equal(img1, img2) and truth1 == truth2
    assert img1.shape == (960, 1280, 3) and img1.dtype == np.uint8
    assert [d.value for d in truth1] == [1, 2, 3, 4, 5, 6]
    small, _ = render_tray(np.random.default_rng(1), [2], (640, 480))
    assert small.shape == (480, 640, 3)


def _footprint(die: SimDie) -> np.ndarray:
    """The die's outline on the floor: its square, or for a leaning die (square to its
    wall within a couple of degrees) its box, shrunk for antialiasing and the tilt."""
    if not die.tilted:
        return _square(die)
    x0, y0, x1, y1 = die.box
    pad = 1 + 0.04 * die.side
    return np.array([(x0 + pad, y0 + pad), (x1 - pad, y0 + pad), (x1 - pad, y1 - pad), (x0 + pad, y1 - pad)])


@pytest.mark.parametrize("seed", range(12))
def test_truth_lies_in_frame_and_dice_do_not_overlap(seed: int) -> None:
    size = (640, 480)
    rng = np.random.default_rng(seed)
    style = TrayStyle.random(rng, size)
    if seed % 3 == 0:
        style = dataclasses.replace(style, tilt=0.5)
    img, truth = render_tray(rng, [1 + (seed + k) % 6 for k in range(6)], size, style=style)
    for die in truth:
        x0, y0, x1, y1 = die.box
        assert 0 <= x0 < die.center[0] < x1 <= size[0] and 0 <= y0 < die.center[1] < y1 <= size[1]
        if not die.tilted:
            # The box is the rotated square's extent, give or take antialiasing.
            turn = math.radians(die.angle)
            extent = die.side * (abs(math.cos(turn)) + abs(math.sin(turn)))
            assert abs((x1 - x0) - extent) < 0.12 * die.side + 3
    for a, b in itertools.combinations(truth, 2):
        assert _overlap_depth(_footprint(a), _footprint(b)) < 0.5


def test_leaning_dice_are_marked_tilted_and_lean_on_a_wall() -> None:
    size = (640, 480)
    rng = np.random.default_rng(21)
    style = dataclasses.replace(TrayStyle.random(rng, size), tilt=1.0)
    img, truth = render_tray(rng, [1, 2, 3, 4], size, style=style)
    assert all(d.tilted for d in truth)
    m = style.margin * size[0] + max(3.0, style.rim_width * size[0])
    for d in truth:
        x0, y0, x1, y1 = d.box
        gap = min(x0 - m, y0 - m, size[0] - m - x1, size[1] - m - y1)
        assert gap < 0.1 * d.side + 4, f"a tilted die {gap:.0f} px from every wall"
        # Foreshortened: the box is longer one way than the other.
        assert max(x1 - x0, y1 - y0) > 1.2 * min(x1 - x0, y1 - y0)
    # The live tray never leans dice: every thrown die can be read.
    tray = SimulatedTray(seed=0, size=SMALL, dice=4, style=None)
    assert tray.style.tilt == 0.0 and not any(d.tilted for d in tray.truth)


def test_flat_dice_by_the_wall_lie_against_it_and_are_not_tilted() -> None:
    size = (640, 480)
    rng = np.random.default_rng(21)
    style = dataclasses.replace(TrayStyle.random(rng, size), tilt=0.0, wall=1.0)
    img, truth = render_tray(rng, [1, 2, 3, 4], size, style=style)
    assert not any(d.tilted for d in truth)
    m = style.margin * size[0] + max(3.0, style.rim_width * size[0])
    for d in truth:
        x0, y0, x1, y1 = d.box
        gap = min(x0 - m, y0 - m, size[0] - m - x1, size[1] - m - y1)
        assert gap < 0.1 * d.side + 4, f"a die by the wall {gap:.0f} px from every wall"
        # Flat: its box is square (the die is square to its wall within 2 degrees).
        assert max(x1 - x0, y1 - y0) < 1.15 * min(x1 - x0, y1 - y0)


def test_clutter_is_drawn_but_never_labelled_or_over_a_die() -> None:
    size = (640, 480)
    rng = np.random.default_rng(8)
    style = dataclasses.replace(TrayStyle.random(rng, size), clutter=3, tilt=0.0)
    plain_rng = np.random.default_rng(8)
    plain_style = dataclasses.replace(TrayStyle.random(plain_rng, size), clutter=0, tilt=0.0)
    img, truth = render_tray(rng, [2, 5], size, style=style)
    plain, plain_truth = render_tray(plain_rng, [2, 5], size, style=plain_style)
    assert [d.value for d in truth] == [2, 5]
    # Same dice in the same places (clutter is placed after them), more drawn besides.
    assert [d.box for d in truth] == [d.box for d in plain_truth]
    changed = np.abs(img.astype(np.int16) - plain.astype(np.int16)).max(axis=2) > 40
    assert changed.mean() > 0.01
    for die in truth:
        x0, y0, x1, y1 = (int(v) for v in die.box)
        inner = changed[y0 + 3 : y1 - 3, x0 + 3 : x1 - 3]
        assert inner.mean() < 0.05, "something was drawn over a die"


def test_a_die_looks_like_a_die_where_the_truth_says() -> None:
    """The box holds a blob that differs from the floor; outside the dice it is floor."""
    img, truth = render_tray(np.random.default_rng(5), [6, 6, 6], (640, 480))
    grey = img.astype(np.float32).mean(axis=2)
    mask = np.zeros(grey.shape, bool)
    for die in truth:
        x0, y0, x1, y1 = (int(v) for v in die.box)
        mask[y0:y1, x0:x1] = True
        # Six pips on a plain body: strong contrast inside the top face.
        cx, cy, h = int(die.center[0]), int(die.center[1]), int(die.side * 0.4)
        assert grey[cy - h : cy + h, cx - h : cx + h].std() > 20
    x0, y0, x1, y1 = (int(v) for v in truth[0].box)
    assert abs(float(grey[y0:y1, x0:x1].mean()) - float(np.median(grey[~mask]))) > 5


def test_a_throw_moves_then_settles_and_stays_still() -> None:
    tray = SimulatedTray(seed=2, size=SMALL, dice=3)
    before = tray.next_frame()
    assert not tray.moving
    values = tray.roll([2, 5, 6])
    assert values == (2, 5, 6) and [d.value for d in tray.truth] == [2, 5, 6]
    moving = []
    frames = []
    for _ in range(40):
        frames.append(tray.next_frame().astype(np.int16))
        moving.append(tray.moving)
    # Several frames of motion, then rest from settled_at on, and never moving again.
    assert tray.settled_at is not None
    first_rest = tray.settled_at - 1  # index within `frames`: frame 0 was `before`
    assert first_rest >= 3 and not any(moving[first_rest:]) and all(moving[:first_rest])
    # Moving frames differ a lot; resting frames differ only by sensor noise.
    assert np.abs(frames[1] - frames[0]).max() > 100
    still = np.abs(frames[-1] - frames[-2])
    assert still.mean() < 8 and not np.array_equal(frames[-1], frames[-2])
    assert np.abs(frames[-1] - before.astype(np.int16)).max() > 100


def test_roll_counts_and_validation() -> None:
    tray = SimulatedTray(seed=0, size=SMALL, dice=2)
    assert len(tray.truth) == 2
    assert len(tray.roll()) == 2
    assert len(tray.roll(count=5)) == 5 and len(tray.truth) == 5
    with pytest.raises(ValueError, match="1-6"):
        tray.roll([0, 7])
    with pytest.raises(ValueError, match="count"):
        tray.roll([1, 2], count=3)


def test_late_die_sets_settled_at() -> None:
    tray = SimulatedTray(seed=9, size=SMALL)
    tray.roll([4, 4], frames=[4, 12])
    assert tray.settled_at == 11
    seen = []
    for _ in range(14):
        tray.next_frame()
        seen.append(tray.moving)
    assert seen == [True] * 11 + [False] * 3


def test_styles_vary_and_pip_layouts_are_real() -> None:
    styles = [TrayStyle.random(np.random.default_rng(s)) for s in range(30)]
    assert len({s.floor_kind for s in styles}) == 3
    assert len({s.looks[0].body for s in styles}) > 10
    assert {len(p) for p in PIP_LAYOUTS.values()} == {1, 2, 3, 4, 5, 6}
    assert all(len(PIP_LAYOUTS[v]) == v for v in PIP_LAYOUTS)


def test_write_dataset_makes_a_labelled_folder_like_the_shared_ones(tmp_path: Path) -> None:
    names = write_dataset(str(tmp_path), 6, seed=2, size=(320, 240))
    labels = json.loads((tmp_path / "labels.json").read_text())
    split = json.loads((tmp_path / "split.json").read_text())
    assert [im["file"] for im in labels["images"]] == names
    assert split["check"] == [names[4]] and len(split["train"]) == 5
    for im in labels["images"]:
        photo = cv2.imread(str(tmp_path / im["file"]))
        assert photo is not None and photo.shape == (240, 320, 3)
        assert (im["width"], im["height"]) == (320, 240)
        assert im["dice"] and all(1 <= d["value"] <= 6 and len(d["box"]) == 4 for d in im["dice"])
    # Same seed, same folder: a check set others can regenerate.
    again = tmp_path / "again"
    write_dataset(str(again), 6, seed=2, size=(320, 240))
    assert json.loads((again / "labels.json").read_text())["images"] == labels["images"]


def test_a_die_can_lean_on_a_flat_die() -> None:
    """A die leaning on another lies against its side: its top face (cos(lean) of a side
    deep, beside the flat die's) is about a side from the flat die's centre."""
    from vision.sim import die_leaning_trays

    leaners = beside = 0
    for _image, truth in die_leaning_trays(range(100, 110)):
        flat = [d for d in truth if not d.tilted]
        for d in (d for d in truth if d.tilted):
            leaners += 1
            near = min((float(np.hypot(f.center[0] - d.center[0], f.center[1] - d.center[1]))
                        / d.side for f in flat), default=99.0)
            beside += 0.75 < near < 1.1
    # Only a die with no room by any flat die leans on the wall instead.
    assert leaners >= 10 and beside >= 0.8 * leaners, (beside, leaners)
