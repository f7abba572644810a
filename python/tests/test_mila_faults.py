"""Where MILA's engine is wrong by the rules, and dip.Game is not
(docs/python.md, "Where MILA is wrong"): each fault shown on a small
position, on MILA as installed, on dip.Game, and on MILA as the agent
comparison (scripts/mila-agent-compare.py) corrects it, which must then
agree with dip. Should a fault disappear from MILA, its test fails."""
import copy
import functools
import importlib.util
import pathlib

import pytest

from _mila import mila_module

diplomacy = mila_module('diplomacy')

import dip  # noqa: E402

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / 'scripts' / 'mila-agent-compare.py'
_spec = importlib.util.spec_from_file_location('mila_agent_compare', SCRIPT)
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)


def _position(game, units):
    game.clear_units()
    for power, us in units.items():
        game.set_units(power, us)
    return game


def _played(game, orders):
    for power, os in orders.items():
        game.set_orders(power, os)
    game.process()
    return {p: sorted(u) for p, u in game.get_units().items() if u}


# England convoys an army into Belgium, held by France, and France itself
# supports the attack: a power's support never helps to dislodge its own
# unit (DATC 6.D.12, 6.E.5), convoyed or not.
VIA_UNITS = {'ENGLAND': ['A LON', 'F NTH'], 'FRANCE': ['A BEL', 'A PIC']}
ENGLAND_VIA = ['A LON - BEL VIA', 'F NTH C A LON - BEL']
FRANCE_HELPS = ['A BEL H', 'A PIC S A LON - BEL']
BOUNCED = {'ENGLAND': ['A LON', 'F NTH'], 'FRANCE': ['A BEL', 'A PIC']}


def test_mila_counts_the_defenders_own_support_for_a_move_written_with_via():
    mila = _position(diplomacy.Game(), VIA_UNITS)
    played = _played(mila, {'ENGLAND': ENGLAND_VIA, 'FRANCE': FRANCE_HELPS})
    assert played == {'ENGLAND': ['A BEL', 'F NTH'], 'FRANCE': ['*A BEL', 'A PIC']}, played


def test_without_via_mila_does_not_count_it():
    mila = _position(diplomacy.Game(), VIA_UNITS)
    played = _played(mila, {'ENGLAND': ['A LON - BEL', 'F NTH C A LON - BEL'], 'FRANCE': FRANCE_HELPS})
    assert played == BOUNCED, played


def test_dip_and_corrected_mila_never_count_the_defenders_own_support():
    ours = _position(dip.Game(), VIA_UNITS)
    assert _played(ours, {'ENGLAND': ENGLAND_VIA, 'FRANCE': FRANCE_HELPS}) == BOUNCED
    mila = _position(diplomacy.Game(), VIA_UNITS)
    compare.fix_via_own_support(mila)
    assert _played(mila, {'ENGLAND': ENGLAND_VIA, 'FRANCE': FRANCE_HELPS}) == BOUNCED


# Ancient Mediterranean: Carthage's army in Carthago, fleets in the Berber
# Sea and in Baleares (a port, where fleets convoy). The route to Tarraco
# is Berber Sea, then Baleares: the port is the second fleet of the chain.
PORT_UNITS = {'CARTHAGE': ['A CAR', 'F BER', 'F BAL']}
PORT_CONVOY = ['A CAR - TAR VIA', 'F BER C A CAR - TAR', 'F BAL C A CAR - TAR']


def test_mila_lets_a_port_convoy_only_as_the_first_fleet_of_a_chain():
    mila = _position(diplomacy.Game(map_name='ancmed'), PORT_UNITS)
    possible = mila.get_all_possible_orders()
    assert 'F BAL C A CAR - TAR' not in possible['BAL']
    assert 'A CAR - TAR VIA' not in possible['CAR']
    # The other way round the port is the first fleet: listed.
    mila = _position(diplomacy.Game(map_name='ancmed'), {'CARTHAGE': ['A TAR', 'F BER', 'F BAL']})
    assert 'F BAL C A TAR - CAR' in mila.get_all_possible_orders()['BAL']


def test_dip_and_corrected_mila_convoy_through_a_port_anywhere_in_the_chain():
    ours = _position(dip.Game(map_name='ancmed'), PORT_UNITS)
    possible = ours.get_all_possible_orders()
    assert 'F BAL C A CAR - TAR' in possible['BAL'] and 'A CAR - TAR VIA' in possible['CAR']
    assert _played(ours, {'CARTHAGE': PORT_CONVOY}) == {'CARTHAGE': ['A TAR', 'F BAL', 'F BER']}
    mila = _position(compare.mila_game('ancmed'), PORT_UNITS)
    possible = mila.get_all_possible_orders()
    assert 'F BAL C A CAR - TAR' in possible['BAL'] and 'A CAR - TAR VIA' in possible['CAR']
    assert _played(mila, {'CARTHAGE': PORT_CONVOY}) == {'CARTHAGE': ['A TAR', 'F BAL', 'F BER']}


# Russia's army goes to Belgium through England's fleet in the North Sea,
# which Russia attacks with England's own support; Germany also moves to
# Belgium. A power's support never helps to dislodge its own unit (DATC
# 6.D.12), so the fleet is not dislodged and the convoy stands (only a
# dislodged fleet disrupts a convoy): both armies bounce.
OWN_SUPPORT_UNITS = {'ENGLAND': ['F NTH', 'F LON'], 'RUSSIA': ['A NWY', 'F SKA'], 'GERMANY': ['A RUH']}
OWN_SUPPORT_ORDERS = {'ENGLAND': ['F NTH C A NWY - BEL', 'F LON S F SKA - NTH'],
                      'RUSSIA': ['A NWY - BEL VIA', 'F SKA - NTH'], 'GERMANY': ['A RUH - BEL']}


def test_mila_disrupts_a_convoy_whose_fleet_is_attacked_with_its_own_powers_support():
    # Met in the long agent run: standard_fleet_rome, seed 100032, F1923M.
    game = _position(diplomacy.Game(), OWN_SUPPORT_UNITS)
    assert _played(game, OWN_SUPPORT_ORDERS)['GERMANY'] == ['A BEL']
    assert [str(r) for r in game.get_order_status()['ENGLAND']['F NTH']] == ['disrupted']


def test_dip_keeps_the_convoy_of_a_fleet_its_own_powers_support_cannot_dislodge():
    game = _position(dip.Game(), OWN_SUPPORT_UNITS)
    units = _played(game, OWN_SUPPORT_ORDERS)
    assert units['GERMANY'] == ['A RUH'] and units['RUSSIA'] == ['A NWY', 'F SKA']
    assert game.get_order_status()['ENGLAND']['F NTH'] == []


def test_corrected_mila_keeps_the_convoy_as_dip_does():
    game = _position(compare.mila_game('standard'), OWN_SUPPORT_UNITS)
    compare.fix_convoy_own_support(game)
    assert _played(game, OWN_SUPPORT_ORDERS) == _played(_position(dip.Game(), OWN_SUPPORT_UNITS), OWN_SUPPORT_ORDERS)


# England's army, convoyed to Belgium with support, dislodges France's; every
# place next to Belgium that an army could reach is held (Burgundy, Holland,
# Picardy, Ruhr). The army has nowhere to retreat and is destroyed; a
# convoyed attack only opens the attacker's origin (London, not next to it).
CONVOYED_UNITS = {'ENGLAND': ['A LON', 'F NTH', 'A PIC'], 'FRANCE': ['A BEL', 'A BUR'],
                  'GERMANY': ['A HOL', 'A RUH']}
CONVOYED_ORDERS = {'ENGLAND': ['A LON - BEL VIA', 'F NTH C A LON - BEL', 'A PIC S A LON - BEL']}


def test_mila_lets_a_unit_dislodged_by_a_convoyed_army_retreat_into_held_places():
    # MILA's _move_results allows a retreat where
    # `not combat and where != attacker_site or moving_via_convoy(attacker)`:
    # by Python's precedence a convoyed attacker opens every neighbour.
    # Met in the long agent run: colonial, seed 100420, F1883M.
    game = _position(diplomacy.Game(), CONVOYED_UNITS)
    _played(game, CONVOYED_ORDERS)
    assert game.get_current_phase() == 'S1901R'
    assert game.get_state()['retreats']['FRANCE'] == {'A BEL': ['BUR', 'HOL', 'PIC', 'RUH']}


def test_dip_destroys_a_unit_dislodged_by_a_convoyed_army_with_nowhere_to_go():
    game = _position(dip.Game(), CONVOYED_UNITS)
    units = _played(game, CONVOYED_ORDERS)
    assert units['FRANCE'] == ['A BUR'] and game.popped == ['A BEL']
    assert game.get_current_phase() == 'F1901M'


def test_corrected_mila_destroys_the_unit_as_dip_does():
    game = _position(compare.mila_game('standard'), CONVOYED_UNITS)
    compare.fix_convoyed_retreats(game)
    ours = _position(dip.Game(), CONVOYED_UNITS)
    assert _played(game, CONVOYED_ORDERS) == _played(ours, CONVOYED_ORDERS)
    assert game.get_current_phase() == ours.get_current_phase() == 'F1901M' and game.popped == ['A BEL']


def test_corrected_mila_still_opens_the_convoyed_attackers_origin():
    units = {'ENGLAND': ['A HOL', 'F NTH', 'A PIC'], 'FRANCE': ['A BEL', 'A BUR'], 'GERMANY': ['A RUH']}
    orders = {'ENGLAND': ['A HOL - BEL VIA', 'F NTH C A HOL - BEL', 'A PIC S A HOL - BEL']}
    game = _position(compare.mila_game('standard'), units)
    compare.fix_convoyed_retreats(game)
    ours = _position(dip.Game(), units)
    _played(game, orders)
    _played(ours, orders)
    assert game.get_state()['retreats']['FRANCE'] == ours.get_state()['retreats']['FRANCE'] == {'A BEL': ['HOL']}


# England's army in Picardy moves to Belgium, next door, with its own
# fleet in the Channel convoying it; France dislodges the fleet. A fleet
# of the army's own power convoys it, so the convoy is used and the land
# route disregarded (DATC 4.A.3, 2000 and 2023 rules): the army stays.
OWN_CONVOY_UNITS = {'ENGLAND': ['A PIC', 'F ENG'], 'FRANCE': ['F MAO', 'F BRE']}
OWN_CONVOY_ORDERS = {'ENGLAND': ['A PIC - BEL', 'F ENG C A PIC - BEL'], 'FRANCE': ['F MAO - ENG', 'F BRE S F MAO - ENG']}
ARMY_STAYED = {'ENGLAND': ['*F ENG', 'A PIC'], 'FRANCE': ['F BRE', 'F ENG']}


def test_mila_takes_the_land_route_when_an_own_convoy_is_disrupted():
    played = _played(_position(diplomacy.Game(), OWN_CONVOY_UNITS), OWN_CONVOY_ORDERS)
    assert played == {'ENGLAND': ['*F ENG', 'A BEL'], 'FRANCE': ['F BRE', 'F ENG']}, played


def test_dip_and_corrected_mila_keep_the_army_whose_own_convoy_was_disrupted():
    assert _played(_position(dip.Game(), OWN_CONVOY_UNITS), OWN_CONVOY_ORDERS) == ARMY_STAYED
    mila = _position(diplomacy.Game(), OWN_CONVOY_UNITS)
    compare.fix_own_convoy_land_route(mila)
    assert _played(mila, OWN_CONVOY_ORDERS) == ARMY_STAYED


def test_corrected_mila_still_takes_the_land_route_of_a_foreign_convoy():
    # France's fleet convoys England's army unasked and Germany dislodges
    # it: the land route is used (and succeeds), on MILA, corrected MILA
    # and dip alike.
    units = {'ENGLAND': ['A PIC'], 'FRANCE': ['F ENG'], 'GERMANY': ['F MAO', 'F IRI']}
    orders = {'ENGLAND': ['A PIC - BEL'], 'FRANCE': ['F ENG C A PIC - BEL'],
              'GERMANY': ['F MAO - ENG', 'F IRI S F MAO - ENG']}
    moved = {'ENGLAND': ['A BEL'], 'FRANCE': ['*F ENG'], 'GERMANY': ['F ENG', 'F IRI']}
    assert _played(_position(diplomacy.Game(), units), orders) == moved
    mila = _position(diplomacy.Game(), units)
    compare.fix_own_convoy_land_route(mila)
    assert _played(mila, orders) == moved
    assert _played(_position(dip.Game(), units), orders) == moved


# A head-to-head battle: Austria's A TRI - VEN has France's support and
# Italy's own (which cannot dislodge Italy's army: attack strength 2);
# Italy's A VEN - TRI has Austria's (defend strength 2). The DATC weighs
# each move's attack strength against the other's defend strength, which
# counts every support: 2 against 2, both armies stay. MILA weighs the two
# attack strengths against each other (2 against 1) and dislodges Venice.
# Found by the long agent run (standard seed 305154, F1905M).
HEAD_TO_HEAD_UNITS = {'AUSTRIA': ['A TRI', 'A BUD'], 'ITALY': ['A VEN', 'A ROM'], 'FRANCE': ['A PIE']}
HEAD_TO_HEAD_ORDERS = {'AUSTRIA': ['A TRI - VEN', 'A BUD S A VEN - TRI'],
                       'ITALY': ['A VEN - TRI', 'A ROM S A TRI - VEN'],
                       'FRANCE': ['A PIE S A TRI - VEN']}


def test_mila_weighs_attack_against_attack_in_a_head_to_head_battle():
    mila = _position(diplomacy.Game(), HEAD_TO_HEAD_UNITS)
    played = _played(mila, HEAD_TO_HEAD_ORDERS)
    assert played == {'AUSTRIA': ['A BUD', 'A VEN'], 'FRANCE': ['A PIE'], 'ITALY': ['*A VEN', 'A ROM']}, played


def test_dip_weighs_each_attack_against_the_others_defence():
    ours = _position(dip.Game(), HEAD_TO_HEAD_UNITS)
    played = _played(ours, HEAD_TO_HEAD_ORDERS)
    assert played == {'AUSTRIA': ['A BUD', 'A TRI'], 'FRANCE': ['A PIE'], 'ITALY': ['A ROM', 'A VEN']}, played


def test_corrected_mila_weighs_attack_against_defence_as_dip_does():
    mila = _position(diplomacy.Game(), HEAD_TO_HEAD_UNITS)
    compare.fix_head_to_head(mila)
    played = _played(mila, HEAD_TO_HEAD_ORDERS)
    assert played == {'AUSTRIA': ['A BUD', 'A TRI'], 'FRANCE': ['A PIE'], 'ITALY': ['A ROM', 'A VEN']}, played


def test_corrected_mila_still_dislodges_the_weaker_of_a_head_to_head_battle():
    # Without Austria's support of Venice the attack on Venice (2) beats its
    # defence (1): the Italian army is dislodged in both engines.
    orders = dict(HEAD_TO_HEAD_ORDERS, AUSTRIA=['A TRI - VEN', 'A BUD H'])
    dislodged = {'AUSTRIA': ['A BUD', 'A VEN'], 'FRANCE': ['A PIE'], 'ITALY': ['*A VEN', 'A ROM']}
    mila = _position(diplomacy.Game(), HEAD_TO_HEAD_UNITS)
    compare.fix_head_to_head(mila)
    assert _played(mila, orders) == dislodged
    assert _played(_position(dip.Game(), HEAD_TO_HEAD_UNITS), orders) == dislodged


# World: Pacific Russia's army in Alaska and fourteen of its fleets in a
# chain across the Pacific, the Indian Ocean and the Atlantic to the
# Mediterranean, the only route to Turkey. A convoy may be of any length
# (DATC v3.0, 4.A.1: any route of fleets will do); MILA's convoy-path
# search stops at 13 fleets (MAX_CONVOY_LENGTH, "to reduce generation
# time"), so MILA neither lists nor keeps the move and the convoys, and
# the army stays. Met in the long agent run on World (seed 320001,
# F2024M: `F NWA C A ONT - KAM`, whose minimal routes through NWA are of
# 14 fleets; seed 320011, S2008M: the fleets convoying Alaska's army).
LONG_CHAIN = ['NPO', 'NEP', 'EPA', 'SPO', 'SWP', 'SEI', 'NEI', 'NWI', 'SWI', 'SEA', 'SWA', 'WAO', 'NEA', 'MED']
LONG_UNITS = {'PACIFICRUSSIA': ['A ALA'] + ['F ' + sea for sea in LONG_CHAIN]}
LONG_ORDERS = {'PACIFICRUSSIA': ['A ALA - TRK VIA'] + ['F %s C A ALA - TRK' % sea for sea in LONG_CHAIN]}
LONG_ARRIVED = {'PACIFICRUSSIA': sorted(['A TRK'] + ['F ' + sea for sea in LONG_CHAIN])}


class _Quiet:
    """The progress queue MILA's convoy-path search reports to."""

    def put(self, _):
        pass


class _SeasShut:
    """MILA's Map with every sea but `open_seas` shut, for MILA's own search."""

    def __init__(self, mila_map, open_seas):
        self.mila_map, self.open_seas, self.locs = mila_map, open_seas, mila_map.locs

    def area_type(self, loc):
        kind = self.mila_map.area_type(loc)
        return 'SHUT' if kind == 'WATER' and loc.upper() not in self.open_seas else kind

    def abut_list(self, *args, **kwargs):
        return self.mila_map.abut_list(*args, **kwargs)


def _milas_search(mila_map, fleets, max_length):
    """MILA's own convoy-path search (diplomacy.utils.convoy_paths) from every
    coast, through the seas of `fleets` only, chains of up to `max_length`
    fleets: its table of routes as entries (start, {fleets}, {destinations})."""
    from diplomacy.utils import convoy_paths
    shut = _SeasShut(mila_map, set(fleets))
    return [entry for loc in mila_map.locs if '/' not in loc
            for entry in convoy_paths._get_convoy_paths(shut, loc.upper(), max_length, _Quiet())]


@functools.lru_cache(maxsize=1)
def _world():
    """MILA's Map of World made without its convoy paths (quick)."""
    from diplomacy.engine import map as mila_maps
    # MILA's Map.__init__ leaves a map whose name is in MILA's cache empty,
    # even with use_cache=False (as after test_mila_compare.py's Maps).
    cached = mila_maps.MAP_CACHE.pop('world', None)
    try:
        world = mila_maps.Map('world', use_cache=False)
    finally:
        if cached is not None:
            mila_maps.MAP_CACHE['world'] = cached
    world.convoy_paths = {}
    return world


@functools.lru_cache(maxsize=1)
def _world_for_the_chain():
    """MILA's Map of World whose table of convoy paths is MILA's own search
    run through the chain's seas only: all of MILA's table that these
    fleets can use. (MILA computes World's whole table for more than ten
    minutes when it has no cache.)"""
    from diplomacy.utils import convoy_paths
    world = copy.deepcopy(_world())
    table = {n: [] for n in range(1, len(world.locs) + 1)}
    for start, fleets, dests in _milas_search(world, LONG_CHAIN, convoy_paths.MAX_CONVOY_LENGTH):
        table[len(fleets)].append((start, fleets, dests))
    world.convoy_paths = table
    return world


def _mila_world(monkeypatch, game_class):
    """A MILA game on World with the chain's position."""
    from diplomacy.engine import map as mila_maps
    monkeypatch.setitem(mila_maps.MAP_CACHE, 'world', _world_for_the_chain())
    return _position(game_class(map_name='world'), LONG_UNITS)


def _orders_kept(game, orders):
    for power, os in orders.items():
        game.set_orders(power, os)
    return sorted(game.get_orders()['PACIFICRUSSIA'])


def test_mila_leaves_out_a_convoy_of_more_than_thirteen_fleets(monkeypatch):
    mila = _mila_world(monkeypatch, diplomacy.Game)
    possible = mila.get_all_possible_orders()
    assert 'A ALA - TRK VIA' not in possible['ALA']
    assert not [o for o in possible['MED'] if ' C A ALA - ' in o]
    assert _orders_kept(mila, LONG_ORDERS) == []
    assert _played(mila, LONG_ORDERS) == {'PACIFICRUSSIA': sorted(LONG_UNITS['PACIFICRUSSIA'])}


def test_dip_and_corrected_mila_convoy_through_fourteen_fleets(monkeypatch):
    ours = _position(dip.Game(map_name='world'), LONG_UNITS)
    mila = _mila_world(monkeypatch, compare._LongConvoysFixed)
    for game in (ours, mila):
        possible = game.get_all_possible_orders()
        assert 'A ALA - TRK VIA' in possible['ALA']
        assert all('F %s C A ALA - TRK' % sea in possible[sea] for sea in LONG_CHAIN)
        assert _orders_kept(game, LONG_ORDERS) == sorted(LONG_ORDERS['PACIFICRUSSIA'])
        assert _played(game, LONG_ORDERS) == LONG_ARRIVED


# The fleets on the board at World seed 320001's F2024M (25 seas), where
# MILA first left out convoys of 14 fleets (`F NWA C A ONT - KAM`).
SEED_320001_FLEETS = ['BLA', 'BRS', 'CSE', 'EAO', 'HBA', 'JSE', 'LSE', 'MED', 'NEA', 'NEI', 'NEP', 'NPO', 'NWA',
                      'NWG', 'PIS', 'RSE', 'SCS', 'SEA', 'SEI', 'SIO', 'SOO', 'SWA', 'SWI', 'WAO', 'YSE']


@pytest.mark.parametrize('fleets', [LONG_CHAIN, SEED_320001_FLEETS], ids=['chain', 'seed320001'])
def test_the_long_convoys_added_are_milas_own_search_without_its_cap(fleets):
    # The correction finds the minimal routes of more than 13 fleets among
    # the fleets on the board; MILA's own search with the cap lifted finds
    # the same, and nothing of 13 or fewer is added.
    world = _world()
    theirs = [e for e in _milas_search(world, fleets, len(fleets)) if len(e[1]) > 13]
    ours = compare.long_convoy_paths(world, set(fleets))
    key = sorted((start, sorted(path), sorted(dests)) for start, path, dests in theirs)
    assert key and sorted((start, sorted(path), sorted(dests)) for start, path, dests in ours) == key


def test_the_comparison_counts_a_long_convoy_as_milas_fault_and_reports_it_uncorrected(monkeypatch):
    # Corrected, the engines agree and the phase counts as explained (MILA
    # as shipped, replayed, keeps other orders); as shipped, the orders
    # MILA keeps differ from dip's and the comparison reports it.
    for game_class, corrected in ((compare._LongConvoysFixed, True), (diplomacy.Game, False)):
        mila = _mila_world(monkeypatch, game_class)
        ours = _position(dip.Game(map_name='world'), LONG_UNITS)
        state, phase, explained = mila.get_state(), mila.get_current_phase(), []
        _, problem = compare.play_phase('world', phase, LONG_ORDERS, lambda: state, mila, ours, explained, True,
                                        mila.get_all_possible_orders())
        if corrected:
            assert problem is None and explained == [(phase, compare.LONG_CONVOY_FAULT)], problem
        else:
            assert problem and 'get_orders' in problem and explained == [], problem


def test_convoy_routes_found_on_the_board_are_milas_table_there():
    # On a map whose table MILA has not computed (World without MILA's
    # cache), the comparison's MILA finds its routes of at most 13 fleets
    # on the board: the entries of MILA's own search, capped as MILA caps it.
    from diplomacy.utils import convoy_paths
    world = _world()
    theirs = _milas_search(world, SEED_320001_FLEETS, convoy_paths.MAX_CONVOY_LENGTH)
    ours = compare.convoy_routes(world, set(SEED_320001_FLEETS), 0, convoy_paths.MAX_CONVOY_LENGTH)
    key = sorted((start, sorted(path), sorted(dests)) for start, path, dests in theirs)
    assert len(key) > 1000 and sorted((start, sorted(path), sorted(dests)) for start, path, dests in ours) == key
