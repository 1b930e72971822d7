"""Pub Chicago (RULES.md §2) played the way a pub table plays it.

Games are written as short table talk, one action a line:
``"Aino 6 3 5"`` (a throw), ``"Aino keeps 6"`` (set aside), ``"Aino turns"`` (two sixes
to a one), ``"Aino done"``, ``"Aino announces 100 60 high"``, ``"Aino announces sand"``,
``"leader Aino"`` (the first leader drawn by lot), ``"Aino keeps lid"`` or
``"Aino gives lid"`` (Tschigg: the Sand lid).
"""
from __future__ import annotations

import doctest
import importlib
import json
import re
from pathlib import Path

import pytest
from table_talk import action

from scorer import GameFileError, IllegalAction, load_game, new_game
from scorer.pub_chicago import Announcement, value
from scorer.pub_chicago_dice import Result, best_and_worst

REPO = Path(__file__).resolve().parents[2]
ABC = ["Aino", "Bertil", "Cecilia"]


def play(game, *lines: str) -> None:
    for line in lines:
        game.apply(action(line))


def game_of(players=ABC, **options):
    return new_game("pub_chicago", players, options)


def family_actions(game) -> list[str]:
    """The legal action types of ``next`` that belong to Pub Chicago (not undo/correct)."""
    return [a for a in game.state()["next"]["actions"] if a not in ("undo", "correct")]


def scores(game) -> dict[str, int]:
    return {p["name"]: p["score"] for p in game.state()["players"]}


def one_throw_round(game, announcement: str, *throws: str) -> None:
    """A quick throw round: the leader throws once and announces, so everyone throws once."""
    leader = throws[0].split()[0]
    play(game, throws[0], f"{leader} announces {announcement}", *throws[1:])


# -- the value of a result -----------------------------------------------------------------

@pytest.mark.parametrize("dice, ones, sixes, expected", [
    ((6, 3, 5), 100, 60, 68),    # seed 002: "bei Sechser 60 zusammen 68"
    ((6, 3, 5), 100, 6, 14),     # "bei Sechser 6 dagegen nur 14"
    ((1, 1, 4), 100, 60, 204),   # "Zwei Einser und eine Vier sind bei Einser 100 satte 204"
    ((1, 1, 4), 1, 60, 6),       # "und bei Einser 1 klägliche 6"
    ((1, 1, 1), 100, 60, 300),   # ones gathered over throws "zählen ganz normal 300"
    ((6, 6, 6), 100, 60, 180),
    ((6, 6, 6), 1, 6, 18),
    ((2, 3, 4), 1, 6, 9),
])
def test_value_counts_ones_and_sixes_as_announced(dice, ones, sixes, expected):
    assert value(dice, Announcement(ones=ones, sixes=sixes, order="high")) == expected


def test_the_worked_examples_as_played_and_shown_on_the_scoreboard():
    game = game_of(["Aino", "Bertil"])
    play(game, "Aino 6 3 5", "Aino announces 100 60 high")
    results = game.state()["round"]["results"]
    assert results == [{"player": "Aino", "dice": [6, 3, 5], "throws": 1, "chicago": False,
                        "sand": False, "value": 68}]
    # shown above the whole throw round, the cap included ("... · Hoch · auf 1")
    assert game.state()["round"]["announced"] == "ones 100 · sixes 60 · high · up to 1 throw"
    # the scoreboard values dice under the announcement as the view shows it
    assert value([6, 3, 5], game.state()["round"]["announcement"]) == 68


@pytest.mark.parametrize("order, throws, best, worst", [
    # high: B's 15 is matched by C (no overtaking); A's 9 is matched later by D (worst)
    ("high", [(2, 3, 4), (5, 5, 5), (5, 4, 6), (4, 3, 2)], "B", "D"),
    # low: A's 9 is matched later by D (A stays best); B's 15 matched later by C (worst)
    ("low", [(2, 3, 4), (5, 5, 5), (6, 5, 4), (4, 3, 2)], "A", "C"),
    # everyone equal: the first is best and the last is worst
    ("high", [(2, 2, 2)] * 4, "A", "D"),
    # two Chicagos: the first is best (decision); the worst is the lowest value
    ("low", [(1, 1, 1), (2, 2, 2), (1, 1, 1), (6, 6, 6)], "A", "D"),
])
def test_first_to_reach_the_best_is_best_and_last_to_reach_the_worst_is_worst(
        order, throws, best, worst):
    ann = Announcement(ones=1, sixes=6, order=order)
    results = [Result(p, dice, dice == (1, 1, 1), 1) for p, dice in zip("ABCD", throws)]
    got = best_and_worst(results, ann)
    assert (got[0].player, got[1].player) == (best, worst)


def test_the_tie_rules_in_a_played_round():
    # A 204, B 204 (matches but does not overtake), C 6·5·5 = 70, D 70 (later: worst).
    game = game_of(["A", "B", "C", "D"], match_length=1)
    play(game, "A 1 1 4", "A announces 100 60 high", "B 4 1 1", "C 6 5 5")
    so_far = game.state()["round"]
    assert (so_far["best"], so_far["worst"]) == ("A", "C")   # the scoreboard's highlight
    play(game, "D 5 6 5")
    last = game.state()["last_round"]
    assert last["outcome"][0] == "A is best and safe"
    assert game.state()["round"]["leader"] == "D"   # the worst leads the next round
    assert [p["status"] for p in game.state()["players"]] == ["safe", "playing", "playing",
                                                               "playing"]


# -- Chicago -------------------------------------------------------------------------------

@pytest.mark.parametrize("announcement", ["100 60 high", "1 6 high", "100 60 low", "1 6 low"])
def test_a_chicago_beats_everything_whatever_was_announced(announcement):
    game = game_of(["A", "B", "C"])
    one_throw_round(game, announcement, "A 6 6 6", "B 1 1 1", "C 2 2 2")
    assert game.state()["last_round"]["outcome"][0] == "B is best and safe"


def test_between_two_chicagos_the_first_is_best():
    game = game_of(["A", "B", "C"])
    one_throw_round(game, "100 60 high", "A 1 1 1", "B 1 1 1", "C 6 6 6")
    assert game.state()["last_round"]["outcome"][0] == "A is best and safe"
    assert game.state()["round"]["leader"] == "C"


def test_ones_gathered_over_throws_are_no_chicago_and_count_300():
    game = game_of(["A", "B"], match_length=1)
    play(game, "A 1 5 2", "A keeps 1", "A 1 1", "A announces 100 60 high",
         "B 1 1 1")   # wait: the cap is 2, B's Chicago in one throw ends B's turn
    last = game.state()["last_round"]
    assert [r["value"] for r in last["results"]] == [300, 300]
    assert [r["chicago"] for r in last["results"]] == [False, True]
    assert game.state()["loser"] == "A"   # 300 equal in value, but B's Chicago beats it


def test_a_one_made_from_two_sixes_is_never_a_chicago():
    game = game_of(["A", "B"], match_length=1)
    play(game, "A 1 6 6", "A keeps 1", "A turns", "A 1", "A announces 100 60 high",
         "B 6 6 6", "B done")
    last = game.state()["last_round"]
    assert last["results"][0] == {"player": "A", "dice": [1, 1, 1], "throws": 2,
                                  "chicago": False, "sand": False, "value": 300}
    assert game.state()["loser"] == "B"   # 300 beats 180


def test_a_chicago_ends_the_throwers_turn_at_once():
    game = game_of(["A", "B", "C"])
    play(game, "A 2 3 4", "A 5 5 5", "A announces 100 60 high", "B 1 1 1")
    assert game.state()["next"]["player"] == "C"     # B had a second throw, but no need
    with pytest.raises(IllegalAction, match="it is C's turn, not B's"):
        game.apply(action("B 2 2 2"))
    play(game, "B done")     # a done after a turn that ended by itself is accepted...
    assert game.state()["next"]["player"] == "C"
    with pytest.raises(IllegalAction, match="it is C's turn, not B's"):
        play(game, "B done")  # ...once


# -- a turn: throws, setting aside, two sixes, done ----------------------------------------

def test_set_aside_dice_stay_and_the_next_throw_takes_the_rest():
    game = game_of(["A", "B"])
    play(game, "A 6 2 3")
    assert game.state()["next"]["dice"] == 3
    play(game, "A keeps 6")
    assert game.state()["next"]["dice"] == 2
    play(game, "A 6 4", "A keeps 6")
    assert game.state()["next"]["dice"] == 1
    play(game, "A 5")
    turn_result = game.state()["round"]["results"][0]
    assert sorted(turn_result["dice"]) == [5, 6, 6] and turn_result["throws"] == 3


def test_two_sixes_become_a_one_and_the_rest_must_be_thrown():
    game = game_of(["A", "B"])
    play(game, "A 6 6 3", "A turns")
    state = game.state()
    assert state["round"]["turn"]["kept"] == [1]
    assert state["next"]["actions"][0] == "roll" and "done" not in state["next"]["actions"]
    assert state["next"]["dice"] == 2          # the other six and the three go back in
    with pytest.raises(IllegalAction, match="next throw must be made"):
        game.apply(action("A done"))
    with pytest.raises(IllegalAction, match="takes 2 dice"):
        game.apply(action("A 4 4 4"))
    play(game, "A 4 4", "A done", "A announces 100 60 high")
    assert game.state()["round"]["results"][0]["value"] == 108


def test_with_three_sixes_only_one_pair_turns():
    game = game_of(["A", "B"])
    play(game, "A 6 6 6", "A turns")
    assert game.state()["next"]["dice"] == 2    # two sixes go back: never two ones
    with pytest.raises(IllegalAction, match="next throw must be made"):
        game.apply(action("A turns"))


@pytest.mark.parametrize("lines, message", [
    (["A 6 5 3"], "two sixes"),                                 # only one six
    (["A 6 6 3", "A keeps 6"], "two sixes"),                   # a six set aside stays a six
    (["A 1 2 3", "A 2 3 4", "A 6 6 3"], "throwing is over"),   # the third throw: no throw left
])
def test_turning_sixes_needs_two_sixes_on_the_table_and_a_throw_left(lines, message):
    game = game_of(["A", "B"])
    play(game, *lines)
    with pytest.raises(IllegalAction, match=message):
        game.apply(action("A turns"))


def test_turning_sixes_needs_a_throw_left_under_the_cap():
    game = game_of(["A", "B", "C"])
    play(game, "A 2 2 2", "A 3 3 3", "A announces 100 60 high", "B 1 2 3", "B 6 6 4")
    assert game.state()["next"]["player"] == "C"   # B's second throw was the last allowed
    with pytest.raises(IllegalAction, match="it is C's turn"):
        game.apply(action("B turns"))


def test_a_player_may_stop_after_any_throw_but_not_before_the_first():
    game = game_of(["A", "B", "C"])
    play(game, "A 2 2 2", "A 3 3 3", "A announces 100 60 high")
    with pytest.raises(IllegalAction, match="B has not thrown yet"):
        game.apply(action("B done"))
    play(game, "B 5 5 5", "B done")
    assert game.state()["next"]["player"] == "C"


# -- the announcement and the throw cap ----------------------------------------------------

def test_the_announcement_is_due_after_the_leaders_last_throw():
    game = game_of(["A", "B"])
    play(game, "A 2 3 4")
    assert family_actions(game) == ["roll", "set_aside", "done", "announce"]
    play(game, "A 2 3 5", "A 6 3 5")        # the third throw: only the announcement is left
    nxt = game.state()["next"]
    assert nxt["player"] == "A" and nxt["dice"] == 0
    assert family_actions(game) == ["announce"]
    play(game, "A done")                    # accepted: the turn had ended by itself
    with pytest.raises(IllegalAction, match="announcement is due"):
        game.apply(action("A done"))
    with pytest.raises(IllegalAction, match="it is A's turn \\(the announcement is due\\)"):
        game.apply(action("B 1 2 3"))
    play(game, "A announces 100 60 high")
    assert game.state()["round"]["cap"] == 3 and game.state()["next"]["player"] == "B"


def test_done_then_announce_and_announcing_after_a_throw_also_ends_the_throwing():
    one = game_of(["A", "B"])
    play(one, "A 2 3 4", "A 5 5 5", "A done")
    assert family_actions(one) == ["announce"]
    play(one, "A announces 1 6 low")
    two = game_of(["A", "B"])
    play(two, "A 2 3 4", "A 5 5 5", "A announces 1 6 low")
    assert one.state()["round"] == two.state()["round"]
    assert one.state()["round"]["cap"] == 2
    play(two, "A done")      # a done after the announcement ended the throwing: accepted
    assert two.state()["round"] == one.state()["round"]
    with pytest.raises(IllegalAction, match="it is B's turn, not A's"):
        play(two, "A done")


@pytest.mark.parametrize("leader_throws, allowed", [(1, 1), (2, 2), (3, 3)])
def test_the_leaders_throws_cap_everyone_else(leader_throws, allowed):
    game = game_of(["A", "B", "C"])
    play(game, *[f"A 2 3 {d}" for d in range(2, 2 + leader_throws)])
    if leader_throws < 3:
        play(game, "A done")
    play(game, "A announces 100 60 high")
    for n in range(allowed):
        assert game.state()["next"] == {**game.state()["next"], "player": "B",
                                        "throws_left": allowed - n}
        play(game, "B 2 2 2")
    assert game.state()["next"]["player"] == "C"   # B's last allowed throw ended the turn
    before = game.state()
    with pytest.raises(IllegalAction) as err:
        game.apply(action("B 2 2 2"))
    assert "it is C's turn" in str(err.value) and game.state() == before


def test_fewer_throws_than_the_cap_are_always_allowed():
    game = game_of(["A", "B", "C"])
    play(game, "A 2 3 4", "A 2 3 5", "A 2 3 6", "A announces 100 60 high",
         "B 6 6 6", "B done", "C 5 5 5", "C keeps 5 5", "C 6", "C done")
    assert game.state()["last_round"]["outcome"][0] == "B is best and safe"


@pytest.mark.parametrize("fields, message", [
    ({"ones": 100, "sixes": 60}, "needs 'order'"),
    ({"ones": 10, "sixes": 60, "order": "high"}, "'ones' must be 100 or 1"),
    ({"ones": 100, "sixes": 66, "order": "high"}, "'sixes' must be 60 or 6"),
    ({"ones": True, "sixes": 60, "order": "high"}, "'ones' must be"),
    ({"ones": 100, "sixes": 60, "order": "Hoch"}, "'order' must be"),
    ({"sand": True}, "Sand is announced only in Tschigg"),
])
def test_bad_announcements_are_refused(fields, message):
    game = game_of(["A", "B"])
    play(game, "A 2 3 4")
    before = game.state()
    with pytest.raises(IllegalAction, match=message):
        game.apply({"type": "announce", "player": "A", **fields})
    assert game.state() == before


def test_only_the_leader_announces_and_only_once():
    game = game_of(["A", "B"])
    play(game, "A 2 3 4")
    with pytest.raises(IllegalAction, match="only the leader A announces, not B"):
        game.apply(action("B announces 100 60 high"))
    play(game, "A announces 100 60 high")
    with pytest.raises(IllegalAction, match="already announced"):
        game.apply(action("A announces 1 6 low"))


def test_a_leader_who_has_not_thrown_cannot_announce():
    game = game_of(["A", "B"])
    with pytest.raises(IllegalAction, match="A has not thrown yet"):
        game.apply(action("A announces 100 60 high"))


# -- leaders -------------------------------------------------------------------------------

def test_without_a_leader_action_the_first_player_leads():
    assert game_of().state()["round"]["order"] == ABC


def test_the_first_leader_is_drawn_by_lot_before_the_first_throw():
    game = game_of()
    play(game, "leader Cecilia")
    assert game.state()["round"]["order"] == ["Cecilia", "Aino", "Bertil"]
    assert game.state()["next"]["player"] == "Cecilia"
    play(game, "Cecilia 2 3 4")
    with pytest.raises(IllegalAction, match="before the first throw"):
        game.apply(action("leader Aino"))
    with pytest.raises(IllegalAction, match="unknown player"):
        new_game("pub_chicago", ABC).apply(action("leader Doris"))


# -- Basis: strokes ------------------------------------------------------------------------

def test_a_loser_search_with_five_players_takes_rounds_of_5_4_3_2():
    players = ["A", "B", "C", "D", "E"]
    game = game_of(players, match_length=1)
    one_throw_round(game, "1 6 high", "A 5 5 5", "B 2 2 2", "C 3 3 3", "D 4 4 4", "E 4 4 3")
    assert game.state()["round"]["order"] == ["B", "C", "D", "E"]   # B worst leads; A safe
    one_throw_round(game, "1 6 high", "B 2 2 2", "C 5 5 5", "D 2 2 2", "E 4 4 4")
    assert game.state()["round"]["order"] == ["D", "E", "B"]       # D: last to reach 6
    one_throw_round(game, "1 6 high", "D 2 2 3", "E 2 2 2", "B 5 5 5")
    assert game.state()["round"]["order"] == ["E", "D"]
    one_throw_round(game, "1 6 high", "E 3 3 3", "D 3 3 3")
    state = game.state()
    assert state["finished"] and state["loser"] == "D"
    assert scores(game) == {"A": 0, "B": 0, "C": 0, "D": 1, "E": 0}


@pytest.mark.parametrize("length", [1, 3, 5, 10])
def test_the_match_length_is_the_number_of_loser_searches(length):
    game = game_of(["A", "B"], match_length=length)
    for search in range(length):
        assert not game.state()["finished"]
        assert game.state()["search"]["number"] == search + 1
        # The loser leads the next search; A always loses and so always leads.
        one_throw_round(game, "100 60 high", "A 2 2 2", "B 3 3 3")
    state = game.state()
    assert state["finished"] and state["loser"] == "A" and state["winner"] is None
    assert scores(game) == {"A": length, "B": 0}
    assert state["search"]["losers"] == ["A"] * length


def test_the_loser_of_a_search_leads_the_next_one():
    game = game_of(["A", "B", "C"])
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2", "C 3 3 3")   # A safe
    one_throw_round(game, "100 60 high", "B 4 4 4", "C 2 2 2")               # C stroke
    assert game.state()["round"]["order"] == ["C", "A", "B"]
    assert game.state()["search"]["players"] == ["A", "B", "C"]


def test_a_tie_for_most_strokes_is_settled_by_one_more_search_among_the_tied():
    game = game_of(["A", "B", "C"], match_length=3)
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2", "C 3 3 3")
    one_throw_round(game, "100 60 high", "B 4 4 4", "C 2 2 2")   # C: 1
    one_throw_round(game, "100 60 high", "C 5 5 5", "A 2 2 2", "B 3 3 3")
    one_throw_round(game, "100 60 high", "A 4 4 4", "B 2 2 2")   # B: 1
    one_throw_round(game, "100 60 high", "B 5 5 5", "C 5 5 4", "A 3 3 3")
    one_throw_round(game, "100 60 high", "A 4 4 4", "C 2 2 2")   # C: 2
    assert scores(game) == {"A": 0, "B": 1, "C": 2} and game.state()["finished"]
    assert game.state()["loser"] == "C"

    tied = game_of(["A", "B", "C"], match_length=1)
    one_throw_round(tied, "100 60 high", "A 5 5 5", "B 2 2 2", "C 3 3 3")
    one_throw_round(tied, "100 60 high", "B 4 4 4", "C 2 2 2")   # C: 1, B 0, A 0: no tie
    assert tied.state()["loser"] == "C"

    game = game_of(["A", "B", "C"], match_length=3)
    one_throw_round(game, "100 60 high", "A 2 2 2", "B 3 3 3", "C 5 5 5")   # C safe
    one_throw_round(game, "100 60 high", "A 2 2 2", "B 3 3 3")              # A: 1
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2", "C 3 3 3")   # A safe
    one_throw_round(game, "100 60 high", "B 2 2 2", "C 3 3 3")              # B: 1
    one_throw_round(game, "100 60 high", "B 5 5 5", "C 3 3 3", "A 4 4 4")   # B safe
    one_throw_round(game, "100 60 high", "C 3 3 3", "A 4 4 4")              # C: 1
    state = game.state()
    assert scores(game) == {"A": 1, "B": 1, "C": 1} and not state["finished"]
    assert state["search"]["tie_break"] and state["search"]["players"] == ["A", "B", "C"]
    assert state["round"]["leader"] == "C"      # the last loser leads the tie-break search
    one_throw_round(game, "100 60 high", "C 5 5 5", "A 4 4 4", "B 3 3 3")   # C safe
    one_throw_round(game, "100 60 high", "B 4 4 4", "A 3 3 3")              # A: 2
    assert game.state()["finished"] and game.state()["loser"] == "A"
    assert scores(game) == {"A": 2, "B": 1, "C": 1}


def lose_search(game, loser: str) -> None:
    """Throw rounds until ``loser`` loses the loser search (everyone else throws 15)."""
    searches = len(game.state()["search"]["losers"])
    while len(game.state()["search"]["losers"]) == searches:
        order = game.state()["round"]["order"]
        one_throw_round(game, "100 60 high",
                        *[f"{p} {'2 2 2' if p == loser else '5 5 5'}" for p in order])


def test_a_tie_break_the_last_loser_is_not_part_of_is_led_from_the_next_tied_seat():
    game = game_of(["A", "B", "C"], match_length=5)
    for loser in ["A", "B", "A", "B", "C"]:
        lose_search(game, loser)
    state = game.state()
    assert scores(game) == {"A": 2, "B": 2, "C": 1} and not state["finished"]
    assert state["search"]["players"] == ["A", "B"] and state["round"]["order"] == ["A", "B"]
    assert [p["status"] for p in state["players"]] == ["playing", "playing", "safe"]
    lose_search(game, "B")
    assert game.state()["loser"] == "B" and scores(game) == {"A": 2, "B": 3, "C": 1}


# -- Bayrisch: lids ------------------------------------------------------------------------

def test_bayrisch_deals_players_plus_one_lids_from_the_pot_to_the_worst():
    game = game_of(variant="bayrisch")
    state = game.state()
    assert state["pot"] == 4 and state["phase"] == "distribute" and scores(game) == {
        "Aino": 0, "Bertil": 0, "Cecilia": 0}
    one_throw_round(game, "100 60 high", "Aino 5 5 5", "Bertil 2 2 2", "Cecilia 3 3 3")
    assert scores(game)["Bertil"] == 1 and game.state()["pot"] == 3
    assert game.state()["round"]["leader"] == "Bertil"


def test_bayrisch_reduce_phase_lays_lids_down_until_one_player_holds_any():
    game = game_of(["A", "B", "C"], variant="bayrisch")
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2", "C 3 3 3")   # B 1
    one_throw_round(game, "100 60 high", "B 5 5 5", "C 2 2 2", "A 3 3 3")   # C 1
    one_throw_round(game, "100 60 high", "C 5 5 5", "A 4 4 4", "B 3 3 3")   # B 2
    one_throw_round(game, "100 60 high", "B 5 5 5", "C 4 4 4", "A 3 3 3")   # A 1, pot 0
    state = game.state()
    assert scores(game) == {"A": 1, "B": 2, "C": 1}
    assert state["phase"] == "reduce" and state["pot"] == 0 and state["lids_in_game"] == 4
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2", "C 3 3 3")   # A lays down
    assert scores(game) == {"A": 0, "B": 2, "C": 1} and game.state()["lids_in_game"] == 3
    assert game.state()["round"]["order"] == ["B", "C"]   # A is out (safe)
    one_throw_round(game, "100 60 high", "B 2 2 2", "C 3 3 3")   # C lays down: out
    state = game.state()
    assert state["finished"] and state["loser"] == "B"
    assert [p["status"] for p in state["players"]] == ["safe", "loser", "safe"]


def test_bayrisch_players_without_lids_when_the_pot_empties_are_out():
    game = game_of(["A", "B"], variant="bayrisch")
    for _ in range(3):
        one_throw_round(game, "100 60 high", f"{game.state()['round']['leader']} 2 2 2",
                        f"{game.state()['round']['order'][1]} 5 5 5")
    # the leader each time was A (the worst leads): A holds all 3 lids, B none
    state = game.state()
    assert state["finished"] and state["loser"] == "A" and scores(game) == {"A": 3, "B": 0}


def test_bayrisch_chicago_takes_the_thrower_out_with_their_lids_and_the_worst_still_takes_one():
    game = game_of(["A", "B", "C", "D"], variant="bayrisch")
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2", "C 3 3 3", "D 4 4 4")  # B 1
    one_throw_round(game, "100 60 high", "B 2 2 3", "C 1 1 1", "D 4 4 4", "A 3 3 3")
    state = game.state()
    # B's Chicago? no: C threw it. C is out at once (with no lids); B (7) is the worst.
    assert [p["status"] for p in state["players"]] == ["playing", "playing", "chicago",
                                                        "playing"]
    assert scores(game) == {"A": 0, "B": 2, "C": 0, "D": 0} and state["pot"] == 3
    assert state["round"]["order"] == ["B", "D", "A"]
    one_throw_round(game, "100 60 high", "B 1 1 1", "D 4 4 4", "A 3 3 3")
    state = game.state()
    assert scores(game) == {"A": 1, "B": 0, "C": 0, "D": 0}   # B's 2 lids left the game
    assert state["lids_in_game"] == 3 and state["round"]["order"] == ["A", "D"]


def test_bayrisch_chicago_in_the_reduce_phase_means_nobody_lays_a_lid_down():
    game = game_of(["A", "B", "C"], variant="bayrisch")
    for worst in ["A", "B", "C", "A"]:
        order = game.state()["round"]["order"]
        one_throw_round(game, "100 60 high",
                        *[f"{p} {'2 2 2' if p == worst else '5 5 5'}" for p in order])
    assert scores(game) == {"A": 2, "B": 1, "C": 1} and game.state()["phase"] == "reduce"
    # A leads; B throws a Chicago and is out with its lid; C and A finish the round.
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 1 1 1", "C 2 2 2")
    state = game.state()
    assert scores(game) == {"A": 2, "B": 0, "C": 1}   # A was best of the rest: keeps both
    assert "nobody lays a lid down after a Chicago" in state["last_round"]["outcome"]
    assert state["round"]["order"] == ["C", "A"]


# A Chicago that leaves one player (or none) in the game does not end it at once: "the
# others finish the throw round; in phase 1 its worst still takes a lid", and only then
# is the last player still holding lids the loser. Each row: the rounds before, the throw
# round with the Chicago (one action a line), then lids, pot, statuses and the loser.
TWO_PHASE_1 = ["A 2 2 2", "A announces 100 60 high", "B 3 3 3"]            # A 1, pot 2
TWO_PHASE_2 = TWO_PHASE_1 + ["A 5 5 5", "A announces 100 60 high", "B 2 2 2",  # B 1, pot 1
                             "B 5 5 5", "B announces 100 60 high", "A 2 2 2"]  # A 2, pot 0
THREE_PHASE_2 = [                                           # A 2, B 0 (out), C 2, pot 0
    "A 2 2 2", "A announces 100 60 high", "B 5 5 5", "C 4 4 4",
    "A 5 5 5", "A announces 100 60 high", "B 4 4 4", "C 2 2 2",
    "C 5 5 5", "C announces 100 60 high", "A 2 2 2", "B 4 4 4",
    "A 5 5 5", "A announces 100 60 high", "B 4 4 4", "C 3 3 3"]
CHICAGO_LEAVES_ONE = [
    pytest.param(["A", "B"], TWO_PHASE_1,
                 ["A 3 3 3", "A done", "A announces 100 60 high", "B 1 1 1"],
                 {"A": 2, "B": 0}, 1, ["loser", "chicago"], "A",
                 id="phase 1: the last thrower's Chicago, the worst of the rest takes a lid"),
    pytest.param(["A", "B"], [], ["A 1 1 1", "A announces 100 60 high", "B 2 2 2"],
                 {"A": 0, "B": 1}, 2, ["chicago", "loser"], "B",
                 id="phase 1: the leader's Chicago, the other finishes and takes a lid"),
    pytest.param(["A", "B", "C"], [],
                 ["A 1 1 1", "A announces 100 60 high", "B 1 1 1", "C 2 2 2"],
                 {"A": 0, "B": 0, "C": 1}, 3, ["chicago", "chicago", "loser"], "C",
                 id="phase 1: two Chicagos, the third player finishes and takes a lid"),
    pytest.param(["A", "B"], TWO_PHASE_2, ["A 1 1 1", "A announces 100 60 high", "B 2 2 2"],
                 {"A": 0, "B": 1}, 0, ["chicago", "loser"], "B",
                 id="phase 2: the leader's Chicago, the other finishes, nobody lays down"),
    pytest.param(["A", "B", "C"], THREE_PHASE_2,
                 ["C 1 1 1", "C announces 1 6 low", "A 6 6 6"],
                 {"A": 2, "B": 0, "C": 0}, 0, ["loser", "safe", "chicago"], "A",
                 id="phase 2: a Chicago beside a player already out"),
    pytest.param(["A", "B"], TWO_PHASE_1, ["A 1 1 1", "A announces 100 60 high", "B 1 1 1"],
                 {"A": 0, "B": 0}, 2, ["chicago", "chicago"], None,
                 id="decision: everyone left throws a Chicago, nobody is left to lose"),
]


@pytest.mark.parametrize("players, before, chicago_round, lids, pot, statuses, loser",
                         CHICAGO_LEAVES_ONE)
def test_bayrisch_a_chicago_that_leaves_one_player_still_lets_the_others_finish_the_round(
        players, before, chicago_round, lids, pot, statuses, loser):
    game = game_of(players, variant="bayrisch")
    play(game, *before)
    rounds = game.state()["rounds_played"]
    order = game.state()["round"]["order"]
    for line in chicago_round:
        assert not game.state()["finished"], f"the game ended before {line!r}"
        play(game, line)   # refused (IllegalAction) if the engine thinks the game is over
    state = game.state()
    assert state["finished"] and state["loser"] == loser
    assert scores(game) == lids and state["pot"] == pot
    assert [p["status"] for p in state["players"]] == statuses
    assert state["next"]["actions"] == ["undo", "correct"]
    # The game ended with the throw round, settled: everyone in it has a result.
    last = state["last_round"]
    assert state["rounds_played"] == rounds + 1
    assert [r["player"] for r in last["results"]] == order
    assert last["outcome"][-1] == (f"{loser} loses" if loser else "nobody is left")


def test_bayrisch_a_leader_with_a_chicago_still_announces():
    game = game_of(["A", "B", "C"], variant="bayrisch")
    play(game, "A 1 1 1")
    assert game.state()["next"]["player"] == "A"
    play(game, "A announces 1 6 low", "B 2 2 2", "C 5 5 5")
    # low: B's 6 beats C's 15; C is the worst and takes a lid; A is out with none.
    assert scores(game) == {"A": 0, "B": 0, "C": 1}
    assert game.state()["round"]["order"] == ["C", "B"]


# -- Tschigg -------------------------------------------------------------------------------

def test_tschigg_has_twice_the_players_less_one_lids_and_the_best_gives_the_worst_one():
    game = game_of(["A", "B"], variant="tschigg")
    assert game.state()["pot"] == 3
    one_throw_round(game, "100 60 high", "A 2 2 2", "B 5 5 5")
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2")
    one_throw_round(game, "100 60 high", "B 5 5 5", "A 2 2 2")   # pot empty: A 2, B 1
    state = game.state()
    assert state["phase"] == "reduce" and scores(game) == {"A": 2, "B": 1}
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2")   # A gives B one
    assert scores(game) == {"A": 1, "B": 2} and game.state()["lids_in_game"] == 3
    one_throw_round(game, "100 60 high", "B 2 2 2", "A 5 5 5")   # A gives its last: won
    state = game.state()
    assert state["finished"] and state["loser"] == "B" and scores(game) == {"A": 0, "B": 3}


@pytest.mark.parametrize("throws, lids, leader", [
    # phase 1: the last with a one or a six takes the lid
    (["A 2 3 4", "B 1 3 4", "C 6 2 2", "D 3 3 3"], {"C": 1}, "C"),
    (["A 6 3 4", "B 2 3 4", "C 2 2 2", "D 3 3 3"], {"A": 1}, "A"),
    (["A 2 3 4", "B 2 3 4", "C 2 2 5", "D 1 1 1"], {}, "D"),   # a Chicago makes Sand
])
def test_tschigg_sand_in_the_distribute_phase(throws, lids, leader):
    game = game_of(["A", "B", "C", "D"], variant="tschigg")
    one_throw_round(game, "sand", *throws)
    expected = {p: lids.get(p, 0) for p in "ABCD"}
    assert scores(game) == expected and game.state()["round"]["leader"] == leader
    assert game.state()["pot"] == 7 - sum(lids.values())


def tschigg_in_reduce_phase():
    """Three players, 5 lids dealt (A 2, B 2, C 1); C, the last worst, leads."""
    game = game_of(["A", "B", "C"], variant="tschigg")
    for worst in ["A", "B", "A", "B", "C"]:
        order = game.state()["round"]["order"]
        one_throw_round(game, "100 60 high",
                        *[f"{p} {'2 2 2' if p == worst else '5 5 5'}" for p in order])
    assert scores(game) == {"A": 2, "B": 2, "C": 1} and game.state()["phase"] == "reduce"
    assert game.state()["round"]["order"] == ["C", "A", "B"]
    return game


@pytest.mark.parametrize("throws, after, leader", [
    # the last who made Sand (B) gives a lid to the last who missed it (A)
    (["C 2 3 4", "A 6 3 4", "B 2 2 2"], {"A": 3, "B": 1, "C": 1}, "A"),
    (["C 2 3 4", "A 2 3 4", "B 2 2 2"], {"A": 2, "B": 2, "C": 1}, "B"),  # nobody missed
    (["C 1 3 4", "A 6 3 4", "B 1 2 2"], {"A": 2, "B": 2, "C": 1}, "B"),  # nobody made it
    (["C 2 3 4", "A 1 1 1", "B 6 6 2"], {"A": 1, "B": 3, "C": 1}, "B"),  # Chicago made it
    (["C 2 3 4", "A 6 6 6", "B 6 2 2"], {"A": 2, "B": 3, "C": 0}, "B"),  # C's last: won
])
def test_tschigg_sand_in_the_reduce_phase(throws, after, leader):
    game = tschigg_in_reduce_phase()
    one_throw_round(game, "sand", *throws)
    assert scores(game) == after
    assert game.state()["round"]["leader"] == leader and game.state()["lids_in_game"] == 5


# RULES.md §2, Sand: "In phase 2 the last player who made Sand MAY give one of their lids
# away". The lid goes when the round is settled (as game files written before the choice
# have it); its giver may keep it with the very next action.
SAND_C_MADE_B_MISSED = ["C 2 3 4", "A 1 3 4", "B 6 2 2"]   # C made it last, B missed last


def test_tschigg_sand_the_last_who_made_it_may_keep_the_lid():
    game = tschigg_in_reduce_phase()
    one_throw_round(game, "sand", *SAND_C_MADE_B_MISSED)
    state = game.state()
    assert scores(game) == {"A": 2, "B": 3, "C": 0}      # C's last lid went to B: C has won
    assert state["sand_lid"] == {"giver": "C", "taker": "B"}
    assert "sand_lid" in family_actions(game) and state["round"]["order"] == ["B", "A"]
    play(game, "B done")    # B's turn had ended by itself: the done changes nothing
    play(game, "C keeps lid")
    state = game.state()
    assert scores(game) == {"A": 2, "B": 2, "C": 1} and state["sand_lid"] is None
    assert state["round"]["order"] == ["B", "C", "A"]     # C kept a lid: still in the game
    assert state["lids_in_game"] == 5
    assert state["last_round"]["outcome"][-1] == "C keeps the lid: none goes to B"
    assert "sand_lid" not in family_actions(game)


def test_tschigg_sand_lid_given_on_the_control_page_is_as_if_nothing_was_said():
    said, unsaid = tschigg_in_reduce_phase(), tschigg_in_reduce_phase()
    one_throw_round(said, "sand", *SAND_C_MADE_B_MISSED)
    one_throw_round(unsaid, "sand", *SAND_C_MADE_B_MISSED)
    play(said, "C gives lid")
    assert scores(said) == scores(unsaid) == {"A": 2, "B": 3, "C": 0}
    assert said.state()["sand_lid"] is None
    assert said.state()["last_round"] == unsaid.state()["last_round"]


def test_tschigg_sand_lid_is_given_when_the_next_throw_comes_first():
    game = tschigg_in_reduce_phase()
    one_throw_round(game, "sand", *SAND_C_MADE_B_MISSED)
    play(game, "B 5 5 5")
    assert game.state()["sand_lid"] is None and scores(game) == {"A": 2, "B": 3, "C": 0}
    with pytest.raises(IllegalAction, match="only right after a Sand round"):
        game.apply(action("C keeps lid"))


def test_tschigg_keeping_the_sand_lid_that_ended_the_game_plays_on():
    game = game_of(["A", "B"], variant="tschigg")
    one_throw_round(game, "100 60 high", "A 2 2 2", "B 5 5 5")    # A takes a lid
    one_throw_round(game, "100 60 high", "A 2 2 2", "B 5 5 5")    # A takes a lid
    one_throw_round(game, "100 60 high", "A 5 5 5", "B 2 2 2")    # B takes the last
    one_throw_round(game, "100 60 high", "B 2 2 2", "A 5 5 5")    # A gives one: A 1, B 2
    one_throw_round(game, "sand", "B 1 2 3", "A 2 3 4")           # A gives its last
    state = game.state()
    assert state["finished"] and state["loser"] == "B"
    assert state["next"]["actions"] == ["sand_lid", "undo", "correct"]
    play(game, "A keeps lid")
    state = game.state()
    assert not state["finished"] and state["loser"] is None
    assert scores(game) == {"A": 1, "B": 2} and state["round"]["order"] == ["B", "A"]


@pytest.mark.parametrize("before, bad, message", [
    ([], "C keeps lid", "only right after a Sand round of the reduce phase"),
    (SAND_C_MADE_B_MISSED, "A keeps lid", "C made Sand last: only C gives the lid or keeps it, "
                                          "not A"),
    (SAND_C_MADE_B_MISSED, {"type": "sand_lid", "player": "C"}, "needs 'give'"),
    (SAND_C_MADE_B_MISSED, {"type": "sand_lid", "player": "C", "give": "no"},
     "'give' must be true or false, not 'no'"),
    (SAND_C_MADE_B_MISSED, {"type": "sand_lid", "player": "C", "give": 0},
     "'give' must be true or false, not 0"),
])
def test_a_bad_sand_lid_choice_is_refused_and_changes_nothing(before, bad, message):
    game = tschigg_in_reduce_phase()
    if before:
        one_throw_round(game, "sand", *before)
    state = game.state()
    with pytest.raises(IllegalAction, match=re.escape(message)):
        game.apply(action(bad))
    assert game.state() == state


@pytest.mark.parametrize("throws", [
    ["C 2 3 4", "A 2 3 4", "B 2 2 2"],     # nobody missed: no lid to give
    ["C 1 3 4", "A 6 3 4", "B 1 2 2"],     # nobody made it
])
def test_no_sand_lid_choice_when_no_lid_can_move(throws):
    game = tschigg_in_reduce_phase()
    one_throw_round(game, "sand", *throws)
    assert game.state()["sand_lid"] is None and "sand_lid" not in family_actions(game)


def test_no_sand_lid_choice_in_the_distribute_phase():
    game = game_of(["A", "B", "C"], variant="tschigg")
    one_throw_round(game, "sand", "A 2 3 4", "B 1 3 4", "C 2 2 5")
    assert game.state()["sand_lid"] is None and "sand_lid" not in family_actions(game)


def test_a_kept_sand_lid_replays_the_same_from_its_file():
    game = tschigg_in_reduce_phase()
    one_throw_round(game, "sand", *SAND_C_MADE_B_MISSED)
    play(game, "C keeps lid", "B 5 5 5")
    again = load_game(json.loads(json.dumps(game.to_file())))
    assert again.state() == game.state() and again.to_file() == game.to_file()
    assert scores(again) == {"A": 2, "B": 2, "C": 1}


# -- illegal actions -----------------------------------------------------------------------

@pytest.mark.parametrize("setup, bad, message", [
    ([], "Bertil 1 2 3", "it is Aino's turn, not Bertil's"),
    ([], "Aino 1 2", "takes 3 dice, not 2"),
    ([], "Aino 1 2 7", "die value 7 is outside 1..6"),
    ([], "Aino 1 2 3 4", "takes 3 dice, not 4"),
    (["Aino 1 2 3"], "Bertil announces 100 60 high", "only the leader Aino announces"),
    (["Aino 1 2 3"], "Aino keeps 4", "4 is not among the dice of the latest throw"),
    (["Aino 1 2 3", "Aino keeps 1"], "Aino keeps 1", "1 is not among"),
    (["Aino 1 2 3", "Aino keeps 1"], "Aino 4 4 4", "takes 2 dice \\(1 set aside\\), not 3"),
    (["Aino 1 2 3", "Aino keeps 1 2 3"], "Aino 4", "all three dice are set aside"),
    (["Aino 1 2 3", "Aino 2 3 4", "Aino 3 4 5"], "Aino 4 5 6",
     "Aino's throwing is over: the announcement is due"),   # "up to three times"
    (["Aino 1 2 3", "Aino announces 1 6 high"], "Bertil 1 2 3", None),   # legal, control
    (["Aino 1 2 3", "Aino announces 1 6 high", "Bertil 1 2 3"], "Bertil 4 5 6",
     "it is Cecilia's turn"),   # a throw beyond the cap
])
def test_illegal_actions_name_the_action_and_the_reason_and_change_nothing(setup, bad, message):
    game = game_of()
    play(game, *setup)
    before = game.state()
    if message is None:
        play(game, bad)
        return
    with pytest.raises(IllegalAction) as err:
        game.apply(action(bad))
    kind = action(bad)["type"]
    player = action(bad)["player"]
    assert str(err.value).startswith(f"action {len(setup)} ({kind} by {player}): ")
    assert err.value.index == len(setup)
    assert re.search(message, str(err.value))
    assert game.state() == before


def test_nothing_is_legal_after_the_loser_is_found_but_undo():
    game = game_of(["A", "B"], match_length=1)
    one_throw_round(game, "100 60 high", "A 2 2 2", "B 3 3 3")
    with pytest.raises(IllegalAction, match="the game is over: A lost"):
        game.apply(action("A 2 2 2"))
    play(game, "B done")   # B's turn ended by itself with the last throw: accepted
    game.apply({"type": "undo"})
    game.apply({"type": "undo"})
    assert not game.state()["finished"] and game.state()["next"]["player"] == "B"


@pytest.mark.parametrize("options, players, message", [
    ({"variant": "swiss"}, ABC, "options.variant"),
    ({"match_length": 4}, ABC, "options.match_length: 4 is not one of 3, 1, 5, 10"),
    ({"match_length": True}, ABC, "options.match_length"),
    ({"lids": 4}, ABC, "unknown option"),
    ({}, ["Aino"], "2 to 40 players"),
])
def test_bad_setups_are_refused_by_name(options, players, message):
    with pytest.raises(GameFileError, match=message):
        new_game("pub_chicago", players, options)


@pytest.mark.parametrize("variant, named", [("bayrisch", "Bayrisch"), ("tschigg", "Tschigg")])
@pytest.mark.parametrize("length", [3, 1, 5, 10])
def test_a_match_length_is_refused_with_a_variant_that_ends_by_itself(variant, named, length):
    # RULES.md §2: the match length is an option of Basis only; Bayrisch and Tschigg end
    # by themselves. The refusal names the option and the variant.
    with pytest.raises(GameFileError, match=rf"options\.match_length: .*Basis.* not of {named}"):
        new_game("pub_chicago", ABC, {"variant": variant, "match_length": length})


def test_a_lid_game_has_no_match_length_and_its_file_says_none():
    game = game_of(variant="tschigg")
    assert game.state()["options"] == {"variant": "tschigg"}
    assert game.to_file()["options"] == {"variant": "tschigg"}
    assert "match_length" not in json.dumps(game.state()["search"])


@pytest.mark.parametrize("length", [3, 5])
def test_an_older_lid_game_file_with_a_match_length_still_loads_and_plays_the_same(length):
    # Files written before the refusal carried the (meaningless) match length: they load,
    # the option dropped, and the game is the same game.
    actions = [{"type": "roll", "player": "A", "dice": [2, 3, 4]},
               {"type": "done", "player": "A"},
               {"type": "announce", "player": "A", "ones": 100, "sixes": 60, "order": "high"},
               {"type": "roll", "player": "B", "dice": [5, 5, 5]},
               {"type": "roll", "player": "C", "dice": [2, 2, 2]}]
    old = load_game({"family": "pub_chicago", "players": ["A", "B", "C"], "actions": actions,
                     "options": {"variant": "bayrisch", "match_length": length}})
    new = load_game({"family": "pub_chicago", "players": ["A", "B", "C"], "actions": actions,
                     "options": {"variant": "bayrisch"}})
    assert old.state() == new.state()
    assert [p["lids"] for p in old.state()["players"]] == [0, 0, 1]   # C, the worst


def outcome(game):
    return game.state()["last_round"]["outcome"]


def test_the_story_of_a_chicago_in_bayrisch_says_the_thrower_is_safe_and_the_lids_leave():
    # RULES.md §2: "the thrower is out at once, with all their lids (those lids leave the
    # game)". Out is safe here, which the story must not leave to be read as lost.
    game = game_of(["A", "B"], variant="bayrisch")
    for _ in range(2):
        one_throw_round(game, "100 60 high", "A 2 2 2", "B 3 3 3")   # A takes a lid twice
    one_throw_round(game, "100 60 high", "A 1 1 1", "B 2 2 2")
    assert outcome(game)[0] == "A throws a Chicago: out at once and safe; their 2 lids leave the game"
    assert "B takes a lid from the pot" in outcome(game)
    assert game.state()["loser"] == "B" and game.state()["lids_in_game"] == 1


def test_the_story_says_a_tschigg_player_without_a_lid_has_won_and_a_bayrisch_one_is_safe():
    # At the end of the pot B never held a lid: not "no lid left".
    for variant, said in (("tschigg", "B holds no lid and has won: out of the game"),
                          ("bayrisch", "B holds no lid and is out (safe)")):
        game = game_of(["A", "B"], variant=variant)
        while game.state()["pot"]:
            one_throw_round(game, "100 60 high", "A 2 2 2", "B 3 3 3")
        assert said in outcome(game) and game.state()["loser"] == "A"


def test_a_throw_of_one_die_is_said_so():
    game = game_of(["A", "B"])
    play(game, "A 6 6 3", "A keeps 6 6")
    with pytest.raises(IllegalAction, match=r"this throw takes 1 die \(2 set aside\), not 3$"):
        play(game, "A 4 4 4")


def test_players_cannot_join_or_leave():
    game = game_of()
    with pytest.raises(IllegalAction, match="unknown action type 'join'"):
        game.apply({"type": "join", "player": "Doris"})


# -- corrections ---------------------------------------------------------------------------

def test_a_correction_revalues_the_round():
    game = game_of(["A", "B"], match_length=1)
    one_throw_round(game, "1 6 high", "A 2 2 2", "B 3 3 3")
    assert game.state()["loser"] == "A"
    game.apply({"type": "correct", "action": 2, "dice": [1, 2, 2]})   # B: 5 < 6
    assert game.state()["loser"] == "B" and game.state()["dropped"] == []


def test_a_correction_that_spoils_turning_sixes_drops_the_rest_of_that_turn():
    game = game_of(["A", "B", "C"])
    play(game, "A 2 3 4", "A 2 3 4", "A 2 3 4", "A announces 100 60 high",
         "B 6 6 3", "B turns", "B 4 4", "B done", "C 5 5 5", "C done")
    game.apply({"type": "correct", "action": 4, "dice": [6, 5, 3]})
    state = game.state()
    assert [(d["action"], d["type"]) for d in state["dropped"]] == [
        (5, "turn_sixes"), (6, "roll"), (7, "done")]
    # B's turn ended as it stood (6·5·3 = 68); C's throw then replayed normally.
    assert state["last_round"]["results"][1]["dice"] == [6, 5, 3]
    assert state["last_round"]["outcome"][0] == "B is best and safe"


def test_a_correction_that_drops_the_announcement_values_the_round_by_default():
    game = game_of(["A", "B"], match_length=1)
    play(game, "A 6 6 3", "A turns", "A 2 2", "A announces 1 6 low", "B 6 6 6", "B done")
    assert game.state()["loser"] == "B"      # low: A's 5 beats B's 18
    game.apply({"type": "correct", "action": 0, "dice": [6, 5, 3]})
    state = game.state()
    # B's closing done was logged while B's turn was still open; replayed, B's turn ended
    # with the throw that reached the new cap, so the done belongs to an ended turn.
    assert [d["type"] for d in state["dropped"]] == ["turn_sixes", "roll", "announce", "done"]
    assert state["last_round"]["default_announcement"] is True
    assert state["loser"] == "A"             # ones 100, sixes 60, high: 68 < 180


def test_a_correction_that_shortens_the_cap_drops_the_later_throws():
    game = game_of(["A", "B", "C"])
    play(game, "A 2 3 4", "A 2 3 5", "A announces 100 60 high",
         "B 2 2 2", "B 3 3 3", "C 4 4 4", "C done")
    game.apply({"type": "correct", "action": 0, "dice": [1, 1, 1]})   # a Chicago: cap 1
    state = game.state()
    # The leader's second throw is now illegal and the core drops the rest of that turn,
    # the announcement with it: the round is valued by the default announcement.
    # C's done came when C still had a second throw; with the cap at 1 C's turn ends
    # with the first throw, so that done is dropped with it.
    assert [(d["action"], d["type"]) for d in state["dropped"]] == [
        (1, "roll"), (2, "announce"), (4, "roll"), (6, "done")]
    assert state["last_round"]["default_announcement"] is True
    assert state["last_round"]["results"][0]["chicago"] is True
    assert [r["dice"] for r in state["last_round"]["results"]] == [[1, 1, 1], [2, 2, 2],
                                                                   [4, 4, 4]]


# -- game files ----------------------------------------------------------------------------

def test_a_game_played_live_equals_its_exported_file_read_back():
    game = game_of(["Aino", "Bertil", "Cecilia"], variant="tschigg")
    play(game, "leader Bertil", "Bertil 6 6 2", "Bertil turns", "Bertil 3 4",
         "Bertil announces sand", "Cecilia 2 3 4", "Cecilia done", "Aino 1 2 3")
    game.apply({"type": "correct", "action": 1, "dice": [6, 6, 5]})
    game.apply({"type": "undo"})
    again = load_game(json.loads(json.dumps(game.to_file())))
    assert again.state() == game.state()
    assert again.to_file() == game.to_file()


def test_the_example_game_in_docs_replays_to_the_hand_worked_result():
    data = json.loads((REPO / "docs" / "pub_chicago.json").read_text())
    assert data["family"] == "pub_chicago" and data["options"] == {"variant": "bayrisch"}
    state = load_game(data).state()
    # Worked by hand from RULES.md §2, Bayrisch, 3 players: 4 lids in the pot.
    # Round 1 (Bertil leads, drawn): Bertil 6·6·3 turns two sixes, throws 5·4 -> 1·5·4;
    #   announces ones 100, sixes 6, high; 2 throws cap the round. Bertil 109,
    #   Cecilia 6·6·5 = 17, Aino 1·2·2 = 104. Worst Cecilia takes a lid (pot 3).
    # Round 2 (Cecilia): ones 1, sixes 60, low, cap 1. Cecilia 11, Aino 2·2·1 = 5,
    #   Bertil 6·2·4 = 66. Worst Bertil takes a lid (pot 2).
    # Round 3 (Bertil): three throws, 5·5·6 = 70 at ones 100, sixes 60, high.
    #   Cecilia throws 1·1·1: Chicago, out at once with her lid (it leaves the game).
    #   Aino 4·6·1 = 164. Worst of the rest: Bertil, a second lid (pot 1).
    # Round 4 (Bertil, Aino): ones 1, sixes 6, high, cap 2. Bertil 5·3·2 = 10,
    #   Aino 2·1·2 = 5: Aino takes the last lid. Pot empty: reduce (A 1, B 2).
    # Round 5 (Aino): Aino 5·1·3 = 108 (a one from two sixes); Bertil 6·6·1 = 220 is
    #   best and lays a lid down (B 1).
    # Round 6 (Aino): ones 100, sixes 60, low. Aino 12, Bertil 2·2·3 = 7 is best and
    #   lays down his last lid: out. Aino is the last with a lid and loses.
    assert state["finished"] and state["loser"] == "Aino"
    assert {p["name"]: p["score"] for p in state["players"]} == {
        "Aino": 1, "Bertil": 0, "Cecilia": 0}
    assert [p["status"] for p in state["players"]] == ["loser", "safe", "chicago"]
    assert state["lids_in_game"] == 1 and state["rounds_played"] == 6
    assert state["dropped"] == []


def test_help_lists_the_options_and_decisions_in_force():
    basis = game_of(match_length=5).state()["help"]
    assert basis[0].startswith("Pub Chicago, variant Basis") and "5 loser searches" in basis[0]
    assert any("tie for most strokes" in line for line in basis)
    assert "(decision: 3 unless chosen" in basis[0]          # RULES.md: the seed gives none
    assert not any("Sand" in line for line in basis)
    tschigg = game_of(variant="tschigg").state()["help"]
    assert any(line.startswith("Sand") for line in tschigg)
    # RULES.md: the last who made Sand "may give" a lid (the help said it always goes)
    assert any("the last who made Sand may give one of their lids away" in line
               and "unless they keep it" in line for line in tschigg)
    bayrisch = game_of(variant="bayrisch").state()["help"]
    assert any("nobody lays a lid down" in line for line in bayrisch)
    assert any("even if only one of them is left" in line for line in bayrisch)
    assert all(line.count("\n") == 0 for line in basis + tschigg + bayrisch)


@pytest.mark.parametrize("module", ["scorer.pub_chicago", "scorer.pub_chicago_dice",
                                    "scorer.pub_chicago_match", "scorer.pub_chicago_help"])
def test_the_examples_in_the_docstrings_hold(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_the_state_says_whether_the_first_leader_was_drawn_and_undo_takes_it_back():
    """The control page offers one draw: offered again, "Draw the first leader by lot"
    could be tapped until the lot fell on whoever the tapper wished."""
    game = new_game("pub_chicago", ABC)
    assert not game.state()["leader_drawn"]
    play(game, "leader Cecilia")
    assert game.state()["round"]["leader"] == "Cecilia" and game.state()["leader_drawn"]
    play(game, "undo")
    assert not game.state()["leader_drawn"]


def test_a_game_file_with_the_leader_drawn_twice_still_replays():
    """Files kept before the draw was offered once may hold several draws: the last counts."""
    data = {"format": "dicetray-game/1", "family": "pub_chicago", "players": ABC,
            "options": {"variant": "basis", "match_length": 3},
            "actions": [{"type": "leader", "player": "Bertil"},
                        {"type": "leader", "player": "Cecilia"},
                        {"type": "roll", "player": "Cecilia", "dice": [2, 3, 4]}]}
    state = load_game(data).state()
    assert state["round"]["leader"] == "Cecilia" and state["round"]["order"][0] == "Cecilia"
    assert state["next"]["player"] == "Cecilia" and state["next"]["throw"] == 2
