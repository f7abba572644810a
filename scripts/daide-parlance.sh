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
# seconds. DIP_BIN names the dip to play (default: this tree's, built
# here). scripts/test.sh runs it with the dip its cargo test built.
# Exit codes: 0 played and replayed, 1 failed (the game did not end in
# time, a bot was answered HUH or sent one, the record did not replay),
# 2 usage, 77 Python 2.7 or the packages could not be installed (skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
bot=${1:-dumbbot}
end=${2:-1903}
# The executables Parlance and Parang install for each kind of bot.
case "$bot" in
    dumbbot) exe=dumbbot ;;
    holdbot) exe=parlance-holdbot ;;
    *) echo "usage: scripts/daide-parlance.sh [dumbbot|holdbot] [END-YEAR]" >&2; exit 2 ;;
esac
# How long the whole game may take before it counts as hung.
limit=${DIP_DAIDE_LIMIT:-300}
venv=${DIP_DAIDE_VENV:-target/daide-parlance-venv}
dip=${DIP_BIN:-${CARGO_TARGET_DIR:-target}/debug/dip}

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

if [ ! -x "$venv/bin/$exe" ]; then
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
server=""
bots=""
# Only the two processes started here are stopped, by their ids.
stop() {
    for p in $bots $server; do kill "$p" 2>/dev/null || true; done
}
trap 'stop; rm -rf "$work"' EXIT
failed() {
    echo "daide-parlance: FAILED: $*"
    echo "--- server.log"; tail -30 "$work/server.log" || true
    echo "--- bots.log"; tail -30 "$work/bots.log" || true
    exit 1
}
port=$(( 20000 + RANDOM % 20000 ))
"$dip" daide --port "$port" --data "$work" --end-after "$end" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q waiting "$work/server.log" 2>/dev/null && break; sleep 0.1; done
start=$(date +%s.%N)
# -v15: the bots log every message they send, and the kind of each one
# they receive (`Searching for handle_HUH_SUB()`): HUH either way shows.
"$venv/bin/$exe" "localhost:$port" 7 -v15 >"$work/bots.log" 2>&1 &
bots=$!
# The server ends with the game; the bots end when it tells them. Bots
# that die early leave the server waiting: it gets 20 s more, then the
# run has failed. Nothing waits longer than $limit seconds.
waited=0
bots_gone_at=""
while kill -0 "$server" 2>/dev/null; do
    if [ -z "$bots_gone_at" ] && ! kill -0 "$bots" 2>/dev/null; then bots_gone_at=$waited; fi
    if [ -n "$bots_gone_at" ] && [ $((waited - bots_gone_at)) -ge 40 ]; then
        failed "the bots stopped and the game did not end"
    fi
    if [ "$waited" -ge $((limit * 2)) ]; then failed "the game did not end within $limit s"; fi
    sleep 0.5
    waited=$((waited + 1))
done
end_t=$(date +%s.%N)
wait "$server" || failed "dip daide exited with an error"
server=""
for _ in $(seq 20); do kill -0 "$bots" 2>/dev/null || break; sleep 0.5; done
cat "$work/server.log"
grep -q "the game is over" "$work/server.log" || failed "the game did not end"
# A bot answered HUH, or sent HUH back: a message one side did not take.
if grep -n "HUH" "$work/bots.log" >"$work/huh.txt"; then
    failed "HUH in the bots' log: $(head -5 "$work/huh.txt")"
fi
phases=$(grep -o '"name": *"[SFW][0-9]*[MRA]"' "$work/game.jsonl" | wc -l || true)
echo "daide-parlance: $bot x7, $phases phases in $(echo "$end_t - $start" | bc) s"
"$dip" replay "$work/game.jsonl"
