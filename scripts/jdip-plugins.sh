#!/bin/sh
# Reads and renders every jDip variant plugin found in DIR (folders holding
# variants.xml, and plugin zips), and prints per plugin: the variants read,
# the time to read them (`dip variant list --variants PLUGIN`: every
# variant read and built) and the time to render every variant's start on
# the plugin's own map (`dip render start`, PNG). Outside the test command:
# jDip's plugins are not part of this repository.
#
#   scripts/jdip-plugins.sh DIR [OUTDIR]
#
# DIP=path/to/dip picks the binary (default: target/release/dip, built if
# missing). The PNGs go to OUTDIR (default: a temporary folder). Exit 1
# when a plugin or variant could not be read or drawn.
set -eu
dir="${1:?usage: scripts/jdip-plugins.sh DIR [OUTDIR]}"
cd "$(dirname "$0")/.."
dip="${DIP:-target/release/dip}"
if [ ! -x "$dip" ]; then
    cargo build --release -p dip >&2
fi
out="${2:-$(mktemp -d)}"
mkdir -p "$out"
now() { date +%s.%N; }
failed=0
total_variants=0
# The plugins: folders holding variants.xml, and zips other than symbol packs.
plugins=$( (find "$dir" -iname variants.xml -exec dirname {} \; ; \
            find "$dir" -iname '*.zip' ! -iname '*symbols.zip') | sort -u)
printf '%-60s %8s %10s %10s\n' plugin variants read_s render_s
for p in $plugins; do
    t0=$(now)
    if ! list=$("$dip" variant list --variants "$p" 2>"$out/err.txt"); then
        failed=1
        sed 's/^/  error: /' "$out/err.txt"
    fi
    t1=$(now)
    names=$(printf '%s\n' "$list" | grep ' (jDip: ' | sed -E 's/^.* [0-9]+ +[0-9]+ +[0-9]+  (.*) \(jDip: .*$/\1/' || true)
    n=0
    t2=$(now)
    IFS='
'
    for name in $names; do
        n=$((n + 1))
        safe=$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_')
        if ! "$dip" render start --variant "$p#$name" -o "$out/$safe.png" >/dev/null 2>"$out/err.txt"; then
            failed=1
            sed "s/^/  render $name: /" "$out/err.txt"
        fi
    done
    unset IFS
    t3=$(now)
    total_variants=$((total_variants + n))
    printf '%-60s %8d %10.2f %10.2f\n' "$p" "$n" "$(echo "$t1 - $t0" | bc)" "$(echo "$t3 - $t2" | bc)"
done
echo "variants read: $total_variants; pictures in $out"
exit $failed
