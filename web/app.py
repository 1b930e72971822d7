"""The Flask app: the scoreboard, control and history pages, the JSON API and the SSE stream.

Every action is a JSON POST under ``/api/`` answered with the new state, or with a 4xx
``{"error": "..."}`` that says what was wrong; the state is then unchanged. No bad
request reaches a 500: the scorer's errors are ValueErrors with a message, and the
handlers below turn them (and anything else a request can provoke) into a 4xx.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterator

import cv2
from flask import Flask, Response, abort, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

import scorer
from scorer.errors import json_shown
from web.families import family_table, titles
from web.gzipped import squeeze
from web.history import Scores
from web.refusals import plain_refusal
from vision.json_text import loads_strictly
from web.store import CLOCKS_SET_FROM, StoreError
from web.table import Shown, Table, TableError

log = logging.getLogger("dicetray.web")

KEEP_ALIVE_S = 15.0
SNAPSHOT_QUALITY = 90  # JPEG quality of /api/frame.jpg: pips must stay sharp to judge focus

# waitress notices that a client went away (and tells the app through
# ``waitress.client_disconnected``) only if it keeps reading the socket while a request
# runs, which a lookahead of 1 turns on; an SSE stream then ends soon after its screen
# closes instead of holding a server thread until the next keep-alive write fails.
WAITRESS_OPTIONS = {"channel_request_lookahead": 1}
MAX_BODY = 64 * 1024  # bytes of a request body: the largest the pages send is under 2 KB
# Server threads kept from the screens' streams for the taps: each open stream holds a
# thread, and a tablet asleep with its connection half open keeps one for good (its
# keep-alives still fit in the socket's buffer). Past the rest, the oldest stream ends.
THREADS_FOR_TAPS = 4
HISTORY_PAGE = 50   # games a history page lists (a tablet scrolls a few screens of them)
UNFINISHED_FIRST = 10  # games left unfinished listed above them (the newest; all are below)


class Streams:
    """The open event streams, oldest first; opening one past ``most`` ends the oldest
    (within a second): a screen still there reconnects by itself, a sleeping one is let go.

    >>> streams = Streams(most=2)
    >>> first, second, third = streams.open(), streams.open(), streams.open()
    >>> first.is_set(), second.is_set(), third.is_set()
    (True, False, False)
    """

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError(f"at least one stream must be allowed, not {most}")
        self.most = most
        self._lock = threading.Lock()
        self._open: list[threading.Event] = []

    def open(self) -> threading.Event:
        """A new stream's stop signal, set when newer streams push it out."""
        ended = threading.Event()
        with self._lock:
            self._open.append(ended)
            while len(self._open) > self.most:
                self._open.pop(0).set()
        return ended

    def close(self, ended: threading.Event) -> None:
        """The stream of ``ended`` is over."""
        with self._lock:
            if ended in self._open:
                self._open.remove(ended)


class BadRequest(ValueError):
    """A request body that is not what the route takes."""


def create_app(table: Table, *, keep_alive: float = KEEP_ALIVE_S, max_streams: int = 12) -> Flask:
    """The app around one table, with at most ``max_streams`` screens' event streams open
    (the server's threads less :data:`THREADS_FOR_TAPS`)."""
    streams = Streams(max_streams)
    # Pictures are made one at a time, by one thread of their own. Each is a copy of a
    # whole camera frame (3.7 MB at 1280×960) while it is drawn on and encoded, and
    # OpenCV 5's putText keeps a copy of its built-in font (about 6 MB) for the life of
    # every thread that ever drew text: drawn by whichever of the server's 24 threads
    # took the request, reading pictures held 180 MB more after a few hundred of them.
    painter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dicetray-pictures")
    scores = Scores(table.store)     # the history's, a finished game's kept once found

    def drawn(make: Callable[[], Response]) -> Response:
        return painter.submit(make).result()
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False
    # Every request the pages send is a small JSON object; a body far bigger is no tap,
    # and would be kept in the log and every game file exported from it.
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.json.sort_keys = False  # type: ignore[attr-defined]
    # A tablet on a slow Wi-Fi waited seconds for the control page's scripts (web.gzipped).
    app.after_request(lambda response: squeeze(request, response))

    # -- errors ----------------------------------------------------------------------------

    def error(message: str, status: int, plain: str | None = None) -> tuple[Response, int]:
        # ``plain``: the refusal as the control page says it to the family, where the
        # message is for the API's users and game files (web.refusals).
        return jsonify({"error": message} | ({"plain": plain} if plain else {})), status

    @app.errorhandler(TableError)
    def _table_error(exc: TableError) -> tuple[Response, int]:
        return error(str(exc), exc.status, exc.plain)

    @app.errorhandler(scorer.IllegalAction)
    def _illegal(exc: scorer.IllegalAction) -> tuple[Response, int]:
        return error(str(exc), 409, plain_refusal(exc))

    @app.errorhandler(StoreError)
    def _store_error(exc: StoreError) -> tuple[Response, int]:
        # The database cannot be written just now (locked by another program, a full
        # disk): not the request's fault, and nothing changed; it can be tried again.
        return error(str(exc), 503, exc.plain)

    @app.errorhandler(sqlite3.DatabaseError)
    def _database_error(exc: sqlite3.DatabaseError) -> tuple[Response, int]:
        if type(exc) is not sqlite3.DatabaseError:
            return _unexpected(exc)
        # The database gone bad under the running server (a memory card failing): named,
        # with the copy to go back to, as a start would refuse it.
        return _store_error(table.store.damaged(str(exc)))

    @app.errorhandler(ValueError)
    def _value_error(exc: ValueError) -> tuple[Response, int]:
        # GameFileError (a bad setup), BadRequest and any other ValueError: the input's fault.
        return error(str(exc), 400)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        if exc.code == 413:
            return error(f"the request body is over {MAX_BODY // 1024} KB: no page of "
                         "dicetray sends one so big", 413)
        if request.path.startswith("/api/"):
            return error(exc.description or exc.name, exc.code or 400)
        return exc

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> tuple[Response, int]:
        # A bug, not the input's fault; log it fully, and still answer in JSON.
        log.exception("unexpected error on %s", request.path)
        return error(f"internal error: {type(exc).__name__}: {exc}", 500)

    def body() -> dict[str, Any]:
        if request.mimetype != "application/json":
            # A page of any other site may send a form, text or an empty POST here without
            # the browser asking the table first (it asks before sending JSON): such a
            # page opened on the tablet, or anywhere in the house, took back throws.
            abort(415, description="an action is sent as JSON, with Content-Type: "
                                   f"application/json, not {request.mimetype or 'none'}")
        try:
            # Decoded strictly: leniently, a byte that is no UTF-8 became U+FFFD, kept
            # unseen in a name typed on a page that sent another encoding.
            raw = request.get_data(cache=False).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadRequest(f"the request body is not UTF-8 text (byte {exc.start})") from None
        if not raw.strip():
            return {}
        try:
            data = loads_strictly(raw)
        except ValueError as exc:
            raise BadRequest(f"malformed JSON: {exc}") from None
        except RecursionError:
            # Python's JSON decoder gives up on arrays or objects nested about a thousand deep.
            raise BadRequest("malformed JSON: nested too deeply") from None
        if not isinstance(data, dict):
            raise BadRequest("the request body must be a JSON object")
        return data

    def need(data: dict[str, Any], key: str) -> Any:
        if key not in data:
            raise BadRequest(f"missing {key!r}")
        return data[key]

    def one_or_all(data: dict[str, Any], key: str) -> Any:
        """``data[key]`` (the one to forget), or ``None`` for ``"all": true`` (every one).
        A request naming neither, or both, is refused: a misspelt field must not forget
        everything."""
        if (key in data) == (data.get("all") is True):
            raise BadRequest(f"say which one to forget, {{{key!r}: N}}, or every one, "
                             f"{{'all': true}}; not {json_shown(sorted(data))}")
        return data.get(key)

    def answer() -> Response:
        return Response(table.publisher.latest_state()[1], mimetype="application/json")

    # -- pages -----------------------------------------------------------------------------

    @app.get("/")
    def scoreboard() -> str:
        return render_template("scoreboard.html")

    @app.get("/control")
    def control() -> str:
        return render_template("control.html")

    @app.get("/history")
    def history() -> str:
        # A family's year of evenings is some 700 games: one page of them was 32 screens
        # long. The newest HISTORY_PAGE at a time, those left unfinished first, and a
        # search by player or game; `before` (a game's id) pages to older ones.
        names = titles()
        joined = table.store.joined()
        games = [g.to_json() | {"joined": joined.get(g.id, [])} for g in table.store.games()]
        wanted = request.args.get("q", "").strip()
        found = [g for g in games if _history_match(g, names, wanted)]
        before = request.args.get("before", type=int)
        older = [g for g in found if before is None or g["id"] < before]
        unfinished = [g for g in found if not g["finished"] and g["id"] != table.game_id]
        # Named above the lists, whatever the search: a Continue tapped here leaves it.
        playing = next((g for g in games if g["id"] == table.game_id and not g["finished"]),
                       None)
        for g in [*older[:HISTORY_PAGE], *unfinished[:UNFINISHED_FIRST]]:
            g["scores"] = scores.of(g)
        return render_template("history.html", games=older[:HISTORY_PAGE],
                               more=len(older) > HISTORY_PAGE, total=len(games),
                               found=len(found), wanted=wanted,
                               unfinished=unfinished[:UNFINISHED_FIRST] if before is None else [],
                               unfinished_more=len(unfinished) > UNFINISHED_FIRST,
                               current=table.game_id, playing=playing, titles=names,
                               clocks_set_from=CLOCKS_SET_FROM)

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status=204)   # no icon; answering keeps browsers' logs quiet

    # -- reading ---------------------------------------------------------------------------

    @app.get("/api/state")
    def state() -> Response:
        return answer()

    @app.get("/api/families")
    def families() -> Response:
        return jsonify(family_table())

    @app.get("/api/games")
    def games() -> Response:
        return jsonify([g.to_json() for g in table.store.games()])

    @app.get("/api/games/<int:game_id>/file")
    def game_file(game_id: int) -> Response:
        data = table.store.game_file(game_id)
        if data is None:
            abort(404, description=f"there is no game {game_id}")
        # Names as they are spelt ("Björn", not "Bj\u00f6rn"): the file is for reading and
        # mending by hand too.
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        resp = Response(text, mimetype="application/json")
        resp.headers["Content-Disposition"] = f'attachment; filename="dicetray-game-{game_id}.json"'
        return resp

    @app.get("/api/frame.jpg")
    def frame() -> Response:
        # What the camera sees, to aim it, check the light, and read pixel positions off
        # for a calibration (the tray's corners are in this picture's pixels).
        def make() -> Response:
            image = table.snapshot()
            if image is None:
                abort(404, description="no camera picture yet" if table.camera is not None
                      else "there is no camera: throws are entered by hand")
            return _jpeg(image)

        return drawn(make)

    @app.get("/api/readings/<int:reading_id>/picture.jpg")
    def reading_picture(reading_id: int) -> Response:
        # The throw as the camera saw it, each die boxed and numbered as the control page
        # lists them: which die a flag is about.
        # The page asks for it with the dice's state in the address, so a cached copy is
        # never one with old numbers.
        return drawn(lambda: _jpeg(_found(lambda: table.reading_picture(reading_id)),
                                   max_age=300))

    @app.get("/api/pictures/<int:index>.png")
    def taught_picture(index: int) -> Response:
        # A taught picture face, shown beside its value so a wrong one can be forgotten.
        # Never kept: picture N is another one once an earlier one is forgotten.
        return drawn(lambda: _picture(_found(lambda: table.taught_picture(index)), ".png"))

    @app.get("/api/known-dice/<int:index>.png")
    def known_die_picture(index: int) -> Response:
        # A remembered die, shown beside its value so one remembered wrongly can be
        # forgotten. Never kept: die N is another one once an earlier one is forgotten.
        return drawn(lambda: _picture(_found(lambda: table.known_die_picture(index)), ".png"))

    @app.get("/api/events")
    def events() -> Response:
        gone = request.environ.get("waitress.client_disconnected")
        return Response(_stream(table, keep_alive, gone, streams), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    # -- actions ---------------------------------------------------------------------------

    def post(path: str, *fields: str, any_fields: bool = False
             ) -> Callable[[Callable[[dict[str, Any]], None]], Any]:
        """A POST route taking a JSON object of ``fields`` alone: a field it does not know
        (a misspelt ``"playr"``) is refused by name rather than left out unseen, which
        would score the throw for whoever's turn it is."""
        def wrap(fn: Callable[[dict[str, Any]], None]) -> Any:
            def view() -> Response:
                data = body()
                unknown = sorted(set(data) - set(fields))
                if unknown and not any_fields:
                    known = ", ".join(repr(f) for f in fields) or "none"
                    raise BadRequest(f"{path} takes no field {unknown[0]!r} (its fields: {known})")
                fn(data)
                return answer()
            view.__name__ = fn.__name__
            return app.post(path)(view)
        return wrap

    def shown(data: dict[str, Any]) -> Shown:
        """What the tapping screen showed of the game: its ``actions`` and its ``game``."""
        return Shown(data.get("actions"), data.get("game"))

    def typed_players(data: dict[str, Any]) -> Any:
        """The players of a start form: a list, or names typed apart by commas or lines."""
        players = need(data, "players")
        if isinstance(players, str):
            players = [p.strip() for p in players.replace("\n", ",").split(",") if p.strip()]
        return players

    def remember_start(family: Any, players: Any, starter: str) -> None:
        """Keep what the start form sent, to fill it in the same way next time."""
        settings = {"family": family, "players": players, "starter": starter}
        try:
            # A settings file that cannot be read is the owner's to look at (its name is
            # in the log), not to be written over unasked.
            table.store.load_settings()
            table.store.save_settings(settings)
        except (OSError, StoreError) as exc:  # the game (or draw) started; this is a nicety
            log.warning("could not save settings: %s", exc)

    @post("/api/games", "family", "players", "options", "after", "leader")
    def start_game(data: dict[str, Any]) -> None:
        family, players = data.get("family", "sum_chicago"), typed_players(data)
        table.new_game(family, players, data.get("options"), data.get("after", ...),
                       data.get("leader"))
        remember_start(family, players, "listed")

    @post("/api/draw", "family", "players", "options", "after")
    def start_draw(data: dict[str, Any]) -> None:
        # Sum Chicago's starter found by each throwing one die (RULES.md §1): a draw, not
        # yet a game; the game starts from /api/draw/start-game once the starter is found.
        family, players = data.get("family", "sum_chicago"), typed_players(data)
        table.start_draw(family, players, data.get("options"), data.get("after", ...))
        remember_start(family, players, "draw")

    # Each step of a draw may name the draw its screen showed (``draw``, its id): a tap
    # sent again after the Wi-Fi lost its answer must not act on a draw begun since.
    @post("/api/draw/throw", "value", "player", "draw")
    def draw_throw(data: dict[str, Any]) -> None:
        table.draw_throw(need(data, "value"), data.get("player"), data.get("draw"))

    @post("/api/draw/take-back", "throws", "draw")
    def draw_take_back(data: dict[str, Any]) -> None:
        table.take_back_draw_throw(data.get("throws"), data.get("draw"))

    @post("/api/draw/cancel", "draw")
    def cancel_draw(data: dict[str, Any]) -> None:
        table.cancel_draw(data.get("draw"))

    @post("/api/draw/start-game", "throws", "draw")
    def start_drawn_game(data: dict[str, Any]) -> None:
        table.start_drawn_game(data.get("throws"), data.get("draw"))

    @post("/api/continue", "game", "after")
    def continue_game(data: dict[str, Any]) -> None:
        table.continue_game(need(data, "game"), data.get("after", ...))

    @post("/api/roll", "dice", "player", "actions", "game")
    def roll(data: dict[str, Any]) -> None:
        table.hand_roll(need(data, "dice"), data.get("player"), shown(data))

    @post("/api/correct", "reading", "die", "value", "teach", "seen", "remove", "add",
          "action", "dice", "actions", "game")
    def correct(data: dict[str, Any]) -> None:
        if "reading" in data and "remove" in data:
            table.remove_die(data["reading"], data["remove"], data.get("seen"))
        elif "reading" in data and "add" in data:
            table.add_die(data["reading"], data["add"], data.get("seen"))
        elif "reading" in data:
            table.correct_die(data["reading"], need(data, "die"), need(data, "value"),
                              data.get("teach", False), data.get("seen"))
        elif "action" in data:
            table.correct_action(data["action"], need(data, "dice"), shown(data),
                                 seen=data.get("seen"))
        else:
            raise BadRequest("a correction needs 'reading', 'die' and 'value' (or 'reading' "
                             "and 'remove' or 'add'), or 'action' and 'dice'")

    # Each may name the calibration's revision its screen showed (``calibration``): a
    # request held up on the way must not undo what another tablet saved meanwhile.
    @post("/api/tray", "tray", "calibration")
    def tray(data: dict[str, Any]) -> None:
        table.set_tray(need(data, "tray"), data.get("calibration"))

    @post("/api/empty-tray", "take", "calibration")
    def empty_tray(data: dict[str, Any]) -> None:
        table.take_empty_tray(need(data, "take"), data.get("calibration"))

    @post("/api/die-size", "measure", "calibration")
    def measure_die_size(data: dict[str, Any]) -> None:
        table.measure_die_size(need(data, "measure"), data.get("calibration"))

    @post("/api/forget-pictures", "picture", "all", "seen")
    def forget_pictures(data: dict[str, Any]) -> None:
        table.forget_pictures(one_or_all(data, "picture"), data.get("seen"))

    @post("/api/forget-known-dice", "die", "all", "seen")
    def forget_known_dice(data: dict[str, Any]) -> None:
        table.forget_known_dice(one_or_all(data, "die"), data.get("seen"))

    @post("/api/confirm", "reading", "seen")
    def confirm(data: dict[str, Any]) -> None:
        table.confirm(need(data, "reading"), data.get("seen"))

    @post("/api/undo", "actions", "game")
    def undo(data: dict[str, Any]) -> None:
        table.undo(shown(data))

    @post("/api/take-dice-out")
    def take_dice_out(data: dict[str, Any]) -> None:
        table.take_dice_out()

    @post("/api/roll-for-me", "actions", "game", "throws", "draw")
    def roll_for_me(data: dict[str, Any]) -> None:
        table.roll_for_me(shown(data), data.get("throws"), data.get("draw"))

    @post("/api/join", "player")
    def join(data: dict[str, Any]) -> None:
        table.join(need(data, "player"))

    @post("/api/leave", "player")
    def leave(data: dict[str, Any]) -> None:
        table.leave(need(data, "player"))

    @post("/api/action", any_fields=True)
    def action(data: dict[str, Any]) -> None:
        # Any action of the game file format (a family's own: set_aside, bank, ...). The
        # body is the action itself, so the number of actions the tapping screen showed
        # (two tablets tapping the same trick's winner must not score two tricks) comes
        # in the address: /api/action?actions=N.
        table.act(data, shown_in_address())

    def shown_in_address() -> Shown:
        return Shown(number_in_address("actions", "the number of the game's actions the "
                                       "screen showed"),
                     number_in_address("game", "the number of the game the screen showed"))

    def number_in_address(name: str, meaning: str) -> int | None:
        text = request.args.get(name)
        if text is None:
            return None
        if not text.isdecimal() or len(text) > 18:
            raise BadRequest(f"{name}={text!r} in the address: {meaning}, a whole number")
        return int(text)

    @app.get("/api/settings")
    def settings() -> Response:
        try:
            return jsonify(table.store.load_settings())
        except Exception:  # noqa: BLE001 - an unreadable settings file only loses the defaults
            return jsonify({})

    return app


def _history_match(game: dict[str, Any], titles: dict[str, str], wanted: str) -> bool:
    """Whether a history row answers a search: part of a player's name (one who joined
    later too) or of the game's title, in any case, with or without accents (``wanted``
    empty: every game).

    >>> _history_match({"players": ["Aino", "Bertil"], "joined": ["Gran"],
    ...                 "family": "sum_chicago"}, {"sum_chicago": "Sum Chicago"}, "gran")
    True
    """
    said = _plain_letters(wanted)
    named = [*game["players"], *game.get("joined", []), titles.get(game["family"], game["family"])]
    return not said or any(said in _plain_letters(name) for name in named)


def _plain_letters(text: str) -> str:
    """``text`` in small letters without their accents: a tablet's keyboard without "ë"
    finds Zoë by "zoe" (and a name typed with a separate accent mark finds it too).

    >>> _plain_letters("Zoë JÖRG Éloïse")
    'zoe jorg eloise'
    """
    apart = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in apart if not unicodedata.combining(c))


def _found(get: Callable[[], Any]) -> Any:
    """What ``get`` returns, or the table's refusal answered as the error it names."""
    try:
        return get()
    except TableError as exc:
        abort(exc.status, description=str(exc))


def _jpeg(image: Any, max_age: int = 0) -> Response:
    """A BGR picture as a JPEG answer, kept by the browser ``max_age`` seconds (none: the
    camera's picture changes all the time)."""
    return _picture(image, ".jpg", max_age)


def _picture(image: Any, kind: str, max_age: int = 0) -> Response:
    """A picture as a ``kind`` (".jpg" or ".png") answer, kept ``max_age`` seconds."""
    params = [cv2.IMWRITE_JPEG_QUALITY, SNAPSHOT_QUALITY] if kind == ".jpg" else []
    ok, encoded = cv2.imencode(kind, image, params)
    if not ok:
        abort(404, description="the picture could not be encoded")
    resp = Response(encoded.tobytes(), mimetype="image/jpeg" if kind == ".jpg" else "image/png")
    resp.headers["Cache-Control"] = f"max-age={max_age}" if max_age else "no-store"
    return resp


def _stream(table: Table, keep_alive: float, gone: Callable[[], bool] | None = None,
            streams: Streams | None = None) -> Iterator[str]:
    """The SSE stream: the current state first, then each newer one, with keep-alives.

    Every event is ``event: state`` (DESIGN.md: other tools read the stream too); a
    keep-alive is a comment, which keeps proxies and the TCP connection awake. A page
    cannot hear a comment, so it finds a stream that died without a word by asking for
    the state itself when the stream has been quiet a while (``followState`` in dice.js).

    Every connection starts with the current state, whatever Last-Event-ID a reconnecting
    screen sends: a server started afresh on another data folder counts revisions anew
    and may reach the very number the screen holds from its old game.
    ``gone`` (waitress tells) ends the stream soon after the screen goes away, so a
    tablet that sleeps and wakes often does not hold server threads for a whole
    keep-alive period each time. Past ``streams``' limit, the oldest stream ends.
    """
    ended = streams.open() if streams is not None else threading.Event()
    try:
        yield "retry: 2000\n\n"
        sent, revision, payload = table.publisher.latest_published()
        yield f"event: state\nid: {revision}\ndata: {payload}\n\n"
        quiet = 0.0
        slice_s = min(1.0, keep_alive)
        while not table.publisher.closed and not ended.is_set():
            got = table.publisher.wait_newer(sent, slice_s)
            if got is not None:
                sent, revision, payload = got
                quiet = 0.0
                yield f"event: state\nid: {revision}\ndata: {payload}\n\n"
                continue
            if gone is not None and gone():
                return
            quiet += slice_s
            if quiet >= keep_alive:
                quiet = 0.0
                yield ": keep-alive\n\n"
    finally:
        if streams is not None:
            streams.close(ended)
