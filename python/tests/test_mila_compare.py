"""dip.Game against MILA's engine (the installed `diplomacy` package): the
same maps, legal orders, results, states and saved games. Skipped without
MILA, except under DIP_REQUIRE_MILA=1 (scripts/python-tests.sh)."""
import json
import random

import pytest

import dip
from _mila import mila_module
from test_dip import MILA_MAPS, _burgundy_dislodged

diplomacy = mila_module('diplomacy')
export = mila_module('diplomacy.utils.export')


def _random_orders(game, rng):
    possible = game.get_all_possible_orders()
    return {p: [rng.choice(sorted(possible[loc])) for loc in game.get_orderable_locations(p) if possible[loc]]
            for p in game.powers}


# MILA computes these maps' convoy paths for minutes on first use.
SLOW_MAPS = {'colonial', 'empire', 'world'}


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_map_values_equal_milas_for_every_location(name):
    # MILA's Map alone (a game would compute the slow maps' convoy paths).
    ours, mila = dip.Game(map_name=name).map, diplomacy.Map(name)
    assert sorted(ours.locs) == sorted(mila.locs)
    assert ours.loc_type == mila.loc_type
    assert {k: sorted(v) for k, v in ours.loc_coasts.items()} == {k: sorted(v) for k, v in mila.loc_coasts.items()}
    assert ours.loc_name == mila.loc_name
    assert sorted(ours.scs) == sorted(mila.scs)
    assert {p: sorted(h) for p, h in ours.homes.items()} == {p: sorted(h) for p, h in mila.homes.items()}
    assert ours.powers == mila.powers and ours.first_year == mila.first_year
    # Every location's neighbours, impassable ones (Switzerland) included
    # (in MILA's map files' order, which dip's variants do not keep).
    assert sorted(ours.loc_abut) == sorted(mila.loc_abut)
    for loc, near in mila.loc_abut.items():
        assert sorted(ours.loc_abut[loc]) == sorted(near), loc
    locs = [loc.upper() for loc in mila.locs]
    for loc in locs:
        assert sorted(ours.abut_list(loc, incl_no_coast=True)) == sorted(mila.abut_list(loc, incl_no_coast=True)), loc
        assert sorted(ours.dest_with_coasts[loc]) == sorted(mila.dest_with_coasts[loc]), loc
        for unit_type in 'AF?':
            assert ours.is_valid_unit('%s %s' % (unit_type, loc)) == mila.is_valid_unit('%s %s' % (unit_type, loc))
        assert ours.area_type(loc) == mila.area_type(loc)
    # Every pair of locations, for each unit type and order type.
    for a in locs:
        for b in locs:
            for unit_type in 'AF?':
                for order_type in '-SC':
                    assert ours.abuts(unit_type, a, order_type, b) == mila.abuts(unit_type, a, order_type, b), \
                        (unit_type, a, order_type, b)
    for phrase in ['A PAR - BUR', 'f stp/sc-bot', 'x,y:z', 'A+B=C_D?E*F', 'A (B) [C] {D}', 'England: Fleet Lon.',
                   'Army Paris moves to Burgundy', 'F NTH convoys A LON to NWY', 'a / b', 'A MUN SUPPORTS A BUR HOLD']:
        assert ours.norm(phrase) == mila.norm(phrase)
        assert ours.norm_power(phrase) == mila.norm_power(phrase)


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_aliases_unclear_names_and_keywords_are_milas_in_milas_order(name):
    # dip's aliases missed 110 of MILA's 245 on standard (its nicknames and
    # misspellings, coasts in brackets, the phrases every map has) and held
    # 114 of dip's own, which MILA's reader would have taken differently.
    ours, mila = dip.Map(name), diplomacy.Map(name)
    assert list(ours.aliases.items()) == list(mila.aliases.items())
    assert list(ours.unclear.items()) == list(mila.unclear.items())
    assert list(ours.keywords.items()) == list(mila.keywords.items())


def test_game_map_is_a_dip_map_shared_by_the_games_of_a_variant():
    assert isinstance(dip.Game().map, dip.Map)
    assert dip.Game().map is dip.Game().map
    assert dip.Game(map_name='ancmed').map.name == 'ancmed'


def test_possible_orders_equal_milas_along_random_games():
    rng = random.Random(3)
    mila, ours = diplomacy.Game(), dip.Game()
    compared = 0
    while int(mila.get_current_phase()[1:5]) < 1906:
        mine, theirs = ours.get_all_possible_orders(), mila.get_all_possible_orders()
        for loc, orders in theirs.items():
            assert sorted(mine[loc]) == sorted(orders), (mila.get_current_phase(), loc)
            compared += 1
        for power in mila.powers:
            assert ours.get_orderable_locations(power) == mila.get_orderable_locations(power)
        for power, orders in _random_orders(mila, rng).items():
            mila.set_orders(power, orders)
            ours.set_orders(power, mila.get_orders(power))
        mila.process()
        ours.process()
    assert compared > 1000


def test_units_equal_milas_after_every_phase_of_random_games():
    for seed in range(3):
        rng = random.Random(seed)
        mila, ours = diplomacy.Game(), dip.Game()
        while not mila.is_game_done and int(mila.get_current_phase()[1:5]) < 1910:
            for power, orders in _random_orders(mila, rng).items():
                mila.set_orders(power, orders)
                ours.set_orders(power, mila.get_orders(power))
            mila.process()
            ours.process()
            assert ours.get_current_phase() == mila.get_current_phase()
            assert {p: sorted(u) for p, u in ours.get_units().items()} == \
                {p: sorted(u) for p, u in mila.get_units().items()}, (seed, mila.get_current_phase())


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_start_of_every_mila_map_equals_milas(name):
    mila, ours = diplomacy.Game(map_name=name), dip.Game(map_name=name)
    assert mila.get_current_phase() == ours.get_current_phase()
    assert list(ours.powers) == list(mila.powers)
    assert {p: sorted(u) for p, u in ours.get_units().items()} == {p: sorted(u) for p, u in mila.get_units().items()}
    assert {p: sorted(c) for p, c in ours.get_centers().items()} == \
        {p: sorted(c) for p, c in mila.get_centers().items()}
    assert {p: sorted(ours.get_power(p).homes) for p in ours.powers} == \
        {p: sorted(mila.get_power(p).homes) for p in mila.powers}
    assert ours.map.first_year == mila.map.first_year
    theirs, mine = mila.get_all_possible_orders(), ours.get_all_possible_orders()
    assert sorted(mine) == sorted(theirs)
    for loc, orders in theirs.items():
        assert sorted(mine[loc]) == sorted(orders), loc
    for power in mila.powers:
        assert ours.get_orderable_locations(power) == mila.get_orderable_locations(power)


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_draw_year_and_outcome_equal_milas(name):
    last = MILA_MAPS[name] + 99
    games = [diplomacy.Game(map_name=name), dip.Game(map_name=name)]
    for game in games:
        game.set_current_phase('F%04dM' % last)
        game.process()
    mila, ours = games
    assert ours.get_current_phase() == mila.get_current_phase() == 'COMPLETED'
    assert ours.outcome == mila.outcome
    assert list(ours.order_history) == list(mila.order_history)


def test_ancmed_saved_game_is_read_by_mila():
    rng = random.Random(5)
    ours = dip.Game(map_name='ancmed')
    for _ in range(6):
        for power, orders in _random_orders(ours, rng).items():
            ours.set_orders(power, orders)
        ours.process()
    saved = json.loads(json.dumps(dip.to_saved_game_format(ours)))
    mila = export.from_saved_game_format(saved)
    assert mila.get_current_phase() == ours.get_current_phase()
    assert [str(p) for p in mila.order_history] == list(ours.order_history)
    assert {p: sorted(u) for p, u in mila.get_units().items()} == {p: sorted(u) for p, u in ours.get_units().items()}
    back = dip.from_saved_game_format(json.loads(json.dumps(export.to_saved_game_format(mila))))
    assert list(back.order_history) == list(ours.order_history)
    assert back.get_units() == ours.get_units()


def test_retreat_phase_state_round_trips_through_mila():
    mila = diplomacy.Game()
    mila.clear_units()
    mila.set_units('FRANCE', ['A BUR', 'A PAR'])
    mila.set_units('GERMANY', ['A MUN', 'A RUH'])
    mila.set_units('ENGLAND', ['A BEL'])
    mila.set_orders('FRANCE', ['A BUR H', 'A PAR - PIC'])
    mila.set_orders('GERMANY', ['A MUN - BUR', 'A RUH S A MUN - BUR'])
    mila.set_orders('ENGLAND', ['A BEL - PIC'])
    mila.process()
    ours = _burgundy_dislodged()
    assert ours.get_state()['retreats'] == mila.get_state()['retreats']
    # MILA's state into dip, dip's into MILA, and saved games both ways.
    from_mila = dip.Game()
    from_mila.set_state(mila.get_state())
    from_ours = diplomacy.Game()
    from_ours.set_state(ours.get_state())
    games = [from_mila, from_ours, dip.from_saved_game_format(export.to_saved_game_format(mila)),
             export.from_saved_game_format(dip.to_saved_game_format(ours))]
    want = sorted(mila.get_all_possible_orders()['BUR'])
    assert want == ['A BUR D', 'A BUR R GAS', 'A BUR R MAR']
    for game in games:
        assert game.get_current_phase() == 'S1901R'
        assert sorted(game.get_all_possible_orders()['BUR']) == want, type(game)
        assert game.get_state()['retreats']['FRANCE'] == {'A BUR': ['GAS', 'MAR']}


def test_hash_has_milas_type():
    assert type(dip.Game().get_hash()) is type(diplomacy.Game().get_hash())


def test_to_dict_and_from_dict_interchange_with_milas():
    def play(make):
        game = make()
        game.set_orders('FRANCE', ['A PAR - BUR', 'A MAR - SPA'])
        game.set_orders('GERMANY', ['A MUN - BUR'])
        game.process()
        game.set_orders('FRANCE', ['A SPA - GAS'])
        return game
    mila, ours = play(diplomacy.Game), play(dip.Game)
    for game in (diplomacy.Game.from_dict(json.loads(json.dumps(ours.to_dict()))),
                 dip.Game.from_dict(json.loads(json.dumps(mila.to_dict())))):
        assert game.get_current_phase() == 'F1901M'
        assert {p: sorted(u) for p, u in game.get_units().items()} == \
            {p: sorted(u) for p, u in mila.get_units().items()}
        assert game.get_orders('FRANCE') == ['A SPA - GAS']
        assert [str(p) for p in game.order_history] == ['S1901M']


def test_ancmed_baleares_is_reached_and_convoys_as_in_milas_map():
    # dip's ancmed let armies walk to Baleares, and a fleet there could not convoy.
    for units in (['A SAG', 'F TAR', 'A MAS'], ['A SAG', 'F BAL', 'A MAS']):
        orders = {}
        for make in (diplomacy.Game, dip.Game):
            game = make(map_name='ancmed')
            game.clear_units()
            game.set_units('CARTHAGE', units)
            possible = game.get_all_possible_orders()
            orders[make] = {loc: sorted(possible[loc]) for loc in ('SAG', 'TAR', 'MAS', 'BAL')}
        assert orders[dip.Game] == orders[diplomacy.Game], units


def test_milas_messages_and_result_objects_passed_through_dip():
    message = mila_module('diplomacy.engine.message')
    game = dip.Game()
    game.add_message(message.Message(sender='FRANCE', recipient='ENGLAND', message='hello',
                                     phase=game.get_current_phase(), time_sent=1))
    game.set_orders('FRANCE', ['A PAR - BUR', 'A MAR - BUR'])
    game.process()
    saved = dip.to_saved_game_format(game)
    assert saved['phases'][0]['messages'][0]['message'] == 'hello'
    theirs = export.from_saved_game_format(json.loads(json.dumps(saved)))
    # MILA's phases hold its own result objects; dip takes them.
    ours = dip.Game()
    ours.set_phase_data(theirs.get_phase_history() + [theirs.get_phase_data()])
    assert ours.get_units() == game.get_units()
    assert ours.result_history['S1901M'] == game.result_history['S1901M']


@pytest.mark.parametrize('name', sorted(set(MILA_MAPS) - SLOW_MAPS))
def test_saved_games_round_trip_both_ways_on_every_map(name):
    rng = random.Random(7)
    ours = dip.Game(map_name=name)
    for _ in range(6):
        for power, orders in _random_orders(ours, rng).items():
            ours.set_orders(power, orders)
        ours.process()
    saved = json.loads(json.dumps(dip.to_saved_game_format(ours)))
    theirs = export.from_saved_game_format(saved)
    assert theirs.get_units() == ours.get_units()
    again = json.loads(json.dumps(export.to_saved_game_format(theirs)))
    assert again['rules'] == saved['rules']  # BUILD_ANY on modern
    back = dip.from_saved_game_format(again)
    assert dip.to_saved_game_format(back)['rules'] == saved['rules']
    assert back.get_units() == ours.get_units() and back.get_centers() == ours.get_centers()
    assert back.get_current_phase() == ours.get_current_phase()
    assert list(back.order_history) == list(ours.order_history)


def _played(game, phases, seed=7):
    rng = random.Random(seed)
    for _ in range(phases):
        for power, orders in _random_orders(game, rng).items():
            game.set_orders(power, orders)
        game.process()
    return game


def test_milas_export_saves_a_dip_game_through_milas_phase_history():
    # MILA's to_saved_game_format calls MILA's own Game.get_phase_history
    # on the game, which asks its histories for sub_keys (AI_Diplomacy
    # saves its games so): it raised AttributeError on dip's SortedDict.
    game = _played(dip.Game(), 6)
    saved = export.to_saved_game_format(game)
    assert [p['name'] for p in saved['phases']] == [str(p) for p in game.state_history] + [game.current_short_phase]
    assert [p.name for p in diplomacy.Game.get_phase_history(game, 'F1901M', 'S1902M')] == ['F1901M', 'W1901A',
                                                                                         'S1902M']
    assert diplomacy.Game.get_phase_from_history(game, 'W1901A').name == 'W1901A'
    mila = export.from_saved_game_format(saved)
    assert mila.get_units() == game.get_units() and mila.get_current_phase() == game.get_current_phase()


@pytest.mark.parametrize('name', ['standard', 'ancmed', 'modern', 'pure'])
def test_win_and_victory_are_milas(name):
    # The Gym environment for Diplomacy reads game.win when it is built.
    ours, mila = dip.Game(map_name=name), diplomacy.Game(map_name=name)
    assert (ours.win, ours.victory) == (mila.win, mila.victory)


def test_get_state_names_the_phase_as_ai_diplomacys_engine_and_mila_reads_it_back():
    # AI_Diplomacy's prompts read get_state()['phase'] (its fork of MILA's
    # engine adds it); MILA's set_state takes such a state unchanged.
    game = _played(dip.Game(), 3)
    state = game.get_state()
    assert state['phase'] == state['name'] == game.get_current_phase()
    mila = diplomacy.Game()
    mila.set_state(state)
    assert mila.get_units() == game.get_units()


def test_an_order_replacing_a_units_order_keeps_its_place_in_get_orders_as_milas():
    # MILA keeps a power's orders in a dict by unit, so a unit ordered
    # again stays where it was first listed; dip put it at the end.
    for calls in ([['A PAR H', 'A MAR - BUR', 'F BRE - ENG', 'A MAR H']],
                  [['A PAR H', 'A MAR - BUR', 'F BRE - ENG'], ['A MAR H']],
                  [['A PAR H', 'A MAR - BUR'], ['A PAR - PIC', 'A MAR - SPA']]):
        got = []
        for game in (diplomacy.Game(), dip.Game()):
            for orders in calls:
                game.set_orders('FRANCE', orders)
            got.append(game.get_orders('FRANCE'))
        assert got[1] == got[0], calls
