"""``make bench`` for the reader: speed (one thread, decoding excluded) and accuracy.

Times :func:`vision.reader.read_dice` on the shared photos' check split and on
simulated 1280×960 and 640×480 tray frames, without and with a calibration, and the
classic recipe (:mod:`vision.baseline`) on the same photos, with both accuracies and the
speed ratio. Includes the roll watcher's numbers when ``vision.bench_watcher`` exists.
"""
from __future__ import annotations

import dataclasses
import importlib
import os
import statistics
import time
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.calibration_data import Calibration
from vision.baseline import read_baseline
from vision.evaluate import Reader, evaluate, load_photo, remembered, select, shared_datasets
from vision.reader import DieRead, Reading, read_dice

FOLDERS = ("byler-d6", "matteop65-oblique")


def _baseline_reader(image: np.ndarray, _cal: Calibration | None) -> Reading:
    start = time.perf_counter()
    dice = tuple(DieRead(d.value, d.center, d.box, 1.0, False, None) for d in read_baseline(image))
    return Reading(dice, (time.perf_counter() - start) * 1000.0)


def _noisy(image: np.ndarray, sigma: float, *, grey: bool = False) -> np.ndarray:
    """``image`` with Gaussian sensor noise of ``sigma`` grey levels, the same for the same
    photo in every run (seeded by its pixels): of its own on each colour, or with ``grey``
    the same on every colour (grain of brightness alone, as a camera's processing leaves
    it)."""
    rng = np.random.default_rng(zlib.crc32(np.ascontiguousarray(image[::16, ::16]).tobytes()))
    shape = image.shape[:2] + (1,) if grey else image.shape
    noisy = image.astype(np.float32) + rng.normal(0.0, sigma, shape).astype(np.float32)
    return np.clip(np.rint(noisy), 0, 255).astype(np.uint8)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` saved as JPEG at ``quality`` and decoded, as a webcam's stream gives it."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"cannot encode a {image.shape} image as JPEG")
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))


CHANGED_PHOTOS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    # A room darkened after the camera's exposure was locked (vision.exposure brightens it).
    "third_of_the_light": lambda im: (im * 0.35).astype(np.uint8),
    # The same, with the sensor noise a dark frame carries: brightening amplifies it.
    "third_of_the_light_with_sensor_noise": lambda im: _noisy((im * 0.35).astype(np.uint8), 2.0),
    # A monochrome camera, or a webcam's night mode: one channel, made BGR by the reader.
    "grey": lambda im: cv2.cvtColor(im, cv2.COLOR_BGR2GRAY),
    "noise_sigma_8": lambda im: _noisy(im, 8.0),
    # Grainier: still read as it is; then smoothed before it is read (vision.noise:
    # QUIET_FROM 11.4 in brightness, 17 on each colour); then also every die held for a
    # person (NOISY 16, 24 on each colour). Each is measured within a level of 0.67 of
    # the noise added, away from those levels.
    "noise_sigma_16": lambda im: _noisy(im, 16.0),
    "noise_sigma_22": lambda im: _noisy(im, 22.0),
    "noise_sigma_32": lambda im: _noisy(im, 32.0),
    # The same grain as a webcam's MJPEG stream sends it, JPEG having thrown its finest
    # part and all its colour away: the first measures about 7 as fine grain of
    # brightness and 10-11 as coarse grain (vision.noise: smoothed from 6.5, held from
    # 11.2), the second 16-17 as fine grain (held from 16).
    "noise_sigma_16_as_jpeg_75": lambda im: _jpeg(_noisy(im, 16.0), 75),
    "noise_sigma_24_as_jpeg_75": lambda im: _jpeg(_noisy(im, 24.0), 75),
    "blur_sigma_1_2": lambda im: cv2.GaussianBlur(im, (0, 0), 1.2),
    "jpeg_quality_40": lambda im: _jpeg(im, 40),
}
"""The check photos as other cameras and rooms would give them (nothing is tuned on
them): each name, and how a photo is changed."""


def _changed_reader(change: Callable[[np.ndarray], np.ndarray]) -> Reader:
    def read(image: np.ndarray, cal: Calibration | None) -> Reading:
        return read_dice(change(image), cal)
    return read


def _enlarged(change: Callable[[np.ndarray], np.ndarray],
              calibration: Calibration | None = None, times: float = 2.0) -> Reader:
    """The reader on the photo as a camera asked for twice its size sends it (the USB
    camera asks for 1280×960), or ``times`` its size: enlarged, then ``change``d, and
    read with ``calibration`` (or the one it is given; read_dice fits it to the frame's
    size); the dice it finds are given back at the photo's own scale, where its labels
    are."""
    def read(image: np.ndarray, cal: Calibration | None) -> Reading:
        big = change(cv2.resize(image, None, fx=times, fy=times, interpolation=cv2.INTER_CUBIC))
        reading = read_dice(big, calibration if calibration is not None else cal)
        return Reading(tuple(_shrunk(d, times) for d in reading.dice), reading.ms)
    return read


# A webcam's stream at twice the size, saved as JPEG at quality 40.
_doubled_jpeg_reader = _enlarged(lambda big: _jpeg(big, 40))


def _doubled_grainy_reader(face: float) -> Reader:
    """A 1280×960 camera in a dim room (noise of 32 levels on each colour, sent as JPEG
    75), with the die size the table would have measured (twice ``face``). Its dice would
    read through more grain than the levels allow, which are set on small dice; judged at
    their size, they read two confident misreads more (vision/training/README.md,
    twenty-eighth round), so they are held."""
    return _enlarged(lambda big: _jpeg(_noisy(big, 32.0), 75),
                    Calibration(die_size_px=2.0 * face))


def _phone_reader(face: float) -> Reader:
    """A phone's photo of the tray in a dim room: four times the photo's size, with grain
    of 16 grey levels on its brightness alone (a phone takes the colour grain away) saved
    as JPEG 92, with the die size known (four times ``face``). Held on the frame's own
    pixels; its dice being four times byler-d6's and more, its grain is judged on the
    frame shrunk twice or more (vision.noise.judged_at)."""
    return _enlarged(lambda big: _jpeg(_noisy(big, 16.0, grey=True), 92),
                    Calibration(die_size_px=4.0 * face), times=4.0)



def _shrunk(die: DieRead, times: float) -> DieRead:
    x0, y0, x1, y1 = die.box
    return dataclasses.replace(die, center=(die.center[0] / times, die.center[1] / times),
                               box=(x0 / times, y0 / times, x1 / times, y1 / times))


def _best_guesses(reader: Reader) -> Reader:
    """``reader`` with every die's flag taken off: what a person checking the flagged dice
    is shown, to confirm or correct."""
    def read(image: np.ndarray, cal: Calibration | None) -> Reading:
        reading = reader(image, cal)
        return Reading(tuple(dataclasses.replace(d, flagged=False, reason=None)
                             if d.value is not None else d for d in reading.dice), reading.ms)
    return read


def _changed_photos(folder: Path) -> dict[str, Any]:
    """Each of :data:`CHANGED_PHOTOS` (and JPEG 40 at twice the size) read on the check
    split of ``folder`` without a calibration, and grainy frames at twice and four times
    the size with the die size known (:func:`_doubled_grainy_reader`,
    :func:`_phone_reader`): dice right, confident misreads, and dice
    whose value is right when their flags are ignored (``best_guess_accuracy``)."""
    readers: dict[str, Reader] = {name: _changed_reader(change)
                                  for name, change in CHANGED_PHOTOS.items()}
    readers["jpeg_quality_40_at_twice_the_size"] = _doubled_jpeg_reader
    readers["noise_sigma_32_as_jpeg_75_at_twice_the_size_die_size_known"] = (
        _doubled_grainy_reader(_train_face(folder)))
    readers["grey_noise_16_as_jpeg_92_at_four_times_the_size_die_size_known"] = (
        _phone_reader(_train_face(folder)))
    out: dict[str, Any] = {}
    for name, reader in readers.items():
        r = evaluate([folder], "check", reader=reader)["folders"][folder.name]
        guesses = evaluate([folder], "check", reader=_best_guesses(reader))["folders"][folder.name]
        out[name] = {"accuracy": round(r["accuracy"], 4),
                     "confident_misreads": r["confident_misreads"],
                     "best_guess_accuracy": round(guesses["accuracy"], 4)}
    return out


def _train_face(folder: Path) -> float:
    """A calibration's die size for a folder, measured on its train split only."""
    sides = []
    for im in select(folder, "train"):
        for d in im.dice:
            w, h = d.box[2] - d.box[0], d.box[3] - d.box[1]
            # byler boxes hold the whole die; matteop boxes the pip cluster (see training).
            sides.append(0.85 * min(w, h) if folder.name == "byler-d6" else 1.45 * max(w, h))
    return float(np.median(sides))


def _sim_frames(size: tuple[int, int], n: int
                ) -> list[tuple[np.ndarray, Calibration, Any, Calibration]]:
    """``n`` simulated trays: frame, calibration (outline and die size), truth, and the
    calibration with the empty tray's picture too."""
    from vision.sim import TrayStyle, empty_tray, render_tray

    out = []
    rng = np.random.default_rng(12345)
    for k in range(n):
        style = TrayStyle.random(rng, size)
        values = [int(v) for v in rng.integers(1, 7, size=int(rng.integers(2, 7)))]
        image, truth = render_tray(rng, values, size, style=style)
        m = style.margin * size[0]
        cal = Calibration.from_rect(m, m, size[0] - m, size[1] - m,
                                    die_size_px=float(np.median([d.side for d in truth])))
        # Its own noise seed, so the frames are the same as before the empty tray.
        with_empty = dataclasses.replace(cal, background=empty_tray(style, size, seed=1000 + k))
        out.append((image, cal, truth, with_empty))
    return out


def _close_ups(size: tuple[int, int] = (640, 480),
               shares: tuple[tuple[float, int], ...] = ((0.15, 3), (0.25, 2), (0.35, 1)),
               ) -> dict[str, Any]:
    """Simulated close-ups (or frames from far away, with small ``shares``): frames
    read entirely right, by how big the dice are."""
    from vision.sim import render_close_up

    out: dict[str, Any] = {}
    for share, n in shares:
        rng = np.random.default_rng(7)
        frames = [render_close_up(rng, n, share, size) for _ in range(20)]
        right = sum(tray_read_right(read_dice(im), t) for im, t in frames)
        out[f"dice_{share * 100:g}_percent_of_width"] = {
            "frames_read_right": f"{right}/{len(frames)}",
            "ms_median": _stats(_time([(im, None) for im, _t in frames]))["ms_median"]}
    return out


def _leaning() -> dict[str, Any]:
    """Simulated trays with dice leaning on the wall: how many of those are flagged,
    without a calibration and with the tray's outline, die size and empty tray."""
    from vision.sim import leaning_flagged

    flagged, total = leaning_flagged(read_dice, range(100, 140))
    return {"leaning_dice_flagged": f"{flagged}/{total}",
            "with_calibration_and_empty_tray": _with_empty_tray("leaning", range(100, 140))}


def _on_other_dice() -> dict[str, Any]:
    """Simulated trays with dice leaning on other dice: how many of those are flagged,
    and how many of the flat dice are read right, without a calibration and with the
    tray's outline, die size and empty tray."""
    flagged, leaning, right, flat = die_leaning_counts(range(100, 140))
    return {"leaning_dice_flagged": f"{flagged}/{leaning}",
            "flat_dice_read_right": f"{right}/{flat}",
            "with_calibration_and_empty_tray": _with_empty_tray("on_die", range(100, 140))}


def _with_empty_tray(kind: str, seeds: range) -> dict[str, str]:
    """The :data:`vision.sim.TRAY_KINDS` trays of ``seeds`` read with a calibration of
    the tray's outline, die size and empty tray (another frame of it, as "Take the
    empty tray" takes it): leaning dice flagged, flat dice read right."""
    flagged, leaning, right, flat = empty_tray_counts(kind, seeds)
    return {"leaning_dice_flagged": f"{flagged}/{leaning}",
            "flat_dice_read_right": f"{right}/{flat}"}


def empty_tray_counts(kind: str, seeds: range) -> tuple[int, int, int, int]:
    """See :func:`_with_empty_tray`: leaning dice flagged, leaning dice, flat dice read
    right, flat dice."""
    from vision.sim import empty_tray, styled_trays

    size = (640, 480)

    def calibrated(truth: Any, style: Any) -> Calibration:
        m = style.margin * size[0]
        return Calibration.from_rect(m, m, size[0] - m, size[1] - m,
                                     die_size_px=float(np.median([d.side for d in truth])),
                                     background=empty_tray(style, size, seed=1))

    return _leaning_tally((read_dice(image, calibrated(truth, style)), truth)
                          for image, truth, style in styled_trays(kind, seeds, size))


def die_leaning_counts(seeds: range) -> tuple[int, int, int, int]:
    """In :func:`vision.sim.die_leaning_trays` ``seeds``, read without a calibration:
    leaning dice flagged, leaning dice, flat dice read right, flat dice."""
    from vision.sim import die_leaning_trays

    return _leaning_tally((read_dice(image), truth) for image, truth in die_leaning_trays(seeds))


def _leaning_tally(reads: Iterable[tuple[Reading, Any]]) -> tuple[int, int, int, int]:
    """Over ``(reading, truth)`` of simulated trays: leaning dice flagged, leaning dice,
    flat dice read right, flat dice."""
    flagged = leaning = right = flat = 0
    for reading, truth in reads:
        for die in truth:
            ok = _die_right(reading, die)
            leaning += die.tilted
            flagged += die.tilted and ok
            flat += not die.tilted
            right += not die.tilted and ok
    return flagged, leaning, right, flat


def _die_right(reading: Any, die: Any) -> bool:
    """Whether simulated ``die`` is read as it should be: a leaning die flagged (or
    missed), a flat die read once, with its value, unflagged."""
    from vision.sim import read_near

    near = read_near(reading, die)
    if die.tilted:
        return all(d.flagged for d in near)
    return len(near) == 1 and near[0].value == die.value and not near[0].flagged


def _by_the_wall() -> dict[str, Any]:
    """Simulated trays with many dice by the wall: of the dice leaning on it, how many
    are flagged, and of the flat dice lying against it, how many are read right, without
    and with a calibration (the tray's outline and die size); and with the empty tray
    too, of all the flat dice, how many are read right."""
    out: dict[str, Any] = {}
    for name, calibrated in (("without_calibration", False), ("with_calibration", True)):
        flagged, leaning, right, by_wall = wall_counts(range(100, 140), calibrated)
        out[name] = {"leaning_dice_flagged": f"{flagged}/{leaning}",
                     "flat_dice_against_the_wall_read_right": f"{right}/{by_wall}"}
    out["with_calibration_and_empty_tray"] = _with_empty_tray("wall", range(100, 140))
    return out


def wall_counts(seeds: range, calibrated: bool) -> tuple[int, int, int, int]:
    """In :func:`vision.sim.wall_trays` ``seeds``: leaning dice flagged, leaning dice,
    flat dice against the wall read right, flat dice against the wall (a top face's
    centre within 1.6 sides of the outline)."""
    from vision.sim import wall_trays

    flagged = leaning = right = by_wall = 0
    for image, truth, rect in wall_trays(seeds):
        cal = Calibration.from_rect(*rect, die_size_px=float(np.median([d.side for d in truth])))
        reading = read_dice(image, cal if calibrated else None)
        for die in truth:
            if die.tilted:
                leaning += 1
                flagged += _die_right(reading, die)
            elif (cal.edge_distance(*die.center) or 0.0) < 1.6 * die.side:
                by_wall += 1
                right += _die_right(reading, die)
    return flagged, leaning, right, by_wall


def _clustered() -> dict[str, Any]:
    """Simulated trays of six dice, most touching another: frames read entirely right,
    without and with a die-size calibration."""
    from vision.sim import cluster_trays

    frames = [(im, t, Calibration(die_size_px=float(np.median([d.side for d in t]))))
              for im, t in cluster_trays(range(500, 540))]
    return {
        "frames_read_right": f"{sum(tray_read_right(read_dice(im), t) for im, t, _c in frames)}/{len(frames)}",
        "frames_read_right_calibrated":
            f"{sum(tray_read_right(read_dice(im, c), t) for im, t, c in frames)}/{len(frames)}",
        "ms_median": _stats(_time([(im, None) for im, _t, _c in frames]))["ms_median"],
        "ms_median_calibrated": _stats(_time([(im, c) for im, _t, c in frames]))["ms_median"],
    }


def _resident_mb() -> float | None:
    """This process's resident memory in MB, or None where /proc is not (Linux and the
    Pi's OS have it)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _memory() -> dict[str, Any]:
    """The reader's resident memory on a long evening, in a process of its own (this one
    holds every decoded photo and the other benchmarks): see :func:`reader_memory`."""
    import json
    import subprocess
    import sys

    code = ("import json, cv2; cv2.setNumThreads(1); from vision.bench import reader_memory; "
            "print(json.dumps(reader_memory()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1], check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def reader_memory(passes: int = 10) -> dict[str, Any]:
    """This process's resident memory after a first pass over the simulated 640x480
    trays (models loaded, buffers grown), and how much more after ``passes`` more
    passes, read as a camera reads them (with and without the tray's calibration). A
    reader that kept something per frame would grow here."""
    frames = _sim_frames((640, 480), 20)

    def one_pass() -> None:
        for image, _cal, _truth, with_empty in frames:
            read_dice(image, None)
            read_dice(image, with_empty)

    one_pass()
    settled = _resident_mb()
    for _ in range(passes):
        one_pass()
    after = _resident_mb()
    if settled is None or after is None:
        return {"resident_mb": "unavailable: no /proc/self/statm"}
    return {"resident_mb": round(settled, 1), "reads": 2 * len(frames) * passes,
            "resident_mb_growth_over_those_reads": round(after - settled, 2)}


def tray_read_right(reading: Reading, truth: Any) -> bool:
    """A frame is read right when every flat die is read and every leaning one flagged."""
    flat = sorted(d.value for d in truth if not d.tilted)
    return sorted(reading.values) == flat and len(reading.dice) == len(truth)


def _time(images: list[tuple[np.ndarray, Calibration | None]], *, warm: bool = False) -> list[float]:
    """ms per read; with ``warm`` each image is read once first, untimed: a camera's
    frames share one calibration, whose empty tray is shrunk once (vision.detect), and
    here every frame has a tray of its own."""
    ms = []
    for image, cal in images:
        if warm:
            read_dice(image, cal)
        start = time.perf_counter()
        read_dice(image, cal)
        ms.append((time.perf_counter() - start) * 1000.0)
    return ms


def _stats(ms: list[float]) -> dict[str, float]:
    return {"ms_median": round(statistics.median(ms), 2), "ms_mean": round(statistics.fmean(ms), 2),
            "images": len(ms)}


def run() -> dict[str, Any]:
    """Measure and return the reader's benchmark as a JSON-able dict."""
    previous = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return _run()
    finally:
        cv2.setNumThreads(previous)


def _run() -> dict[str, Any]:
    out: dict[str, Any] = {"threads": 1}
    root = shared_datasets()
    # Warm up: the first call loads the models.
    read_dice(np.zeros((480, 640, 3), np.uint8))
    folders = [root / f for f in FOLDERS if (root / f / "labels.json").is_file()]
    if folders:
        photos: dict[str, Any] = {}
        for folder in folders:
            ims = [load_photo(folder, im) for im in select(folder, "check")]
            cal = Calibration(die_size_px=_train_face(folder))
            reader = evaluate([folder], "check")["folders"][folder.name]
            reader_cal = evaluate([folder], "check", cal)["folders"][folder.name]
            # The train split's dice as a family would have confirmed them on the control
            # page, the newest MAX_KNOWN kept (vision.known_dice).
            known = dataclasses.replace(cal, known_dice=remembered(folder, "train", cal))
            reader_known = evaluate([folder], "check", known)["folders"][folder.name]
            base = evaluate([folder], "check", reader=_baseline_reader)["folders"][folder.name]
            no_cal = _stats(_time([(im, None) for im in ims]))
            with_cal = _stats(_time([(im, cal) for im in ims]))
            with_known = _stats(_time([(im, known) for im in ims], warm=True))
            photos[folder.name] = {
                "reader": {"accuracy": round(reader["accuracy"], 4),
                           "image_accuracy": round(reader["image_accuracy"], 4),
                           "confident_misreads": reader["confident_misreads"],
                           "with_calibration_accuracy": round(reader_cal["accuracy"], 4),
                           "with_calibration_confident_misreads":
                               reader_cal["confident_misreads"],
                           "with_known_dice_accuracy": round(reader_known["accuracy"], 4),
                           "with_known_dice_image_accuracy":
                               round(reader_known["image_accuracy"], 4),
                           "with_known_dice_confident_misreads":
                               reader_known["confident_misreads"],
                           "without_calibration": no_cal, "with_calibration": with_cal,
                           "with_known_dice": with_known,
                           "changed_photos": _changed_photos(folder)},
                "baseline": {"accuracy": round(base["accuracy"], 4),
                             "image_accuracy": round(base["image_accuracy"], 4),
                             "ms_median": round(base["ms_median"], 2)},
                "baseline_over_reader_speed": round(base["ms_median"] / no_cal["ms_median"], 2),
            }
        out["photos_check_split"] = photos
    else:
        out["photos_check_split"] = f"skipped: no labelled photos at {root}"
    for size in ((1280, 960), (640, 480)):
        frames = _sim_frames(size, 20)
        right = sum(tray_read_right(read_dice(im, None), t) for im, _c, t, _e in frames)
        right_cal = sum(tray_read_right(read_dice(im, c), t) for im, c, t, _e in frames)
        right_empty = sum(tray_read_right(read_dice(im, e), t) for im, _c, t, e in frames)
        base_ms = []
        for im, _c, _t, _e in frames:
            start = time.perf_counter()
            read_baseline(im)
            base_ms.append((time.perf_counter() - start) * 1000.0)
        out[f"sim_{size[0]}x{size[1]}"] = {
            "without_calibration": _stats(_time([(im, None) for im, _c, _t, _e in frames])),
            "with_calibration": _stats(_time([(im, c) for im, c, _t, _e in frames])),
            # The tray's outline and die size as above, and its empty picture
            # (vision.changed: the detector searches only what changed).
            "with_calibration_and_empty_tray":
                _stats(_time([(im, e) for im, _c, _t, e in frames], warm=True)),
            "frames_read_right": f"{right}/{len(frames)}",
            "frames_read_right_with_calibration": f"{right_cal}/{len(frames)}",
            "frames_read_right_with_calibration_and_empty_tray": f"{right_empty}/{len(frames)}",
            "baseline_ms_median": round(statistics.median(base_ms), 2),
        }
    out["sim_close_up_640x480"] = _close_ups()
    out["sim_far_away_1280x960"] = _close_ups((1280, 960), ((0.025, 4), (0.03, 4)))
    out["sim_leaning_640x480"] = _leaning()
    out["sim_by_the_wall_640x480"] = _by_the_wall()
    out["sim_leaning_on_dice_640x480"] = _on_other_dice()
    out["sim_clustered_640x480"] = _clustered()
    out["memory"] = _memory()
    try:
        watcher = importlib.import_module("vision.bench_watcher")
    except ModuleNotFoundError as exc:
        if exc.name != "vision.bench_watcher":
            raise
    else:
        out["watcher"] = watcher.bench_watcher()
    return out
