#!/usr/bin/env python3
"""Plays random games with MILA's engine (the `diplomacy` package) and
replays the same orders through `dip.Game`, comparing every power's units
(and the next phase) after every phase.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install ./python diplomacy==1.1.2
    /tmp/venv/bin/python scripts/mila-compare.py --games 100
    /tmp/venv/bin/python scripts/mila-compare.py --games 10 --map ancmed

MILA chooses each unit's order among its possible orders (biased towards
moves, supports and convoys, as scripts/mila-games.py does). After a phase
where the two differ, the phase is printed with its orders and dip is set
to MILA's position, so that one difference does not hide later ones. Exit
status 1 when any phase differs.
"""
import argparse
import random
import sys
import time

import diplomacy
import dip


def pick_orders(game, rng):
    possible = game.get_all_possible_orders()
    orders = {}
    for power in game.powers:
        chosen = []
        for loc in game.get_orderable_locations(power):
            opts = sorted(possible.get(loc) or [])
            if not opts:
                continue
            weighted = [o for o in opts if " - " in o or " S " in o or " C " in o] or opts
            chosen.append(rng.choice(weighted if rng.random() < 0.8 else opts))
        orders[power] = chosen
    return orders


def units_of(game):
    return {p: sorted(u) for p, u in game.get_units().items()}


def sorted_centres(game):
    return {p: sorted(c) for p, c in game.get_centers().items()}


def play(seed, years, out, map_name='standard'):
    rng = random.Random(seed)
    mila = diplomacy.Game(map_name=map_name)
    ours = dip.Game(map_name=map_name)
    until = mila.map.first_year + years
    agree = differ = 0
    while not mila.is_game_done and int(mila.get_current_phase()[1:-1]) < until:
        phase = mila.get_current_phase()
        for power, orders in pick_orders(mila, rng).items():
            mila.set_orders(power, orders)
        given = mila.get_orders()
        for power, orders in given.items():
            ours.set_orders(power, orders)
        refused, ours.error = list(ours.error), []
        mila.process()
        ours.process()
        want, got = units_of(mila), units_of(ours)
        problems = ["dip refused %s" % e for e in refused]
        if mila.get_current_phase() != ours.get_current_phase():
            problems.append("next phase: MILA %s, dip %s" % (mila.get_current_phase(), ours.get_current_phase()))
        for power in want:
            if want[power] != got.get(power):
                problems.append("%s: MILA %s, dip %s" % (power, want[power], got.get(power)))
        if mila.get_current_phase()[-1] == 'A' or ours.get_current_phase()[-1] == 'A':
            if sorted_centres(mila) != sorted_centres(ours):
                problems.append("centres: MILA %s, dip %s" % (mila.get_centers(), ours.get_centers()))
        if problems:
            differ += 1
            print("game %d, %s differs:" % (seed, phase), file=out)
            for power, orders in given.items():
                if orders:
                    print("  %s: %s" % (power, "; ".join(orders)), file=out)
            print("  MILA results: %s" % {u: r for u, r in mila.get_order_status().items() if r}, file=out)
            for p in problems:
                print("  " + p, file=out)
            ours.set_state(mila.get_state(), clear_history=False)
        else:
            agree += 1
    return agree, differ


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--years", type=int, default=19, help="years to play from the map's first")
    ap.add_argument("--map", default="standard", help="MILA map name (standard, ancmed, modern, pure, ...)")
    ap.add_argument("--seed", type=int, default=1901)
    args = ap.parse_args()
    start = time.time()
    agree = differ = 0
    for n in range(args.games):
        a, d = play(args.seed + n, args.years, sys.stdout, args.map)
        agree += a
        differ += d
    print("%s: %d games, %d phases: %d agree, %d differ (%.0f s)"
          % (args.map, args.games, agree + differ, agree, differ, time.time() - start))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
