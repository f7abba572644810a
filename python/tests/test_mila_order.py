"""Lists and dicts in MILA's order: outside code indexes into them (a Gym
environment builds its observation vectors from `game.map` and the
game's units), so dip.Game must give them in the order MILA 1.1.2 does
for the same game, not only with the same members. Skipped without MILA,
except under DIP_REQUIRE_MILA=1 (scripts/python-tests.sh).

The order of MILA's map files, which dip's variants do not keep, comes
from python/dip/mila_order/ (the neighbours within `loc_abut[loc]`,
`loc_name`, `scs`, `homes`). Not compared: the starting centres on the
maps outside CENTRES_IN_ORDER, and the orders within each location's list
of `get_all_possible_orders()`, which MILA lists in the order of a Python
set (they are compared as sets)."""
import random

import pytest

import dip
from _mila import mila_module
from test_dip import MILA_MAPS

diplomacy = mila_module('diplomacy')

# MILA computes these maps' convoy paths for minutes the first time a game
# is made on them (its Map alone is quick).
SLOW_MAPS = {'colonial', 'empire', 'world'}
# Phases played: two years and the winters between (builds, disbands).
PHASES = 12
# Maps whose starting centres and unowned centres dip lists in MILA's
# order too (elsewhere MILA follows its file's lines of powers and of
# unowned centres, which dip's variants do not keep).
CENTRES_IN_ORDER = {'standard', 'pure', 'standard_fleet_rome'}


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_map_lists_locations_in_milas_order(name):
    ours, mila = dip.Map(name), diplomacy.Map(name)
    assert ours.locs == mila.locs
    assert ours.powers == mila.powers
    for attr in ('loc_type', 'loc_abut', 'loc_coasts'):
        assert list(getattr(ours, attr)) == list(getattr(mila, attr)), attr


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_map_values_are_milas_in_milas_order(name):
    ours, mila = dip.Map(name), diplomacy.Map(name)
    for loc, near in mila.loc_abut.items():
        assert ours.loc_abut[loc] == near, loc
    assert list(ours.loc_name.items()) == list(mila.loc_name.items())
    assert ours.scs == mila.scs
    assert list(ours.homes.items()) == list(mila.homes.items())


def _agent_orders(game, rng):
    """MILA's README agent, drawing from sorted lists so that the draw is
    the same on both engines."""
    possible = game.get_all_possible_orders()
    return {p: [rng.choice(sorted(possible[loc])) for loc in game.get_orderable_locations(p) if possible[loc]]
            for p in game.powers}


@pytest.mark.parametrize('name', sorted(set(MILA_MAPS) - SLOW_MAPS))
def test_game_lists_in_milas_order_along_a_random_game(name):
    rng = random.Random(25)
    mila, ours = diplomacy.Game(map_name=name), dip.Game(map_name=name)
    assert ours.map.locs == mila.map.locs
    for _ in range(PHASES):
        phase = mila.get_current_phase()
        assert ours.get_current_phase() == phase
        assert list(ours.powers) == list(mila.powers), phase
        assert ours.get_units() == mila.get_units(), phase
        if name in CENTRES_IN_ORDER:
            assert ours.get_centers() == mila.get_centers(), phase
        for power in mila.powers:
            assert ours.powers[power].units == mila.powers[power].units, (phase, power)
            assert ours.get_orderable_locations(power) == mila.get_orderable_locations(power), (phase, power)
        assert ours.get_orderable_locations() == mila.get_orderable_locations(), phase
        assert ours.get_state()['units'] == mila.get_state()['units'], phase
        theirs, mine = mila.get_all_possible_orders(), ours.get_all_possible_orders()
        assert list(mine) == list(theirs), phase
        assert {loc: sorted(o) for loc, o in mine.items()} == {loc: sorted(o) for loc, o in theirs.items()}, phase
        for power, orders in _agent_orders(mila, rng).items():
            mila.set_orders(power, orders)
            ours.set_orders(power, orders)
        for power in mila.powers:
            assert ours.get_orders(power) == mila.get_orders(power), (phase, power)
        mila.process()
        ours.process()
        if mila.is_game_done:
            break
