"""The pages as a family meets them: a grandparent with weak eyes who zooms the page, a
child, someone on the keyboard or with a screen reader, measured in the system Chromium
(found by an accessibility audit)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.live import LiveServer

pytestmark = pytest.mark.browser

# 200 % browser zoom halves the page's width in CSS px: a tablet lying down (1024x768)
# and a phone (390x844) zoomed so.
ZOOMED = [(512, 384), (195, 422)]

# What sticks out past the screen's right edge, which the page would scroll sideways for.
PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > innerWidth + 1)
  .map((el) => el.outerHTML.slice(0, 60))"""


@pytest.mark.parametrize("size", ZOOMED)
def test_at_200_percent_zoom_nothing_runs_off_the_side_of_the_screen(
        browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    with LiveServer(tmp_path / "data") as server:
        # Card Chicago's exchange: six count buttons a player, the widest row of the page.
        server.table.new_game("card_chicago", ["Aino", "Bertil"])
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        for path, ready in (("/control", "#other [data-ex='Aino']"), ("/history", "table.list")):
            page.goto(server.url + path)
            page.wait_for_selector(ready)
            assert page.evaluate(PAST_THE_EDGE) == [], path
            assert page.evaluate("document.documentElement.scrollWidth") <= size[0], path
        page.close()
