"""A game left unfinished when another was started is continued from the history page."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.fakes import reading
from web.live import LiveServer


def _scores(state: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["score"] for p in state["game"]["players"]}


def test_an_unfinished_game_is_continued_where_it_was_left(api: Any) -> None:
    first = api.post("games", {"family": "ten_thousand", "players": ["Aino", "Bertil"]})
    api.post("roll", {"dice": [1, 1, 1, 2, 3, 4]})
    api.post("action", {"type": "set_aside", "player": "Aino", "dice": [1, 1, 1]})
    api.post("action", {"type": "bank", "player": "Aino"})
    left = api.state()["game"]
    first_id = first["table"]["game_id"]

    api.start(["Cecilia"])                                # the children's quick game
    api.post("roll", {"dice": [1, 1]})
    second_id = api.state()["table"]["game_id"]

    s = api.post("continue", {"game": first_id})
    assert s["table"]["game_id"] == first_id
    assert s["game"] == left and _scores(s) == {"Aino": 1000, "Bertil": 0}
    assert s["game"]["next"]["player"] == "Bertil"
    s = api.post("roll", {"dice": [5, 2, 3, 4, 6, 6]})   # play goes on in it
    assert s["game"]["turn"]["player"] == "Bertil"

    s = api.post("continue", {"game": second_id})       # and back again
    assert s["game"]["family"] == "sum_chicago" and _scores(s) == {"Cecilia": 2}


def test_the_continued_game_is_the_one_a_restart_resumes(api: Any, data_dir: Path) -> None:
    from web.store import Store
    from web.table import Table

    first = api.start(["Aino"])["table"]["game_id"]
    api.post("roll", {"dice": [1, 1]})
    api.start(["Bertil"])
    api.post("continue", {"game": first})
    api.table.stop()
    api.table.store.close()
    again = Table(Store(data_dir))
    try:
        assert again.game_id == first and _scores(again.state()) == {"Aino": 2}
    finally:
        again.store.close()


def test_a_throw_waiting_in_the_game_left_does_not_follow_into_the_continued_one(
        api: Any) -> None:
    first = api.start(["Aino"])["table"]["game_id"]
    api.start(["Bertil"])
    api.table.handle_reading(reading(1, 1, flagged=[1]))
    assert api.state()["table"]["waiting"]
    s = api.post("continue", {"game": first})
    assert not s["table"]["waiting"] and _scores(s) == {"Aino": 0}


@pytest.mark.parametrize("body, status, message", [
    ({}, 400, "missing 'game'"),
    ({"game": "1"}, 400, "a game's number (as /api/games lists them), not '1'"),
    ({"game": True}, 400, "a game's number (as /api/games lists them), not true"),
    ({"game": 99}, 404, "there is no game 99"),
    ({"game": 2 ** 70}, 404, "there is no game"),
])
def test_a_game_that_does_not_exist_is_refused(api: Any, body: dict[str, Any], status: int,
                                                message: str) -> None:
    api.start()
    before = api.state()
    s = api.post("continue", body, status=status)
    assert message in s["error"]
    assert api.state() == before


def test_a_finished_game_or_the_one_being_played_is_not_continued(api: Any) -> None:
    over = api.start(["Aino"], rounds="low")["table"]["game_id"]
    for _ in range(6):
        api.post("roll", {"dice": [1, 1]})
    assert api.state()["game"]["finished"]
    playing = api.start(["Bertil"])["table"]["game_id"]
    before = api.state()
    s = api.post("continue", {"game": over}, status=409)
    assert s["error"] == f"game {over} is over: there is nothing to continue"
    s = api.post("continue", {"game": playing}, status=409)
    assert s["error"] == f"game {playing} is the game being played"
    assert api.state() == before


def test_a_continue_tapped_again_after_its_answer_was_lost_says_the_game_is_being_played(
        api: Any) -> None:
    """The Wi-Fi lost the answer to Continue, and the family tapped it again on the same
    history page: they were told another screen had started a game, when their own first
    tap had continued the very game they wanted."""
    api.start(["Aino", "Bertil"])
    first = api.state()["table"]["game_id"]
    api.start(["Cecilia"])
    shown = api.state()["table"]["game_id"]
    api.post("continue", {"game": first, "after": shown})          # the answer lost
    before = api.state()
    s = api.post("continue", {"game": first, "after": shown}, status=409)
    assert s["error"] == f"game {first} is the game being played"
    assert api.state() == before


def test_a_game_its_last_throw_ended_is_not_continued_even_if_never_marked_over(
        api: Any) -> None:
    """The server stopped between storing the last throw and marking the game over: the
    history offered Continue on a game that was over."""
    over = api.start(["Aino"], rounds="low")["table"]["game_id"]
    for _ in range(6):
        api.post("roll", {"dice": [1, 1]})
    api.table.store.mark_finished(over, False, None)        # as if never marked
    api.start(["Bertil"])
    assert api.table.store.game(over).finished is None
    s = api.post("continue", {"game": over}, status=409)
    assert s["error"] == f"game {over} is over: there is nothing to continue"
    assert api.state()["game"]["players"][0]["name"] == "Bertil"
    row = api.table.store.game(over)
    assert row.finished is not None and row.winner == "Aino"  # the history says so now


def test_a_game_whose_stored_log_no_longer_replays_is_refused_naming_the_file(
        api: Any) -> None:
    """A row damaged under the server (a bad memory card, a hand edit) is the database's
    fault, not the request's: 503 naming the file, and the game being played goes on."""
    left = api.start(["Aino"])["table"]["game_id"]
    api.post("roll", {"dice": [1, 1]})
    api.start(["Bertil"])
    before = api.state()
    store = api.table.store
    with store._write() as db:                              # the row goes bad
        db.execute("UPDATE actions SET body = ? WHERE game = ?",
                   ('{"type": "roll", "player": "Zed", "dice": [1, 1]}', left))
    s = api.post("continue", {"game": left}, status=503)
    assert s["error"].startswith(f"{store.path}: game {left} cannot be replayed: action 0")
    assert api.state() == before


def test_no_game_is_continued_while_the_starter_is_being_drawn(api: Any) -> None:
    first = api.start(["Aino"])["table"]["game_id"]
    api.start(["Bertil"])
    api.post("draw", {"family": "sum_chicago", "players": ["Cecilia", "Dora"]})
    before = api.state()
    s = api.post("continue", {"game": first}, status=409)
    assert "a draw for the starting player is under way" in s["error"]
    assert api.state() == before


@pytest.mark.browser
def test_the_history_page_continues_an_unfinished_game(browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.hand_roll([1, 1])
        first = server.table.game_id
        server.table.new_game("sum_chicago", ["Cecilia"])
        page = browser.new_page()
        page.on("dialog", lambda dialog: dialog.accept())   # leave Cecilia's game: yes
        page.goto(server.url + "/history")
        # Listed first among those left unfinished, and again by its date below.
        assert page.locator("h2").first.inner_text() == "Left unfinished"
        rows = page.locator("table.list").first.locator("tr", has=page.locator("[data-continue]"))
        assert rows.count() == 1 and "Aino, Bertil" in rows.inner_text()
        assert page.locator(f"[data-continue='{first}']").count() == 2
        page.locator(f"[data-continue='{first}']").first.click()
        page.wait_for_url(server.url + "/control")
        page.wait_for_selector("text=Bertil")
        assert server.table.game_id == first
        page.goto(server.url + "/history")
        assert "in progress" in page.locator("tr", has_text="Aino, Bertil").inner_text()
        assert page.locator("tr", has_text="Cecilia").locator("[data-continue]").count() == 2
        page.close()


@pytest.mark.browser
def test_the_history_page_names_the_game_being_played_and_asks_before_leaving_it(
        browser: Any, tmp_path: Path) -> None:
    """Continue tapped on the history page while another tablet plays a game moved the
    table to the older game at once, unasked (found by a history audit)."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        first = server.table.game_id
        server.table.new_game("ten_thousand", ["Cecilia", "Dora"])
        playing = server.table.game_id
        page = browser.new_page()
        page.goto(server.url + "/history?q=Aino")
        said = page.locator("#playing").inner_text()
        assert said.startswith(f"Being played now: game {playing}, 10000 (Cecilia, Dora)"), said
        asked: list[str] = []

        def answer(dialog: Any, accept: bool) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        page.once("dialog", lambda dialog: answer(dialog, False))
        page.locator(f"[data-continue='{first}']").first.click()
        assert len(asked) == 1 and "10000 (Cecilia, Dora) is being played" in asked[0]
        assert server.table.game_id == playing
        page.once("dialog", lambda dialog: answer(dialog, True))
        page.locator(f"[data-continue='{first}']").first.click()
        page.wait_for_url(server.url + "/control")
        assert server.table.game_id == first
        page.close()


@pytest.mark.browser
def test_the_history_says_the_day_of_the_week_a_game_was_started(
        browser: Any, tmp_path: Path) -> None:
    """A family looking for last Sunday's game had only "11/29/2026, 7:45:30 PM" to go by
    (found by a history audit)."""
    sunday_evening = 1796586300.0            # Sunday 2026-12-06, 19:45 UTC
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        with server.table.store._write() as db:
            db.execute("UPDATE games SET created = ?", (sunday_evening,))
        context = browser.new_context(locale="en-US", timezone_id="UTC")
        page = context.new_page()
        page.goto(server.url + "/history")
        assert page.locator("td.when").inner_text() == "Sun, 12/6/2026, 7:45 PM"
        context.close()


@pytest.mark.browser
def test_a_game_started_on_a_clock_never_set_is_not_said_to_be_from_1970(
        browser: Any, tmp_path: Path) -> None:
    """A Pi with no saved time and no network starts in 1970 and stays there: the history
    said its games were started on "Thu, 1/1/1970, 12:05 AM" (found by a clock audit)."""
    sunday_evening = 1796586300.0            # Sunday 2026-12-06, 19:45 UTC
    with LiveServer(tmp_path / "data") as server:
        for started in (sunday_evening, 300.0):      # 300 s into 1970
            server.table.new_game("sum_chicago", ["Aino", "Bertil"])
            with server.table.store._write() as db:
                db.execute("UPDATE games SET created = ? WHERE id = ?",
                           (started, server.table.game_id))
        context = browser.new_context(locale="en-US", timezone_id="UTC")
        page = context.new_page()
        page.goto(server.url + "/history")
        past = page.locator("table.list").last       # the first lists the unfinished
        started_as = past.locator("td:nth-child(4)").all_inner_texts()
        assert started_as == ["not known: the clock was not set", "Sun, 12/6/2026, 7:45 PM"]
        context.close()


def test_continue_tapped_offline_on_the_history_page_says_the_table_did_not_answer(
        browser: Any, tmp_path: Path) -> None:
    """Offline, Continue did nothing to be seen: no message, no new page."""
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        first = server.table.game_id
        server.table.new_game("sum_chicago", ["Cecilia"])
        context = browser.new_context()
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())   # leave Cecilia's game: yes
        page.goto(server.url + "/history")
        context.set_offline(True)
        page.locator(f"[data-continue='{first}']").first.click()
        said = page.wait_for_selector("#continueerror:visible", timeout=10_000).inner_text()
        assert said.startswith("The table did not answer (no connection)"), said
        assert server.table.game_id != first
        context.close()
