"""Shared fixtures: where the labelled photos are, and whether a browser is required."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from vision.evaluate import shared_datasets


def datasets_root() -> Path:
    """The shared labelled photos: ``$DICETRAY_DATASETS`` or ``../shared/datasets``."""
    return shared_datasets()


@pytest.fixture(scope="session")
def datasets() -> Path:
    """The datasets folder; skips (or fails under DICETRAY_REQUIRE_DATASETS=1) when absent."""
    root = datasets_root()
    if not (root / "byler-d6" / "labels.json").is_file():
        message = f"labelled photos not found at {root} (set DICETRAY_DATASETS)"
        if os.environ.get("DICETRAY_REQUIRE_DATASETS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return root
