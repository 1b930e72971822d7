"""What the scoreboard says about how a game of the rule book ended, in the system
Chromium."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.live import LiveServer

pytestmark = pytest.mark.browser


def test_a_tie_at_the_top_with_the_others_gone_says_why_no_tie_break_was_thrown(
        browser: Any, tmp_path: Path) -> None:
    # RULES.md §1 (decision): a player who left throws no tie-break. Aino and Bertil tie
    # on 2 and Aino has left, so Bertil wins without one: the TV said "tie-break" and
    # then nothing.
    with LiveServer(tmp_path / "data", port=9252) as server:
        table = server.table
        table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"], {"rounds": "even"})
        for dice in ([1, 1], [1, 1], [1, 2]):
            table.hand_roll(dice)
        table.leave("Aino")
        while not table.state()["game"]["finished"]:
            table.hand_roll([3, 4])                   # 7: no even target
        board = browser.new_page(viewport={"width": 1920, "height": 1080})
        board.goto(server.url + "/")
        board.wait_for_selector("#board .winner")
        assert board.inner_text("#board .winner") == "Bertil wins!"
        assert board.inner_text("#endnote") == \
            "tied on 2: Aino, Bertil; Bertil alone of them still plays: no tie-break"
        board.close()
