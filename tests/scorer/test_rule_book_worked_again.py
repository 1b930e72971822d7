"""10000 and Sum Chicago worked out a second time from RULES.md §1 and §3, clause by clause.

The scoring table is worked out here a second time, from the rule text alone: every
way to split the dice set aside into the table's combinations is tried, and the legal
set-asides of every throw of one to six dice are compared with what the engine offers,
for every combination of the scoring options (Zilch included). Then random games are
played through the scorer API beside a scorekeeper written here from the rule text,
and after every turn the totals, whose turn it is and the end of the game must agree;
every action the engine offers must be legal.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest

from scorer import Game, new_game
from scorer.farkle_scoring import selections

Dice = tuple[int, ...]
SCORING_KEYS = ("greed", "straight", "three_pairs", "multiples", "specials")
SCORING_TABLES = list(itertools.product(
    (False, True), (1500, 2000), (1500, 1000), ("doubling", "linear"), (True, False)))


# -- 10000's table, from RULES.md §3 ---------------------------------------------------------


def table_combinations(table: tuple[Any, ...], six: bool) -> list[tuple[Counter[int], int]]:
    """The combinations of the table (as dice counts, points); the specials only where
    all six dice of a throw are set aside."""
    greed, straight, three_pairs, multiples, specials = table
    times = {3: 1, 4: 2, 5: 4, 6: 8} if multiples == "doubling" else {3: 1, 4: 2, 5: 3, 6: 4}
    found = [(Counter({1: 1}), 100), (Counter({5: 1}), 50)]
    for face in range(1, 7):
        three = (300 if greed else 1000) if face == 1 else 100 * face
        found += [(Counter({face: n}), three * times[n]) for n in range(3, 7)]
    if specials and six:
        found.append((Counter(range(1, 7)), straight))
        for a, b, c in itertools.combinations_with_replacement(range(1, 7), 3):
            pairs = Counter([a, a, b, b, c, c])
            if max(pairs.values()) <= 4:      # four and a pair count; six alike do not
                found.append((pairs, three_pairs))
        for a, b in itertools.combinations(range(1, 7), 2):   # two different faces
            found.append((Counter([a, a, a, b, b, b]), 2500))
    return found


@lru_cache(maxsize=None)
def best(dice: Dice, table: tuple[Any, ...]) -> int | None:
    """The best total of a partition of all ``dice`` into combinations; None if none."""
    if len(dice) == 6 and len(set(dice)) == 1:
        # Decision: six of a kind is scored only as six of a kind.
        return dict((tuple(sorted(c.elements())), p)
                    for c, p in table_combinations(table, True))[dice]
    combos = table_combinations(table, len(dice) == 6)

    def cover(left: Counter[int]) -> int | None:
        if not +left:
            return 0
        lowest = min(left.elements())
        top = None
        for combo, points in combos:
            if combo[lowest] and not combo - left:
                rest = cover(left - combo)
                if rest is not None and (top is None or points + rest > top):
                    top = points + rest
        return top

    return cover(Counter(dice))


def sub_multisets(throw: Dice) -> set[Dice]:
    return {tuple(sorted(c)) for k in range(1, len(throw) + 1)
            for c in itertools.combinations(throw, k)}


def legal_set_asides(throw: Dice, table: tuple[Any, ...], zilch: bool) -> dict[Dice, int]:
    """Every legal set-aside of a throw with its points; with Zilch, the one holding
    every die that can score."""
    found = {}
    for sub in sub_multisets(throw):
        points = best(sub, table)
        if points is not None:
            found[sub] = points
    if zilch and found:
        every: Counter[int] = Counter()
        for sub in found:
            every |= Counter(sub)
        whole = tuple(sorted(every.elements()))
        return {whole: found[whole]}
    return found


THROWS = [t for n in range(1, 7) for t in itertools.combinations_with_replacement(range(1, 7), n)]


@pytest.mark.parametrize("table", SCORING_TABLES, ids=lambda t: "-".join(map(str, t)))
def test_every_throw_offers_exactly_the_legal_set_asides(table: tuple[Any, ...]) -> None:
    options = dict(zip(SCORING_KEYS, table))
    for zilch in (False, True):
        wrong = [throw for throw in THROWS
                 if dict(selections(throw, {**options, "zilch": zilch}))
                 != legal_set_asides(throw, table, zilch)]
        assert wrong == [], (zilch, wrong[:5])


# -- 10000 played: a scorekeeper from RULES.md §3 beside the engine ------------------------


class Scorekeeper:
    """What a careful person with the rule book writes down, turn by turn."""

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        self.players, self.o = players, options
        self.scores = dict.fromkeys(players, 0)
        self.opened = dict.fromkeys(players, False)
        self.farkles = dict.fromkeys(players, 0)
        self.seat = 0
        self.final: list[str] | None = None     # still to play in the final or a tie round
        self.tie_rounds = 0
        self.winner: str | None = None
        self.finished = False

    def to_play(self) -> str:
        return self.final[0] if self.final is not None else self.players[self.seat]

    def turn_over(self, player: str, banked: int | None) -> None:
        """``banked``: the turn's points when banked, None for a farkle."""
        o = self.o
        if banked is None:
            self.farkles[player] += 1
            if o["three_farkles"] and self.farkles[player] == 3:
                self.scores[player] += o["three_farkles"]
                self.farkles[player] = 0
        else:
            self.farkles[player] = 0
            opens = self.opened[player] or banked >= o["opening"]
            passes = o["exact_target"] and self.scores[player] + banked > o["target"]
            if opens and not (passes and not self.tie_rounds):
                self.scores[player] += banked
                self.opened[player] = True
        if self.final is not None:
            self.final.pop(0)
            if not self.final:
                self._decide()
        elif self.scores[player] >= o["target"]:
            if not o["final_round"]:
                self.finished, self.winner = True, player
            else:
                at = self.players.index(player)
                self.final = self.players[at + 1:] + self.players[:at]
                if not self.final:
                    self._decide()
        else:
            self.seat = (self.seat + 1) % len(self.players)

    def _decide(self) -> None:
        top = max(self.scores.values())
        leaders = [p for p in self.players if self.scores[p] == top]
        if len(leaders) == 1:
            self.finished, self.winner = True, leaders[0]
        else:
            self.tie_rounds += 1
            self.final = leaders


ALL_TEN_THOUSAND_OPTIONS = {
    "target": (10000, 5000), "opening": (500, 0, 350, 750, 1000), "three_farkles": (0, -1000),
    "exact_target": (False, True), "zilch": (False, True), "greed": (False, True),
    "straight": (1500, 2000), "three_pairs": (1500, 1000),
    "multiples": ("doubling", "linear"), "specials": (True, False),
    "final_round": (True, False),
}


def offered_actions_are_legal(game: Game, player: str | None, dice: int) -> None:
    """Every family action the state offers can be made now (the control page shows
    exactly these)."""
    offered = game.state()["next"]["actions"]
    for kind in offered:
        if kind in ("roll", "bank"):
            action: dict[str, Any] = {"type": kind, "player": player}
            if kind == "roll":
                action["dice"] = [2] * dice
            assert game.is_legal(action), (kind, game.state()["next"])


@pytest.mark.parametrize("seed", range(60))
def test_random_games_score_as_the_rule_book_says(seed: int) -> None:
    rng = random.Random(seed)
    options = {key: rng.choice(values) for key, values in ALL_TEN_THOUSAND_OPTIONS.items()}
    players = [f"P{i}" for i in range(rng.randint(1, 4))]
    game = new_game("ten_thousand", players, options)
    keeper = Scorekeeper(players, options)
    table = tuple(options[k] for k in SCORING_KEYS)
    # Dice loaded towards 1s and 5s make games end within a test's time; fair dice
    # farkle more (three in a row cost points).
    weights = [4, 1, 1, 1, 3, 1] if seed % 3 else [1] * 6
    banked_turns: dict[str, list[int]] = {p: [] for p in players}
    for _ in range(400):
        if keeper.finished:
            break
        player = keeper.to_play()
        assert game.state()["next"]["player"] == player
        points, left = 0, 6
        while True:
            offered_actions_are_legal(game, player, left)
            throw = rng.choices(range(1, 7), weights, k=left)
            game.apply({"type": "roll", "player": player, "dice": throw})
            legal = legal_set_asides(tuple(sorted(throw)), table, options["zilch"])
            if not legal:
                keeper.turn_over(player, None)
                break
            turn = game.state()["turn"]
            assert {tuple(c["dice"]): c["points"] for c in turn["choices"]} == legal
            kept = rng.choice(sorted(legal))
            # In the final or a tie-break round, aim at the leader's total exactly: ties
            # are played off, and that is what needs playing.
            need = max(keeper.scores.values()) - keeper.scores[player] - points
            chasing = keeper.final is not None and need > 0
            if chasing and [k for k in legal if legal[k] <= need]:
                kept = max((k for k in legal if legal[k] <= need), key=lambda k: legal[k])
            game.apply({"type": "set_aside", "player": player, "dice": list(kept)})
            points += legal[kept]
            left = left - len(kept) or 6          # hot dice: all six again
            assert game.state()["turn"]["points"] == points
            assert game.state()["next"]["dice"] == left
            level = chasing and points == max(keeper.scores.values()) - keeper.scores[player]
            if level or (not chasing and rng.random() < (0.3 if left > 2 else 0.8)):
                before = game.state()["players"]
                game.apply({"type": "bank", "player": player})
                keeper.turn_over(player, points)
                after = game.state()["players"]
                gained = [a["score"] - b["score"] for a, b in zip(after, before)]
                mine = gained.pop(players.index(player))
                # A bank records the turn's set-asides, or nothing; nobody else's total moves.
                assert mine in (0, points) and not any(gained)
                banked_turns[player].append(mine)
                break
        state = game.state()
        assert [p["score"] for p in state["players"]] == [keeper.scores[p] for p in players]
        assert (state["finished"], state["winner"]) == (keeper.finished, keeper.winner)
    assert keeper.finished, "the game should have ended"
    # With no penalty the totals are the banked turns' sum; the game is over for good.
    if not options["three_farkles"]:
        assert all(sum(banked_turns[p]) == keeper.scores[p] for p in players)
    assert game.state()["next"]["actions"] == ["undo", "correct"]


# -- Sum Chicago ------------------------------------------------------------------------------


def targets_from_the_rules(options: dict[str, Any]) -> list[int]:
    dice = options["dice"]
    every = list(range(dice, 6 * dice + 1))
    low_top, high_bottom = (7, 7) if dice == 2 else (10, 11)
    chosen = {"all": every, "low": [t for t in every if t <= low_top],
              "high": [t for t in every if t >= high_bottom],
              "even": [t for t in every if t % 2 == 0],
              "odd": [t for t in every if t % 2]}[options["rounds"]]
    return chosen[::-1] if options["order"] == "descending" else chosen


SUM_OPTIONS = list(itertools.product((2, 3), ("ascending", "descending"),
                                     ("all", "low", "high", "even", "odd"), (1, 2),
                                     ("fixed", "rotating")))


@pytest.mark.parametrize("values", SUM_OPTIONS, ids=lambda v: "-".join(map(str, v)))
def test_sum_chicago_every_variant_plays_as_the_rule_book_says(values: tuple[Any, ...]) -> None:
    options = dict(zip(("dice", "order", "rounds", "throws", "starter"), values))
    players = ["A", "B", "C"]
    for seed in range(3):
        rng = random.Random(f"{values}{seed}")
        game = new_game("sum_chicago", players, options)
        totals = dict.fromkeys(players, 0)
        order = list(players)
        for round_no, target in enumerate(targets_from_the_rules(options), 1):
            for player in order:
                state = game.state()
                assert (state["round"], state["target"], state["next"]["player"]) == \
                    (round_no, target, player)
                for _ in range(options["throws"]):
                    dice = [rng.randint(1, 6) for _ in range(options["dice"])]
                    game.apply({"type": "roll", "player": player, "dice": dice})
                    if sum(dice) == target:
                        totals[player] += target
                        break
            if options["starter"] == "rotating":
                # The last thrower of a round starts the next.
                at = players.index(order[-1])
                order = players[at:] + players[:at]
        assert [p["score"] for p in game.state()["players"]] == [totals[p] for p in players]
        top = max(totals.values())
        tied = [p for p in players if totals[p] == top]
        while len(tied) > 1:
            sums = {}
            for player in tied:       # one throw each, in seat order, adding nothing
                assert game.state()["next"]["player"] == player
                dice = [rng.randint(1, 6) for _ in range(options["dice"])]
                game.apply({"type": "roll", "player": player, "dice": dice})
                sums[player] = sum(dice)
            tied = [p for p in tied if sums[p] == max(sums.values())]
        state = game.state()
        assert (state["finished"], state["winner"]) == (True, tied[0])
        assert [p["score"] for p in state["players"]] == [totals[p] for p in players]



def test_sum_chicago_offers_join_only_while_a_seat_is_free() -> None:
    # The control page shows the join field when the state offers "join": at 40 seats
    # (those who left keep theirs) every join is refused, so none may be offered.
    game = new_game("sum_chicago", [f"P{i}" for i in range(39)])
    assert "join" in game.state()["next"]["actions"]
    game.apply({"type": "join", "player": "Newcomer"})
    assert not game.is_legal({"type": "join", "player": "Another"})
    assert "join" not in game.state()["next"]["actions"]
    game.apply({"type": "leave", "player": "P3"})
    assert not game.is_legal({"type": "join", "player": "Another"})
    assert "join" not in game.state()["next"]["actions"]


# -- the help text the control page lists ------------------------------------------------------


@pytest.mark.parametrize("final_round", [True, False])
def test_with_the_exact_target_the_help_never_says_more_than_the_target_reaches_it(
        final_round: bool) -> None:
    # RULES.md §3: with the exact target "a bank that would pass the target is lost", so
    # nobody reaches it with more; the first line said "(or more)" all the same.
    exact = new_game("ten_thousand", ["A", "B"], {"exact_target": True, "target": 5000,
                                                   "final_round": final_round})
    first = exact.state()["help"][0]
    assert "5000 points" in first and "or more" not in first
    plain = new_game("ten_thousand", ["A", "B"], {"final_round": final_round})
    assert "10000 points (or more)" in plain.state()["help"][0]


def test_tupla_chicagos_help_does_not_say_each_player_throws_once() -> None:
    # RULES.md §1, throws 2: a missed first throw is thrown again. The help's second line
    # said "every player throws once" right above the line that says otherwise.
    tupla = new_game("sum_chicago", ["A", "B"], {"throws": 2}).state()["help"]
    assert not [line for line in tupla if "throws once" in line and "Tie" not in line]
    assert any("only the second counts" in line for line in tupla)
    single = new_game("sum_chicago", ["A", "B"]).state()["help"]
    assert "Each round every player throws once; hitting the target scores it, else 0." in single


def test_sum_chicagos_help_says_who_wins() -> None:
    # RULES.md §1: "After all rounds the highest total wins."
    assert "After the last round the highest total wins." in new_game(
        "sum_chicago", ["A", "B"]).state()["help"]
