"""10000 over random games (hypothesis and random_action): undo after any action gives the
state from before it, a game equals its exported game file read back, corrections replay
to the same state as the file; and the example game in docs/ replays to the scores worked
out by hand."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import Game, IllegalAction, load_game, new_game
from scorer.farkle_scoring import score_selection
from scorer.ten_thousand import RULES, random_action

DOCS = Path(__file__).resolve().parents[2] / "docs" / "ten_thousand.json"

OPTIONS = st.fixed_dictionaries({key: st.sampled_from(values)
                                 for key, values in RULES.options.items()})


def comparable(game: Game) -> dict[str, Any]:
    """The state as a user sees it, less the length of the log (undo itself is logged)."""
    state = game.state()
    state.pop("actions")
    return state


def random_game(options: dict[str, Any], players: int, seed: int) -> tuple[Game, random.Random]:
    return new_game("ten_thousand", [f"P{i}" for i in range(players)], options), \
        random.Random(seed)


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, players=st.integers(1, 4), seed=st.integers(0, 2 ** 32))
def test_undo_after_any_action_gives_the_state_before_it(options: dict[str, Any], players: int,
                                                         seed: int) -> None:
    game, rng = random_game(options, players, seed)
    for _ in range(60):
        if game.state()["finished"]:
            break
        action = random_action(game, rng)
        before = comparable(game)
        game.apply(action)
        game.apply({"type": "undo"})
        assert comparable(game) == before
        game.apply(action)


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, players=st.integers(1, 4), seed=st.integers(0, 2 ** 32))
def test_a_game_equals_its_game_file_read_back(options: dict[str, Any], players: int,
                                               seed: int) -> None:
    game, rng = random_game(options, players, seed)
    for _ in range(150):
        if game.state()["finished"]:
            break
        game.apply(random_action(game, rng))
        if rng.random() < 0.05:
            _try_a_correction(game, rng)
    assert load_game(json.loads(json.dumps(game.to_file()))).state() == game.state()
    _check_the_outcome(game)


def _try_a_correction(game: Game, rng: random.Random) -> None:
    """Correct a random earlier roll to random dice of the same count, if the game allows."""
    dropped = {d["action"] for d in game.state()["dropped"]}
    rolls = [i for i, a in enumerate(game.log) if a["type"] == "roll" and i not in dropped]
    if not rolls:
        return
    target = rng.choice(rolls)
    dice = [rng.randint(1, 6) for _ in game.log[target]["dice"]]
    before = game.state()
    try:
        game.apply({"type": "correct", "action": target, "dice": dice})
    except IllegalAction:
        assert game.state() == before


def _check_the_outcome(game: Game) -> None:
    state = game.state()
    if not state["finished"]:
        assert state["next"]["player"] is not None
        return
    totals = {p["name"]: p["score"] for p in state["players"]}
    # The winner has the highest total, alone, and has reached the target.
    assert [n for n, s in totals.items() if s == max(totals.values())] == [state["winner"]]
    assert totals[state["winner"]] >= state["options"]["target"]


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2 ** 32))
def test_the_next_throw_takes_the_dice_left(options: dict[str, Any], seed: int) -> None:
    game, rng = random_game(options, 2, seed)
    for _ in range(80):
        state = game.state()
        if state["finished"]:
            break
        nxt, turn = state["next"], state["turn"]
        if "roll" in nxt["actions"]:
            assert nxt["dice"] == turn["dice_left"] and 0 < state["farkle_chance"] < 1
        else:
            assert nxt["actions"][0] == "set_aside" and nxt["dice"] == 0 and turn["choices"]
        game.apply(random_action(game, rng))


def plain_farkle(dice: list[int], specials: bool) -> bool:
    """A throw with no 1, no 5, nothing three alike, and (all six dice) no three pairs."""
    counts = sorted(Counter(dice).values())
    if 1 in dice or 5 in dice or max(counts) >= 3:
        return False
    return not (specials and len(dice) == 6 and counts == [2, 2, 2])


def ledger(actions: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, int]:
    """The totals as a scorekeeper with pen and paper keeps them, from the actions alone."""
    totals: dict[str, int] = Counter()
    opened: set[str] = set()
    in_a_row: dict[str, int] = Counter()
    at_stake = 0
    for action in actions:
        player = action["player"]
        if action["type"] == "set_aside":
            at_stake += score_selection(action["dice"], options) or 0
        elif action["type"] == "bank":
            in_a_row[player] = 0
            if player in opened or at_stake >= options["opening"]:
                totals[player] += at_stake
                opened.add(player)
            at_stake = 0
        elif plain_farkle(action["dice"], options["specials"]):
            in_a_row[player] += 1
            at_stake = 0
            if options["three_farkles"] and in_a_row[player] == 3:
                totals[player] += options["three_farkles"]
                in_a_row[player] = 0
    return totals


@settings(max_examples=30, deadline=None)
@given(options=OPTIONS.filter(lambda o: not o["exact_target"]), seed=st.integers(0, 2 ** 32))
def test_the_totals_are_what_a_scorekeeper_writes_down(options: dict[str, Any], seed: int
                                                       ) -> None:
    game, rng = random_game(options, 3, seed)
    for _ in range(200):
        if game.state()["finished"]:
            break
        game.apply(random_action(game, rng))
    totals = ledger(game.log, options)
    assert {p["name"]: p["score"] for p in game.state()["players"]} == {
        name: totals[name] for name in game.players}


# -- the example game in docs/ -----------------------------------------------------------------


def test_the_example_game_replays_to_the_scores_worked_out_by_hand() -> None:
    game = load_game(json.loads(DOCS.read_text()))
    state = game.state()
    # Aino: 1000+50 | farkle | 800+100 | farkle | 2000+50 | 350+100+50+100+500
    aino = 1050 + 0 + 900 + 0 + 2050 + 1100
    # Bertil: farkle | 500+100 | 1500+1500 (hot dice twice) | farkle | 50+600 | final: farkle
    bertil = 0 + 600 + 3000 + 0 + 650 + 0
    assert (aino, bertil) == (5100, 4250)
    assert [(p["name"], p["score"]) for p in state["players"]] == [("Aino", aino),
                                                                   ("Bertil", bertil)]
    assert state["finished"] and state["winner"] == "Aino" and state["dropped"] == []
    assert state["final_round"] == {"reached_by": "Aino", "to_play": []}
