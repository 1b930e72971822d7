"""The reader's calibration at the table: what the control page teaches it.

Three things are set from the control page, and each is saved to the calibration file
(one atomic write) before the next throw is read:

- a die whose top face shows a picture instead of pips is flagged until its owner says
  which value the picture stands for. The :class:`Calibrator` reads the frames with the
  current calibration and keeps the last few, so that when a person picks a value for a
  flagged picture face it can cut that face out of the very frame it was read in;
- the tray's outline, tapped on the camera's picture: the reader then ignores what lies
  outside the tray and checks the dice by its wall for leaning, and the table's roll
  watcher looks only at the tray for movement;
- the empty tray's picture, taken with nothing in it: the reader then searches only
  where the tray changed (``vision.changed``), and ignores what the empty tray shows.
  Each time the tray is read empty it is compared with that picture: a tray pushed aside
  is followed (outline and picture move with it), and one changed otherwise (the camera
  turned or raised) is reported, for a person to mark it again.

And two things are learned as the family plays: the dice of every throw a person checked
on the control page are remembered with the values that person gave them
(``vision.known_dice``), so a die of the family's set that the reader was unsure of is
read surely once it has been seen and named; and the size of a die in the camera's
picture is measured from the dice read surely (``calibration.die_size``), so the reader
cuts every die at that size and measures the shapes of what changed in the tray.
"""
from __future__ import annotations

import dataclasses
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np

from calibration import Calibration, save_calibration
from calibration.calibration import MAX_TRAY_CORNERS, crosses_itself
from calibration.die_size import DieSizeEvidence, SizeCheck
from scorer.words import counted_dice

log = logging.getLogger("dicetray.calibration")
T = TypeVar("T")

# Frames of the latest readings kept in memory (3.7 MB each at 1280×960). A reading
# reaches the table as soon as the watcher has voted over its few still frames, and the
# table then keeps the frame of a waiting reading with a picture face itself.
KEEP_FRAMES = 4
# An outline marked again more than this much bigger or smaller (as a length) than the
# last: the camera was raised or lowered, and the die size measured before is stale.
RESCALED = 0.1
# A shift found against the empty tray's picture that the outline, marked again since,
# already made (its centre moved within this share of the shift's length of it): the
# person marked the tray where a knock had put it, and only the picture is out of date.
REMARKED_NEAR = 0.5
# A frame whose grey levels spread less than this shows no tray at all (the light switched
# off under a locked exposure, the lens covered, glare whiting it out): unlike the empty
# tray's picture, it would be taken for a camera turned or raised. The simulated trays'
# empty pictures spread 5.8-58 levels.
BLANK_SPREAD = 3.0


class TrayNotEmpty(ValueError):
    """The empty tray's picture was asked for while the reader sees dice in the tray."""


class Calibrator:
    """The reader's calibration at run time, and the frames of its recent readings.

    ``read(frame, calibration)`` is the reader (by default ``vision.reader.read_dice``);
    ``path`` is where the calibration is saved when a face is taught or the tray marked.
    """

    def __init__(self, path: str | Path, calibration: Calibration | None = None,
                 read: Callable[[np.ndarray, Calibration | None], Any] | None = None,
                 tray_note: str | None = None) -> None:
        self.path = Path(path)
        self.calibration = calibration
        self.tray_note = tray_note
        """Why the file's tray outline was left out (``load_calibration_but_tray``), until
        the tray is marked again: for the control page."""
        self._read = read
        self._looked_changed = False
        """Whether the last tray read empty looked unlike the empty tray's picture in a way
        a shift does not undo: the camera was turned or raised since the tray was marked."""
        self._outline_stale = False
        """Whether the view changed since the outline was marked (not marked again since):
        a new empty picture alone leaves the outline where the old view had the tray."""
        self._stale_picture: Any = None
        """The empty tray's picture the view was found changed against."""
        self.followed = 0
        """How many times the tray was found moved, and its outline and picture followed."""
        self._remarked: tuple[float, float] | None = None
        """How far marking the outline again moved its centre since the empty tray's
        picture was taken (``None``: not marked since, or found in register since)."""
        self.die_sizes = DieSizeEvidence()
        """The dice read surely since the die size was last forgotten (kept in memory only:
        a restart measures again), while the calibration has no die size."""
        self._sizes_in: tuple[int, int] | None = None
        """The size (width, height) of the frames :attr:`die_sizes` were seen in."""
        self.size_check = SizeCheck()
        """How big the dice of the latest throws looked against the calibrated die size."""
        self.stale_size: str | None = None
        """``"bigger"`` or ``"smaller"`` when the die size was forgotten because the dice
        kept looking so (another set of dice), until a size is measured again."""
        self._lock = threading.Lock()
        self._saving = threading.Lock()
        self._file_seen = _file_state(self.path)
        """The calibration file as it was read or last written: a file found otherwise
        (edited by hand while dicetray runs) is not written over."""
        # Keyed by id(reading); the reading is kept with its frame, so its id stays its own.
        self._frames: OrderedDict[int, tuple[Any, np.ndarray]] = OrderedDict()
        if calibration is not None and calibration.known_dice:
            self._prepare(calibration)

    @property
    def view_changed(self) -> bool:
        """Whether the camera seems turned or raised since the tray was marked, and the tray
        is to be marked (and taken empty) again: said until the outline is marked again."""
        return self._looked_changed or self._outline_stale

    def _saw_view(self, changed: bool) -> None:
        """The last tray read empty looked (un)like its picture; a change leaves the outline
        to be marked again."""
        self._looked_changed = changed
        cal = self.calibration
        if (changed and cal is not None and cal.tray is not None
                and not (cal.background is not None and cal.background_stale)):
            # (An outline marked again after the change was found against this very
            # picture is of the new view: only the picture waits to be taken again. The
            # file says so, as a restart between the two must not make it stale.)
            self._outline_stale, self._stale_picture = True, cal.background
        elif not changed and cal is not None and cal.background is self._stale_picture:
            # The picture of before matches again (the camera put back, or the light had
            # fooled the judgement): the outline is right as it is.
            self._outline_stale, self._stale_picture = False, None

    @staticmethod
    def _prepare(calibration: Calibration) -> None:
        """Work out what the remembered dice look like to the reader in the background:
        ~2 s for 600 dice here, ~10 s on a Pi, which the first unsure die must not wait."""
        from vision.known_dice import prepare

        threading.Thread(target=prepare, args=(calibration.known_dice,),
                         name="known-dice", daemon=True).start()

    def read(self, frame: np.ndarray) -> Any:
        """Read ``frame`` with the current calibration, and keep the frame for a while."""
        reading = self._reader()(frame, self.calibration)
        if not reading.dice:
            self._follow(frame)
        with self._lock:
            self._frames[id(reading)] = (reading, frame)
            while len(self._frames) > KEEP_FRAMES:
                self._frames.popitem(last=False)
        return reading

    def _follow(self, frame: np.ndarray) -> None:
        """``frame`` shows the tray empty: if the tray (or the camera) was bumped since its
        empty picture, move the outline by as much and keep this picture instead; if it
        changed otherwise, say so (:attr:`view_changed`)."""
        from vision.changed import tray_shift

        height, width = frame.shape[:2]
        base = self.calibration
        cal = base.for_frame(width, height) if base is not None else None
        if (base is None or cal is None or cal.background is None
                or cal.background.shape != frame.shape):
            self._looked_changed = False
            return
        if _blank(frame):
            return  # the light off or the lens covered: nothing to judge the view by
        shift = tray_shift(frame, cal.background,
                           cal.tray_bounds(width, height) if cal.tray is not None else None)
        self._saw_view(shift is None)
        if shift is None:
            return
        remarked, self._remarked = self._remarked, None
        if shift == (0.0, 0.0):
            return
        dx, dy = shift
        if remarked is not None and np.hypot(dx - remarked[0], dy - remarked[1]) <= (
                REMARKED_NEAR * np.hypot(dx, dy)):
            # A person marked the tray again where the knock put it (a knock not followed
            # then, dice lay in the tray): the shift is the picture's, not the outline's.
            self._repicture(frame, base)
            return
        tray = cal.tray and tuple((min(max(x + dx, 0.0), float(width)), min(max(y + dy, 0.0), float(height)))
                                  for x, y in cal.tray)
        try:
            moved = dataclasses.replace(cal, tray=tray, background=None)
        except ValueError:  # held to the picture, the moved outline encloses nothing
            self._saw_view(True)
            return
        # Read empty inside the old outline is not empty inside the moved one: dice thrown
        # by the moved wall must not become part of the empty tray's picture.
        if self._reader()(frame, moved).dice:
            self._saw_view(True)
            return
        try:
            if not self._change((width, height), since=base, tray=tray, background=frame.copy()):
                return  # the page marked or took the tray meanwhile: a person's word stands
        except OSError as exc:
            log.warning("the tray moved by (%.0f, %.0f) px but the calibration could not be "
                        "saved: %s", dx, dy, exc)
            return
        self.followed += 1
        log.info("the tray moved by (%.0f, %.0f) px: its outline and empty picture follow", dx, dy)

    def _repicture(self, frame: np.ndarray, base: Calibration) -> None:
        """Keep ``frame``, the tray read empty, as its picture, the outline left where it
        was marked (unless something else was saved since ``base``)."""
        height, width = frame.shape[:2]
        try:
            if self._change((width, height), since=base, background=frame.copy()):
                log.info("the tray lies where it was marked, not where its empty picture "
                         "showed it: the picture is taken again")
        except OSError as exc:
            log.warning("the empty tray's picture could not be taken again: %s", exc)

    def _reader(self) -> Callable[[np.ndarray, Calibration | None], Any]:
        if self._read is None:
            from vision.reader import read_dice

            self._read = read_dice
        return self._read

    def frame_of(self, reading: Any) -> np.ndarray | None:
        """The frame ``reading`` was read from, while it is still kept."""
        with self._lock:
            kept = self._frames.get(id(reading))
        return kept[1] if kept is not None and kept[0] is reading else None

    def set_tray(self, points: Any, image_size: tuple[int, int]) -> None:
        """Set the tray's outline to ``points`` (``[[x, y], ...]`` in the pixels of frames
        ``image_size`` = (width, height)), or forget it with ``None``, and save.

        An outline marked again at another scale (more than RESCALED from the old one's)
        means the camera was raised or lowered: the die size is forgotten with it (and the
        dice seen while measuring one), and measured again from the next throws.

        Raises ``ValueError`` naming the fault for an outline that cannot be a tray, and
        ``OSError`` when the file cannot be written; either way nothing changes.
        """
        if points is None:
            self._change(tray=None)
            self._outline_stale, self._stale_picture = False, None
            return
        tray = check_tray(points, image_size)
        self.tray_note = None
        old = self.calibration.for_frame(*image_size) if self.calibration is not None else None
        # Marked while the tray read empty looked unlike its picture (the camera turned):
        # it goes on looking so until the picture is taken again, and that must not make
        # this outline, of the new view, stale.
        picture_stale = (old is not None and old.background is not None
                         and (self._looked_changed or old.background_stale))
        if (old is not None and old.tray is not None
                and abs(_scale(old.tray, tray) - 1.0) > RESCALED):
            self._change(image_size, tray=tray, die_size_px=None, background_stale=picture_stale)
            self._measure_afresh()
        else:
            self._change(image_size, tray=tray, background_stale=picture_stale)
        self._outline_stale, self._stale_picture = False, None
        if old is not None and old.tray is not None and old.background is not None:
            moved = np.mean(tray, axis=0) - np.mean(old.tray, axis=0)
            before = self._remarked or (0.0, 0.0)
            self._remarked = (before[0] + float(moved[0]), before[1] + float(moved[1]))

    def take_empty_tray(self, frame: np.ndarray | None) -> None:
        """Keep ``frame`` as the empty tray's picture, or forget it with ``None``, and save.

        Raises :class:`TrayNotEmpty` when the reader sees anything like a die in it, and
        ``OSError`` when the file cannot be written; either way nothing changes.
        """
        if frame is None:
            self._change(background=None)
            self._looked_changed, self._remarked = False, None
            return
        # Read without the old picture, which would hide what lay in the tray then, and
        # without the die size: cut at a stale one (bigger dice now), dice go unseen.
        plain = (dataclasses.replace(self.calibration, background=None, die_size_px=None)
                 if self.calibration else None)
        seen = len(self._reader()(frame, plain).dice)
        if seen:
            raise TrayNotEmpty(f"the tray is not empty: the camera sees "
                               f"{counted_dice(seen)} in it; take "
                               f"{'it' if seen == 1 else 'them'} out and try again")
        height, width = frame.shape[:2]
        self._change((width, height), background=frame.copy())
        self._looked_changed, self._remarked = False, None

    def forget_pictures(self, index: int | None = None) -> None:
        """Forget the taught picture at ``index`` (named wrongly), or every one with
        ``None`` (the dice changed), and save.

        Raises ``ValueError`` naming the fault for an index that is not a taught picture,
        and ``OSError`` when the file cannot be written; either way nothing changes.
        """
        taught = self.calibration.picture_faces if self.calibration is not None else ()
        self._change(picture_faces=_without(taught, index, "taught picture", "none is taught"))

    def remember(self, frame: np.ndarray, dice: Sequence[Mapping[str, Any]],
                 throw: str | None = None) -> int:
        """Remember the dice of ``frame`` (as the table keeps them, with the values a
        person confirmed) and save; returns how many were remembered. Dice without a
        place in the frame (added by hand) or a value are left out. ``throw`` names the
        throw, so that :meth:`relearn` can correct them later.

        Raises ``OSError`` when the file cannot be written; then nothing changes.
        """
        from vision.known_dice import remember, source_of
        from vision.reader import face_of

        placed = [(i, (float(d["center"][0]), float(d["center"][1]), face_of(d["box"]),
                       int(d["value"])))
                  for i, d in enumerate(dice) if d.get("center") is not None
                  and d.get("box") is not None and d.get("value") is not None]
        if not placed:
            return 0
        known = self.calibration.known_dice if self.calibration is not None else ()
        sources = [source_of(throw, i) for i, _ in placed] if throw is not None else None
        # A crop is cut at the die's own size: it says nothing of the frame's geometry.
        self._change(known_dice=remember(known, frame, [p for _, p in placed], sources))
        return len(placed)

    def remembers(self, throw: str) -> bool:
        """Whether dice of throw ``throw`` are remembered."""
        from vision.known_dice import throw_of

        known = self.calibration.known_dice if self.calibration is not None else ()
        return any(k.source is not None and throw_of(k.source) == throw for k in known)

    def relearn(self, throw: str, values: Sequence[Any]) -> bool:
        """A person corrected throw ``throw`` afterwards (its dice now show ``values``, in
        order): its remembered dice take the new values, and the file is saved. Returns
        whether anything changed.

        Raises ``OSError`` when the file cannot be written; then nothing changes."""
        return self._relabel("known_dice", throw, values)

    def forget_known_dice(self, index: int | None = None) -> None:
        """Forget the remembered die at ``index`` (remembered with a wrong value), or every
        one with ``None`` (the family plays with other dice now), and save.

        Raises ``ValueError`` naming the fault for an index that is not a remembered die,
        and ``OSError`` when the file cannot be written; either way nothing changes."""
        known = self.calibration.known_dice if self.calibration is not None else ()
        self._change(known_dice=_without(known, index, "remembered die", "none is remembered"))

    def measure_dice(self, dice: Sequence[Mapping[str, Any]], image_size: tuple[int, int],
                     seen_size: float | None = None) -> None:
        """Add the dice of a settled throw (as the table keeps them, read in frames of
        ``image_size`` = (width, height)) that were read surely to the die size's evidence,
        while the calibration has no die size; once the evidence agrees on one
        (``calibration.die_size``) it is saved.

        With a die size, ``seen_size`` (``vision.reader.Reading.seen_size``) is how big the
        throw's dice looked: when they keep looking far bigger or smaller
        (``calibration.die_size.SizeCheck``), the size is forgotten and measured again.

        Raises ``OSError`` when the file cannot be written; then the calibration is
        unchanged and the evidence kept, so the next throw tries again.
        """
        from vision.reader import face_of

        cal = self.calibration.for_frame(*image_size) if self.calibration is not None else None
        if cal is not None and cal.die_size_px:
            # Dice are cut at that size then: their boxes tell nothing new, but the size
            # the detector saw them at tells whether the size still fits.
            check = self.size_check.with_throw(seen_size, cal.die_size_px)
            stale = check.stale()
            if stale is None:
                self.size_check = check
                return
            self._change(die_size_px=None)
            log.info("the dice of %d throws in a row looked %s than the %.1f px measured: "
                     "measuring them again", len(check.ratios), stale, cal.die_size_px)
            self._measure_afresh(stale)
            return
        if image_size != self._sizes_in:
            # Dice seen in frames of another size (the camera's resolution changed) were
            # so many other pixels across: a size made of both would fit neither.
            self.die_sizes, self._sizes_in = DieSizeEvidence(), image_size
        faces = [face_of(d["box"]) for d in dice
                 if d.get("box") is not None and d.get("value") is not None and not d.get("flagged")]
        self.die_sizes = self.die_sizes.with_throw(faces)
        size = self.die_sizes.size()
        if size is None:
            return
        self._change(image_size, die_size_px=size)
        self.stale_size = None
        log.info("the dice measure %.1f px across in the camera's picture (%d dice of %d throws)",
                 size, len(self.die_sizes.faces), self.die_sizes.throws)

    def forget_die_size(self) -> None:
        """Forget the die size (measured, or written by hand), and measure it again from
        the next throws: after changing dice or moving the camera.

        Raises ``OSError`` when the file cannot be written; then nothing changes.
        """
        self._change(die_size_px=None)
        self._measure_afresh()

    def _measure_afresh(self, stale: str | None = None) -> None:
        """Start measuring the die size over (it was just forgotten); ``stale`` says it was
        forgotten because the dice kept looking "bigger" or "smaller"."""
        self.die_sizes, self.size_check, self.stale_size = DieSizeEvidence(), SizeCheck(), stale

    def teach(self, frame: np.ndarray, die: Mapping[str, Any], value: int,
              source: str | None = None) -> None:
        """Add the top face of ``die`` (as the reader reported it, in ``frame``) to the
        calibration as a picture of ``value``, and save the calibration. ``source`` names
        the die (``vision.known_dice.source_of``), so that :meth:`relabel_pictures` can
        correct the picture when that throw is corrected.

        Raises ``OSError`` when the file cannot be written; then nothing changes.
        """
        from vision.pictures import teach_from_box

        face = dataclasses.replace(teach_from_box(frame, die["center"], die["box"], value),
                                   source=source)
        taught = self.calibration.picture_faces if self.calibration is not None else ()
        self._change(picture_faces=taught + (face,))

    def relabel_pictures(self, throw: str, values: Sequence[Any]) -> bool:
        """A person corrected throw ``throw`` afterwards (its dice now show ``values``, in
        order): a picture taught from one of its dice takes that die's new value (it was
        named wrongly), and the file is saved. Returns whether anything changed.

        Raises ``OSError`` when the file cannot be written; then nothing changes."""
        return self._relabel("picture_faces", throw, values)

    def _relabel(self, field: str, throw: str, values: Sequence[Any]) -> bool:
        """The calibration's ``field`` (remembered dice or taught pictures, each naming
        the die it came from) with the dice of ``throw`` given ``values``, saved."""
        from vision.known_dice import relabelled

        kept = getattr(self.calibration, field) if self.calibration is not None else ()
        new = relabelled(kept, _values_by_die(throw, values))
        if new is kept:
            return False
        changed: dict[str, Any] = {field: new}
        self._change(**changed)
        return True

    def _change(self, image_size: tuple[int, int] | None = None, *,
                since: Calibration | None = None, **fields: Any) -> bool:
        """Save the calibration with ``fields`` changed, then read with it; a file that
        cannot be written raises ``OSError`` and changes nothing.

        ``image_size`` is the size of the frames the new fields were taken from: what the
        calibration already holds is first brought to that size (``for_frame``), so an
        outline marked at another resolution is not taken for one in these pixels.

        ``since`` is the calibration the fields were worked out from, when that took a
        while outside the lock (the camera's thread following a bumped tray reads a frame
        first): if another change was saved meanwhile, nothing is changed and False is
        returned, so the older judgement is not written over the newer one."""
        with self._saving:   # the camera's thread follows a bumped tray; pages teach
            if since is not None and self.calibration is not since:
                return False
            new = self.calibration or Calibration()
            if image_size is not None:
                new = dataclasses.replace(new.for_frame(*image_size), image_size=image_size)
            if "background" in fields:
                # A new picture (or none) is of the view as it is: not stale.
                fields.setdefault("background_stale", False)
            new = dataclasses.replace(new, **fields)
            found = _file_state(self.path)
            if found is not None and found != self._file_seen:
                raise CalibrationFileChanged(
                    f"{self.path} was changed by another program since dicetray read it, "
                    "and was left as it is: restart dicetray to use it as it is now, or "
                    "move it away to keep what the control page sets")
            save_calibration(new, self.path)
            self._file_seen = _file_state(self.path)
            self.calibration = new
            return True


class CalibrationFileChanged(OSError):
    """The calibration file was changed by another program while dicetray ran: a change
    from the control page is not saved over it (it would undo the hand edit)."""


def _values_by_die(throw: str, values: Sequence[Any]) -> dict[str, int]:
    """The values a person gave the dice of throw ``throw``, by the die they were seen as
    (``vision.known_dice.source_of``); a die with no value (or none a die shows) is left
    out."""
    from vision.known_dice import source_of

    return {source_of(throw, i): v for i, v in enumerate(values)
            if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6}


def _blank(frame: np.ndarray) -> bool:
    """Whether ``frame`` (BGR) is all but one level: no picture of the tray."""
    grey = cv2.cvtColor(np.ascontiguousarray(frame[::8, ::8]), cv2.COLOR_BGR2GRAY)
    return float(grey.std()) < BLANK_SPREAD


def _file_state(path: Path) -> tuple[int, int, int] | None:
    """What tells a file's versions apart (its inode, size and time of change), or
    ``None`` when there is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _scale(old: Sequence[tuple[float, float]], new: Sequence[tuple[float, float]]) -> float:
    """How much bigger outline ``new`` is than ``old``, as a length (the square root of
    their areas' ratio).

    >>> _scale([(0, 0), (100, 0), (100, 50), (0, 50)], [(0, 0), (120, 0), (120, 60), (0, 60)])
    1.2
    """
    def area(points: Sequence[tuple[float, float]]) -> float:
        return abs(float(cv2.contourArea(np.asarray(points, dtype=np.float32))))

    before = area(old)
    return float(np.sqrt(area(new) / before)) if before > 0 else float("inf")


def _without(items: tuple[T, ...], index: int | None, what: str, none: str) -> tuple[T, ...]:
    """``items`` without the one at ``index``, or without any with ``None``; ``ValueError``
    naming ``what`` for an index that is not one of them.

    >>> _without((1, 2, 3), 1, "taught picture", "none is taught")
    (1, 3)
    >>> _without((), 0, "remembered die", "none is remembered")
    Traceback (most recent call last):
    ...
    ValueError: there is no remembered die 0: none is remembered
    """
    if index is None:
        return ()
    if not 0 <= index < len(items):
        raise ValueError(f"there is no {what} {index}: "
                         + (f"they are numbered 0 to {len(items) - 1}" if items else none))
    return items[:index] + items[index + 1:]


def check_tray(points: Any, image_size: tuple[int, int]) -> tuple[tuple[float, float], ...]:
    """``points`` as a tray outline in a frame of ``image_size``, or ``ValueError`` saying
    what is wrong with them.

    >>> check_tray([[0, 0], [640, 0], [640, 480]], (640, 480))
    ((0.0, 0.0), (640.0, 0.0), (640.0, 480.0))
    >>> check_tray([[0, 0], [10, 10]], (640, 480))
    Traceback (most recent call last):
    ...
    ValueError: a tray outline needs at least 3 corners, not 2
    """
    if not isinstance(points, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v)
                for v in p) for p in points):
        raise ValueError(f"a tray outline is a list of [x, y] corners, not {points!r}")
    if len(points) < 3:
        raise ValueError(f"a tray outline needs at least 3 corners, not {len(points)}")
    if len(points) > MAX_TRAY_CORNERS:
        raise ValueError(f"a tray outline has at most {MAX_TRAY_CORNERS} corners, not "
                         f"{len(points)}: tap only the tray's corners")
    w, h = image_size
    for i, (x, y) in enumerate(points):
        if not (0 <= x <= w and 0 <= y <= h):
            raise ValueError(f"corner {i + 1} ({x}, {y}) lies outside the {w}×{h} picture")
    # Crossing first: corners tapped out of order (the top two, then the bottom two left
    # to right) make a bow tie whose halves cancel out, which is no small tray.
    if crosses_itself(points):
        raise ValueError("the outline crosses itself: tap the corners in order round the tray")
    corners = np.asarray(points, np.float32)
    if abs(float(cv2.contourArea(corners))) < 0.01 * w * h:
        raise ValueError("the corners enclose almost nothing (under 1 % of the picture): "
                         "tap them in order round the tray")
    return tuple((float(x), float(y)) for x, y in points)
