"""Order text read as MILA reads it: with MILA's tables (`aliases`,
`unclear`, `keywords`, compared in test_mila_compare.py), dip.Map's
tokenizer (`compact`, `alias`, `rearrange`, `vet`) gives what MILA's
gives, and `set_orders` takes an order written with any of MILA's names of a place
as MILA does. Skipped without MILA, except under DIP_REQUIRE_MILA=1
(scripts/python-tests.sh)."""
import random

import pytest

import dip
from _mila import mila_module
from test_dip import MILA_MAPS

diplomacy = mila_module('diplomacy')
# MILA computes these maps' convoy paths for minutes the first time a game
# is made on them (its Map alone is quick).
SLOW_MAPS = {'colonial', 'empire', 'world'}


def test_a_variant_mila_does_not_ship_has_milas_phrases_and_its_own_names():
    ours, standard = dip.Map('youngstown'), diplomacy.Map('standard')
    # MILA's maps start with the same 17 phrases ('NORTH COAST \\', 'VIA C', ...).
    assert list(ours.aliases.items())[:17] == list(standard.aliases.items())[:17]
    assert ours.keywords == standard.keywords
    assert ours.compact('Army Paris moves to Burgundy') == ['A', 'PAR', 'BUG']
    assert ours.compact('F north coast of St. Petersburg - Barents Sea') == ['F', 'STP/NC', 'BAR']


def _phrases(mila, rng, count):
    """Random phrases of MILA's words: aliases, keywords, brackets and the
    separators its reader gives a meaning."""
    vocab = sorted(mila.aliases) + sorted(mila.keywords) + [
        '(', ')', '[', ']', '*', '?', '~', '|', '\\', ':', '-', '=', 'VIA', 'OF', 'WITH', 'FROM', 'BY', 'OVER',
        'A', 'F', 'S', 'H', 'C', 'ZZZ', 'NORTH COAST', '/NC', '/SC', 'ENGLAND:', 'Fleet', 'army', 'bounce']
    for _ in range(count):
        yield ' '.join(rng.choice(vocab) for _ in range(rng.randint(1, 9)))


def _outcome(fn, *args):
    try:
        return fn(*args)
    except IndexError as error:
        return error


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_compact_rearrange_and_vet_read_random_phrases_as_milas(name):
    ours, mila = dip.Map(name), diplomacy.Map(name)
    rng = random.Random(name)
    compared = 0
    for phrase in _phrases(mila, rng, 1500):
        want = _outcome(mila.compact, phrase)
        # MILA fails on an empty bracket before or after a place
        # (`PAR ( )`, `[ ] BUR`: IndexError); dip reads the place.
        if isinstance(want, IndexError):
            continue
        assert ours.compact(phrase) == want, phrase
        assert ours.rearrange(list(want)) == mila.rearrange(list(want)), want
        arranged = mila.rearrange(list(want))
        for strict in (0, 1):
            assert ours.vet(arranged, strict) == mila.vet(arranged, strict), arranged
        compared += 1
    assert compared > 1200


# (What MILA 1.1.2 gives for each, checked against it below.)
@pytest.mark.parametrize('phrase, words', [
    ('England: Fleet Western Mediterranean -> Tyrrhenian Sea. (*bounce*)', ['F', 'WES', '-', 'TYS']),
    ('F north coast of Spain - Mid-Atlantic Ocean', ['F', 'SPA/NC', '-', 'MAO']),
    ('F SPA ( /NC ) - GULF OF LYON', ['F', 'SPA/NC', '-', 'LYO']),
    ('F Spain (nc) - Gulf of Lyons', ['F', 'SPA/NC', '-', 'LYO']),
    ('F Spain/nc - Portugal', ['F', 'SPA/NC', '-', 'POR']),
    # A coast written after the place without "of" is not one to MILA.
    ('F SPAIN NORTH COAST - MAO', ['F', 'SPA', 'NORTH', 'COAST', 'MAO']),
    ('A PAR S A BURG', ['A', 'PAR', 'S', 'A', 'BUR']),
    ('Army Burgandy supports Army Munich', ['A', 'BUR', 'S', 'A', 'MUN']),
    ('A MAR - BURG - MUN', ['A', 'MAR', '-', 'BUR', '-', 'MUN']),
    ('Army Brest via Channel to London', ['A', 'BRE', 'VIA', 'ENG', '-', 'LON']),
    ('F NORSEA C A LONDON - NORWAY', ['F', 'NTH', 'C', 'A', 'LON', '-', 'NWY']),
    ('F ENG CH - NORSEA', ['F', 'ENG', '-', 'NTH']),
    ('German Army Munich holds', ['GERMANY', 'A', 'MUN', 'H']),
    ('A Munich with German Army Berlin', ['A', 'GERMANY', 'A', 'BER', '-', 'MUN']),
    ('A Kiel from Berlin', ['A', 'BER', '-', 'KIE']),
])
def test_orders_as_people_write_them_are_compacted_and_arranged_as_milas(phrase, words):
    ours, mila = dip.Map(), diplomacy.Map()
    assert mila.rearrange(mila.compact(phrase)) == words
    assert ours.rearrange(ours.compact(phrase)) == words


@pytest.mark.parametrize('name', ['standard', 'ancmed'])
def test_game_expands_random_orders_as_milas(name):
    # What MILA's set_orders makes of an order's words before checking it
    # (and MILA's Renderer before drawing it).
    mila, ours = diplomacy.Game(map_name=name), dip.Game(map_name=name)
    rng = random.Random(name)
    compared = 0
    for phrase in _phrases(mila.map, rng, 1500):
        words = phrase.split()
        want = _outcome(lambda w: mila._add_unit_types(mila._expand_coast(mila._expand_order(w))), list(words))
        if isinstance(want, IndexError):
            continue  # MILA fails on a one-word order (and on empty brackets)
        assert ours._add_unit_types(ours._expand_coast(ours._expand_order(list(words)))) == want, words
        compared += 1
    assert compared > 500


def _hold_orders_with_every_alias(name, sample=None):
    """(alias, unit, MILA's orders, dip's orders) for a hold ordered with
    each of MILA's aliases of a location (the unit of the map's first
    power alone on the board there), on one game of each engine."""
    mila, ours = diplomacy.Game(map_name=name), dip.Game(map_name=name)
    power = sorted(mila.powers)[0]
    locs = {loc.upper() for loc in mila.map.locs}
    aliases = [(alias, loc) for alias, loc in mila.map.aliases.items() if loc.upper() in locs]
    if sample:
        aliases = random.Random(name).sample(aliases, min(sample, len(aliases)))
    for alias, loc in aliases:
        unit = next(('%s %s' % (t, loc) for t in 'AF' if mila.map.is_valid_unit('%s %s' % (t, loc))), None)
        if unit is None:
            continue  # Switzerland, or a province written without the coast its fleet needs
        got = []
        for game in (mila, ours):
            game.clear_units()
            game.clear_orders()
            game.set_units(power, [unit])
            game.set_orders(power, ['%s %s H' % (unit[0], alias)])
            got.append(game.get_orders(power))
        yield alias, unit, got[0], got[1]


def test_a_hold_written_with_every_milas_alias_of_every_standard_location_is_milas():
    # dip's set_orders dropped 73 of these 213 (`A BURG H`, `F NORSEA H`,
    # `F GULF OF LYON H`, `F SPA ( /NC ) H`): MILA files them.
    compared = 0
    for alias, unit, mila, ours in _hold_orders_with_every_alias('standard'):
        assert ours == mila, (alias, unit)
        assert mila, (alias, unit)
        compared += 1
    assert compared == 213


@pytest.mark.parametrize('name', sorted(set(MILA_MAPS) - SLOW_MAPS - {'standard'}))
def test_a_hold_written_with_milas_aliases_on_other_maps_is_milas(name):
    for alias, unit, mila, ours in _hold_orders_with_every_alias(name, sample=40):
        assert ours == mila, (alias, unit)


# Units on standard's board and orders written as people write them, with
# MILA's names, phrases and brackets (MILA reads each of them).
_UNITS = {'FRANCE': ['A PAR', 'A MAR', 'F SPA/NC', 'F BRE'], 'ENGLAND': ['F NTH', 'A LON', 'F ENG'],
          'GERMANY': ['A MUN', 'A BER', 'F KIE'], 'RUSSIA': ['F STP/SC', 'A MOS'], 'ITALY': ['F LYO', 'A PIE']}
_ORDERS = [
    ('FRANCE', 'A PARIS - BURG'), ('FRANCE', 'Army Marseilles supports Army Paris to Burgandy'),
    ('FRANCE', 'F north coast of Spain - Mid-Atlantic Ocean'), ('FRANCE', 'F SPA ( /NC ) - MAO'),
    ('FRANCE', 'F Spain (nc) - Portugal'), ('FRANCE', 'F BRE - ENG CH'), ('FRANCE', 'A MARS - PIEDMONT'),
    ('ENGLAND', 'F NORSEA C A LONDON - NORWAY'), ('ENGLAND', 'A LON - NORWAY VIA C'),
    ('ENGLAND', 'A LON - NWY VIA'), ('ENGLAND', 'F ENG CH S F BRE - MAO'), ('ENGLAND', 'F NRTH SEA - HELG'),
    ('GERMANY', 'A MUNICH - BURG'), ('GERMANY', 'A BERL - KIEL'), ('GERMANY', 'F KIEL - HELGOLAND BIGHT'),
    ('GERMANY', 'German Army Munich holds'), ('RUSSIA', 'F STPETE /SC - GULFOFB'),
    ('RUSSIA', 'A MOSCOW - LIVO'),
    ('ITALY', 'F GULFOFL - SPAIN ( /SC )'), ('ITALY', 'F GULF OF LYON S A PIE - MARS'),
    ('ITALY', 'F LYONS - WMED'), ('ITALY', 'A PIE - TUSC'),
]


def test_dip_reads_a_coast_written_after_its_place_which_mila_does_not():
    # Beyond MILA, deliberately: dip's reader takes every common syntax, so
    # an order MILA refuses may be filed (never one MILA reads otherwise).
    text = 'F St Petersburg south coast - Gulf of Bothnia'
    ours, mila = dip.Game(), diplomacy.Game()
    for game in (ours, mila):
        game.set_orders('RUSSIA', [text])
    assert mila.get_orders('RUSSIA') == []
    assert ours.get_orders('RUSSIA') == ['F STP/SC - BOT']


@pytest.mark.parametrize('power, order', _ORDERS)
def test_orders_with_milas_names_and_phrases_are_filed_as_milas(power, order):
    games = []
    for game in (diplomacy.Game(), dip.Game()):
        game.clear_units()
        for who, units in _UNITS.items():
            game.set_units(who, units)
        game.set_orders(power, [order])
        games.append(game)
    mila, ours = games
    assert ours.get_orders(power) == mila.get_orders(power), order


def test_milas_names_in_a_list_of_orders_keep_their_place_in_it():
    # An order dip reads only as MILA does stands where it was given: a
    # later order for the same unit replaces it, an earlier one gives way.
    for orders in (['A PARIS - BURG', 'A PAR - PIC'], ['A PAR - PIC', 'A PARIS - BURG'],
                   ['A PAR H', 'A MARS - BURG', 'F BRE - ENG CH', 'A MAR H']):
        for replace in (True, False):
            got = []
            for game in (diplomacy.Game(), dip.Game()):
                game.set_orders('FRANCE', orders, replace=replace)
                got.append(game.get_orders('FRANCE'))
            assert got[1] == got[0], (orders, replace)


def test_a_retreat_and_builds_written_with_milas_names_are_milas():
    from test_dip import _burgundy_dislodged
    ours = _burgundy_dislodged()
    mila = diplomacy.Game()
    mila.set_state(ours.get_state())
    for game in (mila, ours):
        game.set_orders('FRANCE', ['A BURG R GASC'])
    assert ours.get_orders('FRANCE') == mila.get_orders('FRANCE') == ['A BUR R GAS']
    ours, mila = dip.Game(), diplomacy.Game()
    for game in (mila, ours):
        game.clear_units('FRANCE')
        game.set_current_phase('W1901A')
        game.set_orders('FRANCE', ['A PARIS B', 'F MARS B', 'BUILD ARMY BREST'])
    assert ours.get_orders('FRANCE') == mila.get_orders('FRANCE')
    assert len(mila.get_orders('FRANCE')) == 3


def test_under_no_check_orders_with_milas_names_are_kept_as_given_as_milas():
    orders = ['A BURG H', 'A MAR - SPAIN ( /NC )', 'F BREST - ENG CH', 'A PAR - BURGUNDY']
    got = []
    for game in (diplomacy.Game(rules=['NO_CHECK', 'IGNORE_ERRORS']), dip.Game(rules=['NO_CHECK', 'IGNORE_ERRORS'])):
        game.set_orders('FRANCE', orders)
        got.append(game.get_orders('FRANCE'))
    assert got[1] == got[0] == ['A BURG H', 'A MAR - SPAIN ( /NC )', 'F BREST - ENG CH', 'A PAR - BURGUNDY']
