"""The 10000 scoring table (RULES.md §3) against a plain brute-force scorer written here
from the table alone, and the farkle chances by enumerating every throw."""
from __future__ import annotations

import doctest
import itertools
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest

import scorer.farkle_scoring as fs
from scorer.farkle_scoring import farkle_chance, score_selection, scoring_dice, selections

Dice = tuple[int, ...]
KEYS = ("greed", "straight", "three_pairs", "multiples", "specials")
#: Every combination of the scoring options.
ALL_TABLES = [tuple(zip(KEYS, values)) for values in itertools.product(
    (False, True), (1500, 2000), (1500, 1000), ("doubling", "linear"), (True, False))]
DEFAULT = (("greed", False), ("straight", 1500), ("three_pairs", 1500),
           ("multiples", "doubling"), ("specials", True))


# -- the brute force: every scoring combination listed, every way to cover the dice tried --


def combinations(table: tuple[tuple[str, Any], ...]) -> list[tuple[Dice, int]]:
    """Every scoring combination of the rule book as (sorted dice, points)."""
    o = dict(table)
    found: list[tuple[Dice, int]] = [((1,), 100), ((5,), 50)]
    factor = {3: 1, 4: 2, 5: 4, 6: 8} if o["multiples"] == "doubling" else {3: 1, 4: 2, 5: 3, 6: 4}
    for face in range(1, 7):
        three = (300 if o["greed"] else 1000) if face == 1 else 100 * face
        found += [((face,) * n, three * factor[n]) for n in range(3, 7)]
    if o["specials"]:
        found.append(((1, 2, 3, 4, 5, 6), o["straight"]))
        for a, b, c in itertools.combinations(range(1, 7), 3):
            found.append((tuple(sorted((a, a, b, b, c, c))), o["three_pairs"]))
        for a, b in itertools.permutations(range(1, 7), 2):
            found.append((tuple(sorted((a, a, a, a, b, b))), o["three_pairs"]))
        for a, b in itertools.combinations(range(1, 7), 2):
            found.append(((a, a, a, b, b, b), 2500))
    return found


@lru_cache(maxsize=None)
def brute(dice: Dice, table: tuple[tuple[str, Any], ...] = DEFAULT) -> int | None:
    """The best total over every way to cover all the dice with combinations (None: none)."""
    if not dice:
        return 0
    have = Counter(dice)
    best: int | None = None
    for combo, points in combinations(table):
        # The lowest die must be in some combination; trying only those avoids repeats.
        if dice[0] in combo and not Counter(combo) - have:
            rest = brute(tuple(sorted((have - Counter(combo)).elements())), table)
            if rest is not None and (best is None or points + rest > best):
                best = points + rest
    return best


def multisets(n: int) -> list[Dice]:
    return list(itertools.combinations_with_replacement(range(1, 7), n))


EVERY_MULTISET = [m for n in range(1, 7) for m in multisets(n)]


def sub_multisets(throw: Dice) -> set[Dice]:
    return {tuple(sorted(c)) for k in range(1, len(throw) + 1)
            for c in itertools.combinations(throw, k)}


def test_there_are_923_multisets_of_one_to_six_dice() -> None:
    assert len(EVERY_MULTISET) == 6 + 21 + 56 + 126 + 252 + 462 == 923


@pytest.mark.parametrize("table", ALL_TABLES, ids=lambda t: "-".join(str(v) for _, v in t))
def test_best_score_equals_brute_force_for_every_multiset(table: tuple[tuple[str, Any], ...]
                                                          ) -> None:
    options = dict(table)
    wrong = [(dice, score_selection(dice, options), brute(dice, table))
             for dice in EVERY_MULTISET if score_selection(dice, options) != brute(dice, table)]
    assert wrong == []


@pytest.mark.parametrize("table", [DEFAULT, ALL_TABLES[-1]], ids=["default", "all-other"])
def test_selections_of_every_throw_equal_brute_force(table: tuple[tuple[str, Any], ...]) -> None:
    options = dict(table)
    for throw in EVERY_MULTISET:
        expected = {sub: brute(sub, table) for sub in sub_multisets(throw)}
        expected = {sub: points for sub, points in expected.items() if points is not None}
        assert dict(selections(throw, options)) == expected, throw


def test_zilch_allows_only_every_scoring_die() -> None:
    for throw in EVERY_MULTISET:
        scoring = [sub for sub in sub_multisets(throw) if brute(sub) is not None]
        allowed = selections(throw, {"zilch": True})
        if not scoring:
            assert allowed == []
            continue
        every_die = max(scoring, key=len)
        assert allowed == [(every_die, brute(every_die))], throw
        assert scoring_dice(throw) == every_die


# -- the table, rule by rule ---------------------------------------------------------------

TABLE = [
    # dice, options, points (None: some die does not score)
    ([1], {}, 100),
    ([5], {}, 50),
    ([2], {}, None),
    ([1, 5], {}, 150),
    ([1, 1], {}, 200),            # pair scoring equals two singles
    ([5, 5], {}, 100),
    ([1, 1, 1], {}, 1000),
    ([2, 2, 2], {}, 200),
    ([3, 3, 3], {}, 300),
    ([4, 4, 4], {}, 400),
    ([5, 5, 5], {}, 500),
    ([6, 6, 6], {}, 600),
    ([4, 4, 4, 4], {}, 800),      # the seed's examples: four 4s, five 3s, six 2s
    ([3, 3, 3, 3, 3], {}, 1200),
    ([2, 2, 2, 2, 2, 2], {}, 1600),
    ([1, 1, 1, 1, 1, 1], {}, 8000),
    ([4, 4, 4, 4], {"multiples": "linear"}, 800),
    ([3, 3, 3, 3, 3], {"multiples": "linear"}, 900),
    ([2, 2, 2, 2, 2, 2], {"multiples": "linear"}, 800),   # not three pairs: six of a kind only
    ([1, 1, 1], {"greed": True}, 300),
    ([1, 1, 1, 1], {"greed": True}, 600),
    ([1, 1, 1, 1, 1, 1], {"greed": True}, 2400),
    ([1, 1, 1, 1, 1, 1], {"greed": True, "multiples": "linear"}, 1200),
    ([1, 1, 1, 5], {}, 1050),
    ([1, 1, 1, 1, 5], {}, 2050),
    ([2, 2, 2, 5, 1], {}, 350),
    ([2, 2, 2, 3], {}, None),     # a die of no combination spoils the selection
    ([1, 2, 3, 4, 5, 6], {}, 1500),
    ([1, 2, 3, 4, 5, 6], {"straight": 2000}, 2000),
    ([1, 2, 3, 4, 5, 6], {"specials": False}, None),
    ([1, 2, 3, 4, 5], {}, None),  # a straight needs all six dice
    ([2, 2, 4, 4, 6, 6], {}, 1500),
    ([2, 2, 4, 4, 6, 6], {"three_pairs": 1000}, 1000),
    ([2, 2, 4, 4, 6, 6], {"specials": False}, None),
    ([1, 1, 5, 5, 6, 6], {"specials": False}, None),
    ([1, 1, 5, 5, 6, 6], {}, 1500),
    ([1, 1, 5, 5, 3, 3], {"three_pairs": 1000, "specials": True}, 1000),
    ([3, 3, 3, 3, 6, 6], {}, 1500),   # four of a kind and a pair as three pairs
    ([3, 3, 3, 3, 6, 6], {"specials": False}, None),
    ([1, 1, 1, 1, 5, 5], {}, 2100),   # ... unless the plain scoring is worth more
    ([3, 3, 3, 6, 6, 6], {}, 2500),
    ([1, 1, 1, 5, 5, 5], {}, 2500),
    ([1, 1, 1, 5, 5, 5], {"specials": False}, 1500),
    ([4, 4, 4, 4, 4, 4], {"multiples": "linear", "three_pairs": 1500}, 1600),
    ([3, 3, 3, 3, 3, 3], {"multiples": "linear"}, 1200),  # six 3s are not two triplets
    ([], {}, 0),
]


@pytest.mark.parametrize("dice,options,points", TABLE)
def test_scoring_table(dice: list[int], options: dict[str, Any], points: int | None) -> None:
    assert score_selection(dice, options) == points


def test_a_seed_example_throw_scores_only_its_one_and_five() -> None:
    # "jos heität 1, 5, 2, 3, 4 ja 6, saat pisteitä vain ykkösestä ja viitosesta" - without
    # the straight (the seed's plain table) the throw offers 1, 5, or both for 150.
    assert selections([1, 5, 2, 3, 4, 6], {"specials": False}) == [
        ((1, 5), 150), ((1,), 100), ((5,), 50)]


def test_selections_list_the_best_first() -> None:
    choices = selections([1, 1, 1, 5, 2, 3])
    assert choices[0] == ((1, 1, 1, 5), 1050)
    assert ((2,), 0) not in choices and len(choices) == 7


# -- farkle chances --------------------------------------------------------------------------

PUBLISHED = {6: 2.31, 5: 7.72, 4: 15.74, 3: 27.78, 2: 44.44, 1: 66.67}


@lru_cache(maxsize=None)
def brute_farkle(throw: Dice) -> bool:
    return all(brute(sub) is None for sub in sub_multisets(throw))


@pytest.mark.parametrize("n", range(1, 7))
def test_farkle_chance_by_enumerating_every_throw(n: int) -> None:
    misses = sum(1 for throw in itertools.product(range(1, 7), repeat=n)
                 if brute_farkle(tuple(sorted(throw))))
    assert round(100 * misses / 6 ** n, 2) == PUBLISHED[n]
    assert farkle_chance(n) == misses / 6 ** n


def test_farkle_chance_depends_on_the_specials() -> None:
    # Without three pairs, the 360 throws of three different pairs of 2, 3, 4, 6 miss too.
    assert farkle_chance(6, {"specials": False}) * 6 ** 6 == pytest.approx(1080 + 360)
    assert farkle_chance(5, {"specials": False}) == farkle_chance(5)


def test_farkle_chance_refuses_impossible_throws() -> None:
    with pytest.raises(ValueError, match="1 to 6 dice"):
        farkle_chance(7)


def test_doctests() -> None:
    assert doctest.testmod(fs).failed == 0
