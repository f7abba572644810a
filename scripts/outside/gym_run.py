"""Plays games in MrLongbottom/Diplomacy_Gym_Environment's Gym environment
(`diplomacy_gym_environment.DiplomacyEnvironment`, a `gym.Env` on MILA's
Game). Called by scripts/outside-code.sh from inside a checkout:

    python gym_run.py GAMES SEED

The checkout's code runs unchanged except for its `import diplomacy`,
which outside-code.sh rewrites to `import dip as diplomacy` for the dip
run. Games alternate between the two kinds of action the environment
takes: its own network-style input (a random number for every entry of
its action list, which it turns into orders through MILA's map) and
order strings (its README agent: a random possible order for each
orderable location, drawn from the sorted list so that both engines draw
the same). Each step prints one line (phase, rewards, done, a digest of
the observation and the number of actions), for outside-code.sh to
compare between engines; the last line is a summary. The environment's
own checks raise on some positions on either engine ("Not all possible
orders are covered by converted actions", when its action list misses a
legal order): such a game ends there, with a line saying so.
"""
import hashlib
import json
import os
import random
import sys
import time
import zlib

sys.path.insert(0, os.getcwd())

from diplomacy_gym_environment import DiplomacyEnvironment  # noqa: E402


# Years played per game.
YEARS = 5


def main():
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    started = time.time()
    env = DiplomacyEnvironment(prints=False, render_path=None)
    steps = errors = 0
    print(json.dumps({"actions": len(env.action_list), "observation": len(env.observation())}), flush=True)
    for number in range(games):
        env.reset()
        nn_input = number % 2 == 0
        done = [False]
        while not all(done) and not env.game.is_game_done and steps < 100000:
            possible = env.game.get_all_possible_orders()
            first = env.game.get_orderable_locations(list(env.game.powers)[0])
            # The environment reads the kind of input from the first
            # power's first entry: a power with nothing to order gets the
            # network-style input for that step.
            if nn_input or not any(possible[loc] for loc in first):
                # A number for each action of the environment's list, drawn
                # from the action's text: the two engines' lists hold the
                # same actions in another order (that of their maps).
                actions = {p: [zlib.crc32(('%d|%d|%s|%s' % (seed, steps, p, a)).encode()) / 2.0 ** 32
                               for a in env.action_list] for p in env.game.powers}
            else:
                actions = {p: [rng.choice(sorted(possible[loc])) for loc in env.game.get_orderable_locations(p)
                               if possible[loc]] for p in env.game.powers}
            try:
                obs, reward, done, info = env.step(actions)
            except Exception as error:  # the environment's own checks, on either engine
                print(json.dumps({"game": number, "phase": env.game.get_current_phase(), "error": str(error)}))
                errors += 1
                break
            steps += 1
            # The observation's entries follow the map's order of
            # locations: compared by how many are set, the position by
            # its sorted units and centres.
            units = env.game.get_units()
            centers = env.game.get_centers()
            position = hashlib.sha1(json.dumps([{p: sorted(u) for p, u in units.items()},
                                                {p: sorted(c) for p, c in centers.items()}]).encode()).hexdigest()[:12]
            print(json.dumps({"game": number, "phase": info[0], "reward": reward, "done": done,
                              "observed": int(sum(obs[0])), "position": position}))
            if info[0] == 'S%d' % (1901 + YEARS) + 'M':
                break
    print(json.dumps({"summary": True, "games": games, "steps": steps, "errors": errors, "seconds": round(time.time() - started, 1)}))


if __name__ == "__main__":
    main()
