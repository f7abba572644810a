#!/usr/bin/env python3
"""Times the agent loop of MILA's diplomacy.Game and of dip.Game on the
same games: per phase, get_all_possible_orders(), get_orderable_locations()
for every power, set_orders() for every power, process().

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install ./python diplomacy==1.1.2
    /tmp/venv/bin/python scripts/python-bench.py --games 20

The games are first played by MILA with random legal orders (seeded); both
engines then replay exactly those orders, so they see the same positions,
in turn pass by pass (or game by game, `--alternate game`), over several
passes (CPU time of this thread, after a garbage collection; the first
pass finds dip's process-wide tables cold).
Prints microseconds per phase for each engine and the ratio per pass and the
median of the later passes; making a game is timed apart. Not a test:
numbers depend on the machine (BENCHMARKS.md records them).
`--agent` times MILA's README agent loop instead (its own
`random.choice` over each orderable location's possible orders, for every
power, then process()), both engines in this one process, game by game
(`--alternate pass`: each engine plays all of a pass's games in a row);
`--agent --only dip` (or `mila`) times one engine alone, e.g. two builds
of dip run after run (`PYTHONPATH` on a copy of the older module).
It runs under PYTHONHASHSEED=0 (`--hash-seed`), so that every run plays
the same games. `--processes` times each engine's pass in a process of its own, which
imports only that engine (as an agent's process does; a process that has
loaded MILA runs dip's loop some 20% slower, see BENCHMARKS.md), after
one untimed pass there. `--dump FILE`
also writes the recorded games for the Rust-only timing of the same loop:

    cargo run --release -p dip-py --example agent_loop -- FILE
"""
import argparse
import gc
import importlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def record_games(n, until, seed):
    """[(phase name, {power: orders})] per game, as MILA accepted them."""
    diplomacy = importlib.import_module("diplomacy")
    games = []
    for g in range(n):
        rng = random.Random(seed + g)
        game = diplomacy.Game()
        phases = []
        while not game.is_game_done and int(game.get_current_phase()[1:5]) < until:
            possible = game.get_all_possible_orders()
            for power in game.powers:
                chosen = []
                for loc in game.get_orderable_locations(power):
                    opts = sorted(possible.get(loc) or [])
                    if opts:
                        weighted = [o for o in opts if " - " in o or " S " in o or " C " in o] or opts
                        chosen.append(rng.choice(weighted if rng.random() < 0.8 else opts))
                game.set_orders(power, chosen)
            phases.append((game.get_current_phase(), game.get_orders()))
            game.process()
        games.append(phases)
    return games


def agent_loop(make, phases, clock):
    """Seconds of `clock` spent in the agent loop over one game's phases
    (making the game is not counted)."""
    game = make()
    powers = list(game.powers)
    t = clock()
    for _, orders in phases:
        game.get_all_possible_orders()
        for power in powers:
            game.get_orderable_locations(power)
        for power in powers:
            game.set_orders(power, orders.get(power, []))
        game.process()
    return clock() - t


def readme_agent(make, seed, max_phases, clock):
    """(seconds, phases) of MILA's README loop on one game: the agent's own
    `random.choice` over each orderable location's possible orders, for
    every power, then `process()`, until the game ends or `max_phases`."""
    rng = random.Random(seed)
    game = make()
    phases = 0
    t = clock()
    while not game.is_game_done and phases < max_phases:
        possible_orders = game.get_all_possible_orders()
        for power_name, power in game.powers.items():
            power_orders = [rng.choice(possible_orders[loc]) for loc in game.get_orderable_locations(power_name)
                            if possible_orders[loc]]
            game.set_orders(power_name, power_orders)
        game.process()
        phases += 1
    return clock() - t, phases


def agent_passes(games, passes, max_phases, clock, seed, only=None, by="game"):
    """Per pass, MILA's and dip's seconds and phases over `games` README
    agent games (the same seeds, so the same games where they agree), the
    engines taking turns game by game in this one process (`by='pass'`:
    each engine plays all the pass's games in a row; `only`: that engine
    alone, the other's figures 0)."""
    engines = [e for e in ("mila", "dip") if only in (None, e)]
    out = []
    for _ in range(passes):
        spent = {"mila": [0.0, 0], "dip": [0.0, 0]}
        gc.collect()
        turns = ([(e, g) for g in range(games) for e in engines] if by == "game"
                 else [(e, g) for e in engines for g in range(games)])
        for k, (engine, g) in enumerate(turns):
            if by == "pass" and k == games:
                gc.collect()
            s, n = readme_agent(diplomacy.Game if engine == "mila" else dip.Game, seed + g, max_phases, clock)
            spent[engine][0] += s
            spent[engine][1] += n
        out.append((*spent["mila"], *spent["dip"]))
    return out


def alternating(games, passes, clock, by):
    """Per pass, the agent loop's seconds for MILA and dip on every game,
    the two engines taking turns game by game (`by='game'`: each game of
    dip's starts with caches MILA's game just filled) or pass by pass
    (`by='pass'`: each engine plays all the games in a row, as an agent
    plays one game's phases in a row)."""
    out = []
    for _ in range(passes):
        mila = ours = 0.0
        if by == 'game':
            gc.collect()
            for phases in games:
                mila += agent_loop(diplomacy.Game, phases, clock)
                ours += agent_loop(dip.Game, phases, clock)
        else:
            gc.collect()
            for phases in games:
                mila += agent_loop(diplomacy.Game, phases, clock)
            gc.collect()
            for phases in games:
                ours += agent_loop(dip.Game, phases, clock)
        out.append((mila, ours))
    return out


def write_games(games, out):
    for phases in games:
        out.write("GAME\n")
        for name, orders in phases:
            out.write("PHASE %s\n" % name)
            for power, given in orders.items():
                out.writelines("%s\t%s\n" % (power, o) for o in given)


def read_games(path):
    """The games `write_games` wrote (every power of a phase listed,
    with no orders where it gave none)."""
    games, powers = [], set()
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line == "GAME":
                games.append([])
            elif line.startswith("PHASE "):
                games[-1].append((line[6:], {}))
            elif "\t" in line:
                power, order = line.split("\t", 1)
                powers.add(power)
                games[-1][-1][1].setdefault(power, []).append(order)
    for phases in games:
        for _, orders in phases:
            for power in powers:
                orders.setdefault(power, [])
    return games


def child(engine, path, clock):
    """One untimed pass and one timed pass of `engine`'s agent loop over
    the games in `path`, in this process, which imports only that engine;
    prints the timed pass's seconds."""
    make = importlib.import_module("diplomacy" if engine == "mila" else "dip").Game
    games = read_games(path)
    for phases in games:
        agent_loop(make, phases, clock)
    gc.collect()
    print(sum(agent_loop(make, phases, clock) for phases in games))


def in_processes(games, passes, wall):
    """Per pass, the agent loop's seconds for MILA and dip, each engine's
    pass in a new process of its own (see `child`), taking turns."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.txt")
        with open(path, "w") as out:
            write_games(games, out)
        run = lambda engine: float(subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--child", engine, path] + (["--wall"] if wall else []),
            check=True, capture_output=True, text=True).stdout)
        return [(run("mila"), run("dip")) for _ in range(passes)]


def one_off(make, n=20):
    """Microseconds to make a game (not part of the loop)."""
    make()
    t = time.perf_counter()
    for _ in range(n):
        make()
    return (time.perf_counter() - t) / n * 1e6


def process_only(make, games):
    spent, count = 0.0, 0
    for phases in games:
        game = make()
        for _, orders in phases:
            for power, o in orders.items():
                game.set_orders(power, o)
            t = time.perf_counter()
            game.process()
            spent += time.perf_counter() - t
            count += 1
    return spent, count


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--until", type=int, default=1915, help="stop before this year")
    ap.add_argument("--seed", type=int, default=1901)
    ap.add_argument("--passes", type=int, default=5, help="passes over the games, MILA and dip alternating")
    ap.add_argument("--alternate", choices=["game", "pass"],
                    help="MILA and dip take turns game by game, or pass by pass (the default; "
                         "with --agent the default is game by game)")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of this thread's CPU time")
    ap.add_argument("--processes", action="store_true",
                    help="each engine's passes in processes of their own (one untimed pass first in each)")
    ap.add_argument("--agent", action="store_true",
                    help="time MILA's README agent loop (its random.choice included) on both engines in this process")
    ap.add_argument("--max-phases", type=int, default=200, help="with --agent: phases per game at most")
    ap.add_argument("--only", choices=["mila", "dip"],
                    help="with --agent: time that engine alone (to compare two builds of dip, run after run)")
    ap.add_argument("--dump", metavar="FILE", help="write the recorded games (GAME, PHASE, power<TAB>order lines)")
    ap.add_argument("--hash-seed", default="0",
                    help="PYTHONHASHSEED to run under (MILA lists orders in the order of sets, so the "
                         "README agent's games on MILA change with it; 'random' to leave it unset)")
    ap.add_argument("--child", nargs=2, metavar=("ENGINE", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.hash_seed != "random" and os.environ.get("PYTHONHASHSEED") != args.hash_seed:
        # Set before the interpreter starts, so this process runs again under it.
        os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, "PYTHONHASHSEED": args.hash_seed})
    clock_of = time.perf_counter if args.wall else time.thread_time
    if args.child:
        return child(args.child[0], args.child[1], clock_of)
    global diplomacy, dip
    diplomacy = None if args.agent and args.only == "dip" else importlib.import_module("diplomacy")
    dip = None if args.agent and args.only == "mila" else importlib.import_module("dip")
    if args.agent:
        clock = "wall" if args.wall else "CPU time"
        by = args.alternate or "game"
        runs = agent_passes(args.games, args.passes, args.max_phases, clock_of, args.seed, args.only, by)
        later = runs[1:] or runs
        if args.only:
            print("MILA's README agent, %d games of at most %d phases, %s alone"
                  % (args.games, args.max_phases, "MILA" if args.only == "mila" else "dip"))
            at = 0 if args.only == "mila" else 2
            for k, r in enumerate(runs):
                print("pass %d (%s): %.1f us/phase (%d phases)" % (k + 1, clock, r[at] / r[at + 1] * 1e6, r[at + 1]))
            print("README agent loop, median of passes %d-%d (%s): %.1f us/phase"
                  % (len(runs) - len(later) + 1, len(runs), clock,
                     statistics.median(r[at] / r[at + 1] for r in later) * 1e6))
            return
        print("MILA's README agent, %d games of at most %d phases, both engines in this process, "
              "%s by %s, PYTHONHASHSEED=%s" % (args.games, args.max_phases, by, by,
                                               os.environ.get("PYTHONHASHSEED", "unset")))
        for k, (m, mn, d, dn) in enumerate(runs):
            print("pass %d (%s): MILA %.0f us/phase (%d phases), dip %.1f us/phase (%d phases), %.0fx"
                  % (k + 1, clock, m / mn * 1e6, mn, d / dn * 1e6, dn, (m / mn) / (d / dn)))
        m = statistics.median(r[0] / r[1] for r in later)
        d = statistics.median(r[2] / r[3] for r in later)
        print("README agent loop, median of passes %d-%d (%s): MILA %.0f us/phase, dip %.1f us/phase, %.0fx"
              % (len(runs) - len(later) + 1, len(runs), clock, m * 1e6, d * 1e6, m / d))
        return
    games = record_games(args.games, args.until, args.seed)
    if args.dump:
        with open(args.dump, "w") as out:
            write_games(games, out)
    phases = sum(len(g) for g in games)
    print("%d games, %d phases (MILA's random orders)" % (len(games), phases))
    us = lambda seconds: seconds / phases * 1e6
    clock = "wall" if args.wall else "CPU time"
    if args.processes:
        runs = in_processes(games, args.passes, args.wall)
        print("MILA and dip alternating pass by pass, each pass in a process of its own after an untimed pass")
    else:
        by = args.alternate or "pass"
        runs = alternating(games, args.passes, clock_of, by)
        print("MILA and dip alternating %s by %s" % (by, by))
    for k, (mila_s, dip_s) in enumerate(runs):
        print("pass %d (%s): MILA %.0f us/phase, dip %.1f us/phase, %.0fx%s"
              % (k + 1, clock, us(mila_s), us(dip_s), mila_s / dip_s,
                 "  (first: dip's tables cold)" if k == 0 and not args.processes else ""))
    later = runs if args.processes else runs[1:] or runs
    mila_m = statistics.median(m for m, _ in later)
    dip_m = statistics.median(d for _, d in later)
    print("agent loop, median of passes %s (%s): MILA %.0f us/phase, dip %.1f us/phase, %.0fx"
          % ("%d-%d" % (len(runs) - len(later) + 1, len(runs)) if len(runs) > 1 else "1",
             clock, us(mila_m), us(dip_m), mila_m / dip_m))
    print("making a game (not in the loop): MILA %.0f us, dip %.0f us"
          % (one_off(diplomacy.Game), one_off(dip.Game)))
    mila_p, n = process_only(diplomacy.Game, games)
    dip_p, _ = process_only(dip.Game, games)
    print("process(): MILA %.0f us/phase, dip %.1f us/phase, %.0fx"
          % (mila_p / n * 1e6, dip_p / n * 1e6, mila_p / dip_p))
    # Many games at once: one process_multi call per phase for all games
    # (only the call is timed), against process() one game after another.
    for label, run in (("process() one by one", lambda batch: [g.process() for g in batch]),
                       ("process_multi", dip.process_multi)):
        live = [dip.Game() for _ in games]
        spent, steps = 0.0, 0
        for k in range(max(len(g) for g in games)):
            batch = []
            for game, g in zip(live, games):
                if k < len(g):
                    for power, o in g[k][1].items():
                        game.set_orders(power, o)
                    batch.append(game)
            t = time.perf_counter()
            run(batch)
            spent += time.perf_counter() - t
            steps += len(batch)
        print("%s: dip %.1f us/phase over %d games" % (label, spent / steps * 1e6, len(live)))

if __name__ == "__main__":
    main()
