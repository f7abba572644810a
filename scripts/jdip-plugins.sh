#!/usr/bin/env bash
# Reads and renders every jDip variant plugin found in DIR (folders holding
# variants.xml, and plugin zips), and prints per plugin: the variants read,
# the time to read them (`dip variant list --variants PLUGIN`: every
# variant read and built) and the time to render every variant's start on
# the plugin's own map (`dip render start`, PNG). Outside the test command:
# jDip's plugins are not part of this repository.
#
#   scripts/jdip-plugins.sh DIR [OUTDIR]
#
# DIP=path/to/dip picks the binary (default: the debug build, built if
# needed, in $CARGO_TARGET_DIR or target/; use a release build for
# figures). The PNGs go to OUTDIR (default: a temporary folder). Paths may
# hold spaces. Exit 1 when a plugin or variant could not be read or drawn.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 DIR [OUTDIR]" >&2
    exit 2
fi
dir=$1
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${DIP:-}" ]; then
    (cd "$root" && cargo build -q -p dip)
    DIP=${CARGO_TARGET_DIR:-$root/target}/debug/dip
fi
out=${2:-$(mktemp -d)}
mkdir -p "$out"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
failed=0
total_variants=0
printf '%-60s %8s %10s %10s\n' plugin variants read_s render_s
# The plugins: folders holding variants.xml, and zips other than symbol packs.
while IFS= read -r -d '' p; do
    t0=$(now)
    if ! list=$("$DIP" variant list --json --variants "$p" 2>"$out/err.txt"); then
        failed=1
        sed 's/^/  error: /' "$out/err.txt"
    fi
    t1=$(now)
    n=0
    # The plugin's variants: the `name` of the lines with a `plugin`.
    while IFS= read -r name; do
        [ -n "$name" ] || continue
        n=$((n + 1))
        safe=$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_')
        if ! "$DIP" render start --variant "$p#$name" -o "$out/$safe.png" >/dev/null 2>"$out/err.txt"; then
            failed=1
            sed "s/^/  render $name: /" "$out/err.txt"
        fi
    done < <(printf '%s\n' "$list" | grep '"plugin":' |
        sed -E 's/.*"name":"(([^"\\]|\\.)*)".*/\1/; s/\\"/"/g; s/\\\\/\\/g' || true)
    t2=$(now)
    total_variants=$((total_variants + n))
    printf '%-60s %8d %10s %10s\n' "$p" "$n" "$(secs "$t0" "$t1")" "$(secs "$t1" "$t2")"
done < <( (find "$dir" -iname variants.xml -exec dirname {} \; ;
           find "$dir" -iname '*.zip' ! -iname '*symbols.zip') | sort -u | tr '\n' '\0')
echo "variants read: $total_variants; pictures in $out"
exit $failed
