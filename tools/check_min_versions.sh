#!/usr/bin/env bash
# Runs the test suite against the oldest versions setup.cfg declares.
#
#     tools/check_min_versions.sh [pytest arguments]
#
# Builds a new virtualenv in .venvs/min-versions with the oldest Python
# kerasish supports ($PYTHON, python3.10 by default) and installs the
# ".[test]" extra with every `name>=floor` of install_requires and of the
# test extra pinned to `name==floor` (read from setup.cfg, so the check
# follows the file). Other packages (the floors' own dependencies) resolve
# as pip resolves them for a user. Exits with pytest's status.
set -u
exec </dev/null
cd "$(dirname "$0")/.."
python=${PYTHON:-python3.10}
if ! "$python" -c "" >/dev/null 2>&1; then
  echo "warning: no $python; the floors are checked on python3" >&2
  python=python3
fi
venv=.venvs/min-versions
rm -rf "$venv"
"$python" -m venv "$venv" || exit 1
floors=$("$venv/bin/python" - <<'EOF'
import configparser
import re

config = configparser.ConfigParser()
config.read("setup.cfg")
lines = (config["options"]["install_requires"].split("\n")
         + config["options.extras_require"]["test"].split("\n"))
for line in lines:
    match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([^,;\s]+)\s*", line)
    if match:
        print(f"{match[1]}=={match[2]}")
EOF
) || exit 1
echo "floors:" $floors
# shellcheck disable=SC2086
"$venv/bin/python" -m pip install -q ".[test]" $floors || exit 1
"$venv/bin/python" -m pip list --format=freeze
"$venv/bin/python" -m pytest "$@"
