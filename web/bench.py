"""``make bench`` for the web layer: how fast a tap reaches the screens, how fast a restart is.

- ``correction_to_sse_ms``: from sending a correction (``POST /api/correct``) to the SSE
  event with its revision arriving at a client listening on ``/api/events`` (a real
  waitress server on localhost), median and 90th percentile over 50 corrections.
- ``rebuild_ms``: building the table at start, which replays the current game's log
  from SQLite: a finished three-player game, and a 40-player game (440 throws).
- ``throw_to_screen``: from the frame in which the last die of a throw comes to rest to
  the throw's reading arriving at a screen, through everything a throw goes through: the
  simulated camera at its own pace (1280×960, 15 frames a second, as ``make demo``), the
  camera thread, the watcher, the reader with the calibration the table keeps (the die
  size it measures from the first throws), the table, SQLite and SSE. For two dice (Sum
  Chicago) and six (10000); median and 90th percentile in ms and in frames, how many
  throws were read right (every die, none flagged) and what became of them (scored, or
  waiting for a person).
"""
from __future__ import annotations

import http.client
import json
import math
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from vision.frames import SimCamera
from web.calibrating import Calibrator
from web.fakes import reading
from web.live import LiveServer
from web.store import Store
from web.table import Table

CORRECTIONS = 50


def _listen(port: int, heard: Callable[[float, dict[str, Any]], None],
            ready: threading.Event, stop: threading.Event) -> None:
    """A screen on ``/api/events``: ``heard(arrival time, state)`` for each state sent."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/events")
    resp = conn.getresponse()
    ready.set()
    while not stop.is_set():
        line = resp.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            at = time.perf_counter()
            state = json.loads(line[6:])
            if isinstance(state, dict):
                heard(at, state)
    conn.close()


def _p90(ordered: list[float]) -> float:
    """The 90th percentile of sorted samples, by nearest rank (of 2 samples, the larger).

    >>> _p90([1.0, 2.0]), _p90([float(i) for i in range(1, 51)])
    (2.0, 45.0)
    """
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def _hang_up(server: LiveServer, listener: threading.Thread, stop: threading.Event) -> None:
    """End the listening screen before its server stops: a stream still writing while
    waitress shuts down fails on its closed trigger (a traceback in the bench's output)."""
    stop.set()
    server.table.publisher.publish("null", 10**9)   # wakes the listener to see ``stop``
    listener.join(5)


def correction_latency() -> dict[str, Any]:
    """Median and p90 ms from a POSTed correction to its SSE event at a listener."""
    with tempfile.TemporaryDirectory() as tmp, LiveServer(Path(tmp) / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.handle_reading(reading(3, 4))
        reading_id = server.table.state()["reading"]["id"]
        arrivals: dict[int, float] = {}
        ready, stop = threading.Event(), threading.Event()
        listener = threading.Thread(
            target=_listen, daemon=True,
            args=(server.port, lambda at, state: arrivals.setdefault(state["revision"], at),
                  ready, stop))
        listener.start()
        ready.wait(5)
        time.sleep(0.2)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        samples = []
        for i in range(CORRECTIONS):
            body = json.dumps({"reading": reading_id, "die": 1, "value": 1 + i % 6})
            sent = time.perf_counter()
            conn.request("POST", "/api/correct", body, {"Content-Type": "application/json"})
            revision = json.loads(conn.getresponse().read())["revision"]
            deadline = time.monotonic() + 5
            while revision not in arrivals and time.monotonic() < deadline:
                time.sleep(0.0002)
            if revision in arrivals:
                samples.append((arrivals[revision] - sent) * 1000.0)
        conn.close()
        _hang_up(server, listener, stop)
    samples.sort()
    return {"median_ms": round(statistics.median(samples), 2),
            "p90_ms": round(_p90(samples), 2),
            "samples": len(samples)}


def rebuild(players: int, finish: bool) -> dict[str, Any]:
    """ms to build the table at start (the log replayed from SQLite)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        table = Table(store)
        names = [f"P{i}" for i in range(players)]
        table.new_game("sum_chicago", names)
        throws = 11 * players if finish else 5 * players
        for i in range(throws):
            table.hand_roll([1 + i % 6, 1 + (i // 6) % 6])
        actions = len(table.game.log) if table.game else 0
        store.close()
        times = []
        for _ in range(5):
            store = Store(Path(tmp))
            times.append(Table(store).rebuild_ms)
            store.close()
    return {"players": players, "actions": actions, "ms_median": round(statistics.median(times), 2)}


class _ClockedCamera:
    """The simulated camera, noting when each frame left it (by the tray's frame index)."""

    def __init__(self, camera: SimCamera) -> None:
        self.camera = camera
        self.name = camera.name
        self.message = camera.message
        self.fps = camera.fps
        self.left: dict[int, float] = {}

    def read(self) -> Any:
        frame = self.camera.read()
        self.left[self.camera.tray.frame_index] = time.perf_counter()
        return frame

    def roll(self, values: Any = None, count: int | None = None) -> tuple[int, ...]:
        return self.camera.roll(values, count)

    def close(self) -> None:
        self.camera.close()


def throw_latency(dice: int, family: str, throws: int = 12, seed: int = 11) -> dict[str, Any]:
    """ms and frames from a throw's dice all at rest to its reading on a screen."""
    camera = _ClockedCamera(SimCamera(seed=seed, dice=dice))
    period_ms = 1000.0 / camera.fps
    ms: list[float] = []
    right = 0
    statuses: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp, LiveServer(
            Path(tmp) / "data", camera=camera,
            calibrator=Calibrator(Path(tmp) / "calibration.json")) as server:
        arrivals: dict[int, tuple[float, dict[str, Any]]] = {}
        ready, stop = threading.Event(), threading.Event()

        def heard(at: float, state: dict[str, Any]) -> None:
            got = state.get("reading")
            if got is not None and got["id"] not in arrivals:
                arrivals[got["id"]] = (at, got)

        listener = threading.Thread(target=_listen, args=(server.port, heard, ready, stop),
                                    daemon=True)
        listener.start()
        ready.wait(5)
        time.sleep(1.0)  # the dice lying in the tray at start are no throw
        for _ in range(throws):
            # Each throw opens a game, so each is the throw the game expects (10000 asks
            # for a choice after a throw, and would ignore the next one).
            server.table.new_game(family, ["Aino", "Bertil"])
            before = set(arrivals)
            camera.roll()
            tray = camera.camera.tray
            rest, truth = tray.settled_at, sorted(d.value for d in tray.truth)
            # The throw's reading is the first to reach the screen after its dice rest
            # (one of the scene before the throw, on a slow machine, may come later).
            found: int | None = None
            deadline = time.monotonic() + 10
            while found is None and time.monotonic() < deadline:
                time.sleep(0.001)
                rested = camera.left.get(rest) if rest is not None else None
                later = [i for i in set(arrivals) - before
                         if rested is not None and arrivals[i][0] > rested]
                found = min(later) if later else None
            if found is None or rest is None:
                continue
            at, got = arrivals[found]
            ms.append((at - camera.left[rest]) * 1000.0)
            right += (not any(d["flagged"] for d in got["dice"])
                      and sorted(d["value"] for d in got["dice"]) == truth)
            statuses[got["status"]] = statuses.get(got["status"], 0) + 1
            time.sleep(0.3)
        _hang_up(server, listener, stop)
    ms.sort()
    return {"dice": dice, "throws": throws, "reached_a_screen": len(ms),
            "read_right": right, "became": statuses,
            "median_ms": round(statistics.median(ms), 1) if ms else None,
            "p90_ms": round(_p90(ms), 1) if ms else None,
            "median_frames": round(statistics.median(ms) / period_ms, 2) if ms else None,
            "frame_ms": round(period_ms, 1)}


def run() -> dict[str, Any]:
    """The web layer's numbers, for ``tests/bench.py``."""
    return {"correction_to_sse_ms": correction_latency(),
            "rebuild_ms": [rebuild(3, True), rebuild(40, True)],
            "throw_to_screen": [throw_latency(2, "sum_chicago"),
                                throw_latency(6, "ten_thousand")]}


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
