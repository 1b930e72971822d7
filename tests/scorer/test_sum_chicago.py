"""Sum Chicago (RULES.md §1) played the way a table plays it."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from scorer import GameFileError, IllegalAction, load_game, new_game
from scorer.sum_chicago import random_action, round_chance, round_targets, sum_chance

REPO = Path(__file__).resolve().parents[2]


def roll(game, player, *dice):
    game.apply({"type": "roll", "player": player, "dice": list(dice)})


def scores(game):
    return {p["name"]: p["score"] for p in game.state()["players"]}


def play_round(game, throws):
    for player, dice in throws:
        roll(game, player, *dice)


def test_round_seven_example_of_the_seed():
    # seeds/000: round 7, A throws 3+4 (7 points), B 5+5 (0), C 1+6 (7).
    game = new_game("sum_chicago", ["A", "B", "C"])
    for _ in range(5):  # rounds 2..6, all missed
        play_round(game, [("A", (6, 6)), ("B", (6, 6)), ("C", (6, 6))])
    assert game.state()["target"] == 7
    play_round(game, [("A", (3, 4)), ("B", (5, 5)), ("C", (1, 6))])
    assert scores(game) == {"A": 7, "B": 0, "C": 7}
    assert game.state()["target"] == 8


def test_a_perfect_game_scores_77_and_wins():
    game = new_game("sum_chicago", ["A", "B"])
    for target in range(2, 13):
        hit = (1, target - 1) if target <= 7 else (6, target - 6)
        play_round(game, [("A", hit), ("B", (1, 1) if target != 2 else (1, 2))])
    state = game.state()
    assert state["finished"] and state["winner"] == "A"
    assert scores(game) == {"A": 77, "B": 0}
    assert state["next"]["player"] is None and "roll" not in state["next"]["actions"]


@pytest.mark.parametrize("options, targets", [
    ({}, list(range(2, 13))),
    ({"order": "descending"}, list(range(12, 1, -1))),
    ({"rounds": "low"}, [2, 3, 4, 5, 6, 7]),
    ({"rounds": "high"}, [7, 8, 9, 10, 11, 12]),
    ({"rounds": "even"}, [2, 4, 6, 8, 10, 12]),
    ({"rounds": "odd"}, [3, 5, 7, 9, 11]),
    ({"dice": 3}, list(range(3, 19))),
    ({"dice": 3, "rounds": "low"}, list(range(3, 11))),
    ({"dice": 3, "rounds": "high", "order": "descending"}, list(range(18, 10, -1))),
])
def test_round_sets(options, targets):
    game = new_game("sum_chicago", ["A"], options)
    assert [row["target"] for row in game.state()["sheet"]] == targets
    assert game.state()["target"] == targets[0]


def test_chances_are_counted_from_the_dice():
    for dice in (2, 3):
        for target in range(dice, 6 * dice + 1):
            ways = sum(1 for t in itertools.product(range(1, 7), repeat=dice) if sum(t) == target)
            assert sum_chance(dice, target) == pytest.approx(ways / 6 ** dice)
    assert sum_chance(2, 7) == pytest.approx(6 / 36)
    assert sum_chance(2, 12) == pytest.approx(1 / 36)
    two = {"dice": 2, "throws": 2}
    assert round_chance(two, 7) == pytest.approx(1 - (30 / 36) ** 2)
    game = new_game("sum_chicago", ["A"], {"throws": 2})
    assert game.state()["chance"] == pytest.approx(1 - (35 / 36) ** 2)


def test_three_dice_throws_take_three_dice():
    game = new_game("sum_chicago", ["A", "B"], {"dice": 3})
    assert game.state()["next"]["dice"] == 3
    with pytest.raises(IllegalAction, match="takes 3 dice, not 2"):
        roll(game, "A", 1, 2)
    roll(game, "A", 1, 1, 1)
    assert scores(game)["A"] == 3


def test_tupla_chicago_second_throw_alone_counts():
    game = new_game("sum_chicago", ["A", "B"], {"throws": 2})
    roll(game, "A", 1, 2)               # miss: A throws again
    assert game.state()["next"] == {**game.state()["next"], "player": "A", "throw": 2}
    roll(game, "A", 1, 1)               # the second throw hits 2
    roll(game, "B", 1, 1)               # a first-throw hit: no second throw
    assert game.state()["next"]["player"] == "A" and game.state()["target"] == 3
    roll(game, "A", 1, 1)               # miss 3 ...
    roll(game, "A", 1, 3)               # ... and miss again
    assert scores(game) == {"A": 2, "B": 2}
    assert game.state()["next"]["player"] == "B"


def test_rotating_starter_last_thrower_starts_next_round():
    game = new_game("sum_chicago", ["A", "B", "C"], {"starter": "rotating"})
    play_round(game, [("A", (6, 6)), ("B", (6, 6)), ("C", (6, 6))])
    assert game.state()["order"] == ["C", "A", "B"]
    play_round(game, [("C", (6, 6)), ("A", (6, 6)), ("B", (6, 6))])
    assert game.state()["order"] == ["B", "C", "A"]
    with pytest.raises(IllegalAction, match="it is B's throw, not A's"):
        roll(game, "A", 1, 3)


def test_joining_scores_zero_for_rounds_played_and_leaving_keeps_the_total():
    game = new_game("sum_chicago", ["A", "B"])
    play_round(game, [("A", (1, 1)), ("B", (6, 6))])
    game.apply({"type": "join", "player": "C"})
    assert game.state()["order"] == ["A", "B", "C"]
    play_round(game, [("A", (1, 2)), ("B", (6, 6)), ("C", (2, 1))])
    assert scores(game) == {"A": 5, "B": 0, "C": 3}
    assert game.state()["sheet"][0]["scores"]["C"] == 0
    game.apply({"type": "leave", "player": "A"})
    assert game.state()["order"] == ["B", "C"]
    play_round(game, [("B", (2, 2)), ("C", (6, 6))])
    assert scores(game) == {"A": 5, "B": 4, "C": 3}
    with pytest.raises(IllegalAction, match="A has already left"):
        game.apply({"type": "leave", "player": "A"})


def test_joining_mid_round_throws_from_the_next_round():
    game = new_game("sum_chicago", ["A", "B"])
    roll(game, "A", 6, 6)
    game.apply({"type": "join", "player": "C"})
    roll(game, "B", 6, 6)
    assert game.state()["target"] == 3 and game.state()["order"] == ["A", "B", "C"]


def finish_rounds(game, players, hits):
    """Play every round; players in ``hits`` hit the rounds listed for them, others miss."""
    for r, target in enumerate(round_targets(game.options)):
        for p in players:
            dice = (1, target - 1) if target <= 7 else (6, target - 6)
            roll(game, p, *(dice if r in hits.get(p, ()) else ((6, 6) if target != 12 else (1, 1))))


def test_a_tie_is_broken_by_extra_throws_that_add_nothing():
    game = new_game("sum_chicago", ["A", "B", "C"])
    finish_rounds(game, ["A", "B", "C"], {"A": [5], "B": [5], "C": [0]})
    state = game.state()
    assert not state["finished"] and state["tie_break"]["players"] == ["A", "B"]
    assert state["next"]["player"] == "A"
    roll(game, "A", 5, 5)
    roll(game, "B", 4, 6)       # tied again on 10: throw again
    assert not game.state()["finished"]
    roll(game, "A", 2, 3)
    roll(game, "B", 6, 1)
    state = game.state()
    assert state["finished"] and state["winner"] == "B"
    assert scores(game) == {"A": 7, "B": 7, "C": 2}


def test_tie_break_throws_are_single_even_with_two_throws():
    game = new_game("sum_chicago", ["A", "B"], {"throws": 2, "rounds": "odd"})
    for target in (3, 5, 7, 9, 11):
        for p in ("A", "B"):
            roll(game, p, 1, 2) if target == 3 else (roll(game, p, 6, 6), roll(game, p, 6, 6))
    assert game.state()["tie_break"]["players"] == ["A", "B"]
    roll(game, "A", 1, 1)        # one throw, even though a miss would earn a second in rounds
    assert game.state()["next"]["player"] == "B"
    roll(game, "B", 1, 2)
    assert game.state()["winner"] == "B"


@pytest.mark.parametrize("action, message", [
    ({"type": "roll", "player": "B", "dice": [1, 1]}, "it is A's throw, not B's"),
    ({"type": "roll", "player": "Zed", "dice": [1, 1]}, "unknown player 'Zed'"),
    ({"type": "roll", "player": "A", "dice": [7, 1]}, "die value 7 is outside 1..6"),
    ({"type": "roll", "player": "A", "dice": [0, 1]}, "die value 0 is outside 1..6"),
    ({"type": "roll", "player": "A", "dice": ["6", 1]}, "not a whole number"),
    ({"type": "roll", "player": "A", "dice": [1, 1, 1]}, "takes 2 dice, not 3"),
    ({"type": "roll", "player": "A"}, "a roll needs 'dice'"),
    ({"type": "bank", "player": "A"}, "unknown action type 'bank'"),
    ({"player": "A"}, "action 2 (action with no type by A): "),
    ({"type": 5, "player": "A"}, "action 2 (action of type 5 by A): an action's 'type' is a word"),
    ({"type": "correct", "action": 5, "dice": [1, 1]}, "no action 5 to correct"),
    ({"type": "correct", "action": 0, "dice": [1, 9]}, "die value 9"),
    ({"type": "join", "player": "A"}, "A is already in the game"),
    ({"type": "join", "player": ""}, "1 to 40 characters"),
])
def test_illegal_actions_name_the_action_and_change_nothing(action, message):
    game = new_game("sum_chicago", ["A", "B"])
    roll(game, "A", 1, 1)
    roll(game, "B", 1, 2)
    before = game.state()
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert message in str(err.value)
    assert str(err.value).startswith("action 2")
    assert game.state() == before and len(game.log) == 2


def test_a_player_who_left_is_told_why_their_name_cannot_join_again():
    game = new_game("sum_chicago", ["A", "B", "C"])
    game.apply({"type": "leave", "player": "A"})
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "join", "player": "A"})
    assert "A has left the game" in str(err.value) and "another name" in str(err.value)


def test_nothing_to_undo_and_no_roll_after_the_end():
    game = new_game("sum_chicago", ["A"], {"rounds": "odd"})
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.apply({"type": "undo"})
    for _ in range(5):
        roll(game, "A", 1, 1)
    with pytest.raises(IllegalAction, match="the game is over"):
        roll(game, "A", 1, 1)


@pytest.mark.parametrize("options, players, message", [
    ({"dice": 4}, ["A"], "options.dice: 4 is not one of 2, 3"),
    ({"dice": True}, ["A"], "options.dice: true is not one of 2, 3"),
    ({"colour": "red"}, ["A"], "options.colour: unknown option"),
    ({}, ["A", "A"], "names must be unique"),
    ({}, [], "1 to 40 players"),
    ({}, ["x" * 41], "1 to 40 characters"),
])
def test_bad_setups_are_refused_by_name(options, players, message):
    with pytest.raises(GameFileError, match=message):
        new_game("sum_chicago", players, options)


def test_a_correction_rescores_and_the_log_keeps_both():
    game = new_game("sum_chicago", ["A", "B"])
    roll(game, "A", 1, 2)
    roll(game, "B", 1, 1)
    game.apply({"type": "correct", "action": 0, "dice": [1, 1]})
    assert scores(game) == {"A": 2, "B": 2}
    assert [a["type"] for a in game.log] == ["roll", "roll", "correct"]
    game.apply({"type": "undo"})          # takes back the correction
    assert scores(game) == {"A": 0, "B": 2}


def test_a_correction_that_makes_a_second_throw_due_ends_that_turn_as_it_stands():
    game = new_game("sum_chicago", ["A", "B"], {"throws": 2})
    roll(game, "A", 1, 1)      # hit: B throws next
    roll(game, "B", 1, 1)
    game.apply({"type": "correct", "action": 0, "dice": [1, 3]})   # it was a miss
    state = game.state()
    assert scores(game) == {"A": 0, "B": 2} and state["dropped"] == []
    assert state["next"]["player"] == "A" and state["target"] == 3


def test_a_correction_that_makes_a_later_throw_illegal_drops_it():
    game = new_game("sum_chicago", ["A", "B"], {"throws": 2})
    roll(game, "A", 1, 2)      # miss
    roll(game, "A", 1, 3)      # second throw, miss
    roll(game, "B", 1, 1)
    game.apply({"type": "correct", "action": 0, "dice": [1, 1]})   # the first throw hit
    state = game.state()
    assert [d["action"] for d in state["dropped"]] == [1]
    assert "its turn had ended" in state["dropped"][0]["reason"]
    assert scores(game) == {"A": 2, "B": 2}


def test_a_correction_in_a_solo_game_drops_only_the_rest_of_that_turn():
    game = new_game("sum_chicago", ["A"], {"throws": 2})
    for dice in ([1, 2], [1, 3], [1, 2], [5, 5]):   # round 2: miss, miss; round 3: hit
        roll(game, "A", *dice)
    game.apply({"type": "correct", "action": 0, "dice": [1, 1]})
    state = game.state()
    assert [d["action"] for d in state["dropped"]] == [1]
    assert [row["scores"]["A"] for row in state["sheet"][:3]] == [2, 3, None]
    assert state["target"] == 4 and state["next"]["throw"] == 2


def random_game(seed, length, options=None):
    rng = random.Random(seed)
    game = new_game("sum_chicago", ["A", "B", "C"][: 1 + seed % 3], options or {})
    for _ in range(length):
        if game.state()["finished"]:
            break
        game.apply(random_action(game, rng))
    return game, rng


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(1, 40),
       options=st.fixed_dictionaries({"throws": st.sampled_from([1, 2]),
                                      "starter": st.sampled_from(["fixed", "rotating"])}))
def test_undo_after_any_action_gives_the_state_before_it(seed, length, options):
    game, rng = random_game(seed, length, options)
    if game.state()["finished"]:
        return
    before = game.state()
    game.apply(random_action(game, rng))
    game.apply({"type": "undo"})
    after = game.state()
    for key in ("players", "next", "sheet", "round", "finished", "winner"):
        assert after[key] == before[key]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(0, 60), corrections=st.integers(0, 3))
def test_a_game_and_its_exported_file_replay_to_the_same_state(seed, length, corrections):
    game, rng = random_game(seed, length, {"throws": 2})
    rolls = [i for i, a in enumerate(game.log) if a["type"] == "roll"]
    for _ in range(corrections):
        if rolls:
            action = {"type": "correct", "action": rng.choice(rolls),
                      "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
            if game.is_legal(action):
                game.apply(action)
    text = json.dumps(game.to_file())
    assert load_game(json.loads(text)).state() == game.state()


def test_the_example_game_in_docs_replays():
    data = json.loads((REPO / "docs" / "sum_chicago.json").read_text())
    state = load_game(data).state()
    # Worked by hand from the file's throws: Aino hit 4, 7, 9 and 11; Bertil 7 and 8;
    # Cecilia 2, 6 and 12.
    assert {p["name"]: p["score"] for p in state["players"]} == \
        {"Aino": 31, "Bertil": 15, "Cecilia": 20}
    assert state["finished"] and state["winner"] == "Aino"
