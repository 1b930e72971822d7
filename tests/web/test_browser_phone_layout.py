"""The control and history pages on a phone (and an upright tablet), measured in the
system Chromium as a person would see them: words whole, buttons with their player,
nothing off the side of the screen (found by a layout audit)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web.fakes import FakeCamera
from web.live import LiveServer

pytestmark = pytest.mark.browser

PHONES = [(375, 667), (360, 800)]

# The words (between spaces and hyphens) of the elements matching a selector that are
# drawn on two lines: "hig / h" on a button, "Aa / rne" in a list.
BROKEN_WORDS = r"""(selector) => {
    const out = [];
    for (const el of document.querySelectorAll(selector)) {
        const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let text = walk.nextNode(); text; text = walk.nextNode()) {
            for (const word of text.data.matchAll(/[^\s-]+/g)) {
                const range = document.createRange();
                range.setStart(text, word.index);
                range.setEnd(text, word.index + word[0].length);
                if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1)
                    out.push(word[0]);
            }
        }
    }
    return out;
}"""


def _page(browser: Any, server: LiveServer, path: str, size: tuple[int, int], ready: str) -> Any:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(server.url + path)
    page.wait_for_selector(ready)
    return page


@pytest.mark.parametrize("size", PHONES)
def test_pub_chicagos_announcement_buttons_keep_their_words_whole_on_a_phone(
        browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("pub_chicago", ["Aino", "Bertil"], {"variant": "tschigg"})
        for action in ({"type": "leader", "player": "Aino"},
                       {"type": "roll", "player": "Aino", "dice": [6, 3, 5]},
                       {"type": "done", "player": "Aino"}):
            server.table.act(action)
        page = _page(browser, server, "/control", size, "#other [data-announce='0']")
        assert page.evaluate(BROKEN_WORDS, "#other .announcegrid button") == []
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        page.close()


@pytest.mark.parametrize("size", [(768, 1024), *PHONES])
def test_the_draw_for_the_starter_on_an_upright_control_page_keeps_its_size_and_width(
        browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    # The scoreboard's rule for an upright screen made the control page's names 38 px
    # tall and pushed the dice column off the right.
    names = ["Maximiliane von Hohenzollern", "Aino", "Bertil", "Cecilia", "Dag", "Eva",
             "Grandma Ingrid", "Oskar"]
    with LiveServer(tmp_path / "data") as server:
        server.table.start_draw("sum_chicago", names)
        for value in (3, 5, 2):
            server.table.draw_throw(value)
        page = _page(browser, server, "/control", size, "#drawsection .scores.draw td")
        sizes = page.evaluate("""() => {
            const table = document.querySelector('#drawsection .scores.draw');
            return [parseFloat(getComputedStyle(table).fontSize),
                    parseFloat(getComputedStyle(document.body).fontSize),
                    Math.max(...[...table.querySelectorAll('td')].map((td) => td.getBoundingClientRect().right))];
        }""")
        font, body, right = sizes
        assert font <= body * 1.2, sizes
        assert right <= size[0], sizes
        page.close()


def test_card_chicagos_exchange_buttons_stay_with_their_players_name_on_a_phone(
        browser: Any, tmp_path: Path) -> None:
    names = ["Li", "Anna-Karin Johansson-Lindqvist von Berg", "Grandma Ingrid", "Jürgen"]
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("card_chicago", names)
        page = _page(browser, server, "/control", (360, 800), "#other [data-ex]")
        faults = page.evaluate("""() => {
            const out = [];
            const whos = [...new Set([...document.querySelectorAll('#other [data-ex]')]
                .map((b) => b.closest('.row').querySelector('.who')))];      // in seat order
            const names = whos.map((el) => el.textContent);
            const tops = whos.map((el) => el.getBoundingClientRect());
            names.forEach((name, i) => {
                const buttons = [...document.querySelectorAll('#other [data-ex]')]
                    .filter((b) => b.dataset.ex === name).map((b) => b.getBoundingClientRect());
                if (new Set(buttons.map((b) => Math.round(b.top))).size !== 1)
                    out.push(name + "'s buttons on more than one line");
                for (const b of buttons) {
                    if (b.top < tops[i].top - 1) out.push(name + "'s button above the name");
                    if (i + 1 < names.length && b.bottom > tops[i + 1].top + 1)
                        out.push(name + "'s button below the next name");
                    if (b.right > window.innerWidth) out.push(name + "'s button off the screen");
                }
            });
            return [names.length, out];
        }""")
        assert faults == [4, []]
        page.close()


def test_each_leave_button_names_its_player(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Åsa", "Bertil", "Cecilia"])
        page = _page(browser, server, "/control", (360, 800), "#players [data-leave]")
        buttons = page.eval_on_selector_all("#players [data-leave]",
                                            "els => els.map((b) => [b.dataset.leave, b.innerText])")
        assert [name for name, _ in buttons] == ["Åsa", "Bertil", "Cecilia"]
        for name, text in buttons:
            assert name in text, text
        page.close()


def test_the_camera_link_and_the_rules_are_targets_a_finger_hits(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data", camera=FakeCamera()) as server:
        server.table.new_game("ten_thousand", ["Aino", "Bertil"])
        page = _page(browser, server, "/control", (1024, 768), "#cameraview")
        page.wait_for_selector("#rules summary")
        heights = page.evaluate("""() => ['#cameraview', '#rules summary'].map(
            (q) => document.querySelector(q).getBoundingClientRect().height)""")
        assert min(heights) >= 40, heights
        page.close()


@pytest.mark.parametrize("size", PHONES)
def test_the_history_fits_a_phone_with_its_buttons_in_reach(
        browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    with LiveServer(tmp_path / "data") as server:
        for players in (["Maximiliane Aarne", "Bertil Johansson", "Cecilia Lindqvist"],
                        ["Aino", "Bertil"]):
            server.table.new_game("pub_chicago", players)
        page = _page(browser, server, "/history", size, "[data-continue]")
        out = page.evaluate("""() => [...document.querySelectorAll('table.list button, table.list a')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth)
            .map((el) => el.innerText)""")
        assert out == []
        assert page.evaluate(BROKEN_WORDS, "table.list td.players") == []
        page.close()


@pytest.mark.parametrize("size", PHONES)
def test_ten_thousands_latest_throw_is_big_on_a_phone(
        browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("ten_thousand", ["Aino", "Bertil"])
        server.table.hand_roll([1, 1, 2, 3, 4, 6])
        page = _page(browser, server, "/", size, "#board .roll.six svg.die")
        dice = page.eval_on_selector_all("#board .roll.six svg.die",
                                         "els => els.map((d) => d.getBoundingClientRect())")
        assert len(dice) == 6
        assert min(d["width"] for d in dice) >= 40, dice
        assert max(d["right"] for d in dice) <= size[0], dice
        page.close()


IN_VIEW = """(selector) => {
    const r = document.querySelector(selector).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
}"""


def test_a_game_started_on_a_phone_shows_its_first_tap_without_a_scroll(
        browser: Any, tmp_path: Path) -> None:
    # The start form is at the page's foot: the game's first throw button and whose turn
    # it is stayed out of sight above it.
    with LiveServer(tmp_path / "data") as server:
        page = _page(browser, server, "/control", (390, 844), "#controlpage:not([inert])")
        page.wait_for_selector("#family option[value='ten_thousand']", state="attached")
        page.select_option("#family", "ten_thousand")
        page.click("#start")
        page.wait_for_selector("#other [data-throw]")
        # The live stream may draw the game before the start's own answer comes.
        page.wait_for_function(IN_VIEW, arg="#status")
        assert page.evaluate(IN_VIEW, "#other [data-throw]")
        page.close()


@contextlib.contextmanager
def _ten_thousand_on_a_phone(browser: Any, tmp_path: Path, ready: str, *, camera: Any = None,
                             throw: list[int] | None = None) -> Iterator[tuple[LiveServer, Any]]:
    """A game of 10000 (Aino, Bertil), ``throw`` thrown, on a phone's control page."""
    with LiveServer(tmp_path / "data", camera=camera) as server:
        server.table.new_game("ten_thousand", ["Aino", "Bertil"])
        if throw:
            server.table.hand_roll(throw)
        page = _page(browser, server, "/control", (390, 844), ready)
        yield server, page
        page.close()


def test_a_throw_to_check_comes_first_on_a_phone_with_its_confirm_in_view(
        browser: Any, tmp_path: Path) -> None:
    # The throw waiting for a person and its Confirm lay a screen below the player's
    # choice, whose "Roll 6 dice for me" was the button in sight.
    from web.fakes import reading

    with _ten_thousand_on_a_phone(browser, tmp_path, "#other [data-throw]",
                                  camera=FakeCamera()) as (server, page):
        server.table.handle_reading(reading(1, 1, 2, 3, 4, 6, flagged=[2]))
        page.wait_for_selector("#confirm")
        assert page.evaluate(IN_VIEW, "#confirm")
        assert page.evaluate(IN_VIEW, "#reading [data-die='2']")
        page.click("#confirm")
        page.wait_for_selector("#other button.choice")
        # Checked, the throw goes back below the choice it leads to.
        assert page.evaluate(IN_VIEW, "#other button.choice")


def test_a_keep_tapped_low_in_a_long_list_leaves_the_next_tap_in_view_on_a_phone(
        browser: Any, tmp_path: Path) -> None:
    # 1 1 5 5 5 5 can be kept fourteen ways: the last one tapped, the list folded to Bank
    # and Roll a screen above, and the phone was left on the new-game form.
    with _ten_thousand_on_a_phone(browser, tmp_path, "#other button.choice",
                                  throw=[1, 1, 5, 5, 5, 5]) as (_, page):
        page.locator("#other button.choice").last.click()       # keep 5: +50
        page.wait_for_selector("#other [data-type='bank']")
        page.wait_for_function(IN_VIEW, arg="#other [data-type='bank']")
        assert page.evaluate(IN_VIEW, "#other [data-throw]")


def test_a_throw_entered_by_hand_on_a_phone_leaves_what_to_keep_in_view(
        browser: Any, tmp_path: Path) -> None:
    with _ten_thousand_on_a_phone(browser, tmp_path, "#other [data-throw]") as (_, page):
        page.click("#other [data-throw]")            # no camera: down to the hand entry
        page.click("#hand [data-hand='1']")          # 1 2 1 1 1 1
        page.click("#handgo")
        page.wait_for_selector("#other button.choice")
        page.wait_for_function(IN_VIEW, arg="#other button.choice")
