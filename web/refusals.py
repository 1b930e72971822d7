"""A refusal said for a family at the control page, beside the API's precise message.

The engine's messages name the action and the input ("action 3 (join by Aino): Aino is
already in the game"), as the game log, ``dicetray replay`` and the API's users need
them; the page's toast is read on a sofa, where "action 3" and quoted input mean
nothing. The API answers both: ``error`` (as ever) and ``plain`` (what the page shows).
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable

from scorer.actions import LONGEST_NAME
from scorer.errors import IllegalAction

# A name longer than this is shown cut short in a message (the box it is typed in is wider).
SHOWN_NAME = 20

# Refusals of the rules that a tap can meet, said plainly (the match of the rules'
# reason in, the words out); any other is said by its reason alone, without the
# "action N (...)" the game log needs.
_REASONS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"(?P<name>.+) is already in the game"),
     lambda m: f"{m['name']} is already playing: give the new player another name"),
    (re.compile(r"the last trick needs its 'card': a two scores the bonus"),
     lambda m: "type or tap the card that took the last trick: a two scores the bonus"),
    (re.compile(r"the trick's card: '(?P<text>.*)' is not a card .*"),
     lambda m: f"{m['text']} is not a card: type its rank (2 to 10, J, Q, K, A), then its "
               "suit (S, H, D, C), as 10H or QS"),
]


def plain_refusal(exc: IllegalAction) -> str:
    """The rules' refusal of a tap in the family's words.

    >>> plain_refusal(IllegalAction(0, {"type": "join", "player": "Aino"},
    ...                             "Aino is already in the game"))
    'Aino is already playing: give the new player another name'
    >>> plain_refusal(IllegalAction(2, {"type": "done", "player": "Bo"}, "Bo has not thrown yet"))
    'Bo has not thrown yet'
    """
    for pattern, words in _REASONS:
        found = pattern.fullmatch(exc.reason)
        if found:
            return words(found)
    return exc.reason


def shown_name(name: str) -> str:
    """A name as a message shows it: as typed, cut short when long.

    >>> shown_name("Aino"), shown_name("A" * 41)
    ('Aino', 'AAAAAAAAAAAAAAAAAAAA…')
    """
    return name if len(name) <= SHOWN_NAME else name[:SHOWN_NAME] + "…"


def plain_seating(title: str, fewest: int, most: int, players: Any) -> str | None:
    """What is wrong with the names typed on the start form, in the family's words
    (None: nothing the family typed; the refusal is about something else).

    Checked in the order the rules check them, so the words are about the same fault.

    >>> plain_seating("Pub Chicago", 2, 40, ["Aino"])
    'Pub Chicago needs 2 players or more: type another name'
    >>> plain_seating("Sum Chicago", 1, 40, ["Aino", "Bo", "Aino"])
    'Aino is typed twice: give each player a name of their own'
    """
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return None
    too_long = next((p for p in players if len(p) > LONGEST_NAME), None)
    if too_long is not None:
        return f"{shown_name(too_long)} is too long: a name has at most {LONGEST_NAME} characters"
    twice = [name for name, times in Counter(players).items() if times > 1]
    if twice:
        return f"{shown_name(twice[0])} is typed twice: give each player a name of their own"
    if not players:
        return "type the players' names first, with commas between them"
    if len(players) < fewest:
        return f"{title} needs {fewest} players or more: type another name"
    if len(players) > most:
        return f"{title} is for {most} players at most, not {len(players)}"
    return None
