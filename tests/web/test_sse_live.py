"""SSE through the real server (waitress): screens that go away free their threads."""
from __future__ import annotations

import http.client
import json
import time
from pathlib import Path

from web.live import LiveServer


def test_closed_streams_free_their_server_threads(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data", threads=4, keep_alive=15.0) as server:
        for _ in range(2):                       # 8 streams opened and dropped, 4 threads
            conns = []
            for _ in range(4):
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
                conn.request("GET", "/api/events")
                resp = conn.getresponse()
                assert resp.getheader("Content-Type", "").startswith("text/event-stream")
                while not resp.readline().startswith(b"event: state"):
                    pass
                conns.append(conn)
            for conn in conns:
                conn.close()
        start = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/api/state")
        assert json.loads(conn.getresponse().read())["game"] is None
        # Well under the 15 s keep-alive: the dropped streams ended on their own.
        assert time.monotonic() - start < 5
        conn.close()
