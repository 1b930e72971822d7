"""Remake ``docs/scoreboard.png``: the scoreboard mid-game at 1280x720, in the system Chromium.

    .venv/bin/python -m web.screenshot [OUT.png]

A game of Sum Chicago is played to round 6 on a throwaway data folder (fixed throws,
the last one from a "camera" reading), then the page is photographed.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from web.fakes import reading
from web.live import LiveServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "docs" / "scoreboard.png"

# Rounds 1-5 (targets 2..6) for Aino, Bertil and Cecilia, then Aino's throw in round 6.
THROWS = [[1, 1], [3, 4], [2, 5],
          [2, 5], [1, 2], [6, 6],
          [3, 1], [2, 2], [5, 3],
          [6, 4], [4, 1], [3, 2],
          [2, 2], [5, 3], [1, 5]]


def make(out: Path = DEFAULT_OUT) -> Path:
    """Play the game, take the screenshot, return its path."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, LiveServer(Path(tmp) / "data") as server:
        table = server.table
        table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        for dice in THROWS:
            table.hand_roll(dice)
        table.handle_reading(reading(4, 3))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(server.url + "/")
            page.wait_for_selector("#board .roll svg.die")
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
            browser.close()
    return out


if __name__ == "__main__":
    print(make(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT))
