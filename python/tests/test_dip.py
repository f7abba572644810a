"""dip.Game beyond MILA's own tests: variants, errors, threads, saved games,
and agreement with MILA's engine where it is installed."""
import copy
import json
import random

import pytest

import dip


def test_import_gives_game_class():
    assert dip.Game().get_current_phase() == 'S1901M'


@pytest.mark.parametrize('name', ['standard', 'ancmed', 'modern', 'pure', 'standard_fleet_rome', 'colonial',
                                  'empire', 'world'])
def test_mila_map_names_load_with_units_and_orders(name):
    game = dip.Game(map_name=name)
    units = game.get_units()
    assert sum(len(u) for u in units.values()) > 0
    possible = game.get_all_possible_orders()
    power = next(p for p in game.powers if game.get_orderable_locations(p))
    loc = game.get_orderable_locations(power)[0]
    assert any(o.endswith(' H') for o in possible[loc])


def test_every_bundled_variant_plays_a_phase():
    for name in dip.variants():
        game = dip.Game(variant=name)
        game.process()
        assert game.get_current_phase() != 'S%sM' % game.map.first_year or game.is_game_done, name


def test_unknown_power_raises_key_error_naming_it():
    game = dip.Game()
    with pytest.raises(KeyError, match='NARNIA'):
        game.set_orders('NARNIA', ['A PAR H'])
    with pytest.raises(KeyError, match='NARNIA'):
        game.get_units('NARNIA')


def test_unknown_variant_raises_value_error():
    with pytest.raises(ValueError, match='no-such-variant'):
        dip.Game(variant='no-such-variant')


def test_bad_order_is_reported_in_error_and_raised_without_ignore_errors():
    game = dip.Game()
    game.set_orders('FRANCE', ['A PAR - XYZ'])
    assert game.get_orders('FRANCE') == []
    assert any('A PAR - XYZ' in e for e in game.error)
    strict = dip.Game(rules=[])
    with pytest.raises(dip.DipError, match='XYZ'):
        strict.set_orders('FRANCE', ['A PAR - XYZ'])


def test_illegal_move_is_refused_with_reason():
    game = dip.Game()
    game.set_orders('FRANCE', ['A PAR - MUN'])
    assert game.get_orders('FRANCE') == []
    assert any('cannot be reached' in e for e in game.error)


def test_possible_orders_cached_until_position_changes():
    game = dip.Game()
    first = game.get_all_possible_orders()
    game.set_orders('FRANCE', ['A PAR - BUR'])
    assert game.get_all_possible_orders() is first
    game.set_units('FRANCE', ['A PIC'])
    second = game.get_all_possible_orders()
    assert second is not first
    assert 'A PIC - BEL' in second['PIC']


def test_possible_order_list_changed_by_the_caller_is_not_given_again():
    # Lists whose orders did not change are given again in the next
    # position's dict; one the caller changed must not be.
    game = dip.Game()
    first = game.get_all_possible_orders()
    paris = list(first['PAR'])
    first['PAR'].append('A PAR - XXX')
    first['MAR'].clear()
    game.process()  # no orders: every unit holds, the lists stay the same
    second = game.get_all_possible_orders()
    assert second['PAR'] == paris
    assert second['MAR'] and 'A MAR H' in second['MAR']
    assert 'A PAR - XXX' in first['PAR']  # the caller's list is left alone


def test_set_orders_takes_lists_tuples_and_str_subclasses():
    class Text(str):
        pass

    game = dip.Game()
    game.set_orders('FRANCE', [Text('A PAR - BUR')])
    game.set_orders('GERMANY', ('A MUN - RUH', 'F KIE - HOL'))
    assert game.get_orders('FRANCE') == ['A PAR - BUR']
    assert sorted(game.get_orders('GERMANY')) == ['A MUN - RUH', 'F KIE - HOL']
    with pytest.raises(TypeError):
        game.set_orders('ITALY', ['A ROM - APU', 3])


def test_process_multi_matches_processing_one_by_one():
    rng = random.Random(7)
    # 40 games: enough for process_multi to use threads (32 or more).
    games = [dip.Game() for _ in range(40)]
    singles = [dip.Game() for _ in range(40)]
    for _ in range(8):
        for multi, single in zip(games, singles):
            possible = multi.get_all_possible_orders()
            for power in multi.powers:
                orders = [rng.choice(possible[loc]) for loc in multi.get_orderable_locations(power)
                          if possible[loc]]
                multi.set_orders(power, orders)
                single.set_orders(power, orders)
        dip.process_multi(games)
        for single in singles:
            single.process()
    for multi, single in zip(games, singles):
        assert multi.get_units() == single.get_units()
        assert multi.get_current_phase() == single.get_current_phase()


def test_saved_game_round_trip_keeps_phases_and_position():
    game = dip.Game()
    game.set_orders('FRANCE', ['A PAR - BUR', 'A MAR - SPA'])
    game.process()
    game.set_orders('FRANCE', ['A BUR - BEL'])
    game.process()
    saved = json.loads(json.dumps(dip.to_saved_game_format(game)))
    assert [p['name'] for p in saved['phases']] == ['S1901M', 'F1901M', 'W1901A']
    assert saved['phases'][0]['orders']['FRANCE'] == ['A PAR - BUR', 'A MAR - SPA']
    back = dip.from_saved_game_format(saved)
    assert back.get_current_phase() == 'W1901A'
    assert back.get_units() == game.get_units()
    assert back.get_centers('FRANCE') == game.get_centers('FRANCE')
    assert list(back.order_history) == list(game.order_history)


def test_deepcopy_is_independent():
    game = dip.Game()
    other = copy.deepcopy(game)
    other.set_orders('FRANCE', ['A PAR - BUR'])
    other.process()
    assert game.get_current_phase() == 'S1901M'
    assert 'A BUR' in other.get_units('FRANCE')
    assert 'A BUR' not in game.get_units('FRANCE')


def test_random_game_reaches_the_end():
    rng = random.Random(1)
    game = dip.Game()
    while not game.is_game_done:
        possible = game.get_all_possible_orders()
        for power in game.powers:
            game.set_orders(power, [rng.choice(possible[loc]) for loc in game.get_orderable_locations(power)
                                    if possible[loc]])
        game.process()
    assert game.outcome and game.outcome[0][0] in 'SFW'


def test_state_history_and_results_recorded_per_phase():
    game = dip.Game()
    game.set_orders('FRANCE', ['A PAR - BUR'])
    game.set_orders('GERMANY', ['A MUN - BUR'])
    game.process()
    assert game.result_history['S1901M']['A PAR'] == ['bounce']
    assert game.state_history['S1901M']['units']['FRANCE'] == dip.Game().get_units('FRANCE')
    assert game.get_order_status('FRANCE')['A PAR'] == ['bounce']


diplomacy = pytest.importorskip('diplomacy')


def _random_orders(game, rng):
    possible = game.get_all_possible_orders()
    return {p: [rng.choice(sorted(possible[loc])) for loc in game.get_orderable_locations(p) if possible[loc]]
            for p in game.powers}


def test_map_facts_equal_milas():
    ours, mila = dip.Game(), diplomacy.Game()
    assert sorted(ours.map.scs) == sorted(mila.map.scs)
    assert sorted(ours.map.locs) == sorted(loc.upper() for loc in mila.map.locs)
    assert list(ours.powers) == list(mila.powers)


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
