"""10000 (RULES.md §3) played through games: the turn, hot dice, farkles, opening, the
three-farkle penalty, exact target, Zilch, final and tie-break rounds, illegal actions,
corrections and the help text."""
from __future__ import annotations

import doctest
from typing import Any

import pytest

import scorer.ten_thousand as tt
from scorer import Game, GameFileError, IllegalAction, new_game
from scorer.farkle_scoring import farkle_chance

Raw = dict[str, Any]

#: A throw of six dice with no scoring die (no 1, no 5, no three alike, not three pairs).
FARKLE6 = (2, 2, 3, 3, 4, 6)


def roll(player: str, *dice: int) -> Raw:
    return {"type": "roll", "player": player, "dice": list(dice)}


def keep(player: str, *dice: int) -> Raw:
    return {"type": "set_aside", "player": player, "dice": list(dice)}


def bank(player: str) -> Raw:
    return {"type": "bank", "player": player}


def six_of(player: str, face: int) -> list[Raw]:
    """A turn of six of a kind, banked (doubling: 1s 8000, 5s 4000, 6s 4800, 2s 1600)."""
    return [roll(player, *[face] * 6), keep(player, *[face] * 6), bank(player)]


def small(player: str, points: int) -> list[Raw]:
    """A banked turn of single 1s and 5s worth ``points`` (50 to 300), thrown at once."""
    ones = min(2, points // 100)
    dice = [1] * ones + [5] * ((points - 100 * ones) // 50)
    return [roll(player, *dice, *[2, 3, 4, 6, 6, 4][:6 - len(dice)]), keep(player, *dice),
            bank(player)]


def farkle(player: str) -> list[Raw]:
    return [roll(player, *FARKLE6)]


def play(actions: list[Raw], players: tuple[str, ...] = ("A", "B"), **options: Any) -> Game:
    game = new_game("ten_thousand", list(players), options)
    for action in actions:
        game.apply(action)
    return game


def scores(game: Game) -> list[int]:
    return [p["score"] for p in game.state()["players"]]


def nxt(game: Game) -> dict[str, Any]:
    return dict(game.state()["next"])


# -- the turn --------------------------------------------------------------------------------


def test_the_gamefile_example() -> None:
    game = play([roll("Aino", 1, 1, 1, 4, 6, 2), keep("Aino", 1, 1, 1), roll("Aino", 5, 3, 3),
                 keep("Aino", 5), bank("Aino")], ("Aino", "Bertil"), opening=350, target=5000)
    state = game.state()
    assert scores(game) == [1050, 0]
    assert state["next"] == {"player": "Bertil", "actions": ["roll", "undo", "correct"], "dice": 6}
    assert state["finished"] is False and state["winner"] is None and state["loser"] is None


def test_a_turn_step_by_step() -> None:
    game = play([roll("A", 1, 5, 5, 2, 3, 4)])
    state = game.state()
    # A set_aside is due: the scoring choices of the throw are shown with their points.
    assert state["next"]["actions"][:1] == ["set_aside"] and state["next"]["dice"] == 0
    assert {tuple(c["dice"]): c["points"] for c in state["turn"]["choices"]} == {
        (1, 5, 5): 200, (1, 5): 150, (1,): 100, (5, 5): 100, (5,): 50}
    # Each choice says what it leaves: keeping 1-5-5 leaves three dice, a 27.78 % risk.
    first = state["turn"]["choices"][0]
    assert first["dice_left"] == 3 and round(100 * first["farkle_chance"], 2) == 27.78
    assert state["farkle_chance"] is None

    game.apply(keep("A", 1, 5))
    state = game.state()
    assert state["turn"]["points"] == 150 and state["turn"]["set_aside"] == [
        {"dice": [1, 5], "points": 150}]
    assert state["next"]["actions"][:2] == ["roll", "bank"] and state["next"]["dice"] == 4
    assert round(100 * state["farkle_chance"], 2) == 15.74   # four dice left
    assert state["turn"]["choices"] == []

    game.apply(roll("A", 5, 2, 3, 4))
    game.apply(keep("A", 5))
    assert game.state()["turn"]["points"] == 200 and game.state()["next"]["dice"] == 3
    assert round(100 * game.state()["farkle_chance"], 2) == 27.78


def test_dice_set_aside_earlier_never_combine_with_new_ones() -> None:
    game = play([roll("A", 2, 2, 2, 3, 4, 6), keep("A", 2, 2, 2), roll("A", 2, 5, 3)])
    with pytest.raises(IllegalAction, match="does not score"):
        game.apply(keep("A", 2))          # no four 2s across two throws
    game.apply(keep("A", 5))
    assert game.state()["turn"]["points"] == 250


def test_one_set_aside_per_throw() -> None:
    game = play([roll("A", 1, 5, 2, 3, 4, 6), keep("A", 1)])
    with pytest.raises(IllegalAction, match="already set aside: roll or bank"):
        game.apply(keep("A", 5))


def test_hot_dice_throw_all_six_again_keeping_the_points() -> None:
    game = play([roll("A", 1, 2, 2, 2, 3, 4), keep("A", 1, 2, 2, 2), roll("A", 5, 1)])
    assert game.state()["turn"]["choices"][0] == {
        "dice": [1, 5], "points": 150, "dice_left": 6, "farkle_chance": farkle_chance(6)}
    game.apply(keep("A", 5, 1))
    state = game.state()
    assert state["turn"]["points"] == 450 and state["turn"]["hot_dice"] == 1
    assert state["next"]["dice"] == 6
    game.apply(roll("A", 1, 2, 3, 4, 5, 6))
    game.apply(keep("A", 1, 2, 3, 4, 5, 6))     # a straight after hot dice: all six again
    game.apply(roll("A", *FARKLE6))             # ... and a farkle loses all of it
    assert scores(game) == [0, 0] and nxt(game)["player"] == "B"


def test_a_farkle_loses_the_turn_but_not_the_banked_points() -> None:
    game = play(small("A", 300) + farkle("B") + [roll("A", 1, 1, 1, 2, 3, 4),
                                                  keep("A", 1, 1, 1), roll("A", 2, 3, 4)],
                opening=0)
    state = game.state()
    assert scores(game) == [300, 0]
    assert state["last_throw"]["farkle"] is True
    assert state["last_turn"]["outcome"] == "farkle" and state["last_turn"]["at_stake"] == 1000
    assert state["players"][0]["farkles_in_a_row"] == 1
    assert state["next"] == {"player": "B", "actions": ["roll", "undo", "correct"], "dice": 6}


# -- opening ---------------------------------------------------------------------------------


def test_opening_threshold() -> None:
    game = play(small("A", 300) + farkle("B"))
    assert scores(game) == [0, 0]                     # 300 < 500: allowed, records nothing
    assert game.state()["players"][0]["opened"] is False
    game.apply(roll("A", 5, 5, 5, 2, 3, 4))
    assert game.state()["turn"]["needs_to_open"] == 500
    for action in [keep("A", 5, 5, 5)] + [bank("A")] + farkle("B") + small("A", 50):
        game.apply(action)
    assert scores(game) == [550, 0]                   # opened with 500, then 50 counts


@pytest.mark.parametrize("opening,recorded", [(0, 50), (350, 0), (750, 0), (1000, 0)])
def test_opening_options(opening: int, recorded: int) -> None:
    assert scores(play(small("A", 50), opening=opening))[0] == recorded


def test_opening_exactly_at_the_threshold_counts() -> None:
    assert scores(play(small("A", 300) + small("B", 250) + small("A", 50), opening=350)) == [0, 0]
    game = play([roll("A", 3, 3, 3, 5, 2, 4), keep("A", 3, 3, 3, 5), bank("A")], opening=350)
    assert scores(game) == [350, 0]


# -- three farkles in a row ------------------------------------------------------------------


def test_three_farkles_cost_1000_before_opening_and_the_count_restarts() -> None:
    actions: list[Raw] = []
    for _ in range(4):
        actions += farkle("A") + farkle("B")
    game = play(actions, three_farkles=-1000)
    state = game.state()
    assert scores(game) == [-1000, -1000]
    assert [p["farkles_in_a_row"] for p in state["players"]] == [1, 1]


def test_without_the_penalty_farkles_only_count() -> None:
    actions: list[Raw] = []
    for _ in range(3):
        actions += farkle("A") + farkle("B")
    game = play(actions)
    assert scores(game) == [0, 0]
    assert [p["farkles_in_a_row"] for p in game.state()["players"]] == [3, 3]


def test_any_bank_breaks_a_farkle_run() -> None:
    # A bank below the opening records nothing, but the turn was no farkle.
    actions = (farkle("A") + farkle("B") + farkle("A") + farkle("B") + small("A", 100)
               + farkle("B") + farkle("A") + farkle("B"))
    game = play(actions, three_farkles=-1000)
    assert scores(game) == [0, -1000]                 # B's third farkle came at action 9
    assert [p["farkles_in_a_row"] for p in game.state()["players"]] == [1, 1]


# -- exact target, final round, tie-break ---------------------------------------------------


def test_exact_target_loses_a_bank_that_passes_it() -> None:
    base = six_of("A", 6) + farkle("B")               # A 4800
    over = base + [roll("A", 1, 1, 1, 2, 3, 4), keep("A", 1, 1, 1), bank("A")]
    game = play(over, target=5000, exact_target=True)
    assert scores(game) == [4800, 0]
    assert game.state()["last_turn"]["outcome"] == "over the target"
    assert scores(play(over, target=5000)) == [5800, 0]
    hit = base + [roll("A", 1, 1, 2, 3, 4, 6), keep("A", 1, 1), bank("A")]
    game = play(hit, target=5000, exact_target=True)
    assert scores(game) == [5000, 0]
    assert game.state()["final_round"] == {"reached_by": "A", "to_play": ["B"]}


def test_the_turn_says_what_a_bank_now_would_do() -> None:
    # The table decides before tapping: an exact target loses a bank that passes it.
    base = six_of("A", 6) + farkle("B")               # A 4800
    game = play(base + [roll("A", 1, 1, 1, 2, 3, 4), keep("A", 1, 1, 1)],
                target=5000, exact_target=True)
    assert game.state()["turn"]["bank"] == "over the target"
    game = play(base + [roll("A", 1, 1, 2, 3, 4, 6), keep("A", 1, 1)],
                target=5000, exact_target=True)
    assert game.state()["turn"]["bank"] == "banked"
    game = play([roll("A", 5, 2, 2, 3, 4, 6), keep("A", 5)], opening=500)
    assert game.state()["turn"]["bank"] == "below the opening"


def test_final_round_every_other_player_gets_one_more_turn() -> None:
    game = play(six_of("A", 5) + farkle("B") + farkle("C")
                + [roll("A", 1, 1, 1, 2, 3, 4), keep("A", 1, 1, 1), roll("A", 1, 5, 2),
                   keep("A", 1, 5), bank("A")],
                ("A", "B", "C"), target=5000)
    state = game.state()
    assert scores(game) == [5150, 0, 0]
    assert state["final_round"] == {"reached_by": "A", "to_play": ["B", "C"]}
    assert state["next"]["player"] == "B" and not state["finished"]
    # B passes A in the final round; that starts nothing new: C plays, then it is over.
    for action in six_of("B", 1) + small("C", 100):
        game.apply(action)
    state = game.state()
    assert scores(game) == [5150, 8000, 0]        # C's 100 does not open
    assert state["finished"] and state["winner"] == "B"
    assert state["next"] == {"player": None, "actions": ["undo", "correct"], "dice": 0}
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply(roll("A", *FARKLE6))


def test_the_final_round_starts_after_the_player_who_reached_the_target() -> None:
    game = play(farkle("A") + six_of("B", 5) + six_of("C", 1), ("A", "B", "C", "D"),
                target=5000)
    assert game.state()["final_round"]["to_play"] == ["D", "A", "B"]
    for action in farkle("D") + farkle("A") + farkle("B"):
        game.apply(action)
    assert game.state()["winner"] == "C"


def test_without_final_round_the_first_to_reach_the_target_wins_at_once() -> None:
    game = play(six_of("A", 1), target=5000, final_round=False)
    state = game.state()
    assert state["finished"] and state["winner"] == "A" and state["final_round"]["to_play"] == []


def test_a_tie_is_played_off_in_extra_rounds_until_one_leads() -> None:
    game = play(six_of("A", 1) + six_of("B", 1), target=5000)
    state = game.state()
    assert scores(game) == [8000, 8000] and not state["finished"]
    assert state["tie_break"] == {"round": 1, "players": ["A", "B"], "to_play": ["A", "B"]}
    for action in small("A", 100) + small("B", 100):   # still tied after a full round
        game.apply(action)
    assert game.state()["tie_break"]["round"] == 2
    for action in small("A", 50) + farkle("B"):
        game.apply(action)
    state = game.state()
    assert state["finished"] and state["winner"] == "A" and scores(game) == [8150, 8100]


def test_only_the_tied_leaders_play_the_tie_break() -> None:
    game = play(six_of("A", 6) + farkle("B") + farkle("C") + small("A", 200)
                + [roll("B", 5, 5, 5, 5, 5, 5), keep("B", 5, 5, 5, 5, 5, 5),
                   roll("B", 1, 1, 1, 2, 3, 4), keep("B", 1, 1, 1), bank("B")]
                + small("C", 100), ("A", "B", "C"), target=5000)
    state = game.state()
    assert scores(game) == [5000, 5000, 0]
    assert state["tie_break"] == {"round": 1, "players": ["A", "B"], "to_play": ["A", "B"]}
    for action in farkle("A") + small("B", 50):
        game.apply(action)
    assert game.state()["winner"] == "B" and scores(game) == [5000, 5050, 0]


def test_tied_players_who_fall_below_another_in_the_tie_break_do_not_win() -> None:
    # Three farkles cost 1000, so a tie-break can take the tied players below a third
    # who was not in it: then the highest total, the third's, wins.
    four_ones = [roll("A", 1, 1, 1, 1, 2, 3), keep("A", 1, 1, 1, 1), bank("A")]
    game = play(six_of("A", 1) + six_of("B", 1) + six_of("C", 1)
                + four_ones + [dict(a, player="B") for a in four_ones]
                + [roll("C", 1, 2, 3, 4, 5, 6), keep("C", 1, 2, 3, 4, 5, 6), bank("C")],
                ("A", "B", "C"), three_farkles=-1000)
    assert scores(game) == [10000, 10000, 9500]
    for _ in range(2):
        for action in farkle("A") + farkle("B"):
            game.apply(action)
    assert not game.state()["finished"] and game.state()["tie_break"]["round"] == 3
    for action in farkle("A") + farkle("B"):           # the third farkle in a row: -1000
        game.apply(action)
    state = game.state()
    assert scores(game) == [9000, 9000, 9500]
    assert state["finished"] and state["winner"] == "C"


def test_tie_break_banks_count_even_with_exact_target() -> None:
    game = play(six_of("A", 6) + six_of("B", 6) + small("A", 200) + small("B", 200),
                target=5000, exact_target=True)
    assert scores(game) == [5000, 5000] and game.state()["tie_break"]["round"] == 1
    for action in small("A", 100) + farkle("B"):
        game.apply(action)
    assert game.state()["winner"] == "A" and scores(game) == [5100, 5000]


def test_playing_alone_for_a_record() -> None:
    game = play(small("Solo", 200) + six_of("Solo", 5) + six_of("Solo", 1), ("Solo",))
    assert game.state()["finished"] and game.state()["winner"] == "Solo"
    assert scores(game) == [12000]


# -- Zilch and the scoring options inside a game ------------------------------------------


def test_zilch_every_scoring_die_must_be_set_aside() -> None:
    game = play([roll("A", 1, 5, 2, 2, 2, 3)], zilch=True)
    with pytest.raises(IllegalAction, match=r"Zilch: every scoring die .*\[1, 2, 2, 2, 5\]"):
        game.apply(keep("A", 1))
    game.apply(keep("A", 1, 2, 2, 2, 5))
    assert game.state()["turn"]["points"] == 350


@pytest.mark.parametrize("options,dice,points", [
    ({"greed": True}, (1, 1, 1, 2, 3, 4), 300),
    ({"multiples": "linear"}, (5, 5, 5, 5, 5, 2), 1500),
    ({"straight": 2000}, (6, 5, 4, 3, 2, 1), 2000),
    ({"three_pairs": 1000}, (2, 6, 2, 6, 3, 3), 1000),
    ({"specials": False}, (2, 6, 2, 6, 3, 1), 100),
])
def test_scoring_options_apply_to_the_dice_set_aside(options: dict[str, Any],
                                                     dice: tuple[int, ...], points: int) -> None:
    game = play([roll("A", *dice)], opening=0, **options)
    best = game.state()["turn"]["choices"][0]
    game.apply(keep("A", *best["dice"]))
    game.apply(bank("A"))
    assert best["points"] == points and scores(game) == [points, 0]


# -- options and players ---------------------------------------------------------------------


@pytest.mark.parametrize("options,message", [
    ({"target": 8000}, "options.target: 8000"),
    ({"opening": 400}, "options.opening"),
    ({"exact_target": 1}, "options.exact_target: 1"),     # JSON true is not 1
    ({"specials": "yes"}, "options.specials"),
    ({"pairs": True}, "options.pairs: unknown"),          # pair scoring is no option
])
def test_options_are_checked_strictly(options: dict[str, Any], message: str) -> None:
    with pytest.raises(GameFileError, match=message):
        new_game("ten_thousand", ["A"], options)


def test_one_to_eight_players() -> None:
    new_game("ten_thousand", [f"P{i}" for i in range(8)])
    with pytest.raises(GameFileError, match="1 to 8 players"):
        new_game("ten_thousand", [f"P{i}" for i in range(9)])


# -- illegal actions: refused with the action and the reason, state unchanged -------------


ILLEGAL = [
    # actions before, the illegal action, the reason it must name
    ([], roll("B", *FARKLE6), "it is A's turn, not B's"),
    ([], roll("A", 1, 2, 3), "this throw takes 6 dice, not 3"),
    ([], roll("A", 1, 2, 3, 4, 5, 7), "die value 7 is outside 1..6"),
    ([], keep("A", 1), "nothing to set aside: roll first"),
    ([], bank("A"), "nothing set aside to bank"),
    ([roll("A", 1, 5, 2, 3, 4, 6)], keep("A", 2), "[2] does not score"),
    ([roll("A", 1, 5, 2, 3, 4, 6)], keep("A", 1, 1),
     "two 1s set aside, but only one 1 in the latest throw"),
    ([roll("A", 1, 1, 2, 3, 4, 6)], keep("A", *[1] * 7),
     "seven 1s set aside, but only two 1s in the latest throw"),
    ([roll("A", 1, 5, 2, 3, 4, 6)], keep("A", 1, 6), "[1, 6] does not score"),
    ([roll("A", 1, 5, 2, 3, 4, 6)], keep("A"), "at least one scoring die"),
    ([roll("A", 1, 5, 2, 3, 4, 6)], roll("A", *FARKLE6), "set aside scoring dice from the latest"),
    ([roll("A", 1, 5, 2, 3, 4, 6)], bank("A"), "before banking"),
    ([roll("A", 1, 5, 2, 3, 4, 6), keep("A", 1)], roll("A", 1, 2, 3, 4, 5, 6),
     "this throw takes 5 dice, not 6"),
    # One die left to throw: said as a person says it.
    ([roll("A", 1, 1, 1, 5, 5, 3), keep("A", 1, 1, 1, 5, 5)], roll("A", 2, 3),
     "this throw takes 1 die, not 2"),
    ([roll("A", 1, 5, 2, 3, 4, 6), keep("A", 1)], roll("B", 1, 2, 3, 4, 6), "A's turn"),
    ([], {"type": "set_aside", "player": "A"}, "nothing to set aside"),
    ([roll("A", 1, 5, 2, 3, 4, 6)], {"type": "set_aside", "player": "A"}, "needs 'dice'"),
    ([], {"type": "join", "player": "C"}, "unknown action type 'join'"),
    ([], roll("Z", *FARKLE6), "unknown player 'Z'"),
    ([], {"type": "roll", "dice": list(FARKLE6)}, "a roll needs 'player' (A is to play)"),
]


@pytest.mark.parametrize("before,action,reason", ILLEGAL)
def test_illegal_actions_are_refused_and_change_nothing(before: list[Raw], action: Raw,
                                                        reason: str) -> None:
    game = play(before)
    state, log = game.state(), game.log
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    who = f" by {action['player']}" if "player" in action else ""
    assert str(refused.value).startswith(f"action {len(before)} ({action['type']}{who}): ")
    assert reason in refused.value.reason
    assert game.state() == state and game.log == log


# -- corrections and undo --------------------------------------------------------------------


def test_a_correction_that_makes_a_set_aside_illegal_drops_the_rest_of_the_turn() -> None:
    game = play([roll("A", 1, 1, 1, 2, 3, 4), keep("A", 1, 1, 1), roll("A", 5, 2, 3),
                 keep("A", 5), bank("A")] + small("B", 100), opening=0)
    assert scores(game) == [1050, 100]
    game.apply({"type": "correct", "action": 0, "dice": [1, 2, 2, 3, 4, 6]})
    state = game.state()
    assert [(d["action"], d["player"]) for d in state["dropped"]] == [(1, "A"), (2, "A"),
                                                                      (3, "A"), (4, "A")]
    assert "three 1s set aside, but only one 1 in the latest throw" in state["dropped"][0]["reason"]
    assert scores(game) == [0, 100]                   # A's turn ended without banking
    assert state["next"]["player"] == "A" and state["turns"] == 2


def test_a_correction_drops_only_the_broken_turn_of_a_solo_player() -> None:
    game = play([roll("S", 1, 1, 1, 2, 3, 4), keep("S", 1, 1, 1), bank("S"),
                 roll("S", 5, 5, 5, 2, 3, 4), keep("S", 5, 5, 5), bank("S")], ("S",))
    assert scores(game) == [1500]
    game.apply({"type": "correct", "action": 0, "dice": [1, 2, 2, 3, 4, 6]})
    state = game.state()
    assert [d["action"] for d in state["dropped"]] == [1, 2]
    assert scores(game) == [500] and state["turns"] == 2    # the second turn opened alone


def test_a_correction_into_a_farkle_drops_the_turns_later_actions() -> None:
    game = play([roll("A", 1, 5, 2, 3, 4, 6), keep("A", 1, 5), bank("A")] + small("B", 100),
                opening=0)
    game.apply({"type": "correct", "action": 0, "dice": list(FARKLE6)})
    state = game.state()
    assert [d["action"] for d in state["dropped"]] == [1, 2]
    assert scores(game) == [0, 100] and state["players"][0]["farkles_in_a_row"] == 1


def test_a_correction_out_of_a_farkle_ends_that_turn_unbanked() -> None:
    # The corrected roll now scores, so a set_aside would be due; B's roll ends A's turn.
    game = play(farkle("A") + small("B", 100), opening=0)
    game.apply({"type": "correct", "action": 0, "dice": [1, 2, 2, 3, 4, 6]})
    state = game.state()
    assert state["dropped"] == [] and scores(game) == [0, 100]
    assert state["players"][0]["farkles_in_a_row"] == 0   # a cut-short turn is no farkle
    assert state["next"]["player"] == "A"


def test_undo_takes_back_a_set_aside() -> None:
    game = play([roll("A", 1, 5, 2, 3, 4, 6)])
    before = game.state()
    game.apply(keep("A", 1))
    game.apply({"type": "undo"})
    after = game.state()
    assert {**after, "actions": 0} == {**before, "actions": 0}


# -- help ------------------------------------------------------------------------------------


def test_help_names_the_options_and_decisions_in_force() -> None:
    default = " | ".join(play([]).state()["help"])
    for phrase in ["reach 10000", "final round", "at least 500", "records nothing",
                   "three 1s = 1000", "2x/4x/8x", "straight 1-6 = 1500", "three pairs = 1500",
                   "two triplets = 2500", "six of a kind is scored only as six of a kind",
                   "Hot dice", "no penalty", "ends without banking", "until one leads"]:
        assert phrase in default, phrase
    varied = " | ".join(play([], target=5000, opening=350, three_farkles=-1000,
                             exact_target=True, zilch=True, greed=True, straight=2000,
                             three_pairs=1000, multiples="linear", specials=True,
                             final_round=False).state()["help"])
    for phrase in ["reach 5000", "wins at once", "at least 350", "cost 1000", "negative",
                   "would pass 5000", "Zilch", "three 1s = 300", "2x/3x/4x",
                   "straight 1-6 = 2000", "three pairs = 1000"]:
        assert phrase in varied, phrase
    assert "tie-break" not in varied          # the first to the target wins: no tie to break
    exact_with_final_round = " | ".join(play([], exact_target=True).state()["help"])
    assert "in tie-break rounds every bank counts" in exact_with_final_round
    off = " | ".join(play([], specials=False).state()["help"])
    assert "are off" in off and "straight 1-6" not in off
    no_opening = " | ".join(play([], opening=0).state()["help"])
    assert "Opening: none" in no_opening and "at least 0" not in no_opening


def test_doctests() -> None:
    assert doctest.testmod(tt).failed == 0
