"""A game: players, options and an append-only log; its state is the log replayed.

Undo and corrections are appended like any action. They change which actions are in
force (or the dice of an earlier roll), so the game replays the log from the start;
an action a correction made illegal is dropped with the rest of its player's turn,
that turn ends as it stands, and later turns replay normally.
"""
from __future__ import annotations

import importlib
import pickle
from dataclasses import dataclass
from typing import Any, Hashable, Mapping, Sequence

from .actions import LONGEST_NAME, Action, is_name, parse_dice
from .errors import GameFileError, IllegalAction, Refusal, json_shown, with_article
from .rules import Rules

FORMAT = "dicetray-game/1"
FILE_KEYS = ("format", "family", "options", "players", "actions")
"""The keys of a game file (GAMEFILE.md); any other is refused by name."""
FAMILIES = ("sum_chicago", "pub_chicago", "ten_thousand", "card_chicago")


def rules_for(family: Any) -> Rules[Any]:
    """The rules of a family, by its key in GAMEFILE.md."""
    if family not in FAMILIES:
        raise GameFileError(f"family: {json_shown(family)} is not one of {', '.join(FAMILIES)}")
    module = importlib.import_module(f"scorer.{family}")
    rules: Rules[Any] = module.RULES
    return rules


def _same(a: Any, b: Any) -> bool:
    # JSON true is not 1 here: an option value must match in type as well as value.
    return type(a) is type(b) and a == b


def resolve_options(rules: Rules[Any], given: Any, from_file: bool = False) -> dict[str, Any]:
    """Every option of the family that means something with the others, the given ones
    checked, the rest at their default.

    An option that means something only with another option's value (``option_needs``:
    Pub Chicago's match length, Basis alone) is refused when given with another value,
    naming both; left out, it is not in force. A game file (``from_file``) may still carry
    one: every game file written before this refusal carried its match length, which
    never changed a Bayrisch or Tschigg game, so it is dropped instead of refusing the file.

    >>> from scorer.pub_chicago import RULES as PUB
    >>> resolve_options(PUB, {"variant": "tschigg"})
    {'variant': 'tschigg'}
    >>> resolve_options(PUB, {"variant": "bayrisch", "match_length": 5})
    Traceback (most recent call last):
    ...
    scorer.errors.GameFileError: options.match_length: 'loser searches in a match' is an option of variant Basis (strokes) alone, not of Bayrisch (lids)
    >>> resolve_options(PUB, {"variant": "bayrisch", "match_length": 3}, from_file=True)
    {'variant': 'bayrisch'}
    """
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise GameFileError("options: must be a JSON object")
    for key in given:
        if key not in rules.options:
            known = ", ".join(rules.options)
            raise GameFileError(f"options.{key}: unknown option for {rules.family} (known: {known})")
    options: dict[str, Any] = {}
    for key, allowed in rules.options.items():
        value = given.get(key, allowed[0])
        if not any(_same(value, a) for a in allowed):
            names = ", ".join(json_shown(a) for a in allowed)
            raise GameFileError(f"options.{key}: {json_shown(value)} is not one of {names}")
        options[key] = value
    for key, (other, needed) in rules.option_needs.items():
        if _same(options[other], needed):
            continue
        del options[key]
        if key in given and not from_file:
            raise GameFileError(f"options.{key}: {_needs_words(rules, key, other, needed, options[other])}")
    return options


def _needs_words(rules: Rules[Any], key: str, other: str, needed: Any, chosen: Any) -> str:
    """Why ``key`` is refused: it is chosen only with ``other`` at ``needed``, not ``chosen``."""
    words = rules.option_words.get(key)
    label = words.label if words else key
    other_words = rules.option_words.get(other)

    def said(value: Any) -> str:
        if other_words is None:
            return json_shown(value)
        return other_words.values[list(rules.options[other]).index(value)]

    return (f"'{label}' is an option of {other} {said(needed)} alone, "
            f"not of {said(chosen)}")


def check_players(rules: Rules[Any], players: Any) -> tuple[str, ...]:
    """Names in seat order: 1 to 40 characters each, unique, as many as the family allows."""
    if not isinstance(players, (list, tuple)):
        raise GameFileError("players: must be a list of names")
    for i, name in enumerate(players):
        check_name(name, f"players[{i}]")
    if len(set(players)) != len(players):
        raise GameFileError("players: names must be unique")
    if not rules.min_players <= len(players) <= rules.max_players:
        raise GameFileError(
            f"players: {rules.title} takes {rules.min_players} to {rules.max_players} players, "
            f"not {len(players)}")
    return tuple(players)


def check_name(name: Any, where: str = "player") -> str:
    """A player's name: a string of 1 to 40 characters, not only spaces, that is text."""
    if not is_name(name):
        raise GameFileError(f"{where}: a name is 1 to {LONGEST_NAME} characters, not {json_shown(name)}")
    return name


@dataclass(frozen=True)
class Dropped:
    """An action a correction made illegal, and why."""

    index: int
    type: str
    player: str | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"action": self.index, "type": self.type, "player": self.player,
                "reason": self.reason}


@dataclass(frozen=True)
class Replayed:
    """The outcome of replaying a log: the state, what was dropped, where turns were ended."""

    state: Any
    dropped: list[Dropped]
    forced: set[int]
    turns: dict[int, Hashable]
    snapshot: "Snapshot | None"
    #: the turn each logged action was made in, from now on, when the replay gives the game
    #: back as it was before an action (:meth:`Game._before`)
    logged: "list[Hashable] | None" = None


#: A replay keeps a copy of its state every this many actions near the end of the log,
#: so that an undo or a correction of a recent roll replays only the actions after it.
SNAPSHOT_EVERY = 512


@dataclass(frozen=True)
class Snapshot:
    """A committed replay's state after the first ``position`` actions in force."""

    order: tuple[int, ...]
    blob: bytes

    @property
    def position(self) -> int:
        return len(self.order)

    @classmethod
    def take(cls, order: Sequence[int], state: Any, began: dict[Hashable, Hashable]
             ) -> "Snapshot | None":
        try:
            # A pickle round trip copies a state several times faster than deepcopy.
            return cls(tuple(order), pickle.dumps((state, began), pickle.HIGHEST_PROTOCOL))
        except (pickle.PicklingError, TypeError, AttributeError):
            return None

    def matches(self, order: Sequence[int]) -> bool:
        return tuple(order[: self.position]) == self.order

    def restore(self) -> tuple[Any, dict[Hashable, Hashable]]:
        state, began = pickle.loads(self.blob)
        return state, began


class Game:
    """One game of a family, with its log.

    >>> g = Game("sum_chicago", ["Aino", "Bertil"])
    >>> g.apply({"type": "roll", "player": "Aino", "dice": [1, 1]})
    >>> g.state()["players"][0]["score"]
    2
    >>> g.is_legal({"type": "roll", "player": "Aino", "dice": [1, 1]})
    False
    """

    def __init__(self, family: str, players: Sequence[str],
                 options: Mapping[str, Any] | None = None, from_file: bool = False) -> None:
        self.rules = rules_for(family)
        self.family = family
        self.players = check_players(self.rules, players)
        # A game file may carry an option the rest of its options leave without meaning
        # (resolve_options); a new game may not.
        self.options = resolve_options(self.rules, options, from_file)
        self._log: list[dict[str, Any]] = []
        self._parsed: list[Action] = []
        self._turns: list[Hashable] = []     # the turn each action was made in, when it came
        self._in_force: list[int] = []      # log indices not undone (actions and corrections)
        self._dropped: list[Dropped] = []   # from the latest replay
        self._forced: set[int] = set()      # actions before which the latest replay ended a turn
        self._kept: dict[int, bytes] = {}   # a correction's index -> the game before it
        self._snapshot: Snapshot | None = None
        self._state: Any = self.rules.start(self.players, self.options)
        # The rules an action is checked by: ``rules.as_stored()`` while a stored log is
        # replayed (load_game), else the rules themselves.
        self._checking: Rules[Any] = self.rules

    # -- reading ---------------------------------------------------------------------------

    @property
    def log(self) -> list[dict[str, Any]]:
        """The actions as appended (a copy, lists inside it too)."""
        return [_copied(a) for a in self._log]

    def __len__(self) -> int:
        """How many actions the log holds (undo and correct included)."""
        return len(self._log)

    @property
    def raw_state(self) -> Any:
        """The family's own state object (read only)."""
        return self._state

    def seated(self) -> tuple[str, ...]:
        """Everyone at the table now, in seat order: those who joined too, and those who
        left (their names stay taken).

        >>> new_game("sum_chicago", ["Aino", "Bertil"]).seated()
        ('Aino', 'Bertil')
        """
        return tuple(self.rules.seated(self._state))

    def state(self) -> dict[str, Any]:
        """The state as JSON, as ``dicetray replay`` prints it."""
        view = self.rules.view(self._state)
        # Every family says what happens next in one shape, a finished game included.
        nxt = view.get("next") or {"player": None, "actions": [], "dice": 0}
        view["next"] = nxt
        if isinstance(nxt, dict):
            extra = [t for t in ("undo", "correct") if self._can_take_back(t)]
            nxt["actions"] = list(nxt.get("actions", [])) + extra
        return {"family": self.family, **view, "options": dict(self.options),
                "dropped": [d.to_json() for d in self._dropped],
                "help": self.rules.help(self.options), "actions": len(self._log)}

    def in_force(self) -> list[int]:
        """The log indices of the actions and corrections that count now, in log order:
        not taken back by an undo, nor dropped after a correction.

        >>> g = Game("sum_chicago", ["Aino", "Bertil"])
        >>> for action in ({"type": "roll", "player": "Aino", "dice": [1, 1]},
        ...                {"type": "roll", "player": "Bertil", "dice": [2, 3]}, {"type": "undo"}):
        ...     g.apply(action)
        >>> g.in_force()
        [0]
        """
        dropped = {d.index for d in self._dropped}
        return [i for i in self._in_force if i not in dropped]

    def undo_target(self) -> int | None:
        """The log index an undo now would take back (``None``: there is nothing to undo).

        >>> g = Game("sum_chicago", ["Aino", "Bertil"])
        >>> g.apply({"type": "roll", "player": "Aino", "dice": [1, 1]})
        >>> g.undo_target()
        0
        """
        live = self.in_force()
        return live[-1] if live else None

    def _can_take_back(self, kind: str) -> bool:
        live = self.in_force()
        if kind == "undo":
            return bool(live)
        return any(self._parsed[i].type == "roll" for i in live)

    def to_file(self) -> dict[str, Any]:
        """The game file (GAMEFILE.md) of this game."""
        return {"format": FORMAT, "family": self.family, "options": dict(self.options),
                "players": list(self.players), "actions": self.log}

    # -- acting ----------------------------------------------------------------------------

    def check(self, raw: Any) -> None:
        """Raise ``IllegalAction`` if ``raw`` cannot be applied now; change nothing."""
        self._plan(raw)

    def is_legal(self, raw: Any) -> bool:
        """Whether ``raw`` can be applied now."""
        try:
            self._plan(raw)
        except IllegalAction:
            return False
        return True

    def apply(self, raw: Any) -> None:
        """Check ``raw`` and append it to the log; raises ``IllegalAction`` and changes nothing."""
        action, replayed = self._plan(raw)
        if action.type == "correct":
            self._kept[action.index] = self._keep()
        # A copy to the bottom: the caller's dice list, changed later, must not change the
        # log (and so the game file) while the game as scored stays as it was.
        self._log.append(_copied(raw))
        self._parsed.append(action)
        if replayed is not None and replayed.logged is not None:
            self._turns = list(replayed.logged)
        self._turns.append(self.rules.turn_key(self._state) if replayed is None else None)
        if action.type == "undo":
            self._in_force.remove(self._undo_target())
        else:
            self._in_force.append(action.index)
        if replayed is None:
            self.rules.act(self._state, action)
        else:
            self._state, self._dropped, self._forced = replayed.state, replayed.dropped, replayed.forced
            self._snapshot = replayed.snapshot
            # Keys from now on describe the game as replayed, so later replays compare
            # like with like.
            for i, key in replayed.turns.items():
                self._turns[i] = key

    def _keep(self) -> bytes:
        """The game as it is now, for an undo of the correction about to come
        (:meth:`_before`). Every family's state is plain data, which pickles (the
        replay's snapshots copy it so too)."""
        return pickle.dumps((self._state, self._dropped, self._forced, self._turns,
                             self._snapshot), pickle.HIGHEST_PROTOCOL)

    def _plan(self, raw: Any) -> tuple[Action, Replayed | None]:
        """Check an action; for undo and correct, the replayed state it leads to."""
        index = len(self._log)
        try:
            action = Action.parse(index, raw)
            if action.type == "undo":
                target = self._undo_target()
                # Taking back a correction gives back the game as it was before it: its
                # roll's dice, and every later action judged again with those.
                if self._parsed[target].type == "correct":
                    return action, self._before(target)
                order = [i for i in self._in_force if i != target]
                return action, self._replay(order, self._in_force.index(target))
            if action.type == "correct":
                return action, self._plan_correct(action)
            self._verify(action)
            return action, None
        except Refusal as exc:
            raise IllegalAction(index, raw if isinstance(raw, Mapping) else None, str(exc)) from None

    def _verify(self, action: Action, state: Any = None) -> None:
        state = self._state if state is None else state
        if action.type not in self.rules.action_types:
            known = ", ".join(sorted(self.rules.action_types | {"undo", "correct"}))
            raise Refusal(f"unknown action type {json_shown(action.type)} for {self.family} "
                          f"(known: {known})")
        if action.player is not None and action.type != "join":
            seated = self.rules.seated(state)
            if action.player not in seated:
                raise Refusal(f"unknown player {json_shown(action.player)} "
                              f"(players: {', '.join(seated)})")
        self._checking.verify(state, action)

    def _undo_target(self) -> int:
        target = self.undo_target()
        if target is None:
            raise Refusal("there is nothing to undo")
        return target

    def _plan_correct(self, action: Action) -> Replayed:
        target = action.get("action")
        if isinstance(target, bool) or not isinstance(target, int):
            raise Refusal("a correct needs 'action', the index of the roll in the log")
        if not 0 <= target < len(self._log):
            raise Refusal(f"there is no action {target} to correct (the log has {len(self._log)})")
        if self._parsed[target].type != "roll":
            raise Refusal(f"action {target} is {with_article(self._parsed[target].type)}, "
                          "not a roll")
        if target not in self._in_force or target in {d.index for d in self._dropped}:
            raise Refusal(f"action {target} is not in force (it was undone or dropped)")
        if "dice" not in action.fields:
            raise Refusal("a correct needs 'dice'")
        parse_dice(action.fields["dice"])
        replayed = self._replay(self._in_force + [action.index], self._in_force.index(target),
                                pending=action)
        for d in replayed.dropped:
            if d.index == target:
                raise Refusal(f"the corrected roll {target} is illegal: {d.reason}")
        return replayed

    def _before(self, index: int) -> "Replayed":
        """The game as it was before the correction at log ``index``: its state, drops and
        turns as kept when the correction came (a game is its log, so a game loaded from
        its file keeps the same).

        An undo of a correction gives this back. Replaying from the correction, as an undo
        of anything else does, is not enough: the correction's replay judged again which
        turn each later action belonged to, and what it dropped, and a replay from it
        compares with those judgements instead of the game before it."""
        state, dropped, forced, turns, snapshot = pickle.loads(self._kept[index])
        return Replayed(state, dropped, forced, {}, snapshot, turns + self._turns[index:])

    def _replay(self, order: Sequence[int], changed: int, pending: Action | None = None
                ) -> "Replayed":
        """Play the actions at ``order`` (log indices) from the start, corrections applied.

        The first ``changed`` positions of ``order`` are as they were when each action
        was checked live, so they are acted on without checking again.
        """
        parsed = self._parsed + ([pending] if pending is not None else [])
        dice: dict[int, tuple[int, ...]] = {}
        last_correction = -1
        for i in order:
            if parsed[i].type == "correct":
                dice[parsed[i].fields["action"]] = tuple(parsed[i].fields["dice"])
                last_correction = i
        # Where the last replay dropped an action or ended a turn early, the live checks
        # no longer describe what happened: from there on every action is checked again.
        irregular = {d.index for d in self._dropped} | self._forced
        trusted = min([changed, *(k for k, i in enumerate(order) if i in irregular)])
        rules = self.rules
        dropped: list[Dropped] = []
        dropping: str | None = None      # without turn keys: the player being dropped
        forced: set[int] = set()
        turns: dict[int, Hashable] = {}         # the turn each action was played in here
        first, state, began = self._resume(order, trusted)
        claimed = set(began.values())           # turns of the replay some logged turn began in
        snapshot: Snapshot | None = None
        for position in range(first, len(order)):
            i = order[position]
            if (position % SNAPSHOT_EVERY == 0 and position + 2 * SNAPSHOT_EVERY >= len(order)
                    and not dropped and not forced and position > first):
                snapshot = Snapshot.take(order[:position], state, began)
            action = parsed[i]
            if action.type == "correct":
                continue
            if i in dice:
                action = action.with_dice(dice[i])
            logged = self._turns[i] if i < len(self._turns) else None
            now = rules.turn_key(state)
            if logged is not None and i < last_correction:
                # Only actions logged before the latest correction can belong to a turn it
                # broke; later ones were checked against the corrected game when they came.
                if logged in began and began[logged] != now:
                    dropped.append(Dropped(i, action.type, action.player,
                                           "its turn had ended after a correction"))
                    continue
                if logged not in began and now in claimed and rules.end_turn(state):
                    # A new turn was logged here, but the corrected game is still in an
                    # earlier one (a farkle that now scores, say): that one ends as it stands.
                    forced.add(i)
                    now = rules.turn_key(state)
            if logged is not None and logged not in began:
                began[logged] = now
                claimed.add(now)
            turns[i] = now
            if position < trusted:
                rules.act(state, action)
                continue
            if logged is None and dropping is not None and action.player == dropping \
                    and i < last_correction:
                dropped.append(Dropped(i, action.type, action.player, "the rest of a dropped turn"))
                continue
            dropping = None
            reason = self._refusal(state, action)
            if reason is None:
                rules.act(state, action)
                continue
            current = rules.current_player(state)
            if (action.player is not None and current is not None and action.player != current
                    and rules.end_turn(state)):
                # The correction left the previous player's turn open (say, a second
                # throw is now due); it ends as it stands and this action goes on.
                forced.add(i)
                reason = self._refusal(state, action)
                if reason is None:
                    turns[i] = rules.turn_key(state)
                    if logged is not None:
                        began[logged] = turns[i]
                        claimed.add(turns[i])
                    rules.act(state, action)
                    continue
            dropped.append(Dropped(i, action.type, action.player, reason))
            turns.pop(i)
            dropping = action.player
            if action.player is not None and action.player == rules.current_player(state):
                rules.end_turn(state)
        return Replayed(state, dropped, forced, turns, snapshot or self._snapshot)

    def _resume(self, order: Sequence[int], trusted: int
                ) -> tuple[int, Any, dict[Hashable, Hashable]]:
        """Where a replay of ``order`` can start: the latest snapshot when the log before
        it is unchanged, else the beginning."""
        snap = self._snapshot
        if snap is not None and snap.position <= trusted and snap.matches(order):
            state, began = snap.restore()
            return snap.position, state, began
        return 0, self.rules.start(self.players, self.options), {}

    def _refusal(self, state: Any, action: Action) -> str | None:
        try:
            self._verify(action, state)
        except Refusal as exc:
            return str(exc)
        return None


def new_game(family: str, players: Sequence[str], options: Mapping[str, Any] | None = None) -> Game:
    """A new game; raises ``GameFileError`` naming a bad family, player list or option."""
    return Game(family, players, options)


def load_game(data: Any, stored: bool = False) -> Game:
    """A game from its game file (already parsed JSON), every action replayed and checked.

    ``stored``: the log is one dicetray kept, each action checked as it was stored, by the
    rules of the version that stored it; it is replayed as those rules checked it
    (``Rules.as_stored``), so a family's game outlives a check added since. The actions
    applied after it are checked by every rule.

    Raises ``GameFileError`` for a broken file and ``IllegalAction`` (naming the index)
    for an action the rules refuse.
    """
    if not isinstance(data, Mapping):
        raise GameFileError("a game file is a JSON object")
    # A misspelt key ("option") would otherwise be dropped without a word, and the game
    # replayed with other rules than the file meant.
    unknown = [key for key in data if key not in FILE_KEYS]
    if unknown:
        raise GameFileError(f"{unknown[0]!r}: not a key of a game file "
                            f"(its keys: {', '.join(FILE_KEYS)})")
    if data.get("format", FORMAT) != FORMAT:
        raise GameFileError(f"format: {json_shown(data.get('format'))} is not {FORMAT!r}")
    if "family" not in data:
        raise GameFileError("family: missing")
    if "players" not in data:
        raise GameFileError("players: missing")
    game = Game(data["family"], data["players"], data.get("options"), from_file=True)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise GameFileError("actions: must be a list")
    if stored:
        game._checking = game.rules.as_stored()
    try:
        for action in actions:
            game.apply(action)
    finally:
        game._checking = game.rules
    return game


def _copied(action: Mapping[str, Any]) -> dict[str, Any]:
    """An action (plain JSON-like data) copied with every list and object inside it.

    >>> raw = {"type": "roll", "player": "A", "dice": [1, 2]}
    >>> copy = _copied(raw); raw["dice"][0] = 6; copy["dice"]
    [1, 2]
    """
    return {key: _copied_value(value) for key, value in action.items()}


def _copied_value(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _copied_value(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copied_value(v) for v in value]
    return value
