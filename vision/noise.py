"""How grainy a frame is, and what the reader does with a grainy one.

A camera in a dim room turns its gain up, and :mod:`vision.exposure` brightens what is
still dim: both make the sensor's noise grains as big as a pip. The nets were trained on
clean photos (the shared ones measure under 1 grey level of noise, the simulated tray 3-6)
and read such grains as pips: byler-d6's train photos with noise of 24 levels added read
126 dice that are not there and 14 wrong values surely, against 4 and 3 as they are.

So the reader measures the frame's noise first (:func:`noise_level`, about 0.2 ms). A frame
at :data:`QUIET_FROM` or more is smoothed before it is read (:func:`quieted`), which takes
away most of the dice that are not there; at :data:`NOISY` or more every die read in it is
flagged for a person too (:func:`flag_noisy`), as even smoothed such frames are misread
three times as often. A frame below both is read exactly as before.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.reader import DieRead, make_die

# The frame's noise, in grey levels (a standard deviation). Set on the train split
# (byler-d6's 1213 dice, its small pips the first to suffer) and on simulated trays other
# than the bench's, with noise added to the photos (confident misreads / dice that are not
# there, not smoothed -> smoothed): as they are 3 / 4; at 12 levels 4 / 4 -> 4 / 4; at 16
# 4 / 8 -> 5 / 4; at 20 8 / 42 -> 5 / 3; at 24 14 / 126 -> 9 / 4. The simulated trays, whose
# big pips read through noise, read as well smoothed as not up to 16 and better beyond
# (24: 38 of 40 against 31). Smoothing starts where it takes away misreads, not only
# dice a person would tap away (at 16 it was first set: the check photos then read one
# more misread at 16, as the train photos had); every die is flagged where even smoothed
# frames misread three times as often. The simulated tray's own frames measure 3-6 and the
# check photos at a third of their light with a dark frame's noise (vision.bench) 6-7:
# neither is touched.
QUIET_FROM = 20.0
NOISY = 24.0
# A noisy frame is blurred with a Gaussian of its noise level / QUIET_PER_SIGMA px
# (kept within QUIET_SIGMA): a blur of s px leaves white noise about 1 / (2 sqrt(pi) s)
# as strong, so 20 brings any level down to about 6, which the nets read through.
QUIET_PER_SIGMA = 20.0
QUIET_SIGMA = (0.4, 1.5)
# The noise is measured on this many strips of three rows, spread down the frame.
STRIPS = 24

# Immerkaer's kernel: the difference of two Laplacians, blind to a frame's flat parts and
# to its straight gradients, so what it answers is mostly the noise. Its response to white
# noise of sigma s has mean absolute value 6 s sqrt(2 / pi).
_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)


def noise_level(image: np.ndarray) -> float:
    """The noise of a BGR frame's green channel, in grey levels (J. Immerkaer, "Fast
    noise variance estimation", 1996), from :data:`STRIPS` strips of three rows.

    >>> flat = np.full((240, 320, 3), 120, np.uint8)
    >>> noise_level(flat)
    0.0
    >>> grains = np.random.default_rng(0).normal(0.0, 10.0, flat.shape)
    >>> round(noise_level(np.clip(flat + grains, 0, 255).astype(np.uint8)))
    10
    """
    green = image[..., 1]
    h = green.shape[0]
    if h < 3 or green.shape[1] < 3:
        return 0.0
    starts = np.linspace(0, h - 3, min(STRIPS, h - 2)).astype(np.intp)
    rows = green[(starts[:, None] + np.arange(3)).ravel()]  # strip after strip
    response = cv2.filter2D(rows, cv2.CV_16S, _KERNEL)[1::3, 1:-1]  # each strip's middle row
    return float(math.sqrt(math.pi / 2) * float(np.abs(response).mean()) / 6.0)


def quieted(image: np.ndarray, level: float) -> np.ndarray:
    """``image``, whose noise is ``level``, blurred so the grains no longer look like pips.

    >>> frame = np.zeros((8, 8, 3), np.uint8); frame[4, 4] = 255
    >>> int(quieted(frame, 20.0)[4, 4, 0]) < 255
    True
    """
    low, high = QUIET_SIGMA
    sigma = min(high, max(low, level / QUIET_PER_SIGMA))
    return cv2.GaussianBlur(image, (0, 0), sigma)


def flag_noisy(dice: list[DieRead]) -> list[DieRead]:
    """``dice`` read in a noisy frame, each one a person has not been asked about yet
    flagged as such; its value and confidence are kept as the best guess."""
    return [d if d.flagged else make_die(d.value, d.center, d.box, d.confidence, noisy=True)
            for d in dice]
