"""A throw entered by hand is put right as a camera's throw is: the tray shows it, and a
tap on a die sends a ``correct`` of its roll, guarded as every tap is (the game and its
number of actions shown, the dice shown). The game file keeps the same ``correct`` a
camera throw's tap writes, so it replays as the table counted it."""
from __future__ import annotations

from typing import Any

import pytest

import scorer
from web.fakes import reading

# A throw entered wrongly, the one die the family taps, and the value it really shows.
FAMILIES = [
    ("sum_chicago", [1, 2], 1, 1),                # Aino's 1 + 1 hits round 1's 2
    ("pub_chicago", [2, 3, 4], 0, 1),
    ("ten_thousand", [2, 3, 4, 6, 6, 2], 0, 1),   # a farkle until the 2 is a 1
]


def start(api: Any, family: str) -> int:
    state = api.post("games", {"family": family, "players": ["Aino", "Bertil"]})
    game_id: int = state["table"]["game_id"]
    return game_id


def tap(api: Any, state: dict[str, Any], die: int, value: int, **changes: Any) -> dict[str, Any]:
    """The control page's request for a die of the hand-entered throw ``state`` shows."""
    shown = state["hand_throw"]
    dice = [value if i == die else v for i, v in enumerate(shown["dice"])]
    return {"action": shown["action"], "dice": dice, "seen": shown["dice"],
            "actions": state["game"]["actions"], "game": state["table"]["game_id"], **changes}


@pytest.mark.parametrize("family, entered, die, value", FAMILIES)
def test_a_die_of_a_throw_entered_by_hand_is_corrected_with_one_tap(
        api: Any, family: str, entered: list[int], die: int, value: int) -> None:
    game_id = start(api, family)
    state = api.post("roll", {"dice": entered})
    assert state["hand_throw"] == {"action": 0, "player": "Aino", "dice": entered}
    after = api.post("correct", tap(api, state, die, value))
    fixed = [value if i == die else v for i, v in enumerate(entered)]
    assert after["hand_throw"] == {"action": 0, "player": "Aino", "dice": fixed}
    # The game file holds the game file's own correction, and replays as the table counts.
    file = api.client.get(f"/api/games/{game_id}/file").get_json()
    assert file["actions"][-1] == {"type": "correct", "action": 0, "dice": fixed}
    replayed = scorer.load_game(file).state()
    assert replayed["players"] == after["game"]["players"]
    assert replayed["next"] == after["game"]["next"]


def test_the_corrected_throw_scores_as_it_really_fell(api: Any) -> None:
    start(api, "sum_chicago")
    state = api.post("roll", {"dice": [1, 2]})                 # entered as a miss
    after = api.post("correct", tap(api, state, 1, 1))
    assert [p["score"] for p in after["game"]["players"]] == [2, 0]
    assert after["game"]["last_roll"]["dice"] == [1, 1]


def test_a_10000_throw_entered_as_a_farkle_gives_the_turn_back(api: Any) -> None:
    start(api, "ten_thousand")
    state = api.post("roll", {"dice": [2, 3, 4, 6, 6, 2]})
    assert state["game"]["next"]["player"] == "Bertil"        # a farkle ended the turn
    after = api.post("correct", tap(api, state, 0, 1))
    assert after["game"]["next"]["player"] == "Aino"
    assert "set_aside" in after["game"]["next"]["actions"]


@pytest.mark.parametrize("changes, says", [
    ({"seen": [1, 1]}, "changed on another screen"),
    ({"actions": 0}, "the game changed meanwhile"),
    ({"game": 99}, "another game was started meanwhile"),
])
def test_a_tap_on_a_hand_throw_another_screen_changed_is_refused(
        api: Any, changes: dict[str, Any], says: str) -> None:
    start(api, "sum_chicago")
    state = api.post("roll", {"dice": [1, 2]})
    before = api.state()
    out = api.post("correct", tap(api, state, 1, 3, **changes), status=409)
    assert says in out["error"], out["error"]
    assert api.state() == before


def test_the_tray_shows_the_latest_throw_however_it_came_in(api: Any) -> None:
    start(api, "sum_chicago")
    api.table.handle_reading(reading(3, 4))                    # Aino's, by the camera
    assert api.state()["hand_throw"] is None
    state = api.post("roll", {"dice": [5, 6]})                 # Bertil's, by hand
    assert state["hand_throw"] == {"action": 1, "player": "Bertil", "dice": [5, 6]}
    # Taken back, the hand throw leaves the camera's throw before it to tap.
    state = api.post("undo")
    assert state["hand_throw"] is None
    assert state["reading"]["status"] == "scored" and state["reading"]["action"] == 0


def test_a_camera_throw_waiting_for_a_tap_is_shown_before_a_hand_throw(api: Any) -> None:
    start(api, "sum_chicago")
    api.post("roll", {"dice": [5, 6]})
    api.table.handle_reading(reading(2, 2, flagged=[0]))       # Bertil's, to be checked
    state = api.state()
    assert state["hand_throw"] is None and state["reading"]["status"] == "waiting"
