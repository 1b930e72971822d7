"""JSON read strictly: what Python's reader takes silently, or refuses in words meant
for programmers, is refused saying what is wrong (a request body, a game file, a
calibration file)."""
from __future__ import annotations

import json
import math
import sys
from typing import Any


def loads_strictly(text: str) -> Any:
    """``text`` as JSON, refusing a key twice in one object (Python keeps the last, so a
    game would be played or replayed by other rules than written), NaN and Infinity
    (no JSON values: kept in a game's log they make its files unreadable elsewhere), a
    number too big for a float (Python reads it as Infinity) and an integer of over 4300
    digits (Python's refusal advises a call to ``sys``).

    >>> loads_strictly('{"order": "descending", "order": "ascending"}')
    Traceback (most recent call last):
    ...
    ValueError: the key 'order' twice in one object
    """
    data = json.loads(text, object_pairs_hook=unique_keys, parse_int=whole_number,
                      parse_float=finite_number, parse_constant=_not_json)
    _check_depth(data)
    return data


#: How deep a game file or request body may nest. A game file nests four deep (the file,
#: its actions, an action, a show's hands); an action's extra key nested hundreds deep
#: passed Python's reader, was stored, and then ran out of recursion when the game copied
#: or replayed it.
MAX_DEPTH = 32


def _check_depth(data: Any) -> None:
    """Refuse ``data`` nested more than :data:`MAX_DEPTH` deep, naming where.

    >>> _check_depth({"actions": [{"at": [[[1]]]}]})
    >>> _check_depth({"actions": [{"at": json.loads("[" * 40 + "]" * 40)}]})
    Traceback (most recent call last):
    ...
    ValueError: nested too deeply (over 32 levels) at actions[0]['at']
    """
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, where = stack.pop()
        items = (value.items() if isinstance(value, dict)
                 else enumerate(value) if isinstance(value, list) else ())
        for key, item in items:
            if not isinstance(item, (dict, list)):
                continue
            # Named down to the entry and its field: deeper, only the brackets differ.
            inner = where if depth > 3 else (
                f"{where}[{key}]" if isinstance(value, list)
                else f"{where}.{key}" if depth == 1 else f"{where}[{key!r}]")
            if depth + 1 > MAX_DEPTH:
                raise ValueError(f"nested too deeply (over {MAX_DEPTH} levels) at "
                                 f"{inner.lstrip('.')}")
            stack.append((item, depth + 1, inner))


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict; a key twice is refused (a ValueError naming it)."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} twice in one object")
        seen[key] = value
    return seen


def whole_number(digits: str) -> int:
    """An integer's digits as an int; one of over 4300 digits is refused in words."""
    count = len(digits.lstrip("-"))
    if count > sys.get_int_max_str_digits():
        raise ValueError(f"a number of {count} digits")
    return int(digits)


def finite_number(digits: str) -> float:
    """A number with a fraction or exponent as a float; one too big for a float (which
    Python reads as infinity, and would write out as Infinity) is refused in words.

    >>> finite_number("2.5")
    2.5
    >>> finite_number("1e400")
    Traceback (most recent call last):
    ...
    ValueError: the number 1e400 is too big
    """
    number = float(digits)
    if math.isinf(number):
        raise ValueError(f"the number {digits} is too big")
    return number


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")
