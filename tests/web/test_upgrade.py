"""Data folders written by earlier versions open after an upgrade (a `git pull`).

Each fixture is written here the way that version wrote it: its tables, its rows.
"""
from __future__ import annotations

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


def _old_folder(data_dir: Path, *, current: int) -> None:
    """A data folder as the first versions left it: a finished Sum Chicago game (1) and
    an unfinished Card Chicago game (2) its rules then took."""
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
    for idx, action in enumerate(_OLD_CARD_ACTIONS):
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


@pytest.fixture
def old_current(tmp_path: Path) -> Iterator[Api]:
    data_dir = tmp_path / "data"
    _old_folder(data_dir, current=2)
    store = Store(data_dir)
    table = Table(store)     # refused the whole appliance before: "game 2 cannot be replayed"
    yield Api(table)
    table.stop()
    store.close()


def test_a_current_game_an_earlier_version_took_does_not_stop_the_appliance(
        old_current: Api) -> None:
    s = old_current.state()
    assert s["game"] is None and s["table"]["game_id"] is None
    said = s["table"]["not_continued"]
    assert said.startswith(f"{old_current.table.store.path}: game 2 cannot be replayed: "
                           "action 7 (show): Cecilia's hand")
    assert "(Card Chicago: Aino, Bertil, Cecilia) is kept as it is, in the history" in said
    assert said.endswith("row was changed since)")          # no copy taken here
    for page in ("/", "/control", "/history"):
        assert old_current.client.get(page).status_code == 200
    # The game is kept exactly as it was: listed, unfinished, its file whole.
    games = {g["id"]: g for g in old_current.client.get("/api/games").get_json()}
    assert games[2]["players"] == _PLAYERS and games[2]["finished"] is None
    assert games[1]["winner"] == "Aino" and games[1]["finished"] is not None
    file = old_current.client.get("/api/games/2/file").get_json()
    assert file["actions"] == _OLD_CARD_ACTIONS
    # The family plays on: a new game, a throw.
    old_current.post("games", {"family": "sum_chicago", "players": ["Aino", "Bertil"]})
    s = old_current.post("roll", {"dice": [1, 1]})
    assert s["game"]["players"][0]["score"] == 2 and s["table"]["not_continued"] is None


def test_continuing_such_a_game_from_the_history_is_refused_saying_it_is_kept(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    _old_folder(data_dir, current=1)
    store = Store(data_dir)
    table = Table(store)
    try:
        api = Api(table)
        out = api.post("continue", {"game": 2}, status=503)
        assert out["error"].startswith(f"{store.path}: game 2 cannot be replayed: action 7 "
                                       "(show): Cecilia's hand")
        assert "is kept as it is, in the history" in out["error"]
        assert api.state()["table"]["game_id"] == 1
        assert api.client.get("/api/games/2/file").get_json()["actions"] == _OLD_CARD_ACTIONS
    finally:
        table.stop()
        store.close()


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
