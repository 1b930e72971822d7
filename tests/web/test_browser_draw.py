"""Finding Sum Chicago's starter by one die each, played on the control page in Chromium."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.live import LiveServer

pytestmark = pytest.mark.browser


def tap_die(control: Any, value: int, then: str) -> None:
    """Tap ``value`` for whoever throws now, and wait until the page says ``then``."""
    control.click(f"#drawhand [data-drawvalue='{value}']")
    control.wait_for_function(
        f"document.querySelector('#drawhead').innerText.includes({then!r})", timeout=10_000)


def test_a_draw_with_a_tie_entered_by_hand_starts_the_game_with_the_rotated_list(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        control = context.new_page()
        control.goto(server.url + "/control")
        control.wait_for_selector("#family option[value='pub_chicago']", state="attached")
        control.select_option("#family", "pub_chicago")
        assert not control.is_visible("#starter")          # Pub Chicago draws its leader by lot
        control.select_option("#family", "sum_chicago")
        control.fill("#newplayers", "Aino, Bertil, Cecilia")
        control.select_option("#starter", "draw")
        assert control.inner_text("#start") == "Find who starts"
        control.click("#start")
        control.wait_for_selector("#drawhand [data-drawvalue='5']")
        assert "Aino: throw one die" in control.inner_text("#drawhead")

        board = context.new_page()                           # the TV shows the draw too
        board.goto(server.url + "/")
        board.wait_for_selector("#board table.draw")
        assert "Aino: throw one die" in board.inner_text("#board")
        assert not control.is_visible("#newgamesection")
        assert not control.is_visible("#undo")               # "Take back" is the draw's undo
        tap_die(control, 5, "Bertil: throw one die")
        tap_die(control, 5, "Cecilia: throw one die")
        tap_die(control, 6, "Cecilia starts")               # a mis-tap: Cecilia threw a 2
        control.click("#drawtakeback:has-text(\"Take back Cecilia's 6\")")
        control.wait_for_function(
            "document.querySelector('#drawhead').innerText.includes('Cecilia: throw one die')",
            timeout=10_000)
        tap_die(control, 2, "Aino: throw one die · throw-off: Aino and Bertil tied")
        board.wait_for_function(
            "document.querySelector('#board').innerText.includes('throw-off: Aino and Bertil tied')",
            timeout=10_000)
        assert board.locator("#board .tag:has-text('tie')").count() == 2
        tap_die(control, 3, "Bertil: throw one die")
        tap_die(control, 6, "Bertil starts")

        board.wait_for_function(
            "document.querySelector('#board').innerText.includes('Bertil starts!')", timeout=10_000)
        assert "Bertil, Cecilia, Aino" in board.inner_text("#board")
        assert server.table.state()["game"] is None          # not yet: a draw is no game
        control.click("#drawstart")
        board.wait_for_function(
            "[...document.querySelectorAll('#board .sheet thead th')].map((th) => th.innerText)"
            ".join(',') === ',Bertil,Cecilia,Aino'", timeout=10_000)
        assert "Bertil throws" in board.inner_text("#board")
        state = server.table.state()
        assert [p["name"] for p in state["game"]["players"]] == ["Bertil", "Cecilia", "Aino"]
        assert state["draw"] is None
        control.wait_for_selector("#newgamesection", state="visible")
        assert not control.is_visible("#drawsection")
        context.close()
