"""The layout of DESIGN.md: each package imports only what its row allows, so that other
tools can take the scorer without OpenCV, or the reader without the web app."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# DESIGN.md's "may import" column; the standard library is allowed everywhere, and a
# package may import itself. vision/ also names picamera2 among its camera sources (it
# imports it by name when that camera is asked for).
MAY_IMPORT = {
    "scorer": set(),
    "vision": {"numpy", "cv2", "picamera2"},
    "calibration": {"numpy", "cv2", "vision"},
}
# Issue 3: the nets are trained by scripts in the repository with PyTorch (and written out
# with onnx), training tools that the reader never imports at run time.
TRAINING = ROOT / "vision" / "training"


def _imported(path: Path) -> set[str]:
    """The dotted names of the modules a source file imports (relative imports, of its
    own package, left out)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _imports(path: Path) -> set[str]:
    """The top-level modules outside the standard library that a source file imports."""
    tops = {name.split(".")[0] for name in _imported(path)}
    return tops - set(sys.stdlib_module_names) - {"__future__"}


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_a_package_imports_only_what_the_design_allows(package: str) -> None:
    allowed = MAY_IMPORT[package] | {package}
    wrong = {str(path.relative_to(ROOT)): sorted(_imports(path) - allowed)
             for path in sorted((ROOT / package).rglob("*.py"))
             if TRAINING not in path.parents}
    assert {path: names for path, names in wrong.items() if names} == {}


def test_the_training_scripts_are_never_imported_by_the_reader() -> None:
    for path in sorted((ROOT / "vision").glob("*.py")):
        assert not {m for m in _imported(path) if m.startswith("vision.training")}, path
