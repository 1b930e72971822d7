"""The dicetray CLI: replay and read, and their errors (exit 2, a message naming the file)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from web.cli import main

GAME: dict[str, Any] = {"format": "dicetray-game/1", "family": "sum_chicago", "options": {},
        "players": ["Aino", "Bertil"],
        "actions": [{"type": "roll", "player": "Aino", "dice": [1, 1]},
                    {"type": "roll", "player": "Bertil", "dice": [2, 2]}]}


def write(tmp_path: Path, data: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_replay_prints_the_final_state(tmp_path: Path, capsys: Any) -> None:
    assert main(["replay", write(tmp_path, GAME)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert [p["score"] for p in state["players"]] == [2, 0]
    assert state["next"] == {**state["next"], "player": "Aino", "dice": 2}


def test_replay_reads_a_file_saved_with_a_byte_order_mark(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "notepad.json"                 # as Windows Notepad saves UTF-8
    path.write_text(json.dumps(GAME), encoding="utf-8-sig")
    assert main(["replay", str(path)]) == 0
    assert [p["score"] for p in json.loads(capsys.readouterr().out)["players"]] == [2, 0]


@pytest.mark.parametrize("game,words", [
    ({**GAME, "actions": GAME["actions"] + [{"type": "roll", "player": "Bertil", "dice": [1, 7]}]},
     "action 2 (roll by Bertil): die value 7"),
    ({**GAME, "actions": [{"type": "roll", "player": "Bertil", "dice": [1, 1]}]},
     "action 0 (roll by Bertil)"),
    ({**GAME, "options": {"dice": 5}}, "options.dice"),
    ({**GAME, "actions": [{"type": "roll", "dice": [1, 1]}]}, "action 0 (roll): a roll needs 'player'"),
    ({**GAME, "actions": [{"type": "leave"}]}, "action 0 (leave): a leave needs 'player'"),
    ("{broken", "not valid JSON"),
    # A lone surrogate (escaped in JSON) is no text: the state could not be printed.
    ('{"family": "sum_chicago", "players": ["Aino\\ud800", "Bertil"]}', "players[0]"),
    # Python's reader keeps the last of a key given twice: the game would be replayed
    # in ascending order, not as its file said first, without a word.
    ('{"family": "sum_chicago", "options": {"order": "descending", "order": "ascending"}, '
     '"players": ["Aino", "Bertil"], "actions": []}', "the key 'order' twice in one object"),
    # Once Python's advice to call sys.set_int_max_str_digits().
    ('{"family": "sum_chicago", "players": ["Aino", "Bertil"], "actions": [{"type": "roll", '
     '"player": "Aino", "dice": [1, 1%s]}]}' % ("0" * 5000), "a number of 5001 digits"),
])
def test_replay_of_a_broken_game_names_the_problem(tmp_path: Path, capsys: Any, game: Any,
                                                   words: str) -> None:
    path = write(tmp_path, game)
    assert main(["replay", path]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert words in err and path in err and len(err.strip().splitlines()) == 1


def test_replay_of_json_nested_too_deeply_is_refused_in_one_line(tmp_path: Path,
                                                                  capsys: Any) -> None:
    path = write(tmp_path, "[" * 100_000 + "]" * 100_000)
    assert main(["replay", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and path in err and "nested too deeply" in err
    assert len(err.strip().splitlines()) == 1


def test_replay_of_an_action_nested_too_deeply_is_refused_in_one_line(tmp_path: Path,
                                                                     capsys: Any) -> None:
    # Python's reader takes 500 levels, but replaying the action ran out of recursion.
    deep = "[" * 500 + "]" * 500
    text = json.dumps({**GAME, "actions": [{**GAME["actions"][0], "at": "here"}]})
    path = write(tmp_path, text.replace('"here"', deep))
    assert main(["replay", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and path in err and "nested too deeply" in err and "actions[0]" in err
    assert len(err.strip().splitlines()) == 1


def test_replay_of_a_number_too_big_for_json_readers_is_refused(tmp_path: Path,
                                                                capsys: Any) -> None:
    # 1e400 is infinity to Python: replayed, it would be written out as Infinity.
    text = json.dumps({**GAME, "actions": [{**GAME["actions"][0], "at": "here"}]})
    path = write(tmp_path, text.replace('"here"', "1e400"))
    assert main(["replay", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and path in err and "the number 1e400 is too big" in err


def test_replay_of_a_missing_file(tmp_path: Path, capsys: Any) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "nope.json" in capsys.readouterr().err


def test_read_errors_name_the_file(tmp_path: Path, capsys: Any) -> None:
    junk = write(tmp_path, "not an image", "junk.png")
    assert main(["read", str(tmp_path / "missing.png")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "missing.png: no such image file" in err
    assert main(["read", junk, "--json"]) == 2
    assert "junk.png: cannot decode" in capsys.readouterr().err
    assert main(["read", str(tmp_path), "--json"]) == 2
    assert f"{tmp_path}: a folder, not an image file" in capsys.readouterr().err


def test_read_json_keeps_one_line_per_image_when_one_cannot_be_read(tmp_path: Path,
                                                                    capsys: Any) -> None:
    """A tool pairs the lines with the images it named: an image that cannot be read
    still has its line, saying why, and no dice to be taken for an empty tray."""
    junk = write(tmp_path, "not an image", "junk.png")
    good = str(tmp_path / "tray.png")
    cv2.imwrite(good, np.full((240, 320, 3), 60, np.uint8))
    missing = str(tmp_path / "missing.png")
    assert main(["read", good, junk, missing, good, "--json"]) == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["file"] for line in lines] == [good, junk, missing, good]
    assert "cannot decode" in lines[1]["error"] and "dice" not in lines[1]
    assert lines[2]["error"] == "no such image file" and "dice" not in lines[2]
    assert lines[3]["dice"] == [] and "error" not in lines[3]


def test_read_prints_one_json_line_per_image(tmp_path: Path, capsys: Any) -> None:
    image = np.full((240, 320, 3), 60, np.uint8)
    cv2.rectangle(image, (100, 80), (160, 140), (250, 250, 250), -1)
    cv2.circle(image, (130, 110), 7, (0, 0, 0), -1)
    path = str(tmp_path / "tray.png")
    cv2.imwrite(path, image)
    assert main(["read", path, path, "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    data = json.loads(lines[0])
    assert data["file"] == path and isinstance(data["dice"], list) and "ms" in data


@pytest.mark.parametrize("height,width", [(1, 2000), (2000, 4), (3, 1000)])
def test_read_of_a_strip_of_a_photo_reads_no_dice(tmp_path: Path, capsys: Any, height: int,
                                                  width: int) -> None:
    # A strip a few pixels high (a crop gone wrong) once shrank to nothing in the close-up
    # pass, and OpenCV's resize failed with a traceback.
    path = str(tmp_path / "strip.png")
    cv2.imwrite(path, np.full((height, width, 3), 128, np.uint8))
    assert main(["read", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["dice"] == []


def test_serve_refuses_a_camera_it_cannot_open(tmp_path: Path, capsys: Any) -> None:
    assert main(["serve", "--camera", "usb:7", "--data", str(tmp_path)]) == 2
    assert "usb:7" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["usb:2147483648", "usb:99999999999999999999",
                                  "usb:" + "9" * 5000])
def test_serve_refuses_a_webcam_number_no_device_can_have(tmp_path: Path, capsys: Any,
                                                          spec: str) -> None:
    """A number too big for OpenCV once ended in its traceback, not in a line naming it."""
    assert main(["serve", "--camera", spec, "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dicetray: --camera {spec}: ") and "Traceback" not in err


def test_a_second_serve_on_a_data_folder_in_use_says_so_whatever_its_camera(
        tmp_path: Path, capsys: Any) -> None:
    """The service runs (holding the data folder and the camera) and someone starts
    `dicetray serve` by hand: it opened the camera first, and was refused for a camera
    that "gives no picture" (the first one's), which sent people to the camera."""
    from web.store import Store

    running = Store(tmp_path)
    try:
        assert main(["serve", "--camera", "usb:7", "--data", str(tmp_path)]) == 2
    finally:
        running.close()
    assert "another dicetray is using this data folder" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["-1", "0", "99999"])
def test_serve_refuses_a_port_that_is_none(tmp_path: Path, capsys: Any, port: str) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["serve", "--camera", "sim", "--data", str(tmp_path), "--port", port])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --port: {int(port)} is not a port: use 1 to 65535" in err
    assert "Traceback" not in err


def test_serve_refuses_a_port_in_use_in_one_line(tmp_path: Path, capsys: Any) -> None:
    # Another dicetray (or anything) on the port: once a waitress traceback, after the
    # addresses were printed as if it served.
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--camera", "sim", "--data", str(tmp_path),
                     "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert f"cannot listen on --host 127.0.0.1 --port {port}" in err
    assert "Traceback" not in err and "scoreboard" not in out


def test_serve_refuses_a_host_that_is_no_address(tmp_path: Path, capsys: Any) -> None:
    assert main(["serve", "--camera", "sim", "--data", str(tmp_path),
                 "--host", "999.1.1.1"]) == 2
    assert "cannot listen on --host 999.1.1.1 --port 8000" in capsys.readouterr().err


def test_serve_refuses_a_damaged_database(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "dicetray.sqlite3").write_bytes(b"garbage" * 500)
    assert main(["serve", "--camera", "sim", "--data", str(tmp_path)]) == 2
    assert "dicetray.sqlite3" in capsys.readouterr().err


def test_serve_refuses_a_damaged_calibration_in_the_data_folder(tmp_path: Path,
                                                                capsys: Any) -> None:
    """The data folder's calibration.json (where taught picture faces are kept) is read
    at start; a damaged one is refused by name, never replaced."""
    (tmp_path / "calibration.json").write_text("{not json")
    assert main(["serve", "--camera", "sim", "--data", str(tmp_path)]) == 2
    assert "calibration.json" in capsys.readouterr().err
    assert (tmp_path / "calibration.json").read_text() == "{not json"


def test_eval_reports_on_a_labelled_folder(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    image = np.full((240, 320, 3), 60, np.uint8)
    cv2.imwrite(str(folder / "a.png"), image)
    (folder / "labels.json").write_text(json.dumps({"images": [
        {"file": "a.png", "width": 320, "height": 240,
         "dice": [{"value": 3, "box": [100, 80, 160, 140]}]}]}))
    (folder / "split.json").write_text(json.dumps({"train": [], "check": ["a.png"]}))
    assert main(["eval", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["split"] == "check" and report["overall"]["dice"] == 1
    assert main(["eval", str(folder)]) == 0
    assert "split: check" in capsys.readouterr().out


def test_eval_of_a_folder_without_labels(tmp_path: Path, capsys: Any) -> None:
    assert main(["eval", str(tmp_path)]) == 2
    assert "no labels.json" in capsys.readouterr().err


def test_eval_with_the_train_dice_remembered(tmp_path: Path, capsys: Any) -> None:
    from vision.sim import render_tray

    folder = tmp_path / "tray"
    folder.mkdir()
    entries = []
    for k, values in enumerate(([2, 5, 6], [1, 3, 4])):
        image, truth = render_tray(np.random.default_rng(k), values, (640, 480))
        cv2.imwrite(str(folder / f"{k}.png"), image)
        entries.append({"file": f"{k}.png", "width": 640, "height": 480, "dice": [
            {"value": t.value, "box": [t.center[0] - t.side / 2, t.center[1] - t.side / 2,
                                       t.center[0] + t.side / 2, t.center[1] + t.side / 2]}
            for t in truth]})
    (folder / "labels.json").write_text(json.dumps({"images": entries}))
    (folder / "split.json").write_text(json.dumps({"train": ["0.png"], "check": ["1.png"]}))
    assert main(["eval", str(folder), "--remember-train", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["overall"]["dice"] == 3
    # The train photos' dice are what is remembered: they cannot also be what is scored.
    assert main(["eval", str(folder), "--split", "train", "--remember-train"]) == 2
    assert "score the check split" in capsys.readouterr().err


def test_read_refuses_a_jpeg_cut_short_rather_than_read_half_a_tray(tmp_path: Path,
                                                                     capsys: Any) -> None:
    """OpenCV's imread fills a JPEG cut short with grey: the dice in the lost part
    would be missed without a word."""
    image = np.full((240, 320, 3), 60, np.uint8)
    cv2.rectangle(image, (100, 150), (160, 210), (250, 250, 250), -1)
    whole = tmp_path / "tray.jpg"
    cv2.imwrite(str(whole), image)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size * 2 // 3])
    assert main(["read", str(whole), str(cut), "--json"]) == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "dice" in lines[0]
    assert lines[1] == {"file": str(cut), "error": "cannot decode the image (not an image, "
                                                   "or damaged or cut short)"}


def test_the_examples_in_the_photo_readers_docstring_hold() -> None:
    import doctest

    from vision import photos

    result = doctest.testmod(photos)
    assert result.attempted > 0 and result.failed == 0


def test_eval_of_a_folder_that_is_not_there_says_so(tmp_path: Path, capsys: Any) -> None:
    assert main(["eval", str(tmp_path / "nowhere")]) == 2
    assert f"{tmp_path / 'nowhere'}: no such folder" in capsys.readouterr().err
    assert main(["eval", str(tmp_path)]) == 2
    assert f"{tmp_path}: no labels.json in this folder" in capsys.readouterr().err
    (tmp_path / "game.json").write_text("{}")
    assert main(["eval", str(tmp_path / "game.json")]) == 2
    assert f"{tmp_path / 'game.json'}: a file, not a folder of labelled photos" in \
        capsys.readouterr().err


def test_serve_refuses_a_file_given_as_its_data_folder(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "notes.txt").write_text("keep me")
    assert main(["serve", "--camera", "sim", "--data", str(tmp_path / "notes.txt")]) == 2
    assert f"{tmp_path / 'notes.txt'}: a file, not a folder" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_serve_refuses_an_empty_data_folder_name(capsys: Any) -> None:
    """An empty --data put the database in whatever folder the server started in."""
    assert main(["serve", "--camera", "sim", "--data", ""]) == 2
    assert "--data: a folder is needed, not an empty name" in capsys.readouterr().err


def test_serve_limits_the_malloc_arenas_its_threads_share() -> None:
    """On glibc (a Pi's Raspberry Pi OS, this machine) the setting takes; it is asked in
    a process of its own, so this one keeps its own allocator as it was."""
    import subprocess

    code = "from web.cli import limit_malloc_arenas; print(limit_malloc_arenas())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "True"
