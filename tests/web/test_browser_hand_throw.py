"""On a tablet: a throw entered by hand is put right with a tap on its die, as a camera's
throw is, and the tray says what became of a throw in the family's words."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.fakes import reading
from web.live import LiveServer


pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 768}


def _tray_says(page: Any, words: str) -> str:
    page.wait_for_function("(w) => document.querySelector('#reading').innerText.includes(w)",
                           arg=words, timeout=10_000)
    said: str = page.inner_text("#reading")
    return said


def test_a_die_of_a_throw_entered_by_hand_is_put_right_with_one_tap(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        context = browser.new_context(viewport=TABLET)
        board, control = context.new_page(), context.new_page()
        board.goto(server.url + "/")
        control.goto(server.url + "/control")
        control.wait_for_selector("#hand [data-hand='1']")
        control.click("#hand [data-hand='1']")            # 1 + 2: a slip, it was 1 + 1
        control.click("#handgo")
        said = _tray_says(control, "Entered by hand for Aino")
        assert "tap a die to correct it" in said
        control.click("#reading [data-die='1'] svg")
        assert control.inner_text("#picker").startswith("Die 2 shows")
        assert not control.is_visible("#notadie")         # the throw is scored: values only
        control.click("#picker [data-value='1'] svg")
        control.wait_for_function("document.querySelector('#players').innerText.includes('Aino: 2')",
                                  timeout=10_000)
        assert control.eval_on_selector_all("#reading [data-die] svg",
                                            "els => els.map((e) => e.dataset.value)") == ["1", "1"]
        # The TV agrees: the throw as corrected, and its points.
        board.wait_for_function("document.querySelector('#board').innerText.includes('2 points')",
                                timeout=10_000)
        assert "Aino threw 1 + 1 = 2" in board.inner_text("#board")
        assert control.evaluate("document.querySelector('#trayerror').innerText") == ""
        context.close()


@pytest.mark.parametrize("by_camera", [True, False])
def test_a_missed_first_tupla_throw_is_said_missed_with_a_second_to_come(
        browser: Any, tmp_path: Path, by_camera: bool) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"], {"throws": 2})
        context = browser.new_context(viewport=TABLET)
        board, control = context.new_page(), context.new_page()
        board.goto(server.url + "/")
        control.goto(server.url + "/control")
        control.wait_for_selector("#handgo")
        if by_camera:
            server.table.handle_reading(reading(1, 2))    # 3: round 1 wants 2
        else:
            control.click("#hand [data-hand='1']")
            control.click("#handgo")
        said = _tray_says(control, "missed, second throw to come")
        assert "scored" not in said
        board.wait_for_function("document.querySelector('#board').innerText.includes('throws again')",
                                timeout=10_000)
        # The second throw, a hit, is scored as any throw is.
        server.table.hand_roll([1, 1])
        said = _tray_says(control, "Entered by hand for Aino: scored")
        assert "missed" not in said
        context.close()


def test_a_missed_first_tupla_throw_of_a_player_who_left_is_said_missed_with_none_to_come(
        browser: Any, tmp_path: Path) -> None:
    """Aino misses her first throw and leaves before the second: the round scores 0
    (RULES.md's decision), and neither screen says she throws again."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"], {"throws": 2})
        server.table.handle_reading(reading(1, 2))
        server.table.leave("Aino")
        context = browser.new_context(viewport=TABLET)
        board, control = context.new_page(), context.new_page()
        board.goto(server.url + "/")
        control.goto(server.url + "/control")
        said = _tray_says(control, "Aino: missed")
        assert "second throw" not in said and "scored" not in said
        board.wait_for_selector("#board .rollnote")
        assert board.inner_text("#board .rollnote") == "Aino threw 1 + 2 = 3 → 0"
        context.close()
