"""The roll watcher on synthetic frame sequences made from the simulated tray."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from vision.sim import SimulatedTray
from vision.watcher import RollWatcher, WatchEvent, WatchSettings

SIZE = (640, 480)


@dataclass(frozen=True)
class FakeDie:
    value: int | None
    confidence: float = 0.99
    center: tuple[float, float] = (0.0, 0.0)
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class FakeReading:
    dice: tuple[FakeDie, ...]


class TruthReader:
    """Stands in for the reader: reports the sim's truth and records when it was called."""

    def __init__(self, tray: SimulatedTray) -> None:
        self.tray = tray
        self.calls: list[tuple[int, bool]] = []  # (frame index, tray moving at the time)

    def __call__(self, frame: np.ndarray) -> FakeReading:
        self.calls.append((self.tray.frame_index, self.tray.moving))
        return FakeReading(tuple(FakeDie(d.value, 0.99, d.center, d.box) for d in self.tray.truth))


def run(watcher: RollWatcher, frames: Iterator[np.ndarray] | list[np.ndarray]) -> list[WatchEvent]:
    events: list[WatchEvent] = []
    for frame in frames:
        events += watcher.feed(frame)
    return events


def stream(tray: SimulatedTray, n: int) -> Iterator[np.ndarray]:
    for _ in range(n):
        yield tray.next_frame()


def settled(events: list[WatchEvent]) -> list[WatchEvent]:
    return [e for e in events if e.kind == "settled"]


def values(event: WatchEvent) -> list[int]:
    assert isinstance(event.reading, FakeReading)
    return sorted(d.value or 0 for d in event.reading.dice)


def draw_hand(frame: np.ndarray, tip: tuple[int, int]) -> np.ndarray:
    """A skin-coloured forearm and hand reaching in from the bottom edge to ``tip``.

    Sized for a camera that sees about 30 cm of tray: an adult palm is 8-9 cm wide.
    """
    out = frame.copy()
    h, w = out.shape[:2]
    x, y = tip
    skin = (120, 160, 215)
    palm = (int(0.12 * w), int(0.13 * w))
    finger = (int(0.022 * w), int(0.08 * w))
    cv2.rectangle(out, (x - int(0.1 * w), y + palm[1]), (x + int(0.1 * w), h), (105, 145, 200), -1)
    cv2.ellipse(out, (x, y + palm[1]), palm, 0, 0, 360, skin, -1, cv2.LINE_AA)
    for k in range(4):
        fx = x - palm[0] + finger[0] + k * (2 * palm[0] - 2 * finger[0]) // 3
        cv2.ellipse(out, (fx, y + finger[1] // 2), finger, 0, 0, 360, skin, -1, cv2.LINE_AA)
    return out


@pytest.mark.parametrize(("seed", "size"), [(0, (1280, 960)), (1, SIZE), (2, SIZE), (3, SIZE)])
def test_one_roll_gives_one_moving_and_one_settled_soon_after_the_dice_stop(
    seed: int, size: tuple[int, int]
) -> None:
    tray = SimulatedTray(seed=seed, size=size, dice=2 + seed)
    reader = TruthReader(tray)
    watcher = RollWatcher(reader)
    before = run(watcher, stream(tray, 5))
    thrown = tray.roll()
    events = run(watcher, stream(tray, 45))
    assert before == []
    assert [e.kind for e in events] == ["moving", "settled"]
    assert tray.settled_at is not None
    assert tray.settled_at <= events[1].frame_index <= tray.settled_at + 3
    assert values(events[1]) == sorted(thrown)
    # Only settled frames paid for a full read, and one read per roll by default.
    assert len(reader.calls) == 1 and not reader.calls[0][1]


# Derandomized: the same trays every run, so CI never fails on a tray no one has seen;
# run with derandomize=False and more examples to look for new ones.
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), dice=st.integers(1, 6))
# Found by this test in CI: a die's last small move before it stopped was counted as
# creep two frames later, and the settled tray was called moving again.
@example(seed=71688569, dice=6)
# Found by it later: a small dark die paused two frames mid-roll over its old place and
# was called "moving" twice (15188); a settled die was called moving again 14 frames on,
# as the picture drifted from the first still frame (47956); six dice landing in a heap
# were taken for a hand and waited on (15295).
@example(seed=15188, dice=1)
@example(seed=47956, dice=1)
@example(seed=15295, dice=6)
def test_any_tray_any_throw_one_settle_within_three_frames(seed: int, dice: int) -> None:
    """Dark dice on dark felt, tiny dice, many dice: every throw settles once, on time."""
    tray = SimulatedTray(seed=seed, size=(320, 240), dice=dice)
    watcher = RollWatcher()
    run(watcher, stream(tray, 2))
    for _ in range(2):
        tray.roll()
        events = run(watcher, stream(tray, 30))
        assert [e.kind for e in events] == ["moving", "settled"]
        assert tray.settled_at is not None
        # A die's very last shift can be smaller than the motion check sees (a pixel
        # of the thumbnail): the settle may then come one frame before the die stops.
        assert tray.settled_at - 1 <= events[1].frame_index <= tray.settled_at + 3


@pytest.mark.parametrize("seed", range(5))
def test_in_a_grainy_picture_every_throw_still_settles_once_on_time(seed: int) -> None:
    """A dim room: the camera's gain up, grain of 32 grey levels in every frame, new each
    frame. The grain alone once looked like motion in every frame and no throw settled."""
    grain = np.random.default_rng(seed)

    def grainy(frame: np.ndarray) -> np.ndarray:
        return np.clip(frame + grain.normal(0.0, 32.0, frame.shape), 0, 255).astype(np.uint8)

    tray = SimulatedTray(seed=seed, size=SIZE, dice=1 + seed)
    watcher = RollWatcher()
    assert settled(run(watcher, (grainy(tray.next_frame()) for _ in range(5)))) == []
    for _ in range(2):
        tray.roll()
        events = run(watcher, (grainy(tray.next_frame()) for _ in range(35)))
        # Once in a while the grain still calls a settled tray moving again; the scene
        # is the same, so nothing more is read or scored: one settle per throw.
        assert events[0].kind == "moving" and len(settled(events)) == 1, events
        assert tray.settled_at is not None
        assert tray.settled_at - 1 <= settled(events)[0].frame_index <= tray.settled_at + 3


def test_two_rolls_with_the_same_result_are_two_rolls() -> None:
    tray = SimulatedTray(seed=5, size=SIZE, dice=2)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 3))
    tray.roll([3, 4])
    first = run(watcher, stream(tray, 35))
    tray.roll([3, 4])
    second = run(watcher, stream(tray, 35))
    assert len(settled(first)) == 1 and len(settled(second)) == 1
    assert values(settled(first)[0]) == values(settled(second)[0]) == [3, 4]
    assert settled(second)[0].frame_index > settled(first)[0].frame_index


@pytest.mark.parametrize("seed", [0, 4, 11])  # 11 is a dark, noisy tray
def test_nothing_moved_nothing_reported(seed: int) -> None:
    tray = SimulatedTray(seed=seed, size=(1280, 960), dice=3)
    reader = TruthReader(tray)
    watcher = RollWatcher(reader)
    assert run(watcher, stream(tray, 60)) == []
    assert reader.calls == [] and not watcher.moving


class HandFooledReader(TruthReader):
    """A reader that, like a real one might, reads a die in a hand: an extra 6 whenever
    skin colour fills part of the picture. Only the watcher can keep it from scoring."""

    def __call__(self, frame: np.ndarray) -> FakeReading:
        reading = super().__call__(frame)
        skin = cv2.inRange(frame, (100, 140, 190), (140, 180, 235))
        if cv2.countNonZero(skin) > 0.01 * skin.size:
            return FakeReading(reading.dice + (FakeDie(6, 0.9, (1.0, 1.0), (0.0, 0.0, 2.0, 2.0)),))
        return reading


@pytest.mark.parametrize("seed", [6, 19])
def test_a_hand_reaching_in_and_leaving_is_not_a_roll(seed: int) -> None:
    tray = SimulatedTray(seed=seed, size=SIZE, dice=3)
    reader = HandFooledReader(tray)
    watcher = RollWatcher(reader)
    run(watcher, stream(tray, 2))
    tray.roll()
    assert len(settled(run(watcher, stream(tray, 35)))) == 1
    reads = len(reader.calls)
    # The hand holds still over a die for longer than a settle, then leaves.
    events = run(watcher, hand_pass(tray, tray.truth[0].center, hold=8) + list(stream(tray, 10)))
    assert settled(events) == [], "a hand passing over unchanged dice was taken for a roll"
    assert [e.kind for e in events] == ["moving"]
    assert len(reader.calls) - reads <= 2, "the reader ran on every frame the hand was there"
    # And the watcher still sees the next real throw.
    tray.roll()
    assert len(settled(run(watcher, stream(tray, 35)))) == 1


def hand_pass(tray: SimulatedTray, over: tuple[float, float], hold: int = 6) -> list[np.ndarray]:
    """Frames of a hand reaching in from the bottom to ``over``, holding, and leaving."""
    w, h = tray.size
    tips = [(int(over[0]), int(h - k * (h - over[1]) / 3)) for k in (1, 2, 3)]
    path = tips + [tips[-1]] * hold + tips[::-1][1:] + [(int(over[0]), h + 200)]
    return [draw_hand(tray.next_frame(), tip) for tip in path]


def test_dice_nudged_by_a_hand_are_not_a_new_roll_but_a_new_throw_is() -> None:
    tray = SimulatedTray(seed=16, size=SIZE, dice=3)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 2))
    tray.roll([2, 3, 5])
    assert len(settled(run(watcher, stream(tray, 35)))) == 1
    frames = hand_pass(tray, tray.truth[1].center, hold=3)
    tray.nudge(1, 5.0, -4.0, turn=8.0)  # the hand leaves die 1 a little moved and turned
    events = run(watcher, frames + list(stream(tray, 10)))
    assert settled(events) == []
    # A die pushed far away showing the same face, the others where they lay: still no
    # new throw (a die sliding on after the settle looks the same, and was scored twice).
    tray.nudge(2, 0.0, 0.0)
    far = tray.truth[0]
    tray.nudge(0, 3 * far.side if far.center[0] < SIZE[0] / 2 else -3 * far.side, 0.0)
    assert settled(run(watcher, list(stream(tray, 10)))) == []
    # A new throw of the same values moves every die: that is reported.
    tray.roll([2, 3, 5])
    events = settled(run(watcher, stream(tray, 35)))
    assert len(events) == 1 and values(events[0]) == [2, 3, 5]


def test_dice_picked_up_for_the_next_throw_are_not_a_roll() -> None:
    tray = SimulatedTray(seed=17, size=SIZE, dice=2)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 2))
    tray.roll([1, 1])
    assert len(settled(run(watcher, stream(tray, 35)))) == 1
    tray.roll(count=0)  # the dice leave the tray and stay out for a while
    emptied = run(watcher, stream(tray, 20))
    assert [e.kind for e in emptied] == ["moving"]
    tray.roll([1, 1])
    again = settled(run(watcher, stream(tray, 35)))
    assert len(again) == 1 and values(again[0]) == [1, 1]


def test_a_die_that_stops_late_delays_the_settle() -> None:
    for seed in (7, 8, 9):
        tray = SimulatedTray(seed=seed, size=SIZE, dice=3)
        watcher = RollWatcher(TruthReader(tray))
        run(watcher, stream(tray, 2))
        tray.roll([1, 5, 6], frames=[4, 5, 22])
        events = settled(run(watcher, stream(tray, 40)))
        assert tray.settled_at is not None and len(events) == 1
        assert tray.settled_at <= events[0].frame_index <= tray.settled_at + 3, (seed, tray.settled_at, events)


@pytest.mark.parametrize("gain", [1.4, 0.6])
def test_a_flicker_of_light_is_not_motion(gain: float) -> None:
    tray = SimulatedTray(seed=12, size=SIZE, dice=2)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 2))
    tray.roll()
    assert len(settled(run(watcher, stream(tray, 30)))) == 1
    frames = list(stream(tray, 12))
    for k in (4, 9, 10):  # a one-frame and a two-frame flicker
        frames[k] = cv2.convertScaleAbs(frames[k], alpha=gain)
    assert run(watcher, frames) == []


def test_a_lasting_light_change_settles_quietly() -> None:
    tray = SimulatedTray(seed=13, size=SIZE, dice=2)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 5))
    dimmer = [cv2.convertScaleAbs(f, alpha=0.75) for f in stream(tray, 20)]
    assert settled(run(watcher, dimmer)) == []


def test_votes_read_only_still_frames_and_take_the_majority() -> None:
    tray = SimulatedTray(seed=14, size=SIZE, dice=2)
    answers = iter([(2, 2), (6, 2), (6, 2)])
    calls: list[bool] = []

    def flaky(frame: np.ndarray) -> FakeReading:
        calls.append(tray.moving)
        a, b = next(answers)
        return FakeReading((FakeDie(a), FakeDie(b)))

    watcher = RollWatcher(flaky, WatchSettings(settle_frames=4, votes=3))
    run(watcher, stream(tray, 2))
    tray.roll([6, 2])
    events = settled(run(watcher, stream(tray, 35)))
    assert len(events) == 1 and values(events[0]) == [2, 6]
    assert calls == [False, False, False]
    assert tray.settled_at is not None and events[0].frame_index <= tray.settled_at + 3


def test_a_region_ignores_movement_beside_the_tray() -> None:
    tray = SimulatedTray(seed=18, size=SIZE, dice=2)
    w, h = SIZE
    watcher = RollWatcher(TruthReader(tray), WatchSettings(region=(0, 0, w, h - 140)))
    run(watcher, stream(tray, 2))
    tray.roll()
    assert len(settled(run(watcher, stream(tray, 35)))) == 1
    # An arm moving along the bottom strip, outside the region, is no motion at all.
    frames = [draw_hand(tray.next_frame(), (40 + 60 * k, h - 5)) for k in range(8)]
    assert run(watcher, frames) == []
    tray.roll()
    assert len(settled(run(watcher, stream(tray, 35)))) == 1


def test_a_tray_marked_between_throws_is_watched_alone_and_no_throw_is_counted_twice() -> None:
    """The tray is marked on the control page while a throw lies in it: from then on an
    arm beside the tray is no motion, a nudge to the lying dice is no new roll, and the
    next throw is one."""
    tray = SimulatedTray(seed=19, size=SIZE, dice=3)
    w, h = SIZE
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 2))
    tray.roll([1, 4, 6])
    assert len(settled(run(watcher, stream(tray, 35)))) == 1
    watcher.watch_region((0, 0, w, h - 140))
    assert watcher.settings.region == (0, 0, w, h - 140)
    frames = [draw_hand(tray.next_frame(), (40 + 60 * k, h - 5)) for k in range(8)]
    assert run(watcher, list(stream(tray, 3)) + frames) == []
    tray.nudge(1, 4.0, 3.0, turn=6.0)
    assert settled(run(watcher, stream(tray, 20))) == []
    tray.roll([2, 2, 3])
    events = settled(run(watcher, stream(tray, 35)))
    assert len(events) == 1 and values(events[0]) == [2, 2, 3]
    watcher.watch_region(None)       # the outline forgotten: the whole frame again
    assert watcher.settings.region is None and run(watcher, stream(tray, 10)) == []


def test_without_a_reader_settled_carries_no_reading() -> None:
    tray = SimulatedTray(seed=15, size=SIZE)
    watcher = RollWatcher()
    run(watcher, stream(tray, 2))
    tray.roll()
    events = run(watcher, stream(tray, 35))
    assert [e.kind for e in events] == ["moving", "settled"] and events[1].reading is None


@pytest.mark.parametrize("gain", [1.3, 0.7])
def test_the_light_changing_for_good_is_no_new_roll(gain: float) -> None:
    """A lamp switched on, or the camera measuring the light again: every later frame is
    brighter or darker, but the dice have not moved."""
    tray = SimulatedTray(seed=5, size=(640, 480), dice=3)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 10))
    tray.roll()
    assert len(settled(run(watcher, stream(tray, 60)))) == 1
    relit = (np.clip(f.astype(np.float32) * gain, 0, 255).astype(np.uint8) for f in stream(tray, 60))
    assert settled(run(watcher, relit)) == []
    assert not watcher.moving


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="votes"):
        WatchSettings(settle_frames=3, votes=3)
    with pytest.raises(ValueError, match="settle_frames"):
        WatchSettings(settle_frames=1)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("width", 8, "width must be at least 16 px, not 8"),
    ("level", 0.0, "level must be above 0"),
    ("flicker", -0.1, "flicker must be above 0"),
    ("motion_fraction", 0.0, "motion_fraction is a share of the picture"),
    ("hand_fraction", 25.0, "hand_fraction is a share of the picture, 0 < hand_fraction <= 1, not 25.0"),
    ("quiet_frames", -1, "quiet_frames counts frames, it cannot be -1"),
    ("region", (100, 0, 50, 80), "region must be"),
])
def test_settings_out_of_range_name_the_setting(field: str, value: object, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        WatchSettings(**{field: value})  # type: ignore[arg-type]


def test_the_examples_in_the_watcher_docstrings_hold() -> None:
    import doctest

    from vision import watcher

    result = doctest.testmod(watcher)
    assert result.attempted > 0 and result.failed == 0


def test_a_picture_of_another_shape_becomes_the_new_reference() -> None:
    """A replayed folder mixes landscape and square photos, or a camera restarts at another
    resolution: the watcher must go on watching, not fail on every later frame."""
    tray = SimulatedTray(seed=20, size=SIZE, dice=2)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 2))
    tray.roll([2, 4])
    assert len(settled(run(watcher, stream(tray, 35)))) == 1
    square = [f[:, 80:560] for f in stream(tray, 10)]   # 480×480: another aspect
    assert run(watcher, square) == []                      # a new view, not a roll
    tray.roll([3, 5])
    events = settled(run(watcher, (f[:, 80:560] for f in stream(tray, 35))))
    assert len(events) == 1 and values(events[0]) == [3, 5]
    assert events[0].frame_index > 45, "the frames are still counted from the first"


class HiddenDiceReader(TruthReader):
    """Like the real reader: a die under a hand is not seen (it reads no die in the hand)."""

    def __call__(self, frame: np.ndarray) -> FakeReading:
        reading = super().__call__(frame)
        skin = cv2.inRange(frame, (100, 140, 190), (140, 180, 235))
        return FakeReading(tuple(d for d in reading.dice
                                 if not skin[int(d.center[1]), int(d.center[0])]))


def test_a_hand_resting_over_the_dice_for_long_does_not_count_the_throw_again() -> None:
    """Someone points at a die and keeps a hand over it longer than the watcher waits on a
    hand: when it leaves, the dice lie as they did, and that throw was already scored."""
    tray = SimulatedTray(seed=6, size=SIZE, dice=3)
    watcher = RollWatcher(HiddenDiceReader(tray))
    run(watcher, stream(tray, 2))
    tray.roll([2, 4, 6])
    assert len(settled(run(watcher, stream(tray, 35)))) == 1
    hold = watcher.settings.obstructed_frames + 30
    events = run(watcher, hand_pass(tray, tray.truth[0].center, hold=hold) + list(stream(tray, 60)))
    assert [values(e) for e in settled(events) if values(e) == [2, 4, 6]] == [], \
        "the throw was reported again after the hand left"
    # What the hand left in view was reported; its leaving says that report is stale.
    kinds = [e.kind for e in events if e.kind != "moving"]
    assert kinds == ["settled", "uncovered"] and values(events[-1]) == [2, 4, 6]
    # And the next throw, even with the same values, is one.
    tray.roll([2, 4, 6])
    again = settled(run(watcher, stream(tray, 35)))
    assert len(again) == 1 and values(again[0]) == [2, 4, 6]


@pytest.mark.parametrize("fps", [2, 15, 30])
def test_a_hand_left_in_the_tray_after_a_throw_is_waited_on_about_3_s_at_any_frame_rate(
        fps: int) -> None:
    """The thrower's hand stays at the side of the tray: the throw is scored once the hand
    has been waited on for about 3 s. The wait was counted in frames: at a picture every
    half second (a dim room) that was 23 s of a score that seemed stuck."""
    tray = SimulatedTray(seed=6, size=SIZE, dice=3)
    watcher = RollWatcher(TruthReader(tray), WatchSettings.at_fps(fps))
    run(watcher, stream(tray, 2))
    tray.roll([2, 4, 6])
    events = settled(run(watcher, stream(tray, 40)))
    assert len(events) == 1 and tray.settled_at is not None
    # A throw with no hand in view settles at most 3 frames after the dice stop (issue 3),
    # or as soon in seconds as at 15 frames a second.
    assert events[0].frame_index <= tray.settled_at + max(3, 3 * fps / 15)
    tray.roll([1, 3, 5])
    side = (SIZE[0] // 6, SIZE[1] // 2)
    events = settled(run(watcher, (draw_hand(f, side) for f in stream(tray, 50 * fps))))
    assert len(events) == 1 and values(events[0]) == [1, 3, 5]
    waited_s = (events[0].frame_index - tray.settled_at) / fps
    assert 2.5 <= waited_s <= 4.0, f"{waited_s:.1f} s at {fps} fps"


def test_the_waits_follow_the_pace_frames_come_at_between_throws_only() -> None:
    """Timed anew for a camera giving far fewer (or more) frames than it said, but not for
    a frame a little late, and not while a throw's waits are counting."""
    tray = SimulatedTray(seed=2, size=SIZE, dice=2)
    watcher = RollWatcher(TruthReader(tray), WatchSettings.at_fps(15), fps=15.0)
    watcher.follow_pace(1 / 12)
    assert watcher.settings == WatchSettings()
    run(watcher, stream(tray, 2))
    tray.roll()
    run(watcher, stream(tray, 3))
    assert watcher.moving
    watcher.follow_pace(0.5)
    assert watcher.settings == WatchSettings(), "timed anew in the middle of a throw"
    run(watcher, stream(tray, 40))
    watcher.follow_pace(0.5)
    assert watcher.settings.obstructed_frames == 6 and watcher.fps == 2.0
    given = RollWatcher(None, WatchSettings(obstructed_frames=10))   # no rate: as given
    given.follow_pace(0.5)
    assert given.settings.obstructed_frames == 10


def test_an_arm_in_the_tray_when_the_watching_starts_does_not_blind_it_for_good() -> None:
    """The first picture is the reference. If an arm was in it (the family setting up as
    the appliance starts), the tray without the arm looks like a hand to every later
    settle: the watcher may wait, but it must take the tray as it is in the end, and see
    the throws after that."""
    tray = SimulatedTray(seed=6, size=SIZE, dice=3)
    watcher = RollWatcher(TruthReader(tray))
    w, h = SIZE
    leaving = hand_pass(tray, (w // 2, h // 2), hold=0)[2:]   # in view at the start, then gone
    run(watcher, leaving + list(stream(tray, watcher.settings.obstructed_frames + 15)))
    for throw in ([1, 3, 5], [2, 2, 6]):
        tray.roll(throw)
        events = settled(run(watcher, stream(tray, 35)))
        assert len(events) == 1 and values(events[0]) == sorted(throw)
        assert tray.settled_at is not None and events[0].frame_index <= tray.settled_at + 3


def test_a_read_that_fails_once_does_not_lose_the_throw() -> None:
    """The reader raised on the still frame it was to read: the settle came with no
    reading, and the throw was dropped without a word."""
    tray = SimulatedTray(seed=3, size=SIZE, dice=2)
    truth = TruthReader(tray)
    failures: list[int] = []

    def read(frame: np.ndarray) -> FakeReading:
        if not failures:
            failures.append(tray.frame_index)
            raise RuntimeError("something odd in one frame")
        return truth(frame)

    watcher = RollWatcher(read)
    run(watcher, stream(tray, 3))
    tray.roll([2, 5])
    events: list[WatchEvent] = []
    raised = 0
    for frame in stream(tray, 40):
        try:
            events += watcher.feed(frame)
        except RuntimeError:
            raised += 1
    assert raised == 1 and len(settled(events)) == 1 and values(settled(events)[0]) == [2, 5]


# Seeds where a die of the second throw lands within half a die of where the same face
# lay after the first (found by a review: each such throw was missed).
@pytest.mark.parametrize("seed, thrown", [(56, [3, 5]), (2, [2, 3, 5]),
                                          (21, [1, 1, 2, 3, 5, 6]), (53, [1, 1, 2, 3, 5, 6])])
def test_a_second_throw_of_the_same_faces_is_one_even_where_a_die_lands_where_one_lay(
        seed: int, thrown: list[int]) -> None:
    tray = SimulatedTray(seed=seed, size=SIZE, dice=len(thrown))
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 3))
    tray.roll(thrown)
    first = settled(run(watcher, stream(tray, 40)))
    tray.roll(thrown)
    second = settled(run(watcher, stream(tray, 40)))
    assert len(first) == 1 and len(second) == 1 and values(second[0]) == sorted(thrown)


def _slide(tray: SimulatedTray, die: int, frames: int = 6) -> list[np.ndarray]:
    """Frames of die ``die`` sliding three of its sides across the tray, face unchanged."""
    side = tray.truth[die].side
    step = (3 * side if tray.truth[die].center[0] < SIZE[0] / 2 else -3 * side) / frames
    out = []
    for _ in range(frames):
        tray.nudge(die, step, 0.0)
        out.append(tray.next_frame())
    return out


@pytest.mark.parametrize("seed", [5, 31, 16])
def test_a_die_sliding_on_into_the_others_is_still_the_same_throw(seed: int) -> None:
    """A die that slid on after the settle and knocked the others a few pixels: their
    places changed a little, but nobody picked them up (found by a review)."""
    tray = SimulatedTray(seed=seed, size=SIZE, dice=3)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 3))
    tray.roll([2, 3, 5])
    assert len(settled(run(watcher, stream(tray, 40)))) == 1
    frames = _slide(tray, 0)
    tray.nudge(1, 3.0, 2.0, turn=5.0)
    tray.nudge(2, -2.0, 3.0, turn=-5.0)
    assert settled(run(watcher, frames + list(stream(tray, 15)))) == []


@pytest.mark.parametrize("seed", [16, 12, 40])
def test_a_hand_that_came_and_went_does_not_count_against_the_next_slide(seed: int) -> None:
    tray = SimulatedTray(seed=seed, size=SIZE, dice=2)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 3))
    tray.roll([2, 5])
    assert len(settled(run(watcher, stream(tray, 40)))) == 1
    passing = hand_pass(tray, tray.truth[1].center, hold=3) + list(stream(tray, 15))
    assert settled(run(watcher, passing)) == []
    assert settled(run(watcher, _slide(tray, 0) + list(stream(tray, 15)))) == []


def test_a_die_read_mid_roll_and_settling_on_another_face_is_reported_as_rolled_on() -> None:
    """A slow die paused mid-roll long enough to be read, then rolled on to another face:
    its second report is no new throw of the next player, and says so."""
    from vision.reader import read_dice

    tray = SimulatedTray(seed=6, size=SIZE, dice=2)
    watcher = RollWatcher(read_dice)
    run(watcher, stream(tray, 5))
    tray.roll([4, 1], frames=[12, 45])
    events = settled(run(watcher, stream(tray, 85)))
    assert len(events) >= 2                                  # the pause was read
    assert [e.rolled_on for e in events] == [False] + [True] * (len(events) - 1)
    assert sorted(d.value for d in events[-1].reading.dice) == [1, 4]


@pytest.mark.parametrize("dice", [2, 6])
def test_real_throws_are_never_reported_as_rolled_on(dice: int) -> None:
    tray = SimulatedTray(seed=dice, size=SIZE, dice=dice)
    watcher = RollWatcher(TruthReader(tray))
    run(watcher, stream(tray, 3))
    reports = []
    for k in range(6):
        tray.roll([(k + i) % 6 + 1 for i in range(dice)] if k % 2 else [3] * dice)
        reports += settled(run(watcher, stream(tray, 40)))
    assert len(reports) == 6 and not any(e.rolled_on for e in reports)
