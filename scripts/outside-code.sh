#!/usr/bin/env bash
# Outside code that drives MILA's Game, run unchanged but for the import
# on dip.Game and on the engine it was written for, and compared:
#
#   - GoodStartLabs/AI_Diplomacy: its game loop (lm_game.py) with a scripted
#     stand-in for its language model (scripts/outside/ai_diplomacy_run.py),
#     on the fork of MILA's engine it ships and on dip.Game;
#   - MrLongbottom/Diplomacy_Gym_Environment: its gym.Env
#     (scripts/outside/gym_run.py), on MILA's `diplomacy` 1.1.2 and on dip.Game.
#
# Their code is fetched here (git clone from GitHub, or a checkout given
# with --ai-diplomacy DIR / --gym DIR), copied twice into a temporary
# directory, and in the copy for dip only the lines importing MILA's Game
# are rewritten (`from diplomacy import Game` -> `from dip import Game`;
# `import diplomacy` -> `import dip as diplomacy`). Nothing of theirs is
# kept. Their dependencies come from PyPI (AI_Diplomacy's at the versions
# of its uv.lock). Exit status 1 when the two engines' runs differ.
#
#     scripts/outside-code.sh                        # both, fetched from GitHub
#     scripts/outside-code.sh --ai-diplomacy DIR --gym DIR --years 1905 --games 2
#
# Not in CI: CI reaches package registries only, not GitHub.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PYTHON:-python3}"
AID="" GYM="" YEARS=1904 GAMES=2 ONLY=""
while [ $# -gt 0 ]; do
    case "$1" in
        --ai-diplomacy) AID="$2"; shift 2 ;;
        --gym) GYM="$2"; shift 2 ;;
        --years) YEARS="$2"; shift 2 ;;
        --games) GAMES="$2"; shift 2 ;;
        --only) ONLY="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fetch() { # repository, given checkout, target
    if [ -n "$2" ]; then cp -r "$2" "$3"; else git clone -q --depth 1 "https://github.com/$1" "$3"; fi
    rm -rf "$3/.git"
}
"$PY" -m venv "$TMP/venv"
PIP=("$TMP/venv/bin/python" -m pip install -q --disable-pip-version-check)
"${PIP[@]}" "$ROOT/python"
status=0

if [ "$ONLY" != gym ]; then
    fetch GoodStartLabs/AI_Diplomacy "$AID" "$TMP/aid"
    # Its imports, at the versions its uv.lock pins.
    "${PIP[@]}" $("$TMP/venv/bin/python" - "$TMP/aid/uv.lock" <<'EOF'
import sys, tomllib
locked = {p['name']: p['version'] for p in tomllib.load(open(sys.argv[1], 'rb'))['package']}
for name in ('anthropic openai together google-generativeai aiohttp python-dotenv pydantic-settings json5 '
             'json-repair requests tornado ujson bcrypt pytz python-dateutil coloredlogs tqdm').split():
    print('%s==%s' % (name, locked[name]) if name in locked else name)
EOF
)
    cp -r "$TMP/aid" "$TMP/aid-dip"
    find "$TMP/aid-dip/ai_diplomacy" "$TMP/aid-dip/lm_game.py" -name '*.py' -print0 | xargs -0 sed -i -E \
        -e 's/^(\s*)from diplomacy import Game$/\1from dip import Game/' \
        -e 's/^(\s*)from diplomacy\.engine\.game import Game( as [A-Za-z]+)?$/\1from dip import Game\2/'
    echo "AI_Diplomacy: lines changed for dip:"
    diff -r "$TMP/aid" "$TMP/aid-dip" | grep '^>' || true
    for side in aid aid-dip; do
        (cd "$TMP/$side" && "$TMP/venv/bin/python" "$ROOT/scripts/outside/ai_diplomacy_run.py" \
            "$TMP/run-$side" "$YEARS" > "$TMP/$side.out" 2> "$TMP/$side.err") ||
            { echo "AI_Diplomacy on ${side/aid-dip/dip}: failed"; tail -20 "$TMP/$side.err"; status=1; }
    done
    tail -1 "$TMP/aid.out" > "$TMP/aid.json" || true
    tail -1 "$TMP/aid-dip.out" > "$TMP/aid-dip.json" || true
    echo "AI_Diplomacy, fork of MILA's engine: $(cat "$TMP/aid.json")"
    echo "AI_Diplomacy, dip.Game:              $(cat "$TMP/aid-dip.json")"
    "$TMP/venv/bin/python" - "$TMP/aid.json" "$TMP/aid-dip.json" <<'EOF' || status=1
import json, sys
mila, ours = (json.load(open(f)) for f in sys.argv[1:])
keys = ('phases', 'order_prompts', 'order_successes', 'centers', 'units')
differ = [k for k in keys if mila[k] != ours[k]]
if differ or ours['order_successes'] != ours['order_prompts']:
    print('AI_Diplomacy: the runs differ in', differ or 'order successes'); sys.exit(1)
print('AI_Diplomacy: same phases, order prompts, successes, final units and centres')
EOF
fi

if [ "$ONLY" != ai-diplomacy ]; then
    fetch MrLongbottom/Diplomacy_Gym_Environment "$GYM" "$TMP/gym"
    "$PY" -m venv "$TMP/gvenv"
    GPIP=("$TMP/gvenv/bin/python" -m pip install -q --disable-pip-version-check)
    "${GPIP[@]}" "$ROOT/python" diplomacy==1.1.2 gym==0.26.2 numpy ipython tqdm
    cp -r "$TMP/gym" "$TMP/gym-dip"
    sed -i 's/^import diplomacy$/import dip as diplomacy/' "$TMP/gym-dip/diplomacy_gym_environment.py"
    echo "Gym environment: lines changed for dip:"
    diff -r "$TMP/gym" "$TMP/gym-dip" | grep '^>' || true
    for side in gym gym-dip; do
        (cd "$TMP/$side" && "$TMP/gvenv/bin/python" "$ROOT/scripts/outside/gym_run.py" "$GAMES" 1 \
            > "$TMP/$side.out" 2> "$TMP/$side.err") ||
            { echo "Gym environment on ${side/gym-dip/dip}: failed"; tail -20 "$TMP/$side.err"; status=1; }
    done
    echo "Gym environment, MILA: $(head -1 "$TMP/gym.out") $(tail -1 "$TMP/gym.out")"
    echo "Gym environment, dip:  $(head -1 "$TMP/gym-dip.out") $(tail -1 "$TMP/gym-dip.out")"
    # The steps (phase, rewards, done, observed entries, position) must agree.
    if diff <(sed '1d;$d' "$TMP/gym.out") <(sed '1d;$d' "$TMP/gym-dip.out") > "$TMP/gym.diff"; then
        echo "Gym environment: same steps ($(($(wc -l < "$TMP/gym.out") - 2)))"
    else
        echo "Gym environment: the runs differ:"; head -6 "$TMP/gym.diff"; status=1
    fi
fi
exit $status
