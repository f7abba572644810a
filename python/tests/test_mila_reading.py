"""Order text read as MILA reads it: dip.Map's tables for it (`aliases`,
`unclear`, `keywords`) are MILA's on every map MILA ships, its tokenizer
(`compact`, `alias`, `rearrange`, `vet`) gives what MILA's gives, and
`set_orders` takes an order written with any of MILA's names of a place
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


@pytest.mark.parametrize('name', sorted(MILA_MAPS))
def test_aliases_unclear_names_and_keywords_are_milas_in_milas_order(name):
    # dip's aliases missed 110 of MILA's 245 on standard (its nicknames and
    # misspellings, coasts in brackets, the phrases every map has) and held
    # 114 of dip's own, which MILA's reader would have taken differently.
    ours, mila = dip.Map(name), diplomacy.Map(name)
    assert list(ours.aliases.items()) == list(mila.aliases.items())
    assert list(ours.unclear.items()) == list(mila.unclear.items())
    assert list(ours.keywords.items()) == list(mila.keywords.items())


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
