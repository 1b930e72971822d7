"""What every family's rules provide to the game: verify an action, act on it, describe the state."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Hashable, Mapping, Sequence, TypeVar

from .actions import Action

S = TypeVar("S")


@dataclass(frozen=True)
class OptionWords:
    """How the start form names an option and each of its values, in the rule book's
    words rather than the game file's keys.

    >>> OptionWords("Three 1s score", ("1000", "300 (Greed)")).values[1]
    '300 (Greed)'
    """

    label: str
    #: one per value of the option, in the order of ``Rules.options`` (default first).
    values: tuple[str, ...]


class Rules(ABC, Generic[S]):
    """One game family. States are plain mutable objects owned by the game.

    The game calls ``verify`` (which must not change the state and raises
    ``Refusal`` with the reason) and only then ``act``. Undo and corrections never
    reach a family: the game replays its log from ``start`` instead.
    """

    family: ClassVar[str]
    #: the family's name in the rule book and on the pages ("Pub Chicago").
    title: ClassVar[str]
    #: option key -> allowed values, the default first (GAMEFILE.md).
    options: ClassVar[Mapping[str, tuple[Any, ...]]]
    #: option key -> (another option, the value it needs): an option that means
    #: something only with that value (Pub Chicago's match length, in Basis alone).
    option_needs: ClassVar[Mapping[str, tuple[str, Any]]] = {}
    #: option key -> how the start form says it (every option has them).
    option_words: ClassVar[Mapping[str, OptionWords]] = {}
    #: the action types of this family besides undo and correct.
    action_types: ClassVar[frozenset[str]]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 40

    @abstractmethod
    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> S:
        """The state before any action."""

    @abstractmethod
    def verify(self, state: S, action: Action) -> None:
        """Raise ``Refusal`` saying why ``action`` is illegal now; change nothing."""

    @abstractmethod
    def act(self, state: S, action: Action) -> None:
        """Apply a verified action to ``state`` in place."""

    @abstractmethod
    def end_turn(self, state: S) -> bool:
        """End the current turn as it stands (a correction made the rest of it illegal).

        Returns False when the current player's turn had not begun (nothing ended).
        """

    @abstractmethod
    def seated(self, state: S) -> Sequence[str]:
        """Every player of the game, joined ones included, in seat order."""

    @abstractmethod
    def current_player(self, state: S) -> str | None:
        """Who acts next (None when the game is over or anyone may act)."""

    @abstractmethod
    def view(self, state: S) -> dict[str, Any]:
        """The state as JSON: at least ``finished``, ``winner``, ``loser``, ``players``
        (``[{"name", "score"}]``) and ``next`` (``{"player", "actions", "dice"}``)."""

    def turn_key(self, state: S) -> Hashable:
        """Names the turn under way (say, a turn counter), so that when a correction
        breaks a turn the game drops exactly the rest of that turn. None: the game falls
        back to dropping the player's following actions."""
        return None

    def help(self, options: Mapping[str, Any]) -> list[str]:
        """The rules, options and decisions in force, one line each, for the help text."""
        return []

    def as_stored(self) -> "Rules[S]":
        """These rules as they checked the actions of a log dicetray stored: a check added
        since refuses some an earlier version took, and a family's game stored then is
        replayed without it (``load_game(..., stored=True)``), while each new action is
        checked by every rule as it comes. By default the rules themselves."""
        return self
