"""Pub Chicago (RULES.md §2): three dice, up to three throws, and the goal is the loser.

A throw round goes once round the table from its leader. Each player throws up to
three times (never more than the leader did), setting dice aside after a throw and
turning two sixes into a one; the leader announces after their last throw how the
round is valued. The variants then hand out strokes (Basis) or move lids (Bayrisch,
Tschigg): ``scorer.pub_chicago_match``. Values and ranking: ``scorer.pub_chicago_dice``.

>>> from scorer import new_game
>>> g = new_game("pub_chicago", ["Aino", "Bertil"], {"match_length": 1})
>>> for a in [{"type": "roll", "player": "Aino", "dice": [6, 3, 5]},
...           {"type": "done", "player": "Aino"},
...           {"type": "announce", "player": "Aino", "ones": 100, "sixes": 60, "order": "high"},
...           {"type": "roll", "player": "Bertil", "dice": [2, 2, 4]}]:
...     g.apply(a)
>>> g.state()["loser"], [p["score"] for p in g.state()["players"]]
('Bertil', [0, 1])
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .actions import Action
from .errors import Refusal, json_shown, with_article
from .pub_chicago_dice import (DEFAULT_ANNOUNCEMENT, Announcement, Result, best_and_worst,
                               is_chicago, is_sand, parse_announcement, sand_outcome, value)
from .pub_chicago_help import help_lines
from .pub_chicago_match import Match, chicago_out, new_match, ring, sand_giving, settle
from .rules import OptionWords, Rules
from .words import counted_dice

__all__ = ["RULES", "PubChicagoRules", "PubChicagoState", "ThrowRound", "Turn", "Announcement",
           "value", "random_action"]

DICE = 3
MAX_THROWS = 3


@dataclass
class Turn:
    """One player's throws in a throw round: the dice set aside (``kept``) and those of
    the latest throw still on the table (``loose``).

    >>> t = Turn("Aino", throws=1, kept=[1], loose=[5, 6])
    >>> t.dice(), t.to_throw()
    ((1, 5, 6), 2)
    """

    player: str
    throws: int = 0
    kept: list[int] = field(default_factory=list)
    loose: list[int] = field(default_factory=list)
    must_throw: bool = False     # two sixes were turned: the next throw is due
    over: bool = False           # the leader stopped throwing; the announcement is due
    chicago: bool = False

    def dice(self) -> tuple[int, ...]:
        """The result as it lies: the dice set aside and the rest of the latest throw.

        >>> Turn("Aino", throws=2, kept=[6, 6], loose=[2]).dice()
        (6, 6, 2)
        """
        return tuple(self.kept + self.loose)

    def to_throw(self) -> int:
        """How many dice the next throw takes: every die not set aside.

        >>> Turn("Aino", throws=1, kept=[1], loose=[6, 3], must_throw=True).to_throw()
        2
        """
        return DICE - len(self.kept)


@dataclass
class ThrowRound:
    """A throw round: the players in throw order (the leader first), the announcement,
    the throw cap (the leader's number of throws) and the results so far.

    >>> r = ThrowRound(1, ["B", "A"], Turn("B"))
    >>> r.leader, r.cap
    ('B', 3)
    """

    number: int
    order: list[str]
    turn: Turn
    pos: int = 0
    announcement: Announcement | None = None
    defaulted: bool = False      # a correction ended the leader's turn before announcing
    cap: int = MAX_THROWS
    results: list[Result] = field(default_factory=list)
    chicago_out: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)   # what happened during the round

    @property
    def leader(self) -> str:
        """Who leads (throws first and announces).

        >>> ThrowRound(2, ["C", "A", "B"], Turn("C")).leader
        'C'
        """
        return self.order[0]

    def limit(self, player: str) -> int:
        """The most throws ``player`` may make: three for the leader, the cap for the rest.

        >>> r = ThrowRound(1, ["B", "A"], Turn("B"), cap=1)
        >>> r.limit("B"), r.limit("A")
        (3, 1)
        """
        return MAX_THROWS if player == self.leader else self.cap


@dataclass
class SandLid:
    """Tschigg: the lid the last who made Sand gave the last who missed it, as the throw
    round was settled. The giver may keep it instead (RULES.md: "may give"), right after;
    a game file without that choice gives the lid, as files written before it did.

    ``before`` is the match as it stood before the round was settled and ``closed`` the
    round itself, so that keeping the lid settles the round again without the gift.
    """

    giver: str
    taker: str
    before: Match
    closed: ThrowRound


@dataclass
class PubChicagoState:
    """Where a game of Pub Chicago stands: the match, the throw round under way, and the
    player whose turn ended by itself with the latest action (their ``done`` is accepted).

    >>> RULES.start(["A", "B"], {"variant": "basis", "match_length": 3}).round.order
    ['A', 'B']
    """

    options: Mapping[str, Any]
    match: Match
    round: ThrowRound
    started: bool = False
    drawn: bool = False           # the first leader was drawn by lot
    may_close: str | None = None
    rounds_played: int = 0
    last_round: dict[str, Any] | None = None
    sand_lid: SandLid | None = None   # the Sand lid just given, which its giver may keep

    @property
    def finished(self) -> bool:
        """Whether the loser is found.

        >>> RULES.start(["A", "B"], {"variant": "basis", "match_length": 3}).finished
        False
        """
        return self.match.finished


def _new_round(state: PubChicagoState, leader: str, number: int) -> ThrowRound:
    order = ring(state.match.seats, leader, state.match.playing)
    return ThrowRound(number, order, Turn(order[0]))


class PubChicagoRules(Rules[PubChicagoState]):
    """The rules of Pub Chicago with its three variants (RULES.md §2).

    >>> sorted(RULES.options)
    ['match_length', 'variant']
    """

    family = "pub_chicago"
    title = "Pub Chicago"
    options = {"variant": ("basis", "bayrisch", "tschigg"), "match_length": (3, 1, 5, 10)}
    # Bayrisch and Tschigg end by themselves: only Basis plays a match of loser searches.
    option_needs = {"match_length": ("variant", "basis")}
    option_words = {
        "variant": OptionWords("variant", ("Basis (strokes)", "Bayrisch (lids)", "Tschigg (Swiss)")),
        "match_length": OptionWords("loser searches in a match", ("3", "1", "5", "10")),
    }
    action_types = frozenset({"leader", "roll", "set_aside", "turn_sixes", "done", "announce",
                              "sand_lid"})
    min_players = 2
    max_players = 40

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> PubChicagoState:
        """Before the first throw; with no ``leader`` action the first player leads.

        >>> RULES.start(["A", "B"], {"variant": "tschigg"}).match.pot
        3
        """
        match = new_match(players, options)
        state = PubChicagoState(options, match, ThrowRound(1, [], Turn(players[0])))
        state.round = _new_round(state, players[0], 1)
        return state

    # -- verify ----------------------------------------------------------------------------

    def verify(self, state: PubChicagoState, action: Action) -> None:
        """Raise ``Refusal`` naming why the action is illegal now.

        >>> s = RULES.start(["A", "B"], {"variant": "basis", "match_length": 3})
        >>> RULES.verify(s, Action(0, "roll", "B", (1, 2, 3)))
        Traceback (most recent call last):
        ...
        scorer.errors.Refusal: it is A's turn, not B's
        """
        if action.player is None:
            raise Refusal(f"{with_article(action.type)} names its 'player'")
        if action.type == "done" and state.may_close == action.player:
            return  # the turn already ended by itself: the done is accepted and changes nothing
        if action.type == "sand_lid":
            self._verify_sand_lid(state, action)   # the gift may have ended the game
            return
        if state.finished:
            raise Refusal(f"the game is over: {state.match.loser} lost")
        if action.type == "leader":
            self._verify_leader(state)
            return
        turn = self._verify_turn(state, action)
        check = {"roll": self._verify_roll, "set_aside": self._verify_set_aside,
                 "turn_sixes": self._verify_turn_sixes, "done": self._verify_done,
                 "announce": self._verify_announce}[action.type]
        check(state, turn, action)

    def _verify_leader(self, state: PubChicagoState) -> None:
        if state.started:
            raise Refusal("the first leader is drawn before the first throw")

    def _verify_sand_lid(self, state: PubChicagoState, action: Action) -> None:
        choice = state.sand_lid
        if choice is None:
            raise Refusal("a lid is given or kept only right after a Sand round of the "
                          "reduce phase in which someone made Sand and someone missed it")
        if action.player != choice.giver:
            raise Refusal(f"{choice.giver} made Sand last: only {choice.giver} gives the lid "
                          f"or keeps it, not {action.player}")
        if "give" not in action.fields:
            raise Refusal("a sand_lid needs 'give': true (give the lid) or false (keep it)")
        give = action.fields["give"]
        if not isinstance(give, bool):
            raise Refusal(f"'give' must be true or false, not {json_shown(give)}")

    def _verify_turn(self, state: PubChicagoState, action: Action) -> Turn:
        rnd = state.round
        turn = rnd.turn
        if action.type == "announce" and action.player != rnd.leader:
            raise Refusal(f"only the leader {rnd.leader} announces, not {action.player}")
        if action.type == "announce" and rnd.announcement is not None:
            raise Refusal(f"{rnd.leader} has already announced this throw round")
        if action.player != turn.player:
            due = " (the announcement is due)" if turn.over else ""
            raise Refusal(f"it is {turn.player}'s turn{due}, not {action.player}'s")
        if action.type != "roll" and turn.throws == 0:
            raise Refusal(f"{turn.player} has not thrown yet")
        if action.type != "roll" and turn.must_throw:
            raise Refusal("two sixes were turned: the next throw must be made first")
        if action.type != "announce" and turn.over:
            raise Refusal(f"{turn.player}'s throwing is over: the announcement is due")
        return turn

    def _verify_roll(self, state: PubChicagoState, turn: Turn, action: Action) -> None:
        dice = action.need_dice()
        limit = state.round.limit(turn.player)
        if turn.throws >= limit:
            raise Refusal(f"the leader {state.round.leader} threw {limit} time"
                          f"{'' if limit == 1 else 's'}: that caps this throw round")
        want = turn.to_throw()
        if want == 0:
            raise Refusal("all three dice are set aside: nothing is left to throw")
        if len(dice) != want:
            aside = f" ({len(turn.kept)} set aside)" if turn.kept else ""
            raise Refusal(f"this throw takes {counted_dice(want)}{aside}, "
                          f"not {len(dice)}")

    def _verify_set_aside(self, state: PubChicagoState, turn: Turn, action: Action) -> None:
        dice = action.need_dice()
        if not dice:
            raise Refusal("name the dice to set aside")
        table = list(turn.loose)
        for die in dice:
            if die not in table:
                raise Refusal(f"{die} is not among the dice of the latest throw still on the "
                              f"table ({', '.join(map(str, turn.loose)) or 'none'})")
            table.remove(die)

    def _verify_turn_sixes(self, state: PubChicagoState, turn: Turn, action: Action) -> None:
        if turn.loose.count(6) < 2:
            raise Refusal("turning needs two sixes in the latest throw (not set aside)")
        if turn.throws >= state.round.limit(turn.player):
            raise Refusal("turning two sixes needs a throw left")

    def _verify_done(self, state: PubChicagoState, turn: Turn, action: Action) -> None:
        """Any thrower may stop after a throw (the checks of ``_verify_turn`` suffice)."""

    def _verify_announce(self, state: PubChicagoState, turn: Turn, action: Action) -> None:
        parse_announcement(action.fields, sand_allowed=state.match.variant == "tschigg")

    # -- act -------------------------------------------------------------------------------

    def act(self, state: PubChicagoState, action: Action) -> None:
        """Apply a verified action.

        >>> s = RULES.start(["A", "B"], {"variant": "basis", "match_length": 3})
        >>> RULES.act(s, Action(0, "roll", "A", (6, 6, 2)))
        >>> RULES.act(s, Action(1, "turn_sixes", "A"))
        >>> s.round.turn.kept, s.round.turn.to_throw()
        ([1], 2)
        """
        closing, state.may_close = state.may_close, None
        if action.type == "done" and closing == action.player:
            return
        # The Sand lid stays given unless its giver keeps it with the very next action.
        sand_lid, state.sand_lid = state.sand_lid, None
        player = action.player or ""
        if action.type == "sand_lid":
            assert sand_lid is not None   # verify saw it open
            if action.fields["give"] is False:
                self._keep_sand_lid(state, sand_lid)
        elif action.type == "leader":
            state.round = _new_round(state, player, 1)
            state.drawn = True
        elif action.type == "roll":
            self._roll(state, action.need_dice())
        elif action.type == "set_aside":
            self._set_aside(state.round.turn, action.need_dice())
        elif action.type == "turn_sixes":
            self._turn_sixes(state.round.turn)
        elif action.type == "done":
            self._stop(state, by_itself=False)
        else:
            self._announce(state, parse_announcement(action.fields, sand_allowed=True))

    def _roll(self, state: PubChicagoState, dice: tuple[int, ...]) -> None:
        rnd, turn = state.round, state.round.turn
        state.started = True
        turn.throws += 1
        turn.loose = list(dice)
        turn.must_throw = False
        if is_chicago(dice):
            # Three ones in one throw beat everything: nothing is left to throw for.
            turn.chicago = True
            if state.match.variant == "bayrisch":
                # Out at once, but the others finish the throw round even if one (or
                # none) is left: the game ends when the round is settled.
                rnd.chicago_out.append(turn.player)
                rnd.events.append(chicago_out(state.match, turn.player))
            self._stop(state, by_itself=True)
        elif turn.throws >= rnd.limit(turn.player):
            self._stop(state, by_itself=True)

    @staticmethod
    def _set_aside(turn: Turn, dice: tuple[int, ...]) -> None:
        for die in dice:
            turn.loose.remove(die)
            turn.kept.append(die)

    @staticmethod
    def _turn_sixes(turn: Turn) -> None:
        # One six becomes a one and is set aside; the other goes back into the cup with
        # every die not set aside, and the next throw (of all of them) must be made.
        turn.loose.remove(6)
        turn.kept.append(1)
        turn.must_throw = True

    def _stop(self, state: PubChicagoState, by_itself: bool) -> None:
        """The current player's throwing is over: record the result and move on (after
        the leader, the announcement is due first)."""
        rnd, turn = state.round, state.round.turn
        rnd.results.append(Result(turn.player, turn.dice(), turn.chicago, turn.throws))
        if turn.player == rnd.leader:
            turn.over = True
            rnd.cap = turn.throws
        else:
            self._next_thrower(state)
        if by_itself:
            state.may_close = turn.player

    def _announce(self, state: PubChicagoState, announcement: Announcement,
                  live: bool = True) -> None:
        leader, stops = state.round.leader, not state.round.turn.over
        if stops:
            self._stop(state, by_itself=False)  # announcing ends the leader's throwing
        state.round.announcement = announcement
        self._next_thrower(state)
        if stops and live:
            state.may_close = leader  # a done after such an announcement changes nothing

    def _next_thrower(self, state: PubChicagoState) -> None:
        rnd = state.round
        rnd.pos += 1
        if rnd.pos < len(rnd.order):
            rnd.turn = Turn(rnd.order[rnd.pos])
        else:
            self._close_round(state)

    def _close_round(self, state: PubChicagoState, give_sand_lid: bool = True) -> None:
        rnd = state.round
        announcement = rnd.announcement or DEFAULT_ANNOUNCEMENT
        giving = sand_giving(state.match, rnd.results, announcement) if give_sand_lid else None
        before = copy.deepcopy(state.match) if giving else None
        leader, lines = settle(state.match, rnd.results, announcement, bool(rnd.chicago_out),
                               give_sand_lid)
        state.rounds_played += 1
        state.last_round = _round_json(rnd, announcement) | {"outcome": rnd.events + lines}
        if leader is not None:
            state.round = _new_round(state, leader, rnd.number + 1)
        if giving and before is not None:
            state.sand_lid = SandLid(giving[0], giving[1], before, rnd)

    def _keep_sand_lid(self, state: PubChicagoState, sand_lid: SandLid) -> None:
        """The giver keeps the Sand lid: the round is settled again from before, without
        the gift (which may have ended the game, or taken the giver out of it)."""
        state.match, state.round = sand_lid.before, sand_lid.closed
        state.rounds_played -= 1
        self._close_round(state, give_sand_lid=False)

    def turn_key(self, state: PubChicagoState) -> Any:
        """A turn is one player's throws in one throw round of the game.

        >>> RULES.turn_key(RULES.start(["A", "B"], {"variant": "basis", "match_length": 3}))
        (0, 0)
        """
        return (state.rounds_played, state.round.pos)

    def end_turn(self, state: PubChicagoState) -> bool:
        """End the current turn as it stands; a leader who had not announced yet gets the
        default announcement (ones 100, sixes 60, high: decision).

        >>> s = RULES.start(["A", "B"], {"variant": "basis", "match_length": 3})
        >>> RULES.end_turn(s)
        False
        """
        if state.finished or state.round.turn.throws == 0:
            return False
        state.may_close = None
        rnd = state.round
        if rnd.turn.player == rnd.leader:
            rnd.defaulted = True
            self._announce(state, DEFAULT_ANNOUNCEMENT, live=False)
        else:
            self._stop(state, by_itself=False)
        return True

    # -- describe --------------------------------------------------------------------------

    def seated(self, state: PubChicagoState) -> Sequence[str]:
        """Every player, in seat order (nobody joins or leaves Pub Chicago).

        >>> RULES.seated(RULES.start(["A", "B"], {"variant": "basis", "match_length": 3}))
        ['A', 'B']
        """
        return state.match.seats

    def current_player(self, state: PubChicagoState) -> str | None:
        """Who acts next: the thrower, or the leader while the announcement is due.

        >>> s = RULES.start(["A", "B"], {"variant": "basis", "match_length": 3})
        >>> RULES.act(s, Action(0, "roll", "A", (2, 3, 4)))
        >>> RULES.act(s, Action(1, "done", "A"))
        >>> RULES.current_player(s), RULES.view(s)["next"]["actions"]
        ('A', ['announce'])
        """
        return None if state.finished else state.round.turn.player

    def view(self, state: PubChicagoState) -> dict[str, Any]:
        """The state as JSON for the scoreboard and the control page.

        >>> s = RULES.start(["A", "B"], {"variant": "basis", "match_length": 3})
        >>> RULES.view(s)["next"]
        {'player': 'A', 'actions': ['leader', 'roll'], 'dice': 3, 'throw': 1, 'throws_left': 3}
        """
        match = state.match
        return {
            "finished": state.finished,
            "winner": None,
            "loser": match.loser,
            "players": [_player_json(state, p) for p in match.seats],
            "next": _next_json(state),
            "variant": match.variant,
            "phase": match.phase,
            "pot": match.pot if match.variant != "basis" else None,
            "lids_in_game": match.lids_in_game if match.variant != "basis" else None,
            "search": _search_json(match),
            "round": None if state.finished else _round_json(state.round, state.round.announcement),
            "rounds_played": state.rounds_played,
            "last_round": state.last_round,
            # Whether the first leader was drawn by lot: a second draw stays legal (a game
            # file may hold one), but the control page offers one draw only, and the
            # table's lot gives a draw taken back by Undo back the same (web.table).
            "leader_drawn": state.drawn,
            # Tschigg: the Sand lid just given, which its giver may still keep.
            "sand_lid": None if state.sand_lid is None else {
                "giver": state.sand_lid.giver, "taker": state.sand_lid.taker},
        }

    def help(self, options: Mapping[str, Any]) -> list[str]:
        """The rules, options and decisions in force, one line each.

        >>> any("Sand" in line for line in RULES.help({"variant": "tschigg"}))
        True
        """
        return help_lines(options)


def _round_json(rnd: ThrowRound, announcement: Announcement | None) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "leader": rnd.leader,
        "order": list(rnd.order),
        "announcement": None if announcement is None else announcement.to_json(),
        "announced": None if announcement is None else _announced(announcement, rnd.cap),
        "default_announcement": rnd.defaulted,
        "cap": rnd.cap if rnd.announcement is not None or rnd.turn.over else None,
        "results": [_result_json(r, announcement) for r in rnd.results],
        **_standing(rnd.results, announcement),
        "out_by_chicago": list(rnd.chicago_out),
        "turn": None if not rnd.order or rnd.pos >= len(rnd.order) else _turn_json(rnd.turn),
    }


def _turn_json(turn: Turn) -> dict[str, Any]:
    # After two sixes were turned the loose dice are back in the cup: none lie on the table.
    return {"player": turn.player, "throws": turn.throws, "kept": list(turn.kept),
            "loose": [] if turn.must_throw else list(turn.loose),
            "must_throw": turn.must_throw}


def _standing(results: Sequence[Result], announcement: Announcement | None) -> dict[str, Any]:
    """Who is best and worst of the throw round so far (the scoreboard's highlight)."""
    if announcement is None or not results:
        return {"best": None, "worst": None}
    if announcement.sand:
        made, missed = sand_outcome(results)
        worst = missed if missed is not None else results[-1]
        return {"best": made.player if made else None, "worst": worst.player}
    best, worst = best_and_worst(results, announcement)
    return {"best": best.player, "worst": worst.player}


def _announced(announcement: Announcement, cap: int) -> str:
    """What the scoreboard shows above the throw round, the cap included (seed 002:
    "Einser 100 · Sechser 60 · Hoch · auf 1")."""
    return f"{announcement.text()} · up to {cap} throw{'' if cap == 1 else 's'}"


def _result_json(result: Result, announcement: Announcement | None) -> dict[str, Any]:
    return {"player": result.player, "dice": list(result.dice), "throws": result.throws,
            "chicago": result.chicago, "sand": is_sand(result.dice, result.chicago),
            "value": None if announcement is None else value(result.dice, announcement)}


def _player_json(state: PubChicagoState, player: str) -> dict[str, Any]:
    match = state.match
    key = "strokes" if match.variant == "basis" else "lids"
    return {"name": player, "score": match.score(player), key: match.score(player),
            "status": match.status(player)}


def _search_json(match: Match) -> dict[str, Any] | None:
    if match.variant != "basis":
        return None
    return {"number": len(match.losers) + (0 if match.finished else 1),
            "match_length": match.match_length, "tie_break": match.tie_break,
            "players": list(match.search_players), "losers": list(match.losers)}


def _next_json(state: PubChicagoState) -> dict[str, Any]:
    if state.finished:
        # A Sand lid given away may have ended the game: its giver may still keep it.
        return {"player": None, "actions": ["sand_lid"] if state.sand_lid else [], "dice": 0,
                "throw": None, "throws_left": 0}
    rnd, turn = state.round, state.round.turn
    left = 0 if turn.over else rnd.limit(turn.player) - turn.throws
    dice = turn.to_throw() if left > 0 else 0
    return {"player": turn.player, "actions": _legal_types(state, turn, left, dice),
            "dice": dice, "throw": turn.throws + 1 if dice else None, "throws_left": left}


def _legal_types(state: PubChicagoState, turn: Turn, left: int, dice: int) -> list[str]:
    leads = turn.player == state.round.leader
    if turn.over:
        return ["announce"]
    if turn.throws == 0:
        return ["leader", "roll"] if not state.started else \
            ["roll"] + (["sand_lid"] if state.sand_lid else [])
    if turn.must_throw:
        return ["roll"]
    actions = ["roll"] if dice else []
    if turn.loose:
        actions.append("set_aside")
    if turn.loose.count(6) >= 2:
        actions.append("turn_sixes")
    return actions + ["done"] + (["announce"] if leads else [])


RULES = PubChicagoRules()


def random_action(game: Any, rng: random.Random) -> dict[str, Any]:
    """A legal action for the game's current state: a plausible player who keeps good
    dice now and then, for benchmarks and property tests.

    >>> from scorer import new_game
    >>> g = new_game("pub_chicago", ["A", "B"])
    >>> g.apply(random_action(g, random.Random(1)))
    """
    state: PubChicagoState = game.raw_state
    if state.finished and state.sand_lid is None:
        raise ValueError("the game is over: no action is legal")
    if state.may_close is not None and rng.random() < 0.1:
        return {"type": "done", "player": state.may_close}  # the redundant done is accepted
    if state.sand_lid is not None and (state.finished or rng.random() < 0.5):
        return {"type": "sand_lid", "player": state.sand_lid.giver, "give": rng.random() < 0.5}
    nxt = _next_json(state)
    player: str = nxt["player"]
    kinds = [k for k in nxt["actions"]
             if k != "sand_lid" and (k != "leader" or rng.random() < 0.3)]
    kind = "roll" if "roll" in kinds and rng.random() < 0.5 else rng.choice(kinds)
    if kind == "leader":
        return {"type": "leader", "player": rng.choice(list(state.match.seats))}
    if kind == "roll":
        return {"type": "roll", "player": player,
                "dice": [rng.randint(1, 6) for _ in range(nxt["dice"])]}
    if kind == "set_aside":
        loose = state.round.turn.loose
        return {"type": "set_aside", "player": player,
                "dice": rng.sample(loose, rng.randint(1, len(loose)))}
    if kind == "announce":
        return {"type": "announce", "player": player, **_random_announcement(state, rng)}
    return {"type": kind, "player": player}


def _random_announcement(state: PubChicagoState, rng: random.Random) -> dict[str, Any]:
    if state.match.variant == "tschigg" and rng.random() < 0.2:
        return {"sand": True}
    return {"ones": rng.choice([100, 1]), "sixes": rng.choice([60, 6]),
            "order": rng.choice(["high", "low"])}
