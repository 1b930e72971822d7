"""A memory card that refuses writes mid-game (full, or turned read only as a failing card
is): nothing is half written, the screens say plainly what is wrong, and play goes on by
itself once the card takes writes again."""
from __future__ import annotations

import sqlite3
from typing import Any

from web.store import Store

from conftest import Api

FULL = "the appliance's storage is full"
READ_ONLY = "the appliance's memory card cannot be written"


class FullCard:
    """The store's connection on a full memory card: every change is refused as SQLite
    refuses it (``database or disk is full``), reading goes on."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.split()[0].upper() in {"INSERT", "UPDATE", "DELETE"}:
            refused = sqlite3.OperationalError("database or disk is full")
            refused.sqlite_errorname = "SQLITE_FULL"
            raise refused
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def fill_the_card(store: Store) -> sqlite3.Connection:
    """Make the store's memory card full; returns its own connection, to give back."""
    real = store._db
    store._db = FullCard(real)  # type: ignore[assignment]
    return real


def turn_the_card_read_only(store: Store) -> None:
    """The card turned read only (a failing card, remounted so): SQLite's own refusal."""
    store._db.execute("PRAGMA query_only = 1")


def test_a_throw_entered_on_a_full_card_is_refused_plainly_and_taken_once_there_is_room(
        api: Api) -> None:
    api.start(["Aino", "Bertil"])
    api.post("roll", {"dice": [1, 1], "actions": 0})
    before = api.state()
    real = fill_the_card(api.table.store)
    refused = api.post("roll", {"dice": [3, 4], "actions": 1}, status=503)
    assert refused["plain"].startswith(f"{FULL}: nothing was saved; make room")
    assert api.state()["game"] == before["game"]
    assert api.table.store.actions(api.table.game_id or 0) == api.table.game.log  # type: ignore[union-attr]
    api.table.store._db = real
    api.post("roll", {"dice": [3, 4], "actions": 1})
    assert api.state()["game"]["last_roll"]["dice"] == [3, 4]


def test_a_game_started_on_a_read_only_card_is_refused_plainly(api: Api) -> None:
    api.start(["Aino", "Bertil"])
    turn_the_card_read_only(api.table.store)
    refused = api.post("games", {"family": "ten_thousand", "players": ["Aino", "Bertil"]},
                       status=503)
    assert refused["plain"].startswith(f"{READ_ONLY} (it may be failing): nothing was saved")
    assert api.state()["game"]["family"] == "sum_chicago"
    api.table.store._db.execute("PRAGMA query_only = 0")
    api.post("games", {"family": "ten_thousand", "players": ["Aino", "Bertil"]})
    assert api.state()["game"]["family"] == "ten_thousand"

