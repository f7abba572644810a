#!/usr/bin/env python3
"""Plays MILA's README agent on MILA's engine and on dip.Game side by side
and compares them after every phase.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install ./python diplomacy==1.1.2
    /tmp/venv/bin/python scripts/mila-agent-compare.py --games 50            # every MILA map in turn
    /tmp/venv/bin/python scripts/mila-agent-compare.py --games 20 --map ancmed

The agent is the loop of MILA's README: for each power, `random.choice`
over `get_all_possible_orders()[loc]` for each of
`get_orderable_locations(power)` with a non-empty list. Its raw choices
(WAIVE among them, several orders where MILA keeps fewer) are given to
both engines unchanged. Before each phase is processed the two must agree
on the phase, each location's possible orders (as sets), each power's
orderable locations and, after set_orders, each power's `get_orders()`;
after it, on every power's units, centres and the next phase, and at the
end on the outcome. A game stops at its first difference, which is
printed. Exit status 1 when any game differs. MILA lists a location's
orders in the order of a Python set, which follows the process's hash
seed: set PYTHONHASHSEED to replay a run's games exactly.
"""
import argparse
import random
import sys
import time

import diplomacy
import dip

# Every map MILA 1.1.2 ships that dip plays.
MAPS = ['standard', 'ancmed', 'modern', 'pure', 'standard_fleet_rome', 'colonial', 'empire', 'world',
        'standard_france_austria', 'standard_germany_italy']


def agent_orders(game, rng):
    """MILA's README agent: a random possible order for each orderable location."""
    possible = game.get_all_possible_orders()
    return {name: [rng.choice(possible[loc]) for loc in game.get_orderable_locations(name) if possible[loc]]
            for name in game.powers}


def snapshot(game):
    return {'phase': game.get_current_phase(),
            'units': {p: sorted(u) for p, u in game.get_units().items()},
            'centers': {p: sorted(c) for p, c in game.get_centers().items()}}


def first_difference(mila, ours, what):
    a, b = mila, ours
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return '%s[%s]: MILA %r, dip %r' % (what, key, a.get(key), b.get(key))
    return '%s: MILA %r, dip %r' % (what, a, b)


def play(seed, map_name, max_phases):
    """(phases compared, None) or (phases, description of the first difference)."""
    rng = random.Random(seed)
    mila = diplomacy.Game(map_name=map_name)
    ours = dip.Game(map_name=map_name)
    phases = 0
    while not mila.is_game_done and phases < max_phases:
        phase = mila.get_current_phase()
        problem = first_difference(snapshot(mila), snapshot(ours), 'before ' + phase)
        if problem:
            return phases, problem
        possible = mila.get_all_possible_orders()
        ours_possible = ours.get_all_possible_orders()
        for loc in sorted({loc for locs in mila.get_orderable_locations().values() for loc in locs}):
            if sorted(possible.get(loc) or []) != sorted(ours_possible.get(loc) or []):
                return phases, '%s: possible orders of %s: MILA %s, dip %s' % (
                    phase, loc, sorted(possible.get(loc) or []), sorted(ours_possible.get(loc) or []))
        problem = first_difference(mila.get_orderable_locations(), ours.get_orderable_locations(),
                                   phase + ' orderable locations')
        if problem:
            return phases, problem
        chosen = agent_orders(mila, rng)
        for power, orders in chosen.items():
            mila.set_orders(power, orders)
            ours.set_orders(power, orders)
        ours.error = []
        problem = first_difference(mila.get_orders(), ours.get_orders(), phase + ' get_orders after %r' % chosen)
        if problem:
            return phases, problem
        mila.process()
        ours.process()
        phases += 1
        problem = first_difference(snapshot(mila), snapshot(ours), 'after %s with %r' % (phase, chosen))
        if problem:
            return phases, problem
    if mila.is_game_done and (not ours.is_game_done or list(mila.outcome) != list(ours.outcome)):
        return phases, 'outcome: MILA %s, dip %s' % (mila.outcome, ours.outcome)
    return phases, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--games', type=int, default=50, help='games in all, the maps taking turns')
    ap.add_argument('--map', action='append', help='a MILA map name (repeatable); default every map dip plays')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--max-phases', type=int, default=10 ** 6, help='stop a game after this many phases')
    args = ap.parse_args()
    maps = args.map or MAPS
    start = time.time()
    per_map = {m: [0, 0, 0] for m in maps}  # games, phases, games that differ
    for n in range(args.games):
        map_name = maps[n % len(maps)]
        phases, problem = play(args.seed + n, map_name, args.max_phases)
        counts = per_map[map_name]
        counts[0] += 1
        counts[1] += phases
        if problem:
            counts[2] += 1
            print('%s game %d (seed %d) differs after %d phases: %s' % (map_name, n, args.seed + n, phases, problem))
    for map_name, (games, phases, differ) in per_map.items():
        if games:
            print('%s: %d games, %d phases, %d differ' % (map_name, games, phases, differ))
    games = sum(c[0] for c in per_map.values())
    phases = sum(c[1] for c in per_map.values())
    differ = sum(c[2] for c in per_map.values())
    print('all maps: %d games, %d phases, %d differ (%.0f s)' % (games, phases, differ, time.time() - start))
    sys.exit(1 if differ else 0)


if __name__ == '__main__':
    main()
