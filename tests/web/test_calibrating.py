"""A die with a logo is named once on the control page, and read by itself from then on."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from calibration import load_calibration
from web.store import Store
from web.table import Table
from web.teaching import KEEP_FRAMES, Teacher

from logo_frames import frame_with_logo


@pytest.fixture
def teacher(tmp_path: Path) -> Teacher:
    return Teacher(tmp_path / "calibration.json")


@pytest.fixture
def table(data_dir: Path, teacher: Teacher) -> Iterator[Table]:
    store = Store(data_dir)
    t = Table(store, teacher=teacher)
    yield t
    t.stop()
    store.close()


def _logo(seed: int, angle: float) -> tuple[np.ndarray, tuple[int, int], float]:
    """A tray with a 3, a 6 and a die showing a logo (the same logo for every seed)."""
    from vision.training.synth import synth_face

    canvas, face = synth_face(np.random.default_rng(1000), 1, picture=True)
    return frame_with_logo(seed, canvas, face, angle)


def _logo_die(reading: Any, at: tuple[int, int], side: float) -> int:
    near = [i for i, d in enumerate(reading.dice)
            if np.hypot(d.center[0] - at[0], d.center[1] - at[1]) < side / 2]
    assert len(near) == 1
    return near[0]


def _throw_logo(api: Any, teacher: Teacher) -> tuple[int, int]:
    """Pub Chicago's first throw (three dice) with the logo die: the waiting reading's id
    and the logo die's index in it."""
    api.post("games", {"family": "pub_chicago", "players": ["Aino", "Bertil"]})
    image, at, side = _logo(0, 0)
    reading = teacher.read(image)
    logo = _logo_die(reading, at, side)
    assert reading.dice[logo].flagged and reading.dice[logo].reason == "picture face"
    api.table.handle_reading(reading)
    state = api.state()
    assert state["reading"]["status"] == "waiting"
    return state["reading"]["id"], logo


def test_a_picture_named_once_is_read_by_itself_afterwards(api: Any, teacher: Teacher) -> None:
    reading_id, logo = _throw_logo(api, teacher)
    assert api.state()["table"]["teachable"] == [logo]

    api.post("correct", {"reading": reading_id, "die": logo, "value": 1, "teach": True})
    state = api.state()
    assert state["reading"]["status"] == "scored"
    assert sorted(d["value"] for d in state["reading"]["dice"]) == [1, 3, 6]
    saved = load_calibration(teacher.path)
    assert [f.value for f in saved.picture_faces] == [1]

    # The next throw shows the same logo elsewhere in the tray, turned: read as a 1.
    image, at, side = _logo(50, 40)
    reading = teacher.read(image)
    die = reading.dice[_logo_die(reading, at, side)]
    assert (die.value, die.flagged) == (1, False)


def test_a_correction_without_teach_teaches_nothing(api: Any, teacher: Teacher) -> None:
    reading_id, logo = _throw_logo(api, teacher)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1})
    assert api.state()["reading"]["status"] == "scored"
    assert not teacher.path.exists() and teacher.calibration is None


@pytest.mark.parametrize(
    ("change", "status", "says"),
    [
        ({"teach": "yes"}, 400, "'teach' must be true or false"),
        ({"die": "other"}, 400, "is not a picture face"),
    ],
)
def test_a_bad_teach_is_refused_and_changes_nothing(api: Any, teacher: Teacher,
                                                     change: dict[str, Any], status: int,
                                                     says: str) -> None:
    reading_id, logo = _throw_logo(api, teacher)
    body: dict[str, Any] = {"reading": reading_id, "die": logo, "value": 1, "teach": True}
    if change.get("die") == "other":
        body["die"] = (logo + 1) % 3          # a die of pips
    else:
        body.update(change)
    before = api.state()
    out = api.post("correct", body, status=status)
    assert says in out["error"]
    after = api.state()
    assert after["reading"] == before["reading"] and after["revision"] == before["revision"]
    assert not teacher.path.exists()


def test_a_picture_whose_frame_is_gone_cannot_be_taught(api: Any, teacher: Teacher) -> None:
    reading_id, logo = _throw_logo(api, teacher)
    for _ in range(KEEP_FRAMES):               # the camera reads on; the frame is dropped
        teacher.read(np.zeros((48, 64, 3), np.uint8))
    # The table kept its own reference to the frame of the waiting reading, so it can
    # still be taught ...
    assert api.state()["table"]["teachable"] == [logo]
    # ... but a reading the teacher never read (entered some other way) cannot.
    image, at, side = _logo(0, 0)
    from vision.reader import read_dice

    other = read_dice(image)
    api.table.handle_reading(other)
    state = api.state()
    assert state["table"]["teachable"] == []
    out = api.post("correct", {"reading": state["reading"]["id"], "die": _logo_die(other, at, side),
                               "value": 1, "teach": True}, status=409)
    assert "no longer kept" in out["error"]
    assert not teacher.path.exists()


def test_a_calibration_that_cannot_be_saved_changes_nothing(api: Any, teacher: Teacher) -> None:
    teacher.path.mkdir()                      # a folder where the file should go
    reading_id, logo = _throw_logo(api, teacher)
    before = api.state()
    out = api.post("correct", {"reading": reading_id, "die": logo, "value": 1, "teach": True},
                   status=503)
    assert "could not save the calibration" in out["error"]
    assert api.state()["reading"] == before["reading"]
    assert teacher.calibration is None
