"""The roll watcher: turns a stream of frames into "moving" and "settled (reading)" events.

Every frame pays only for a cheap motion check on a ~160 px wide grey thumbnail
(well under a millisecond); only frames that have been still long enough pay for a full
read. Thumbnails are compared after scaling one to the other's mean brightness, so a lamp
dimming or the camera's exposure drifting changes nothing, and a sudden global jump in brightness
for a frame or two is skipped outright (clipped highlights would not divide out).

Per roll: "moving" once when things start to move, and "settled" once when the picture
has been still for ``settle_frames`` frames *and* differs from the last settled scene.
The comparison with the last settled scene is what makes a hand that reaches in and
leaves produce nothing; a big blob reaching in from the edge of the picture is taken for
a hand, and the watcher waits for it to leave. A scene that changed only because dice
were nudged (every die the same value, within half a die of where it lay) is no new roll
either; a throw that lands on the same values elsewhere is. An empty tray (the dice were
picked up to be thrown again) is reported by nothing but the "moving" it took.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import cv2
import numpy as np

__all__ = ["RollWatcher", "WatchEvent", "WatchSettings", "thumbnail"]

_Thumb = tuple[np.ndarray, float]  # grey thumbnail and its mean brightness


@dataclass(frozen=True)
class WatchEvent:
    """Something the watcher saw: dice started ``moving``, or ``settled`` with a reading,
    or ``uncovered``: what sat in view for long, whose settle was reported with the dice
    under it hidden, has gone, and the dice lie as before it came (that report is stale).

    ``frame_index`` counts the frames fed to the watcher from 0. ``reading`` is the
    reader's result for the settled scene (None for "moving", or when no reader is set).
    """

    kind: Literal["moving", "settled", "uncovered"]
    frame_index: int
    reading: Any | None = None
    rolled_on: bool = False
    """For "settled": some dice lie just where the last report had them, showing the same
    faces, their places never emptied meanwhile, while others moved to other faces. Nobody
    picked the dice up: perhaps a die of the last throw rolled on (it paused, and was read
    mid-roll), perhaps a few dice were thrown again. A person should say which."""


def thumbnail(frame: np.ndarray, width: int = 160) -> tuple[np.ndarray, float]:
    """A small, blurred grey picture (float32) and its mean brightness.

    Bilinear resizing samples only a few pixels per output pixel, which is what keeps
    this cheap; the blur then averages away sensor noise.
    """
    h, w = frame.shape[:2]
    size = (width, max(1, round(h * width / w)))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    grey = cv2.GaussianBlur(grey, (5, 5), 0)
    mean = max(1.0, float(cv2.mean(grey)[0]))
    return grey.astype(np.float32), mean


def _values(reading: Any) -> Any:
    """What two readings must share to be 'the same roll': the sorted die values."""
    dice = getattr(reading, "dice", None)
    if dice is None:
        return reading
    return tuple(sorted(0 if d.value is None else int(d.value) for d in dice))


def _places(reading: Any) -> list[tuple[Any, tuple[float, float], float]] | None:
    """Each die of ``reading`` as (value, centre, size); ``None`` without positions."""
    try:
        return [(d.value, d.center, max(d.box[2] - d.box[0], d.box[3] - d.box[1]))
                for d in reading.dice]
    except (AttributeError, TypeError, IndexError):
        return None


def _near(a: tuple[Any, tuple[float, float], float], b: tuple[Any, tuple[float, float], float]
          ) -> bool:
    """Whether die ``a`` shows ``b``'s value within half of ``b``'s size of where it lay."""
    (value, (x, y), _), (v, (ox, oy), size) = a, b
    return bool(v == value and (x - ox) ** 2 + (y - oy) ** 2 <= (0.5 * size) ** 2)


def _same_places(new: Any, old: Any) -> bool:
    """Whether every die of ``new`` lies within half a die of a die of ``old`` showing
    the same value (one to one). Readings without positions never match."""
    news, olds = _places(new), _places(old)
    if news is None or olds is None or len(olds) != len(news):
        return False
    for die in news:
        near = [k for k, was in enumerate(olds) if _near(die, was)]
        if not near:
            return False
        olds.pop(near[0])
    return True


def _same_dice(new: Any, old: Any | None) -> bool:
    """Whether ``new`` shows the dice of ``old``, each with its face, where it lay."""
    return old is not None and _values(new) == _values(old) and _same_places(new, old)


def _is_empty(reading: Any) -> bool:
    """A reading that found no dice at all."""
    dice = getattr(reading, "dice", None)
    return dice is not None and len(dice) == 0


# In a grainy picture (a dim room, the camera's gain up) the noise alone differs by more
# than WatchSettings.level in enough pixels to look like motion in every frame, and no
# throw ever settled: with noise of 24 grey levels or more added to the simulated tray's
# frames, none of 72 throws did (65 of 72 at 16 levels, with a tray settled called
# moving again now and then). So the level that counts is raised to NOISE_MARGIN times the
# change a quarter of the thumbnail's pixels stay under (for noise alone that quarter is
# 0.32 of its spread, so the level sits 6 spreads out), and where it was raised, each
# pixel's change is first averaged with its neighbours' (a die's movement spans several
# pixels and survives; the grain does not) and the level taken again. Those 72 throws then
# settle once, on time, 72 at 16 levels and 66-69 at 24-48; the rest are one die, small
# and dark on dark felt, whose last moves the grain hides (settled early; at 24 levels
# and more the reader holds such a frame's dice for a person anyway, vision.noise). A
# quarter, not the median, so that a hand or a throw changing most of the picture does
# not raise the level over itself; and never above NOISE_LEVEL_MAX, so what changes that
# much still counts. A clean picture's quarter is a fraction of a level: it is judged
# exactly as before.
NOISE_MARGIN = 18.8
NOISE_LEVEL_MAX = 40.0

# How far (as a ratio) the camera's measured pace may stray from the frame rate the waits
# are timed for before they are timed anew (RollWatcher.follow_pace): a few frames late or
# early do not, a camera giving half the frames it said does.
RETIME_FACTOR = 1.5


def _level(diff: np.ndarray, level: float) -> float:
    """The change in grey levels that counts in ``diff`` (two thumbnails' absolute
    difference): ``level``, or more in a grainy picture.

    >>> _level(np.zeros((120, 160), np.float32), 10.0)
    10.0
    >>> grains = np.abs(np.random.default_rng(0).normal(0.0, 3.0, (120, 160)))
    >>> round(_level(grains.astype(np.float32), 10.0))
    18
    """
    sample = diff[::2, ::2].ravel()
    quarter = float(np.partition(sample, sample.size // 4)[sample.size // 4])
    return min(NOISE_LEVEL_MAX, max(level, NOISE_MARGIN * quarter))


def _confidence(reading: Any) -> float:
    dice = getattr(reading, "dice", None) or ()
    return float(np.mean([float(getattr(d, "confidence", 0.0)) for d in dice])) if dice else 0.0


def _vote(readings: list[Any]) -> Any:
    """The reading whose values most readings agree on; ties go to the more confident."""
    keys = [_values(r) for r in readings]
    best = max(
        range(len(readings)),
        key=lambda i: (keys.count(keys[i]), _confidence(readings[i]), i),
    )
    return readings[best]


@dataclass(frozen=True)
class WatchSettings:
    """How the watcher tells moving from settled; the defaults suit a 15 fps camera (the
    cameras' own default), and :meth:`at_fps` times them for another rate.

    ``settle_frames`` still frames in a row (counting the first one at rest) make a
    settle, so the settled event comes ``settle_frames - 1`` frames after the last die
    stops. ``votes`` (at most ``settle_frames - 1``) is how many of those still frames
    are read; the event carries the reading most of them agree on.

    ``region`` ``(x0, y0, x1, y1)`` in frame pixels limits the motion check to the tray
    (from a calibration), so arms resting on the table beside it are not taken for a
    hand in the tray; the reader still gets the whole frame.

    ``level`` is in grey levels of the ``width``-px thumbnail (after matching
    brightness; in a grainy picture the grain raises it, see :data:`NOISE_MARGIN`); the
    fractions are of its pixels: ``motion_fraction`` changed between two frames is movement, ``scene_fraction`` changed since the last settled scene is a
    new scene. A brightness jump above ``flicker`` (relative) is skipped for up to
    ``flicker_frames`` frames. A changed blob of ``hand_fraction`` of the picture, or of
    ``hand_edge_fraction`` touching its edge, is a hand, waited on for at most
    ``obstructed_frames`` frames. A still picture that looks like the last settled
    scene ends a movement only after ``quiet_frames`` more still frames: a small or
    dark die can pause mid-roll, and a hand that came and went can wait that long.

    >>> WatchSettings(settle_frames=4, votes=3).votes
    3
    >>> WatchSettings(settle_frames=3, votes=3)
    Traceback (most recent call last):
    ...
    ValueError: votes must be 1..2 for settle_frames=3, not 3
    """

    settle_frames: int = 3
    votes: int = 1
    width: int = 160
    level: float = 10.0
    motion_fraction: float = 0.0002
    scene_fraction: float = 0.0003
    flicker: float = 0.06
    flicker_frames: int = 2
    hand_fraction: float = 0.25  # six dice landing in a heap changed 12 % of a small tray
    hand_edge_fraction: float = 0.05
    obstructed_frames: int = 45
    quiet_frames: int = 5
    region: tuple[int, int, int, int] | None = None

    @classmethod
    def at_fps(cls, fps: float) -> WatchSettings:
        """The defaults, each wait as long in seconds for a camera of ``fps`` frames a
        second as at 15 fps. At 60 fps three frames are 33 ms: a die pausing as it tips
        over was taken for settled, and read twice. Below 15 fps the settle keeps its
        frames (never more than 3 after the dice stop), and the other waits keep at least
        one: at 2 fps a hand was waited on for 45 frames, 23 s of a score that seemed stuck.

        >>> WatchSettings.at_fps(15) == WatchSettings()
        True
        >>> s = WatchSettings.at_fps(60)
        >>> s.settle_frames, s.quiet_frames, s.obstructed_frames
        (9, 20, 180)
        >>> s = WatchSettings.at_fps(2)
        >>> s.settle_frames, s.quiet_frames, s.obstructed_frames, s.flicker_frames
        (3, 1, 6, 1)
        """
        base = cls()
        k = float(fps) / 15.0 if math.isfinite(fps) and fps > 0 else 1.0
        return cls(settle_frames=1 + round((base.settle_frames - 1) * max(1.0, k)),
                   flicker_frames=max(1, round(base.flicker_frames * k)),
                   obstructed_frames=max(1, round(base.obstructed_frames * k)),
                   quiet_frames=max(1, round(base.quiet_frames * k)))

    def timed_for(self, fps: float) -> WatchSettings:
        """These settings with their waits timed as :meth:`at_fps` times them (the region
        and thresholds kept; ``votes`` cut to what the settle has room for)."""
        timed = WatchSettings.at_fps(fps)
        return dataclasses.replace(self, settle_frames=timed.settle_frames,
                                   votes=min(self.votes, timed.settle_frames - 1),
                                   flicker_frames=timed.flicker_frames,
                                   obstructed_frames=timed.obstructed_frames,
                                   quiet_frames=timed.quiet_frames)

    def __post_init__(self) -> None:
        if self.settle_frames < 2:
            raise ValueError(f"settle_frames must be at least 2 (one still pair), not {self.settle_frames}")
        if not 1 <= self.votes <= self.settle_frames - 1:
            raise ValueError(f"votes must be 1..{self.settle_frames - 1} for "
                             f"settle_frames={self.settle_frames}, not {self.votes}")
        if self.width < 16:
            raise ValueError(f"width must be at least 16 px, not {self.width}")
        for name in ("level", "flicker"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be above 0, not {getattr(self, name)}")
        for name in ("motion_fraction", "scene_fraction", "hand_fraction", "hand_edge_fraction"):
            if not 0 < getattr(self, name) <= 1:
                raise ValueError(f"{name} is a share of the picture, 0 < {name} <= 1, "
                                 f"not {getattr(self, name)}")
        for name in ("flicker_frames", "quiet_frames", "obstructed_frames"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} counts frames, it cannot be {getattr(self, name)}")
        if self.region is not None:
            x0, y0, x1, y1 = self.region
            if not (0 <= x0 < x1 and 0 <= y0 < y1):
                raise ValueError(f"region must be (x0, y0, x1, y1) with 0 <= x0 < x1 and "
                                 f"0 <= y0 < y1, not {self.region}")


class RollWatcher:
    """Watches frames for throws; see the module docstring for the rules.

    ``read`` is the reader (``vision.reader.read_dice`` or a wrapper with the
    calibration bound); it is called only on settled frames. ``settings`` are the
    thresholds (:class:`WatchSettings`). Not thread-safe: feed it from one thread.
    """

    def __init__(self, read: Callable[[np.ndarray], Any] | None = None,
                 settings: WatchSettings = WatchSettings(), *, fps: float | None = None) -> None:
        self.read = read
        self.settings = settings
        self.fps = fps
        """The frame rate the waits of ``settings`` are timed for (:meth:`follow_pace`
        times them anew); None when they are taken as given."""
        self.last_reading: Any | None = None
        """The reading of the last settled event."""
        self._view = (0.0, 0.0, 1.0)
        """Where the thumbnail lies in the frame: its corner and scale (set by each feed)."""
        self._covered: Any | None = None
        """The reading before a settle reported with something still in view: those dice
        showing again once it has gone are not a new roll."""
        self.reset()

    def watch_region(self, region: tuple[int, int, int, int] | None) -> None:
        """Limit the motion check to ``region`` (the tray's box, when it is marked), or
        look at the whole frame again with ``None``.

        The pictures seen so far were of another region, so the next frame becomes the
        reference scene, as after :meth:`reset`; the last reading is kept, so dice that
        merely lie where they were read are no new roll afterwards either.
        """
        if region == self.settings.region:
            return
        self.settings = dataclasses.replace(self.settings, region=region)
        self.reset()

    def follow_pace(self, seconds_per_frame: float | None) -> None:
        """Time the waits for frames coming every ``seconds_per_frame`` (as the camera
        gives them): a webcam slowed to a picture every few seconds in a dim room still
        says it gives 15 a second, and its frames were waited on as if it did.

        Only a pace off by more than :data:`RETIME_FACTOR` from the one timed for re-times
        them, and not during a movement, whose waits are already counting."""
        if self.fps is None or self.moving or not seconds_per_frame or seconds_per_frame <= 0:
            return
        fps = 1.0 / seconds_per_frame
        if max(fps / self.fps, self.fps / fps) <= RETIME_FACTOR:
            return
        self.settings = self.settings.timed_for(fps)
        self.fps = fps

    def reset(self) -> None:
        """Forget everything seen: the next frame becomes the reference scene."""
        self.frame_index = -1
        self.moving = False
        """True between a "moving" event and the settle (or the scene proving unchanged)."""
        self._prev: _Thumb | None = None
        self._anchor: _Thumb | None = None
        self._scene = None
        self._run = 0
        self._flickered = 0
        self._reads: list[Any] = []

    @property
    def _scene(self) -> _Thumb | None:
        """The picture of the tray as last reported (or as first seen)."""
        return self._scene_thumb

    @_scene.setter
    def _scene(self, small: _Thumb | None) -> None:
        self._scene_thumb = small
        self._touched: np.ndarray | None = None
        """The thumbnail's pixels that have differed from the scene in some frame since."""

    def _in_place_untouched(self, new: Any, old: Any) -> bool:
        """Whether some die of ``new`` lies where a die of ``old`` showed the same face,
        and nothing passed over that place since: a die picked up for a new throw and
        landing back where one lay has had its place emptied meanwhile."""
        news, olds = _places(new), _places(old)
        if news is None or olds is None or len(news) != len(olds) or self._touched is None:
            return False
        return any(_near(die, was) and not self._was_touched(was[1], was[2])
                   for die in news for was in olds)

    def _was_touched(self, centre: tuple[float, float], size: float) -> bool:
        """Whether the middle of a die's place (in frame pixels) changed since the scene."""
        assert self._touched is not None
        x0, y0, scale = self._view
        h, w = self._touched.shape
        cx, cy, r = (centre[0] - x0) * scale, (centre[1] - y0) * scale, max(1.0, 0.25 * size * scale)
        xs = slice(max(0, int(cx - r)), max(0, min(w, int(cx + r) + 1)))
        ys = slice(max(0, int(cy - r)), max(0, min(h, int(cy + r) + 1)))
        patch = self._touched[ys, xs]
        # Most of it: a die picked up leaves felt where it lay; one nudged a few pixels
        # by a die sliding into it changes only the edges of its pips.
        return patch.size == 0 or bool(patch.mean() > 0.6)

    def _changed(self, a: _Thumb, b: _Thumb) -> np.ndarray:
        # Scale b to a's brightness rather than both to a fixed level: that would
        # amplify the sensor noise of a dark tray along with everything else.
        diff = cv2.subtract(a[0], b[0] * np.float32(a[1] / b[1]))
        size = np.abs(diff)
        level = _level(size, self.settings.level)
        if level > self.settings.level:
            # Grainy: average each pixel's change with its neighbours' before judging it.
            # A die's movement spans several pixels of the thumbnail and survives; the
            # grain does not.
            size = np.abs(cv2.blur(diff, (3, 3)))
            level = _level(size, self.settings.level)
        return np.asarray(size > level)

    def _fraction(self, a: _Thumb, b: _Thumb) -> float:
        return float(np.count_nonzero(self._changed(a, b))) / a[0].size

    def _hand_in_view(self, mask: np.ndarray) -> bool:
        """A changed blob far bigger than a few dice, or a big one reaching in from the edge."""
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
        h, w = mask.shape
        for k in range(1, count):
            x, y, bw, bh, area = (int(v) for v in stats[k])
            if area >= self.settings.hand_fraction * mask.size:
                return True
            at_edge = x == 0 or y == 0 or x + bw >= w or y + bh >= h
            if at_edge and area >= self.settings.hand_edge_fraction * mask.size:
                return True
        return False

    def feed(self, frame: np.ndarray) -> list[WatchEvent]:
        """Look at the next frame; returns the events it causes (usually none)."""
        self.frame_index += 1
        cfg = self.settings
        view, corner = frame, (0, 0)
        if cfg.region is not None:
            x0, y0, x1, y1 = cfg.region
            frame_view = frame[max(0, y0) : y1, max(0, x0) : x1]
            if frame_view.size:
                view, corner = frame_view, (max(0, x0), max(0, y0))
        small = thumbnail(view, cfg.width)
        # Where the thumbnail lies in the frame: a die's place, read in frame pixels.
        self._view = (float(corner[0]), float(corner[1]), cfg.width / view.shape[1])
        if self._prev is not None and small[0].shape != self._prev[0].shape:
            # A picture of another shape (a replayed photo of another size, a camera
            # restarted at another resolution) cannot be compared with the last ones: it
            # becomes the reference, as after reset(), and the frames are still counted.
            index = self.frame_index
            self.reset()
            self.frame_index = index
        if self._prev is None or self._anchor is None or self._scene is None:
            # The first picture is the reference: whatever lies there is not a new roll.
            self._prev = self._anchor = self._scene = small
            return []
        if abs(small[1] / self._prev[1] - 1) > cfg.flicker and self._flickered < cfg.flicker_frames:
            # A global jump in brightness: a flicker, unless it lasts. Skip the frame.
            self._flickered += 1
            return []
        self._flickered = 0
        motion = self._fraction(small, self._prev)
        if self.moving or motion > cfg.motion_fraction:
            # What has differed from the scene during the movement: the places dice were
            # picked up from, or a die rolled over.
            since = self._changed(small, self._scene)
            self._touched = since if self._touched is None else self._touched | since
        # Comparing with the first still frame too catches a die creeping a pixel a frame
        # before it settles. Once settled it is not compared: over many still frames the
        # noise and light of the picture drift far enough to look like a creeping die.
        creep = self._fraction(small, self._anchor) if self._run and self.moving else 0.0
        self._prev = small
        if max(motion, creep) > cfg.motion_fraction:
            self._anchor, self._run = small, 0
            self._reads.clear()
            if not self.moving:
                self.moving = True
                return [WatchEvent("moving", self.frame_index)]
            return []
        self._run += 1
        if self._run == 1:
            # The first still frame is what creep is measured against: the last moving
            # frame would count the final small motion of the dice as creep and call a
            # settled tray moving again.
            self._anchor = small
        if not self.moving:
            return []
        # Read only the last `votes` frames before the settle, never while waiting on a hand.
        if self.read is not None and cfg.settle_frames - cfg.votes <= self._run < cfg.settle_frames:
            self._reads.append(self.read(frame))
        if self._run < cfg.settle_frames - 1:
            return []
        return self._settle(small, frame)

    def _settle(self, small: _Thumb, frame: np.ndarray) -> list[WatchEvent]:
        """The picture is still: decide whether it is a new roll."""
        assert self._scene is not None
        if self.read is not None and not self._reads:
            # The read of the still frames failed (its exception went to the caller):
            # this frame is read instead, or the throw would be lost without a word.
            # Should this read fail too, the next still frame tries again.
            self._reads.append(self.read(frame))
        mask = self._changed(small, self._scene)
        changed = float(np.count_nonzero(mask)) / mask.size
        cfg = self.settings
        waited = self._run - (cfg.settle_frames - 1)
        if changed > cfg.scene_fraction and self._hand_in_view(mask) and waited < cfg.obstructed_frames:
            return []  # something big is in the tray: wait for it to leave
        if changed <= cfg.scene_fraction and waited < cfg.quiet_frames:
            return []  # as before the movement: a pause, or a hand that came and went
        reading = _vote(self._reads) if self._reads else None
        self._reads = []
        self.moving = False
        same_values = reading is not None and self.last_reading is not None and (
            _values(reading) == _values(self.last_reading)
        )
        # Some dice lie where the last report had them, their places never emptied since.
        untouched = (reading is not None and self.last_reading is not None
                     and self._in_place_untouched(reading, self.last_reading))
        if reading is not None and _same_dice(reading, self._covered):
            # A hand (or anything) sat over the dice for so long that what it left in view
            # was reported; now it has gone and the dice lie as before: already scored,
            # and the report of the hidden dice is stale.
            self._scene, self.last_reading, self._covered = small, reading, None
            return [WatchEvent("uncovered", self.frame_index, reading)]
        if changed <= cfg.scene_fraction or waited >= cfg.obstructed_frames:
            # The scene is as it was (a hand came and went), or something has sat in view
            # for long: only a change in the read values makes it a new roll.
            if reading is None or self.last_reading is None or same_values:
                # The movement ends with nothing reported: what it touched is forgotten
                # (a hand that came and went must not count against the next one).
                self._touched = None
                if waited >= cfg.obstructed_frames and self.last_reading is None:
                    # Nothing was read before to compare with (an arm was in the first
                    # picture): take the tray as it is now for the scene, or every later
                    # throw is measured against a picture that never comes back, and
                    # waited on as a hand and dropped.
                    self._scene = small
                return []
        elif _is_empty(reading):
            # An empty tray: the dice were picked up for the next throw. Nothing to score.
            self._scene, self.last_reading = small, reading
            return []
        elif same_values and _same_places(reading, self.last_reading):
            # Every die shows the same face within half a die of where it lay: a hand
            # nudged them. Take the new picture as the reference, but it is no new roll.
            self._scene, self.last_reading = small, reading
            return []
        elif same_values and untouched:
            # The same faces, and some dice lie just where they lay, their places never
            # emptied meanwhile: the rest rolled on after the settle, too slowly for the
            # motion check (a die sliding to a stop). The same throw, once scored twice;
            # a new one picks up every die.
            self._scene, self.last_reading = small, reading
            return []
        self._covered = self.last_reading if waited >= cfg.obstructed_frames else None
        self._scene = small
        self.last_reading = reading
        return [WatchEvent("settled", self.frame_index, reading, rolled_on=untouched)]
