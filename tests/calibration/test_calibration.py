"""Calibration round-trip, atomic save, and refusal of corrupt files."""
from __future__ import annotations

import base64
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import (
    Calibration,
    CalibrationError,
    KnownDie,
    PictureFace,
    load_calibration,
    save_calibration,
)


# A small die crop as the file holds it (base64 PNG).
_CROP = base64.b64encode(cv2.imencode(".png", np.zeros((40, 40, 3), np.uint8))[1].tobytes()).decode()
# Crops of other sizes: the reader cut each remembered die at 40 px; others once crashed
# it (a 1 px crop in its network, two sizes in one stack) on the first unsure die.
_TINY = base64.b64encode(cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))[1].tobytes()).decode()
_BIG = base64.b64encode(cv2.imencode(".png", np.zeros((41, 41, 3), np.uint8))[1].tobytes()).decode()


def _full() -> Calibration:
    rng = np.random.default_rng(1)
    return Calibration(
        tray=((10.0, 20.0), (600.0, 22.0), (610.0, 470.0), (12.0, 460.0)),
        background=rng.integers(0, 255, (48, 64, 3), dtype=np.uint8),
        die_size_px=41.5,
        pip_color=(20, 20, 30),
        picture_faces=(PictureFace(1, rng.integers(0, 255, (32, 32), dtype=np.uint8),
                                   "throw 1 die 3"),),
        image_size=(640, 480),
        known_dice=(KnownDie(5, rng.integers(0, 255, (40, 40, 3), dtype=np.uint8),
                             "throw 1 die 2"),),
        background_stale=True,
    )


def test_round_trip(tmp_path: Path) -> None:
    cal = _full()
    path = tmp_path / "cal.json"
    save_calibration(cal, path)
    back = load_calibration(path)
    assert back.tray == cal.tray
    assert back.die_size_px == cal.die_size_px
    assert back.pip_color == cal.pip_color
    assert back.image_size == cal.image_size
    assert back.background is not None and cal.background is not None
    assert np.array_equal(back.background, cal.background)
    assert len(back.picture_faces) == 1 and back.picture_faces[0].value == 1
    assert np.array_equal(back.picture_faces[0].template, cal.picture_faces[0].template)
    # The die it was taught from: correcting that throw after a restart renames it.
    assert back.picture_faces[0].source == "throw 1 die 3"
    assert [(k.value, k.source) for k in back.known_dice] == [(5, "throw 1 die 2")]
    assert back.background_stale is True
    assert np.array_equal(back.known_dice[0].crop, cal.known_dice[0].crop)
    # Nothing but the file itself is left in the folder (the temp file was renamed).
    assert [p.name for p in tmp_path.iterdir()] == ["cal.json"]


def test_a_file_that_needs_no_new_key_is_written_as_the_version_before_wrote_it(
        tmp_path: Path) -> None:
    # The version before this one refuses keys it does not know: a family that goes back
    # to it keeps its calibration, unless it relies on what came after.
    full = _full()
    plain = Calibration(tray=full.tray, background=full.background, die_size_px=41.5,
                        picture_faces=(PictureFace(1, full.picture_faces[0].template),),
                        image_size=(640, 480), known_dice=full.known_dice)
    save_calibration(plain, tmp_path / "c.json")
    written = json.loads((tmp_path / "c.json").read_text())
    assert set(written) == {"version", "tray", "background", "die_size_px", "pip_color",
                            "picture_faces", "image_size", "known_dice"}
    assert set(written["picture_faces"][0]) == {"value", "template"}
    back = load_calibration(tmp_path / "c.json")
    assert back.background_stale is False and back.picture_faces[0].source is None


def test_empty_calibration_round_trip(tmp_path: Path) -> None:
    save_calibration(Calibration(), tmp_path / "c.json")
    back = load_calibration(tmp_path / "c.json")
    assert back.tray is None and back.background is None and back.picture_faces == ()
    assert back.known_dice == ()


def test_from_rect_and_in_tray() -> None:
    cal = Calibration.from_rect(100, 50, 300, 250)
    assert cal.in_tray(200, 100)
    assert not cal.in_tray(20, 100)
    assert cal.tray_bounds(640, 480) == (100, 50, 300, 250)


def test_edge_distance_is_how_far_inside_the_tray() -> None:
    cal = Calibration.from_rect(100, 50, 300, 250)
    assert cal.edge_distance(200, 60) == pytest.approx(10.0)  # 10 px below the top wall
    assert cal.edge_distance(110, 150) == pytest.approx(10.0)  # 10 px right of the left wall
    assert cal.edge_distance(90, 150) == pytest.approx(-10.0)  # outside the tray
    assert Calibration(die_size_px=30.0).edge_distance(200, 60) is None


@pytest.mark.parametrize(
    "text, fault",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"version": 99}', "version"),
        ('{"version": 1, "die_size_px": "big"}', "die_size_px"),
        ('{"version": 1, "background": "@@@"}', "background"),
        ('{"version": 1, "tray": [[0, 0], [1, 1]]}', "tray"),
        ('{"version": 1, "background": ""}', "background: empty image"),
        ('{"version": 1, "known_dice": [{"value": 2, "crop": "%s", "source": 3}]}' % _CROP,
         "known_dice.source"),
        ('{"version": 1, "picture_faces": [{"value": 2, "template": "%s", "source": 3}]}'
         % _CROP, "picture_faces.source"),
        ('{"version": 1, "known_dice": [{"value": 7, "crop": "%s"}]}' % _CROP,
         "known die value must be 1-6"),
        ('{"version": 1, "known_dice": [{"value": 2, "crop": "@@@"}]}', "known_dice.crop"),
        # Once truncated: a picture of 3.5 was taught as a 3, a frame of 640.5 px as 640.
        ('{"version": 1, "known_dice": [{"value": 3.5, "crop": "%s"}]}' % _CROP,
         "known_dice.value: expected a whole number, found 3.5"),
        ('{"version": 1, "picture_faces": [{"value": 3.5, "template": "%s"}]}' % _CROP,
         "picture_faces.value: expected a whole number, found 3.5"),
        ('{"version": 1, "image_size": [640.5, 480]}', "image_size: expected a whole number"),
        ('{"version": 1, "pip_color": [0, 12.5, 0]}', "pip_color: expected a whole number"),
        ('{"version": 1, "known_dice": [{"value": 2, "crop": "%s"}]}' % _TINY,
         "known die crop must be a 40x40 BGR image, not 1x1"),
        ('{"version": 1, "known_dice": [{"value": 2, "crop": "%s"}, {"value": 3, "crop": "%s"}]}'
         % (_CROP, _BIG), "known die crop must be a 40x40 BGR image, not 41x41"),
        # Each of these loaded once, and then the reader found nothing in any frame, or
        # failed on every one.
        ('{"version": 1, "die_size_px": Infinity}', "die_size_px: expected a finite number"),
        ('{"version": 1, "die_size_px": NaN}', "die_size_px: expected a finite number"),
        ('{"version": 1, "tray": [[0, 0], [NaN, 0], [10, 10]]}', "tray: expected a finite number"),
        ('{"version": 1, "tray": [[5, 5], [5, 5], [5, 5]]}', "encloses no area"),
        ('{"version": 1, "tray": [[0, 0], [600, 400], [600, 0], [0, 300]]}', "crosses itself"),
        ('{"version": 1, "tray": [[0, 0], [10, 0], [10]]}', "tray point 3: expected a list of 2 numbers"),
        # Checked for crossing sides at every load: 3000 corners once took 7.4 s.
        ('{"version": 1, "tray": %s}' % [[i, (i * i) % 97] for i in range(3000)],
         "tray polygon has 3000 points, at most 40"),
        ('{"version": 1, "tray": "all of it"}', "tray: expected a list of [x, y] points"),
        ('{"version": 1, "image_size": [0, 0]}', "image_size must be a width and height"),
        ('{"version": 1, "image_size": [640]}', "image_size: expected a list of 2 numbers"),
        ('{"version": 1, "pip_color": [300, 0, 0]}', "pip_color must be 0-255"),
        ('{"version": 1, "known_dice": "many"}', "known_dice: expected a list of objects"),
        ('{"version": true}', "unknown format version True"),
        ('{"version": 1, "background_stale": "yes"}', "background_stale: expected true or false"),
        # A misspelt key, once left out without a word: the file seemed to give a size.
        ('{"version": 1, "die_sise_px": 40}', "unknown key 'die_sise_px'"),
        ('{"version": 1, "known_dice": [{"value": 2, "crop": "%s", "sorce": "x"}]}' % _CROP,
         "known_dice: unknown key 'sorce'"),
        # An integer too big for a float once gave numpy's 'ufunc isfinite not supported'.
        ('{"version": 1, "die_size_px": 1%s}' % ("0" * 400), "die_size_px: expected a finite number"),
        ('{"version": 1, "tray": [[0, 0], [1%s, 0], [9, 9]]}' % ("0" * 400),
         "tray: expected a finite number"),
        # A slip of the hand: the reader then found no die in any frame, silently.
        ('{"version": 1, "die_size_px": 1}', "die_size_px 1 is smaller than any die the "
         "reader can read (at least 4 px)"),
        ('{"version": 1, "die_size_px": 1e308}', "die_size_px 1e+308 is larger than the "
         "camera's frame (20000 px)"),
        ('{"version": 1, "die_size_px": 700, "image_size": [640, 480]}',
         "die_size_px 700 is larger than the camera's frame (640 px)"),
        # An outline wholly beyond the frames it says it was marked in: the roll watcher
        # watched a pixel at the frame's edge and the reader found no die, silently.
        ('{"version": 1, "tray": [[700, 500], [800, 500], [800, 600]], "image_size": [640, 480]}',
         "the tray outline lies wholly outside the 640x480 frames of image_size"),
        ('{"version": 1, "tray": [[10, -90], [600, -90], [600, -10]], "image_size": [640, 480]}',
         "the tray outline lies wholly outside the 640x480 frames of image_size"),
        ('{"version": 1, "tray": %s}' % ("[" * 100_000 + "]" * 100_000), "nested too deeply"),
        # Python refuses to read an integer of over 4300 digits with a plain ValueError,
        # which once escaped without the file's name.
        ('{"version": 1, "die_size_px": 1%s}' % ("0" * 5000), "not valid JSON (a number of "
         "5001 digits)"),
        ('{"version": 1, "die_size_px": 40, "die_size_px": 80}',
         "not valid JSON (the key 'die_size_px' twice in one object)"),
    ],
)
def test_corrupt_file_is_refused_naming_file_and_fault(tmp_path: Path, text: str, fault: str) -> None:
    path = tmp_path / "cal.json"
    path.write_text(text)
    with pytest.raises(CalibrationError) as err:
        load_calibration(path)
    assert str(path) in str(err.value)
    assert fault in str(err.value)
    assert isinstance(err.value, ValueError)
    # Refusing never rewrites the user's file.
    assert path.read_text() == text


def test_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cannot read"):
        load_calibration(tmp_path / "absent.json")


def test_save_replaces_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    save_calibration(_full(), path)
    save_calibration(Calibration(die_size_px=30.0), path)
    data = json.loads(path.read_text())
    assert data["die_size_px"] == 30.0 and data["background"] is None


def test_the_readmes_hand_written_calibration_loads(tmp_path: Path) -> None:
    """The README shows a calibration written by hand; it must be one the reader takes."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    example = readme.split("```json\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "calibration.json"
    path.write_text(example)
    cal = load_calibration(path)
    assert cal.tray is not None and len(cal.tray) == 4 and cal.die_size_px == 42
    assert cal.in_tray(320, 240) and not cal.in_tray(10, 10)


def test_a_calibration_follows_the_frames_size() -> None:
    """Made at one resolution, a calibration is scaled for frames of another with the same
    shape, and loses its positions for frames of another shape, which it does not show."""
    background = np.zeros((240, 320, 3), np.uint8)
    cal = Calibration.from_rect(10, 10, 310, 230, die_size_px=20.0, background=background,
                                image_size=(320, 240))
    assert cal.for_frame(320, 240) is cal
    big = cal.for_frame(640, 480)
    assert big.tray == ((20, 20), (620, 20), (620, 460), (20, 460))
    assert big.die_size_px == 40.0 and big.image_size == (640, 480)
    assert big.background is not None and big.background.shape == (480, 640, 3)
    wide = cal.for_frame(640, 360)
    assert wide.tray is None and wide.die_size_px is None and wide.background is None
    # Without a frame size it is taken as it is.
    plain = Calibration.from_rect(10, 10, 310, 230)
    assert plain.for_frame(640, 480) is plain


def test_the_reader_scales_a_calibration_made_at_another_resolution() -> None:
    """A tray outline marked on 640×480 frames still holds every die of a 1280×960 frame
    of the same tray: no die is lost outside a wrongly placed outline."""
    from vision.reader import read_dice
    from vision.sim import TrayStyle, render_tray

    rng = np.random.default_rng(5)
    style = TrayStyle.random(rng, (1280, 960))
    frame, truth = render_tray(rng, [2, 5, 6], (1280, 960), style=style)
    m = style.margin * 640
    small = Calibration.from_rect(m, m, 640 - m, 480 - m, image_size=(640, 480))
    native = Calibration.from_rect(2 * m, 2 * m, 1280 - 2 * m, 960 - 2 * m)
    reading = read_dice(frame, small)
    assert len(reading.dice) == len(truth)
    assert reading.to_json()["dice"] == read_dice(frame, native).to_json()["dice"]


def test_a_tray_beyond_the_frame_reads_nothing_rather_than_failing() -> None:
    """A hand-written outline for a bigger camera (no image_size given) lies wholly to the
    right of or below a smaller photo: nothing of the tray is in it, so no die is read;
    the reader once cut an empty region and OpenCV failed on it."""
    from vision.reader import read_dice

    cal = Calibration.from_rect(700, 500, 1200, 900)
    assert cal.tray_bounds(640, 480) == (639, 479, 640, 480)
    assert read_dice(np.full((480, 640, 3), 90, np.uint8), cal).dice == ()


def test_a_file_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    """Windows' Notepad begins a file it saves with one; the README invites editing by hand."""
    path = tmp_path / "cal.json"
    path.write_text('\ufeff{"version": 1, "die_size_px": 42}', encoding="utf-8")
    assert load_calibration(path).die_size_px == 42.0


def _png(image: np.ndarray) -> str:
    return base64.b64encode(cv2.imencode(".png", image)[1].tobytes()).decode()


# A calibration.json as the control page of 2026-11-30 (755f431) and of 2026-12-01
# (d014336) saved it: every key of the format, and an outline whose corners were tapped
# top-left, top-right, bottom-left, bottom-right, which those pages took (refused since
# 393c940, as it crosses itself).
_OLD_FILE = {
    "version": 1,
    "tray": [[100.0, 100.0], [1100.0, 90.0], [100.0, 850.0], [1150.0, 860.0]],
    "background": _png(np.full((96, 128, 3), 70, np.uint8)),
    "die_size_px": 89.0,
    "pip_color": [10, 10, 10],
    "picture_faces": [{"value": 6, "template": _png(np.full((36, 36), 200, np.uint8))}],
    "image_size": [1280, 960],
    "known_dice": [{"value": 3, "crop": _CROP, "source": "reading 4 die 1"}],
}


def test_an_outline_an_earlier_version_took_is_left_out_keeping_the_rest(tmp_path: Path) -> None:
    from calibration.calibration import load_calibration_but_tray

    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(_OLD_FILE, indent=1))
    with pytest.raises(CalibrationError, match="crosses itself"):
        load_calibration(path)              # the file as it is: refused, naming the fault
    cal, note = load_calibration_but_tray(path)
    assert cal.tray is None and note is not None
    assert note.startswith(f"{path}: bad calibration file: tray polygon")
    assert "crosses itself" in note and note.endswith("mark the tray again on the control page")
    assert cal.die_size_px == 89.0 and cal.image_size == (1280, 960)
    assert cal.background is not None and cal.background.shape == (96, 128, 3)
    assert [f.value for f in cal.picture_faces] == [6]
    assert [(k.value, k.source) for k in cal.known_dice] == [(3, "reading 4 die 1")]
    assert path.read_text() == json.dumps(_OLD_FILE, indent=1)      # left as it is
    good = {**_OLD_FILE, "tray": [[100.0, 100.0], [1100.0, 90.0], [1150.0, 860.0], [100.0, 850.0]]}
    path.write_text(json.dumps(good))
    assert load_calibration_but_tray(path)[1] is None


def test_only_the_outline_is_left_out_other_faults_still_refuse_the_file(tmp_path: Path) -> None:
    from calibration.calibration import load_calibration_but_tray

    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({**_OLD_FILE, "die_size_px": 1.0}))
    with pytest.raises(CalibrationError, match="die_size_px 1.0 is smaller"):
        load_calibration_but_tray(path)
    path.write_text("{not json")
    with pytest.raises(CalibrationError, match="not valid JSON"):
        load_calibration_but_tray(path)
