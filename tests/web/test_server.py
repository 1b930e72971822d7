"""`dicetray serve` as a real process: killed with SIGKILL mid-game, it comes back intact."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(data: Path, port: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "web.cli", "serve", "--camera", "sim", "--port", str(port),
         "--data", str(data)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        cwd=Path(__file__).resolve().parents[2])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            get(port, "/api/state")
            return proc
        except (urllib.error.URLError, ConnectionError):
            if proc.poll() is not None:
                raise AssertionError(f"serve exited: {proc.stdout.read() if proc.stdout else ''}")
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("serve did not come up in 30 s")


def get(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as resp:
        return json.loads(resp.read())


def post(port: int, path: str, body: Any) -> Any:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=5) as resp:
        return json.loads(resp.read())


def test_sigkill_mid_game_loses_nothing_acknowledged(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    proc = start(data, port)
    try:
        first_line = proc.stdout.readline() if proc.stdout else ""
        assert first_line.startswith("camera: sim")
        post(port, "/api/games", {"players": ["Aino", "Bertil", "Cecilia"]})
        for dice in ([1, 1], [1, 2], [2, 1], [1, 2]):
            post(port, "/api/roll", {"dice": dice})
        post(port, "/api/undo", {})
        before = post(port, "/api/correct", {"action": 1, "dice": [1, 1]})
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    proc = start(data, port)
    try:
        after = get(port, "/api/state")
        assert after["game"]["players"] == before["game"]["players"]
        assert [p["score"] for p in after["game"]["players"]] == [2, 2, 0]
        assert after["game"]["next"] == before["game"]["next"]
        assert after["revision"] >= before["revision"]
        assert after["table"]["game_id"] == before["table"]["game_id"]
    finally:
        proc.terminate()
        proc.wait(10)


def test_sigkill_during_a_stream_of_actions_keeps_every_acknowledged_one(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    proc = start(data, port)
    acknowledged = 0
    try:
        # 40 players: 440 throws before the game could end, far more than 0.7 s allows.
        post(port, "/api/games", {"players": [f"P{i}" for i in range(40)]})
        deadline = time.monotonic() + 0.7
        while time.monotonic() < deadline:
            post(port, "/api/roll", {"dice": [3, 3]})
            acknowledged += 1
            if acknowledged % 10 == 0:
                post(port, "/api/undo", {})
                acknowledged += 1
    finally:
        os.kill(proc.pid, signal.SIGKILL)   # while the last requests may be in flight
        proc.wait(10)
    proc = start(data, port)
    try:
        after = get(port, "/api/state")
        assert after["game"]["actions"] >= acknowledged > 5
    finally:
        proc.terminate()
        proc.wait(10)
