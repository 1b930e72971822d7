"""The ``dicetray`` command: serve, read, eval and replay (DESIGN.md, "Contracts").

Every command returns its exit status: 0 when it did its job, 2 when its input was
wrong (a missing image, a broken game file, a camera that cannot be opened, a damaged
database); the message on stderr names the file and what was wrong.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Sequence

DEFAULT_DATA = "~/.local/share/dicetray"
CALIBRATION_FILE = "calibration.json"  # in the data folder, when --calibration is not given


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dicetray", description=(
        "Read real dice with a camera, score the game, show it live on a TV."))
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("serve", help="run the appliance: camera, scoreboard and control page")
    s.add_argument("--camera", default="auto",
                   help="auto (default), sim, picamera, usb:N or a PATH to frames")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0 opens it to the TV and tablet)")
    s.add_argument("--port", type=_port, default=8000)
    s.add_argument("--data", default=DEFAULT_DATA, help=f"data folder (default {DEFAULT_DATA})")
    s.add_argument("--demo", action="store_true",
                   help="play Sum Chicago on the simulated tray by itself")
    s.add_argument("--seed", type=int, default=0, help="seed of the simulated tray")
    s.add_argument("--calibration",
                   help="calibration file for the reader (default: calibration.json in the data "
                        "folder); begun empty if not there yet; what the control page sets "
                        "(tray, empty tray, picture faces) is saved to it")
    s.add_argument("--threads", type=int, default=24,
                   help="server threads: each open screen holds one, and 4 are kept for "
                        "taps (at least 8; past the rest, the oldest screen's stream ends)")

    r = sub.add_parser("read", help="read the dice in images")
    r.add_argument("images", nargs="+", metavar="IMAGE")
    r.add_argument("--calibration", help="calibration file")
    r.add_argument("--json", action="store_true", help="one JSON line per image")

    e = sub.add_parser("eval", help="score the reader on labelled image folders")
    e.add_argument("dirs", nargs="+", metavar="DIR")
    e.add_argument("--split", choices=("check", "train", "all"), default="check")
    e.add_argument("--calibration", help="calibration file")
    e.add_argument("--remember-train", action="store_true",
                   help="read each folder's check photos with its train photos' dice "
                        "remembered, as if a family had checked those throws")
    e.add_argument("--json", action="store_true", help="print the report as JSON")

    g = sub.add_parser("replay", help="replay a game file and print its final state as JSON")
    g.add_argument("game", metavar="GAME.json")
    return p


def _port(text: str) -> int:
    """``--port``'s value: a TCP port. -1 once reached waitress, whose ValueError was a
    traceback, and 99999 was taken for another port than the one printed."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: use 1 to 65535")
    return port


def _fail(message: str) -> int:
    print(f"dicetray: {message}", file=sys.stderr)
    return 2


def _calibration(path: str | None) -> Any:
    if path is None:
        return None
    from calibration import load_calibration

    return load_calibration(path)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    command = {"serve": serve, "read": read, "eval": evaluate, "replay": replay}[args.command]
    try:
        return int(command(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`dicetray replay g.json | head`): not an
        # error of ours; keep Python from complaining again when it flushes at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def replay(args: argparse.Namespace) -> int:
    """Replay a game file; print the final state, or one line saying what is wrong."""
    import scorer
    from vision.json_text import loads_strictly

    path = Path(args.game)
    try:
        # utf-8-sig: a file saved by Windows Notepad begins with a byte-order mark.
        data = loads_strictly(path.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        return _fail(f"{path}: cannot read ({exc.strerror or exc})")
    except UnicodeDecodeError:
        return _fail(f"{path}: not UTF-8 text")
    except ValueError as exc:
        return _fail(f"{path}: not valid JSON ({exc})")
    except RecursionError:
        # Python's JSON decoder gives up on arrays or objects nested about a thousand deep.
        return _fail(f"{path}: not a game file (JSON nested too deeply)")
    try:
        game = scorer.load_game(data)
        state = game.state()
    except ValueError as exc:   # GameFileError or IllegalAction: the message names the index
        return _fail(f"{path}: {exc}")
    print(json.dumps(state, indent=2, ensure_ascii=False))
    return 0


def read(args: argparse.Namespace) -> int:
    """Read the dice of each image: one line each (JSON with ``--json``)."""
    import cv2

    from vision.photos import read_photo
    from vision.reader import read_dice

    try:
        calibration = _calibration(args.calibration)
    except ValueError as exc:
        return _fail(str(exc))
    status = 0
    for name in args.images:
        image = read_photo(name) if Path(name).is_file() else None
        if image is None:
            problem = _unreadable(Path(name))
            status = _fail(f"{name}: {problem}")
            if args.json:
                # Still one line per image, so a tool pairing lines with its images stays
                # in step; it has no "dice", so it cannot be taken for an empty tray.
                print(json.dumps({"file": name, "error": problem}), flush=True)
            continue
        reading = read_dice(image, calibration)
        if args.json:
            print(json.dumps({"file": name, **reading.to_json()}), flush=True)
        else:
            dice = " ".join("?" if d.value is None else str(d.value) + ("*" if d.flagged else "")
                            for d in reading.dice)
            print(f"{name}: {dice or 'no dice'}  ({reading.ms:.1f} ms; * = check)", flush=True)
    return status


def _unreadable(path: Path) -> str:
    """Why the image at ``path`` could not be read."""
    if path.is_dir():
        return "a folder, not an image file"
    if not path.is_file():
        return "no such image file"
    return "cannot decode the image (not an image, or damaged or cut short)"


def evaluate(args: argparse.Namespace) -> int:
    """Score the reader on labelled folders."""
    from vision.evaluate import evaluate as run_eval
    from vision.evaluate import format_report

    for d in args.dirs:
        if not (Path(d) / "labels.json").is_file():
            return _fail(f"{d}: " + ("no labels.json in this folder" if Path(d).is_dir()
                                     else "a file, not a folder of labelled photos"
                                     if Path(d).exists() else "no such folder"))
    try:
        report = run_eval(args.dirs, split=args.split, calibration=_calibration(args.calibration),
                          remember_train=args.remember_train)
    except ValueError as exc:
        return _fail(str(exc))
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


# glibc's mallopt() setting for how many malloc arenas the threads share (M_ARENA_MAX).
_M_ARENA_MAX = -8
# Measured in a 36-minute soak (the demo on the simulated tray, 6-dice 10000 and Sum
# Chicago played through the API, a scoreboard and two control pages tapped at random,
# 707 throws, 2-core shared host): with two arenas the server stood at 249 MB after 2
# minutes and 255-256 MB from 20 minutes to the end (tracemalloc, in a twin run: the
# Python objects, kept frames included, did not grow); without the limit, 366 MB after
# 2 minutes and 383 after 30. Left out, as measured in runs beside it: malloc_trim(0)
# gave back 17 MB (64 without the limit), taken again within 30 s; a fixed
# M_MMAP_THRESHOLD of 1 MB held it 25 MB lower, but every frame was then mapped afresh
# (over a thousand times the page faults) and the server's CPU time doubled.
SERVE_ARENAS = 2


def limit_malloc_arenas(arenas: int = SERVE_ARENAS) -> bool:
    """Let the server's threads share ``arenas`` malloc arenas (glibc only; elsewhere,
    nothing): each of waitress's threads drawing pictures with OpenCV otherwise gets
    arenas of its own, up to eight per core, left half empty between requests (sixteen
    screens asking for pictures and states: 205 MB resident against 180 with two arenas).
    True when set."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        return bool(libc.mallopt(_M_ARENA_MAX, arenas))
    except (OSError, AttributeError):
        return False        # a C library without mallopt (musl, macOS)


def serve(args: argparse.Namespace) -> int:
    """Run the appliance until interrupted."""
    limit_malloc_arenas()
    if not str(args.data).strip():
        # An empty value would put the database in whatever folder the server starts in.
        return _fail("--data: a folder is needed, not an empty name")
    import logging

    import waitress  # type: ignore[import-untyped]

    from web.app import THREADS_FOR_TAPS, WAITRESS_OPTIONS, create_app
    from web.store import Store, StoreError
    from web.table import Table
    from web.calibrating import Calibrator
    from vision.cameras import CameraUnavailable, find_camera, open_camera, reopener

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    # Picture faces taught on the control page are saved to the calibration file given,
    # or else to one in the data folder, which later starts read.
    cal_path = (Path(args.calibration) if args.calibration
                else Path(args.data).expanduser() / CALIBRATION_FILE)
    if args.calibration and not cal_path.exists():
        # A file named for the first time: begun empty, as the data folder's own is, and
        # written once the control page sets something. A folder that is not there is
        # more likely a slip of the hand than a place meant to be made.
        if not cal_path.parent.is_dir():
            return _fail(f"{cal_path}: no such folder for the calibration file "
                         f"({cal_path.parent})")
        logging.getLogger(__name__).info(
            "no calibration at %s yet: the reader starts without one, and what the "
            "control page sets is saved there", cal_path)
    tray_note = None
    try:
        if cal_path.exists():
            from calibration.calibration import load_calibration_but_tray

            # An outline an earlier version's control page took (one that crosses itself)
            # must not keep the appliance, nor the rest of the file, from starting.
            calibration, tray_note = load_calibration_but_tray(cal_path)
            if tray_note is not None:
                logging.getLogger(__name__).warning("%s", tray_note)
        else:
            calibration = None
    except ValueError as exc:
        return _fail(str(exc))
    try:
        # The data folder before the camera: a second dicetray on it (the service runs)
        # is told so, rather than refused for the camera the first one holds.
        store = Store(args.data)
    except StoreError as exc:
        return _fail(str(exc))
    try:
        camera = open_camera(args.camera, seed=args.seed, dice=2)
    except CameraUnavailable as exc:
        store.close()
        return _fail(str(exc))
    if args.demo and not callable(getattr(camera, "roll", None)):
        camera.close()
        store.close()
        return _fail("--demo needs the simulated tray: use --camera sim")
    try:
        # A Pi camera or webcam that fails (unplugged) or hangs is opened again while the
        # game goes on by hand, rather than gone until the service restarts.
        # --camera auto that found no camera keeps looking for one (a Pi camera not ready
        # at boot, a webcam plugged in later) and takes it in the simulated tray's place.
        looking = args.camera.strip() == "auto" and camera.name == "sim" and not args.demo
        table = Table(store, camera=camera, demo=args.demo,
                      calibrator=Calibrator(cal_path, calibration, tray_note=tray_note),
                      reopen=reopener(camera),
                      look_for_camera=find_camera if looking else None)
    except StoreError as exc:
        camera.close()
        store.close()
        return _fail(str(exc))
    # Listen before starting the camera and printing addresses: a port in use or an
    # address not of this machine is the command line's fault, said in one line.
    try:
        server = waitress.create_server(
            create_app(table, max_streams=max(8, args.threads) - THREADS_FOR_TAPS),
            host=args.host, port=args.port, threads=max(8, args.threads),
            channel_timeout=60, ident="dicetray", **WAITRESS_OPTIONS)
    except (OSError, ValueError) as exc:
        table.stop()
        camera.close()
        store.close()
        return _fail(f"cannot listen on --host {args.host} --port {args.port} "
                     f"({getattr(exc, 'strerror', None) or exc})")
    table.start()
    host = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    if args.host in ("0.0.0.0", "::"):
        import socket

        host = socket.gethostname()
    print(f"camera: {camera.name} ({getattr(camera, 'message', '')})", flush=True)
    print(f"data: {store.path}", flush=True)
    print(f"scoreboard: http://{host}:{args.port}/", flush=True)
    print(f"control:    http://{host}:{args.port}/control", flush=True)
    _stop_on_signals(table)
    try:
        server.print_listen("Serving on http://{}:{}")
        server.run()
    finally:
        table.stop()
        store.close()
    return 0


def _stop_on_signals(table: Any) -> None:
    """Ctrl-C, and SIGTERM (systemd stopping the service), stop the server the same way:
    the screens' event streams are ended first (waitress otherwise waits 5 s for the
    thread of each scoreboard left open), then waitress stops, and the table and the
    database are closed (its write-ahead log merged), not killed mid-write.

    A SIGINT that was ignored when the server started (run in the background by a
    shell) stays ignored."""
    import signal

    def stop(_signum: int, _frame: Any) -> None:
        table.publisher.close()     # every stream waiting for the next state ends now
        raise KeyboardInterrupt

    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


if __name__ == "__main__":
    raise SystemExit(main())
