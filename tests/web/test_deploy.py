"""The Pi's systemd unit (deploy/dicetray.service) as deploy/install.sh writes it."""
from __future__ import annotations

import shlex
from pathlib import Path

from web.cli import _parser

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _unit(directory: str, user: str = "pi") -> dict[str, str]:
    """The unit's ``[Service]`` settings with install.sh's substitutions made."""
    text = (DEPLOY / "dicetray.service").read_text()
    text = text.replace("@USER@", user).replace("@DIR@", directory)
    service = text.split("[Service]", 1)[1].split("\n[", 1)[0]
    return dict(line.split("=", 1) for line in service.splitlines() if "=" in line)


def test_the_service_runs_the_venvs_dicetray_from_a_folder_with_spaces() -> None:
    # systemd splits ExecStart at spaces unless the path is quoted (as shlex does).
    unit = _unit("/home/pi/my dice/dicetray")
    argv = shlex.split(unit["ExecStart"])
    assert argv[0] == "/home/pi/my dice/dicetray/.venv/bin/dicetray"
    assert unit["WorkingDirectory"] == "/home/pi/my dice/dicetray"
    args = _parser().parse_args(argv[1:])
    assert (args.command, args.camera, args.host) == ("serve", "auto", "0.0.0.0")
    assert args.data == "~/.local/share/dicetray"  # the service user's home (User=)
    assert unit["User"] == "pi"
