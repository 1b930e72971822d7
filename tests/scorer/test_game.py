"""The game core: the log, undo and corrections, shared by every family."""
from __future__ import annotations

import random
from typing import Any

import pytest

import scorer.game
from scorer import IllegalAction, load_game, new_game
from scorer.bench import long_game


def replay_without_snapshots(monkeypatch, data):
    with monkeypatch.context() as m:
        m.setattr(scorer.game, "SNAPSHOT_EVERY", 10 ** 9)
        return load_game(data).state()


@pytest.mark.parametrize("family", ["sum_chicago", "pub_chicago", "ten_thousand", "card_chicago"])
def test_long_games_replay_the_same_with_and_without_snapshots(monkeypatch, family):
    game = long_game(family, 1600)
    rng = random.Random(3)
    # Undo and correct near the end, where the snapshots are used.
    rolls = [i for i, a in enumerate(game.log) if a["type"] == "roll"][-20:]
    for i in rng.sample(rolls, min(4, len(rolls))):
        dice = [rng.randint(1, 6) for _ in game.log[i]["dice"]]
        action = {"type": "correct", "action": i, "dice": dice}
        if game.is_legal(action):
            game.apply(action)
        game.apply({"type": "undo"})
    data = game.to_file()
    assert game.state() == replay_without_snapshots(monkeypatch, data) == load_game(data).state()


def test_undo_takes_back_the_latest_action_in_force_and_a_correction_can_be_undone():
    game = new_game("sum_chicago", ["A", "B"])
    game.apply({"type": "roll", "player": "A", "dice": [1, 1]})
    game.apply({"type": "roll", "player": "B", "dice": [2, 2]})
    game.apply({"type": "correct", "action": 1, "dice": [1, 1]})
    assert [p["score"] for p in game.state()["players"]] == [2, 2]
    game.apply({"type": "undo"})            # the correction
    game.apply({"type": "undo"})            # B's roll
    state = game.state()
    assert [p["score"] for p in state["players"]] == [2, 0]
    assert state["next"]["player"] == "B"
    with pytest.raises(IllegalAction, match="action 1 is not in force"):
        game.apply({"type": "correct", "action": 1, "dice": [1, 1]})
    assert len(game.log) == 5                  # the log never shrinks


def test_a_correction_must_name_a_roll():
    game = new_game("sum_chicago", ["A", "B"])
    game.apply({"type": "join", "player": "C"})
    with pytest.raises(IllegalAction, match="action 0 is a join, not a roll"):
        game.apply({"type": "correct", "action": 0, "dice": [1, 1]})
    with pytest.raises(IllegalAction, match="needs 'action'"):
        game.apply({"type": "correct", "action": "0", "dice": [1, 1]})


def test_a_correction_with_the_wrong_number_of_dice_is_refused():
    game = new_game("sum_chicago", ["A", "B"])
    game.apply({"type": "roll", "player": "A", "dice": [1, 1]})
    before = game.state()
    with pytest.raises(IllegalAction, match="the corrected roll 0 is illegal: a throw takes 2 dice"):
        game.apply({"type": "correct", "action": 0, "dice": [1, 1, 1]})
    assert game.state() == before


@pytest.mark.parametrize("data, message", [
    ([], "a game file is a JSON object"),
    ({"family": "chess", "players": ["A"]}, "family: 'chess' is not one of"),
    ({"family": "sum_chicago"}, "players: missing"),
    ({"format": "x/2", "family": "sum_chicago", "players": ["A"]}, "format: 'x/2'"),
    ({"family": "sum_chicago", "players": ["A"], "actions": {}}, "actions: must be a list"),
    # A misspelt "options" would replay the game with the default rules.
    ({"family": "ten_thousand", "players": ["A"], "option": {"target": 5000}},
     "'option': not a key of a game file"),
])
def test_broken_game_files_are_refused_by_name(data, message):
    with pytest.raises(ValueError, match=message):
        load_game(data)


def test_an_illegal_action_in_a_file_names_its_index():
    data = {"family": "sum_chicago", "players": ["A", "B"], "actions": [
        {"type": "roll", "player": "A", "dice": [1, 1]},
        {"type": "roll", "player": "A", "dice": [1, 1]}]}
    with pytest.raises(IllegalAction, match=r"^action 1 \(roll by A\): it is B's throw"):
        load_game(data)


def test_extra_keys_on_actions_are_kept_and_ignored():
    game = new_game("sum_chicago", ["A"])
    game.apply({"type": "roll", "player": "A", "dice": [1, 1], "reading": 17, "at": "now"})
    assert game.to_file()["actions"][0]["reading"] == 17
    assert game.state()["players"][0]["score"] == 2


@pytest.mark.parametrize("module", ["scorer", "scorer.game", "scorer.actions", "scorer.errors", "scorer.words",
                                    "scorer.sum_chicago"])
def test_the_examples_in_the_docstrings_hold(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_undoing_a_correction_checks_again_the_actions_after_its_roll():
    # The first correction drops the set_aside of a 5 that is no longer there; the
    # second gives the 5 back. Undoing the second must drop it again, not score it.
    game = new_game("ten_thousand", ["Aino", "Bertil"], {"opening": 0})
    for action in ({"type": "roll", "player": "Aino", "dice": [1, 5, 2, 3, 4, 6]},
                   {"type": "set_aside", "player": "Aino", "dice": [1, 5]},
                   {"type": "bank", "player": "Aino"},
                   {"type": "correct", "action": 0, "dice": [1, 2, 2, 3, 4, 6]}):
        game.apply(action)
    before = {**game.state(), "actions": None}
    game.apply({"type": "correct", "action": 0, "dice": [1, 5, 2, 3, 4, 6]})
    assert game.state()["players"][0]["score"] == 150
    game.apply({"type": "undo"})
    assert {**game.state(), "actions": None} == before
    assert [d["action"] for d in before["dropped"]] == [1, 2]
    assert load_game(game.to_file()).state() == game.state()


def test_undoing_a_correction_gives_back_the_turns_before_it():
    # Found by a random game: the correction of action 10 re-timed the turns, and the one
    # of action 16 again; undoing the latter must leave the game as it was before it.
    game = new_game("pub_chicago", ["A", "B"], {"variant": "tschigg"})
    for action in (
            {"type": "roll", "player": "A", "dice": [1, 3, 3]},
            {"type": "announce", "player": "A", "sand": True},
            {"type": "roll", "player": "B", "dice": [4, 3, 1]},
            {"type": "roll", "player": "B", "dice": [6, 3, 1]},
            {"type": "roll", "player": "B", "dice": [5, 5, 2]},
            {"type": "set_aside", "player": "B", "dice": [2]},
            {"type": "announce", "player": "B", "ones": 100, "sixes": 6, "order": "high"},
            {"type": "roll", "player": "A", "dice": [3, 1, 4]},
            {"type": "set_aside", "player": "A", "dice": [3, 1, 4]},
            {"type": "done", "player": "A"},
            {"type": "correct", "action": 7, "dice": [6, 4, 6]},
            {"type": "roll", "player": "B", "dice": [4, 6, 6]},
            {"type": "announce", "player": "B", "ones": 1, "sixes": 60, "order": "low"},
            {"type": "roll", "player": "A", "dice": [3, 4, 6]},
            {"type": "correct", "action": 13, "dice": [2, 1, 3]},
            {"type": "undo"}):
        game.apply(action)
    before = {**game.state(), "actions": None}
    assert before["finished"] and before["loser"] == "B"
    game.apply({"type": "correct", "action": 2, "dice": [3, 5, 3]})
    game.apply({"type": "undo"})
    assert {**game.state(), "actions": None} == before
    assert load_game(game.to_file()).state() == game.state()


def test_every_correction_undone_gives_back_the_game_before_it():
    # Found by random games: a Bayrisch game with six corrections, two of them undone.
    # With two corrections in force, each had judged again which turn the later actions
    # belonged to; undoing the latest once left another game than the one before it.
    game = new_game("pub_chicago", ["A", "B"], {"variant": "bayrisch"})
    log = [
        {"type": "roll", "player": "A", "dice": [1, 3, 6]},
        {"type": "done", "player": "A"},
        {"type": "announce", "player": "A", "ones": 100, "sixes": 6, "order": "low"},
        {"type": "roll", "player": "B", "dice": [6, 4, 2]},
        {"type": "roll", "player": "A", "dice": [6, 4, 6]},
        {"type": "announce", "player": "A", "ones": 100, "sixes": 60, "order": "high"},
        {"type": "roll", "player": "B", "dice": [1, 3, 6]},
        {"type": "roll", "player": "A", "dice": [1, 2, 3]},
        {"type": "done", "player": "A"},
        {"type": "announce", "player": "A", "ones": 1, "sixes": 60, "order": "high"},
        {"type": "correct", "action": 7, "dice": [1, 3, 1]},
        {"type": "roll", "player": "B", "dice": [4, 3, 5]},
        {"type": "correct", "action": 11, "dice": [5, 4, 4]},
        {"type": "correct", "action": 3, "dice": [6, 5, 6]},
        {"type": "undo"},
        {"type": "undo"},
        {"type": "correct", "action": 0, "dice": [5, 5, 6]},
        {"type": "correct", "action": 3, "dice": [3, 6, 1]},
        {"type": "set_aside", "player": "B", "dice": [5]},
        {"type": "roll", "player": "B", "dice": [6, 4]},
        {"type": "set_aside", "player": "B", "dice": [4]},
        {"type": "set_aside", "player": "B", "dice": [6]},
        {"type": "correct", "action": 3, "dice": [4, 1, 5]},
    ]
    for action in log:
        before = {**game.state(), "actions": None}
        game.apply(action)
        if action["type"] == "correct":
            undone = load_game(game.to_file())
            undone.apply({"type": "undo"})
            assert {**undone.state(), "actions": None} == before, action
    assert load_game(game.to_file()).state() == game.state()


def test_a_name_must_be_text_that_a_file_can_carry():
    # JSON's "\ud800" decodes to a lone surrogate, which UTF-8 (and so the printed
    # state, a page, an exported file read back) cannot carry.
    with pytest.raises(scorer.GameFileError, match=r"players\[1\]"):
        new_game("sum_chicago", ["Aino", "Bertil\ud800"])
    game = new_game("sum_chicago", ["Aino", "Bertil"])
    with pytest.raises(IllegalAction, match="1 to 40 characters"):
        game.apply({"type": "join", "player": "Cecilia\ud800"})
    game.apply({"type": "join", "player": "Åsa 🎲"})


def test_the_log_keeps_the_dice_as_thrown_when_the_callers_list_changes_later():
    game = new_game("ten_thousand", ["A", "B"])
    dice = [1, 1, 1, 2, 3, 4]
    game.apply({"type": "roll", "player": "A", "dice": dice})
    dice[0] = 6
    assert game.log[0]["dice"] == [1, 1, 1, 2, 3, 4]
    assert game.to_file()["actions"][0]["dice"] == game.state()["turn"]["throw"]
    game.log[0]["dice"][1] = 6          # nor does a change to a copy handed out
    assert game.log[0]["dice"] == [1, 1, 1, 2, 3, 4]


@pytest.mark.parametrize("data, message", [
    ({"format": None, "family": "sum_chicago", "players": ["A"], "actions": []},
     "format: null is not 'dicetray-game/1'"),
    ({"format": "dicetray-game/1", "family": "sum_chicago", "players": ["A", "B"],
      "actions": [None]}, "an action must be a JSON object, not null"),
    ({"format": "dicetray-game/1", "family": "sum_chicago", "players": ["A", "B"],
      "actions": [{"type": "roll", "player": "A", "dice": [1, 1]}, {"type": "undo"},
                  {"type": "correct", "action": 1, "dice": [2, 2]}]},
     "action 1 is an undo, not a roll"),
])
def test_a_refusal_speaks_of_the_file_in_jsons_words(data: Any, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        load_game(data)
    assert message in str(caught.value)


@pytest.mark.parametrize("family", scorer.game.FAMILIES)
def test_every_option_and_value_has_words_for_the_start_form(family: str) -> None:
    rules = scorer.game.rules_for(family)
    assert rules.option_words.keys() == rules.options.keys()
    for key, values in rules.options.items():
        words = rules.option_words[key]
        assert len(words.values) == len(values), key
        assert len(set(words.values)) == len(values), key     # no two choices read alike
        assert words.label and all(words.values), key


@pytest.mark.parametrize("action,said", [
    ({"type": "roll", "player": "A", "dice": [True, 1]}, "die value true is not"),
    ({"type": "roll", "player": "A", "dice": None}, "not null"),
    ({"type": "roll", "player": ["B"], "dice": [1, 1]}, 'must be a name, not ["B"]'),
    ({"type": "leave", "player": False}, "must be a name, not false"),
    ({"type": True}, "(action of type true)"),
])
def test_a_refusal_names_the_value_in_jsons_words(action: dict[str, Any], said: str) -> None:
    # The action came as JSON (a file, a request): its message says true, null and
    # ["B"] as written there, not Python's True, None and ['B'].
    with pytest.raises(IllegalAction) as refused:
        new_game("sum_chicago", ["A", "B"]).check(action)
    assert said in str(refused.value)
