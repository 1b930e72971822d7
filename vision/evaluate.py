"""Score the reader on labelled photo folders (``dicetray eval``).

A folder holds photos, ``labels.json`` and ``split.json`` as DESIGN.md describes; a
folder without ``split.json`` (photos from elsewhere) was never trained on, so all its
photos are check photos. A read die matches a labelled die when its centre lies in the
labelled box grown by 25 % on each side; matching is one-to-one, nearest pair first. A die is read right when its
value is right and it is not flagged; a die missed and a die read where none is count as
dice read wrong (the accuracy is the dice read right over the labelled dice and the
extra ones), and against their photo.
"""
from __future__ import annotations

import dataclasses
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.calibration_data import Calibration, KnownDie
from vision import known_dice
from vision.photos import read_photo
from vision.reader import DieRead, Reading, read_dice


def shared_datasets() -> Path:
    """The shared labelled photo folders: ``$DICETRAY_DATASETS`` where it is set, else
    ``../shared/datasets`` beside this clone (where ``make test``, ``make bench`` and the
    training scripts look)."""
    env = os.environ.get("DICETRAY_DATASETS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "datasets"


Reader = Callable[[np.ndarray, "Calibration | None"], Reading]

SPLITS = ("check", "train", "all")
GROW = 0.25
_COLUMNS = ["1", "2", "3", "4", "5", "6", "flagged", "missed"]


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: its value and box ``(x0, y0, x1, y1)`` in pixels."""

    value: int
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class LabelledImage:
    """One labelled photo of a folder."""

    file: str
    width: int
    height: int
    dice: tuple[LabelledDie, ...]


def load_labels(folder: Path | str) -> list[LabelledImage]:
    """Every labelled photo of a folder, from its ``labels.json``.

    A file that is not of DESIGN.md's form is refused, naming the file and the entry."""
    folder = Path(folder)
    path = folder / "labels.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read labels ({exc})") from exc
    except UnicodeDecodeError:
        raise ValueError(f"{path}: cannot read labels (not UTF-8 text)") from None
    except RecursionError:
        raise ValueError(f"{path}: cannot read labels (nested too deeply)") from None
    if not isinstance(data, dict) or not isinstance(data.get("images"), list):
        raise ValueError(f"{path}: no \"images\" list")
    images = [_labelled_image(path, n, entry) for n, entry in enumerate(data["images"])]
    # A photo listed twice would be read and counted twice.
    first: dict[str, int] = {}
    for n, im in enumerate(images):
        if im.file in first:
            raise ValueError(f"{path}: image entries {first[im.file]} and {n} are both "
                             f"{im.file!r}")
        first[im.file] = n
    return images


def _labelled_image(path: Path, n: int, entry: Any) -> LabelledImage:
    """Entry ``n`` of ``labels.json`` at ``path``, checked."""
    try:
        dice = []
        for d in entry["dice"]:
            value, box = d["value"], _box(d["box"])
            if isinstance(value, bool) or value not in range(1, 7):
                raise ValueError(f"value {value!r} is not 1..6")
            dice.append(LabelledDie(int(value), box))
        width, height = int(entry["width"]), int(entry["height"])
        for die in dice:
            # A die cut by the photo's edge is fine; one wholly off it cannot be read,
            # and would count as missed.
            x0, y0, x1, y1 = die.box
            if x1 <= 0 or y1 <= 0 or x0 >= width or y0 >= height:
                raise ValueError(f"box {list(die.box)} lies outside the {width}x{height} photo")
        return LabelledImage(str(entry["file"]), width, height, tuple(dice))
    # OverflowError: a width of 1e400 (infinity to JSON as Python reads it).
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        raise ValueError(f"{path}: image entry {n}: {what}") from exc


def _box(raw: Any) -> tuple[float, float, float, float]:
    """A labelled die's ``box`` as four finite numbers ``x0 < x1``, ``y0 < y1``, or
    ``ValueError``: an infinite corner would match every die read."""
    try:
        box = tuple(float(v) for v in raw)
    except (OverflowError, TypeError, ValueError):  # too big for a float, no list, no numbers
        box = ()
    if len(box) != 4 or not all(np.isfinite(box)) or not (box[0] < box[2] and box[1] < box[3]):
        raise ValueError(f"box {str(raw)[:80]} is not [x0, y0, x1, y1] with x0 < x1, y0 < y1")
    return box[0], box[1], box[2], box[3]


def split_files(folder: Path | str, split: str) -> set[str] | None:
    """The photo names of a split (``None``: every photo), from ``split.json``.

    A folder without ``split.json`` was never trained on (training reads only the
    ``train`` list of a split), so all its photos are ``check`` photos and it has no
    ``train`` photos."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: use one of {', '.join(SPLITS)}")
    if split == "all":
        return None
    path = Path(folder) / "split.json"
    if not has_split(folder):
        if split == "check":
            return None
        raise ValueError(f"{folder}: no split.json, so no {split} photos: use --split check or all")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        lists = {name: data[name] for name in ("train", "check") if name in data}
        names = data[split]
        if not all(isinstance(v, list) for v in lists.values()):
            raise TypeError("its train and check are not both lists")
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: cannot read split ({exc})") from exc
    except UnicodeDecodeError:
        raise ValueError(f"{path}: cannot read split (not UTF-8 text)") from None
    except RecursionError:
        raise ValueError(f"{path}: cannot read split (nested too deeply)") from None
    # A photo in both lists is one the reader was trained on, scored as if it never was.
    both = sorted({str(n) for n in lists.get("train", [])} & {str(n) for n in lists.get("check", [])})
    if both:
        named = ", ".join(map(repr, both[:3])) + (" ..." if len(both) > 3 else "")
        raise ValueError(f"{path}: {named} in both the train and the check list")
    return {str(n) for n in names}


def has_split(folder: Path | str) -> bool:
    """Whether ``folder`` says which of its photos are train and which check photos."""
    return (Path(folder) / "split.json").exists()


def select(folder: Path | str, split: str) -> list[LabelledImage]:
    """The labelled photos of ``folder`` that belong to ``split``, in sorted order."""
    names = split_files(folder, split)
    labelled = load_labels(folder)
    # A name the labels lack (a typo, a photo since removed) would shrink the split
    # without a word, and the report would be of other photos than the split says.
    unknown = sorted((names or set()) - {im.file for im in labelled})
    if unknown:
        listed = ", ".join(map(repr, unknown[:3])) + (" ..." if len(unknown) > 3 else "")
        raise ValueError(f"{Path(folder) / 'split.json'}: its {split} list names {listed}, "
                         "which labels.json does not hold")
    images = [im for im in labelled if names is None or im.file in names]
    if not images:
        raise ValueError(f"{Path(folder)}: no {split} photos to score"
                         + ("" if names is None else " (its split.json lists none)"))
    return sorted(images, key=lambda im: im.file)


def grown(box: Sequence[float], grow: float = GROW) -> tuple[float, float, float, float]:
    """The box grown by ``grow`` of its width/height on each side."""
    x0, y0, x1, y1 = box
    dx, dy = (x1 - x0) * grow, (y1 - y0) * grow
    return x0 - dx, y0 - dy, x1 + dx, y1 + dy


def match(
    read: Sequence[DieRead], labelled: Sequence[LabelledDie]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pair read dice with labelled dice by the DESIGN.md rule.

    Returns ``(pairs, unmatched_read, unmatched_labelled)``; ``pairs`` holds
    ``(read_index, labelled_index)``. Candidates are read centres inside a grown
    labelled box; the nearest pairs (centre to box centre) are taken first.
    """
    candidates: list[tuple[float, int, int]] = []
    for j, lab in enumerate(labelled):
        gx0, gy0, gx1, gy1 = grown(lab.box)
        cx = (lab.box[0] + lab.box[2]) / 2
        cy = (lab.box[1] + lab.box[3]) / 2
        for i, die in enumerate(read):
            x, y = die.center
            if gx0 <= x <= gx1 and gy0 <= y <= gy1:
                candidates.append((float(np.hypot(x - cx, y - cy)), i, j))
    candidates.sort()
    used_r: set[int] = set()
    used_l: set[int] = set()
    pairs = []
    for _, i, j in candidates:
        if i in used_r or j in used_l:
            continue
        used_r.add(i)
        used_l.add(j)
        pairs.append((i, j))
    return (
        pairs,
        [i for i in range(len(read)) if i not in used_r],
        [j for j in range(len(labelled)) if j not in used_l],
    )


def load_photo(folder: Path | str, im: LabelledImage) -> np.ndarray:
    """The labelled photo ``im`` of ``folder`` as BGR pixels in the labels' orientation.

    OpenCV turns a JPEG upright by its EXIF orientation (as a phone's photo is shown),
    but a labelling tool may have drawn the boxes on the pixels as stored: the photo is
    taken whichever way its size matches the ``width`` and ``height`` of its labels. A
    photo of neither size is refused naming both, as its boxes cannot be placed.
    """
    path = Path(folder) / im.file
    if not path.is_file():
        raise ValueError(f"{path}: no such photo (labels.json lists it)")
    upright = read_photo(path)
    if upright is None:
        raise ValueError(f"{path}: cannot decode the image (not an image, or damaged or cut short)")
    if upright.shape[:2] == (im.height, im.width):
        return np.asarray(upright)
    stored = read_photo(path, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if stored is not None and stored.shape[:2] == (im.height, im.width):
        return np.asarray(stored)
    h, w = upright.shape[:2]
    raise ValueError(f"{path}: the photo is {w}x{h} but labels.json gives {im.width}x{im.height}: "
                     "the boxes must be in the photo's own pixels")


def remembered(folder: Path | str, split: str = "train",
               calibration: Calibration | None = None) -> tuple[KnownDie, ...]:
    """The dice of a labelled split as a family would have confirmed them on the
    control page: every die the reader finds, remembered with its label's value
    (:mod:`vision.known_dice`), the last :data:`vision.known_dice.MAX_KNOWN` kept.

    This measures the memory on photos; the check split is never remembered.
    """
    if split == "check":
        raise ValueError("the check split is what the memory is measured on, not made of")
    if split == "train" and not has_split(folder):
        raise ValueError(f"{folder}: no split.json, so no train photos whose dice could be "
                         "remembered: score it without --remember-train")
    known: tuple[KnownDie, ...] = ()
    for im in select(folder, split):
        known = remembered_photo(known, folder, im, calibration)
    return known


def remembered_photo(known: tuple[KnownDie, ...], folder: Path | str, im: LabelledImage,
                     calibration: Calibration | None = None) -> tuple[KnownDie, ...]:
    """``known`` and the dice of one labelled photo, each die the reader finds
    remembered with its label's value."""
    image = load_photo(folder, im)
    dice = read_dice(image, calibration).dice
    pairs, _, _ = match(dice, im.dice)
    # Each photo is one throw, as a family would have confirmed it.
    return known_dice.remember(known, image, [
        (*dice[i].center, dice[i].face, im.dice[j].value) for i, j in pairs],
        [known_dice.source_of(im.file, j) for _, j in pairs])


class _Tally:
    """Counts for one folder (or the overall total)."""

    def __init__(self) -> None:
        self.dice = 0
        self.right = 0
        self.confident_misreads = 0
        self.flagged = 0
        self.missed = 0
        self.extra = 0
        self.images = 0
        self.images_right = 0
        self.ms: list[float] = []
        self.confusion = {str(v): {c: 0 for c in _COLUMNS} for v in range(1, 7)}
        # Why the flagged dice were flagged (vision.reader's reasons): a person checking the
        # numbers sees whether unsure reads, leaning dice or doubted candidates cost them.
        self.flagged_by_reason: dict[str, int] = {}
        self.mistakes: list[dict[str, Any]] = []

    def add(self, file: str, dice: Sequence[DieRead], labels: Sequence[LabelledDie], ms: float) -> None:
        pairs, extra, missed = match(dice, labels)
        ok = not extra and not missed
        self.images += 1
        self.ms.append(ms)
        self.dice += len(labels)
        self.missed += len(missed)
        self.extra += len(extra)
        for j in missed:
            self.confusion[str(labels[j].value)]["missed"] += 1
            self.mistakes.append({"file": file, "kind": "missed", "truth": labels[j].value,
                                  "box": list(labels[j].box)})
        for i in extra:
            self.mistakes.append({"file": file, "kind": "extra", "read": dice[i].to_json()})
        for i, j in pairs:
            die, truth = dice[i], labels[j].value
            row = self.confusion[str(truth)]
            if die.flagged:
                self.flagged += 1
                row["flagged"] += 1
                reason = die.reason or "flagged"
                self.flagged_by_reason[reason] = self.flagged_by_reason.get(reason, 0) + 1
                ok = False
                self.mistakes.append({"file": file, "kind": "flagged", "truth": truth,
                                      "read": die.to_json()})
            elif die.value == truth:
                self.right += 1
                row[str(truth)] += 1
            else:
                self.confident_misreads += 1
                row[str(die.value)] += 1
                ok = False
                self.mistakes.append({"file": file, "kind": "misread", "truth": truth,
                                      "read": die.to_json()})
        self.images_right += int(ok)

    def merge(self, other: _Tally) -> None:
        for name in ("dice", "right", "confident_misreads", "flagged", "missed", "extra",
                     "images", "images_right"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ms.extend(other.ms)
        for v, row in other.confusion.items():
            for c, n in row.items():
                self.confusion[v][c] += n
        for reason, n in other.flagged_by_reason.items():
            self.flagged_by_reason[reason] = self.flagged_by_reason.get(reason, 0) + n

    def report(self, *, with_mistakes: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "images": self.images,
            "images_right": self.images_right,
            "image_accuracy": self.images_right / self.images if self.images else 0.0,
            "dice": self.dice,
            "right": self.right,
            # Every die read wrong counts: misread, flagged, missed, and extra.
            "accuracy": self.right / (self.dice + self.extra) if self.dice + self.extra else 0.0,
            "confident_misreads": self.confident_misreads,
            "flagged": self.flagged,
            "flagged_by_reason": dict(sorted(self.flagged_by_reason.items())),
            "missed": self.missed,
            "extra": self.extra,
            "ms_median": statistics.median(self.ms) if self.ms else 0.0,
            "ms_mean": statistics.fmean(self.ms) if self.ms else 0.0,
            "ms_max": max(self.ms) if self.ms else 0.0,
            "confusion": self.confusion,
        }
        if with_mistakes:
            out["mistakes"] = self.mistakes
        return out


def evaluate(
    dirs: Sequence[Path | str],
    split: str = "check",
    calibration: Calibration | None = None,
    *,
    reader: Reader | None = None,
    remember_train: bool = False,
) -> dict[str, Any]:
    """Score :func:`read_dice` on labelled folders; returns per-folder and overall results.

    Timing runs OpenCV on one thread and excludes decoding the photo, as DESIGN.md asks,
    and loading the models (the first photo is read once untimed first).
    ``reader`` replaces :func:`read_dice` (the benchmark scores the baseline with it).
    With ``remember_train`` each folder is read with its train split's dice remembered
    (:func:`remembered`), as if a family had checked those throws; only the check split
    can be scored so.
    """
    read = reader or read_dice
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: use one of {', '.join(SPLITS)}")
    if remember_train and split != "check":
        raise ValueError(f"the {split} split holds the train photos whose dice would be "
                         "remembered: score the check split with them")
    seen: dict[Path, str] = {}
    for d in dirs:
        where = Path(d).resolve()
        if where in seen:
            raise ValueError(f"{d}: the same folder as {seen[where]}: each is scored once")
        seen[where] = str(d)
    previous = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        folders: dict[str, Any] = {}
        total = _Tally()
        warm = False  # the models are loaded and have run once
        for folder in map(Path, dirs):
            tally = _Tally()
            used = calibration
            if remember_train:
                base = calibration or Calibration()
                used = dataclasses.replace(base, known_dice=base.known_dice
                                           + remembered(folder, "train", calibration))
                known_dice.prepare(used.known_dice)  # as a table does at start: untimed
            photos = select(folder, split)
            if photos and not warm:
                # Untimed, as vision/bench.py does: the first read loads the models and
                # sets up their first run (some 100 ms), which is no photo's reading time.
                read(load_photo(folder, photos[0]), used)
                warm = True
            for labelled in photos:
                image = load_photo(folder, labelled)
                start = time.perf_counter()
                reading = read(image, used)
                ms = (time.perf_counter() - start) * 1000.0
                tally.add(labelled.file, reading.dice, labelled.dice, ms)
            # Two folders of one name (a/check, b/check) keep a row each: the second is
            # named by its path rather than overwriting the first's counts.
            name = folder.name if folder.name and folder.name not in folders else str(folder)
            folders[name] = tally.report(with_mistakes=True)
            folders[name]["path"] = str(folder)
            folders[name]["split_file"] = has_split(folder)
            total.merge(tally)
    finally:
        cv2.setNumThreads(previous)
    return {"split": split, "folders": folders, "overall": total.report(with_mistakes=False)}


def _summary_line(name: str, r: dict[str, Any]) -> str:
    line = (
        f"{name:<22} dice {r['right']:>4}/{r['dice'] + r['extra']:<4} {100 * r['accuracy']:6.2f} %  "
        f"photos {r['images_right']:>3}/{r['images']:<3} {100 * r['image_accuracy']:6.2f} %  "
        f"misread {r['confident_misreads']:>3}  flagged {r['flagged']:>3}  "
        f"missed {r['missed']:>3}  extra {r['extra']:>3}  {r['ms_median']:6.1f} ms median"
    )
    if r["flagged"]:
        why = ", ".join(f"{n} {reason}" for reason, n in r["flagged_by_reason"].items())
        line += f"\n{'':<22} flagged: {why}"
    return line


def format_report(report: dict[str, Any]) -> str:
    """A human-readable summary of :func:`evaluate`'s result."""
    lines = [f"split: {report['split']}"]
    for name, r in report["folders"].items():
        lines.append(_summary_line(name, r))
    lines.append(_summary_line("overall", report["overall"]))
    for name, r in report["folders"].items():
        if not r.get("split_file", True) and report["split"] == "check":
            lines.append(f"{name} has no split.json: every photo is read as a check photo")
    lines.append("")
    lines.append("confusion (rows: true value; columns: value read, flagged, missed)")
    lines.append("true " + "".join(f"{c:>8}" for c in _COLUMNS))
    for v, row in report["overall"]["confusion"].items():
        lines.append(f"{v:>4} " + "".join(f"{row[c]:>8}" for c in _COLUMNS))
    return "\n".join(lines)
