#!/usr/bin/env bash
# The Python package's tests, as CI runs them: builds python/ into a
# throwaway virtual environment (pip, maturin), installs MILA's `diplomacy`
# 1.1.2 and pytest there, and runs python/tests, which include MILA's own
# tests/test_datc.py and tests/test_game.py from the installed package
# with dip.Game in place of diplomacy.Game. MILA is required here
# (DIP_REQUIRE_MILA=1): the tests that compare with it fail, rather than
# skip, when it cannot be imported; dip's own tests (test_dip.py) run
# without it elsewhere. Then mypy and pyright check typical agent code
# (python/tests/typing/agent.py) against dip's stubs.
#
#     scripts/python-tests.sh            # PYTHON=python3.12 to choose the interpreter
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PYTHON:-python3}"
TMP="$(mktemp -d)"
step() { echo "=== $(date -u +%T) $*" >&2; }
trap 'rm -rf "$TMP"' EXIT
"$PY" -m venv "$TMP/venv"
PIP=("$TMP/venv/bin/python" -m pip install -q --disable-pip-version-check)
step "pip: MILA's diplomacy, pytest, mypy"
"${PIP[@]}" diplomacy==1.1.2 pytest==9.2.0 mypy==2.4.1
# maturin builds crates/dip-py in release mode into the workspace's target/.
step pip: dip, built by maturin
"${PIP[@]}" "$ROOT/python"
# From outside the repository, so that `import dip` is the installed package.
cd "$TMP"
# A fixed hash seed: MILA lists orders in the order of sets, so the agent
# comparisons play the same games on every run.
step pytest
PYTHONHASHSEED=0 DIP_REQUIRE_MILA=1 "$TMP/venv/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/python/tests"
# The stubs: typical agent code must pass mypy (PyPI) and pyright (npm).
step mypy
"$TMP/venv/bin/python" -m mypy "$ROOT/python/tests/typing/agent.py"
step pyright
npm install --silent --no-audit --no-fund --prefix "$TMP/npm" pyright@1.1.414
"$TMP/npm/node_modules/.bin/pyright" --pythonpath "$TMP/venv/bin/python" "$ROOT/python/tests/typing/agent.py"
