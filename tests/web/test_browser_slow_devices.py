"""The pages on cheap, slow devices over an evening: an old tablet on a slow Wi-Fi as the
control page, a TV stick's browser as the scoreboard (system Chromium). What a page asks
of the network and keeps in memory stays bounded however long it stays open.
(``python -m web.slow_devices`` measures the pages slowed down; these tests only count.)"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vision.frames import SimCamera
from web.live import LiveServer
from web.screenshot import DOCS

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


def _camera_news(server: LiveServer, **camera: Any) -> int:
    """A state as the camera's news brings it to the screens: the game as it is, the
    camera's status changed. Returns its revision."""
    state = server.table.state()
    state["camera"].update(camera)
    state["revision"] = server.table.store.bump()
    server.table.publisher.publish(json.dumps(state), state["revision"])
    return int(state["revision"])


def _start_a_game_midway(server: LiveServer, family: str) -> None:
    """The family's example game (docs/), its first ten actions played."""
    game = json.loads((DOCS / f"{family}.json").read_text())
    server.table.new_game(family, game["players"], game["options"])
    for action in game["actions"][:10]:
        server.table.act(action)


def _fresh_board(browser: Any, server: LiveServer, family: str) -> str:
    """The board's words on a page opened now."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(server.url + "/")
    page.wait_for_selector(f"#board[data-family='{family}'] .panel table")
    words: str = page.inner_text("#board")
    page.close()
    return words


# Marks what is on the board now, to tell a node kept from one drawn again.
MARK_THE_BOARD = """() => {
    document.querySelector('#board > :first-child > h1').kept = true;
    document.querySelector('#board .panel table').kept = true;
}"""
KEPT = """() => ({left: Boolean(document.querySelector('#board > :first-child > h1').kept),
                 table: Boolean(document.querySelector('#board .panel table').kept)})"""


@pytest.mark.parametrize("family", ["sum_chicago", "ten_thousand", "pub_chicago", "card_chicago"])
def test_the_scoreboard_draws_again_only_what_a_state_changed(
        browser: Any, tmp_path: Path, family: str) -> None:
    # On a TV stick's browser each state took 0.2-0.6 s, most of it fitting the table of
    # players to the screen, also for the states that change only "Rolling…" (half of
    # an evening's) or nothing shown at all (the camera's time to read a throw).
    with LiveServer(tmp_path / "data") as server:
        _start_a_game_midway(server, family)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(server.url + "/")
        page.wait_for_selector(f"#board[data-family='{family}'] .panel table")
        page.evaluate(MARK_THE_BOARD)
        shown = page.inner_text("#board")
        revision = _camera_news(server, name="fake", running=True, read_ms=12.5)
        page.wait_for_selector(f"#board[data-revision='{revision}']")
        assert page.evaluate(KEPT) == {"left": True, "table": True}
        assert page.inner_text("#board") == shown
        revision = _camera_news(server, name="fake", running=True, moving=True)
        page.wait_for_selector(f"#board[data-revision='{revision}']")
        # The dice rolling are said beside the table (Card Chicago has no dice to show).
        rolling = "Rolling…" in page.inner_text("#board > :first-child")
        assert rolling == (family != "card_chicago")
        assert page.evaluate(KEPT) == {"left": not rolling, "table": True}
        assert page.inner_text("#board") == _fresh_board(browser, server, family)
        # The game's next action is drawn as a page opened afresh draws it.
        actions = json.loads((DOCS / f"{family}.json").read_text())["actions"]
        server.table.act(actions[10])
        page.wait_for_function("(r) => Number(document.querySelector('#board').dataset.revision) > r",
                               arg=revision)
        assert page.inner_text("#board") == _fresh_board(browser, server, family)
        page.close()


def test_the_control_page_shows_the_game_before_its_start_forms_lists_come(
        browser: Any, tmp_path: Path) -> None:
    # The page asked for the start form's games, then for the last game's players, and
    # only then opened the live stream: on a slow Wi-Fi three round trips one after the
    # other before the tablet showed whose throw it is, for a form at the page's foot.
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = browser.new_page()
        held: list[Any] = []
        page.route("**/api/families", lambda route: held.append(route))
        page.goto(server.url + "/control")
        page.wait_for_selector("#status:has-text(\"Aino's throw\")", timeout=10_000)
        assert page.eval_on_selector("#family", "el => el.options.length") == 0
        held[0].continue_()
        # The form is filled once its lists come, the game's family chosen.
        page.wait_for_function("document.querySelector('#family').options.length === 4")
        assert page.input_value("#family") == "sum_chicago"
        page.close()
