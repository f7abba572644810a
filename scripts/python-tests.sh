#!/usr/bin/env bash
# The Python package's tests, as CI runs them: builds python/ into a
# throwaway virtual environment (pip, maturin), installs MILA's `diplomacy`
# 1.1.2 and pytest there, and runs python/tests, which include MILA's own
# tests/test_datc.py and tests/test_game.py from the installed package
# with dip.Game in place of diplomacy.Game. MILA is required here
# (DIP_REQUIRE_MILA=1): the tests that compare with it fail, rather than
# skip, when it cannot be imported; dip's own tests (test_dip.py) run
# without it elsewhere. pytest's exit status is the script's.
#
#     scripts/python-tests.sh            # PYTHON=python3.12 to choose the interpreter
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PYTHON:-python3}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
"$PY" -m venv "$TMP/venv"
PIP=("$TMP/venv/bin/python" -m pip install -q --disable-pip-version-check)
"${PIP[@]}" diplomacy==1.1.2 pytest==9.2.0
# maturin builds crates/dip-py in release mode into the workspace's target/.
"${PIP[@]}" "$ROOT/python"
# From outside the repository, so that `import dip` is the installed package.
cd "$TMP"
DIP_REQUIRE_MILA=1 "$TMP/venv/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/python/tests"
