"""MILA's Renderer, unchanged from the installed `diplomacy` package, on a
dip game: it draws each phase of a random game (units, dislodged units,
centres, influence, the orders given, retreats and builds) exactly as it
draws MILA's game, and `dip.Game.render` gives the same SVG text. Skipped
without MILA, except under DIP_REQUIRE_MILA=1 (scripts/python-tests.sh)."""
import random

import pytest

import dip
from _mila import mila_module

diplomacy = mila_module('diplomacy')
renderer = mila_module('diplomacy.engine.renderer')

# The maps MILA has pictures of, and one that borrows the standard one's
# (as the two-power games do). MILA draws slowly: the first year only.
MAPS = ['standard', 'ancmed', 'modern', 'pure', 'standard_fleet_rome']
PHASES = 5


@pytest.mark.parametrize('name', MAPS)
def test_milas_renderer_draws_a_dip_game_as_milas(name):
    rng = random.Random(7)
    mila, ours = diplomacy.Game(map_name=name), dip.Game(map_name=name)
    kinds = set()
    for _ in range(PHASES):
        possible = mila.get_all_possible_orders()
        for power in mila.powers:
            orders = [rng.choice(sorted(possible[loc])) for loc in mila.get_orderable_locations(power)
                      if possible[loc]]
            mila.set_orders(power, orders)
            ours.set_orders(power, orders)
        phase = mila.get_current_phase()
        kinds.add(phase[-1])
        assert ours.get_state()['influence'] == mila.get_state()['influence'], phase
        drawn = mila.render(incl_orders=True)
        assert drawn and renderer.Renderer(ours).render(incl_orders=True) == drawn, phase
        assert ours.render() == drawn, phase
        mila.process()
        ours.process()
    assert kinds >= {'M', 'A'}, kinds
    assert ours.render(incl_orders=False, incl_abbrev=True) == mila.render(incl_orders=False, incl_abbrev=True)


def test_render_writes_the_svg_to_output_path(tmp_path):
    game = dip.Game()
    game.set_orders('FRANCE', ['A PAR - BUR', 'A MAR S A PAR - BUR', 'F BRE - MAO'])
    path = tmp_path / 'board.svg'
    svg = game.render(output_path=str(path))
    assert svg.startswith('<?xml') and '<svg' in svg
    assert path.read_text() == svg


def test_order_words_as_milas_renderer_reads_them():
    mila, ours = diplomacy.Game(), dip.Game()
    for order in ['A PAR - BUR', 'A MAR S A PAR - BUR', 'ENGLAND: F LON - NTH', 'A LVP - NWY VIA',
                  'F EDI C A LVP - NWY', 'A PAR S A MAR H', 'F GRE - BUL', 'A LON - NTH - NWY', 'A MUN H',
                  'A PAR B', 'F STP/SC - BOT', 'A VIE S BUD', 'F ANK S SMY - CON', 'F STP - BOT']:
        words = order.split()
        assert ours._add_unit_types(ours._expand_order(words)) == mila._add_unit_types(mila._expand_order(words)), \
            order
