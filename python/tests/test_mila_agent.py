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

# MILA ships these maps' convoy paths. On ancmed MILA plays with the convoy
# paths corrected for its port, Baleares (docs/python.md, "Where MILA is
# wrong"); a difference after a phase counts only if MILA with its faults
# corrected does not give dip's position either.
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


# The agent on dip.Game (the long run's default, `--driver dip`): its raw
# orders come from dip's possible orders and go to MILA unchanged; here the
# possible orders are compared on every phase.
DIP_DRIVEN_GAMES = 14


@pytest.mark.parametrize('n', range(DIP_DRIVEN_GAMES))
def test_readme_agent_on_dip_played_the_same_game_on_mila(n):
    map_name = CI_MAPS[n % len(CI_MAPS)]
    phases, problem = compare.play_dip_driven(2000 + n, map_name, PHASES)
    assert problem is None, '%s seed %d: %s' % (map_name, 2000 + n, problem)
    assert phases > 0


# MILA computes the convoy paths of these maps for minutes the first time
# they are used (World: more than ten) and keeps them in ~/.cache/diplomacy,
# which CI may not have; and with them, MILA reads World's table of 216,000
# routes in every position. Here the comparison's MILA finds the same
# routes on the board in each position instead (test_mila_faults.py checks
# that they are MILA's table there), which costs a few seconds; the long
# runs of BENCHMARKS.md use MILA's own table.
SLOW_MAPS = ['colonial', 'empire', 'world']
compare.BOARD_CONVOYS.update(SLOW_MAPS)


@pytest.mark.parametrize('n', range(2 * len(SLOW_MAPS)))
def test_readme_agent_played_the_same_game_on_both_engines_on_the_large_maps(n):
    map_name = SLOW_MAPS[n % len(SLOW_MAPS)]
    phases, problem = compare.play(3000 + n, map_name, PHASES)
    assert problem is None, '%s seed %d: %s' % (map_name, 3000 + n, problem)
    assert phases > 0


@pytest.mark.parametrize('map_name', SLOW_MAPS)
def test_readme_agent_on_dip_played_the_same_game_on_mila_on_the_large_maps(map_name):
    phases, problem = compare.play_dip_driven(4000, map_name, PHASES)
    assert problem is None, '%s seed 4000: %s' % (map_name, problem)
    assert phases > 0


class _MilaDroppingLastOrder(compare.diplomacy.Game):
    """MILA's Game that loses the last order of each set_orders call from
    the third phase on: a difference the comparison must report."""

    def set_orders(self, power_name, orders, expand=True, replace=True):
        if len(self.state_history) >= 2 and len(orders) > 1:
            orders = orders[:-1]
        return super().set_orders(power_name, orders, expand=expand, replace=replace)


class _MilaMissingAnOrder(compare.diplomacy.Game):
    """MILA's Game whose possible orders lack one order of Paris."""

    def get_all_possible_orders(self):
        possible = super().get_all_possible_orders()
        possible['PAR'] = sorted(possible['PAR'])[1:]
        return possible


@pytest.mark.parametrize('kind', [_MilaDroppingLastOrder, _MilaMissingAnOrder])
def test_the_comparison_driven_by_dip_reports_a_difference(monkeypatch, kind):
    monkeypatch.setattr(compare, 'mila_game', lambda map_name: kind(map_name=map_name))
    phases, problem = compare.play_dip_driven(2000, 'standard', PHASES)
    assert problem is not None
    if kind is _MilaMissingAnOrder:
        assert phases == 0 and 'possible orders of PAR' in problem, problem
