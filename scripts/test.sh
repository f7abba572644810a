#!/usr/bin/env bash
# Every test: the Rust workspace (unit, property, data-driven, the server
# on SQLite and a throwaway PostgreSQL, the web page in headless Chromium),
# then the Python package with MILA's own tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
scripts/python-tests.sh
