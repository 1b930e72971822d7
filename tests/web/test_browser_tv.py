"""The TV scoreboard as the family on the sofa sees it, about three metres away: what
matters is big enough to read and says what is going on (system Chromium)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.live import LiveServer

pytestmark = pytest.mark.browser


def test_a_lost_connection_is_said_in_letters_read_from_the_sofa(
        browser: Any, tmp_path: Path) -> None:
    # With the server gone (restarting, the Pi unplugged) the board still shows the
    # last state: a throw made meanwhile does not come. That must be seen from the sofa,
    # not in 14 px letters in a corner of a 1080-line TV.
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page.goto(server.url + "/")
        page.wait_for_selector("#conn:has-text('live')")
    page.wait_for_selector("#conn.off", timeout=10_000)
    box = page.eval_on_selector("#conn", """el => {
        const r = el.getBoundingClientRect();
        return {size: parseFloat(getComputedStyle(el).fontSize), text: el.innerText,
                inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight};
    }""")
    assert box["size"] >= 0.025 * 1080, box
    assert box["inside"], box
    assert "connection" in box["text"].lower(), box
    page.close()
