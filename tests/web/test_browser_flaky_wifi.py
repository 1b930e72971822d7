"""The TV and the tablet on home Wi-Fi that drops (system Chromium): each screen says when
it has lost the table, and shows what the table has once it is back, without a reload."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.fakes import reading
from web.live import LiveServer

from flaky_wifi import FlakyWifi

pytestmark = pytest.mark.browser

WAIT_MS = 15_000
QUIET_S = 1    # a page asks after a quiet stream this soon: a dead one is noticed in seconds


def _tablet(browser: Any, url: str) -> tuple[Any, Any]:
    """A tablet's browser (its network can be taken away) with the control page open."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(f"window.DICETRAY_QUIET_S = {QUIET_S}")
    control = context.new_page()
    control.goto(url + "/control")
    return context, control


def test_a_screen_whose_wifi_dropped_says_so_and_catches_up_when_it_is_back(
        browser: Any, tmp_path: Path) -> None:
    """Wi-Fi that goes away leaves the stream half open: nothing ends it, and the TV and
    the tablet said "live" over a frozen game for good, until someone reloaded them."""
    with LiveServer(tmp_path / "data") as server, \
            FlakyWifi(server.port) as wifi:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        context, control = _tablet(browser, wifi.url)
        board = context.new_page()                 # the TV, on the same Wi-Fi
        board.goto(wifi.url + "/")
        for page in (board, control):
            page.wait_for_selector("#conn:has-text('live')")
            page.evaluate("window.__noReload = 'still here'")

        wifi.drop()
        server.table.hand_roll([1, 1])                       # Aino scores her 2 ...
        server.table.handle_reading(reading(6, 4, flagged=[0, 1]))   # ... Bertil's waits
        for page in (board, control):
            page.wait_for_selector("#conn.off")
            assert "reconnecting" in page.inner_text("#conn")

        wifi.restore()
        for page in (board, control):
            page.wait_for_selector("#conn:not(.off):has-text('live')")
        control.wait_for_selector("#confirm", state="visible")       # Bertil's throw
        assert "Aino: 2" in control.inner_text("#players")
        board.wait_for_function("document.querySelector('#board').innerText"
                                ".includes('Throw to check on the control page')")
        assert "Aino threw 1 + 1 = 2" in board.inner_text("#board")
        for page in (board, control):
            assert page.evaluate("window.__noReload") == "still here"
        context.close()


def test_a_tablet_that_goes_offline_says_so_at_once(browser: Any, tmp_path: Path) -> None:
    """The tablet itself knows when its Wi-Fi is gone: said then, not a minute later."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        context, control = _tablet(browser, server.url)
        control.wait_for_selector("#conn:has-text('live')")
        context.set_offline(True)
        control.wait_for_selector("#conn.off")
        context.set_offline(False)
        control.wait_for_selector("#conn:not(.off):has-text('live')")
        context.close()


def test_a_tap_made_offline_is_not_sent_and_said_so_plainly(browser: Any, tmp_path: Path) -> None:
    """Offline, "Confirm as read" said "no connection to the table: TypeError: Failed to
    fetch", which stayed under the throw after the tablet was back and live."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.handle_reading(reading(1, 1, flagged=[0, 1]))
        context, control = _tablet(browser, server.url)
        control.wait_for_selector("#confirm", state="visible")
        context.set_offline(True)
        control.wait_for_selector("#conn.off")
        control.click("#confirm")
        control.wait_for_function("document.querySelector('#trayerror').innerText !== ''")
        said = control.inner_text("#trayerror")
        assert said.startswith("No connection to the table just now: this tap was not sent."), said
        assert server.table.state()["reading"]["status"] == "waiting"

        context.set_offline(False)
        control.wait_for_selector("#conn:not(.off):has-text('live')")
        control.wait_for_function("document.querySelector('#trayerror').innerText === ''")
        control.click("#confirm")
        control.wait_for_function("document.querySelector('#players').innerText.includes('Aino: 2')")
        context.close()


def test_a_tap_whose_answer_is_lost_says_it_may_have_taken(browser: Any, tmp_path: Path) -> None:
    """The connection dropped after Undo reached the table: the page said "no connection
    to the table: TypeError: Failed to fetch", as if nothing had been sent. It says now
    that the tap may have taken, and the live stream shows that it did."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        server.table.hand_roll([1, 1])
        server.table.hand_roll([1, 2])
        context, control = _tablet(browser, server.url)
        control.wait_for_selector("#status:has-text('Cecilia')")

        def done_but_unanswered(route: Any) -> None:
            route.fetch()                   # the table takes Bertil's throw back ...
            route.abort("connectionreset")  # ... and its answer never comes
        control.route("**/api/undo", done_but_unanswered)
        control.click("#undo")
        said = control.wait_for_selector("#error:has-text('did not answer')").inner_text()
        assert "the tap may have reached it or not" in said and "TypeError" not in said
        control.wait_for_selector("#status:has-text('Bertil')")       # it did, once
        assert len(server.table.game.log) == 3
        context.close()


def test_a_tap_caught_in_a_drop_is_given_up_and_the_next_tap_goes_once_back(
        browser: Any, tmp_path: Path) -> None:
    """A tap sent as the Wi-Fi dropped waited for an answer that could not come: the
    page said nothing, and every later tap was refused as "still waiting for the table's
    answer to the last tap" until that answer gave up, which over dropped Wi-Fi can take
    minutes, the page live again meanwhile."""
    with LiveServer(tmp_path / "data") as server, \
            FlakyWifi(server.port) as wifi:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        context, control = _tablet(browser, wifi.url)
        control.wait_for_selector("#handgo")
        wifi.drop()
        control.click("#handgo")                      # Aino's 1 + 1, lost on the way
        control.wait_for_selector("#conn.off")
        said = control.wait_for_selector("#handerror:has-text('did not answer')").inner_text()
        assert "the tap may have reached it or not" in said
        assert server.table.state()["game"]["actions"] == 0

        wifi.restore()
        control.wait_for_selector("#conn:not(.off):has-text('live')")
        control.click("#handgo")
        control.wait_for_function("document.querySelector('#players').innerText.includes('Aino: 2')")
        assert server.table.state()["game"]["actions"] == 1
        context.close()


def test_dice_being_entered_when_another_tablet_starts_a_new_game_are_said_to_be_checked(
        browser: Any, tmp_path: Path) -> None:
    """A tablet entering Aino's throw lost its Wi-Fi; meanwhile another started a new
    game. Back, it showed Cy's throw with Aino's dice, unwarned: the new game counts its
    actions from 0 again, the very number the dice were tapped at, and "Score" took them."""
    with LiveServer(tmp_path / "data") as server, \
            FlakyWifi(server.port) as wifi:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        context, control = _tablet(browser, wifi.url)
        control.click("#hand [data-hand='0']")               # Aino's 2 + ...
        wifi.drop()
        control.wait_for_selector("#conn.off")
        server.table.new_game("sum_chicago", ["Cy", "Dee"])  # on the other tablet
        wifi.restore()
        control.wait_for_selector("#status:has-text('Cy')")
        said = control.inner_text("#handerror")
        assert said == "The game changed meanwhile: check these dice are Cy's before scoring them."
        context.close()


def test_a_change_told_at_the_same_revision_reaches_a_screen_whose_stream_died(
        browser: Any, tmp_path: Path) -> None:
    """What the memory card could not store (a camera throw on a full card) is told at the
    revision the screens hold; a tablet whose stream had died unseen asked the table, found
    that revision, took the stream for alive and never showed it."""
    from web.fakes import FakeCamera
    from web.store import StoreError

    from test_storage_trouble import fill_the_card

    with LiveServer(tmp_path / "data", camera=FakeCamera()) as server, \
            FlakyWifi(server.port) as wifi:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        context, control = _tablet(browser, wifi.url)
        control.wait_for_selector("#conn:has-text('live')")
        wifi.drop()
        wifi.restore()                         # the open stream stays dead, unseen
        fill_the_card(server.store)
        with pytest.raises(StoreError) as refused:
            server.table.hand_roll([1, 1])
        server.table._throw_not_stored(refused.value)   # as the camera's thread does
        control.wait_for_function("document.querySelector('#camera').innerText"
                                  ".includes(\"the appliance's storage is full\")")
        context.close()
