#!/usr/bin/env bash
# Makes a variant's map (variants/VARIANT.shapes) from Natural Earth's
# public-domain 1:10m land and the hand-written borders of
# scripts/maps/VARIANT.geo. Run by a developer when a .geo file changes;
# its output is committed, and the build and the tests never run it.
#
#   scripts/natural-earth-maps.sh [VARIANT...]      # standard, ancmed, modern, world; default: standard
#
# Needs python3 and npm (for the data: the npm package world-atlas, which
# redistributes Natural Earth 4.1.0 as TopoJSON) and installs shapely from
# PyPI into a throwaway virtualenv under target/. Prints every check that
# fails (docs/map-shapes.md) and exits non-zero when one does.
set -euo pipefail
cd "$(dirname "$0")/.."
work=target/natural-earth
mkdir -p "$work"
if [ ! -f "$work/package/land-10m.json" ]; then
    (cd "$work" && npm pack --silent world-atlas@2.0.2 >/dev/null && tar xzf world-atlas-2.0.2.tgz)
fi
if [ ! -x "$work/venv/bin/python" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet shapely==2.2.0
fi
status=0
for v in "${@:-standard}"; do
    "$work/venv/bin/python" scripts/maps/natural_earth.py \
        "scripts/maps/$v.geo" "variants/$v.variant" "$work/package/land-10m.json" "variants/$v.shapes" || status=$?
done
exit "$status"
