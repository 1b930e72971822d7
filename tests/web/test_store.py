"""The SQLite store: restarts rebuild the game, the revision only rises, damage is refused."""
from __future__ import annotations

import errno
import json
import os
import re
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from web.fakes import FakeClock, FakeWall, reading
from web.store import Store, StoreError, WallClock
from web.table import Table


def test_restart_rebuilds_the_game_from_its_log(data_dir: Path) -> None:
    store = Store(data_dir)
    table = Table(store)
    table.new_game("sum_chicago", ["Aino", "Bertil"])
    table.hand_roll([1, 1])
    table.handle_reading(reading(1, 2))
    table.correct_die(table.state()["reading"]["id"], 1, 1)
    table.undo()
    table.undo()
    before = table.state()
    store.close()

    again = Table(Store(data_dir))
    after = again.state()
    assert after["game"] == before["game"]
    assert after["reading"] == before["reading"]
    assert after["revision"] == before["revision"]
    again.store.close()


def test_revision_survives_restart_and_only_rises(data_dir: Path) -> None:
    store = Store(data_dir)
    seen = [store.revision]
    table = Table(store)
    table.new_game("sum_chicago", ["Aino"])
    for dice in ([1, 1], [1, 2]):
        table.hand_roll(dice)
        seen.append(table.state()["revision"])
    table.undo()
    seen.append(table.state()["revision"])
    store.close()
    store = Store(data_dir)
    assert store.revision == seen[-1]
    assert store.bump() > seen[-1]
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    store.close()


def test_a_file_that_is_not_a_database_is_refused_by_name(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    db = data_dir / "dicetray.sqlite3"
    db.write_bytes(b"this is not a database at all, just some text" * 100)
    with pytest.raises(StoreError) as err:
        Store(data_dir)
    assert str(db) in str(err.value) and "damaged or not a dicetray database" in str(err.value)
    assert db.read_bytes().startswith(b"this is not")      # left as it was


def _play_and_close(data_dir: Path, throws: int) -> dict[str, Any]:
    """A Sum Chicago game of ``throws`` hand-entered throws; the state it ends in."""
    table = Table(Store(data_dir))
    table.new_game("sum_chicago", ["Aino", "Bertil"])
    for _ in range(throws):
        table.hand_roll([1, 1])
    state = table.state()
    table.store.close()
    return state


def _damage(db: Path) -> None:
    """Scribble over the database's pages after the first, as a failing memory card might."""
    data = bytearray(db.read_bytes())
    data[4096:] = b"\xa5" * (len(data) - 4096)
    db.write_bytes(bytes(data))


def _copy_actions(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / "dicetray-copy.sqlite3") as copy:
        return int(copy.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


def test_a_damaged_database_names_the_copy_and_the_copy_brings_the_games_back(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.store.COPY_EVERY_S", 0.0)     # a copy after every throw
    before = _play_and_close(data_dir, 3)
    db = data_dir / "dicetray.sqlite3"
    _damage(db)
    with pytest.raises(StoreError) as err:
        Store(data_dir)
    message = str(err.value)
    assert str(db) in message and "damaged" in message
    assert "holds 1 game: to go back to it, move dicetray.sqlite3" in message
    assert "rename dicetray-copy.sqlite3 to dicetray.sqlite3" in message
    assert db.read_bytes()[4096:4100] == b"\xa5" * 4          # refused, not replaced
    # Doing what it says gives the game back.
    db.rename(data_dir / "damaged.sqlite3")
    (data_dir / "dicetray-copy.sqlite3").rename(db)
    table = Table(Store(data_dir))
    assert table.state()["game"] == before["game"]
    table.store.close()


def test_the_copy_is_taken_when_a_game_starts_and_ends_not_at_every_throw(
        data_dir: Path) -> None:
    store = Store(data_dir)
    table = Table(store)
    table.new_game("sum_chicago", ["Aino"], {"rounds": "low"})
    store.copies_taken()
    assert _copy_actions(data_dir) == 0
    for _ in range(5):
        table.hand_roll([1, 1])
    store.copies_taken()
    assert _copy_actions(data_dir) == 0            # less than COPY_EVERY_S of play
    table.hand_roll([1, 1])                        # the sixth and last round
    assert table.state()["game"]["finished"]
    store.copies_taken()
    assert _copy_actions(data_dir) == 6
    store.close()


def test_a_copy_that_cannot_be_written_does_not_stop_the_game(
        data_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "dicetray-copy.sqlite3").mkdir()       # something in the copy's way
    store = Store(data_dir)
    table = Table(store)
    table.new_game("sum_chicago", ["Aino"])
    table.hand_roll([1, 1])
    store.copies_taken()
    assert table.state()["game"]["players"][0]["score"] == 2
    assert "could not keep a copy of the database" in caplog.text
    store.close()


def test_the_copy_is_named_in_a_data_folder_whose_name_has_uri_characters(
        tmp_path: Path) -> None:
    # "#", "?" and "%" mean something in the file: URI the copy is opened by.
    data_dir = tmp_path / "games #2? 100%41"
    _play_and_close(data_dir, 1)
    _damage(data_dir / "dicetray.sqlite3")
    with pytest.raises(StoreError, match="A copy taken .* holds 1 game"):
        Store(data_dir)


def test_a_copy_taken_while_the_clock_was_not_set_is_not_said_to_be_from_1970(
        data_dir: Path) -> None:
    """A Pi with no saved time and no network starts in 1970: the refusal of a damaged
    database said "A copy taken 1970-01-01 00:05 holds 1 game", a copy a family took
    for fifty years old (found by a clock audit)."""
    _play_and_close(data_dir, 1)
    os.utime(data_dir / "dicetray-copy.sqlite3", (300.0, 300.0))
    _damage(data_dir / "dicetray.sqlite3")
    with pytest.raises(StoreError, match="A copy taken while the clock was not set holds 1 game: "
                                         "to go back to it"):
        Store(data_dir)


def _damage_under(db: Path, table: str) -> None:
    """Scribble over ``table``'s first page in the file while the store has it open (a
    memory card going bad under a running server); another program's write then makes
    the store read the file again instead of the pages it holds in memory."""
    with sqlite3.connect(db) as other:
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")     # every page in the file itself
        page_size = other.execute("PRAGMA page_size").fetchone()[0]
        root = other.execute("SELECT rootpage FROM sqlite_master WHERE name=?",
                             (table,)).fetchone()[0]
    with open(db, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\xa5" * page_size)
    with sqlite3.connect(db) as other:
        other.execute("UPDATE meta SET value = value WHERE key='revision'")


def test_a_database_gone_bad_under_the_server_does_not_replace_the_good_copy(
        data_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = Store(data_dir)
    table = Table(store)
    table.new_game("sum_chicago", ["Aino", "Bertil"])
    table.hand_roll([1, 1])
    store.copies_taken()                              # the copy taken as the game started
    assert store.keep_copy()
    _damage_under(data_dir / "dicetray.sqlite3", "actions")
    assert not store.keep_copy()
    assert [r.levelname for r in caplog.records] == ["WARNING"]      # said in the log
    copy = data_dir / "dicetray-copy.sqlite3"
    with sqlite3.connect(f"file:{copy}?mode=ro", uri=True) as kept:
        assert kept.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert _copy_actions(data_dir) == 1              # the copy still holds the throw
    store.close()


def test_a_database_gone_bad_under_the_server_is_refused_by_name_at_every_tap(
        api: Any, data_dir: Path) -> None:
    """A memory card failing under the running server: a throw, an undo, a game's file
    answered 500 "internal error: DatabaseError", where a start names the file and the
    copy to go back to."""
    api.start(["Aino", "Bertil"])
    api.post("roll", {"dice": [1, 1]})
    api.table.store.copies_taken()
    _damage_under(data_dir / "dicetray.sqlite3", "actions")
    for out in (api.post("roll", {"dice": [1, 2]}, status=503),
                api.post("undo", {}, status=503),
                api.client.get("/api/games/1/file").get_json()):
        assert str(data_dir / "dicetray.sqlite3") in out["error"] and "damaged" in out["error"]
        assert "rename dicetray-copy.sqlite3 to dicetray.sqlite3" in out["error"]
    assert api.client.get("/api/games/1/file").status_code == 503


def test_a_log_that_no_longer_replays_names_the_copy(data_dir: Path) -> None:
    _play_and_close(data_dir, 1)
    with sqlite3.connect(data_dir / "dicetray.sqlite3") as conn:
        conn.execute("UPDATE actions SET body = "
                     "'{\"type\": \"roll\", \"player\": \"Zed\", \"dice\": [1, 1]}'")
    # The appliance starts all the same (the family's other games must open), and the
    # game it cannot continue is named, with the copy to go back to.
    table = Table(Store(data_dir))
    try:
        assert table.game is None
        said = table.state()["table"]["not_continued"]
        found = re.search(r"game 1 cannot be replayed: .*A copy taken .* holds 1 game: .*"
                          r"rename (dicetray-copy-[-\d]+\.sqlite3) to dicetray.sqlite3", said)
        assert found, said
        # Play goes on, and its copies are taken: the copy named is still the one from
        # before, holding the game as it replayed.
        table.new_game("sum_chicago", ["Cecilia"])
        table.hand_roll([2, 2])
        table.store.copies_taken()
        assert (data_dir / "dicetray-copy.sqlite3").is_file()
        (data_dir / "kept").mkdir()
        os.replace(data_dir / found.group(1), data_dir / "kept" / "dicetray.sqlite3")
    finally:
        table.store.close()
    back = Table(Store(data_dir / "kept"))
    try:
        assert back.game is not None and back.state()["game"]["players"][0]["name"] == "Aino"
        assert back.not_continued is None
    finally:
        back.store.close()


def test_an_other_sqlite_database_is_refused(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    db = data_dir / "dicetray.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.close()
    before = db.read_bytes()
    with pytest.raises(StoreError, match="not a dicetray database"):
        Store(data_dir)
    assert db.read_bytes() == before            # not even switched to WAL mode


def test_a_log_that_no_longer_replays_is_named_and_kept(data_dir: Path) -> None:
    store = Store(data_dir)
    table = Table(store)
    table.new_game("sum_chicago", ["Aino"])
    table.hand_roll([1, 1])
    store.close()
    with sqlite3.connect(data_dir / "dicetray.sqlite3") as conn:
        conn.execute("UPDATE actions SET body = '{\"type\": \"roll\", \"player\": \"Zed\", \"dice\": [1, 1]}'")
    table = Table(Store(data_dir))
    try:
        assert table.game is None and table.state()["game"] is None
        assert f"{data_dir / 'dicetray.sqlite3'}: game 1 cannot be replayed: action 0" in (
            table.state()["table"]["not_continued"])
        assert len(table.store.actions(1)) == 1      # left as it is
    finally:
        table.store.close()


def test_settings_are_written_atomically(data_dir: Path) -> None:
    store = Store(data_dir)
    store.save_settings({"players": ["Aino"]})
    store.close()
    store = Store(data_dir)
    assert store.load_settings() == {"players": ["Aino"]}
    assert [p.name for p in data_dir.iterdir() if p.name.startswith(".settings")] == []
    (data_dir / "settings.json").write_text("{broken")
    with pytest.raises(StoreError, match="settings.json"):
        store.load_settings()


def test_a_settings_file_that_cannot_be_read_is_not_written_over(api: Any, data_dir: Path) -> None:
    (data_dir / "settings.json").write_text('{"players": ["Ai')
    api.start(["Aino", "Bertil"])               # the game starts all the same
    assert (data_dir / "settings.json").read_text() == '{"players": ["Ai'
    assert api.client.get("/api/settings").get_json() == {}


def test_one_data_folder_serves_one_process(data_dir: Path) -> None:
    store = Store(data_dir)
    with pytest.raises(StoreError, match="another dicetray is using"):
        Store(data_dir)
    store.close()
    Store(data_dir).close()


def test_a_database_locked_by_another_program_is_refused_by_name(api: Any, data_dir: Path) -> None:
    """Another program (an sqlite3 shell, a backup tool) holds the write lock: a throw is
    refused with a 503 naming the file, and nothing changes."""
    api.start()
    api.table.store._db.execute("PRAGMA busy_timeout = 50")   # not 5 s of waiting per test
    before = api.state()
    other = sqlite3.connect(data_dir / "dicetray.sqlite3", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        out = api.post("roll", {"dice": [1, 1]}, status=503)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert str(data_dir / "dicetray.sqlite3") in out["error"] and "locked" in out["error"]
    assert api.state() == before
    assert api.post("roll", {"dice": [1, 1]})["game"]["players"][0]["score"] == 2


def test_a_database_of_an_earlier_dicetray_opens_with_its_games(data_dir: Path) -> None:
    _earlier_database(data_dir)
    store = Store(data_dir)
    # The finished Pub Chicago game of before learns its loser from its log.
    assert [(g.id, g.winner, g.loser) for g in store.games()] == [(2, None, "Bertil"),
                                                                  (1, "Aino", None)]
    table = Table(store)
    table.new_game("pub_chicago", ["Aino", "Bertil"], {"match_length": 1})
    for action in PUB_GAME_BERTIL_LOSES:
        table.act(action)
    assert [(g.id, g.loser) for g in store.games()] == [(3, "Bertil"), (2, "Bertil"), (1, None)]
    store.close()


PUB_GAME_BERTIL_LOSES = [
    {"type": "roll", "player": "Aino", "dice": [6, 3, 5]},
    {"type": "done", "player": "Aino"},
    {"type": "announce", "player": "Aino", "ones": 100, "sixes": 60, "order": "high"},
    {"type": "roll", "player": "Bertil", "dice": [2, 2, 4]}]


def test_an_earlier_database_whose_first_opening_is_cut_short_still_learns_its_losers(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first start after an update adds the loser column and fills it from the games'
    logs: cut short between the two (the power goes), the next start must fill it still,
    not find the column there and leave the history saying 'over' for good."""
    import scorer

    _earlier_database(data_dir)
    replay = scorer.load_game

    def power_cut(data: Any) -> Any:
        raise KeyboardInterrupt  # stands for the process dying half-way

    monkeypatch.setattr(scorer, "load_game", power_cut)
    with pytest.raises(KeyboardInterrupt):
        Store(data_dir)
    monkeypatch.setattr(scorer, "load_game", replay)
    store = Store(data_dir)
    assert [(g.id, g.loser) for g in store.games()] == [(2, "Bertil"), (1, None)]
    store.close()


def _earlier_database(data_dir: Path) -> None:
    """A database as dicetray made it before games kept their loser: the games table has
    no such column; a finished Pub Chicago game (Bertil lost) and a Sum Chicago one."""
    data_dir.mkdir(parents=True)
    db = sqlite3.connect(data_dir / "dicetray.sqlite3")
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema', '1'), ('revision', '3');
        CREATE TABLE games (id INTEGER PRIMARY KEY, family TEXT NOT NULL, options TEXT NOT NULL,
                            players TEXT NOT NULL, created REAL NOT NULL, finished REAL,
                            winner TEXT);
        INSERT INTO games VALUES (1, 'sum_chicago', '{}', '["Aino", "Bertil"]', 1.0, 2.0, 'Aino');
        INSERT INTO games VALUES (2, 'pub_chicago', '{"match_length": 1}', '["Aino", "Bertil"]',
                                  3.0, 4.0, NULL);
        CREATE TABLE actions (game INTEGER NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
                              body TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game, idx));
    """)
    for idx, action in enumerate(PUB_GAME_BERTIL_LOSES):
        db.execute("INSERT INTO actions VALUES (2, ?, ?, 3.5)", (idx, json.dumps(action)))
    db.commit()
    db.close()


def test_a_damaged_row_is_refused_naming_the_file_and_the_row(data_dir: Path) -> None:
    """A row whose JSON went bad (a failing card, a hand edit) in a database whose pages
    are sound: refused by name, never blamed on the request, the file left as it is."""
    _play_and_close(data_dir, 2)
    db = data_dir / "dicetray.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE actions SET body = '{not json' WHERE game = 1 AND idx = 1")
    with pytest.raises(StoreError) as err:
        Table(Store(data_dir))
    assert str(db) in str(err.value) and "action 1 of game 1 is damaged" in str(err.value)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT body FROM actions WHERE idx = 1").fetchone()[0] == "{not json"


def test_a_damaged_row_of_another_game_is_refused_by_name_not_as_a_bad_request(
        api: Any, data_dir: Path) -> None:
    api.start()
    api.start(["Aino", "Bertil"])                  # game 2 is played, game 1 left
    with sqlite3.connect(data_dir / "dicetray.sqlite3") as conn:
        conn.execute("UPDATE games SET options = '[1, 2]' WHERE id = 1")
    resp = api.client.get("/api/games")
    assert resp.status_code == 503
    error = resp.get_json()["error"]
    assert str(data_dir / "dicetray.sqlite3") in error
    assert "game 1's options is damaged (a list where a dict belongs)" in error


def test_the_history_follows_a_correction_that_changes_who_won(api: Any) -> None:
    # Sum Chicago on the six low targets (2..7), thrown by hand: Aino throws 1+1 every
    # round and hits only the 2; Bertil throws 6+6 and hits nothing.
    api.start(["Aino", "Bertil"], rounds="low")
    for i in range(12):
        api.post("roll", {"dice": [1, 1] if i % 2 == 0 else [6, 6]})
    assert api.state()["game"]["winner"] == "Aino"
    assert api.client.get("/api/games").get_json()[0]["winner"] == "Aino"
    # Bertil's throw in round 2 was in fact 1+2, a hit of the 3: Bertil wins, 3 to 2.
    api.post("correct", {"action": 3, "dice": [1, 2]})
    assert api.state()["game"]["winner"] == "Bertil"
    assert api.client.get("/api/games").get_json()[0]["winner"] == "Bertil"


def test_a_stop_before_the_result_was_recorded_is_put_right_at_the_next_start(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(Store(data_dir))
    table.new_game("sum_chicago", ["Aino"], {"rounds": "low"})
    for _ in range(5):
        table.hand_roll([1, 1])
    # The power goes just after the last throw is stored, before the result is.
    monkeypatch.setattr(table.store, "mark_finished", _power_cut)
    table.hand_roll([1, 1])
    assert table.state()["game"]["finished"]        # the throw stands and is shown
    assert table.store.game(1).finished is None     # ... but the history missed it
    table.store.close()
    again = Table(Store(data_dir))
    assert again.store.game(1).finished is not None and again.store.game(1).winner == "Aino"
    again.store.close()


def _power_cut(*_args: Any, **_kwargs: Any) -> None:
    raise StoreError("the database cannot be written just now")


@pytest.mark.parametrize("dice", ["[1, 2]", "[null]"])
def test_a_reading_whose_dice_went_bad_is_refused_by_name_at_every_tap(
        api: Any, data_dir: Path, dice: str) -> None:
    api.start(["Aino", "Bertil"])
    api.table.handle_reading(reading(1, 5, 2))          # three dice: it waits
    rid = api.state()["reading"]["id"]
    db = data_dir / "dicetray.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE readings SET dice = ? WHERE id = ?", (dice, rid))
    for body in ({"reading": rid, "die": 0, "value": 3}, {"reading": rid, "remove": 0},
                 {"reading": rid, "add": 3}):
        out = api.post("correct", body, status=503)
        assert str(db) in out["error"] and f"reading {rid}'s dice is damaged" in out["error"]
    out = api.post("confirm", {"reading": rid}, status=503)
    assert "among its items, where a dict belongs" in out["error"]


def test_a_damaged_current_game_number_is_refused_by_name(data_dir: Path) -> None:
    _play_and_close(data_dir, 1)
    db = data_dir / "dicetray.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = 'x' WHERE key = 'current'")
    with pytest.raises(StoreError, match="the current game's number is damaged"):
        Table(Store(data_dir))


def test_a_games_row_gone_bad_under_a_throw_does_not_take_the_throw_back(
        api: Any, data_dir: Path) -> None:
    """The throw is stored before the history's line is looked at: a damaged line must
    not answer 'failed' for a throw that stands (a retry would score it twice)."""
    api.start(["Aino", "Bertil"])
    with sqlite3.connect(data_dir / "dicetray.sqlite3") as conn:
        conn.execute("UPDATE games SET players = ?", ('{"x": 1}',))
    s = api.post("roll", {"dice": [1, 1]})
    assert s["game"]["players"][0]["score"] == 2 and len(api.table.game.log) == 1


def test_an_emptied_database_is_refused_while_its_copy_holds_the_games(data_dir: Path) -> None:
    """A database cut to nothing (a power cut, a full card) is not a new one: started
    afresh, the next copy would replace the only copy of the family's games."""
    _play_and_close(data_dir, 2)
    db, copy = data_dir / "dicetray.sqlite3", data_dir / "dicetray-copy.sqlite3"
    kept = copy.read_bytes()
    db.write_bytes(b"")
    with pytest.raises(StoreError) as err:
        Store(data_dir)
    assert str(db) in str(err.value) and "empty" in str(err.value)
    assert "holds 1 game: to go back to it" in str(err.value)
    assert db.read_bytes() == b"" and copy.read_bytes() == kept


def _as_the_power_went(tmp_path: Path) -> Path:
    """A data folder as a power cut leaves it: a game of three throws, its newest changes
    still in the -wal, and the copy taken at its start."""
    played, cut = tmp_path / "played", tmp_path / "cut"
    table = Table(Store(played))
    table.new_game("sum_chicago", ["Aino", "Bertil"])
    # The copy is taken in a thread of its own: on a busy host it began after the throws.
    table.store.copies_taken()
    for _ in range(3):
        table.hand_roll([1, 1])
    cut.mkdir()
    for name in ("dicetray.sqlite3", "dicetray.sqlite3-wal", "dicetray-copy.sqlite3"):
        (cut / name).write_bytes((played / name).read_bytes())
    table.store.close()
    return cut


def test_a_database_moved_away_without_its_wal_does_not_lose_the_throws_in_it(
        tmp_path: Path) -> None:
    """After a power cut (or kill -9) the newest changes, often all of them, lie in
    dicetray.sqlite3-wal. A database moved away to start afresh without that file was
    started afresh all the same, and SQLite deleted the -wal: the throws were gone from
    the file moved away and from the copy. It is refused, the -wal left as it is."""
    cut = _as_the_power_went(tmp_path)
    (cut / "dicetray.sqlite3").rename(cut / "old.sqlite3")       # its -wal left behind
    wal = cut / "dicetray.sqlite3-wal"
    left = wal.read_bytes()
    with pytest.raises(StoreError) as err:
        Store(cut)
    assert str(wal) in str(err.value) and "left as it is" in str(err.value)
    assert wal.read_bytes() == left and not (cut / "dicetray.sqlite3").exists()
    assert (cut / "dicetray-copy.sqlite3").exists()               # not set aside either
    # Doing what it says: beside its database, the throws are there.
    wal.rename(cut / "old.sqlite3-wal")
    with closing(sqlite3.connect(cut / "old.sqlite3")) as old:
        assert old.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 3


def test_the_copy_renamed_into_place_beside_the_old_wal_is_refused_not_mixed_with_it(
        tmp_path: Path) -> None:
    """Going back to the copy, the database's -wal must go too: left behind, SQLite
    read the old database's newest pages into the copy renamed into its place, a mix
    of two databases. It is refused, both files left as they are."""
    cut = _as_the_power_went(tmp_path)
    db, wal = cut / "dicetray.sqlite3", cut / "dicetray.sqlite3-wal"
    db.rename(cut / "bad.sqlite3")                                # its -wal forgotten
    (cut / "dicetray-copy.sqlite3").rename(db)
    copy, left = db.read_bytes(), wal.read_bytes()
    with pytest.raises(StoreError) as err:
        Store(cut)
    assert str(wal) in str(err.value) and "not its own" in str(err.value)
    assert db.read_bytes() == copy and wal.read_bytes() == left
    wal.rename(cut / "bad.sqlite3-wal")                           # as it says
    again = Table(Store(cut))
    assert again.state()["game"]["actions"] == 0                  # the copy, as taken
    again.store.close()


def test_an_empty_database_with_no_games_kept_anywhere_is_a_new_one(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "dicetray.sqlite3").write_bytes(b"")
    store = Store(data_dir)
    assert store.revision == 0 and store.current_game_id() is None
    store.close()


def test_a_database_moved_away_to_start_afresh_leaves_its_copy_kept_aside(
        data_dir: Path) -> None:
    _play_and_close(data_dir, 2)
    (data_dir / "dicetray.sqlite3").rename(data_dir / "old.sqlite3")
    kept = (data_dir / "dicetray-copy.sqlite3").read_bytes()
    table = Table(Store(data_dir))
    table.new_game("sum_chicago", ["Cecilia"])             # the first copy of the new one
    table.store.close()
    aside = sorted(data_dir.glob("dicetray-copy-*.sqlite3"))
    assert [p.read_bytes() for p in aside] == [kept]
    with sqlite3.connect(data_dir / "dicetray-copy.sqlite3") as conn:
        assert conn.execute("SELECT players FROM games").fetchall() == [('["Cecilia"]',)]
    conn.close()


def test_a_copy_kept_aside_is_not_written_over_by_one_kept_aside_at_the_same_time(
        data_dir: Path) -> None:
    """A Pi has no clock of its own: until the network sets it, each boot may read the
    same date. Two databases moved away to start afresh can so leave copies taken at
    the same second by the clock; the second one kept aside takes a name of its own."""
    copy = data_dir / "dicetray-copy.sqlite3"
    _play_and_close(data_dir, 2)
    os.utime(copy, (0, 0))                   # taken at 1970-01-01 00:00:00 by that clock
    first = copy.read_bytes()
    (data_dir / "dicetray.sqlite3").rename(data_dir / "old.sqlite3")
    table = Table(Store(data_dir))
    table.new_game("sum_chicago", ["Cecilia"])
    table.store.close()
    os.utime(copy, (0, 0))
    second = copy.read_bytes()
    (data_dir / "dicetray.sqlite3").rename(data_dir / "older.sqlite3")
    Store(data_dir).close()
    aside = [p.read_bytes() for p in data_dir.glob("dicetray-copy-*.sqlite3")]
    assert sorted(aside) == sorted([first, second])


def test_a_damaged_copy_is_kept_aside_too_when_a_database_is_started_afresh(
        data_dir: Path) -> None:
    """A memory card going bad can take the copy with the database. The database moved
    away to start afresh, the copy that could not be read was taken for no copy, and the
    new database's first copy was written over it, and over what games it still held."""
    _play_and_close(data_dir, 2)
    copy = data_dir / "dicetray-copy.sqlite3"
    _damage(copy)
    damaged = copy.read_bytes()
    (data_dir / "dicetray.sqlite3").rename(data_dir / "old.sqlite3")
    table = Table(Store(data_dir))
    table.new_game("sum_chicago", ["Cecilia"])             # the first copy of the new one
    table.store.close()
    assert [p.read_bytes() for p in data_dir.glob("dicetray-copy-*.sqlite3")] == [damaged]


@pytest.mark.parametrize("edit, said", [
    ("UPDATE meta SET value = '999' WHERE key = 'schema'", "written by a newer dicetray"),
    ("UPDATE meta SET value = 'abc' WHERE key = 'schema'", "its schema version is damaged"),
    ("DELETE FROM meta WHERE key = 'schema'", "its schema version is damaged"),
    ("UPDATE meta SET value = 'abc' WHERE key = 'revision'", "its revision is damaged"),
    ("UPDATE meta SET value = 'x' WHERE key = 'current'", "the current game's number is damaged"),
    ("UPDATE meta SET value = '99' WHERE key = 'current'", "the current game 99 is missing"),
])
def test_a_refused_database_is_left_byte_for_byte(data_dir: Path, edit: str, said: str) -> None:
    _play_and_close(data_dir, 1)
    db = data_dir / "dicetray.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")         # as a copy is kept: WAL shows
        conn.execute(edit)
    conn.close()
    before = db.read_bytes()
    with pytest.raises(StoreError) as err:
        Table(Store(data_dir))
    assert str(err.value).startswith(f"{db}: ") and said in str(err.value)
    assert db.read_bytes() == before                        # not even switched to WAL mode


def test_a_data_folder_that_cannot_be_used_is_refused_by_name(data_dir: Path) -> None:
    (data_dir / "dicetray.lock").mkdir(parents=True)        # no file can be opened there
    with pytest.raises(StoreError, match=f"{data_dir}: cannot use the data folder"):
        Store(data_dir)



def test_a_data_folder_on_a_card_turned_read_only_says_so_not_to_choose_another(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A memory card going bad is remounted read only: the server said "choose another
    --data folder", as if the folder were the wrong one, and nothing of the games' safety
    or of the card."""
    import web.store

    _play_and_close(data_dir, 1)

    def read_only(path: Any, *args: Any) -> Any:
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(web.store, "open", read_only, raising=False)
    with pytest.raises(StoreError) as refused:
        Store(data_dir)
    said = str(refused.value)
    assert said == (f"{data_dir}: the memory card cannot be written (Read-only file system: "
                    "it may be failing); the games in this folder are kept as they are: copy "
                    "it off the card, then replace the card")

def test_a_folder_where_the_database_belongs_is_refused_as_such_naming_the_copy(
        data_dir: Path) -> None:
    """SQLite's "unable to open database file" said nothing of what to do, and moved
    away to start afresh, the folder would have the copy kept aside: it names the copy."""
    _play_and_close(data_dir, 2)
    db = data_dir / "dicetray.sqlite3"
    db.rename(data_dir / "old.sqlite3")
    db.mkdir()
    with pytest.raises(StoreError) as err:
        Store(data_dir)
    assert f"{db}: a folder, not the database file" in str(err.value)
    assert "rename dicetray-copy.sqlite3 to dicetray.sqlite3" in str(err.value)
    assert db.is_dir() and not list(db.iterdir())


@pytest.mark.parametrize("text", ["[1, 2, 3]", "null", '"players"'])
def test_a_settings_file_that_holds_no_settings_is_refused_not_written_over(
        api: Any, data_dir: Path, text: str) -> None:
    (data_dir / "settings.json").write_text(text)
    with pytest.raises(StoreError, match="settings.json: .* not an object"):
        api.table.store.load_settings()
    api.start(["Aino", "Bertil"])                           # the game starts all the same
    assert (data_dir / "settings.json").read_text() == text


def test_a_first_start_an_earlier_version_cut_short_opens_as_a_new_database(
        data_dir: Path) -> None:
    """Earlier versions made the tables, then wrote the meta rows: a stop between left
    tables and no meta rows, which they opened as new."""
    from web.store import _SCHEMA

    data_dir.mkdir(parents=True)
    with sqlite3.connect(data_dir / "dicetray.sqlite3") as conn:
        conn.executescript(_SCHEMA)
    conn.close()
    store = Store(data_dir)
    assert store.revision == 0 and store.current_game_id() is None
    store.close()


def test_another_programs_file_with_a_meta_and_a_games_table_is_refused_untouched(
        data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    db = data_dir / "dicetray.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.executescript("CREATE TABLE meta (key TEXT, value TEXT);"
                           "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT);")
    conn.close()
    before = db.read_bytes()
    with pytest.raises(StoreError, match="not a dicetray database"):
        Store(data_dir)
    assert db.read_bytes() == before


def test_a_database_holding_nothing_where_the_games_were_leaves_their_copy_kept_aside(
        data_dir: Path) -> None:
    from web.store import _SCHEMA

    _play_and_close(data_dir, 2)
    kept = (data_dir / "dicetray-copy.sqlite3").read_bytes()
    (data_dir / "dicetray.sqlite3").rename(data_dir / "old.sqlite3")
    with sqlite3.connect(data_dir / "dicetray.sqlite3") as conn:   # a first start cut short
        conn.executescript(_SCHEMA)
    conn.close()
    table = Table(Store(data_dir))
    table.new_game("sum_chicago", ["Cecilia"])
    table.store.close()
    assert [p.read_bytes() for p in data_dir.glob("dicetray-copy-*.sqlite3")] == [kept]


def test_no_throw_or_tap_reads_every_reading_ever_kept(data_dir: Path) -> None:
    # A year of evenings keeps some 40 000 readings: a query that walks them all at every
    # throw made a scored throw 14 ms instead of 0.8 (and a game's start, hundreds).
    store = Store(data_dir)
    game_id, _ = store.create_game("sum_chicago", {}, ["Aino", "Bertil"])
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)
    waiting, _ = store.add_reading(game_id, [{"value": 3}], "waiting", "Aino")
    store.append_action(game_id, 0, {"type": "roll", "player": "Aino", "dice": [3, 4]},
                        reading=waiting)
    store.append_action(game_id, 1, {"type": "roll", "player": "Bertil", "dice": [1, 2]},
                        new_reading=[{"value": 1}, {"value": 2}])
    store.latest_reading(game_id, ("superseded",))
    store.latest_reading(game_id + 1)                 # a game with no reading yet
    store.newest_reading(game_id, lambda r: True)
    store.reading_for_action(game_id, 1)
    store.update_reading(waiting, status="scored")
    store.make_current(game_id)
    store.create_game("pub_chicago", {}, ["Aino", "Bertil"])
    store._db.set_trace_callback(None)
    asked = [s for s in statements if " readings " in f"{s} " and s.split()[0] in ("SELECT", "UPDATE")]
    assert len(asked) >= 10
    plans = {s: [row[3] for row in store._db.execute(f"EXPLAIN QUERY PLAN {s}")] for s in asked}
    assert {s: p for s, p in plans.items() if "SCAN readings" in p} == {}
    store.close()


def test_a_copy_is_taken_while_a_throw_is_being_written(data_dir: Path) -> None:
    # The copy reads the database through a connection of its own, so neither waits for
    # the other: taken under the writers' lock, a year's database held a throw up 300 ms.
    store = Store(data_dir)
    store.create_game("sum_chicago", {}, ["Aino", "Bertil"])
    writing, done = threading.Event(), threading.Event()

    def long_write() -> None:
        with store._write() as db:
            db.execute("UPDATE meta SET value=value WHERE key='revision'")
            writing.set()
            done.wait(10)

    writer = threading.Thread(target=long_write)
    writer.start()
    writing.wait(5)
    copier = threading.Thread(target=store.keep_copy)
    copier.start()
    copier.join(10)
    finished_first = not copier.is_alive()
    done.set()
    writer.join(5)
    copier.join(5)
    assert finished_first, "the copy waited for a write"
    copied = sqlite3.connect(data_dir / "dicetray-copy.sqlite3")
    assert copied.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    copied.close()
    store.close()


def test_a_database_moved_away_under_the_server_is_not_copied_as_an_empty_one(
        data_dir: Path) -> None:
    store = Store(data_dir)
    store.create_game("sum_chicago", {}, ["Aino", "Bertil"])
    assert store.keep_copy()
    (data_dir / "dicetray.sqlite3").rename(data_dir / "moved.sqlite3")
    assert not store.keep_copy()
    assert not (data_dir / "dicetray.sqlite3").exists()       # no new empty database made
    copied = sqlite3.connect(data_dir / "dicetray-copy.sqlite3")
    assert copied.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    copied.close()
    store.close()


def test_a_game_started_before_the_pi_clock_was_set_says_the_day_it_was_played(
        data_dir: Path) -> None:
    """A Pi starts with the time it was last shut down at, and the network's time sets it
    a minute later: the game started in that minute, on a Thursday evening, was listed as
    started on the Sunday of the last shutdown (found by a clock audit). Set back two hours
    later, the times follow it; a game of an earlier run is left as it was written."""
    sunday = 1796586300.0                 # Sunday 2026-12-06, 19:45 UTC
    thursday = sunday + 4 * 86400
    monotonic = FakeClock()
    wall = FakeWall(monotonic, now=sunday)
    store = Store(data_dir, WallClock(wall, monotonic))
    store.create_game("sum_chicago", {}, ["Aino", "Bertil"])
    store.mark_finished(1, True, "Aino")
    monotonic.now += 60
    wall.set(thursday + 60)               # the network's time came
    store.append_action(1, 0, {"type": "roll", "player": "Aino", "dice": [1, 1]})
    assert (store.game(1).created, store.game(1).finished) == (thursday, thursday)
    monotonic.now += 600
    wall.set(thursday + 660 - 2 * 3600)   # set back two hours
    store.create_game("sum_chicago", {}, ["Aino", "Bertil"])
    assert [(g.id, g.created) for g in store.games()] == [
        (2, thursday + 660 - 2 * 3600), (1, thursday - 2 * 3600)]
    store.close()

    wall.set(thursday + 3 * 86400)        # another run, its clock set again
    store = Store(data_dir, WallClock(wall, monotonic))
    monotonic.now += 60
    wall.set(thursday)
    store.append_action(2, 0, {"type": "roll", "player": "Aino", "dice": [4, 4]})
    assert [g.created for g in store.games()] == [thursday + 660 - 2 * 3600, thursday - 2 * 3600]
    store.close()


def test_the_games_are_listed_while_the_times_a_set_clock_moves_cannot_be_written(
        data_dir: Path) -> None:
    """The clock was set while another program holds the database's write lock: the games
    are read as they are (the history is no error page), and their times set right once
    the lock is let go."""
    monotonic = FakeClock()
    wall = FakeWall(monotonic, now=300.0)
    store = Store(data_dir, WallClock(wall, monotonic))
    store._db.execute("PRAGMA busy_timeout = 50")            # not 5 s of waiting
    store.create_game("sum_chicago", {}, ["Aino", "Bertil"])
    wall.set(1796931900.0)
    other = sqlite3.connect(data_dir / "dicetray.sqlite3", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        assert [g.created for g in store.games()] == [300.0]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert [g.created for g in store.games()] == [1796931900.0]
    store.close()


def test_a_machine_waking_up_is_no_clock_set(monkeypatch: Any, data_dir: Path) -> None:
    """Asleep (a laptop running the demo, its lid shut for the night), a machine's
    monotonic clock stops while its wall clock and its time since boot run on: waking up
    was taken for the clock being set, and the evening's game moved to the morning."""
    clocks = {"wall": 1796931900.0, "since boot": 100.0}
    real_clock_gettime = time.clock_gettime
    monkeypatch.setattr(time, "time", lambda: clocks["wall"])
    monkeypatch.setattr(time, "monotonic", lambda: 100.0)
    monkeypatch.setattr(time, "clock_gettime", lambda which: clocks["since boot"]
                        if which == time.CLOCK_BOOTTIME else real_clock_gettime(which))
    store = Store(data_dir)
    store.create_game("sum_chicago", {}, ["Aino", "Bertil"])
    clocks["wall"] += 8 * 3600
    clocks["since boot"] += 8 * 3600
    assert [g.created for g in store.games()] == [1796931900.0]
    store.close()
