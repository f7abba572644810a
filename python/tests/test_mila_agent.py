"""MILA's README agent on both engines, its raw orders (WAIVE, extra
builds) given to each: the short run of scripts/mila-agent-compare.py
(the long one, and its figures, are in BENCHMARKS.md). Every phase's
possible orders, orderable locations, orders kept, units and centres must
agree."""
import importlib.util
import pathlib

import pytest

from _mila import mila_module

mila_module('diplomacy')

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / 'scripts' / 'mila-agent-compare.py'
_spec = importlib.util.spec_from_file_location('mila_agent_compare', SCRIPT)
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)

# MILA ships these maps' convoy paths; the others (colonial, empire, world)
# make MILA compute them for minutes on first use, so they run in the long
# run only. On ancmed MILA plays with the convoy paths corrected for its
# port, Baleares (docs/python.md, "Where MILA is wrong"); a difference
# after a phase counts only if MILA with its faults corrected does not
# give dip's position either.
CI_MAPS = ['standard', 'ancmed', 'modern', 'pure', 'standard_fleet_rome', 'standard_france_austria',
           'standard_germany_italy']
GAMES = 50
# Phases per game: the first years, where most adjustments are (lean CI).
PHASES = 40


@pytest.mark.parametrize('n', range(GAMES))
def test_readme_agent_played_the_same_game_on_both_engines(n):
    map_name = CI_MAPS[n % len(CI_MAPS)]
    phases, problem = compare.play(1000 + n, map_name, PHASES)
    assert problem is None, '%s seed %d: %s' % (map_name, 1000 + n, problem)
    assert phases > 0
