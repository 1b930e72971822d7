"""Pub Chicago (RULES.md §2): what a result is worth and who is best and worst of a throw round.

Everything here is about three dice lying on the table; turns, lids and strokes live in
``scorer.pub_chicago``.

>>> value((6, 3, 5), Announcement(ones=100, sixes=60, order="high"))
68
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .errors import Refusal, json_shown

ONES = (100, 1)
SIXES = (60, 6)
ORDERS = ("high", "low")


@dataclass(frozen=True)
class Announcement:
    """The leader's announcement for a whole throw round: what ones and sixes count and
    whether the highest (``high``) or lowest (``low``) value is best; or Sand (Tschigg).

    >>> Announcement(ones=1, sixes=60, order="high").text()
    'ones 1 · sixes 60 · high'
    >>> Announcement(sand=True).text()
    'Sand'
    """

    ones: int = 100
    sixes: int = 60
    order: str = "high"
    sand: bool = False

    def text(self) -> str:
        """The announcement as the scoreboard shows it above the throw round."""
        if self.sand:
            return "Sand"
        return f"ones {self.ones} · sixes {self.sixes} · {self.order}"

    def to_json(self) -> dict[str, Any]:
        """The announcement as the game file's ``announce`` fields.

        >>> Announcement(sand=True).to_json()
        {'sand': True}
        """
        if self.sand:
            return {"sand": True}
        return {"ones": self.ones, "sixes": self.sixes, "order": self.order}


#: Used only when a correction ends the leader's turn before they announced (decision).
DEFAULT_ANNOUNCEMENT = Announcement()


def _pick(fields: Mapping[str, Any], key: str, allowed: tuple[Any, ...]) -> Any:
    # JSON true is not 1: a value must match in type as well as in value.
    if key not in fields:
        raise Refusal(f"an announcement needs '{key}' ({' or '.join(map(str, allowed))})")
    given = fields[key]
    for choice in allowed:
        if type(given) is type(choice) and given == choice:
            return choice
    raise Refusal(f"'{key}' must be {' or '.join(map(repr, allowed))}, not {json_shown(given)}")


def parse_announcement(fields: Mapping[str, Any], sand_allowed: bool) -> Announcement:
    """The announcement an ``announce`` action makes, checked strictly.

    >>> parse_announcement({"ones": 1, "sixes": 60, "order": "low"}, sand_allowed=False)
    Announcement(ones=1, sixes=60, order='low', sand=False)
    >>> parse_announcement({"sand": True}, sand_allowed=False)
    Traceback (most recent call last):
    ...
    scorer.errors.Refusal: Sand is announced only in Tschigg
    """
    sand = fields.get("sand", False)
    if not isinstance(sand, bool):
        raise Refusal(f"'sand' must be true or false, not {json_shown(sand)}")
    if sand:
        if not sand_allowed:
            raise Refusal("Sand is announced only in Tschigg")
        extra = [k for k in ("ones", "sixes", "order") if k in fields]
        if extra:
            raise Refusal(f"a Sand announcement takes no {', '.join(extra)}")
        return Announcement(sand=True)
    return Announcement(ones=_pick(fields, "ones", ONES), sixes=_pick(fields, "sixes", SIXES),
                        order=_pick(fields, "order", ORDERS))


def value(dice: Sequence[int], announcement: Announcement | Mapping[str, Any]) -> int:
    """The value of a result: the sum of the dice, ones and sixes counted as announced.

    ``announcement`` may also be given as the ``announce`` fields of the game file (or
    ``round.announcement`` of the view), so the scoreboard can value any dice.

    The seed's worked examples: 6·3·5 is 68 with sixes 60 and 14 with sixes 6; two ones
    and a four are 204 with ones 100 and 6 with ones 1. Under Sand the plain pips are
    summed (a Sand round is decided by ``is_sand`` alone, never by value).

    >>> value((6, 3, 5), Announcement(sixes=60)), value((6, 3, 5), Announcement(sixes=6))
    (68, 14)
    >>> value((1, 1, 4), Announcement(ones=100)), value((1, 1, 4), Announcement(ones=1))
    (204, 6)
    >>> value([6, 3, 5], {"ones": 100, "sixes": 60, "order": "low"})
    68
    """
    if not isinstance(announcement, Announcement):
        announcement = parse_announcement(announcement, sand_allowed=True)
    ones, sixes = (1, 6) if announcement.sand else (announcement.ones, announcement.sixes)
    worth = {1: ones, 6: sixes}
    return sum(worth.get(die, die) for die in dice)


def is_chicago(thrown: Sequence[int]) -> bool:
    """Whether a single throw is a Chicago: three ones in that one throw.

    >>> is_chicago((1, 1, 1)), is_chicago((1, 1))
    (True, False)
    """
    return len(thrown) == 3 and all(die == 1 for die in thrown)


def is_sand(dice: Sequence[int], chicago: bool) -> bool:
    """Whether a result made Sand: no one and no six (decision: a Chicago counts as Sand).

    >>> is_sand((2, 3, 5), False), is_sand((2, 3, 6), False), is_sand((1, 1, 1), True)
    (True, False, True)
    """
    return chicago or not any(die in (1, 6) for die in dice)


@dataclass(frozen=True)
class Result:
    """A player's result in a throw round: the three dice as they lie, and whether they
    came as a Chicago.

    >>> Result("Aino", (1, 1, 1), chicago=True, throws=1).chicago
    True
    """

    player: str
    dice: tuple[int, ...]
    chicago: bool
    throws: int


def beats(a: Result, b: Result, announcement: Announcement) -> bool:
    """Whether result ``a`` is strictly better than ``b`` (a tie is not better).

    A Chicago beats everything but another Chicago; otherwise the announced order
    decides by value.

    >>> high, low = Announcement(order="high"), Announcement(order="low")
    >>> a, b = Result("A", (2, 3, 4), False, 1), Result("B", (2, 2, 2), False, 1)
    >>> beats(a, b, high), beats(a, b, low), beats(a, a, high)
    (True, False, False)
    """
    if a.chicago or b.chicago:
        return a.chicago and not b.chicago
    va, vb = value(a.dice, announcement), value(b.dice, announcement)
    return va > vb if announcement.order == "high" else va < vb


def best_and_worst(results: Sequence[Result], announcement: Announcement) -> tuple[Result, Result]:
    """The best and the worst of a throw round, results in throw order.

    Matching the best does not overtake it, so the best is the first to reach the best
    value; at the bottom the later player of a tie is the worst.

    >>> ann = Announcement()
    >>> rs = [Result("A", (2, 2, 3), False, 1), Result("B", (5, 5, 5), False, 1),
    ...       Result("C", (5, 5, 5), False, 1), Result("D", (2, 3, 2), False, 1)]
    >>> [r.player for r in best_and_worst(rs, ann)]
    ['B', 'D']
    """
    best = worst = results[0]
    for result in results[1:]:
        if beats(result, best, announcement):
            best = result
        if not beats(result, worst, announcement):
            worst = result
    return best, worst


def sand_outcome(results: Sequence[Result]) -> tuple[Result | None, Result | None]:
    """In a Sand round: the last player who made Sand and the last who missed it.

    >>> rs = [Result("A", (2, 3, 4), False, 1), Result("B", (1, 3, 4), False, 1),
    ...       Result("C", (2, 5, 5), False, 1), Result("D", (6, 3, 4), False, 1)]
    >>> [r.player if r else None for r in sand_outcome(rs)]
    ['C', 'D']
    """
    made = [r for r in results if is_sand(r.dice, r.chicago)]
    missed = [r for r in results if not is_sand(r.dice, r.chicago)]
    return (made[-1] if made else None), (missed[-1] if missed else None)
