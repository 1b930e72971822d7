"""The die size, measured from the dice the reader reads surely as the family plays.

A calibration that knows how big a die looks lets the reader cut every die at that size
and measure the shapes of what changed in the tray (``vision.learned``): on simulated
trays marked as the control page marks them (outline and empty tray), reading with the
true die size scores 31 leaning dice, extra dice and misreads where reading without one
scores 77, and reads 184 trays of 300 entirely right instead of 141. Nobody should have to
measure a die in pixels for that, so the table measures it: the dice of each throw read
surely, without a die size, are collected, and once a few throws agree on a size it is
saved.

Dice of two sizes in one set must not be measured as one: the reader would cut the odd
ones at the wrong size and flag or miss a quarter to a third of them. So the size is
taken only when nearly every die agrees with it; a set whose dice differ is read, as
before, at each die's own size.

>>> evidence = DieSizeEvidence()
>>> for faces in ([40.0, 41.5, 39.0, 40.5], [40.2, 38.9, 41.0, 40.0], [39.5, 40.8, 40.0, 41.2]):
...     evidence = evidence.with_throw(faces)
>>> evidence.size()
40.1
>>> mixed = DieSizeEvidence()
>>> for faces in ([40.0, 41.0, 56.0], [39.0, 40.5, 57.0], [40.2, 39.8, 55.5], [41.0, 40.0, 56.5]):
...     mixed = mixed.with_throw(faces)
>>> mixed.size(), mixed.status()
(None, 'differ')
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import numpy as np

# Set on simulated trays (seeds 7000-7059, five kinds, read with outline and empty tray
# as the control page marks them; vision/training/README.md, eighteenth and nineteenth
# rounds) and checked on real photos. The measured size's own error costs nothing (the
# next throw reads as well with it as with the true size), an unmeasured set much, so
# the size is taken from 8 dice of 3 throws (first 12): on fresh simulated seeds, sets
# measured in four throws 165 -> 229 of 300, the next throw read entirely right 162 ->
# 175 (197 with the true size), wrong scores nobody is asked about 64 -> 52 (43); sets
# with one die 0.7 or 1.4 times the others' size still refused 80 of 80.
# The tolerance stays at 15 %, though the reader's own size for a die spreads about that
# much (0.87-1.17 of the truth for nine dice in ten), so a set of one size sometimes
# waits a few throws more: 18 % measured sooner on simulated trays, whose dice share
# one size exactly, but on real photos (an oblique webcam, near dice bigger; a box of
# many dice sets) it took sizes that the dice did not share, and dice cut at the wrong
# size are flagged: the next photos read 1.3-1.6 points worse, against 0.4-0.6 at 15 %.
MIN_THROWS = 3
MIN_DICE = 8
KEEP = 40  # the newest dice read surely that count
AGREE_WITHIN = 0.15  # a die agrees when its face is within this share of the size (either way)
AGREE_SHARE = 0.9  # ... and the size is taken when this share of the dice agrees


@dataclasses.dataclass(frozen=True)
class DieSizeEvidence:
    """The face sizes (in frame pixels) of the newest dice read surely, and how many
    throws they came from.

    >>> DieSizeEvidence().with_throw([30.0, 31.0]).status()
    'measuring'
    """

    faces: tuple[float, ...] = ()
    throws: int = 0

    def with_throw(self, faces: Iterable[float]) -> DieSizeEvidence:
        """This evidence with one more throw's dice read surely (a throw with none adds
        nothing).

        >>> DieSizeEvidence().with_throw([]).throws
        0
        """
        new = tuple(float(f) for f in faces if f > 0)
        if not new:
            return self
        return DieSizeEvidence((self.faces + new)[-KEEP:], self.throws + 1)

    def enough(self) -> bool:
        """Whether there are dice enough, from throws enough, to judge a size by."""
        return self.throws >= MIN_THROWS and len(self.faces) >= MIN_DICE

    def agreeing(self) -> float:
        """The share of the dice whose face lies within AGREE_WITHIN of the median face
        (0.0 with no dice).

        >>> DieSizeEvidence((40.0, 40.0, 60.0, 41.0), 2).agreeing()
        0.75
        """
        if not self.faces:
            return 0.0
        ratio = np.asarray(self.faces) / float(np.median(self.faces))
        return float(np.mean((ratio >= 1 - AGREE_WITHIN) & (ratio <= 1 / (1 - AGREE_WITHIN))))

    def size(self) -> float | None:
        """The die size the dice agree on (their median face, to a tenth of a pixel), or
        ``None`` while there are too few or they differ."""
        if not self.enough() or self.agreeing() < AGREE_SHARE:
            return None
        return round(float(np.median(self.faces)), 1)

    def status(self) -> str:
        """``"measuring"`` while there are too few dice, ``"differ"`` when there are
        enough and they do not agree on a size, ``"agreed"`` when they do."""
        if not self.enough():
            return "measuring"
        return "agreed" if self.size() is not None else "differ"


# A size goes stale when the family takes other dice (or the camera is raised or lowered
# without the tray being marked again): dice are still cut at the old size, and most are
# flagged or missed. Simulated trays read with a size 0.7 times the truth read 92 of 213
# flat dice right, at 1.4 times 131, against 208 at the truth. The detector's own size for
# the dice still follows them (vision.reader.Reading.seen_size): over a throw's dice it
# lies at 0.92-1.16 of a size that is right (5th-95th percentile, simulated trays; real
# photos, the size measured from the five before, 0.85-1.31 on the oblique webcam), at
# 1.30-1.64 with the size 0.7 times the truth and 0.67-0.88 at 1.4 times. Three throws
# in a row outside 0.85-1.25, on one side, and the size is measured again (fresh seeds,
# 80 sets of six throws: no size that was right forgotten; a size 0.7 times the truth
# forgotten in 80, 1.25 times in 37, 1.4 times in 76; a lower bound of 0.8 caught 4 and
# 57 of those, and forgot no size that was right either).
STALE_BELOW = 0.85
STALE_ABOVE = 1.25
STALE_THROWS = 3


@dataclasses.dataclass(frozen=True)
class SizeCheck:
    """How big the dice of the latest throws looked against the calibrated die size
    (each throw's median over its dice, as a share of the size).

    >>> check = SizeCheck()
    >>> for seen in (57.0, 60.5, 58.0):
    ...     check = check.with_throw(seen, 40.0)
    >>> check.stale()
    'bigger'
    >>> check.with_throw(41.0, 40.0).stale() is None
    True
    """

    ratios: tuple[float, ...] = ()

    def with_throw(self, seen: float | None, size: float) -> SizeCheck:
        """This check with one more throw whose dice looked ``seen`` pixels across, read at
        the calibrated ``size`` (a throw with no die, ``seen`` None, adds nothing)."""
        if seen is None or not size > 0:
            return self
        return SizeCheck((self.ratios + (seen / size,))[-STALE_THROWS:])

    def stale(self) -> str | None:
        """``"bigger"`` or ``"smaller"`` when the dice of the last STALE_THROWS throws all
        looked that much bigger or smaller than the size, else ``None``.

        >>> SizeCheck((0.7, 0.72, 1.3)).stale() is None
        True
        >>> SizeCheck((0.7, 0.72, 0.75)).stale()
        'smaller'
        """
        if len(self.ratios) < STALE_THROWS:
            return None
        if all(r > STALE_ABOVE for r in self.ratios):
            return "bigger"
        if all(r < STALE_BELOW for r in self.ratios):
            return "smaller"
        return None
