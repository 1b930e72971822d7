"""Dice a person confirmed are read surely the next time, and the memory never reads a
die as a value the networks do not give it.

Two byler-d6 train photos show the same blue die with red pips: the reader's first two
looks are unsure of it (a two at 0.63) in one; the other photo's dice, named by their
labels, are what a family would have confirmed on the control page the throw before.
The third look, trained on these photos, reads it surely, so the memory is tried here
with the first two looks alone, as a die the nets never saw would be read.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import Calibration, KnownDie, load_calibration, save_calibration
from vision import known_dice
from vision.evaluate import load_labels, remembered, remembered_photo
from vision.reader import THRESHOLD, read_dice

pytestmark = pytest.mark.datasets


@pytest.fixture(autouse=True)
def _two_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import learned

    monkeypatch.setattr(learned, "THIRD_LOOK", False)

UNSURE_PHOTO = "IMG_20191208_111246.jpg"  # the blue two, read at 0.63
BEFORE_PHOTO = "IMG_20191208_111710.jpg"  # the same die, and 13 others


def _photo(datasets: Path, name: str) -> np.ndarray:
    image = cv2.imread(str(datasets / "byler-d6" / name))
    assert image is not None
    return image


def _confirmed(datasets: Path, name: str) -> tuple[KnownDie, ...]:
    """The dice of photo ``name`` as a person confirmed them: the values of its labels."""
    labels = next(im for im in load_labels(datasets / "byler-d6") if im.file == name)
    return remembered_photo((), datasets / "byler-d6", labels)


def _unsure_two(datasets: Path) -> tuple[np.ndarray, int]:
    image = _photo(datasets, UNSURE_PHOTO)
    dice = read_dice(image).dice
    unsure = [i for i, d in enumerate(dice) if d.reason == "low confidence"]
    assert [dice[i].value for i in unsure] == [2]
    return image, unsure[0]


def test_a_die_confirmed_before_is_read_surely(datasets: Path) -> None:
    image, i = _unsure_two(datasets)
    before = read_dice(image).dice
    known = _confirmed(datasets, BEFORE_PHOTO)
    assert len(known) == 14

    after = read_dice(image, Calibration(known_dice=known)).dice
    assert (after[i].value, after[i].flagged, after[i].confidence) == (2, False, THRESHOLD)
    # Nothing else changes: the memory only lifts dice read unsurely.
    assert [(d.value, d.flagged) for k, d in enumerate(after) if k != i] == \
        [(d.value, d.flagged) for k, d in enumerate(before) if k != i]


def test_the_memory_never_gives_a_value_the_nets_do_not(datasets: Path) -> None:
    image, i = _unsure_two(datasets)
    known = _confirmed(datasets, BEFORE_PHOTO)
    # A person named that die (and every two) a three by mistake: the reader still reads
    # a two, and still asks.
    wrong = tuple(dataclasses.replace(k, value=3) if k.value == 2 else k for k in known)
    die = read_dice(image, Calibration(known_dice=wrong)).dice[i]
    assert (die.value, die.flagged) == (2, True)
    # Dice of one value only say nothing about what is unlike them.
    twos = tuple(k for k in known if k.value == 2)
    assert twos
    assert read_dice(image, Calibration(known_dice=twos)).dice[i].flagged


def test_remembered_dice_survive_the_calibration_file(datasets: Path, tmp_path: Path) -> None:
    image, i = _unsure_two(datasets)
    save_calibration(Calibration(known_dice=_confirmed(datasets, BEFORE_PHOTO)), tmp_path / "c.json")
    loaded = load_calibration(tmp_path / "c.json")
    assert not read_dice(image, loaded).dice[i].flagged


def test_the_memory_keeps_the_newest_dice(datasets: Path) -> None:
    image = _photo(datasets, BEFORE_PHOTO)
    old = tuple(KnownDie(1, np.zeros((40, 40, 3), np.uint8)) for _ in range(known_dice.MAX_KNOWN))
    known = known_dice.remember(old, image, [(100.0, 100.0, 30.0, 4)])
    assert len(known) == known_dice.MAX_KNOWN and known[-1].value == 4
    assert known[0] is old[1]


def test_the_check_split_is_never_remembered(datasets: Path) -> None:
    with pytest.raises(ValueError, match="check split"):
        remembered(datasets / "byler-d6", "check")


def test_a_table_works_out_the_remembered_dice_before_the_first_throw(datasets: Path) -> None:
    known = _confirmed(datasets, BEFORE_PHOTO)
    known_dice.prepare(known)   # as a table's calibrator does, in a thread of its own
    image, i = _unsure_two(datasets)
    net_runs = []
    real = known_dice.features

    def counted(crops: np.ndarray, net: object = None) -> np.ndarray:
        net_runs.append(len(crops))
        return real(crops, net)  # type: ignore[arg-type]

    known_dice.features = counted  # type: ignore[assignment]
    try:
        assert not read_dice(image, Calibration(known_dice=known)).dice[i].flagged
    finally:
        known_dice.features = real  # type: ignore[assignment]
    assert net_runs == [1]  # only the unsure die itself: the remembered ones were ready
