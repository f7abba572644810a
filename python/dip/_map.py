"""``dip.Map``: MILA's ``diplomacy.engine.map.Map`` computed from a dip
variant (``game.map``). Locations are written as MILA writes them: a
province with coasts in lower case (``bul``) beside its coasts
(``BUL/EC``), every other location in upper case; a border only armies
may cross (between two coasts) in lower case, one only fleets may cross
into a coast or port in title case (``Tar``), as in MILA's map files.
"""
import os as _os
import re as _re

_SEASONS = [('SPRING', 'MOVEMENT'), ('SPRING', 'RETREATS'), ('FALL', 'MOVEMENT'), ('FALL', 'RETREATS'),
            ('WINTER', 'ADJUSTMENTS')]
_COAST_WORDS = {'NC': 'NORTH COAST', 'SC': 'SOUTH COAST', 'EC': 'EAST COAST', 'WC': 'WEST COAST'}
_HERE = _os.path.dirname(__file__)


def _table_word(word):
    """A key or value of mila_order's files: `+` stands for a space, a lone `+` for nothing."""
    return '' if word == '+' else word.replace('+', ' ')


def _read_words():
    """MILA's order words (``keywords``: word → its short form) and the
    phrases every MILA map's ``aliases`` starts with (mila_order/words.txt)."""
    keywords, phrases = {}, {}
    with open(_os.path.join(_HERE, 'mila_order', 'words.txt')) as lines:
        for line in lines:
            words = line.split()
            if len(words) == 3 and words[0] in ('keyword', 'alias'):
                (keywords if words[0] == 'keyword' else phrases)[_table_word(words[1])] = _table_word(words[2])
    return keywords, phrases


KEYWORDS, _PHRASES = _read_words()
# MILA's `norm`: these become spaces, these are set apart.
_DROPPED = '.:-+,'
_SPACED = '|*?!~()[]=_^'

# What `vet` says a word of a compacted order is, as MILA numbers them.
UNDETERMINED, POWER, UNIT, LOCATION, COAST, ORDER, MOVE_SEP, OTHER = range(8)
_PLACES = (LOCATION, COAST)


def _norm(phrase, keywords=KEYWORDS):
    phrase = str(phrase).upper().replace('/', ' /').replace(' / ', '')
    for ch in _DROPPED:
        phrase = phrase.replace(ch, ' ')
    for ch in _SPACED:
        phrase = phrase.replace(ch, ' %s ' % ch)
    return ' '.join(keywords.get(word, word) for word in phrase.strip().split())


class Map:
    """MILA's Map on a dip variant: ``Map(name)`` loads it as
    ``dip.Game(map_name=name)`` does; ``game.map`` is the game's."""

    def __init__(self, name='standard', use_cache=True, engine=None):
        if engine is None:
            from . import Game
            engine = Game(map_name=name)
        facts = engine._map_facts()
        self.name = engine._map_name if name is None else str(name)
        # The map a MILA map file extends (its pictures are that map's).
        self.root_map = 'standard' if self.name.startswith('standard_') else self.name
        self.files = []
        self.svg_path = None
        self.error = []
        self.validated = 1
        self.first_year = engine._first_year
        self.victory = None
        self.phase = 'SPRING %d MOVEMENT' % self.first_year
        # As MILA's, in alphabetical order (the game's powers are too).
        self._variant_powers = list(engine._powers())
        self.powers = sorted(self._variant_powers)
        self.pow_name = {p: p for p in self.powers}
        self.own_word = dict(zip(self._variant_powers, facts['adjectives']))
        self.own_word['UNOWNED'] = 'UNOWNED'
        self.abbrev = {}
        self.dummies, self.inhabits, self.owns = [], [], []
        self.flow = ['SPRING:MOVEMENT,RETREATS', 'FALL:MOVEMENT,RETREATS', 'WINTER:ADJUSTMENTS']
        self.flow_sign = 1
        self.seq = ['NEWYEAR'] + ['%s %s' % s for s in _SEASONS]
        self.unclear = {}
        self.keywords = dict(KEYWORDS)
        self.convoy_paths = {}
        self.rules = ['BUILD_ANY'] if facts.get('build_any') else []
        self.unit_names = {}
        self.homes = {p: sorted(h) for p, h in facts['homes'].items()}
        self.centers = {p: list(c) for p, c in facts['centers'].items()}
        self.units = {p: list(u) for p, u in facts['units'].items()}
        self.scs = [c for p in self.powers for c in self.homes[p]]
        self._build_locations(facts)
        self.scs += [c for c in self._sc_list if c not in self.scs]
        self._take_milas_order()
        self._abuts_memo = {}
        self._dest_with_coasts = None

    # ---- building ----------------------------------------------------------
    def _take_milas_order(self):
        """Puts ``loc_abut``'s lists, ``loc_name``, ``scs`` and ``homes`` in
        the order of MILA's map file (mila_order/<map>.txt, for the maps MILA
        ships): dip's variants keep what is in them, not the order of MILA's
        lines. What is listed stays dip's; only its order is taken. The
        tables for reading order text (``aliases``, ``unclear``) are MILA's
        own: its nicknames and misspellings of places are in no variant."""
        path = _os.path.join(_HERE, 'mila_order', '%s.txt' % self.name)
        if self.name == 'words' or not _re.fullmatch(r'[a-z_]+', self.name) or not _os.path.isfile(path):
            return
        aliases, unclear = {}, {}

        def by(order):
            rank = {w: i for i, w in enumerate(order)}
            return lambda x: rank.get(x.upper(), len(rank))
        with open(path) as lines:
            for line in lines:
                words = line.split()
                if not words or words[0].startswith('#'):
                    continue
                kind, rest = words[0], words[1:]
                if kind == 'abuts':
                    key = rest[0] if rest[0] in self.loc_abut else rest[0].lower()
                    if key in self.loc_abut:
                        self.loc_abut[key] = sorted(self.loc_abut[key], key=by(rest[1:]))
                elif kind == 'names':
                    rank = by(rest)
                    self.loc_name = dict(sorted(self.loc_name.items(), key=lambda kv: rank(kv[1])))
                elif kind == 'scs':
                    self.scs = sorted(self.scs, key=by(rest))
                elif kind == 'homes' and rest[0] in self.homes:
                    self.homes[rest[0]] = sorted(self.homes[rest[0]], key=by(rest[1:]))
                elif kind in ('alias', 'unclear') and len(rest) == 2:
                    (aliases if kind == 'alias' else unclear)[_table_word(rest[0])] = _table_word(rest[1])
        if aliases:
            self.aliases, self.unclear = aliases, unclear

    def _build_locations(self, facts):
        # Provinces in MILA's order of locations (that of its map files).
        order = facts['mila_locs']
        at = {loc: i for i, loc in enumerate(order)}
        provinces = sorted(facts['provinces'], key=lambda p: at[p[0]])
        split = {abbr for abbr, _, _, _, coasts, _, _ in provinces if coasts}
        self._sc_list = [abbr for abbr, _, _, sc, _, _, _ in provinces if sc]
        kind = {}
        for abbr, _, terrain, _, coasts, _, convoys in provinces:
            kind[abbr] = 'PORT' if terrain == 'COAST' and convoys else terrain
            for c in coasts:
                kind[c] = 'COAST'
        self.loc_type = {}
        self.loc_coasts = {}
        self.loc_name = {}
        # MILA's phrases first, as in MILA's maps; a map MILA ships then
        # takes MILA's whole table (_take_milas_order).
        self.aliases = dict(_PHRASES)
        self.locs = [loc.lower() if loc in split else loc for loc in order]
        for abbr, name, _, _, coasts, aliases, _ in provinces:
            key = abbr.lower() if coasts else abbr
            self.loc_type[key] = kind[abbr]
            for c in coasts:
                self.loc_type[c] = 'COAST'
            every = list(coasts) + [abbr]
            for loc in every:
                self.loc_coasts[loc] = list(every)
            full = name.upper()
            self.loc_name[full] = abbr
            for c in coasts:
                word = c.split('/')[1]
                self.loc_name['%s (%s)' % (full, _COAST_WORDS.get(word, word + ' COAST'))] = c
            for alias in aliases:
                self.aliases.setdefault(_norm(alias), abbr)
        # As MILA's: every location's full name, and each power's name and
        # adjective, stand for it too.
        for full, loc in self.loc_name.items():
            self.aliases.setdefault(_norm(full), loc)
        for power, adjective in zip(self._variant_powers, facts['adjectives']):
            self.aliases.setdefault(power, power)
            self.aliases.setdefault(_norm(adjective), power)
        # Borders by unit type: location → {neighbour location}.
        moves = {}
        for letter, unit_name, edges, _ in facts['unit_types']:
            self.unit_names[letter] = unit_name
            by_loc = moves.setdefault(letter, {})
            for a, b in edges:
                by_loc.setdefault(a, set()).add(b)
        army = moves.get('A', {})
        fleet = moves.get('F', {})
        self._moves = moves
        fleet_into = lambda loc: {b[:3] if '/' in b else b for b in fleet.get(loc, ())}
        self.loc_abut = {}
        for abbr, _, terrain, _, coasts, _, _ in provinces:
            if coasts:
                near = set(b[:3] for b in army.get(abbr, ()))
                for c in coasts:
                    near |= {b[:3] for b in fleet.get(c, ())}
                    self.loc_abut[c] = sorted(fleet.get(c, ()), key=str.upper)
                self.loc_abut[abbr.lower()] = sorted(near)
                continue
            out = []
            by_sea = fleet.get(abbr, set())
            by_land = army.get(abbr, set())
            coasts_listed = {b[:3] for b in by_sea if '/' in b}
            for b in sorted(by_sea | by_land):
                if b in coasts_listed:
                    continue  # an army's border into a province whose coasts are listed
                target = kind.get(b, 'COAST')
                if b in by_land and b not in by_sea and b[:3] not in fleet_into(abbr):
                    both_coastal = kind[abbr] in ('COAST', 'PORT') and target in ('COAST', 'PORT')
                    out.append(b.lower() if both_coastal else b)
                elif b in by_sea and b not in by_land and '/' not in b and target in ('COAST', 'PORT') \
                        and kind[abbr] != 'WATER':
                    out.append(b.title())
                else:
                    out.append(b)
            self.loc_abut[abbr] = sorted(out, key=str.upper)
        # An impassable province (Switzerland) has no borders, but MILA
        # lists it and what it touches as neighbours of each other.
        for shut, near in facts.get('touches', []):
            self.loc_abut[shut] = sorted(near)
            for other in near:
                key = other if other in self.loc_abut else other.lower()
                self.loc_abut[key] = sorted(self.loc_abut.get(key, []) + [shut], key=str.upper)
        # MILA's dicts of locations list them in the order of `locs`.
        rank = {loc.upper(): i for i, loc in enumerate(self.locs)}
        by_loc = lambda d: dict(sorted(d.items(), key=lambda kv: rank.get(kv[0].upper(), len(rank))))
        self.loc_type, self.loc_abut, self.loc_coasts = by_loc(self.loc_type), by_loc(self.loc_abut), by_loc(self.loc_coasts)
        self.loc_name = dict(sorted(self.loc_name.items(), key=lambda kv: rank.get(kv[1], len(rank))))
        self._known = {loc.lower() for loc in self.locs}

    def build_cache(self):
        """Fills ``abuts_cache`` and ``dest_with_coasts``, as MILA's (both
        are otherwise made when first asked for)."""
        self._abuts_memo = {}
        self._dest_with_coasts = None
        return self.abuts_cache

    @property
    def abuts_cache(self):
        """(unit type, location, order type, location) → 1 or 0, every
        location with every other, as MILA's (made on first use)."""
        upper = [loc.upper() for loc in self.locs]
        if len(self._abuts_memo) < len(upper) ** 2 * 6:
            for loc in upper:
                for other in upper:
                    for unit_type in ('A', 'F'):
                        for order_type in ('-', 'S', 'C'):
                            self.abuts(unit_type, loc, order_type, other)
        return self._abuts_memo

    @property
    def dest_with_coasts(self):
        """Location → every location of each neighbouring province."""
        if self._dest_with_coasts is None:
            out = {}
            for loc in (loc.upper() for loc in self.locs):
                dests = []
                for place in self.abut_list(loc, incl_no_coast=True):
                    dests.extend(self.find_coasts(place.upper()))
                out[loc] = list(dict.fromkeys(dests))
            self._dest_with_coasts = out
        return self._dest_with_coasts

    def __str__(self):
        return self.name

    def __deepcopy__(self, memo):
        import copy
        other = Map.__new__(Map)
        other.__dict__ = copy.deepcopy(self.__dict__, memo)
        return other

    # ---- places ----------------------------------------------------------------
    def area_type(self, loc):
        """'WATER', 'COAST', 'PORT', 'LAND' or 'SHUT' (None for an unknown place)."""
        return self.loc_type.get(str(loc).upper()) or self.loc_type.get(str(loc).lower())

    def find_coasts(self, loc):
        """Every location of the province of ``loc`` (``BUL`` → its coasts and itself)."""
        return self.loc_coasts.get(str(loc).upper(), [])

    def abut_list(self, site, incl_no_coast=False):
        """The neighbours of ``site`` as written in ``loc_abut``; with
        ``incl_no_coast``, a coast's province too."""
        found = self.loc_abut.get(site) if site in self.loc_abut else self.loc_abut.get(str(site).lower(), [])
        found = found or []
        if incl_no_coast:
            found = found[:]
            for loc in list(found):
                if '/' in loc and loc[:3] not in found:
                    found.append(loc[:3])
        return found

    def is_valid_unit(self, unit, no_coast_ok=0, shut_ok=0):
        """May this unit (``'F SPA/SC'``) stand there?"""
        unit_type, loc = str(unit).upper().split()
        area = self.area_type(loc)
        if area == 'SHUT':
            return 1 if shut_ok else 0
        if unit_type == '?':
            return 1 if area is not None else 0
        if unit_type == 'A':
            return '/' not in loc and area in ('LAND', 'COAST', 'PORT')
        return (unit_type == 'F' and area in ('WATER', 'COAST', 'PORT')
                and (no_coast_ok or loc.lower() not in self.loc_abut))

    def abuts(self, unit_type, unit_loc, order_type, other_loc):
        """1 when a ``unit_type`` unit in ``unit_loc`` can move to (``-``),
        support into (``S``) or be convoyed by way of (``C``) ``other_loc``."""
        if unit_type == '?':
            return self.abuts('A', unit_loc, order_type, other_loc) or self.abuts('F', unit_loc, order_type, other_loc)
        key = (unit_type, unit_loc.upper(), order_type, other_loc.upper())
        found = self._abuts_memo.get(key)
        if found is None:
            found = self._abuts_memo[key] = self._abuts(*key) if key[1].lower() in self._known else 0
        return found

    def _abuts(self, unit_type, unit_loc, order_type, other_loc):
        unit_loc, other_loc = unit_loc.upper(), other_loc.upper()
        if not self.is_valid_unit(unit_type + ' ' + unit_loc):
            return 0
        if '/' in other_loc:
            if order_type == 'S':
                other_loc = other_loc[:3]
            elif unit_type == 'A':
                return 0
        place = next((p for p in self.abut_list(unit_loc) if other_loc in (p.upper(), p.upper()[:3])), None)
        if place is None:
            return 0
        other_type = self.area_type(other_loc)
        if other_type == 'SHUT':
            return 0
        if unit_type == '?':
            return 1
        if unit_type == 'F':
            if other_type == 'LAND' or place[0] != place[0].upper() \
                    or (order_type != 'S' and other_loc not in self.loc_type):
                return 0
        elif order_type != 'C' and (other_type == 'WATER' or place == place.title() and place != place.upper()):
            return 0
        return 1

    def default_coast(self, word):
        """``['F', 'GRE', '-', 'BUL']`` → ``['F', 'GRE', '-', 'BUL/SC']``: the
        coast of a fleet's move when only one can be reached."""
        if len(word) == 4 and word[0] == 'F' and word[2] == '-' and '/' not in word[3]:
            single = None
            for place in self.abut_list(word[1]):
                up = place.upper()
                if word[3] == up:
                    return word
                if word[3] == up[:3]:
                    if single:
                        return word
                    single = up
            word[3] = single or word[3]
        return word

    def norm_power(self, power):
        """A power's name as MILA compares them: ``norm`` without spaces."""
        return self.norm(power).replace(' ', '')

    def norm(self, phrase):
        """MILA's normal form of a phrase: upper case, ``. : - + ,``
        dropped, ``| * ? ! ~ ( ) [ ] = _ ^`` set apart, a slash set apart
        before, order words written out as letters (``FLEET`` → ``F``)."""
        return _norm(phrase, self.keywords)

    # ---- MILA's reading of order text -------------------------------------
    def compact(self, phrase):
        """The words of an order or result line in short form: written-out
        words and names replaced by letters and abbreviations (``'England:
        Fleet Western Mediterranean -> Tyrrhenian Sea. (*bounce*)'`` →
        ``['F', 'WES', 'TYS', '|']``); a power's name before a colon is left out."""
        head, colon, rest = str(phrase).partition(':')
        if colon:
            said = self.vet(self.compact(head))
            if len(said) == 1 and said[0][1] == POWER:
                phrase = rest
        words = self.norm(phrase).split()
        out = []
        while words:
            short, used = self.alias(words)
            out.extend(short.split())
            words = words[used:]
        return out

    def alias(self, word):
        """The short form of the first words of ``word`` (already ``norm``ed)
        and how many words it took: the longest run of words that is an
        alias, a place joined with the coast written after it (``SPA /NC``
        → ``SPA/NC``, ``NORTH COAST OF SPAIN`` too), words in brackets read
        on their own (``( * ... * )`` is a result and kept bare)."""
        first = word[0]
        if first in ('(', '['):
            return self._bracketed(word)
        used = next((n for n in range(len(word), 0, -1) if ' '.join(word[:n]) in self.aliases), 0)
        short = self.aliases[' '.join(word[:used])] if used else first
        used = used or 1
        if used == len(word):
            return self._place_or_power(short), used
        if ' ' not in short and not short.startswith('/'):
            # A place, unless a coast follows.
            coast, more = self.alias(word[used:])
            if not coast.startswith('/') or ' ' in coast:
                return self._place_or_power(short), used
            place = short
        elif short.endswith(' \\'):
            # "north coast of": the place comes after.
            place, more = self.alias(word[used:])
            if place.startswith('/') or ' ' in place or not place:
                return short, used
            coast = short[:-2]
        else:
            return self._place_or_power(short), used
        place = self._place_or_power(place)
        joined = place + ' ' + coast
        return (self.aliases[joined] if joined in self.aliases else place + coast), used + more

    def _bracketed(self, word):
        closing = ')' if word[0] == '(' else ']'
        end = next((k for k in range(1, len(word)) if word[k] == closing), None)
        if end is None:
            return word[0], 1
        if end == 1:
            return '', 2
        if word[1] == '*' and word[end - 1] == '*':
            inside = word[2:end - 1]
        else:
            inside = word[1:end]
            # "( north coast )" alone is the coast.
            coast = self.aliases.get(' '.join(inside) + ' \\', '')
            if coast.endswith(' \\'):
                return coast[:-2], end + 1
        parts = []
        while inside:
            short, used = self.alias(inside)
            if short:
                parts.append(short)
            inside = inside[used:]
        return ' '.join(parts), end + 1

    def _place_or_power(self, name):
        """A power's name that is also a place's (``unclear``) read as the place."""
        return self.unclear[name] if name in self.powers and name in self.unclear else name

    def vet(self, word, strict=0):
        """Each word of a compacted order with what it is (``POWER``,
        ``UNIT``, ``LOCATION``, ``COAST``, ``ORDER``, ``MOVE_SEP``,
        ``OTHER`` or ``UNDETERMINED``: 0 to 7), by its form alone; with
        ``strict``, negative for a word that is no alias's or keyword's value."""
        known = set(self.aliases.values()) | set(self.keywords.values()) if strict else None
        out = []
        for thing in word:
            if ' ' in thing:
                kind = UNDETERMINED
            elif len(thing) == 1:
                kind = (UNIT if thing in self.unit_names else ORDER if thing.isalnum()
                        else MOVE_SEP if thing in '-=_' else OTHER)
            elif '/' in thing:
                kind = COAST if thing.index('/') == 3 else POWER
            elif thing == 'VIA':
                kind = ORDER
            else:
                kind = LOCATION if len(thing) == 3 else POWER
            if known is not None and thing not in known:
                kind = -kind
            out.append((thing, kind))
        return out

    def rearrange(self, word):
        """Compacted words put in the order of an order (``['ENGLAND', 'F',
        'WES', 'TYS', '|']`` → ``['ENGLAND', 'F', 'WES', '-', 'TYS']``):
        results around it dropped, a unit named after "with" and a place
        after "from" moved to the front, the order word after the unit's
        place, the power before the unit, and ``-`` between two places."""
        seq = self.vet(['|'] + list(word) + ['|'])
        # Results (and separators) at either end go.
        seq[0] = ('|', UNDETERMINED)
        while seq[-2][1] == OTHER:
            del seq[-2]
        if len(seq) == 2:
            return []
        seq[0] = ('|', OTHER)
        while seq[1][1] == OTHER:
            del seq[1]
        self._unit_after_with_first(seq)
        self._place_after_from_first(seq)
        self._place_after_via_last(seq)
        self._order_word_after_place(seq)
        self._power_before_unit(seq)
        at = len(seq) - 1
        while at > 1:
            if seq[at][1] in _PLACES and seq[at - 1][1] in _PLACES:
                seq.insert(at, ('-', MOVE_SEP))
            at -= 1
        return [thing for thing, _ in seq[1:-1]]

    @staticmethod
    def _unit_after_with_first(seq):
        """The first "with" (``?``) brings the power, unit and place after
        it forward, to before the last of the powers and units it finds at
        the start; every ``?`` goes."""
        moved = False
        while ('?', OTHER) in seq:
            at = seq.index(('?', OTHER))
            del seq[at]
            if moved:
                continue
            end = at
            while seq[end][1] in (POWER, UNIT):
                end += 1
            if seq[end][1] in _PLACES:
                end += 1
            if end == at:
                continue
            moved = True
            lead = 1
            while lead < at - 1 and seq[lead][1] in (POWER, UNIT):
                lead += 1
            if at == 1:
                lead = 0
            seq[lead:lead] = seq[at:end]
            del seq[end:2 * end - at]

    @staticmethod
    def _place_after_from_first(seq):
        """The place after "from" (``\\``) goes before the places (and
        ``~``) just before it."""
        while ('\\', OTHER) in seq:
            at = seq.index(('\\', OTHER))
            del seq[at]
            if seq[at][1] not in _PLACES:
                continue
            to = at
            while to > 0 and (seq[to - 1][1] in _PLACES or seq[to - 1][0] == '~'):
                to -= 1
            if to != at:
                seq.insert(to, seq.pop(at))

    @staticmethod
    def _place_after_via_last(seq):
        """In ``A ~ B C`` ("A by way of B to C", after two places) the place
        before ``~`` goes after the places that follow it."""
        while ('~', OTHER) in seq:
            at = seq.index(('~', OTHER))
            del seq[at]
            if not all(seq[k][1] in _PLACES for k in (at, at - 1, at - 2)):
                continue
            end = at + 1
            while seq[end][1] in _PLACES:
                end += 1
            seq.insert(end, seq[at - 1])
            del seq[at - 1]

    @staticmethod
    def _order_word_after_place(seq):
        """An order word before the first place goes after that place."""
        word_at = 0
        for at in range(1, len(seq)):
            if seq[at][1] in _PLACES:
                if word_at:
                    seq.insert(at + 1, seq[word_at])
                    del seq[word_at]
                return
            if seq[at][1] == ORDER:
                word_at = at
            elif seq[at][0] == '|':
                return

    def _power_before_unit(self, seq):
        """A power named just after a unit type goes before it; one named
        after a unit that is also a place's name is read as the place."""
        state = 0  # 0: an order may start, 1: just after a unit type, 2: otherwise
        for at in range(len(seq)):
            thing, kind = seq[at]
            if kind == POWER:
                if state and thing in self.unclear:
                    seq[at] = (self.unclear[thing], LOCATION)
                elif state == 1:
                    seq[at - 1], seq[at] = seq[at], seq[at - 1]
                state = 2
            elif kind == UNIT and not state:
                state = 1
            elif kind == ORDER:
                state = 0
            else:
                state = 2

    def add_homes(self, power, homes, reinit):
        """Sets (``reinit``) or extends the home centres of ``power``."""
        power = power.upper()
        if reinit or power not in self.homes:
            self.homes[power] = []
        for home in homes:
            home = home.upper()[:3]
            if home not in self.homes[power]:
                self.homes[power].append(home)

    def drop(self, place):
        """Removes a province and everything naming it."""
        place = place.upper()[:3]
        gone = lambda loc: loc.upper().startswith(place)
        self.locs = [loc for loc in self.locs if not gone(loc)]
        self.loc_name = {k: v for k, v in self.loc_name.items() if not v.startswith(place)}
        self.aliases = {k: v for k, v in self.aliases.items() if not v.startswith(place)}
        self.homes = {p: [h for h in hs if h != place] for p, hs in self.homes.items()}
        self.units = {p: [u for u in us if u[2:5] != place] for p, us in self.units.items()}
        self.scs = [c for c in self.scs if not gone(c)]
        self.centers = {p: [c for c in cs if not c.startswith(place)] for p, cs in self.centers.items()}
        self.loc_abut = {k: [x for x in v if not gone(x)] for k, v in self.loc_abut.items() if not gone(k)}
        self.loc_type = {k: v for k, v in self.loc_type.items() if not gone(k)}
        self.loc_coasts = {k: [x for x in v if not gone(x)] for k, v in self.loc_coasts.items() if not gone(k)}

    # ---- phases ----------------------------------------------------------------
    @staticmethod
    def compare_phases(phase_1, phase_2):
        """-1, 0 or 1 as ``phase_1`` comes before, with or after ``phase_2``
        (short names; FORMING first, COMPLETED last; ``?`` matches any type)."""
        def key(p):
            p = str(p)
            if p == 'FORMING':
                return (0,)
            if p == 'COMPLETED':
                return (2,)
            m = _re.match(r'^([SFW])(-?\d+)(.)$', p)
            if not m:
                return (1, 0, 0)
            return (1, int(m.group(2)), 'SFW'.index(m.group(1)))
        a, b = key(phase_1), key(phase_2)
        if a == b and len(a) > 1:
            t1, t2 = str(phase_1)[-1], str(phase_2)[-1]
            if '?' in (t1, t2) or t1 == t2:
                return 0
            return -1 if 'MRA'.find(t1) < 'MRA'.find(t2) else 1
        return -1 if a < b else (1 if b < a else 0)

    def phase_abbr(self, phase, default='?????'):
        """``SPRING 1901 MOVEMENT`` → ``S1901M`` (FORMING, COMPLETED unchanged)."""
        words = str(phase).upper().split()
        if len(words) == 1 and words[0] in ('FORMING', 'COMPLETED'):
            return words[0]
        if len(words) == 3 and words[1].lstrip('-').isdigit() and (words[0], words[2]) in _SEASONS:
            return '%s%04d%s' % (words[0][0], int(words[1]), words[2][0])
        return default

    def phase_long(self, phase_abbr, default='?????'):
        """``S1901M`` → ``SPRING 1901 MOVEMENT``."""
        p = str(phase_abbr).upper()
        m = _re.match(r'^([SFW])(-?\d+)([MRA])$', p)
        if not m:
            return default
        for season, kind in _SEASONS:
            if season[0] == m.group(1) and kind[0] == m.group(3):
                return '%s %d %s' % (season, int(m.group(2)), kind)
        return default

    def _step(self, phase, phase_type, skip, direction):
        if phase in ('FORMING', 'COMPLETED'):
            return phase
        words = str(phase).split()
        if len(words) != 3 or (words[0], words[2]) not in _SEASONS:
            return phase
        year, at = int(words[1]), _SEASONS.index((words[0], words[2]))
        while True:
            at += direction
            if at == len(_SEASONS):
                at, year = 0, year + 1
            elif at < 0:
                at, year = len(_SEASONS) - 1, year - 1
            if phase_type is None or _SEASONS[at][1][0] == phase_type:
                if skip == 0:
                    return '%s %d %s' % (_SEASONS[at][0], year, _SEASONS[at][1])
                skip -= 1

    def find_next_phase(self, phase, phase_type=None, skip=0):
        """The phase after ``phase`` (of ``phase_type`` M/R/A, ``skip`` of them passed)."""
        return self._step(phase, phase_type, skip, 1)

    def find_previous_phase(self, phase, phase_type=None, skip=0):
        """The phase before ``phase`` (of ``phase_type`` M/R/A, ``skip`` of them passed)."""
        return self._step(phase, phase_type, skip, -1)
