"""Sum Chicago's starter found by each throwing one die (RULES.md §1), over the JSON API."""
from __future__ import annotations

from typing import Any

import pytest

from web.fakes import reading

FAMILY = ["Aino", "Bertil", "Cecilia"]


def names(state: dict[str, Any]) -> list[str]:
    return [p["name"] for p in state["game"]["players"]]


def throw(api: Any, *values: int) -> dict[str, Any]:
    s: dict[str, Any] = {}
    for value in values:
        s = api.post("draw/throw", {"value": value})
    return s


def dice_shown(state: dict[str, Any], round_index: int = 0) -> dict[str, Any]:
    return {t["player"]: t["value"] for t in state["draw"]["rounds"][round_index]["throws"]}


def test_a_draw_is_not_a_game_until_its_starter_is_found(api: Any) -> None:
    s = api.post("draw", {"family": "sum_chicago", "players": "Aino, Bertil, Cecilia"})
    assert s["game"] is None and s["draw"]["thrower"] == "Aino"
    s = throw(api, 3, 5, 5)                       # Bertil and Cecilia tie at 5
    assert dice_shown(s) == {"Aino": 3, "Bertil": 5, "Cecilia": 5}
    assert s["draw"]["rounds"][0]["tied"] == ["Bertil", "Cecilia"]
    assert s["draw"]["thrower"] == "Bertil" and s["draw"]["starter"] is None
    s = throw(api, 2, 4)                          # only they throw again; Cecilia wins
    assert dice_shown(s, 1) == {"Bertil": 2, "Cecilia": 4}
    assert s["draw"]["starter"] == "Cecilia" and s["draw"]["thrower"] is None
    assert s["draw"]["seating"] == ["Cecilia", "Aino", "Bertil"]
    assert s["game"] is None and api.client.get("/api/games").get_json() == []
    s = api.post("draw/start-game")
    assert s["draw"] is None
    assert names(s) == ["Cecilia", "Aino", "Bertil"] and s["game"]["next"]["player"] == "Cecilia"


def test_the_drawn_game_is_the_game_the_rotated_list_typed_would_be(api: Any) -> None:
    options = {"order": "descending", "throws": 2}
    api.post("draw", {"family": "sum_chicago", "players": FAMILY, "options": options})
    throw(api, 1, 6, 2)
    drawn = api.post("draw/start-game")
    typed = api.post("games", {"family": "sum_chicago", "players": ["Bertil", "Cecilia", "Aino"],
                               "options": options})
    files = [api.client.get(f"/api/games/{s['table']['game_id']}/file").get_json()
             for s in (drawn, typed)]
    assert files[0] == files[1]                   # the draw is no game action
    assert files[0]["actions"] == [] and files[0]["players"] == ["Bertil", "Cecilia", "Aino"]
    assert drawn["game"]["target"] == 12


def test_a_camera_reading_of_one_die_is_the_throw_of_whoever_throws_now(api: Any) -> None:
    api.post("draw", {"players": FAMILY})
    api.table.handle_reading(reading(4))
    s = api.state()
    assert dice_shown(s) == {"Aino": 4, "Bertil": None, "Cecilia": None}
    assert s["draw"]["thrower"] == "Bertil" and s["draw"]["note"] is None


@pytest.mark.parametrize("dice, flagged, words", [
    ((4, 5), (), "2 dice in the tray, 1 expected"),
    ((), (), "0 dice in the tray, 1 expected"),
    ((4,), (0,), "die 1: low confidence"),
    ((None,), (), "die 1: low confidence"),
])
def test_a_camera_reading_of_other_than_one_sure_die_is_not_counted(
        api: Any, dice: tuple[int | None, ...], flagged: tuple[int, ...], words: str) -> None:
    api.post("draw", {"players": FAMILY})
    throw(api, 4)
    api.table.handle_reading(reading(*dice, flagged=flagged))
    s = api.state()
    assert dice_shown(s) == {"Aino": 4, "Bertil": None, "Cecilia": None}
    assert s["draw"]["thrower"] == "Bertil"
    assert s["draw"]["note"].startswith("Bertil: throw one die") and words in s["draw"]["note"]
    s = throw(api, 2)                             # entered by hand instead: the note goes
    assert s["draw"]["note"] is None and s["draw"]["thrower"] == "Cecilia"


def test_a_reading_after_the_starter_is_found_is_not_counted(api: Any) -> None:
    api.post("draw", {"players": FAMILY})
    before = throw(api, 6, 1, 2)["draw"]
    api.table.handle_reading(reading(3, 4))       # Aino's first throw, before the game began
    s = api.state()
    assert s["game"] is None
    assert {k: v for k, v in s["draw"].items() if k != "note"} == \
        {k: v for k, v in before.items() if k != "note"}
    assert "Aino starts: start the game" in s["draw"]["note"]


def test_while_a_draw_runs_the_game_before_is_left_alone(api: Any) -> None:
    api.start()
    api.post("roll", {"dice": [1, 1]})
    api.post("draw", {"players": FAMILY})
    game_before = api.state()["game"]
    api.table.handle_reading(reading(1, 2))       # not Bertil's throw in the old game
    for path, body in (("roll", {"dice": [1, 2]}), ("undo", {}), ("join", {"player": "Daniel"}),
                       ("games", {"players": FAMILY})):
        out = api.post(path, body, status=409)
        assert "a draw for the starting player is under way" in out["error"]
    s = api.state()
    assert s["game"] == game_before and s["draw"]["thrower"] == "Aino"
    s = api.post("draw/cancel")                   # back to the start form, the old game kept
    assert s["draw"] is None and s["game"] == game_before
    assert len(api.client.get("/api/games").get_json()) == 1


def test_the_latest_throw_is_taken_back_with_one_tap(api: Any) -> None:
    api.post("draw", {"players": FAMILY})
    s = throw(api, 2, 6, 1)
    assert s["draw"]["starter"] == "Bertil" and s["draw"]["last"] == {"player": "Cecilia", "value": 1}
    s = api.post("draw/take-back")                # Cecilia's die was misread
    assert s["draw"]["starter"] is None and s["draw"]["thrower"] == "Cecilia"
    s = throw(api, 6)
    assert s["draw"]["rounds"][0]["tied"] == ["Bertil", "Cecilia"]


def test_each_change_of_the_draw_is_published_with_a_new_revision(api: Any) -> None:
    revisions = [api.post("draw", {"players": FAMILY})["revision"]]
    revisions.append(throw(api, 3)["revision"])
    api.table.handle_reading(reading(5))
    revisions.append(api.state()["revision"])
    revisions.append(api.post("draw/take-back")["revision"])
    revisions.append(api.post("draw/cancel")["revision"])
    assert revisions == sorted(set(revisions))
    assert api.table.publisher.latest_state()[0] == revisions[-1]


def test_the_start_form_remembers_the_draw_was_chosen(api: Any) -> None:
    api.post("draw", {"players": "Aino, Bertil"})
    assert api.client.get("/api/settings").get_json() == {
        "family": "sum_chicago", "players": ["Aino", "Bertil"], "starter": "draw"}


@pytest.mark.parametrize("setup, path, body, status, words", [
    ([], "draw", {"family": "pub_chicago", "players": FAMILY}, 400, "only Sum Chicago"),
    ([], "draw", {"family": "card_chicago", "players": FAMILY}, 400, "only Sum Chicago"),
    ([], "draw", {"players": ["Aino"]}, 400, "two players or more"),
    ([], "draw", {"players": ["Aino", "Aino"]}, 400, "names must be unique"),
    ([], "draw", {"players": FAMILY, "options": {"dice": 7}}, 400, "options.dice"),
    ([], "draw", {"family": "sum_chicago"}, 400, "missing 'players'"),
    ([], "draw/throw", {"value": 3}, 409, "no draw"),
    ([], "draw/take-back", {}, 409, "no draw"),
    ([], "draw/cancel", {}, 409, "no draw"),
    ([], "draw/start-game", {}, 409, "no draw"),
    (["draw"], "draw", {"players": FAMILY}, 409, "under way"),
    (["draw"], "draw/throw", {}, 400, "missing 'value'"),
    (["draw"], "draw/throw", {"value": 7}, 400, "Aino's throw 7: a die shows 1 to 6"),
    (["draw"], "draw/throw", {"value": "3"}, 400, "a die shows 1 to 6"),
    (["draw"], "draw/throw", {"value": True}, 400, "a die shows 1 to 6"),
    (["draw"], "draw/throw", {"value": 3, "player": "Bertil"}, 409, "Aino's throw"),
    (["draw"], "draw/take-back", {}, 409, "no throw to take back"),
    (["draw"], "draw/start-game", {}, 409, "nobody starts yet"),
    (["draw", 6, 1, 1], "draw/throw", {"value": 4}, 409, "Aino starts already"),
    (["draw"], "draw/cancel", {"draw": "1"}, 400, "'draw' is the id of the draw shown"),
    (["draw"], "draw/start-game", {"draw": True}, 400, "'draw' is the id of the draw shown"),
])
def test_bad_draw_requests_say_why_and_change_nothing(
        api: Any, setup: list[Any], path: str, body: dict[str, Any], status: int,
        words: str) -> None:
    for step in setup:
        if step == "draw":
            api.post("draw", {"players": FAMILY})
        else:
            throw(api, step)
    before = api.state()
    out = api.post(path, body, status=status)
    assert words in out["error"]
    assert api.state() == before


def test_a_malformed_draw_request_is_a_bad_request(api: Any) -> None:
    api.post("draw", {"players": FAMILY})
    before = api.state()
    out = api.post("draw/throw", raw="{not json", status=400)
    assert "malformed JSON" in out["error"] and api.state() == before


def test_a_draw_is_gone_after_a_restart_and_the_game_before_it_stays(data_dir: Any) -> None:
    # A screen that showed the draw gets this state on reconnecting: every event stream
    # starts with the current state (tests/web/test_sse.py).
    from web.store import Store
    from web.table import Table

    store = Store(data_dir)
    table = Table(store)
    table.new_game("sum_chicago", FAMILY)
    table.start_draw("sum_chicago", ["Dora", "Eemeli"])
    table.draw_throw(4)
    table.stop()
    store.close()
    store = Store(data_dir)
    table = Table(store)
    try:
        s = table.state()
        assert s["draw"] is None and names(s) == FAMILY
    finally:
        table.stop()
        store.close()
