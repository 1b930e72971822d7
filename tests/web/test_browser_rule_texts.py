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


def test_the_control_page_counts_one_die_left_as_one_die(browser: Any, tmp_path: Path) -> None:
    # 10000: five 5s set aside leave one die to throw; the status line said "(1 dice)".
    with LiveServer(tmp_path / "data", port=9253) as server:
        table = server.table
        table.new_game("ten_thousand", ["Aino", "Bertil"], {})
        table.hand_roll([5, 5, 5, 5, 5, 2])
        table.act({"type": "set_aside", "player": "Aino", "dice": [5, 5, 5, 5, 5]})
        page = browser.new_page(viewport={"width": 820, "height": 1180})
        page.goto(server.url + "/control")
        page.wait_for_selector("#status b")
        assert page.inner_text("#status") == "Aino's throw (1 die)"
        table.act({"type": "bank", "player": "Aino"})
        page.wait_for_function("() => document.querySelector('#status').innerText.includes('Bertil')")
        assert page.inner_text("#status") == "Bertil's throw (6 dice)"
        page.close()
