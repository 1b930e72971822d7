"""Bad input gets a 4xx whose message says what was wrong, and the state is unchanged."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web.fakes import reading

# (route, body or raw text, a word the message must contain)
BAD = [
    ("roll", "{not json", "malformed JSON"),
    ("roll", "[1, 2]", "JSON object"),
    ("action", "[" * 20_000 + "]" * 20_000, "nested too deeply"),
    ("action", '{"type": "roll", "player": "Aino", "dice": [1, 1], "x": "' + "a" * 70_000 + '"}',
     "the request body is over 64 KB"),
    ("action", '{"type": "roll", "player": "Aino", "dice": [1, 1], "at": NaN}',
     "NaN is not a JSON value"),
    ("action", '{"type": "roll", "player": "Aino", "dice": [1, 1], "at": -Infinity}',
     "-Infinity is not a JSON value"),
    # Python's reader keeps the last of a key given twice, without a word.
    ("action", '{"type": "roll", "player": "Aino", "player": "Bertil", "dice": [1, 1]}',
     "the key 'player' twice in one object"),
    ("roll", '{"dice": [1, 1%s]}' % ("0" * 5000), "a number of 5001 digits"),
    # Python reads 1e400 as infinity: kept in the log, the game's file then held Infinity,
    # which no JSON reader (dicetray replay neither) takes.
    ("action", '{"type": "roll", "player": "Aino", "dice": [1, 1], "at": 1e400}',
     "the number 1e400 is too big"),
    ("action", '{"type": "roll", "player": "Aino", "dice": [1, 1], "at": -2E+999}',
     "the number -2E+999 is too big"),
    ("roll", {}, "'dice'"),
    ("roll", {"dice": [7, 1]}, "die value 7"),
    ("roll", {"dice": [0, 1]}, "die value 0"),
    ("roll", {"dice": "66"}, "dice"),
    ("roll", {"dice": [1, 2, 3]}, "2 dice"),
    ("roll", {"dice": [1, 1], "player": "Zed"}, "unknown player 'Zed'"),
    ("roll", {"dice": [1, 1], "player": "Bertil"}, "Aino's throw"),
    # A misspelt field would be left out unseen, and the throw scored for whoever's turn.
    ("roll", {"dice": [1, 1], "playr": "Bertil"},
     "/api/roll takes no field 'playr' (its fields: 'dice', 'player', 'actions', 'game')"),
    ("undo", {"action": 3}, "/api/undo takes no field 'action' (its fields: 'actions', 'game')"),
    ("join", {"name": "Dora"}, "/api/join takes no field 'name'"),
    ("correct", {"action": 5, "dice": [1, 1]}, "no action 5"),
    ("correct", {"action": 0, "dice": [1, 9]}, "die value 9"),
    ("correct", {"reading": 42, "die": 0, "value": 3}, "no reading 42"),
    ("correct", {"reading": "x", "die": 0, "value": 3}, "reading id"),
    ("correct", {"reading": 1, "die": 5, "value": 3}, "dice 0..1"),
    ("correct", {"reading": 1, "die": 0, "value": 7}, "1..6"),
    ("correct", {"reading": 1, "die": 0, "value": True}, "1..6"),
    ("correct", {}, "a correction needs"),
    ("correct", {"reading": 1, "remove": 0}, "only a waiting reading can have a die taken away"),
    ("correct", {"reading": 1, "add": 3}, "only a waiting reading can have a die added"),
    ("correct", {"reading": 10**30, "die": 0, "value": 3}, "no reading 10000"),
    ("correct", {"reading": 2**63, "remove": 0}, "no reading 9223372036854775808"),
    ("correct", {"reading": -2**63 - 1, "add": 3}, "no reading -9223372036854775809"),
    ("correct", {"action": 10**30, "dice": [1, 1]}, "no action 10000"),
    ("confirm", {"reading": 10**30}, "no reading 10000"),
    ("confirm", {"reading": 1}, "not waiting"),
    ("confirm", {}, "'reading'"),
    ("join", {"player": "Aino"}, "already in the game"),
    ("join", {"player": ""}, "1 to 40 characters"),
    ("join", {"player": 5}, "player"),
    ("leave", {"player": "Zed"}, "unknown player"),
    ("games", {"family": "yahtzee", "players": ["A"]}, "family"),
    ("games", {"players": []}, "players"),
    ("games", {"players": ["A", "A"]}, "unique"),
    ("games", {"players": ["A"], "options": {"dice": 4}}, "options.dice"),
    ("games", {"players": ["A"], "options": {"colour": "red"}}, "unknown option"),
    ("games", {"players": ["A"], "options": []}, "options"),
    ("action", {"type": "bank", "player": "Aino"}, "unknown action type"),
]


@pytest.fixture
def game_with_reading(api: Any) -> Any:
    api.start()
    api.table.handle_reading(reading(3, 4))     # reading 1, scored as action 0 for Aino
    api.post("undo")                             # so it is Aino's throw again
    return api


@pytest.mark.parametrize("route,body,words", BAD, ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(BAD)])
def test_bad_input_is_4xx_with_a_message_and_changes_nothing(
        game_with_reading: Any, route: str, body: Any, words: str) -> None:
    api = game_with_reading
    before = api.state()
    raw = body if isinstance(body, str) else json.dumps(body)
    out = api.post(route, raw=raw, status=None)
    assert 400 <= out["_status"] < 500, out
    assert words in out["error"], out["error"]
    assert api.state() == before


# A request of the wrong shape is the request's fault: 400, not the 409 of a conflict
# with the game (a throw that is not expected, a correction the rules refuse).
WRONG_SHAPE = [
    ("correct", {"action": "x", "dice": [1, 1]}, "'action' must be the log index"),
    ("correct", {"action": True, "dice": [1, 1]}, "'action' must be the log index"),
    ("correct", {"action": 0, "dice": "11"}, "'dice' must be a list"),
    ("roll", {"dice": "66"}, "'dice' must be a list"),
    ("roll", {"dice": {"a": 1}}, "'dice' must be a list"),
]


@pytest.mark.parametrize("route,body,words", WRONG_SHAPE)
def test_a_request_of_the_wrong_shape_is_400(
        game_with_reading: Any, route: str, body: Any, words: str) -> None:
    api = game_with_reading
    before = api.state()
    out = api.post(route, body, status=400)
    assert words in out["error"], out["error"]
    assert api.state() == before


def test_an_action_with_a_deeply_nested_extra_key_is_refused_and_play_goes_on(
        game_with_reading: Any) -> None:
    # An extra key (GAMEFILE.md allows them) nested 500 deep fit in a request; the action
    # was stored, then copying it into the game ran out of recursion: a 500, and every
    # later throw was refused (its place in the log was taken) until a restart.
    api = game_with_reading
    before = api.state()
    raw = '{"type": "roll", "player": "Aino", "dice": [1, 1], "at": ' + "[" * 500 + "]" * 500 + "}"
    out = api.post("action", raw=raw, status=400)
    assert "nested too deeply" in out["error"] and "at at[0]" in out["error"], out["error"]
    assert api.state() == before
    after = api.post("roll", {"dice": [2, 3]})
    assert after["game"]["next"]["player"] == "Bertil"     # Aino's throw was scored


def test_a_body_that_is_not_utf8_is_refused(game_with_reading: Any) -> None:
    # Latin-1 "Jän": the byte that is no UTF-8 was read as U+FFFD, and "J\ufffdn" joined.
    api = game_with_reading
    before = api.state()
    resp = api.client.post("/api/join", data='{"player": "J\xe4n"}'.encode("latin-1"),
                           content_type="application/json")
    assert resp.status_code == 400, resp.get_data(as_text=True)
    assert "UTF-8" in resp.get_json()["error"]
    assert api.state() == before


@pytest.mark.parametrize("path,data,kind", [
    ("undo", b"", "application/x-www-form-urlencoded"),   # a form with no field
    ("undo", b"", None),                                   # fetch() with no body, no-cors
    ("action", b'{"type": "undo", "x": "="}', "text/plain"),  # a form sending text
    ("roll", b'{"dice": [6, 6]}', "multipart/form-data; boundary=x"),
])
def test_a_post_not_sent_as_json_is_refused(api: Any, path: str, data: bytes,
                                            kind: str | None) -> None:
    # A page of any other site can send these without the browser asking the table
    # first (a JSON request it must ask about): such a page took back the camera's throw.
    api.start()
    api.table.handle_reading(reading(3, 4))
    before = api.state()
    resp = api.client.post(f"/api/{path}", data=data, headers={"Content-Type": kind} if kind else {})
    assert resp.status_code == 415, resp.get_data(as_text=True)
    assert "Content-Type: application/json" in resp.get_json()["error"]
    assert api.state() == before


def test_a_correction_the_rules_refuse_is_409(game_with_reading: Any) -> None:
    out = game_with_reading.post("correct", {"action": 5, "dice": [1, 1]}, status=409)
    assert "no action 5" in out["error"]


def test_a_roll_when_none_is_expected(api: Any) -> None:
    out = api.post("roll", {"dice": [1, 1]}, status=409)
    assert "no game in progress" in out["error"]
    api.start(["Aino"], rounds="low")
    for _ in range(6):
        api.post("roll", {"dice": [1, 1]})
    before = api.state()
    out = api.post("roll", {"dice": [1, 1]}, status=409)
    assert "no throw is expected" in out["error"] and "game is over" in out["error"]
    out = api.post("roll", {"dice": [1, 1], "player": "Aino"}, status=409)
    assert "the game is over" in out["error"]
    assert api.state() == before


def test_unknown_route_and_method_answer_json(api: Any) -> None:
    resp = api.client.post("/api/nothing", data="{}")
    assert resp.status_code == 404 and "error" in resp.get_json()
    resp = api.client.get("/api/roll")
    assert resp.status_code == 405 and "error" in resp.get_json()


def test_an_id_too_big_for_the_database_is_not_found(game_with_reading: Any) -> None:
    # SQLite's integers are 64-bit; a bigger id in the path names nothing.
    for path in ("/api/games/99999999999999999999999/file",
                 "/api/readings/99999999999999999999999/picture.jpg"):
        resp = game_with_reading.client.get(path)
        assert resp.status_code == 404, (path, resp.get_data(as_text=True))
        assert "99999999999999999999999" in resp.get_json()["error"]


ROUTES = ["games", "roll", "correct", "confirm", "undo", "roll-for-me", "join", "leave", "action",
          "tray", "empty-tray", "die-size", "forget-pictures", "forget-known-dice", "continue",
          "take-dice-out",
          "draw", "draw/throw", "draw/take-back", "draw/cancel", "draw/start-game"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=5)
    | st.sampled_from([2**63, -2**63 - 1, 10**30, 1.5, 1e308])
    | st.sampled_from(["Aino", "Bertil", "sum_chicago", "roll", "undo"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "player", "dice", "reading", "die", "value", "action",
                         "players", "family", "options", "game", "x"]), inner, max_size=4),
    max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), body=json_values)
def test_no_route_answers_500(game_with_reading: Any, route: str, body: Any) -> None:
    out = game_with_reading.post(route, raw=json.dumps(body), status=None)
    assert out["_status"] < 500, out
    if out["_status"] >= 400:
        assert out["error"]


def test_every_action_route_is_in_the_random_requests(game_with_reading: Any) -> None:
    rules = game_with_reading.client.application.url_map.iter_rules()
    posted = {r.rule.removeprefix("/api/") for r in rules if "POST" in (r.methods or ())}
    assert posted == set(ROUTES)


def test_the_strict_reader_s_examples_hold() -> None:
    import doctest

    import vision.json_text

    result = doctest.testmod(vision.json_text)
    assert result.attempted >= 1 and result.failed == 0
