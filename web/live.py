"""An in-process dicetray server on a free port: for the browser tests, the screenshot and
the benchmark, which need a real HTTP server (SSE through waitress) but no camera.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import waitress  # type: ignore[import-untyped]

from web.app import WAITRESS_OPTIONS, create_app
from web.store import Store
from web.table import Table


class LiveServer:
    """``with LiveServer(data_dir) as server:`` serves ``server.url`` until the block ends.

    ``server.table`` is the table behind it (no camera unless one is given), so a caller
    can feed it readings as the camera would. ``port`` 0 is a free one; another server on
    the port of one that ended is that server restarted. ``clock`` times the camera (a
    fake one lets a test make it slow without waiting).
    """

    def __init__(self, data_dir: str | Path, *, camera: Any = None, threads: int = 8,
                 keep_alive: float = 15.0, calibrator: Any = None, port: int = 0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = Store(data_dir)
        self.table = Table(self.store, camera=camera, calibrator=calibrator, clock=clock)
        self._server: Any = waitress.create_server(
            create_app(self.table, keep_alive=keep_alive), host="127.0.0.1", port=port,
            threads=threads, **WAITRESS_OPTIONS)
        self.port = int(self._server.effective_port)
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.run, name="live-server", daemon=True)

    def __enter__(self) -> "LiveServer":
        self.table.start()
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.table.stop()          # wakes every SSE stream so its thread ends
        server: Any = self._server
        # Let those threads finish their last writes while the loop and its trigger still
        # run: a stream writing after the sockets closed fails on the closed trigger.
        server.task_dispatcher.shutdown(timeout=3)
        # waitress's loop runs while its socket map is not empty; emptying the map from
        # inside the loop (by its trigger) ends it without closing a socket under select.
        sockets: dict[int, Any] = {}

        def empty_map() -> None:
            sockets.update(server._map)
            server._map.clear()

        server.trigger.pull_trigger(empty_map)
        self._thread.join(timeout=3)
        for dispatcher in sockets.values():
            dispatcher.close()
        self.store.close()


#: The system Chromium (Debian's package); never a browser downloaded by Playwright.
CHROMIUM = "/usr/bin/chromium"
#: Headless flags for a machine with no display and a closed network: without the
#: background-networking ones Chromium keeps trying to reach Google's hosts.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def launch_chromium(playwright: Any) -> Any:
    """The system Chromium, headless, through Playwright's sync API."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
