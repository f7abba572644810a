#!/usr/bin/env bash
# The board's figures (BENCHMARKS.md, "The board"): runs the board's
# browser loop on the standard map and the README's `dip board` in
# headless Chromium RUNS times (default 3) and prints what they measure:
# the first load's size as sent (gzip), pointer up to the order's arrow
# drawn, and Resolve's round trip (request, answer, map drawn).
# PROFILE=release measures a release build (slower to build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
flags=()
if [ "${PROFILE:-debug}" = release ]; then flags=(--release); fi
for i in $(seq "$runs"); do
  cargo test "${flags[@]}" --locked -q -p dip --test web_board -- --nocapture --test-threads 1 \
    dip_loop_on_the_standard_map_from_a_dip_file the_readme_board_answers_at_once_without_a_database 2>&1 |
    grep -E "first load|pointer up|resolve round trip|listened after" || { echo "run $i failed" >&2; exit 1; }
done
