"""The product owner's games: 10000 and Card Chicago, written by hand from RULES.md alone.

Each game is a game file (GAMEFILE.md) as a small literal, replayed with
``scorer.load_game`` as ``dicetray replay`` does, and compared with the result worked
out on paper from RULES.md (the arithmetic is in the comments). Nothing here was taken
from the engines' code.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorer import Game, IllegalAction, load_game

FORMAT = "dicetray-game/1"


def replay(family: str, players: list[str], actions: list[dict[str, Any]],
           **options: Any) -> Game:
    return load_game({"format": FORMAT, "family": family, "options": options,
                      "players": players, "actions": actions})


def scores(game: Game) -> dict[str, int]:
    return {p["name"]: p["score"] for p in game.state()["players"]}


def core(game: Game) -> set[str]:
    """The legal action types of ``next``, without the undo/correct every game offers."""
    return set(game.state()["next"]["actions"]) - {"undo", "correct"}


def refused(family: str, players: list[str], actions: list[dict[str, Any]],
            **options: Any) -> IllegalAction:
    """Replaying must fail on the last action; the error names its index."""
    with pytest.raises(IllegalAction) as caught:
        replay(family, players, actions, **options)
    error = caught.value
    assert error.index == len(actions) - 1, str(error)
    assert str(error).startswith(f"action {len(actions) - 1} "), str(error)
    assert error.reason.strip(), str(error)
    return error


# =====================================================================================
# 10000 (RULES.md §3)
# =====================================================================================

TT = "ten_thousand"
AB = ["Aino", "Bertil"]
ABC = ["Aino", "Bertil", "Cecilia"]


def roll(player: str, *dice: int) -> dict[str, Any]:
    return {"type": "roll", "player": player, "dice": list(dice)}


def keep(player: str, *dice: int) -> dict[str, Any]:
    return {"type": "set_aside", "player": player, "dice": list(dice)}


def bank(player: str) -> dict[str, Any]:
    return {"type": "bank", "player": player}


# Six dice with nothing that scores: no 1, no 5, no triple, only two pairs, no straight.
FARKLE = (2, 2, 3, 3, 4, 6)


def farkle(player: str) -> dict[str, Any]:
    return roll(player, *FARKLE)


def ten_thousand(player: str) -> list[dict[str, Any]]:
    """A turn of exactly 10000: six 1s (8000), hot dice, four 1s (2000), bank."""
    return [roll(player, 1, 1, 1, 1, 1, 1), keep(player, *[1] * 6),
            roll(player, 1, 1, 1, 1, 2, 3), keep(player, 1, 1, 1, 1), bank(player)]


# -- one throw, set aside, banked: the scoring table and its options -------------------
# (options, throw, dice set aside, points worked by hand). Opening 0, so every bank counts.
ONE_THROW = [
    ({}, (1, 5, 2, 3, 3, 4), (1, 5), 150),                    # 100 + 50
    ({}, (1, 5, 2, 3, 3, 4), (5,), 50),                       # any subset of the scoring dice
    ({}, (1, 1, 1, 2, 3, 4), (1, 1, 1), 1000),                # three 1s
    ({}, (1, 1, 1, 5, 5, 2), (1, 1, 1, 5, 5), 1100),          # 1000 + 50 + 50
    ({}, (2, 2, 2, 3, 4, 6), (2, 2, 2), 200),                 # 100 x 2
    ({}, (6, 6, 6, 2, 3, 4), (6, 6, 6), 600),                 # 100 x 6
    ({}, (6, 6, 6, 6, 2, 3), (6, 6, 6, 6), 1200),             # 2 x 600
    ({}, (4, 4, 4, 4, 2, 3), (4, 4, 4, 4), 800),              # seed 003: four 4s = 800
    ({}, (4, 4, 4, 4, 4, 2), (4, 4, 4, 4, 4), 1600),          # 4 x 400
    ({}, (3, 3, 3, 3, 3, 2), (3, 3, 3, 3, 3), 1200),          # seed 003: five 3s = 1200
    ({}, (2, 2, 2, 2, 2, 2), (2,) * 6, 1600),                 # seed 003: six 2s = 8 x 200
    ({}, (1,) * 6, (1,) * 6, 8000),                           # 8 x 1000
    ({}, (5, 5, 5, 5, 5, 1), (5, 5, 5, 5, 5, 1), 2100),       # 4 x 500 + 100
    ({"multiples": "linear"}, (6, 6, 6, 6, 2, 3), (6, 6, 6, 6), 1200),     # 2 x 600
    ({"multiples": "linear"}, (4, 4, 4, 4, 4, 2), (4, 4, 4, 4, 4), 1200),  # 3 x 400
    ({"multiples": "linear"}, (1,) * 6, (1,) * 6, 4000),                   # 4 x 1000
    ({"multiples": "linear"}, (2, 2, 2, 2, 2, 5), (2,) * 5 + (5,), 650),   # 3 x 200 + 50
    # six of a kind only as six of a kind: linear six 3s = 4 x 300 = 1200, though two
    # triplets (2500) or three pairs (1500) would be worth more
    ({"multiples": "linear"}, (3,) * 6, (3,) * 6, 1200),
    ({"greed": True}, (1, 1, 1, 2, 3, 4), (1, 1, 1), 300),                 # Greed: 300
    ({"greed": True}, (1, 1, 1, 1, 2, 3), (1, 1, 1, 1), 600),              # 2 x 300
    ({"greed": True}, (1, 1, 1, 1, 1, 3), (1,) * 5, 1200),                 # 4 x 300
    ({"greed": True}, (1,) * 6, (1,) * 6, 2400),                           # 8 x 300
    ({"greed": True, "multiples": "linear"}, (1, 1, 1, 1, 1, 3), (1,) * 5, 900),  # 3 x 300
    ({"greed": True, "multiples": "linear"}, (1,) * 6, (1,) * 6, 1200),           # 4 x 300
    ({"greed": True}, (1, 5, 2, 3, 3, 4), (1,), 100),         # a single 1 is still 100
    ({}, (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6), 1500),       # straight
    ({"straight": 2000}, (6, 5, 4, 3, 2, 1), (1, 2, 3, 4, 5, 6), 2000),
    ({}, (1, 2, 3, 4, 5, 6), (1, 5), 150),                    # or just the singles
    ({"specials": False}, (1, 2, 3, 4, 5, 6), (1, 5), 150),   # straight off: 100 + 50
    ({}, (2, 2, 4, 4, 6, 6), (2, 2, 4, 4, 6, 6), 1500),       # three pairs
    ({"three_pairs": 1000}, (2, 2, 4, 4, 6, 6), (2, 2, 4, 4, 6, 6), 1000),
    ({}, (1, 1, 5, 5, 3, 3), (1, 1, 5, 5, 3, 3), 1500),       # beats 100+100+50+50
    ({}, (3, 3, 3, 5, 5, 5), (3, 3, 3, 5, 5, 5), 2500),       # two triplets
    ({}, (1, 1, 1, 5, 5, 5), (1, 1, 1, 5, 5, 5), 2500),       # beats 1000 + 500
    ({"greed": True}, (1, 1, 1, 5, 5, 5), (1, 1, 1, 5, 5, 5), 2500),
    ({"specials": False}, (3, 3, 3, 5, 5, 5), (3, 3, 3, 5, 5, 5), 800),  # 300 + 500
    ({"specials": False}, (1, 1, 1, 5, 5, 5), (1, 1, 1, 5, 5, 5), 1500),  # 1000 + 500
    # four of a kind + a pair may count as three pairs; the best partition is taken
    ({}, (2, 2, 2, 2, 3, 3), (2, 2, 2, 2, 3, 3), 1500),       # 1500 > 400 (+ 3,3 nothing)
    ({"three_pairs": 1000}, (2, 2, 2, 2, 3, 3), (2, 2, 2, 2, 3, 3), 1000),
    ({}, (6, 6, 6, 6, 1, 1), (6, 6, 6, 6, 1, 1), 1500),       # 1500 > 1200 + 200
    ({"three_pairs": 1000}, (6, 6, 6, 6, 1, 1), (6, 6, 6, 6, 1, 1), 1400),  # 1200+200 > 1000
    ({}, (1, 1, 1, 1, 5, 5), (1, 1, 1, 1, 5, 5), 2100),       # 2000 + 100 > 1500
    ({"specials": False}, (2, 2, 2, 2, 3, 3), (2, 2, 2, 2), 400),
    ({"multiples": "linear", "three_pairs": 1000}, (5, 5, 5, 5, 1, 1),
     (5, 5, 5, 5, 1, 1), 1200),                               # 1000 + 200 > 1000
]


@pytest.mark.parametrize("options, throw, kept, points", ONE_THROW)
def test_one_throw_scores(options: dict[str, Any], throw: tuple[int, ...],
                          kept: tuple[int, ...], points: int) -> None:
    game = replay(TT, AB, [roll("Aino", *throw), keep("Aino", *kept), bank("Aino")],
                  opening=0, **options)
    assert scores(game) == {"Aino": points, "Bertil": 0}
    state = game.state()
    assert state["next"]["player"] == "Bertil"
    assert core(game) == {"roll"}
    assert state["next"]["dice"] == 6


# (options, throw, dice set aside): refused, a die set aside that does not score
NOT_SCORING = [
    ({}, (1, 2, 3, 4, 6, 6), (1, 2)),                          # the 2 scores nothing
    ({}, (1, 1, 2, 3, 4, 6), (1, 1, 1)),                       # only two 1s in the throw
    ({"specials": False}, (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)),  # straight is off
    ({"specials": False}, (2, 2, 2, 2, 3, 3), (2, 2, 2, 2, 3, 3)),  # three pairs are off
    ({}, (2, 2, 2, 2, 3, 4), (2, 2, 2, 2, 3)),                 # the 3 is in no combination
    ({}, (1, 2, 3, 4, 5, 5), (1, 2, 3, 4, 5)),                 # five dice are no straight
]


@pytest.mark.parametrize("options, throw, kept", NOT_SCORING)
def test_set_aside_of_dice_that_do_not_score_is_refused(
        options: dict[str, Any], throw: tuple[int, ...], kept: tuple[int, ...]) -> None:
    refused(TT, AB, [roll("Aino", *throw), keep("Aino", *kept)], **options)


# (options, throw): a farkle, the turn passes
FARKLES = [
    ({}, FARKLE),
    ({}, (6, 6, 4, 4, 3, 2)),
    ({"specials": False}, (2, 2, 4, 4, 6, 6)),                 # three pairs are off
    ({"specials": False}, (2, 2, 3, 3, 4, 4)),
]


@pytest.mark.parametrize("options, throw", FARKLES)
def test_farkle_passes_the_turn(options: dict[str, Any], throw: tuple[int, ...]) -> None:
    game = replay(TT, AB, [roll("Aino", *throw)], **options)
    state = game.state()
    assert state["last_throw"]["farkle"] is True
    assert state["next"]["player"] == "Bertil" and state["next"]["dice"] == 6
    assert core(game) == {"roll"}


def test_three_pairs_is_no_farkle_with_specials_on() -> None:
    game = replay(TT, AB, [roll("Aino", 2, 2, 4, 4, 6, 6)])
    assert game.state()["next"]["player"] == "Aino"
    assert core(game) == {"set_aside"}


def test_the_throw_lists_its_legal_selections() -> None:
    # 2,2,2,2,3,3: three pairs 1500; four 2s 400; three 2s 200; nothing else scores.
    game = replay(TT, AB, [roll("Aino", 2, 2, 2, 2, 3, 3)])
    choices = {tuple(sorted(c["dice"])): c["points"] for c in game.state()["turn"]["choices"]}
    assert choices == {(2, 2, 2, 2, 3, 3): 1500, (2, 2, 2, 2): 400, (2, 2, 2): 200}


# -- whole games ------------------------------------------------------------------------

def test_opening_threshold_and_a_farkle() -> None:
    game = replay(TT, AB, [
        roll("Aino", 1, 5, 2, 3, 3, 4), keep("Aino", 1, 5),      # 150, 4 dice left
        roll("Aino", 1, 1, 1, 6), keep("Aino", 1, 1, 1),         # +1000 = 1150, 1 left
        bank("Aino"),                                            # 1150 >= 500: opens
        roll("Bertil", 1, 2, 3, 4, 6, 6), keep("Bertil", 1),     # 100
        bank("Bertil"),                                          # 100 < 500: records nothing
        farkle("Aino"),                                          # Aino stays at 1150
        roll("Bertil", 5, 5, 5, 2, 3, 4), keep("Bertil", 5, 5, 5),
        bank("Bertil"),                                          # exactly 500: opens
    ])
    assert scores(game) == {"Aino": 1150, "Bertil": 500}
    state = game.state()
    assert [p["opened"] for p in state["players"]] == [True, True]
    assert state["next"]["player"] == "Aino" and state["next"]["dice"] == 6
    assert core(game) == {"roll"}
    assert not state["finished"] and state["winner"] is None


def test_opening_350_and_750() -> None:
    # 5000 with opening 350: 300 records nothing, 350 opens; then small banks count.
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 1, 2, 3, 4), keep("Aino", 1), roll("Aino", 1, 5, 2, 3, 6),
        keep("Aino", 1, 5), bank("Aino"),                        # 100 + 150 = 250 < 350
        roll("Bertil", 3, 3, 3, 5, 2, 4), keep("Bertil", 3, 3, 3, 5), bank("Bertil"),  # 350
        roll("Aino", 5, 2, 3, 4, 6, 6), keep("Aino", 5), bank("Aino"),  # 50 < 350 again
        roll("Bertil", 5, 2, 3, 4, 6, 6), keep("Bertil", 5), bank("Bertil"),  # 350 + 50
    ], target=5000, opening=350)
    assert scores(game) == {"Aino": 0, "Bertil": 400}
    game = replay(TT, AB, [
        roll("Aino", 6, 6, 6, 2, 3, 4), keep("Aino", 6, 6, 6), bank("Aino"),  # 600 < 750
        roll("Bertil", 6, 6, 6, 5, 3, 4), keep("Bertil", 6, 6, 6, 5),
        roll("Bertil", 1, 2), keep("Bertil", 1), bank("Bertil"),  # 650 + 100 = 750
    ], opening=750)
    assert scores(game) == {"Aino": 0, "Bertil": 750}


def test_scoring_dice_come_from_one_throw() -> None:
    actions = [
        roll("Aino", 1, 1, 2, 3, 4, 6), keep("Aino", 1, 1),     # 200, 4 dice left
        roll("Aino", 1, 2, 3, 6), keep("Aino", 1),               # 300, 3 left (no 1,1,1)
        roll("Aino", 5, 4, 6), keep("Aino", 5),                  # 350, 2 left
    ]
    game = replay(TT, AB, actions, opening=0)
    assert game.state()["turn"]["points"] == 350
    assert game.state()["next"]["dice"] == 2
    # the 1s of the first throw do not make three 1s with the one of the second
    refused(TT, AB, actions[:3] + [keep("Aino", 1, 1, 1)], opening=0)
    # a straight is never built over two throws: 1 now, then 2-3-4-5-6 is just a 5
    game = replay(TT, AB, [
        roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino", 1),
        roll("Aino", 2, 3, 4, 5, 6), keep("Aino", 5), bank("Aino")], opening=0)
    assert scores(game)["Aino"] == 150                           # 100 + 50
    refused(TT, AB, [roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino", 1),
                     roll("Aino", 2, 3, 4, 5, 6), keep("Aino", 2, 3, 4, 5, 6)])


def test_hot_dice_then_bank() -> None:
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 5, 2, 3, 6), keep("Aino", 1, 1, 5),  # 250, 3 left
        roll("Aino", 5, 5, 5), keep("Aino", 5, 5, 5),            # 750, all six scored
    ])
    state = game.state()
    assert state["next"]["player"] == "Aino" and state["next"]["dice"] == 6
    assert core(game) == {"roll", "bank"}
    assert state["turn"]["points"] == 750
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 5, 2, 3, 6), keep("Aino", 1, 1, 5),
        roll("Aino", 5, 5, 5), keep("Aino", 5, 5, 5),
        roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino", 1),         # 850 with six dice
        bank("Aino"),
    ])
    assert scores(game) == {"Aino": 850, "Bertil": 0}
    # a straight is hot dice by itself: 1500, then six dice again
    game = replay(TT, AB, [roll("Aino", 1, 2, 3, 4, 5, 6), keep("Aino", 1, 2, 3, 4, 5, 6),
                           roll("Aino", 5, 2, 2, 3, 4, 6), keep("Aino", 5), bank("Aino")])
    assert scores(game)["Aino"] == 1550
    # hot dice twice over in one turn
    game = replay(TT, AB, [roll("Aino", 1, 1, 1, 5, 5, 5), keep("Aino", 1, 1, 1, 5, 5, 5),
                           roll("Aino", 2, 2, 2, 3, 3, 3), keep("Aino", 2, 2, 2, 3, 3, 3),
                           roll("Aino", 1, 2, 2, 3, 4, 6), keep("Aino", 1), bank("Aino")])
    assert scores(game)["Aino"] == 2500 + 2500 + 100


def test_hot_dice_then_farkle_loses_the_turn() -> None:
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 1, 1, 1, 1), keep("Aino", 1, 1, 1, 1, 1, 1),  # 8000, hot dice
        farkle("Aino"),                                          # all 8000 lost
        roll("Bertil", 5, 2, 2, 3, 4, 6), keep("Bertil", 5), roll("Bertil", 2, 3, 4, 6, 6),
    ])
    # Bertil: 50 set aside, then a five-dice throw 2,3,4,6,6 with nothing: farkle
    assert scores(game) == {"Aino": 0, "Bertil": 0}
    assert game.state()["next"]["player"] == "Aino"
    assert [p["farkles_in_a_row"] for p in game.state()["players"]] == [1, 1]


def test_bank_needs_points_set_aside_from_the_latest_throw() -> None:
    refused(TT, AB, [roll("Aino", 1, 5, 2, 3, 3, 4), bank("Aino")])
    refused(TT, AB, [bank("Aino")])


def test_three_farkles_cost_1000_before_opening_and_the_count_restarts() -> None:
    game = replay(TT, AB, [
        farkle("Aino"),                                          # A: 1 in a row
        farkle("Bertil"),                                        # B: 1
        farkle("Aino"),                                          # A: 2
        roll("Bertil", 1, 2, 2, 3, 4, 6), keep("Bertil", 1), bank("Bertil"),  # B: 0 again
        farkle("Aino"),                                          # A: 3 -> -1000, count 0
        farkle("Bertil"),                                        # B: 1
        farkle("Aino"),                                          # A: 1
        farkle("Bertil"),                                        # B: 2
        roll("Aino", 1, 1, 1, 5, 2, 3), keep("Aino", 1, 1, 1, 5), bank("Aino"),
        farkle("Bertil"),                                        # B: 3 -> -1000
    ], three_farkles=-1000)
    # Aino: -1000 + 1050 (opens: 1050 >= 500) = 50; Bertil: -1000 (negative, not opened)
    assert scores(game) == {"Aino": 50, "Bertil": -1000}
    state = game.state()
    assert [p["farkles_in_a_row"] for p in state["players"]] == [0, 0]
    assert [p["opened"] for p in state["players"]] == [True, False]
    assert state["next"]["player"] == "Aino"
    # six farkles in a row: -1000 twice
    game = replay(TT, ["Aino"], [farkle("Aino")] * 6, three_farkles=-1000)
    assert scores(game) == {"Aino": -2000}
    # without the option, no penalty
    game = replay(TT, ["Aino"], [farkle("Aino")] * 3)
    assert scores(game) == {"Aino": 0}


def test_exact_target_and_final_round() -> None:
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 1, 1, 1, 2), keep("Aino", 1, 1, 1, 1, 1), bank("Aino"),  # 4000
        farkle("Bertil"),
        roll("Aino", 1, 1, 1, 5, 2, 3), keep("Aino", 1, 1, 1, 5), bank("Aino"),  # 5050 > 5000
        farkle("Bertil"),
    ], target=5000, exact_target=True, opening=0)
    assert scores(game) == {"Aino": 4000, "Bertil": 0}           # the bank was lost
    assert game.state()["next"]["player"] == "Aino"
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 1, 1, 1, 2), keep("Aino", 1, 1, 1, 1, 1), bank("Aino"),  # 4000
        farkle("Bertil"),
        roll("Aino", 1, 1, 1, 2, 3, 4), keep("Aino", 1, 1, 1), bank("Aino"),  # 5000 exactly
    ], target=5000, exact_target=True, opening=0)
    state = game.state()
    assert scores(game) == {"Aino": 5000, "Bertil": 0}
    assert not state["finished"] and state["next"]["player"] == "Bertil"  # final round
    game.apply(roll("Bertil", 1, 1, 1, 1, 1, 1))
    game.apply(keep("Bertil", 1, 1, 1, 1, 1, 1))
    game.apply(bank("Bertil"))                                   # 8000 > 5000: lost
    state = game.state()
    assert scores(game) == {"Aino": 5000, "Bertil": 0}
    assert state["finished"] and state["winner"] == "Aino"
    assert core(game) == set()


def test_final_round_only_the_first_to_reach_the_target_starts_it() -> None:
    game = replay(TT, ABC, [
        roll("Aino", 1, 1, 1, 1, 1, 1), keep("Aino", 1, 1, 1, 1, 1, 1),     # 8000, hot
        roll("Aino", 1, 1, 1, 1, 2, 3), keep("Aino", 1, 1, 1, 1), bank("Aino"),  # +2000
        # Aino 10000 >= 10000: final round, Bertil and Cecilia get one turn each
        roll("Bertil", 1, 1, 1, 1, 1, 1), keep("Bertil", 1, 1, 1, 1, 1, 1),  # 8000
        roll("Bertil", 1, 1, 1, 1, 1, 1), keep("Bertil", 1, 1, 1, 1, 1, 1),  # 16000
        bank("Bertil"),                     # reaches the target in the final round: no new one
    ])
    state = game.state()
    assert not state["finished"]
    assert state["next"]["player"] == "Cecilia"
    game.apply(roll("Cecilia", 1, 2, 3, 4, 6, 6))
    game.apply(keep("Cecilia", 1))
    game.apply(bank("Cecilia"))                                  # 100 < 500: nothing
    state = game.state()
    assert scores(game) == {"Aino": 10000, "Bertil": 16000, "Cecilia": 0}
    assert state["finished"] and state["winner"] == "Bertil"
    with pytest.raises(IllegalAction) as caught:
        game.apply(roll("Aino", 1, 2, 3, 4, 5, 6))              # Aino gets no other turn
    assert caught.value.index == len(game)


def test_final_round_started_mid_table_wraps_to_the_first_seat() -> None:
    game = replay(TT, ABC, [
        roll("Aino", 1, 1, 1, 2, 3, 4), keep("Aino", 1, 1, 1), bank("Aino"),   # 1000
        roll("Bertil", 1, 1, 1, 1, 1, 1), keep("Bertil", 1, 1, 1, 1, 1, 1),
        roll("Bertil", 1, 1, 1, 1, 1, 1), keep("Bertil", 1, 1, 1, 1, 1, 1),
        bank("Bertil"),                                          # 16000: final round
        farkle("Cecilia"),
    ])
    state = game.state()
    assert not state["finished"] and state["next"]["player"] == "Aino"
    game.apply(roll("Aino", 1, 1, 1, 1, 1, 1))
    game.apply(keep("Aino", 1, 1, 1, 1, 1, 1))                   # 8000
    game.apply(roll("Aino", 1, 1, 1, 1, 1, 2))
    game.apply(keep("Aino", 1, 1, 1, 1, 1))                      # +4000 = 12000
    game.apply(bank("Aino"))                                     # 1000 + 12000 = 13000
    state = game.state()
    assert scores(game) == {"Aino": 13000, "Bertil": 16000, "Cecilia": 0}
    assert state["finished"] and state["winner"] == "Bertil"


def test_tie_after_the_final_round_plays_extra_rounds_among_the_tied() -> None:
    game = replay(TT, ABC, ten_thousand("Aino") + ten_thousand("Bertil") + [farkle("Cecilia")])
    # 10000 - 10000 - 0: Aino and Bertil tie; Cecilia is out of it
    state = game.state()
    assert not state["finished"] and state["winner"] is None
    assert state["next"]["player"] == "Aino"
    refused(TT, ABC, ten_thousand("Aino") + ten_thousand("Bertil") + [
        farkle("Cecilia"), roll("Cecilia", 1, 2, 3, 4, 5, 6)])
    game = replay(TT, ABC, ten_thousand("Aino") + ten_thousand("Bertil") + [farkle("Cecilia")] + [
        roll("Aino", 5, 5, 5, 2, 3, 4), keep("Aino", 5, 5, 5), bank("Aino"),     # 10500
        roll("Bertil", 5, 5, 5, 2, 3, 4), keep("Bertil", 5, 5, 5), bank("Bertil"),  # 10500
        farkle("Aino"),                                          # still tied: round 2
    ])
    assert not game.state()["finished"]
    assert game.state()["next"]["player"] == "Bertil"
    game.apply(roll("Bertil", 5, 2, 3, 4, 6, 6))
    game.apply(keep("Bertil", 5))
    game.apply(bank("Bertil"))                                   # 10550 leads after a round
    state = game.state()
    assert scores(game) == {"Aino": 10500, "Bertil": 10550, "Cecilia": 0}
    assert state["finished"] and state["winner"] == "Bertil"


def test_final_round_off_the_first_to_reach_the_target_wins_at_once() -> None:
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 1, 1, 1, 2), keep("Aino", 1, 1, 1, 1, 1), bank("Aino"),  # 4000
        roll("Bertil", 1, 1, 1, 1, 1, 1), keep("Bertil", 1, 1, 1, 1, 1, 1), bank("Bertil"),
    ], target=5000, opening=350, final_round=False)
    state = game.state()
    assert scores(game) == {"Aino": 4000, "Bertil": 8000}
    assert state["finished"] and state["winner"] == "Bertil"
    assert core(game) == set()
    # Aino's first turn: 8000 >= 5000 wins at once, Bertil never throws
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 1, 1, 1, 1), keep("Aino", 1, 1, 1, 1, 1, 1), bank("Aino"),
    ], target=5000, final_round=False)
    assert game.state()["finished"] and game.state()["winner"] == "Aino"


def test_zilch_every_scoring_die_is_set_aside() -> None:
    # 1,5,2,3,3,4: the 1 and the 5 both score, so keeping only the 1 is refused
    refused(TT, AB, [roll("Aino", 1, 5, 2, 3, 3, 4), keep("Aino", 1)], zilch=True)
    refused(TT, AB, [roll("Aino", 1, 1, 1, 1, 2, 3), keep("Aino", 1, 1, 1)], zilch=True)
    game = replay(TT, AB, [
        roll("Aino", 1, 5, 2, 3, 3, 4), keep("Aino", 1, 5),      # 150
        roll("Aino", 5, 5, 5, 2), keep("Aino", 5, 5, 5),          # 650
        bank("Aino"),
    ], zilch=True)
    assert scores(game) == {"Aino": 650, "Bertil": 0}
    # without Zilch the single 1 is fine
    game = replay(TT, AB, [roll("Aino", 1, 5, 2, 3, 3, 4), keep("Aino", 1)])
    assert game.state()["turn"]["points"] == 100 and game.state()["next"]["dice"] == 5


def test_undo_mid_turn() -> None:
    game = replay(TT, AB, [
        roll("Aino", 1, 5, 2, 3, 3, 4), keep("Aino", 1, 5),
        {"type": "undo"},                                        # the set_aside is taken back
    ])
    state = game.state()
    assert state["next"]["player"] == "Aino" and core(game) == {"set_aside"}
    assert state["turn"]["points"] == 0
    game.apply(keep("Aino", 1))                                  # 100, 5 left
    game.apply(roll("Aino", 5, 5, 5, 2, 3))
    game.apply(keep("Aino", 5, 5, 5))                            # 600
    game.apply(bank("Aino"))
    assert scores(game) == {"Aino": 600, "Bertil": 0}
    assert game.state()["next"]["player"] == "Bertil"
    game.apply({"type": "undo"})                                 # the bank taken back
    state = game.state()
    assert scores(game) == {"Aino": 0, "Bertil": 0}
    assert state["next"]["player"] == "Aino" and core(game) == {"roll", "bank"}
    assert state["turn"]["points"] == 600 and state["next"]["dice"] == 2


def test_correct_mid_turn() -> None:
    base = [
        roll("Aino", 1, 5, 2, 3, 3, 4), keep("Aino", 1, 5),      # 0, 1: 150
        roll("Aino", 1, 1, 1, 2), keep("Aino", 1, 1, 1),         # 2, 3: 1150, 1 left
    ]
    # 2 was really 1,1,1,1: keeping three 1s is still legal; one die (a 1) left
    game = replay(TT, AB, base + [{"type": "correct", "action": 2, "dice": [1, 1, 1, 1]},
                                  roll("Aino", 1), keep("Aino", 1)])
    state = game.state()
    assert state["dropped"] == []
    assert state["turn"]["points"] == 1250 and state["next"]["dice"] == 6   # hot dice
    # 2 was really 5,2,3,4: the set_aside of three 1s is dropped and the turn ends there
    game = replay(TT, AB, base + [{"type": "correct", "action": 2, "dice": [5, 2, 3, 4]}])
    state = game.state()
    assert [d["action"] for d in state["dropped"]] == [3]
    assert state["next"]["player"] == "Bertil"
    assert scores(game) == {"Aino": 0, "Bertil": 0}
    # a farkle misread: corrected to a scoring throw, Bertil's turn after it stands
    game = replay(TT, AB, [
        farkle("Aino"),
        roll("Bertil", 5, 5, 5, 2, 3, 4), keep("Bertil", 5, 5, 5), bank("Bertil"),
        {"type": "correct", "action": 0, "dice": [1, 1, 1, 2, 3, 4]},
    ])
    state = game.state()
    assert scores(game) == {"Aino": 0, "Bertil": 500}
    assert state["dropped"] == []
    assert state["next"]["player"] == "Aino"
    assert [p["farkles_in_a_row"] for p in state["players"]] == [0, 0]
    # a scoring throw misread: it was a farkle, so the set_aside and bank are dropped
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 1, 2, 3, 4), keep("Aino", 1, 1, 1), bank("Aino"),
        {"type": "correct", "action": 0, "dice": list(FARKLE)},
    ])
    state = game.state()
    assert scores(game) == {"Aino": 0, "Bertil": 0}
    assert [d["action"] for d in state["dropped"]] == [1, 2]
    assert state["next"]["player"] == "Bertil"


ILLEGAL_10000 = [
    [roll("Bertil", 1, 2, 3, 4, 5, 6)],                          # not Bertil's turn
    [roll("Aino", 1, 2, 3, 4, 5, 7)],                            # 7 is no die
    [roll("Aino", 1, 2, 3, 4, 5, 0)],                            # 0 is no die
    [roll("Aino", 1, 2, 3, 4, 5)],                               # five dice, six due
    [roll("Aino", 1, 1, 2, 3, 4, 6), keep("Aino", 1, 1), roll("Aino", 1, 2, 3, 4, 6, 6)],
    [roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino", 5)],           # no 5 in the throw
    [roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino")],              # nothing set aside
    [roll("Aino", 1, 2, 3, 4, 6, 6), roll("Aino", 1, 2, 3, 4, 6, 6)],  # set aside first
    [roll("Aino", 1, 2, 3, 4, 6, 6), keep("Bertil", 1)],
    [farkle("Aino"), keep("Aino", 2)],                            # the turn is over
    [{"type": "call", "player": "Aino"}],                        # a card_chicago action
    [{"type": "roll", "player": "Zoe", "dice": [1, 2, 3, 4, 5, 6]}],
    [{"type": "correct", "action": 0, "dice": [1, 1, 1, 1, 1, 1]}],  # nothing to correct
    [{"type": "undo"}],                                          # nothing to undo
]


@pytest.mark.parametrize("actions", ILLEGAL_10000)
def test_illegal_10000_actions_name_index_and_reason(actions: list[dict[str, Any]]) -> None:
    refused(TT, AB, actions)
    # live: the state is unchanged after the error
    game = replay(TT, AB, actions[:-1])
    before = game.state()
    with pytest.raises(IllegalAction):
        game.apply(actions[-1])
    assert game.state() == before


# =====================================================================================
# Card Chicago (RULES.md §4)
# =====================================================================================

CC = "card_chicago"
P3 = ["A", "B", "C"]          # A deals first; B (left of A) exchanges first and leads
P4 = ["A", "B", "C", "D"]


def show(number: int, **hands: str) -> dict[str, Any]:
    return {"type": "show", "round": number, "hands": hands}


def trick(winner: str, card: str) -> dict[str, Any]:
    return {"type": "trick", "winner": winner, "card": card}


def exchange(player: str, count: int) -> dict[str, Any]:
    return {"type": "exchange", "player": player, "count": count}


def call(player: str) -> dict[str, Any]:
    return {"type": "call", "player": player}


def tricks(*winners: str) -> list[dict[str, Any]]:
    """Five tricks (or fewer) by their winners alone: a trick's card may be left out, and
    an entered card would have to be in its winner's final hand."""
    return [{"type": "trick", "winner": w} for w in winners]


def quiet_deal(last: str = "A") -> list[dict[str, Any]]:
    """A deal where nobody shows a hand and ``last`` takes the last trick (5)."""
    return [show(2), *tricks("B", "C", "A", "B", last), show(3)]


FOUR_9 = "9S 9H 9D 9C 2S"       # four of a kind, 7
TWO_PAIR_9 = "9S 9H 2D 2C 3S"   # two pair, 2


def deal_of_21(player: str) -> list[dict[str, Any]]:
    """Four 9s after exchanges 1 and 2, the last trick, two pair at the end: 7+7+5+2 = 21."""
    return [show(1, **{player: FOUR_9}), show(2, **{player: FOUR_9}),
            *tricks("C", "C", "C", "C", player), show(3, **{player: TWO_PAIR_9})]


def deal_of_26(player: str = "B") -> list[dict[str, Any]]:
    """``player`` shows four 9s after exchanges 1, 2 and the tricks and takes the last
    trick: 7 + 7 + 5 + 7 = 26."""
    return [show(1, **{player: FOUR_9}), show(2, **{player: FOUR_9}),
            *tricks("A", "B", "C", "A", player), show(3, **{player: FOUR_9})]


# -- hand comparison: one show of exchange 1, (options, hands, who scores, points) -------
COMPARISONS = [
    ({}, {"B": "KS KH 7D 4C 2S", "C": "QS QH AD JC 9S"}, "B", 1),     # pair K > pair Q
    ({}, {"B": "9S 9H AD KC 2S", "C": "9D 9C AS QH JD"}, "B", 1),     # kicker K > Q
    ({}, {"B": "9S 9H AD KC 3S", "C": "9D 9C AS KH 2D"}, "B", 1),     # last kicker 3 > 2
    ({}, {"B": "KS KH 3D 3C 2S", "C": "QS QH JD JC AS"}, "B", 2),     # two pair: K top
    ({}, {"B": "KS KH 5D 5C 2S", "C": "KD KC 4S 4H AH"}, "B", 2),     # second pair 5 > 4
    ({}, {"B": "KS KH 5D 5C 3S", "C": "KD KC 5S 5H 2H"}, "B", 2),     # kicker 3 > 2
    ({}, {"B": "AS AH KD KC QS", "C": "2S 2H 2D 7C 8S"}, "C", 3),     # trips > two pair
    ({}, {"B": "AS 2H 3D 4C 5S", "C": "KS KH KD 7C 8S"}, "B", 4),     # A-2-3-4-5 straight
    ({}, {"B": "AS 2H 3D 4C 5S", "C": "2S 3H 4D 5C 6S"}, "C", 4),     # wheel is lowest
    ({}, {"B": "AS KH QD JC TS", "C": "KS QH JD TC 9S"}, "B", 4),     # A-high > K-high
    ({}, {"B": "QS KH AD 2C 3S", "C": "TS 8H 6D 4C 2D"}, None, 0),    # Q-K-A-2-3: no straight
    ({}, {"B": "2H 5H 8H TH KH", "C": "9S TD JC QS KD"}, "B", 5),     # flush > straight
    ({}, {"B": "AH JH 9H 6H 3H", "C": "AS JS 9S 6S 2S"}, "B", 5),     # flush: 3 > 2 last
    ({}, {"B": "3S 3H 3D AC AD", "C": "4S 4H 4D 2C 2S"}, "C", 6),     # full house: trips
    ({}, {"B": "5S 5H 5D 5C 2S", "C": "KS KH KD QC QS"}, "B", 7),     # four of a kind
    ({"four_of_a_kind": 8}, {"B": "5S 5H 5D 5C 2S", "C": "KS KH KD QC QS"}, "B", 8),
    ({}, {"B": "9H 8H 7H 6H 5H", "C": "AS AH AD AC KS"}, "B", 8),     # straight flush
    ({"straight_flush": 11}, {"B": "9H 8H 7H 6H 5H", "C": "AS AH AD AC KS"}, "B", 11),
    ({}, {"B": "AD 2D 3D 4D 5D", "C": "2C 3C 4C 5C 6C"}, "C", 8),     # steel wheel lowest
    ({}, {"B": "AS KS QS JS TS", "C": "KH QH JH TH 9H"}, "B", 52),    # royal flush
    ({"royal_flush": 20}, {"B": "AS KS QS JS TS", "C": "KH QH JH TH 9H"}, "B", 20),
    ({"royal_flush": 8}, {"B": "AS KS QS JS TS", "C": "KH QH JH TH 9H"}, "B", 8),
    ({}, {"B": "KS KH 9D 5C 2S", "C": "KD KC 9S 5H 2D"}, None, 0),    # exactly equal
    # exactly equal best hands: nobody scores, not even the next best (A's pair)
    ({}, {"A": "3S 3H 7D 8C TS", "B": "KS KH 9D 5C 2S", "C": "KD KC 9S 5H 2D"}, None, 0),
    # suit order (spades, hearts, diamonds, clubs): every card of the winner outranks
    ({"equal_hands": "suit_order"}, {"B": "KS KH 9S 5S 2H", "C": "KD KC 9D 5C 2D"}, "B", 1),
    ({"equal_hands": "suit_order"}, {"B": "KD KC 9D 5C 2D", "C": "KS KH 9S 5S 2H"}, "C", 1),
    ({"equal_hands": "suit_order"}, {"B": "KS KH 9D 5C 2S", "C": "QD QC 9S 5H 2D"}, "B", 1),
    ({}, {"B": "AS KH 9D 5C 3S", "C": "AH KD 9S 6C 2H"}, None, 0),    # nobody has a pair
    ({}, {"A": "3S 3H 7D 8C TS", "B": "KS KH KD 5C 2S", "C": "QS QH JD JC AS"}, "B", 3),
]


@pytest.mark.parametrize("options, hands, best, points", COMPARISONS)
def test_the_best_hand_of_a_show_scores(options: dict[str, Any], hands: dict[str, str],
                                        best: str | None, points: int) -> None:
    game = replay(CC, P3, [show(1, **hands)], **options)
    expected = {p: 0 for p in P3}
    if best is not None:
        expected[best] = points
    assert scores(game) == expected
    assert not game.state()["finished"]           # even 52 waits for the end of the deal


def test_royal_flush_wins_at_once_with_the_win_option() -> None:
    game = replay(CC, P3, [show(1, B="AS KS QS JS TS", C="KH QH JH TH 9H")],
                  royal_flush="win")
    state = game.state()
    assert state["finished"] and state["winner"] == "B"
    assert core(game) == set()


def test_seed_004_example_deal() -> None:
    # Four players; A deals, so B exchanges first and leads the first trick.
    game = replay(CC, P4, [
        exchange("B", 2), exchange("C", 1), exchange("D", 0), exchange("A", 3),
        show(1, A="KS KH 4D 4C 9S", B="QS QH 7D 3C 2S"),        # A two pair: 2
        show(2, C="7S 7H 7D AC 2H", A="KS KH 4D 4C 9S"),        # C three 7s: 3
    ])
    state = game.state()
    assert scores(game) == {"A": 2, "B": 0, "C": 3, "D": 0}
    assert state["next"]["player"] == "B"
    assert "trick" in core(game) and "call" not in core(game)   # nobody has 15
    game = replay(CC, P4, game.log + [
        trick("C", "AH"), trick("C", "KD"), trick("D", "QD"), trick("A", "JC"),
        trick("B", "AD"),                                        # B: last trick 5
        show(3, D="2D 5D 8D JD QD", C="7S 7H 7D AH KD"),        # D flush: 5
    ])
    state = game.state()
    assert scores(game) == {"A": 2, "B": 5, "C": 3, "D": 5}
    assert not state["finished"]
    assert state["next"]["player"] == "C"                        # B deals the second deal
    assert core(game) == {"exchange", "show"}
    assert state["next"]["round"] == 1


def test_seed_001_47_and_a_flush_is_52_and_the_deal_is_played_out() -> None:
    game = replay(CC, P3, deal_of_26("B") + [                   # deal 1 (A deals): B 26
        # deal 2 (B deals): 7 + 7 + last trick 5 + two pair 2 = 21 -> 47
        show(1, B=FOUR_9), show(2, B=FOUR_9), *tricks("A", "B", "C", "A", "B"),
        show(3, B=TWO_PAIR_9),
        # deal 3 (C deals, A first): B is at 47 >= 46, so no exchange for B
        show(2, B="2H 5H 8H TH KH", C="3S 3H 4D 7C 8S"),        # B flush 5 -> 52
    ])
    state = game.state()
    assert scores(game) == {"A": 0, "B": 52, "C": 0}
    assert not state["finished"]                                 # the deal goes on
    assert state["next"]["player"] == "A"
    game = replay(CC, P3, game.log + [*tricks("A", "A", "C", "B", "C"),   # C last trick 5
                                      show(3, C="3S 3H 4D 7C 8S")])       # C pair 1
    state = game.state()
    assert scores(game) == {"A": 0, "B": 52, "C": 6}
    assert state["finished"] and state["winner"] == "B"


def test_tie_at_52_plays_on() -> None:
    game = replay(CC, P3, [
        show(1, B="AS KS QS JS TS"),                             # B royal flush 52
        show(2, C="AH KH QH JH TH"),                             # C royal flush 52
        *tricks("B", "C", "A", "B", "A"), show(3),               # A last trick 5
    ])
    state = game.state()
    assert scores(game) == {"A": 5, "B": 52, "C": 52}
    assert not state["finished"] and state["winner"] is None
    # B deals deal 2; C, left of B, would exchange first but is stopped (52 >= 46)
    assert state["deal"]["dealer"] == "B" and state["deal"]["leader"] == "C"
    assert state["next"]["player"] == "A"
    game = replay(CC, P3, game.log + [
        show(1, C="2S 2H 5D 7C 9S"),                             # C 53
        *quiet_deal("A"),                                        # A 10
    ])
    state = game.state()
    assert scores(game) == {"A": 10, "B": 52, "C": 53}
    assert state["finished"] and state["winner"] == "C"


def test_the_dealer_rotates_and_the_trick_winner_leads() -> None:
    actions: list[dict[str, Any]] = [show(2)]
    game = replay(CC, P3, actions)
    assert game.state()["next"]["player"] == "B"                 # deal 1: A deals, B leads
    for i, winner in enumerate(["C", "A", "A", "B"]):
        actions.append(tricks("C", "A", "A", "B", "C")[i])
        game = replay(CC, P3, actions)
        assert game.state()["next"]["player"] == winner          # the winner leads next
    actions += [tricks("C", "A", "A", "B", "C")[4], show(3)]
    game = replay(CC, P3, actions)
    assert scores(game) == {"A": 0, "B": 0, "C": 5}
    assert game.state()["next"]["player"] == "C"                 # deal 2: B deals
    actions += quiet_deal("A")
    assert replay(CC, P3, actions).state()["next"]["player"] == "A"   # deal 3: C deals
    actions += quiet_deal("A")
    assert replay(CC, P3, actions).state()["next"]["player"] == "B"   # deal 4: A deals
    game = replay(CC, P4, quiet_deal("A") + quiet_deal("A") + quiet_deal("A") + [show(2)])
    assert game.state()["next"]["player"] == "A"                 # 4th deal: D deals


def test_chicago_success() -> None:
    game = replay(CC, P3, deal_of_26("B") + [
        show(2),                                                 # deal 2: B deals, C first
        call("B"),                                               # B has 26 >= 15
    ])
    state = game.state()
    assert state["next"]["player"] == "B"                        # the caller leads
    game = replay(CC, P3, game.log + [
        *tricks("B", "B", "B", "B", "B"),                        # +15 and last trick 5
        show(3, B="AH AD 3C 4C 7S", C="KD QD 9C 7C 5S"),        # B pair 1
    ])
    state = game.state()
    # B: 26 + 15 + 5 + 1 = 47
    assert scores(game) == {"A": 0, "B": 47, "C": 0}
    assert [p["chicago"] for p in state["players"]] == [False, True, False]
    assert [p["buy_stop"] for p in state["players"]] == [False, True, False]   # 47 >= 46
    assert state["next"]["player"] == "A"                        # deal 3: C deals
    refused(CC, P3, game.log + [exchange("B", 1)])               # buy stop
    assert not replay(CC, P3, game.log + [exchange("A", 5)]).state()["finished"]


def test_chicago_failure_ends_the_deal_at_once() -> None:
    start = deal_of_26("B") + [
        show(1, C="2S 2H 5D 7C 9S"), show(2, C="2S 2H 5D 7C 9S"),   # C 1 + 1 = 2
        call("B"),
    ]
    game = replay(CC, P3, start + [trick("B", "AS"), trick("B", "KS"), trick("C", "QS")])
    state = game.state()
    # B: 26 - 15 = 11; no last trick, no final hand; C keeps the 2 of the shows
    assert scores(game) == {"A": 0, "B": 11, "C": 2}
    assert state["next"]["player"] == "A"                        # deal 3: C deals
    assert core(game) == {"exchange", "show"} and state["next"]["round"] == 1
    refused(CC, P3, game.log + [trick("C", "JS")])               # the deal is over
    refused(CC, P3, game.log + [show(3, C="2S 2H 5D 7C 9S")])
    # the first trick of an opponent ends it, even the very first
    game = replay(CC, P3, start + [trick("A", "AS")])
    assert scores(game) == {"A": 0, "B": 11, "C": 2}


def test_chicago_lead_dealer_left() -> None:
    game = replay(CC, P3, deal_of_26("B") + [show(2), call("B")],
                  chicago_lead="dealer_left")
    assert game.state()["next"]["player"] == "C"                 # B dealt; C keeps the lead


def test_chicago_needs_15_points_unless_always() -> None:
    error = refused(CC, P3, [show(2), call("B")])                # B has 0
    assert "15" in error.reason
    game = replay(CC, P3, [show(2), call("B"), *tricks("B", "B", "B", "B", "B"), show(3)],
                  chicago_from=0)
    assert scores(game) == {"A": 0, "B": 20, "C": 0}             # 15 + 5
    # 14 is not enough: deal 1 gives B 7 + 7 = 14 (the last trick goes to A)
    refused(CC, P3, [show(1, B=FOUR_9), show(2, B=FOUR_9), *tricks("B", "B", "B", "B", "A"),
                     show(3), show(2), call("B")])


def test_one_chicago_call_per_deal_and_only_before_the_first_trick() -> None:
    two_rich = deal_of_26("B") + deal_of_26("C")                 # B 26, C 26; A deals deal 3
    refused(CC, P3, two_rich + [show(2), call("B"), call("C")])
    refused(CC, P3, two_rich + [show(2), trick("A", "AS"), call("B")])


def test_buy_stop_thresholds() -> None:
    # B: deal 1 26; deal 2: 7 + 7 + two pair 2 = 16 (A takes the last trick) -> 42
    to_42 = deal_of_26("B") + [show(1, B=FOUR_9), show(2, B=FOUR_9),
                               *tricks("A", "B", "C", "B", "A"), show(3, B=TWO_PAIR_9)]
    assert scores(replay(CC, P3, to_42)) == {"A": 5, "B": 42, "C": 0}
    for limit, stopped in ((46, False), (42, True), (41, True)):
        game = replay(CC, P3, to_42, buy_stop=limit)
        assert game.state()["players"][1]["buy_stop"] is stopped
        if stopped:
            refused(CC, P3, to_42 + [exchange("B", 1)], buy_stop=limit)
        else:
            replay(CC, P3, to_42 + [exchange("B", 1)], buy_stop=limit)


def test_buy_stop_for_the_deal_or_the_game() -> None:
    to_42 = deal_of_26("B") + [show(1, B=FOUR_9), show(2, B=FOUR_9),
                               *tricks("A", "B", "C", "B", "A"), show(3, B=TWO_PAIR_9)]
    # deal 3 (C deals): B, stopped at 42 >= 41, calls and loses the first trick: 42-15 = 27
    failed = to_42 + [show(2), call("B"), trick("A", "AS")]
    game = replay(CC, P3, failed, buy_stop=41)
    assert scores(game) == {"A": 5, "B": 27, "C": 0}
    # deal 4 (A deals, B first): B ended deal 3 at 27 < 41
    game = replay(CC, P3, failed + [exchange("B", 1)], buy_stop=41)
    assert game.state()["players"][1]["buy_stop"] is False
    refused(CC, P3, failed + [exchange("B", 1)], buy_stop=41, buy_stop_lasts="game")


def test_win_needs_chicago() -> None:
    royal_deal = [show(1, B="AS KS QS JS TS"), *quiet_deal("A")]     # B 52, A 5
    # no (default): B wins
    game = replay(CC, P3, royal_deal)
    assert game.state()["finished"] and game.state()["winner"] == "B"
    # play_on: no Chicago yet, so the game goes on
    game = replay(CC, P3, royal_deal, win_needs_chicago="play_on")
    assert scores(game) == {"A": 5, "B": 52, "C": 0}
    assert not game.state()["finished"]
    game = replay(CC, P3, royal_deal + [
        show(2), call("B"), *tricks("B", "B", "B", "B", "B"), show(3)],   # 52 + 15 + 5
        win_needs_chicago="play_on")
    assert scores(game) == {"A": 5, "B": 72, "C": 0}
    assert game.state()["finished"] and game.state()["winner"] == "B"
    # reset: B is back to 0 when the deal ends, and may exchange in the next one
    game = replay(CC, P3, royal_deal, win_needs_chicago="reset")
    assert scores(game) == {"A": 5, "B": 0, "C": 0}
    assert not game.state()["finished"]
    replay(CC, P3, royal_deal + [exchange("C", 2), exchange("B", 1)],
           win_needs_chicago="reset")
    # a Chicago in the same deal counts: 52 + 15 + 5 = 72, wins
    for rule in ("play_on", "reset"):
        game = replay(CC, P3, [show(1, B="AS KS QS JS TS"), show(2), call("B"),
                               *tricks("B", "B", "B", "B", "B"), show(3)],
                      win_needs_chicago=rule)
        assert scores(game) == {"A": 0, "B": 72, "C": 0}
        assert game.state()["finished"] and game.state()["winner"] == "B"


def test_zero_option() -> None:
    first = [
        show(1, A="KS KH 4D 4C 9S"),                             # A two pair 2
        show(2, C="7S 7H 7D AC 2H"),                             # C three 7s 3
        *tricks("A", "C", "A", "C", "B"),                        # B last trick 5
        show(3, C="7S 7H 7D AH 2C"),                             # C three 7s 3
    ]
    assert scores(replay(CC, P3, first, zero_option=True)) == {"A": 2, "B": 5, "C": 6}
    game = replay(CC, P3, first + [show(1, B="5S 5H 5D 5C KS", A="QS QH 2D 3C 4S"),
                                   {"type": "zero", "player": "B"}], zero_option=True)
    # B's four of a kind zeroes A and C instead of scoring 7; the deal ends
    state = game.state()
    assert scores(game) == {"A": 0, "B": 5, "C": 0}
    assert state["next"]["player"] == "A"                        # deal 3: C deals
    assert core(game) == {"exchange", "show"} and state["next"]["round"] == 1
    # not without the option, and only by the player whose four of a kind won
    refused(CC, P3, first + [show(1, B="5S 5H 5D 5C KS"), {"type": "zero", "player": "B"}])
    refused(CC, P3, first + [show(1, B="5S 5H 5D 5C KS"), {"type": "zero", "player": "A"}],
            zero_option=True)
    refused(CC, P3, first + [show(1, B="5S 5H 5D KC KS"), {"type": "zero", "player": "B"}],
            zero_option=True)


def test_last_trick_two_bonus() -> None:
    game = replay(CC, P3, [show(2), *tricks("B", "C", "A", "B"), trick("C", "2H"), show(3)],
                  last_trick="two_bonus")
    assert scores(game) == {"A": 0, "B": 0, "C": 5}              # won with a two: 5
    game = replay(CC, P3, [show(2), *tricks("B", "C", "A", "B"), trick("C", "AH"), show(3)],
                  last_trick="two_bonus")
    assert scores(game) == {"A": 0, "B": 0, "C": 2}              # any other card: 2
    game = replay(CC, P3, [show(2), *tricks("B", "C", "A", "B"), trick("C", "2H"), show(3)])
    assert scores(game) == {"A": 0, "B": 0, "C": 5}              # default: always 5


ILLEGAL_CARDS = [
    [exchange("B", 6)],                                          # 0 to 5 cards
    [exchange("B", 1), exchange("B", 2)],                        # once per exchange
    [exchange("Zoe", 1)],
    [show(1, B="AS KS QS JS 9S", C="AS 2H 3D 4C 5S")],           # AS in two hands
    [show(1, B="AS KS QS JS")],                                  # four cards
    [show(1, B="AS KS QS JS 1S")],                               # no such rank
    [show(1, B="AS KS QS JS TX")],                               # no such suit
    [show(1, B="AS AS QS JS TS")],                               # the same card twice
    [show(1, Zoe="AS KS QS JS TS")],
    [show(4, B="AS KS QS JS TS")],                               # rounds 1, 2, 3
    [show(1), show(2), show(3)],                                 # tricks come first
    [trick("B", "AS")],                                          # show 2 comes first
    [show(2), trick("B", "AS"), trick("C", "AS")],               # AS took a trick already
    [show(2), *tricks("B", "C", "A", "B", "C"), trick("A", "AS")],   # a sixth trick
    [show(2), trick("Zoe", "AS")],
    [show(2), call("A")],                                        # 0 < 15
]


@pytest.mark.parametrize("actions", ILLEGAL_CARDS)
def test_illegal_card_actions_name_index_and_reason(actions: list[dict[str, Any]]) -> None:
    refused(CC, P3, actions)
    game = replay(CC, P3, actions[:-1])
    before = game.state()
    with pytest.raises(IllegalAction):
        game.apply(actions[-1])
    assert game.state() == before


def test_two_bonus_needs_the_card_of_the_last_trick() -> None:
    refused(CC, P3, [show(2), *tricks("B", "C", "A", "B"), {"type": "trick", "winner": "C"}],
            last_trick="two_bonus")


# =====================================================================================
# More corners
# =====================================================================================

def test_10000_alone_for_a_record() -> None:
    game = replay(TT, ["Aino"], [roll("Aino", 1, 1, 1, 1, 1, 1), keep("Aino", *[1] * 6),
                                 roll("Aino", 1, 1, 1, 1, 2, 3), keep("Aino", 1, 1, 1, 1),
                                 bank("Aino")])
    # 8000 + 2000 = 10000: nobody else to play a final round
    assert game.state()["finished"] and game.state()["winner"] == "Aino"


def test_a_tie_below_the_top_is_no_tie() -> None:
    game = replay(TT, ABC, ten_thousand("Aino") + ten_thousand("Bertil") + [
        roll("Cecilia", 1, 1, 1, 1, 1, 1), keep("Cecilia", *[1] * 6),
        roll("Cecilia", 1, 1, 1, 1, 1, 2), keep("Cecilia", *[1] * 5), bank("Cecilia")])
    # 10000, 10000, 8000 + 4000 = 12000: Cecilia leads alone
    assert game.state()["finished"] and game.state()["winner"] == "Cecilia"


def test_tie_break_rounds_go_on_while_nobody_leads() -> None:
    game = replay(TT, AB, ten_thousand("Aino") + ten_thousand("Bertil") + [
        farkle("Aino"), farkle("Bertil"),                        # extra round 1: tied
        farkle("Aino"),
    ], exact_target=True)
    assert not game.state()["finished"] and game.state()["next"]["player"] == "Bertil"
    game.apply(roll("Bertil", 1, 1, 1, 1, 1, 1))
    game.apply(keep("Bertil", *[1] * 6))
    game.apply(bank("Bertil"))     # 18000: in tie-break rounds every bank counts
    assert scores(game) == {"Aino": 10000, "Bertil": 18000}
    assert game.state()["finished"] and game.state()["winner"] == "Bertil"


def test_undo_of_a_farkle_and_of_a_penalty() -> None:
    game = replay(TT, AB, [roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino", 1),
                           roll("Aino", 2, 3, 4, 6, 6), {"type": "undo"}])
    state = game.state()
    assert state["next"]["player"] == "Aino" and core(game) == {"roll", "bank"}
    assert state["turn"]["points"] == 100 and state["next"]["dice"] == 5
    six = [farkle("Aino"), farkle("Bertil")] * 3
    game = replay(TT, AB, six[:-1] + [{"type": "undo"}], three_farkles=-1000)
    # Aino's third farkle is undone: 2 in a row each, no penalty, Aino throws again
    assert scores(game) == {"Aino": 0, "Bertil": 0}
    assert [p["farkles_in_a_row"] for p in game.state()["players"]] == [2, 2]
    assert game.state()["next"]["player"] == "Aino"
    game = replay(TT, AB, six + [{"type": "undo"}], three_farkles=-1000)
    # Aino's third farkle stands (-1000, count 0); Bertil's third is undone
    assert scores(game) == {"Aino": -1000, "Bertil": 0}
    assert [p["farkles_in_a_row"] for p in game.state()["players"]] == [0, 2]
    assert game.state()["next"]["player"] == "Bertil"


def test_a_correction_that_removes_a_farkle_removes_its_penalty() -> None:
    six = [farkle("Aino"), farkle("Bertil")] * 3
    game = replay(TT, AB, six + [{"type": "correct", "action": 0, "dice": [1, 2, 2, 3, 4, 6]}],
                  three_farkles=-1000)
    # Aino's first throw scores after all: that turn is cut short (no bank, no farkle),
    # so only two farkles in a row remain; Bertil's three still cost 1000
    assert scores(game) == {"Aino": 0, "Bertil": -1000}
    assert game.state()["dropped"] == []


def test_a_correction_must_itself_be_a_legal_roll() -> None:
    base = [roll("Aino", 1, 5, 2, 3, 3, 4), keep("Aino", 1, 5), roll("Aino", 1, 1, 1, 2)]
    refused(TT, AB, base + [{"type": "correct", "action": 2, "dice": [1, 1, 1]}])     # 3 dice
    refused(TT, AB, base + [{"type": "correct", "action": 2, "dice": [1, 1, 1, 9]}])  # 9
    refused(TT, AB, base + [{"type": "correct", "action": 1, "dice": [1, 1, 1, 1]}])  # keep


def test_zilch_with_every_die_scoring() -> None:
    game = replay(TT, AB, [roll("Aino", 1, 1, 1, 5, 5, 5), keep("Aino", 1, 1, 1, 5, 5, 5),
                           roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino", 1), bank("Aino")],
                  zilch=True)
    assert scores(game)["Aino"] == 2500 + 100                    # two triplets, hot, 1


def test_farkle_chances_for_the_dice_left() -> None:
    # RULES.md §3: 6 dice 2.31 %, 5: 7.72 %, 4: 15.74 %, 3: 27.78 %, 2: 44.44 %, 1: 66.67 %
    seen = {}
    game = replay(TT, ["Aino"], [])
    seen[6] = game.state()["farkle_chance"]
    actions = [roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino", 1)]
    throws = [(5, 2, 3, 4, 6), (5, 2, 3, 4), (5, 2, 3), (5, 2), (5,)]
    for left, throw in zip((5, 4, 3, 2, 1), throws):
        seen[left] = replay(TT, ["Aino"], actions).state()["farkle_chance"]
        actions += [roll("Aino", *throw), keep("Aino", 5)]
    expected = {6: 2.31, 5: 7.72, 4: 15.74, 3: 27.78, 2: 44.44, 1: 66.67}
    assert {k: round(100 * v, 2) for k, v in seen.items()} == expected


def test_chicago_counts_points_won_earlier_in_the_same_deal() -> None:
    # deal 1: B 7 + 7 = 14 (A takes the last trick); deal 2: B's pair after exchange 1: 15
    start = [show(1, B=FOUR_9), show(2, B=FOUR_9), *tricks("B", "B", "B", "B", "A"), show(3),
             show(1, B="KS KH 7D 4C 2S")]
    refused(CC, P3, start[:-1] + [show(2), call("B")])          # 14
    game = replay(CC, P3, start + [show(2), call("B")])          # 15: allowed
    assert game.state()["deal"]["caller"] == "B"


def test_chicago_success_others_still_score_the_final_hand() -> None:
    game = replay(CC, P3, deal_of_26("B") + [
        show(2), call("B"), *tricks("B", "B", "B", "B", "B"),
        show(3, B="AH AD 3C 4C 7S", C="KD KC QD QC 5S"),        # C two pair beats B's pair
    ])
    assert scores(game) == {"A": 0, "B": 26 + 15 + 5, "C": 2}


def test_a_failed_call_can_go_negative_and_can_undo_a_52() -> None:
    game = replay(CC, P3, [show(2), call("B"), trick("C", "AS")], chicago_from=0)
    assert scores(game) == {"A": 0, "B": -15, "C": 0}
    # B at 52 after exchange 1, calls and fails: 37 when the deal ends, nobody wins
    game = replay(CC, P3, [show(1, B="AS KS QS JS TS"), show(2), call("B"), trick("A", "2S")])
    assert scores(game) == {"A": 0, "B": 37, "C": 0}
    assert not game.state()["finished"]
    assert game.state()["players"][1]["buy_stop"] is False       # 37 < 46


def test_the_highest_of_several_over_52_wins() -> None:
    game = replay(CC, P3, [
        show(1, B="AS KS QS JS TS"),                             # B 52
        show(2, C="AH KH QH JH TH"),                             # C 52
        *tricks("A", "B", "C", "A", "C"),                        # C 57
        show(3, B="AS KS QS JS TS"),                             # B 104
    ])
    assert scores(game) == {"A": 0, "B": 104, "C": 57}
    assert game.state()["finished"] and game.state()["winner"] == "B"


def test_win_needs_chicago_reset_and_another_player_with_a_chicago() -> None:
    # deal 1: C 26 (four 9s thrice, last trick); deal 2 (B deals): B royal 52, C calls
    # (26 >= 15) and takes all five: C 26 + 15 + 5 = 46 ... not 52 yet
    game = replay(CC, P3, deal_of_26("C") + [
        show(1, B="AS KS QS JS TS"), show(2), call("C"), *tricks("C", "C", "C", "C", "C"),
        show(3, C="QH QD QC 4S 3H"),                             # C three queens: 49
    ], win_needs_chicago="reset")
    # B reached 52 without a Chicago: reset to 0; C has 49 < 52: the game goes on
    assert scores(game) == {"A": 0, "B": 0, "C": 49}
    assert not game.state()["finished"]


def test_zero_with_four_of_a_kind_after_exchange_2_skips_the_tricks() -> None:
    game = replay(CC, P3, [
        show(1, A="KS KH 4D 4C 9S"),                             # A 2
        show(2, C="7S 7H 7D 7C 2H"),                             # C four 7s
        {"type": "zero", "player": "C"},                         # A -> 0; the deal ends
    ], zero_option=True)
    assert scores(game) == {"A": 0, "B": 0, "C": 0}
    assert game.state()["next"]["player"] == "C"                 # deal 2: B deals


def test_suit_order_breaks_equal_straights_by_their_top_card() -> None:
    # A-2-3-4-5: the 5 is the top card; 5S beats 5D although B holds the ace of hearts
    # against C's ace of spades
    game = replay(CC, P3, [show(1, B="AH 2S 3S 4S 5S", C="AS 2D 3D 4D 5D")],
                  equal_hands="suit_order")
    assert scores(game) == {"A": 0, "B": 4, "C": 0}
    game = replay(CC, P3, [show(1, B="AH JH 9H 6H 3H", C="AS JS 9S 6S 3S")],
                  equal_hands="suit_order")
    assert scores(game) == {"A": 0, "B": 0, "C": 5}              # equal flushes: spades


def test_more_than_four_players_play_with_a_warning() -> None:
    game = replay(CC, ["A", "B", "C", "D", "E"], [show(1, E="KS KH 7D 4C 2S")])
    assert scores(game)["E"] == 1
    assert game.state()["warning"]
    assert replay(CC, P4, []).state()["warning"] is None


MORE_THROWS = [
    ({}, (5,) * 6, (5,) * 6, 4000),                                       # 8 x 500
    ({"multiples": "linear"}, (5,) * 6, (5,) * 6, 2000),                  # 4 x 500
    ({"multiples": "linear"}, (1, 1, 1, 1, 1, 5), (1, 1, 1, 1, 1, 5), 3050),  # 3000 + 50
    ({}, (5, 5, 5, 5, 2, 3), (5, 5, 5, 5), 1000),                         # not 500 + 50
    ({}, (1, 1, 1, 1, 2, 3), (1, 1), 200),                                # two singles
    ({"greed": True}, (1, 1, 2, 2, 3, 3), (1, 1, 2, 2, 3, 3), 1500),      # three pairs
    ({"greed": True}, (1, 1, 1, 2, 2, 2), (1, 1, 1, 2, 2, 2), 2500),      # two triplets
    ({"zilch": True, "specials": False}, (2, 2, 2, 2, 3, 3), (2, 2, 2, 2), 400),
]


@pytest.mark.parametrize("options, throw, kept, points", MORE_THROWS)
def test_more_throws(options: dict[str, Any], throw: tuple[int, ...],
                     kept: tuple[int, ...], points: int) -> None:
    game = replay(TT, AB, [roll("Aino", *throw), keep("Aino", *kept), bank("Aino")],
                  opening=0, **options)
    assert scores(game) == {"Aino": points, "Bertil": 0}


def test_part_of_three_pairs_is_no_combination() -> None:
    refused(TT, AB, [roll("Aino", 2, 2, 4, 4, 6, 6), keep("Aino", 2, 2, 4, 4)])


def test_exact_target_without_final_round() -> None:
    four = [roll("Aino", 1, 1, 1, 1, 1, 2), keep("Aino", 1, 1, 1, 1, 1), bank("Aino"),
            farkle("Bertil")]                                     # Aino 4000
    game = replay(TT, AB, four + [roll("Aino", 1, 1, 1, 5, 2, 3), keep("Aino", 1, 1, 1, 5),
                                  bank("Aino")],                  # 5050: lost
                  target=5000, opening=0, exact_target=True, final_round=False)
    assert scores(game)["Aino"] == 4000 and not game.state()["finished"]
    game = replay(TT, AB, four + [roll("Aino", 1, 1, 1, 2, 3, 4), keep("Aino", 1, 1, 1),
                                  bank("Aino")],                  # 5000: wins at once
                  target=5000, opening=0, exact_target=True, final_round=False)
    assert game.state()["finished"] and game.state()["winner"] == "Aino"


def test_tie_break_among_the_tied_only_in_seat_order() -> None:
    game = replay(TT, ABC, [
        roll("Aino", 1, 1, 1, 1, 1, 1), keep("Aino", *[1] * 6),
        roll("Aino", 1, 1, 1, 1, 2, 3), keep("Aino", 1, 1, 1, 1), bank("Aino"),   # 10000
        roll("Bertil", 1, 1, 1, 1, 1, 1), keep("Bertil", *[1] * 6),
        roll("Bertil", 1, 1, 1, 1, 1, 2), keep("Bertil", *[1] * 5), bank("Bertil"),  # 12000
        roll("Cecilia", 1, 1, 1, 1, 1, 1), keep("Cecilia", *[1] * 6),
        roll("Cecilia", 1, 1, 1, 1, 1, 2), keep("Cecilia", *[1] * 5), bank("Cecilia"),
    ])
    # 10000 / 12000 / 12000: Bertil and Cecilia play on, Bertil first; Aino is out of it
    state = game.state()
    assert not state["finished"] and state["next"]["player"] == "Bertil"
    game.apply(farkle("Bertil"))
    assert game.state()["next"]["player"] == "Cecilia"
    game.apply(roll("Cecilia", 5, 2, 3, 4, 6, 6))
    game.apply(keep("Cecilia", 5))
    game.apply(bank("Cecilia"))
    assert game.state()["finished"] and game.state()["winner"] == "Cecilia"


def test_corrections_and_undo_around_the_end_of_a_game() -> None:
    ten = [roll("Aino", 1, 1, 1, 1, 1, 1), keep("Aino", *[1] * 6),          # 0, 1
           roll("Aino", 1, 1, 1, 1, 2, 3), keep("Aino", 1, 1, 1, 1),        # 2, 3
           bank("Aino"),                                                   # 4: 10000
           farkle("Bertil")]                                                # 5: game over
    game = replay(TT, AB, ten)
    assert game.state()["finished"] and game.state()["winner"] == "Aino"
    # Bertil's last throw was misread: it scored, so his turn is open again
    game = replay(TT, AB, ten + [{"type": "correct", "action": 5, "dice": [1, 2, 2, 3, 4, 6]}])
    state = game.state()
    assert not state["finished"] and state["next"]["player"] == "Bertil"
    assert core(game) == {"set_aside"}
    # Aino's second throw was misread: the four 1s and the bank are dropped, her turn ends
    # with nothing banked, and Bertil's farkle then stands as an ordinary turn
    game = replay(TT, AB, ten + [{"type": "correct", "action": 2, "dice": [1, 2, 2, 3, 4, 6]}])
    state = game.state()
    assert [d["action"] for d in state["dropped"]] == [3, 4]
    assert scores(game) == {"Aino": 0, "Bertil": 0}
    assert not state["finished"] and state["next"]["player"] == "Aino"
    # undo of the game's last action
    game = replay(TT, AB, ten + [{"type": "undo"}])
    assert not game.state()["finished"] and game.state()["next"]["player"] == "Bertil"


def test_card_chicago_undo() -> None:
    game = replay(CC, P3, [show(1, B="AS KS QS JS TS"), {"type": "undo"}], royal_flush="win")
    assert not game.state()["finished"] and scores(game) == {"A": 0, "B": 0, "C": 0}
    start = deal_of_26("B") + [show(2), call("B"), trick("B", "AS"), trick("C", "KS")]
    game = replay(CC, P3, start + [{"type": "undo"}])
    # back in deal 2 after the first trick: B still at 26, the call stands, B leads
    state = game.state()
    assert scores(game) == {"A": 0, "B": 26, "C": 0}
    assert state["deal"]["number"] == 2 and state["next"]["player"] == "B"
    assert "trick" in core(game)


def test_a_failed_call_ends_the_deal_and_52_then_wins() -> None:
    # C reaches 52 with a royal flush after exchange 1; B calls (26) and fails
    game = replay(CC, P3, deal_of_26("B") + [
        show(1, C="AS KS QS JS TS"), show(2), call("B"), trick("A", "AH")])
    assert scores(game) == {"A": 0, "B": 11, "C": 52}
    assert game.state()["finished"] and game.state()["winner"] == "C"


def test_two_players() -> None:
    game = replay(CC, ["A", "B"], [show(2), *tricks("A", "B", "A", "B", "B"), show(3),
                                   show(2)])
    # deal 1: A deals, B leads and takes the last trick; deal 2: B deals, A leads
    assert scores(game) == {"A": 0, "B": 5}
    assert game.state()["next"]["player"] == "A"


def test_dicetray_replay_prints_the_state_or_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from web.cli import main

    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": FORMAT, "family": CC, "players": P4, "actions": [
        show(1, A="KS KH 4D 4C 9S"), show(2, C="7S 7H 7D AC 2H"),
        trick("C", "AH"), trick("C", "KD"), trick("D", "QD"), trick("A", "JC"),
        trick("B", "AD"), show(3, D="2D 5D 8D JD QD")]}))
    assert main(["replay", str(path)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert {p["name"]: p["score"] for p in state["players"]} == {"A": 2, "B": 5, "C": 3, "D": 5}
    assert state["next"]["player"] == "C" and state["dropped"] == []
    path.write_text(json.dumps({"format": FORMAT, "family": TT, "players": AB, "actions": [
        roll("Aino", 1, 2, 3, 4, 6, 6), keep("Aino", 1, 2)]}))
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "action 1" in err


def test_zero_after_the_final_hands_and_only_right_after_the_show() -> None:
    game = replay(CC, P3, [
        show(1, A="KS KH 4D 4C 9S"),                             # A 2
        show(2), *tricks("A", "C", "A", "C", "B"),               # B last trick 5
        show(3, B="5S 5H 5D 5C KD", C="QS QH 2D 3C 4S"),
    ], zero_option=True)
    assert scores(game) == {"A": 2, "B": 12, "C": 0}             # scored 7 as usual...
    assert "zero" in core(game)                                  # ... unless B zeroes now
    game = replay(CC, P3, game.log + [{"type": "zero", "player": "B"}], zero_option=True)
    assert scores(game) == {"A": 0, "B": 5, "C": 0}              # instead of the 7
    assert game.state()["next"]["player"] == "C"                 # deal 2: B deals
    refused(CC, P3, [show(1, B="5S 5H 5D 5C KD"), exchange("C", 1),
                     {"type": "zero", "player": "B"}], zero_option=True)


def test_two_royal_flushes_in_one_show_are_equal() -> None:
    game = replay(CC, P3, [show(1, B="AS KS QS JS TS", C="AH KH QH JH TH")])
    assert scores(game) == {"A": 0, "B": 0, "C": 0}              # exactly equal: nobody
    game = replay(CC, P3, [show(1, B="AH KH QH JH TH", C="AS KS QS JS TS")],
                  equal_hands="suit_order")
    assert scores(game) == {"A": 0, "B": 0, "C": 52}             # spades


def test_seed_001_failed_call_example() -> None:
    # the caller takes two tricks with AS and KH, then loses the third to QC
    game = replay(CC, P3, deal_of_26("B") + [show(2), call("B"), trick("B", "AS"),
                                             trick("B", "KH"), trick("C", "QC")])
    assert scores(game) == {"A": 0, "B": 11, "C": 0}             # 26 - 15
    assert game.state()["deal"]["number"] == 3


def test_a_solo_players_next_turn_survives_a_correction_of_the_one_before() -> None:
    # Alone for a record: a farkle, then a turn of 1000. The farkle was misread (a 5 was
    # there): that turn ends as it stands, and the next turn replays normally, as it does
    # when another player's turn follows (test_correct_mid_turn) and as ten_thousand's
    # turn_key promises ("not even a solo player's next turns").
    game = replay(TT, ["Aino"], [
        farkle("Aino"),
        roll("Aino", 1, 1, 1, 2, 3, 4), keep("Aino", 1, 1, 1), bank("Aino"),
        {"type": "correct", "action": 0, "dice": [5, 2, 2, 3, 4, 6]},
    ])
    assert game.state()["dropped"] == []
    assert scores(game) == {"Aino": 1000}


def test_who_exchanges_next() -> None:
    game = replay(CC, P3, [])
    seen = [game.state()["next"]["player"]]
    for player in ("B", "C", "A"):
        game.apply(exchange(player, 2))
        seen.append(game.state()["next"]["player"])
    # A deals: B, C, then the dealer last; then the show is for everyone
    assert seen == ["B", "C", "A", None]
    assert core(game) == {"show"} and game.state()["next"]["round"] == 1
    game.apply(show(1))
    assert game.state()["next"]["player"] == "B"                 # exchange 2: B first again
    for player in ("B", "C", "A"):
        game.apply(exchange(player, 1))
    game.apply(show(2))
    for player in ("B", "C", "A"):
        assert game.state()["next"]["player"] == player          # exchange 3
        game.apply(exchange(player, 0))
    assert game.state()["next"]["player"] == "B" and core(game) == {"trick"}   # B leads


def test_opening_1000() -> None:
    game = replay(TT, AB, [
        roll("Aino", 1, 1, 1, 5, 2, 3), keep("Aino", 1, 1, 1), bank("Aino"),   # 1000: opens
        roll("Bertil", 5, 5, 5, 1, 2, 3), keep("Bertil", 5, 5, 5, 1),
        roll("Bertil", 1, 5), keep("Bertil", 1, 5), bank("Bertil"),            # 750 < 1000
    ], opening=1000)
    assert scores(game) == {"Aino": 1000, "Bertil": 0}


def test_seed_001_an_opponent_can_still_pass_the_52() -> None:
    game = replay(CC, P3, deal_of_26("B") + deal_of_26("A") + deal_of_21("B") + deal_of_21("A") + [
        # deal 5 (B deals): B and A are at 47 and under buy stop
        show(2, B="2H 5H 8H TH KH", A="3S 3H 4D 7C 8S"),        # B flush: 47 + 5 = 52
    ])
    assert scores(game) == {"A": 47, "B": 52, "C": 0}
    assert not game.state()["finished"]
    game = replay(CC, P3, game.log + [*tricks("C", "B", "A", "B", "A"),  # A last trick: 52
                                      show(3, A="3S 3H 4D 7C 8S")])      # A pair: 53
    # 26 + 21 = 47 each (7 + 7 + 5 + 2 in the second deal of each)
    assert scores(game) == {"A": 53, "B": 52, "C": 0}
    assert game.state()["finished"] and game.state()["winner"] == "A"


@pytest.mark.parametrize("rule", ["play_on", "reset"])
def test_an_earlier_chicago_lets_52_win_later(rule: str) -> None:
    game = replay(CC, P3, [
        show(2), call("B"), *tricks("B", "B", "B", "B", "B"), show(3),   # deal 1: B 15 + 5
        show(1, B="AS KS QS JS TS"), *quiet_deal("A"),                   # deal 2: B + 52
    ], chicago_from=0, win_needs_chicago=rule)
    assert scores(game) == {"A": 5, "B": 72, "C": 0}
    assert game.state()["finished"] and game.state()["winner"] == "B"
