#!/usr/bin/env python3
"""MILA's README agent on dip.Game: the games of `python-bench.py --agent`
(seeds 1901-1910, at most 200 phases each), played N times (default 10).
Untimed: it is the loop to count instructions of, which unlike timings
on a shared machine repeat exactly:

    valgrind --tool=callgrind python3 scripts/readme-agent.py 2
    callgrind_annotate --inclusive=yes callgrind.out.* | head -60
"""
import random
import sys

import dip


def play(seed, max_phases=200):
    rng = random.Random(seed)
    game = dip.Game()
    phases = 0
    while not game.is_game_done and phases < max_phases:
        possible_orders = game.get_all_possible_orders()
        for power_name, power in game.powers.items():
            power_orders = [rng.choice(possible_orders[loc]) for loc in game.get_orderable_locations(power_name)
                            if possible_orders[loc]]
            game.set_orders(power_name, power_orders)
        game.process()
        phases += 1
    return phases


if __name__ == "__main__":
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 10):
        for g in range(10):
            play(1901 + g)
