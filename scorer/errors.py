"""The errors of the rules engines: every one is a ``ValueError`` that names what was wrong."""
from __future__ import annotations

import json
from typing import Any, Mapping


class GameError(ValueError):
    """Base of every scorer error."""


class GameFileError(GameError):
    """A game file (or the setup of a new game) is broken: its message names the key or index.

    >>> str(GameFileError("options.target: 1234 is not one of 10000, 5000"))
    'options.target: 1234 is not one of 10000, 5000'
    """


class IllegalAction(GameError):
    """An action that the rules refuse; the state is unchanged.

    ``index`` is the action's place in the game's log (where it would go when refused
    live), ``action`` the action as given, ``reason`` why it is refused.

    >>> e = IllegalAction(4, {"type": "roll", "player": "Aino", "dice": [7, 1]},
    ...                   "die value 7 is outside 1..6")
    >>> str(e)
    'action 4 (roll by Aino): die value 7 is outside 1..6'
    """

    def __init__(self, index: int | None, action: Mapping[str, Any] | None, reason: str) -> None:
        self.index = index
        self.action = dict(action) if isinstance(action, Mapping) else action
        self.reason = reason
        super().__init__(f"{describe(index, action)}: {reason}")


def with_article(noun: str) -> str:
    """``noun`` after "a" or "an", for messages.

    >>> with_article("exchange"), with_article("roll")
    ('an exchange', 'a roll')
    """
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words, after "a" or "an", for messages.

    >>> json_kind(None), json_kind([1]), json_kind("x"), json_kind(2.5)
    ('null', 'a list', 'a string', 'a number')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    kinds = {dict: "an object", list: "a list", str: "a string", int: "a number",
             float: "a number"}
    return kinds.get(type(value), with_article(type(value).__name__))


def json_shown(value: object) -> str:
    """A value given in a file or a request, as a message shows it: a string in quotes,
    anything else as JSON writes it (``true``, ``null``, ``["B"]``), not as Python does.

    >>> json_shown("roll"), json_shown(True), json_shown(None), json_shown(["B", 1.5])
    ("'roll'", 'true', 'null', '["B", 1.5]')
    """
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):   # not JSON (a tuple of sets, NaN from Python code)
        return repr(value)


class Refusal(GameError):
    """Raised by a family's rules with just the reason; the game wraps it in ``IllegalAction``."""


def describe(index: int | None, action: Any) -> str:
    """A short name of an action for messages: ``action 4 (roll by Aino)``."""
    where = "action" if index is None else f"action {index}"
    if not isinstance(action, Mapping):
        return where
    kind = action.get("type")
    if kind is None or kind == "":
        kind = "action with no type"
    elif not isinstance(kind, str):
        kind = f"action of type {json_shown(kind)}"
    # A trick names its winner rather than a player.
    player = action.get("player", action.get("winner"))
    return f"{where} ({kind} by {player})" if isinstance(player, str) else f"{where} ({kind})"
