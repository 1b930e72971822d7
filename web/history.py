"""The scores a history row shows: each player's, the game replayed from its log."""
from __future__ import annotations

import threading
from typing import Any

import scorer
from web.store import Store, StoreError


class Scores:
    """The scores of the games a history page lists. A finished game's are kept once
    found (its log no longer changes), so a page of 50 finished games is replayed once,
    not each time it is opened (some 4 ms a game, Card Chicago's and 10000's)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: dict[tuple[int, float], list[str]] = {}
        self._lock = threading.Lock()

    def of(self, game: dict[str, Any]) -> list[str]:
        """``game`` (a row of ``/api/games``) as its players' scores: ["Åsa 60", ...],
        replayed as it was stored (``load_game``); none for a game these rules no longer
        replay (the control page names it)."""
        finished = game["finished"]
        with self._lock:
            kept = self._kept.get((game["id"], finished)) if finished else None
        if kept is not None:
            return kept
        said = self._replayed(game["id"])
        if finished and said:
            with self._lock:
                self._kept[(game["id"], finished)] = said
        return said

    def _replayed(self, game_id: int) -> list[str]:
        try:
            data = self.store.game_file(game_id)
            players = ([] if data is None
                       else scorer.load_game(data, stored=True).state()["players"])
        except (ValueError, StoreError):
            return []
        return [score_words(p) for p in players]


def score_words(player: dict[str, Any]) -> str:
    """A player's score as a history row says it: "Åsa 60"; Pub Chicago counts lids (or,
    played as "basis", strokes): "Aino 1 lid".

    >>> score_words({"name": "Aino", "score": 1, "lids": 1})
    'Aino 1 lid'
    """
    score = player["score"]
    counted = next((unit for unit in ("lids", "strokes") if unit in player), None)
    if counted is None:
        return f"{player['name']} {score}"
    return f"{player['name']} {score} {counted if score != 1 else counted[:-1]}"
