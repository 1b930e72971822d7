"""How grainy a frame is, and what the reader does with a grainy one.

A camera in a dim room turns its gain up, and :mod:`vision.exposure` brightens what is
still dim: both make the sensor's noise grains as big as a pip. The nets were trained on
clean photos with a little white noise (the shared ones measure under 1 grey level of
noise, the simulated tray 2-4) and read bigger grains as pips: byler-d6's train photos
with noise of 24 levels added read 126 dice that are not there and 14 wrong values
surely, against 4 and 3 as they are.

Grain comes in two kinds, and the frame's :class:`Grain` measures both (about 0.5 ms):

- **fine grain**, a pixel's own noise, as a camera's raw frames carry it
  (:func:`noise_level`);
- **coarse grain**, blotches a few pixels across (:func:`coarse_level`). A webcam's JPEG
  (an MJPEG stream) throws the finest grain away and keeps these, and a camera's own
  noise reduction leaves them. The nets read them as pips at a far lower strength:
  noise of 16 levels saved as JPEG at quality 75 measures only 7 as fine grain, yet
  byler-d6's train photos so changed read 75 dice that are not there.

A frame with either kind at its first level is smoothed before it is read
(:meth:`Grain.blur`), which takes away most of the dice that are not there; at the second
level every die read in it is flagged for a person too (:func:`flag_noisy`), as even
smoothed such frames are misread three times as often. A frame below them is read exactly
as before.

The levels were set on dice 31 px across. Where the dice are four times that or more (a
phone's photo of a tray), the nets see the grain averaged over the pixels each die is
shrunk from, and the grain is judged on the frame shrunk accordingly (:func:`judged_at`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.reader import DieRead, make_die

# Both are measured on the frame's brightness (its grey picture), which is what the nets
# are misled by: noise of 24 levels saved as JPEG keeps the brightness grain of white noise
# of 24 levels on each colour (16) and none of its colour grain, and reads as badly (14
# misreads, 80 dice that are not there, against 14 and 126). White noise of s levels on
# each colour is s * 0.669 in brightness.
#
# Fine grain, in grey levels of brightness. Set on the train split (byler-d6's 1213 dice,
# its small pips the first to suffer) and on simulated trays other than the bench's, with
# white noise added to each colour (confident misreads / dice that are not there, not
# smoothed -> smoothed): as they are 3 / 4; at 12 levels 4 / 4 -> 4 / 4; at 16 4 / 8 ->
# 5 / 4; at 20 8 / 42 -> 5 / 3; at 24 14 / 126 -> 9 / 4 (brightness 8, 10.7, 13.4, 16).
# Smoothing starts where it takes away misreads, not only dice a person would tap away
# (at 16 it was first set: the check photos then read one more misread at 16, as the train
# photos had); every die is flagged where even smoothed frames misread three times as
# often. Grain a camera has compressed hurts sooner than white noise of its level, so
# smoothing starts halfway between white noise of 16 on each colour (10.7, where it costs a
# misread) and noise of 16 saved as JPEG 90 (12.0: 8 / 58 as read -> 2 / 4 smoothed; white
# noise of 18, 12.1: 6 / 15 -> 7 / 3). The simulated tray's own frames measure 2-4 and the
# check photos at a third of their light with a dark frame's noise (vision.bench) 3-4:
# neither is touched.
QUIET_FROM = 11.4
NOISY = 16.0
# Those levels were set on white noise of its own on each colour, most of it colour grain,
# which the nets read through. A camera's processing and its JPEG leave brightness grain
# with hardly any colour grain (a colour share of 0.02-0.04, against 0.95), and that misleads
# the nets far sooner: the same white noise put on the brightness alone (train split,
# misreads / dice that are not there, as read -> smoothed): at 6 4 / 5; at 8 3 / 20 ->
# 4 / 6; at 9.4 3 / 39; at 10.7 5 / 70 -> 4 / 7; at 12 5 / 79 -> 3 / 8; noise 14 at JPEG 90
# (10.6) 7 / 34 -> 2 / 5. By the same rule, such grain is smoothed from halfway between 8
# (where smoothing adds a misread) and 10.6 (where it takes five away).
PLAIN_QUIET_FROM = 9.3
# Grain whose colour grain is under this share of its brightness grain is such grain.
PLAIN_SHARE = 0.5
# A frame with fine grain is blurred with a Gaussian of its level / QUIET_PER_SIGMA px
# (kept within QUIET_SIGMA): a blur of s px leaves white noise about 1 / (2 sqrt(pi) s)
# as strong, so 13.4 brings any level down to about 4, which the nets read through (first
# set with smoothing from 13.4, and kept).
QUIET_PER_SIGMA = 13.4
QUIET_SIGMA = (0.4, 1.5)
# Coarse grain, in grey levels of brightness at a quarter of the frame's size, beyond what
# its fine grain would leave there. Set on byler-d6's train split with noise saved as
# JPEG (as a webcam's stream gives it) and noise blurred (as a camera's noise reduction
# leaves it): (coarse level, median: confident misreads / dice that are not there as read
# -> smoothed with a blur of COARSE_SIGMA px): 8 levels at JPEG 75 (5.9): 4 / 4; 10 at
# JPEG 75 (7.2): 5 / 16 -> 3 / 3; 12 at JPEG 75 (8.5): 7 / 29 -> 3 / 3; 12 at JPEG 50
# (8.8): 13 / 35 -> 8 / 3; 8 blurred 0.7 px (9.6): 7 / 16 -> 4 / 3; 16 at JPEG 75 (10.3):
# 6 / 75 -> 5 / 5; 8 blurred 1 px (10.9): 6 / 45 -> 5 / 5; 16 at JPEG 50 (11.4): 12 / 104
# -> 10 / 4; 12 blurred 1 px (16.1): 11 / 148 -> 13 / 21. The same rules as for fine
# grain, each level halfway between the two frames it parts: smoothing from where it takes
# misreads away (between 5.9 and 7.2), every die held from where smoothed frames still
# read three times clean photos' misreads (between 10.9 and 11.4). Clean photos measure
# at most 3 (4 saved as JPEG 40), simulated trays 5, white noise of 16 levels on each
# colour 6.3.
COARSE_QUIET_FROM = 6.5
COARSE_NOISY = 11.2
# A blur of 1 px: 1.5 and 2 lose small dice (25 and 129 missed at 16 levels saved as JPEG
# 75, against 7), a 3x3 median leaves dice that are not there (21, against 5).
COARSE_SIGMA = 1.0
# The fine grain is measured on this many strips of three rows, spread down the frame.
STRIPS = 24
# The side (px) of byler-d6's dice's top faces at the photos' own size, where every level
# above was set. The nets read a die shrunk to a crop of 32 px (vision.crops), so bigger
# dice reach them with their grain averaged: a frame whose dice are SHRINK_CREDIT * k
# times as big has its grain judged on the frame shrunk k times (see judged_at). Judged at
# the dice's full size (a credit of 1), byler-d6's train photos at three times their size
# with a webcam's grain (noise 24 at JPEG 75, every die held as they are) read 6
# confident misreads against 3 clean: grain just under the levels misleads the nets more
# on big dice than on small. With half the credit, every case tried at four and six
# times the size read at most one confident misread more than the clean enlarged photos
# (vision/training/README.md, twenty-ninth round).
REF_FACE = 31.0
SHRINK_CREDIT = 2.0

# Immerkaer's kernel: the difference of two Laplacians, blind to a frame's flat parts and
# to its straight gradients, so what it answers is mostly the noise. Its response to white
# noise of sigma s has standard deviation 6 s: mean absolute value 6 s sqrt(2 / pi), median
# absolute value 6 s * 0.6745.
_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
_MEAN_ABS = 6.0 * math.sqrt(2.0 / math.pi)
_MEDIAN_ABS = 6.0 * 0.6745


@dataclass(frozen=True)
class Grain:
    """A frame's grain, in grey levels: ``fine`` at the pixel's own scale and ``coarse``
    in blotches a few pixels across, both of its brightness, and ``colour``, the fine
    grain of its two colour-difference channels (:attr:`plain` when there is little);
    measured on the frame shrunk ``shrink`` times (:func:`judged_at`; 1: as it is).

    >>> Grain(fine=2.0, coarse=3.0).blur, Grain(fine=2.0, coarse=3.0).held
    (0.0, False)
    >>> Grain(fine=10.0, coarse=0.0, colour=9.5).blur  # white noise on each colour
    0.0
    >>> round(Grain(fine=10.0, coarse=0.0, colour=0.2).blur, 2)  # as a camera gives it
    0.75
    >>> round(Grain(fine=20.0, coarse=3.0).blur, 2), Grain(fine=20.0, coarse=3.0).held
    (1.49, True)
    >>> Grain(fine=2.0, coarse=9.0).blur, Grain(fine=2.0, coarse=9.0).held
    (1.0, False)
    >>> Grain(fine=2.0, coarse=9.0, shrink=3).blur  # in the frame's own pixels
    3.0
    """

    fine: float
    coarse: float
    colour: float = 0.0
    shrink: int = 1

    @property
    def plain(self) -> bool:
        """Whether the fine grain is of brightness alone, as a camera gives it, with
        hardly any colour grain (which misleads the nets sooner)."""
        return self.colour < PLAIN_SHARE * self.fine

    @property
    def blur(self) -> float:
        """The Gaussian blur (px of the frame as it is) the frame needs before it is read;
        0 for none."""
        sigma = 0.0
        if self.fine >= (PLAIN_QUIET_FROM if self.plain else QUIET_FROM):
            low, high = QUIET_SIGMA
            sigma = min(high, max(low, self.fine / QUIET_PER_SIGMA))
        if self.coarse >= COARSE_QUIET_FROM:
            sigma = max(sigma, COARSE_SIGMA)
        return sigma * self.shrink

    @property
    def calls_for_anything(self) -> bool:
        """Whether the frame is to be smoothed or held (else it is read as it is)."""
        return self.blur > 0 or self.held

    @property
    def held(self) -> bool:
        """Whether every die read in the frame waits for a person."""
        return self.fine >= NOISY or self.coarse >= COARSE_NOISY


def grain(image: np.ndarray) -> Grain:
    """The grain of a BGR frame (:func:`noise_level` and :func:`coarse_level`).

    >>> flat = np.full((240, 320, 3), 120, np.uint8)
    >>> grain(flat)
    Grain(fine=0.0, coarse=0.0, colour=0.0, shrink=1)
    """
    grey = _grey(image)
    response = _fine_response(grey)
    return Grain(_fine(response), _coarse(grey, response), _colour(image))


def shrink_for(face: float | None) -> int:
    """How many times a frame whose dice's top faces are ``face`` px is shrunk before its
    grain is judged: the whole times the dice are :data:`SHRINK_CREDIT` times as big as
    :data:`REF_FACE`, and 1 (not at all) for dice under twice that, or when the size is
    not known.

    >>> shrink_for(31.0), shrink_for(86.0), shrink_for(124.0), shrink_for(200.0)
    (1, 1, 2, 3)
    >>> shrink_for(None)
    1
    """
    if face is None or not face > 0:
        return 1
    return max(1, int(face // (SHRINK_CREDIT * REF_FACE)))


def judged_at(image: np.ndarray, face: float | None, as_is: Grain | None = None) -> Grain:
    """The grain of a BGR frame whose dice's top faces are ``face`` px, judged nearer to
    where the nets see it: on the frame shrunk :func:`shrink_for` times (``shrink`` x
    ``shrink`` means), as the nets read every die shrunk to 32 px. A phone's photo of a
    tray shows dice of 150 px and more, and grain that would mislead the nets on
    byler-d6's 31 px dice is averaged away on those. ``as_is``, the frame's :func:`grain`
    when already measured, is returned for dice too small to be judged otherwise.

    >>> rng = np.random.default_rng(0)
    >>> flat = np.full((480, 640), 120.0)
    >>> grainy = np.clip(flat + rng.normal(0.0, 20.0, flat.shape), 0, 255).astype(np.uint8)
    >>> frame = cv2.cvtColor(grainy, cv2.COLOR_GRAY2BGR)
    >>> grain(frame).held, judged_at(frame, 86.0).held, judged_at(frame, 124.0).held
    (True, True, False)
    >>> judged_at(frame, 124.0).shrink
    2
    """
    k = shrink_for(face)
    if k < 2:
        return as_is if as_is is not None else grain(image)
    h, w = (image.shape[0] // k) * k, (image.shape[1] // k) * k
    if h < 3 * k or w < 3 * k:
        return as_is if as_is is not None else grain(image)
    small = cv2.resize(image[:h, :w], (w // k, h // k), interpolation=cv2.INTER_AREA)
    measured = grain(small)
    return Grain(measured.fine, measured.coarse, measured.colour, k)


def noise_level(image: np.ndarray) -> float:
    """The fine grain of a BGR frame's brightness, in grey levels (J. Immerkaer, "Fast
    noise variance estimation", 1996: the mean absolute response to his kernel), from
    :data:`STRIPS` strips of three rows.

    >>> flat = np.full((240, 320, 3), 120, np.uint8)
    >>> noise_level(flat)
    0.0
    >>> grains = np.random.default_rng(0).normal(0.0, 10.0, flat.shape[:2])[..., None]
    >>> round(noise_level(np.clip(flat + grains, 0, 255).astype(np.uint8)))
    10
    """
    return _fine(_fine_response(_grey(image)))


def coarse_level(image: np.ndarray) -> float:
    """The coarse grain of a BGR frame's brightness, in grey levels: the noise measured at
    a quarter of its size (each pixel the mean of 4x4), times 4 to undo the mean's quieting
    of white noise, less what the frame's fine grain explains. Measured with the median of
    Immerkaer's response, not its mean: at a quarter of the size a frame's edges and
    texture answer his kernel much more (clean photos measure up to 7.6 so, against 3),
    and the median looks past them to the flat felt.

    >>> rng = np.random.default_rng(0)
    >>> white = np.clip(120 + rng.normal(0.0, 10.0, (480, 640)), 0, 255).astype(np.uint8)
    >>> coarse_level(cv2.cvtColor(white, cv2.COLOR_GRAY2BGR)) < 5
    True
    >>> blotches = cv2.resize(rng.normal(0.0, 10.0, (120, 160)), (640, 480),
    ...                       interpolation=cv2.INTER_NEAREST)
    >>> blotchy = np.clip(120 + blotches, 0, 255).astype(np.uint8)
    >>> coarse_level(cv2.cvtColor(blotchy, cv2.COLOR_GRAY2BGR)) > 20
    True
    """
    grey = _grey(image)
    return _coarse(grey, _fine_response(grey))


def quieted(image: np.ndarray, grain: Grain) -> np.ndarray:
    """``image``, whose grain is ``grain``, blurred so the grains no longer look like pips
    (unchanged if it needs no blur).

    >>> frame = np.zeros((8, 8, 3), np.uint8); frame[4, 4] = 255
    >>> int(quieted(frame, Grain(fine=20.0, coarse=0.0))[4, 4, 0]) < 255
    True
    """
    sigma = grain.blur
    return cv2.GaussianBlur(image, (0, 0), sigma) if sigma > 0 else image


def flag_noisy(dice: list[DieRead]) -> list[DieRead]:
    """``dice`` read in a noisy frame, each one a person has not been asked about yet
    flagged as such; its value and confidence are kept as the best guess."""
    return [d if d.flagged else make_die(d.value, d.center, d.box, d.confidence, noisy=True)
            for d in dice]


def _grey(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.shape[2] == 3 else image[..., 0]


def _strips(image: np.ndarray) -> np.ndarray:
    """:data:`STRIPS` strips of three rows, spread down ``image``, one after another."""
    h = image.shape[0]
    starts = np.linspace(0, h - 3, min(STRIPS, h - 2)).astype(np.intp)
    return np.asarray(image[(starts[:, None] + np.arange(3)).ravel()])


def _strip_response(rows: np.ndarray) -> np.ndarray:
    """The absolute response to Immerkaer's kernel along the middle row of each strip of
    three ``rows`` (one channel, at least three pixels wide)."""
    return np.abs(cv2.filter2D(rows, cv2.CV_16S, _KERNEL)[1::3, 1:-1]).ravel()


def _fine_response(grey: np.ndarray) -> np.ndarray:
    """The response of the strips of ``grey`` (see :func:`_strip_response`)."""
    if grey.shape[0] < 3 or grey.shape[1] < 3:
        return np.zeros(1, np.int16)
    return _strip_response(_strips(grey))


def _colour(image: np.ndarray) -> float:
    """The fine grain of a BGR frame's two colour-difference channels (Cr and Cb, as
    JPEG keeps them), in the same units as its brightness grain, on the same strips."""
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] < 3 or image.shape[1] < 3:
        return 0.0
    rows = cv2.cvtColor(_strips(image), cv2.COLOR_BGR2YCrCb)
    levels = [_fine(_strip_response(np.ascontiguousarray(rows[..., c]))) for c in (1, 2)]
    return math.sqrt((levels[0] ** 2 + levels[1] ** 2) / 2.0)


def _fine(response: np.ndarray) -> float:
    return float(response.mean()) / _MEAN_ABS


def _coarse(grey: np.ndarray, fine_response: np.ndarray) -> float:
    h, w = (grey.shape[0] // 4) * 4, (grey.shape[1] // 4) * 4
    if h < 12 or w < 12:
        return 0.0
    small = cv2.resize(grey[:h, :w].astype(np.float32), (w // 4, h // 4),
                       interpolation=cv2.INTER_AREA)
    response = np.abs(cv2.filter2D(small, -1, _KERNEL)[1:-1, 1:-1]).ravel()
    # Each pixel of ``small`` is a mean of 16 whole grey levels and the kernel's weights
    # are whole, so 16 times the response is whole too (rint only guards the float sums).
    sixteenths = np.rint(response * 16.0).astype(np.intp)
    at_quarter = 4.0 * (_median(sixteenths) / 16.0) / _MEDIAN_ABS
    fine = _median(np.abs(fine_response).astype(np.intp)) / _MEDIAN_ABS
    return math.sqrt(max(0.0, at_quarter * at_quarter - fine * fine))


def _median(values: np.ndarray) -> int:
    """The value at index ``size // 2`` of the sorted non-negative whole ``values`` (the
    upper median, as one np.partition finds it), from their histogram: a frame's
    responses are at most 4080 grey levels (65280 sixteenths at a quarter of the size),
    and counting them takes a fifth of the time of a partition (np.median, which sorts a
    copy, ten times that).

    >>> _median(np.array([5, 1, 4, 1, 3]))
    3
    >>> _median(np.array([2, 0, 7, 7]))
    7
    """
    below_or_at = np.cumsum(np.bincount(values))
    return int(np.searchsorted(below_or_at, values.size // 2, side="right"))
