"""The calibration at the table: a logo named once is read by itself from then on, and the
tray's outline is marked on the camera's picture."""
from __future__ import annotations

import contextlib
import errno
import json
import math
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from calibration import load_calibration
from web.store import Store
from web.table import Table, TableError
from web.calibrating import KEEP_FRAMES, Calibrator

from logo_frames import frame_with_logo
from waiting import wait_for


@pytest.fixture
def calibrator(tmp_path: Path) -> Calibrator:
    return Calibrator(tmp_path / "calibration.json")


@pytest.fixture
def table(data_dir: Path, calibrator: Calibrator) -> Iterator[Table]:
    store = Store(data_dir)
    t = Table(store, calibrator=calibrator)
    yield t
    t.stop()
    store.close()


@contextlib.contextmanager
def _running(data: Path, calibrator: Calibrator, camera: Any = None) -> Iterator[Table]:
    """A table on ``camera`` (by default the fake one), once its first frame is in."""
    from web.fakes import FakeCamera

    store = Store(data)
    table = Table(store, camera=camera or FakeCamera(), calibrator=calibrator).start()
    try:
        _first_frame(table)
        yield table
    finally:
        table.stop()
        store.close()


def _first_frame(table: Table) -> None:
    deadline = time.monotonic() + 5
    while table.snapshot() is None and time.monotonic() < deadline:
        time.sleep(0.01)


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


def _throw_logo(api: Any, calibrator: Calibrator) -> tuple[int, int]:
    """Pub Chicago's first throw (three dice) with the logo die: the waiting reading's id
    and the logo die's index in it."""
    api.post("games", {"family": "pub_chicago", "players": ["Aino", "Bertil"]})
    image, at, side = _logo(0, 0)
    reading = calibrator.read(image)
    logo = _logo_die(reading, at, side)
    assert reading.dice[logo].flagged and reading.dice[logo].reason == "picture face"
    api.table.handle_reading(reading)
    state = api.state()
    assert state["reading"]["status"] == "waiting"
    return state["reading"]["id"], logo


def test_a_tap_that_cannot_be_scored_teaches_nothing(api: Any, calibrator: Calibrator) -> None:
    """Bertil's throw with the logo waits; two Undos take back Aino's announcement and
    her "done", so she throws again. Naming
    the logo now cannot score Bertil's dice as Aino's throw, and, refused, it must not
    have taught the picture either: a refused tap changes nothing."""
    from web.fakes import reading

    api.post("games", {"family": "pub_chicago", "players": ["Aino", "Bertil"]})
    api.table.handle_reading(reading(2, 3, 4))
    api.post("action", {"type": "done", "player": "Aino"})
    api.post("action", {"type": "announce", "player": "Aino", "ones": 100, "sixes": 60,
                        "order": "high"})
    image, at, side = _logo(0, 0)
    logo_reading = calibrator.read(image)
    logo = _logo_die(logo_reading, at, side)
    api.table.handle_reading(logo_reading)
    waiting = api.state()["reading"]
    assert waiting["status"] == "waiting" and waiting["player"] == "Bertil"
    api.post("undo")
    api.post("undo")
    before = api.state()
    assert before["game"]["next"]["player"] == "Aino" and before["game"]["next"]["dice"] == 3

    out = api.post("correct", {"reading": waiting["id"], "die": logo, "value": 1, "teach": True},
                   status=409)
    assert "Bertil's throw" in out["error"]
    assert not calibrator.path.exists() or not load_calibration(calibrator.path).picture_faces
    assert api.state() == before


def test_a_picture_named_once_is_read_by_itself_afterwards(api: Any, calibrator: Calibrator) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
    assert api.state()["table"]["teachable"] == [logo]

    api.post("correct", {"reading": reading_id, "die": logo, "value": 1, "teach": True})
    state = api.state()
    assert state["reading"]["status"] == "scored"
    assert sorted(d["value"] for d in state["reading"]["dice"]) == [1, 3, 6]
    saved = load_calibration(calibrator.path)
    assert [f.value for f in saved.picture_faces] == [1]

    # The next throw shows the same logo elsewhere in the tray, turned: read as a 1.
    image, at, side = _logo(50, 40)
    reading = calibrator.read(image)
    die = reading.dice[_logo_die(reading, at, side)]
    assert (die.value, die.flagged) == (1, False)


def test_a_picture_named_wrongly_is_mended_by_correcting_its_throw(
        api: Any, calibrator: Calibrator) -> None:
    """A slip when naming the logo (6 for 1), mended as the README has a family mend a
    slip: by tapping the die of the scored throw again. The remembered dice took the 1,
    but the picture stayed a 6, and the next throws read the logo as a 6, surely."""
    reading_id, logo = _throw_logo(api, calibrator)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 6, "teach": True})
    seen = [d["value"] for d in api.state()["reading"]["dice"]]
    state = api.post("correct", {"reading": reading_id, "die": logo, "value": 1, "seen": seen})
    assert state["camera"]["picture_values"] == [1]
    assert [f.value for f in load_calibration(calibrator.path).picture_faces] == [1]
    image, at, side = _logo(50, 40)
    reading = calibrator.read(image)
    assert reading.dice[_logo_die(reading, at, side)].value == 1
    # Undoing the correction gives the throw, and the picture, the value named first.
    api.post("undo")
    assert [f.value for f in load_calibration(calibrator.path).picture_faces] == [6]


def test_a_correction_without_teach_teaches_no_picture(api: Any, calibrator: Calibrator) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1})
    assert api.state()["reading"]["status"] == "scored"
    assert load_calibration(calibrator.path).picture_faces == ()


def test_a_checked_throw_is_remembered_until_forgotten(api: Any, calibrator: Calibrator) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
    assert api.state()["camera"]["known_dice"] == 0
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1})
    # A person looked at this throw: its three dice are remembered with their values,
    # in the file too (vision.known_dice reads such dice surely from then on).
    assert api.state()["camera"]["known_dice"] == 3
    assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [1, 3, 6]
    api.post("forget-known-dice", {"all": True})
    assert api.state()["camera"]["known_dice"] == 0
    assert load_calibration(calibrator.path).known_dice == ()


def test_correcting_a_checked_throw_corrects_what_was_remembered(
        api: Any, calibrator: Calibrator) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1})   # a slip: it is a 2
    assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [1, 3, 6]
    api.post("correct", {"reading": reading_id, "die": logo, "value": 2})
    assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [2, 3, 6]
    # By the roll's log index too (the history page's correction).
    action = api.state()["reading"]["action"]
    values = [d["value"] for d in api.state()["reading"]["dice"]]
    values[logo] = 4
    api.post("correct", {"action": action, "dice": values})
    assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [3, 4, 6]
    # Dice remembered from other throws keep their values.
    assert api.state()["camera"]["known_dice"] == 3


def test_a_throw_scored_unchecked_is_not_remembered(api: Any, calibrator: Calibrator) -> None:
    from vision.sim import render_tray

    api.post("games", {"family": "pub_chicago", "players": ["Aino", "Bertil"]})
    image, _ = render_tray(np.random.default_rng(3), [2, 4, 5], (640, 480))
    reading = calibrator.read(image)
    assert not reading.flagged
    api.table.handle_reading(reading)
    assert api.state()["reading"]["status"] == "scored"
    assert api.state()["camera"]["known_dice"] == 0 and not calibrator.path.exists()


def _scored_unchecked(api: Any, calibrator: Calibrator, seed: int = 3) -> dict[str, Any]:
    """A Pub Chicago throw of three dice read surely and scored without anyone checking it."""
    from vision.sim import render_tray

    if api.state()["game"] is None:
        api.post("games", {"family": "pub_chicago", "players": ["Aino", "Bertil"]})
    image, _ = render_tray(np.random.default_rng(seed), [2, 4, 5], (640, 480))
    reading = calibrator.read(image)
    assert not reading.flagged
    api.table.handle_reading(reading)
    state = api.state()
    assert state["reading"]["status"] == "scored"
    return state


def test_a_scored_throw_is_shown_as_the_camera_saw_it(api: Any, calibrator: Calibrator) -> None:
    """The latest throw's picture is on the control page even once it is scored, to tell
    which die is which when one needs correcting."""
    state = _scored_unchecked(api, calibrator)
    assert state["table"]["picture"] is True
    picture = api.client.get(f"/api/readings/{state['reading']['id']}/picture.jpg")
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"


def test_screens_asking_for_a_throws_picture_at_once_are_answered_one_after_another(
        api: Any, calibrator: Calibrator, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each picture is a copy of a whole camera frame, drawn on and encoded, and OpenCV
    keeps a copy of its font (about 6 MB) for the life of each thread that drew text: drawn
    by whichever server thread took the request, the appliance held 180 MB more after a
    few hundred pictures. Made one at a time by one thread, every screen still gets its
    picture."""
    import threading

    rid = _scored_unchecked(api, calibrator)["reading"]["id"]
    making, most = [0], [0]
    painters: set[int] = set()
    guard = threading.Lock()
    drawn = api.table.reading_picture

    def slowly_drawn(reading_id: Any) -> Any:
        with guard:
            making[0] += 1
            most[0] = max(most[0], making[0])
            painters.add(threading.get_ident())
        try:
            time.sleep(0.02)
            return drawn(reading_id)
        finally:
            with guard:
                making[0] -= 1

    monkeypatch.setattr(api.table, "reading_picture", slowly_drawn)
    answers: list[int] = []

    def screen(k: int) -> None:
        got = api.client.application.test_client().get(
            f"/api/readings/{rid}/picture.jpg?screen={k}")
        answers.append(got.status_code)

    screens = [threading.Thread(target=screen, args=(k,)) for k in range(8)]
    for s in screens:
        s.start()
    for s in screens:
        s.join(10)
    assert answers == [200] * 8
    assert most[0] == 1
    assert len(painters) == 1
    assert not painters & {s.ident for s in screens}


def test_a_scored_throw_corrected_is_remembered_as_corrected(
        api: Any, calibrator: Calibrator) -> None:
    state = _scored_unchecked(api, calibrator)
    rid = state["reading"]["id"]
    values = [d["value"] for d in state["reading"]["dice"]]
    assert sorted(values) == [2, 4, 5] and api.state()["camera"]["known_dice"] == 0
    # Someone says the 2 is a 3 (a misread, here a slip): the throw has been looked at now.
    die = values.index(2)
    api.post("correct", {"reading": rid, "die": die, "value": 3})
    assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [3, 4, 5]
    # A second correction corrects what was remembered; it does not remember it twice.
    api.post("correct", {"reading": rid, "die": die, "value": 2})
    assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [2, 4, 5]


def test_a_checked_throw_not_remembered_then_is_remembered_when_corrected(
        api: Any, calibrator: Calibrator, monkeypatch: pytest.MonkeyPatch) -> None:
    """The calibration could not be written when a waiting throw was checked (a file
    edited by hand meanwhile): its dice were not remembered. Corrected later, while its
    picture is still kept, they are; the picture of a throw that waited is kept apart
    from those scored straight away, and was once not looked for there."""
    reading_id, logo = _throw_logo(api, calibrator)
    remember = calibrator.remember

    def cannot_write(*args: Any, **kwargs: Any) -> None:
        raise OSError("calibration.json: read-only file system")

    monkeypatch.setattr(calibrator, "remember", cannot_write)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1})
    assert api.state()["reading"]["status"] == "scored"
    assert api.state()["camera"]["known_dice"] == 0
    monkeypatch.setattr(calibrator, "remember", remember)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 2})
    assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [2, 3, 6]


def test_only_the_latest_scored_throws_pictures_are_kept(api: Any, calibrator: Calibrator) -> None:
    from web.table import KEEP_SCORED_FRAMES

    assert KEEP_SCORED_FRAMES == 2   # Aino's three throws of a Pub Chicago turn
    scored = [_scored_unchecked(api, calibrator, seed)["reading"]["id"] for seed in (3, 6, 7)]
    for rid in scored[1:]:
        assert api.client.get(f"/api/readings/{rid}/picture.jpg").status_code == 200
    gone = api.client.get(f"/api/readings/{scored[0]}/picture.jpg")
    assert gone.status_code == 404 and "not kept" in gone.get_json()["error"]


def test_a_remembered_die_is_shown_and_forgotten_alone(api: Any, calibrator: Calibrator) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1})   # a slip: it is a 2
    newest = api.state()["camera"]["newest_known_dice"]
    assert [i for i, _v in newest] == [2, 1, 0] and sorted(v for _i, v in newest) == [1, 3, 6]
    picture = api.client.get("/api/known-dice/0.png")
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    slip = next(i for i, v in newest if v == 1)
    api.post("forget-known-dice", {"die": slip})
    assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [3, 6]
    assert sorted(v for _i, v in api.state()["camera"]["newest_known_dice"]) == [3, 6]


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"die": 5}, 400, "there is no remembered die 5: they are numbered 0 to 2"),
    ({"die": "1"}, 400, "'die' is the number of a remembered die"),
    ({"die": True}, 400, "'die' is the number of a remembered die"),
    # A request that names no die must not forget every one.
    ({}, 400, "say which one to forget"),
    ({"dei": 1}, 400, "takes no field 'dei' (its fields: 'die', 'all', 'seen')"),
    ({"all": "yes"}, 400, "say which one to forget"),
    ({"die": 0, "all": True}, 400, "say which one to forget"),
])
def test_forgetting_a_die_not_remembered_is_refused(api: Any, calibrator: Calibrator,
                                                    body: dict[str, Any], status: int,
                                                    says: str) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1})
    resp = api.client.post("/api/forget-known-dice", json=body)
    assert resp.status_code == status and says in resp.get_json()["error"]
    assert len(load_calibration(calibrator.path).known_dice) == 3
    assert api.client.get("/api/known-dice/3.png").status_code == 404


def test_forgetting_remembered_dice_needs_a_calibration(data_dir: Path) -> None:
    store = Store(data_dir)
    table = Table(store)
    try:
        with pytest.raises(TableError) as err:
            table.forget_known_dice()
        assert err.value.status == 409 and "no calibration" in str(err.value)
    finally:
        table.stop()
        store.close()


@pytest.mark.parametrize(
    ("change", "status", "says"),
    [
        ({"teach": "yes"}, 400, "'teach' must be true or false"),
        ({"die": "other"}, 400, "is not a picture face"),
    ],
)
def test_a_bad_teach_is_refused_and_changes_nothing(api: Any, calibrator: Calibrator,
                                                     change: dict[str, Any], status: int,
                                                     says: str) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
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
    assert not calibrator.path.exists()


def test_a_picture_whose_frame_is_gone_cannot_be_taught(api: Any, calibrator: Calibrator) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
    for _ in range(KEEP_FRAMES):               # the camera reads on; the frame is dropped
        calibrator.read(np.zeros((48, 64, 3), np.uint8))
    # The table kept its own reference to the frame of the waiting reading, so it can
    # still be taught ...
    assert api.state()["table"]["teachable"] == [logo]
    # ... but a reading the calibrator never read (entered some other way) cannot.
    image, at, side = _logo(0, 0)
    from vision.reader import read_dice

    other = read_dice(image)
    api.table.handle_reading(other)
    state = api.state()
    assert state["table"]["teachable"] == []
    out = api.post("correct", {"reading": state["reading"]["id"], "die": _logo_die(other, at, side),
                               "value": 1, "teach": True}, status=409)
    assert "no longer kept" in out["error"]
    assert not calibrator.path.exists()


def test_a_calibration_that_cannot_be_saved_changes_nothing(api: Any, calibrator: Calibrator) -> None:
    calibrator.path.mkdir()                      # a folder where the file should go
    reading_id, logo = _throw_logo(api, calibrator)
    before = api.state()
    out = api.post("correct", {"reading": reading_id, "die": logo, "value": 1, "teach": True},
                   status=503)
    assert "could not save the calibration" in out["error"]
    assert api.state()["reading"] == before["reading"]
    assert calibrator.calibration is None


# -- the tray's outline, marked on the camera's picture ---------------------------------


@pytest.fixture
def camera_api(data_dir: Path, calibrator: Calibrator) -> Iterator[Any]:
    """The API of a table with a (fake, 8×8 px) camera running and a calibrator."""
    from web.app import create_app
    from web.fakes import FakeCamera, FakeWatcher

    camera = FakeCamera()
    store = Store(data_dir)
    table = Table(store, camera=camera, calibrator=calibrator,
                  watcher_factory=lambda read: FakeWatcher(camera, read)).start()
    client = create_app(table).test_client()
    _first_frame(table)
    yield client
    table.stop()
    store.close()


def test_a_tray_outline_marked_on_the_picture_is_kept_and_used(
        camera_api: Any, calibrator: Calibrator) -> None:
    corners = [[1, 1], [7, 1], [7, 7], [1, 7]]
    resp = camera_api.post("/api/tray", json={"tray": corners})
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["camera"]["tray"] == corners
    saved = load_calibration(calibrator.path)
    assert saved.tray == ((1, 1), (7, 1), (7, 7), (1, 7)) and saved.image_size == (8, 8)
    assert calibrator.calibration is not None and not calibrator.calibration.in_tray(0.5, 4)

    resp = camera_api.post("/api/tray", json={"tray": None})      # forget it
    assert resp.status_code == 200 and resp.get_json()["camera"]["tray"] is None
    assert load_calibration(calibrator.path).tray is None


@pytest.mark.parametrize(
    ("tray", "says"),
    [
        ([[1, 1], [7, 7]], "at least 3 corners"),
        ([[1, 1], [7, 1], [9, 7]], "corner 3 (9, 7) lies outside the 8×8 picture"),
        ([[1, 1], [7, 1], ["7", 7]], "a list of [x, y] corners"),
        ("all of it", "a list of [x, y] corners"),
        ([[1, 1], [4, 4], [7, 7]], "enclose almost nothing"),
        # The top corners, then the bottom ones left to right: a bow tie whose middle,
        # where most dice land, would lie outside the tray.
        ([[1, 1], [7, 7], [7, 1], [1, 5]], "the outline crosses itself"),
        # The same mistake on a rectangle: the bow tie's two halves cancel out, and
        # "enclose almost nothing" would not tell the family what they did.
        ([[1, 1], [7, 1], [1, 7], [7, 7]], "the outline crosses itself"),
        # A tray is no curve of hundreds of points: checking every pair of sides of
        # thousands would hold the table (and every screen's actions) for minutes.
        ([[4 + 3 * math.cos(i / 100 * math.tau), 4 + 3 * math.sin(i / 100 * math.tau)]
          for i in range(100)], "at most 40 corners, not 100"),
    ],
)
def test_a_bad_tray_outline_is_refused_and_changes_nothing(
        camera_api: Any, calibrator: Calibrator, tray: Any, says: str) -> None:
    before = camera_api.get("/api/state").get_json()
    resp = camera_api.post("/api/tray", json={"tray": tray})
    assert resp.status_code == 400 and says in resp.get_json()["error"]
    assert camera_api.get("/api/state").get_json() == before
    assert not calibrator.path.exists()
    assert camera_api.post("/api/tray", json={}).status_code == 400   # no 'tray' at all



def test_a_tray_outline_saved_on_a_full_memory_card_is_refused_plainly(
        camera_api: Any, calibrator: Calibrator, monkeypatch: pytest.MonkeyPatch) -> None:
    """The family was shown "could not save the calibration: [Errno 28] No space left on
    device: ..." and not what to do about it."""
    def full(*args: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(calibrator.path))

    monkeypatch.setattr("web.calibrating.save_calibration", full)
    before = camera_api.get("/api/state").get_json()
    resp = camera_api.post("/api/tray", json={"tray": [[1, 1], [7, 1], [7, 7], [1, 7]]})
    assert resp.status_code == 503
    assert resp.get_json()["plain"] == ("the appliance's storage is full: nothing was saved; "
                                        "make room on its memory card, then tap again")
    assert camera_api.get("/api/state").get_json()["camera"]["tray"] == before["camera"]["tray"]
    assert not calibrator.path.exists()

LATE_CALIBRATION_WORDS = ("the tray was set up again just now, on this screen or another: "
                          "nothing was saved here; look at it again, and tap again if this "
                          "is still wanted")


@pytest.mark.parametrize(("route", "body"), [
    ("tray", {"tray": [[1, 1], [6, 1], [6, 6], [1, 6]]}),
    ("tray", {"tray": None}),
    ("empty-tray", {"take": False}),
    ("die-size", {"measure": True}),
])
def test_a_calibration_change_held_up_on_the_way_does_not_undo_one_saved_since(
        camera_api: Any, calibrator: Calibrator, route: str, body: dict[str, Any]) -> None:
    """A tablet's request held up by the Wi-Fi reached the table after another tablet
    saved a new outline (and took the tray empty), and put its own over them."""
    shown = camera_api.get("/api/state").get_json()["camera"]["calibration_revision"]
    newer = [[2, 2], [7, 2], [7, 7], [2, 7]]
    assert camera_api.post("/api/tray", json={"tray": newer, "calibration": shown}).status_code == 200
    now = camera_api.post("/api/empty-tray", json={"take": True}).get_json()
    before = camera_api.get("/api/state").get_json()
    assert before["camera"]["calibration_revision"] == now["camera"]["calibration_revision"] != shown

    resp = camera_api.post(f"/api/{route}", json=body | {"calibration": shown})
    assert resp.status_code == 409
    assert "the calibration was changed on another screen meanwhile" in resp.get_json()["error"]
    assert resp.get_json()["plain"] == LATE_CALIBRATION_WORDS
    assert camera_api.get("/api/state").get_json() == before
    saved = load_calibration(calibrator.path)
    assert saved.tray == tuple(tuple(p) for p in newer) and saved.background is not None
    # Made on the calibration as it is now, the same change is done.
    resp = camera_api.post(f"/api/{route}", json=body | {
        "calibration": before["camera"]["calibration_revision"]})
    assert resp.status_code == 200, resp.get_json()


def test_a_calibration_revision_that_is_no_number_is_refused_by_name(
        camera_api: Any, calibrator: Calibrator) -> None:
    resp = camera_api.post("/api/tray", json={"tray": None, "calibration": "3"})
    assert resp.status_code == 400
    assert "'calibration' is the revision of the calibration shown" in resp.get_json()["error"]
    assert not calibrator.path.exists()


def test_without_a_camera_there_is_no_tray_to_mark(api: Any, calibrator: Calibrator) -> None:
    out = api.post("tray", {"tray": [[0, 0], [8, 0], [8, 8]]}, status=409)
    assert "no camera picture" in out["error"]
    assert not calibrator.path.exists()


def test_taught_pictures_can_be_forgotten(api: Any, calibrator: Calibrator) -> None:
    """A picture named wrongly would be read wrong, surely, at every throw: forgetting
    the taught pictures flags the logo again until it is named anew."""
    reading_id, logo = _throw_logo(api, calibrator)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 2, "teach": True})
    assert api.state()["camera"]["pictures"] == 1

    assert api.post("forget-pictures", {"all": True})["camera"]["pictures"] == 0
    assert load_calibration(calibrator.path).picture_faces == ()
    image, at, side = _logo(0, 0)
    reading = calibrator.read(image)
    die = reading.dice[_logo_die(reading, at, side)]
    assert die.flagged and die.reason == "picture face"


def test_forgetting_pictures_needs_a_calibration_it_can_save(data_dir: Path, tmp_path: Path) -> None:
    from web.app import create_app

    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    store = Store(data_dir)
    try:
        for table, status in ((Table(store), 409),
                              (Table(store, calibrator=Calibrator(in_the_way / "c.json")), 503)):
            resp = create_app(table).test_client().post("/api/forget-pictures", json={"all": True})
            assert resp.status_code == status, resp.get_json()
    finally:
        store.close()


def test_a_waiting_throw_is_shown_with_its_dice_boxed_and_numbered(
        api: Any, calibrator: Calibrator) -> None:
    """Which die is the flagged one: the throw's frame with each die boxed, orange for
    the dice to check, and numbered as the control page lists them."""
    import cv2

    reading_id, logo = _throw_logo(api, calibrator)
    assert api.state()["table"]["picture"] is True
    resp = api.client.get(f"/api/readings/{reading_id}/picture.jpg")
    assert resp.status_code == 200 and resp.mimetype == "image/jpeg"
    picture = cv2.imdecode(np.frombuffer(resp.data, np.uint8), cv2.IMREAD_COLOR)
    image, _, _ = _logo(0, 0)
    assert picture.shape == image.shape
    x0, y0, x1, y1 = (int(round(v)) for v in api.state()["reading"]["dice"][logo]["box"])
    edge = picture[y0 - 1:y0 + 2, x0 + 3:x1 - 3].reshape(-1, 3).astype(int)
    # The flagged die's box is drawn in orange (BGR about 0, 140, 255).
    assert (edge[:, 2] - edge[:, 0]).mean() > 120
    missing = api.client.get(f"/api/readings/{reading_id + 5}/picture.jpg")
    assert missing.status_code == 404 and "no reading" in missing.get_json()["error"]


def test_the_empty_tray_is_taken_from_the_cameras_picture_and_can_be_forgotten(
        camera_api: Any, calibrator: Calibrator) -> None:
    """The fake camera shows a bare (black) tray: its picture is kept for the reader."""
    resp = camera_api.post("/api/empty-tray", json={"take": True})
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["camera"]["empty_tray"] is True
    saved = load_calibration(calibrator.path)
    assert saved.background is not None and saved.background.shape == (8, 8, 3)
    assert saved.image_size == (8, 8)

    resp = camera_api.post("/api/empty-tray", json={"take": False})
    assert resp.status_code == 200 and resp.get_json()["camera"]["empty_tray"] is False
    assert load_calibration(calibrator.path).background is None


def test_a_tray_with_dice_in_it_is_not_taken_for_the_empty_tray(data_dir: Path, tmp_path: Path) -> None:
    from vision.reader import Reading, make_die
    from web.app import create_app

    def sees_two(frame: np.ndarray, cal: Any) -> Reading:
        return Reading((make_die(3, (2, 2), (1, 1, 3, 3), 0.99),
                        make_die(None, (5, 5), (4, 4, 6, 6), 0.5, maybe_not_die=True)), 1.0)

    calibrator = Calibrator(tmp_path / "calibration.json", read=sees_two)
    with _running(data_dir, calibrator) as table:
        client = create_app(table).test_client()
        before = client.get("/api/state").get_json()
        resp = client.post("/api/empty-tray", json={"take": True})
        assert resp.status_code == 409
        assert "not empty: the camera sees 2 dice" in resp.get_json()["error"]
        assert client.get("/api/state").get_json() == before
        assert not calibrator.path.exists()


def test_the_empty_tray_is_not_taken_while_something_moves_in_it(
        data_dir: Path, calibrator: Calibrator) -> None:
    """A hand reaching into the tray is no die: "Take the empty tray" tapped then kept the
    hand in the tray's picture, and the tray read empty afterwards looked unlike it, so
    the control page said the camera had been turned."""
    from web.app import create_app
    from web.fakes import FakeCamera, FakeEvent

    class Hand:
        """The roll watcher while a hand moves in the tray, and once it has gone."""

        def __init__(self) -> None:
            self.moving = True
            self._index = 0

        def feed(self, frame: np.ndarray) -> list[FakeEvent]:
            self._index += 1
            return [FakeEvent("moving", self._index)] if self.moving else []

    hand = Hand()
    store = Store(data_dir)
    table = Table(store, camera=FakeCamera(), calibrator=calibrator,
                  watcher_factory=lambda read: hand).start()
    try:
        client = create_app(table).test_client()
        _first_frame(table)
        wait_for(lambda: table.state()["camera"]["moving"])
        answer = client.post("/api/empty-tray", json={"take": True})
        assert answer.status_code == 409
        assert "moving in the tray" in answer.get_json()["error"]
        assert not calibrator.path.exists()
        hand.moving = False                                   # the hand is gone
        wait_for(lambda: not table.state()["camera"]["moving"])
        answer = client.post("/api/empty-tray", json={"take": True})
        assert answer.status_code == 200 and answer.get_json()["camera"]["empty_tray"] is True
    finally:
        table.stop()
        store.close()


def test_dice_of_another_size_than_the_calibrated_one_are_seen_in_the_empty_tray(
        tmp_path: Path) -> None:
    """The family took bigger dice (or lowered the camera): the size measured before is
    half the dice's now, and cut at it the reader finds no die at all. "Take the empty
    tray" must still see the dice left in the tray, not keep them in its picture."""
    import dataclasses

    from calibration import Calibration
    from vision.reader import read_dice
    from vision.sim import TrayStyle, render_tray
    from web.calibrating import TrayNotEmpty

    rng = np.random.default_rng(0)
    style = dataclasses.replace(TrayStyle.random(rng, (640, 480)), clutter=0)
    frame, truth = render_tray(rng, [3], (640, 480), style=style)
    stale = Calibration(die_size_px=0.5 * truth[0].side, image_size=(640, 480))
    assert not read_dice(frame, stale).dice            # cut at the old size: unseen
    calibrator = Calibrator(tmp_path / "calibration.json", stale)
    with pytest.raises(TrayNotEmpty, match="sees 1 die"):
        calibrator.take_empty_tray(frame)
    assert calibrator.calibration is stale and not calibrator.path.exists()


@pytest.mark.parametrize("body", [{}, {"take": "yes"}, {"take": 1}, {"take": None}])
def test_a_bad_empty_tray_request_is_refused_and_changes_nothing(
        camera_api: Any, calibrator: Calibrator, body: dict[str, Any]) -> None:
    resp = camera_api.post("/api/empty-tray", json=body)
    assert resp.status_code == 400 and "take" in resp.get_json()["error"]
    assert not calibrator.path.exists()


def test_the_empty_tray_needs_a_camera_and_a_calibration_it_can_save(
        api: Any, tmp_path: Path, calibrator: Calibrator) -> None:
    from web.app import create_app

    assert "no camera picture" in api.post("empty-tray", {"take": True}, status=409)["error"]
    assert not calibrator.path.exists()
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    # (the api fixture holds data_dir)
    with _running(tmp_path / "other-data", Calibrator(in_the_way / "c.json")) as table:
        resp = create_app(table).test_client().post("/api/empty-tray", json={"take": True})
        assert resp.status_code == 503, resp.get_json()
        assert table.state()["camera"]["empty_tray"] is False


def test_an_outline_marked_at_another_resolution_follows_the_empty_tray(tmp_path: Path) -> None:
    """The camera now gives twice the pixels: the outline is scaled, not misplaced."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json", Calibration.from_rect(
        10, 10, 310, 230, image_size=(320, 240)), read=lambda frame, cal: type("R", (), {"dice": ()})())
    calibrator.take_empty_tray(np.zeros((480, 640, 3), np.uint8))
    saved = load_calibration(calibrator.path)
    assert saved.image_size == (640, 480) and saved.background is not None
    assert saved.tray == ((20, 20), (620, 20), (620, 460), (20, 460))


def test_an_outline_marked_at_another_resolution_is_drawn_where_the_reader_uses_it(
        data_dir: Path, tmp_path: Path) -> None:
    """Marked on 4×4 frames, the camera now gives 8×8: the page draws it scaled."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(1, 1, 3, 3, image_size=(4, 4)))
    with _running(data_dir, calibrator) as table:
        table.new_game("sum_chicago", ["Aino", "Bertil"])       # a new state is built
        assert table.state()["camera"]["tray"] == [[2, 2], [6, 2], [6, 6], [2, 6]]


def test_an_empty_tray_taken_for_another_view_is_not_said_to_be_taken(
        data_dir: Path, tmp_path: Path) -> None:
    """Outline and empty tray were taken from 16×8 frames; the camera now gives 8×8, another
    shape (another camera or view): the reader uses neither, and the page must not say
    "empty tray taken" beside "the tray is not marked yet", leaving the dice read without
    it and nobody told to take it again."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json", Calibration.from_rect(
        1, 1, 15, 7, image_size=(16, 8), background=np.zeros((8, 16, 3), np.uint8)))
    with _running(data_dir, calibrator) as table:
        table.new_game("sum_chicago", ["Aino", "Bertil"])       # a new state is built
        camera = table.state()["camera"]
        assert camera["tray"] is None
        assert camera["empty_tray"] is False


def _two_pictures(path: Path) -> Calibrator:
    """A calibration taught a logo for 1 (dark) and one for 6 (light)."""
    from calibration import Calibration, PictureFace

    return Calibrator(path, Calibration(picture_faces=(
        PictureFace(1, np.full((32, 32), 40, np.uint8)),
        PictureFace(6, np.full((32, 32), 220, np.uint8)))))


def test_one_taught_picture_named_wrongly_is_forgotten_alone(data_dir: Path, tmp_path: Path) -> None:
    import cv2

    from web.app import create_app

    calibrator = _two_pictures(tmp_path / "calibration.json")
    with _running(data_dir, calibrator) as table:
        client = create_app(table).test_client()
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        assert client.get("/api/state").get_json()["camera"]["picture_values"] == [1, 6]
        # Each is shown as it was taught, beside its value.
        shown = client.get("/api/pictures/1.png")
        assert shown.status_code == 200 and shown.mimetype == "image/png"
        light = cv2.imdecode(np.frombuffer(shown.data, np.uint8), cv2.IMREAD_GRAYSCALE)
        assert light.shape == (32, 32) and int(light[0, 0]) == 220
        assert client.get("/api/pictures/2.png").status_code == 404

        resp = client.post("/api/forget-pictures", json={"picture": 0})
        assert resp.status_code == 200, resp.get_json()
        assert resp.get_json()["camera"]["picture_values"] == [6]
        assert resp.get_json()["camera"]["pictures"] == 1
        assert [f.value for f in load_calibration(calibrator.path).picture_faces] == [6]


@pytest.mark.parametrize(("picture", "says"), [
    (2, "no taught picture 2: they are numbered 0 to 1"),
    (-1, "no taught picture -1"),
    ("0", "the number of a taught picture"),
    (True, "the number of a taught picture"),
    (0.5, "the number of a taught picture"),
])
def test_forgetting_a_picture_that_is_not_there_is_refused_and_changes_nothing(
        data_dir: Path, tmp_path: Path, picture: Any, says: str) -> None:
    from web.app import create_app

    calibrator = _two_pictures(tmp_path / "calibration.json")
    with _running(data_dir, calibrator) as table:
        client = create_app(table).test_client()
        before = client.get("/api/state").get_json()
        resp = client.post("/api/forget-pictures", json={"picture": picture})
        assert resp.status_code == 400 and says in resp.get_json()["error"], resp.get_json()
        assert client.get("/api/state").get_json() == before
        assert not calibrator.path.exists()


def test_once_the_tray_is_marked_the_watcher_looks_only_at_it(data_dir: Path, tmp_path: Path) -> None:
    """An arm reaching across the table beside the tray is no throw: the roll watcher is
    given the marked tray's box (in the frames' pixels) and the whole frame once it is
    forgotten."""
    from web.app import create_app
    from web.fakes import FakeCamera, FakeWatcher

    class RegionWatcher(FakeWatcher):
        regions: list[Any] = []

        def watch_region(self, region: Any) -> None:
            if not self.regions or self.regions[-1] != region:
                self.regions.append(region)

    camera = FakeCamera()
    store = Store(data_dir)
    table = Table(store, camera=camera, calibrator=Calibrator(tmp_path / "calibration.json"),
                  watcher_factory=lambda read: RegionWatcher(camera, read)).start()
    try:
        _first_frame(table)
        client = create_app(table).test_client()
        assert client.post("/api/tray", json={"tray": [[1, 2], [7, 2], [6, 6]]}).status_code == 200
        deadline = time.monotonic() + 5
        while RegionWatcher.regions[-1:] != [(1, 2, 7, 6)] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert RegionWatcher.regions == [None, (1, 2, 7, 6)]
        assert client.post("/api/tray", json={"tray": None}).status_code == 200
        while RegionWatcher.regions[-1] is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert RegionWatcher.regions == [None, (1, 2, 7, 6), None]
    finally:
        table.stop()
        store.close()


def _bare_tray(seed: int) -> np.ndarray:
    import dataclasses

    from vision.sim import TrayStyle, empty_tray

    style = dataclasses.replace(TrayStyle.random(np.random.default_rng(seed), (320, 240)), clutter=0)
    return empty_tray(style, (320, 240), seed=seed)


def _bumped(frame: np.ndarray, dx: float, dy: float) -> np.ndarray:
    import cv2

    h, w = frame.shape[:2]
    return cv2.warpAffine(frame, np.array([[1, 0, dx], [0, 1, dy]], np.float32), (w, h),
                          borderMode=cv2.BORDER_REPLICATE)


def _empty_reader(frame: np.ndarray, cal: Any) -> Any:
    from vision.reader import Reading

    return Reading((), 1.0)


def test_a_bumped_tray_is_followed_by_its_outline_and_picture(tmp_path: Path) -> None:
    """Someone knocks the tray 14 px sideways between throws: read empty, it is found
    where it went, and the outline moves with it (dice by its wall would otherwise lie
    outside the old outline and be ignored)."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    calibrator.read(_bare_tray(3))
    assert (calibrator.followed, calibrator.view_changed) == (0, False)

    bumped = _bumped(_bare_tray(3), 14, -6)
    calibrator.read(bumped)
    assert (calibrator.followed, calibrator.view_changed) == (1, False)
    saved = load_calibration(calibrator.path)
    assert saved.tray is not None and saved.background is not None
    assert np.allclose(saved.tray, ((34, 14), (314, 14), (314, 214), (34, 214)), atol=1.5)
    assert np.array_equal(saved.background, bumped)


def test_a_shift_that_would_push_the_outline_off_the_picture_is_not_followed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shift so large that the moved outline, held to the picture, would enclose
    nothing: no tray is left to follow, so a person is told instead, and the reading
    goes on as before (it must not fail on every empty frame)."""
    from calibration import Calibration
    from vision import changed

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    before = calibrator.calibration
    monkeypatch.setattr(changed, "tray_shift", lambda *args, **kwargs: (1000.0, 0.0))
    calibrator.read(_bare_tray(3))
    assert (calibrator.followed, calibrator.view_changed) == (0, True)
    assert calibrator.calibration is before


def test_dice_by_the_moved_wall_are_not_taken_into_the_empty_trays_picture(tmp_path: Path) -> None:
    """The tray was knocked and thrown into before it was seen empty: inside the old
    outline nothing, but a die lies by the moved wall. The tray is not followed (that die
    would become part of the empty tray); a person is told instead."""
    from calibration import Calibration
    from vision.reader import Reading, make_die

    def sees_by_the_moved_wall(frame: np.ndarray, cal: Any) -> Reading:
        moved = cal is not None and cal.tray is not None and cal.tray[0][0] > 30
        return Reading((make_die(2, (300, 100), (290, 90, 310, 110), 0.99),) if moved else (), 1.0)

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=sees_by_the_moved_wall)
    calibrator.take_empty_tray(_bare_tray(3))
    before = calibrator.calibration
    calibrator.read(_bumped(_bare_tray(3), 14, -6))
    assert (calibrator.followed, calibrator.view_changed) == (0, True)
    assert calibrator.calibration is before


def test_an_outline_marked_while_a_bumped_tray_is_followed_is_kept(tmp_path: Path) -> None:
    """The camera's thread finds the tray bumped and checks the moved outline with a read
    (tens of ms on a Pi); the control page saves a new outline meanwhile (the person saw
    the tray moved and marked it again). The person's outline stands: the old one, moved,
    must not be written over it when the check ends."""
    from calibration import Calibration
    from vision.reader import Reading

    marked = [[40, 30], [290, 30], [290, 210], [40, 210]]

    def marks_meanwhile(frame: np.ndarray, cal: Any) -> Reading:
        if cal is not None and cal.tray is not None and cal.tray[0] != (20.0, 20.0):
            calibrator.set_tray(marked, (320, 240))      # the page's save lands now
        return Reading((), 1.0)

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=marks_meanwhile)
    calibrator.take_empty_tray(_bare_tray(3))
    calibrator.read(_bumped(_bare_tray(3), 14, -6))
    expected = tuple((float(x), float(y)) for x, y in marked)
    assert calibrator.calibration.tray == expected
    assert load_calibration(calibrator.path).tray == expected
    assert calibrator.followed == 0


def test_an_outline_marked_again_where_a_bumped_tray_lies_stays_there(tmp_path: Path) -> None:
    """The tray was knocked 14 px aside while dice lay in it (so it was not followed),
    and a person marked it again where it lies now. The empty tray's picture still shows
    it where it was: the next time the tray is read empty that picture is what is stale,
    and the person's outline must not be moved by the old knock a second time."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    bumped = _bumped(_bare_tray(3), 14, -6)
    marked = [[34, 14], [314, 14], [314, 214], [34, 214]]
    calibrator.set_tray(marked, (320, 240))
    calibrator.read(bumped)
    expected = tuple((float(x), float(y)) for x, y in marked)
    saved = load_calibration(calibrator.path)
    assert calibrator.calibration.tray == expected and saved.tray == expected
    assert saved.background is not None and np.array_equal(saved.background, bumped)
    assert calibrator.view_changed is False
    calibrator.read(_bumped(bumped, -5, 3))               # knocked again: followed
    assert np.allclose(calibrator.calibration.tray[0], (29, 17), atol=1.5)


def test_a_tray_knocked_after_its_outline_was_marked_again_in_place_is_followed(
        tmp_path: Path) -> None:
    """The outline is tidied where the tray lies (its picture still fits), and the tray
    is knocked later in the game: the next empty tray is followed as ever."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    calibrator.set_tray([[21, 19], [301, 20], [299, 221], [20, 219]], (320, 240))
    calibrator.read(_bumped(_bare_tray(3), 14, -6))
    assert calibrator.followed == 1
    assert np.allclose(calibrator.calibration.tray[0], (35, 13), atol=1.5)


def test_an_empty_tray_unlike_its_picture_says_the_view_has_changed(tmp_path: Path) -> None:
    """Read empty, the tray looks unlike its picture in a way no shift undoes (the camera
    was turned or raised, another tray): the outline is likely stale, and a person is
    told; nothing is changed for them."""
    from calibration import Calibration
    from vision.reader import Reading, make_die

    dice: list[Any] = []
    calibrator = Calibrator(tmp_path / "calibration.json", Calibration.from_rect(20, 20, 300, 220),
                            read=lambda frame, cal: Reading(tuple(dice), 1.0))
    calibrator.take_empty_tray(_bare_tray(3))
    before = calibrator.calibration
    calibrator.read(_bare_tray(8))                        # another tray (or view) now
    assert calibrator.view_changed is True and calibrator.calibration is before
    dice.append(make_die(4, (100, 100), (90, 90, 110, 110), 0.99))
    calibrator.read(_bare_tray(3))                        # dice in it: no judgement
    assert calibrator.view_changed is True
    calibrator.take_empty_tray(None)                      # forgotten: nothing to compare,
    assert calibrator.view_changed is True                # but the outline is the old view's
    calibrator.set_tray([[30, 20], [290, 20], [290, 220], [30, 220]], (320, 240))
    assert calibrator.view_changed is False


def test_a_view_changed_is_said_until_the_tray_is_marked_again(tmp_path: Path) -> None:
    """The camera was turned: taking the tray empty again first cleared the note, and the
    outline of the old view stayed, with nothing to say it was stale (dice outside it are
    not read)."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    calibrator.read(_bare_tray(8))                        # another view now
    assert calibrator.view_changed is True
    calibrator.take_empty_tray(_bare_tray(8))             # the empty tray first
    calibrator.read(_bare_tray(8))
    assert calibrator.view_changed is True                # the outline still the old one's
    calibrator.set_tray([[30, 20], [290, 20], [290, 220], [30, 220]], (320, 240))
    assert calibrator.view_changed is False
    calibrator.read(_bare_tray(8))
    assert calibrator.view_changed is False


def test_a_view_changed_marked_then_taken_empty_as_the_note_says_is_said_no_more(
        tmp_path: Path) -> None:
    """The note says "mark the tray and take it empty again", and a family does it in that
    order: lifting the dice out between the two, the tray is read empty against the old
    picture, which made the new outline stale again, and the note stayed for good."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    calibrator.read(_bare_tray(8))                        # the camera turned
    assert calibrator.view_changed is True
    calibrator.set_tray([[30, 20], [290, 20], [290, 220], [30, 220]], (320, 240))
    calibrator.read(_bare_tray(8))                        # the dice lifted out
    assert calibrator.view_changed is True                # the picture is still the old one
    calibrator.take_empty_tray(_bare_tray(8))
    assert calibrator.view_changed is False
    calibrator.read(_bare_tray(8))
    assert calibrator.view_changed is False
    # Turned again later: the outline of this view is stale in its turn, said until the
    # tray is marked again (taking it empty alone is not enough).
    calibrator.read(_bare_tray(3))
    calibrator.take_empty_tray(_bare_tray(3))
    calibrator.read(_bare_tray(3))
    assert calibrator.view_changed is True


def test_a_tray_marked_again_before_a_restart_needs_only_its_empty_picture_after_it(
        tmp_path: Path) -> None:
    """The camera turned; the family marks the tray again, and the appliance restarts (a
    power cut) before they take it empty. Which of the two was stale was kept in memory
    only: after the restart the new outline was taken for the old view's, and the note
    "mark the tray and take it empty again" stayed after the tray was taken empty."""
    from calibration import Calibration

    path = tmp_path / "calibration.json"
    calibrator = Calibrator(path, Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    calibrator.read(_bare_tray(8))                        # the camera turned
    calibrator.set_tray([[30, 20], [290, 20], [290, 220], [30, 220]], (320, 240))

    again = Calibrator(path, load_calibration(path), read=_empty_reader)   # restarted
    again.read(_bare_tray(8))                             # the dice lifted out
    assert again.view_changed is True                     # the picture is still the old one
    again.take_empty_tray(_bare_tray(8))
    again.read(_bare_tray(8))
    assert again.view_changed is False
    assert load_calibration(path).background_stale is False


def test_a_view_that_comes_back_to_its_picture_needs_no_marking(tmp_path: Path) -> None:
    """The camera knocked and put back (or the light misled the judgement): the tray read
    empty matches its picture again, and the outline is right as it was."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    calibrator.read(_bare_tray(8))
    assert calibrator.view_changed is True
    calibrator.read(_bare_tray(3))
    assert calibrator.view_changed is False


def test_a_picture_with_nothing_in_it_is_not_taken_for_a_moved_camera(tmp_path: Path) -> None:
    """The light is switched off (the exposure is locked: the frames come out black), the
    lens is covered, or glare whites the picture out: the reader sees no die, and the tray
    is not where its picture shows it. That is no sign of a moved camera, and the control
    page must not ask for the tray to be marked and taken empty again (taken so, the empty
    tray's picture would be a black one); a note already shown stays."""
    from calibration import Calibration

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    before = calibrator.calibration
    dark = np.random.default_rng(0).integers(0, 3, (240, 320, 3), dtype=np.uint8)
    for blank in (np.zeros((240, 320, 3), np.uint8), dark, np.full((240, 320, 3), 255, np.uint8)):
        calibrator.read(blank)
        assert calibrator.view_changed is False and calibrator.calibration is before
    calibrator.read(_bare_tray(8))                        # another tray (or view) now
    assert calibrator.view_changed is True
    calibrator.read(np.zeros((240, 320, 3), np.uint8))
    assert calibrator.view_changed is True


def test_the_control_page_is_told_when_the_tray_moved(data_dir: Path, tmp_path: Path) -> None:
    import cv2

    from calibration import Calibration
    from vision.replay import Replay

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220), read=_empty_reader)
    calibrator.take_empty_tray(_bare_tray(3))
    photo = tmp_path / "tray.png"       # a camera giving frames of the calibration's size
    cv2.imwrite(str(photo), _bare_tray(3))
    with _running(data_dir, calibrator, Replay(str(photo))) as table:
        assert table.state()["camera"]["view_changed"] is False
        calibrator.read(_bumped(_bare_tray(3), -10, 8))
        deadline = time.monotonic() + 5
        while table.state()["camera"]["tray"][0][0] > 11 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert np.allclose(table.state()["camera"]["tray"][0], (10, 28), atol=1.5)
        calibrator.read(_bare_tray(8))
        while not table.state()["camera"]["view_changed"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.state()["camera"]["view_changed"] is True


@contextlib.contextmanager
def _appliance(data: Path, calibration: Path) -> Iterator[tuple[Table, Calibrator, Any]]:
    """One run of the appliance on ``data`` (no camera): its table, calibrator and a
    client; leaving it is the process ending. It starts with the calibration file read,
    as ``dicetray serve`` does."""
    from web.app import create_app

    calibrator = Calibrator(calibration, load_calibration(calibration)
                            if calibration.exists() else None)
    store = Store(data)
    table = Table(store, calibrator=calibrator)
    try:
        yield table, calibrator, create_app(table).test_client()
    finally:
        table.stop()
        store.close()


def _logo_waits(table: Table, calibrator: Calibrator, client: Any) -> tuple[int, int]:
    """Pub Chicago's first throw on ``table``, with the logo die, waiting for a person:
    the reading's id and the logo die's index in it."""
    client.post("/api/games", json={"family": "pub_chicago", "players": ["Aino", "Bertil"]})
    image, at, side = _logo(0, 0)
    reading = calibrator.read(image)
    logo = _logo_die(reading, at, side)
    table.handle_reading(reading)
    return int(table.state()["reading"]["id"]), logo


def test_a_scored_throw_corrected_after_a_restart_is_remembered(
        data_dir: Path, tmp_path: Path) -> None:
    """The appliance restarts right after a throw was scored; someone then corrects a die
    of it: the throw is still shown, and its dice are remembered as corrected."""
    from vision.sim import render_tray

    with _appliance(data_dir, tmp_path / "calibration.json") as (table, calibrator, client):
        client.post("/api/games", json={"family": "pub_chicago", "players": ["Aino", "Bertil"]})
        image = render_tray(np.random.default_rng(3), [2, 4, 5], (640, 480))[0]
        reading = calibrator.read(image)
        assert not reading.flagged
        table.handle_reading(reading)
        state = table.state()
        reading_id = state["reading"]["id"]
        values = [d["value"] for d in state["reading"]["dice"]]
        assert state["reading"]["status"] == "scored" and sorted(values) == [2, 4, 5]

    with _appliance(data_dir, tmp_path / "calibration.json") as (table, calibrator, client):
        assert client.get("/api/state").get_json()["table"]["picture"] is True
        assert client.get(f"/api/readings/{reading_id}/picture.jpg").status_code == 200
        resp = client.post("/api/correct", json={"reading": reading_id,
                                                 "die": values.index(2), "value": 3})
        assert resp.status_code == 200, resp.get_json()
        assert sorted(k.value for k in load_calibration(calibrator.path).known_dice) == [3, 4, 5]


def test_a_picture_named_wrongly_is_mended_by_correcting_its_throw_after_a_restart(
        data_dir: Path, tmp_path: Path) -> None:
    """A slip when naming the logo (6 for 1), and the appliance restarts before anyone
    sees it: correcting the die of that throw then left the picture a 6 (which throw it
    was taught from was kept in memory only), and every later throw read the logo as a
    6, surely, until someone found the picture and forgot it by hand."""
    path = tmp_path / "calibration.json"
    with _appliance(data_dir, path) as (table, calibrator, client):
        reading_id, logo = _logo_waits(table, calibrator, client)
        resp = client.post("/api/correct", json={"reading": reading_id, "die": logo,
                                                 "value": 6, "teach": True})
        assert resp.status_code == 200, resp.get_json()

    with _appliance(data_dir, path) as (table, calibrator, client):
        seen = [d["value"] for d in table.state()["reading"]["dice"]]
        resp = client.post("/api/correct", json={"reading": reading_id, "die": logo,
                                                 "value": 1, "seen": seen})
        assert resp.status_code == 200, resp.get_json()
        assert resp.get_json()["camera"]["picture_values"] == [1]
        image, at, side = _logo(50, 40)
        again = calibrator.read(image)
        assert again.dice[_logo_die(again, at, side)].value == 1
    assert [f.value for f in load_calibration(path).picture_faces] == [1]


def test_a_waiting_throws_picture_outlives_a_restart(data_dir: Path, tmp_path: Path) -> None:
    """The appliance restarts (a power cut) while a throw with a logo waits: the throw is
    still shown as the camera saw it, and its logo can still be named and remembered."""
    with _appliance(data_dir, tmp_path / "calibration.json") as (table, calibrator, client):
        reading_id, logo = _logo_waits(table, calibrator, client)
        assert (data_dir / "frames" / f"{reading_id}.jpg").is_file()

    with _appliance(data_dir, tmp_path / "calibration.json") as (table, calibrator, client):
        state = client.get("/api/state").get_json()
        assert state["reading"]["id"] == reading_id and state["reading"]["status"] == "waiting"
        assert state["table"]["picture"] is True and state["table"]["teachable"] == [logo]
        assert client.get(f"/api/readings/{reading_id}/picture.jpg").status_code == 200
        resp = client.post("/api/correct", json={"reading": reading_id, "die": logo, "value": 1,
                                                 "teach": True})
        assert resp.status_code == 200, resp.get_json()
        assert [f.value for f in load_calibration(calibrator.path).picture_faces] == [1]


def test_a_database_started_afresh_shows_its_own_throws_pictures_not_the_old_ones(
        data_dir: Path, tmp_path: Path) -> None:
    """The database moved away to start afresh (or the copy gone back to) counts its
    readings from where it stands; the pictures the old one left in frames/ were taken
    for the newest, and the new database's waiting throw lost its own picture at once."""
    with _appliance(data_dir, tmp_path / "calibration.json") as (table, calibrator, client):
        client.post("/api/games", json={"family": "pub_chicago", "players": ["Aino", "Bertil"]})
        for seed in range(5):
            table.handle_reading(calibrator.read(_logo(seed, 0)[0]))
        assert len(list((data_dir / "frames").glob("*.jpg"))) == 4
    (data_dir / "dicetray.sqlite3").rename(tmp_path / "old.sqlite3")

    with _appliance(data_dir, tmp_path / "calibration.json") as (table, calibrator, client):
        client.post("/api/games", json={"family": "pub_chicago", "players": ["Aino", "Bertil"]})
        image, at, side = _logo(7, 0)
        reading = calibrator.read(image)
        logo = _logo_die(reading, at, side)
        table.handle_reading(reading)
        state = client.get("/api/state").get_json()
        assert state["reading"]["status"] == "waiting"
        assert state["table"]["picture"] is True and state["table"]["teachable"] == [logo]
        resp = client.get(f"/api/readings/{state['reading']['id']}/picture.jpg")
        assert resp.status_code == 200


def test_only_the_latest_waiting_throws_pictures_are_kept_on_disk(tmp_path: Path) -> None:
    from web.throw_frames import ThrowFrames

    frames = ThrowFrames(tmp_path / "frames", keep=2)
    for reading_id in (3, 5, 9):
        frames.add(reading_id, np.full((24, 32, 3), 10 * reading_id, np.uint8))
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == ["5.jpg", "9.jpg"]
    again = ThrowFrames(tmp_path / "frames", keep=2)            # after a restart
    assert 9 in again and 3 not in again and again.get(3) is None
    got = again.get(9)
    assert got is not None and got.shape == (24, 32, 3) and abs(int(got[0, 0, 0]) - 90) <= 2
    # The frames from before a restart count among the latest: one new throw lets only
    # the oldest go.
    later = ThrowFrames(tmp_path / "frames", keep=2)
    later.add(11, np.zeros((24, 32, 3), np.uint8))
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == ["11.jpg", "9.jpg"]
    assert 9 in later and 5 not in later


def test_a_throws_picture_that_cannot_be_read_is_no_picture(tmp_path: Path) -> None:
    from web.throw_frames import ThrowFrames

    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "7.jpg").write_bytes(b"not a JPEG")   # a torn write
    frames = ThrowFrames(tmp_path / "frames", keep=2)
    assert frames.get(7) is None and 7 not in frames



def test_a_throws_picture_cut_short_by_a_full_memory_card_is_not_kept_half(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A JPEG cut short still reads, its lower part grey: after a restart that picture was
    shown for the throw, and a die corrected on it was remembered from the grey."""
    from web.throw_frames import ThrowFrames

    def full_half_way(path: Path, data: bytes) -> int:
        with open(path, "wb") as f:
            f.write(data[:len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    frame = np.random.default_rng(7).integers(0, 255, (96, 128, 3)).astype(np.uint8)
    frames = ThrowFrames(tmp_path / "frames", keep=2)
    monkeypatch.setattr(Path, "write_bytes", full_half_way)
    frames.add(4, frame)
    monkeypatch.undo()
    assert frames.get(4) is frame                               # still shown until a restart
    assert list((tmp_path / "frames").iterdir()) == []
    (tmp_path / "frames" / "5.jpg-part").write_bytes(b"\xff\xd8")   # cut by a power cut
    again = ThrowFrames(tmp_path / "frames", keep=2)            # after a restart
    assert 4 not in again and again.get(4) is None
    assert list((tmp_path / "frames").iterdir()) == []          # the folder stays bounded

def test_a_calibration_file_edited_by_hand_while_running_is_not_written_over(
        tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    calibrator = Calibrator(path)
    square = [[40, 30], [600, 30], [600, 450], [40, 450]]
    calibrator.set_tray(square, (640, 480))
    assert json.loads(path.read_text())["tray"] == square
    calibrator.set_tray([[50, 30], [600, 30], [600, 450], [50, 450]], (640, 480))  # its own
    edited = '{"version": 1, "die_size_px": 42}'
    path.write_text(edited)                         # the owner edits it by hand meanwhile
    before = calibrator.calibration
    with pytest.raises(OSError, match="changed by another program"):
        calibrator.set_tray(square, (640, 480))
    assert path.read_text() == edited and calibrator.calibration is before
    path.unlink()                                   # moved away: what is set is kept again
    calibrator.set_tray(square, (640, 480))
    assert json.loads(path.read_text())["tray"] == square


# -- two screens: "Forget" on item N after another screen forgot one before it ------------

def test_forget_on_a_screen_that_missed_another_forget_forgets_nothing(
        api: Any, calibrator: Calibrator) -> None:
    """Both screens list the remembered dice; one forgets die 2, the other (not yet told)
    taps "Forget" on what it shows as die 2. That index is another die now: refused."""
    reading_id, logo = _throw_logo(api, calibrator)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1})
    shown = api.state()["camera"]["newest_known_dice"]           # [[2, v], [1, v], [0, v]]
    api.post("forget-known-dice", {"die": 2, "seen": shown})
    left = api.state()["camera"]["newest_known_dice"]
    out = api.post("forget-known-dice", {"die": 1, "seen": shown}, status=409)
    assert "the remembered dice changed on another screen" in out["error"]
    assert api.state()["camera"]["newest_known_dice"] == left
    assert len(load_calibration(calibrator.path).known_dice) == 2
    api.post("forget-known-dice", {"all": True, "seen": shown}, status=409)
    api.post("forget-known-dice", {"all": True, "seen": left})
    assert api.state()["camera"]["newest_known_dice"] == []


def test_forget_of_a_taught_picture_is_checked_against_the_list_shown(
        api: Any, calibrator: Calibrator) -> None:
    reading_id, logo = _throw_logo(api, calibrator)
    api.post("correct", {"reading": reading_id, "die": logo, "value": 1, "teach": True})
    shown = api.state()["camera"]["picture_values"]
    assert shown == [1]
    out = api.post("forget-pictures", {"picture": 0, "seen": [1, 5]}, status=409)
    assert "the taught pictures changed on another screen (shown [1, 5], now [1])" in out["error"]
    assert len(load_calibration(calibrator.path).picture_faces) == 1
    out = api.post("forget-pictures", {"picture": 0, "seen": "1"}, status=400)
    assert "'seen' is the list of taught pictures as shown" in out["error"]
    api.post("forget-pictures", {"picture": 0, "seen": shown})
    assert api.state()["camera"]["picture_values"] == []
