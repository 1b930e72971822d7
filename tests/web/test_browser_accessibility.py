"""The pages as a family meets them: a grandparent with weak eyes who zooms the page, a
child, someone on the keyboard or with a screen reader, measured in the system Chromium
(found by an accessibility audit)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from web.fakes import FakeCamera, reading
from web.live import LiveServer

pytestmark = pytest.mark.browser

# 200 % browser zoom halves the page's width in CSS px: a tablet lying down (1024x768)
# and a phone (390x844) zoomed so.
ZOOMED = [(512, 384), (195, 422)]

# What sticks out past the screen's right edge, which the page would scroll sideways for.
PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > innerWidth + 1)
  .map((el) => el.outerHTML.slice(0, 60))"""


def _tablet(browser: Any, server: LiveServer, ready: str) -> Any:
    """The control page on a tablet lying down, once its first state has come and
    ``ready`` is shown."""
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.goto(server.url + "/control")
    page.wait_for_selector(f"#controlpage:not([inert]) {ready}")
    return page


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


# Colours as WCAG weighs them: a colour over what lies behind an element (its boxes'
# backgrounds, blended), and the contrast ratio of two colours.
COLOURS = r"""
  const rgba = (s) => { const v = s.match(/[\d.]+/g).map(Number); return v.length < 4 ? [...v, 1] : v; };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const contrast = (a, b) => {
    const [dark, light] = [luminance(a), luminance(b)].sort((x, y) => x - y);
    return (light + 0.05) / (dark + 0.05);
  };
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255]);
  };
"""

# Every piece of text shown whose contrast with what lies behind it (the backgrounds
# under it, blended, and the opacity of it and its boxes) is below WCAG AA: 4.5:1, or
# 3:1 for large text (24 px, or 18.7 px bold). Disabled buttons (and the page before its
# first state, which takes no tap) are exempt, as in WCAG.
LOW_CONTRAST = r"""() => {""" + COLOURS + r"""
  const faded = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
  const low = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walk.nextNode(); text; text = walk.nextNode()) {
    const el = text.parentElement;
    if (!text.data.trim() || !el.getClientRects().length || el.closest("svg, button:disabled, [inert]")) continue;
    const style = getComputedStyle(el);
    const back = behind(el);
    const ink = rgba(style.color);
    const fore = over([ink[0], ink[1], ink[2], ink[3] * faded(el)], back);
    const ratio = contrast(fore, back);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) low.push(`${text.data.trim().slice(0, 30)} (${el.className}): ${ratio.toFixed(2)}`);
  }
  return low;
}"""


def test_every_text_on_the_scoreboard_reads_at_wcag_aa_contrast(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(server.url + "/")
        # Sum Chicago: both miss round 1 (dashes), then Aino misses round 2 on the lit
        # row of the round being played, beside Bertil's chance of hitting.
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        for player, dice in (("Aino", [1, 2]), ("Bertil", [1, 2]), ("Aino", [1, 1])):
            server.table.act({"type": "roll", "player": player, "dice": dice})
        page.wait_for_selector("#board .sheet tr.now td.zero")
        assert page.evaluate(LOW_CONTRAST) == []
        page.set_viewport_size({"width": 390, "height": 844})     # a phone: smaller type
        assert page.evaluate(LOW_CONTRAST) == []
        page.set_viewport_size({"width": 1280, "height": 720})
        # Pub Chicago, Tschigg: "no Sand" on the one whose throw was not Sand.
        server.table.new_game("pub_chicago", ["Aino", "Bertil"], {"variant": "tschigg"})
        for action in ({"type": "leader", "player": "Aino"},
                       {"type": "roll", "player": "Aino", "dice": [6, 3, 5]},
                       {"type": "done", "player": "Aino"},
                       {"type": "announce", "player": "Aino", "sand": True},
                       {"type": "roll", "player": "Bertil", "dice": [2, 3, 5]},
                       {"type": "done", "player": "Bertil"}):
            server.table.act(action)
        page.wait_for_selector("#board .tag.muted")
        low = page.evaluate(LOW_CONTRAST)
        assert low == [], low
        page.close()


def test_every_text_on_the_control_page_reads_at_wcag_aa_contrast(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        page = _tablet(browser, server, "#start")
        assert page.evaluate(LOW_CONTRAST) == []
        # Card Chicago: a hand typed wrongly says so on its lit row.
        server.table.new_game("card_chicago", ["Aino", "Bertil"])
        page.fill("#other [data-hand='Aino']", "as ks")
        page.wait_for_selector("#other .handrow.active [data-err='Aino']:not(:empty)")
        low = page.evaluate(LOW_CONTRAST)
        assert low == [], low
        page.close()


FOCUSED = "document.activeElement.outerHTML.slice(0, 70)"


def test_the_keyboards_place_survives_news_from_another_screen(browser: Any, tmp_path: Path) -> None:
    """Each state redraws the dice and players: the focus stayed on nothing, and Tab
    started over from the nav at the top of the page."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = _tablet(browser, server, "#hand [data-hand='1']")
        page.focus("#hand [data-hand='1']")
        server.table.act({"type": "join", "player": "Dora"})        # on another tablet
        page.wait_for_selector("[data-leave='Dora']")
        assert page.evaluate("document.activeElement.dataset.hand") == "1", page.evaluate(FOCUSED)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "handgo"
        page.close()


def test_a_draw_for_the_starter_begun_by_keyboard_takes_the_focus_to_it(
        browser: Any, tmp_path: Path) -> None:
    """The start form hides while the draw runs: the focus on its button fell to the page's
    top, and Tab went through the nav to find the draw."""
    with LiveServer(tmp_path / "data") as server:
        page = _tablet(browser, server, "#start")
        page.select_option("#starter", "draw")
        page.focus("#start")
        page.keyboard.press("Enter")
        page.wait_for_selector("#drawsection", state="visible")
        assert page.evaluate("document.activeElement.closest('#drawsection') && "
                             "document.activeElement.innerText") == "Who starts: each throws one die"
        page.keyboard.press("Tab")                       # on to Aino's die, entered by hand
        assert page.evaluate("document.activeElement.dataset.drawvalue") == "1"
        page.close()


def test_the_trays_panel_takes_the_focus_and_escape_gives_it_back(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data", camera=FakeCamera()) as server:
        page = _tablet(browser, server, "#marktray")
        page.focus("#marktray")
        page.keyboard.press("Enter")
        page.wait_for_selector("#trayview", state="visible")
        assert page.evaluate("document.querySelector('#trayview').contains(document.activeElement)")
        assert page.get_attribute("#marktray", "aria-expanded") == "true"
        # Each picture in it is named (the outline drawn over the camera's was a bare "image").
        assert not re.search(r"^\s*- img\s*$", page.locator("#trayview").aria_snapshot(), re.M)
        page.keyboard.press("Tab")                       # on through the picture
        assert page.evaluate("document.activeElement.id") == "trayframe"
        page.keyboard.press("Tab")                       # and the panel's buttons
        assert page.evaluate("document.activeElement.id") == "traysave"
        page.keyboard.press("Escape")
        page.wait_for_selector("#trayview", state="hidden")
        assert page.evaluate("document.activeElement.id") == "marktray"
        assert page.get_attribute("#marktray", "aria-expanded") == "false"
        page.close()


# Each control Tab reaches, with its focus ring as drawn: too thin (under 2 px) or too
# faint against what lies behind it (under 3:1, WCAG's contrast for what is not text).
FAINT_FOCUS = r"""() => {""" + COLOURS + r"""
  const el = document.activeElement;
  if (el === document.body) return null;     // past the last control, before the first
  const style = getComputedStyle(el);
  const ring = rgba(style.outlineColor);
  const ratio = contrast(over(ring, behind(el.parentElement)), behind(el.parentElement));
  const wide = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  return wide && ratio >= 3 ? null : `${el.outerHTML.slice(0, 50)}: ${style.outlineStyle} ` +
    `${style.outlineWidth}, ${ratio.toFixed(2)}:1`;
}"""


def test_the_focus_is_seen_on_every_control_of_the_control_page(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = _tablet(browser, server, "#hand [data-hand='1']")
        faint = []
        for _ in range(page.locator("a, button:visible, input, select, textarea, summary").count()):
            page.keyboard.press("Tab")
            faint.append(page.evaluate(FAINT_FOCUS))
        assert [f for f in faint if f] == []
        page.close()


def _button_names(page: Any, selector: str) -> list[str]:
    """The names a screen reader says for the buttons under ``selector``, in page order."""
    tree = page.locator(selector).aria_snapshot()
    return [m.group(1) or "" for m in re.finditer(r'^\s*- button(?: "((?:[^"\\]|\\.)*)")?', tree, re.M)]


def _unclear(names: list[str]) -> list[str]:
    """Names that do not say what their button does: empty, a bare number or card sign
    ("3", "K♥"), or said by two buttons ("clear", "clear": whose?)."""
    return [n for n in names if not re.search(r"[a-z]{3}", n) or names.count(n) > 1]


def test_card_chicagos_buttons_say_whose_and_what_to_a_screen_reader(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("card_chicago", ["Aino", "Bertil"])
        page = _tablet(browser, server, "#other [data-ex='Aino']")
        # The exchange's counts, the hands' buttons and the 52 cards.
        names = _button_names(page, "#other")
        assert _unclear(names) == []
        assert "Aino exchanges 3 cards" in names and "queen of hearts" in names
        assert "clear Bertil's hand" in names
        # A card picked with the keyboard: said picked, and the keyboard's place kept on it
        # (the hands' form drew itself afresh, and the focus fell to the page's top).
        page.focus("#other [data-card='QH']")
        page.keyboard.press("Enter")
        page.wait_for_selector("#other [data-card='QH'][aria-pressed='true']")
        assert page.evaluate("document.activeElement.dataset.card") == "QH", page.evaluate(FOCUSED)
        # Two exchanges and shows of no hands later, the first trick: who took it.
        for _ in range(2):
            game = server.table.state()["game"]
            server.table.act({"type": "show", "round": game["next"]["round"], "hands": {}})
            for player in game["deal"]["order"]:
                server.table.act({"type": "exchange", "player": player, "count": 0})
        page.wait_for_selector("#other [data-trick='Aino']")
        names = _button_names(page, "#other")
        assert _unclear(names) == []
        assert "Aino took trick 1" in names
        page.close()


def test_a_die_the_reader_is_unsure_of_is_said_so_to_a_screen_reader(
        browser: Any, tmp_path: Path) -> None:
    """Its orange outline was all that told it from the others."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.handle_reading(reading(1, 4, flagged=[1]))
        page = _tablet(browser, server, "#reading [data-die='1']")
        assert _button_names(page, "#reading") == ["die showing 1", "die showing 4, to be checked"]
        page.close()


# What a screen reader says as it comes: the text of every live region, hidden or not
# drawn (a region under aria-hidden is not said).
SAID_REGIONS = """() => [...document.querySelectorAll('[role=status], [role=alert], [aria-live]')]
  .filter((el) => !el.closest('[aria-hidden=true]') && el.getAttribute('aria-live') !== 'off')
  .map((el) => el.textContent.trim()).filter(Boolean)"""


def test_a_new_throw_and_a_die_to_check_are_said_once_without_a_tap(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = _tablet(browser, server, "#hand [data-hand='1']")
        assert page.evaluate(SAID_REGIONS) == ["live"]          # the page opens on no news
        page.evaluate("""() => { window.said = [];
            new MutationObserver(() => window.said.push(document.querySelector('#news').textContent))
              .observe(document.querySelector('#news'), { childList: true, characterData: true, subtree: true }); }""")
        server.table.handle_reading(reading(1, 4, flagged=[1]))   # the camera reads a throw
        page.wait_for_function("window.said.length > 0")
        assert page.evaluate(SAID_REGIONS) == ["Aino's throw read: 1 and 4. Die 2 to be checked.", "live"]
        assert page.locator("#news").get_attribute("role") == "status"   # polite: waits its turn
        # News from another screen that is not a throw redraws the page, unsaid; the
        # redrawn parts are no live regions, so the page is not read out whole either.
        server.table.act({"type": "join", "player": "Dora"})
        page.wait_for_selector("[data-leave='Dora']")
        assert page.evaluate("window.said") == ["Aino's throw read: 1 and 4. Die 2 to be checked."]
        assert page.evaluate("""() => [...document.querySelectorAll('[role=status], [role=alert], [aria-live]')]
            .filter((el) => el.querySelector('#reading, #status, #players, #other, #hand'))""") == []
        page.close()


def test_a_refusal_is_said_once_and_a_lost_connection_is_said(browser: Any, tmp_path: Path) -> None:
    """The refusal's words were in two alerts, its box's and the toast's, and said twice."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = _tablet(browser, server, "#players [data-leave]")
        page.fill("#joinname", "Aino")
        page.click("#join")                              # refused: Aino plays already
        page.wait_for_selector("#toast.show")
        refusal = page.inner_text("#playererror")
        assert refusal and page.evaluate(SAID_REGIONS).count(refusal) == 1
    # The table is gone (a power cut, the Wi-Fi dropped): said, not only drawn in orange.
    page.wait_for_function("document.querySelector('#conn').textContent === 'reconnecting…'")
    assert "reconnecting…" in page.evaluate(SAID_REGIONS)
    page.close()


def test_a_tablet_set_to_reduce_motion_jumps_to_the_hand_entry_without_a_glide(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("ten_thousand", ["Aino", "Bertil"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, reduced_motion="reduce")
        page.goto(server.url + "/control")
        page.wait_for_selector("#controlpage:not([inert]) #other [data-throw]")
        # "Throw 6 dice" without a camera points to the hand entry below: at once, the
        # page already there as the tap's handler ends (a glide would only have begun).
        moved = page.evaluate("""() => {
            const before = scrollY;
            document.querySelector('#other [data-throw]').click();
            return [before, scrollY]; }""")
        assert moved[1] > moved[0], moved
        page.close()


# The headings a screen reader lists, by level: none skipped on the way down.
HEADINGS = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter((h) => h.getClientRects().length).map((h) => Number(h.tagName[1]))"""


def test_each_page_says_which_it_is_and_its_headings_go_in_order(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("pub_chicago", ["Aino", "Bertil"], {"variant": "tschigg"})
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        for path, ready, name in (("/", "#board h1", "scoreboard"),
                                  ("/control", "#controlpage:not([inert]) #other", "control"),
                                  ("/history", "table.list", "history")):
            page.goto(server.url + path)
            page.wait_for_selector(ready)
            assert page.evaluate("document.documentElement.lang") == "en"
            assert name in page.title()
            levels = page.evaluate(HEADINGS)
            assert levels[0] == 1, (path, levels)
            assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), (path, levels)
        page.close()


def test_the_historys_buttons_and_links_say_which_game(browser: Any, tmp_path: Path) -> None:
    """A screen reader's list of a page's buttons and links showed "Continue, Continue"
    and "export, export, export": which game each was for was in the table alone."""
    with LiveServer(tmp_path / "data") as server:
        for family in ("sum_chicago", "ten_thousand", "pub_chicago"):
            server.table.new_game(family, ["Aino", "Bertil"])     # two left unfinished
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/history")
        page.wait_for_selector("[data-continue]")
        tree = page.locator("main").aria_snapshot()
        named = re.findall(r'^\s*- (?:button|link) "([^"]*)"', tree, re.M)
        assert "Continue game 1, Sum Chicago" in named and "export game 3, Pub Chicago" in named
        # (a game left unfinished is listed twice, there and among the past games)
        assert [n for n in named if n != "Find" and not re.search(r"game \d+, ", n)] == []
        page.close()


def test_the_trays_corners_are_marked_from_the_keyboard(browser: Any, tmp_path: Path) -> None:
    """A tap on the camera's picture was the only way to place a corner: someone on a
    keyboard or a switch could not mark the tray at all."""
    from calibration import load_calibration
    from vision.frames import SimCamera
    from web.calibrating import Calibrator

    calibrator = Calibrator(tmp_path / "calibration.json")
    camera = SimCamera(seed=4, size=(320, 240))
    with LiveServer(tmp_path / "data", camera=camera, calibrator=calibrator) as server:
        page = _tablet(browser, server, "#marktray")
        page.focus("#marktray")
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('#trayimg').naturalWidth === 320")
        page.keyboard.press("Tab")                       # onto the picture
        assert page.evaluate("document.activeElement.id") == "trayframe"
        assert page.evaluate(FAINT_FOCUS) is None
        assert 'application "the camera\'s picture, to mark the tray\'s corners on"' in \
            page.locator("#trayview").aria_snapshot()
        assert page.locator("#trayshape .cross").count() == 2      # the cross is seen
        assert page.inner_text("#traykeys").startswith("Arrow keys move the cross")
        # From the middle, Shift+arrows in steps of 10 %, an arrow alone in steps of 1 %.
        moves = [("Shift+ArrowLeft", 4), ("Shift+ArrowUp", 4), ("Enter", 1),
                 ("Shift+ArrowRight", 8), ("Enter", 1), ("Shift+ArrowDown", 8), ("Space", 1),
                 ("Shift+ArrowLeft", 8), ("ArrowLeft", 5), ("Enter", 1)]
        for key, times in moves:
            for _ in range(times):
                page.keyboard.press(key)
        assert page.inner_text("#traycross") == "Corner 4 placed at 5 % across, 90 % down."
        assert page.locator("#trayshape circle").count() == 4
        # A slip taken back with Backspace and placed again; each said as it is done.
        page.keyboard.press("Backspace")
        assert page.inner_text("#traycross") == "Corner 4 taken back."
        page.keyboard.press("Shift+ArrowRight")
        assert page.inner_text("#traycross") == "Cross at 15 % across, 90 % down."
        for _ in range(5):
            page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")
        assert page.inner_text("#traystate") == "4 corners tapped, not saved yet."
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "traysave"
        assert page.locator("#trayshape .cross").count() == 0   # only while on the picture
        assert not page.is_visible("#traykeys")
        page.keyboard.press("Enter")
        page.wait_for_selector("#traystate:text-is('This outline is saved.')")
        saved = load_calibration(calibrator.path).tray
        assert saved == ((32.0, 24.0), (288.0, 24.0), (288.0, 216.0), (32.0, 216.0))
        page.close()


def test_a_tap_on_the_trays_picture_shows_no_keyboard_cross(browser: Any, tmp_path: Path) -> None:
    from vision.frames import SimCamera
    from web.calibrating import Calibrator

    calibrator = Calibrator(tmp_path / "calibration.json")
    with LiveServer(tmp_path / "data", camera=SimCamera(seed=4, size=(320, 240)),
                    calibrator=calibrator) as server:
        page = _tablet(browser, server, "#marktray")
        page.click("#marktray")
        page.wait_for_function("document.querySelector('#trayimg').naturalWidth === 320")
        page.click("#trayimg", position={"x": 40, "y": 30})
        assert page.locator("#trayshape circle").count() == 1
        assert page.locator("#trayshape .cross").count() == 0
        assert not page.is_visible("#traykeys")
        page.close()
