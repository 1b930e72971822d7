"""Card Chicago (RULES.md §4): every rule, option and decision, table by table, with the
worked examples of seeds/001 and seeds/004."""
from __future__ import annotations

import doctest
import importlib
from typing import Any

import pytest

from scorer import Game, GameFileError, IllegalAction, new_game

# Hands used again and again: no two of them share a card, so any of them can be
# shown together.
ROYAL = "AS KS QS JS TS"         # royal flush
SF = "9H 8H 7H 6H 5H"            # straight flush, 8
FOUR = "2S 2H 2D 2C 3D"          # four of a kind, 7
FULL = "KH KD KC 9S 9D"          # full house, 6
FLUSH = "AC JC 9C 6C 3C"         # flush, 5
STRAIGHT = "8S 7D 6D 5D 4C"      # straight, 4
TRIPS = "QH QD QC 4S 3H"         # three of a kind, 3
TWO_PAIR = "JH JD TH TD 5S"      # two pair, 2
PAIR = "AH AD 8C 7S 4H"          # pair, 1
NOTHING = "TC 8D 6S 4D 3S"       # high card, 0
# Others, for a second hand of a kind.
ROYAL_H = "AH KH QH JH TH"
FLUSH_S = "9S 8S 6S 4S 2S"
STRAIGHT_C = "8C 7D 6D 5D 4C"

AB = ["Aino", "Bertil"]
ABC = ["Aino", "Bertil", "Cecilia"]
ABCD = ["A", "B", "C", "D"]


def game(players: list[str] | None = None, **options: Any) -> Game:
    return new_game("card_chicago", players or AB, options)


def show(g: Game, number: int, hands: dict[str, str]) -> None:
    g.apply({"type": "show", "round": number, "hands": hands})


def tricks(g: Game, winners: list[str], cards: list[str] | None = None) -> None:
    for i, winner in enumerate(winners):
        action: dict[str, Any] = {"type": "trick", "winner": winner}
        if cards is not None:
            action["card"] = cards[i]
        g.apply(action)


def deal(g: Game, r1: dict[str, str] | None = None, r2: dict[str, str] | None = None,
         winners: list[str] | None = None, r3: dict[str, str] | None = None,
         call: str | None = None) -> None:
    """One whole deal: show 1, show 2, an optional call, the tricks, show 3."""
    show(g, 1, r1 or {})
    show(g, 2, r2 or {})
    if call:
        g.apply({"type": "call", "player": call})
    tricks(g, winners or [g.players[1]] * 5)
    if r3 is not None:
        show(g, 3, r3)


def score(g: Game) -> dict[str, int]:
    return {p["name"]: p["score"] for p in g.state()["players"]}


def sweep(g: Game, player: str) -> None:
    """A deal in which ``player`` wins everything: 8 + 8 + 5 + 8 = 29 points."""
    deal(g, {player: SF}, {player: SF}, [player] * 5, {player: SF})


def refused(g: Game, action: dict[str, Any], reason: str) -> str:
    """The action is refused naming its index, type and reason; the state is unchanged."""
    before = g.state()
    with pytest.raises(IllegalAction) as caught:
        g.apply(action)
    message = str(caught.value)
    assert message.startswith(f"action {len(g.log)} ({action['type']}")
    assert reason in message
    assert g.state() == before
    return message


# -- hand points ---------------------------------------------------------------------------

@pytest.mark.parametrize("options, hand, points", [
    ({}, PAIR, 1), ({}, TWO_PAIR, 2), ({}, TRIPS, 3), ({}, STRAIGHT, 4), ({}, FLUSH, 5),
    ({}, FULL, 6), ({}, FOUR, 7), ({}, SF, 8), ({}, ROYAL, 52),
    ({}, "5S 4H 3D 2C AS", 4),                              # the wheel is a straight
    ({"four_of_a_kind": 8}, FOUR, 8),
    ({"straight_flush": 11}, SF, 11),
    ({"straight_flush": 11}, ROYAL, 52),
    ({"royal_flush": 20}, ROYAL, 20),
    ({"royal_flush": 8}, ROYAL, 8),
    # Decision: royal_flush 8 means "just a straight flush": it scores like one.
    ({"royal_flush": 8, "straight_flush": 11}, ROYAL, 11),
    ({}, NOTHING, 0),
])
def test_the_best_hand_scores_its_points(options: dict[str, Any], hand: str,
                                         points: int) -> None:
    g = game(**options)
    show(g, 1, {"Aino": hand})
    assert score(g) == {"Aino": points, "Bertil": 0}
    shown = g.state()["deal"]["shows"][0]
    assert shown["best"] == ("Aino" if points else None)


@pytest.mark.parametrize("hands, best", [
    ({"Aino": PAIR, "Bertil": TWO_PAIR}, "Bertil"),
    ({"Aino": FLUSH, "Bertil": STRAIGHT}, "Aino"),
    ({"Aino": "QS QH 9D 4C 2S", "Bertil": "QD QC 8S 7H 6D"}, "Aino"),    # kicker
    ({"Aino": "5S 4H 3D 2C AS", "Bertil": "6D 5H 4S 3C 2H"}, "Bertil"),  # wheel lowest
    ({"Aino": "2S 2H 2D 3H 3S", "Bertil": FLUSH}, "Aino"),
])
def test_only_the_best_hand_scores(hands: dict[str, str], best: str) -> None:
    g = game()
    show(g, 1, hands)
    assert g.state()["deal"]["shows"][0]["best"] == best
    assert sorted(score(g).values()) == [0, g.state()["deal"]["shows"][0]["points"]]
    assert score(g)[best] > 0


def test_nobody_with_a_pair_scores_nothing() -> None:
    g = game()
    show(g, 1, {"Aino": NOTHING, "Bertil": "KS QH 9D 5C 2S"})
    assert score(g) == {"Aino": 0, "Bertil": 0}
    assert "nobody has at least a pair" in g.state()["deal"]["shows"][0]["note"]
    show(g, 2, {})                               # nobody shows at all: nothing either
    assert score(g) == {"Aino": 0, "Bertil": 0}


def test_exactly_equal_best_hands_score_nothing() -> None:
    g = game(ABC)
    show(g, 1, {"Aino": "AS AH 9D 6C 3S", "Bertil": "AD AC 9S 6H 3D",
                "Cecilia": "TH TD 8S 4D 2H"})
    assert score(g) == {"Aino": 0, "Bertil": 0, "Cecilia": 0}
    assert "exactly equal" in g.state()["deal"]["shows"][0]["note"]


@pytest.mark.parametrize("aino, bertil, best", [
    ("AS AH 9D 6C 3S", "AD AC 9S 6H 3D", "Aino"),     # ace of spades over ace of diamonds
    ("AH AC 9D 6C 3S", "AS AD 9S 6H 3D", "Bertil"),   # ace of spades is Bertil's
    ("AD KD QD JD TD", "AC KC QC JC TC", "Aino"),     # diamonds over clubs
    ("5C 4D 3D 2D AD", "5H 4S 3S 2S AS", "Bertil"),   # the five decides a wheel
])
def test_suit_order_breaks_an_exact_tie(aino: str, bertil: str, best: str) -> None:
    g = game(equal_hands="suit_order", royal_flush=20)
    show(g, 1, {"Aino": aino, "Bertil": bertil})
    assert g.state()["deal"]["shows"][0]["best"] == best
    assert score(g)[best] > 0


# -- a deal -------------------------------------------------------------------------------

def test_seed_004_example_deal() -> None:
    # Four players. After the first exchange A has two pair (2); after the second C has
    # three of a kind (3); B takes the last trick (5); after the tricks D has a flush (5).
    g = game(ABCD)
    show(g, 1, {"A": "KS KH 4D 4C 9S", "B": "QS QH 7D 3C 2S"})
    show(g, 2, {"C": "8S 8H 8D AC 3S", "A": "KS KH 4D 4C 9S"})
    tricks(g, ["C", "A", "D", "C", "B"])
    show(g, 3, {"D": "AH JH 9H 6H 3H", "C": "8S 8H 8D AC 3S", "B": "QS QH 7D 3C 2S"})
    state = g.state()
    assert score(g) == {"A": 2, "B": 5, "C": 3, "D": 5}
    assert state["deals"][0]["points"] == {"A": 2, "B": 5, "C": 3, "D": 5}
    # The points go on the running totals and the next player deals.
    assert state["deal"]["number"] == 2
    assert state["deal"]["dealer"] == "B"
    assert not state["finished"]


def test_phases_of_a_deal_and_what_is_legal() -> None:
    g = game(ABC)
    seen = []
    for action in [{"type": "exchange", "player": "Bertil", "count": 2},
                   {"type": "show", "round": 1, "hands": {}},
                   {"type": "show", "round": 2, "hands": {}},
                   {"type": "trick", "winner": "Aino"},
                   *[{"type": "trick", "winner": "Bertil"}] * 4,
                   {"type": "show", "round": 3, "hands": {}}]:
        state = g.state()
        seen.append((state["deal"]["phase"], state["next"]["actions"]))
        g.apply(action)
    assert seen[0] == ("exchange 1", ["exchange", "show"])
    assert seen[2] == ("exchange 2", ["exchange", "show", "undo"])
    assert seen[3] == ("exchange 3", ["exchange", "trick", "undo"])   # nobody has 15
    assert seen[4] == ("tricks", ["trick", "undo"])
    assert seen[-1] == ("final hands", ["show", "undo"])
    assert g.state()["deal"]["phase"] == "exchange 1"
    assert g.state()["next"]["dice"] == 0


def test_the_deal_passes_clockwise_and_left_of_the_dealer_starts() -> None:
    g = game(ABC)
    expected = [("Aino", "Bertil"), ("Bertil", "Cecilia"), ("Cecilia", "Aino"),
                ("Aino", "Bertil")]
    for dealer, first in expected:
        state = g.state()
        assert (state["deal"]["dealer"], state["deal"]["order"][0]) == (dealer, first)
        assert state["next"]["player"] == first          # exchanges first
        deal(g, winners=["Aino"] * 5, r3={})


def test_left_of_the_dealer_leads_the_first_trick_and_the_winner_leads_next() -> None:
    g = game(ABC)
    show(g, 1, {})
    show(g, 2, {})
    assert g.state()["deal"]["leader"] == "Bertil"
    g.apply({"type": "trick", "winner": "Cecilia"})
    assert g.state()["deal"]["leader"] == "Cecilia"
    assert g.state()["next"]["player"] == "Cecilia"


@pytest.mark.parametrize("options, card, points", [
    ({}, None, 5), ({}, "2H", 5), ({}, "AS", 5),
    ({"last_trick": "two_bonus"}, "AS", 2),
    ({"last_trick": "two_bonus"}, "2H", 5),
])
def test_the_last_trick_scores(options: dict[str, Any], card: str | None, points: int) -> None:
    g = game(**options)
    show(g, 1, {})
    show(g, 2, {})
    tricks(g, ["Aino"] * 4)
    assert score(g) == {"Aino": 0, "Bertil": 0}     # the other tricks score nothing
    last: dict[str, Any] = {"type": "trick", "winner": "Bertil"}
    if card:
        last["card"] = card
    g.apply(last)
    assert score(g) == {"Aino": 0, "Bertil": points}


def test_two_bonus_needs_the_card_of_the_last_trick() -> None:
    g = game(last_trick="two_bonus")
    show(g, 1, {})
    show(g, 2, {})
    tricks(g, ["Aino"] * 4)
    refused(g, {"type": "trick", "winner": "Bertil"}, "needs its 'card'")


def test_exchanges_are_recorded_once_each_and_may_be_left_out() -> None:
    g = game(ABC)
    g.apply({"type": "exchange", "player": "Cecilia", "count": 5})
    g.apply({"type": "exchange", "player": "Bertil", "count": 0})
    assert g.state()["next"]["player"] == "Aino"
    refused(g, {"type": "exchange", "player": "Bertil", "count": 1}, "already exchanged")
    show(g, 1, {})
    g.apply({"type": "exchange", "player": "Bertil", "count": 1})   # a new exchange
    assert g.state()["deal"]["exchanges"] == [{"Cecilia": 5, "Bertil": 0}, {"Bertil": 1}, {}]


@pytest.mark.parametrize("count", [-1, 6, 2.0, "2", True, None])
def test_an_exchange_counts_0_to_5_cards(count: Any) -> None:
    refused(game(), {"type": "exchange", "player": "Aino", "count": count}, "'count'")


# -- Chicago -------------------------------------------------------------------------------

def test_a_chicago_call_needs_15_points() -> None:
    g = game()
    deal(g, {"Aino": TRIPS}, {"Aino": TRIPS}, ["Aino"] * 5, {"Aino": TRIPS})  # 3+3+5+3 = 14
    show(g, 1, {})
    show(g, 2, {})
    assert score(g)["Aino"] == 14
    assert "call" not in g.state()["next"]["actions"]
    refused(g, {"type": "call", "player": "Aino"}, "Aino has 14 points")
    g2 = game()
    deal(g2, {"Aino": TRIPS}, {"Aino": FLUSH}, ["Aino"] * 5, {"Aino": PAIR})  # 3+5+5+1
    show(g2, 1, {})
    show(g2, 2, {})
    assert score(g2)["Aino"] == 14
    refused(g2, {"type": "call", "player": "Aino"}, "needs at least 15")


def test_chicago_from_0_allows_a_call_at_any_score() -> None:
    g = game(chicago_from=0)
    show(g, 1, {})
    show(g, 2, {})
    g.apply({"type": "call", "player": "Bertil"})
    assert g.state()["deal"]["caller"] == "Bertil"


def test_chicago_from_0_allows_a_call_below_zero_too() -> None:
    # "from 15 points or always": a failed call (-15) is the usual way below zero.
    g = game(chicago_from=0)
    show(g, 1, {})
    show(g, 2, {})
    g.apply({"type": "call", "player": "Bertil"})
    tricks(g, ["Aino"])
    assert score(g)["Bertil"] == -15
    show(g, 1, {})
    show(g, 2, {})
    assert "call" in g.state()["next"]["actions"]
    g.apply({"type": "call", "player": "Bertil"})
    assert g.state()["deal"]["caller"] == "Bertil"


def test_a_successful_chicago_scores_15_plus_the_last_trick_and_the_hand() -> None:
    g = game()
    sweep(g, "Aino")                                   # 29
    show(g, 1, {"Bertil": PAIR})                       # Bertil 1
    show(g, 2, {"Aino": NOTHING, "Bertil": PAIR})      # Bertil 2
    g.apply({"type": "call", "player": "Aino"})
    tricks(g, ["Aino"] * 5)
    assert score(g) == {"Aino": 29 + 15 + 5, "Bertil": 2}
    show(g, 3, {"Aino": FLUSH, "Bertil": PAIR})
    assert score(g) == {"Aino": 29 + 15 + 5 + 5, "Bertil": 2}
    assert g.state()["deals"][1]["chicago"] == "won"
    assert g.state()["players"][0]["chicago"] is True


def test_a_failed_chicago_ends_the_deal_at_the_first_lost_trick() -> None:
    g = game()
    sweep(g, "Aino")                                   # 29
    show(g, 1, {"Bertil": PAIR})
    show(g, 2, {"Bertil": PAIR})
    g.apply({"type": "call", "player": "Aino"})
    tricks(g, ["Aino", "Aino", "Bertil"])
    state = g.state()
    # -15 for the caller; nobody scores the last trick or the final hand.
    assert score(g) == {"Aino": 29 - 15, "Bertil": 2}
    assert state["deals"][-1]["chicago"] == "failed"
    assert state["deal"]["number"] == 3 and state["deal"]["phase"] == "exchange 1"
    refused(g, {"type": "show", "round": 3, "hands": {"Bertil": FULL}}, "after the five tricks")


def test_seed_001_example_failed_call_loses_on_the_third_trick() -> None:
    # The caller takes two tricks (ace of spades, king of hearts) and loses the third to
    # the queen of clubs: the deal stops and the caller gets minus fifteen.
    g = game(ABC)
    sweep(g, "Cecilia")
    show(g, 1, {})
    show(g, 2, {})
    g.apply({"type": "call", "player": "Cecilia"})
    tricks(g, ["Cecilia", "Cecilia", "Aino"], ["AS", "KH", "QC"])
    assert score(g) == {"Aino": 0, "Bertil": 0, "Cecilia": 29 - 15}
    assert g.state()["deal"]["number"] == 3


@pytest.mark.parametrize("lead, leader", [("caller", "Cecilia"), ("dealer_left", "Bertil")])
def test_who_leads_after_a_call(lead: str, leader: str) -> None:
    g = game(ABC, chicago_from=0, chicago_lead=lead)
    show(g, 1, {})
    show(g, 2, {})
    g.apply({"type": "call", "player": "Cecilia"})     # Aino deals: Bertil is left of her
    assert g.state()["deal"]["leader"] == leader
    assert g.state()["next"]["player"] == leader


def test_one_call_per_deal_and_only_before_the_first_trick() -> None:
    g = game(ABC, chicago_from=0)
    g.apply({"type": "call", "player": "Cecilia"})       # any time before the first trick
    refused(g, {"type": "call", "player": "Aino"}, "Cecilia has already called")
    show(g, 1, {})
    g.apply({"type": "exchange", "player": "Aino", "count": 1})
    show(g, 2, {})
    refused(g, {"type": "call", "player": "Aino"}, "Cecilia has already called")
    assert "call" not in g.state()["next"]["actions"]
    g2 = game(ABC, chicago_from=0)
    show(g2, 1, {})
    show(g2, 2, {})
    g2.apply({"type": "trick", "winner": "Aino"})
    refused(g2, {"type": "call", "player": "Aino"}, "before the first trick")


def test_round_1_may_be_left_out_but_round_2_comes_before_the_tricks() -> None:
    g = game()
    show(g, 2, {"Aino": PAIR})                          # nobody showed in round 1
    assert g.state()["deal"]["phase"] == "exchange 3" and score(g)["Aino"] == 1
    refused(g, {"type": "show", "round": 1, "hands": {}}, "before the tricks, once")
    refused(g, {"type": "show", "round": 2, "hands": {}}, "before the tricks, once")
    tricks(g, ["Bertil"] * 5)
    show(g, 3, {"Bertil": TRIPS})
    assert score(g) == {"Aino": 1, "Bertil": 5 + 3}
    refused(g, {"type": "show", "round": 3, "hands": {}}, "after the five tricks")
    refused(g, {"type": "trick", "winner": "Aino"}, "(round 1 is shown next)")
    show(g, 1, {})
    refused(g, {"type": "trick", "winner": "Aino"}, "(round 2 is shown next)")


def test_a_trick_after_a_failed_chicago_is_refused() -> None:
    g = game(chicago_from=0)
    show(g, 1, {})
    show(g, 2, {})
    g.apply({"type": "call", "player": "Aino"})
    tricks(g, ["Bertil"])
    refused(g, {"type": "trick", "winner": "Aino"}, "no trick is played now")
    assert score(g) == {"Aino": -15, "Bertil": 0}


# -- buy stop ------------------------------------------------------------------------------

def test_buy_stop_at_46_bars_exchanges_in_the_next_deal() -> None:
    g = game(ABC)
    sweep(g, "Aino")                                   # 29
    deal(g, {"Aino": SF}, {"Aino": SF}, ["Bertil"] * 5, {"Aino": PAIR})  # 46
    assert score(g)["Aino"] == 46
    state = g.state()
    assert state["deal"]["buy_stop"] == ["Aino"]
    assert [p["buy_stop"] for p in state["players"]] == [True, False, False]
    refused(g, {"type": "exchange", "player": "Aino", "count": 2}, "under buy stop")
    refused(g, {"type": "exchange", "player": "Aino", "count": 0}, "under buy stop")
    g.apply({"type": "exchange", "player": "Bertil", "count": 2})
    show(g, 1, {})
    refused(g, {"type": "exchange", "player": "Aino", "count": 1}, "under buy stop")


def test_45_points_is_not_buy_stop() -> None:
    g = game()
    sweep(g, "Aino")
    deal(g, {"Aino": SF}, {"Aino": SF}, ["Bertil"] * 5, {})     # 45
    assert score(g)["Aino"] == 45
    g.apply({"type": "exchange", "player": "Aino", "count": 3})


@pytest.mark.parametrize("threshold, points, stopped", [
    (42, 42, True), (42, 41, False), (41, 41, True), (41, 40, False)])
def test_buy_stop_thresholds(threshold: int, points: int, stopped: bool) -> None:
    g = game(buy_stop=threshold)
    sweep(g, "Aino")                                   # 29
    # 29 + 8 + x: the rest from the second show.
    rest = points - 37
    second = {1: PAIR, 2: TWO_PAIR, 3: TRIPS, 4: STRAIGHT, 5: FLUSH}[rest]
    deal(g, {"Aino": SF}, {"Aino": second}, ["Bertil"] * 5, {})
    assert score(g)["Aino"] == points
    assert (g.state()["deal"]["buy_stop"] == ["Aino"]) is stopped


def _dropping_below(lasts: str) -> Game:
    g = game(buy_stop_lasts=lasts)
    sweep(g, "Aino")                                   # 29
    deal(g, {"Aino": SF}, {"Aino": SF}, ["Bertil"] * 5, {"Aino": FLUSH})   # 50: stopped
    show(g, 1, {})
    show(g, 2, {})
    g.apply({"type": "call", "player": "Aino"})
    tricks(g, ["Bertil"])                              # fails: 35
    assert score(g)["Aino"] == 35
    return g


def test_buy_stop_is_checked_again_after_every_deal() -> None:
    g = _dropping_below("deal")
    assert g.state()["deal"]["buy_stop"] == []
    g.apply({"type": "exchange", "player": "Aino", "count": 2})


def test_buy_stop_for_the_rest_of_the_game() -> None:
    g = _dropping_below("game")
    assert g.state()["deal"]["buy_stop"] == ["Aino"]
    refused(g, {"type": "exchange", "player": "Aino", "count": 2}, "under buy stop")


# -- winning -------------------------------------------------------------------------------

def _to_47_and_40(g: Game) -> None:
    """Aino at 47 and Bertil at 35, after three deals."""
    sweep(g, "Aino")                                                       # A 29
    sweep(g, "Bertil")                                                     # B 29
    deal(g, {"Aino": SF}, {"Bertil": FULL}, ["Aino"] * 5, {"Aino": FLUSH})  # A 47, B 35
    assert score(g) == {"Aino": 47, "Bertil": 35}


def test_seed_001_example_47_and_a_flush_and_the_opponent_passes() -> None:
    # With 47 points a flush after the second exchange makes 52, but the deal is played
    # out, so an opponent can still pass.
    g = game()
    _to_47_and_40(g)
    assert g.state()["deal"]["buy_stop"] == ["Aino"]          # 47 >= 46
    refused(g, {"type": "exchange", "player": "Aino", "count": 1}, "under buy stop")
    show(g, 1, {"Bertil": FLUSH})                              # B 40
    show(g, 2, {"Aino": FLUSH_S, "Bertil": PAIR})      # A 47 + 5 = 52
    assert score(g) == {"Aino": 52, "Bertil": 40}
    assert not g.state()["finished"]
    tricks(g, ["Bertil"] * 5)                                  # B 45
    show(g, 3, {"Bertil": SF, "Aino": FLUSH_S})  # B 53
    state = g.state()
    assert score(g) == {"Aino": 52, "Bertil": 53}
    assert state["finished"] and state["winner"] == "Bertil"
    assert state["next"]["actions"] == ["undo"]
    refused(g, {"type": "show", "round": 1, "hands": {}}, "the game is over")


def test_52_wins_when_the_deal_is_finished() -> None:
    g = game()
    _to_47_and_40(g)
    show(g, 1, {})
    show(g, 2, {"Aino": FLUSH})                                # 52
    tricks(g, ["Bertil"] * 5)                                  # B 45
    assert not g.state()["finished"]
    show(g, 3, {})
    assert g.state()["finished"] and g.state()["winner"] == "Aino"


def test_the_highest_total_wins() -> None:
    g = game()
    sweep(g, "Aino")
    sweep(g, "Bertil")                                         # 29 - 29
    deal(g, {"Aino": SF}, {"Bertil": SF}, ["Aino"] * 5, {"Bertil": SF})    # 42 - 45
    assert not g.state()["finished"]
    deal(g, {"Aino": SF}, {"Bertil": FLUSH}, ["Aino"] * 5, {"Bertil": PAIR})  # 55 - 51
    assert score(g) == {"Aino": 55, "Bertil": 51}
    assert g.state()["finished"] and g.state()["winner"] == "Aino"


def test_a_tie_at_the_top_at_52_or_more_is_not_a_win() -> None:
    g = game()
    sweep(g, "Aino")
    sweep(g, "Bertil")                                         # 29 - 29
    deal(g, {"Aino": SF}, {"Bertil": SF}, ["Aino"] * 5, {"Bertil": SF})    # 42 - 45
    deal(g, {"Aino": SF}, {"Bertil": FLUSH}, ["Aino"] * 5, {"Bertil": STRAIGHT})  # 55 - 54
    assert score(g) == {"Aino": 55, "Bertil": 54}
    assert g.state()["winner"] == "Aino"                      # both past 52: the higher
    g2 = game()
    sweep(g2, "Aino")
    sweep(g2, "Bertil")
    deal(g2, {"Aino": SF}, {"Bertil": SF}, ["Aino"] * 5, {"Bertil": SF})
    deal(g2, {"Aino": SF}, {"Bertil": FLUSH}, ["Aino"] * 5, {"Bertil": FLUSH})   # 55 - 55
    state = g2.state()
    assert score(g2) == {"Aino": 55, "Bertil": 55}
    assert not state["finished"] and state["winner"] is None
    deal(g2, {"Aino": PAIR}, r3={})                            # 56 - 60: Bertil
    assert g2.state()["winner"] == "Bertil"


def _52_without_chicago(option: str) -> Game:
    g = game(win_needs_chicago=option)
    _to_47_and_40(g)
    deal(g, {}, {"Aino": FLUSH}, ["Bertil"] * 5, {})           # A 52, B 40
    return g


def test_win_needs_chicago_no() -> None:
    g = _52_without_chicago("no")
    assert g.state()["winner"] == "Aino"


def test_win_needs_chicago_play_on() -> None:
    g = _52_without_chicago("play_on")
    assert score(g) == {"Aino": 52, "Bertil": 40}
    assert not g.state()["finished"]
    # The screens say why 52 did not end the game (the deal's story, shown as the next
    # deal begins).
    assert ("Aino has 52 but no Chicago won yet: the game goes on"
            in g.state()["deals"][-1]["events"])
    # Aino calls and takes all five tricks: now she has a Chicago and wins.
    show(g, 1, {})
    show(g, 2, {})
    g.apply({"type": "call", "player": "Aino"})
    tricks(g, ["Aino"] * 5)
    show(g, 3, {})
    assert score(g) == {"Aino": 72, "Bertil": 40}
    assert g.state()["winner"] == "Aino"


def test_win_needs_chicago_reset() -> None:
    g = _52_without_chicago("reset")
    state = g.state()
    assert score(g) == {"Aino": 0, "Bertil": 40}
    assert not state["finished"]
    assert any("reset to 0" in e for e in state["deals"][-1]["events"])
    assert state["deal"]["buy_stop"] == []                    # 0 is far below 46


def test_reset_spares_a_player_with_a_chicago() -> None:
    g = game(win_needs_chicago="reset")
    sweep(g, "Aino")                                           # 29
    show(g, 1, {})
    show(g, 2, {})
    g.apply({"type": "call", "player": "Aino"})
    tricks(g, ["Aino"] * 5)                                    # 29 + 15 + 5 = 49
    show(g, 3, {"Aino": TRIPS})                                # 52, with a Chicago
    assert g.state()["winner"] == "Aino"


@pytest.mark.parametrize("royal, points, finished", [
    (52, 52, False), (20, 20, False), (8, 8, False), ("win", 0, True)])
def test_royal_flush_options(royal: Any, points: int, finished: bool) -> None:
    g = game(royal_flush=royal)
    show(g, 1, {"Aino": ROYAL, "Bertil": SF})
    state = g.state()
    assert score(g) == {"Aino": points, "Bertil": 0}
    assert state["finished"] is finished
    assert state["winner"] == ("Aino" if finished else None)


def test_a_royal_flush_of_52_wins_only_when_the_deal_is_finished() -> None:
    g = game()
    show(g, 1, {"Bertil": ROYAL})
    show(g, 2, {"Aino": ROYAL_H, "Bertil": ROYAL})             # equal: nobody scores
    assert score(g) == {"Aino": 0, "Bertil": 52}
    assert not g.state()["finished"]
    tricks(g, ["Aino"] * 5)
    show(g, 3, {})
    assert g.state()["winner"] == "Bertil"


# -- four of a kind zeroes the opponents ----------------------------------------------------

def test_four_of_a_kind_may_zero_the_opponents_and_end_the_deal() -> None:
    g = game(ABC, zero_option=True)
    deal(g, {"Bertil": FLUSH}, {"Cecilia": SF}, ["Cecilia"] * 5, {})   # B 5, C 13
    show(g, 1, {"Aino": FOUR, "Bertil": FULL})
    state = g.state()
    assert score(g) == {"Aino": 7, "Bertil": 5, "Cecilia": 13}   # scored unless she zeroes
    assert state["zero"] == "Aino" and "zero" in state["next"]["actions"]
    refused(g, {"type": "zero", "player": "Bertil"}, "only right after a show")
    g.apply({"type": "zero", "player": "Aino"})
    state = g.state()
    assert score(g) == {"Aino": 0, "Bertil": 0, "Cecilia": 0}    # instead of scoring
    assert state["deal"]["number"] == 3 and state["deal"]["phase"] == "exchange 1"
    assert state["deals"][-1]["points"] == {"Aino": 0, "Bertil": -5, "Cecilia": -13}


def test_zero_after_the_final_hands() -> None:
    g = game(zero_option=True)
    sweep(g, "Bertil")                                         # B 29
    show(g, 1, {})
    show(g, 2, {})
    tricks(g, ["Aino"] * 5)                                    # A 5
    show(g, 3, {"Aino": FOUR, "Bertil": FULL})                 # A 12, and the deal ends
    assert score(g) == {"Aino": 12, "Bertil": 29}
    assert g.state()["deal"]["number"] == 3
    g.apply({"type": "zero", "player": "Aino"})
    assert score(g) == {"Aino": 5, "Bertil": 0}
    assert g.state()["deal"]["number"] == 3
    assert g.state()["deals"][-1]["number"] == 2


def test_undoing_a_zero_gives_back_the_points_and_the_choice() -> None:
    g = game(zero_option=True)
    deal(g, {"Bertil": FLUSH}, r3={})                          # Bertil 5 + 5
    show(g, 1, {"Aino": FOUR})
    before = g.state()
    g.apply({"type": "zero", "player": "Aino"})
    assert score(g) == {"Aino": 0, "Bertil": 0}
    g.apply({"type": "undo"})
    after = g.state()
    assert score(g) == {"Aino": 7, "Bertil": 10}
    assert after["zero"] == "Aino" and after["deal"] == before["deal"]


def test_zero_only_with_the_option_and_only_at_once() -> None:
    g = game()
    show(g, 1, {"Aino": FOUR})
    refused(g, {"type": "zero", "player": "Aino"}, "not a rule of this game")
    g2 = game(zero_option=True)
    show(g2, 1, {"Aino": FOUR})
    g2.apply({"type": "exchange", "player": "Bertil", "count": 1})
    refused(g2, {"type": "zero", "player": "Aino"}, "only right after a show")
    g3 = game(zero_option=True)
    show(g3, 1, {"Aino": FOUR, "Bertil": SF})                  # the four did not win
    refused(g3, {"type": "zero", "player": "Aino"}, "only right after a show")


# -- illegal actions ----------------------------------------------------------------------

@pytest.mark.parametrize("action, reason", [
    ({"type": "trick", "winner": "Cecilia"}, "winner 'Cecilia' is not in the game"),
    ({"type": "trick"}, "a trick needs 'winner', the player who took it"),
    ({"type": "trick", "player": "Aino"}, "a trick needs 'winner'"),
    ({"type": "trick", "winner": "Aino", "card": "1S"}, "'1S' is not a card"),
    ({"type": "trick", "winner": "Aino", "card": "AS AH"}, "is not a card"),
    # As the request wrote it (JSON), not as Python names it ("None is not a card").
    ({"type": "trick", "winner": "Aino", "card": None}, "card: null is not a card"),
    ({"type": "show", "round": 3, "hands": {}}, "after the five tricks"),
])
def test_illegal_trick_actions(action: dict[str, Any], reason: str) -> None:
    g = game()
    show(g, 1, {})
    show(g, 2, {})
    refused(g, action, reason)


def test_a_card_cannot_take_two_tricks() -> None:
    g = game()
    show(g, 1, {})
    show(g, 2, {})
    tricks(g, ["Aino"], ["AS"])
    refused(g, {"type": "trick", "winner": "Bertil", "card": "AS"}, "AS already took trick 1")


@pytest.mark.parametrize("hands, reason", [
    ({"Aino": "AS KS QS JS 1S"}, "'1S' is not a card"),
    ({"Aino": "AS KS QS JS"}, "five cards, not 4"),
    ({"Aino": "AS KS QS JS AS"}, "'AS' appears twice"),
    ({"Aino": ROYAL, "Bertil": "AS 2H 3D 4C 5S"}, "AS is in the hands of both Aino and Bertil"),
    ({"Cecilia": ROYAL}, "unknown player 'Cecilia'"),
    ({"Aino": 12}, "not 12"),
    ({"Aino": None}, "'AS KS QS JS TS', not null"),
    ({"Aino": ["AS", "KS"]}, 'not ["AS", "KS"]'),
])
def test_illegal_hands(hands: dict[str, Any], reason: str) -> None:
    refused(game(), {"type": "show", "round": 1, "hands": hands}, reason)


@pytest.mark.parametrize("action, reason", [
    ({"type": "show", "round": 3, "hands": {}}, "(round 1 is shown next)"),
    ({"type": "show", "round": 4, "hands": {}}, "'round' 1, 2 or 3"),
    ({"type": "show", "round": True, "hands": {}}, "'round' 1, 2 or 3"),
    ({"type": "show", "round": 1.0, "hands": {}}, "'round' 1, 2 or 3"),
    ({"type": "show", "hands": {}}, "'round' 1, 2 or 3"),
    ({"type": "show", "round": 1}, "needs 'hands'"),
    ({"type": "show", "round": 1, "hands": ["AS KS QS JS TS"]}, "needs 'hands'"),
    ({"type": "call", "player": "Aino"}, "Aino has 0 points; calling Chicago needs at least 15"),
    ({"type": "trick", "winner": "Aino"}, "no trick is played now: the deal is at exchange 1"),
    ({"type": "call"}, "needs 'player'"),
    ({"type": "exchange", "count": 1}, "an exchange needs 'player'"),
    ({"type": "exchange", "player": "Aino"}, "an exchange needs 'count', how many cards"),
    ({"type": "exchange", "player": "Cecilia", "count": 1}, "unknown player 'Cecilia'"),
    ({"type": "roll", "player": "Aino", "dice": [1, 2]}, "unknown action type 'roll'"),
])
def test_illegal_actions_at_the_start(action: dict[str, Any], reason: str) -> None:
    refused(game(), action, reason)


def test_after_the_tricks_a_card_cannot_be_in_an_opponents_hand() -> None:
    g = game()
    show(g, 1, {})
    show(g, 2, {})
    tricks(g, ["Aino"] * 5, ["AS", "KS", "QS", "JS", "TS"])
    refused(g, {"type": "show", "round": 3, "hands": {"Bertil": "AS 2H 3D 4C 5S"}},
            "AS of Bertil's hand took a trick for Aino")
    show(g, 3, {"Aino": ROYAL})
    assert score(g)["Aino"] == 5 + 52


# -- setup, options, help -----------------------------------------------------------------

@pytest.mark.parametrize("options, key", [
    ({"four_of_a_kind": 9}, "options.four_of_a_kind"),
    ({"zero_option": 1}, "options.zero_option"),
    ({"royal_flush": "52"}, "options.royal_flush"),
    ({"last_trick": 2}, "options.last_trick"),
    ({"trumps": True}, "options.trumps"),
])
def test_options_are_checked_strictly(options: dict[str, Any], key: str) -> None:
    with pytest.raises(GameFileError, match=key):
        new_game("card_chicago", AB, options)


def test_two_to_ten_players_with_a_warning_above_four() -> None:
    with pytest.raises(GameFileError):
        new_game("card_chicago", ["Aino"])
    with pytest.raises(GameFileError):
        new_game("card_chicago", [f"P{i}" for i in range(11)])
    assert game(ABCD).state()["warning"] is None
    assert "2 to 4" in game(ABCD + ["E"]).state()["warning"]


def test_help_lists_the_options_in_force() -> None:
    default = "\n".join(game().state()["help"])
    assert "four of a kind 7, straight flush 8; a royal flush scores 52" in default
    assert "Exactly equal best hands: nobody scores" in default
    assert "at least 15 points" in default
    assert "with 46 or more" in default
    assert "A-2-3-4-5 is the lowest straight" in default
    house = "\n".join(game(four_of_a_kind=8, straight_flush=11, royal_flush="win",
                           last_trick="two_bonus", chicago_from=0, buy_stop=41,
                           buy_stop_lasts="game", win_needs_chicago="reset",
                           zero_option=True, equal_hands="suit_order",
                           chicago_lead="dealer_left").state()["help"])
    for text in ["four of a kind 8", "straight flush 11", "wins the game at once",
                 "2, or 5 when won with a two", "at any score", "41 or more",
                 "rest of the game", "reset to 0", "zero every opponent",
                 "spades, hearts, diamonds, clubs", "player left of the dealer still leads"]:
        assert text in house


def test_a_shown_hand_is_named_in_the_view() -> None:
    g = game()
    show(g, 1, {"Aino": FULL, "Bertil": "2S 2H 2D 3C 3S"})
    shown = g.state()["deal"]["shows"][0]
    assert shown["hands"]["Aino"] == {"cards": FULL, "name": "full house, kings over nines"}
    assert shown["name"] == "full house, kings over nines"
    assert shown["best"] == "Aino" and shown["points"] == 6


@pytest.mark.parametrize("module", ["scorer.cards", "scorer.card_chicago",
                                    "scorer.card_chicago_hands"])
def test_the_docstring_examples_hold(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


# -- hands nobody can hold: what the deal has shown is checked -------------------------

def test_a_final_hand_holds_the_cards_its_owner_took_tricks_with() -> None:
    g = game()
    show(g, 1, {})
    show(g, 2, {})
    tricks(g, ["Aino"] * 5, ["AS", "KS", "QS", "JS", "TS"])
    refused(g, {"type": "show", "round": 3, "hands": {"Aino": "9C 9D 9H 9S 3C"}},
            "Aino took trick 1 with AS, so Aino's final hand holds it")
    show(g, 3, {"Aino": ROYAL})
    assert score(g) == {"Aino": 5 + 52, "Bertil": 0}


def test_the_two_that_took_the_last_trick_is_in_the_final_hand() -> None:
    g = game(last_trick="two_bonus")
    show(g, 1, {})
    show(g, 2, {})
    tricks(g, ["Aino", "Aino", "Aino", "Aino", "Bertil"], ["AS", "KS", "QS", "JS", "2H"])
    refused(g, {"type": "show", "round": 3, "hands": {"Bertil": "9C 9D 9H 9S 3C"}},
            "Bertil took trick 5 with 2H")


def test_under_buy_stop_a_hand_stays_as_shown_for_the_whole_deal() -> None:
    g = game(buy_stop=41, royal_flush=20)
    deal(g, {"Aino": ROYAL}, {"Aino": SF}, ["Aino"] * 5, {"Aino": "9D 8D 7D 6D 5D"})
    assert score(g)["Aino"] == 41 and g.state()["deal"]["buy_stop"] == ["Aino"]
    show(g, 1, {"Aino": PAIR})
    refused(g, {"type": "show", "round": 2, "hands": {"Aino": ROYAL_H}},
            f"Aino is under buy stop this deal: the hand stays as shown in round 1 ({PAIR})")
    refused(g, {"type": "show", "round": 2, "hands": {"Bertil": "AH KS QS JS TS"}},
            f"the card AH of Bertil's hand is in Aino's hand (shown in round 1: {PAIR}, "
            "under buy stop)")
    show(g, 2, {"Aino": PAIR})                       # the same hand scores again
    assert score(g)["Aino"] == 41 + 1 + 1


def test_a_trick_is_taken_with_a_card_of_a_hand_the_table_knows() -> None:
    g = game(buy_stop=41, royal_flush=20)
    deal(g, {"Aino": ROYAL}, {"Aino": SF}, ["Aino"] * 5, {"Aino": "9D 8D 7D 6D 5D"})
    show(g, 1, {"Aino": PAIR})
    show(g, 2, {})
    refused(g, {"type": "trick", "winner": "Aino", "card": "KS"},
            f"KS is not in Aino's hand (shown in round 1: {PAIR}, under buy stop)")
    refused(g, {"type": "trick", "winner": "Bertil", "card": "AD"},
            f"AD is in Aino's hand (shown in round 1: {PAIR}, under buy stop), not Bertil's")
    tricks(g, ["Aino"], ["AD"])


def test_a_hand_changes_by_at_most_the_cards_exchanged_since() -> None:
    g = game()
    show(g, 1, {"Aino": PAIR})                       # AH AD 8C 7S 4H
    g.apply({"type": "exchange", "player": "Bertil", "count": 0})
    g.apply({"type": "exchange", "player": "Aino", "count": 2})
    refused(g, {"type": "show", "round": 2, "hands": {"Aino": "AH AD AC 2S 3S"}},
            f"Aino's hand holds 3 cards that are not in the hand shown in round 1 ({PAIR}), "
            "but Aino exchanged 2 cards since")
    show(g, 2, {"Aino": "AH AD AC 7S 3S"})           # two cards new: three aces
    assert score(g)["Aino"] == 1 + 3


def test_a_card_kept_by_a_player_who_exchanged_none_is_in_no_other_hand() -> None:
    g = game()
    show(g, 1, {"Aino": PAIR})
    g.apply({"type": "exchange", "player": "Bertil", "count": 0})
    g.apply({"type": "exchange", "player": "Aino", "count": 0})
    refused(g, {"type": "show", "round": 2, "hands": {"Bertil": "AH KS QS JS TS"}},
            f"the card AH of Bertil's hand is in Aino's hand (shown in round 1: {PAIR}, "
            "no card exchanged since)")


def test_exchanges_left_out_leave_the_next_hand_unchecked() -> None:
    # A game file may leave the exchanges out: then nothing is known of what changed.
    g = game()
    show(g, 1, {"Aino": PAIR})
    show(g, 2, {"Aino": ROYAL_H})
    assert score(g)["Aino"] == 1 + 52


def test_a_stored_game_from_before_the_hand_checks_replays_as_it_was_checked() -> None:
    """The hands a family typed before the checks came were taken: replayed from the
    table's store, such a game goes on (its new actions checked by every rule), while a
    game file given to ``dicetray replay`` is still checked by every rule."""
    from scorer import load_game

    actions = [{"type": "show", "round": 1, "hands": {"Aino": PAIR}},
               {"type": "exchange", "player": "Bertil", "count": 0},
               {"type": "exchange", "player": "Aino", "count": 0},
               {"type": "show", "round": 2, "hands": {"Aino": ROYAL_H}}]   # changed unexchanged
    file = {"family": "card_chicago", "players": AB, "actions": actions}
    with pytest.raises(IllegalAction, match="action 3 .*Aino's hand holds 4 cards"):
        load_game(file)
    g = load_game(file, stored=True)
    assert score(g)["Aino"] == 1 + 52
    g.apply({"type": "exchange", "player": "Bertil", "count": 0})
    g.apply({"type": "exchange", "player": "Aino", "count": 0})
    refused(g, {"type": "trick", "winner": "Bertil", "card": "KH"},
            f"KH is in Aino's hand (shown in round 2: {ROYAL_H}, no card exchanged since)")
