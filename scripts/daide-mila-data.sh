#!/usr/bin/env bash
# Installs MILA's `diplomacy` package (PyPI, Python 3) into a throwaway
# virtualenv and prints the folder of its recorded DAIDE sessions
# (diplomacy/daide/tests/*.csv), which the test daide_mila replays against
# dip's server. The files are used from the installed package, never
# copied into this repository.
#
# The venv goes to $DIP_DAIDE_MILA_VENV (default target/daide-mila-venv).
# Exit 77: Python 3 or the package could not be had (the test skips).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${DIP_DAIDE_MILA_VENV:-target/daide-mila-venv}
find_dir() {
    "$venv/bin/python" - <<'PY' 2>/dev/null
import importlib.util, os
spec = importlib.util.find_spec("diplomacy")
print(os.path.join(os.path.dirname(spec.origin), "daide", "tests"))
PY
}
if [ -x "$venv/bin/python" ] && d=$(find_dir) && [ -f "$d/game_data_1.csv" ]; then
    echo "$d"; exit 0
fi
py=$(command -v python3 || true)
[ -n "$py" ] || { echo "daide-mila-data: SKIPPED: no python3" >&2; exit 77; }
rm -rf "$venv"
if ! "$py" -m venv "$venv" >/dev/null 2>&1 \
    || ! "$venv/bin/pip" install -q --disable-pip-version-check --no-deps 'diplomacy==1.1.2' >/dev/null 2>&1; then
    echo "daide-mila-data: SKIPPED: could not install diplomacy==1.1.2 from PyPI" >&2
    rm -rf "$venv"; exit 77
fi
d=$(find_dir)
[ -f "$d/game_data_1.csv" ] || { echo "daide-mila-data: SKIPPED: the package has no recorded sessions" >&2; exit 77; }
echo "$d"
