"""Two screens, one tap: a tap made on a screen that had not yet been told of another
screen's change is refused (409, saying so) and changes nothing, where doing it would do
something else than what the person saw (the same change twice, or another one)."""
from __future__ import annotations

from typing import Any

import pytest

from web.fakes import reading


def refused(api: Any, route: str, body: dict[str, Any], says: str) -> None:
    before = api.state()
    out = api.post(route, body, status=409)
    assert says in out["error"], out["error"]
    after = api.state()
    assert after == before


def test_an_earlier_throw_corrected_twice_is_corrected_once(api: Any) -> None:
    api.start(["Aino", "Bertil"])
    api.table.handle_reading(reading(3, 4))
    shown = api.state()["game"]["actions"]
    api.post("correct", {"action": 0, "dice": [1, 1], "actions": shown})
    assert api.state()["game"]["players"][0]["score"] == 2       # round 1: target 2
    refused(api, "correct", {"action": 0, "dice": [1, 1], "actions": shown},
            "the game changed meanwhile")
    # So one Undo takes the correction back, as the person who tapped it expects.
    api.post("undo", {"actions": shown + 1})
    assert api.state()["game"]["players"][0]["score"] == 0


def test_a_waiting_throw_changed_on_another_screen_is_not_confirmed_unseen(api: Any) -> None:
    api.start(["Aino", "Bertil"])
    api.table.handle_reading(reading(6, 4, flagged=[0, 1]))
    waiting = api.state()["reading"]
    assert waiting["status"] == "waiting"
    seen = [d["value"] for d in waiting["dice"]]
    api.post("correct", {"reading": waiting["id"], "die": 1, "value": 1, "seen": seen})
    assert api.state()["reading"]["status"] == "waiting"        # die 0 is still unsure
    refused(api, "confirm", {"reading": waiting["id"], "seen": seen},
            f"the dice of reading {waiting['id']} changed on another screen")
    now = [d["value"] for d in api.state()["reading"]["dice"]]
    api.post("confirm", {"reading": waiting["id"], "seen": now})
    assert api.state()["game"]["last_roll"]["dice"] == [6, 1]


def test_a_draw_throw_taken_back_on_two_screens_is_taken_back_once(api: Any) -> None:
    api.post("draw", {"family": "sum_chicago", "players": ["Ann", "Bob", "Cy"], "after": None})
    api.post("draw/throw", {"value": 3})
    api.post("draw/throw", {"value": 5})
    shown = api.state()["draw"]["throws"]
    assert shown == 2
    api.post("draw/take-back", {"throws": shown})
    refused(api, "draw/take-back", {"throws": shown}, "the draw changed on another screen")
    assert api.state()["draw"]["last"] == {"player": "Ann", "value": 3}


def test_a_draw_started_over_a_game_another_screen_just_started_is_refused(api: Any) -> None:
    api.post("games", {"family": "sum_chicago", "players": ["Ann", "Bob"], "after": None})
    refused(api, "draw", {"family": "sum_chicago", "players": ["Ann", "Bob"], "after": None},
            "was started just now, on this screen or another")


def _drawn_to_a_starter(api: Any, players: list[str]) -> dict[str, Any]:
    """A draw begun for ``players`` and thrown until the first of them starts."""
    api.post("draw", {"family": "sum_chicago", "players": players})
    for value in [6] + [1] * (len(players) - 1):
        api.post("draw/throw", {"value": value})
    draw: dict[str, Any] = api.state()["draw"]
    return draw


def test_a_draw_cancel_sent_again_does_not_cancel_a_draw_begun_since(api: Any) -> None:
    first = api.post("draw", {"family": "sum_chicago", "players": ["Ann", "Bob"]})["draw"]
    api.post("draw/cancel", {"draw": first["id"]})        # its answer lost on the way
    second = api.post("draw", {"family": "sum_chicago", "players": ["Cy", "Dee"]})["draw"]
    assert second["id"] != first["id"]
    before = api.state()
    out = api.post("draw/cancel", {"draw": first["id"]}, status=409)
    assert "another draw was begun meanwhile" in out["error"]
    assert out["plain"] == ("another draw for who starts was begun meanwhile, on this screen "
                            "or another: nothing was done; look again and tap again if it is "
                            "still wanted")
    assert api.state() == before and before["draw"]["players"] == ["Cy", "Dee"]


def test_start_the_game_sent_again_does_not_start_a_draw_begun_since(api: Any) -> None:
    first = _drawn_to_a_starter(api, ["Ann", "Bob"])
    api.post("draw/start-game", {"draw": first["id"], "throws": first["throws"]})
    second = _drawn_to_a_starter(api, ["Cy", "Dee"])
    assert second["throws"] == first["throws"]          # the throws alone cannot tell
    refused(api, "draw/start-game", {"draw": first["id"], "throws": first["throws"]},
            "another draw was begun meanwhile")
    assert api.state()["draw"]["starter"] == "Cy"
    games = api.client.get("/api/games").get_json()
    assert [g["players"] for g in games] == [["Ann", "Bob"]]


@pytest.mark.parametrize(("route", "body"), [
    ("draw/throw", {"value": 4}),
    ("draw/take-back", {}),
])
def test_a_draw_tap_made_on_a_draw_that_is_over_is_refused(
        api: Any, route: str, body: dict[str, Any]) -> None:
    first = api.post("draw", {"family": "sum_chicago", "players": ["Ann", "Bob"]})["draw"]
    api.post("draw/cancel", {"draw": first["id"]})
    api.post("draw", {"family": "sum_chicago", "players": ["Cy", "Dee"]})
    api.post("draw/throw", {"value": 3})
    refused(api, route, body | {"draw": first["id"]}, "another draw was begun meanwhile")


def test_a_draw_tap_sent_again_once_the_draw_is_over_says_so_plainly(api: Any) -> None:
    drawn = _drawn_to_a_starter(api, ["Ann", "Bob"])
    api.post("draw/start-game", {"draw": drawn["id"], "throws": drawn["throws"]})
    for route in ("draw/start-game", "draw/cancel"):
        out = api.post(route, {"draw": drawn["id"]}, status=409)
        assert out["plain"] == ("the draw for who starts is over: it was cancelled, or its "
                                "game started, on this screen or another")


def test_a_game_continued_from_a_stale_history_page_is_refused(api: Any) -> None:
    api.start(["Aino", "Bertil"])
    first = api.state()["table"]["game_id"]
    api.post("games", {"family": "sum_chicago", "players": ["Ann", "Bob"], "after": first})
    second = api.state()["table"]["game_id"]
    api.post("games", {"family": "sum_chicago", "players": ["Cy", "Dee"], "after": second})
    # A history page made while the second game was played continues the first.
    refused(api, "continue", {"game": first, "after": second},
            "was started just now, on this screen or another")
    api.post("continue", {"game": first, "after": api.state()["table"]["game_id"]})
    assert api.state()["table"]["game_id"] == first


# -- the pages send what they showed ------------------------------------------------------

# Each tap guarded by the game's number of actions, as the control page sends it, made on
# Aino and Bertil's game at its second action: (route, body).
TAPS_AT_TWO_ACTIONS = [
    ("undo", {"actions": 2}),
    ("roll", {"dice": [2, 2], "actions": 2}),
    ("correct", {"action": 0, "dice": [1, 1], "actions": 2}),
    ("action?actions=2&game={game}", {"type": "roll", "player": "Cy", "dice": [2, 2]}),
]


@pytest.mark.parametrize(("route", "body"), TAPS_AT_TWO_ACTIONS)
def test_a_tap_for_a_game_that_was_replaced_meanwhile_is_refused(
        api: Any, route: str, body: dict[str, Any]) -> None:
    """A tablet offline while another started a new game: its tap, made on the old game
    at two actions and held up on the way, reached the new game when that had two
    actions too, and was done there (the number of actions alone matched)."""
    api.start(["Aino", "Bertil"])
    old = api.state()["table"]["game_id"]
    api.post("roll", {"dice": [1, 1]})
    api.post("roll", {"dice": [1, 2]})
    api.post("games", {"family": "sum_chicago", "players": ["Cy", "Dee"],
                       "after": old})                      # on the other tablet
    api.post("roll", {"dice": [1, 1]})
    api.post("roll", {"dice": [2, 1]})
    assert api.state()["game"]["actions"] == 2
    new = api.state()["table"]["game_id"]
    sent = {**body, "game": old} if "?" not in route else body
    refused(api, route.format(game=old), sent,
            f"another game was started meanwhile (game {new} is being played; this "
            f"screen showed game {old})")
    api.post(route.format(game=new), {**body, "game": new} if "?" not in route else body)


@pytest.mark.parametrize("game", ["2", True, 0, None])
def test_a_game_that_is_no_number_is_refused_by_name(api: Any, game: Any) -> None:
    api.start(["Aino", "Bertil"])
    before = api.state()
    if game is None:                                       # in the address: not a number
        out = api.post("action?actions=0&game=x", {"type": "roll", "dice": [1, 1]}, status=400)
        assert "game='x' in the address" in out["error"], out["error"]
    else:
        out = api.post("undo", {"actions": 0, "game": game}, status=400)
        assert "game: the number of the game the screen showed" in out["error"], out["error"]
    assert api.state() == before


def _posted(page: Any, route: str, tap: Any) -> dict[str, Any]:
    """The JSON body ``page`` posts to /api/``route`` when ``tap`` is done."""
    import json

    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/" + route)) as req:
        tap()
    body: dict[str, Any] = json.loads(req.value.post_data or "{}")
    return body


def test_the_pages_send_what_they_showed_with_each_guarded_tap(browser: Any, tmp_path: Any) -> None:
    from web.live import LiveServer

    from waiting import wait_for

    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        first = server.table.game_id
        server.table.handle_reading(reading(6, 4, flagged=[0, 1]))
        page = browser.new_page(viewport={"width": 800, "height": 1280})
        page.goto(server.url + "/control")
        page.wait_for_selector("#confirm", state="visible")
        body = _posted(page, "confirm", lambda: page.click("#confirm"))
        assert body["seen"] == [6, 4]
        page.wait_for_selector("#undo:not([disabled])")
        body = _posted(page, "undo", lambda: page.click("#undo"))
        assert body == {"actions": 1, "game": first}

        server.table.new_game("sum_chicago", ["Cy", "Dee"])
        played = server.table.game_id
        page.once("dialog", lambda dialog: dialog.accept())   # leave Cy's game: yes
        page.goto(server.url + "/history")
        body = _posted(page, "continue", lambda: page.click(f"[data-continue='{first}']"))
        assert body == {"game": first, "after": played}
        page.wait_for_url("**/control")                 # continued: back to the control page

        server.table.start_draw("sum_chicago", ["Ann", "Bob", "Cy"])
        server.table.draw_throw(3)
        server.table.draw_throw(5)
        page.goto(server.url + "/control")
        page.wait_for_selector("#drawtakeback", state="visible")
        drawn = server.table.state()["draw"]["id"]
        body = _posted(page, "draw/take-back", lambda: page.click("#drawtakeback"))
        assert body == {"draw": drawn, "throws": 2}
        page.wait_for_selector("[data-drawvalue]")
        body = _posted(page, "draw/throw", lambda: page.click("[data-drawvalue='1']"))
        assert body == {"value": 1, "player": "Bob", "draw": drawn}
        wait_for(lambda: server.table.state()["draw"]["thrower"] == "Cy")
        server.table.draw_throw(2)                      # Cy's: Ann starts
        page.wait_for_selector("#drawstart", state="visible")
        body = _posted(page, "draw/start-game", lambda: page.click("#drawstart"))
        assert body == {"draw": drawn, "throws": 3}

        wait_for(lambda: server.table.state()["draw"] is None)     # the game started
        server.table.start_draw("sum_chicago", ["Ann", "Bob"])
        drawn = server.table.state()["draw"]["id"]
        page.wait_for_function(f"() => state && state.draw && state.draw.id === {drawn}")
        body = _posted(page, "draw/cancel", lambda: page.click("#drawcancel"))
        assert body == {"draw": drawn}
        page.close()


def test_nothing_on_the_control_page_is_tapped_before_it_knows_the_table(
        browser: Any, tmp_path: Any) -> None:
    """While the page says "Connecting…", "Confirm as read" and "Undo" knew no throw or
    action to name: a tap did nothing (a script error), and was lost."""
    from web.live import LiveServer

    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        server.table.hand_roll([3, 3])
        server.table.handle_reading(reading(6, 4, flagged=[0, 1]))
        page = browser.new_page(viewport={"width": 800, "height": 1280})
        held: list[Any] = []
        page.route("**/api/events", lambda route: held.append(route))  # the state is slow
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.goto(server.url + "/control")
        assert page.inner_text("#status") == "Connecting…"
        assert not page.is_visible("#confirm")
        box = page.locator("#undo").bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(300)
        assert posts == [] and len(server.table.game.log) == 1     # the throw stands

        for route in held:
            route.continue_()
        page.wait_for_selector("#confirm", state="visible")
        body = _posted(page, "confirm", lambda: page.click("#confirm"))
        assert body["seen"] == [6, 4]
        page.close()


def test_roll_for_me_sent_again_after_its_throw_was_scored_is_refused(data_dir: Any) -> None:
    """"Roll for me" carried nothing of what its screen showed: sent again after the
    Wi-Fi lost its answer, once the throw was scored, it threw the next player's dice."""
    from web.app import create_app
    from web.fakes import FakeCamera, FakeWatcher
    from web.store import Store
    from web.table import Table

    from conftest import Api
    from waiting import wait_for

    camera = FakeCamera()
    table = Table(Store(data_dir), camera=camera,
                  watcher_factory=lambda read: FakeWatcher(camera, read)).start()
    try:
        api = Api(create_app(table, keep_alive=0.2).test_client(), table)
        api.post("draw", {"family": "sum_chicago", "players": ["Ann", "Bob"], "after": None})
        api.post("roll-for-me", {"throws": 0})
        wait_for(lambda: api.state()["draw"]["throws"] == 1)
        refused(api, "roll-for-me", {"throws": 0}, "the draw changed on another screen")
        # A draw begun since, at as many throws, is another draw.
        first = api.state()["draw"]["id"]
        api.post("draw/cancel")
        api.post("draw", {"family": "sum_chicago", "players": ["Ann", "Bob"], "after": None})
        refused(api, "roll-for-me", {"throws": 0, "draw": first}, "another draw was begun")

        api.post("draw/cancel")
        api.post("games", {"family": "sum_chicago", "players": ["Ann", "Bob"],
                           "after": None})
        api.post("roll-for-me", {"actions": 0})
        wait_for(lambda: api.state()["game"]["actions"] == 1)
        refused(api, "roll-for-me", {"actions": 0}, "the game changed meanwhile")
        assert camera.throws.empty()                 # no die was thrown for Bob
    finally:
        table.stop()
        table.store.close()


def test_roll_for_me_on_the_control_page_says_what_its_screen_showed(
        browser: Any, tmp_path: Any) -> None:
    from web.fakes import FakeCamera
    from web.live import LiveServer

    with LiveServer(tmp_path / "data", camera=FakeCamera()) as server:
        server.table.start_draw("sum_chicago", ["Ann", "Bob"])
        server.table.draw_throw(3)
        page = browser.new_page(viewport={"width": 800, "height": 1280})
        page.goto(server.url + "/control")
        page.wait_for_selector("#drawroll", state="visible")
        assert _posted(page, "roll-for-me", lambda: page.click("#drawroll")) == {
            "draw": server.table.state()["draw"]["id"], "throws": 1}
        server.table.cancel_draw()
        server.table.new_game("sum_chicago", ["Ann", "Bob"])
        server.table.hand_roll([1, 1])
        page.wait_for_selector("#rollforme:not([disabled])")
        assert _posted(page, "roll-for-me", lambda: page.click("#rollforme")) == {
            "actions": 1, "game": server.table.game_id}
        page.close()
