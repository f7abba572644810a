"""dip: a MILA-compatible ``Game`` on dip's Rust engine.

    import dip
    game = dip.Game()                      # MILA's diplomacy.Game API
    game.set_orders('FRANCE', ['A PAR - BUR'])
    game.process()

Positions, orders, legal orders and adjudication live in Rust
(``dip._dip.Engine``); this module gives them MILA's names and shapes.
"""
import copy as _copy
import json as _json
import time as _time

from ._dip import Engine, add_variant_path, process_many as _process_many, variants as _variants
from . import _map
from ._map import Map
from ._message import GLOBAL, Message, message_dict as _message_dict

__all__ = ["Game", "Map", "Message", "Power", "SortedDict", "GamePhaseData", "process_multi", "variants", "add_variant_path",
           "to_saved_game_format", "from_saved_game_format", "DipError"]

# MILA's default rules (diplomacy 1.1.2).
DEFAULT_RULES = ['NO_DEADLINE', 'CD_DUMMIES', 'ALWAYS_WAIT', 'SOLITAIRE', 'NO_PRESS', 'IGNORE_ERRORS',
                 'POWER_CHOICE']
# MILA's rules (its README_RULES.txt) and what each implies: + adds,
# - removes, ! forbids.
_MILA_RULES = {
    'POWER_CHOICE': {}, 'MULTIPLE_POWERS_PER_PLAYER': {}, 'NO_OBSERVATIONS': {},
    'SOLITAIRE': {'+': ('NO_DEADLINE', 'CD_DUMMIES', 'ALWAYS_WAIT')}, 'START_MASTER': {},
    'NO_PRESS': {'-': ('PUBLIC_PRESS',)}, 'PUBLIC_PRESS': {'-': ('NO_PRESS',)},
    'DONT_SKIP_PHASES': {}, 'IGNORE_ERRORS': {}, 'BUILD_ANY': {},
    'CIVIL_DISORDER': {'+': ('CD_DUMMIES',)}, 'CD_DUMMIES': {}, 'NO_DEADLINE': {},
    'REAL_TIME': {'!': ('ALWAYS_WAIT',)}, 'ALWAYS_WAIT': {'!': ('REAL_TIME',)},
    'PROPOSE_DIAS': {'!': ('NO_DIAS',)}, 'NO_DIAS': {'!': ('PROPOSE_DIAS',)},
    'HOLD_WIN': {}, 'SHARED_VICTORY': {}, 'NO_CHECK': {}, 'DIFFERENT_ADJUDICATION': {},
}
# MILA's rules that change the game in ways dip.Game does not play: refused
# rather than silently played otherwise.
_RULES_NOT_PLAYED = {
    'DONT_SKIP_PHASES': 'phases with nothing to do are played',
    'BUILD_ANY': 'builds at any owned centre: only on a map that does (modern)',
    'HOLD_WIN': 'a win needs the victory held for a year',
    'SHARED_VICTORY': 'several powers may win at once',
}
# Rules to_saved_game_format leaves out (as MILA does).
_RULES_TO_SKIP = ['SOLITAIRE', 'NO_DEADLINE', 'CD_DUMMIES', 'ALWAYS_WAIT', 'IGNORE_ERRORS']


class DipError(ValueError):
    """An order or unit dip could not read (raised when IGNORE_ERRORS is off)."""


def variants():
    """Names of the variants bundled with dip (``dip.Game(variant=name)``)."""
    return list(_variants())


class SortedDict(dict):
    """A dict kept in key order, with MILA's SortedDict helpers (MILA's own
    functions, such as its export's ``Game.get_phase_history(game)``, call
    them on a dip game's histories)."""

    def first_key(self):
        return next(iter(self)) if self else None

    def last_key(self):
        return next(reversed(self)) if self else None

    def first_value(self):
        return self[self.first_key()] if self else None

    def last_value(self):
        return self[self.last_key()] if self else None

    def last_item(self):
        key = self.last_key()
        return key, self[key]

    def put(self, key, value):
        self[key] = value

    def remove(self, key):
        return self.pop(key, None)

    def reversed_values(self):
        return (self[k] for k in reversed(self))

    def reversed_items(self):
        return ((k, self[k]) for k in reversed(self))

    def key_from_index(self, index):
        keys = list(self)
        return keys[index] if -len(keys) <= index < len(keys) else None

    def get_previous_key(self, key):
        lower = [k for k in self if k < key]
        return lower[-1] if lower else None

    def get_next_key(self, key):
        return next((k for k in self if k > key), None)

    def sub_keys(self, key_from=None, key_to=None):
        """The keys from key_from to key_to, both included (MILA's bounds:
        a bound not in the dict stands for the nearest key inside it)."""
        return [k for k in self if (key_from is None or k >= key_from) and (key_to is None or k <= key_to)]

    def sub(self, key_from=None, key_to=None):
        return [self[k] for k in self.sub_keys(key_from, key_to)]

    def remove_sub(self, key_from=None, key_to=None):
        for key in self.sub_keys(key_from, key_to):
            del self[key]

    def fill(self, dct):
        self.update(dct or {})

    def copy(self):
        return SortedDict(self)


def _messages_of(messages):
    """Messages as a SortedDict (a saved game lists them, by time sent)."""
    if isinstance(messages, SortedDict):
        return messages
    if isinstance(messages, dict):
        return SortedDict(sorted(messages.items()))
    return SortedDict((m.get('time_sent', i) if isinstance(m, dict) else i, m) for i, m in enumerate(messages or []))


class _ShortPhase(str):
    """A phase name that sorts in game order (S1901M < F1901M < W1901A;
    FORMING first, COMPLETED last, as MILA's ``compare_phases``). The year
    may have any number of digits (``S0001M`` on ancmed)."""

    def _key(self):
        s = str(self)
        if len(s) >= 3 and s[0] in 'SFW' and s[-1] in 'MRA' and s[1:-1].lstrip('-').isdigit():
            return (2, int(s[1:-1]), 'SFW'.find(s[0]), 'MRA'.find(s[-1]))
        return ({'FORMING': 1, 'COMPLETED': 3}.get(s, 0), 0, 0, 0)

    def __lt__(self, other):
        return self._key() < _ShortPhase(other)._key()

    def __gt__(self, other):
        return _ShortPhase(other) < self

    def __le__(self, other):
        return not self > other

    def __ge__(self, other):
        return not self < other

    def __eq__(self, other):
        return str(self) == str(other)

    __hash__ = str.__hash__


class _LiveList(list):
    """A list that writes itself back to the game when changed (MILA's
    tests change ``power.units`` and ``power.centers`` in place)."""

    def __init__(self, items, sync):
        super().__init__(items)
        self._sync = sync

    def _changed(self):
        self._sync(list(self))


def _mutator(name):
    def method(self, *args, **kwargs):
        out = getattr(list, name)(self, *args, **kwargs)
        self._changed()
        return out
    method.__name__ = name
    return method


for _name in ('append', 'extend', 'insert', 'remove', 'pop', 'clear', 'sort', 'reverse',
              '__setitem__', '__delitem__', '__iadd__'):
    setattr(_LiveList, _name, _mutator(_name))


class _LiveDict(dict):
    """``power.orders``: a dict written back to the game when changed."""

    def __init__(self, items, sync):
        super().__init__(items)
        self._sync = sync

    def _changed(self):
        self._sync(dict(self))


def _dict_mutator(name):
    def method(self, *args, **kwargs):
        out = getattr(dict, name)(self, *args, **kwargs)
        self._changed()
        return out
    method.__name__ = name
    return method


for _name in ('__setitem__', '__delitem__', 'pop', 'popitem', 'clear', 'update', 'setdefault'):
    setattr(_LiveDict, _name, _dict_mutator(_name))


class Power:
    """One power of a game, as MILA's ``diplomacy.engine.power.Power``."""

    def __init__(self, game, name):
        self.game = game
        self.name = name
        self.role = name
        self.controller = SortedDict()
        self.vote = ''
        self.order_is_set = 0
        self.wait = False
        self.comm_status = None
        self.tokens = set()

    def __repr__(self):
        return 'Power(%s)' % self.name

    @property
    def units(self):
        return _LiveList(self.game._units(self.name), self._set_units)

    @units.setter
    def units(self, value):
        self._set_units(list(value))

    def _set_units(self, units):
        keep = ['*' + u for u in self.retreats]
        self.game._set_units(self.name, list(units) + keep, True)

    @property
    def centers(self):
        return _LiveList(self.game._centers(self.name), self._set_centers)

    @centers.setter
    def centers(self, value):
        self._set_centers(list(value))

    def _set_centers(self, centers):
        self.game._set_centers(self.name, list(centers), True)

    @property
    def homes(self):
        return self.game._homes(self.name)

    @property
    def retreats(self):
        return dict(self.game._retreats(self.name))

    @property
    def influence(self):
        """Where the power's units were last (MILA's ``influence``)."""
        return self.game._influence(self.name)

    @property
    def civil_disorder(self):
        return 0

    @property
    def orders(self):
        """Movement orders: unit → order without the unit (``'- BUR'``);
        under NO_CHECK, ``'ORDER n'`` → the order as given."""
        if self.game.phase_type != 'M':
            return _LiveDict({}, self._set_orders)
        entries = self.game._order_entries(self.name)
        if self.game._no_check:
            items = {'ORDER %d' % (i + 1): text for i, (_, text) in enumerate(entries)}
        else:
            items = {key: text[len(key):].strip() for key, text in entries}
        return _LiveDict(items, self._set_orders)

    @orders.setter
    def orders(self, value):
        self._set_orders(dict(value))

    def _set_orders(self, orders):
        texts = []
        for key, value in orders.items():
            texts.append(value if (self.game._no_check or key.startswith('ORDER') or key.startswith('INVALID'))
                         else '%s %s' % (key, value))
        self.game._clear_orders(self.name)
        self.game._set_orders(self.name, texts, True)

    @property
    def adjust(self):
        """Retreat and adjustment orders as MILA keeps them: void ones as
        ``VOID <order>``, WAIVEs included."""
        if self.game.phase_type == 'M':
            return []
        return self.game._adjust(self.name)

    def is_eliminated(self):
        return not (self.game._units(self.name) or self.game._centers(self.name) or self.game._retreats(self.name))

    def is_dummy(self):
        return True

    def does_not_wait(self):
        return True

    def __deepcopy__(self, memo):
        return self


class GamePhaseData:
    """One phase: name, state, orders, results, messages (MILA's GamePhaseData)."""

    def __init__(self, name, state, orders, results, messages=None):
        self.name = name
        self.state = state
        self.orders = orders
        self.results = results
        self.messages = messages if messages is not None else SortedDict()

    def to_dict(self):
        messages = self.messages.values() if isinstance(self.messages, dict) else self.messages
        results = {unit: [str(r) for r in res] for unit, res in (self.results or {}).items()}
        return {'name': self.name, 'state': self.state, 'orders': self.orders,
                'results': results, 'messages': [_message_dict(m) for m in messages]}

    @classmethod
    def from_dict(cls, dct):
        return cls(dct['name'], dct.get('state', {}), dct.get('orders', {}), dct.get('results', {}),
                   dct.get('messages', []))


# One Map per variant, shared by its games (as MILA shares its maps).
_MAPS = {}


def _map_of(engine, map_name):
    key = (engine._map_name, map_name)
    found = _MAPS.get(key)
    if found is None:
        found = _MAPS[key] = Map(map_name, engine=engine)
    return found


def _engine_short(long_name):
    """`SPRING 1901 MOVEMENT` → `S1901M` (the year in four digits at least, as MILA)."""
    words = str(long_name).split()
    if len(words) != 3 or not words[1].lstrip('-').isdigit():
        return str(long_name)
    return '%s%04d%s' % (words[0][0], int(words[1]), words[2][0])


class Game(Engine):
    """MILA's ``diplomacy.Game`` on dip's engine.

    ``Game(map_name='standard', rules=None, variant=None)``: ``map_name`` is
    a MILA map name (standard, ancmed, modern, pure, …); ``variant`` any
    variant dip reads (a bundled name, a path, or a jDip plugin's variant,
    see ``add_variant_path``).

    The game is the engine itself (``dip._dip.Engine``, which makes it from
    the same arguments): ``get_all_possible_orders``,
    ``get_orderable_locations``, ``set_orders`` and ``process`` are the
    engine's own methods, with no Python between the caller and Rust.
    """

    # MILA's functions called on a dip game (``Game.get_phase_history(game)``
    # in MILA's export) wrap phase names in it.
    _phase_wrapper_type = _ShortPhase

    def __init__(self, game_id=None, map_name='standard', rules=None, variant=None, **kwargs):
        self.game_id = game_id or 'dip-%d' % int(_time.time() * 1e6)
        self.map_name = self._map_name
        self.map = _map_of(self, map_name if variant is None else variant)
        self.rules = []
        self.no_rules = set()
        self.error = []
        for rule in DEFAULT_RULES if rules is None else rules:
            self.add_rule(rule)
        # The map's own rules (BUILD_ANY on modern), as MILA's games have them.
        for rule in self.map.rules:
            self.add_rule(rule)
        self.note = ''
        self.role = kwargs.get('role', 'server_type')
        self.status = kwargs.get('status', 'active')
        # Messages by phase name, made when first asked for (see `messages`).
        self._msgs = {}
        self.powers = {name: Power(self, name) for name in sorted(self._powers())}
        self._hist = None  # (length, order_history, result_history, state_history)
        self._status = None  # (length, {power: {unit: results}})

    def __repr__(self):
        return 'dip.Game(%s, %s)' % (self.map_name, self.get_current_phase())

    @property
    def win(self):
        """The centres that win (MILA's ``win``)."""
        return self._victory

    @property
    def victory(self):
        """MILA's ``victory``: the centres that win, year by year (one figure)."""
        return [self._victory]

    # ---- messages (kept by phase; process() moves on to a new phase's) ----
    @property
    def messages(self):
        """The current phase's messages (MILA's ``SortedDict``)."""
        phase = self._phase()
        found = self._msgs.get(phase)
        if found is None:
            found = self._msgs[phase] = SortedDict()
        return found

    @messages.setter
    def messages(self, value):
        self._msgs[self._phase()] = value

    @property
    def message_history(self):
        """Phase → its messages, for the phases played (MILA's ``message_history``)."""
        return SortedDict((_ShortPhase(name), self._msgs.get(name) or SortedDict())
                          for name in (self._history_name(i) for i in range(self._history_len())))

    @message_history.setter
    def message_history(self, value):
        current = self._msgs.get(self._phase())
        self._msgs = {str(k): v for k, v in value.items()}
        if current is not None:
            self._msgs.setdefault(self._phase(), current)

    def add_message(self, message):
        """Adds a message (dip's or MILA's ``Message``) to the current
        phase's messages, under its ``time_sent`` (now, when it has none);
        returns that time."""
        if message.time_sent is None:
            now = int(_time.time() * 1e6)
            last = self.messages.last_key()
            message.time_sent = max(now, last + 1) if last is not None else now
        self.messages[message.time_sent] = message
        return message.time_sent

    def new_power_message(self, recipient, body):
        """A message from this game's power (``role``) to ``recipient``,
        not yet sent (no time)."""
        if self.role not in self.powers:
            raise DipError('new_power_message needs a game whose role is a power, not %s' % self.role)
        recipient = self._power(recipient)
        return Message(sender=self.role, recipient=recipient, message=body, phase=self.current_short_phase)

    def new_global_message(self, body):
        """A message from this game's power (``role``) to every power."""
        if self.role not in self.powers:
            raise DipError('new_global_message needs a game whose role is a power, not %s' % self.role)
        return Message(sender=self.role, recipient=GLOBAL, message=body, phase=self.current_short_phase)

    # ---- rules ----------------------------------------------------------
    def add_rule(self, rule):
        """Adds one of MILA's rules with what MILA's rule list implies
        (SOLITAIRE brings NO_DEADLINE, CD_DUMMIES and ALWAYS_WAIT; NO_PRESS
        removes PUBLIC_PRESS; REAL_TIME and ALWAYS_WAIT exclude each other).
        A rule MILA does not know, or one that changes adjudication in a way
        dip does not play, raises ``DipError``."""
        rule = str(rule).upper()
        if rule not in _MILA_RULES:
            raise DipError('unknown rule `%s`; MILA knows %s' % (rule, ', '.join(sorted(_MILA_RULES))))
        if rule in _RULES_NOT_PLAYED and rule not in self.map.rules:
            raise DipError('rule %s (%s) is not played by dip.Game' % (rule, _RULES_NOT_PLAYED[rule]))
        if rule in self.no_rules:
            return
        implies = _MILA_RULES[rule]
        for forbidden in implies.get('!', ()):
            if forbidden in self.rules:
                self.error.append('Rule %s cannot be added: it is forbidden by rule %s' % (rule, forbidden))
                return
        self.no_rules.update(implies.get('!', ()))
        for other in implies.get('+', ()):
            if other not in self.rules:
                self.rules.append(other)
        for other in implies.get('-', ()):
            if other in self.rules:
                self.rules.remove(other)
        if rule not in self.rules:
            self.rules.append(rule)
        if rule == 'NO_CHECK':
            self._no_check = True

    def remove_rule(self, rule):
        rule = str(rule).upper()
        if rule in self.rules:
            self.rules.remove(rule)
        if rule == 'NO_CHECK':
            self._no_check = False

    def set_dip_rule(self, key, value):
        """Sets one of dip's rule options (docs/rules.md)."""
        self._set_rule(key, value)

    # ---- phase ----------------------------------------------------------
    @property
    def phase(self):
        return self._long_phase()

    @phase.setter
    def phase(self, value):
        self._set_phase(value)

    def get_current_phase(self):
        return self._phase()

    def set_current_phase(self, new_phase):
        self._set_phase(new_phase)

    @property
    def current_short_phase(self):
        return self._phase()

    @property
    def phase_type(self):
        p = self._phase()
        return '-' if p == 'COMPLETED' else p[-1]

    @property
    def is_game_done(self):
        return self._done

    @property
    def outcome(self):
        return self._outcome

    def clear_cache(self):
        """Legal orders are recomputed whenever the position changes."""

    # ---- powers, units, centres ----------------------------------------
    def get_power(self, power_name):
        return self.powers[self._power(power_name)]

    def _power(self, name):
        up = str(name).upper()
        if up in self.powers:
            return up
        try:
            self._units(up)  # raises KeyError with dip's message
        except KeyError:
            raise
        return up

    def get_units(self, power_name=None):
        if power_name is None:
            return {p: self.get_units(p) for p in self.powers}
        p = self._power(power_name)
        return self._units(p) + ['*' + u for u, _ in self._retreats(p)]

    def set_units(self, power_name, units, reset=False):
        units = [units] if isinstance(units, str) else list(units)
        self._set_units(self._power(power_name), units, reset)
        self._errors()

    def clear_units(self, power_name=None):
        self._clear_units(None if power_name is None else self._power(power_name))

    def get_centers(self, power_name=None):
        if power_name is None:
            return {p: self._centers(p) for p in self.powers}
        return self._centers(self._power(power_name))

    def set_centers(self, power_name, centers, reset=False):
        centers = [centers] if isinstance(centers, str) else list(centers)
        self._set_centers(self._power(power_name), centers, reset)
        self._errors()

    def clear_centers(self, power_name=None):
        self._clear_centers(None if power_name is None else self._power(power_name))

    def _unit_owner(self, unit, coast_required=1):
        """The Power owning ``unit`` ('F STP/SC'); without ``coast_required``
        the coast need not match."""
        unit = unit.upper()
        for name, power in self.powers.items():
            for u in self._units(name):
                if u == unit or (not coast_required and u.split('/')[0] == unit.split('/')[0]):
                    return power
        return None

    # ---- MILA's reading of order text (MILA's Renderer uses it too) -----
    def _expand_order(self, word):
        """An order's words (``text.split()``) read as MILA reads them, in
        short form (``['England:', 'Army', 'Rumania', 'SUPPORT', 'German',
        'Army', 'Bulgaria']`` → ``['A', 'RUM', 'S', 'A', 'BUL']``): the
        map's ``compact``, ``rearrange`` and ``vet``, then power names and
        words the map does not know left out, the ``H`` of a support of a
        hold left out, of several moves (``-`` written apart) only the last
        place kept and ``VIA`` added, a fleet's move given its only coast."""
        if not word:
            return word
        m = self.map
        seps = sum(1 for w in word if w == '-')
        out, order, seen = [], '', 0
        for token, kind in m.vet(m.rearrange(m.compact(' '.join(word))), 1):
            if kind < 1:
                if kind not in (-_map.LOCATION, -_map.COAST):
                    continue  # an unknown power, unit, order word or other word
                kind = -kind
            if kind == _map.POWER:
                continue
            if kind == _map.ORDER:
                if order == 'S' and token == 'H':
                    continue
                order += token
            elif kind == _map.LOCATION and 0 < seen < seps:
                continue
            elif kind == _map.MOVE_SEP:
                seen += 1
                if seen > 1:
                    continue
                order += '-'
            elif kind == _map.OTHER:
                order = ''
            out.append(token)
        if seps > 1 and out and out[-1] != 'VIA':
            out.append('VIA')
        return m.default_coast(out)

    def _expand_coast(self, word):
        """An army's order without coasts; a fleet's place given the coast
        of the fleet there; a support of an army's move without the coast
        of its destination, of a fleet's move with the coast it can reach."""
        if len(word) < 2:
            return word
        place = word[1].split('/')[0]
        if word[0] == 'A':
            word[1] = place
            if len(word) == 4:
                word[3] = word[3].split('/')[0]
        elif self._unit_owner('%s %s' % (word[0], word[1])) is None \
                and self._unit_owner('%s %s' % (word[0], place), coast_required=0) is not None:
            for loc in self.map.locs:
                if loc[:3] == place and self._unit_owner('%s %s' % (word[0], loc)) is not None:
                    word[1] = loc
                    break
        if len(word) == 7 and word[2] == 'S' and '/' in word[6]:
            if word[3] == 'A':
                word[6] = word[6].split('/')[0]
            elif word[0] == 'F' and word[3] == 'F':
                word = word[:3] + self.map.default_coast(word[3:6] + [word[6][:3]])
        return word

    def _mila_reading(self, text):
        """``text`` as MILA's ``set_orders`` reads it, in MILA's short form
        (``'F GULF OF LYON H'`` → ``'F LYO H'``): dip reads an order its own
        reader cannot read (written with one of MILA's other names of a
        place, its phrases, its brackets) as this. None when nothing is left."""
        try:
            if self.phase_type == 'M':
                word = self._expand_order(text.split())
                word = self._expand_coast(word)
                word = self._add_unit_types(word)
                word = self.map.default_coast(word)
                if word and len(word[-1]) == 1 and not word[-1].isalpha():
                    word = word[:-1]
            else:
                word = self._add_unit_types(self._expand_order([text]))
                if word[:1] == ['R'] and len(word) > 3:
                    word = word[1:]
                if word[:1] in (['R'], ['D']):
                    word = word[1:] + word[:1]
        except (IndexError, ValueError, AttributeError):
            return None
        return ' '.join(word) if len(word) > 1 else None

    def _add_unit_types(self, item):
        """Order words with the unit type added before each place that
        names a unit without one, and a fleet's place given its coast
        (``['A', 'RUM', 'S', 'BUL']`` → ``['A', 'RUM', 'S', 'A', 'BUL']``)."""
        if self.phase_type == 'R':
            units = [u for p in self.powers for u in self._retreats_of(p)]
        else:
            units = [u for p in self.powers for u in self._units(p)]
        out, wants_unit, typed = [], True, False
        for token in item:
            if not wants_unit:
                wants_unit = token in ('C', 'S')
            elif token in ('A', 'F'):
                typed = True
            elif token not in ('RETREAT', 'DISBAND', 'BUILD', 'REMOVE'):
                unit = next((u for u in units if u[2:].startswith(token)), None)
                if unit is not None:
                    if not typed:
                        out.append(unit[0])
                    if self.map.is_valid_unit(out[-1] + unit[1:]):
                        token = unit[2:]
                wants_unit = typed = False
            out.append(token)
        return out

    def _retreats_of(self, power_name):
        return [unit for unit, _ in self._retreats(power_name)]

    def render(self, incl_orders=True, incl_abbrev=False, output_format='svg', output_path=None):
        """The board as SVG text, as MILA's ``Game.render``: units,
        dislodged units, centres, and with ``incl_orders`` the orders given
        this phase; ``incl_abbrev`` keeps the provinces' abbreviations;
        ``output_path`` also writes it there. Drawn by MILA's renderer on
        MILA's pictures of the map, which need MILA's ``diplomacy`` package
        installed (dip's own drawings: ``dip render``)."""
        try:
            from diplomacy.engine.renderer import Renderer
        except ImportError as error:
            raise DipError("render draws on MILA's pictures of the map: pip install diplomacy "
                           "(dip draws its own with `dip render`)") from error
        return Renderer(self).render(incl_orders=incl_orders, incl_abbrev=incl_abbrev,
                                     output_format=output_format, output_path=output_path)

    # ---- orders ---------------------------------------------------------
    # set_orders(power_name, orders, expand=True, replace=True),
    # get_all_possible_orders(loc=None), get_orderable_locations(power_name=None)
    # and process() are the engine's (dip._dip.Engine), called directly.

    def _errors(self):
        errors = self._take_errors()
        if errors:
            self.error.extend(errors)
            if 'IGNORE_ERRORS' not in self.rules:
                raise DipError('; '.join(errors))

    def get_orders(self, power_name=None):
        if power_name is None:
            return {p: self._orders(p) for p in self.powers}
        return self._orders(self._power(power_name))

    def clear_orders(self, power_name=None):
        self._clear_orders(None if power_name is None else self._power(power_name))

    def get_order_status(self, power_name=None, unit=None, loc=None):
        """Results of the phase processed last: by power, or of one unit."""
        results = dict(self._last_results())
        if unit is not None:
            return results.get(unit, [])
        if loc is not None:
            return next(((u, r) for u, r in results.items() if u[2:5] == loc[:3].upper()), (loc, []))
        by_power = self._status_by_power(results)
        if power_name is not None:
            return by_power.get(power_name.upper(), {})
        return by_power

    def _status_by_power(self, results):
        n = self._history_len()
        if not n:
            return {p: {} for p in self.powers}
        state = self._history_phase(n - 1)['state']
        out = {}
        for p in self.powers:
            units = [u.lstrip('*') for u in state['units'][p]]
            out[p] = {u: results.get(u, []) for u in units}
        for p in self.powers:
            for u in results:
                if u not in [x for d in out.values() for x in d] and u in self._last_orders(p):
                    out[p][u] = results[u]
        return out

    def _last_orders(self, power):
        n = self._history_len()
        if not n:
            return []
        orders = self._history_phase(n - 1)['orders'].get(power, [])
        return [' '.join(o.split()[:2]) for o in orders]

    # ---- what the last process did (MILA's attributes) -------------------
    @property
    def command(self):
        return dict(self._last_command())

    @property
    def result(self):
        return dict(self._last_results())

    @property
    def popped(self):
        return self._last_popped()

    @property
    def ordered_units(self):
        return dict(zip(self._powers(), self._last_ordered_units()))

    @property
    def dislodged(self):
        return dict(self._last_dislodged())

    # ---- processing -----------------------------------------------------
    def draw(self, winners=None):
        """Ends the game in a draw (MILA's ``draw``): the current phase goes
        to the history without orders; ``outcome`` is the phase and the
        winners (by default every power with units)."""
        self._draw(None if winners is None else [self._power(w) for w in winners])
        self._hist = None

    def get_hash(self):
        """A hash of the position, as a string (as MILA's)."""
        return self._hash()

    def rebuild_hash(self):
        return self._hash()

    def update_hash(self, *args, **kwargs):
        """dip computes the hash from the position; nothing to update."""

    # ---- histories ------------------------------------------------------
    def _histories(self):
        n = self._history_len()
        if self._hist is None or self._hist[0] != n:
            orders, results, states = SortedDict(), SortedDict(), SortedDict()
            for i in range(n):
                ph = self._history_phase(i)
                name = _ShortPhase(ph['name'])
                orders[name] = ph['orders']
                results[name] = ph['results']
                states[name] = self._full_state(ph['state'])
            self._hist = (n, orders, results, states)
        return self._hist

    @property
    def order_history(self):
        return self._histories()[1]

    @property
    def result_history(self):
        return self._histories()[2]

    @property
    def state_history(self):
        return self._histories()[3]

    def get_phase_from_history(self, short_phase_name, game_role=None):
        short_phase_name = str(short_phase_name)
        _, orders, results, states = self._histories()
        if short_phase_name not in states:
            if short_phase_name == self.get_current_phase():
                return self.get_phase_data()
            raise KeyError('no phase %s in the history' % short_phase_name)
        return GamePhaseData(short_phase_name, states[short_phase_name], orders[short_phase_name],
                             results[short_phase_name], self.message_history.get(short_phase_name, SortedDict()))

    def get_phase_history(self, from_phase=None, to_phase=None, game_role=None):
        _, orders, results, states = self._histories()
        out = []
        for name in states:
            if from_phase is not None and name < _ShortPhase(from_phase):
                continue
            if to_phase is not None and name > _ShortPhase(to_phase):
                continue
            out.append(GamePhaseData(str(name), states[name], orders[name], results[name],
                                     self.message_history.get(name, SortedDict())))
        return out

    def get_phase_data(self):
        return GamePhaseData(self.get_current_phase(), self.get_state(), self.get_orders(), {}, self.messages)

    def _full_state(self, st):
        st = dict(st)
        st['timestamp'] = int(_time.time() * 1e6)
        st['note'] = self.note
        if 'influence' not in st:
            st['influence'] = {p: list(c) for p, c in st['centers'].items()}
        st['civil_disorder'] = {p: 0 for p in st['centers']}
        st['builds'] = {}
        occupied = {u[2:5] for us in st['units'].values() for u in us if not u.startswith('*')}
        build_any = 'BUILD_ANY' in self.map.rules
        for p in st['centers']:
            units = [u for u in st['units'][p] if not u.startswith('*')]
            count = len(st['centers'][p]) - len(units) if st['name'].endswith('A') else 0
            homes = []
            if count > 0:
                # MILA's build sites: owned home centres (any owned centre
                # under BUILD_ANY) with no unit on them; no more builds than sites.
                homes = [h for h in (st['centers'][p] if build_any else st['homes'][p])
                         if h in st['centers'][p] and h not in occupied]
                count = min(count, len(homes))
            st['builds'][p] = {'count': count, 'homes': homes}
        return st

    def get_state(self):
        st = self._full_state(self._state())
        # The phase again, as the fork of MILA's engine that AI_Diplomacy
        # ships adds it (its prompts read it); MILA's set_state ignores it.
        st['phase'] = st['name']
        return st

    def set_state(self, state, clear_history=True):
        """Sets the position from a state (MILA's ``get_state`` dict): phase,
        units, where dislodged units may retreat, centres, and the rules and
        note when given."""
        if clear_history:
            self._truncate_history(0)
            self.message_history = SortedDict()
        if state.get('map') and state['map'] != self.map_name:
            raise RuntimeError('Inconsistent state map (state: %s, game: %s)' % (state['map'], self.map_name))
        if 'rules' in state:
            for rule in list(self.rules):
                self.remove_rule(rule)
            for rule in state['rules']:
                self.add_rule(rule)
        if 'note' in state:
            self.note = state['note']
        if state.get('name'):
            self._set_phase(state['name'])
        self._clear_units(None)
        self._clear_centers(None)
        for p, units in state.get('units', {}).items():
            self._set_units(p, list(units), True)
        if self.phase_type == 'R' and state.get('retreats'):
            self._restore_retreats([(unit, list(locs)) for retreats in state['retreats'].values()
                                      for unit, locs in retreats.items()])
        for p, centers in state.get('centers', {}).items():
            self._set_centers(p, list(centers), True)
        for p, places in state.get('influence', {}).items():
            self._set_influence(p, list(places))
        self._take_errors()
        self._clear_orders(None)

    def set_phase_data(self, phase_data, clear_history=True):
        """Rebuilds the game from phases (MILA's saved games)."""
        if isinstance(phase_data, GamePhaseData):
            phase_data = [phase_data]
        if clear_history:
            self._truncate_history(0)
            self.message_history = SortedDict()
        for i, ph in enumerate(phase_data):
            # A saved game may name the phase only beside its state.
            state = ph.state if ph.state.get('name') else dict(ph.state, name=ph.name)
            self.set_state(state, clear_history=False)
            if i + 1 < len(phase_data):
                orders = [list(ph.orders.get(p) or []) for p in self._powers()]
                # MILA's results are its own objects (OrderResult); their str is the word.
                results = [(u, [str(x) for x in r]) for u, r in (ph.results or {}).items()]
                self._push_history(ph.name, orders, results)
            self._msgs[str(ph.name)] = _messages_of(ph.messages)
            if i + 1 == len(phase_data):
                for p, orders in (ph.orders or {}).items():
                    if orders:
                        self._set_orders(p, list(orders), True)
                self._take_errors()

    # ---- saved games ----------------------------------------------------
    def to_saved_game_format(self, output_path=None, output_mode='a'):
        return to_saved_game_format(self, output_path, output_mode)

    @staticmethod
    def from_saved_game_format(saved_game):
        return from_saved_game_format(saved_game)

    def to_dict(self):
        """The game as MILA's ``Game.to_dict`` lays it out (``Game.from_dict``
        reads it back, and so does MILA's)."""
        messages = lambda m: [x.to_dict() if hasattr(x, 'to_dict') else x for x in _messages_of(m).values()]
        powers = {}
        for name, power in self.powers.items():
            powers[name] = {
                'name': name, 'abbrev': None, 'adjust': list(power.adjust), 'centers': list(power.centers),
                'civil_disorder': 0, 'controller': {}, 'homes': list(power.homes),
                'influence': list(power.influence), 'order_is_set': 0, 'orders': dict(power.orders),
                'retreats': power.retreats, 'role': 'server_type', 'tokens': [], 'units': list(power.units),
                'vote': 'neutral', 'wait': True}
        _, orders, results, states = self._histories()
        return {
            'game_id': self.game_id, 'map_name': self.map_name, 'rules': list(self.rules),
            'no_rules': sorted(self.no_rules), 'meta_rules': [], 'phase': self.phase, 'phase_abbr': '',
            'note': self.note, 'outcome': list(self.outcome), 'status': self.status, 'role': self.role,
            'victory': [self._victory], 'win': self._victory, 'zobrist_hash': int(self.get_hash()),
            'deadline': 0, 'error': [], 'controlled_powers': None, 'daide_port': None, 'n_controls': 0,
            'observer_level': None, 'registration_password': None, 'timestamp_created': None,
            'powers': powers, 'messages': messages(self.messages),
            'message_history': {str(k): messages(v) for k, v in self.message_history.items()},
            'order_history': {str(k): v for k, v in orders.items()},
            'result_history': {str(k): v for k, v in results.items()},
            'state_history': {str(k): v for k, v in states.items()},
        }

    @classmethod
    def from_dict(cls, dct):
        """A game from MILA's ``Game.to_dict`` layout (or a saved game)."""
        if 'phases' in dct:
            return from_saved_game_format(dct)
        game = cls(game_id=dct.get('game_id'), map_name=dct.get('map_name', 'standard'), rules=dct.get('rules', []))
        history = sorted(dct.get('state_history', {}), key=lambda n: _ShortPhase(n)._key())
        phases = [GamePhaseData(name, dct['state_history'][name], dct.get('order_history', {}).get(name, {}),
                                dct.get('result_history', {}).get(name, {}),
                                dct.get('message_history', {}).get(name, [])) for name in history]
        phase = dct.get('phase') or game.phase
        powers = dct.get('powers', {})
        state = {'name': _engine_short(phase), 'note': dct.get('note', ''),
                 'units': {p: list(pw.get('units', [])) + ['*' + u for u in pw.get('retreats', {})]
                           for p, pw in powers.items()},
                 'retreats': {p: dict(pw.get('retreats', {})) for p, pw in powers.items()},
                 'centers': {p: list(pw.get('centers', [])) for p, pw in powers.items()}}
        orders = {}
        for p, pw in powers.items():
            given = pw.get('orders') or {}
            orders[p] = [v if (k.startswith('ORDER') or k.startswith('INVALID')) else '%s %s' % (k, v)
                         for k, v in given.items()] or list(pw.get('adjust') or [])
        phases.append(GamePhaseData(state['name'], state, orders, {}, dct.get('messages', [])))
        game.set_phase_data(phases, clear_history=True)
        if phase == 'COMPLETED':
            game._outcome = list(dct.get('outcome', []))
        game.note = dct.get('note', '')
        return game

    # ---- copies ---------------------------------------------------------
    def __deepcopy__(self, memo):
        cls = type(self)
        other = cls.__new__(cls, map_name=self.map_name)
        other._copy_from(self)
        for key, value in self.__dict__.items():
            if key in ('powers', 'map', '_hist', '_status'):
                continue
            setattr(other, key, _copy.deepcopy(value, memo))
        other.map = self.map
        other.powers = {name: Power(other, name) for name in sorted(self._powers())}
        other._hist = None
        other._status = None
        return other

    def deepcopy(self):
        return _copy.deepcopy(self)


def process_multi(games):
    """Processes many games at once, in parallel threads, without the GIL."""
    _process_many(list(games))


def to_saved_game_format(game, output_path=None, output_mode='a'):
    """MILA's saved-game dict (``diplomacy.utils.export.to_saved_game_format``)."""
    phases = game.get_phase_history()
    phases.append(game.get_phase_data())
    rules = [r for r in game.rules if r not in _RULES_TO_SKIP]
    dicts = []
    for ph in phases:
        d = ph.to_dict()
        d['state'] = dict(d['state'])
        d['state']['game_id'] = game.game_id
        d['state']['map'] = game.map_name
        d['state']['rules'] = rules
        dicts.append(d)
    saved = {'id': game.game_id, 'map': game.map_name, 'rules': rules, 'phases': dicts}
    if output_path:
        with open(output_path, output_mode) as out:
            out.write(_json.dumps(saved) + '\n')
    return saved


def from_saved_game_format(saved_game):
    """A Game rebuilt from MILA's saved-game dict."""
    game = Game(game_id=saved_game.get('id'), map_name=saved_game.get('map', 'standard'),
                rules=saved_game.get('rules', []))
    phases = [GamePhaseData.from_dict(d) for d in saved_game.get('phases', [])]
    game.set_phase_data(phases, clear_history=True)
    return game
