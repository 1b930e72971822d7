"""`make bench`: runs every package's benchmark and prints one JSON object.

Each package keeps its own measurements in a ``bench`` module with a ``run() -> dict``
function; this file only gathers them, so a benchmark lives beside the code it measures.
"""
from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

# Run as a script, Python puts tests/ first on the path, where tests/calibration/ would
# shadow the calibration package: look in the repository instead.
sys.path[0] = str(Path(__file__).resolve().parents[1])

MODULES = ["scorer.bench", "vision.bench", "calibration.bench", "web.bench"]


def main() -> int:
    results: dict[str, object] = {"started": time.strftime("%Y-%m-%dT%H:%M:%S")}
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        results[name.split(".")[0]] = module.run()
    json.dump(results, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
