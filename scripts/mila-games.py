#!/usr/bin/env python3
"""Plays random games with MILA's engine (the `diplomacy` package on PyPI)
and writes them as saved games, one JSON object a line, for `dip replay`.

    python3 scripts/mila-games.py --games 200 --out target/mila/games.jsonl

Installs the package into a virtual environment under target/mila/venv on
first use. Orders are drawn from each unit's possible orders, with a bias
towards supports and convoys that match other orders, so that games are
not only random holds.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV = os.path.join(ROOT, "target", "mila", "venv")


def ensure_venv():
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
        subprocess.check_call([py, "-m", "pip", "install", "-q", "diplomacy==1.1.2"])
    return py


def play(args):
    import json
    import random

    import diplomacy
    from diplomacy.utils.export import to_saved_game_format

    rng = random.Random(args.seed)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as out:
        for n in range(args.games):
            game = diplomacy.Game()
            while not game.is_game_done and int(game.get_current_phase()[1:5]) < args.until:
                possible = game.get_all_possible_orders()
                for power in game.powers:
                    orders = []
                    for loc in game.get_orderable_locations(power):
                        opts = possible.get(loc) or []
                        if not opts:
                            continue
                        # Prefer moves and supports over holds, like players.
                        weighted = [o for o in opts if " - " in o or " S " in o or " C " in o] or opts
                        pick = rng.choice(weighted if rng.random() < 0.8 else opts)
                        orders.append(pick)
                    game.set_orders(power, orders)
                game.process()
            out.write(json.dumps(to_saved_game_format(game)) + "\n")
            print(f"game {n + 1}/{args.games}: {game.get_current_phase()}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--until", type=int, default=1920, help="stop before this year")
    ap.add_argument("--seed", type=int, default=1901)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "mila", "games.jsonl"))
    args = ap.parse_args()
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        py = ensure_venv()
        os.execv(py, [py] + sys.argv)
    play(args)


if __name__ == "__main__":
    main()
