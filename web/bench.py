"""``make bench`` for the web layer: how fast a tap reaches the screens, how fast a restart is.

- ``correction_to_sse_ms``: from sending a correction (``POST /api/correct``) to the SSE
  event with its revision arriving at a client listening on ``/api/events`` (a real
  waitress server on localhost), median and 90th percentile over 50 corrections.
- ``rebuild_ms``: building the table at start, which replays the current game's log
  from SQLite: a finished three-player game, and a 40-player game (440 throws).
"""
from __future__ import annotations

import http.client
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from web.fakes import reading
from web.live import LiveServer
from web.store import Store
from web.table import Table

CORRECTIONS = 50


def _listen(port: int, arrivals: dict[int, float], ready: threading.Event,
            stop: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/events")
    resp = conn.getresponse()
    ready.set()
    while not stop.is_set():
        line = resp.readline()
        if not line:
            break
        if line.startswith(b"id: "):
            arrivals[int(line[4:])] = time.perf_counter()
    conn.close()


def correction_latency() -> dict[str, Any]:
    """Median and p90 ms from a POSTed correction to its SSE event at a listener."""
    with tempfile.TemporaryDirectory() as tmp, LiveServer(Path(tmp) / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.handle_reading(reading(3, 4))
        reading_id = server.table.state()["reading"]["id"]
        arrivals: dict[int, float] = {}
        ready, stop = threading.Event(), threading.Event()
        listener = threading.Thread(target=_listen, args=(server.port, arrivals, ready, stop),
                                    daemon=True)
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
        stop.set()
        server.table.publisher.publish("null", 10**9)   # wake the listener to end it
    samples.sort()
    return {"median_ms": round(statistics.median(samples), 2),
            "p90_ms": round(samples[int(0.9 * (len(samples) - 1))], 2),
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


def run() -> dict[str, Any]:
    """The web layer's numbers, for ``tests/bench.py``."""
    return {"correction_to_sse_ms": correction_latency(),
            "rebuild_ms": [rebuild(3, True), rebuild(40, True)]}


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
