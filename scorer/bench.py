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


def long_pub_chicago(length: int) -> Game:
    """Tschigg where everyone makes Sand round after round, so no lid ever moves: the
    way a game of Pub Chicago runs to ``length`` actions by the rules."""
    game = new_game("pub_chicago", PLAYERS["pub_chicago"], {"variant": "tschigg"})
    while len(game) < length:
        state = game.raw_state
        turn = state.round.turn
        if turn.throws == 0:
            action: dict[str, Any] = {"type": "roll", "player": turn.player, "dice": [2, 3, 4]}
        elif turn.player == state.round.leader and state.round.announcement is None:
            action = {"type": "announce", "player": turn.player, "sand": True}
        else:
            action = {"type": "done", "player": turn.player}
        game.apply(action)
        if len(game) % 500 == 0:
            game.apply({"type": "undo"})
    return game


def long_game(family: str, length: int) -> Game:
    """A game of ``length`` actions, played by each family's random player in a way
    that the rules let run on (with an undo now and then, as tables do)."""
    if family == "sum_chicago":
        return long_sum_chicago(length)
    if family == "pub_chicago":
        return long_pub_chicago(length)
    module = importlib.import_module(f"scorer.{family}")
    rng = random.Random(1)
    if family == "ten_thousand":
        # Players who bank only now and then: most turns end in a farkle.
        game = new_game(family, PLAYERS[family], {"opening": 1000})
        def play() -> dict[str, Any]:
            return dict(module.random_action(game, rng, banking=rng.random() < 0.02))
    else:
        # Card Chicago with "play on" until a Chicago and a table that never calls one.
        game = new_game(family, PLAYERS[family], {"win_needs_chicago": "play_on"})
        def play() -> dict[str, Any]:
            while True:
                action = dict(module.random_action(game, rng))
                if action["type"] not in ("call", "zero"):
                    return action
    while len(game) < length:
        game.apply(play())
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
