"""The evaluation's matching rule and counts, on a hand-made label set."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import evaluate as ev
from vision.evaluate import LabelledDie, format_report, match, select
from vision.reader import DieRead, Reading


def _die(x: float, y: float, value: int | None = 3, flagged: bool = False) -> DieRead:
    return DieRead(value, (x, y), (x - 10, y - 10, x + 10, y + 10), 0.9, flagged,
                   "low confidence" if flagged else None)


def test_centre_in_grown_box_matches() -> None:
    lab = [LabelledDie(3, (100, 100, 140, 140))]
    # 25 % of 40 px = 10 px of slack on each side.
    assert match([_die(91, 120)], lab)[0] == [(0, 0)]
    assert match([_die(89, 120)], lab)[0] == []
    assert match([_die(120, 150)], lab)[0] == [(0, 0)]


def test_one_to_one_nearest_first() -> None:
    lab = [LabelledDie(1, (0, 0, 40, 40)), LabelledDie(2, (30, 0, 70, 40))]
    # Both read dice lie in both grown boxes; each takes its nearest label.
    pairs, extra, missed = match([_die(52, 20), _die(18, 20)], lab)
    assert sorted(pairs) == [(0, 1), (1, 0)]
    assert extra == [] and missed == []
    # A second read die near the same label is extra, not a second match.
    pairs, extra, missed = match([_die(20, 20), _die(21, 20)], lab[:1])
    assert pairs == [(0, 0)] and extra == [1] and missed == []


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    images = []
    for name in ("a.png", "b.png", "c.png"):
        cv2.imwrite(str(tmp_path / name), np.zeros((100, 100, 3), np.uint8))
    images = [
        {"file": "a.png", "width": 100, "height": 100,
         "dice": [{"value": 3, "box": [10, 10, 30, 30]}, {"value": 5, "box": [60, 60, 80, 80]}]},
        {"file": "b.png", "width": 100, "height": 100,
         "dice": [{"value": 2, "box": [10, 10, 30, 30]}]},
        {"file": "c.png", "width": 100, "height": 100,
         "dice": [{"value": 6, "box": [10, 10, 30, 30]}]},
    ]
    (tmp_path / "labels.json").write_text(json.dumps({"images": images}))
    (tmp_path / "split.json").write_text(json.dumps({"train": ["c.png"], "check": ["a.png", "b.png"]}))
    return tmp_path


def test_evaluate_counts(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = {
        # a: one right, one confidently wrong, one extra
        0: [_die(20, 20, 3), _die(70, 70, 4), _die(50, 5, 1)],
        # b: the die is flagged
        1: [_die(20, 20, 2, flagged=True)],
    }
    calls = iter([0, 0, 1])  # the first read of a.png is the untimed warm-up
    monkeypatch.setattr(ev, "read_dice", lambda image, cal=None: Reading(tuple(reads[next(calls)]), 1.0))
    report = ev.evaluate([folder], "check")
    r = report["folders"][folder.name]
    assert (r["dice"], r["right"], r["confident_misreads"], r["flagged"], r["missed"], r["extra"]) == (
        3, 1, 1, 1, 0, 1)
    assert r["images"] == 2 and r["images_right"] == 0
    assert r["confusion"]["5"]["4"] == 1 and r["confusion"]["2"]["flagged"] == 1
    # Three labelled dice and one read where none is: one right of four (the issue:
    # "missed and extra dice count as wrong").
    assert report["overall"]["accuracy"] == pytest.approx(1 / 4)
    assert " 1/4 " in format_report(report)
    assert "overall" in format_report(report)


def test_eval_says_why_the_flagged_dice_were_flagged(folder: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    tilted = DieRead(None, (70, 70), (60, 60, 80, 80), 0.6, True, "tilted")
    reads = {0: [_die(20, 20, 3, flagged=True), tilted], 1: [_die(20, 20, 2, flagged=True)]}
    calls = iter([0, 0, 1])  # the first read of a.png is the untimed warm-up
    monkeypatch.setattr(ev, "read_dice", lambda image, cal=None: Reading(tuple(reads[next(calls)]), 1.0))
    report = ev.evaluate([folder], "check")
    assert report["folders"][folder.name]["flagged_by_reason"] == {"low confidence": 2, "tilted": 1}
    assert report["overall"]["flagged_by_reason"] == {"low confidence": 2, "tilted": 1}
    assert "flagged: 2 low confidence, 1 tilted" in format_report(report)


def test_splits(folder: Path) -> None:
    assert [im.file for im in select(folder, "train")] == ["c.png"]
    assert [im.file for im in select(folder, "all")] == ["a.png", "b.png", "c.png"]
    with pytest.raises(ValueError, match="unknown split"):
        select(folder, "bogus")


def test_a_folder_without_a_split_is_all_check_photos(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Photos from elsewhere come with labels only: none was trained on.
    (folder / "split.json").unlink()
    assert [im.file for im in select(folder, "check")] == ["a.png", "b.png", "c.png"]
    with pytest.raises(ValueError, match="no split.json, so no train photos"):
        select(folder, "train")
    monkeypatch.setattr(ev, "read_dice", lambda image, cal=None: Reading((), 1.0))
    report = ev.evaluate([folder])
    assert report["folders"][folder.name]["images"] == 3
    assert report["folders"][folder.name]["split_file"] is False
    assert "has no split.json: every photo is read as a check photo" in format_report(report)


@pytest.mark.parametrize(("images", "message"), [
    ([{"file": "a.png", "width": 100, "height": 100}], "image entry 0: missing 'dice'"),
    ([{"file": "a.png", "width": 100, "height": 100, "dice": [{"value": 7, "box": [0, 0, 9, 9]}]}],
     "image entry 0: value 7 is not 1..6"),
    ([{"file": "a.png", "width": 100, "height": 100, "dice": [{"value": 2, "box": [9, 0, 0, 9]}]}],
     "image entry 0: box .* is not"),
    ({"file": "a.png"}, "no \"images\" list"),
    # Numbers JSON holds but a box or size cannot be: once a traceback, or a box that
    # took in every read die.
    ([{"file": "a.png", "width": 100, "height": 100,
       "dice": [{"value": 2, "box": [0, 0, 10**400, 9]}]}], "image entry 0: box .* is not"),
    ([{"file": "a.png", "width": 100, "height": 100,
       "dice": [{"value": 2, "box": [0, 0, float("inf"), 9]}]}], "image entry 0: box .* is not"),
    # Once "'NoneType' object is not iterable".
    ([{"file": "a.png", "width": 100, "height": 100,
       "dice": [{"value": 2, "box": None}]}], r"image entry 0: box None is not \[x0, y0, x1, y1\]"),
    ([{"file": "a.png", "width": 100, "height": 100,
       "dice": [{"value": 2, "box": ["a", 0, 5, 5]}]}], r"image entry 0: box \['a', 0, 5, 5\] is not"),
    # A box wholly off the photo (labelled on another size of it) can never be read: it
    # was counted as a die the reader missed.
    ([{"file": "a.png", "width": 100, "height": 100,
       "dice": [{"value": 2, "box": [120, 10, 140, 30]}]}],
     r"image entry 0: box \[120.0, 10.0, 140.0, 30.0\] lies outside the 100x100 photo"),
    ([{"file": "a.png", "width": 100, "height": 100,
       "dice": [{"value": 2, "box": [-30, -30, -10, -10]}]}], "image entry 0: box .* lies outside"),
    ([{"file": "a.png", "width": float("inf"), "height": 100, "dice": []}],
     "image entry 0: cannot convert float infinity"),
])
def test_malformed_labels_are_refused_by_name(tmp_path: Path, images: object, message: str) -> None:
    (tmp_path / "labels.json").write_text(json.dumps({"images": images}))
    with pytest.raises(ValueError, match=f"labels.json: {message}"):
        select(tmp_path, "all")


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """``jpeg`` with an EXIF block saying how to turn it upright, as a phone writes it."""
    import struct

    tiff = (b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
            + struct.pack("<HHII", 0x0112, 3, 1, orientation) + struct.pack("<I", 0))
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def test_a_phone_photo_is_read_in_the_orientation_its_labels_were_drawn_in(tmp_path: Path) -> None:
    """A phone stores a photo sideways with an EXIF note to turn it; OpenCV turns it, and
    a labelling tool may or may not have. Either way the boxes land on their dice."""
    from vision.sim import TrayStyle, render_tray

    rng = np.random.default_rng(4)
    stored, truth = render_tray(rng, [2, 5, 6], (640, 480),
                                style=TrayStyle.random(np.random.default_rng(4), (640, 480)))
    ok, jpeg = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    h, w = stored.shape[:2]

    def upright(box: tuple[float, ...]) -> list[float]:
        x0, y0, x1, y1 = box   # orientation 6: shown turned a quarter clockwise
        return [h - y1, x0, h - y0, x1]

    for name, size, boxes in (("as-stored", (w, h), [list(d.box) for d in truth]),
                              ("as-shown", (h, w), [upright(d.box) for d in truth])):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "phone.jpg").write_bytes(_with_exif_orientation(jpeg.tobytes(), 6))
        (folder / "labels.json").write_text(json.dumps({"images": [{
            "file": "phone.jpg", "width": size[0], "height": size[1],
            "dice": [{"value": d.value, "box": b} for d, b in zip(truth, boxes)]}]}))
        report = ev.evaluate([folder])["folders"][name]
        assert report["missed"] == 0 and report["extra"] == 0, (name, report)
        assert report["right"] == len(truth), (name, report)


def test_a_photo_unlike_its_labels_in_size_is_refused_naming_both(folder: Path) -> None:
    cv2.imwrite(str(folder / "a.png"), np.zeros((120, 90, 3), np.uint8))
    with pytest.raises(ValueError, match=r"a.png: the photo is 90x120 but labels.json gives 100x100"):
        ev.evaluate([folder])


def test_a_photo_the_labels_list_but_the_folder_lacks_is_named(folder: Path) -> None:
    (folder / "b.png").unlink()
    with pytest.raises(ValueError, match=r"b.png: no such photo \(labels.json lists it\)"):
        ev.evaluate([folder])


@pytest.mark.parametrize("name", ["labels.json", "split.json"])
def test_a_label_file_that_is_not_utf8_is_named(folder: Path, name: str) -> None:
    # Saved in Latin-1 by an editor: the message once gave only the codec's complaint.
    (folder / name).write_bytes(b'{"images": [], "notes": "caf\xe9"}')
    with pytest.raises(ValueError, match=f"{name}: .*not UTF-8 text"):
        ev.evaluate([folder])


def test_a_split_naming_a_photo_without_labels_is_refused(folder: Path) -> None:
    # A typo in split.json once left that photo out of the check silently: the report
    # was of fewer photos than the split lists, with nothing said.
    (folder / "split.json").write_text(json.dumps({"train": ["c.png"], "check": ["a.png", "bb.png"]}))
    with pytest.raises(ValueError, match=r"split.json: its check list names 'bb.png', "
                                         r"which labels.json does not hold"):
        ev.evaluate([folder])
    assert [im.file for im in select(folder, "train")] == ["c.png"]


def test_folders_of_one_name_keep_a_row_each(folder: Path, tmp_path_factory: pytest.TempPathFactory,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # a/set and b/set once shared one row: the second folder's counts replaced the
    # first's, and the rows no longer added up to the overall counts.
    other = tmp_path_factory.mktemp("other") / folder.name
    other.mkdir()
    for f in folder.iterdir():
        (other / f.name).write_bytes(f.read_bytes())
    monkeypatch.setattr(ev, "read_dice", lambda image, cal=None: Reading((), 1.0))
    report = ev.evaluate([folder, other], "check")
    rows = report["folders"]
    assert len(rows) == 2 and {r["path"] for r in rows.values()} == {str(folder), str(other)}
    assert sum(r["dice"] for r in rows.values()) == report["overall"]["dice"] == 6


def test_eval_times_no_model_loading(folder: Path) -> None:
    # The first read of a run loads the models (some 100 ms); it once counted as the
    # first photo's time and swelled the mean and max "ms per image".
    import time

    calls: list[int] = []

    def reader(image: np.ndarray, cal: object = None) -> Reading:
        time.sleep(0.2 if not calls else 0.0)
        calls.append(1)
        return Reading((), 0.0)

    r = ev.evaluate([folder], "check", reader=reader)["overall"]
    assert r["images"] == 2 and r["ms_max"] < 100


def test_a_photo_listed_twice_in_the_labels_is_refused(folder: Path) -> None:
    data = json.loads((folder / "labels.json").read_text())
    data["images"].append(dict(data["images"][0]))
    (folder / "labels.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="image entries 0 and 3 are both 'a.png'"):
        select(folder, "check")


def test_a_photo_in_both_the_train_and_the_check_list_is_refused(folder: Path) -> None:
    (folder / "split.json").write_text(json.dumps({"train": ["c.png", "b.png"],
                                                   "check": ["a.png", "b.png"]}))
    with pytest.raises(ValueError, match="'b.png' in both the train and the check list"):
        select(folder, "check")


def test_a_split_with_no_photo_to_score_is_refused(folder: Path) -> None:
    (folder / "split.json").write_text(json.dumps({"train": ["a.png", "b.png", "c.png"],
                                                   "check": []}))
    with pytest.raises(ValueError, match="no check photos to score"):
        ev.evaluate([folder], "check")


def test_one_folder_named_twice_is_scored_once(folder: Path) -> None:
    with pytest.raises(ValueError, match="the same folder as"):
        ev.evaluate([folder, folder / ".." / folder.name], "check")


@pytest.mark.parametrize("name", ["labels.json", "split.json"])
def test_a_label_file_nested_too_deeply_is_refused_by_name(folder: Path, name: str) -> None:
    (folder / name).write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match=f"{name}: cannot read .*nested too deeply"):
        select(folder, "check")


def test_remembering_the_train_photos_of_a_folder_with_none_says_so(folder: Path) -> None:
    (folder / "split.json").unlink()
    with pytest.raises(ValueError, match="no split.json, so no train photos whose dice could "
                                         "be remembered: score it without --remember-train"):
        ev.evaluate([folder], "check", remember_train=True)
