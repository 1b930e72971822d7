"""The calibration file: its format, and its atomic load and save.

The calibration itself, the data object the reader takes, is
:class:`vision.calibration_data.Calibration` (re-exported here); this module writes it to
one JSON file and reads it back, refusing a file that cannot be used by its name. Images
(the empty-tray background, the taught picture faces, the remembered dice) are stored
inside it as base64 PNG so that one atomic rename replaces the whole calibration.
"""
from __future__ import annotations

import base64
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.calibration_data import (MAX_TRAY_CORNERS, Calibration, KnownDie, PictureFace,
                                     crosses_itself)
from vision.json_text import unique_keys, whole_number

__all__ = ["FORMAT_VERSION", "MAX_TRAY_CORNERS", "Calibration", "CalibrationError",
           "KnownDie", "PictureFace", "calibration_from_json", "calibration_to_json",
           "crosses_itself", "load_calibration", "save_calibration"]

FORMAT_VERSION = 1


class CalibrationError(ValueError):
    """A calibration file that cannot be used; the message names the file and the fault."""


def calibration_to_json(cal: Calibration) -> dict[str, Any]:
    """The JSON form written by :func:`save_calibration`."""
    return {
        "version": FORMAT_VERSION,
        "tray": [list(map(float, p)) for p in cal.tray] if cal.tray is not None else None,
        "background": _encode_png(cal.background) if cal.background is not None else None,
        "die_size_px": cal.die_size_px,
        "pip_color": list(cal.pip_color) if cal.pip_color is not None else None,
        "picture_faces": [
            {"value": f.value, "template": _encode_png(f.template),
             **({"source": f.source} if f.source is not None else {})}
            for f in cal.picture_faces
        ],
        "image_size": list(cal.image_size) if cal.image_size is not None else None,
        "known_dice": [
            {"value": k.value, "crop": _encode_png(k.crop), "source": k.source}
            for k in cal.known_dice
        ],
        # Written only when true (and a picture's source only when known): a file that
        # needs neither stays one the versions before them read, should a family go back.
        **({"background_stale": True} if cal.background_stale else {}),
    }


def calibration_from_json(data: Any) -> Calibration:
    """Build a calibration from its JSON form; raises ``ValueError`` naming the fault."""
    if not isinstance(data, dict):
        raise ValueError("top level is not a JSON object")  # noqa: TRY004 (bad content)
    version = data.get("version")
    if isinstance(version, bool) or version != FORMAT_VERSION:
        raise ValueError(f"unknown format version {version!r} (expected {FORMAT_VERSION})")
    _only(data, _KEYS, "the calibration")
    tray_raw = data.get("tray")
    tray = None
    if tray_raw is not None:
        tray = tuple((_num(p[0], "tray"), _num(p[1], "tray")) for p in _pairs(tray_raw, "tray"))
    bg_raw = data.get("background")
    background = _decode_png(bg_raw, "background", colour=True) if bg_raw is not None else None
    size = data.get("die_size_px")
    pip = data.get("pip_color")
    faces = tuple(
        PictureFace(
            value=_whole(f.get("value"), "picture_faces.value"),
            template=_decode_png(f.get("template"), "picture_faces.template", colour=False),
            source=_text(f.get("source"), "picture_faces.source"),
        )
        for f in _objects(data.get("picture_faces"), "picture_faces")
    )
    known = tuple(
        KnownDie(
            value=_whole(k.get("value"), "known_dice.value"),
            crop=_decode_png(k.get("crop"), "known_dice.crop", colour=True),
            source=_text(k.get("source"), "known_dice.source"),
        )
        for k in _objects(data.get("known_dice"), "known_dice")
    )
    image_size = data.get("image_size")
    if tray is not None and image_size is not None:
        _tray_in_frame(tray, _list(image_size, "image_size", 2))
    return Calibration(
        tray=tray,
        background=background,
        die_size_px=_die_size(size, image_size) if size is not None else None,
        pip_color=(
            tuple(_whole(c, "pip_color") for c in _list(pip, "pip_color", 3))  # type: ignore[arg-type]
            if pip is not None
            else None
        ),
        picture_faces=faces,
        image_size=(
            tuple(_whole(v, "image_size") for v in _list(image_size, "image_size", 2))  # type: ignore[arg-type]
            if image_size is not None
            else None
        ),
        known_dice=known,
        background_stale=_flag(data.get("background_stale", False), "background_stale"),
    )


def _num(value: Any, name: str) -> float:
    # bool is an int in Python; a true/false where a number belongs is a corrupt file.
    # JSON as Python reads it also allows NaN and Infinity, which no position or size is.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name}: expected a number, found {value!r}")  # noqa: TRY004
    try:
        number = float(value)
    except OverflowError:  # an integer of hundreds of digits
        raise ValueError(f"{name}: expected a finite number, found one too big for any "
                         "picture") from None
    if not np.isfinite(number):
        raise ValueError(f"{name}: expected a finite number, found {value!r}")
    return number


def _whole(value: Any, name: str) -> int:
    """``value`` as a whole number (a die's value, a colour, a size in pixels), or
    ``ValueError`` naming ``name``: 3.5 is no die's value, and was read as 3."""
    number = _num(value, name)
    if not number.is_integer():
        raise ValueError(f"{name}: expected a whole number, found {value!r}")
    return int(number)


def _list(value: Any, name: str, length: int) -> list[Any]:
    """``value`` as a list of ``length`` items, or ``ValueError`` naming ``name``."""
    if not isinstance(value, list) or len(value) != length:
        raise ValueError(f"{name}: expected a list of {length} numbers, found {value!r}")
    return value


def _pairs(value: Any, name: str) -> list[list[Any]]:
    """``value`` as a list of ``[x, y]`` pairs, or ``ValueError`` naming ``name``."""
    if not isinstance(value, list):
        raise ValueError(f"{name}: expected a list of [x, y] points, found {value!r}")
    return [_list(p, f"{name} point {i + 1}", 2) for i, p in enumerate(value)]


def _objects(value: Any, name: str) -> list[dict[str, Any]]:
    """``value`` (absent: none) as a list of JSON objects, or ``ValueError`` naming ``name``."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(f"{name}: expected a list of objects, found {str(value)[:80]!r}")
    for item in value:
        _only(item, _ENTRY_KEYS[name], name)
    return value


# The keys the file holds (Calibration.to_json). The file may be written by hand: a key
# misspelt there ("die_sise_px") would be left out without a word, and the reader would
# work without what the person meant to give it.
_KEYS = frozenset({"version", "tray", "background", "die_size_px", "pip_color",
                   "picture_faces", "image_size", "known_dice", "background_stale"})
_ENTRY_KEYS = {"picture_faces": frozenset({"value", "template", "source"}),
               "known_dice": frozenset({"value", "crop", "source"})}


def _only(data: dict[str, Any], keys: frozenset[str], name: str) -> None:
    """Refuse keys of ``data`` that are not in ``keys``, naming them and ``name``."""
    unknown = sorted(set(map(str, data)) - keys)
    if unknown:
        raise ValueError(f"{name}: unknown key {', '.join(map(repr, unknown))} "
                         f"(known: {', '.join(sorted(keys))})")


def _flag(value: Any, name: str) -> bool:
    """``value`` as true or false, or ``ValueError`` naming ``name`` ("yes" or 1 written
    by hand is not taken for either)."""
    if not isinstance(value, bool):
        raise ValueError(f"{name}: expected true or false, found {value!r}")  # noqa: TRY004
    return value


def _text(value: Any, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name}: expected text, found {value!r}")  # noqa: TRY004
    return value


def _encode_png(image: np.ndarray) -> str:
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("could not encode image as PNG")
    return base64.b64encode(buf.tobytes()).decode("ascii")


def _decode_png(text: Any, name: str, *, colour: bool) -> np.ndarray:
    if not isinstance(text, str):
        raise ValueError(f"{name}: expected base64 PNG text")  # noqa: TRY004
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError as exc:
        raise ValueError(f"{name}: not valid base64 ({exc})") from None
    if not raw:
        raise ValueError(f"{name}: empty image")
    flag = cv2.IMREAD_COLOR if colour else cv2.IMREAD_GRAYSCALE
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), flag)
    if image is None:
        raise ValueError(f"{name}: not a decodable PNG image")
    return image


# A die size in a file beyond these is a slip of the hand (1 for 100, a size in mm):
# the reader would find no die in any frame, silently. No reader finds a die's pips
# below a few pixels; no camera's frame is as big as the upper one.
MIN_DIE_PX = 4.0
MAX_DIE_PX = 20000.0


def _die_size(raw: Any, image_size: Any) -> float:
    """A calibration file's ``die_size_px``, checked to be a die a frame can show."""
    size = float(_num(raw, "die_size_px"))
    if size < MIN_DIE_PX:
        raise ValueError(f"die_size_px {raw!r} is smaller than any die the reader can read "
                         f"(at least {MIN_DIE_PX:g} px)")
    frame = None
    if isinstance(image_size, list) and len(image_size) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in image_size):
        frame = max(image_size)
    if size > (frame or MAX_DIE_PX):
        raise ValueError(f"die_size_px {raw!r} is larger than the camera's frame "
                         f"({frame or MAX_DIE_PX:g} px)")
    return size


def _tray_in_frame(tray: tuple[tuple[float, float], ...], image_size: list[Any]) -> None:
    """Refuse a tray outline wholly beyond the frames ``image_size`` says it was marked in:
    the reader and the roll watcher would look at a pixel at the frame's edge and find no
    die, silently. (One reaching a little past the edge, written by hand, reads as it is.)"""
    width, height = (_whole(v, "image_size") for v in image_size)
    xs, ys = [x for x, _ in tray], [y for _, y in tray]
    if min(xs) >= width or max(xs) <= 0 or min(ys) >= height or max(ys) <= 0:
        raise ValueError(f"the tray outline lies wholly outside the {width}x{height} frames "
                         "of image_size: an outline is marked in the camera's picture")


def load_calibration(path: str | os.PathLike[str]) -> Calibration:
    """Read a calibration file; a missing or corrupt file raises :class:`CalibrationError`.

    A corrupt file is never replaced by defaults: the caller decides what to do.
    """
    p = Path(path)
    return _built(p, _read_json(p))


def load_calibration_but_tray(path: str | os.PathLike[str]) -> tuple[Calibration, str | None]:
    """Read a calibration file as :func:`load_calibration` does, except that a tray
    outline that cannot be used is left out, with why; ``(calibration, None)`` when
    nothing was.

    Earlier versions' control pages took outlines refused since (corners tapped out of
    order cross, 393c940): the file's taught pictures, remembered dice, empty tray and
    die size are still good, and the outline is marked again on the control page (which
    saves it in the file's place). Any other fault still raises :class:`CalibrationError`.
    """
    p = Path(path)
    data = _read_json(p)
    try:
        return _built(p, data), None
    except CalibrationError as exc:
        if not isinstance(data, dict) or data.get("tray") is None:
            raise
        try:
            rest = _built(p, {**data, "tray": None})
        except CalibrationError:
            raise exc from None
        return rest, (f"{exc}: the tray outline is not used (the rest of the file is): "
                      "mark the tray again on the control page")


def _read_json(p: Path) -> Any:
    """A calibration file's JSON, or :class:`CalibrationError` naming the file."""
    try:
        # utf-8-sig: a file edited by hand in Windows' Notepad begins with a byte-order mark.
        text = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CalibrationError(f"{p}: cannot read calibration file ({exc.strerror or exc})") from exc
    except UnicodeDecodeError:
        raise CalibrationError(f"{p}: calibration file is not UTF-8 text") from None
    try:
        # A key twice (Python keeps the last: a second die size added by hand would win
        # unseen) and an integer of over 4300 digits are refused in words.
        data = json.loads(text, parse_int=whole_number, object_pairs_hook=unique_keys)
    except ValueError as exc:
        raise CalibrationError(f"{p}: calibration file is not valid JSON ({exc})") from None
    except RecursionError:
        raise CalibrationError(f"{p}: calibration file is not valid JSON (nested too deeply)") from None
    return data


def _built(p: Path, data: Any) -> Calibration:
    """The calibration of a file's JSON, or :class:`CalibrationError` naming the file."""
    try:
        return calibration_from_json(data)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise CalibrationError(f"{p}: bad calibration file: {exc}") from None


def save_calibration(cal: Calibration, path: str | os.PathLike[str]) -> None:
    """Write the calibration atomically: a temp file in the same folder, then a rename.

    A reader of the file (or a crash mid-write) sees either the old or the new
    calibration, never half of one.
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(calibration_to_json(cal), indent=1)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
