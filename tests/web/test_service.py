"""The table service thread: camera frames → watcher → engine, roll for me, the demo."""
from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from web.fakes import FakeCamera, FakeWatcher
from web.store import Store
from web.table import DEMO_PLAYERS, DEMO_REST_S, Table

from waiting import wait_for


def served_table(data_dir: Path, unreadable_first: bool = False,
                 **kw: Any) -> tuple[Table, FakeCamera]:
    camera = FakeCamera(unreadable_first=unreadable_first)
    table = Table(Store(data_dir), camera=camera,
                  watcher_factory=lambda read: FakeWatcher(camera, read), **kw)
    return table.start(), camera


def restarted_with_the_familys_game(data_dir: Path, camera: FakeCamera, **kw: Any) -> Table:
    """A demo table started again over a Sum Chicago of the family's three players."""
    before = Table(Store(data_dir))
    before.new_game("sum_chicago", DEMO_PLAYERS)
    before.store.close()
    return Table(Store(data_dir), camera=camera, demo=True, **kw)


def test_a_throw_on_camera_is_scored_by_the_service(data_dir: Path) -> None:
    table, camera = served_table(data_dir)
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        camera.roll([1, 1])
        state = wait_for(lambda: (s := table.state())["game"]["players"][0]["score"] == 2 and s)
        assert state["reading"]["status"] == "scored"
        assert state["camera"]["running"] and not state["camera"]["moving"]
        table.roll_for_me()                       # the fake throws 4 + 4 for Bertil
        state = wait_for(lambda: (s := table.state())["game"]["next"]["player"] == "Aino" and s)
        assert state["game"]["last_roll"] == {**state["game"]["last_roll"], "player": "Bertil",
                                              "dice": [4, 4]}
    finally:
        table.stop()
        table.store.close()



def test_a_camera_throw_writes_the_memory_card_once(data_dir: Path) -> None:
    """The screens' "rolling…" as the dice moved was a commit of its own, synced to the
    memory card at every throw, though nothing of it is kept: the throw is stored once."""
    table, camera = served_table(data_dir)
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        before = table.store.revision
        camera.roll([1, 1])
        wait_for(lambda: table.state()["game"]["actions"] == 1)
        assert table.store.revision == before + 1
    finally:
        table.stop()
        table.store.close()

def test_the_camera_is_read_again_once_the_database_can_be_written_again(
        data_dir: Path) -> None:
    """A full disk, or another program holding the database, refuses what the camera
    saw meanwhile; once the database can be written again, the camera's throws are
    scored again, not ignored until the server is restarted."""
    table, camera = served_table(data_dir)
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        table.store._db.execute("PRAGMA busy_timeout = 50")   # not 5 s of waiting
        other = sqlite3.connect(data_dir / "dicetray.sqlite3", isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            camera.roll([1, 1])
            wait_for(camera.throws.empty)
            time.sleep(0.5)             # the watcher reports it; nothing can be written
        finally:
            other.execute("ROLLBACK")
            other.close()
        camera.roll([2, 3])
        state = wait_for(lambda: (s := table.state())["game"]["actions"] == 1 and s)
        assert state["game"]["last_roll"]["dice"] == [2, 3]
        assert state["camera"]["running"] and state["camera"]["error"] is None
    finally:
        table.stop()
        table.store.close()


def test_the_appliance_starts_while_the_database_cannot_be_written(data_dir: Path) -> None:
    """Started on a full disk (after a power cut, say), the server ended in a traceback
    as it told the screens the camera runs: it serves the game as stored instead, and
    scores the camera's throws once the database can be written again."""
    store = Store(data_dir)
    Table(store).new_game("sum_chicago", ["Aino", "Bertil"])
    store._db.execute("PRAGMA busy_timeout = 50")          # not 5 s of waiting
    camera = FakeCamera()
    table = Table(store, camera=camera, watcher_factory=lambda read: FakeWatcher(camera, read))
    other = sqlite3.connect(data_dir / "dicetray.sqlite3", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        table.start()
        assert table.state()["game"]["players"][0]["name"] == "Aino"
    finally:
        other.execute("ROLLBACK")
        other.close()
    try:
        camera.roll([2, 3])
        state = wait_for(lambda: (s := table.state())["game"]["actions"] == 1 and s)
        assert state["game"]["last_roll"]["dice"] == [2, 3]
    finally:
        table.stop()
        store.close()


def test_the_demo_starts_a_game_and_plays_it(data_dir: Path) -> None:
    table, camera = served_table(data_dir, demo=True, demo_interval=0.05)
    try:
        state = wait_for(lambda: (s := table.state())["game"] is not None
                         and s["game"]["next"]["player"] == "Bertil" and s)
        assert [p["name"] for p in state["game"]["players"]] == ["Aino", "Bertil", "Cecilia"]
    finally:
        table.stop()
        table.store.close()


def test_the_demo_family_waits_while_a_person_takes_the_dice_out(data_dir: Path) -> None:
    """To take the empty tray in the demo, a person takes the simulated dice out; the
    demo family must not throw again before the picture can be taken."""
    now = [100.0]
    camera = FakeCamera()
    table = Table(Store(data_dir), camera=camera, demo=True, demo_interval=0.0,
                  clock=lambda: now[0])
    try:
        table._demo_step()                       # the family starts its game
        table.take_dice_out()
        assert camera.throws.get_nowait() == ()  # an empty tray
        table._demo_step()
        assert camera.throws.empty()             # no throw while the person is at it
        now[0] += DEMO_REST_S
        table._demo_step()
        assert camera.throws.get_nowait() == (4, 4)   # then the family plays on
    finally:
        table.store.close()


def test_a_game_a_person_starts_during_the_demo_is_theirs(data_dir: Path) -> None:
    """The demo family plays its own game only. In a 10000 game started on the control
    page it once threw the five dice left while the player was deciding whether to bank;
    once a person's game was over it started a game of its own over the winner."""
    from web.fakes import reading

    camera = FakeCamera()
    table = Table(Store(data_dir), camera=camera, demo=True, demo_interval=0.0)
    try:
        table._demo_step()                       # the family's own game
        family_game = table.game_id
        assert family_game is not None
        table.new_game("ten_thousand", ["Aino", "Bertil"], {"opening": 0})
        for _ in range(3):
            table._demo_step()
        assert camera.throws.empty()             # no throw in a person's game
        table.hand_roll([1, 2, 3, 3, 4, 6])
        table.act({"type": "set_aside", "player": "Aino", "dice": [1]})
        for _ in range(3):
            table._demo_step()
        assert camera.throws.empty()             # throw on or bank? the player's choice

        table.new_game("sum_chicago", ["Ann", "Bo"], {"rounds": "low"})
        for _ in range(6):                       # rounds 2 to 7: Ann scores the 2
            table.hand_roll([1, 1])
            table.hand_roll([5, 6])
        assert table.state()["game"]["winner"] == "Ann"
        table._finished_at = time.monotonic() - 60            # long over
        table._demo_step()
        assert table.state()["game"]["finished"]              # the winner stays up
        assert table.game_id != family_game and camera.throws.empty()
    finally:
        table.store.close()


def test_a_game_started_with_the_start_forms_own_names_during_the_demo_is_theirs(
        data_dir: Path) -> None:
    """The start form offers Sum Chicago for Aino, Bertil and Cecilia, the demo family's
    own names: a game a person starts with them is still the person's to throw in."""
    camera = FakeCamera()
    table = Table(Store(data_dir), camera=camera, demo=True, demo_interval=0.0)
    try:
        table._demo_step()                       # the family's own game
        family_game = table.game_id
        table.new_game("sum_chicago", list(DEMO_PLAYERS))
        assert table.game_id != family_game
        for _ in range(3):
            table._demo_step()
        assert camera.throws.empty()             # Aino throws her own dice
        assert table.state()["game"]["actions"] == 0
    finally:
        table.store.close()


def test_the_demo_family_plays_its_own_game_again_after_a_restart(data_dir: Path) -> None:
    camera = FakeCamera()
    table = Table(Store(data_dir), camera=camera, demo=True, demo_interval=0.0)
    table._demo_step()                           # starts its game
    table.store.close()
    table = Table(Store(data_dir), camera=camera, demo=True, demo_interval=0.0)
    try:
        assert table.state()["game"]["players"][0]["name"] == "Aino"
        table._demo_step()
        assert camera.throws.get_nowait() == (4, 4)
    finally:
        table.store.close()


def test_a_persons_game_with_the_familys_names_stays_theirs_after_a_restart(
        data_dir: Path) -> None:
    """The demo family told its game from a person's by the start form's own three names
    after a restart: a person's game of Aino, Bertil and Cecilia, current when the
    appliance restarted, was thrown in by the family."""
    camera = FakeCamera()
    table = Table(Store(data_dir), camera=camera, demo=True, demo_interval=0.0)
    table._demo_step()                           # the family's game
    table.new_game("sum_chicago", list(DEMO_PLAYERS))     # a person's, same names
    table.store.close()
    table = Table(Store(data_dir), camera=camera, demo=True, demo_interval=0.0)
    try:
        for _ in range(3):
            table._demo_step()
        assert camera.throws.empty() and table.state()["game"]["actions"] == 0
    finally:
        table.store.close()


def test_only_the_simulated_tray_has_its_dice_taken_out_from_the_page(api: Any) -> None:
    s = api.post("take-dice-out", status=409)
    assert "lift the dice out of the tray" in s["error"]


class HeldWatcher(FakeWatcher):
    """A FakeWatcher whose dice stay in the air until ``land`` is set."""

    def __init__(self, camera: FakeCamera, read: Any) -> None:
        super().__init__(camera, read)
        self.land = threading.Event()

    def feed(self, frame: Any) -> list[Any]:
        if self._pending is not None and not self.land.is_set():
            return []
        return super().feed(frame)


def test_dice_in_the_air_when_another_game_is_continued_wait_for_a_person(
        data_dir: Path) -> None:
    """A throw for the game being left must not be scored, unseen, in the game taken up."""
    camera = FakeCamera()
    watchers: list[HeldWatcher] = []

    def watcher(read: Any) -> HeldWatcher:
        watchers.append(HeldWatcher(camera, read))
        return watchers[-1]

    table = Table(Store(data_dir), camera=camera, watcher_factory=watcher).start()
    try:
        table.new_game("sum_chicago", ["Aino"])
        first = table.game_id
        table.new_game("sum_chicago", ["Bertil"])
        camera.roll([1, 1])                                   # Bertil throws...
        wait_for(lambda: table.state()["camera"]["moving"])
        table.continue_game(first)                            # ...as Aino's game is taken up
        watchers[0].land.set()
        state = wait_for(lambda: (s := table.state())["table"]["waiting"] and s)
        assert "thrown before this game was begun or continued" in state["table"]["message"]
        assert state["game"]["players"][0]["score"] == 0     # not scored for Aino unseen
        confirmed = state["reading"]["id"]
        table.confirm(confirmed)                              # one tap: it was Aino's after all
        assert table.state()["game"]["players"][0]["score"] == 2
        camera.roll([1, 2])                                   # the next throw is as usual:
        state = wait_for(lambda: (s := table.state())["reading"]["id"] != confirmed and s)
        assert state["reading"]["status"] == "scored"        # a 3 in round 2, scored alone
        assert state["game"]["players"][0]["score"] == 2 + 3
    finally:
        table.stop()
        table.store.close()


def test_the_camera_stopping_is_reported(data_dir: Path) -> None:
    table, camera = served_table(data_dir)
    try:
        camera.close()
        state = wait_for(lambda: (s := table.state())["camera"]["error"] and s)
        assert not state["camera"]["running"]
    finally:
        table.stop()
        table.store.close()


def test_the_demo_family_fixes_a_die_the_reader_could_not_read(data_dir: Path) -> None:
    table, camera = served_table(data_dir, unreadable_first=True, demo=True,
                                 demo_interval=0.05, demo_fix_after=0.1)
    try:
        state = wait_for(lambda: (s := table.state())["game"] is not None
                         and s["game"]["last_roll"] is not None and s)
        reading = state["reading"]
        assert reading["status"] == "scored" and reading["dice"][0]["corrected"]
        assert reading["dice"][0]["reason"] == "fixed by the demo family"
        assert state["game"]["last_roll"]["dice"] == [4, 4]
    finally:
        table.stop()
        table.store.close()


def test_the_demo_family_fixes_a_die_when_the_clock_was_set_back_meanwhile(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi has no clock of its own: the network may set it back an hour (or years) while
    a throw waits. The family waited until the clock read the throw's time again."""
    from web.fakes import reading

    camera = FakeCamera()
    table = restarted_with_the_familys_game(data_dir, camera, demo_interval=60.0,
                                            demo_fix_after=0.1)
    try:
        camera.roll([3, 4])
        table.handle_reading(reading(None, 4))          # the first die unread: it waits
        table._demo_step()
        set_back = time.time() - 3600.0
        monkeypatch.setattr(time, "time", lambda: set_back)
        time.sleep(0.2)
        table._demo_step()
        state = table.state()
        assert state["reading"]["status"] == "scored"
        assert state["game"]["last_roll"]["dice"] == [3, 4]
    finally:
        table.store.close()


def test_the_camera_picture_is_served_to_aim_the_camera_by(data_dir: Path) -> None:
    """``/api/frame.jpg`` is the camera's newest frame: what the owner aims the camera and
    reads a calibration's pixel positions by."""
    import cv2
    import numpy as np

    from vision.frames import SimCamera
    from web.app import create_app

    camera = SimCamera(seed=3, size=(320, 240), dice=2)
    table = Table(Store(data_dir), camera=camera).start()
    try:
        client = create_app(table).test_client()
        wait_for(lambda: table.snapshot() is not None)
        resp = client.get("/api/frame.jpg")
        assert resp.status_code == 200 and resp.mimetype == "image/jpeg"
        picture = cv2.imdecode(np.frombuffer(resp.data, np.uint8), cv2.IMREAD_COLOR)
        assert picture.shape == (240, 320, 3)
        # The picture is the camera's frame (a newer one may have come meanwhile, the same
        # still tray under new sensor noise): the tray, not a blank.
        frame = table.snapshot()
        assert abs(float(picture.mean()) - float(frame.mean())) < 3 and picture.std() > 10
    finally:
        table.stop()
        table.store.close()


def test_without_a_camera_there_is_no_picture_and_it_says_so(data_dir: Path) -> None:
    from web.app import create_app

    table = Table(Store(data_dir))
    try:
        resp = create_app(table).test_client().get("/api/frame.jpg")
        assert resp.status_code == 404
        assert "no camera" in resp.get_json()["error"]
    finally:
        table.store.close()


def test_a_draw_for_the_starter_is_thrown_on_camera_one_die_at_a_time(data_dir: Path) -> None:
    table, camera = served_table(data_dir)
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        table.start_draw("sum_chicago", ["Aino", "Bertil"])
        table.roll_for_me()                       # the fake throws one 4, for Aino
        state = wait_for(lambda: (s := table.state())["draw"]["thrower"] == "Bertil" and s)
        assert state["draw"]["last"] == {"player": "Aino", "value": 4}
        camera.roll([6, 2])                       # two dice: not Bertil's throw
        state = wait_for(lambda: (s := table.state())["draw"]["note"] and s)
        assert state["draw"]["note"].startswith("Bertil: throw one die")
        camera.roll([6])
        state = wait_for(lambda: (s := table.state())["draw"]["starter"] == "Bertil" and s)
        assert state["game"]["last_roll"] is None   # nothing went into the game before
    finally:
        table.stop()
        table.store.close()


def test_a_throw_the_demo_family_throws_again_leaves_the_screens_at_once(data_dir: Path) -> None:
    # A demo throw whose dice are not the game's count is set aside (the family throws
    # again): the screens must be told, not left showing "waiting" until the next throw.
    import json

    from web.fakes import reading

    camera = FakeCamera()
    table = restarted_with_the_familys_game(data_dir, camera, demo_interval=60.0,
                                            demo_fix_after=0.0)
    try:
        camera.roll([3, 4, 5])                  # three dice lie in a two-dice game
        table.handle_reading(reading(3, 4, 5))
        _, shown = table.publisher.latest_state()
        assert json.loads(shown)["table"]["waiting"]
        table._demo_step()
        _, shown = table.publisher.latest_state()
        assert not json.loads(shown)["table"]["waiting"]
        assert json.loads(shown)["reading"]["status"] == "superseded"
    finally:
        table.store.close()
