"""Make the held-out folders that reader changes are judged on (see README.md).

``--holdout`` training leaves every fourth train photo out; this writes, for each shared
folder, a folder of symlinks whose ``split.json`` lists those photos as ``check``, so
``dicetray eval OUT/byler-d6 OUT/matteop65-oblique`` scores exactly them::

    python -m vision.training.holdout /tmp/hold
"""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from vision.training.common import DATASETS, held_out, load_train


def write_folders(out: Path, root: Path = DATASETS) -> dict[str, int]:
    """Write ``out/<folder>`` for each shared folder; returns the held-out photo counts."""
    held = held_out(load_train(root))[1]
    counts: dict[str, int] = {}
    for name in sorted({s.source for s in held}):
        files = sorted(s.file for s in held if s.source == name)
        src = root / name
        train = json.loads((src / "split.json").read_text())["train"]
        dst = out / name
        dst.mkdir(parents=True, exist_ok=True)
        (dst / "labels.json").write_text((src / "labels.json").read_text())
        (dst / "split.json").write_text(json.dumps(
            {"train": sorted(set(train) - set(files)), "check": files}))
        for f in files:
            link = dst / f
            if not link.exists():
                os.symlink((src / f).resolve(), link)
        counts[name] = len(files)
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="where to write the held-out folders")
    args = ap.parse_args()
    for name, n in write_folders(args.out).items():
        print(f"{args.out / name}: {n} held-out photos")


if __name__ == "__main__":
    main()
