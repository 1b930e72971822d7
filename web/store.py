"""The SQLite store: games, their append-only action logs, camera readings and the revision.

One writer at a time (a lock), WAL journal, ``synchronous=FULL``: every call that
changes something commits before it returns, so once the web layer publishes a state
(and answers the request) the change survives a SIGKILL or a power cut.

The revision is a counter that only rises. It is bumped in the same transaction as the
change it stands for, so after a restart it continues from where it was.

A file that is not a dicetray database (or is damaged) is refused with
:class:`StoreError` naming the file; it is never silently replaced. A memory card can
still go bad under it, so the store keeps a copy of the database beside it
(:data:`COPY_NAME`), taken when a game starts or ends and every :data:`COPY_EVERY_S`
while one is played; the refusal says how to go back to that copy.
"""
from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from contextlib import closing, contextmanager

SCHEMA_VERSION = 1
DB_NAME = "dicetray.sqlite3"
LOCK_NAME = "dicetray.lock"
SETTINGS_NAME = "settings.json"
COPY_NAME = "dicetray-copy.sqlite3"
# At most this much play (seconds) is missing from the copy: a few throws, while a copy
# of a family's database takes milliseconds.
COPY_EVERY_S = 300.0
# The wall clock moved this far (seconds) against the time since boot was set: the two run
# at one rate (the network's slow corrections move both), so only a setting parts them.
CLOCK_SET_S = 2.0
# dicetray was written in 2026: a time before then was told by a clock never set (a Pi with
# no saved time and no network starts in 1970), and says no day.
CLOCKS_SET_FROM = 1767225600.0     # 2026-01-01 00:00 UTC

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    family TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL,
    winner TEXT,
    loser TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    body TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, idx)
);
CREATE TABLE IF NOT EXISTS readings (
    id INTEGER PRIMARY KEY,
    game INTEGER REFERENCES games(id),
    dice TEXT NOT NULL,
    status TEXT NOT NULL,
    player TEXT,
    action INTEGER,
    note TEXT,
    created REAL NOT NULL
);
-- Readings pile up, a year of evenings makes some 40 000: without these every throw and
-- tap read them all (3 ms per query at 10 000, 12.5 at 40 000; a throw scored 14 ms in
-- all instead of 0.8). A game's newest first; the one a roll came from; those waiting.
CREATE INDEX IF NOT EXISTS readings_of_a_game ON readings (game, id);
CREATE INDEX IF NOT EXISTS readings_by_action ON readings (game, action);
CREATE INDEX IF NOT EXISTS readings_waiting ON readings (game) WHERE status = 'waiting';
"""


# The columns of the games table every dicetray database has had (``loser`` came later).
_GAME_COLUMNS = frozenset({"id", "family", "options", "players", "created", "finished", "winner"})


class StoreError(RuntimeError):
    """The data folder cannot be used; the message names the file and what to do.
    ``trouble``, when the memory card refused a write, says what is wrong with it and what
    to do in the family's words (:func:`storage_trouble`)."""

    def __init__(self, message: str, trouble: tuple[str, str] | None = None) -> None:
        super().__init__(message)
        self.trouble = trouble

    @property
    def plain(self) -> str | None:
        """The refusal of a tap, in the family's words, when the memory card refused it."""
        return refusal_words(self.trouble)


# Why the memory card refused a write, said for a family: what is wrong and what to do.
# SQLite names the fault (``sqlite_errorname``), a file write its errno.
_FULL = ("the appliance's storage is full", "make room on its memory card")
_READ_ONLY = ("the appliance's memory card cannot be written (it may be failing)",
              "restart the appliance; if this comes back, copy its data folder off the "
              "card and replace the card")
_HELD = ("another program is holding the appliance's games file", "wait a moment")
_TROUBLES = {"SQLITE_FULL": _FULL, "SQLITE_READONLY": _READ_ONLY, "SQLITE_IOERR": _READ_ONLY,
             "SQLITE_BUSY": _HELD, "SQLITE_LOCKED": _HELD}
_ERRNO_TROUBLES = {errno.ENOSPC: _FULL, errno.EDQUOT: _FULL, errno.EROFS: _READ_ONLY,
                   errno.EIO: _READ_ONLY}


def storage_trouble(exc: BaseException) -> tuple[str, str] | None:
    """What is wrong with the storage and what to do, when ``exc`` is the memory card
    refusing a write (full, turned read only, failing, held); ``None`` for anything else."""
    if isinstance(exc, OSError):
        return _ERRNO_TROUBLES.get(exc.errno or 0)
    if isinstance(exc, sqlite3.Error):
        # The extended names say more after the first part: SQLITE_IOERR_WRITE, ...
        name = getattr(exc, "sqlite_errorname", "") or ""
        return _TROUBLES.get("_".join(name.split("_")[:2]))
    return None


def refusal_words(trouble: tuple[str, str] | None) -> str | None:
    """A tap refused as the storage would not take it, in the family's words."""
    if trouble is None:
        return None
    cause, remedy = trouble
    return f"{cause}: nothing was saved; {remedy}, then tap again"


@dataclass(frozen=True)
class GameRow:
    """A game as the store keeps it (its log lives in the ``actions`` table)."""

    id: int
    family: str
    options: dict[str, Any]
    players: list[str]
    created: float
    finished: float | None
    winner: str | None
    loser: str | None = None     # a Pub Chicago game finds its loser, not a winner

    def to_json(self) -> dict[str, Any]:
        """For the history page and ``/api/games``."""
        return {"id": self.id, "family": self.family, "options": self.options,
                "players": self.players, "created": self.created,
                "finished": self.finished, "winner": self.winner, "loser": self.loser}


@dataclass(frozen=True)
class ReadingRow:
    """A camera reading: its dice (``DieRead.to_json`` shape) and what became of it.

    ``status`` is ``scored`` (applied as a roll, ``action`` is its log index),
    ``waiting`` (a person must check the tray), or ``superseded`` (a newer throw or a
    hand-entered one took its place).
    """

    id: int
    game: int | None
    dice: list[dict[str, Any]]
    status: str
    player: str | None
    action: int | None
    note: str | None
    created: float

    def to_json(self) -> dict[str, Any]:
        """For ``/api/state``'s ``reading``."""
        return {"id": self.id, "game": self.game, "dice": self.dice, "status": self.status,
                "player": self.player, "action": self.action, "note": self.note,
                "created": self.created}


class WallClock:
    """The wall clock the store writes its times by, and how far it was set.

    A Raspberry Pi has no clock of its own: it starts with the time it was last shut down
    at (or 1970), and is set, by hours or days, when the network's time comes a minute
    later (or never). The time since the machine started runs on untouched: a time taken
    earlier is told again by the clock as set now as that time plus :meth:`setting`.
    ``wall`` and ``since_boot`` are for tests (fake clocks).
    """

    def __init__(self, wall: Callable[[], float] | None = None,
                 since_boot: Callable[[], float] | None = None) -> None:
        self._wall = wall or _wall_time
        self.since_boot = since_boot or _since_boot

    def now(self) -> float:
        """The wall clock's time (seconds since 1970)."""
        return self._wall()

    def setting(self) -> float:
        """How far the wall clock is ahead of the time since boot: a new value once set."""
        return self._wall() - self.since_boot()


def _wall_time() -> float:
    """The wall clock's time, looked up as it is asked for (a test may stand in for it)."""
    return time.time()


def _since_boot() -> float:
    """Seconds since the machine started, asleep or not: the monotonic clock stops while a
    machine sleeps (a laptop running the demo) and the wall clock does not, and waking up
    is no setting of the clock."""
    return time.clock_gettime(time.CLOCK_BOOTTIME)


class Store:
    """The dicetray database in a data folder (created when missing). ``clock`` tells the
    times it writes (tests pass one over fake clocks)."""

    def __init__(self, data_dir: str | os.PathLike[str], clock: WallClock | None = None) -> None:
        self._clock = clock or WallClock()
        # The games started and ended in this run, by the time since boot they were: their
        # times are written again when the wall clock is set (a Pi's first minute).
        self._setting = self._clock.setting()
        self._started_here: dict[int, float] = {}
        self._ended_here: dict[int, float] = {}
        self.dir = Path(data_dir).expanduser()
        if self.dir.exists() and not self.dir.is_dir():
            raise StoreError(f"{self.dir}: a file, not a folder: the data folder holds the "
                             "database and its copy")
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{self.dir}: cannot create the data folder ({exc.strerror})") from None
        self.path = self.dir / DB_NAME
        self.copy_path = self.dir / COPY_NAME
        self._copy_asked: float | None = None       # monotonic time of the last copy asked
        self._copier: threading.Thread | None = None
        self._copy_again = False
        self._copy_lock = threading.Lock()
        self._copying = threading.Lock()
        self._lock = threading.RLock()
        self._lock_file = self._claim()
        try:
            self._db = self._open()
        except BaseException:
            self._lock_file.close()
            raise
        self._file_id = _file_id(self.path)

    def _claim(self) -> Any:
        """Take the data folder for this process: two servers on one database would
        interleave their games. The kernel drops the lock when the process dies."""
        try:
            f = open(self.dir / LOCK_NAME, "a+")
        except OSError as exc:
            if storage_trouble(exc) is _READ_ONLY:
                # A card going bad, remounted read only: another folder is not the answer.
                raise StoreError(f"{self.dir}: the memory card cannot be written "
                                 f"({exc.strerror}: it may be failing); the games in this "
                                 "folder are kept as they are: copy it off the card, then "
                                 "replace the card", _READ_ONLY) from None
            raise StoreError(f"{self.dir}: cannot use the data folder ({exc.strerror}: "
                             f"{exc.filename}); choose another --data folder") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise StoreError(f"{self.dir}: another dicetray is using this data folder; "
                             "stop it or choose another --data folder") from None
        return f

    # -- opening ---------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        exists = self.path.exists()
        if self.path.is_dir():
            raise StoreError(f"{self.path}: a folder, not the database file; it was left as "
                             f"it is: move it away to start afresh{self.copy_hint()}")
        if exists and self.path.stat().st_size == 0 and self._copied_games():
            # Cut to nothing (a power cut, a full card): not a new database. Started
            # afresh, the next copy would replace the only copy of the games.
            raise StoreError(f"{self.path}: the database is empty (0 bytes); it was left as "
                             f"it is{self.copy_hint()}")
        wal = self.path.with_name(self.path.name + "-wal")
        if (not exists or self.path.stat().st_size == 0) and _size(wal):
            # After a power cut the newest changes, often all of them, lie in the -wal;
            # SQLite deletes it when it opens a new database in that file's place.
            raise StoreError(f"{wal}: the newest changes of a database that is no longer "
                             f"beside it (moved away, or cut to nothing, when the server was "
                             f"not stopped); it was left as it is: put it beside that "
                             f"database, named as that file with -wal after it, or move it "
                             f"away to start afresh")
        if _size(wal) and _journalled(self.path):
            # The copy renamed into place, the database's -wal left behind: SQLite would
            # read that database's newest pages into the copy, a mix of the two.
            raise StoreError(f"{wal}: left beside a database that is not its own "
                             f"({self.path.name} keeps no -wal: it was put in place, as the "
                             f"copy is); both were left as they are: move {wal.name} (and "
                             f"any -shm) away, or back beside the database it belongs to")
        # A copy that cannot be read is kept aside too: the new database's first copy
        # would be written over the games it may hold still.
        if not exists and self._games_in(self.copy_path) != 0:
            self._set_old_copy_aside()
        try:
            # check_same_thread=False: the lock, not the thread, guards the connection.
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the database ({exc})") from None
        try:
            if self._check_ours(db) and exists and self._games_in(self.copy_path) != 0:
                # A file holding nothing where the games were (a first start cut short
                # after the database was moved away): the copy of the games is kept aside.
                self._set_old_copy_aside()
            # Only now, the file being ours: WAL mode is written into the file's header,
            # and a file refused must be left exactly as it was.
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            # The tables and their first meta rows together: a first start cut short
            # leaves a file with no tables, which the next start takes for a new one.
            db.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} INSERT OR IGNORE INTO meta VALUES "
                             f"('schema', '{SCHEMA_VERSION}'), ('revision', '0'); COMMIT;")
            _add_loser_column(db)
        except BaseException as exc:
            db.close()
            if isinstance(exc, sqlite3.OperationalError):
                # Permissions, a full disk, a folder where the file should be: not damage.
                raise StoreError(f"{self.path}: cannot open the database ({exc})") from None
            if isinstance(exc, sqlite3.DatabaseError):
                raise self.damaged(str(exc)) from None
            raise
        return db

    def damaged(self, why: str) -> StoreError:
        """The refusal of a damaged database: its name, why, and the copy to go back to."""
        return StoreError(
            f"{self.path}: the database is damaged or not a dicetray database ({why}); "
            f"it was left as it is: move it away to start afresh{self.copy_hint()}")

    def _check_ours(self, db: sqlite3.Connection) -> bool:
        """Refuse, before anything is written to it, a file that is not a whole dicetray
        database this version can use; True when it holds nothing yet (a new one)."""
        ok = db.execute("PRAGMA quick_check").fetchone()[0]
        if ok != "ok":
            raise sqlite3.DatabaseError(ok)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return True
        foreign = StoreError(f"{self.path}: this is an SQLite file but not a dicetray database; "
                             "move it away or choose another --data folder")
        games = {r[1] for r in db.execute("PRAGMA table_info(games)")}
        if not {"meta", "games"} <= tables or not _GAME_COLUMNS <= games:
            raise foreign
        try:
            meta = {str(k): v for k, v in db.execute("SELECT key, value FROM meta")}
        except sqlite3.OperationalError:       # a "meta" table of another program's
            raise foreign from None
        if not meta and db.execute("SELECT 1 FROM games LIMIT 1").fetchone() is None:
            return True  # an earlier version's first start cut short before its meta rows
        schema = _whole(meta.get("schema"))
        if schema is None:
            raise self.damaged(f"its schema version is damaged ({meta.get('schema')!r})")
        if schema > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: written by a newer dicetray (schema {schema}); "
                             "it was left as it is")
        if _whole(meta.get("revision")) is None:
            raise self.damaged(f"its revision is damaged ({meta.get('revision')!r})")
        game = self._current(meta.get("current"))
        if game is not None:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise StoreError(f"{self.path}: the current game {game} is missing; the "
                                 f"database was left as it is{self.copy_hint()}")
        return False

    def _copied_games(self) -> int:
        """How many games the copy beside the database holds (0 without a readable one)."""
        return self._games_in(self.copy_path) or 0

    @staticmethod
    def _games_in(copy: Path) -> int | None:
        """How many games the copy ``copy`` (the one beside the database, or one kept
        aside) holds: 0 without a copy, ``None`` for one that cannot be read (damaged, it
        may hold games still)."""
        if not copy.is_file() or _size(copy) == 0:
            return 0
        try:
            # as_uri escapes what a file: URI would read otherwise ("#", "?", "%").
            uri = f"{copy.absolute().as_uri()}?mode=ro"
            # closing(): a connection's own "with" ends a transaction, not the connection.
            with closing(sqlite3.connect(uri, uri=True)) as db:
                if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    return None
                return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        except (OSError, sqlite3.Error):
            return None

    def _set_old_copy_aside(self) -> None:
        """The database was moved away to start afresh: the copy of its games is kept
        under a name of its own, so the new database's first copy cannot replace it."""
        aside = self._copy_aside()
        log.warning("%s: no database, so a new one is started; the copy of the games before "
                    "is kept as %s", self.path, aside)

    def keep_copy_aside(self) -> Path | None:
        """Keep the copy under a name of its own, where the next copy cannot replace it:
        the database holds a game that cannot be continued (``web.table``) and play goes
        on, so the copy taken before may be the one to go back to. Returns its new path,
        ``None`` when there is no copy holding a game (nothing to keep)."""
        if not self._copied_games():
            return None
        return self._copy_aside()

    def _copy_aside(self) -> Path:
        taken = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.copy_path.stat().st_mtime))
        aside = self.copy_path.with_name(f"{self.copy_path.stem}-{taken}{self.copy_path.suffix}")
        more = 1
        while aside.exists():
            # Kept aside at the same second by the clock (a Pi's clock not yet set reads
            # the same date at every boot): that copy is not written over.
            more += 1
            aside = self.copy_path.with_name(
                f"{self.copy_path.stem}-{taken}-{more}{self.copy_path.suffix}")
        try:
            os.replace(self.copy_path, aside)
        except OSError as exc:
            raise StoreError(f"{self.copy_path}: cannot keep the copy of the games before aside "
                             f"as {aside.name} ({exc.strerror}); move it away by hand") from None
        return aside

    # -- the copy ----------------------------------------------------------------------------

    def keep_copy(self) -> bool:
        """Copy the database to :attr:`copy_path` (a whole, consistent copy, written
        beside it and renamed over the old one). A copy that cannot be written, or of a
        database found damaged, is logged and skipped (the old copy stays): the game goes
        on. Returns whether a copy was written."""
        with self._copying:     # one copy at a time: they share the file written
            return self._keep_copy()

    def _keep_copy(self) -> bool:
        tmp = self.copy_path.with_name(self.copy_path.name + ".tmp")
        try:
            tmp.unlink(missing_ok=True)
            copy = sqlite3.connect(tmp)
            try:
                self._copy_pages_into(copy)
                # One file, readable with no -wal or -shm beside it.
                copy.execute("PRAGMA journal_mode=DELETE")
                # Pages gone bad under the running server are copied as they are: checked
                # here, so they never take the place of the good copy taken before.
                verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                copy.close()
            if verdict != "ok":
                log.warning("%s: the database is damaged (%s); the copy taken before is kept",
                            self.path, verdict)
                tmp.unlink(missing_ok=True)
                return False
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            os.replace(tmp, self.copy_path)
            _sync_folder(self.dir)      # the rename itself survives a power cut
            return True
        except (OSError, sqlite3.Error) as exc:
            log.warning("%s: could not keep a copy of the database (%s)", self.copy_path, exc)
            tmp.unlink(missing_ok=True)
            return False

    def _copy_pages_into(self, copy: sqlite3.Connection) -> None:
        """Copy the database's pages into ``copy`` as of one moment, without holding up a
        throw: read through a connection of its own, in one step, the copy sees the
        database as it was when it began, while the server's connection goes on writing
        (write-ahead logging lets a reader and a writer pass). Taken under the writers'
        lock instead, a year's database (35 MB) held the next throw up 180-300 ms."""
        # The file the server writes, never one put in its place since (a database moved
        # away to start afresh): opened without creating one, and checked to be the same.
        source = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=rw", uri=True,
                                 timeout=10)
        try:
            if _file_id(self.path) != self._file_id:
                raise sqlite3.OperationalError("the database file was replaced under the "
                                               "server; it is copied no more")
            source.backup(copy)
        finally:
            source.close()

    def copy_hint(self, copy: Path | None = None) -> str:
        """What to say about the copy (or ``copy``, one kept aside) when the database
        cannot be used: when it was taken and how to go back to it, or nothing when there
        is no readable copy."""
        copy = copy or self.copy_path
        games = self._games_in(copy) or 0
        try:
            taken = _taken(copy.stat().st_mtime)
        except OSError:
            return ""
        if not games:
            return ""
        return (f". A copy taken {taken} holds {games} game{'s' if games != 1 else ''}: to go "
                f"back to it, move {self.path.name} (and any {self.path.name}-wal and -shm) "
                f"away and rename {copy.name} to {self.path.name}")

    def _copy_if_due(self) -> None:
        """A copy on the first change since the store opened, then every COPY_EVERY_S."""
        if self._copy_asked is None or time.monotonic() - self._copy_asked >= COPY_EVERY_S:
            self._copy_soon()

    def _copy_soon(self) -> None:
        """Take a copy in a thread of its own, so no throw waits for it on its way to the
        screens; asked while one is being taken, one more follows it."""
        self._copy_asked = time.monotonic()
        with self._copy_lock:
            if self._copier is not None:
                self._copy_again = True
                return
            self._copier = threading.Thread(target=self._copy_while_asked,
                                            name="dicetray-copy", daemon=True)
            self._copier.start()

    def _copy_while_asked(self) -> None:
        while True:
            self.keep_copy()
            with self._copy_lock:
                if not self._copy_again:
                    self._copier = None
                    return
                self._copy_again = False

    def copies_taken(self) -> None:
        """Wait until the copies asked for so far are written (tests, and close)."""
        with self._copy_lock:
            copier = self._copier
        if copier is not None:
            copier.join()

    def close(self) -> None:
        """Close the connection (the WAL is checkpointed by SQLite), once the copy being
        taken is written."""
        self.copies_taken()
        with self._lock:
            self._db.close()
            self._lock_file.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction under the writer lock; it commits (durably) on leaving."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise self._cannot_write(exc) from None
            try:
                setting = self._clock_set()
                if setting is not None:
                    self._times_set_right(self._db, setting)
                yield self._db
                self._db.execute("COMMIT")
                if setting is not None:
                    self._setting = setting
            except BaseException as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError):
                    raise self._cannot_write(exc) from None
                if type(exc) is sqlite3.DatabaseError:  # "malformed": gone bad under us
                    raise self.damaged(str(exc)) from None
                raise

    def _clock_set(self) -> float | None:
        """The wall clock's new setting when it was set since the games of this run were
        given their times, else ``None``."""
        setting = self._clock.setting()
        return setting if abs(setting - self._setting) >= CLOCK_SET_S else None

    def _times_set_right(self, db: sqlite3.Connection, setting: float) -> None:
        """Say the times the games of this run started and ended by the clock's new
        ``setting``: a game started before a Pi's clock was set was listed as started the
        day the Pi was last shut down (or in 1970). A reading keeps its time, which names
        its throw in the calibration file (``web.table._throw``); no one reads the log's."""
        for game_id, started in self._started_here.items():
            db.execute("UPDATE games SET created = ? WHERE id = ?", (started + setting, game_id))
        for game_id, ended in self._ended_here.items():
            db.execute("UPDATE games SET finished = ? WHERE id = ? AND finished IS NOT NULL",
                       (ended + setting, game_id))

    def _follow_clock(self) -> None:
        """Before the games are read: their times are set right if the clock was set
        (a write does it). A database that cannot be written now is still read: the
        times wait for the next write."""
        if self._clock_set() is None:
            return
        try:
            with self._write():
                pass
        except StoreError as exc:
            log.warning("the games' times keep the clock's old setting for now: %s", exc)

    def _cannot_write(self, exc: sqlite3.OperationalError) -> StoreError:
        """Another program holding the database (locked), a full disk, a file made read
        only: the change is refused, naming the file, and nothing of it is kept."""
        return StoreError(f"{self.path}: cannot write the database ({exc}); nothing was "
                          "changed: close the other program using it, or free disk space",
                          storage_trouble(exc))

    def _bump(self, db: sqlite3.Connection) -> int:
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key='revision'")
        return int(db.execute("SELECT value FROM meta WHERE key='revision'").fetchone()[0])

    # -- revision and current game ---------------------------------------------------------

    @property
    def revision(self) -> int:
        """The latest revision (0 for a new store)."""
        with self._lock:
            return int(self._db.execute("SELECT value FROM meta WHERE key='revision'").fetchone()[0])

    def bump(self) -> int:
        """A new revision with no other change in the database (the calibration file
        changed, a draw went on)."""
        with self._write() as db:
            return self._bump(db)

    def current_game_id(self) -> int | None:
        """The game in progress (the latest one started), if any."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key='current'").fetchone()
        return self._current(row[0] if row else None)

    def _current(self, value: Any) -> int | None:
        """The current game's number as meta holds it (``None`` for none), or StoreError."""
        if not value:
            return None
        game = _whole(value)
        if game is None:
            raise StoreError(f"{self.path}: the current game's number is damaged ({value!r}); "
                             f"the database was left as it is{self.copy_hint()}")
        return game

    def demo_game_id(self) -> int | None:
        """The game the demo family last started (``serve --demo``), if it recorded one."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key='demo_game'").fetchone()
        return _whole(row[0]) if row else None

    def set_demo_game(self, game_id: int) -> None:
        """Record that the demo family started ``game_id``: after a restart it plays that
        game again, and no other (a person's game with the start form's names is theirs)."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('demo_game', ?)", (str(game_id),))

    # -- games -----------------------------------------------------------------------------

    def create_game(self, family: str, options: dict[str, Any], players: list[str]) -> tuple[int, int]:
        """Record a new game and make it current; returns ``(game id, revision)``."""
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (family, options, players, created) VALUES (?, ?, ?, ?)",
                (family, json.dumps(options), json.dumps(players), self._clock.now()))
            game_id = int(cur.lastrowid or 0)
            self._started_here[game_id] = self._clock.since_boot()
            db.execute("INSERT OR REPLACE INTO meta VALUES ('current', ?)", (str(game_id),))
            # A waiting reading belonged to the old game: it no longer waits.
            db.execute("UPDATE readings SET status='superseded' WHERE status='waiting'")
            revision = self._bump(db)
        self._copy_soon()
        return game_id, revision

    def make_current(self, game_id: int) -> int:
        """Make an earlier game the current one again (it is continued); returns the
        revision. Readings left waiting belonged to the game being left."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('current', ?)", (str(game_id),))
            db.execute("UPDATE readings SET status='superseded' WHERE status='waiting'")
            return self._bump(db)

    def append_action(self, game_id: int, index: int, action: dict[str, Any], *,
                      reading: int | None = None,
                      reading_dice: list[dict[str, Any]] | None = None,
                      new_reading: list[dict[str, Any]] | None = None) -> tuple[int, int | None]:
        """Append one action at log ``index``, in one transaction with its reading.

        ``reading`` links (a roll) or updates (``reading_dice``, for a correction) an
        existing reading; ``new_reading`` records the camera's dice as a new reading and
        puts its id in the action as ``"reading"`` (so ``action`` is changed in place).
        Returns ``(revision, reading id or None)``.
        """
        with self._write() as db:
            if new_reading is not None:
                cur = db.execute(
                    "INSERT INTO readings (game, dice, status, player, created) "
                    "VALUES (?, ?, 'scored', ?, ?)",
                    (game_id, json.dumps(new_reading), action.get("player"), self._clock.now()))
                reading = int(cur.lastrowid or 0)
                action["reading"] = reading
            if action.get("type") == "roll":
                # Any throw scored (by camera or by hand) settles a reading left waiting.
                db.execute("UPDATE readings SET status='superseded' "
                           "WHERE status='waiting' AND game=?", (game_id,))
            db.execute("INSERT INTO actions (game, idx, body, at) VALUES (?, ?, ?, ?)",
                       (game_id, index, json.dumps(action), self._clock.now()))
            if reading is not None:
                if action.get("type") == "roll":
                    # Scored: why it had to wait no longer matters.
                    db.execute("UPDATE readings SET status='scored', action=?, player=?, note=NULL "
                               "WHERE id=?",
                               (index, action.get("player"), reading))
                if reading_dice is not None:
                    db.execute("UPDATE readings SET dice=? WHERE id=?",
                               (json.dumps(reading_dice), reading))
            revision = self._bump(db)
        self._copy_if_due()
        return revision, reading

    def mark_finished(self, game_id: int, finished: bool, winner: str | None,
                      loser: str | None = None) -> None:
        """Record whether a game is over and who won, or lost (derived data: replay can
        redo it)."""
        with self._write() as db:
            self._note_end(db, game_id, finished)
            # A game already over keeps the time it ended when a correction changes who won.
            db.execute("UPDATE games SET finished = CASE WHEN ? THEN COALESCE(finished, ?) END, "
                       "winner = ?, loser = ? WHERE id = ?",
                       (finished, self._clock.now(), winner, loser, game_id))
        if finished:
            self._copy_soon()

    def _note_end(self, db: sqlite3.Connection, game_id: int, finished: bool) -> None:
        """Keep when a game of this run ended (its time is set right with its start's)."""
        ended = db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if not finished:
            self._ended_here.pop(game_id, None)
        elif ended is not None and ended[0] is None:
            self._ended_here[game_id] = self._clock.since_boot()

    def game(self, game_id: int) -> GameRow | None:
        """One game's record, or ``None`` when there is no game ``game_id``."""
        if not _row_id(game_id):
            return None
        self._follow_clock()
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        return None if row is None else self._game_row(row)

    def games(self) -> list[GameRow]:
        """Every game, newest first."""
        self._follow_clock()
        with self._lock:
            rows = self._db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        return [self._game_row(r) for r in rows]

    def joined(self) -> dict[int, list[str]]:
        """Who joined each game after its start (Sum Chicago), in the order they joined: the
        history lists and finds them with the players who began it."""
        with self._lock:
            # The LIKE spares decoding every throw of a year of games.
            rows = self._db.execute("SELECT game, idx, body FROM actions WHERE body LIKE "
                                    "'%\"join\"%' ORDER BY game, idx").fetchall()
        found: dict[int, list[str]] = {}
        for game, idx, body in rows:
            action = self._decoded(body, f"action {idx} of game {game}", dict)
            player = action.get("player")
            if action.get("type") == "join" and isinstance(player, str):
                names = found.setdefault(game, [])
                if player not in names:
                    names.append(player)
        return found

    def actions(self, game_id: int) -> list[dict[str, Any]]:
        """A game's log, in order."""
        with self._lock:
            rows = self._db.execute("SELECT idx, body FROM actions WHERE game=? ORDER BY idx",
                                    (game_id,)).fetchall()
        return [self._decoded(body, f"action {idx} of game {game_id}", dict) for idx, body in rows]

    def game_file(self, game_id: int) -> dict[str, Any] | None:
        """The game file (GAMEFILE.md) of a stored game."""
        row = self.game(game_id)
        if row is None:
            return None
        return {"format": "dicetray-game/1", "family": row.family, "options": row.options,
                "players": row.players, "actions": self.actions(game_id)}

    # -- readings --------------------------------------------------------------------------

    def add_reading(self, game_id: int | None, dice: list[dict[str, Any]], status: str,
                    player: str | None = None, note: str | None = None) -> tuple[int, int]:
        """Record a reading (a waiting one supersedes an older one); returns ``(id, revision)``."""
        with self._write() as db:
            db.execute("UPDATE readings SET status='superseded' WHERE status='waiting'")
            cur = db.execute(
                "INSERT INTO readings (game, dice, status, player, note, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, json.dumps(dice), status, player, note, self._clock.now()))
            return int(cur.lastrowid or 0), self._bump(db)

    def update_reading(self, reading_id: int, *, dice: list[dict[str, Any]] | None = None,
                       status: str | None = None, note: str | None = None) -> int:
        """Change a reading's dice, status or note; returns the new revision."""
        with self._write() as db:
            if dice is not None:
                db.execute("UPDATE readings SET dice=? WHERE id=?", (json.dumps(dice), reading_id))
            if status is not None:
                db.execute("UPDATE readings SET status=? WHERE id=?", (status, reading_id))
            if note is not None:
                db.execute("UPDATE readings SET note=? WHERE id=?", (note, reading_id))
            return self._bump(db)

    def reading(self, reading_id: int) -> ReadingRow | None:
        """One reading, or ``None`` when there is no reading ``reading_id``."""
        if not _row_id(reading_id):
            return None
        with self._lock:
            row = self._db.execute("SELECT * FROM readings WHERE id=?", (reading_id,)).fetchone()
        return None if row is None else self._reading_row(row)

    def latest_reading(self, game_id: int | None, skip: tuple[str, ...] = ()) -> ReadingRow | None:
        """The newest reading of a game, leaving out those whose status is in ``skip``."""
        marks = ", ".join("?" * len(skip))
        with self._lock:
            row = self._db.execute(f"SELECT * FROM readings WHERE game IS ? AND status NOT IN ({marks}) "
                                   "ORDER BY id DESC LIMIT 1", (game_id, *skip)).fetchone()
        return None if row is None else self._reading_row(row)

    def newest_reading(self, game_id: int | None,
                       counts: Callable[[ReadingRow], bool]) -> ReadingRow | None:
        """The newest reading of a game that ``counts``, or ``None``: read newest first,
        stopping at the first that does."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM readings WHERE game IS ? ORDER BY id DESC",
                                    (game_id,))
            for row in rows:
                found = self._reading_row(row)
                if counts(found):
                    return found
        return None

    def reading_for_action(self, game_id: int, index: int) -> ReadingRow | None:
        """The reading a roll came from, if it came from the camera."""
        if not _row_id(index):
            return None
        with self._lock:
            row = self._db.execute("SELECT * FROM readings WHERE game=? AND action=?",
                                   (game_id, index)).fetchone()
        return None if row is None else self._reading_row(row)

    # -- rows ------------------------------------------------------------------------------

    def _game_row(self, row: tuple[Any, ...]) -> GameRow:
        game_id = int(row[0])
        return GameRow(game_id, row[1], self._decoded(row[2], f"game {game_id}'s options", dict),
                       self._decoded(row[3], f"game {game_id}'s players", list), row[4], row[5],
                       row[6], row[7])

    def _reading_row(self, row: tuple[Any, ...]) -> ReadingRow:
        reading_id = int(row[0])
        return ReadingRow(reading_id, row[1],
                          self._decoded(row[2], f"reading {reading_id}'s dice", list, dict),
                          row[3], row[4], row[5], row[6], row[7])

    def _decoded(self, text: Any, what: str, kind: type, of: type | None = None) -> Any:
        """A JSON value kept in the database: a row damaged under it (a bad memory card,
        a hand edit) is refused naming the file and the row, never taken for the
        request's fault, and the database is left as it is."""
        try:
            value = json.loads(text)
        except (TypeError, ValueError) as exc:
            why = f"not JSON: {exc}"
        else:
            strays = [v for v in value if not isinstance(v, of)] if of is not None else []
            if not isinstance(value, kind):
                why = f"{_named(value)} where {_named(kind)} belongs"
            elif strays:
                why = f"{_named(strays[0])} among its items, where {_named(of)} belongs"
            else:
                return value
        raise StoreError(f"{self.path}: {what} is damaged ({why}); the database was left as "
                         f"it is: move it away to start afresh{self.copy_hint()}")

    # -- settings --------------------------------------------------------------------------

    def load_settings(self) -> dict[str, Any]:
        """The settings file (the last players and family, for the start form); {} if none."""
        path = self.dir / SETTINGS_NAME
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise StoreError(f"{path}: cannot read the settings file ({exc}); "
                             "fix or move it away") from None
        if not isinstance(data, dict):
            raise StoreError(f"{path}: {_named(data)} where the settings belong, not an "
                             "object; fix or move it away")
        return data

    def save_settings(self, settings: dict[str, Any]) -> None:
        """Write the settings atomically: a temp file in the same folder, then rename."""
        path = self.dir / SETTINGS_NAME
        fd, tmp = tempfile.mkstemp(prefix=".settings-", dir=self.dir)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(settings, f, indent=2)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _sync_folder(folder: Path) -> None:
    """Write a folder's entries (a file just renamed into it) to the disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _taken(mtime: float) -> str:
    """When a copy was taken, as the refusals say it.

    >>> _taken(300.0)
    'while the clock was not set'
    """
    if mtime < CLOCKS_SET_FROM:
        return "while the clock was not set"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime))


def _whole(text: Any) -> int | None:
    """A meta value read as the whole number it should hold, or ``None``."""
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def _row_id(n: int) -> bool:
    """Whether ``n`` can be a row's id. SQLite's integers are 64-bit: a bigger number
    (from a request) names no row, and must not reach a query, which would raise
    OverflowError."""
    return -2**63 <= n < 2**63


def _add_loser_column(db: sqlite3.Connection) -> None:
    """A database made before games kept their loser gets the column (empty for the
    games it holds); older dicetrays read it as before, as they name their columns by
    position and it comes last."""
    if _has_loser_column(db):
        return
    # The column and its values in one transaction: a start cut short between the two
    # would leave the column there, and the next start would never fill it.
    db.execute("BEGIN IMMEDIATE")
    try:
        if not _has_loser_column(db):  # another process may have added it meanwhile
            db.execute("ALTER TABLE games ADD COLUMN loser TEXT")
            _fill_losers(db)
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _has_loser_column(db: sqlite3.Connection) -> bool:
    """Whether the games table of ``db`` has the loser column yet."""
    return any(row[1] == "loser" for row in db.execute("PRAGMA table_info(games)"))


def _fill_losers(db: sqlite3.Connection) -> None:
    """Give the finished Pub Chicago games of ``db`` their loser, replayed from their logs,
    once, so the history names it for the games played before too."""
    import scorer   # here alone: the store needs the rules only for this one-off

    finished = db.execute("SELECT id, options, players FROM games WHERE family='pub_chicago' "
                          "AND finished IS NOT NULL").fetchall()
    for game_id, options, players in finished:
        try:
            actions = [json.loads(r[0]) for r in db.execute(
                "SELECT body FROM actions WHERE game=? ORDER BY idx", (game_id,))]
            loser = scorer.load_game({"format": "dicetray-game/1", "family": "pub_chicago",
                                      "options": json.loads(options),
                                      "players": json.loads(players), "actions": actions}
                                     ).state()["loser"]
        except ValueError:
            continue     # a log that no longer replays (or reads) keeps saying "over"
        db.execute("UPDATE games SET loser=? WHERE id=?", (loser, game_id))


def _file_id(path: Path) -> tuple[int, int] | None:
    """Which file ``path`` is (its device and inode), or ``None`` when there is none."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _size(path: Path) -> int:
    """The size of the file at ``path`` in bytes, 0 when there is none."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _journalled(path: Path) -> bool:
    """Whether the SQLite file at ``path`` says it is kept with a rollback journal, as the
    copy is: no -wal beside it can be its own (the database itself is kept in WAL mode)."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return False
    return head.startswith(b"SQLite format 3\x00") and head[18] == 1


def _named(thing: Any) -> str:
    """A value's kind, or a kind, after "a" or "an", for the damaged-row messages.

    >>> _named(3), _named(dict), _named(None)
    ('an int', 'a dict', 'a NoneType')
    """
    name = thing.__name__ if isinstance(thing, type) else type(thing).__name__
    return f"{'an' if name[:1] in 'aeiouAEIOU' else 'a'} {name}"
