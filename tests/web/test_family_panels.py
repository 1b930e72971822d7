"""10000, Pub Chicago and Card Chicago through the web app: their pages load the panel and
form scripts, every action their control forms post goes through ``/api/action``, and a
refused one answers 4xx with the engine's own message and leaves the state as it was.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import scorer

DOCS = Path(__file__).resolve().parents[2] / "docs"
STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
FAMILIES = ["ten_thousand", "pub_chicago", "card_chicago"]


def example(family: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DOCS / f"{family}.json").read_text())
    return data


def start(api: Any, family: str, players: list[str] | None = None, **options: Any) -> dict[str, Any]:
    out: dict[str, Any] = api.post("games", {"family": family, "options": options,
                                             "players": players or ["Aino", "Bertil", "Cecilia"]})
    return out


def act(api: Any, action: dict[str, Any], status: int = 200) -> dict[str, Any]:
    out: dict[str, Any] = api.post("action", action, status=status)
    return out


def refused(api: Any, action: dict[str, Any]) -> str:
    """Post an action the engine refuses: 4xx, the engine's message, no change of state."""
    before = api.state()
    game = scorer.load_game(api.client.get(f"/api/games/{before['table']['game_id']}/file").get_json())
    with pytest.raises(scorer.IllegalAction) as engine:
        game.check(action)
    out = api.post("action", action, status=None)
    assert 400 <= out["_status"] < 500, out
    assert out["error"] == str(engine.value)
    assert api.state() == before
    return str(out["error"])


# -- pages --------------------------------------------------------------------------------

@pytest.mark.parametrize("family", FAMILIES)
def test_pages_load_the_family_panel_and_form(api: Any, family: str) -> None:
    start(api, family, example(family)["players"], **example(family)["options"])
    board = api.client.get("/").get_data(as_text=True)
    control = api.client.get("/control").get_data(as_text=True)
    assert "panels.js" in board and "forms.js" in control
    for path, table in (("panels.js", None), ("scoreboard.js", "PANELS"), ("forms.js", "FORMS")):
        resp = api.client.get(f"/static/{path}")
        assert resp.status_code == 200
        text = resp.get_data(as_text=True)
        resp.close()
        if table:
            # The family has its own entry in the table (no fallback to the generic panel).
            entries = text[text.index(f"const {table} = {{"):]
            assert re.search(rf"\b{family}: \w+", entries[:entries.index("};")]), (path, family)


def keys_read(script: str, obj: str) -> set[str]:
    """The fields a panel reads from an object, e.g. every ``deal.xxx`` in panels.js."""
    return set(re.findall(rf"\b{obj}\.(\w+)", script))


@pytest.mark.parametrize("family,objects", [
    ("ten_thousand", {"game": "game", "turn": "game.turn", "lastTurn": "game.last_turn",
                      "last": "game.last_throw"}),
    ("pub_chicago", {"game": "game", "rnd": "game.round", "turn": "game.round.turn"}),
    ("card_chicago", {"game": "game", "deal": "game.deal"}),
])
def test_the_panels_read_only_fields_the_engine_gives(api: Any, family: str,
                                                      objects: dict[str, str]) -> None:
    # Played to the middle of a turn or deal, where each of these objects is filled in.
    data = example(family)
    middle = {"ten_thousand": 24, "pub_chicago": 8, "card_chicago": 30}[family]
    start(api, family, data["players"], **data["options"])
    for action in data["actions"][:middle]:
        act(api, action)
    game = api.state()["game"]
    source = (STATIC / "panels.js").read_text()
    body = source[source.index({"ten_thousand": "function tenThousandPanel",
                                "pub_chicago": "function pubChicagoPanel",
                                "card_chicago": "function cardChicagoPanel"}[family]):]
    body = body[:body.index("\n}\n")]
    for name, path in objects.items():
        value: Any = {"game": game}
        for part in path.split("."):
            value = value[part]
        assert isinstance(value, dict), path
        assert keys_read(body, name), f"the panel reads nothing from {name}"
        # Array methods and the like are not fields of the state.
        missing = keys_read(body, name) - set(value) - {"length", "map", "slice", "includes"}
        assert not missing, f"{family}: {path} has no {sorted(missing)}"


# -- every family's actions through the API -----------------------------------------------

@pytest.mark.parametrize("family", FAMILIES)
def test_the_example_game_played_through_the_api_matches_a_replay(api: Any, family: str) -> None:
    data = example(family)
    start(api, family, data["players"], **data["options"])
    for action in data["actions"]:
        s = act(api, action)
    assert s["game"] == scorer.load_game(data).state()
    assert s["game"]["finished"]


def test_ten_thousand_keep_bank_and_undo(api: Any) -> None:
    start(api, "ten_thousand", ["Aino", "Bertil"], opening=0)
    s = api.post("roll", {"dice": [1, 5, 2, 3, 4, 6]})
    choice = s["game"]["turn"]["choices"][0]                  # the form's first button
    assert choice["dice"] == [1, 2, 3, 4, 5, 6] and choice["points"] == 1500
    s = act(api, {"type": "set_aside", "player": "Aino", "dice": choice["dice"]})
    assert s["game"]["turn"]["hot_dice"] == 1 and s["game"]["next"]["dice"] == 6
    s = act(api, {"type": "bank", "player": "Aino"})
    assert s["game"]["players"][0]["score"] == 1500 and s["game"]["next"]["player"] == "Bertil"
    s = api.post("undo")
    assert s["game"]["players"][0]["score"] == 0 and "bank" in s["game"]["next"]["actions"]


def test_ten_thousand_refusals_carry_the_engines_message(api: Any) -> None:
    start(api, "ten_thousand", ["Aino", "Bertil"])
    assert "roll first" in refused(api, {"type": "bank", "player": "Aino"})
    api.post("roll", {"dice": [1, 2, 3, 4, 6, 6]})
    assert "does not score" in refused(api, {"type": "set_aside", "player": "Aino", "dice": [2]})
    refused(api, {"type": "set_aside", "player": "Bertil", "dice": [1]})
    refused(api, {"type": "bank", "player": "Aino"})


def test_pub_chicago_started_with_a_lot_has_its_first_leader_drawn_by_the_table(
        api: Any) -> None:
    # RULES.md §2: "The leader of the very first throw round is drawn by lot (the app draws)."
    leaders = set()
    for seed in range(12):
        api.table.lot = random.Random(seed)
        s = api.post("games", {"family": "pub_chicago", "players": ["Aino", "Bertil", "Cecilia"],
                               "leader": "lot"})
        assert s["game"]["leader_drawn"]        # the control page offers no second draw
        leaders.add(s["game"]["round"]["leader"])
        assert s["game"]["next"]["player"] == s["game"]["round"]["leader"]
    assert leaders == {"Aino", "Bertil", "Cecilia"}
    game_file = api.client.get(f"/api/games/{s['table']['game_id']}/file").get_json()
    assert game_file["actions"] == [{"type": "leader", "player": s["game"]["round"]["leader"]}]


class Lots:
    """A lot that falls on each player in turn: every new draw differs from the one before."""

    def __init__(self) -> None:
        self.drawn = 0

    def choice(self, names: Any) -> Any:
        self.drawn += 1
        return names[self.drawn % len(names)]


def test_a_drawn_leader_taken_back_by_undo_is_drawn_the_same_again(api: Any) -> None:
    # Undo puts a tap right; it must not let anyone draw the lot again until it falls
    # their way: the draw asked for again gives the same leader back.
    api.table.lot = Lots()
    s = api.post("games", {"family": "pub_chicago", "players": ["Aino", "Bertil", "Cecilia"],
                           "leader": "lot"})
    first = s["game"]["round"]["leader"]
    for _ in range(3):
        s = api.post("undo")
        assert not s["game"]["leader_drawn"] and "leader" in s["game"]["next"]["actions"]
        s = act(api, {"type": "leader", "lot": True})         # the control page's button
        assert s["game"]["round"]["leader"] == first and s["game"]["leader_drawn"]
    game_file = api.client.get(f"/api/games/{s['table']['game_id']}/file").get_json()
    assert game_file["actions"][-1] == {"type": "leader", "player": first}


def test_a_lot_asked_for_in_a_game_that_never_drew_is_the_tables_draw(api: Any) -> None:
    api.table.lot = Lots()
    api.post("games", {"family": "pub_chicago", "players": ["Aino", "Bertil", "Cecilia"]})
    s = act(api, {"type": "leader", "lot": True})
    assert s["game"]["round"]["leader"] == "Bertil" and api.table.lot.drawn == 1


@pytest.mark.parametrize("body", [{"family": "sum_chicago", "leader": "lot"},
                                  {"family": "pub_chicago", "leader": "Aino"}])
def test_a_first_leader_by_lot_is_asked_of_pub_chicago_alone(api: Any, body: dict[str, Any]
                                                              ) -> None:
    before = api.state()
    out = api.post("games", {"players": ["Aino", "Bertil"], **body}, status=400)
    assert "'leader' is \"lot\"" in out["error"]
    assert api.state() == before


def test_pub_chicago_leader_set_aside_sixes_done_and_announce(api: Any) -> None:
    start(api, "pub_chicago", variant="tschigg")
    s = act(api, {"type": "leader", "player": "Bertil"})      # drawn by lot on the tablet
    assert s["game"]["round"]["leader"] == "Bertil" and s["game"]["next"]["player"] == "Bertil"
    api.post("roll", {"dice": [6, 6, 4]})
    s = act(api, {"type": "turn_sixes", "player": "Bertil"})
    assert s["game"]["round"]["turn"]["kept"] == [1] and s["game"]["next"]["dice"] == 2
    api.post("roll", {"dice": [5, 3]})
    s = act(api, {"type": "set_aside", "player": "Bertil", "dice": [5]})
    assert s["game"]["round"]["turn"]["kept"] == [1, 5]
    s = act(api, {"type": "done", "player": "Bertil"})
    assert s["game"]["next"]["actions"][0] == "announce"
    s = act(api, {"type": "announce", "player": "Bertil", "sand": True})
    assert s["game"]["round"]["announcement"] == {"sand": True}
    assert s["game"]["next"]["player"] == "Cecilia"


def test_pub_chicago_refusals_carry_the_engines_message(api: Any) -> None:
    start(api, "pub_chicago")
    api.post("roll", {"dice": [2, 3, 4]})
    assert "only the leader" in refused(api, {"type": "announce", "player": "Bertil", "ones": 100,
                                              "sixes": 60, "order": "high"})
    assert "drawn before the first throw" in refused(api, {"type": "leader", "player": "Bertil"})
    refused(api, {"type": "set_aside", "player": "Aino", "dice": [6]})
    refused(api, {"type": "turn_sixes", "player": "Aino"})
    # Sand is Tschigg's alone.
    refused(api, {"type": "announce", "player": "Aino", "sand": True})


def test_card_chicago_exchange_show_call_trick_and_zero(api: Any) -> None:
    start(api, "card_chicago", ["Aino", "Bertil"], last_trick="two_bonus", zero_option=True,
          chicago_from=0)
    s = act(api, {"type": "exchange", "player": "Bertil", "count": 3})
    assert s["game"]["deal"]["exchanges"][0] == {"Bertil": 3}
    s = act(api, {"type": "show", "round": 1, "hands": {"Aino": "QS QH 7D 4C 2S",
                                                        "Bertil": "JS JH 9D 4D 2C"}})
    assert s["game"]["players"][0]["score"] == 1
    assert s["game"]["deal"]["shows"][0]["hands"]["Aino"]["name"] == "pair of queens"
    s = act(api, {"type": "show", "round": 2, "hands": {}})   # nobody shows
    s = act(api, {"type": "call", "player": "Aino"})
    assert s["game"]["deal"]["caller"] == "Aino"
    for card in ["9S", "9H", "9D", "9C"]:
        act(api, {"type": "trick", "winner": "Aino", "card": card})
    assert "card" in refused(api, {"type": "trick", "winner": "Aino"})   # the two-bonus needs it
    s = act(api, {"type": "trick", "winner": "Aino", "card": "2H"})
    assert s["game"]["deal"]["chicago"] == "won"
    s = act(api, {"type": "show", "round": 3, "hands": {"Aino": "9S 9H 9D 9C 2H"}})
    assert s["game"]["zero"] == "Aino" and "zero" in s["game"]["next"]["actions"]
    s = act(api, {"type": "zero", "player": "Aino"})
    assert s["game"]["deal"]["number"] == 2 and s["game"]["players"][1]["score"] == 0


def test_card_chicago_refusals_carry_the_engines_message(api: Any) -> None:
    start(api, "card_chicago", ["Aino", "Bertil"])
    assert "ZZ" in refused(api, {"type": "show", "round": 1, "hands": {"Aino": "AS KS QS JS ZZ"}})
    assert "both" in refused(api, {"type": "show", "round": 1,
                                   "hands": {"Aino": "AS KS QS JS TS", "Bertil": "AS 2H 3H 4H 5H"}})
    assert "needs at least 15" in refused(api, {"type": "call", "player": "Aino"})
    assert "no trick is played now" in refused(api, {"type": "trick", "winner": "Aino", "card": "AS"})
    refused(api, {"type": "exchange", "player": "Aino", "count": 6})
    refused(api, {"type": "zero", "player": "Aino"})


def test_a_bad_action_body_is_a_4xx_for_every_family(api: Any) -> None:
    for family in FAMILIES:
        start(api, family)
        for body in ({"type": "nonsense", "player": "Aino"}, {"player": "Aino"}, {"type": "roll"}):
            out = api.post("action", body, status=None)
            assert 400 <= out["_status"] < 500 and out["error"], (family, body, out)


# -- two screens, one tap -----------------------------------------------------------------

CARD_CHICAGO_TO_TRICKS = example("card_chicago")["actions"][:11]


def test_a_tap_from_a_screen_that_missed_a_change_is_refused(api: Any) -> None:
    """Two tablets tapping who took the same trick once counted two tricks: the second
    tap, made on a screen showing the game before the first, now changes nothing."""
    start(api, "card_chicago")
    for action in CARD_CHICAGO_TO_TRICKS:
        act(api, action)
    shown = api.state()["game"]["actions"]
    trick = {"type": "trick", "winner": "Cecilia"}
    api.post(f"action?actions={shown}", trick)
    before = api.state()
    out = api.post(f"action?actions={shown}", trick, status=409)
    assert "the game changed meanwhile" in out["error"]
    assert f"({shown + 1} actions now, {shown} on this screen)" in out["error"]
    assert api.state() == before
    assert len(before["game"]["deal"]["tricks"]) == 1


@pytest.mark.parametrize("count", ["x", "-1", "1.0", "9" * 40])
def test_an_action_count_that_is_no_count_is_a_400(api: Any, count: str) -> None:
    start(api, "card_chicago")
    before = api.state()
    out = api.post(f"action?actions={count}", CARD_CHICAGO_TO_TRICKS[0], status=400)
    assert f"actions={count!r} in the address" in out["error"]
    assert api.state() == before
