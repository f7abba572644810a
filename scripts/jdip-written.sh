#!/usr/bin/env bash
# Writes every bundled variant as a jDip plugin zip (`dip variant convert
# --to jdip`) into OUTDIR, so that jDip itself can be asked to open them
# (put the zips, with a unit symbol pack, in a folder jDip loads plugins
# from). Outside the test command: jDip is not part of this repository.
#
#   scripts/jdip-written.sh OUTDIR
#
# DIP=path/to/dip picks the binary (default: the debug build, built if
# missing, in $CARGO_TARGET_DIR or target/). docs/jdip-plugin.md has what
# jDip 1.6 said of them.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
out=$1
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${DIP:-}" ]; then
    (cd "$root" && cargo build -q -p dip)
    DIP=${CARGO_TARGET_DIR:-$root/target}/debug/dip
fi
command -v zip >/dev/null || { echo "$0: needs zip" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
names=$("$DIP" variant list | awk 'NR > 1 && !/\(jDip: / { print $1 }')
for name in $names; do
    if ! "$DIP" variant convert "$name" --to jdip -o "$work/$name" >"$work/log" 2>&1; then
        failed=1
        sed "s/^/  $name: /" "$work/log" >&2
        continue
    fi
    rm -f "$out/${name}Variant.zip"
    (cd "$work/$name" && zip -q -r "$out/${name}Variant.zip" .)
    echo "$out/${name}Variant.zip"
done
exit $failed
