"""The scoring table of 10000 (RULES.md §3), with every scoring option.

A selection (the dice a player sets aside from one throw) is scored by its best valid
partition into scoring combinations; it is not valid when some die belongs to none.

| dice | points |
|---|---|
| single 1 / single 5 | 100 / 50 |
| three of a kind | 100 × face; three 1s = 1000 (Greed: 300) |
| four / five / six of a kind | 2× / 4× / 8× three of a kind (linear: 2× / 3× / 4×) |
| straight 1-2-3-4-5-6, all six dice | 1500 (or 2000) |
| three pairs, all six dice | 1500 (or 1000) |
| two triplets, all six dice | 2500 |

>>> score_selection([1, 1, 1, 5])
1050
>>> score_selection([2, 2, 3, 3, 4, 4])
1500
>>> score_selection([1, 2]) is None
True
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, TypeAlias

#: The scoring options of GAMEFILE.md and their defaults; other options are ignored here.
DEFAULTS: Mapping[str, Any] = {
    "greed": False, "straight": 1500, "three_pairs": 1500, "multiples": "doubling",
    "specials": True, "zilch": False,
}

SINGLES = {1: 100, 5: 50}
TWO_TRIPLETS = 2500
#: How many times the three-of-a-kind value four, five and six of a kind are worth.
MULTIPLES = {"doubling": {3: 1, 4: 2, 5: 4, 6: 8}, "linear": {3: 1, 4: 2, 5: 3, 6: 4}}

Selection = tuple[int, ...]


@dataclass(frozen=True)
class Table:
    """The scoring options in force, as a hashable value so that scores can be cached.

    >>> Table.of({"greed": True}).three_of_a_kind(1)
    300
    """

    greed: bool = False
    straight: int = 1500
    three_pairs: int = 1500
    multiples: str = "doubling"
    specials: bool = True
    zilch: bool = False

    @classmethod
    def of(cls, options: Options = None) -> "Table":
        """The table for a game's options (missing keys take their defaults).

        >>> Table.of().straight, Table.of({"straight": 2000}).straight
        (1500, 2000)
        """
        if isinstance(options, Table):
            return options
        given = {**DEFAULTS, **(options or {})}
        return cls(**{key: given[key] for key in DEFAULTS})

    def three_of_a_kind(self, face: int) -> int:
        """Three dice of ``face``: 100 × face, but three 1s are 1000 (300 with Greed).

        >>> Table().three_of_a_kind(4), Table().three_of_a_kind(1)
        (400, 1000)
        """
        if face == 1:
            return 300 if self.greed else 1000
        return 100 * face

    def of_a_kind(self, face: int, count: int) -> int:
        """Three to six dice of ``face``, scaled from three of a kind.

        >>> Table().of_a_kind(2, 6), Table(multiples="linear").of_a_kind(2, 6)
        (1600, 800)
        """
        return self.three_of_a_kind(face) * MULTIPLES[self.multiples][count]


#: A game's options (missing keys take their defaults), or a ``Table`` already made of them.
Options: TypeAlias = "Mapping[str, Any] | Table | None"


def _face_points(table: Table, face: int, count: int) -> int | None:
    """The best score of ``count`` dice showing ``face``, or None if some of them cannot score.

    The dice of one face form at most one group of three or more; what is left over
    scores only as singles, which only 1s and 5s do.
    """
    if count == 6:
        # Decision: six of a kind is scored only as six of a kind.
        return table.of_a_kind(face, 6)
    best: int | None = None
    for group in [0, *range(3, count + 1)]:
        rest = count - group
        if rest and face not in SINGLES:
            continue
        points = (table.of_a_kind(face, group) if group else 0) + rest * SINGLES.get(face, 0)
        best = points if best is None else max(best, points)
    return best


def _plain_points(table: Table, counts: Counter[int]) -> int | None:
    """The selection scored by singles and of-a-kind groups only."""
    total = 0
    for face, count in counts.items():
        points = _face_points(table, face, count)
        if points is None:
            return None
        total += points
    return total


def _special_points(table: Table, dice: Selection) -> list[int]:
    """The special combinations that all six dice of one throw form (none when off)."""
    if len(dice) != 6 or not table.specials:
        return []
    shape = sorted(Counter(dice).values())
    found = []
    if dice == (1, 2, 3, 4, 5, 6):
        found.append(table.straight)
    # Decision: four of a kind and a pair may count as three pairs; six of a kind may not.
    if shape in ([2, 2, 2], [2, 4]):
        found.append(table.three_pairs)
    # Decision: two triplets are of two different faces.
    if shape == [3, 3]:
        found.append(TWO_TRIPLETS)
    return found


@lru_cache(maxsize=4096)
def _best(table: Table, dice: Selection) -> int | None:
    candidates = _special_points(table, dice)
    plain = _plain_points(table, Counter(dice))
    if plain is not None:
        candidates.append(plain)
    return max(candidates, default=None)


def score_selection(dice: Iterable[int], options: Options = None) -> int | None:
    """The points of dice set aside from one throw, by their best valid partition.

    None when some die belongs to no scoring combination; an empty selection is 0.

    >>> score_selection([5, 5, 5, 5, 5]), score_selection([5, 5, 5, 5, 5], {"multiples": "linear"})
    (2000, 1500)
    >>> score_selection([1, 1, 1, 1, 5, 5])   # four 1s and two 5s beat three pairs
    2100
    >>> score_selection([1, 2, 3, 4, 5, 6], {"specials": False}) is None
    True
    """
    return _best(Table.of(options), tuple(sorted(dice)))


def _sub_selections(throw: Selection) -> Iterable[Selection]:
    """Every non-empty sub-multiset of a throw, each once, sorted."""
    counts = sorted(Counter(throw).items())
    for taken in itertools.product(*(range(count + 1) for _, count in counts)):
        chosen = tuple(face for (face, _), k in zip(counts, taken) for _ in range(k))
        if chosen:
            yield chosen


@lru_cache(maxsize=4096)
def _selections(table: Table, throw: Selection) -> tuple[tuple[Selection, int], ...]:
    found = []
    for chosen in _sub_selections(throw):
        points = _best(table, chosen)
        if points is not None:
            found.append((chosen, points))
    if table.zilch and found:
        # Zilch: every scoring die of the throw is set aside, so only the largest
        # selection is legal (the scoring dice of a throw always score together).
        found = [max(found, key=lambda item: (len(item[0]), item[1]))]
    found.sort(key=lambda item: (-item[1], len(item[0]), item[0]))
    return tuple(found)


def selections(dice: Iterable[int], options: Options = None
               ) -> list[tuple[Selection, int]]:
    """The legal selections of a throw with their points, the best first; empty for a farkle.

    >>> selections([1, 5, 2, 3, 4, 6], {"specials": False})
    [((1, 5), 150), ((1,), 100), ((5,), 50)]
    >>> selections([1, 5, 2, 3, 4, 6], {"zilch": True})
    [((1, 2, 3, 4, 5, 6), 1500)]
    >>> selections([2, 3, 4, 6, 6])
    []
    """
    return list(_selections(Table.of(options), tuple(sorted(dice))))


def scoring_dice(dice: Iterable[int], options: Options = None) -> Selection:
    """Every die of a throw that can score (what Zilch makes a player set aside); () for a farkle.

    >>> scoring_dice([1, 5, 2, 2, 2, 3])
    (1, 2, 2, 2, 5)
    """
    found = _selections(Table.of(options), tuple(sorted(dice)))
    return max((chosen for chosen, _ in found), key=len, default=())


def is_farkle(dice: Iterable[int], options: Options = None) -> bool:
    """Whether a throw has no scoring die at all.

    >>> is_farkle([2, 3, 4, 6, 6, 2]), is_farkle([2, 2, 3, 3, 4, 4])
    (True, False)
    """
    return not scoring_dice(dice, options)


@lru_cache(maxsize=64)
def _farkle_chance(table: Table, n: int) -> float:
    # Every one of the 6**n throws, counted; the sorted throw keys the score cache.
    throws = list(itertools.product(range(1, 7), repeat=n))
    misses = sum(1 for throw in throws if not _selections(table, tuple(sorted(throw))))
    return misses / len(throws)


def farkle_chance(n: int, options: Options = None) -> float:
    """The chance that a throw of ``n`` dice (1 to 6) scores nothing, over every throw.

    >>> round(100 * farkle_chance(6), 2), round(100 * farkle_chance(1), 2)
    (2.31, 66.67)
    """
    if not 1 <= n <= 6:
        raise ValueError(f"a throw has 1 to 6 dice, not {n}")
    return _farkle_chance(Table.of(options), n)
