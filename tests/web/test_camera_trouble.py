"""A camera that hangs or is unplugged mid-game: the control page says so, the table opens
it again, and throws can be entered by hand meanwhile."""
from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
from camera_fakes import FakeCapture, plug_webcam, unplug_webcam

from vision.cameras import reopener
from vision.usbcamera import UsbCamera, UsbCameraError, UsbCameraUnavailable
from web.app import create_app
from web.fakes import FakeCamera, FakeClock, FakeWatcher, SlowCamera
from web.store import Store
from web.table import Table

from waiting import wait_for


class TroubledCamera(FakeCamera):
    """A fake camera that hangs in ``read`` while ``hang`` is set (no frame and no error, as
    a hung webcam), and fails as an unplugged webcam once ``unplugged`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.hang, self.hanging, self.unplugged = threading.Event(), threading.Event(), threading.Event()
        self.closed = threading.Event()

    def read(self) -> np.ndarray:
        while self.hang.is_set() and not self.closed.is_set():
            self.hanging.set()
            time.sleep(0.01)
        if self.unplugged.is_set():
            raise UsbCameraError("usb:0 stopped giving pictures (unplugged?)")
        return super().read()

    def close(self) -> None:
        self.closed.set()
        super().close()


class FollowingWatcher(FakeWatcher):
    """A fake watcher that takes the throws of whichever camera its table has now: the
    table keeps its watcher when it opens the camera again. A camera of the fakes of the
    camera libraries (a webcam on a FakeCapture) is thrown no dice."""

    def __init__(self, table: dict[str, Table], read: Any) -> None:
        self._table = table
        self._no_throws = FakeCamera()
        super().__init__(self._no_throws, read)

    @property  # type: ignore[override]
    def camera(self) -> Any:
        camera = self._table["table"].camera
        return camera if hasattr(camera, "throws") else self._no_throws

    @camera.setter
    def camera(self, _: Any) -> None:
        pass


def table_with(data_dir: Path, camera: Any, **kw: Any) -> Table:
    """A started table whose fake watcher follows whichever camera the table has now."""
    holder: dict[str, Table] = {}
    table = Table(Store(data_dir), camera=camera,
                  watcher_factory=lambda read: FollowingWatcher(holder, read), **kw)
    holder["table"] = table
    return table.start()


def camera_state(table: Table) -> dict[str, Any]:
    """The camera part of ``/api/state``, as the control page reads it."""
    camera: dict[str, Any] = create_app(table).test_client().get("/api/state").get_json()["camera"]
    return camera


def hang_for(table: Table, camera: TroubledCamera, clock: FakeClock, seconds: float) -> None:
    """Hang the started table's camera for ``seconds`` by its clock, until the control page
    says so."""
    wait_for(lambda: table.snapshot() is not None)
    camera.hang.set()
    assert camera.hanging.wait(2.0)
    clock.now += seconds
    wait_for(lambda: camera_state(table)["stalled_s"] == int(seconds))


def test_a_hung_camera_is_said_to_give_no_picture_until_frames_come_again(data_dir: Path) -> None:
    clock, camera = FakeClock(), TroubledCamera()
    table = table_with(data_dir, camera, clock=clock)  # no reopen: only said
    try:
        wait_for(lambda: table.snapshot() is not None)
        assert camera_state(table)["stalled_s"] is None
        camera.hang.set()
        assert camera.hanging.wait(2.0)
        clock.now += 12.0
        state = wait_for(lambda: (s := camera_state(table))["stalled_s"] == 12 and s)
        assert state["running"] and state["error"] is None and not state["reopening"]
        camera.hang.clear()
        state = wait_for(lambda: (s := camera_state(table))["stalled_s"] is None and s)
        assert state["running"] and state["error"] is None and state["back_from"] is None
    finally:
        table.stop()
        table.store.close()



def test_the_seconds_a_hung_camera_is_counted_are_not_written_to_the_memory_card(
        data_dir: Path) -> None:
    """The control page counts up the seconds a camera has given no picture; each second
    was a write to the database, so a camera hung overnight wrote the memory card every
    second until morning. The camera's status is told, not stored."""
    clock, camera = FakeClock(), TroubledCamera()
    table = table_with(data_dir, camera, clock=clock)  # no reopen: only said
    try:
        hang_for(table, camera, clock, 6.0)
        began = table.store.revision
        for seconds in range(7, 21):
            clock.now += 1.0
            wait_for(lambda: camera_state(table)["stalled_s"] == seconds)
        assert table.store.revision == began
        camera.hang.clear()
        wait_for(lambda: camera_state(table)["stalled_s"] is None)
        assert table.store.revision == began
    finally:
        table.stop()
        table.store.close()

def test_a_camera_that_stays_hung_is_closed_and_opened_again(data_dir: Path) -> None:
    clock, hung, fresh = FakeClock(), TroubledCamera(), FakeCamera()
    table = table_with(data_dir, hung, clock=clock, reopen=lambda: fresh)
    try:
        wait_for(lambda: table.snapshot() is not None)
        hung.hang.set()
        assert hung.hanging.wait(2.0)
        clock.now += 31.0
        state = wait_for(lambda: (s := camera_state(table))["back_from"] and s)
        assert state["back_from"] == "the camera gave no picture for 31 s"
        assert state["running"] and state["stalled_s"] is None and state["error"] is None
        assert hung.closed.is_set() and table.camera is fresh
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        fresh.roll([3, 4])
        wait_for(lambda: (table.state()["game"]["last_roll"] or {}).get("dice") == [3, 4])
    finally:
        table.stop()
        table.store.close()


def get_stuck(clock: FakeClock, capture: FakeCapture, seconds: float) -> None:
    """Make ``capture`` give its last picture again and again, for ``seconds`` by ``clock``.

    The clock runs in half seconds with a frame read in each, as a stuck camera's frames
    go on coming: a clock that jumped would look like a camera giving no frame at all.
    Once the table lets the camera go (to open it again), the clock just runs on."""
    capture.stuck = True
    reads = capture.reads
    wait_for(lambda: capture.reads > reads + 1)      # the same picture has come again
    for _ in range(round(seconds / 0.5)):
        reads = capture.reads
        clock.now += 0.5
        wait_for(lambda: capture.reads > reads + 1 or capture.released)


def test_a_webcam_stuck_on_one_picture_is_said_until_its_picture_changes(data_dir: Path) -> None:
    """A hung webcam whose driver gave its last frame again and again: frames came, so
    nothing was said, and no throw was ever read."""
    clock, capture = FakeClock(), FakeCapture(0, size=(16, 12), noisy=True, fps=100)
    table = table_with(data_dir, UsbCamera(0, settle_s=0, capture=lambda i: capture),
                       clock=clock)  # no reopen: only said
    try:
        wait_for(lambda: table.snapshot() is not None)
        get_stuck(clock, capture, 12.0)
        state = wait_for(lambda: (s := camera_state(table))["stalled_s"] == 12 and s)
        assert state["frozen"] and state["running"] and state["error"] is None
        capture.stuck = False
        state = wait_for(lambda: (s := camera_state(table))["stalled_s"] is None and s)
        assert not state["frozen"] and state["running"] and state["error"] is None
    finally:
        table.stop()
        table.store.close()


def test_a_webcam_that_stays_stuck_is_closed_and_opened_again(data_dir: Path) -> None:
    clock, capture = FakeClock(), FakeCapture(0, size=(16, 12), noisy=True, fps=100)
    webcam, plugged_in = UsbCamera(0, settle_s=0, capture=lambda i: capture), FakeCamera()
    table = table_with(data_dir, webcam, clock=clock,
                       reopen=reopener(webcam, usb=lambda i: plugged_in))
    try:
        wait_for(lambda: table.snapshot() is not None)
        get_stuck(clock, capture, 31.0)
        state = wait_for(lambda: (s := camera_state(table))["back_from"] and s)
        assert re.fullmatch(r"the camera's picture did not change for 3[01] s \(stuck\?\)",
                            state["back_from"]), state["back_from"]
        assert state["running"] and state["stalled_s"] is None and not state["frozen"]
        assert capture.released and table.camera is plugged_in
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        plugged_in.roll([6, 1])
        wait_for(lambda: (table.state()["game"]["last_roll"] or {}).get("dice") == [6, 1])
    finally:
        table.stop()
        table.store.close()


def test_a_camera_giving_a_picture_only_every_few_seconds_is_said_to_be_slow(
        data_dir: Path) -> None:
    """A webcam at a frame every 3 s (a dim room, a slow USB port) scored each throw ten
    seconds after it landed, and nothing said why."""
    clock = FakeClock()
    camera = SlowCamera(clock, 3.0)
    table = table_with(data_dir, camera, clock=clock)
    try:
        state = wait_for(lambda: (s := camera_state(table))["slow_s"] == 3 and s)
        assert state["stalled_s"] is None and state["running"] and state["error"] is None
        camera.seconds = 0.05                         # its pace comes back
        wait_for(lambda: camera_state(table)["slow_s"] is None)
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        camera.roll([4, 2])
        wait_for(lambda: (table.state()["game"]["last_roll"] or {}).get("dice") == [4, 2])
    finally:
        table.stop()
        table.store.close()


def test_an_unplugged_webcam_is_opened_again_on_the_second_try(data_dir: Path) -> None:
    capture = FakeCapture(0, size=(16, 12), frames_left=3)
    webcam = UsbCamera(0, settle_s=0, capture=lambda i: capture)
    plugged_in = FakeCamera()
    tries: list[int] = []

    def usb(index: int) -> Any:
        tries.append(index)
        if len(tries) == 1:
            raise UsbCameraUnavailable(f"no camera at /dev/video{index}")
        return plugged_in

    table = table_with(data_dir, webcam, reopen=reopener(webcam, usb=usb), reopen_every=0.01)
    try:
        state = wait_for(lambda: (s := camera_state(table))["back_from"] and s)
        assert tries == [0, 0]
        assert state["back_from"] == "usb:0 stopped giving pictures (unplugged?)"
        assert state["running"] and not state["reopening"] and state["error"] is None
        assert capture.released  # the old device was let go for the new one
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        plugged_in.roll([2, 5])  # read through a new watcher on the new camera
        wait_for(lambda: (table.state()["game"]["last_roll"] or {}).get("dice") == [2, 5])
    finally:
        table.stop()
        table.store.close()


def test_a_webcam_plugged_back_in_under_another_number_is_said_to_be_found_again(
        data_dir: Path, tmp_path: Path) -> None:
    """Plugged back in as /dev/video2, a webcam that was /dev/video0 was looked for as 0
    alone: the control page said it was being opened again until the appliance restarted."""
    sysfs, port = tmp_path / "class" / "video4linux", "usb1/1-1/1-1.2/1-1.2:1.0"
    plug_webcam(sysfs, 0, "HD Pro Webcam C920", port)
    capture = FakeCapture(0, size=(16, 12), frames_left=3)
    webcam = UsbCamera(0, settle_s=0, capture=lambda i: capture)

    def usb(index: int) -> Any:
        return UsbCamera(index, settle_s=0, capture=lambda i: FakeCapture(
            i, size=(16, 12), present=i == 2, fps=100))

    again = reopener(webcam, sysfs=sysfs, usb=usb)
    unplug_webcam(sysfs, 0)                    # its last frames are still to be read
    plug_webcam(sysfs, 2, "HD Pro Webcam C920", port)
    table = table_with(data_dir, webcam, reopen=again, reopen_every=0.01)
    try:
        state = wait_for(lambda: (s := camera_state(table))["back_from"] and s)
        assert state["running"] and not state["reopening"] and state["error"] is None
        assert state["message"].endswith("found again as /dev/video2 (it was /dev/video0)")
        assert getattr(table.camera, "index", None) == 2
    finally:
        table.stop()
        table.store.close()


def test_throws_are_entered_by_hand_while_the_camera_is_opened_again(data_dir: Path) -> None:
    camera, plugged_in = TroubledCamera(), FakeCamera()
    opening, plug_in = threading.Event(), threading.Event()
    tries: list[int] = []

    def reopen() -> Any:
        tries.append(1)
        if len(tries) == 1:
            raise UsbCameraUnavailable("no camera at /dev/video0")
        opening.set()
        plug_in.wait(10)  # a slow open: the table must not wait for it
        return plugged_in

    table = table_with(data_dir, camera, reopen=reopen, reopen_every=0.01)
    client = create_app(table).test_client()
    try:
        assert client.post("/api/games", json={"family": "sum_chicago",
                                               "players": ["Aino", "Bertil"]}).status_code == 200
        camera.unplugged.set()
        assert opening.wait(5.0)
        state = client.get("/api/state").get_json()["camera"]
        assert not state["running"] and state["reopening"] and state["back_from"] is None
        assert state["error"] == ("usb:0 stopped giving pictures (unplugged?); trying to open it "
                                  "again every 0.01 s (last try: no camera at /dev/video0)")
        resp = client.post("/api/roll", json={"dice": [5, 6]})
        assert resp.status_code == 200, resp.get_data(as_text=True)
        assert resp.get_json()["game"]["last_roll"]["dice"] == [5, 6]
        assert resp.get_json()["game"]["next"]["player"] == "Bertil"
        plug_in.set()
        state = wait_for(lambda: (s := camera_state(table))["running"] and s)
        assert state["back_from"] == "usb:0 stopped giving pictures (unplugged?)"
        assert not state["reopening"] and state["error"] is None
    finally:
        plug_in.set()
        table.stop()
        table.store.close()


def test_the_empty_tray_is_not_taken_from_the_picture_of_a_camera_that_gives_none(
        data_dir: Path, tmp_path: Path) -> None:
    """While the camera gives no picture, its last one may be long out of date (dice thrown
    and entered by hand since): keeping it as the empty tray would make the reader see the
    tray as it was then. The page is told to wait for the camera instead."""
    from web.calibrating import Calibrator

    clock, camera = FakeClock(), TroubledCamera()
    calibrator = Calibrator(tmp_path / "calibration.json", read=lambda frame, cal: _no_dice)
    table = table_with(data_dir, camera, clock=clock, calibrator=calibrator)
    client = create_app(table).test_client()
    try:
        hang_for(table, camera, clock, 12.0)
        answer = client.post("/api/empty-tray", json={"take": True})
        assert answer.status_code == 409
        assert "no picture for 12 s" in answer.get_json()["error"]
        assert not camera_state(table)["empty_tray"]
        camera.hang.clear()
        wait_for(lambda: camera_state(table)["stalled_s"] is None)
        assert client.post("/api/empty-tray", json={"take": True}).status_code == 200
        assert camera_state(table)["empty_tray"]
    finally:
        table.stop()
        table.store.close()


class _NoDice:
    dice: tuple[Any, ...] = ()


_no_dice = _NoDice()


def test_the_empty_tray_waits_for_a_camera_being_opened_again(data_dir: Path,
                                                              tmp_path: Path) -> None:
    """An unplugged camera's last picture is as stale as a hung one's."""
    from web.calibrating import Calibrator

    camera = TroubledCamera()

    def still_unplugged() -> Any:
        raise UsbCameraUnavailable("no camera at /dev/video0")

    calibrator = Calibrator(tmp_path / "calibration.json", read=lambda frame, cal: _no_dice)
    table = table_with(data_dir, camera, calibrator=calibrator, reopen=still_unplugged,
                       reopen_every=0.01)
    client = create_app(table).test_client()
    try:
        wait_for(lambda: table.snapshot() is not None)
        camera.unplugged.set()
        wait_for(lambda: camera_state(table)["reopening"])
        assert table.snapshot() is not None  # the old camera's last picture is still there
        answer = client.post("/api/empty-tray", json={"take": True})
        assert answer.status_code == 409 and "opened again" in answer.get_json()["error"]
        assert not camera_state(table)["empty_tray"]
    finally:
        table.stop()
        table.store.close()


class StumblingWatcher(FakeWatcher):
    """A fake watcher whose reader fails on every frame while ``stumble`` is set."""

    stumble = threading.Event()

    def feed(self, frame: np.ndarray) -> Any:
        if self.stumble.is_set():
            raise RuntimeError("something odd in the frames")
        return super().feed(frame)


def test_a_frame_that_cannot_be_read_is_said_until_frames_are_read_again(data_dir: Path) -> None:
    """One bad frame left "reading failed" on the control page for good."""
    camera = FakeCamera()
    table = Table(Store(data_dir), camera=camera,
                  watcher_factory=lambda read: StumblingWatcher(camera, read)).start()
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        StumblingWatcher.stumble.set()
        state = wait_for(lambda: (s := camera_state(table))["error"] and s)
        assert state["error"] == "reading failed: RuntimeError: something odd in the frames"
        StumblingWatcher.stumble.clear()
        wait_for(lambda: camera_state(table)["error"] is None)   # the next frame read well
        camera.roll([1, 1])
        wait_for(lambda: table.state()["game"]["players"][0]["score"] == 2)
    finally:
        table.stop()
        table.store.close()


def test_the_table_times_its_roll_watcher_for_the_cameras_frame_rate() -> None:
    """At 60 fps the watcher's three frames were 33 ms: a die pausing as it tipped over
    was taken for settled."""
    from vision.watcher import WatchSettings
    from web.table import _default_watcher_factory

    assert _default_watcher_factory(60.0)(lambda f: None).settings.settle_frames == 9
    assert _default_watcher_factory(None)(lambda f: None).settings == WatchSettings()


def test_the_table_times_its_roll_watchers_waits_by_the_pace_the_camera_keeps(
        data_dir: Path) -> None:
    """A webcam that said 15 frames a second but gave one every half second (a dim room)
    had a hand left in the tray waited on for 45 frames: 23 s of a score that seemed
    stuck. Its waits now follow the pace measured, and follow it back."""
    clock = FakeClock()
    camera = SlowCamera(clock, 0.5)
    table = Table(Store(data_dir), camera=camera, clock=clock).start()

    def hand_wait_s() -> float:
        watcher = table._watcher
        return 1e9 if watcher is None else watcher.settings.obstructed_frames * camera.seconds

    try:
        wait_for(lambda: 2.5 <= hand_wait_s() <= 4.0)
        camera.seconds = 1 / 30                       # now 30 frames a second
        wait_for(lambda: 2.5 <= hand_wait_s() <= 4.0)
        assert table._watcher.settings.settle_frames == 5
    finally:
        table.stop()
        table.store.close()


def test_a_throw_made_while_the_camera_was_opened_again_is_scored_when_it_is_back(
        data_dir: Path) -> None:
    """A new watcher took the first picture after the camera came back for the tray as it
    lay: the dice thrown while it was out were never scored, and nothing said so."""
    from vision.frames import SimCamera, SourceClosed
    from vision.sim import SimulatedTray

    tray = SimulatedTray(seed=2, size=(640, 480), dice=2)     # outlives each camera
    hang = threading.Event()

    class Webcam(SimCamera):
        name = "usb"

        def read(self) -> np.ndarray:
            while hang.is_set() and not self._closed.is_set():
                time.sleep(0.02)
            if self._closed.is_set():
                raise SourceClosed("closed")
            return super().read()

    def reopen() -> Webcam:
        if hang.is_set():
            raise UsbCameraUnavailable("no camera at /dev/video0")
        return Webcam(tray=tray)

    clock = FakeClock()
    table = Table(Store(data_dir), camera=Webcam(tray=tray), reopen=reopen, clock=clock,
                  stalled_after=1, reopen_stalled_after=3, reopen_every=0.05).start()
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        table.camera.roll([2, 2])
        wait_for(lambda: table.state()["game"]["actions"] == 1, timeout=10)
        hang.set()
        time.sleep(0.3)
        clock.now += 4.0                                           # no picture for 4 s
        wait_for(lambda: camera_state(table)["reopening"])
        tray.roll([6, 5])
        for _ in range(40):
            tray.next_frame()                  # the dice tumble and stop while unseen
        hang.clear()
        wait_for(lambda: table.state()["game"]["actions"] == 2, timeout=10)
        assert table.game is not None and sorted(table.game.log[1]["dice"]) == [5, 6]
    finally:
        hang.clear()
        table.stop()
        table.store.close()


class ScriptedWatcher:
    """A watcher that reports what the test puts in ``said``, one event a frame."""

    said: "list[Any]" = []

    def __init__(self, read: Any) -> None:
        self.moving = False

    def feed(self, frame: np.ndarray) -> list[Any]:
        return [self.said.pop(0)] if self.said else []


def scripted_table(data_dir: Path) -> Table:
    """A started table whose watcher reports what the test puts in ScriptedWatcher.said."""
    ScriptedWatcher.said.clear()
    return Table(Store(data_dir), camera=FakeCamera(), watcher_factory=ScriptedWatcher).start()


def test_a_throw_reported_under_a_resting_hand_is_withdrawn_when_the_hand_leaves(
        data_dir: Path) -> None:
    """A hand over one die for longer than the watcher waits: the one die left in view
    waited as "check the tray: 1 die, 2 expected", and still did once the hand had gone."""
    from web.fakes import FakeEvent, reading

    table = scripted_table(data_dir)
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        ScriptedWatcher.said += [FakeEvent("settled", 1, reading(1, 1))]
        wait_for(lambda: table.state()["game"]["actions"] == 1)
        ScriptedWatcher.said += [FakeEvent("settled", 2, reading(1))]      # under the hand
        wait_for(lambda: table.state()["table"]["waiting"])
        ScriptedWatcher.said += [FakeEvent("uncovered", 3, reading(1, 1))]  # it has gone
        state = wait_for(lambda: (s := table.state()) and not s["table"]["waiting"] and s)
        assert "a hand hid them for long" in state["table"]["ignored"]
        assert [d["value"] for d in state["reading"]["dice"]] == [1, 1]    # Aino's throw
        assert state["game"]["actions"] == 1 and state["game"]["next"]["player"] == "Bertil"
    finally:
        table.stop()
        table.store.close()


def test_a_throw_waiting_before_the_hand_came_waits_again_when_it_leaves(
        data_dir: Path) -> None:
    """The report under the hand put the waiting throw aside; withdrawn, it took that
    throw with it, and the dice in the tray were never scored."""
    from web.fakes import FakeEvent, reading

    table = scripted_table(data_dir)
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        ScriptedWatcher.said += [FakeEvent("settled", 1, reading(3, 5, flagged=[1]))]
        first = wait_for(lambda: (s := table.state())["table"]["waiting"] and s)["reading"]["id"]
        ScriptedWatcher.said += [FakeEvent("settled", 2, reading(3))]          # the hand
        wait_for(lambda: table.state()["reading"]["id"] != first)
        ScriptedWatcher.said += [FakeEvent("uncovered", 3, reading(3, 5, flagged=[1]))]
        state = wait_for(lambda: (s := table.state())["reading"]["id"] == first and s)
        assert state["table"]["waiting"] and state["reading"]["status"] == "waiting"
        assert state["game"]["actions"] == 0
    finally:
        table.stop()
        table.store.close()


def test_a_throw_some_of_whose_dice_were_never_picked_up_waits_for_a_person(
        data_dir: Path) -> None:
    """A die of Aino's throw rolled on after it was read: scored silently, its new face
    was Bertil's throw."""
    from web.fakes import FakeEvent, reading

    table = scripted_table(data_dir)
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        ScriptedWatcher.said += [FakeEvent("settled", 1, reading(1, 3))]
        wait_for(lambda: table.state()["game"]["actions"] == 1)
        ScriptedWatcher.said += [FakeEvent("settled", 2, reading(1, 4), rolled_on=True)]
        state = wait_for(lambda: (s := table.state())["table"]["waiting"] and s)
        assert "not picked up: if a die of that throw rolled on, tap Undo" in state["table"]["message"]
        assert "if this is Bertil's throw, confirm it" in state["table"]["message"]
        assert state["game"]["actions"] == 1
    finally:
        table.stop()
        table.store.close()


def test_a_camera_found_after_the_start_takes_the_simulated_trays_place(data_dir: Path) -> None:
    """--camera auto found no camera at boot (the Pi's not ready yet, a webcam not plugged
    in) and gave the simulated tray: the appliance stayed on made-up throws, with "Roll
    for me" on the control page, until someone restarted it."""
    class Webcam(FakeCamera):
        name, message = "usb", "usb:0, 1280x960 MJPG (--camera auto)"
        roll = None            # a real camera is thrown into, not told to throw

    simulated, webcam = TroubledCamera(), Webcam()
    simulated.name = "sim"
    looks: list[int] = []

    def look() -> Any:
        looks.append(1)
        if len(looks) < 3:
            raise UsbCameraUnavailable("no USB camera (/dev/video0-9)")
        return webcam

    table = table_with(data_dir, simulated, look_for_camera=look, look_every=0.01)
    try:
        assert camera_state(table)["can_roll"]
        state = wait_for(lambda: (s := camera_state(table))["name"] == "usb" and s)
        assert len(looks) == 3 and simulated.closed.is_set() and table.camera is webcam
        assert state["message"] == webcam.message and state["running"]
        assert not state["can_roll"]                     # no "Roll for me" on a real tray
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        FakeCamera.roll(webcam, [1, 1])
        wait_for(lambda: (table.state()["game"]["last_roll"] or {}).get("dice") == [1, 1])
    finally:
        table.stop()
        table.store.close()
