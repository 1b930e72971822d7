"""Home Wi-Fi between a browser and a test server, dropped and brought back at will.

Dropped, it passes nothing either way and closes nothing, as Wi-Fi that goes away does:
a screen's open stream goes quiet instead of ending, and the browser is not told. When it
comes back, the connections open during the drop stay dead (the server has long given
up on them); one the browser sent bytes on meanwhile is reset, as the server's machine
answers a connection it no longer knows. New connections pass again.
"""
from __future__ import annotations

import socket
import struct
import threading
from types import TracebackType


class _Link:
    """One browser connection and its own to the server."""

    def __init__(self, browser: socket.socket, server: socket.socket, dead: bool) -> None:
        self.browser, self.server = browser, server
        self.dead = dead              # caught in a drop: passes nothing ever again
        self.sent_while_dead = False  # the browser is still waiting on bytes it sent

    def reset(self) -> None:
        """Close the browser's side with a reset (RST), not a polite close."""
        self.browser.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close()

    def close(self) -> None:
        for sock in (self.browser, self.server):
            try:
                sock.close()
            except OSError:
                pass


class FlakyWifi:
    """``with FlakyWifi(server_port) as wifi:`` serves the server at ``wifi.url``;
    ``wifi.drop()`` and ``wifi.restore()`` take the network away and bring it back."""

    def __init__(self, server_port: int) -> None:
        self._server_port = server_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._up = True
        self._lock = threading.Lock()
        self._links: list[_Link] = []

    def drop(self) -> None:
        with self._lock:
            self._up = False
            for link in self._links:
                link.dead = True

    def restore(self) -> None:
        with self._lock:
            self._up = True
            waiting = [link for link in self._links if link.sent_while_dead]
        for link in waiting:
            link.reset()

    def __enter__(self) -> "FlakyWifi":
        threading.Thread(target=self._accept, daemon=True, name="flaky-wifi").start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._listener.close()
        with self._lock:
            links, self._links = self._links, []
        for link in links:
            link.close()

    def _accept(self) -> None:
        while True:
            try:
                browser, _ = self._listener.accept()
            except OSError:
                return                                   # the Wi-Fi is put away
            try:
                server = socket.create_connection(("127.0.0.1", self._server_port))
            except OSError:                              # the server is stopped
                browser.close()
                continue
            with self._lock:
                link = _Link(browser, server, dead=not self._up)
                self._links.append(link)
            threading.Thread(target=self._pass, args=(link, True), daemon=True).start()
            threading.Thread(target=self._pass, args=(link, False), daemon=True).start()

    def _pass(self, link: _Link, upstream: bool) -> None:
        """Carry bytes one way while the link lives; a dead link's bytes are lost."""
        source, target = (link.browser, link.server) if upstream else (link.server, link.browser)
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                if not link.dead:
                    link.close()
                return
            with self._lock:
                dead, up = link.dead, self._up
                if dead and upstream:
                    link.sent_while_dead = True
            if dead and upstream and up:
                link.reset()        # bytes on a connection the server forgot
                return
            if dead:
                continue
            try:
                target.sendall(data)
            except OSError:
                return
