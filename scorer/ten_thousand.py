"""10000, the Farkle family (RULES.md §3): throw six dice, set scoring dice aside, bank
the turn's points or throw the rest; a throw that scores nothing loses the turn.

A turn, action by action: ``roll`` (the dice thrown), ``set_aside`` (scoring dice of that
throw), then another ``roll`` of the dice left or a ``bank``. A farkle and hot dice follow
from the dice; they are never actions.

>>> from scorer import new_game
>>> g = new_game("ten_thousand", ["Aino", "Bertil"], {"opening": 350, "target": 5000})
>>> for action in [("roll", [1, 1, 1, 4, 6, 2]), ("set_aside", [1, 1, 1]),
...                ("roll", [5, 3, 3]), ("set_aside", [5]), ("bank", None)]:
...     g.apply({"type": action[0], "player": "Aino", **({"dice": action[1]} if action[1] else {})})
>>> [p["score"] for p in g.state()["players"]], g.state()["next"]
([1050, 0], {'player': 'Bertil', 'actions': ['roll', 'undo', 'correct'], 'dice': 6})
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .actions import Action
from .errors import Refusal
from .farkle_scoring import TWO_TRIPLETS, Table, farkle_chance, is_farkle, score_selection, \
    scoring_dice, selections
from .rules import OptionWords, Rules
from .words import counted_dice

DICE = 6
PENALTY_AFTER = 3   # farkles in a row that cost the three-farkle penalty


@dataclass
class Kept:
    """Dice set aside from one throw, and what they scored.

    >>> Kept((1, 1, 1, 5), 1050).points
    1050
    """

    dice: tuple[int, ...]
    points: int


@dataclass
class Turn:
    """The turn under way: its throws so far, the dice kept, the points at stake.

    >>> turn = Turn("Aino")
    >>> turn.dice_left, turn.begun
    (6, False)
    """

    player: str
    dice_left: int = DICE
    throw: tuple[int, ...] | None = None   # the latest throw while its set_aside is due
    kept: list[Kept] = field(default_factory=list)
    points: int = 0
    throws: int = 0
    hot_dice: int = 0

    @property
    def begun(self) -> bool:
        """Whether the player has thrown in this turn (a correction can then end it).

        >>> Turn("Aino", throws=1).begun
        True
        """
        return self.throws > 0


@dataclass
class TurnRecord:
    """How a finished turn ended: banked, below the opening, over the target, farkle...

    >>> TurnRecord("Aino", "below the opening", 0, 300, 7).at_stake
    300
    """

    player: str
    outcome: str
    points: int      # what the turn added to the player's total
    at_stake: int    # the turn total when it ended
    action: int | None   # the action that ended it; None when a correction did


@dataclass
class TenThousandState:
    """Where a game of 10000 stands.

    >>> from scorer import new_game
    >>> state = new_game("ten_thousand", ["Aino", "Bertil"]).raw_state
    >>> state.scores, state.current()
    ({'Aino': 0, 'Bertil': 0}, 'Aino')
    """

    options: Mapping[str, Any]
    table: Table                   # the scoring options, made once for the whole game
    seats: list[str]
    scores: dict[str, int]
    opened: dict[str, bool]
    farkles: dict[str, int]        # farkles in a row
    turn: Turn
    seat: int = 0                  # whose turn it is, while no final round is on
    queue: list[str] | None = None  # players still to play in the final or tie-break round
    reached_by: str | None = None  # the first to reach the target
    tie_rounds: int = 0
    contenders: list[str] = field(default_factory=list)
    last_throw: dict[str, Any] | None = None
    last_turn: TurnRecord | None = None
    turns: int = 0
    finished: bool = False
    winner: str | None = None

    def current(self) -> str | None:
        """Who acts next: the seat in turn, or the head of the final or tie-break round."""
        if self.finished:
            return None
        if self.queue is not None:
            return self.queue[0]
        return self.seats[self.seat]


class TenThousandRules(Rules[TenThousandState]):
    """The rules of 10000 with every option and decision of RULES.md §3.

    >>> RULES.family, RULES.options["opening"], sorted(RULES.action_types)
    ('ten_thousand', (500, 0, 350, 750, 1000), ['bank', 'roll', 'set_aside'])
    """

    family = "ten_thousand"
    title = "10000"
    options = {
        "target": (10000, 5000), "opening": (500, 0, 350, 750, 1000),
        "three_farkles": (0, -1000), "exact_target": (False, True), "zilch": (False, True),
        "greed": (False, True), "straight": (1500, 2000), "three_pairs": (1500, 1000),
        "multiples": ("doubling", "linear"), "specials": (True, False),
        "final_round": (True, False),
    }
    option_words = {
        "target": OptionWords("target", ("10000", "5000 (often with 350 to open)")),
        "opening": OptionWords("first bank needs", ("500", "nothing", "350", "750", "1000")),
        "three_farkles": OptionWords("three farkles in a row", ("no penalty", "−1000")),
        "exact_target": OptionWords("exact target", ("off", "on: a bank past it is lost")),
        "zilch": OptionWords("Zilch", ("off", "on: every scoring die is set aside")),
        "greed": OptionWords("three 1s score", ("1000", "300 (Greed)")),
        "straight": OptionWords("straight 1-6 scores", ("1500", "2000")),
        "three_pairs": OptionWords("three pairs score", ("1500", "1000")),
        "multiples": OptionWords("four, five, six alike score",
                                 ("2×, 4×, 8× three alike", "2×, 3×, 4× three alike")),
        "specials": OptionWords("straight, three pairs, two triplets", ("score", "do not score")),
        "final_round": OptionWords("final round", ("on: the others play once more",
                                                   "off: the first to the target wins")),
    }
    action_types = frozenset({"roll", "set_aside", "bank"})
    min_players = 1
    max_players = 8

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> TenThousandState:
        """Everyone at 0 and unopened; the first seat throws six dice.

        >>> RULES.start(["Aino"], {"opening": 350}).turn
        Turn(player='Aino', dice_left=6, throw=None, kept=[], points=0, throws=0, hot_dice=0)
        """
        return TenThousandState(
            options=options, table=Table.of(options), seats=list(players),
            scores={p: 0 for p in players},
            opened={p: False for p in players}, farkles={p: 0 for p in players},
            turn=Turn(players[0]))

    # -- verify ----------------------------------------------------------------------------

    def verify(self, state: TenThousandState, action: Action) -> None:
        """Refuse, with the reason, an action the rule book does not allow now.

        >>> from scorer import new_game
        >>> new_game("ten_thousand", ["A"]).apply({"type": "bank", "player": "A"})
        Traceback (most recent call last):
        ...
        scorer.errors.IllegalAction: action 0 (bank by A): nothing set aside to bank: roll first
        """
        if state.finished:
            raise Refusal("the game is over")
        current = state.current()
        if action.player is None:
            raise Refusal(f"a {action.type} needs 'player' ({current} is to play)")
        if action.player != current:
            raise Refusal(f"it is {current}'s turn, not {action.player}'s")
        check = {"roll": self._verify_roll, "set_aside": self._verify_set_aside,
                 "bank": self._verify_bank}[action.type]
        check(state, action)

    def _verify_roll(self, state: TenThousandState, action: Action) -> None:
        turn = state.turn
        if turn.throw is not None:
            raise Refusal(f"set aside scoring dice from the latest throw {list(turn.throw)} "
                          "before throwing again")
        dice = action.need_dice()
        if len(dice) != turn.dice_left:
            raise Refusal(f"this throw takes {counted_dice(turn.dice_left)}, not {len(dice)}")

    def _verify_set_aside(self, state: TenThousandState, action: Action) -> None:
        throw = state.turn.throw
        if throw is None:
            raise Refusal("nothing to set aside: roll first" if not state.turn.kept else
                          "the latest throw's dice are already set aside: roll or bank")
        dice = action.need_dice()
        if not dice:
            raise Refusal("set aside at least one scoring die")
        missing = Counter(dice) - Counter(throw)
        if missing:
            raise Refusal(_not_thrown(missing, Counter(throw), list(throw)))
        if score_selection(dice, state.table) is None:
            raise Refusal(f"{sorted(dice)} does not score: every die set aside must belong to "
                          "a scoring combination")
        if state.table.zilch and tuple(sorted(dice)) != scoring_dice(throw, state.table):
            every = list(scoring_dice(throw, state.table))
            raise Refusal(f"Zilch: every scoring die of the throw must be set aside {every}")

    def _verify_bank(self, state: TenThousandState, action: Action) -> None:
        turn = state.turn
        if turn.throw is not None:
            raise Refusal(f"set aside scoring dice from the latest throw {list(turn.throw)} "
                          "before banking")
        if not turn.kept:
            raise Refusal("nothing set aside to bank: roll first")

    # -- act -------------------------------------------------------------------------------

    def act(self, state: TenThousandState, action: Action) -> None:
        """Apply a verified roll, set_aside or bank.

        >>> from scorer import new_game
        >>> g = new_game("ten_thousand", ["A"])
        >>> g.apply({"type": "roll", "player": "A", "dice": [2, 2, 3, 3, 4, 6]})  # a farkle
        >>> g.state()["last_turn"]["outcome"]
        'farkle'
        """
        if action.type == "roll":
            self._roll(state, action)
        elif action.type == "set_aside":
            self._set_aside(state, action.need_dice())
        else:
            self._bank(state, action.index)

    def _roll(self, state: TenThousandState, action: Action) -> None:
        turn, dice = state.turn, action.need_dice()
        turn.throws += 1
        farkle = is_farkle(dice, state.table)
        state.last_throw = {"player": turn.player, "dice": list(dice), "farkle": farkle,
                            "action": action.index}
        if farkle:
            self._farkle(state, action.index)
        else:
            turn.throw = dice

    def _set_aside(self, state: TenThousandState, dice: tuple[int, ...]) -> None:
        turn = state.turn
        points = score_selection(dice, state.table) or 0
        turn.kept.append(Kept(tuple(sorted(dice)), points))
        turn.points += points
        turn.dice_left -= len(dice)
        turn.throw = None
        if turn.dice_left == 0:
            # Hot dice: every die has scored, so the player may throw all six again.
            turn.dice_left = DICE
            turn.hot_dice += 1

    def _farkle(self, state: TenThousandState, index: int) -> None:
        player = state.turn.player
        state.farkles[player] += 1
        penalty = state.options["three_farkles"]
        if penalty and state.farkles[player] >= PENALTY_AFTER:
            # The penalty applies before opening too, and totals may go negative;
            # the count then starts again.
            state.scores[player] += penalty
            state.farkles[player] = 0
            self._close_turn(state, "farkle, third in a row", penalty, index)
        else:
            self._close_turn(state, "farkle", 0, index)

    def _bank(self, state: TenThousandState, index: int) -> None:
        player, points = state.turn.player, state.turn.points
        state.farkles[player] = 0
        outcome = self._bank_outcome(state, player, points)
        if outcome == "banked":
            state.scores[player] += points
            state.opened[player] = True
        self._close_turn(state, outcome, points if outcome == "banked" else 0, index)

    def _bank_outcome(self, state: TenThousandState, player: str, points: int) -> str:
        options = state.options
        if not state.opened[player] and points < options["opening"]:
            return "below the opening"   # allowed, and records nothing
        over = state.scores[player] + points > options["target"]
        # In tie-break rounds every total is already at the target, so exact target
        # would refuse every bank there: it applies only until the target is reached.
        if options["exact_target"] and over and not state.tie_rounds:
            return "over the target"
        return "banked"

    def end_turn(self, state: TenThousandState) -> bool:
        """End the turn under way without banking; False when it had not begun.

        >>> from scorer import new_game
        >>> g = new_game("ten_thousand", ["A", "B"])
        >>> RULES.end_turn(g.raw_state)
        False
        >>> g.apply({"type": "roll", "player": "A", "dice": [1, 2, 2, 3, 4, 6]})
        >>> RULES.end_turn(g.raw_state), g.raw_state.current()
        (True, 'B')
        """
        if state.finished or not state.turn.begun:
            return False
        # A correction made the rest of the turn illegal: it ends without banking, and
        # being neither a bank nor a farkle it leaves the farkle count as it was.
        self._close_turn(state, "ended by a correction", 0, None)
        return True

    # -- between turns ---------------------------------------------------------------------

    def _close_turn(self, state: TenThousandState, outcome: str, points: int,
                    index: int | None) -> None:
        player = state.turn.player
        state.last_turn = TurnRecord(player, outcome, points, state.turn.points, index)
        state.turns += 1
        self._pass_turn(state, player)
        if not state.finished:
            state.turn = Turn(state.current() or player)

    def _pass_turn(self, state: TenThousandState, player: str) -> None:
        if state.queue is not None:
            state.queue.pop(0)
            if not state.queue:
                self._settle(state)
        elif state.scores[player] >= state.options["target"]:
            self._target_reached(state, player)
        else:
            state.seat = (state.seat + 1) % len(state.seats)

    def _target_reached(self, state: TenThousandState, player: str) -> None:
        state.reached_by = player
        if not state.options["final_round"]:
            state.finished, state.winner = True, player
            return
        # The final round: every other player, in seat order, gets one more turn.
        seat = state.seats.index(player)
        state.queue = state.seats[seat + 1:] + state.seats[:seat]
        if not state.queue:
            self._settle(state)

    def _settle(self, state: TenThousandState) -> None:
        """After the final round or a tie-break round: the highest total wins, or the
        players tied for it play another round, in seat order. The highest of everyone's:
        with three farkles costing points, the tied players can fall below one who was
        not in the tie, who then wins (RULES.md: "Then the highest total wins")."""
        best = max(state.scores.values())
        leaders = [p for p in state.seats if state.scores[p] == best]
        if len(leaders) == 1:
            state.finished, state.winner, state.queue = True, leaders[0], []
            return
        state.tie_rounds += 1
        state.contenders = leaders
        state.queue = list(leaders)

    # -- describe --------------------------------------------------------------------------

    def seated(self, state: TenThousandState) -> Sequence[str]:
        """The players in seat order (nobody joins or leaves a game of 10000).

        >>> RULES.seated(RULES.start(["A", "B"], {}))
        ['A', 'B']
        """
        return state.seats

    def current_player(self, state: TenThousandState) -> str | None:
        """Who acts next; None once the game is over.

        >>> RULES.current_player(RULES.start(["A", "B"], {}))
        'A'
        """
        return state.current()

    def turn_key(self, state: TenThousandState) -> int:
        """The turn under way, counted from 0, so a correction drops exactly the rest of
        a broken turn and nothing after it (not even a solo player's next turns).

        >>> from scorer import new_game
        >>> RULES.turn_key(new_game("ten_thousand", ["A"]).raw_state)
        0
        """
        return state.turns

    def legal_types(self, state: TenThousandState) -> list[str]:
        """The family action types legal now, in the order a control page shows them.

        >>> from scorer import new_game
        >>> RULES.legal_types(new_game("ten_thousand", ["A"]).raw_state)
        ['roll']
        """
        turn = state.turn
        if state.finished:
            return []
        if turn.throw is not None:
            return ["set_aside"]
        return ["roll", "bank"] if turn.kept else ["roll"]

    def view(self, state: TenThousandState) -> dict[str, Any]:
        """The state as JSON for the scoreboard and the control page.

        >>> from scorer import new_game
        >>> g = new_game("ten_thousand", ["A", "B"])
        >>> g.apply({"type": "roll", "player": "A", "dice": [1, 5, 2, 3, 4, 4]})
        >>> view = RULES.view(g.raw_state)
        >>> view["next"]
        {'player': 'A', 'actions': ['set_aside'], 'dice': 0}
        >>> best = view["turn"]["choices"][0]
        >>> best["dice"], best["points"], best["dice_left"], round(100 * best["farkle_chance"], 2)
        ([1, 5], 150, 4, 15.74)
        """
        options, turn = state.options, state.turn
        actions = self.legal_types(state)
        dice = turn.dice_left if "roll" in actions else 0
        return {
            "finished": state.finished,
            "winner": state.winner,
            "loser": None,
            "players": [{"name": p, "score": state.scores[p], "opened": state.opened[p],
                         "farkles_in_a_row": state.farkles[p]} for p in state.seats],
            "next": {"player": state.current(), "actions": actions, "dice": dice},
            "target": options["target"],
            "opening": options["opening"],
            "turn": None if state.finished else self._turn_view(state),
            "farkle_chance": farkle_chance(dice, options) if dice else None,
            "last_throw": state.last_throw,
            "last_turn": None if state.last_turn is None else vars(state.last_turn).copy(),
            "turns": state.turns,
            "final_round": None if state.reached_by is None else {
                "reached_by": state.reached_by,
                "to_play": [] if state.tie_rounds or state.queue is None else list(state.queue)},
            "tie_break": None if not state.tie_rounds else {
                "round": state.tie_rounds, "players": list(state.contenders),
                "to_play": list(state.queue or [])},
        }

    def _turn_view(self, state: TenThousandState) -> dict[str, Any]:
        turn, opened = state.turn, state.opened[state.turn.player]
        return {
            "player": turn.player,
            "points": turn.points,
            "set_aside": [{"dice": list(k.dice), "points": k.points} for k in turn.kept],
            "dice_left": turn.dice_left,
            "hot_dice": turn.hot_dice,
            "throw": None if turn.throw is None else list(turn.throw),
            "choices": [] if turn.throw is None else self._choices(state, turn.throw),
            "needs_to_open": 0 if opened else max(0, state.options["opening"] - turn.points),
            # What a bank now would do (banked, below the opening, over the target): with
            # an exact target the table sees before the tap that the points would be lost.
            "bank": self._bank_outcome(state, turn.player, turn.points),
        }

    def _choices(self, state: TenThousandState, throw: tuple[int, ...]) -> list[dict[str, Any]]:
        # Each choice with what it leaves to throw, so the table can weigh points
        # against the risk of the next throw (hot dice leave all six again).
        found = []
        for chosen, points in selections(throw, state.table):
            left = state.turn.dice_left - len(chosen) or DICE
            found.append({"dice": list(chosen), "points": points, "dice_left": left,
                          "farkle_chance": farkle_chance(left, state.table)})
        return found

    def help(self, options: Mapping[str, Any]) -> list[str]:
        """The options and decisions in force, one line each.

        >>> RULES.help(dict((k, v[0]) for k, v in RULES.options.items()))[0]
        '10000: the first to reach 10000 points (or more) starts the final round.'
        """
        return self._goal_lines(options) + self._table_lines(options) + self._turn_lines(options)

    def _goal_lines(self, options: Mapping[str, Any]) -> list[str]:
        target = options["target"]
        # With the exact target a bank past it is lost: nobody reaches it with more.
        reach = f"{target} points" + ("" if options["exact_target"] else " (or more)")
        if options["final_round"]:
            goal = [f"10000: the first to reach {reach} starts the final round.",
                    "Final round: every other player gets one more turn, then the highest "
                    "total wins; reaching the target in it starts nothing new (decision).",
                    "Tie: the tied players play extra rounds, in seat order, until one leads "
                    "after a full round (decision)."]
        else:
            goal = [f"10000: the first to reach {reach} wins at once (no final round)."]
        if options["exact_target"]:
            # Without a final round the first to reach the target wins: no tie to break.
            goal.append(f"Exact target: a bank that would pass {target} is lost" +
                        ("; in tie-break rounds every bank counts (decision)."
                         if options["final_round"] else "."))
        opening = (
            f"Opening: a player's first recorded turn must be worth at least "
            f"{options['opening']}; banking less before opening is allowed and records "
            "nothing (decision)." if options["opening"] else
            "Opening: none; any bank counts from the first turn.")
        return goal + [
            opening,
            "Players: 1 to 8, in seat order; nobody joins or leaves a game (decision).",
        ]

    def _table_lines(self, options: Mapping[str, Any]) -> list[str]:
        table = Table.of(options)
        scale = "2x/4x/8x" if table.multiples == "doubling" else "2x/3x/4x"
        lines = [
            "Single 1 = 100, single 5 = 50; three of a kind = 100 x face, three 1s = "
            f"{table.three_of_a_kind(1)}" + (" (Greed)." if table.greed else "."),
            f"Four / five / six of a kind: {scale} the three-of-a-kind value ({table.multiples}).",
        ]
        if table.specials:
            lines.append(f"With all six dice of one throw: straight 1-6 = {table.straight}, "
                         f"three pairs = {table.three_pairs}, two triplets = {TWO_TRIPLETS}.")
            lines.append("Two triplets are of two different faces; six of a kind is scored "
                         "only as six of a kind; four of a kind and a pair may count as three "
                         "pairs (decisions).")
        else:
            lines.append("Special combinations (straight, three pairs, two triplets) are off.")
        return lines + [
            "Dice set aside are scored by their best valid partition; every die set aside "
            "must belong to a scoring combination, from the same throw (decision).",
            "Pair scoring is no option: a pair of 1s or 5s already counts as two singles.",
        ]

    def _turn_lines(self, options: Mapping[str, Any]) -> list[str]:
        lines = [
            "A turn: throw, set aside at least one scoring die (one set_aside per throw, "
            "decision), then bank or throw the dice left.",
            "Farkle: a throw with no scoring die ends the turn and its points are lost.",
            "Hot dice: when all six dice have scored, the player may throw all six again.",
            "A turn cut short by a correction ends without banking and is not a farkle "
            "(decision).",
        ]
        if options["zilch"]:
            lines.append("Zilch: every scoring die of a throw must be set aside before the "
                         "next throw (so a set_aside takes them all, decision).")
        penalty = options["three_farkles"]
        if penalty:
            lines.append(f"Three farkles in a row cost {-penalty}; the count then starts again; "
                         "totals may go negative; it applies before opening too (decisions). "
                         "Any other turn end resets the count, except one cut short by a "
                         "correction (decision).")
        else:
            lines.append("Three farkles in a row: no penalty.")
        return lines


RULES = TenThousandRules()


def _keep(state: TenThousandState, rng: random.Random) -> list[int]:
    # Mostly the best choice, sometimes a smaller one, as players do to keep dice in hand.
    choices = selections(state.turn.throw or (), state.table)
    chosen = choices[0] if rng.random() < 0.6 else rng.choice(choices)
    return list(chosen[0])


def _wants_to_bank(state: TenThousandState, rng: random.Random) -> bool:
    turn = state.turn
    player = turn.player
    if not state.opened[player] and turn.points < state.options["opening"]:
        return rng.random() < 0.1   # a bank below the opening is legal, if rarely wise
    risk = farkle_chance(turn.dice_left, state.table)
    return rng.random() < 0.2 + risk


def random_action(game: Any, rng: random.Random, banking: bool = True) -> dict[str, Any]:
    """A legal action for the game's current state, for benchmarks and property tests.

    The player keeps mostly the best dice and banks more often the likelier a farkle is.
    With ``banking=False`` nobody ever banks: every turn ends in a farkle, so the game
    never ends and reaches any length (what a 10,000-action benchmark needs).

    >>> import random
    >>> from scorer import new_game
    >>> g, rng = new_game("ten_thousand", ["A", "B"]), random.Random(1)
    >>> for _ in range(20):
    ...     g.apply(random_action(g, rng))
    >>> g = new_game("ten_thousand", ["A", "B"])
    >>> for _ in range(500):
    ...     g.apply(random_action(g, rng, banking=False))
    >>> g.state()["finished"], [p["score"] for p in g.state()["players"]]
    (False, [0, 0])
    """
    state: TenThousandState = game.raw_state
    player = state.current()
    if player is None:
        raise ValueError("the game is over: no action is legal")
    kinds = RULES.legal_types(state)
    if kinds == ["set_aside"]:
        return {"type": "set_aside", "player": player, "dice": _keep(state, rng)}
    if banking and "bank" in kinds and _wants_to_bank(state, rng):
        return {"type": "bank", "player": player}
    return {"type": "roll", "player": player,
            "dice": [rng.randint(1, 6) for _ in range(state.turn.dice_left)]}


def _not_thrown(missing: Counter[int], thrown: Counter[int], throw: list[int]) -> str:
    """Why dice to set aside are not all in the latest ``throw``: a value not thrown at
    all, or more of a value than were thrown.

    >>> _not_thrown(Counter([1]), Counter([1, 5, 2, 2, 3, 4]), [1, 5, 2, 2, 3, 4])
    'two 1s set aside, but only one 1 in the latest throw [1, 5, 2, 2, 3, 4]'
    >>> _not_thrown(Counter([6]), Counter([1, 5]), [1, 5])
    'a 6 set aside, but no 6 in the latest throw [1, 5]'
    >>> _not_thrown(Counter([1] * 5), Counter([1, 1, 2, 3, 4, 6]), [1, 1, 2, 3, 4, 6])
    'seven 1s set aside, but only two 1s in the latest throw [1, 1, 2, 3, 4, 6]'
    """
    value = min(missing)
    had, asked = thrown[value], thrown[value] + missing[value]
    wanted = f"a {value}" if asked == 1 else f"{_count(asked)} {value}s"
    found = (f"no {value}" if had == 0 else f"only one {value}" if had == 1
             else f"only {_count(had)} {value}s")
    return f"{wanted} set aside, but {found} in the latest throw {throw}"


def _count(n: int) -> str:
    """``n`` in words up to ten (more dice than a throw holds can be asked for)."""
    words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    return words[n] if 0 <= n < len(words) else str(n)
