"""The TV scoreboard as the family on the sofa sees it, about three metres away: what
matters is big enough to read and says what is going on (system Chromium)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.fakes import FakeCamera, reading
from web.live import LiveServer

pytestmark = pytest.mark.browser


def test_a_lost_connection_is_said_in_letters_read_from_the_sofa(
        browser: Any, tmp_path: Path) -> None:
    # With the server gone (restarting, the Pi unplugged) the board still shows the
    # last state: a throw made meanwhile does not come. That must be seen from the sofa,
    # not in 14 px letters in a corner of a 1080-line TV.
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page.goto(server.url + "/")
        page.wait_for_selector("#conn:has-text('live')")
    page.wait_for_selector("#conn.off", timeout=10_000)
    box = page.eval_on_selector("#conn", """el => {
        const r = el.getBoundingClientRect();
        return {size: parseFloat(getComputedStyle(el).fontSize), text: el.innerText,
                inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight};
    }""")
    assert box["size"] >= 0.025 * 1080, box
    assert box["inside"], box
    assert "connection" in box["text"].lower(), box
    # and said by a screen reader, as a status that does not cut in on other words.
    assert page.get_attribute("#conn", "role") == "status"
    page.close()


FAMILY = ["Mum", "Dad", "Grandma", "Grandpa", "Ella", "Oskar", "Aunt Liisa", "Uncle Pekka",
          "Zoë", "Józef"]


# The table of players is made small enough for the most players with the longest names;
# with a family's names it has room to spare, and should use it: ten players in Pub
# Chicago filled half the panel, their names in 15 px on a 4:3 TV.
@pytest.mark.parametrize("family, players, options", [
    ("ten_thousand", 8, {"opening": 500}),
    ("pub_chicago", 10, {"variant": "bayrisch"}),
    ("card_chicago", 10, {}),
])
@pytest.mark.parametrize("size", [(1920, 1080), (1024, 768)])
def test_the_most_players_names_and_scores_are_read_from_the_sofa(
        browser: Any, tmp_path: Path, family: str, players: int, options: dict[str, Any],
        size: tuple[int, int]) -> None:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game(family, FAMILY[:players], options)
        page.goto(server.url + "/")
        page.wait_for_selector(f"#board[data-family='{family}'] .panel table")
        small = page.evaluate("""() => {
            const out = [];
            const panel = document.querySelector('#board .panel').getBoundingClientRect();
            for (const el of document.querySelectorAll('#board .panel table:first-of-type tr > td')) {
              if (!el.innerText.trim()) continue;
              let zoom = 1;
              for (let e = el; e; e = e.parentElement) zoom *= parseFloat(getComputedStyle(e).zoom) || 1;
              const px = parseFloat(getComputedStyle(el).fontSize) * zoom;
              const r = el.getBoundingClientRect();
              if (px < 0.025 * innerHeight) out.push(el.innerText.trim().slice(0, 20) + ' ' + px.toFixed(1) + 'px');
              if (r.bottom > panel.bottom + 1 || r.right > panel.right + 1) out.push(el.innerText.trim().slice(0, 20) + ' cut off');
            }
            return out;
        }""")
        assert small == [], f"{family} at {size}: {small}"
    page.close()


def _said_big(page: Any, words: str) -> float:
    """The font size (px) of the board's line that holds ``words``; fails if none does."""
    page.wait_for_function("(w) => document.querySelector('#board').innerText.includes(w)",
                           arg=words, timeout=10_000)
    size: float = page.evaluate("""(w) => {
        const all = [...document.querySelectorAll('#board *')].filter((el) => el.innerText && el.innerText.includes(w));
        return parseFloat(getComputedStyle(all[all.length - 1]).fontSize);
    }""", words)
    return size


def test_a_throw_waiting_for_a_person_is_said_to_wait_on_the_control_page(
        browser: Any, tmp_path: Path) -> None:
    # "Check the tray…" sent the family to look at the dice: the throw waits for a tap on
    # the control page, and the TV says so (and why) until it is checked.
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.handle_reading(reading(3, None))
        page.goto(server.url + "/")
        assert _said_big(page, "control page") >= 0.025 * 1080
        server.table.correct_die(server.table.state()["reading"]["id"], 1, 4)
        page.wait_for_function("!document.querySelector('#board').innerText.includes('control page')",
                               timeout=10_000)
    page.close()


class _BrokenCamera(FakeCamera):
    """A camera that gives no picture at all: the table says it stopped."""

    name = "usb:0"

    def read(self) -> Any:
        raise RuntimeError("usb:0 stopped giving pictures (unplugged?)")


@pytest.mark.parametrize("family", ["sum_chicago", "ten_thousand", "pub_chicago"])
def test_a_camera_that_gives_no_picture_is_said_on_the_tv(
        browser: Any, tmp_path: Path, family: str) -> None:
    # A throw made now is read by no one: the family at the TV must know to enter it on
    # the control page, not wait for the board to change.
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    with LiveServer(tmp_path / "data", camera=_BrokenCamera()) as server:
        server.table.new_game(family, ["Aino", "Bertil"])
        page.goto(server.url + "/")
        assert _said_big(page, "camera") >= 0.025 * 720
        assert "control page" in page.inner_text("#board")
    page.close()


def test_a_camera_stuck_on_one_picture_is_said_on_the_tv_and_the_control_page(
        browser: Any, tmp_path: Path) -> None:
    # A hung webcam that handed out its last frame again and again looked well: neither
    # screen said a thing, no throw was read, and the family did not know why.
    from camera_fakes import FakeCapture

    from vision.usbcamera import UsbCamera

    capture = FakeCapture(0, size=(64, 48), noisy=True, fps=30)
    server = LiveServer(tmp_path / "data",
                        camera=UsbCamera(0, settle_s=0, capture=lambda i: capture))
    server.table.stalled_after = 0.2          # said after 0.2 s of one picture, not 5 s
    tv = browser.new_page(viewport={"width": 1280, "height": 720})
    control = browser.new_page()
    with server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        tv.goto(server.url + "/")
        control.goto(server.url + "/control")
        capture.stuck = True
        assert _said_big(tv, "picture is stuck") >= 0.025 * 720
        assert "enter throws on the control page" in tv.inner_text("#board")
        control.wait_for_selector("#camera:has-text('it seems stuck: check its cable')")
        assert "enter throws by hand meanwhile" in control.inner_text("#camera")
        capture.stuck = False
        tv.wait_for_function("!document.querySelector('#board').innerText.includes('stuck')",
                             timeout=10_000)
        control.wait_for_function("!document.querySelector('#camera').innerText.includes('stuck')",
                                  timeout=10_000)
    tv.close()
    control.close()


@pytest.mark.parametrize("family", ["sum_chicago", "ten_thousand", "pub_chicago"])
def test_a_camera_giving_a_picture_only_every_few_seconds_is_said_on_the_tv(
        browser: Any, tmp_path: Path, family: str) -> None:
    # Each throw showed on the board many seconds after it landed: the score seemed stuck,
    # and only the control page said why.
    from web.fakes import FakeClock, SlowCamera

    clock = FakeClock()
    camera = SlowCamera(clock, 3.0)
    tv = browser.new_page(viewport={"width": 1280, "height": 720})
    with LiveServer(tmp_path / "data", camera=camera, clock=clock) as server:
        server.table.new_game(family, ["Aino", "Bertil"])
        tv.goto(server.url + "/")
        assert _said_big(tv, "The camera is slow: throws show up late") >= 0.025 * 720
        camera.seconds = 0.05                         # its pace comes back
        tv.wait_for_function("!document.querySelector('#board').innerText.includes('slow')",
                             timeout=10_000)
    tv.close()


def test_a_tie_break_thrown_level_again_is_said_with_its_throws(
        browser: Any, tmp_path: Path) -> None:
    # RULES.md §1: the tied throw again, as often as needed. After a tie-break throw that
    # tied again the TV said only "Tie-break" and the last die: not that the throws
    # tied, nor what each threw; nor, mid-throw, what those before had thrown.
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    with LiveServer(tmp_path / "data") as server:
        table = server.table
        table.new_game("sum_chicago", ["Mum", "Dad"], {"rounds": "low"})
        while not table.state()["game"]["tie_break"]:
            table.hand_roll([1, 2])                    # 3 each, in round 2 alone
        table.hand_roll([3, 3])
        table.hand_roll([2, 4])                        # 6 and 6: tied again
        page.goto(server.url + "/")
        page.wait_for_selector("#board[data-family='sum_chicago'] .panel table")
        board = page.inner_text("#board")
        assert "tied again" in board and "Mum 6 · Dad 6" in board, board
        table.hand_roll([6, 5])
        page.wait_for_function("document.querySelector('#board').innerText.includes('Mum 11')",
                               timeout=10_000)
    page.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768)])
def test_pub_chicagos_short_names_are_shown_whole_at_the_end(
        browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    # Five players of eight letters at most: at the game's end (tags "worst", "loser",
    # "out by Chicago" beside them) "Ångström" was cut to "Ångs…" on a 1080-line TV.
    import random

    from scorer import pub_chicago

    names = ["Zoë", "Józef", "Ångström", "Çağrı", "Đorđe"]
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    with LiveServer(tmp_path / "data") as server:
        table = server.table
        table.new_game("pub_chicago", names, {"variant": "bayrisch"})
        rng = random.Random(3)
        while not table.state()["game"]["finished"]:
            table.act(pub_chicago.random_action(table.game, rng))
        page.goto(server.url + "/")
        page.wait_for_selector("#board[data-family='pub_chicago'] .winner")
        cut = page.evaluate("""() => [...document.querySelectorAll('#board .panel .name')]
            .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent)""")
        assert cut == [], f"cut short at {size}: {cut}"
    page.close()


def test_card_chicagos_phase_stays_on_one_line_on_a_4_3_tv(browser: Any, tmp_path: Path) -> None:
    # "Exchange 1" in the left column's 9vh letters broke into "Exchange" and "1" on a
    # 1024x768 screen: the phase is one word and its number, read at a glance.
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("card_chicago", ["Zoë", "Józef", "Ångström", "Çağrı"])
        page.goto(server.url + "/")
        page.wait_for_selector("#board[data-family='card_chicago'] .phase")
        phase = page.eval_on_selector("#board .phase", """el => {
            const range = document.createRange(); range.selectNodeContents(el);
            const column = el.parentElement.getBoundingClientRect();
            return {text: el.innerText, lines: range.getClientRects().length,
                    px: parseFloat(getComputedStyle(el).fontSize),
                    inside: range.getBoundingClientRect().right <= column.right + 1};
        }""")
        assert phase["text"].startswith("Exchange"), phase
        assert phase["lines"] == 1 and phase["inside"], phase
        assert phase["px"] >= 0.05 * 768, phase         # still the column's big word
    page.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1024, 768)])
def test_ten_players_sum_chicago_sheet_is_read_from_the_sofa(
        browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    # Ten columns: the names over them, in a third of the scores' size, broke into
    # "Mu / m" and "Osk / ar" on a 4:3 TV and took 1.6 % of its height; the scores 2.6 %.
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", FAMILY[:10])
        for _ in range(13):
            server.table.hand_roll([1, 2])
        page.goto(server.url + "/")
        page.wait_for_selector("#board[data-family='sum_chicago'] .sheet")
        faults = page.evaluate("""() => {
            const out = [];
            const least = 0.025 * innerHeight;
            const panel = document.querySelector('#board .panel').getBoundingClientRect();
            for (const nm of document.querySelectorAll('.sheet thead .nm')) {
              const range = document.createRange(); range.selectNodeContents(nm);
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.left) + ',' + Math.round(r.top))).size;
              const px = parseFloat(getComputedStyle(nm).fontSize);
              if (lines > 1) out.push(nm.textContent + ' broken');
              if (nm.scrollWidth > nm.clientWidth + 1 || nm.scrollHeight > nm.clientHeight + 1) out.push(nm.textContent + ' cut');
              if (px < least) out.push(nm.textContent + ' ' + px.toFixed(1) + 'px');
            }
            for (const td of document.querySelectorAll('.sheet tbody td:not(.rt), .sheet tfoot td')) {
              const px = parseFloat(getComputedStyle(td).fontSize);
              const r = td.getBoundingClientRect();
              if (px < least) out.push('score ' + td.innerText + ' ' + px.toFixed(1) + 'px');
              if (r.right > panel.right + 1 || r.bottom > panel.bottom + 1) out.push('cell cut off');
            }
            return [...new Set(out)];
        }""")
        assert faults == [], f"at {size}: {faults}"
    page.close()


@pytest.mark.parametrize("players", [10, 40])
def test_the_draw_for_the_starter_keeps_every_player_on_the_tv(
        browser: Any, tmp_path: Path, players: int) -> None:
    # The draw's board was never fitted to the screen: with ten players the last rows
    # fell below the TV's edge, and a throw-off of long names ran the left column off it.
    import json
    import urllib.request

    def post(path: str, body: dict[str, Any]) -> None:
        request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request).read()

    names = [(FAMILY * 4)[i] + (f" {i}" if i >= 10 else "") for i in range(players)]
    names[0] = "Maximiliane-Anneliese von Hohenzollern"
    names[1] = "Wolfeschlegelsteinhausenbergerdorffvoral"
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    with LiveServer(tmp_path / "data") as server:
        post("/api/draw", {"family": "sum_chicago", "players": names, "options": {}})
        for value in [6, 6] + [2] * (players - 2):
            post("/api/draw/throw", {"value": value})
        page.goto(server.url + "/")
        page.wait_for_selector("#board table.draw")
        page.wait_for_function("document.querySelector('#board').innerText.includes('throw-off')")
        outside = page.evaluate("""() => {
            const out = [];
            const panel = document.querySelector('#board .panel').getBoundingClientRect();
            for (const row of document.querySelectorAll('#board table.draw tbody tr')) {
              const r = row.getBoundingClientRect();
              if (r.bottom > panel.bottom + 1) out.push(row.dataset.player + ' below the panel');
            }
            const left = document.querySelector('#board > div').getBoundingClientRect();
            for (const el of document.querySelectorAll('#board > div:first-child > *')) {
              const r = el.getBoundingClientRect();
              if (r.bottom > innerHeight + 1) out.push(el.innerText.slice(0, 30) + ' below the screen');
            }
            return out;
        }""")
        assert outside == [], outside
    page.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1024, 768)])
def test_pub_chicagos_best_worst_and_loser_are_read_from_the_sofa(
        browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    # Who was best and worst decides who takes (or lays down) a lid: the tags saying it
    # were 60 % of the names' size, 14.7 px on a 4:3 TV with two players and room to spare.
    import random

    from scorer import pub_chicago

    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    with LiveServer(tmp_path / "data") as server:
        table = server.table
        table.new_game("pub_chicago", ["Mum", "Dad"], {"variant": "bayrisch"})
        rng = random.Random(3)
        while not table.state()["game"]["finished"]:
            table.act(pub_chicago.random_action(table.game, rng))
        page.goto(server.url + "/")
        page.wait_for_selector("#board[data-family='pub_chicago'] .winner")
        tags = page.evaluate("""() => [...document.querySelectorAll('#board .panel .tag')]
            .map((el) => [el.innerText, parseFloat(getComputedStyle(el).fontSize)])""")
        assert {text for text, _ in tags} >= {"best", "worst", "loser"}, tags
        assert all(px >= 0.025 * size[1] for _, px in tags), tags
    page.close()


@pytest.mark.parametrize("variant", ["basis", "tschigg"])
def test_pub_chicagos_leader_about_to_announce_is_said_once_with_the_choice(
        browser: Any, tmp_path: Path, variant: str) -> None:
    # A leader who stopped throwing was said twice ("Bertil announces…" over "Bertil
    # announces"); the room was not told what is chosen from.
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("pub_chicago", ["Aino", "Bertil"], {"variant": variant})
        server.table.act({"type": "leader", "player": "Bertil"})
        server.table.hand_roll([4, 4, 4])
        server.table.act({"type": "done", "player": "Bertil"})
        page.goto(server.url + "/")
        page.wait_for_selector("#board[data-family='pub_chicago'] .turn")
        board = page.inner_text("#board")
        assert board.count("Bertil announces") == 1, board
        choice = "ones 100 or 1 · sixes 60 or 6 · high or low"
        assert page.inner_text("#board .announce.pending") == \
            choice + (" · or Sand" if variant == "tschigg" else "")
    page.close()


# Long and accented names, as families write them; the last is as long as a name may be.
LONG_NAMES = ["Maria-Magdalena", "Zoë", "Ólafur Björnsson", "Grandma Åsa", "Józef Wiśniewski",
              "Bartholomäus", "Anne-Sophie Léger", "Øystein", "Ella", "Çağrı Şahin",
              "Maximiliane-Anneliese von Hohenzollern", "Oskar"]

# Every text on the board: its size as a share of the screen's height (zoom counted), and
# whether its box lies outside the screen.
_EVERY_TEXT = """() => {
    const out = [];
    const zoomOf = (el) => { let z = 1; for (let e = el; e; e = e.parentElement) z *= parseFloat(getComputedStyle(e).zoom) || 1; return z; };
    for (const el of document.querySelectorAll('#board *')) {
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      const share = parseFloat(getComputedStyle(el).fontSize) * zoomOf(el) / innerHeight;
      const r = el.getBoundingClientRect();
      const what = el.textContent.trim().slice(0, 24);
      if (share < 0.025 - 1e-4) out.push(`${what}: ${(100 * share).toFixed(2)} % of the height`);
      if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) out.push(`${what}: off the screen`);
    }
    return [...new Set(out)];
}"""


def _mid_game(table: Any, family: str, players: int) -> None:
    """A game of ``players`` long names some forty actions in (the same ones every run)."""
    import importlib
    import random

    rules = importlib.import_module(f"scorer.{family}")
    options = {"pub_chicago": {"variant": "bayrisch"}, "ten_thousand": {"opening": 500}}
    table.new_game(family, LONG_NAMES[:players], options.get(family, {}))
    rng = random.Random(3)
    for _ in range(40):
        table.act(rules.random_action(table.game, rng))


# Seven players and more, up to the most each family's start takes that this test's names
# cover (10000 takes 8, Card Chicago 10). The sheet's chances, Pub Chicago's column heads,
# tags and "not opened" were under 2.5 % of the height, and a column too tall for the TV
# was zoomed out whole, its scores' small words with it (2.1-2.3 %).
@pytest.mark.parametrize("family, players", [
    ("sum_chicago", 7), ("sum_chicago", 8), ("sum_chicago", 10), ("sum_chicago", 12),
    ("pub_chicago", 7), ("pub_chicago", 8), ("pub_chicago", 10), ("pub_chicago", 12),
    ("ten_thousand", 7), ("ten_thousand", 8),
    ("card_chicago", 7), ("card_chicago", 8), ("card_chicago", 10),
])
def test_every_text_of_many_players_is_read_from_the_sofa(
        browser: Any, tmp_path: Path, family: str, players: int) -> None:
    with LiveServer(tmp_path / "data") as server:
        _mid_game(server.table, family, players)
        for width, height in [(1920, 1080), (1280, 720)]:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(server.url + "/")
            page.wait_for_selector(f"#board[data-family='{family}'] .panel table")
            faults = page.evaluate(_EVERY_TEXT)
            page.close()
            assert faults == [], f"{players} players at {width}x{height}: {faults}"


# Each letter of a name cut short on a line not shown: its box (Chromium's is the font's
# height, to the top of an accent) lies wholly below the name's shown lines, with a pixel
# to spare: the letters are drawn on whole pixels, and half a pixel of an acute showed.
_LETTERS_CUT = """() => {
    const out = [];
    for (const name of document.querySelectorAll('#board .panel .nm, #board .panel .name')) {
      const shown = name.getBoundingClientRect();
      const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        for (let i = 0; i < text.length; i++) {
          const letter = document.createRange(); letter.setStart(text, i); letter.setEnd(text, i + 1);
          for (const r of letter.getClientRects()) {
            const hidden = (r.top + r.bottom) / 2 > shown.bottom;
            if (r.width && hidden && r.top < shown.bottom + 1)
              out.push(`'${text.data[i]}' of ${name.textContent}: ${(shown.bottom - r.top).toFixed(1)} px of it shown`);
          }
        }
      }
    }
    return out;
}"""


# A name of four lines over its Sum Chicago column shows three and "…": the acute of the
# fourth line's "É" stood under the third, a stray mark under "Ölbergen…". In 10000 and
# Card Chicago a name shows two lines, and the third's "É" stood under "Wolfeschlegel…".
@pytest.mark.parametrize("family, name", [
    ("sum_chicago", "Maximiliane Åsa Ölbergen Élodie Ångström"),
    ("ten_thousand", "Åsa Ölbergen-Wolfeschlegelsteinhau Ébera"),
    ("card_chicago", "Åsa Ölbergen-Wolfeschlegelsteinhau Ébera"),
], ids=["sum_chicago", "ten_thousand", "card_chicago"])
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_a_name_cut_short_shows_no_part_of_its_hidden_line(
        browser: Any, tmp_path: Path, size: tuple[int, int], family: str, name: str) -> None:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game(family, [name, "Zoë", "Oskar"])
        page.goto(server.url + "/")
        page.wait_for_selector(f"#board[data-family='{family}'] .panel table")
        clamped = page.eval_on_selector("#board .panel :is(.nm, .name)",
                                        "el => el.scrollHeight > el.clientHeight + 1")
        assert clamped, "the long name should be cut short for this test to mean anything"
        assert page.evaluate(_LETTERS_CUT) == [], f"at {size}"
    page.close()


@pytest.mark.parametrize("players", [7, 8])
def test_pub_chicagos_long_names_of_many_players_are_shown_whole(
        browser: Any, tmp_path: Path, players: int) -> None:
    # With seven or eight players the names had one line in a third of the panel, and
    # "Anne-Sophie L…", "Maria-Magd…", "Józef Wiśnie…" were cut beside empty room: a
    # name of two words now takes a second line, at the space or the hyphen.
    with LiveServer(tmp_path / "data") as server:
        _mid_game(server.table, "pub_chicago", players)
        for width, height in [(1920, 1080), (1280, 720)]:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(server.url + "/")
            page.wait_for_selector("#board[data-family='pub_chicago'] .panel table")
            names = page.evaluate("""() => [...document.querySelectorAll('#board .scores.pub .name')]
                .map((el) => ({name: el.textContent,
                              cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1}))""")
            page.close()
            assert len(names) == players
            assert [n["name"] for n in names if n["cut"]] == [], f"at {width}x{height}: {names}"


@pytest.mark.parametrize("family", ["sum_chicago", "pub_chicago", "ten_thousand"])
def test_whose_turn_it_is_is_said_bigger_than_the_games_name(
        browser: Any, tmp_path: Path, family: str) -> None:
    # The game's name at the top ("Pub Chicago") was bigger than the line saying whose
    # turn it is, which is what the room looks up for.
    with LiveServer(tmp_path / "data") as server:
        _mid_game(server.table, family, 7)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(server.url + "/")
        page.wait_for_selector(f"#board[data-family='{family}'] .turn b")
        sizes = page.evaluate("""() => Object.fromEntries(['#board h1', '#board .turn b']
            .map((s) => [s, parseFloat(getComputedStyle(document.querySelector(s)).fontSize)]))""")
        page.close()
        assert sizes["#board .turn b"] > sizes["#board h1"], sizes
