"""Data folders written by earlier versions open after an upgrade (a `git pull`).

Each fixture is written here the way that version wrote it: its tables, its rows.
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest

from web.app import create_app
from web.store import Store
from web.table import Table

# The schema of the first versions (0cf500c, 2026-11-30): no loser column, no indexes.
_OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, family TEXT NOT NULL, options TEXT NOT NULL,
    players TEXT NOT NULL, created REAL NOT NULL, finished REAL, winner TEXT);
CREATE TABLE actions (game INTEGER NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
    body TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game, idx));
CREATE TABLE readings (id INTEGER PRIMARY KEY, game INTEGER REFERENCES games(id),
    dice TEXT NOT NULL, status TEXT NOT NULL, player TEXT, action INTEGER, note TEXT,
    created REAL NOT NULL);
"""

# The start of the Card Chicago example game as docs/card_chicago.json had it until
# 12f6ed3 made the rules refuse hands nobody can hold: Cecilia exchanged no card, yet
# shows 5S for 3S in round 2. Every version before took it, as a family typing hands did.
_OLD_CARD_ACTIONS: list[dict[str, Any]] = [
    {"type": "exchange", "player": "Bertil", "count": 3},
    {"type": "exchange", "player": "Cecilia", "count": 2},
    {"type": "exchange", "player": "Aino", "count": 1},
    {"type": "show", "round": 1, "hands": {"Bertil": "KS KH 7D 4C 2S",
                                           "Cecilia": "QS QH QD 5C 3S"}},
    {"type": "exchange", "player": "Bertil", "count": 2},
    {"type": "exchange", "player": "Cecilia", "count": 0},
    {"type": "exchange", "player": "Aino", "count": 4},
    {"type": "show", "round": 2, "hands": {"Aino": "4H 5H 6H 7H 8H",
                                           "Cecilia": "QS QH QD 5C 5S"}},
    {"type": "exchange", "player": "Bertil", "count": 1},
]
_PLAYERS = ["Aino", "Bertil", "Cecilia"]
# The same game with a row changed by hand since: Cecilia's first hand holds Bertil's KS,
# which no version took. These rules replay it as stored no more than any version did.
_CHANGED_BY_HAND = [*_OLD_CARD_ACTIONS[:3],
                    {"type": "show", "round": 1, "hands": {"Bertil": "KS KH 7D 4C 2S",
                                                           "Cecilia": "KS QH QD 5C 3S"}},
                    *_OLD_CARD_ACTIONS[4:]]


def _old_folder(data_dir: Path, *, current: int,
                card_actions: list[dict[str, Any]] = _OLD_CARD_ACTIONS) -> None:
    """A data folder as the first versions left it: a finished Sum Chicago game (1) and
    an unfinished Card Chicago game (2) of ``card_actions``, by default one its rules
    then took."""
    data_dir.mkdir(parents=True)
    db = sqlite3.connect(data_dir / "dicetray.sqlite3")
    db.executescript(_OLD_SCHEMA)
    db.execute("INSERT INTO meta VALUES ('schema', '1'), ('revision', '12'), ('current', ?)",
               (str(current),))
    db.execute("INSERT INTO games VALUES (1, 'sum_chicago', '{\"dice\": 2, \"rounds\": \"low\"}',"
               " '[\"Aino\"]', 1796300000.0, 1796300100.0, 'Aino')")
    for idx, dice in enumerate([[1, 1], [1, 2], [2, 2], [1, 4], [2, 4]]):
        db.execute("INSERT INTO actions VALUES (1, ?, ?, ?)",
                   (idx, json.dumps({"type": "roll", "player": "Aino", "dice": dice}),
                    1796300000.0 + idx))
    db.execute("INSERT INTO games VALUES (2, 'card_chicago', '{}', ?, 1796300200.0, NULL, NULL)",
               (json.dumps(_PLAYERS),))
    for idx, action in enumerate(card_actions):
        db.execute("INSERT INTO actions VALUES (2, ?, ?, ?)",
                   (idx, json.dumps(action), 1796300200.0 + idx))
    db.commit()
    db.close()


class Api:
    """The Flask test client with JSON helpers (as conftest's, which is no module)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        app = create_app(table, keep_alive=0.2)
        app.testing = True
        self.client = app.test_client()

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.client.get("/api/state").get_json()
        return data

    def post(self, path: str, body: Any, status: int = 200) -> dict[str, Any]:
        resp = self.client.post(f"/api/{path}", data=json.dumps(body),
                                content_type="application/json")
        assert resp.status_code == status, resp.get_data(as_text=True)
        data: dict[str, Any] = resp.get_json()
        return data


@contextlib.contextmanager
def _opened(data_dir: Path) -> Iterator[Api]:
    """The appliance opened on ``data_dir``, as after an upgrade."""
    store = Store(data_dir)
    table = Table(store)
    try:
        yield Api(table)
    finally:
        table.stop()
        store.close()


@pytest.fixture
def old_current(tmp_path: Path) -> Iterator[Api]:
    data_dir = tmp_path / "data"
    _old_folder(data_dir, current=2, card_actions=_CHANGED_BY_HAND)
    with _opened(data_dir) as api:  # refused the whole appliance once: "cannot be replayed"
        yield api


def test_a_current_game_these_rules_cannot_replay_does_not_stop_the_appliance(
        old_current: Api) -> None:
    s = old_current.state()
    assert s["game"] is None and s["table"]["game_id"] is None
    said = s["table"]["not_continued"]
    assert said.startswith(f"{old_current.table.store.path}: game 2 cannot be replayed: "
                           "action 3 (show): the card KS is in the hands of both")
    assert "(Card Chicago: Aino, Bertil, Cecilia) is kept as it is, in the history" in said
    assert said.endswith("row was changed since)")          # no copy taken here
    for page in ("/", "/control", "/history"):
        assert old_current.client.get(page).status_code == 200
    # The game is kept exactly as it was: listed, unfinished, its file whole.
    games = {g["id"]: g for g in old_current.client.get("/api/games").get_json()}
    assert games[2]["players"] == _PLAYERS and games[2]["finished"] is None
    assert games[1]["winner"] == "Aino" and games[1]["finished"] is not None
    file = old_current.client.get("/api/games/2/file").get_json()
    assert file["actions"] == _CHANGED_BY_HAND
    # The family plays on: a new game, a throw.
    old_current.post("games", {"family": "sum_chicago", "players": ["Aino", "Bertil"]})
    s = old_current.post("roll", {"dice": [1, 1]})
    assert s["game"]["players"][0]["score"] == 2 and s["table"]["not_continued"] is None


def test_continuing_such_a_game_from_the_history_is_refused_saying_it_is_kept(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    _old_folder(data_dir, current=1, card_actions=_CHANGED_BY_HAND)
    with _opened(data_dir) as api:
        out = api.post("continue", {"game": 2}, status=503)
        assert out["error"].startswith(f"{api.table.store.path}: game 2 cannot be replayed: "
                                       "action 3 (show): the card KS is in the hands of both")
        assert "is kept as it is, in the history" in out["error"]
        assert api.state()["table"]["game_id"] == 1
        assert api.client.get("/api/games/2/file").get_json()["actions"] == _CHANGED_BY_HAND


# Where the old Card Chicago game stands: Aino 8 and Cecilia 3 from the shows, and
# Cecilia, then Aino, still to exchange for the third time.
_OLD_SCORES = {"Aino": 8, "Bertil": 0, "Cecilia": 3}


def _scores(state: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["score"] for p in state["game"]["players"]}


def test_a_card_chicago_game_from_before_the_hand_checks_plays_on_after_the_upgrade(
        tmp_path: Path) -> None:
    """Cecilia's 5S in round 2 (she exchanged no card) was taken by every version before
    the hand checks; after the upgrade the game could not be continued at all."""
    data_dir = tmp_path / "data"
    _old_folder(data_dir, current=2)
    with _opened(data_dir) as api:
        s = api.state()
        assert s["table"]["game_id"] == 2 and s["table"]["not_continued"] is None
        assert _scores(s) == _OLD_SCORES and s["game"]["next"]["player"] == "Cecilia"
        api.post("action", {"type": "exchange", "player": "Cecilia", "count": 0})
        api.post("action", {"type": "exchange", "player": "Aino", "count": 0})
        # A new action is checked by every rule: Cecilia kept her hand of round 2.
        out = api.post("action", {"type": "trick", "winner": "Aino", "card": "QS"}, status=409)
        assert "QS is in Cecilia's hand (shown in round 2" in out["error"]
        api.post("action", {"type": "trick", "winner": "Aino", "card": "8H"})
    with _opened(data_dir) as api:                  # and after a restart, as it was left
        s = api.state()
        assert s["table"]["game_id"] == 2 and s["game"]["actions"] == len(_OLD_CARD_ACTIONS) + 3
        assert _scores(s) == _OLD_SCORES and s["table"]["not_continued"] is None
        assert api.client.get("/api/games/2/file").get_json()["actions"][:9] == _OLD_CARD_ACTIONS


def test_such_a_game_left_unfinished_is_continued_from_the_history(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    _old_folder(data_dir, current=1)
    with _opened(data_dir) as api:
        page = api.client.get("/history").get_data(as_text=True)
        assert "Aino 8" in page and "Cecilia 3" in page          # its scores, shown again
        s = api.post("continue", {"game": 2})
        assert s["table"]["game_id"] == 2 and _scores(s) == _OLD_SCORES


def test_the_control_page_says_why_an_old_outline_is_not_used_until_marked_again(
        tmp_path: Path) -> None:
    from calibration import Calibration, load_calibration
    from web.calibrating import Calibrator

    path = tmp_path / "calibration.json"
    kept = Calibration(die_size_px=89.0, image_size=(1280, 960))
    calibrator = Calibrator(path, kept, tray_note=f"{path}: bad calibration file: tray "
                            "polygon crosses itself: the tray outline is not used")
    store = Store(tmp_path / "data")
    table = Table(store, calibrator=calibrator)
    try:
        assert "crosses itself" in table.state()["camera"]["tray_note"]
        calibrator.set_tray([[100, 100], [1100, 100], [1100, 850], [100, 850]], (1280, 960))
        assert table._build(store.revision)["camera"]["tray_note"] is None   # as published next
        assert load_calibration(path).die_size_px == 89.0     # the rest kept in the file
    finally:
        table.stop()
        store.close()
