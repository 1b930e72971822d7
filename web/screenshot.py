"""Remake ``docs/scoreboard.png`` (Sum Chicago) or ``docs/scoreboard-<family>.png``: the
scoreboard mid-game at 1280x720, in the system Chromium.

    .venv/bin/python -m web.screenshot [OUT.png]
    .venv/bin/python -m web.screenshot --family pub_chicago [OUT.png]

Sum Chicago is played to round 6 on a throwaway data folder (fixed throws, the last one
from a "camera" reading). The other families replay the first actions of their example
game in ``docs/<family>.json``, up to a moment that shows most of their panel.
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from web.fakes import reading
from web.live import LiveServer, launch_chromium

DOCS = Path(__file__).resolve().parents[1] / "docs"
DEFAULT_OUT = DOCS / "scoreboard.png"

# Rounds 1-5 (targets 2..6) for Aino, Bertil and Cecilia, then Aino's throw in round 6.
THROWS = [[1, 1], [3, 4], [2, 5],
          [2, 5], [1, 2], [6, 6],
          [3, 1], [2, 2], [5, 3],
          [6, 4], [4, 1], [3, 2],
          [2, 2], [5, 3], [1, 5]]

# How many actions of docs/<family>.json to play before the photograph: 10000 in the
# middle of a turn with dice set aside and a throw to choose from; Pub Chicago in a
# throw round with lids held, a Chicago and a thrower who set a die aside; Card Chicago
# in the tricks of a deal where Chicago was called, with the second show on the board.
MOMENTS = {"ten_thousand": 25, "pub_chicago": 26, "card_chicago": 30}


def _play(server: LiveServer, family: str) -> None:
    table = server.table
    if family == "sum_chicago":
        table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        for dice in THROWS:
            table.hand_roll(dice)
        table.handle_reading(reading(4, 3))
        return
    game = json.loads((DOCS / f"{family}.json").read_text())
    table.new_game(family, game["players"], game["options"])
    for action in game["actions"][:MOMENTS[family]]:
        table.act(action)


def make(out: Path = DEFAULT_OUT, family: str = "sum_chicago") -> Path:
    """Play the game, take the screenshot, return its path."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, LiveServer(Path(tmp) / "data") as server:
        _play(server, family)
        with sync_playwright() as p:
            browser = launch_chromium(p)
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(server.url + "/")
            page.wait_for_selector(f"#board[data-family='{family}'] .panel")
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
            browser.close()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m web.screenshot", description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", type=Path, help="where to write the PNG")
    parser.add_argument("--family", default="sum_chicago", choices=["sum_chicago", *MOMENTS])
    args = parser.parse_args(argv)
    default = DEFAULT_OUT if args.family == "sum_chicago" else DOCS / f"scoreboard-{args.family}.png"
    print(make(args.out or default, args.family))


if __name__ == "__main__":
    main()
