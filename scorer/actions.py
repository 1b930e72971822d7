"""Actions as small value objects, parsed and checked for shape before any rule sees them."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, TypeGuard

from .errors import Refusal, json_kind, json_shown

def parse_dice(value: Any, what: str = "dice") -> tuple[int, ...]:
    """Check a list of die values and return it as a tuple.

    >>> parse_dice([6, 1])
    (6, 1)
    >>> parse_dice([7, 1])
    Traceback (most recent call last):
    ...
    scorer.errors.Refusal: die value 7 is outside 1..6
    """
    if not isinstance(value, (list, tuple)):
        raise Refusal(f"{what} must be a list of die values 1..6, not {json_shown(value)}")
    for die in value:
        if isinstance(die, bool) or not isinstance(die, int):
            raise Refusal(f"die value {json_shown(die)} is not a whole number 1..6")
        if not 1 <= die <= 6:
            raise Refusal(f"die value {die} is outside 1..6")
    return tuple(value)


LONGEST_NAME = 40
"""The most characters a player's name may have (a scoreboard column must hold it)."""


def is_name(value: Any) -> TypeGuard[str]:
    """Whether ``value`` can be a player's name: a string of 1 to 40 characters, not only
    spaces, and text (JSON can escape a lone surrogate, which no file or page can carry).

    >>> is_name("Aino"), is_name("  "), is_name("A\\ud800")
    (True, False, False)
    """
    if not isinstance(value, str) or not 1 <= len(value) <= LONGEST_NAME or not value.strip():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class Action:
    """One entry of a game's log.

    ``fields`` is the action exactly as given (extra keys such as ``reading`` or ``at``
    included, and ignored by the rules); ``dice`` is set when the action carries dice,
    after any correction in force.

    >>> a = Action.parse(3, {"type": "roll", "player": "Aino", "dice": [3, 4]})
    >>> a.type, a.player, a.dice
    ('roll', 'Aino', (3, 4))
    """

    index: int
    type: str
    player: str | None
    dice: tuple[int, ...] | None = None
    fields: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def parse(cls, index: int, raw: Any) -> "Action":
        """Check the shape common to every action (a JSON object with a ``type``)."""
        if not isinstance(raw, Mapping):
            raise Refusal(f"an action must be a JSON object, not {json_kind(raw)}")
        kind = raw.get("type")
        if kind is None or kind == "":
            raise Refusal("the action has no 'type'")
        if not isinstance(kind, str):
            raise Refusal(f"an action's 'type' is a word such as 'roll', not {json_shown(kind)}")
        player = raw.get("player")
        if player is not None and not isinstance(player, str):
            raise Refusal(f"'player' must be a name, not {json_shown(player)}")
        dice = parse_dice(raw["dice"]) if "dice" in raw else None
        return cls(index, kind, player, dice, MappingProxyType(dict(raw)))

    def get(self, key: str, default: Any = None) -> Any:
        """A field of the action as given."""
        return self.fields.get(key, default)

    def with_dice(self, dice: tuple[int, ...]) -> "Action":
        """The same action with corrected dice."""
        return Action(self.index, self.type, self.player, dice, self.fields)

    def need_dice(self) -> tuple[int, ...]:
        """The dice of an action that must carry them."""
        if self.dice is None:
            raise Refusal(f"a {self.type} needs 'dice'")
        return self.dice
