"""`make bench` for the rules engines: replay a 10,000-action game of each family.

Each game is built by playing the family's ``random_action`` (with an undo now and
then, as tables do), exported as a game file, and then timed as ``dicetray replay``
would read it: ``load_game`` on the parsed file, every action checked.
"""
from __future__ import annotations

import importlib
import random
import time
from typing import Any

from .game import FAMILIES, Game, load_game, new_game

ACTIONS = 10_000
PLAYERS = {"sum_chicago": ["A", "B"], "pub_chicago": ["A", "B", "C", "D"],
           "ten_thousand": ["A", "B", "C", "D"], "card_chicago": ["A", "B", "C"]}
OPTIONS: dict[str, dict[str, Any]] = {"pub_chicago": {"variant": "basis", "match_length": 10},
                                      "ten_thousand": {"opening": 1000}}


def long_sum_chicago(length: int) -> Game:
    """A two-player game where both miss every round and then tie throw after throw:
    the one way Sum Chicago reaches ``length`` actions by the rules."""
    game = new_game("sum_chicago", PLAYERS["sum_chicago"])
    rng = random.Random(1)
    while len(game) < length - 2:
        state = game.raw_state
        player = state.current()
        target = None if state.in_tie_break else state.targets[state.round]
        miss = [1, 1] if target == 12 else [6, 6]
        dice = miss if target is not None else rng.choice([[3, 3], [2, 4], [1, 5]])
        game.apply({"type": "roll", "player": player, "dice": dice})
        if len(game) % 500 == 0:
            game.apply({"type": "undo"})
    game.apply({"type": "roll", "player": "A", "dice": [6, 6]})
    game.apply({"type": "roll", "player": "B", "dice": [1, 1]})
    return game


def long_game(family: str, length: int) -> Game:
    """Random play of ``family`` until ``length`` actions (or the end of the game)."""
    if family == "sum_chicago":
        return long_sum_chicago(length)
    module = importlib.import_module(f"scorer.{family}")
    game = new_game(family, PLAYERS[family], OPTIONS.get(family))
    rng = random.Random(1)
    while len(game) < length and not game.state()["finished"]:
        game.apply(module.random_action(game, rng))
        if len(game) % 500 == 0:
            game.apply({"type": "undo"})
    return game


def run() -> dict[str, Any]:
    """Milliseconds to replay each family's long game from its file."""
    results: dict[str, Any] = {}
    for family in FAMILIES:
        try:
            module = importlib.import_module(f"scorer.{family}")
        except ModuleNotFoundError:
            results[family] = "not built yet"
            continue
        if not hasattr(module, "random_action"):
            results[family] = "no random_action to build a long game"
            continue
        game = long_game(family, ACTIONS)
        data = game.to_file()
        timings = []
        for _ in range(3):
            start = time.perf_counter()
            replayed = load_game(data)
            timings.append((time.perf_counter() - start) * 1000)
        assert replayed.state()["players"] == game.state()["players"]
        results[family] = {"actions": len(data["actions"]),
                           "undos": sum(a["type"] == "undo" for a in data["actions"]),
                           "finished": game.state()["finished"],
                           "replay_ms": round(min(timings), 1)}
    return results


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=2))
