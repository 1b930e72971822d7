#!/usr/bin/env bash
# Installs dicetray on Raspberry Pi OS: a venv that sees apt's picamera2 and numpy, an
# OpenCV build that matches that numpy, and a systemd service. Run with sudo from the clone.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
  # Checked first: without root the venv and pip would run for minutes, then the unit fail.
  echo "install.sh: run it with sudo (it writes /etc/systemd/system/dicetray.service): sudo $0" >&2
  exit 1
fi
dir=$(cd "$(dirname "$0")/.." && pwd)
user=${SUDO_USER:-$(id -un)}
if [ "$user" = root ]; then
  # From a root shell there is no one to run it as: the service would run as root.
  echo "install.sh: run it with sudo from the user who will own the appliance (e.g. pi), not from a root shell" >&2
  exit 1
fi
cd "$dir"

# Checked before anything is installed: a folder systemd cannot run from is refused.
bash deploy/unit.sh "$dir" "$user" > /dev/null

if ! python3 -c 'import numpy' 2>/dev/null; then
  echo "install.sh: apt's numpy is missing: sudo apt install python3-numpy python3-picamera2" >&2
  exit 1
fi
# '.[pi]' would otherwise fetch picamera2 from PyPI, which lacks apt's libcamera bindings.
if ! python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("picamera2") is None)'; then
  echo "install.sh: apt's picamera2 is missing: sudo apt install python3-picamera2" >&2
  exit 1
fi
numpy_major=$(python3 -c 'import numpy; print(numpy.__version__.split(".")[0])')

# On an update the running service's venv is kept aside until the new one is whole: a pip
# cut short (the network gone) would otherwise leave the appliance without a working venv.
rm -rf .venv.old
if [ -d .venv ]; then
  mv .venv .venv.old
  trap 'status=$?; if [ $status -ne 0 ] && [ -d .venv.old ]; then rm -rf .venv; mv .venv.old .venv;
    echo "install.sh: failed; the venv before is back in place, and the service as it was" >&2; fi' EXIT
fi
# --clear: a .venv left by `make demo` holds pip's own numpy, which would hide apt's.
sudo -u "$user" python3 -m venv --clear --system-site-packages .venv
pip=(sudo -u "$user" .venv/bin/python -m pip install --quiet)
# Never let pip bring a second numpy: picamera2's compiled parts need the system one.
echo "numpy==$(python3 -c 'import numpy; print(numpy.__version__)')" > .venv/constraints.txt
if [ "$numpy_major" -lt 2 ]; then
  echo "install.sh: system numpy is 1.x: installing opencv-python-headless<4.12, which builds against it"
  "${pip[@]}" -c .venv/constraints.txt 'opencv-python-headless>=4.8,<4.12'
else
  echo "install.sh: system numpy is 2.x: installing the current opencv-python-headless"
fi
"${pip[@]}" -c .venv/constraints.txt -e '.[pi]'

bash deploy/unit.sh "$dir" "$user" > /etc/systemd/system/dicetray.service
rm -rf .venv.old
systemctl daemon-reload
systemctl enable dicetray
# restart, not start: on a re-run (an update) the service is already running the old code.
systemctl restart dicetray
echo "install.sh: dicetray is running: http://$(hostname).local:8000/ (control page: /control)"
