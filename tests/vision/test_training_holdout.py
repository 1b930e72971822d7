"""The held-out folders that reader changes are judged on (vision/training/holdout.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.evaluate import select
from vision.training.holdout import write_folders


def _folder(root: Path, name: str, n: int) -> list[str]:
    folder = root / name
    folder.mkdir(parents=True)
    files = [f"{name}-{k}.png" for k in range(n)]
    images = []
    for f in files:
        cv2.imwrite(str(folder / f), np.full((40, 40, 3), 200, np.uint8))
        images.append({"file": f, "width": 40, "height": 40,
                       "dice": [{"value": 3, "box": [10, 10, 30, 30]}]})
    (folder / "labels.json").write_text(json.dumps({"images": images}))
    # The last two photos are check photos: never held out, never trained on.
    (folder / "split.json").write_text(json.dumps({"train": files[:-2], "check": files[-2:]}))
    return files


def test_every_fourth_train_photo_is_held_out_and_scored_as_check(tmp_path: Path) -> None:
    byler = _folder(tmp_path / "data", "byler-d6", 7)
    matteo = _folder(tmp_path / "data", "matteop65-oblique", 6)
    counts = write_folders(tmp_path / "hold", tmp_path / "data")
    # Train photos in training order: byler-d6's five, then matteop65's four.
    order = byler[:5] + matteo[:4]
    held = set(order[::4])
    assert counts == {"byler-d6": 2, "matteop65-oblique": 1}
    for name, files in (("byler-d6", byler), ("matteop65-oblique", matteo)):
        out = tmp_path / "hold" / name
        checked = {im.file for im in select(out, "check")}
        assert checked == held & set(files)
        # The real check photos are in neither split of a held-out folder.
        split = json.loads((out / "split.json").read_text())
        assert not set(files[-2:]) & (set(split["train"]) | set(split["check"]))
        assert (out / sorted(checked)[0]).resolve() == (tmp_path / "data" / name / sorted(checked)[0]).resolve()


def test_the_training_scripts_read_the_photos_where_dicetray_datasets_says(tmp_path: Path) -> None:
    # Photos kept elsewhere than ../shared/datasets: the tests and `make bench` already
    # honoured the variable, and training read the default place regardless.
    shown = subprocess.run(
        [sys.executable, "-c", "from vision.training.common import DATASETS; print(DATASETS)"],
        env={**os.environ, "DICETRAY_DATASETS": str(tmp_path)}, capture_output=True, text=True,
        check=True)
    assert shown.stdout.strip() == str(tmp_path)
