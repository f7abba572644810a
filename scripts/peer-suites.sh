#!/usr/bin/env bash
# Runs the peers' test suites (jDip's and godip's DATC files and jDip's
# order-reading suite) with `dip cases`, one file at a time, and prints the
# cases passed per file and the time. Not part of scripts/test.sh: the
# peers' files are not in this repository and this script fetches nothing.
#
#   scripts/peer-suites.sh DIR [dip cases options...]
#
# DIR holds the peers' files (any layout; every *.txt below it is run), e.g.
#   DIR/godip/*.txt   from godip's variants/classical/datc/
#   DIR/jdip/*.txt    from jDip's etc/test_data/
# Options after DIR go to every `dip cases` (`--rules paradox=2000`,
# `--variants jdip/variants.xml`). DIP=path/to/dip uses that binary instead
# of building target/debug/dip. docs/peer-suites.md has the figures.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 DIR [dip cases options...]" >&2
    exit 2
fi
dir=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${DIP:-}" ]; then
    (cd "$root" && cargo build -q -p dip)
    DIP=${CARGO_TARGET_DIR:-$root/target}/debug/dip
fi
total_pass=0
total_fail=0
printf '%-52s %8s %8s %8s\n' file passed failed seconds
while IFS= read -r -d '' f; do
    start=$(date +%s.%N)
    out=$("$DIP" cases "$@" "$f" 2>&1) || true
    end=$(date +%s.%N)
    last=$(printf '%s\n' "$out" | tail -n 1)
    if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        p=${BASH_REMATCH[1]}
        n=${BASH_REMATCH[2]}
    else
        p=0
        n='?'
        echo "  $f: $last" >&2
    fi
    total_pass=$((total_pass + p))
    [ "$n" != '?' ] && total_fail=$((total_fail + n))
    printf '%-52s %8s %8s %8.2f\n' "${f#"$dir"/}" "$p" "$n" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
done < <(find "$dir" -type f -name '*.txt' -print0 | sort -z)
printf '%-52s %8s %8s\n' total "$total_pass" "$total_fail"
