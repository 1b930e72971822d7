"""Pub Chicago games written as table talk ("A 6 6 3", "A keeps 6", "A announces 100 60
high", "A keeps lid" after a Sand round), shared by the Pub Chicago tests."""
from __future__ import annotations

from typing import Any


def action(line: str | dict[str, Any]) -> dict[str, Any]:
    """One line of table talk (or an action written out in full) as a game-file action."""
    if isinstance(line, dict):      # an action written out in full
        return line
    words = line.replace(":", "").split()
    if words[0] == "leader":
        return {"type": "leader", "player": words[1]}
    if words[0] == "undo":
        return {"type": "undo"}
    if words[0] == "correct":
        return {"type": "correct", "action": int(words[1]), "dice": [int(w) for w in words[2:]]}
    player, verb, rest = words[0], words[1], words[2:]
    if verb in ("gives", "keeps") and rest == ["lid"]:     # Tschigg's Sand lid
        return {"type": "sand_lid", "player": player, "give": verb == "gives"}
    if verb == "keeps":
        return {"type": "set_aside", "player": player, "dice": [int(w) for w in rest]}
    if verb == "turns":
        return {"type": "turn_sixes", "player": player}
    if verb == "done":
        return {"type": "done", "player": player}
    if verb == "joins":
        return {"type": "join", "player": player}
    if verb == "leaves":
        return {"type": "leave", "player": player}
    if verb == "announces":
        if rest == ["sand"]:
            return {"type": "announce", "player": player, "sand": True}
        return {"type": "announce", "player": player, "ones": int(rest[0]),
                "sixes": int(rest[1]), "order": rest[2]}
    return {"type": "roll", "player": player, "dice": [int(w) for w in words[1:]]}
