"""Card Chicago as a log: undo, the exported game file, and the example game in docs/."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import Game, IllegalAction, load_game, new_game
from scorer.card_chicago import RULES, random_action

DOCS = Path(__file__).resolve().parents[2] / "docs" / "card_chicago.json"

option_sets = st.fixed_dictionaries(
    {key: st.sampled_from(values) for key, values in RULES.options.items()})
tables = st.lists(st.sampled_from(["Aino", "Bertil", "Cecilia", "Dag", "Eero"]),
                  min_size=2, max_size=5, unique=True)


def comparable(game: Game) -> dict[str, Any]:
    """The state as a user sees it, without the log's length (undo lengthens the log)."""
    state = game.state()
    del state["actions"]
    return state


def play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        try:
            action = random_action(game, rng)
        except ValueError:
            return                       # the game is over
        game.apply(action)


@settings(max_examples=40, deadline=None)
@given(options=option_sets, players=tables, seed=st.integers(0, 2**32), steps=st.integers(1, 70))
def test_undo_after_any_action_gives_the_state_before_it(
        options: dict[str, Any], players: list[str], seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = new_game("card_chicago", players, options)
    for _ in range(steps):
        before = comparable(game)
        try:
            action = random_action(game, rng)
        except ValueError:
            break
        game.apply(action)
        game.apply({"type": "undo"})
        assert comparable(game) == before
        game.apply(action)               # and on with the game


@settings(max_examples=40, deadline=None)
@given(options=option_sets, players=tables, seed=st.integers(0, 2**32),
       steps=st.integers(1, 400))
def test_a_game_equals_its_exported_file_read_back(
        options: dict[str, Any], players: list[str], seed: int, steps: int) -> None:
    game = new_game("card_chicago", players, options)
    play(game, random.Random(seed), steps)
    again = load_game(json.loads(json.dumps(game.to_file())))
    assert again.state() == game.state()
    assert again.log == game.log


@settings(max_examples=40, deadline=None)
@given(options=option_sets, players=tables, seed=st.integers(0, 2**32),
       steps=st.integers(1, 400))
def test_the_totals_are_the_sum_of_the_deals(
        options: dict[str, Any], players: list[str], seed: int, steps: int) -> None:
    game = new_game("card_chicago", players, options)
    play(game, random.Random(seed), steps)
    state = game.state()
    deals = state["deals"] + ([] if state["finished"] else [state["deal"]])
    for player in state["players"]:
        assert player["score"] == sum(d["points"][player["name"]] for d in deals)
    royal_win = any("wins at once with a royal flush" in e
                    for d in state["deals"] for e in d["events"])
    if state["finished"] and not royal_win:
        # The highest total among those who may win (with a Chicago, if required).
        eligible = [p for p in state["players"]
                    if options["win_needs_chicago"] == "no" or p["chicago"]]
        best = max(p["score"] for p in eligible)
        assert best >= 52
        assert [p["name"] for p in eligible if p["score"] == best] == [state["winner"]]


def test_an_illegal_action_after_undo_is_still_refused() -> None:
    game = new_game("card_chicago", ["Aino", "Bertil"])
    game.apply({"type": "show", "round": 1, "hands": {"Aino": "AS AH 2D 3C 4S"}})
    game.apply({"type": "undo"})
    assert game.state()["players"][0]["score"] == 0
    game.apply({"type": "show", "round": 1, "hands": {}})
    try:
        game.apply({"type": "show", "round": 1, "hands": {}})
    except IllegalAction as exc:
        assert "action 3 (show)" in str(exc)
    else:
        raise AssertionError("a second show of round 1 was accepted")


# -- the example game in docs/ ---------------------------------------------------------------

def test_the_example_game_replays_to_its_result() -> None:
    game = load_game(json.loads(DOCS.read_text()))
    state = game.state()
    # Worked out by hand from the file:
    # deal 1 (Aino deals): Cecilia three queens 3; Aino straight flush 8; Bertil takes
    #   the last trick 5; Aino straight flush 8           -> Aino 16, Bertil 5, Cecilia 3
    # deal 2 (Bertil deals): Aino two pair 2; Cecilia straight 4; Aino calls Chicago
    #   at 18 and loses the third trick to Bertil: -15     -> Aino 3, Bertil 5, Cecilia 7
    # deal 3 (Cecilia deals): Bertil four nines 7 and 7; calls at 19 and takes all five
    #   tricks: +15 and the last trick 5; four nines 7     -> Bertil 46: buy stop
    # deal 4 (Aino deals; Bertil keeps his cards): Cecilia's flush 5 beats Bertil's
    #   straight; Bertil straight 4 (50); Bertil takes the last trick 5 (55); straight 4
    #                                                      -> Aino 3, Bertil 59, Cecilia 12
    assert {p["name"]: p["score"] for p in state["players"]} == {
        "Aino": 3, "Bertil": 59, "Cecilia": 12}
    assert state["finished"] and state["winner"] == "Bertil"
    assert [d["points"] for d in state["deals"]] == [
        {"Aino": 16, "Bertil": 5, "Cecilia": 3},
        {"Aino": -13, "Bertil": 0, "Cecilia": 4},
        {"Aino": 0, "Bertil": 41, "Cecilia": 0},
        {"Aino": 0, "Bertil": 13, "Cecilia": 5},
    ]
    assert [d["chicago"] for d in state["deals"]] == [None, "failed", "won", None]
    assert state["deal"]["dealer"] == "Aino" and state["deal"]["buy_stop"] == ["Bertil"]


def test_the_example_game_refuses_bertils_exchange_under_buy_stop() -> None:
    data = json.loads(DOCS.read_text())
    # Deal 4 begins after deal 3's final hands (the second round-3 show: deal 2 had none).
    finals = [i for i, a in enumerate(data["actions"])
              if a["type"] == "show" and a["round"] == 3]
    deal_4 = finals[1] + 1
    data["actions"].insert(deal_4, {"type": "exchange", "player": "Bertil", "count": 1})
    try:
        load_game(data)
    except IllegalAction as exc:
        assert f"action {deal_4} (exchange by Bertil)" in str(exc)
        assert "under buy stop" in str(exc)
    else:
        raise AssertionError("Bertil exchanged under buy stop")
