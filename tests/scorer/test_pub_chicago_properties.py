"""Pub Chicago properties over random games played by ``random_action``."""
from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from scorer import load_game, new_game
from scorer.pub_chicago import random_action

VARIANTS = st.sampled_from(["basis", "bayrisch", "tschigg"])


def options_for(variant):
    # The match length is an option of Basis alone (RULES.md §2): the others end by themselves.
    return {"variant": variant, "match_length": 1} if variant == "basis" else {"variant": variant}


def random_game(seed: int, length: int, variant: str):
    rng = random.Random(seed)
    players = ["Aino", "Bertil", "Cecilia", "Doris", "Eero"][: 2 + seed % 4]
    game = new_game("pub_chicago", players, options_for(variant))
    for _ in range(length):
        if game.state()["finished"]:
            break
        game.apply(random_action(game, rng))
    return game, rng


def without_log_length(state):
    return {k: v for k, v in state.items() if k != "actions"}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(0, 60), variant=VARIANTS)
def test_undo_after_any_action_gives_the_state_before_it(seed, length, variant):
    game, rng = random_game(seed, length, variant)
    if game.state()["finished"]:
        return
    before = game.state()
    game.apply(random_action(game, rng))
    game.apply({"type": "undo"})
    assert without_log_length(game.state()) == without_log_length(before)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(0, 80), variant=VARIANTS,
       corrections=st.integers(0, 3))
def test_a_game_and_its_exported_file_replay_to_the_same_state(seed, length, variant,
                                                               corrections):
    game, rng = random_game(seed, length, variant)
    for _ in range(corrections):
        rolls = [i for i, a in enumerate(game.log) if a["type"] == "roll"]
        if rolls:
            target = rng.choice(rolls)
            dice = [rng.randint(1, 6) for _ in game.log[target]["dice"]]
            correction = {"type": "correct", "action": target, "dice": dice}
            if game.is_legal(correction):
                game.apply(correction)
    if not game.state()["finished"]:
        game.apply(random_action(game, rng))   # play on after the corrections
    copy = load_game(json.loads(json.dumps(game.to_file())))
    assert copy.state() == game.state()


def check_invariants(state, players: int) -> None:
    variant = state["variant"]
    if variant == "tschigg":
        assert state["lids_in_game"] == 2 * players - 1   # lids only move between players
    if variant == "bayrisch":
        assert state["lids_in_game"] <= players + 1
    if variant == "basis":
        strokes = sum(p["score"] for p in state["players"])
        assert strokes == len(state["search"]["losers"])
    if state["finished"]:
        loser = state["loser"]
        statuses = {p["name"]: p["status"] for p in state["players"]}
        assert loser is None or statuses[loser] == "loser"
        if variant == "basis":
            top = max(p["score"] for p in state["players"])
            assert [p["name"] for p in state["players"] if p["score"] == top] == [loser]
        elif loser is not None:
            assert all(p["score"] == 0 for p in state["players"] if p["name"] != loser)
    else:
        assert 0 <= state["next"]["dice"] <= 3


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), variant=VARIANTS)
def test_random_games_end_with_one_loser_and_keep_the_lids_and_strokes_straight(seed, variant):
    rng = random.Random(seed)
    players = ["A", "B", "C", "D"][: 2 + seed % 3]
    game = new_game("pub_chicago", players, options_for(variant))
    for _ in range(3000):
        state = game.state()
        check_invariants(state, len(players))
        if state["finished"]:
            break
        game.apply(random_action(game, rng))
    assert game.state()["finished"]


def check_next_actions(game) -> None:
    """Each family action type is accepted now exactly when ``next.actions`` lists it."""
    state = game.state()
    nxt = state["next"]
    player = nxt["player"] or "Aino"
    probes = {
        "roll": {"type": "roll", "player": player, "dice": [2] * max(nxt["dice"], 1)},
        "done": {"type": "done", "player": player},
        "turn_sixes": {"type": "turn_sixes", "player": player},
        "announce": {"type": "announce", "player": player, "ones": 1, "sixes": 6,
                     "order": "low"},
        "leader": {"type": "leader", "player": "Bertil"},
    }
    turn = (state["round"] or {}).get("turn") or {}
    if turn.get("loose"):
        probes["set_aside"] = {"type": "set_aside", "player": player, "dice": turn["loose"][:1]}
    for kind, probe in probes.items():
        if kind == "done" and game.raw_state.may_close == player:
            continue   # the redundant done of a turn that ended by itself is also accepted
        assert game.is_legal(probe) == (kind in nxt["actions"]), (kind, nxt)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), variant=VARIANTS)
def test_next_lists_exactly_the_actions_the_engine_accepts(seed, variant):
    game, rng = random_game(seed, 0, variant)
    for _ in range(150):
        check_next_actions(game)
        if game.state()["finished"]:
            break
        game.apply(random_action(game, rng))
