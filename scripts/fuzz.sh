#!/bin/sh
# Fuzz every reader of dip for a set time under a memory limit, keeping the
# corpus between runs.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS] [MEMORY_MB]
#
# With cargo-fuzz and a nightly toolchain, each target runs coverage-guided
# (fuzz/, corpus in fuzz/corpus/TARGET, crashes in fuzz/artifacts/TARGET).
# Without them, the stable runner of crates/dip-fuzz mutates the seeds and
# the corpus (fuzz/corpus/TARGET; crashes and slow inputs in
# fuzz/corpus/crashes). A crash becomes a regression input,
# crates/dip-fuzz/regressions/TARGET--what-it-was, run by the test suite.
# Targets (TARGET or reader_TARGET): cargo run -p dip-fuzz -- list
set -eu
cd "$(dirname "$0")/.."
target="${1:-all}"
secs="${2:-600}"
mem="${3:-2048}"
if command -v cargo-fuzz >/dev/null 2>&1 && cargo +nightly --version >/dev/null 2>&1; then
    case "$target" in
        all) targets=$(cd fuzz && cargo +nightly fuzz list) ;;
        reader_*|order_reader|analyse_control) targets="$target" ;;
        *) targets="reader_$target" ;;
    esac
    # The seeds (real files) start the corpus.
    cargo run -q -p dip-fuzz --bin dip-fuzz -- seeds fuzz/corpus
    n=$(echo "$targets" | wc -w)
    each=$((secs / n))
    [ "$each" -ge 1 ] || each=1
    for t in $targets; do
        mkdir -p "fuzz/corpus/$t"
        (cd fuzz && cargo +nightly fuzz run "$t" "corpus/$t" -- \
            -max_total_time="$each" -rss_limit_mb="$mem" -timeout=10)
    done
else
    echo "cargo-fuzz or nightly not found: using the stable runner" >&2
    cargo build --release -p dip-fuzz --bin dip-fuzz
    # The memory limit: allocation beyond it aborts the run, and the input
    # being tried stays in fuzz/corpus/current-TARGET.
    target="${target#reader_}"
    (ulimit -v $((mem * 1024)) && exec target/release/dip-fuzz "$target" "$secs" fuzz/corpus)
fi
