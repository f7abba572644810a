#!/usr/bin/env python3
"""MILA's README agent on dip.Game: the games of `python-bench.py --agent`
(its `readme_agent`, seeds 1901-1910, at most 200 phases each), played N
times (default 10). For counting instructions, which unlike timings on a
shared machine repeat exactly:

    valgrind --tool=callgrind python3 scripts/readme-agent.py 2
    callgrind_annotate --inclusive=yes callgrind.out.* | head -60
"""
import importlib.util
import os
import sys
import time

import dip

spec = importlib.util.spec_from_file_location(
    "python_bench", os.path.join(os.path.dirname(os.path.abspath(__file__)), "python-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

if __name__ == "__main__":
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 10):
        for g in range(10):
            bench.readme_agent(dip.Game, 1901 + g, 200, time.perf_counter)
