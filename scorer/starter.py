"""Finding the starting player by one die each (RULES.md §1, Sum Chicago).

Every player throws one die, in list order; the highest starts. Players tied for the
highest throw again, only they and in their list order, as often as needed. The game's
player list then starts with the starter, seat order kept (rotated, never sorted).

A draw is a frozen value: a throw or a take-back gives a new draw. Whether a step is
legal is asked apart from taking it (``verify_throw`` / ``can_throw``, then ``throw``),
so a caller can refuse a request without changing anything.

>>> draw = StarterDraw(("Aino", "Bertil", "Cecilia"))
>>> draw.thrower
'Aino'
>>> for value in (4, 6, 6):          # Bertil and Cecilia tie at 6
...     draw = draw.throw(value)
>>> draw.thrower, draw.rounds[-1].throwers
('Bertil', ('Bertil', 'Cecilia'))
>>> draw = draw.throw(2).throw(5)    # the throw-off: Cecilia's 5 beats Bertil's 2
>>> draw.starter, draw.seating()
('Cecilia', ('Cecilia', 'Aino', 'Bertil'))

The draw is no game action: nothing of it goes into the game file (GAMEFILE.md).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .errors import json_shown

DIE_FACES = range(1, 7)


class DrawError(ValueError):
    """Base of the draw's refusals; the message names what was asked and why not."""


class BadDrawPlayers(DrawError):
    """The players a draw was asked for cannot draw (too few, a name twice, not a name)."""


class NotADieFace(DrawError):
    """A throw whose value no die shows.

    >>> str(NotADieFace("Aino's throw 7: a die shows 1 to 6"))
    "Aino's throw 7: a die shows 1 to 6"
    """


class DrawDecided(DrawError):
    """A throw asked for once the starter is found: nobody throws any more."""


class NothingToTakeBack(DrawError):
    """A take-back asked for before anyone has thrown."""


class DrawUndecided(DrawError):
    """The seating asked for before the starter is found."""


@dataclass(frozen=True)
class DrawRound:
    """One round of the draw: who throws in it (list order) and the values thrown so far.

    >>> r = DrawRound(("Aino", "Bertil", "Cecilia"), (5, 3, 5))
    >>> r.complete, r.highest
    (True, ('Aino', 'Cecilia'))
    >>> DrawRound(("Aino", "Bertil"), (5,)).next_thrower
    'Bertil'
    """

    throwers: tuple[str, ...]
    values: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether everyone in this round has thrown."""
        return len(self.values) == len(self.throwers)

    @property
    def next_thrower(self) -> str | None:
        """Who throws next in this round; None once it is complete."""
        return None if self.complete else self.throwers[len(self.values)]

    @property
    def highest(self) -> tuple[str, ...]:
        """Those who threw the highest value in this round, in list order (empty until
        the round is complete: a later thrower may still beat them)."""
        if not self.complete:
            return ()
        top = max(self.values)
        return tuple(p for p, v in zip(self.throwers, self.values) if v == top)

    @property
    def tied(self) -> tuple[str, ...]:
        """Those tied for the highest, who throw again; empty when one is highest alone."""
        top = self.highest
        return top if len(top) > 1 else ()


@dataclass(frozen=True)
class StarterDraw:
    """The draw for the starting player: the ``players`` in list order and every value
    thrown so far, ``throws``, in the order thrown (throw-offs included).

    Any draw that exists is consistent: the constructor refuses fewer than two players,
    a name twice, a value no die shows, and a throw after the starter was found.

    >>> StarterDraw(("Aino",))
    Traceback (most recent call last):
    ...
    scorer.starter.BadDrawPlayers: a draw needs two players or more, not ["Aino"]
    """

    players: tuple[str, ...]
    throws: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _check_players(self.players)
        for value in self.throws:
            if not _is_face(value):
                raise NotADieFace(f"throw {json_shown(value)}: a die shows 1 to 6")
        rounds, extra = _play(self.players, self.throws)
        if extra:
            raise DrawDecided(f"throws {json_shown(list(extra))} come after "
                              f"{rounds[-1].highest[0]} was found to start")

    # -- where the draw stands -------------------------------------------------------------

    @property
    def rounds(self) -> tuple[DrawRound, ...]:
        """The first round (everyone) and each throw-off after it, the latest last."""
        return _play(self.players, self.throws)[0]

    @property
    def thrower(self) -> str | None:
        """Who throws now; None once the starter is found."""
        return self.rounds[-1].next_thrower

    @property
    def starter(self) -> str | None:
        """The player who starts, once found (highest alone in a round); else None."""
        last = self.rounds[-1]
        top = last.highest
        return top[0] if len(top) == 1 else None

    @property
    def last_throw(self) -> tuple[str, int] | None:
        """The latest throw as ``(player, value)``, the one a take-back takes back."""
        for rnd in reversed(self.rounds):
            if rnd.values:
                return rnd.throwers[len(rnd.values) - 1], rnd.values[-1]
        return None

    def seating(self) -> tuple[str, ...]:
        """The player list rotated to begin with the starter, seat order kept.

        >>> StarterDraw(("Aino", "Bertil", "Cecilia"), (2, 1, 6)).seating()
        ('Cecilia', 'Aino', 'Bertil')
        """
        starter = self.starter
        if starter is None:
            raise DrawUndecided(f"nobody starts yet: {self.thrower} throws next")
        seat = self.players.index(starter)
        return self.players[seat:] + self.players[:seat]

    # -- throwing --------------------------------------------------------------------------

    def verify_throw(self, value: Any) -> None:
        """Raise why ``value`` cannot be the next throw; change nothing."""
        thrower = self.thrower
        if thrower is None:
            raise DrawDecided(f"throw {json_shown(value)}: {self.starter} starts already; nobody "
                              "throws any more")
        if not _is_face(value):
            raise NotADieFace(f"{thrower}'s throw {json_shown(value)}: a die shows 1 to 6")

    def can_throw(self, value: Any) -> bool:
        """Whether ``value`` can be the next throw.

        >>> StarterDraw(("Aino", "Bertil")).can_throw(0)
        False
        """
        try:
            self.verify_throw(value)
        except DrawError:
            return False
        return True

    def throw(self, value: Any) -> "StarterDraw":
        """The draw with the thrower's die showing ``value``."""
        self.verify_throw(value)
        return replace(self, throws=self.throws + (value,))

    # -- taking back -----------------------------------------------------------------------

    def verify_take_back(self) -> None:
        """Raise when there is no throw to take back; change nothing."""
        if not self.throws:
            raise NothingToTakeBack(f"no throw to take back: {self.thrower} throws first")

    def can_take_back(self) -> bool:
        """Whether there is a throw to take back."""
        return bool(self.throws)

    def take_back(self) -> "StarterDraw":
        """The draw without its latest throw (a misread or a mis-tap).

        >>> draw = StarterDraw(("Aino", "Bertil"), (3, 3, 5))    # Aino's 5 in the throw-off
        >>> draw.take_back().thrower, draw.take_back().last_throw
        ('Aino', ('Bertil', 3))
        """
        self.verify_take_back()
        return replace(self, throws=self.throws[:-1])

    # -- for the screens -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The draw as the screens draw it: each round's throws (``value`` None until
        thrown) and who tied in it, who throws now, the starter and the seating once
        found, and the latest throw."""
        last = self.last_throw
        starter = self.starter
        return {
            "players": list(self.players),
            "rounds": [{"throws": [{"player": p, "value": v} for p, v in _by_thrower(rnd)],
                        "tied": list(rnd.tied)} for rnd in self.rounds],
            "thrower": self.thrower,
            "starter": starter,
            "seating": list(self.seating()) if starter is not None else None,
            "last": None if last is None else {"player": last[0], "value": last[1]},
        }


def _by_thrower(rnd: DrawRound) -> list[tuple[str, int | None]]:
    """Each thrower of a round with their value, None for those still to throw."""
    values: list[int | None] = list(rnd.values)
    return list(zip(rnd.throwers, values + [None] * (len(rnd.throwers) - len(values))))


def _is_face(value: Any) -> bool:
    """Whether ``value`` is a whole number a die shows (a bool is no number here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in DIE_FACES


def _check_players(players: Any) -> None:
    """Refuse a player list that cannot draw: fewer than two, not names, a name twice."""
    if not isinstance(players, tuple) or not all(isinstance(p, str) and p for p in players):
        raise BadDrawPlayers(f"a draw's players are a tuple of names, not {json_shown(players)}")
    if len(players) < 2:
        raise BadDrawPlayers(f"a draw needs two players or more, not {json_shown(list(players))}")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise BadDrawPlayers(f"{', '.join(twice)} cannot draw twice: {json_shown(list(players))}")


def _play(players: tuple[str, ...],
          throws: tuple[int, ...]) -> tuple[tuple[DrawRound, ...], tuple[int, ...]]:
    """The rounds ``throws`` make, and any throws left over after the starter was found."""
    rounds: list[DrawRound] = []
    throwers, left = players, throws
    while True:
        rnd = DrawRound(throwers, left[:len(throwers)])
        rounds.append(rnd)
        left = left[len(throwers):]
        if not rnd.tied:     # still throwing, or one is highest alone
            return tuple(rounds), left
        throwers = rnd.tied
