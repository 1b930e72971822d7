"""The pages in the system Chromium: a tap on the control page reaches the scoreboard live."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Iterator

import pytest

from web.fakes import FakeCamera, FakeClock, SlowCamera, reading
from web.live import LiveServer

from waiting import wait_for


pytestmark = pytest.mark.browser


def test_a_correction_on_the_control_page_reaches_the_scoreboard_live(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        server.table.handle_reading(reading(1, 2))       # Aino misses the 2

        context = browser.new_context(viewport={"width": 1280, "height": 720})
        board = context.new_page()
        requests: list[str] = []
        board.on("request", lambda r: requests.append(r.url))
        board.goto(server.url + "/")
        board.wait_for_selector("#board .roll svg.die")
        assert board.locator("#board .roll svg.die").nth(1).get_attribute("data-value") == "2"
        board.evaluate("window.__noReload = 'still here'")
        api_calls_after_load = len([u for u in requests if "/api/" in u])

        control = context.new_page()
        control.goto(server.url + "/control")
        control.wait_for_selector("#reading [data-die='1'] svg")
        control.click("#reading [data-die='1'] svg")
        control.click("#picker [data-value='1'] svg")

        board.wait_for_function(
            "document.querySelectorAll('#board .roll svg.die')[1]"
            "?.getAttribute('data-value') === '1'", timeout=10_000)
        assert board.evaluate("window.__noReload") == "still here"
        assert "2 points" in board.inner_text("#board")
        # Only the one live stream: no polling, no reload of the page or its state.
        assert len([u for u in requests if "/api/" in u]) == api_calls_after_load
        assert [u for u in requests if "/api/" in u] == [server.url + "/api/events"]
        context.close()


def test_a_die_read_as_no_value_is_asked_for_and_not_offered_for_confirming(
        browser: Any, tmp_path: Path) -> None:
    """A logo face not taught yet has no value: "Confirm as read" would be refused, so it
    is neither shown nor said; the die marked ? is what to tap."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.handle_reading(reading(1, None))
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        page.wait_for_selector("#reading [data-die='1'] svg")
        assert not page.is_visible("#confirm")
        note = page.inner_text("#note")
        assert "tap each die marked ? to give its value" in note and "confirm it" not in note
        page.click("#reading [data-die='1'] svg")
        page.click("#picker [data-value='1'] svg")
        page.wait_for_function("() => document.querySelector('#note').innerText === ''",
                               timeout=10_000)
        assert server.table.state()["game"]["players"][0]["score"] == 2
        page.close()


def test_a_missed_die_and_a_pen_read_as_a_die_are_each_one_tap(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        server.table.handle_reading(reading(1))          # the camera missed Aino's other 1
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        page.wait_for_selector("#adddie")
        # One die short: "Confirm as read" would be refused, so it is neither shown nor said.
        assert not page.is_visible("#confirm")
        assert "add a die the camera missed" in page.inner_text("#note")
        assert "confirm it" not in page.inner_text("#note")
        page.click("#adddie")
        page.click("#picker [data-value='1'] svg")
        page.wait_for_function("() => !document.querySelector('#adddie')", timeout=10_000)
        assert [p["score"] for p in server.table.state()["game"]["players"]] == [2, 0, 0]

        server.table.handle_reading(reading(1, 4, 1, flagged=[1]))   # Bertil's, and a pen
        page.wait_for_selector("#reading [data-die='2'] svg")
        assert page.locator("#adddie").count() == 0                  # nothing is missing
        assert not page.is_visible("#confirm")                       # but one too many
        page.click("#reading [data-die='1'] svg")
        page.click("#notadie")
        page.wait_for_function(
            "() => document.querySelectorAll('#reading [data-die]').length === 2", timeout=10_000)
        assert [p["score"] for p in server.table.state()["game"]["players"]] == [2, 2, 0]
        page.close()


def test_a_logo_die_is_taught_with_the_tap_that_corrects_it(
        browser: Any, tmp_path: Path) -> None:
    import numpy as np

    from calibration import load_calibration
    from vision.training.synth import synth_face
    from web.calibrating import Calibrator

    from logo_frames import frame_with_logo

    calibrator = Calibrator(tmp_path / "calibration.json")
    with LiveServer(tmp_path / "data", calibrator=calibrator) as server:
        server.table.new_game("pub_chicago", ["Aino", "Bertil"])
        canvas, face = synth_face(np.random.default_rng(1000), 1, picture=True)
        image, (x, y), side = frame_with_logo(0, canvas, face, 0)
        reading = calibrator.read(image)
        logo = next(i for i, d in enumerate(reading.dice) if d.reason == "picture face")
        server.table.handle_reading(reading)
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        # The throw as the camera saw it, dice numbered: which die is the picture.
        page.wait_for_function(
            "document.querySelector('#readingpicture img.readingpic')?.naturalWidth === 640")
        page.click(f"#reading [data-die='{logo}'] svg")
        assert "shows a picture" in page.inner_text("#picker")
        assert page.is_checked("#teach")
        page.click("#picker [data-value='1'] svg")
        # (Confirm is hidden from the start here, as a die has no value: wait for the table.)
        wait_for(lambda: server.table.state()["reading"]["status"] == "scored", 10.0)
        assert [f.value for f in load_calibration(calibrator.path).picture_faces] == [1]
        # A die of pips offers nothing to remember.
        server.table.handle_reading(calibrator.read(image))
        page.wait_for_selector("#reading [data-die='2'] svg")
        # Read by itself and scored, the throw is still shown as the camera saw it.
        scored = server.table.state()["reading"]
        assert scored["status"] == "scored"
        page.wait_for_function(
            f"document.querySelector('#readingpicture img.readingpic')?.src.includes('/readings/{scored['id']}/')"
            " && document.querySelector('#readingpicture img.readingpic').naturalWidth === 640")
        page.click(f"#reading [data-die='{(logo + 1) % 3}'] svg")
        assert page.locator("#teach").count() == 0
        page.click("#pickcancel")
        page.close()


@contextlib.contextmanager
def _control_page(browser: Any, tmp_path: Path, calibration: Any) -> Iterator[tuple[Any, Any]]:
    """The control page of a table on the simulated tray whose calibration file holds
    ``calibration``; confirmation dialogs are accepted."""
    from calibration import load_calibration, save_calibration
    from vision.frames import SimCamera
    from web.calibrating import Calibrator

    path = tmp_path / "calibration.json"
    save_calibration(calibration, path)
    calibrator = Calibrator(path, load_calibration(path))
    with LiveServer(tmp_path / "data", camera=SimCamera(seed=4, size=(320, 240)),
                    calibrator=calibrator) as server:
        page = browser.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(server.url + "/control")
        yield server, page
        page.close()


def test_taught_pictures_are_forgotten_from_the_control_page(
        browser: Any, tmp_path: Path) -> None:
    import numpy as np

    from calibration import Calibration, PictureFace, load_calibration

    path = tmp_path / "calibration.json"
    with _control_page(browser, tmp_path, Calibration(picture_faces=(
            PictureFace(1, np.full((32, 32), 128, np.uint8)),
            PictureFace(6, np.full((32, 32), 200, np.uint8)),
            PictureFace(6, np.full((32, 32), 60, np.uint8))))) as (server, page):
        # Each taught picture is shown with its value, under one line until opened; the
        # one named wrongly goes alone, and the list stays open.
        page.click("#pictures summary:has-text('Taught pictures (3)')")
        page.wait_for_selector("#pictures [data-picture='2'] img")
        assert page.inner_text("#pictures [data-picture='0']").startswith("is 1")
        page.wait_for_function("[...document.querySelectorAll('#pictures img')]"
                               ".every((img) => img.naturalWidth === 32)")
        # Each Forget button says which picture to a screen reader (three said "Forget").
        page.get_by_role("button", name="forget taught picture 2", exact=True).click(timeout=5000)
        page.wait_for_selector("#pictures [data-picture='2']", state="detached")
        assert page.is_visible("#pictures summary:has-text('Taught pictures (2)')")
        assert page.is_visible("#pictures [data-picture='1'] img")
        assert [f.value for f in load_calibration(path).picture_faces] == [1, 6]
        assert int(load_calibration(path).picture_faces[1].template[0, 0]) == 60
        page.wait_for_selector("#forgetpictures:has-text('Forget all 2 taught pictures')")
        page.click("#forgetpictures")
        page.wait_for_selector("#forgetpictures", state="hidden")
        assert load_calibration(path).picture_faces == ()
        assert server.table.state()["camera"]["pictures"] == 0
        assert not page.is_visible("#pictures")


def test_remembered_dice_are_forgotten_from_the_control_page(browser: Any, tmp_path: Path) -> None:
    import numpy as np

    from calibration import Calibration, KnownDie, load_calibration

    path = tmp_path / "calibration.json"
    with _control_page(browser, tmp_path, Calibration(known_dice=tuple(
            KnownDie(v, np.full((40, 40, 3), 40 * v, np.uint8)) for v in (1, 2, 6)))) as (server, page):
        # The newest first, each with its value, under one line until opened; one
        # remembered wrongly goes alone.
        page.click("#knowndice summary:has-text('Newest remembered dice (3)')")
        page.wait_for_selector("#knowndice [data-known='0'] img")
        assert [page.inner_text(f"#knowndice [data-known='{i}']").split()[:2] for i in (2, 1, 0)] \
            == [["is", "6"], ["is", "2"], ["is", "1"]]
        page.wait_for_function("[...document.querySelectorAll('#knowndice img')]"
                               ".every((img) => img.naturalWidth === 40)")
        page.get_by_role("button", name="forget remembered die 2", exact=True).click(timeout=5000)
        page.wait_for_selector("#forgetknown:has-text('Forget 2 remembered dice')")
        assert [k.value for k in load_calibration(path).known_dice] == [1, 6]
        page.click("#forgetknown:has-text('Forget 2 remembered dice')")
        page.wait_for_selector("#forgetknown", state="hidden")
        assert load_calibration(path).known_dice == ()
        assert server.table.state()["camera"]["known_dice"] == 0
        assert not page.is_visible("#knowndice")


# Where the keyboard's focus is: the box it lies in (by id), and what it is.
FOCUS_IN = """(boxes) => [boxes.find((id) => document.getElementById(id).contains(document.activeElement)) || null,
  document.activeElement.outerHTML.slice(0, 60)]"""


def test_the_keyboards_place_stays_by_what_the_calibrations_forget_buttons_forget(
        browser: Any, tmp_path: Path) -> None:
    """A Forget pressed from the keyboard goes with what it forgot (or hides, nothing left
    to forget): the focus fell to the page's top, and Tab started over from the nav."""
    import numpy as np

    from calibration import Calibration, KnownDie, PictureFace

    boxes = ["pictures", "camerarow", "trayview"]
    with _control_page(browser, tmp_path, Calibration(die_size_px=42.0, picture_faces=(
            PictureFace(1, np.full((32, 32), 128, np.uint8)),
            PictureFace(6, np.full((32, 32), 60, np.uint8))),
            known_dice=(KnownDie(2, np.full((40, 40, 3), 80, np.uint8)),))) as (server, page):
        page.focus("#pictures summary")
        page.keyboard.press("Enter")
        page.focus("#pictures [data-forget='1']")
        page.keyboard.press("Enter")                     # the last of the list
        page.wait_for_selector("#pictures summary:has-text('Taught pictures (1)')")
        assert page.evaluate(FOCUS_IN, boxes) == ["pictures", "<summary>Taught pictures (1)</summary>"]
        page.focus("#forgetknown")
        page.keyboard.press("Enter")                     # hidden once done
        page.wait_for_selector("#forgetknown", state="hidden")
        assert page.evaluate(FOCUS_IN, boxes)[0] == "camerarow"
        page.focus("#marktray")
        page.keyboard.press("Enter")
        page.focus("#diesizeagain")
        page.keyboard.press("Enter")                     # hidden while the dice are measured
        page.wait_for_selector("#diesizeagain", state="hidden")
        assert page.evaluate(FOCUS_IN, boxes)[0] == "trayview"


def test_the_dice_of_a_checked_throw_leave_a_phone_the_games_next_tap_in_view(
        browser: Any, tmp_path: Path) -> None:
    # One throw checked is six remembered dice, each with its Forget: listed open above
    # the game, they pushed 10000's throw button below a phone's screen.
    import numpy as np

    from calibration import Calibration, KnownDie

    with _control_page(browser, tmp_path, Calibration(known_dice=tuple(
            KnownDie(v, np.full((40, 40, 3), 40 * v, np.uint8)) for v in range(1, 7)))) as (server, page):
        page.set_viewport_size({"width": 390, "height": 844})
        server.table.new_game("ten_thousand", ["Aino", "Bertil"])
        page.wait_for_selector("#knowndice")
        page.wait_for_selector("#other [data-throw]")
        assert page.evaluate("document.querySelector('#other [data-throw]')"
                             ".getBoundingClientRect().bottom") <= 844


def test_card_chicago_shows_no_remembered_dice_or_taught_pictures(browser: Any,
                                                                 tmp_path: Path) -> None:
    # Card Chicago is entered by hand and hides the camera's row: the rows of remembered
    # dice and taught pictures, each with its "Forget", belong to the camera too.
    import numpy as np

    from calibration import Calibration, KnownDie, PictureFace

    with _control_page(browser, tmp_path, Calibration(
            known_dice=(KnownDie(2, np.full((40, 40, 3), 80, np.uint8)),),
            picture_faces=(PictureFace(1, np.full((32, 32), 128, np.uint8)),))) as (server, page):
        page.wait_for_selector("#knowndice summary")
        page.wait_for_selector("#pictures summary")
        server.table.new_game("card_chicago", ["Aino", "Bertil"])
        page.wait_for_selector("#knowndice", state="hidden")
        assert not page.is_visible("#pictures") and not page.is_visible("#camerarow")
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page.wait_for_selector("#knowndice summary")
        assert page.is_visible("#pictures")


def test_the_dice_are_measured_again_from_the_control_page(browser: Any, tmp_path: Path) -> None:
    from calibration import Calibration, load_calibration

    path = tmp_path / "calibration.json"
    with _control_page(browser, tmp_path, Calibration(die_size_px=42.0)) as (server, page):
        # Said beside the button, with the tray's panel shut.
        page.wait_for_function("document.querySelector('#calsummary').innerText === 'dice 42 px'")
        page.click("#marktray")
        page.wait_for_selector("#diesizeagain", state="visible")
        assert page.inner_text("#diesizenote") == "dice are read at 42 px across"
        page.click("#diesizeagain")
        page.wait_for_selector("#diesizeagain", state="hidden")
        page.wait_for_function("document.querySelector('#calsummary').innerText === ''")
        # The simulated tray's dice may have been read once already: counted, not named.
        page.wait_for_function("document.querySelector('#diesizenote').textContent"
                               ".startsWith('measuring the dice: ')")
        assert load_calibration(path).die_size_px is None
        assert server.table.state()["camera"]["die_size"]["status"] == "measuring"
        # Agreed but not saved (a full disk): said so, not shown as still measuring.
        agreed = {"px": None, "status": "agreed", "dice": 9, "needed": 8, "throws": 3,
                  "throws_needed": 3, "agree": 1.0, "agree_needed": 0.9}
        assert page.evaluate("size => dieSizeNote(size)", agreed) == (
            "the dice agree on a size, but the calibration file could not be written: "
            "it is tried again at the next throw")
        # Forgotten because the dice kept looking bigger (another set): said why.
        again = {"px": None, "status": "measuring", "dice": 2, "needed": 8, "throws": 1,
                 "throws_needed": 3, "agree": 1.0, "agree_needed": 0.9, "stale": "bigger"}
        assert page.evaluate("size => dieSizeNote(size)", again) == (
            "the dice looked bigger than the size measured before, so they are measured "
            "again: measuring the dice: 2 of 8 read surely, in 1 of 3 throws")


# What the tray's panel says under an outline it shows as saved.
SAVED = "This outline is saved."


def _tap_corners(page: Any, corners: list[tuple[int, int]]) -> None:
    """Tap ``corners`` on the camera's picture, in the pixels it is shown at."""
    for x, y in corners:
        page.click("#trayimg", position={"x": x, "y": y})


def _within_a_pixel(points: Any, taps: list[tuple[int, int]]) -> bool:
    """Whether each saved corner lies within a pixel of its tap: the page may lie at a
    fraction of a pixel, and the browser gives a tap's place in whole pixels."""
    return len(points) == len(taps) and all(
        abs(x - tx) <= 1 and abs(y - ty) <= 1 for (x, y), (tx, ty) in zip(points, taps))


def test_the_tray_is_marked_by_tapping_its_corners_on_the_cameras_picture(
        browser: Any, tmp_path: Path) -> None:
    from calibration import load_calibration
    from vision.frames import SimCamera
    from web.calibrating import Calibrator

    calibrator = Calibrator(tmp_path / "calibration.json")
    camera = SimCamera(seed=4, size=(320, 240))
    with LiveServer(tmp_path / "data", camera=camera, calibrator=calibrator) as server:
        page = browser.new_page(viewport={"width": 1024, "height": 900})
        page.goto(server.url + "/control")
        # Unmarked, the page says what marking it is for.
        page.wait_for_selector("#traynote", state="visible")
        assert "lean on its wall" in page.inner_text("#traynote")
        page.click("#marktray")
        page.wait_for_function("document.querySelector('#trayimg').naturalWidth === 320")
        # No outline saved yet: none to forget.
        assert not page.is_visible("#trayforget")
        corners = [(20, 15), (300, 15), (300, 225), (20, 225)]
        _tap_corners(page, corners)
        assert page.locator("#trayshape circle").count() == 4
        page.click("#traysave")
        page.wait_for_selector("#traynote", state="hidden")
        # Saved, the panel stays open on the next step: taking the tray empty.
        page.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        assert page.is_visible("#emptytake")
        # Marked, the row says so beside the button (the panel with the notes is shut).
        page.wait_for_function("document.querySelector('#calsummary').innerText === 'tray marked'")
        saved = load_calibration(calibrator.path)
        assert saved.tray is not None and _within_a_pixel(saved.tray, corners)
        assert server.table.state()["camera"]["tray"] == [list(c) for c in saved.tray]
        # Opened again, the saved outline is drawn; a bad one is refused in words.
        page.click("#trayclose")
        page.click("#marktray")
        page.wait_for_function("document.querySelectorAll('#trayshape circle').length === 4")
        page.click("#trayundo")
        page.click("#trayundo")
        page.click("#traysave")
        page.wait_for_function("document.querySelector('#calerror').textContent.includes('3 corners')")
        # Forgetting the outline asks first; declined, it stays.
        page.once("dialog", lambda dialog: dialog.dismiss())
        page.click("#trayforget")
        assert server.table.state()["camera"]["tray"] is not None
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#trayforget")
        page.wait_for_selector("#traynote", state="visible")
        assert server.table.state()["camera"]["tray"] is None
        assert page.inner_text("#calsummary") == ""
        page.close()


@contextlib.contextmanager
def _marking_a_marked_tray(browser: Any, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """The control page of a table whose 320x240 tray is marked, with "Mark the tray"
    tapped and the saved outline drawn (shown until the first tap starts a new one)."""
    from calibration import Calibration

    old = ((20.0, 15.0), (300.0, 15.0), (300.0, 225.0), (20.0, 225.0))
    with _control_page(browser, tmp_path,
                       Calibration(tray=old, image_size=(320, 240))) as (server, page):
        page.set_viewport_size({"width": 1024, "height": 900})
        page.click("#marktray")
        page.wait_for_function("document.querySelectorAll('#trayshape circle').length === 4")
        yield server, page


def test_the_tray_is_marked_again_by_tapping_its_new_corners(browser: Any, tmp_path: Path) -> None:
    from calibration import load_calibration

    with _marking_a_marked_tray(browser, tmp_path) as (server, page):
        moved = [(40, 30), (290, 30), (290, 210), (40, 210)]   # the camera was raised
        _tap_corners(page, moved)   # the picture is shown at its own size here
        assert page.locator("#trayshape circle").count() == 4
        page.click("#traysave")
        page.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        saved = load_calibration(tmp_path / "calibration.json").tray
        assert saved is not None and _within_a_pixel(saved, moved)
        # Reopened and closed without a tap, the outline stays as saved.
        page.click("#trayclose")
        page.click("#marktray")
        page.wait_for_function("document.querySelectorAll('#trayshape circle').length === 4")
        page.click("#trayclose")
        assert server.table.state()["camera"]["tray"] == [list(c) for c in saved]


def test_an_outline_saved_on_another_tablet_is_not_put_back_by_one_opened_before(
        browser: Any, tmp_path: Path) -> None:
    """Two tablets open "Mark the tray"; one taps the new corners and saves. The other
    still drew the old outline, and its "Save the outline" put that one back."""
    from calibration import load_calibration

    with _marking_a_marked_tray(browser, tmp_path) as (server, page):
        other = browser.new_page(viewport={"width": 1024, "height": 900})
        other.goto(server.url + "/control")
        other.click("#marktray")
        other.wait_for_function("document.querySelector('#trayimg').naturalWidth === 320")
        new = [(40, 30), (290, 30), (290, 210), (40, 210)]
        _tap_corners(other, new)    # the picture is shown at its own size here
        other.click("#traysave")
        other.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        other.close()
        # The first tablet shows the outline saved now, and saving it keeps it.
        page.wait_for_function("document.querySelector('#trayshape circle').getAttribute('cx') === '40'")
        page.click("#traysave")
        page.wait_for_function("document.querySelector('#calerror').textContent === '' && "
                               f"document.querySelector('#traystate').textContent === '{SAVED}'")
        saved = load_calibration(tmp_path / "calibration.json").tray
        assert saved is not None and _within_a_pixel(saved, new)


def test_an_outline_saved_late_does_not_replace_one_saved_on_another_tablet_meanwhile(
        browser: Any, tmp_path: Path) -> None:
    """A tablet's "Save the outline" held up by the Wi-Fi reached the table after another
    tablet had saved its outline, and put the first tablet's over it unasked."""
    from calibration import load_calibration

    with _marking_a_marked_tray(browser, tmp_path) as (server, page):
        held: list[Any] = []
        page.route("**/api/tray", lambda route: held.append(route))
        _tap_corners(page, [(40, 30), (290, 30), (290, 210), (40, 210)])
        page.click("#traysave")
        while not held:                         # the request is on its way, held up
            page.wait_for_timeout(20)
        other = ((60.0, 40.0), (280.0, 40.0), (280.0, 200.0), (60.0, 200.0))
        server.table.set_tray([list(p) for p in other])        # saved on another tablet
        held[0].continue_()
        page.wait_for_function("document.querySelector('#calerror').textContent !== ''")
        assert page.inner_text("#calerror") == (
            "the tray was set up again just now, on this screen or another: nothing was "
            "saved here; look at it again, and tap again if this is still wanted")
        assert load_calibration(tmp_path / "calibration.json").tray == other


def _open_tray_panel(browser: Any, server: Any, size: tuple[int, int] = (1024, 900)) -> Any:
    """A control page of ``server`` at ``size`` with "Mark the tray" tapped, its picture
    loaded; no dialog is answered for the caller."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(server.url + "/control")
    page.click("#marktray")
    page.wait_for_function("document.querySelector('#trayimg').naturalWidth > 0")
    return page


def test_corners_tapped_but_not_saved_are_asked_about_before_they_go(
        browser: Any, tmp_path: Path) -> None:
    """Three corners tapped, then Close (to look at the game) or "Mark the tray" again:
    the corners went without a word, and had all to be tapped again."""
    with _marking_a_marked_tray(browser, tmp_path) as (server, _):
        page = _open_tray_panel(browser, server)
        asked: list[str] = []
        answers = [False, True]                     # stay, then leave
        page.on("dialog", lambda d: (asked.append(d.message),
                                     d.accept() if answers.pop(0) else d.dismiss()))
        page.wait_for_function("document.querySelectorAll('#trayshape circle').length === 4")
        _tap_corners(page, [(40, 30), (290, 30), (290, 210)])
        page.click("#marktray")
        page.click("#trayclose")
        assert asked == ["Leave without saving the outline?"]
        assert page.is_visible("#trayview") and page.locator("#trayshape circle").count() == 3
        assert page.inner_text("#traystate") == "3 corners tapped, not saved yet."
        page.click("#trayclose")
        page.wait_for_selector("#trayview", state="hidden")
        assert len(asked) == 2
        assert server.table.state()["camera"]["tray"][0] == [20.0, 15.0]
        # The saved outline shown again: closed without a question.
        page.click("#marktray")
        page.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        page.click("#trayclose")
        page.wait_for_selector("#trayview", state="hidden")
        assert len(asked) == 2
        page.close()


def test_corners_tapped_but_not_saved_are_back_after_the_page_reloads(
        browser: Any, tmp_path: Path) -> None:
    """A tablet drops a tab left in the background and reloads it when it is looked at
    again: the corners tapped so far were gone, and had all to be tapped again."""
    from calibration import load_calibration

    with _marking_a_marked_tray(browser, tmp_path) as (server, page):
        _tap_corners(page, [(40, 30), (290, 30), (290, 210)])
        page.reload()
        # The panel opens again by itself, with the three corners and a word why.
        page.wait_for_function("document.querySelectorAll('#trayshape circle').length === 3")
        assert page.inner_text("#traystate") == "3 corners tapped, not saved yet."
        assert page.inner_text("#traydraft") == \
            "The 3 corners tapped before the page reloaded are back: save them, or start over."
        _tap_corners(page, [(40, 210)])
        page.click("#traysave")
        page.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        saved = load_calibration(tmp_path / "calibration.json").tray
        assert saved is not None and _within_a_pixel(saved, [(40, 30), (290, 30), (290, 210), (40, 210)])
        # Saved, they are not brought back again; nor are corners left with "Close".
        page.reload()
        page.wait_for_selector("#controlpage:not([inert]) #marktray")
        assert not page.is_visible("#trayview")
        page.click("#marktray")
        page.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        _tap_corners(page, [(60, 50)])
        page.click("#trayclose")                        # "Leave without saving?": yes
        page.wait_for_selector("#trayview", state="hidden")
        page.reload()
        page.wait_for_selector("#controlpage:not([inert]) #marktray")
        assert not page.is_visible("#trayview")


def test_corners_kept_over_a_reload_are_dropped_once_the_outline_changed_elsewhere(
        browser: Any, tmp_path: Path) -> None:
    with _marking_a_marked_tray(browser, tmp_path) as (server, page):
        _tap_corners(page, [(40, 30), (290, 30)])
        new = [[50.0, 40.0], [280.0, 40.0], [280.0, 200.0], [50.0, 200.0]]
        server.table.set_tray(new)                      # saved on another tablet meanwhile
        page.reload()
        page.wait_for_selector("#traydraft", state="visible")
        assert page.inner_text("#traydraft") == ("The 2 corners tapped before the page reloaded "
                                                 "were dropped: the outline was changed on another screen since.")
        page.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        assert page.locator("#trayshape circle").first.get_attribute("cx") == "50"


def test_corners_kept_over_a_reload_are_not_laid_on_another_cameras_picture(
        browser: Any, tmp_path: Path) -> None:
    """The camera changed (unplugged, another put in) while the tab lay in the background:
    corners tapped on the old one's picture would mark a tray somewhere else."""
    from vision.frames import SimCamera
    from web.calibrating import Calibrator

    page = browser.new_page(viewport={"width": 1024, "height": 900})
    with LiveServer(tmp_path / "data", camera=SimCamera(seed=4, size=(320, 240)),
                    calibrator=Calibrator(tmp_path / "calibration.json")) as server:
        port = server.port
        page.goto(server.url + "/control")
        page.click("#marktray")
        page.wait_for_function("document.querySelector('#trayimg').naturalWidth === 320")
        _tap_corners(page, [(40, 30), (290, 30), (290, 210)])
    with LiveServer(tmp_path / "data", camera=SimCamera(seed=4, size=(640, 480)),
                    calibrator=Calibrator(tmp_path / "calibration.json"), port=port) as server:
        page.reload()
        page.wait_for_selector("#traydraft", state="visible")
        assert page.inner_text("#traydraft") == (
            "The 3 corners tapped before the page reloaded were dropped: the camera's picture "
            "has another size now. Tap the corners again.")
        assert page.locator("#trayshape circle").count() == 0
        assert server.table.state()["camera"]["tray"] is None
    page.close()


def test_a_refused_outline_is_started_over_with_one_tap(browser: Any, tmp_path: Path) -> None:
    """Corners tapped out of order are refused; starting over took one "Undo a corner"
    tap per corner."""
    from calibration import load_calibration

    with _marking_a_marked_tray(browser, tmp_path) as (server, page):
        _tap_corners(page, [(40, 30), (290, 210), (290, 30), (40, 210)])     # a bow tie
        page.click("#traysave")
        page.wait_for_function("document.querySelector('#calerror').textContent.includes('crosses itself')")
        page.click("#trayrestart")
        assert page.locator("#trayshape circle").count() == 0
        assert page.inner_text("#calerror") == ""
        moved = [(40, 30), (290, 30), (290, 210), (40, 210)]
        _tap_corners(page, moved)
        page.click("#traysave")
        page.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        saved = load_calibration(tmp_path / "calibration.json").tray
        assert saved is not None and _within_a_pixel(saved, moved)


def test_the_corners_tapped_on_a_phone_show_as_dots_a_finger_does_not_hide(
        browser: Any, tmp_path: Path) -> None:
    """Drawn a 120th of the picture's width, a corner's dot was 5-6 px across on a phone:
    a family could not tell whether their tap had counted."""
    with _marking_a_marked_tray(browser, tmp_path) as (server, _):
        page = _open_tray_panel(browser, server, (390, 844))
        _tap_corners(page, [(30, 20), (200, 20)])
        sizes = page.evaluate("[...document.querySelectorAll('#trayshape circle')]"
                              ".map((c) => c.getBoundingClientRect().width)")
        assert len(sizes) == 2 and all(size >= 10 for size in sizes)
        page.close()


def test_the_whole_tray_is_marked_and_taken_empty_on_one_tablet_screen(
        browser: Any, tmp_path: Path) -> None:
    """The first evening on a tablet (1024x768) over a camera of 1280x960: the camera's
    picture filled the screen, with "Save the outline" below it, and once saved the panel
    shut, "Take the empty tray" inside it: the family never saw that step."""
    import dataclasses

    import cv2
    import numpy as np

    from calibration import load_calibration
    from vision.replay import Replay
    from vision.sim import TrayStyle, empty_tray
    from web.calibrating import Calibrator

    style = dataclasses.replace(TrayStyle.random(np.random.default_rng(3), (1280, 960)), clutter=0)
    photo = tmp_path / "bare-tray.png"
    cv2.imwrite(str(photo), empty_tray(style, (1280, 960)))
    calibrator = Calibrator(tmp_path / "calibration.json")
    with LiveServer(tmp_path / "data", camera=Replay(str(photo)), calibrator=calibrator) as server:
        page = _open_tray_panel(browser, server, (1024, 768))
        # What to do, the picture to tap on and "Save the outline", on one screen.
        panel = page.locator("#trayview").bounding_box()
        picture = page.locator("#trayimg").bounding_box()
        save = page.locator("#traysave").bounding_box()
        assert save["y"] + save["height"] - panel["y"] <= 768
        w, h = picture["width"], picture["height"]
        _tap_corners(page, [(round(w * 0.1), round(h * 0.1)), (round(w * 0.9), round(h * 0.1)),
                            (round(w * 0.9), round(h * 0.9)), (round(w * 0.1), round(h * 0.9))])
        page.click("#traysave")
        page.wait_for_selector(f"#traystate:text-is('{SAVED}')")
        page.click("#emptytake")
        page.wait_for_selector("#emptyforget", state="visible")
        saved = load_calibration(calibrator.path)
        assert saved.tray is not None and saved.background is not None
        assert page.evaluate(SMALL_TARGETS) == []
        page.close()


def test_mark_the_tray_says_when_the_camera_has_given_no_picture_yet(
        browser: Any, tmp_path: Path) -> None:
    """A camera that gives no picture (plugged in, not working yet): "Mark the tray"
    opened on a broken image, with "tap the corners" above it and nothing to tap."""
    import threading

    from vision.frames import SourceClosed
    from web.calibrating import Calibrator

    class NoPicture:
        name, message, fps = "usb", "a webcam", 15.0

        def __init__(self) -> None:
            self._closed = threading.Event()

        def read(self) -> Any:
            self._closed.wait()
            raise SourceClosed("closed")

        def close(self) -> None:
            self._closed.set()

    calibrator = Calibrator(tmp_path / "calibration.json")
    with LiveServer(tmp_path / "data", camera=NoPicture(), calibrator=calibrator) as server:
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        page.click("#marktray")
        page.wait_for_selector("#traynopicture", state="visible")
        assert "no picture yet" in page.inner_text("#traynopicture")
        assert not page.is_visible("#trayimg")
        page.close()


@pytest.mark.parametrize("marked", [True, False])
def test_a_camera_turned_is_said_with_what_to_do_about_it(
        browser: Any, tmp_path: Path, marked: bool) -> None:
    """The empty tray read unlike its picture: the note asks for the tray to be marked
    again only when it was marked; with the empty tray alone taken it spoke of "the old
    outline" of a tray never marked. Marked again, it asked for that still, the family
    unsure whether their marking had counted."""
    import dataclasses

    import cv2
    import numpy as np

    from calibration import Calibration
    from vision.reader import Reading
    from vision.replay import Replay
    from vision.sim import TrayStyle, empty_tray
    from web.calibrating import Calibrator

    def bare(seed: int) -> Any:
        style = dataclasses.replace(TrayStyle.random(np.random.default_rng(seed), (320, 240)),
                                    clutter=0)
        return empty_tray(style, (320, 240), seed=seed)

    calibrator = Calibrator(tmp_path / "calibration.json",
                            Calibration.from_rect(20, 20, 300, 220) if marked else None,
                            read=lambda frame, cal: Reading((), 1.0))
    calibrator.take_empty_tray(bare(3))
    photo = tmp_path / "tray.png"
    cv2.imwrite(str(photo), bare(3))
    with LiveServer(tmp_path / "data", camera=Replay(str(photo)), calibrator=calibrator) as server:
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        page.wait_for_selector("#camerarow", state="visible")
        assert not page.is_visible("#viewchanged")
        calibrator.read(bare(8))                     # the camera turned: another view
        page.wait_for_selector("#viewchanged", state="visible")
        note = page.inner_text("#viewchanged")
        assert "camera was turned or raised" in note
        if marked:
            assert "mark the tray and take it empty again" in note
            server.table.set_tray([[30, 20], [290, 20], [290, 220], [30, 220]])
            page.wait_for_function("!document.querySelector('#viewchanged').innerText"
                                   ".includes('mark the tray')")
            note = page.inner_text("#viewchanged")
        assert "take the tray empty again" in note and "outline" not in note
        page.close()


def test_the_empty_tray_is_taken_from_the_control_page_once_the_dice_are_out(
        browser: Any, tmp_path: Path) -> None:
    import dataclasses

    import cv2
    import numpy as np

    from calibration import load_calibration
    from vision.frames import SimCamera
    from vision.replay import Replay
    from vision.sim import TrayStyle, empty_tray
    from web.calibrating import Calibrator

    # The simulated tray camera shows its dice: refused, in words.
    calibrator = Calibrator(tmp_path / "sim-calibration.json")
    with LiveServer(tmp_path / "sim-data", camera=SimCamera(seed=4, size=(320, 240)),
                    calibrator=calibrator) as server:
        page = browser.new_page(viewport={"width": 1024, "height": 900})
        page.goto(server.url + "/control")
        page.click("#marktray")
        opened_with = page.get_attribute("#trayimg", "src")
        page.click("#emptytake")
        page.wait_for_function("document.querySelector('#calerror').textContent.includes('not empty')")
        assert not calibrator.path.exists()
        # As a family would lift the dice out: the simulated tray's button does it.
        page.click("#diceout")
        wait_for(lambda: server.table.camera.tray.truth == ())
        shown = server.table.snapshot()
        wait_for(lambda: server.table.snapshot() is not shown)     # a frame of the empty tray
        # (and the dice lifted out, nothing moves in it: "rolling…" is gone from the page)
        page.wait_for_function("!document.querySelector('#camera').textContent.includes('rolling')")
        wait_for(lambda: not server.table.state()["camera"]["moving"])
        page.click("#emptytake")
        page.wait_for_selector("#emptyforget", state="visible")
        assert load_calibration(calibrator.path).background is not None
        # The picture open is the camera's now, not the one with dice it opened with
        # (once shown beside "the empty tray is taken").
        page.wait_for_function("(s) => document.querySelector('#trayimg').getAttribute('src') !== s",
                               arg=opened_with, timeout=10_000)
        page.click("#trayclose")
        frames: list[str] = []
        page.on("request", lambda r: frames.append(r.url) if "frame.jpg" in r.url else None)
        page.wait_for_timeout(2500)
        assert frames == []                                  # shut: no more pictures asked
        page.close()
    # A camera over the bare tray: taken, then forgotten.
    calibrator = Calibrator(tmp_path / "calibration.json")
    style = dataclasses.replace(TrayStyle.random(np.random.default_rng(3), (320, 240)), clutter=0)
    photo = tmp_path / "bare-tray.png"
    cv2.imwrite(str(photo), empty_tray(style, (320, 240)))
    with LiveServer(tmp_path / "data", camera=Replay(str(photo)), calibrator=calibrator) as server:
        page = browser.new_page(viewport={"width": 1024, "height": 900})
        page.goto(server.url + "/control")
        page.click("#marktray")
        page.click("#emptytake")
        page.wait_for_selector("#emptyforget", state="visible")
        assert page.inner_text("#emptynote") == "the empty tray is taken"
        saved = load_calibration(calibrator.path)
        assert saved.background is not None and saved.background.shape == (240, 320, 3)
        page.click("#emptyforget")
        page.wait_for_selector("#emptyforget", state="hidden")
        assert load_calibration(calibrator.path).background is None
        page.close()


def test_the_control_page_says_a_camera_giving_a_picture_every_3_s_is_slow(
        browser: Any, tmp_path: Path) -> None:
    # Each throw was scored ten seconds after it landed, and nothing said why.
    clock = FakeClock()
    with LiveServer(tmp_path / "data", camera=SlowCamera(clock, 3.0), clock=clock) as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = browser.new_page()
        page.goto(server.url + "/control")
        page.wait_for_selector("#camera:has-text('the camera is slow: a picture only every 3 s')")
        assert "throws are scored late" in page.inner_text("#camera")
        page.close()


def test_the_control_page_says_which_camera_runs_and_why(browser: Any, tmp_path: Path) -> None:
    camera = FakeCamera()
    camera.message = "no camera found, using the simulated tray: no Pi camera (picamera2 finds no camera)"
    with LiveServer(tmp_path / "data", camera=camera) as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = browser.new_page()
        page.goto(server.url + "/control")
        page.wait_for_function("document.querySelector('#camera').textContent.includes('Pi camera')")
        assert page.inner_text("#camera") == f"camera: fake · {camera.message}"
        # and shows what it sees, to aim it by.
        assert page.is_visible("#cameraview")
        assert page.get_attribute("#cameraview", "href") == "/api/frame.jpg"
        page.close()


def test_any_family_can_be_started_and_played_from_the_control_page(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        board = context.new_page()
        board.goto(server.url + "/")
        board.wait_for_selector("text=No game yet")
        # The address to type on the tablet is the one the TV reached the appliance by.
        host = server.url.split("//", 1)[1]
        assert f"control page: {host}/control" in board.inner_text("#board")
        control = context.new_page()
        control.goto(server.url + "/control")
        control.wait_for_selector("#family option[value='ten_thousand']", state="attached")
        control.select_option("#family", "ten_thousand")
        control.select_option("[data-option='opening']", label="nothing")
        control.fill("#newplayers", "Aino, Bertil")
        control.click("#start")
        control.wait_for_selector("#hand svg.die")
        assert control.locator("#hand svg.die").count() == 6      # next.dice of 10000
        control.click("#handgo")                                  # six ones, by hand
        control.click("[data-choice='0']")                        # keep the best choice
        control.click("[data-type='bank']")
        # The board shows 8000 as the turn's points once the ones are set aside, before
        # the bank lands: wait for the bank itself, Bertil's turn.
        wait_for(lambda: server.table.state()["game"]["next"]["player"] == "Bertil", 10.0)
        board.wait_for_function("document.querySelector('#board').innerText.includes('8000')",
                                timeout=10_000)
        assert "Ten Thousand" in board.inner_text("#board")
        context.close()


def test_the_start_form_names_options_as_the_rule_book_does(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        control = browser.new_page(viewport={"width": 1024, "height": 768})
        control.goto(server.url + "/control")
        control.wait_for_selector("#family option[value='ten_thousand']", state="attached")
        control.select_option("#family", "ten_thousand")
        form = control.inner_text("#options")
        # A family reads "three 1s score: 1000 / 300 (Greed)", not the file's "greed: false".
        assert "three 1s score" in form and "300 (Greed)" in form
        for key_or_value in ("greed", "three_farkles", "three_pairs", "false", "true", "doubling"):
            assert key_or_value not in form
        control.select_option("[data-option='greed']", label="300 (Greed)")
        control.select_option("[data-option='final_round']", label="off: the first to the target wins")
        control.fill("#newplayers", "Aino, Bertil")
        control.click("#start")
        wait_for(lambda: server.table.state()["game"] is not None, 10.0)
        options = server.table.state()["game"]["options"]
        assert options["greed"] is True and options["final_round"] is False
        assert options["opening"] == 500                         # left at its default
        control.close()


def test_the_players_label_reads_as_one_line(browser: Any, tmp_path: Path) -> None:
    """A label's words stack above its field: the seat-order hint, a word group of its
    own, was stacked too, "players, in seat order (" / "first throws first" / ")"."""
    with LiveServer(tmp_path / "data") as server:
        for width, height in ((1024, 768), (768, 1024)):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(server.url + "/control")
            page.wait_for_selector("#family option", state="attached")
            hint = page.locator("#seathint").bounding_box()
            field = page.locator("#newplayers").bounding_box()
            label = page.locator("#newplayers").evaluate(
                "(el) => el.closest('label').getBoundingClientRect().top")
            assert hint is not None and field is not None
            assert hint["y"] - label < hint["height"] / 2          # on the label's first line
            assert field["y"] - (hint["y"] + hint["height"]) < hint["height"] / 2
            page.close()


def test_a_double_tap_on_a_button_sends_its_action_once(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(server.url + "/control")
        page.wait_for_selector("#handgo")
        page.dblclick("#handgo")                 # Aino's throw, tapped twice in a hurry
        page.wait_for_function(f"document.body.dataset.revision >= {server.table.state()['revision']}")
        page.wait_for_timeout(300)
        game = server.table.state()["game"]
        assert game["next"]["player"] == "Bertil"      # not Bertil's throw scored as well
        assert [p["score"] for p in game["players"]] == [2, 0, 0]   # one throw of 1 + 1
        page.close()


def test_a_tap_on_what_the_live_stream_shows_is_sent_before_the_last_answer_comes(
        browser: Any, tmp_path: Path) -> None:
    """The stream can bring a throw's new state before the POST's own answer (a loaded
    Pi, a busy tablet): a tap on that new state is a new choice, not a double tap."""
    held: list[Any] = []
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("ten_thousand", ["Aino", "Bertil"], {"opening": 0})
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.route("**/api/roll", lambda route: held.append(route))   # its answer held back
        page.goto(server.url + "/control")
        page.wait_for_selector("#hand svg.die")
        page.click("#handgo")                                  # six ones, by hand
        wait_for(lambda: held)
        answer = held[0].fetch()     # the roll reaches the table; the page waits for its answer
        page.wait_for_selector("[data-choice='0']")            # shown by the live stream
        page.click("[data-choice='0']")                        # keep the best choice
        held[0].fulfill(response=answer)
        wait_for(lambda: server.table.state()["game"]["turn"]["points"] > 0)
        page.close()


def test_a_value_picker_opened_on_a_throw_closes_when_a_new_throw_replaces_it(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        server.table.handle_reading(reading(1, 2))       # Aino's, scored
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(server.url + "/control")
        page.click("#reading [data-die='1'] svg")        # about to correct Aino's 2 ...
        assert page.is_visible("#picker [data-value='1'] svg")
        server.table.handle_reading(reading(3, 4))       # ... when Bertil's throw comes in
        page.wait_for_function(f"document.body.dataset.revision == {server.table.state()['revision']}")
        # The picker said "Die 2 shows:" beside Bertil's dice: a tap now would change
        # Aino's throw, which is no longer on the page.
        assert not page.is_visible("#picker [data-value='1'] svg")
        assert [p["score"] for p in server.table.state()["game"]["players"]] == [0, 0, 0]
        page.close()


def test_the_pages_show_a_restarted_servers_state_even_when_its_revision_is_lower(
        browser: Any, tmp_path: Path) -> None:
    # A server started on another data folder (a fresh one, say) counts its revisions
    # anew: its state is the current one all the same.
    with LiveServer(tmp_path / "old") as server:
        port = server.port
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        for _ in range(4):
            server.table.hand_roll([1, 1])
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        board = context.new_page()
        board.goto(server.url + "/")
        control = context.new_page()
        control.goto(server.url + "/control")
        control.wait_for_selector("#conn:has-text('live')")
        board.wait_for_selector("#conn:has-text('live')")
    with LiveServer(tmp_path / "fresh", port=port) as server:
        server.table.new_game("sum_chicago", ["Dora", "Eemeli"])
        assert server.table.state()["revision"] < int(control.evaluate("document.body.dataset.revision"))
        board.wait_for_function("document.querySelector('#board').innerText.includes('Eemeli')",
                                timeout=15_000)
        control.wait_for_function("document.querySelector('#players').innerText.includes('Eemeli')",
                                  timeout=5_000)
        context.close()


def test_the_control_and_history_pages_fit_a_phone_with_long_names(
        browser: Any, tmp_path: Path) -> None:
    long = "Wolfeschlegelsteinhausenbergerdorffvoral"       # 40 letters, no space
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("ten_thousand", [long, "Maximiliane-Anneliese von Hohenzollern"],
                              {"opening": 0})
        page = browser.new_page(viewport={"width": 375, "height": 812})
        for path in ("/control", "/history"):
            page.goto(server.url + path)
            page.wait_for_timeout(300)
            assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
        page.close()


def test_a_die_is_corrected_from_the_keyboard(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        server.table.handle_reading(reading(1, 2))
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(server.url + "/control")
        page.wait_for_selector("#reading [data-die='1'] svg")
        # The dice one taps are buttons: reached with Tab, pressed with Enter.
        for selector in ("#reading [data-die]", "#hand [data-hand]"):
            assert page.eval_on_selector(selector, "el => el.tagName") == "BUTTON", selector
        page.focus("#reading [data-die='1']")
        page.keyboard.press("Enter")
        # The values open with the focus on the value as read, in a group saying whose
        # (it stayed on the die: the values were found only by tabbing on).
        assert page.evaluate("document.activeElement.closest('#picker')?.getAttribute("
                             "'aria-label')") == "Die 2 shows:"
        assert page.evaluate("document.activeElement.dataset.value") == "2"
        page.keyboard.press("Escape")                    # closed, the focus back on the die
        assert not page.is_visible("#picker")
        assert page.evaluate("document.activeElement.dataset.die") == "1"
        page.keyboard.press("Enter")
        page.keyboard.press("Shift+Tab")                 # from 2 to 1
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelectorAll('#reading [data-die] svg')[1]"
                               "?.getAttribute('data-value') === '1'", timeout=10_000)
        # The die redrawn with its new value holds the focus (it fell to the page's top).
        assert page.evaluate("document.activeElement.dataset.die") == "1"
        assert [p["score"] for p in server.table.state()["game"]["players"]] == [2, 0, 0]
        # and the new player's name field says what it is for.
        assert page.get_attribute("#joinname", "aria-label")
        page.close()


def test_the_dice_entered_by_hand_are_the_dice_shown(browser: Any, tmp_path: Path) -> None:
    # After a throw entered by hand, the next throw's dice on the page are what "Score
    # this throw" sends: a throw must never be scored with dice nobody saw.
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        page = browser.new_page(viewport={"width": 820, "height": 1180})
        page.goto(server.url + "/control")
        page.wait_for_selector("#hand [data-hand='1']")
        for _ in range(2):
            page.click("#hand [data-hand='0']")          # 1 -> 2 -> 3
        page.click("#hand [data-hand='1']")              # 1 -> 2
        page.click("#handgo")                            # Aino: 3 + 2
        page.wait_for_function("document.querySelector('#status').innerText.includes('Bertil')")
        page.wait_for_timeout(300)                        # the live event comes too
        shown = [int(v) for v in page.eval_on_selector_all(
            "#hand [data-hand] svg", "els => els.map((e) => e.dataset.value)")]
        page.click("#handgo")                            # Bertil's throw, as shown
        page.wait_for_function("document.querySelector('#status').innerText.includes('Cecilia')")
        log = server.table.game.log if server.table.game else []
        assert [a["dice"] for a in log] == [[3, 2], shown]
        page.close()


def test_a_throw_entered_on_two_tablets_is_scored_once_and_a_correction_warns_of_nothing(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        one, two = context.new_page(), context.new_page()
        for page in (one, two):
            page.goto(server.url + "/control")
            page.wait_for_selector("#hand [data-hand='1']")
            page.click("#hand [data-hand='0']")               # each enters Aino's throw
        one.click("#handgo")                                   # 2 + 1
        # The second hears of it: the dice it shows were entered for Aino's throw, and it
        # says so before they can be sent for Bertil (a tap already on its way is refused
        # by the table: tests/web/test_api.py).
        two.wait_for_function("document.querySelector('#handerror').innerText.includes("
                              "'changed meanwhile')")
        assert "Bertil's" in two.inner_text("#handerror")
        assert [a["player"] for a in server.table.game.log] == ["Aino"]

        server.table.handle_reading(reading(1, 2))             # Bertil's, read by the camera
        one.wait_for_selector("#reading [data-die='1'] svg")
        one.click("#reading [data-die='1'] svg")
        one.click("#picker [data-value='3'] svg")
        wait_for(lambda: server.table.state()["reading"]["dice"][1]["value"] == 3)
        one.wait_for_timeout(300)
        # One tap, one request: no "still waiting for the table's answer" after it.
        assert not one.is_visible("#toast.show")
        # The note is about a throw gone by once another is scored: it goes.
        two.wait_for_function("document.querySelector('#handerror').innerText === ''")
        # Throws scored since (the camera's) leave no stale entry behind: Cecilia's goes in.
        two.click("#hand [data-hand='1']")
        two.click("#handgo")
        wait_for(lambda: [a.get("player") for a in server.table.game.log][-1] == "Cecilia")
        context.close()


# WCAG's 44 x 44 CSS px: at 42 px tall (and 42 px wide for Card Chicago's exchange
# counts) a grandparent's finger missed the button (found by an accessibility audit).
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, select, input:not([type=checkbox]), a, summary')]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el.outerHTML.slice(0, 60), el.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 || r.width < 44)
  .map(([html, r]) => [html, Math.round(r.width), Math.round(r.height)])"""


def test_what_a_finger_taps_on_the_control_page_is_at_least_44_px_each_way(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        page.wait_for_selector("select")
        assert page.evaluate(SMALL_TARGETS) == []           # the start form and the nav
        server.table.new_game("card_chicago", ["Aino", "Bertil"])
        page.wait_for_selector("#other [data-hand='Aino']")
        assert page.evaluate(SMALL_TARGETS) == []           # exchanges, hands, card picker
        assert page.get_attribute("#other [data-hand='Aino']", "aria-label") == "Aino's hand"
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.handle_reading(reading(1, 2))
        page.wait_for_selector("#reading [data-die='1']")
        assert page.is_visible("#rules summary")
        assert page.evaluate(SMALL_TARGETS) == []           # Undo, the rules, the dice
        page.close()


def test_the_dice_entered_by_hand_stay_put_when_a_new_throws_picture_comes(
        browser: Any, tmp_path: Path) -> None:
    """A throw read on another tablet (or by the camera) brings its picture: while it
    loads, the old one holds its place, so the hand entry below it does not jump up under
    the finger of someone entering a throw."""
    from calibration import Calibration

    with _control_page(browser, tmp_path, Calibration()) as (server, page):
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        page.set_viewport_size({"width": 1024, "height": 768})
        page.wait_for_selector("#hand [data-hand='0']")        # the page is set up
        page.click("#rollforme")
        page.wait_for_function("document.querySelector('#readingpicture img.readingpic')?.complete"
                               " && document.querySelector('#readingpicture img.readingpic').naturalWidth")
        first = server.table.state()["reading"]["id"]
        page.evaluate("document.querySelector('#handsection').scrollIntoView({block: 'center'})")
        # Where the hand entry is each time the reading is drawn afresh, before the page
        # is painted or the new picture has come.
        page.evaluate("""() => {
            window.handTops = [];
            new MutationObserver(() => window.handTops.push(
                document.querySelector('#handsection').getBoundingClientRect().top))
              .observe(document.querySelector('#reading'), { childList: true, subtree: true });
        }""")
        before = page.evaluate("document.querySelector('#handsection').getBoundingClientRect().top")
        server.table.roll_for_me()                       # Bertil's, on another tablet
        page.wait_for_function(
            "document.querySelector('#readingpicture img.readingpic')?.src.includes("
            f"'/readings/{first + 1}/') && document.querySelector('#readingpicture img.readingpic').complete",
            timeout=15_000)
        tops = page.evaluate("window.handTops")
        assert tops and all(abs(top - before) < 2 for top in tops), (before, tops)


def test_join_tapped_before_a_name_is_typed_says_to_type_it(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        page.wait_for_selector("#players [data-leave]")       # the page is set up
        page.fill("#joinname", "  ")
        page.click("#join")
        page.wait_for_function("document.querySelector('#playererror').innerText !== ''")
        said = page.inner_text("#playererror")
        # What to do, in the family's words: not the game log's "action 0 (join by )".
        assert "type the new player's name" in said and "action" not in said, said
        assert [p["name"] for p in server.table.state()["game"]["players"]] == ["Aino", "Bertil"]
        page.close()


def test_the_control_page_says_a_second_throw_is_one_as_the_scoreboard_does(
        browser: Any, tmp_path: Path) -> None:
    """With two throws a round, a miss earns a second throw: the tablet says so, as the TV
    does, rather than show the same "Aino's throw" as if the miss had not been taken."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"], {"throws": 2})
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        page.wait_for_selector("#handgo")
        assert "second" not in page.inner_text("#status")
        page.click("#hand [data-hand='0']")              # 2 + 1 = 3: round 1 wants 2
        page.click("#handgo")
        page.wait_for_function("document.querySelector('#status').innerText.includes('second')")
        assert page.inner_text("#status").startswith("Aino's second throw")
        page.click("#handgo")                            # 1 + 1: a hit, Bertil's turn
        page.wait_for_function("document.querySelector('#status').innerText.startsWith(\"Bertil's throw\")")
        page.close()


def test_a_player_who_left_is_shown_as_left_on_the_control_page(browser: Any, tmp_path: Path) -> None:
    """The scoreboard greys out who left; the tablet says it in words, rather than list
    them as if still playing, only without a button."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil", "Cecilia"])
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        page.click("[data-leave='Cecilia']")
        page.wait_for_selector("[data-leave='Cecilia']", state="detached")
        players = page.inner_text("#players")
        assert "Cecilia: 0 (left)" in players and "Bertil: 0 (left)" not in players, players
        page.close()


def test_a_button_under_the_error_toast_still_takes_a_tap(browser: Any, tmp_path: Path) -> None:
    """The toast that repeats a refusal lies over the bottom of a phone's screen for five
    seconds: a tap there reaches the page under it (a button, a die) rather than nothing."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True,
                                is_mobile=True)
        page.goto(server.url + "/control")
        page.wait_for_selector("#players [data-leave]")       # the page is set up
        page.fill("#joinname", "Aino")
        page.click("#join")                              # refused: Aino plays already
        page.wait_for_selector("#toast.show")
        under = page.evaluate("""() => {
            const t = document.querySelector('#toast').getBoundingClientRect();
            const el = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
            return el ? el.closest('#toast') === null : null; }""")
        assert under is True
        page.close()


def test_the_control_page_says_10000s_final_round_and_tie_break_as_the_scoreboard_does(
        browser: Any, tmp_path: Path) -> None:
    """The player in the final round plays their last turn: the tablet said nothing of it."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("ten_thousand", ["Aino", "Bertil", "Cecilia"],
                              {"opening": 0, "target": 5000})
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server.url + "/control")
        page.wait_for_selector("#other [data-throw]")
        assert "final round" not in page.inner_text("#status")
        for player in ("Aino", "Bertil"):                      # 8000 each: a tie
            server.table.hand_roll([1] * 6)
            server.table.act({"type": "set_aside", "player": player, "dice": [1] * 6})
            server.table.act({"type": "bank", "player": player})
            if player == "Aino":
                page.wait_for_function("document.querySelector('#status').innerText"
                                       ".includes(\"Bertil's throw\")")
                assert page.inner_text("#status") == \
                    "Bertil's throw (6 dice) · final round: Aino reached 5000"
        server.table.hand_roll([2, 2, 3, 3, 4, 6])                # Cecilia's farkle
        page.wait_for_function("document.querySelector('#status').innerText.includes('tie-break')")
        assert page.inner_text("#status") == "Aino's throw (6 dice) · tie-break round 1: Aino vs Bertil"
        page.close()


def test_the_control_pages_players_say_pub_chicagos_lids_and_strokes(
        browser: Any, tmp_path: Path) -> None:
    """Pub Chicago counts lids or strokes: "Bertil: 1" beside "Aino: 0" read as points."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("pub_chicago", ["Aino", "Bertil"], {"variant": "bayrisch"})
        server.table.act({"type": "leader", "player": "Aino"})
        server.table.hand_roll([6, 5, 4])
        server.table.act({"type": "announce", "player": "Aino", "ones": 100, "sixes": 60,
                          "order": "high"})
        server.table.hand_roll([2, 2, 3])                      # Bertil is worst: a lid
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server.url + "/control")
        page.wait_for_selector("#players .row")
        assert page.inner_text("#players").split("\n") == ["Aino: 0 lids", "Bertil: 1 lid"]
        server.table.new_game("pub_chicago", ["Aino", "Bertil"])
        page.wait_for_function("document.querySelector('#players').innerText.includes('strokes')")
        assert page.inner_text("#players").split("\n") == ["Aino: 0 strokes", "Bertil: 0 strokes"]
        page.close()
