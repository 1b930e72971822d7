"""The pages on cheap, slow devices over an evening: an old tablet on a slow Wi-Fi as the
control page, a TV stick's browser as the scoreboard (system Chromium). What a page asks
of the network and keeps in memory stays bounded however long it stays open.
(``python -m web.slow_devices`` measures the pages slowed down; these tests only count.)"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vision.frames import SimCamera
from web.live import LiveServer

pytestmark = pytest.mark.browser


def _asked_so_far(page: Any) -> None:
    """Returns once every request the page has made so far has reached the test: one
    asked now is seen after them."""
    with page.expect_request("**/api/families?asked"):
        page.evaluate("fetch('/api/families?asked')")


def test_the_trays_picture_is_not_asked_again_while_the_last_is_still_coming(
        browser: Any, tmp_path: Path) -> None:
    # The camera's picture is some 270 kB: over a slow Wi-Fi (400 kb/s) more than five
    # seconds, and the open "Mark the tray" panel asked for a new one every two seconds.
    # They queued up, the picture shown grew older, and a tap waited behind them.
    with LiveServer(tmp_path / "data", camera=SimCamera(seed=4, size=(320, 240))) as server:
        page = browser.new_page()
        page.clock.install()
        held: list[Any] = []
        page.route("**/api/frame.jpg*", lambda route: held.append(route))   # each still on its way
        page.goto(server.url + "/control")
        page.wait_for_selector("#marktray", state="visible")
        page.click("#marktray")
        page.wait_for_function("document.querySelector('#trayimg').getAttribute('src')")
        assert len(held) == 1
        page.clock.run_for(20_000)
        _asked_so_far(page)
        assert len(held) == 1           # none asked on top of the one still coming
        held[0].continue_()
        page.wait_for_function("document.querySelector('#trayimg').naturalWidth > 0")
        # Once it has come, the picture is kept fresh as before: the next one is asked.
        with page.expect_request("**/api/frame.jpg*"):
            page.clock.run_for(2_500)
        page.clock.run_for(20_000)
        _asked_so_far(page)
        assert len(held) == 2
        held[1].continue_()
        page.close()
