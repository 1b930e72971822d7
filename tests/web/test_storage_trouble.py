"""A memory card that refuses writes mid-game (full, or turned read only as a failing card
is): nothing is half written, the screens say plainly what is wrong, and play goes on by
itself once the card takes writes again."""
from __future__ import annotations

import sqlite3
from itertools import islice
from pathlib import Path
from typing import Any


from web.app import create_app
from web.fakes import FakeCamera, FakeWatcher
from web.store import Store
from web.table import Table

from conftest import Api
from test_sse import events
from waiting import wait_for

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


def test_a_camera_throw_on_a_full_card_is_said_on_the_screens_until_there_is_room(
        data_dir: Path) -> None:
    """A throw the camera saw while the card was full was dropped without a word: the
    screens went on showing the throw before, and nobody knew to enter it by hand."""
    camera = FakeCamera()
    table = Table(Store(data_dir), camera=camera,
                  watcher_factory=lambda read: FakeWatcher(camera, read)).start()
    client = create_app(table, keep_alive=0.2).test_client()
    try:
        table.new_game("sum_chicago", ["Aino", "Bertil"])
        stream = client.get("/api/events", buffered=False)
        # Keep-alives come every 0.2 s: a hundred events are some 20 s of waiting at most.
        states = (data for kind, _, data in islice(events(stream), 100) if kind == "state")
        before = next(states)
        real = fill_the_card(table.store)
        camera.roll([1, 1])
        # The screens' live stream brings it, though no revision could be stored for it.
        state = next((s for s in states if s["camera"]["error"]), None)
        assert state is not None, "the screens were not told"
        stream.close()
        assert state["camera"]["error"].startswith(
            f"{FULL}: the throw just made was not saved; make room on its memory card")
        assert state["game"] == before["game"] and state["revision"] == before["revision"]
        table.store._db = real
        camera.roll([2, 3])
        state = wait_for(lambda: (s := table.state())["game"]["actions"] == 1 and s)
        assert state["game"]["last_roll"]["dice"] == [2, 3]
        assert state["camera"]["error"] is None
    finally:
        table.stop()
        table.store.close()
