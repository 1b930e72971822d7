"""The table service: camera → roll watcher → reader → engine → store → every screen.

The camera only reports; the engine decides. A settled reading whose dice match what
the engine expects (the right number, none flagged) is scored as a ``roll`` for the
player whose throw it is; anything else waits on the control page ("check the tray")
for a person to confirm it, tap a die, enter the throw by hand or throw again.

Every change goes through one lock: the engine checks the action, the store commits it
(with a new revision), the in-memory game applies it, and only then is the new state
published to the SSE streams. The camera thread never waits for any of this: it only
publishes frames, and the service thread reads the newest one when it is free.
"""
from __future__ import annotations

import json
import logging
import random
import threading
import time
import unicodedata
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, TypeVar

import cv2

import scorer
from calibration import die_size
from scorer.actions import LONGEST_NAME
from scorer.errors import GameFileError, json_shown
from scorer.words import counted_dice
from scorer.starter import BadDrawPlayers, DrawError, NotADieFace, StarterDraw
from vision.reader import REASON_PICTURE
from web.calibrating import TrayNotEmpty
from web.publisher import Publisher
from web.refusals import plain_seating, shown_name
from web.store import Store, StoreError, refusal_words, storage_trouble
from web.throw_frames import ThrowFrames

log = logging.getLogger("dicetray.table")

DEMO_PLAYERS = ["Aino", "Bertil", "Cecilia"]
# After a person takes the simulated tray's dice out (to take the empty tray), the demo
# family waits this long before it throws again.
DEMO_REST_S = 30.0
# Waiting readings whose frames are kept (3.7 MB each at 1280×960 in memory, and as a
# JPEG in the data folder): a person checking the tray sees which die is which, and a
# picture face can be taught from it, after a restart too.
KEEP_READING_FRAMES = 4
# Scored throws whose frames are kept too (in the data folder as well, after the score is
# published, so the JPEG's 20-50 ms never delay it): the control page shows the latest
# throw as the camera saw it (which die is which, to correct one), and a scored throw
# corrected soon after, or after a restart, is remembered with its corrected values
# (vision.known_dice).
KEEP_SCORED_FRAMES = 2
# The newest remembered dice the control page shows, each with its value and "Forget":
# a die remembered with a wrong value (a slip when checking) is found and dropped there.
SHOWN_KNOWN_DICE = 12
# A camera that has given no frame for this long is said on the control page to give no
# picture. Cameras here give 15 frames a second, so that is 75 frames missed; and a real
# one pauses by itself for up to 3.5 s when it measures an overexposed tray's light again
# (vision.picamera: 1.5 s to settle, up to 2 s more to converge), which is no fault.
CAMERA_STALLED_S = 5.0
# A stalled camera that can be opened again (a Pi camera or a webcam) is closed and opened
# again after this long: a hung webcam seldom recovers by itself (OpenCV waits 10 s for
# each frame of a stalled V4L2 device, and UsbCamera gives up only after 30 such waits),
# and opening it again is what pulling its plug would do. Much shorter would cut off a
# camera that is only slow for a moment; meanwhile a throw can be entered by hand.
REOPEN_STALLED_S = 30.0
# A camera that takes this long a frame, or longer (a webcam's exposure grown long in a
# dim room, a USB port too slow for it), is said to be slow: the roll watcher waits for a
# few still frames, so a throw is scored many seconds after it lands.
SLOW_CAMERA_S = 1.5
# How often a camera that failed (unplugged) is tried again: a webcam plugged back in
# takes a second or two to appear anyway, and a try that finds no camera costs little.
REOPEN_EVERY_S = 5.0
# How often a table started by --camera auto on the simulated tray, for want of a
# camera, looks for one again: a Pi's camera not ready when the service started at boot,
# or a webcam plugged in later, is taken without a restart.
LOOK_FOR_CAMERA_S = 10.0
# The families whose starter may be found by each throwing one die (RULES.md §1): Pub
# Chicago draws its first leader by lot and Card Chicago deals instead.
DRAW_FAMILIES = ("sum_chicago",)


def seat_names(players: Any) -> Any:
    """Names as typed at the table, without the spaces around them; names that differ
    only in case are refused, as the scoreboard could not tell them apart.

    The game file keeps names exactly (an old game with "Aino " still replays); this is
    for names typed now, where "Aino " beside "Aino" is a slip, not a second player.
    Anything else than a list of strings is left for the rules to refuse.

    >>> seat_names([" Aino", "Bertil "])
    ['Aino', 'Bertil']
    """
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        return players
    names: list[str] = []
    for player in players:      # each checked as if joining those typed before it
        names.append(joining_name(names, player))
    return names


# Unicode's marks that set, embed, override or isolate a direction of text, the byte-order
# mark and the deprecated format controls (U+206A-206F): invisible, and they garble a line.
# Joiners (U+200C, U+200D) and tag characters stay: emoji sequences and flags need them.
_TURNING = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067"
                     "\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f\ufeff")
# Unicode's categories of control characters and of line and paragraph separators.
_BREAKING = frozenset(("Cc", "Zl", "Zp"))


def joining_name(seated: Any, player: str) -> str:
    """The name a newcomer typed, without the spaces around it; refused when it differs
    only in case, by those spaces or in how an accent is encoded from someone at the
    table (who left, too).

    Only the newcomer is checked: a game begun before names were checked may hold such
    twins already, and must still take a new player.

    A name with a control character (a tab, a line break, U+2028) or one that turns the
    text's direction (U+202E and its kin) is refused too: the scoreboard would show it
    garbled, or the names after it backwards; and so is one of invisible characters alone.

    >>> joining_name(["Aino", "aino"], " Dora ")
    'Dora'
    """
    name = player.strip()
    odd = next((c for c in name if unicodedata.category(c) in _BREAKING or c in _TURNING), None)
    if odd is not None:
        seen = "".join(c for c in name if c != odd)
        raise TableError(f"players: {name!r} holds the control character U+{ord(odd):04X}; "
                         "type the name without it", 400,
                         plain=f"the name {shown_name(seen)} holds a hidden character (a tab, "
                               "a line break, a mark that turns the text): type it again")
    if name and all(unicodedata.category(c) == "Cf" for c in name):
        # Format characters alone (a zero-width space, a soft hyphen) are no spaces to
        # strip, and the scoreboard showed the player with a blank name.
        raise TableError(f"players: {name!r} has nothing to show: its characters are all "
                         "invisible", 400,
                         plain="a name of invisible characters alone shows as nothing: "
                               "type one with letters")
    for other in seated:
        if other != name and _looks(other.strip()) == _looks(name):
            raise TableError(f"players: {other!r} and {name!r} differ only in case, "
                             "spaces or how an accent is encoded; give them names the "
                             "scoreboard can tell apart", 400,
                             plain=f"{shown_name(other.strip())} and {shown_name(name)} look "
                                   "the same on the scoreboard: give them names that differ "
                                   "by more than capitals, spaces or accents")
    return name


def _looks(name: str) -> str:
    """A name as the scoreboard shows it, in any case: an accent typed as a character of
    its own (e and U+0301) looks as the accented letter (é, U+00E9) does.

    >>> _looks("Jose\u0301") == _looks("JOS\u00c9")
    True
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


# A tap on a throw that another screen (or the camera) has scored or dropped meanwhile.
NOT_WAITING = "this throw is not waiting to be checked any more"

# How the camera line begins when a frame could not be read (cleared once one is).
READING_FAILED = "reading failed: "

class TableError(ValueError):
    """A request the table refuses; ``status`` is the HTTP status to answer with, ``plain``
    the refusal in the family's words when the message is for the API's users."""

    def __init__(self, message: str, status: int = 409, plain: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.plain = plain


def _check_dice_shape(dice: Any) -> None:
    """A throw's dice must come as a JSON list; the values are for the rules to judge."""
    if not isinstance(dice, list):
        raise TableError(f"'dice' must be a list of die values 1..6, not {json_shown(dice)}", 400)


def die_json(die: Any) -> dict[str, Any]:
    """A die of a reading in ``dicetray read --json`` shape (objects or plain dicts)."""
    if isinstance(die, Mapping):
        return dict(die)
    data: dict[str, Any] = die.to_json()
    return data


@dataclass(frozen=True)
class DrawAtTable:
    """A draw for the starting player under way at the table: the game it is for
    (``family``, and ``options`` as the start form sent them), the scorer's ``draw``, and
    ``note``: why the camera's latest reading did not count (None when it did).

    Kept in memory only: after a restart the draw is gone and the start form shows again.
    """

    family: str
    options: Any
    draw: StarterDraw
    id: int
    """The revision the draw began at: a tap names the draw it was made on, and the
    revisions only rise (after a restart too), so no later draw has its id."""
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The draw as the screens draw it (``StarterDraw.to_json``), with the family, its
        id and the note."""
        return {"family": self.family, "id": self.id, **self.draw.to_json(), "note": self.note,
                "throws": len(self.draw.throws)}


_Drawn = TypeVar("_Drawn")


def _drawn(step: Callable[[], _Drawn]) -> _Drawn:
    """What a step of the draw gives (a new draw, the seating); its refusal as the table's: a bad request (a value no die
    shows, players who cannot draw) or a conflict with where the draw stands."""
    try:
        return step()
    except BadDrawPlayers as exc:
        raise TableError(str(exc), 400, plain="each throwing one die needs two players or "
                         "more: type another name, or let the first listed start") from None
    except NotADieFace as exc:
        raise TableError(str(exc), 400) from None
    except DrawError as exc:
        raise TableError(str(exc), 409) from None


def _new_game(family: Any, players: Any, options: Any) -> scorer.Game:
    """``scorer.new_game``; its refusal of the names typed on the start form said for the
    family too ("players[0]: a name is 1 to 40 characters, not '...'" is the game file's)."""
    try:
        return scorer.new_game(family, players, options)
    except GameFileError as exc:
        raise TableError(str(exc), 400, plain=_seating_words(family, players)) from None


def _seating_words(family: Any, players: Any) -> str | None:
    """What is wrong with the names typed for a game of ``family``, in the family's words
    (None: nothing, or no family to judge them by)."""
    if family not in scorer.FAMILIES:
        return None
    rules = scorer.rules_for(family)
    return plain_seating(rules.title, rules.min_players, rules.max_players, players)


def tray_problems(dice: list[dict[str, Any]], expected: int) -> list[str]:
    """Why a reading cannot be scored as it stands (empty when it can).

    >>> tray_problems([{"value": 3, "flagged": False}], 2)
    ['1 die in the tray, 2 expected']
    >>> tray_problems([{"value": None, "flagged": True, "reason": "tilted"}], 1)
    ['die 1: tilted']
    """
    problems = []
    if len(dice) != expected:
        problems.append(f"{counted_dice(len(dice))} in the tray, "
                        f"{expected} expected")
    for i, d in enumerate(dice):
        if d.get("flagged") or d.get("value") is None:
            problems.append(f"die {i + 1}: {d.get('reason') or 'not read'}")
    return problems


class Table:
    """The game at the table, its camera and its screens.

    ``camera`` is a ``FrameSource`` (or None: no camera, hand entry only); ``reader``
    turns a frame into a ``Reading``; ``watcher_factory(read)`` builds the roll watcher.
    With a ``calibrator`` (:class:`web.calibrating.Calibrator`) frames are read through it, so a
    picture face a person names on the control page can be taught to the calibration.

    A camera that gives no frame for ``stalled_after`` s is reported as stalled until frames
    come again. ``reopen`` opens the camera anew (None: it is not, as the simulated tray
    and a replay are not): a camera that fails, or stalls for ``reopen_stalled_after`` s,
    is closed and opened again, tried every ``reopen_every`` s until it opens; the game
    goes on meanwhile. ``clock`` tells the time for the stall (tests pass a fake).
    ``look_for_camera`` finds a real camera (``--camera auto``, which found none and gave
    the simulated tray): it is called every ``look_every`` s until one is found, which
    then replaces the simulated tray.
    """

    def __init__(self, store: Store, *, camera: Any = None,
                 reader: Callable[[Any], Any] | None = None,
                 watcher_factory: Callable[[Callable[[Any], Any]], Any] | None = None,
                 demo: bool = False, demo_interval: float = 5.0, demo_fix_after: float = 3.0,
                 demo_missed_after: float = 6.0,
                 camera_message: str | None = None, calibrator: Any = None,
                 reopen: Callable[[], Any] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 stalled_after: float = CAMERA_STALLED_S,
                 reopen_stalled_after: float = REOPEN_STALLED_S,
                 reopen_every: float = REOPEN_EVERY_S,
                 look_for_camera: Callable[[], Any] | None = None,
                 look_every: float = LOOK_FOR_CAMERA_S) -> None:
        self.store = store
        self._look_for_camera = look_for_camera
        self.look_every = look_every
        self._found_camera: Any = None   # found by the looker, not yet in use
        self.camera = camera
        self._reopen = reopen
        self._clock = clock
        self.stalled_after = stalled_after
        self.reopen_stalled_after = reopen_stalled_after
        self.reopen_every = reopen_every
        self.publisher = Publisher()
        # What the memory card kept from being stored (a camera throw on a full card),
        # said on the screens until a change is stored again.
        self._not_saved: str | None = None
        self.demo = demo
        self.demo_interval = demo_interval
        self.demo_fix_after = demo_fix_after
        self.demo_missed_after = demo_missed_after
        self._lock = threading.RLock()
        self._reader = reader
        self._calibrator = calibrator
        # The frames of the latest waiting readings, by reading id.
        self._reading_frames = ThrowFrames(store.dir / "frames", KEEP_READING_FRAMES)
        # Apart from those, so a run of scored throws never takes a waiting one's picture.
        self._scored_frames = ThrowFrames(store.dir / "scored-frames", KEEP_SCORED_FRAMES)
        for frames in (self._reading_frames, self._scored_frames):
            frames.drop_others(lambda reading_id: store.reading(reading_id) is not None)
        self._watcher_factory = watcher_factory
        self._watcher: Any = None   # the roll watcher, made when the camera is first watched
        # The camera's latest reading left waiting, and the waiting one it put aside (or
        # None): withdrawn if a hand hid the dice (see _uncovered). Reset by each reading.
        self._set_aside: tuple[int, int | None] | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._camera_thread: Any = None
        self._camera_status: dict[str, Any] = {
            "name": getattr(camera, "name", None) if camera is not None else None,
            "message": camera_message or getattr(camera, "message", None)
            or ("no camera: enter throws by hand" if camera is None else None),
            "running": False, "moving": False, "error": None, "read_ms": None,
            "view_changed": False,
            # Whole seconds the running camera has given no new picture, once that is
            # CAMERA_STALLED_S or more; None while new pictures come.
            "stalled_s": None,
            # While stalled: True when frames still come but show the same picture to the
            # bit (a stuck camera), False when none come at all.
            "frozen": False,
            # Whole seconds the camera takes for a frame, once that is SLOW_CAMERA_S or
            # more; None while it gives frames faster.
            "slow_s": None,
            # True while a camera that failed or stalled is being opened again.
            "reopening": False,
            # Why the camera was last opened again: while it runs, it is back from that.
            "back_from": None,
            "can_roll": camera is not None and callable(getattr(camera, "roll", None)),
        }
        self._followed = 0  # the calibrator's count of bumped trays followed, last published
        self._last_scored = time.monotonic()
        self._rolled_at: float | None = None
        self._demo_rests_until = 0.0
        self._thrown_before_switch = False
        self._finished_at: float | None = None
        self._demo_checked = 0.0
        # The game the demo family started, as recorded (after a restart too).
        self._demo_game_id: int | None = store.demo_game_id() if demo else None
        self._switched = False      # a game started or continued since start-up
        # The throw waiting that the demo family has seen, and when (monotonic) it first did.
        self._demo_waiting: tuple[int, float] | None = None
        self.game_id: int | None = None
        self.game: scorer.Game | None = None
        # Why the game current at start-up could not be continued (its log refused by
        # these rules), until another game is played; shown on the control page.
        self.not_continued: str | None = None
        self._draw: DrawAtTable | None = None
        # The revision of the calibration's latest change made on a screen (the tray
        # marked, taken empty, ...): a tap that names an older one was made before it,
        # and would undo it. Revisions only rise, so one from before a restart is older.
        self._calibrated_at = store.revision
        # Draws the first leader of a Pub Chicago game (a test may give a seeded one).
        self.lot: random.Random = random.SystemRandom()
        start = time.perf_counter()
        self._rebuild()
        self.rebuild_ms = (time.perf_counter() - start) * 1000.0
        self._publish(self.store.revision)

    # -- start-up --------------------------------------------------------------------------

    def _rebuild(self) -> None:
        """Replay the current game's log from the store (after a restart)."""
        game_id = self.store.current_game_id()
        if game_id is None:
            return
        data = self.store.game_file(game_id)
        if data is None:
            raise StoreError(f"{self.store.path}: the current game {game_id} is missing")
        try:
            # Replayed as its actions were checked when stored: a check added since (Card
            # Chicago's hands, 12f6ed3) refused a game an earlier version took, and the
            # family could not play it on after an upgrade.
            game = scorer.load_game(data, stored=True)
        except ValueError as exc:
            # A log these rules refuse even so (a row changed by hand, a rule changed
            # otherwise): the family's other games must still open, so this one is left as
            # it is, in the database and the history, and named. The copy taken before,
            # the one to go back to then, is kept aside, where the copies of the games
            # played from now on cannot replace it.
            self.not_continued = (self._not_replayed(game_id, data, exc)
                                  + self.store.copy_hint(self.store.keep_copy_aside()))
            log.warning("%s", self.not_continued)
            return
        self.game_id, self.game = game_id, game
        if game.state()["finished"]:
            self._finished_at = time.monotonic()
        # A stop between an action and the record of the result it brought (two writes)
        # left the history saying otherwise: the replayed game is the truth.
        self._record_result(game_id, game.state())

    def _replayed(self, game_id: int, data: dict[str, Any] | None) -> scorer.Game:
        """A stored game replayed from its log, as its actions were checked when stored.
        A log that no longer replays so is a damaged database, named as such."""
        try:
            return scorer.load_game(data, stored=True)
        except ValueError as exc:
            raise StoreError(self._not_replayed(game_id, data, exc)
                             + self.store.copy_hint()) from None

    def _not_replayed(self, game_id: int, data: dict[str, Any] | None, why: ValueError) -> str:
        """Why a stored game cannot be replayed, and that it is kept. Its log was checked
        as it was stored, and is replayed so (``Rules.as_stored``): a row changed since,
        or a rule changed since otherwise."""
        data = data or {}
        try:
            family = scorer.rules_for(data.get("family")).title
        except ValueError:
            family = json_shown(data.get("family"))
        players = data.get("players")
        who = ", ".join(map(str, players)) if isinstance(players, list) else "?"
        return (f"{self.store.path}: game {game_id} cannot be replayed: {why}; the game "
                f"({family}: {who}) is kept as it is, in the history, where its game file "
                f"can be exported (an earlier version took what these rules refuse, or its "
                f"row was changed since)")

    def start(self) -> "Table":
        """Start the camera thread and the service thread (when there is a camera or a demo)."""
        if self.camera is not None:
            from vision.frames import CameraThread

            self._camera_thread = CameraThread(self.camera, clock=self._clock).start()
            self._camera_status["running"] = True
            thread = threading.Thread(target=self._serve, name="table-service", daemon=True)
            thread.start()
            self._threads.append(thread)
            if self._look_for_camera is not None:
                looker = threading.Thread(target=self._look, name="table-camera-looker",
                                          daemon=True)
                looker.start()
                self._threads.append(looker)
            # The screens learn the camera runs; on a full disk they learn it later, and
            # the game is served as stored meanwhile (the taps say why they are refused).
            self._publish_status()
        return self

    def snapshot(self) -> Any:
        """The camera's newest frame (BGR), or ``None`` before the first or without one."""
        if self._camera_thread is None:
            return None
        got = self._camera_thread.latest.latest()
        return got[1] if got is not None else None

    def set_tray(self, points: Any, shown: Any = None) -> None:
        """The tray's outline as tapped on the camera's picture (``[[x, y], ...]`` in its
        pixels), or ``None`` to forget it: the reader then ignores what lies outside the
        tray and checks the dice by its wall for leaning. ``shown``, the calibration's
        revision the tapping screen showed (:meth:`_calibrate`)."""
        if self._calibrator is None:
            raise TableError("this table keeps no calibration to mark a tray in", 409)
        frame = self.snapshot()
        if frame is None:
            raise TableError("no camera picture yet: the tray is marked on it", 409)
        height, width = frame.shape[:2]
        calibrator = self._calibrator
        self._calibrate(lambda: calibrator.set_tray(points, (width, height)), shown)

    def take_empty_tray(self, take: Any, shown: Any = None) -> None:
        """With ``take`` true, keep the camera's newest frame as the empty tray's picture
        (the reader then searches only where the tray changed); false forgets it.
        ``shown`` as for :meth:`set_tray`."""
        if not isinstance(take, bool):
            raise TableError(f"'take' is true (take the empty tray) or false (forget it), "
                             f"not {json_shown(take)}", 400)
        if self._calibrator is None:
            raise TableError("this table keeps no calibration to keep the empty tray in", 409)
        if take:
            self._refuse_stale_picture()
        frame = self.snapshot() if take else None
        if take and frame is None:
            raise TableError("no camera picture yet: the empty tray is taken from it", 409)
        calibrator = self._calibrator
        self._calibrate(lambda: calibrator.take_empty_tray(frame), shown)

    def _refuse_stale_picture(self) -> None:
        """Refuse to take the empty tray while the camera gives no picture: its last one
        may show the tray as it was long ago (throws entered by hand since); or while
        something moves in the tray: a hand in it is no die, but no empty tray either."""
        status = self._camera_status
        if status["stalled_s"] is not None:
            raise TableError(f"{_stall_said(status['stalled_s'], status['frozen'])}: the empty "
                             "tray is taken from a picture of now; wait for the camera", 409)
        if status["reopening"]:
            raise TableError("the camera is being opened again: the empty tray is taken from "
                             "its picture once it gives one", 409)
        if status["moving"]:
            # A hand reaching in is no die: taken so, it stays in the picture, and the tray
            # read empty later looks unlike it, as if the camera had been turned.
            raise TableError("something is moving in the tray (a hand, a die still rolling): "
                             "the empty tray is taken once nothing moves in it", 409)

    def measure_die_size(self, measure: Any, shown: Any = None) -> None:
        """With ``measure`` true, forget the die size and measure it again from the next
        throws' dice (after changing dice or moving the camera). ``shown`` as for
        :meth:`set_tray`."""
        if measure is not True:
            raise TableError("'measure' is true (measure the dice again), "
                             f"not {json_shown(measure)}", 400)
        if self._calibrator is None:
            raise TableError("this table keeps no calibration to measure the dice for", 409)
        calibrator = self._calibrator
        self._calibrate(calibrator.forget_die_size, shown)

    def forget_pictures(self, picture: Any = None, seen: Any = None) -> None:
        """Forget the picture taught on the control page at index ``picture``, or all of
        them with ``None``: such dice are flagged again until named anew (a picture taught
        as the wrong value is read wrong, surely, until then). ``seen``, the pictures'
        values as the tapping screen listed them: picture N is another one once another
        screen has forgotten an earlier one."""
        if picture is not None and (not isinstance(picture, int) or isinstance(picture, bool)):
            raise TableError(f"'picture' is the number of a taught picture (from 0), "
                             f"not {json_shown(picture)}", 400)
        if self._calibrator is None:
            raise TableError("this table keeps no calibration to forget pictures from", 409)
        calibrator = self._calibrator

        def forget() -> None:
            _check_list_seen("taught pictures", self._picture_values(), seen)
            calibrator.forget_pictures(picture)
        self._calibrate(forget)

    def _calibrate(self, change: Callable[[], None], shown: Any = None) -> None:
        """Make a change to the reader's calibration (which saves it) and tell the screens;
        a refusal changes nothing and answers as its kind says: a tray with dice in it
        409, a bad value 400, a file that cannot be written 503. ``shown``, the
        calibration's revision the tapping screen showed (``None`` checks nothing): an
        outline saved on a tablet whose request was held up must not replace one saved
        on another tablet meanwhile."""
        with self._lock:
            _check_calibration_shown(self._calibrated_at, shown)
            try:
                change()
            except OSError as exc:
                raise TableError(f"could not save the calibration: {exc}", 503,
                                 refusal_words(storage_trouble(exc))) from None
            except TrayNotEmpty as exc:
                raise TableError(str(exc), 409) from None
            except TableError:
                raise                               # the table's own refusal, as it says
            except ValueError as exc:
                raise TableError(str(exc), 400) from None
            self._calibrated_at = self.store.bump()
            self._publish(self._calibrated_at)

    def taught_picture(self, index: int) -> Any:
        """The grey template of the taught picture at ``index``, as the control page shows
        it beside its value."""
        cal = self._calibration
        faces = cal.picture_faces if cal is not None else ()
        if not 0 <= index < len(faces):
            raise TableError(f"there is no taught picture {index}", 404)
        return faces[index].template

    def stop(self) -> None:
        """Stop the service and camera threads."""
        self._stop.set()
        with self._lock:  # the service thread swaps in a camera opened again under it
            camera_thread = self._camera_thread
        if camera_thread is not None:
            camera_thread.stop()
        for t in self._threads:
            t.join(timeout=3)
        with self._lock:
            found, self._found_camera = self._found_camera, None
        if found is not None:           # found as the table stopped: let the device go
            found.close()
        self.publisher.close()

    # -- state -----------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The whole state, as ``/api/state`` answers and every SSE event carries."""
        state: dict[str, Any] = json.loads(self.publisher.latest_state()[1])
        return state

    def _build(self, revision: int) -> dict[str, Any]:
        game_state = self.game.state() if self.game is not None else None
        # A reading taken when no throw was expected (10000's dice moved aside, the tray
        # after the game's end) is only mentioned: the throw shown, and tapped to correct
        # it, stays the last one that was scored or waits.
        newest = self.store.latest_reading(self.game_id) if self.game_id is not None else None
        ignored = newest if newest is not None and newest.status == "ignored" else None
        reading = (self.store.latest_reading(self.game_id, skip=("ignored",))
                   if ignored is not None else newest)
        if reading is not None and self._taken_back(reading) is not None:
            # Its throw no longer counts (undone, or dropped after a correction): the
            # throw to show, and to tap, is the latest one that still does.
            counting = set(self.game.in_force()) if self.game is not None else set()
            reading = self.store.newest_reading(
                self.game_id, lambda r: r.status == "scored" and r.action in counting) or reading
        waiting = reading is not None and reading.status == "waiting"
        return {
            "revision": revision,
            "game": game_state,
            "draw": self._draw.to_json() if self._draw is not None else None,
            "reading": self._reading_json(reading),
            "hand_throw": None if waiting else self._hand_throw(),
            "camera": {**self._camera_status, "error": self._not_saved or self._camera_status["error"],
                       "tray": self._tray(), "pictures": self._pictures(),
                       "picture_values": self._picture_values(),
                       "tray_note": getattr(self._calibrator, "tray_note", None),
                       "empty_tray": self._has_empty_tray(),
                       "empty_tray_stale": self._empty_tray_stale(),
                       "known_dice": self._known_dice(),
                       "newest_known_dice": self._newest_known(), "die_size": self._die_size(),
                       "calibration_revision": self._calibrated_at},
            "table": {"game_id": self.game_id, "demo": self.demo, "waiting": waiting,
                      "not_continued": self.not_continued,
                      "message": reading.note if waiting and reading is not None else None,
                      "ignored": (f"the camera saw {counted_dice(len(ignored.dice))}: {ignored.note}"
                                  if ignored is not None else None),
                      "teachable": self._teachable(reading) if waiting else [],
                      "picture": reading is not None and (reading.id in self._reading_frames
                                                          or reading.id in self._scored_frames)},
        }

    def _taken_back(self, reading: Any) -> str | None:
        """``"undone"`` or ``"dropped"`` when ``reading`` was scored but its roll no longer
        counts in the game (taken back by an undo, or dropped after a correction), else
        ``None``."""
        if reading.status != "scored" or reading.action is None or self.game is None:
            return None
        if reading.action in set(self.game.in_force()):
            return None
        dropped = {d.get("action") for d in self.game.state()["dropped"]}
        return "dropped" if reading.action in dropped else "undone"

    def _reading_json(self, reading: Any) -> dict[str, Any] | None:
        """A reading as the screens get it, its status saying whether its throw counts."""
        if reading is None:
            return None
        out: dict[str, Any] = reading.to_json()
        out["status"] = self._taken_back(reading) or reading.status
        return out

    def _hand_throw(self) -> dict[str, Any] | None:
        """The latest throw that counts, when it was entered by hand (no reading is linked
        to its roll): ``action``, its log index, ``player`` and ``dice`` as the game counts
        them now. The tray shows it as it shows a camera's throw, so a die entered wrongly
        is put right with a tap, as a misread one is (a ``correct`` of its roll)."""
        if self.game is None or self.game_id is None:
            return None
        log, live = self.game.log, self.game.in_force()
        rolls = [i for i in live if log[i].get("type") == "roll"]
        if not rolls or self.store.reading_for_action(self.game_id, rolls[-1]) is not None:
            return None
        return {"action": rolls[-1], "player": log[rolls[-1]].get("player"),
                "dice": _roll_dice(log, live, rolls[-1])}

    @property
    def _calibration(self) -> Any:
        """The reader's calibration at this table, or ``None``."""
        return self._calibrator.calibration if self._calibrator is not None else None

    def _tray(self) -> list[list[float]] | None:
        """The calibrated tray outline the reader uses, as the control page draws it: in
        the pixels of the camera's frames (the reader scales an outline marked at another
        resolution, and so must the page, which draws it on the newest frame)."""
        cal = self._calibration_for_frames()
        return [list(p) for p in cal.tray] if cal is not None and cal.tray is not None else None

    def _calibration_for_frames(self) -> Any:
        """The reader's calibration fitted to the camera's newest frame (as the reader fits
        it to each frame it reads), or as it is without a frame; ``None`` without one."""
        cal = self._calibration
        frame = self.snapshot()
        if cal is not None and frame is not None:
            cal = cal.for_frame(frame.shape[1], frame.shape[0])
        return cal

    def _pictures(self) -> int:
        """How many picture faces the reader has been taught."""
        cal = self._calibration
        return len(cal.picture_faces) if cal is not None else 0

    def _picture_values(self) -> list[int]:
        """The value each taught picture stands for, in the order they were taught."""
        cal = self._calibration
        return [int(f.value) for f in cal.picture_faces] if cal is not None else []

    def _known_dice(self) -> int:
        """How many dice from checked throws the reader remembers."""
        cal = self._calibration
        return len(cal.known_dice) if cal is not None else 0

    def _newest_known(self) -> list[list[int]]:
        """The newest remembered dice (at most SHOWN_KNOWN_DICE), newest first, as
        ``[index, value]``: the control page shows them, each to be forgotten alone."""
        cal = self._calibration
        known = cal.known_dice if cal is not None else ()
        first = max(0, len(known) - SHOWN_KNOWN_DICE)
        return [[i, int(known[i].value)] for i in range(len(known) - 1, first - 1, -1)]

    def _die_size(self) -> dict[str, Any] | None:
        """The die size the reader cuts dice at (``px``, in the camera's frames), or how its
        measuring goes: ``status`` "set", "measuring" (``dice`` read surely so far, of
        ``needed``, in ``throws`` of ``throws_needed``), "differ" (only ``agree`` of them
        agree on one size, ``agree_needed`` needed) or "agreed" (they agree, but the
        calibration file could not be written: tried again at the next throw); ``stale`` is
        "bigger" or "smaller" while it is measured again because the dice kept looking so
        against the size before; ``None`` without a calibration to keep it in."""
        if self._calibrator is None:
            return None
        cal = self._calibration_for_frames()
        px = cal.die_size_px if cal is not None else None
        evidence = self._calibrator.die_sizes
        return {"px": round(float(px), 1) if px else None,
                "status": "set" if px else evidence.status(),
                "dice": len(evidence.faces), "needed": die_size.MIN_DICE,
                "throws": evidence.throws, "throws_needed": die_size.MIN_THROWS,
                "agree": round(evidence.agreeing(), 2), "agree_needed": die_size.AGREE_SHARE,
                "stale": None if px else self._calibrator.stale_size}

    def _has_empty_tray(self) -> bool:
        """Whether the reader uses an empty tray's picture: one taken of another view (frames
        of another shape) it does without, as it does without that view's outline."""
        cal = self._calibration_for_frames()
        return cal is not None and cal.background is not None

    def _empty_tray_stale(self) -> bool:
        """Whether the tray was marked again after the camera moved, its empty picture
        still of the view before: only that picture is to be taken again."""
        cal = self._calibration_for_frames()
        return cal is not None and cal.background is not None and cal.background_stale

    def _teachable(self, reading: Any) -> list[int]:
        """The dice of a waiting reading whose picture can be taught (its frame is kept)."""
        if self._calibrator is None or reading.id not in self._reading_frames:
            return []
        return [i for i, d in enumerate(reading.dice) if d.get("reason") == REASON_PICTURE]

    def _publish(self, revision: int) -> None:
        """Tell the screens of the change stored as ``revision``: the storage takes
        changes again, so what it refused before is no longer said."""
        with self._lock:
            self._not_saved = None
            self.publisher.publish(json.dumps(self._build(revision)), revision)

    # -- commands (from the HTTP threads and the service thread) --------------------------

    def new_game(self, family: Any, players: Any, options: Any = None,
                 after: Any = ..., leader: Any = None) -> None:
        """Start a game (it becomes the current one); GameFileError names what is wrong.

        ``after``, when given, is the current game's id as the starting screen showed it
        (``None``: none): if another screen has started a game since, this start is
        refused, so one "Start" tapped on two tablets starts one game, not two.
        ``leader="lot"`` (Pub Chicago): the table draws the first throw round's leader by
        lot, the game's first action, as RULES.md §2 has the app do; without it the first
        player leads (a game file's rule) until the draw is asked for."""
        if leader is not None and (leader != "lot" or family != "pub_chicago"):
            raise TableError(f"'leader' is \"lot\", Pub Chicago's first leader drawn by lot, "
                             f"or left out; not {json_shown(leader)} for {json_shown(family)}", 400)
        with self._lock:
            self._refuse_during_draw()
            self._check_after(after)
            self._start_game(family, players, options)
            if leader == "lot":
                self._commit({"type": "leader", "player": self._lot(self._need_game())})

    def _lot(self, game: scorer.Game) -> str:
        """Pub Chicago's first leader, drawn by lot (RULES.md §2: the app draws), once a
        game: a draw an undo took back comes back the same when the draw is asked for
        again. Undo puts right a tap, it does not draw fate again."""
        drawn = [a["player"] for a in game.log
                 if a.get("type") == "leader" and a.get("player") in game.seated()]
        return drawn[-1] if drawn else self.lot.choice(game.seated())

    def _check_after(self, after: Any, continuing: bool = False) -> None:
        """Refuse a start (or a continue) tapped on a screen that showed game ``after``
        (``None``: none; ``...``: not said) when another screen has changed the game being
        played since: one "Start" tapped on two tablets starts one game, not two."""
        if after is ...:
            return
        if after is not None and (isinstance(after, bool) or not isinstance(after, int)):
            raise TableError("'after' is the id of the game shown, or null, "
                             f"not {json_shown(after)}", 400)
        if after != self.game_id:
            # Maybe by this very screen: a tap whose answer the Wi-Fi lost, tapped again.
            # The history page's Continue is not a start: said so there.
            raise TableError(f"game {self.game_id} was started just now, on this screen or "
                             "another: look at it before starting another", 409,
                             plain=f"game {self.game_id} was started or continued just now, "
                                   "on this screen or another: look at it on the control "
                                   "page before continuing this one" if continuing else None)

    def _start_game(self, family: Any, players: Any, options: Any) -> None:
        game = _new_game(family, seat_names(players), options)
        file = game.to_file()
        game_id, revision = self.store.create_game(file["family"], file["options"], file["players"])
        self._draw = None       # a drawn game begun: its draw is over
        self._switch_to(game_id, game, revision)

    def _switch_to(self, game_id: int, game: scorer.Game, revision: int) -> None:
        """Make ``game`` the table's game (new, drawn or continued). Dice in the air now
        were thrown for the game before: their reading waits for a person."""
        self._thrown_before_switch = bool(self._camera_status["moving"])
        self.game_id, self.game = game_id, game
        self.not_continued = None
        self._switched = True
        self._finished_at = None
        self._last_scored = time.monotonic()
        self._publish(revision)

    def continue_game(self, game_id: Any, after: Any = ...) -> None:
        """Go back to an earlier game that was left unfinished (another game was started
        meanwhile): it becomes the current game, replayed from its log, and the one
        being played is left as it stands, to be continued the same way later. ``after``
        as for :meth:`new_game`."""
        with self._lock:
            self._refuse_during_draw()
            if not isinstance(game_id, int) or isinstance(game_id, bool):
                raise TableError(f"game: a game's number (as /api/games lists them), "
                                 f"not {json_shown(game_id)}", 400)
            # Said before a stale ``after``: a Continue whose answer the Wi-Fi lost, tapped
            # again, was told another screen had started a game, when its own tap had.
            if game_id == self.game_id:
                raise TableError(f"game {game_id} is the game being played",
                                 plain="this game is being played already: the control page "
                                       "shows it")
            self._check_after(after, continuing=True)
            row = self.store.game(game_id)
            if row is None:
                raise TableError(f"game: there is no game {json_shown(game_id)}", 404)
            if row.finished is not None:
                raise TableError(f"game {game_id} is over: there is nothing to continue")
            game = self._replayed(game_id, self.store.game_file(game_id))
            ended = game.state()
            if ended["finished"]:
                # Its last throw ended it, but the server stopped before the game was
                # marked over (two writes): the record is put right, nothing continued.
                self._record_result(game_id, ended)
                raise TableError(f"game {game_id} is over: there is nothing to continue")
            self._switch_to(game_id, game, self.store.make_current(game_id))

    def _need_game(self) -> scorer.Game:
        # While a draw runs, the game before it is not played on (nor the camera's
        # throws scored into it).
        self._refuse_during_draw()
        if self.game is None:
            raise TableError("no game in progress: start one first")
        return self.game

    # -- the draw for the starting player (RULES.md §1) ------------------------------------

    def start_draw(self, family: Any, players: Any, options: Any = None,
                   after: Any = ...) -> None:
        """Find the starting player of a game of ``family`` with ``players`` and
        ``options`` by each throwing one die; the game is started (:meth:`start_drawn_game`)
        with the list rotated to begin with the starter. A setup the game would refuse is
        refused now, by the same GameFileError. ``after`` as for :meth:`new_game`."""
        with self._lock:
            self._refuse_during_draw()
            self._check_after(after)
            if family not in DRAW_FAMILIES:
                raise TableError(f"only Sum Chicago finds its starter by each throwing one die "
                                 f"(RULES.md §1), not {json_shown(family)}", 400)
            players = _new_game(family, seat_names(players), options).to_file()["players"]
            draw = _drawn(lambda: StarterDraw(tuple(players)))
            revision = self.store.bump()
            self._draw = DrawAtTable(family, options, draw, id=revision)
            self._publish(revision)

    def draw_throw(self, value: Any, player: Any = None, draw: Any = None) -> None:
        """One die thrown in the draw, entered by hand: ``value`` for the player who
        throws now. With ``player`` (whom the tapping screen showed throwing), a tap made
        after another screen or the camera moved the draw on is refused; with ``draw``
        (the id of the draw shown), one made on a draw that is over."""
        with self._lock:
            current = self._need_draw()
            _check_draw_shown(current, None, draw)
            thrower = current.draw.thrower
            after = _drawn(lambda: current.draw.throw(value))
            if player is not None and player != thrower:
                raise TableError(f"it is {thrower}'s throw in the draw, not "
                                 f"{json_shown(player)}'s: look again and tap once more",
                                 plain=f"it is {thrower}'s throw in the draw now: look "
                                       "again and tap once more")
            self._set_draw(replace(current, draw=after, note=None))

    def take_back_draw_throw(self, throws: Any = None, draw: Any = None) -> None:
        """Take back the draw's latest throw (a misread or a mis-tap). ``throws``, the
        number of throws the tapping screen showed: two tablets tapping "Take back" for
        one wrong throw take back one. ``draw``, the id of the draw it showed."""
        with self._lock:
            current = self._need_draw()
            _check_draw_shown(current, throws, draw)
            self._set_draw(replace(current, draw=_drawn(current.draw.take_back), note=None))

    def cancel_draw(self, draw: Any = None) -> None:
        """Drop the draw: no game is started, and the start form shows again. ``draw``, the
        id of the draw the tapping screen showed: a Cancel sent again after the Wi-Fi lost
        its answer must not cancel a draw begun since."""
        with self._lock:
            _check_draw_shown(self._need_draw(), None, draw)
            self._draw = None
            self._publish(self.store.bump())

    def start_drawn_game(self, throws: Any = None, draw: Any = None) -> None:
        """Start the drawn game, exactly as if its list had been typed beginning with the
        starter (seat order kept). ``draw`` and ``throws``, the draw as the tapping screen
        showed it: a tap sent again must not start a game from a draw begun since."""
        with self._lock:
            current = self._need_draw()
            _check_draw_shown(current, throws, draw)
            seating = _drawn(current.draw.seating)
            self._start_game(current.family, list(seating), current.options)

    def _need_draw(self) -> DrawAtTable:
        if self._draw is None:
            # Most often a tap sent again, its answer lost, that did end the draw.
            raise TableError("no draw for the starting player is under way",
                             plain="the draw for who starts is over: it was cancelled, or "
                                   "its game started, on this screen or another")
        return self._draw

    def _refuse_during_draw(self) -> None:
        if self._draw is not None:
            raise TableError("a draw for the starting player is under way: finish it, or "
                             "cancel it, first")

    def _set_draw(self, draw: DrawAtTable) -> None:
        self._draw = draw
        self._publish(self.store.bump())

    def _draw_reading(self, draw: DrawAtTable, dice: list[dict[str, Any]]) -> None:
        """A settled reading while the starter is being found: exactly one die, read
        surely, is the thrower's throw; anything else is not counted, and the screens
        say what is wanted."""
        thrower = draw.draw.thrower
        problems = tray_problems(dice, 1)
        if thrower is None:
            self._set_draw(replace(draw, note=f"{draw.draw.starter} starts: start the game, "
                                               "then throw (this reading is not counted)"))
        elif problems:
            self._set_draw(replace(draw, note=f"{thrower}: throw one die (not counted: "
                                              f"{'; '.join(problems)})"))
        else:
            self._set_draw(replace(draw, draw=draw.draw.throw(dice[0]["value"]), note=None))

    def _commit(self, action: dict[str, Any], *, reading: int | None = None,
                reading_dice: list[dict[str, Any]] | None = None,
                new_reading: list[dict[str, Any]] | None = None, new_frame: Any = None) -> None:
        """Check, store, apply, publish: the one path every action takes. ``new_frame`` is
        the camera's frame of ``new_reading``, kept for a while (KEEP_SCORED_FRAMES)."""
        with self._lock:
            game = self._need_game()
            assert self.game_id is not None
            game.check(action)
            index = len(game.log)
            # Applied, then stored, as one step: should either fail (a fault in the rules,
            # a full disk), the game is replayed from the store, where it stands as before,
            # so the table and the database never part and the next action is taken.
            try:
                game.apply(action)
                revision, new_id = self.store.append_action(
                    self.game_id, index, action, reading=reading, reading_dice=reading_dice,
                    new_reading=new_reading)
            except BaseException:
                self.game = self._replayed(self.game_id, self.store.game_file(self.game_id))
                raise
            if new_id is not None and new_frame is not None:
                self._scored_frames.add(new_id, new_frame, save=False)
            st = game.state()
            if st["finished"] and self._finished_at is None:
                self._finished_at = time.monotonic()
            elif not st["finished"] and self._finished_at is not None:
                self._finished_at = None
            if action.get("type") == "roll":
                self._last_scored = time.monotonic()
            self._record_result(self.game_id, st)
            self._publish(revision)
            self._scored_frames.save()   # after the score is out

    def _record_result(self, game_id: int, st: dict[str, Any]) -> None:
        """Put the game's record (over or not, who won, who lost: the history's line)
        right with ``st``, its state as scored, when it says otherwise: when the game ends
        or is taken back, and when a correction changes who won."""
        result = (bool(st["finished"]), st.get("winner"), st.get("loser"))
        try:
            row = self.store.game(game_id)
            if row is not None and (row.finished is not None, row.winner, row.loser) != result:
                self.store.mark_finished(game_id, *result)
        except StoreError as exc:
            # The game's actions are stored, so they stand and every screen shows them;
            # the history's line is put right by the next action or at the next start.
            log.warning("the result of game %s was not recorded: %s", game_id, exc)

    def act(self, action: dict[str, Any], shown: Any = None) -> None:
        """Apply any action of the game file format (the engine checks it); ``shown`` as
        for :meth:`hand_roll`. ``{"type": "leader", "lot": true}`` asks the table to draw
        Pub Chicago's first leader (:meth:`_lot`); the log keeps the leader drawn."""
        if not isinstance(action, dict):
            raise TableError("an action is a JSON object", 400)
        with self._lock:
            game = self._need_game()
            _check_shown(game, shown, self.game_id)
            action = dict(action)
            # An undo or a correction of a camera throw changes its reading too: the
            # same path as the control page's, extra keys kept.
            if action.get("type") == "undo":
                return self.undo(shown, action)
            if action.get("type") == "correct":
                return self.correct_action(action.get("action"), action.get("dice"), shown,
                                           action)
            if action.get("type") == "leader" and action.get("lot") is True \
                    and "player" not in action:
                # The control page's "Draw the first leader by lot": the table draws.
                del action["lot"]
                action["player"] = self._lot(game)
            if action.get("type") == "join" and isinstance(action.get("player"), str):
                # A name typed now, checked as the join form's is.
                action["player"] = joining_name(game.seated(), action["player"])
            self._commit(action)

    def hand_roll(self, dice: Any, player: Any = None, shown: Any = None) -> None:
        """A throw entered by hand, for ``player`` or whoever's throw it is. ``shown``,
        the number of actions the screen's game held (see :func:`_check_shown`)."""
        with self._lock:
            game = self._need_game()
            _check_shown(game, shown, self.game_id)
            _check_dice_shape(dice)
            if player is None:
                player = game.state()["next"].get("player")
                if player is None:
                    raise TableError("no throw is expected now"
                                     + (" (the game is over)" if game.state()["finished"] else ""))
            self._commit({"type": "roll", "player": player, "dice": dice})

    def undo(self, shown: Any = None, given: Mapping[str, Any] | None = None) -> None:
        """Take back the latest action still in force (``shown`` as for :meth:`hand_roll`;
        ``given``, the undo as a game file's action, for its extra keys).

        When that is a correction of a camera throw, its reading takes back the dice too
        (in the same commit): the control page shows the throw as the game counts it, and
        the dice remembered from it follow."""
        with self._lock:
            game = self._need_game()
            _check_shown(game, shown, self.game_id)
            linked, dice = self._undone_correction(game)
            self._commit({**(given or {}), "type": "undo"},
                         reading=linked.id if linked is not None else None,
                         reading_dice=dice)
            if linked is not None and dice is not None:
                self._learn_correction(linked, dice)

    def _undone_correction(self, game: scorer.Game) -> tuple[Any, list[dict[str, Any]] | None]:
        """The reading an undo now would give its roll's earlier dice back to, and those
        dice; ``(None, None)`` when the undo takes back no correction of a camera throw."""
        log, target = game.log, game.undo_target()
        if target is None or log[target].get("type") != "correct":
            return None, None
        assert self.game_id is not None
        roll = int(log[target]["action"])
        linked = self.store.reading_for_action(self.game_id, roll)
        if linked is None:
            return None, None
        live = [i for i in game.in_force() if i != target]
        return linked, _with_values(linked.dice, _roll_dice(log, live, roll), "correction undone")

    def join(self, player: Any) -> None:
        """A new player takes the last seat."""
        with self._lock:     # the seats checked are those of the game joined
            if isinstance(player, str):
                player = joining_name(self._need_game().seated(), player)
                # Join tapped with the box empty: said in the family's words, not the
                # game log's ("action 0 (join by ): a name is 1 to 40 characters").
                if not player:
                    raise TableError("player: the name is empty; type the new player's name "
                                     f"(1 to {LONGEST_NAME} characters)", 400,
                                     plain="type the new player's name, then tap Join")
            self._commit({"type": "join", "player": player})

    def leave(self, player: Any) -> None:
        """A player stops; their score stays."""
        self._commit({"type": "leave", "player": player})

    def correct_action(self, index: Any, dice: Any, shown: Any = None,
                       given: Mapping[str, Any] | None = None, seen: Any = None) -> None:
        """Correct the dice of an earlier roll by its log index (``given``: the correction
        as a game file's action, for its extra keys). ``seen``, the roll's dice as the
        tapping screen showed them: a tap on dice another screen changed meanwhile is
        refused (a throw entered by hand is corrected this way, one die tapped)."""
        # A request of the wrong shape is the request's fault (400); which actions can be
        # corrected, and to what, is the rules' to say (409).
        if isinstance(index, bool) or not isinstance(index, int):
            raise TableError("'action' must be the log index of a throw (a whole number), "
                             f"not {json_shown(index)}", 400)
        _check_dice_shape(dice)
        with self._lock:
            game = self._need_game()
            _check_shown(game, shown, self.game_id)
            if 0 <= index < len(game.log) and game.log[index].get("type") == "roll":
                _check_list_seen(f"dice of throw {index}",
                                 _roll_dice(game.log, game.in_force(), index), seen,
                                 "dice of this throw")
            assert self.game_id is not None
            linked = None
            if isinstance(index, int) and not isinstance(index, bool):
                linked = self.store.reading_for_action(self.game_id, index)
            new_dice = None
            if linked is not None and isinstance(dice, list) and len(dice) == len(linked.dice):
                new_dice = [_set_die(d, v) if d.get("value") != v else d
                            for d, v in zip(linked.dice, dice)]
            self._commit({**(given or {}), "type": "correct", "action": index, "dice": dice},
                         reading=linked.id if new_dice is not None and linked else None,
                         reading_dice=new_dice)
            if linked is not None and new_dice is not None:
                self._learn_correction(linked, new_dice)

    def correct_die(self, reading_id: Any, die: Any, value: Any, teach: Any = False,
                    seen: Any = None) -> None:
        """One tap on the control page: die ``die`` (0-based) of a reading shows ``value``.

        A scored reading becomes a ``correct`` of its roll; a waiting one is fixed in
        place and scored as soon as nothing in it needs checking any more. With
        ``teach``, the die's picture face is also taught as ``value`` (and the
        calibration saved) first, so later throws read it by themselves. ``seen``, the
        dice's values as the tapping screen showed them, refuses a tap made before another
        screen changed the dice (:func:`_check_die_index`).
        """
        if not isinstance(teach, bool):
            raise TableError(f"'teach' must be true or false, not {json_shown(teach)}", 400)
        with self._lock:
            reading = self._reading(reading_id)
            _check_die_index(reading, die, seen)
            _check_value(value)
            gone = self._taken_back(reading)
            if gone is not None:
                why = "taken back by an undo" if gone == "undone" else "dropped after a correction"
                raise TableError(f"reading {reading.id} is {gone}: its throw was {why} and no "
                                 "longer counts, so there is nothing to correct; throw again",
                                 plain=f"this throw was {why} and no longer counts: there "
                                       "is nothing to correct; throw again")
            scored = reading.status == "scored" and reading.action is not None
            if not scored and reading.status != "waiting":
                raise TableError(f"reading {reading.id} is {reading.status}: "
                                 "only a scored or waiting reading can be corrected")
            dice = [dict(d) for d in reading.dice]
            if scored:
                # The dice the game counts the throw with now (a correction undone since
                # is not in them): the tap changes this one die, and nothing else.
                game = self._need_game()
                dice = _with_values(dice, _roll_dice(game.log, game.in_force(),
                                                     reading.action)) or dice
            dice[die] = _set_die(dice[die], value, "taught" if teach else "corrected")
            if teach:
                if not scored and not self._waiting_problems(dice):
                    self._waiting_roll(reading.id, dice)  # refused before anything is taught
                self._teach(reading, die, value)
            if scored:
                values = [d.get("value") for d in dice]
                self._commit({"type": "correct", "action": reading.action, "dice": values},
                             reading=reading.id, reading_dice=dice)
                self._learn_correction(reading, dice)
            else:
                self._fix_waiting(reading.id, dice)

    def _teach(self, reading: Any, die: int, value: int) -> None:
        """Teach die ``die`` of ``reading``'s picture face as ``value``; refuse, changing
        nothing, when it is not a picture face or its frame is no longer kept."""
        if reading.dice[die].get("reason") != REASON_PICTURE:
            raise TableError(f"die {die + 1} of reading {reading.id} is not a picture face: "
                             "only a picture the reader flagged can be taught", 400)
        frame = self._reading_frames.get(reading.id) if reading.status == "waiting" else None
        if self._calibrator is None or frame is None:
            raise TableError(f"the picture of reading {reading.id} is no longer kept (only "
                             "the latest throws' are): teach it when it shows again", 409)
        from vision.known_dice import source_of

        try:
            self._calibrator.teach(frame, reading.dice[die], value,
                                   source=source_of(_throw(reading), die))
        except OSError as exc:
            raise TableError(f"could not save the calibration: {exc}", 503) from None

    def remove_die(self, reading_id: Any, die: Any, seen: Any = None) -> None:
        """One tap: die ``die`` (0-based) of a waiting reading is not a die (a pen, a
        shadow, a die outside the tray); the rest are scored once nothing needs checking.
        ``seen`` as for :meth:`correct_die`.

        A scored reading's dice were the throw the game expected, so none can go.
        """
        with self._lock:
            reading = self._waiting_reading(reading_id, "have a die taken away")
            _check_die_index(reading, die, seen)
            dice = [dict(d) for i, d in enumerate(reading.dice) if i != die]
            self._fix_waiting(reading.id, dice)

    def add_die(self, reading_id: Any, value: Any, seen: Any = None) -> None:
        """One tap: the camera missed a die of a waiting reading, which shows ``value``.
        ``seen`` as for :meth:`correct_die`: the same tap sent twice (from two screens, or
        a retry) adds one die, not two."""
        with self._lock:
            reading = self._waiting_reading(reading_id, "have a die added")
            _check_seen(reading, seen)
            _check_value(value)
            # No place in the frame: a person's value, like any other correction.
            added = _set_die({"center": None, "box": None, "confidence": 1.0}, value,
                             "added by hand")
            self._fix_waiting(reading.id, [dict(d) for d in reading.dice] + [added])

    def _waiting_reading(self, reading_id: Any, to: str) -> Any:
        """The reading ``reading_id``; only a waiting one may ``to`` (a scored one's
        dice were the throw the game expected)."""
        reading = self._reading(reading_id)
        if reading.status != "waiting":
            raise TableError(f"reading {reading.id} is {reading.status}: only a waiting "
                             f"reading can {to}; correct a die's value instead",
                             plain=NOT_WAITING + ": tap a die to correct its value instead")
        return reading

    def confirm(self, reading_id: Any, seen: Any = None) -> None:
        """Accept a waiting reading as read (its best guesses), scoring it. ``seen``, the
        dice's values as the tapping screen showed them: dice changed on another screen
        meanwhile are not confirmed unseen."""
        with self._lock:
            reading = self._reading(reading_id)
            if reading.status != "waiting":
                raise TableError(f"reading {reading.id} is {reading.status}, not waiting",
                                 plain=NOT_WAITING + ": look again")
            _check_seen(reading, seen)
            dice = [(_set_die(d, d["value"], "confirmed") if d.get("value") is not None else d)
                    for d in reading.dice]
            missing = [str(i + 1) for i, d in enumerate(dice) if d.get("value") is None]
            if missing:
                raise TableError(f"die {', '.join(missing)} has no value: tap it to pick one")
            self._score_waiting(reading.id, dice)

    def _waiting_problems(self, dice: list[dict[str, Any]]) -> list[str]:
        """What in a waiting reading's ``dice`` still needs a person (vision's flags, the
        count the game expects); none: it is scored."""
        return tray_problems(dice, self._need_game().state()["next"].get("dice") or 0)

    def _fix_waiting(self, reading_id: int, dice: list[dict[str, Any]]) -> None:
        problems = self._waiting_problems(dice)
        if problems:
            revision = self.store.update_reading(reading_id, dice=dice,
                                                 note="check the tray: " + "; ".join(problems))
            self._publish(revision)
        else:
            self._score_waiting(reading_id, dice)

    def _score_waiting(self, reading_id: int, dice: list[dict[str, Any]]) -> None:
        action = self._waiting_roll(reading_id, dice)
        self._commit(action, reading=reading_id, reading_dice=dice)
        reading = self.store.reading(reading_id)
        if reading is not None:
            self._remember(reading, self._reading_frames.get(reading_id), dice)

    def _waiting_roll(self, reading_id: int, dice: list[dict[str, Any]]) -> dict[str, Any]:
        """The roll waiting reading ``reading_id`` with ``dice`` is scored as now; a
        ``TableError`` (nothing changed) when it cannot be."""
        game = self._need_game()
        nxt = game.state()["next"]
        if nxt.get("player") is None or "roll" not in nxt.get("actions", []):
            raise TableError("no throw is expected now")
        held = self.store.reading(reading_id)
        if held is not None and held.player is not None and held.player != nxt["player"]:
            # An undo or a correction moved the turn while the throw waited: its dice are
            # the thrower's, never the next player's.
            raise TableError(f"reading {reading_id} is {held.player}'s throw, but it is "
                             f"{nxt['player']}'s throw now: enter it by hand or throw again",
                             plain=f"this throw was {held.player}'s, but it is "
                                   f"{nxt['player']}'s throw now: enter it by hand or throw "
                                   "again")
        if len(dice) != nxt.get("dice"):
            raise TableError(f"{counted_dice(len(dice))} read, {nxt.get('dice')} expected: "
                             "enter the throw by hand or throw again")
        action = {"type": "roll", "player": nxt["player"], "dice": [d["value"] for d in dice],
                  "reading": reading_id}
        game.check(action)
        return action

    def _remember(self, reading: Any, frame: Any, dice: list[dict[str, Any]]) -> None:
        """A person looked at this throw's dice: remember them (seen in ``frame``) with
        their values, so the reader reads those dice surely next time (vision.known_dice).
        The throw is scored already; a calibration that cannot be saved only means they
        are not remembered."""
        if self._calibrator is None or frame is None:
            return
        try:
            self._calibrator.remember(frame, dice, _throw(reading))
        except OSError as exc:
            log.warning("the dice of reading %d could not be remembered: %s", reading.id, exc)
        else:
            self._publish(self.store.bump())

    def _learn_correction(self, reading: Any, dice: list[dict[str, Any]]) -> None:
        """A scored throw was corrected: dice remembered from it take the new values (a
        person's slip when checking it is not read surely from then on); a throw not
        remembered yet whose frame is still kept is remembered now, as corrected (a person
        has looked at it)."""
        if self._calibrator is None:
            return
        throw = _throw(reading)
        try:
            # A picture named wrongly when taught from this throw follows the correction:
            # it would read that logo wrongly, and surely, in the throws to come.
            if self._calibrator.relabel_pictures(throw, [d.get("value") for d in dice]):
                self._publish(self.store.bump())
        except OSError as exc:
            log.warning("the picture taught from reading %d could not be corrected: %s",
                        reading.id, exc)
        # A throw that waited for a person keeps its picture with the waiting ones.
        frame = self._frame(reading.id)
        if frame is not None and not self._calibrator.remembers(throw):
            self._remember(reading, frame, dice)
            return
        try:
            changed = self._calibrator.relearn(throw, [d.get("value") for d in dice])
        except OSError as exc:
            log.warning("the remembered dice of reading %d could not be corrected: %s",
                        reading.id, exc)
        else:
            if changed:
                self._publish(self.store.bump())

    def forget_known_dice(self, die: Any = None, seen: Any = None) -> None:
        """Forget the remembered die at index ``die`` (the control page shows the newest),
        or with ``None`` all the dice remembered from checked throws: after a change of dice
        set (a slip when checking a throw is mended by correcting that throw instead).
        ``seen``, the newest remembered dice as the tapping screen listed them (the
        state's ``newest_known_dice``): die N is another one once one before it is gone."""
        if die is not None and (not isinstance(die, int) or isinstance(die, bool)):
            raise TableError("'die' is the number of a remembered die (from 0), "
                             f"not {json_shown(die)}", 400)
        if self._calibrator is None:
            raise TableError("this table keeps no calibration to forget dice from", 409)
        calibrator = self._calibrator

        def forget() -> None:
            _check_list_seen("remembered dice", self._newest_known(), seen)
            calibrator.forget_known_dice(die)
        self._calibrate(forget)

    def known_die_picture(self, index: int) -> Any:
        """The crop of the remembered die at ``index``, as the control page shows it beside
        its value."""
        cal = self._calibration
        known = cal.known_dice if cal is not None else ()
        if not 0 <= index < len(known):
            raise TableError(f"there is no remembered die {index}", 404)
        return known[index].crop

    def _reading(self, reading_id: Any) -> Any:
        if isinstance(reading_id, bool) or not isinstance(reading_id, int):
            raise TableError(f"'reading' must be a reading id, not {json_shown(reading_id)}", 400)
        reading = self.store.reading(reading_id)
        if reading is None or reading.game != self.game_id:
            raise TableError(f"there is no reading {reading_id} in this game", 404)
        return reading

    def take_dice_out(self) -> None:
        """Take the simulated tray's dice out (only the sim can), as a family empties a real
        tray before taking its picture: the empty tray can then be taken in the demo too.
        The demo family waits DEMO_REST_S before it throws again."""
        with self._lock:
            if not self._camera_status["can_roll"]:
                raise TableError("only the simulated tray's dice are taken out from here: "
                                 "lift the dice out of the tray")
            self._demo_rests_until = self._clock() + DEMO_REST_S
            self._rolled_at = None
        # The watcher sees the dice go and then an empty tray, which it reports as nothing.
        self.camera.roll(count=0)

    def roll_for_me(self, shown: Any = None, throws: Any = None, draw: Any = None) -> None:
        """Throw the simulated tray's dice (only the sim camera can): one die in a draw for
        the starter, else the dice of the game's next throw. ``shown`` (the game's number
        of actions) or, in a draw, ``throws`` (its number of throws) and ``draw`` (its id),
        as the tapping screen showed them: a tap sent again after its answer was lost,
        once its throw is scored, is refused instead of throwing for the next player too."""
        with self._lock:
            count = self._dice_due()
            if not self._camera_status["can_roll"]:
                raise TableError("roll for me needs the simulated tray (dicetray serve --camera sim)")
            if self._draw is not None:
                _check_draw_shown(self._draw, throws, draw)
            else:
                _check_shown(self._need_game(), shown, self.game_id)
            self._rolled_at = time.monotonic()
        self.camera.roll(count=count)

    def _dice_due(self) -> int:
        """How many dice the next throw takes: one in a draw for the starter, else the
        game's; refused when no throw is expected."""
        if self._draw is not None:
            if self._draw.draw.thrower is None:
                raise TableError(f"{self._draw.draw.starter} starts: start the game, then throw")
            return 1
        nxt = self._need_game().state()["next"]
        if nxt.get("player") is None or not nxt.get("dice"):
            raise TableError("no throw is expected now")
        return int(nxt["dice"])

    # -- camera side -----------------------------------------------------------------------

    def handle_reading(self, reading: Any, *, rolled_on: bool = False) -> None:
        """A settled reading from the watcher: score it, or let it wait for a person.

        ``rolled_on``: the watcher saw some dice left where the last throw lay, untouched
        (:class:`vision.watcher.WatchEvent`); scored silently, a die of that throw that
        rolled on after it was read would count as the next player's throw."""
        dice = [die_json(d) for d in getattr(reading, "dice", reading)]
        with self._lock:
            self._set_aside = None
            self._measure_dice(reading, dice)
            self._rolled_at = None
            self._camera_status["moving"] = False
            thrown_before_switch, self._thrown_before_switch = self._thrown_before_switch, False
            ms = getattr(reading, "ms", None)
            self._camera_status["read_ms"] = round(ms, 1) if isinstance(ms, (int, float)) else None
            if self._draw is not None:
                self._draw_reading(self._draw, dice)
                return
            game = self.game
            nxt = game.state()["next"] if game is not None else {}
            if game is None or nxt.get("player") is None or "roll" not in nxt.get("actions", []):
                _, revision = self.store.add_reading(self.game_id, dice, "ignored",
                                                     note="no throw was expected")
                self._publish(revision)
                return
            problems = tray_problems(dice, int(nxt.get("dice") or 0))
            if rolled_on:
                problems.insert(0, "some dice lie just where the last throw left them, not "
                                   "picked up: if a die of that throw rolled on, tap Undo and "
                                   "enter that throw by hand; if this is "
                                   f"{nxt['player']}'s throw, confirm it")
            if thrown_before_switch:
                problems.insert(0, "these dice were thrown before this game was begun or "
                                   f"continued: confirm them as {nxt['player']}'s throw, or "
                                   "throw again")
            if problems:
                waiting = self.store.latest_reading(self.game_id, skip=("ignored",))
                reading_id, revision = self.store.add_reading(
                    self.game_id, dice, "waiting", player=nxt["player"],
                    note="check the tray: " + "; ".join(problems))
                # What this one put aside (see _uncovered): a throw waiting before it.
                self._set_aside = (reading_id, waiting.id if waiting is not None
                                   and waiting.status == "waiting" else None)
                self._keep_frame(reading, reading_id)
                self._publish(revision)
                return
            action = {"type": "roll", "player": nxt["player"], "dice": [d["value"] for d in dice]}
            try:
                frame = self._calibrator.frame_of(reading) if self._calibrator is not None else None
                self._commit(action, new_reading=dice, new_frame=frame)
            except scorer.IllegalAction as exc:
                # The engine refused what the table thought it expected: let a person look.
                _, revision = self.store.add_reading(self.game_id, dice, "waiting",
                                                     player=nxt["player"], note=str(exc))
                self._publish(revision)

    def _measure_dice(self, reading: Any, dice: list[dict[str, Any]]) -> None:
        """The dice of a settled throw read surely measure the die size until it is known
        (``calibration.die_size``), and then tell whether it still fits. A calibration that
        cannot be saved only means it is tried again at the next throw."""
        frame = self._calibrator.frame_of(reading) if self._calibrator is not None else None
        if frame is None:
            return
        try:
            self._calibrator.measure_dice(dice, (frame.shape[1], frame.shape[0]),
                                          getattr(reading, "seen_size", None))
        except OSError as exc:
            log.warning("the die size (measured, or forgotten as stale) could not be saved: %s", exc)

    def _keep_frame(self, reading: Any, reading_id: int) -> None:
        """Keep the frame of a waiting reading: to show which die is which, and to teach a
        picture face from."""
        frame = self._calibrator.frame_of(reading) if self._calibrator is not None else None
        if frame is None:
            return
        self._reading_frames.add(reading_id, frame)

    def _frame(self, reading_id: int) -> Any:
        """The kept frame of a waiting or a scored reading, if it is still kept."""
        frame = self._reading_frames.get(reading_id)
        return frame if frame is not None else self._scored_frames.get(reading_id)

    def reading_picture(self, reading_id: Any) -> Any:
        """The frame of reading ``reading_id`` (while kept) with each die's box drawn and
        numbered as the control page numbers them (BGR)."""
        with self._lock:
            reading = self._reading(reading_id)
            frame = self._frame(reading.id)
            if frame is None:
                raise TableError(f"the picture of reading {reading.id} is not kept (only the "
                                 "latest throws' are)", 404)
            dice = [dict(d) for d in reading.dice]
        out = frame.copy()
        thick = max(2, out.shape[1] // 400)
        for i, d in enumerate(dice):
            if not d.get("box"):
                continue  # added by hand: no place in the frame
            x0, y0, x1, y1 = (int(round(v)) for v in d["box"])
            # Orange for a die a person should check, green for one read surely.
            colour = (0, 140, 255) if d.get("flagged") else (80, 200, 80)
            cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
            cv2.putText(out, str(i + 1), (x0, max(0, y0 - 2 * thick)), cv2.FONT_HERSHEY_SIMPLEX,
                        thick * 0.5, colour, thick, cv2.LINE_AA)
        return out

    def _note_view(self) -> None:
        """Tell the screens when the reader has followed a bumped tray (its outline moved),
        or when an empty tray stops (or starts again) looking like its picture (the
        outline is then likely stale)."""
        if self._calibrator is None:
            return
        seen = (self._calibrator.view_changed, self._calibrator.followed)
        if seen != (self._camera_status["view_changed"], self._followed):
            with self._lock:
                self._camera_status["view_changed"], self._followed = seen
                self._publish_status()

    def _publish_status(self) -> None:
        """Tell the screens of a change of the camera's status, or of what the storage
        refused: at the revision they hold, as nothing of it is stored. Stored, a throw's
        "rolling…" wrote the memory card at every throw and a hung camera's count of
        seconds every second, each a synced commit, and a full card held the news back."""
        with self._lock:
            revision = self.store.revision
            self.publisher.publish(json.dumps(self._build(revision)), revision)

    def _throw_not_stored(self, exc: StoreError) -> None:
        """The storage refused a throw the camera saw: the game stands as it was, and the
        screens say why and what to do (said nowhere, the throw was simply never scored)."""
        log.warning("camera: a throw was not stored: %s", exc)
        cause, remedy = exc.trouble or ("the appliance could not store it", "try again")
        with self._lock:
            self._not_saved = (f"{cause}: the throw just made was not saved; {remedy}, then "
                               "enter that throw by hand")
            self._publish_status()

    def _camera_moving(self, moving: bool) -> None:
        with self._lock:
            self._camera_status["moving"] = moving
            if not moving:      # the dice were picked up: no throw of the game before comes
                self._thrown_before_switch = False
            self._publish_status()

    def _serve(self) -> None:
        """The service thread: watch the camera, and open it again when it fails or stalls
        and can be opened again."""
        while not self._stop.is_set():
            gone = self._watch_camera()
            if self._found_camera is not None:
                self._take_found_camera()
                continue
            if gone is None or not self._open_again(gone):
                return

    def _look(self) -> None:
        """The looker thread: every ``look_every`` s, look for a real camera until one is
        found (its own thread: opening a webcam takes a moment, and the tray is watched
        meanwhile)."""
        assert self._look_for_camera is not None
        while not self._stop.wait(self.look_every):
            try:
                camera = self._look_for_camera()
            except Exception as exc:  # noqa: BLE001 - none yet, whatever the reason
                log.debug("camera: still none found: %s", exc)
                continue
            with self._lock:
                if self._stop.is_set():
                    camera.close()
                    return
                self._found_camera = camera
            log.info("camera: found %s", getattr(camera, "message", camera))
            return

    def _take_found_camera(self) -> None:
        """Put the camera the looker found in the simulated tray's place; from now on it is
        opened again as any camera is when it fails."""
        from vision.cameras import reopener

        with self._lock:
            camera, self._found_camera = self._found_camera, None
            if camera is None:
                return
            if self._stop.is_set():
                camera.close()
                return
            self._camera_thread.stop()
            self.camera.close()
            self._reopen = reopener(camera)
            self._run_camera(camera, name=getattr(camera, "name", None), moving=False,
                             can_roll=callable(getattr(camera, "roll", None)))

    def _run_camera(self, camera: Any, **status: Any) -> None:
        """Watch ``camera`` from now on (in a new camera thread), and tell the screens it
        runs, with ``status`` besides; the caller holds the lock."""
        from vision.frames import CameraThread

        self.camera = camera
        self._camera_thread = CameraThread(camera, clock=self._clock).start()
        self._camera_status.update(running=True, error=None,
                                   message=getattr(camera, "message", None), **status)
        self._publish_status()

    def _watch_camera(self) -> str | None:
        """Watch the newest frames with the roll watcher, handle readings, run the demo,
        until the table stops or the camera fails or stalls; returns why the camera is to
        be opened again, or None when it is not.

        The watcher is kept when the camera is opened again: the first picture after is
        compared with the last one before, so dice thrown meanwhile are a throw (a new
        watcher took them for the tray as it lay, and the throw was lost)."""
        camera_thread = self._camera_thread
        if self._watcher is None:
            read = self._calibrator.read if self._calibrator is not None else (
                self._reader or _default_reader())
            self._watcher = (self._watcher_factory or _default_watcher_factory(
                getattr(camera_thread.source, "fps", None)))(read)
        watcher = self._watcher
        latest = camera_thread.latest
        seen = 0
        regions = _TrayRegion()
        while not self._stop.is_set() and self._found_camera is None:
            got = latest.wait_newer(seen, 0.5)
            if got is None and latest.closed:
                return self._camera_ended(camera_thread.error)
            stuck = self._check_stall(camera_thread)
            if stuck is not None:
                return stuck
            if got is not None:
                seen, frame = got
                pace = camera_thread.seconds_per_frame()
                self._note_pace(pace)
                if hasattr(watcher, "follow_pace"):
                    # Its waits (a hand in the tray, a die pausing) as long in seconds at
                    # the pace the camera keeps as at the one it said.
                    watcher.follow_pace(pace)
                try:
                    if hasattr(watcher, "watch_region"):
                        # Once the tray is marked, only it is watched for motion: people
                        # reaching across the table beside it are not a throw.
                        watcher.watch_region(regions.of(self._calibration, frame))
                    events = watcher.feed(frame)
                    self._reading_failed(None)
                    self._note_view()
                    for event in events:
                        if event.kind == "moving":
                            self._camera_moving(True)
                        elif event.kind == "settled" and event.reading is not None:
                            self.handle_reading(event.reading,
                                                rolled_on=getattr(event, "rolled_on", False))
                        elif event.kind == "uncovered":
                            self._uncovered()
                    # The watcher may end a movement with no reading (the dice were picked
                    # up, a hand came and went): the screens stop saying "rolling".
                    if self._camera_status["moving"] and getattr(watcher, "moving", True) is False:
                        self._camera_moving(False)
                except StoreError as exc:
                    self._throw_not_stored(exc)
                except Exception as exc:  # noqa: BLE001 - a bad frame must not stop the table
                    self._reading_failed(exc)
            if self.demo and time.monotonic() - self._demo_checked > 0.25:
                # A few looks a second are plenty for a family's pace; not one per frame.
                self._demo_checked = time.monotonic()
                try:
                    self._demo_step()
                except (ValueError, StoreError) as exc:
                    log.warning("demo: %s", exc)
        return None

    def _uncovered(self) -> None:
        """A hand sat over the dice so long that what it left in view was reported, and a
        throw of too few dice waited for a person; the hand has gone and the dice lie as
        they were: that throw is withdrawn, as no throw was made (ignored, so the throw
        shown is the last one scored, and the screens say why)."""
        with self._lock:
            if self.game_id is None:
                return
            reading = self.store.latest_reading(self.game_id, skip=("ignored",))
            if (reading is None or reading.status != "waiting" or self._set_aside is None
                    or self._set_aside[0] != reading.id):
                return  # not the report of the hidden dice, or acted on since
            revision = self.store.update_reading(
                reading.id, status="ignored",
                note="a hand hid them for long; now it has gone, they lie as they were")
            # The throw before the hand came may itself have waited for a person (a die
            # read unsurely): the report under the hand put it aside, and it waits again.
            before = self._set_aside[1]
            self._set_aside = None
            row = self.store.reading(before) if before is not None else None
            if row is not None and row.status == "superseded":
                revision = self.store.update_reading(row.id, status="waiting")
            self._publish(revision)

    def _reading_failed(self, exc: Exception | None) -> None:
        """Tell the screens a frame could not be read (logged once, not at every frame
        while it goes on), or, with ``None``, that frames are read again: the line said
        "reading failed" for good after one bad frame."""
        said = self._camera_status["error"]
        failed = isinstance(said, str) and said.startswith(READING_FAILED)
        if exc is None and not failed:
            return
        message = None if exc is None else f"{READING_FAILED}{type(exc).__name__}: {exc}"
        if message == said:
            return
        if exc is not None:
            log.exception("reading a frame failed")
        with self._lock:
            self._camera_status["error"] = message
            self._publish_status()

    def _check_stall(self, camera_thread: Any) -> str | None:
        """Tell the screens whether the camera gives new pictures; returns why it is to be
        opened again once it has given none for ``reopen_stalled_after`` s, else None.

        A camera whose frames still come but all show the same picture (a hung webcam, a
        stuck driver buffer) reads no throw either: it is said and opened again as one
        that gives no frame at all."""
        stalled = camera_thread.since_new_picture()
        frozen = camera_thread.since_last_frame() < min(stalled, self.stalled_after)
        self._note_stall(stalled if stalled >= self.stalled_after else None, frozen)
        if self._reopen is not None and stalled >= self.reopen_stalled_after:
            return _stall_said(stalled, frozen, past=True)
        return None

    def _note_pace(self, seconds: float | None) -> None:
        """Tell the screens the camera is slow (``seconds`` a frame, in whole seconds), or
        no longer is."""
        shown = round(seconds) if seconds is not None and seconds >= SLOW_CAMERA_S else None
        if shown == self._camera_status["slow_s"]:
            return
        if shown is not None and self._camera_status["slow_s"] is None:
            log.warning("camera: slow, a picture every %d s", shown)
        with self._lock:
            self._camera_status["slow_s"] = shown
            self._publish_status()

    def _note_stall(self, stalled: float | None, frozen: bool = False) -> None:
        """Tell the screens how long the camera has given no new picture (in whole seconds,
        so the control page counts up) and whether its frames still come (``frozen``), or
        that new pictures come again (``None``)."""
        shown = int(stalled) if stalled is not None else None
        frozen = frozen and shown is not None
        if (shown, frozen) == (self._camera_status["stalled_s"], self._camera_status["frozen"]):
            return
        if shown is not None and self._camera_status["stalled_s"] is None:
            log.warning("camera: %s", _stall_said(shown, frozen))
        elif shown is None:
            log.info("camera: new pictures come again")
        with self._lock:
            self._camera_status.update(stalled_s=shown, frozen=frozen)
            self._publish_status()

    def _camera_ended(self, error: BaseException | None) -> str | None:
        """The camera thread ended: with ``error``, the camera failed and is opened again
        if it can be (returns why); else the screens are told it stopped."""
        reason = str(error) if error else "the camera stopped"
        if error is not None and self._reopen is not None:
            return reason
        with self._lock:
            self._camera_status.update(running=False, stalled_s=None, frozen=False, slow_s=None,
                                       error=reason)
            self._publish_status()
        return None

    def _open_again(self, why: str) -> bool:
        """Close the camera that failed or stalled (``why``) and open it again, tried every
        ``reopen_every`` s; True once it runs again, False when the table stops first.
        Only this thread waits: requests, hand entry among them, go on meanwhile."""
        assert self._reopen is not None
        log.warning("camera: %s; opening it again", why)
        trying = f"{why}; trying to open it again every {self.reopen_every:g} s"
        with self._lock:
            self._camera_status.update(running=False, moving=False, stalled_s=None,
                                       frozen=False, slow_s=None, reopening=True,
                                       error=trying)
            self._publish_status()
        # Closing lets the device go (a hung one once its read returns), for the new open.
        self._camera_thread.stop()
        last_failure = None
        while not self._stop.is_set():
            try:
                camera = self._reopen()
            except Exception as exc:  # noqa: BLE001 - whatever the failure, try again later
                if str(exc) != last_failure:  # said once, not every few seconds
                    last_failure = str(exc)
                    log.warning("camera: not open again yet: %s", exc)
                    with self._lock:
                        self._camera_status["error"] = f"{trying} (last try: {exc})"
                        self._publish_status()
                self._stop.wait(self.reopen_every)
                continue
            with self._lock:  # stop() takes the camera thread under this lock
                if self._stop.is_set():
                    camera.close()
                    return False
                self._run_camera(camera, reopening=False, back_from=why)
            log.info("camera: open again: %s", getattr(camera, "message", ""))
            return True
        return False

    # -- demo ------------------------------------------------------------------------------

    def _demo_plays(self) -> bool:
        """Whether the game being played is the demo family's own: the one it started, as
        the store records it (after a restart too). A game a person started or continued
        is theirs, even with the start form's own names: the family neither throws in it
        nor starts another over it."""
        game = self.game
        if game is None:
            return False
        if self.game_id == self._demo_game_id:
            return True
        if self._demo_game_id is not None:
            return False        # the family's game is known: any other is a person's
        # A database from before the family's game was recorded: its three players' names.
        return (not self._switched and game.family == "sum_chicago"
                and list(game.seated()) == DEMO_PLAYERS)

    def _demo_step(self) -> None:
        """The demo family: start games, throw when it is someone's turn, fix flagged dice."""
        now = time.monotonic()
        with self._lock:
            if self._draw is not None:
                return      # a person started a draw: the family finds its starter
            if self._clock() < self._demo_rests_until:
                return      # a person took the dice out, to take the empty tray
            game = self.game
            if game is not None and not self._demo_plays():
                return      # a person's game, played on the control page
            if game is None or (self._finished_at is not None
                                and now - self._finished_at > 2 * self.demo_interval):
                self.new_game("sum_chicago", DEMO_PLAYERS)
                assert self.game_id is not None
                self._demo_game_id = self.game_id
                self.store.set_demo_game(self.game_id)
                return
            st = self._build(0)
            if st["table"]["waiting"]:
                reading = st["reading"]
                # Timed by the monotonic clock from when the family first saw it: the
                # reading's own time is the wall clock's, which the network sets on a Pi.
                if self._demo_waiting is None or self._demo_waiting[0] != reading["id"]:
                    self._demo_waiting = (reading["id"], now)
                if now - self._demo_waiting[1] >= self.demo_fix_after:
                    self._demo_fix(reading)
                return
            nxt = st["game"]["next"]
            if self._rolled_at is not None and now - self._rolled_at > self.demo_missed_after:
                # The camera missed the throw: the family enters what lies in the tray.
                self._rolled_at = None
                truth = [int(t.value) for t in getattr(getattr(self.camera, "tray", None), "truth", ())]
                if nxt.get("player") and len(truth) == nxt.get("dice"):
                    self.hand_roll(truth)
                return
            busy = self._rolled_at is not None
            if nxt.get("player") and not busy and now - self._last_scored > self.demo_interval:
                self.roll_for_me()

    def _demo_fix(self, reading: dict[str, Any]) -> None:
        """What a person at the table would do: look at the dice and tap the wrong ones."""
        truth = list(getattr(getattr(self.camera, "tray", None), "truth", ()))
        dice = reading["dice"]
        expected = self._need_game().state()["next"].get("dice")
        if len(truth) != expected:
            self._rolled_at = None
            self._last_scored = 0.0    # throw again at once
            self._publish(self.store.update_reading(reading["id"], status="superseded"))
            return
        if len(dice) != len(truth):
            self.hand_roll([t.value for t in truth])
            return
        fixed = []
        for d in dice:
            if d.get("center") is None:   # added by hand: already a person's value
                fixed.append(d)
                continue
            cx, cy = d["center"]
            near = min(truth, key=lambda t: (t.center[0] - cx) ** 2 + (t.center[1] - cy) ** 2)
            fixed.append(_set_die(d, int(near.value), "fixed by the demo family")
                         if d.get("flagged") or d.get("value") != near.value else d)
        self._score_waiting(reading["id"], fixed)


def _throw(reading: Any) -> str:
    """A name for a reading's throw that stays its own in the calibration file, which
    outlives the store's reading ids (a new data folder counts from 1 again)."""
    return f"throw read at {reading.created:.6f}"


def _check_die_index(reading: Any, die: Any, seen: Any = None) -> None:
    """Refuse a die index that is not one of ``reading``'s dice, or a tap made on dice
    ``seen`` (their values as the tapping screen showed them) that are not the reading's
    dice now: another screen took a die away or changed one meanwhile, so die ``die`` may
    be another die than the one tapped."""
    if isinstance(die, bool) or not isinstance(die, int) or not 0 <= die < len(reading.dice):
        held = f"dice 0..{len(reading.dice) - 1}" if reading.dice else "no dice"
        raise TableError(f"reading {reading.id} has {held}, not {json_shown(die)}", 400)
    _check_seen(reading, seen)


@dataclass(frozen=True)
class Shown:
    """What a tapping screen showed of the game being played: its number of actions (its
    state's ``game.actions``) and which game it was (``table.game_id``; None: not said).

    The number alone is not enough: a game started meanwhile (on another tablet, while
    this one was offline) counts its actions from 0 again, and a tap held up on the way
    could land in it at the very number it was made at."""

    actions: Any = None
    game: Any = None


def _check_shown(game: scorer.Game, shown: Any, game_id: int | None) -> None:
    """Refuse a tap made on a screen whose game has changed since: two tablets tapping
    Undo for one wrong throw would take back two actions, and a throw entered on both
    would be scored for the next player too. ``shown`` is the number of actions the
    screen's game held, or a :class:`Shown` that also names the game (``game_id`` is the
    one being played); ``None`` checks nothing."""
    if isinstance(shown, Shown):
        _check_game_shown(game_id, shown.game)
        shown = shown.actions
    if shown is None:
        return
    if not isinstance(shown, int) or isinstance(shown, bool) or shown < 0:
        raise TableError(f"actions: the number of the game's actions the screen showed, "
                         f"not {json_shown(shown)}", 400)
    now = len(game)
    if shown != now:
        raise TableError(f"the game changed meanwhile, by the camera or on another screen "
                         f"({now} action{'' if now == 1 else 's'} now, {shown} on this "
                         "screen): nothing was done; look again and tap again if it is "
                         "still wanted",
                         plain="the game changed meanwhile, by the camera or on another "
                               "screen: nothing was done; look again and tap again if it is "
                               "still wanted")


def _check_game_shown(game_id: int | None, shown: Any) -> None:
    """Refuse a tap made on a screen that showed another game than the one being played
    (``shown``, its id; ``None`` checks nothing)."""
    if shown is None:
        return
    if not isinstance(shown, int) or isinstance(shown, bool) or shown < 1:
        raise TableError(f"game: the number of the game the screen showed, "
                         f"not {json_shown(shown)}", 400)
    if shown != game_id:
        raise TableError(f"another game was started meanwhile (game {game_id} is being "
                         f"played; this screen showed game {shown}): nothing was done; look "
                         "again and tap again if it is still wanted")


def _check_draw_shown(current: DrawAtTable, throws: Any, draw: Any = None) -> None:
    """Refuse a tap made on a screen whose draw for the starter has changed since:
    ``throws`` is the number of the draw's throws it showed, ``draw`` the draw's id
    (``None`` checks nothing): a draw begun since may have as many throws."""
    if draw is not None and (isinstance(draw, bool) or not isinstance(draw, int)):
        raise TableError(f"'draw' is the id of the draw shown, not {json_shown(draw)}", 400)
    if draw is not None and draw != current.id:
        raise TableError(f"another draw was begun meanwhile (draw {current.id} now, draw "
                         f"{draw} on this screen): nothing was done; look again and tap "
                         "again if it is still wanted",
                         plain="another draw for who starts was begun meanwhile, on this "
                               "screen or another: nothing was done; look again and tap "
                               "again if it is still wanted")
    if throws is None:
        return
    if isinstance(throws, bool) or not isinstance(throws, int):
        raise TableError(f"'throws' is the number of the draw's throws shown, "
                         f"not {json_shown(throws)}", 400)
    now = len(current.draw.throws)
    if throws != now:
        raise TableError(f"the draw changed on another screen ({now} throws now, "
                         f"{throws} on this screen): look again and tap once more",
                         plain="the draw changed on another screen: look again and tap "
                               "once more")


def _check_calibration_shown(now: int, shown: Any) -> None:
    """Refuse a change to the calibration made on a screen that showed it at revision
    ``shown`` (``None``: not said), when it was changed since (revision ``now``)."""
    if shown is None:
        return
    if isinstance(shown, bool) or not isinstance(shown, int):
        raise TableError("'calibration' is the revision of the calibration shown "
                         f"(camera.calibration_revision), not {json_shown(shown)}", 400)
    if shown != now:
        raise TableError(f"the calibration was changed on another screen meanwhile (revision "
                         f"{now} now, {shown} on this screen): nothing was saved; look again "
                         "and tap again if it is still wanted",
                         plain="the tray was set up again just now, on this screen or "
                               "another: nothing was saved here; look at it again, and tap "
                               "again if this is still wanted")


def _check_seen(reading: Any, seen: Any) -> None:
    """Refuse a tap made on dice ``seen`` (their values as the tapping screen showed
    them; ``None``: not said) that are not ``reading``'s dice now."""
    _check_list_seen(f"dice of reading {reading.id}", [d.get("value") for d in reading.dice],
                     seen, "dice of this throw")


def _check_list_seen(what: str, now: list[Any], seen: Any, plainly: str | None = None) -> None:
    """Refuse a tap on an item of a list the screen showed as ``seen`` (``None``: not
    said) when the list is ``now`` another: another screen forgot or added one.
    ``plainly``: the list's name for the family (``what`` is the API's)."""
    if seen is None:
        return
    if not isinstance(seen, list):
        raise TableError(f"'seen' is the list of {what} as shown, not {json_shown(seen)}", 400)
    if seen != now:
        raise TableError(f"the {what} changed on another screen (shown {seen}, now {now}): "
                         "look again and tap once more",
                         plain=f"the {plainly or what} changed on another screen: look "
                               "again and tap once more")


def _check_value(value: Any) -> None:
    """Refuse a die value a person cannot have tapped."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise TableError(f"die value {json_shown(value)} is not a whole number 1..6", 400)


def _set_die(die: Mapping[str, Any], value: int, reason: str = "corrected") -> dict[str, Any]:
    """A die of a reading set to ``value`` by a person: no longer flagged."""
    out = dict(die)
    out.update(value=value, flagged=False, reason=reason, corrected=True)
    return out


def _roll_dice(log: list[dict[str, Any]], live: list[int], index: int) -> list[Any]:
    """The dice roll ``index`` counts with: its latest correction still in force, else
    its own."""
    for i in reversed(live):
        if log[i].get("type") == "correct" and log[i].get("action") == index:
            return list(log[i].get("dice") or [])
    return list(log[index].get("dice") or []) if 0 <= index < len(log) else []


def _with_values(dice: list[dict[str, Any]], values: list[Any],
                 reason: str = "corrected") -> list[dict[str, Any]] | None:
    """A reading's ``dice`` showing ``values`` (a die that changes is marked as a person's
    value); ``None`` when the counts differ (the values are not of these dice)."""
    if len(values) != len(dice):
        return None
    return [_set_die(d, v, reason) if d.get("value") != v else dict(d) for d, v in zip(dice, values)]


def _default_reader() -> Callable[[Any], Any]:
    from vision.reader import read_dice

    return read_dice


def _stall_said(seconds: float, frozen: bool, *, past: bool = False) -> str:
    """What a camera that gives no new picture does, in words for the family (``past``:
    as the reason it was opened again).

    >>> _stall_said(12, True)
    "the camera's picture has not changed for 12 s (stuck?)"
    >>> _stall_said(31.2, False, past=True)
    'the camera gave no picture for 31 s'
    """
    if frozen:
        what = "the camera's picture " + ("did not change" if past else "has not changed")
        return f"{what} for {seconds:.0f} s (stuck?)"
    return f"the camera {'gave' if past else 'has given'} no picture for {seconds:.0f} s"


class _TrayRegion:
    """The marked tray's box in a frame's pixels, worked out once per calibration and
    frame size (a calibration made at another resolution is scaled for it)."""

    def __init__(self) -> None:
        self._for: tuple[Any, int, int] | None = None  # holds the calibration: no id reuse
        self._region: tuple[int, int, int, int] | None = None

    def of(self, calibration: Any, frame: Any) -> tuple[int, int, int, int] | None:
        height, width = frame.shape[:2]
        if self._for is None or self._for[0] is not calibration or self._for[1:] != (width, height):
            scaled = calibration.for_frame(width, height) if calibration is not None else None
            self._region = (scaled.tray_bounds(width, height)
                            if scaled is not None and scaled.tray is not None else None)
            self._for = (calibration, width, height)
        return self._region


def _default_watcher_factory(fps: Any = None) -> Callable[[Callable[[Any], Any]], Any]:
    """Roll watchers timed for a camera of ``fps`` frames a second (15 when unknown)."""
    from vision.watcher import RollWatcher, WatchSettings

    rate = float(fps) if isinstance(fps, (int, float)) and fps > 0 else 15.0
    return lambda read: RollWatcher(read, WatchSettings.at_fps(rate), fps=rate)

