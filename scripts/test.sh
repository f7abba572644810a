#!/usr/bin/env bash
# Every test: the Rust workspace (unit, property, data-driven, the server
# on SQLite and a throwaway PostgreSQL, the web page in headless Chromium),
# then the Python package with MILA's own tests, then real DAIDE clients:
# seven Parlance DumbBots (Python 2.7) play against `dip daide` to 1903
# (skipped, loudly, only when no Python 2.7 can be had).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "=== $(date -u +%T) $*" >&2; }
# The DAIDE tests replay MILA's recorded bot sessions from the `diplomacy`
# package fetched from PyPI, as the Python tests below need it too: here
# its absence is a failure, not a skip.
step cargo test
DIP_DAIDE_MILA_REQUIRED=1 cargo test --workspace --locked
step Python
scripts/python-tests.sh
step DAIDE bots
rc=0
# The dip that `cargo test --workspace` built for its tests: `cargo build
# -p dip` alone resolves other features (the tests' dev-dependencies turn
# on more of syn's), so it would compile the whole tree once more.
DIP_BIN="${CARGO_TARGET_DIR:-target}/debug/dip" scripts/daide-parlance.sh dumbbot 1903 || rc=$?
if [ "$rc" -eq 77 ]; then
    echo "!!!!!! test.sh: the Parlance DAIDE bots were SKIPPED (no Python 2.7 or no PyPI): see above !!!!!!" >&2
elif [ "$rc" -ne 0 ]; then
    echo "test.sh: the Parlance DAIDE bots FAILED" >&2
    exit "$rc"
fi
