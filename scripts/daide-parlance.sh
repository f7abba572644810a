#!/usr/bin/env bash
# Seven Parlance bots (PyPI: Parlance and Parang, Python 2.7) play a
# standard game against `dip daide`, which ends it after a fixed year; the
# record must then replay cleanly with `dip replay`.
#
#   scripts/daide-parlance.sh [dumbbot|holdbot] [END-YEAR]
#
# Needs Python 2.7 (found on PATH or in pyenv; pyenv installs 2.7.18 when
# it has none) and PyPI. The virtualenv goes to $DIP_DAIDE_VENV (default
# target/daide-parlance-venv), made once and kept: later runs take a few
# seconds. scripts/test.sh runs it.
# Exit codes: 0 played and replayed, 1 failed, 77 Python 2.7 or the
# packages could not be installed (skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
bot=${1:-dumbbot}
end=${2:-1903}
venv=${DIP_DAIDE_VENV:-target/daide-parlance-venv}
dip=${DIP_BIN:-target/debug/dip}

py2=""
for c in python2.7 python2; do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; assert sys.version_info[:2] == (2, 7)' 2>/dev/null; then
        py2=$(command -v "$c"); break
    fi
done
if [ -z "$py2" ] && command -v pyenv >/dev/null 2>&1; then
    v=$(pyenv versions --bare 2>/dev/null | grep -E '^2\.7' | tail -1 || true)
    if [ -z "$v" ]; then
        # Not installed yet: pyenv builds it (once, a few minutes).
        echo "daide-parlance: installing Python 2.7.18 with pyenv (once)" >&2
        if pyenv install -s 2.7.18 >&2; then v=2.7.18; fi
    fi
    if [ -n "$v" ] && [ -x "$(pyenv root)/versions/$v/bin/python2.7" ]; then
        py2="$(pyenv root)/versions/$v/bin/python2.7"
    fi
fi
if [ -z "$py2" ]; then
    echo "daide-parlance: SKIPPED: no Python 2.7, and pyenv could not provide one (Parlance needs it)" >&2
    exit 77
fi

if [ ! -x "$venv/bin/$bot" ]; then
    rm -rf "$venv"
    if ! { "$py2" -m virtualenv --version >/dev/null 2>&1 || "$py2" -m pip install -q --disable-pip-version-check 'virtualenv<20.16' >/dev/null 2>&1; } \
        || ! "$py2" -m virtualenv -q "$venv" >/dev/null 2>&1 \
        || ! "$venv/bin/pip" install -q --disable-pip-version-check 'Parlance==1.4.1' 'Parang==1.4.1' >/dev/null 2>&1; then
        echo "daide-parlance: SKIPPED: could not install Parlance and Parang for Python 2.7" >&2
        rm -rf "$venv"
        exit 77
    fi
fi

# The binary of this tree (a no-op when it is up to date), unless given.
[ -n "${DIP_BIN:-}" ] || cargo build -q --locked -p dip
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(( 20000 + RANDOM % 20000 ))
"$dip" daide --port "$port" --data "$work" --end-after "$end" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q waiting "$work/server.log" 2>/dev/null && break; sleep 0.1; done
start=$(date +%s.%N)
timeout 300 "$venv/bin/$bot" "localhost:$port" 7 >"$work/bots.log" 2>&1 || true
wait $server
end_t=$(date +%s.%N)
cat "$work/server.log"
grep -q "the game is over" "$work/server.log" || { echo "daide-parlance: FAILED: the game did not end"; tail -30 "$work/bots.log"; exit 1; }
phases=$(grep -o '"name": *"[SFW][0-9]*[MRA]"' "$work/game.jsonl" | wc -l || true)
echo "daide-parlance: $bot x7, $phases phases in $(echo "$end_t - $start" | bc) s"
"$dip" replay "$work/game.jsonl"
