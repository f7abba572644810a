"""dip.Game beyond MILA's own tests: variants, errors, threads, saved games,
and agreement with MILA's engine where it is installed."""
import copy
import json
import pathlib
import random

import pytest

import dip

ROOT = pathlib.Path(__file__).resolve().parents[2]

# MILA's map names dip has, with the first year of each.
MILA_MAPS = {'standard': 1901, 'ancmed': 1, 'modern': 1994, 'pure': 1901, 'standard_fleet_rome': 1901,
             'colonial': 1870, 'empire': 1999, 'world': 2000, 'standard_france_austria': 1901,
             'standard_germany_italy': 1901}


def test_import_gives_game_class():
    assert dip.Game().get_current_phase() == 'S1901M'


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
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


def test_possible_orders_of_a_new_position_listed_its_units():
    game = dip.Game()
    first = game.get_all_possible_orders()
    game.set_units('FRANCE', ['A PIC'])
    second = game.get_all_possible_orders()
    assert 'A PIC - BEL' in second['PIC'] and not first['PIC']


def test_possible_orders_returned_one_cached_dict_whose_lists_a_caller_could_change():
    # MILA returns new lists each call: what one caller does to its lists
    # cannot show in the next call's.
    game = dip.Game()
    first = game.get_all_possible_orders()
    paris = list(first['PAR'])
    first['PAR'].append('A PAR - XXX')
    first['MAR'].clear()
    again = game.get_all_possible_orders()
    assert again is not first and again['PAR'] is not first['PAR']
    assert again['PAR'] == paris and 'A MAR H' in again['MAR']
    assert game.get_all_possible_orders('PAR') == paris
    game.process()  # no orders: every unit holds, the lists stay the same
    second = game.get_all_possible_orders()
    assert second['PAR'] == paris
    assert 'A PAR - XXX' in first['PAR']  # the caller's list is left alone
    # Orders taken from a list handed out earlier are still read.
    game.set_orders('FRANCE', [first['PAR'][0]])
    assert game.get_orders('FRANCE') == [paris[0]]


def test_possible_orders_dict_written_in_place_was_a_whole_dict():
    # The lists are written straight into a copy of the template (every
    # location → None): the dict must still be one the collector tracks,
    # hold no reference to None, and keep MILA's keys and order.
    import gc
    import sys
    game = dip.Game()
    game.get_all_possible_orders()
    # (No collection in between, which frees other objects holding None.)
    gc.collect()
    gc.disable()
    try:
        nones = sys.getrefcount(None)
        kept = [game.get_all_possible_orders() for _ in range(200)]
        # A dict still holding the template's Nones would add 82 each.
        assert abs(sys.getrefcount(None) - nones) < 50
    finally:
        gc.enable()
    first = kept[0]
    assert gc.is_tracked(first) and all(isinstance(v, list) for v in first.values())
    assert list(first) == [loc.upper() for loc in game.map.locs] and 'A PAR H' in first['PAR']
    # A cycle through it is collected (its lists are seen by the collector).
    first['PAR'].append(first)
    gone = [0]

    class Marker:
        def __del__(self):
            gone[0] += 1
    first['MAR'].append(Marker())
    del first, kept
    gc.collect()
    assert gone[0] == 1


def test_possible_orders_dict_filled_again_was_as_new_to_every_holder():
    # A dict no one holds any more is filled again two calls later: what a
    # caller kept (the dict, a list, a view) must never change under it,
    # and what it changed and let go of must come back whole.
    import gc
    game = dip.Game()
    fresh = {loc: list(orders) for loc, orders in game.get_all_possible_orders().items()}
    for _ in range(3):
        game.get_all_possible_orders()
    kept_dict = game.get_all_possible_orders()
    game.get_all_possible_orders()
    kept_list = game.get_all_possible_orders()['PAR']
    changed = game.get_all_possible_orders()
    changed['PAR'].append('A PAR - XXX')
    changed['MAR'].clear()
    changed['BUR'] = 'not a list'
    gone = [0]

    class Marker:
        def __del__(self):
            gone[0] += 1
    changed['PIC'].append(Marker())
    del changed
    for _ in range(4):
        again = game.get_all_possible_orders()
        assert again == fresh and all(type(v) is list for v in again.values())
    assert gone[0] == 1
    assert kept_dict == fresh and kept_list == fresh['PAR']
    view = game.get_all_possible_orders().values()
    game.get_all_possible_orders()
    game.get_all_possible_orders()
    assert list(view) == list(fresh.values())
    # Moving on: the lists of the new position, whatever was kept before.
    game.set_orders('FRANCE', ['A PAR - BUR'])
    game.process()
    moved = game.get_all_possible_orders()
    assert 'A BUR - MUN' in moved['BUR'] and moved['PAR'] == []
    assert kept_list == fresh['PAR'] and kept_dict == fresh
    # A cycle through a dict the game keeps is collected with the game.
    game.get_all_possible_orders()['PAR'].append(game)
    game.get_all_possible_orders()['MAR'].append(Marker())
    del game, moved
    gc.collect()
    assert gone[0] == 2


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


def test_orders_given_back_as_handed_out_were_read_as_the_same_orders_typed():
    # The strings of get_all_possible_orders are found by address when given
    # back; the same texts made anew (hashed or not) must give the same game.
    rng = random.Random(11)
    handed, typed = dip.Game(), dip.Game()
    while not handed.is_game_done and handed.get_current_phase() < 'S1906M':
        possible = handed.get_all_possible_orders()
        typed.get_all_possible_orders()
        for power in handed.powers:
            chosen = [rng.choice(possible[loc]) for loc in handed.get_orderable_locations(power) if possible[loc]]
            handed.set_orders(power, chosen)
            copies = [''.join(list(o)) for o in chosen]
            for o in copies[::2]:
                hash(o)
            typed.set_orders(power, copies)
            assert handed.get_orders(power) == typed.get_orders(power)
        handed.process()
        typed.process()
        assert handed.get_state()['units'] == typed.get_state()['units']
    assert handed.order_history == typed.order_history
    assert handed.result_history == typed.result_history


def test_order_handed_out_for_another_powers_unit_was_refused():
    game = dip.Game()
    paris = game.get_all_possible_orders()['PAR'][0]
    game.set_orders('ENGLAND', [paris])
    assert game.get_orders('ENGLAND') == []
    assert game.error


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


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_game_was_drawn_after_2000_on_every_map(name):
    # MILA draws in the winter of a map's 100th year; dip drew after 2000.
    last = MILA_MAPS[name] + 99
    game = dip.Game(map_name=name)
    assert game.map.first_year == MILA_MAPS[name]
    game.set_current_phase('F%04dM' % (last - 1))
    game.process()
    assert not game.is_game_done
    game.set_current_phase('F%04dM' % last)
    game.process()
    assert game.is_game_done and game.get_current_phase() == 'COMPLETED'
    assert game.outcome[0] == 'W%04dA' % last
    assert game.outcome[1:] == sorted(p for p in game.powers if game.get_units(p))
    assert list(game.order_history)[-1] == 'W%04dA' % last


def test_draw_ends_the_game_with_the_powers_that_have_units():
    game = dip.Game()
    game.clear_units('ITALY')
    game.draw()
    assert game.is_game_done
    assert game.outcome == ['S1901M'] + sorted(p for p in game.powers if p != 'ITALY')
    assert list(game.order_history) == ['S1901M']
    other = dip.Game()
    other.draw(['FRANCE', 'england'])
    assert other.outcome == ['S1901M', 'FRANCE', 'ENGLAND']


def test_ancmed_phases_were_named_with_short_years():
    # MILA writes years in four digits (S0001M); dip wrote S1M.
    game = dip.Game(map_name='ancmed')
    assert game.get_current_phase() == 'S0001M'
    assert game.phase == 'SPRING 1 MOVEMENT'
    for _ in range(3):
        game.process()
    game.set_current_phase('S10M')
    assert game.get_current_phase() == 'S0010M'
    game.process()
    assert list(game.order_history) == ['S0001M', 'F0001M', 'S0002M', 'S0010M']
    assert [p.name for p in game.get_phase_history('F0001M', 'S0002M')] == ['F0001M', 'S0002M']
    saved = dip.to_saved_game_format(game)
    assert [p['name'] for p in saved['phases']] == ['S0001M', 'F0001M', 'S0002M', 'S0010M', 'F0010M']
    back = dip.from_saved_game_format(json.loads(json.dumps(saved)))
    assert back.get_current_phase() == 'F0010M'
    assert list(back.order_history) == list(game.order_history)


def test_short_phases_sort_in_game_order():
    names = ['COMPLETED', 'W0001A', 'S0002M', 'F0001R', 'S0001M', 'FORMING', 'F0001M', 'S1901M', 'S0010M']
    in_order = sorted((dip._ShortPhase(n) for n in names))
    assert in_order == ['FORMING', 'S0001M', 'F0001M', 'F0001R', 'W0001A', 'S0002M', 'S0010M', 'S1901M',
                        'COMPLETED']


def _burgundy_dislodged():
    """France's army in Burgundy dislodged from Munich, with a standoff in
    Picardy: it may retreat to Gascony and Marseilles only."""
    game = dip.Game()
    game.clear_units()
    game.set_units('FRANCE', ['A BUR', 'A PAR'])
    game.set_units('GERMANY', ['A MUN', 'A RUH'])
    game.set_units('ENGLAND', ['A BEL'])
    game.set_orders('FRANCE', ['A BUR H', 'A PAR - PIC'])
    game.set_orders('GERMANY', ['A MUN - BUR', 'A RUH S A MUN - BUR'])
    game.set_orders('ENGLAND', ['A BEL - PIC'])
    game.process()
    assert game.get_current_phase() == 'S1901R'
    return game


def test_set_state_in_a_retreat_phase_kept_the_attackers_origin_and_standoffs_closed():
    game = _burgundy_dislodged()
    retreats = ['A BUR D', 'A BUR R GAS', 'A BUR R MAR']
    assert sorted(game.get_all_possible_orders()['BUR']) == retreats
    assert game.get_state()['retreats']['FRANCE'] == {'A BUR': ['GAS', 'MAR']}
    restored = [dip.Game(), dip.from_saved_game_format(json.loads(json.dumps(dip.to_saved_game_format(game))))]
    restored[0].set_state(game.get_state())
    for other in restored:
        other.add_rule('IGNORE_ERRORS')  # saved games leave it out, as MILA's do
        assert other.get_current_phase() == 'S1901R'
        assert sorted(other.get_all_possible_orders()['BUR']) == retreats
        other.set_orders('FRANCE', ['A BUR R MUN'])
        other.set_orders('FRANCE', ['A BUR R PIC'])
        assert other.get_orders('FRANCE') == []
        other.set_orders('FRANCE', ['A BUR R GAS'])
        other.process()
        assert 'A GAS' in other.get_units('FRANCE')


def test_set_units_in_a_retreat_phase_opens_every_empty_neighbour_as_mila_does():
    game = _burgundy_dislodged()
    game.set_units('ITALY', ['A TYR'])
    assert sorted(game.get_all_possible_orders()['BUR']) == ['A BUR D', 'A BUR R GAS', 'A BUR R MAR',
                                                             'A BUR R MUN', 'A BUR R PIC']


def test_set_units_refuses_a_unit_in_the_words_of_the_position_text():
    # set_units builds the position as every reader does: what cannot
    # stand there is refused as the position text refuses it, the rest set.
    game = dip.Game()
    game.set_units('FRANCE', ['F MUN', 'A PIC'])
    assert game.error == ['`F MUN`: this unit needs a coast, or cannot stand there']
    assert 'A PIC' in game.get_units('FRANCE')
    game.remove_rule('IGNORE_ERRORS')
    with pytest.raises(dip.DipError, match='`F BOH`: this unit needs a coast, or cannot stand there'):
        game.set_units('GERMANY', ['F BOH'])
    game.set_units('GERMANY', ['A PIC'])
    assert 'A PIC' not in game.get_units('FRANCE')
    assert 'A PIC' in game.get_units('GERMANY')


def test_get_hash_is_a_string_as_milas():
    game = dip.Game()
    assert isinstance(game.get_hash(), str) and game.get_hash().isdigit()
    assert game.rebuild_hash() == game.get_hash()
    before = game.get_hash()
    game.process()
    assert game.get_hash() != before


def test_unknown_rule_was_accepted_silently():
    game = dip.Game()
    with pytest.raises(dip.DipError, match='NO_SUCH_RULE'):
        game.add_rule('NO_SUCH_RULE')
    with pytest.raises(dip.DipError, match='BUILD_ANY'):
        game.add_rule('BUILD_ANY')
    with pytest.raises(dip.DipError, match='NO_SUCH_RULE'):
        dip.Game(rules=['NO_PRESS', 'NO_SUCH_RULE'])
    assert 'NO_SUCH_RULE' not in game.rules


def test_rules_bring_what_mila_says_they_imply():
    game = dip.Game(rules=['SOLITAIRE', 'PUBLIC_PRESS', 'IGNORE_ERRORS'])
    assert {'NO_DEADLINE', 'CD_DUMMIES', 'ALWAYS_WAIT', 'PUBLIC_PRESS'} <= set(game.rules)
    game.add_rule('NO_PRESS')
    assert 'NO_PRESS' in game.rules and 'PUBLIC_PRESS' not in game.rules
    game.add_rule('REAL_TIME')  # forbidden by ALWAYS_WAIT: refused, reported in game.error
    assert 'REAL_TIME' not in game.rules and game.error
    game.add_rule('no_check')
    game.set_orders('FRANCE', ['A PAR - MUN'])
    assert game.get_orders('FRANCE') == ['A PAR - MUN']


VARIANT_FILES = {
    'DipWork': 'crates/dip-variants/tests/fixtures/dipwork/mini',
    'DPjudge': 'crates/dip-variants/tests/fixtures/dpjudge/duel.map',
    'Realpolitik': 'crates/dip-variants/tests/fixtures/realpolitik/Tiny/Tiny.var',
    'jDip': 'examples/jdip/tiny',
}


@pytest.mark.parametrize('kind', sorted(VARIANT_FILES))
def test_variant_files_of_every_format_play_by_path(kind):
    game = dip.Game(variant=str(ROOT / VARIANT_FILES[kind]))
    possible = game.get_all_possible_orders()
    for power in game.powers:
        game.set_orders(power, [possible[loc][0] for loc in game.get_orderable_locations(power)])
    first = game.get_current_phase()
    game.process()
    assert game.get_current_phase() != first
    assert game.order_history[first]


def test_jdip_plugin_variants_by_name_after_add_variant_path():
    plugin = ROOT / 'examples' / 'jdip' / 'tiny'
    by_path = dip.Game(variant='%s#Tiny Isle' % plugin)
    with pytest.raises(ValueError):
        dip.Game(variant='isle')
    dip.add_variant_path(str(ROOT / 'examples' / 'jdip'))
    by_name = dip.Game(variant='isle')
    # Greyland is inactive: its army stays and holds, as in jDip.
    assert list(by_name.powers) == list(by_path.powers) == ['BLUELAND', 'GREYLAND', 'REDLAND']
    assert by_name.get_units() == by_path.get_units()
    assert by_name.get_units('GREYLAND') == ['A COV']
    with pytest.raises(FileNotFoundError):
        dip.add_variant_path(str(ROOT / 'no-such-folder'))


def test_game_from_dict_reads_back_to_dict():
    game = dip.Game()
    game.set_orders('FRANCE', ['A PAR - BUR', 'A MAR - SPA'])
    game.set_orders('GERMANY', ['A MUN - BUR'])
    game.process()
    game.set_orders('FRANCE', ['A SPA - GAS'])
    game.messages['m1'] = {'sender': 'FRANCE', 'recipient': 'GLOBAL', 'message': 'hello'}
    back = dip.Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert back.get_current_phase() == 'F1901M'
    assert back.get_units() == game.get_units()
    assert back.get_orders('FRANCE') == ['A SPA - GAS']
    assert list(back.order_history) == ['S1901M']
    assert back.result_history['S1901M']['A PAR'] == ['bounce']
    assert list(back.messages.values()) == [{'sender': 'FRANCE', 'recipient': 'GLOBAL', 'message': 'hello'}]
    done = dip.Game()
    done.draw()
    again = dip.Game.from_dict(json.loads(json.dumps(done.to_dict())))
    assert again.is_game_done and again.outcome == done.outcome
    assert dip.Game.from_dict(dip.to_saved_game_format(game)).get_orders('FRANCE') == ['A SPA - GAS']


def test_messages_are_kept_by_phase():
    game = dip.Game()
    game.messages['a'] = 'first'
    game.process()
    assert not game.messages
    game.messages['b'] = 'second'
    game.process()
    assert {str(k): list(v.values()) for k, v in game.message_history.items()} == \
        {'S1901M': ['first'], 'F1901M': ['second']}


def test_ancmed_armies_walked_to_baleares_and_fleets_there_could_not_convoy():
    # Baleares is an archipelago: fleets reach it from Saguntum and
    # Tarraco, armies only by convoy (as MILA's and godip's maps have it).
    game = dip.Game(map_name='ancmed')
    game.clear_units()
    game.set_units('CARTHAGE', ['A SAG', 'F TAR'])
    possible = game.get_all_possible_orders()
    assert 'A SAG - BAL' not in possible['SAG']
    assert 'F TAR - BAL' in possible['TAR']
    game.set_orders('CARTHAGE', ['A SAG - BAL'])
    assert game.get_orders('CARTHAGE') == []
    # A fleet there may convoy.
    game.set_units('CARTHAGE', ['A SAG', 'F BAL'], reset=True)
    assert 'F BAL C A SAG - TAR' in game.get_all_possible_orders()['BAL']


def test_saved_game_whose_states_have_no_phase_name_was_refused():
    # examples/mila/game1905.json names each phase beside its state only.
    with open(ROOT / 'examples' / 'mila' / 'game1905.json') as f:
        saved = json.load(f)
    game = dip.from_saved_game_format(saved)
    names = [p['name'] for p in saved['phases']]
    assert list(game.order_history) == names[:-1]
    assert game.get_current_phase() == names[-1]
    assert sorted(game.get_units('FRANCE')) == sorted(saved['phases'][-1]['state']['units']['FRANCE'])


def _winter(builds_for, units, centers):
    """A game in W1901A where `builds_for` has `units` and `centers`."""
    game = dip.Game()
    game.clear_units()
    game.set_current_phase('W1901A')
    game.set_units(builds_for, units, reset=True)
    game.set_centers(builds_for, centers, reset=True)
    return game


def test_waive_given_before_a_build_took_the_only_build():
    # The README agent picks WAIVE at one site and a build at another:
    # MILA drops the WAIVE and builds.
    game = _winter('RUSSIA', ['A MOS'], ['MOS', 'STP'])
    game.set_orders('RUSSIA', ['WAIVE', 'A STP B'])
    assert game.get_orders('RUSSIA') == ['A STP B']
    assert game.powers['RUSSIA'].adjust == ['A STP B']
    game.process()
    assert sorted(game.get_units('RUSSIA')) == ['A MOS', 'A STP']


def test_get_orders_listed_waive():
    game = _winter('RUSSIA', ['A MOS'], ['MOS', 'STP', 'WAR'])
    game.set_orders('RUSSIA', ['WAIVE'])
    assert game.get_orders('RUSSIA') == []
    # The list MILA keeps is filled with WAIVE up to the builds due.
    assert game.powers['RUSSIA'].adjust == ['WAIVE', 'WAIVE']
    game.set_orders('RUSSIA', ['A WAR B', 'WAIVE', 'WAIVE'])
    assert game.get_orders('RUSSIA') == ['A WAR B']
    game.process()
    assert sorted(game.get_units('RUSSIA')) == ['A MOS', 'A WAR']
    assert game.result_history.last_value()['WAIVE'] == ['void']


def test_builds_beyond_the_count_were_taken_by_position_not_order_given():
    game = _winter('RUSSIA', ['A MOS'], ['MOS', 'STP'])
    game.set_orders('RUSSIA', ['F STP/NC B', 'A STP B', 'A WAR B'])
    # A second build at one site and a site the power does not own are void.
    assert game.get_orders('RUSSIA') == ['F STP/NC B']
    assert game.powers['RUSSIA'].adjust == ['F STP/NC B', 'VOID A STP B', 'VOID A WAR B']
    game.process()
    assert sorted(game.get_units('RUSSIA')) == ['A MOS', 'F STP/NC']


def test_second_retreat_order_for_one_unit_in_a_call_replaced_the_first():
    game = dip.Game()
    game.clear_units()
    game.set_units('FRANCE', ['A BUR'])
    game.set_units('GERMANY', ['A MUN', 'A RUH'])
    game.set_orders('GERMANY', ['A MUN - BUR', 'A RUH S A MUN - BUR'])
    game.process()
    assert game.get_current_phase() == 'S1901R'
    game.set_orders('FRANCE', ['A BUR R PAR', 'A BUR R MAR'])
    # MILA keeps the first order of a call and voids the second.
    assert game.get_orders('FRANCE') == ['A BUR R PAR']
    game.set_orders('FRANCE', ['A BUR R MAR'])
    assert game.get_orders('FRANCE') == ['A BUR R MAR']
    game.process()
    assert game.get_units('FRANCE') == ['A MAR']


def test_ancmed_convoys_into_baleares_were_missing_from_possible_orders():
    game = dip.Game(map_name='ancmed')
    game.clear_units()
    game.set_units('CARTHAGE', ['A CAR', 'F BER'])
    assert 'F BER C A CAR - BAL' in game.get_all_possible_orders()['BER']
    assert 'A CAR - BAL VIA' in game.get_all_possible_orders()['CAR']


def test_state_builds_listed_occupied_home_centres():
    game = _winter('RUSSIA', ['A MOS'], ['MOS', 'STP', 'WAR', 'SEV'])
    game.set_units('TURKEY', ['F SEV'])
    builds = game.get_state()['builds']['RUSSIA']
    # MOS has Russia's own army and SEV a Turkish fleet: STP and WAR remain.
    assert sorted(builds['homes']) == ['STP', 'WAR'] and builds['count'] == 2


def test_messages_added_as_milas_and_saved():
    game = dip.Game()
    first = game.add_message(dip.Message(sender='FRANCE', recipient='ENGLAND', message='hello',
                                         phase=game.get_current_phase()))
    second = game.add_message(dip.Message(sender='ENGLAND', recipient='GLOBAL', message='hi',
                                          phase=game.get_current_phase()))
    assert second > first and list(game.messages) == [first, second]
    saved = game.to_saved_game_format()
    assert [m['message'] for m in saved['phases'][-1]['messages']] == ['hello', 'hi']
    with pytest.raises(dip.DipError):
        game.new_power_message('ENGLAND', 'no power of mine')
    game.role = 'FRANCE'
    msg = game.new_power_message('ENGLAND', 'body')
    assert (msg.sender, msg.recipient, msg.time_sent) == ('FRANCE', 'ENGLAND', None)
    assert game.new_global_message('all').is_global()


def test_sorted_dict_has_milas_helpers_with_milas_bounds():
    # MILA's own functions (its export's Game.get_phase_history) call these
    # on a dip game's histories.
    d = dip.SortedDict((k, k.lower()) for k in ['B', 'D', 'F'])
    assert d.sub_keys() == ['B', 'D', 'F'] and d.sub_keys('C', 'E') == ['D'] and d.sub_keys('D', None) == ['D', 'F']
    assert d.sub(None, 'D') == ['b', 'd'] and d.sub('G') == []
    assert (d.key_from_index(-1), d.key_from_index(3)) == ('F', None)
    assert (d.get_previous_key('D'), d.get_next_key('D'), d.get_next_key('F')) == ('B', 'F', None)
    assert d.last_item() == ('F', 'f') and list(d.reversed_values()) == ['f', 'd', 'b']
    assert list(d.reversed_items())[0] == ('F', 'f')
    d.remove_sub('C', 'F')
    assert list(d) == ['B'] and d.remove('B') == 'b' and d.remove('B') is None
    d.fill({'A': 'a'})
    assert d == {'A': 'a'}


def test_history_keys_compare_as_phases_for_milas_bounds():
    # Plain strings as bounds: phase order, not the order of the letters
    # (W1901A comes before S1902M, F1902M before S1902M would not).
    game = dip.Game()
    game.set_units('FRANCE', ['A PAR'], reset=True)
    for _ in range(5):
        game.process()
    history = game.state_history
    assert [str(k) for k in history] == ['S1901M', 'F1901M', 'W1901A', 'S1902M', 'F1902M']
    assert [str(k) for k in history.sub_keys('F1901M', 'S1902M')] == ['F1901M', 'W1901A', 'S1902M']
    assert [str(k) for k in history.sub_keys('W1901A')] == ['W1901A', 'S1902M', 'F1902M']


def test_a_move_to_an_unknown_place_was_stored_as_a_hold():
    # dip's general reader reads `xxx` as DipWork's hold and a unit with no
    # order word as a hold; MILA files nothing for either (its error for a
    # move to an unknown place, none for a unit alone), and neither may dip.
    for text, error in (('A PAR - XXX', True), ('A PAR XXX', True), ('A PAR - BURX', True), ('A PAR', False)):
        game = dip.Game()
        game.set_orders('FRANCE', [text, 'F BRE - MAO'])
        assert game.get_orders('FRANCE') == ['F BRE - MAO'], text
        assert bool(game.error) == error, (text, game.error)
    # Holds MILA reads stay holds.
    for text in ('A PAR H', 'A PAR HOLD', 'A Paris holds'):
        game = dip.Game()
        game.set_orders('FRANCE', [text])
        assert game.get_orders('FRANCE') == ['A PAR H'], text
