#!/usr/bin/env python3
"""Plays MILA's README agent on MILA's engine and on dip.Game side by side
and compares them after every phase.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install ./python diplomacy==1.1.2
    /tmp/venv/bin/python scripts/mila-agent-compare.py --games 50            # every MILA map in turn
    /tmp/venv/bin/python scripts/mila-agent-compare.py --games 20 --map ancmed
    /tmp/venv/bin/python scripts/mila-agent-compare.py --games 20 --driver mila   # the agent on MILA

The agent is the loop of MILA's README: for each power, `random.choice`
over `get_all_possible_orders()[loc]` for each of
`get_orderable_locations(power)` with a non-empty list. By default it
plays on dip.Game, as an agent that takes dip for MILA's Game does
(`--driver dip`); its raw choices (WAIVE among them, several orders where
MILA keeps fewer) are given to both engines unchanged. Before each phase
is processed the two must agree on the phase, each power's orderable
locations and, after set_orders, each power's `get_orders()`; after it,
on every power's units, centres and the next phase, and at the end on the
outcome. Each location's possible orders (as sets) are compared on every
10th phase (`--possible-every`) and on every phase of the first game of
each map: MILA's get_all_possible_orders is most of MILA's time a phase,
so this makes a game about twice as fast. `--driver mila` lets the agent
choose on MILA and compares the possible orders on every phase.

A game stops at its first difference that MILA's known faults (below) do
not explain, which is printed. Exit status 1 when any game differs.
`--no-corrections` runs MILA as shipped, to see that the comparison
reports those faults. MILA lists a location's orders in the order of a
Python set, which follows the process's hash seed: the script runs with
PYTHONHASHSEED=0 unless it is set (`--hash-seed`), so that a run's games
can be replayed exactly.
"""
import argparse
import json
import os
import random
import sys
import time

import diplomacy
from diplomacy.utils import convoy_paths
from diplomacy.utils.order_results import VOID
import dip

# Every map MILA 1.1.2 ships that dip plays.
MAPS = ['standard', 'ancmed', 'modern', 'pure', 'standard_fleet_rome', 'colonial', 'empire', 'world',
        'standard_france_austria', 'standard_germany_italy']


def agent_orders(game, rng):
    """MILA's README agent: a random possible order for each orderable location."""
    possible = game.get_all_possible_orders()
    return {name: [rng.choice(possible[loc]) for loc in game.get_orderable_locations(name) if possible[loc]]
            for name in game.powers}


def unit_differences(mila, ours):
    """Every power's units and centres that differ, for the report of a difference."""
    lines = []
    for what, a, b in (('units', mila.get_units(), ours.get_units()),
                       ('centers', mila.get_centers(), ours.get_centers())):
        for power in sorted(set(a) | set(b)):
            only_mila = sorted(set(a.get(power, [])) - set(b.get(power, [])))
            only_dip = sorted(set(b.get(power, [])) - set(a.get(power, [])))
            if only_mila or only_dip:
                lines.append('  %s %s: MILA only %s, dip only %s' % (power, what, only_mila, only_dip))
    return '\n'.join(lines)


def snapshot(game):
    return {'phase': game.get_current_phase(),
            'units': {p: sorted(u) for p, u in game.get_units().items()},
            'centers': {p: sorted(c) for p, c in game.get_centers().items()}}


def first_difference(mila, ours, what):
    a, b = mila, ours
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return '%s[%s]: MILA %r, dip %r' % (what, key, a.get(key), b.get(key))
    return '%s: MILA %r, dip %r' % (what, a, b)


# ---- Where MILA is wrong by the rules --------------------------------------
#
# Each is a difference found by this comparison and traced to MILA's code
# (docs/python.md, "Where MILA is wrong"). The comparison does not hide them:
# a phase after which the engines differ is replayed on MILA with the fault
# corrected (or, for the convoy paths of ports and of convoys longer than
# 13 fleets, MILA runs with corrected paths from the start), and the
# difference counts as explained only if the corrected MILA then gives
# exactly dip's position (for long convoys: only if MILA as shipped,
# replayed, differs from the corrected MILA, which agrees with dip). The game goes on from
# MILA's own position (dip takes it over), so later phases are still
# compared.

def port_chain_paths(map_name):
    """MILA's convoy paths of a map recomputed with its ports (Baleares on
    ancmed) usable anywhere in a chain: MILA's own search ends a chain at
    the first coast or port it touches, so a fleet in a port convoys only
    as the first fleet from the army's coast (A TAR - ETR through BAL and
    LIG is listed, A ETR - TAR through LIG and BAL is not). None when the
    map has no port."""
    from diplomacy.engine.map import Map
    from diplomacy.utils import convoy_paths as cp
    m = Map(map_name)
    if not any(m.area_type(loc) == 'PORT' for loc in m.locs):
        return None
    coasts = [loc.upper() for loc in m.locs if m.area_type(loc) in cp.COAST_TYPES and '/' not in loc]
    buckets = {i: [] for i in range(1, len(m.locs) + 1)}
    for start in coasts:
        queue = [(frozenset([loc]), loc) for loc in (x.upper() for x in m.abut_list(start, incl_no_coast=True))
                 if m.area_type(loc) in cp.WATER_TYPES]
        dest_paths = {}
        while queue:
            fleets, last = queue.pop(0)
            for loc in (x.upper() for x in m.abut_list(last, incl_no_coast=True)):
                kind = m.area_type(loc)
                if kind in cp.COAST_TYPES and '/' not in loc and loc != start:
                    paths = dest_paths.setdefault(loc, [])
                    if not any(path <= fleets for path in paths):
                        paths.append(fleets)
                # A port is a shore and a sea: the chain goes on through it.
                if kind in cp.WATER_TYPES and loc not in fleets and len(fleets) < cp.MAX_CONVOY_LENGTH:
                    queue.append((fleets | {loc}, loc))
        similar = {}
        for dest, paths in dest_paths.items():
            for path in paths:
                similar.setdefault(tuple(sorted(path)), set()).add(dest)
        for fleets, dests in similar.items():
            buckets[len(fleets)].append((start, set(fleets), dests))
    return buckets


# Map name → MILA's Map with port-chain convoy paths (None: the map has no port).
_PORT_MAPS = {}
# False: MILA's own convoy paths (--no-corrections).
PORT_CHAINS = True
# False: MILA's convoys of at most MAX_CONVOY_LENGTH fleets (--no-corrections).
LONG_CONVOYS = True


def convoy_routes(mila_map, fleets, longer_than=0, at_most=None):
    """The minimal convoy routes through the fleets in `fleets` of more than
    `longer_than` and at most `at_most` fleets, as entries of MILA's
    convoy-path table (start, {fleets}, {destinations}). MILA's search
    (`diplomacy.utils.convoy_paths`) keeps a route to a destination unless
    a route it found before uses a subset of its fleets: what it keeps are
    the minimal routes, chains in which only the first fleet touches the
    army's coast, only the last the destination, and each fleet only the
    fleets before and after it. Searched here among the fleets on the
    board only (a few ms on World), chain by chain from each coast; the
    same entries as MILA's own search run on the map with the other seas
    shut (test_mila_faults.py checks it)."""
    fleets = {f for f in fleets if mila_map.area_type(f) == 'WATER'}
    if len(fleets) <= longer_than:
        return []
    near = {}

    def neighbours(loc):
        if loc not in near:
            near[loc] = {x.upper() for x in mila_map.abut_list(loc, incl_no_coast=True)}
        return near[loc]
    coasts = [loc.upper() for loc in mila_map.locs
              if mila_map.area_type(loc) in convoy_paths.COAST_TYPES and '/' not in loc]
    shores = {f: {c for c in neighbours(f) if mila_map.area_type(c) in convoy_paths.COAST_TYPES and '/' not in c}
              for f in fleets}
    found = {}
    for start in coasts:
        path = []

        def extend(fleet, touched):
            # `touched`: the places next to the fleets before `fleet`.
            path.append(fleet)
            if len(path) > longer_than:
                dests = {c for c in shores[fleet] if c != start and c not in touched}
                if dests:
                    found.setdefault((start, frozenset(path)), set()).update(dests)
            if at_most is None or len(path) < at_most:
                now = touched | neighbours(fleet)
                for nxt in neighbours(fleet):
                    if nxt in fleets and nxt not in path and nxt not in touched and nxt not in neighbours(start):
                        extend(nxt, now)
            path.pop()
        for first in sorted(fleets & neighbours(start)):
            extend(first, set())
    return [(start, set(path), dests) for (start, path), dests in found.items()]


def long_convoy_paths(mila_map, fleets):
    """Every convoy route of more than MILA's MAX_CONVOY_LENGTH (13) fleets
    among `fleets`: MILA's search stops there "to reduce generation time";
    the rules set no length."""
    return convoy_routes(mila_map, fleets, longer_than=convoy_paths.MAX_CONVOY_LENGTH)


# (map name, fleets on the board, longer than, at most) → convoy_routes: a
# position's fleets stay through its retreats and adjustments (a few entries,
# kept small: on World one holds thousands of routes).
_ROUTES = {}


def board_fleets(game):
    """The places of the fleets MILA lets convoy (on WATER or PORT)."""
    return frozenset(u[2:] for units in game.get_units().values() for u in units
                     if u[0] == 'F' and game.map.area_type(u[2:]) in ('WATER', 'PORT'))


def routes_on_board(game, longer_than, at_most):
    key = (game.map.name, board_fleets(game), longer_than, at_most)
    if key not in _ROUTES:
        if len(_ROUTES) > 64:
            _ROUTES.clear()
        _ROUTES[key] = convoy_routes(game.map, key[1], longer_than, at_most)
    return _ROUTES[key]


def long_paths_on_board(game):
    return routes_on_board(game, convoy_paths.MAX_CONVOY_LENGTH, None)


class _BoardConvoys(diplomacy.Game):
    """MILA's Game on a map whose table of convoy paths MILA has not
    computed (colonial, empire and world take MILA minutes, world more than
    ten, when its cache in ~/.cache/diplomacy lacks them): its table is
    made in each position from the fleets on the board, the entries MILA's
    table would give there (routes of at most 13 fleets)."""
    __slots__ = ()

    def _build_list_possible_convoys(self):
        if self.convoy_paths_possible is not None:
            return
        self.convoy_paths_possible, self.convoy_paths_dest = [], {}
        for start, fleets, dests in routes_on_board(self, 0, convoy_paths.MAX_CONVOY_LENGTH):
            self.convoy_paths_possible.append((start, fleets, dests))
            for dest in dests:
                self.convoy_paths_dest.setdefault(start, {}).setdefault(dest, []).append(fleets)


class _LongConvoysFixed(diplomacy.Game):
    """MILA's Game whose convoy table also holds the routes of more than 13
    fleets among the fleets on the board (see long_convoy_paths)."""
    __slots__ = ()

    def _build_list_possible_convoys(self):
        if self.convoy_paths_possible is not None:
            return
        super()._build_list_possible_convoys()
        for start, fleets, dests in long_paths_on_board(self):
            self.convoy_paths_possible.append((start, fleets, dests))
            for dest in dests:
                self.convoy_paths_dest.setdefault(start, {}).setdefault(dest, []).append(fleets)


class _LongBoardConvoys(_LongConvoysFixed, _BoardConvoys):
    """_BoardConvoys with the routes of more than 13 fleets too."""
    __slots__ = ()


# Maps whose convoy paths are found on the board (see _BoardConvoys).
BOARD_CONVOYS = set()


def mila_game(map_name, long_convoys=None):
    """A MILA game on `map_name`; on a map with ports, its own copy of MILA's
    Map carries the port-chain convoy paths (MILA's shared Map is untouched).
    With LONG_CONVOYS (or `long_convoys`) its convoy table also holds the
    routes of more than 13 fleets MILA leaves out. On a map whose convoy
    paths MILA has not computed (or one in BOARD_CONVOYS), MILA's Map is
    made without them and the game finds them on the board."""
    from diplomacy.engine import map as mila_maps
    long_convoys = LONG_CONVOYS if long_convoys is None else long_convoys
    board = map_name in BOARD_CONVOYS or map_name not in mila_maps.CONVOYS_PATH_CACHE
    if board and not isinstance(mila_maps.MAP_CACHE.get(map_name), mila_maps.Map):
        # MILA's Map(name) would compute the table first; this one does not.
        mila_maps.MAP_CACHE[map_name] = mila_maps.Map(map_name, use_cache=False)
    if board:
        game = (_LongBoardConvoys if long_convoys else _BoardConvoys)(map_name=map_name)
        return game
    game = (_LongConvoysFixed if long_convoys else diplomacy.Game)(map_name=map_name)
    if map_name not in _PORT_MAPS:
        paths = port_chain_paths(map_name)
        patched = None
        if paths is not None and PORT_CHAINS:
            import copy
            patched = copy.deepcopy(game.map)
            patched.convoy_paths = paths
        _PORT_MAPS[map_name] = patched
    if _PORT_MAPS[map_name] is not None:
        game.map = _PORT_MAPS[map_name]
        game.build_caches()
    return game


_COMBINED = {}


def _give(game, fix):
    """Gives one game the class `fix` (a corrected MILA Game), keeping what
    its own class does to the convoy table (long convoys, routes found on
    the board)."""
    own = type(game)
    if own is not diplomacy.Game and not issubclass(fix, own):
        if (fix, own) not in _COMBINED:
            _COMBINED[fix, own] = type(fix.__name__ + own.__name__, (fix, own), {'__slots__': ()})
        fix = _COMBINED[fix, own]
    game.__class__ = fix


class _ViaFixed(diplomacy.Game):
    """MILA's Game with `_occupant('VIA')` answering for the target of the
    move whose unit was looked up just before (see fix_via_own_support)."""
    __slots__ = ()
    _last = {}

    def _occupant(self, site, any_coast=0):
        last = _ViaFixed._last.get(id(self))
        if site == 'VIA' and last in self.command:
            words = self.command[last].split()
            if words[0] == '-' and words[-1] == 'VIA':
                site = words[-2]
        found = super()._occupant(site, any_coast)
        _ViaFixed._last[id(self)] = found
        return found


def fix_via_own_support(game):
    """MILA's step 2 of `_resolve_moves` finds the owner of a move's target
    as `_occupant(coord[-1])`, the order's last word, which for a move
    written with VIA is `VIA`: no unit, so a support given by the owner of
    the unit attacked counts toward dislodging it (DATC 6.D.12 and 6.E.5
    forbid it; MILA forbids it for moves without VIA). Corrected on one
    game, which is given the class above."""
    _give(game, _ViaFixed)


class _OwnSupportFixed(diplomacy.Game):
    """MILA's Game whose convoy-disruption check leaves out the supports
    that cannot dislodge the convoying fleet (see fix_convoy_own_support)."""
    __slots__ = ()

    def _check_disruptions(self, may_convoy, result, coresult=None):
        counted = self.combat
        # Each entry of `combat` is [unit, supports that do not count toward
        # dislodging the unit at that place]: its strength less those.
        self.combat = {}
        for area, by_strength in counted.items():
            for strength, entries in by_strength.items():
                for unit, void in entries:
                    self.combat.setdefault(area, {}).setdefault(strength - len(void), []).append([unit, []])
        try:
            return super()._check_disruptions(may_convoy, result, coresult)
        finally:
            self.combat = counted


def fix_convoy_own_support(game):
    """MILA's `_check_disruptions` finds a convoying fleet beaten by the
    strongest attack on its sea, supports included that the fleet's own
    power gave and that cannot dislodge it (DATC 6.D.12; MILA reports them
    `void`), and disrupts the convoy of a fleet that is not dislodged.
    Corrected on one game, which is given the class above."""
    _give(game, _OwnSupportFixed)


class _ConvoyedRetreatFixed(diplomacy.Game):
    """MILA's Game whose retreats after a convoyed attack are those of the
    rules (see fix_convoyed_retreats)."""
    __slots__ = ()

    def _post_move_update(self):
        for power in self.powers.values():
            for unit in list(power.retreats):
                attacker_site = self.dislodged.get(unit)
                attackers = [u for u, order in self.command.items()
                             if u[2:5] == attacker_site and order.split()[0] == '-' and not self.result.get(u)]
                via = bool(attackers) and self._is_moving_via_convoy(attackers[0])
                kept = [loc for loc in power.retreats[unit]
                        if not self.combat.get(loc[:3]) and (loc[:3] != attacker_site or via)]
                if kept:
                    power.retreats[unit] = kept
                    continue
                # Nowhere to go: destroyed, as MILA destroys such a unit.
                self.update_hash(power.name, unit_type=unit[0], loc=unit[2:], is_dislodged=True)
                del power.retreats[unit]
                self.popped.append(unit)
        return super()._post_move_update()


def fix_convoyed_retreats(game):
    """MILA's `_move_results` allows a retreat where `not combat and where
    != attacker_site or moving_via_convoy(attacker)`: by Python's
    precedence a convoyed attacker opens every neighbour, held or
    contested, where it should open only its own origin. Corrected on one
    game, which is given the class above: after MILA's moves, each
    retreat is kept only where the rules allow it."""
    _give(game, _ConvoyedRetreatFixed)


class _OwnConvoyKeptFixed(diplomacy.Game):
    """MILA's Game in which an army convoyed by its own power's fleet does
    not take the land route when the convoy is disrupted (see
    fix_own_convoy_land_route)."""
    __slots__ = ()

    def _check_disruptions(self, may_convoy, result, coresult=None):
        # MILA keeps the land route of a move written without VIA; the
        # convoy is used whenever it was (its own fleet convoys it), so
        # each such move is read as written with VIA for this check.
        written = {}
        for unit in may_convoy:
            command = self.command.get(unit, '')
            if command.startswith('-') and not command.endswith('VIA'):
                written[unit] = command
                self.command[unit] = command + ' VIA'
        try:
            return super()._check_disruptions(may_convoy, result, coresult)
        finally:
            self.command.update(written)


def fix_own_convoy_land_route(game):
    """MILA's `_check_disruptions` gives an army whose convoy is disrupted
    its land route back unless its order says VIA, though MILA moves it by
    convoy because a fleet of its own power convoys it: the 2000 and 2023
    rules (DATC 4.A.3) then disregard the land route. Corrected on one
    game, which is given the class above."""
    _give(game, _OwnConvoyKeptFixed)


class _HeadToHeadFixed(diplomacy.Game):
    """MILA's Game whose head-to-head battles weigh each move's attack
    strength against the other unit's defend strength (see
    fix_head_to_head)."""
    __slots__ = ()

    def _bounce(self):
        # Each head-to-head pair not yet decided (two units of different
        # powers, neither convoyed, each moving into the other's place) is
        # decided by the DATC's rule before MILA's own step sees it; MILA
        # then skips the pair, as one of its units has a result.
        for unit, order in list(self.command.items()):
            word = order.split()
            if self.result[unit] or word[0] != '-' or self._is_moving_via_convoy(unit):
                continue
            other = self._occupant(word[1], any_coast=1)
            if not other or self.result.get(other) or self._is_moving_via_convoy(other) \
                    or not self.command.get(other, '').startswith('- ' + unit[2:].split('/')[0]) \
                    or self._unit_owner(unit) is self._unit_owner(other):
                continue
            attack = {u: self.supports[u][0] - len(self.supports[u][1]) for u in (unit, other)}
            defend = {u: self.supports[u][0] for u in (unit, other)}
            if attack[unit] <= defend[other]:
                self._boing(unit)
            if attack[other] <= defend[unit]:
                self._boing(other)
            for supporter in self.supports[unit][1] + self.supports[other][1]:
                self.result[supporter] += [VOID]
        return super()._bounce()


def fix_head_to_head(game):
    """MILA's head-to-head step weighs the two moves' attack strengths (each
    without the supports that cannot dislodge the other unit) against each
    other; the DATC weighs each attack strength against the other unit's
    defend strength, which counts every support. Corrected on one game,
    which is given the class above."""
    _give(game, _HeadToHeadFixed)


# name → how a MILA game is corrected for the replay.
MILA_FAULTS = {'VIA move, own support counted': fix_via_own_support,
               "convoy disrupted by an attack its fleet's own power supports": fix_convoy_own_support,
               'retreats opened by a convoyed attack': fix_convoyed_retreats,
               'land route taken after an own convoy was disrupted': fix_own_convoy_land_route,
               'head-to-head weighed attack against attack': fix_head_to_head}


def explain(map_name, state, chosen, mila, ours):
    """The name of MILA's fault that explains the difference after a phase:
    MILA replayed from `state` with `chosen` gives its own result again, and
    with the fault corrected gives dip's; else None."""
    def replay(fix):
        game = mila_game(map_name)
        game.set_state(state)
        if fix:
            fix(game)
        for power, orders in chosen.items():
            game.set_orders(power, orders)
        game.process()
        return snapshot(game)
    if replay(None) != snapshot(mila):
        return None
    for name, fix in MILA_FAULTS.items():
        if replay(fix) == snapshot(ours):
            return name
    return None


EXPLAINED_AT_THE_END = "a difference MILA's faults explain, in the game's last phase"


LONG_CONVOY_FAULT = 'convoy of more than 13 fleets left out'


def capped_mila_differs(map_name, state, chosen, possible, kept, mila):
    """Does MILA as shipped, its convoys capped at 13 fleets, differ from
    `mila` (the same MILA with the longer convoys) in this phase: in the
    possible orders `possible` (when they were compared), the orders it
    keeps of `chosen` (`kept`), or the position after it? A replay from
    `state`."""
    capped = mila_game(map_name, long_convoys=False)
    capped.set_state(state)
    if possible is not None:
        listed = capped.get_all_possible_orders()
        if any(set(listed.get(loc) or []) != set(orders or []) for loc, orders in possible.items()):
            return True
    for power, orders in chosen.items():
        capped.set_orders(power, orders)
    if capped.get_orders() != kept:
        return True
    capped.process()
    return snapshot(capped) != snapshot(mila)


def play_phase(map_name, phase, chosen, state_before, mila, ours, explained, correct_faults, possible=None):
    """Gives both engines the agent's `chosen` orders and processes the phase.
    Returns (1 if processed else 0, problem): the first difference MILA's
    faults do not explain, EXPLAINED_AT_THE_END, or None. A difference they
    explain goes to `explained`, and dip takes over MILA's position when the
    game goes on. `state_before()` is MILA's state before the phase;
    `possible`, MILA's possible orders of the phase when they were compared.
    A phase in which MILA, given the convoys of more than 13 fleets it
    leaves out (LONG_CONVOYS), lists, keeps or does other than MILA as
    shipped counts as explained by that fault."""
    long_convoys = correct_faults and isinstance(mila, _LongConvoysFixed) and bool(long_paths_on_board(mila))
    for power, orders in chosen.items():
        mila.set_orders(power, orders)
        ours.set_orders(power, orders)
    ours.error = []
    kept = mila.get_orders()
    problem = first_difference(kept, ours.get_orders(), phase + ' get_orders after %r' % chosen)
    if problem:
        return 0, problem
    mila.process()
    ours.process()
    problem = first_difference(snapshot(mila), snapshot(ours), 'after %s with %r' % (phase, chosen))
    if long_convoys and explained is not None \
            and capped_mila_differs(map_name, state_before(), chosen, possible, kept, mila):
        explained.append((phase, LONG_CONVOY_FAULT))
    if not problem:
        return 1, None
    fault = explain(map_name, state_before(), chosen, mila, ours) if correct_faults else None
    if fault is None:
        return 1, problem + '\n' + unit_differences(mila, ours)
    if explained is not None:
        explained.append((phase, fault))
    if mila.is_game_done:
        return 1, EXPLAINED_AT_THE_END
    # MILA's game goes on: dip takes over its position.
    ours.set_state(mila.get_state(), clear_history=False)
    return 1, None


def outcome_difference(mila, ours):
    """How the finished games' outcomes differ, or None."""
    if mila.is_game_done and (not ours.is_game_done or list(mila.outcome) != list(ours.outcome)):
        return 'outcome: MILA %s, dip %s' % (mila.outcome, ours.outcome)
    return None


def play(seed, map_name, max_phases, explained=None, correct_faults=True):
    """(phases compared, None) or (phases, description of the first difference
    MILA's faults do not explain). `explained` collects (phase, fault) for the
    differences they explain."""
    rng = random.Random(seed)
    mila = mila_game(map_name)
    ours = dip.Game(map_name=map_name)
    phases = 0
    while not mila.is_game_done and phases < max_phases:
        phase = mila.get_current_phase()
        problem = first_difference(snapshot(mila), snapshot(ours), 'before ' + phase)
        if problem:
            return phases, problem
        possible = mila.get_all_possible_orders()
        ours_possible = ours.get_all_possible_orders()
        for loc in sorted({loc for locs in mila.get_orderable_locations().values() for loc in locs}):
            if sorted(possible.get(loc) or []) != sorted(ours_possible.get(loc) or []):
                return phases, '%s: possible orders of %s: MILA %s, dip %s' % (
                    phase, loc, sorted(possible.get(loc) or []), sorted(ours_possible.get(loc) or []))
        problem = first_difference(mila.get_orderable_locations(), ours.get_orderable_locations(),
                                   phase + ' orderable locations')
        if problem:
            return phases, problem
        chosen = agent_orders(mila, rng)
        before = mila.get_state()
        processed, problem = play_phase(map_name, phase, chosen, lambda: before, mila, ours, explained,
                                        correct_faults, possible)
        phases += processed
        if problem:
            return phases, None if problem is EXPLAINED_AT_THE_END else problem
    return phases, outcome_difference(mila, ours)


def play_dip_driven(seed, map_name, max_phases, explained=None, compare_possible=lambda phases: True,
                    correct_faults=True):
    """As `play`, but the agent chooses on dip.Game, as an agent that takes
    dip for MILA's Game does: its raw orders (WAIVE, extra builds) come from
    dip's possible orders and go to both engines unchanged. The engines
    must agree on every phase's orderable locations, `get_orders()` after
    set_orders, units, centres and next phase, and on the outcome; each
    location's possible orders (as sets) are compared on the phases
    `compare_possible(phases compared so far)` picks (MILA's
    get_all_possible_orders is most of MILA's time a phase). Returns
    (phases compared, first difference or None)."""
    rng = random.Random(seed)
    mila = mila_game(map_name)
    ours = dip.Game(map_name=map_name)
    phases = 0
    problem = first_difference(snapshot(mila), snapshot(ours), 'before ' + mila.get_current_phase())
    if problem:
        return phases, problem
    while not mila.is_game_done and phases < max_phases:
        phase = mila.get_current_phase()
        orderable = ours.get_orderable_locations()
        problem = first_difference(mila.get_orderable_locations(), orderable, phase + ' orderable locations')
        if problem:
            return phases, problem
        possible = ours.get_all_possible_orders()
        mila_possible = None
        if compare_possible(phases):
            mila_possible = mila.get_all_possible_orders()
            for loc in sorted({loc for locs in orderable.values() for loc in locs}):
                if set(mila_possible.get(loc) or []) != set(possible.get(loc) or []):
                    return phases, '%s: possible orders of %s: MILA %s, dip %s' % (
                        phase, loc, sorted(mila_possible.get(loc) or []), sorted(possible.get(loc) or []))
        # MILA's README agent, on dip's lists.
        chosen = {name: [rng.choice(possible[loc]) for loc in orderable[name] if possible[loc]]
                  for name in ours.powers}
        # MILA kept the state it processed from; a replay starts there.
        processed, problem = play_phase(map_name, phase, chosen, mila.state_history.last_value, mila, ours,
                                        explained, correct_faults, mila_possible)
        phases += processed
        if problem:
            return phases, None if problem is EXPLAINED_AT_THE_END else problem
    return phases, outcome_difference(mila, ours)


def summarize(paths):
    """The table of BENCHMARKS.md from --jsonl files: per map, games,
    phases compared, phases with a fault of MILA explained, games that differ."""
    rows = [json.loads(line) for path in paths for line in open(path) if line.strip()]
    per_map = {}
    for r in rows:
        c = per_map.setdefault(r['map'], [0, 0, 0, 0])
        c[0] += 1
        c[1] += r['phases']
        c[2] += len(r['mila_faults'])
        c[3] += 1 if r['problem'] else 0
    print('| map | games | phases compared | phases with a MILA fault, explained | games that differ |')
    print('|---|---|---|---|---|')
    for name, c in per_map.items():
        print('| %s | %s |' % (name, ' | '.join('{:,}'.format(x) for x in c)))
    print('| all | %s |' % ' | '.join('{:,}'.format(sum(c[k] for c in per_map.values())) for k in range(4)))
    faults = {}
    for r in rows:
        for phase, fault in r['mila_faults']:
            faults[fault] = faults.get(fault, 0) + 1
    print('MILA\'s faults: %s' % (faults or 'none'))
    for r in rows:
        if r['problem']:
            print('%s seed %d: %s' % (r['map'], r['seed'], r['problem'][:300]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--games', type=int, default=50, help='games in all, the maps taking turns')
    ap.add_argument('--map', action='append', help='a MILA map name (repeatable); default every map dip plays')
    ap.add_argument('--seed', type=int, default=1, help='seed of the first game (the next ones count up)')
    ap.add_argument('--max-phases', type=int, default=10 ** 6, help='stop a game after this many phases')
    ap.add_argument('--hash-seed', default='0',
                    help='PYTHONHASHSEED of the run (the order of MILA\'s lists), unless already set; default 0')
    ap.add_argument('--driver', choices=('dip', 'mila'), default='dip',
                    help='the engine whose possible orders the agent chooses from (default dip: MILA lists '
                         'possible orders only on sampled phases, which makes a game several times faster)')
    ap.add_argument('--possible-every', type=int, default=10, metavar='N',
                    help='with --driver dip: compare the possible orders on every Nth phase, and on every '
                         'phase of the first game of each map (default 10)')
    ap.add_argument('--no-corrections', action='store_true',
                    help="MILA as shipped: no replay with its faults corrected, no port-chain convoy paths, "
                         "no convoys of more than 13 fleets (to check that the comparison reports MILA's faults)")
    ap.add_argument('--board-convoys', action='store_true',
                    help="MILA finds its convoy routes on the board in each position instead of in its table "
                         "(what it does on a map whose table it has not computed)")
    ap.add_argument('--summarize', nargs='+', metavar='JSONL',
                    help='print the per-map table of runs written with --jsonl, and play nothing')
    ap.add_argument('--jsonl', help='append one JSON line per game to this file (for long runs in chunks)')
    args = ap.parse_args()
    if args.summarize:
        return summarize(args.summarize)
    if 'PYTHONHASHSEED' not in os.environ:
        # MILA's lists follow the hash seed: a fixed one makes a run replayable.
        os.environ['PYTHONHASHSEED'] = args.hash_seed
        os.execv(sys.executable, [sys.executable] + sys.argv)
    print('PYTHONHASHSEED=%s' % os.environ['PYTHONHASHSEED'], flush=True)
    maps = args.map or MAPS
    if args.board_convoys:
        BOARD_CONVOYS.update(maps)
    if args.no_corrections:
        global PORT_CHAINS, LONG_CONVOYS
        PORT_CHAINS = False
        LONG_CONVOYS = False
    start = time.time()
    per_map = {m: [0, 0, 0, 0] for m in maps}  # games, phases, games that differ, MILA faults
    faults = {}
    for n in range(args.games):
        map_name = maps[n % len(maps)]
        seed = args.seed + n
        began = time.time()
        explained = []
        if args.driver == 'dip':
            every = 1 if n < len(maps) else max(args.possible_every, 1)
            phases, problem = play_dip_driven(seed, map_name, args.max_phases, explained,
                                              lambda done, every=every: done % every == 0,
                                              correct_faults=not args.no_corrections)
        else:
            phases, problem = play(seed, map_name, args.max_phases, explained,
                                   correct_faults=not args.no_corrections)
        counts = per_map[map_name]
        counts[0] += 1
        counts[1] += phases
        counts[3] += len(explained)
        for phase, fault in explained:
            faults[fault] = faults.get(fault, 0) + 1
            print('%s game %d (seed %d), %s: MILA\'s fault: %s' % (map_name, n, seed, phase, fault), flush=True)
        if problem:
            counts[2] += 1
            print('%s game %d (seed %d) differs after %d phases: %s' % (map_name, n, seed, phases, problem),
                  flush=True)
        if args.jsonl:
            with open(args.jsonl, 'a') as out:
                out.write(json.dumps({'map': map_name, 'seed': seed, 'hash_seed': os.environ['PYTHONHASHSEED'],
                                      'driver': args.driver,
                                      'phases': phases, 'problem': problem, 'mila_faults': explained,
                                      'seconds': round(time.time() - began, 2)}) + '\n')
    for map_name, (games, phases, differ, explained) in per_map.items():
        if games:
            print('%s: %d games, %d phases, %d differ, %d phases with a fault of MILA'
                  % (map_name, games, phases, differ, explained))
    games = sum(c[0] for c in per_map.values())
    phases = sum(c[1] for c in per_map.values())
    differ = sum(c[2] for c in per_map.values())
    print('all maps: %d games, %d phases, %d differ (%.0f s); MILA\'s faults: %s'
          % (games, phases, differ, time.time() - start, faults or 'none'))
    sys.exit(1 if differ else 0)


if __name__ == '__main__':
    main()
