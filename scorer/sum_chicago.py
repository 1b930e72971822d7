"""Sum Chicago (RULES.md §1): every player throws the dice once a round and scores the
round's target when the sum hits it; after the last round the highest total wins.

>>> from scorer import new_game
>>> g = new_game("sum_chicago", ["A", "B", "C"])
>>> for player, dice in [("A", [1, 1]), ("B", [1, 2]), ("C", [1, 1])]:
...     g.apply({"type": "roll", "player": player, "dice": dice})
>>> [p["score"] for p in g.state()["players"]], g.state()["target"]
([2, 0, 2], 3)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Sequence

from .actions import LONGEST_NAME, Action, is_name
from .errors import Refusal, json_shown, with_article
from .rules import OptionWords, Rules


@lru_cache(maxsize=None)
def sum_chance(dice: int, target: int) -> float:
    """The chance that ``dice`` six-sided dice sum to ``target``, counted over every throw.

    >>> round(sum_chance(2, 7) * 36), round(sum_chance(2, 12) * 36)
    (6, 1)
    """
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, count in ways.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + count
        ways = nxt
    return ways.get(target, 0) / float(6 ** dice)


def round_targets(options: Mapping[str, Any]) -> list[int]:
    """The targets of the rounds, in playing order.

    >>> round_targets({"dice": 2, "rounds": "low", "order": "descending"})
    [7, 6, 5, 4, 3, 2]
    >>> round_targets({"dice": 3, "rounds": "high", "order": "ascending"})
    [11, 12, 13, 14, 15, 16, 17, 18]
    """
    n = options["dice"]
    low, high = n, 6 * n
    # With three dice the split is decided in RULES.md: low 3..10, high 11..18.
    middle_low, middle_high = (7, 7) if n == 2 else (10, 11)
    chosen = {
        "all": range(low, high + 1),
        "low": range(low, middle_low + 1),
        "high": range(middle_high, high + 1),
        "even": [t for t in range(low, high + 1) if t % 2 == 0],
        "odd": [t for t in range(low, high + 1) if t % 2 == 1],
    }[options["rounds"]]
    targets = list(chosen)
    return targets[::-1] if options["order"] == "descending" else targets


def round_chance(options: Mapping[str, Any], target: int) -> float:
    """The chance of a hit in a round, with one or two throws (1 - (1 - p)^2)."""
    p = sum_chance(options["dice"], target)
    return 1 - (1 - p) ** 2 if options["throws"] == 2 else p


@dataclass
class Throw:
    """A roll as it counted: who, which round (None for a tie-break), the dice, the points."""

    player: str
    round: int | None
    dice: tuple[int, ...]
    points: int
    counted: bool
    action: int


@dataclass
class SumChicagoState:
    """Where a game of Sum Chicago stands."""

    options: Mapping[str, Any]
    targets: list[int]
    seats: list[str]
    active: list[str]
    sheet: dict[str, list[int | None]]
    round: int = 0
    order: list[str] = field(default_factory=list)
    turn: int = 0
    second_throw: bool = False
    last_throw: Throw | None = None     # the sheet holds what counts; this is for display
    last_thrower: str | None = None
    contenders: list[str] = field(default_factory=list)   # tie-break players
    tie_rounds: list[dict[str, int]] = field(default_factory=list)
    finished: bool = False
    winner: str | None = None

    @property
    def in_tie_break(self) -> bool:
        return bool(self.contenders) and not self.finished

    def total(self, player: str) -> int:
        return sum(p for p in self.sheet[player] if p)

    def current(self) -> str | None:
        if self.finished or self.turn >= len(self.order):
            return None
        return self.order[self.turn]


class SumChicagoRules(Rules[SumChicagoState]):
    """The rules of Sum Chicago with every option of RULES.md §1."""

    family = "sum_chicago"
    title = "Sum Chicago"
    options = {"dice": (2, 3), "order": ("ascending", "descending"),
               "rounds": ("all", "low", "high", "even", "odd"), "throws": (1, 2),
               "starter": ("fixed", "rotating")}
    option_words = {
        "dice": OptionWords("dice", ("2: targets 2-12", "3: targets 3-18")),
        "order": OptionWords("targets in order", ("ascending", "descending (Kääntö-Chicago)")),
        "rounds": OptionWords("rounds", ("every target", "the low targets", "the high targets",
                                         "the even targets", "the odd targets")),
        "throws": OptionWords("throws a round", ("1", "2 when the first misses (Tupla-Chicago)")),
        "starter": OptionWords("each round begins with", ("the first player",
                                                          "the last round's last thrower")),
    }
    action_types = frozenset({"roll", "join", "leave"})
    min_players = 1
    max_players = 40

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> SumChicagoState:
        targets = round_targets(options)
        state = SumChicagoState(options=options, targets=targets, seats=list(players),
                                active=list(players),
                                sheet={p: [None] * len(targets) for p in players})
        state.order = list(players)
        return state

    # -- verify ----------------------------------------------------------------------------

    def verify(self, state: SumChicagoState, action: Action) -> None:
        if action.type == "join":
            self._verify_join(state, action)
            return
        if state.finished:
            raise Refusal("the game is over")
        if action.player is None:
            raise Refusal(f"{with_article(action.type)} needs 'player'")
        if action.type == "leave":
            if action.player not in state.active:
                raise Refusal(f"{action.player} has already left")
            return
        # roll
        current = state.current()
        if action.player not in state.active:
            raise Refusal(f"{action.player} has left the game and throws no more")
        if action.player != current:
            raise Refusal(f"it is {current}'s throw, not {action.player}'s")
        dice = action.need_dice()
        want = state.options["dice"]
        if len(dice) != want:
            raise Refusal(f"a throw takes {want} dice, not {len(dice)}")

    def _verify_join(self, state: SumChicagoState, action: Action) -> None:
        name = action.player
        if not is_name(name):
            raise Refusal(f"a name is 1 to {LONGEST_NAME} characters, not {json_shown(name)}")
        if name in state.active:
            raise Refusal(f"{name} is already in the game")
        if name in state.seats:
            raise Refusal(f"{name} has left the game, and a name that has played stays "
                          "theirs: join under another name")
        if state.finished or state.in_tie_break:
            raise Refusal("the rounds are over; nobody can join now")
        if len(state.seats) >= self.max_players:
            raise Refusal(f"the game already has {self.max_players} players")

    # -- act -------------------------------------------------------------------------------

    def act(self, state: SumChicagoState, action: Action) -> None:
        if action.type == "join":
            self._join(state, action.player or "")
        elif action.type == "leave":
            self._leave(state, action.player or "")
        elif state.in_tie_break:
            self._tie_throw(state, action)
        else:
            self._round_throw(state, action)

    def _round_throw(self, state: SumChicagoState, action: Action) -> None:
        player, dice = action.player or "", action.need_dice()
        target = state.targets[state.round]
        hit = sum(dice) == target
        second_due = not hit and state.options["throws"] == 2 and not state.second_throw
        state.last_throw = Throw(player, state.round, dice, target if hit else 0,
                                 counted=not second_due, action=action.index)
        if second_due:
            # Tupla-Chicago: a miss with the first throw earns a second, which alone counts.
            state.second_throw = True
            return
        state.sheet[player][state.round] = target if hit else 0
        self._next_thrower(state)

    def _next_thrower(self, state: SumChicagoState) -> None:
        state.second_throw = False
        state.last_thrower = state.order[state.turn]
        state.turn += 1
        if state.turn >= len(state.order):
            self._next_round(state)

    def _next_round(self, state: SumChicagoState) -> None:
        state.round += 1
        state.turn = 0
        if state.round >= len(state.targets) or not state.active:
            state.order = []
            self._rounds_over(state)
            return
        state.order = self._round_order(state)

    def _round_order(self, state: SumChicagoState) -> list[str]:
        order = list(state.active)
        if state.options["starter"] == "rotating" and state.last_thrower is not None:
            # The last thrower of a round starts the next (or the next seat if they left).
            seat = state.seats.index(state.last_thrower)
            ring = state.seats[seat:] + state.seats[:seat]
            order = [p for p in ring if p in state.active]
        return order

    def _rounds_over(self, state: SumChicagoState) -> None:
        best = max(state.total(p) for p in state.seats)
        tied = [p for p in state.seats if state.total(p) == best]
        contenders = [p for p in tied if p in state.active]
        if len(tied) == 1 or not contenders:
            # Nobody tied at the top is still playing (they throw no more): no tie-break
            # can be thrown, so the game ends without a single winner.
            state.finished = True
            state.winner = tied[0] if len(tied) == 1 else None
            return
        if len(contenders) == 1:
            state.finished, state.winner = True, contenders[0]
            return
        self._start_tie_round(state, contenders)

    def _start_tie_round(self, state: SumChicagoState, contenders: list[str]) -> None:
        # Tie-break throws: one each, in seat order, adding nothing to the totals.
        state.contenders = [p for p in state.seats if p in contenders]
        state.order = list(state.contenders)
        state.turn = 0
        state.tie_rounds.append({})

    def _tie_throw(self, state: SumChicagoState, action: Action) -> None:
        player, dice = action.player or "", action.need_dice()
        state.tie_rounds[-1][player] = sum(dice)
        state.last_throw = Throw(player, None, dice, 0, counted=True, action=action.index)
        state.turn += 1
        if state.turn >= len(state.order):
            self._settle_tie(state)

    def _settle_tie(self, state: SumChicagoState) -> None:
        sums = state.tie_rounds[-1]
        best = max(sums.values())
        leaders = [p for p in state.order if sums.get(p) == best]
        if len(leaders) == 1:
            state.finished, state.winner = True, leaders[0]
            state.order, state.turn = [], 0
        else:
            self._start_tie_round(state, leaders)

    def _join(self, state: SumChicagoState, player: str) -> None:
        state.seats.append(player)
        state.active.append(player)
        state.sheet[player] = [None] * len(state.targets)
        for r in range(state.round):
            state.sheet[player][r] = 0
        thrown = state.turn > 0 or state.second_throw
        if not thrown:
            # The newcomer's seat is the last one; the round, not yet begun, goes round the
            # table from its starter (with a rotating starter the newcomer may come second).
            state.order = self._round_order(state)
        else:
            # The round is under way: the newcomer throws from the next round on.
            state.sheet[player][state.round] = 0

    def _leave(self, state: SumChicagoState, player: str) -> None:
        was_current = state.current() == player
        state.active.remove(player)
        if state.in_tie_break:
            if player not in state.order:
                return  # not in the tie: their total stays, nothing else changes
            position = state.order.index(player)
            state.order.remove(player)
            state.contenders.remove(player)
            state.tie_rounds[-1].pop(player, None)
            if len(state.contenders) == 1:
                state.finished, state.winner = True, state.contenders[0]
                state.order, state.turn = [], 0
            elif position < state.turn:
                state.turn -= 1
            elif state.turn >= len(state.order):
                self._settle_tie(state)
            return
        if player in state.order:
            position = state.order.index(player)
            if position == state.turn and state.second_throw:
                # Tupla-Chicago: the first throw missed and they leave before the second,
                # the only one that would count: the round scores 0 and the next throws.
                state.sheet[player][state.round] = 0
                self._next_thrower(state)
                return
            if position < state.turn:
                return  # already thrown this round: their score stays, they throw no more
            state.order.remove(player)
            if was_current:
                state.second_throw = False
            if state.turn >= len(state.order):
                self._next_round(state)

    def turn_key(self, state: SumChicagoState) -> Any:
        # A turn is one player's throws in one round (or in one tie-break round).
        return (state.round, len(state.tie_rounds), state.current())

    def end_turn(self, state: SumChicagoState) -> bool:
        if not state.second_throw:
            return False
        # The second throw of Tupla-Chicago never came: the round scores 0.
        player = state.order[state.turn]
        state.sheet[player][state.round] = 0
        self._next_thrower(state)
        return True

    # -- describe --------------------------------------------------------------------------

    def seated(self, state: SumChicagoState) -> Sequence[str]:
        return state.seats

    def current_player(self, state: SumChicagoState) -> str | None:
        return state.current()

    def view(self, state: SumChicagoState) -> dict[str, Any]:
        options = state.options
        playing = state.round < len(state.targets) and not state.finished and not state.in_tie_break
        target = state.targets[state.round] if playing else None
        current = state.current()
        actions = ["roll"] if current else []
        if not state.finished:
            # Join only while a seat is free (those who left keep theirs): the control page
            # shows the join field exactly when it is offered.
            joinable = not state.in_tie_break and len(state.seats) < self.max_players
            actions += (["join"] if joinable else []) + (["leave"] if state.active else [])
        last = state.last_throw
        return {
            "finished": state.finished,
            "winner": state.winner,
            "loser": None,
            "players": [{"name": p, "score": state.total(p), "active": p in state.active}
                        for p in state.seats],
            "next": {"player": current, "actions": actions,
                     "dice": options["dice"] if current else 0,
                     "throw": 2 if state.second_throw else 1},
            "round": state.round + 1 if playing else None,
            "rounds": len(state.targets),
            "target": target,
            "chance": round_chance(options, target) if target is not None else None,
            "order": list(state.order),
            "sheet": [{"round": r + 1, "target": t, "chance": round_chance(options, t),
                       "scores": {p: state.sheet[p][r] for p in state.seats}}
                      for r, t in enumerate(state.targets)],
            "last_roll": None if last is None else {
                "player": last.player, "dice": list(last.dice), "sum": sum(last.dice),
                "round": None if last.round is None else last.round + 1,
                "target": None if last.round is None else state.targets[last.round],
                "points": last.points, "counted": last.counted, "action": last.action},
            "tie_break": None if not state.tie_rounds else {
                "players": list(state.contenders), "throws": [dict(r) for r in state.tie_rounds]},
        }

    def help(self, options: Mapping[str, Any]) -> list[str]:
        targets = round_targets(options)
        lines = [
            f"Sum Chicago with {options['dice']} dice: {len(targets)} rounds, targets "
            f"{', '.join(map(str, targets))}.",
            "Each round every player throws once; hitting the target scores it, else 0."
            if options["throws"] == 1 else
            "Each round every player throws, twice at most; hitting the target scores it, "
            "else 0.",
        ]
        if options["throws"] == 2:
            lines.append("Tupla-Chicago: a missed first throw is thrown again; only the second counts.")
            lines.append("Decision: a player who leaves with the second throw due scores 0 for "
                         "that round.")
        if options["starter"] == "rotating":
            lines.append("Rotating starter: the last thrower of a round starts the next.")
        lines += [
            "After the last round the highest total wins.",
            "Tie: the tied players throw once more each, in seat order; the highest sum wins; "
            "tie-break throws add nothing to the totals (decision).",
            "Players may join (0 for rounds already played) and leave (their total stays).",
            "Decision: a player who joins once the round's first throw is made throws from the "
            "next round on (0 for that round); nobody joins during the tie-break.",
            "Decision: a player who has left throws no tie-break: a tie at the top is thrown "
            "off by the tied players still playing; if none is, the game ends with no single "
            "winner.",
        ]
        return lines


RULES = SumChicagoRules()


def random_action(game: Any, rng: Any) -> dict[str, Any]:
    """A legal action for the game's current state, for benchmarks and property tests.

    >>> import random
    >>> from scorer import new_game
    >>> g = new_game("sum_chicago", ["A", "B"])
    >>> g.apply(random_action(g, random.Random(1)))
    """
    state: SumChicagoState = game.raw_state
    player = state.current()
    if player is None:
        raise ValueError("the game is over: no action is legal")
    return {"type": "roll", "player": player,
            "dice": [rng.randint(1, 6) for _ in range(state.options["dice"])]}
