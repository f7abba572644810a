#!/usr/bin/env python3
"""Writes python/dip/mila_order/<map>.txt: the order in which MILA 1.1.2's
Map lists what dip.Map computes from dip's variant, for each map MILA ships.
dip's variants keep the facts (which places border which, names, centres,
homes) but not the order of the lines of MILA's map files, which MILA's
lists follow and outside code indexes into (a Gym environment's observation
vectors). Run again only to regenerate them:

    /tmp/venv/bin/python scripts/mila-map-order.py

Each file has one line per list, its first word saying which:
`abuts LOC N1 N2 …` (the neighbours of LOC in `loc_abut[LOC]`, upper case),
`names L1 L2 …` (the locations of `loc_name` in the order of its keys),
`scs C1 C2 …`, `homes POWER C1 C2 …`, and MILA's tables for reading order
text, in the order of its dicts: `alias KEY TARGET` (`aliases`, the other
names of places and powers, and the phrases every map has), `unclear KEY
TARGET` (names that may be a power or a place) and, in words.txt (the
same for every map), `keyword WORD VALUE` (`keywords`) and the `alias`
lines of the phrases every map has. Keys and values
may hold spaces: written with `+` for each space (MILA's norm leaves no
`+`), and an empty value as a lone `+`.
"""
import pathlib

from diplomacy.engine.map import Map
from diplomacy.utils import ALIASES

MAPS = ['standard', 'ancmed', 'modern', 'pure', 'standard_fleet_rome', 'colonial', 'empire', 'world',
        'standard_france_austria', 'standard_germany_italy']
OUT = pathlib.Path(__file__).resolve().parents[1] / 'python' / 'dip' / 'mila_order'


def main():
    OUT.mkdir(exist_ok=True)
    for name in MAPS:
        m = Map(name)
        lines = ['# The order of MILA 1.1.2\'s Map lists on %s (from its map file, as published with'
                 % name,
                 '# MILA\'s `diplomacy` package, AGPL); written by scripts/mila-map-order.py.']
        for loc, near in m.loc_abut.items():
            lines.append('abuts %s %s' % (loc.upper(), ' '.join(n.upper() for n in near)))
        lines.append('names ' + ' '.join(v.upper() for v in m.loc_name.values()))
        lines.append('scs ' + ' '.join(m.scs))
        for power, homes in m.homes.items():
            lines.append('homes %s %s' % (power, ' '.join(homes)))
        lines += ['alias %s %s' % (_word(k), _word(v)) for k, v in m.aliases.items()]
        lines += ['unclear %s %s' % (_word(k), _word(v)) for k, v in m.unclear.items()]
        (OUT / (name + '.txt')).write_text('\n'.join(lines) + '\n')
    lines = ['# The order words of MILA 1.1.2\'s Map (`keywords`, and the `aliases` every map starts with,',
             '# as published with MILA\'s `diplomacy` package, AGPL); written by scripts/mila-map-order.py.']
    lines += ['keyword %s %s' % (_word(k), _word(v)) for k, v in Map('standard').keywords.items()]
    lines += ['alias %s %s' % (_word(k), _word(v)) for k, v in ALIASES.items()]
    (OUT / 'words.txt').write_text('\n'.join(lines) + '\n')


def _word(text):
    """A key or value as one word of the file: spaces as `+`, empty as `+`."""
    assert '+' not in text and '\t' not in text and '\n' not in text, text
    return text.replace(' ', '+') or '+'


if __name__ == '__main__':
    main()
