"""Pub Chicago worked out a second time from RULES.md §2 alone, clause by clause.

A small scorekeeper is written here from the rule text (and the decisions the rule
book and the help text name): the value of a result, who is best and worst of a throw
round, the throw cap, sixes turned into a one, strokes and loser searches (Basis), lids
in the pot and in front of the players (Bayrisch, Tschigg, Sand), who leads next and who
loses. Every three-dice result is ranked against every other under every announcement,
and random games are played through the scorer API beside the scorekeeper: after every
action whose turn it is, what may be done, the dice to throw, the strokes or lids, the
pot, the phase and the loser must agree.
"""
from __future__ import annotations

import copy
import itertools
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from scorer import new_game
from scorer.pub_chicago_dice import Announcement, Result, beats, best_and_worst, value

ANNOUNCEMENTS = [{"ones": o, "sixes": s, "order": h}
                 for o in (100, 1) for s in (60, 6) for h in ("high", "low")]
ALL_THROWS = list(itertools.product(range(1, 7), repeat=3))


# -- the dice, from RULES.md §2 "Value", "Chicago", "Ties" -----------------------------------


def my_value(dice: tuple[int, ...], ann: dict[str, Any]) -> int:
    """The sum of the three dice, ones and sixes counted as announced."""
    return sum(ann["ones"] if d == 1 else ann["sixes"] if d == 6 else d for d in dice)


def my_key(dice: tuple[int, ...], chicago: bool, ann: dict[str, Any]) -> tuple[int, int]:
    """Bigger is better: a Chicago beats everything whatever was announced; otherwise high
    means the highest value is best and low the lowest."""
    v = my_value(dice, ann)
    return (1 if chicago else 0, 0 if chicago else (v if ann["order"] == "high" else -v))


def my_best_and_worst(results: list[tuple[str, tuple[int, ...], bool]],
                      ann: dict[str, Any]) -> tuple[str, str]:
    """Best = the first to reach the best value; worst = the last to reach the worst."""
    keys = [my_key(d, c, ann) for _, d, c in results]
    best = next(i for i, k in enumerate(keys) if k == max(keys))
    worst = max(i for i, k in enumerate(keys) if k == min(keys))
    return results[best][0], results[worst][0]


def makes_sand(dice: tuple[int, ...], chicago: bool) -> bool:
    """No one and no six (decision: a Chicago counts as making Sand)."""
    return chicago or (1 not in dice and 6 not in dice)


def test_the_value_of_every_throw_under_every_announcement_is_the_rule_books():
    # The seed's own examples first, then all 216 throws.
    assert my_value((6, 3, 5), {"ones": 100, "sixes": 60}) == 68
    assert my_value((6, 3, 5), {"ones": 100, "sixes": 6}) == 14
    assert my_value((1, 1, 4), {"ones": 100, "sixes": 60}) == 204
    assert my_value((1, 1, 4), {"ones": 1, "sixes": 60}) == 6
    for ann in ANNOUNCEMENTS:
        for dice in ALL_THROWS:
            assert value(dice, ann) == my_value(dice, ann), (dice, ann)


def test_every_result_is_ranked_against_every_other_as_the_rule_book_ranks_them():
    results = sorted({tuple(sorted(t)) for t in ALL_THROWS})
    candidates = [(d, False) for d in results] + [((1, 1, 1), True)]
    for ann in ANNOUNCEMENTS:
        announcement = Announcement(**ann)
        for (da, ca), (db, cb) in itertools.product(candidates, repeat=2):
            mine = my_key(da, ca, ann) > my_key(db, cb, ann)
            assert beats(Result("A", da, ca, 1), Result("B", db, cb, 1), announcement) == mine, \
                (da, ca, db, cb, ann)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted({tuple(sorted(t)) for t in ALL_THROWS})),
                          st.booleans()), min_size=2, max_size=6),
       st.sampled_from(ANNOUNCEMENTS))
def test_best_and_worst_of_a_throw_round_ties_included(throws, ann):
    results = [(f"P{i}", (1, 1, 1) if chicago else dice, chicago)
               for i, (dice, chicago) in enumerate(throws)]
    best, worst = best_and_worst([Result(p, d, c, 1) for p, d, c in results], Announcement(**ann))
    assert (best.player, worst.player) == my_best_and_worst(results, ann)


def test_a_tie_at_the_top_keeps_the_first_and_a_tie_at_the_bottom_takes_the_last():
    ann = {"ones": 100, "sixes": 60, "order": "high"}
    rows = [("A", (2, 3, 4), False), ("B", (5, 5, 5), False), ("C", (5, 5, 5), False),
            ("D", (4, 3, 2), False)]
    assert my_best_and_worst(rows, ann) == ("B", "D")
    two_chicagos = [("A", (2, 2, 2), False), ("B", (1, 1, 1), True), ("C", (1, 1, 1), True)]
    assert my_best_and_worst(two_chicagos, ann) == ("B", "A")
    # Ones gathered over several throws are no Chicago: 300 with ones 100, beaten by one.
    gathered = [("A", (1, 1, 1), False), ("B", (1, 1, 1), True)]
    assert my_best_and_worst(gathered, ann) == ("B", "A")
    low = dict(ann, order="low")
    assert my_best_and_worst([("A", (2, 2, 2), False), ("B", (1, 1, 1), True)], low) == ("B", "A")


# -- the scorekeeper ---------------------------------------------------------------------------


@dataclass
class Turn:
    player: str
    throws: int = 0
    kept: list[int] = field(default_factory=list)
    loose: list[int] = field(default_factory=list)
    must_throw: bool = False
    chicago: bool = False
    over: bool = False            # the leader threw all they will: the announcement is due


@dataclass
class Keeper:
    """Pub Chicago by the rule book: one throw round at a time, settled at its end."""

    seats: list[str]
    variant: str
    match_length: int = 3
    strokes: dict[str, int] = field(default_factory=dict)
    lids: dict[str, int] = field(default_factory=dict)
    pot: int = 0
    phase: str | None = None
    in_game: list[str] = field(default_factory=list)     # lid variants: still playing
    search: list[str] = field(default_factory=list)      # Basis: this loser search's players
    left: list[str] = field(default_factory=list)        # Basis: not yet safe in it
    searches: int = 0
    tie_break: bool = False
    loser: str | None = None
    finished: bool = False
    started: bool = False
    leader: str = ""
    order: list[str] = field(default_factory=list)
    pos: int = 0
    cap: int = 3
    ann: dict[str, Any] | None = None
    results: list[tuple[str, tuple[int, ...], bool]] = field(default_factory=list)
    chicago_out: list[str] = field(default_factory=list)
    turn: Turn = field(default_factory=lambda: Turn(""))
    rounds: int = 0
    shown: tuple[str | None, str] | None = None   # the best and worst the board tags
    # Sand, phase 2: "the last player who made Sand MAY give one of their lids away". The
    # lid goes unless its giver keeps it with the next action; ``before_settle`` is the
    # keeper as it stood before the round was settled, to settle it again without it.
    sand_lid: tuple[str, str] | None = None
    before_settle: dict[str, Any] | None = None
    give_sand_lid: bool = True

    def __post_init__(self) -> None:
        self.strokes = {p: 0 for p in self.seats}
        self.lids = {p: 0 for p in self.seats}
        n = len(self.seats)
        if self.variant == "bayrisch":
            self.pot, self.phase = n + 1, "distribute"       # players + 1, all in the pot
        elif self.variant == "tschigg":
            self.pot, self.phase = 2 * n - 1, "distribute"   # 2 × players − 1
        self.in_game = list(self.seats)
        self.search = list(self.seats)
        self.left = list(self.seats)
        self.begin_round(self.seats[0])

    # who throws
    def throwing(self) -> list[str]:
        return self.left if self.variant == "basis" else self.in_game

    def round_from(self, start: str) -> list[str]:
        at = self.seats.index(start)
        return [p for p in self.seats[at:] + self.seats[:at] if p in self.throwing()]

    def begin_round(self, leader: str) -> None:
        self.order = self.round_from(leader)
        self.leader = self.order[0]
        self.pos, self.cap, self.ann = 0, 3, None
        self.results, self.chicago_out = [], []
        self.turn = Turn(self.leader)

    def limit(self) -> int:
        return 3 if self.turn.player == self.leader else self.cap

    # what may be done now
    def legal(self) -> set[str]:
        t = self.turn
        if self.finished:
            return {"sand_lid"} if self.sand_lid else set()
        if t.over:
            return {"announce"}
        if t.throws == 0:
            return {"roll"} | (set() if self.started else {"leader"}) | \
                ({"sand_lid"} if self.sand_lid else set())
        if t.must_throw:
            return {"roll"}
        out = {"done"}
        if t.throws < self.limit() and len(t.kept) < 3:
            out.add("roll")
        if t.loose:
            out.add("set_aside")
        if t.loose.count(6) >= 2 and t.throws < self.limit():
            out.add("turn_sixes")
        if t.player == self.leader:
            out.add("announce")
        return out

    def dice_to_throw(self) -> int:
        t = self.turn
        return 3 - len(t.kept) if "roll" in self.legal() else 0

    # the actions
    def act(self, a: dict[str, Any]) -> None:
        t, kind = self.turn, a["type"]
        sand_lid, self.sand_lid = self.sand_lid, None
        if kind == "sand_lid":
            assert sand_lid is not None
            if not a["give"]:
                self.keep_sand_lid()
        elif kind == "leader":
            self.begin_round(a["player"])
        elif kind == "roll":
            self.started = True
            dice = list(a["dice"])
            t.throws += 1
            t.loose, t.must_throw = dice, False
            if len(dice) == 3 and dice == [1, 1, 1]:
                t.chicago = True                 # three ones in a single throw
                if self.variant == "bayrisch":   # out at once, with all their lids
                    self.lids[t.player] = 0
                    self.in_game.remove(t.player)
                    self.chicago_out.append(t.player)
                self.stop()
            elif t.throws == self.limit():
                self.stop()
        elif kind == "set_aside":
            for d in a["dice"]:
                t.loose.remove(d)
                t.kept.append(d)
        elif kind == "turn_sixes":
            t.loose.remove(6)                   # one six becomes a one, set aside
            t.kept.append(1)
            t.must_throw = True                 # the other six and the rest are thrown
        elif kind == "done":
            self.stop()
        elif kind == "announce":
            if not t.over:
                self.stop()
            self.ann = {k: a[k] for k in ("ones", "sixes", "order", "sand") if k in a}
            self.next_thrower()

    def keep_sand_lid(self) -> None:
        assert self.before_settle is not None
        self.__dict__.update(copy.deepcopy(self.before_settle))
        self.give_sand_lid = False
        self.settle()
        self.give_sand_lid = True

    def stop(self) -> None:
        t = self.turn
        self.results.append((t.player, tuple(t.kept + t.loose), t.chicago))
        if t.player == self.leader:
            self.cap = t.throws                  # the leader's throws cap everyone else
            t.over = True
        else:
            self.next_thrower()

    def next_thrower(self) -> None:
        self.pos += 1
        if self.pos < len(self.order):
            self.turn = Turn(self.order[self.pos])
        else:
            self.settle()

    # the end of a throw round
    def settle(self) -> None:
        ann = self.ann
        assert ann is not None
        self.before_settle = None
        self.before_settle = copy.deepcopy(self.__dict__)
        self.rounds += 1
        # What the board tags, every thrower counted (a Chicago thrower who went out too).
        if ann.get("sand"):
            made = [p for p, d, c in self.results if makes_sand(d, c)]
            missed = [p for p, d, c in self.results if not makes_sand(d, c)]
            self.shown = (made[-1] if made else None,
                          missed[-1] if missed else self.results[-1][0])
        else:
            self.shown = my_best_and_worst(self.results, ann)
        live = [r for r in self.results if r[0] not in self.chicago_out]
        if not live:                              # everyone left went out by a Chicago
            self.finished, self.loser = True, None
            return
        if ann.get("sand"):
            made = [p for p, d, c in live if makes_sand(d, c)]
            missed = [p for p, d, c in live if not makes_sand(d, c)]
            giver = made[-1] if made else None
            taker = missed[-1] if missed else None
            if self.phase == "distribute" and taker:
                self.pot -= 1
                self.lids[taker] += 1
            elif self.phase == "reduce" and giver and taker and self.give_sand_lid:
                self.lids[giver] -= 1
                self.lids[taker] += 1
                self.sand_lid = (giver, taker)
            self.after_lids(taker or live[-1][0])
            return
        best, worst = my_best_and_worst(live, ann)
        if self.variant == "basis":
            self.left.remove(best)               # safe for the rest of the loser search
            if len(self.left) > 1:
                self.begin_round(worst)
                return
            loser = self.left[0]
            self.strokes[loser] += 1
            self.searches += 1
            if self.tie_break or self.searches >= self.match_length:
                most = max(self.strokes.values())
                tied = [p for p in self.seats if self.strokes[p] == most]
                if len(tied) == 1:
                    self.finished, self.loser = True, tied[0]
                    return
                self.tie_break = True
                self.search = tied
            else:
                self.search = list(self.seats)
            self.left = list(self.search)
            self.begin_round(loser)               # the loser leads the next loser search
            return
        if self.phase == "distribute":
            self.pot -= 1
            self.lids[worst] += 1
        elif self.variant == "bayrisch":
            if not self.chicago_out:
                self.lids[best] -= 1              # laid down: it leaves the game
        else:
            self.lids[best] -= 1                  # Tschigg: given to the worst
            self.lids[worst] += 1
        self.after_lids(worst)

    def after_lids(self, worst: str) -> None:
        if self.phase == "distribute" and self.pot == 0:
            self.phase = "reduce"
        if self.phase == "reduce":
            self.in_game = [p for p in self.in_game if self.lids[p] > 0]
        if len(self.in_game) <= 1:
            self.finished = True
            self.loser = self.in_game[0] if self.in_game else None
            return
        self.begin_round(worst)

    def lids_in_game(self) -> int:
        return self.pot + sum(self.lids.values())


# -- playing beside the engine ------------------------------------------------------------------


def some_dice(rng: random.Random, n: int) -> list[int]:
    roll = rng.random()
    if roll < 0.08 and n == 3:
        return [1, 1, 1]
    if roll < 0.2:
        return [rng.choice([6, 6, 1]) for _ in range(n)]
    if roll < 0.3:
        return [rng.randint(2, 5) for _ in range(n)]
    return [rng.randint(1, 6) for _ in range(n)]


def choose(keeper: Keeper, rng: random.Random) -> dict[str, Any]:
    t, legal = keeper.turn, sorted(keeper.legal())
    if keeper.sand_lid and (keeper.finished or rng.random() < 0.5):
        return {"type": "sand_lid", "player": keeper.sand_lid[0], "give": rng.random() < 0.5}
    legal = [k for k in legal if k != "sand_lid"]
    kind = "roll" if "roll" in legal and rng.random() < 0.45 else rng.choice(legal)
    if kind == "leader":
        return {"type": "leader", "player": rng.choice(keeper.seats)}
    if kind == "roll":
        return {"type": "roll", "player": t.player, "dice": some_dice(rng, 3 - len(t.kept))}
    if kind == "set_aside":
        return {"type": "set_aside", "player": t.player,
                "dice": rng.sample(t.loose, rng.randint(1, len(t.loose)))}
    if kind == "announce":
        if keeper.variant == "tschigg" and rng.random() < 0.25:
            return {"type": "announce", "player": t.player, "sand": True}
        return {"type": "announce", "player": t.player, **rng.choice(ANNOUNCEMENTS)}
    return {"type": kind, "player": t.player}


def compare(game: Any, keeper: Keeper, where: str) -> None:
    s = game.state()
    assert s["finished"] == keeper.finished, where
    assert s["loser"] == keeper.loser, where
    scores = {p["name"]: p["score"] for p in s["players"]}
    if keeper.variant == "basis":
        assert scores == keeper.strokes, where
    else:
        assert scores == keeper.lids, where
        assert (s["pot"], s["phase"], s["lids_in_game"]) == \
            (keeper.pot, keeper.phase, keeper.lids_in_game()), where
    assert s["rounds_played"] == keeper.rounds, where
    if keeper.rounds:
        last = s["last_round"]
        assert (last["best"], last["worst"]) == keeper.shown, where
    assert s["sand_lid"] == (None if keeper.sand_lid is None else
                             dict(zip(("giver", "taker"), keeper.sand_lid))), where
    if keeper.finished:
        assert s["next"]["player"] is None, where
        assert set(s["next"]["actions"]) - {"undo", "correct"} == keeper.legal(), where
        return
    rnd = s["round"]
    assert (rnd["leader"], rnd["order"]) == (keeper.leader, keeper.order), where
    assert s["next"]["player"] == keeper.turn.player, where
    # undo and correct are the game's, offered in every family
    assert set(s["next"]["actions"]) - {"undo", "correct"} == keeper.legal(), where
    assert s["next"]["dice"] == keeper.dice_to_throw(), where
    t = keeper.turn
    left = 0 if t.over else keeper.limit() - t.throws
    assert s["next"]["throws_left"] == left, where
    if keeper.variant == "basis":
        assert s["search"]["players"] == keeper.search, where
        assert [p["name"] for p in s["players"] if p["status"] == "playing"] == keeper.left, where
    else:
        assert [p["name"] for p in s["players"] if p["status"] == "playing"] == keeper.in_game, where


def refused_too(game: Any, keeper: Keeper, rng: random.Random) -> None:
    """Things the rule book forbids now must be refused."""
    t = keeper.turn
    others = [p for p in keeper.seats if p != t.player]
    wrong = {"type": "roll", "player": rng.choice(others), "dice": [2, 3, 4]}
    assert not game.is_legal(wrong)
    if "roll" not in keeper.legal():
        n = 3 - len(t.kept) or 1
        assert not game.is_legal({"type": "roll", "player": t.player, "dice": [3] * n})
    if "turn_sixes" not in keeper.legal():
        assert not game.is_legal({"type": "turn_sixes", "player": t.player})
    if "sand_lid" not in keeper.legal():
        assert not game.is_legal({"type": "sand_lid", "player": t.player, "give": False})
    if "announce" not in keeper.legal():
        assert not game.is_legal({"type": "announce", "player": t.player,
                                  **ANNOUNCEMENTS[0]})


def play(seed: int, variant: str, players: int, match_length: int) -> int:
    rng = random.Random(seed)
    seats = ["Aino", "Bertil", "Cecilia", "Doris", "Eero", "Frida"][:players]
    options: dict[str, Any] = {"variant": variant}
    if variant == "basis":
        options["match_length"] = match_length
    game = new_game("pub_chicago", seats, options)
    keeper = Keeper(seats, variant, match_length)
    compare(game, keeper, "at the start")
    steps = 0
    while (not keeper.finished or keeper.sand_lid) and steps < 2000:
        action = choose(keeper, rng)
        where = f"seed {seed}, action {steps}: {action}"
        game.apply(action)
        keeper.act(action)
        compare(game, keeper, where)
        if not keeper.finished and rng.random() < 0.2:
            refused_too(game, keeper, rng)
        steps += 1
    assert keeper.finished, "a game that never ends"
    return steps


@pytest.mark.parametrize("variant", ["basis", "bayrisch", "tschigg"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_agree_with_the_rule_book(variant, players):
    for seed in range(6):
        play(seed * 31 + players, variant, players, [1, 3, 5, 10][seed % 4])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["basis", "bayrisch", "tschigg"]),
       players=st.integers(2, 6), match_length=st.sampled_from([3, 1, 5, 10]))
def test_any_random_game_agrees_with_the_rule_book(seed, variant, players, match_length):
    play(seed, variant, players, match_length)
