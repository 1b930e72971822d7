"""The learned reader: find dice with the detector, read each with the classifier."""
from __future__ import annotations

import dataclasses
# statistics.median, not np.median: the same value (the middle one, or the mean of the
# two middle ones) of the few floats a read takes medians of, where numpy's costs about
# 20 microseconds a call on a handful of values (more after a network has run).
from statistics import median

import cv2
import numpy as np

from vision.calibration_data import Calibration, KnownDie
from vision import changed, classify, detect, known_dice, pictures
from vision.reader import BOX_HALF, REASON_LOW, REASON_TILTED, THRESHOLD, DieRead, make_die

SIZE_RANGE = (0.5, 1.8)  # plausible die size relative to the calibrated one
# With an empty-tray picture in the calibration, a candidate whose surroundings (the
# die's box) look as they did in the empty tray is part of the tray (a printed die, a
# logo, a hole), not a die. On simulated trays every real die's box has at least 7.5 %
# of its pixels more than BACKGROUND_LEVEL grey levels from the empty tray (outline,
# shadow, pips; 200 dice); below BACKGROUND_SHARE it is dropped.
BACKGROUND_LEVEL = 25
BACKGROUND_SHARE = 0.03
# Taught faces are looked for only where the classifier sees some picture, so a
# low-confidence pip face is never turned into a taught value by a chance match.
PICTURE_HINT = 0.2
VIEWS = 1  # classifier views per die (2 adds a mirrored view: slower, more cautious)
# A die the first classifier reads below the threshold gets a second look by a deeper
# model on a larger crop (classify.classify_closely), whose reading replaces the first.
# Judged on held-out train photos (models trained without them, see
# vision/training/README.md): byler-d6 87.3 % -> 91.1 % of dice right, matteop65
# 92.4 % -> 92.8 %; about half a second look per photo, cheaper than the four turned
# views it replaces (85.7 % there).
SECOND_LOOK = True
# A die the second look reads below the threshold too gets a third look, by the second
# look's net fine-tuned on 56 px crops (classify.classify_third): a die about 40 px
# across in the frame is read from about its own pixels, where the 40 px crop has about
# half as many; smoky and translucent dice with small red pips gain most. Its reading
# replaces the second's. Judged on held-out train photos by criteria written before
# training (vision/training/README.md, twelfth round): byler-d6 299 -> 303 of 315 dice
# right, matteop65 221 -> 224 of 237, the same misreads, leaning dice flagged as before,
# 0.4 third looks a photo, +0.24 ms median a byler-d6 read. Then on the check split
# once: byler-d6 95.6 -> 97.1 %, matteop65 as before.
THIRD_LOOK = True
# A die every look read as a value, but none surely, is read surely when the fourth look
# (classify.classify_fourth: the first look's net, trained with marbled synthetic dice
# with pipped sides and with simulated leaning dice as well) is at least THRESHOLD sure
# of the same value. It never names a value the others did not read: it only confirms.
# Trained on one shared folder and read on the other (a set of dice never seen), such a
# net reads more of the unseen dice than the first look does, but costs the known sets'
# dice as a first look; as a confirmation of unsure reads it costs them nothing.
# Trained without leaning dice (twenty-second round) it confirmed a leaning die's unsure
# top face as readily as a flat die's, and needed a gate: the second look's "tilted"
# below 0.02. Shown leaning dice (twenty-third round) it needs none. By criteria written
# before: on fresh simulated trays it read the same trays right as the gated net and
# flagged as many leaning dice (63 of 85; the committed nets 50 of 76 against 49); with
# nets trained on matteop65 alone, byler-d6 read 509 of 1213 dice right with 1 confident
# misread (the gated net: 510 and 2; the gate on this net: 499 and 1). See
# vision/training/README.md, twenty-third round.
FOURTH_LOOK = True
# The dice that get it: those the first look reads below this. It is kept apart from the
# flagging threshold (vision.reader.THRESHOLD) because where the small net is sure the
# deeper one often is less so (sending it more dice read fewer right; see the notes).
SECOND_LOOK_BELOW = 0.85
# A candidate the first look calls "not a die" below NOT_DIE_SECOND gets the second look
# too, and its reading replaces the first as for an unsure value: the small net sees a
# die the detector sized too small (a crop cut tight round two or three pips) as "not a
# die" with little conviction, where the deeper net, on its larger crop, reads the value.
# Judged on held-out train photos (models trained without them) by criteria written
# before the first run (vision/training/README.md, thirteenth round): byler-d6 303 of 315
# dice either way, matteop65 224 -> 226 of 237, the same misreads and extra dice, the
# simulated trays other than the bench's as before; 0.13 more closer looks a byler-d6
# photo, no slower to measure. (0.5 did the same on the photos.) The idea came from the
# check split's one missed byler-d6 die, so the check split is no fresh test of it.
NOT_DIE_SECOND = 0.7
# A die the first look gives "tilted" at least TILT_HINT may be leaning on the wall: a
# closer look at a leaning die can read its top face confidently (3 of 27 simulated
# leaning dice once were). Its closer reading is taken only if the closer look, too,
# gives "tilted" below CLOSER_TILT_HINT; else it stays with the first, and a person.
# Judged on held-out train photos (models trained without them) and 40 simulated
# trays of leaning dice: byler-d6 93.0 -> 93.7 %, matteop65 92.8 -> 93.2 %, no new
# misread, and 42 of 77 leaning dice flagged as before (CLOSER_TILT_HINT 0.02: 94.0 %,
# 93.7 %, but 41 of 77; no closer look at all for such dice: the numbers before).
TILT_HINT = 0.02
CLOSER_TILT_HINT = 0.005
# In a cluster of touching dice the detector often sizes a die too small (its
# neighbours' edges look like its own), and a crop cut that tight shows a pip or two and
# an edge, not a die: it is read "not a die" and the die is missed. One camera over one
# tray sees its dice at one size, so without a calibrated size a candidate read unsurely,
# sized RECUT_RANGE of the median die read surely, is read again cut at that size.
# Judged on held-out train photos (models trained without them): byler-d6 93.7 ->
# 94.9 %, matteop65 unchanged, no new misread; simulated trays of 12 dice, 60 % of them
# touching: 82.7 -> 85.4 % of dice right; the simulated flat frames and leaning dice
# unchanged, one more close-up frame of 20 right (dice 15 % of the width).
RECUT_RANGE = (SIZE_RANGE[0], 0.85)
# Only candidates this many die sizes or less from a die read surely: the neighbours
# make the size too small. On byler-d6 train photos every candidate whose second reading
# was kept lay within 1.75 die sizes of one; most of the rest, read again for nothing,
# lay 2.4-12 away (a read is ~0.4 ms dearer without this).
RECUT_NEAR = 2.0
# A candidate the detector is sure of (heat DOUBT_HEAT or more) that the classifiers
# call "not a die" without conviction (below DOUBT_NOT_DIE) is reported flagged, with no
# value, instead of being dropped: a die of a kind the nets never saw (a new dice set)
# is then one tap for a person, not a die missing from the throw. Set on the train split
# with nets trained on one shared folder and read on the other (vision/training/README.md,
# seventh round): byler-d6 read by the first look trained on matteop65 alone has 81 of
# its 245 missed dice flagged instead, and 4 more extra dice (50) on its 160 photos. With
# the committed nets the held-out photos read exactly as before, and 180 simulated trays
# with clutter, leaning and clustered dice have one candidate it keeps: a missed die.
DOUBT_HEAT = 0.7
DOUBT_NOT_DIE = 0.7
# A die whose top face runs more than this share of its side out of the picture may
# have pips outside it (the outer rows sit about a quarter of the side from the edge):
# its value is only a guess, flagged. On the train photos of both folders the reader
# reads two dice that reach past the edge, both right: one 10 % out, one 34 % out (now
# flagged). A camera over a tray sees none.
EDGE_CUT = 0.2
# A die leaning on the tray wall shows its top face a little foreshortened, and the first
# look often reads it surely as a flat die (35 of 77 simulated leaning dice). The second
# look tells them apart better: on simulated trays it gives "tilted" 0.05 or more to 57
# of the 84 leaning dice read surely, and to 1 of 243 flat dice lying against the wall
# (none of 529 real dice of the held-out train photos). It costs a crop a die, so it is
# asked only where a die can lean: with a calibrated tray, of the dice read as a value
# whose top face's centre lies within WALL_NEAR die sizes of the tray's outline (every
# leaning die did, within 1.5). Such a die with "tilted" WALL_TILT or more is reported
# tilted. Set on simulated trays (seeds 1000-1150, vision/training/README.md, eighth
# round) before the bench's trays were read.
WALL_NEAR = 2.0
WALL_TILT = 0.05
# Away from a known wall a die leans too: on the wall of a tray not marked (or of one
# marked too tightly). A die read as a value that the first look gives "tilted"
# LEAN_HINT or more, with no other die within LEAN_ALONE of its size, gets the same
# closer look, and is reported tilted where it gives LEAN_TILT or more (more than by a
# known wall, where dice lean most). Beside a neighbour the second look takes the
# neighbour's side for this die's (21 of 340 flat clustered dice called leaning), hence
# alone; so a die leaning on another die is not asked. Asking such dice too, believed
# only from a "tilted" of 0.4, caught 1 more of the bench's 52 dice leaning on dice
# (vision.sim.die_leaning_trays) and lost 2 of its 40 clusters to flat dice flagged:
# not adopted (vision/training/README.md, twelfth round). Set on simulated trays other
# than the bench's and the tests' (vision/training/README.md, eleventh round): without
# a calibration 43 -> 52 of 78 leaning dice flagged, by a tray's wall 39 -> 48 of 71,
# for 1 of 123 flat dice against the wall; random trays, close-ups and clusters read as
# before (one random tray more); the train and held-out photos exactly as before, at
# 0.09 more closer looks a photo. Then on the check split, once: byler-d6 as before; one
# flat matteop65 four seen obliquely beside a cable flagged (98.8 -> 98.4 %). The bench's
# leaning trays: 42 -> 52 of 77 flagged.
LEAN_HINT = 0.01
LEAN_TILT = 0.1
LEAN_ALONE = 1.5

# With the empty tray's picture in the calibration, the reader sees the shape of what a
# die changes in the tray (vision.changed.shape_of_change: its shadow aside, the empty
# tray matched to the frame channel by channel, as a white balance drifts with the
# light). Seen from above, a flat die changes a square round its top face's centre,
# whatever its value and turn. A die read as a value, with no other die within
# SHAPE_ALONE of its size, by a marked wall (within WALL_NEAR), whose changed pixels
# within SHAPE_REACH sizes of its centre (only the parts that reach within SHAPE_CORE
# of it: a crumb or a pen apart from it is not the die) cover SHAPE_COVER of a face or
# more (a die the floor's colour changes little but its pips), lie within FLAT_OFF of a
# side round its centre and are elongated less than FLAT_ELONG, is flat: it is not
# given the closer look for leaning. On the simulated trays of seeds 7000-7079, 248 of
# the 567 closer crops the wall check asked were such dice, every one of them flat.
# Judged on other seeds (9500-9579, 1280x960 9700-9779) by criteria written first: every
# count the same but one leaning die more scored (43 -> 44 of 2149 dice); calibrated
# 640x480 reads 7.38 -> 6.46 ms median, trays by the wall 12.34 -> 10.71, 1280x960
# 9.74 -> 8.74 (alternating).
# The shape is not taken the other way for a die alone: a die leaning on the wall draws
# its changed pixels out, into the tray, and on simulated trays calling such dice tilted
# removed 19 of 51 silent errors; but a real camera's perspective shows flat dice's side
# faces, away from the picture's centre, inwards too: on the byler-d6 train photos, with
# an empty tray made by inpainting their labelled dice, it flagged 15 of 1213 flat dice
# (vision/training/README.md, sixteenth round).
SHAPE_ALONE = 1.75
SHAPE_REACH = 1.0
SHAPE_CORE = 0.3
SHAPE_COVER = 0.6
FLAT_OFF = 0.1
FLAT_ELONG = 1.12
# Two dice close together, nothing else near (SHAPE_ALONE), when one leans on the
# other: seen from above, their changed pixels reach further along the line between
# them than two flat dice's (two squares side by side d apart spread 1/12 + d²/4 of a
# side squared along it, whatever their turn), by the leaning die's side face, on its
# far side from the die it leans on, which pulls their centroid its way. Two dice both
# scored whose changed pixels spread PAIR_SPREAD side² more than that along the line,
# centroid more than PAIR_OFF of a side from the midpoint, have the die on the
# centroid's side reported tilted. Set on simulated trays (seeds 7000-7239, five kinds,
# with the empty tray): such pairs hold 39 leaning dice scored; 27 are caught, and 2
# flat dice flagged (412 flat pairs: spread 0.07 above two squares' at the 95th
# percentile; pairs with a leaning die 0.16 in the median). A pair's patch is thinned to
# about PAIR_PX pixels a die side: at a single die's 24 the judging run on fresh seeds
# (9800-9879) removed 6 of 40 silent errors but cost 0.25 ms on trays of dice leaning on
# dice, more than its criteria allowed. Thinned, on other fresh seeds (10000-10079, and
# 1280x960 10200-10279; vision/training/README.md, sixteenth round): silent errors
# 48 -> 40 of 2146 dice (on dice 33 -> 25), 2 flat dice flagged, no new misread, no slower.
# Perspective shows both dice's side faces alike: on the byler-d6 train photos with an
# inpainted empty tray, it flagged 1 of 1213 flat dice.
PAIR_SPREAD = 0.09
PAIR_OFF = 0.08
PAIR_PX = 16
SHAPES = True  # the flat die's shape and the pair's, above

# Two flat dice lie at least a side apart, centre to centre. A die read as a value closer
# than BESIDE_TILTED sides to a die flagged tilted is on it, under it, or the same
# leaning die seen twice (its side face found as a die of its own): it is flagged too,
# its value kept as the best guess. The throw was held for the tilted die anyway, so
# this holds no throw that would have been scored; it marks, in a held throw, the die a
# person should look at before "Confirm" takes its value. Set on simulated trays (seeds
# 7000-7079, five kinds, without and with a calibration): of 307 leaning dice scored, it
# marks 46 (at 0.7: 41, at 0.9: 55) and 16 flat dice (11 / 37); no throw newly held.
BESIDE_TILTED = 0.8

# The second look's probabilities for the dice it has read in one read, by (x, y, face):
# a die by the wall it has read as unsure is not read again for leaning.
Closer = dict[tuple[float, float, float], np.ndarray]


def available() -> bool:
    """Whether both model files are in this checkout."""
    return detect.available() and classify.available()


def read(image: np.ndarray, calibration: Calibration | None
         ) -> tuple[list[DieRead], float | None]:
    """Read every die: detector candidates, each confirmed and read by the classifier.

    Also gives, with a calibrated die size, the size the detector saw the dice at (see
    :func:`_seen_size`; ``None`` without one)."""
    sized = calibration is not None and bool(calibration.die_size_px)
    closer: Closer = {}
    halvings: detect.Halvings = {}  # the searched region's, shared by the detector's passes
    cands, probs = _look(image, calibration,
                         detect.detect(image, calibration, suppress=False, halvings=halvings),
                         closer)
    if not sized:
        # Nothing read surely at the usual scale, or only big dice: perhaps a close-up,
        # with dice too big for it (vision.detect.BIG_FACE); or only small ones: perhaps
        # a frame from far away, with dice too small for it (vision.detect.SMALL_FACE).
        # The coarse passes go first and are cheap; the fine pass (four times the usual
        # pass's pixels) runs only if the dice read surely still look small, or none is.
        for maybe, find in ((_maybe_bigger, detect.detect_coarse),
                            (_maybe_smaller, detect.detect_fine)):
            if maybe(image, calibration, cands, probs):
                more, more_probs = _look(image, calibration,
                                         find(image, calibration, halvings=halvings), closer)
                cands, probs = cands + more, np.concatenate([probs, more_probs])
    if not sized:
        cands, probs = _recut(image, cands, probs, closer)
    # Each candidate's class, found once for all (one numpy call, not one a candidate).
    class_of = {id(c): cls for c, cls in zip(cands, probs.argmax(axis=1).tolist())}
    # Non-dice go first, then near-duplicates: a rejected peak must not hide a die.
    keep = [(c, p) for c, p in zip(cands, probs)
            if class_of[id(c)] != classify.NOT_DIE or _doubtful(c, p)]
    if not sized:
        keep = _one_size(keep)
    keep.sort(key=lambda cp: -cp[0].score * (1.0 - float(cp[1][classify.NOT_DIE])))
    kept_cands = detect.suppress_near([c for c, _ in keep])
    by_id = {id(c): p for c, p in keep}
    taught = calibration.picture_faces if calibration is not None else ()
    known = calibration.known_dice if calibration is not None else ()
    kept = [(c, by_id[id(c)]) for c in kept_cands]
    basis = _shape_basis(image, calibration)
    leaning = _leaning(image, calibration, kept, closer, _flat(calibration, kept, closer, basis))
    out: list[DieRead] = []
    for c in kept_cands:
        p = by_id[id(c)]
        x, y, face = c.x, c.y, c.face
        cls = class_of[id(c)]
        half = BOX_HALF * face
        box = (x - half, y - half, x + half, y + half)
        if cls == classify.NOT_DIE:
            out.append(make_die(None, (x, y), box, 1.0 - float(p[cls]), maybe_not_die=True))
            continue
        if id(c) in leaning:
            out.append(make_die(None, (x, y), box, leaning[id(c)], tilted=True))
            continue
        if cls == classify.TILTED:
            out.append(make_die(None, (x, y), box, float(p[cls]), tilted=True))
            continue
        if taught and (cls == classify.PICTURE or p[classify.PICTURE] >= PICTURE_HINT):
            # A face the owner taught reads as its value (a logo has no pips to count);
            # a match is as sure as its correlation, and never below the threshold.
            found = pictures.match(image, x, y, face, taught)
            if found is not None:
                out.append(make_die(found[0], (x, y), box, max(found[1], THRESHOLD)))
                continue
        if cls == classify.PICTURE:
            out.append(make_die(None, (x, y), box, float(p[cls]), picture=True))
            continue
        value = int(np.argmax(p[:6])) + 1
        out.append(make_die(value, (x, y), box, float(p[value - 1]),
                            cut=_cut_by_edge(image, x, y, face)))
    out = _fourth_look(image, out)
    if known:
        out = _remembered(image, out, known)
    if basis is not None:
        out = _leaning_pairs(out, basis)
    out = _beside_tilted(out, calibration.die_size_px if calibration is not None else None)
    # Reading order: top to bottom, then left to right, so a list of values is stable.
    out.sort(key=lambda d: (d.center[1], d.center[0]))
    return out, _seen_size([c for c in kept_cands if class_of[id(c)] != classify.NOT_DIE])


def _seen_size(dice: list[detect.Candidate]) -> float | None:
    """The median face size the detector saw ``dice`` at, where they were cut at a
    calibrated die size (``None`` where none was, or with no die).

    Dice are cut at the calibrated size whatever size they look, so a size gone stale
    (the family took bigger or smaller dice) would not show in what is read; the
    detector's own estimate still follows the dice (simulated trays read with a size
    0.7 or 1.4 times the truth: its median over a throw's dice lies at 1.01-1.05 of the
    true size in the median throw; see calibration.die_size)."""
    seen = [c.seen for c in dice if c.seen is not None]
    return median(seen) if seen else None


def _beside_tilted(dice: list[DieRead], size: float | None) -> list[DieRead]:
    """``dice`` with every die read as a value that lies within BESIDE_TILTED face sizes
    of a die flagged tilted flagged too (see BESIDE_TILTED). The face size is ``size``
    (a calibrated one) or else the larger of the two dice's.

    >>> lean = make_die(None, (100.0, 100.0), (88.0, 88.0, 112.0, 112.0), 0.9, tilted=True)
    >>> on_it = make_die(4, (114.0, 100.0), (102.0, 88.0, 126.0, 112.0), 0.95)
    >>> apart = make_die(2, (130.0, 100.0), (118.0, 88.0, 142.0, 112.0), 0.95)
    >>> [d.reason for d in _beside_tilted([lean, on_it, apart], None)]
    ['tilted', 'beside a tilted die', None]
    """
    tilted = [d for d in dice if d.reason == REASON_TILTED]
    if not tilted or BESIDE_TILTED <= 0:
        return dice

    def beside(d: DieRead, t: DieRead) -> bool:
        face = size or max(d.face, t.face)
        return bool(np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1])
                    <= BESIDE_TILTED * face)

    return [make_die(d.value, d.center, d.box, d.confidence, beside_tilted=True)
            if not d.flagged and d.value is not None and any(beside(d, t) for t in tilted)
            else d for d in dice]


def _leaning_pairs(dice: list[DieRead], basis: ShapeBasis) -> list[DieRead]:
    """``dice`` with the die of a pair that leans on the other reported tilted: two dice
    scored, close together, nothing else near, whose changed pixels have the shape of
    one leaning on the other (see PAIR_SPREAD)."""
    near = SHAPE_ALONE * basis.size

    def apart(a: DieRead, b: DieRead) -> float:
        return float(np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]))

    out = list(dice)
    for i, a in enumerate(dice):
        for j in range(i + 1, len(dice)):
            b = dice[j]
            if (a.flagged or b.flagged or a.value is None or b.value is None
                    or apart(a, b) > near
                    or any(o is not a and o is not b and min(apart(o, a), apart(o, b)) <= near
                           for o in dice)):
                continue
            leaning = _pair_leaning(basis, a.center, b.center)
            if leaning is not None:
                k = (i, j)[leaning]
                out[k] = make_die(None, dice[k].center, dice[k].box, dice[k].confidence,
                                  tilted=True)
    return out


def _pair_leaning(basis: ShapeBasis, a: tuple[float, float], b: tuple[float, float]
                  ) -> int | None:
    """Which of two close dice centred at ``a`` and ``b`` (0 or 1) leans on the other,
    by the shape of their changed pixels, or ``None`` when they look flat."""
    size = basis.size
    # A pair's patch is twice a die's: thinned to about PAIR_PX pixels a die side.
    shape, x0, y0 = _shape_round(basis, (a, b), PAIR_PX)
    d = float(np.hypot(b[0] - a[0], b[1] - a[1]))
    if shape is None or d == 0.0:
        return None
    u, v = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    excess = shape.spread_along(u, v) / size ** 2 - (1 / 12 + (d / size) ** 2 / 4)
    off = ((x0 + shape.x - (a[0] + b[0]) / 2) * u + (y0 + shape.y - (a[1] + b[1]) / 2) * v) / size
    if excess <= PAIR_SPREAD or abs(off) <= PAIR_OFF:
        return None
    return 1 if off > 0 else 0


def _flat(calibration: Calibration | None, dice: list[tuple[detect.Candidate, np.ndarray]],
          closer: Closer, basis: ShapeBasis | None) -> set[int]:
    """The ``id`` of the candidates by a marked wall whose changed pixels are clearly a
    flat die's (see FLAT_OFF): read as a value or a picture, no other within SHAPE_ALONE
    sizes, not read by the second look already (``closer``: asking it costs nothing);
    none without the shapes' ``basis`` or an outline."""
    if basis is None or calibration is None or calibration.tray is None:
        return set()
    out: set[int] = set()
    for c, p in dice:
        inside = calibration.edge_distance(c.x, c.y)
        if (int(np.argmax(p)) in (classify.NOT_DIE, classify.TILTED)
                or inside is None or inside > WALL_NEAR * c.face
                or (c.x, c.y, c.face) in closer
                or any(o is not c and np.hypot(o.x - c.x, o.y - c.y) <= SHAPE_ALONE * basis.size
                       for o, _ in dice)):
            continue
        if _looks_flat(basis, (c.x, c.y)):
            out.add(id(c))
    return out


def _looks_flat(basis: ShapeBasis, centre: tuple[float, float]) -> bool:
    """Whether the changed pixels round ``centre`` are clearly a flat die's: square round
    it (see FLAT_OFF)."""
    size = basis.size
    # About 24 pixels a die side are plenty for a centroid and a spread.
    shape, x0, y0 = _shape_round(basis, (centre,), 24)
    if shape is None or shape.pixels < SHAPE_COVER * size * size:
        return False
    off = np.hypot(x0 + shape.x - centre[0], y0 + shape.y - centre[1]) / size
    return bool(off < FLAT_OFF and shape.elongation < FLAT_ELONG)


@dataclasses.dataclass(frozen=True)
class ShapeBasis:
    """What the shapes of a read are measured with: the frame, the empty tray's picture,
    the die size, and the channel ratios matching the empty tray to the frame (taken
    once a read)."""

    image: np.ndarray
    background: np.ndarray
    size: float
    ratio: tuple[float, float, float]


def _shape_basis(image: np.ndarray, calibration: Calibration | None) -> ShapeBasis | None:
    """The basis of the shapes for this read, or ``None`` when they are off (SHAPES) or
    the calibration lacks an empty tray of this frame's size or a die size."""
    if not SHAPES or calibration is None:
        return None
    background, size = calibration.background, calibration.die_size_px
    if background is None or not size or background.shape != image.shape:
        return None
    return ShapeBasis(image, background, float(size), changed.channel_ratios(image, background))


def _shape_round(basis: ShapeBasis, centres: tuple[tuple[float, float], ...], px: int
                 ) -> tuple[changed.Shape | None, int, int]:
    """The shape of what changed within SHAPE_REACH sizes round the dice at ``centres``
    (the parts that reach within SHAPE_CORE sizes of one of them), thinned to about
    ``px`` pixels a die side, and the frame pixel its patch starts at."""
    image, size = basis.image, basis.size
    reach = SHAPE_REACH * size
    h, w = image.shape[:2]
    x0 = max(0, int(min(x for x, _ in centres) - reach))
    y0 = max(0, int(min(y for _, y in centres) - reach))
    x1 = min(w, int(max(x for x, _ in centres) + reach) + 1)
    y1 = min(h, int(max(y for _, y in centres) + reach) + 1)
    core = SHAPE_CORE * size
    shape = changed.shape_of_change(image[y0:y1, x0:x1], basis.background[y0:y1, x0:x1],
                                    basis.ratio, max(1, int(size // px)),
                                    cores=tuple((x - x0, y - y0, core) for x, y in centres))
    return shape, x0, y0


def _unsure(dice: list[DieRead]) -> list[tuple[int, int]]:
    """Where in ``dice`` are those read as a value, but below the threshold, and that
    value: the dice the fourth look and the remembered dice may read surely."""
    return [(i, d.value) for i, d in enumerate(dice)
            if d.reason == REASON_LOW and d.value is not None]


def _remembered(image: np.ndarray, dice: list[DieRead],
                known: tuple[KnownDie, ...]) -> list[DieRead]:
    """``dice`` with those read unsurely that the family's remembered dice name surely
    (vision.known_dice) read as that value: at the threshold."""
    unsure = [i for i, _ in _unsure(dice)]
    named = known_dice.read(known, image, [(*dice[i].center, dice[i].face) for i in unsure])
    out = list(dice)
    for i, value in zip(unsure, named):
        if value is not None:
            d = dice[i]
            out[i] = make_die(value, d.center, d.box, THRESHOLD)
    return out


def _look(image: np.ndarray, calibration: Calibration | None,
          cands: list[detect.Candidate], closer: Closer
          ) -> tuple[list[detect.Candidate], np.ndarray]:
    """The candidates the calibration allows, and the classifiers' probabilities for them."""
    if calibration is not None:
        cands = [c for c in cands if calibration.in_tray(c.x, c.y)]
        background = calibration.background
        if cands and background is not None and background.shape == image.shape:
            ratio = changed.brightness_ratio(image, background)
            cands = [c for c in cands if not _part_of_tray(image, background, ratio, c)]
        if calibration.die_size_px:
            cands = _sized(cands, float(calibration.die_size_px))
    return cands, _probabilities(image, cands, closer)


def _probabilities(image: np.ndarray, cands: list[detect.Candidate], closer: Closer
                   ) -> np.ndarray:
    """The classifiers' probabilities for ``cands``: the first look, then the second."""
    probs = classify.classify(classify.crops_of(image, [(c.x, c.y, c.face) for c in cands]),
                              views=VIEWS)
    if SECOND_LOOK and len(probs):
        probs = _second_look(image, cands, probs, closer)
    return probs


def _maybe_bigger(image: np.ndarray, calibration: Calibration | None,
                  cands: list[detect.Candidate], probs: np.ndarray) -> bool:
    """Whether the frame may hold dice too big for the detector's usual pass."""
    sure = _sure_faces(cands, probs)
    return not sure or max(sure) * detect.usual_scale(image, calibration) >= detect.BIG_FACE


def _maybe_smaller(image: np.ndarray, calibration: Calibration | None,
                   cands: list[detect.Candidate], probs: np.ndarray) -> bool:
    """Whether the frame may hold dice too small for the detector's usual pass."""
    sure = _sure_faces(cands, probs)
    return not sure or median(sure) * detect.usual_scale(image, calibration) < detect.SMALL_FACE


def _recut(image: np.ndarray, cands: list[detect.Candidate], probs: np.ndarray,
           closer: Closer) -> tuple[list[detect.Candidate], np.ndarray]:
    """Candidates read unsurely, sized well below the dice read surely and next to one,
    read again cut at those dice's median size; the new reading is kept unless it is
    "not a die"."""
    is_sure = _sure_rows(probs)
    sure = [c for c, s in zip(cands, is_sure) if s]
    if not sure:
        return cands, probs
    size = median([c.face for c in sure])
    lo, hi = RECUT_RANGE

    def by_a_die(c: detect.Candidate) -> bool:
        return any(np.hypot(c.x - s.x, c.y - s.y) <= RECUT_NEAR * size for s in sure)

    redo = [i for i, (c, p, s) in enumerate(zip(cands, probs, is_sure))
            if not s and int(np.argmax(p)) != classify.TILTED
            and lo * size <= c.face < hi * size and by_a_die(c)]
    if not redo:
        return cands, probs
    again = [dataclasses.replace(cands[i], face=size) for i in redo]
    more = _probabilities(image, again, closer)
    cands, probs = list(cands), probs.copy()
    for c, p, i in zip(again, more, redo):
        if int(np.argmax(p)) != classify.NOT_DIE:
            cands[i], probs[i] = c, p
    return cands, probs


def _leaning(image: np.ndarray, calibration: Calibration | None,
             dice: list[tuple[detect.Candidate, np.ndarray]],
             closer: Closer, flat: set[int]) -> dict[int, float]:
    """The dice read as a value that the second look finds leaning: ``id`` of the
    candidate to its "tilted" probability. Asked of the dice by a calibrated tray's wall
    (WALL_NEAR; leaning from WALL_TILT) and of any die the first look gives "tilted"
    LEAN_HINT or more (leaning from LEAN_TILT). A die the second look has read already
    in this read (``closer``) is not read again, and a die by the wall whose changed
    pixels are clearly a flat die's (``flat``, ids; see FLAT_OFF) is not asked."""
    valued = [(c, p) for c, p in dice if int(np.argmax(p)) < classify.NOT_DIE]
    asked: dict[int, tuple[detect.Candidate, float]] = {}
    for c, p in valued:
        inside = calibration.edge_distance(c.x, c.y) if calibration is not None else None
        if inside is not None and inside <= WALL_NEAR * c.face:
            if id(c) not in flat:
                asked[id(c)] = (c, WALL_TILT)
        elif p[classify.TILTED] >= LEAN_HINT and all(
                o is c or np.hypot(o.x - c.x, o.y - c.y) > LEAN_ALONE * c.face for o, _ in valued):
            asked[id(c)] = (c, LEAN_TILT)
    # The model file is looked for last (here and in the looks): a look at the disk that
    # most reads, asking no die, need not make.
    if not asked or not classify.second_available():
        return {}
    _look_closely(image, [(c.x, c.y, c.face) for c, _ in asked.values()], closer)
    tilted = {k: float(closer[(c.x, c.y, c.face)][classify.TILTED]) for k, (c, _) in asked.items()}
    return {k: t for k, t in tilted.items() if t >= asked[k][1]}


def _doubtful(c: detect.Candidate, p: np.ndarray) -> bool:
    """Whether a candidate read "not a die" may be a die all the same (see DOUBT_HEAT)."""
    return c.score >= DOUBT_HEAT and float(p[classify.NOT_DIE]) < DOUBT_NOT_DIE


def _cut_by_edge(image: np.ndarray, x: float, y: float, face: float) -> bool:
    """Whether more than EDGE_CUT of a die's top face lies outside the picture."""
    h, w = image.shape[:2]
    half = face / 2
    outside = max(half - x, half - y, x + half - w, y + half - h)
    return bool(outside > EDGE_CUT * face)


def _sure_faces(cands: list[detect.Candidate], probs: np.ndarray) -> list[float]:
    """The face sizes of the candidates read surely."""
    return [c.face for c, s in zip(cands, _sure_rows(probs)) if s]


def _sure_rows(probs: np.ndarray) -> list[bool]:
    """Whether each row of probabilities ``probs`` (n, 9) reads a value at the threshold
    or above."""
    # One max over all rows, compared as Python floats: numpy's calls cost more than the
    # comparing, one row at a time (several times a read).
    return [best >= THRESHOLD for best in probs[:, :6].max(axis=1).tolist()]


def _one_size(keep: list[tuple[detect.Candidate, np.ndarray]]
              ) -> list[tuple[detect.Candidate, np.ndarray]]:
    """Without a calibrated size, the dice read surely set the frame's die size.

    One camera over one tray sees its dice at about one size, so a candidate far
    bigger or smaller than the surely read dice (a card or a tray corner found by the
    detector's coarse pass, a pip taken for a die) is not a die. With no sure die, all
    candidates stay."""
    if not keep:
        return keep
    sure = [c.face for (c, _), s in zip(keep, _sure_rows(np.stack([p for _, p in keep]))) if s]
    if not sure:
        return keep
    size = median(sure)
    return [(c, p) for c, p in keep if SIZE_RANGE[0] <= c.face / size <= SIZE_RANGE[1]]


def _sized(cands: list[detect.Candidate], size: float) -> list[detect.Candidate]:
    """Candidates cut at the calibrated die size ``size``.

    Something far bigger or smaller than the calibrated die (a card, a coin, a pip) is
    not a die. The rest are cut at the calibrated size: one camera over one tray sees
    its dice at one size, and the detector's estimate at this reduced scale is the
    rougher one (simulated trays: 31 of 40 frames read right this way, 26 with the
    estimate)."""
    return [detect.Candidate(c.x, c.y, size, c.score, seen=c.face) for c in cands
            if SIZE_RANGE[0] <= c.face / size <= SIZE_RANGE[1]]


def _part_of_tray(image: np.ndarray, background: np.ndarray, ratio: float,
                  c: detect.Candidate) -> bool:
    """Whether the box of candidate ``c`` looks as it does in the empty tray (whose
    picture is ``ratio`` times darker than ``image``, see vision.changed)."""
    half = BOX_HALF * c.face
    x0, y0 = max(0, int(c.x - half)), max(0, int(c.y - half))
    x1, y1 = int(c.x + half) + 1, int(c.y + half) + 1
    a = image[y0:y1, x0:x1]
    if a.size == 0:
        return False
    b = cv2.convertScaleAbs(background[y0:y1, x0:x1], alpha=ratio)
    diff = cv2.absdiff(cv2.cvtColor(a, cv2.COLOR_BGR2GRAY), cv2.cvtColor(b, cv2.COLOR_BGR2GRAY))
    return float(np.count_nonzero(diff > BACKGROUND_LEVEL)) / diff.size < BACKGROUND_SHARE


def _second_look(image: np.ndarray, cands: list[detect.Candidate],
                 probs: np.ndarray, closer: Closer) -> np.ndarray:
    """Read the dice the first look was unsure of again, with the second-look model: those
    it read as a value below SECOND_LOOK_BELOW, and those it called "not a die" below
    NOT_DIE_SECOND."""
    top = probs.argmax(axis=1)
    unsure = [i for i in range(len(probs))
              if (top[i] < classify.NOT_DIE and probs[i, top[i]] < SECOND_LOOK_BELOW)
              or (top[i] == classify.NOT_DIE and probs[i, top[i]] < NOT_DIE_SECOND)]
    if not unsure or not classify.second_available():
        return probs
    where = [(cands[i].x, cands[i].y, cands[i].face) for i in unsure]
    _look_closely(image, where, closer)
    out = probs.copy()
    taken = []
    for i, key in zip(unsure, where):
        # A die the first look finds possibly leaning keeps its first (unsure) reading
        # unless the closer look finds it flat as well.
        if probs[i, classify.TILTED] >= TILT_HINT and closer[key][classify.TILTED] >= CLOSER_TILT_HINT:
            continue
        out[i] = closer[key]
        taken.append(i)
    return _third_look(image, cands, out, taken)


def _third_look(image: np.ndarray, cands: list[detect.Candidate], probs: np.ndarray,
                looked: list[int]) -> np.ndarray:
    """Read the dice of ``looked`` (read by the second look) that it too was unsure of
    again, with the third-look model; its reading replaces the second's."""
    if not THIRD_LOOK:
        return probs
    top = probs.argmax(axis=1)
    unsure = [i for i in looked if top[i] < classify.NOT_DIE and probs[i, top[i]] < THRESHOLD]
    if unsure and classify.third_available():
        third = classify.classify_third(image, [(cands[i].x, cands[i].y, cands[i].face)
                                                for i in unsure])
        for i, p in zip(unsure, third):
            probs[i] = p
    return probs


def _fourth_look(image: np.ndarray, dice: list[DieRead]) -> list[DieRead]:
    """``dice`` with those read as a value unsurely read surely where the fourth look is
    sure of that same value (FOURTH_LOOK)."""
    unsure = _unsure(dice)
    if not (unsure and FOURTH_LOOK and classify.fourth_available()):
        return dice
    fourth = classify.classify_fourth(image, [(*dice[i].center, dice[i].face) for i, _ in unsure])
    out = list(dice)
    for (i, value), p in zip(unsure, fourth):
        if p[value - 1] >= THRESHOLD:   # then also the value it reads most surely
            d = dice[i]
            out[i] = make_die(value, d.center, d.box, float(p[value - 1]))
    return out


def _look_closely(image: np.ndarray, where: list[tuple[float, float, float]],
                  closer: Closer) -> None:
    """Have the second look read the ``(x, y, face)`` dice it has not read yet in this
    read, in one batch, and keep its probabilities in ``closer``."""
    new = list(dict.fromkeys(key for key in where if key not in closer))
    if new:
        closer.update(zip(new, classify.classify_closely(image, new)))
