#!/usr/bin/env bash
# Prints the systemd unit for a clone in DIR run as USER: deploy/dicetray.service with
# its @DIR@ and @USER@ filled in. install.sh writes it to /etc/systemd/system; the tests
# read it. Usage: unit.sh DIR USER
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "unit.sh: usage: unit.sh DIR USER" >&2
  exit 2
fi
dir=$1
user=$2
# systemd reads % as the start of a specifier, $ as a variable in ExecStart, \ and " as
# quoting, and a line break ends the setting: a folder named with them cannot be written
# into the unit faithfully.
case "$dir" in
  *%* | *\$* | *\\* | *\"* | *$'\n'*)
    echo "unit.sh: the folder '$dir' has a character systemd cannot take in a path" \
      "(%, \$, \\, \" or a line break): move or rename the clone and run install.sh again" >&2
    exit 1 ;;
  *" ")
    # systemd trims the spaces around a setting's value: the service would run elsewhere.
    echo "unit.sh: the folder '$dir' has a name that ends in a space, which systemd" \
      "would drop: rename the clone and run install.sh again" >&2
    exit 1 ;;
esac
unit=$(<"$(dirname "$0")/dicetray.service")
# Quoted replacements: bash 5.2 would read a & in them as the matched text.
unit=${unit//@DIR@/"$dir"}
unit=${unit//@USER@/"$user"}
printf '%s\n' "$unit"
