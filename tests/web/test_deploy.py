"""The Pi's systemd unit (deploy/dicetray.service) as deploy/install.sh writes it."""
from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

from web.cli import _parser

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _write_unit(directory: str, user: str = "pi") -> subprocess.CompletedProcess[str]:
    """deploy/unit.sh as install.sh runs it: the unit on stdout, or a refusal."""
    return subprocess.run(["bash", str(DEPLOY / "unit.sh"), directory, user],
                          capture_output=True, text=True, check=False)


def _unit(directory: str, user: str = "pi") -> dict[str, str]:
    """The unit's ``[Service]`` settings as install.sh writes them."""
    written = _write_unit(directory, user)
    assert written.returncode == 0, written.stderr
    service = written.stdout.split("[Service]", 1)[1].split("\n[", 1)[0]
    settings = [line for line in service.splitlines() if "=" in line and not line.startswith("#")]
    return dict(line.split("=", 1) for line in settings)


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


def test_a_folder_with_shell_and_sed_characters_is_written_as_it_is() -> None:
    # & and | broke the old sed substitution (& is the match, | its delimiter).
    folder = "/home/pi/Tom & Jerry|dice"
    unit = _unit(folder, "tom")
    assert unit["WorkingDirectory"] == folder
    assert shlex.split(unit["ExecStart"])[0] == folder + "/.venv/bin/dicetray"
    assert unit["User"] == "tom"


def test_the_service_may_use_the_cameras_whatever_groups_its_user_has() -> None:
    assert _unit("/home/pi/dicetray")["SupplementaryGroups"].split() == ["video"]


def test_a_folder_systemd_cannot_take_is_refused_by_name_before_anything_is_written() -> None:
    for folder in ("/home/pi/100%dice", "/home/pi/$HOME", "/home/pi/back\\slash",
                   '/home/pi/say "dice"', "/home/pi/two\nlines", "/home/pi/dice "):
        written = _write_unit(folder)
        assert written.returncode == 1 and written.stdout == "", folder
        assert f"'{folder}'" in written.stderr and "systemd" in written.stderr
    install = (DEPLOY / "install.sh").read_text()
    # install.sh asks unit.sh before it makes the venv or runs pip.
    assert install.index("unit.sh") < install.index("python3 -m venv")


def test_make_demo_serves_on_the_port_and_address_asked_for() -> None:
    """`make demo PORT=8001 HOST=0.0.0.0` (README): the command make would run, parsed as
    dicetray parses it."""
    root = DEPLOY.parent

    def demo_command(*overrides: str) -> list[str]:
        done = subprocess.run(["make", "-n", "-s", "-C", str(root), "demo", *overrides],
                              capture_output=True, text=True, check=True)
        line = [ln for ln in done.stdout.splitlines() if "dicetray serve" in ln][-1]
        return shlex.split(line)

    asked = _parser().parse_args(demo_command("PORT=8001", "HOST=0.0.0.0")[1:])
    assert (asked.port, asked.host, asked.camera, asked.demo) == (8001, "0.0.0.0", "sim", True)
    plain = _parser().parse_args(demo_command()[1:])
    assert (plain.port, plain.host) == (8000, "127.0.0.1")


def test_install_from_a_root_shell_is_refused_before_it_does_anything(tmp_path: Path) -> None:
    """Run from a root shell (no SUDO_USER), install.sh once wrote a unit running the
    appliance as root. `id` is faked: as root, in a shell of root's own."""
    import os

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "id").write_text('#!/bin/sh\n[ "$1" = -u ] && echo 0 || echo root\n')
    (bin_dir / "id").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "SUDO_USER"}
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    done = subprocess.run(["bash", str(DEPLOY / "install.sh")], capture_output=True, text=True,
                          env=env, cwd=tmp_path, check=False, timeout=30)
    assert done.returncode == 1
    assert "not from a root shell" in done.stderr
    assert done.stdout == "" and list(tmp_path.iterdir()) == [bin_dir]


def test_an_update_whose_install_fails_leaves_the_venv_that_ran(tmp_path: Path) -> None:
    """`git pull` then `sudo deploy/install.sh`, and pip cut short (the network gone):
    the venv the service ran from was cleared first, and the appliance was left without
    one until the script ran again. Here sudo, id, apt's python3 and its venv are faked,
    and the new venv's pip fails."""
    import os
    import shutil

    clone = tmp_path / "dicetray"
    shutil.copytree(DEPLOY, clone / "deploy")
    (clone / ".venv" / "bin").mkdir(parents=True)
    (clone / ".venv" / "bin" / "dicetray").write_text("the version that ran\n")
    fake = tmp_path / "bin"
    fake.mkdir()
    scripts = {
        "id": '[ "$1" = -u ] && echo 0 || echo root',
        "sudo": 'shift 2; exec "$@"',            # sudo -u pi CMD...: runs CMD
        "systemctl": f'echo "$@" >> {tmp_path}/systemctl',
        # apt's python3: numpy 1.24 and picamera2 are there; its venvs' pip fails.
        "python3": """case "$*" in
  *"-m venv"*) mkdir -p .venv/bin; printf '#!/bin/sh\\nexit 1\\n' > .venv/bin/python;
    chmod +x .venv/bin/python ;;
  *split*) echo 1 ;;
  *__version__*) echo 1.24.2 ;;
esac""",
    }
    for name, body in scripts.items():
        (fake / name).write_text(f"#!/bin/bash\n{body}\n")
        (fake / name).chmod(0o755)
    env = {**os.environ, "SUDO_USER": "pi", "PATH": f"{fake}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(clone / "deploy" / "install.sh")], capture_output=True,
                          text=True, env=env, cwd=tmp_path, check=False, timeout=30)
    assert done.returncode != 0
    assert "the venv before is back in place" in done.stderr
    assert (clone / ".venv" / "bin" / "dicetray").read_text() == "the version that ran\n"
    assert not (clone / ".venv.old").exists()
    assert not (tmp_path / "systemctl").exists()        # the service was not touched
