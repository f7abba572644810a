//! The movement resolver: the DATC's decisions (section 5.B) solved by the
//! guess algorithm with cycle detection and back-up rules (section 5.F).
//!
//! Every move, matching support and matching convoy is one boolean decision:
//! the move succeeds, the support is given, the convoy is not disrupted.

use super::board::{Act, Route, Slot, NONE};
use crate::ids::{PowerId, ProvinceId};
use crate::map::Map;
use crate::rules::{HeadToHead, HeadToHeadDislodged, MultiRoute, Paradox, PartialCut, Ruleset, SelfSupport};

const UNRESOLVED: u8 = 0;
const GUESSING: u8 = 1;
const RESOLVED: u8 = 2;

/// Most convoying units one army may use (a route longer than this is not
/// a real position; extra fleets are ignored).
const MAX_CONVOY: usize = 64;

pub(crate) struct Resolver<'a> {
    map: &'a Map,
    rules: &'a Ruleset,
    slots: &'a [Slot],
    slot_of: &'a [u16],
    lists: &'a Lists,
    res: Vec<bool>,
    state: Vec<u8>,
    /// Convoys cancelled by the paradox rule.
    pub(crate) paradox: Vec<bool>,
    cycle: Vec<u16>,
    guess_based: bool,
    recursion_hits: u32,
    depth: u32,
}

fn iter_list<'b>(head: u16, next: &'b [u16]) -> impl Iterator<Item = usize> + 'b {
    let mut cur = head;
    std::iter::from_fn(move || {
        if cur == NONE {
            return None;
        }
        let i = cur as usize;
        cur = next[i];
        Some(i)
    })
}

/// Who moves into each province, who supports and who convoys each unit:
/// intrusive lists in flat arrays, built once per phase and then only read.
pub(crate) struct Lists {
    /// One allocation: the heads of the moves into each province, then five
    /// arrays of one entry per slot (next move, head and next support, head
    /// and next convoy).
    buf: Vec<u16>,
    np: usize,
    n: usize,
}

impl Lists {
    pub(crate) fn new(num_provinces: usize, slots: &[Slot], slot_of: &[u16]) -> Self {
        let n = slots.len();
        let np = num_provinces;
        let mut l = Lists {
            buf: vec![NONE; np + 5 * n],
            np,
            n,
        };
        let (ah, an, sh, sn, ch, cn) = (0, np, np + n, np + 2 * n, np + 3 * n, np + 4 * n);
        // Built back to front so that they come out in board order.
        for i in (0..n).rev() {
            let s = &slots[i];
            match s.act {
                Act::Move { to_p, .. } => {
                    l.buf[an + i] = l.buf[ah + to_p.index()];
                    l.buf[ah + to_p.index()] = i as u16;
                }
                Act::SupportHold { target } | Act::SupportMove { target, .. } if s.matches => {
                    let t = slot_of[target.index()] as usize;
                    l.buf[sn + i] = l.buf[sh + t];
                    l.buf[sh + t] = i as u16;
                }
                Act::Convoy { army, .. } if s.matches => {
                    let t = slot_of[army.index()] as usize;
                    l.buf[cn + i] = l.buf[ch + t];
                    l.buf[ch + t] = i as u16;
                }
                _ => {}
            }
        }
        l
    }
    pub(crate) fn attackers(&self, p: ProvinceId) -> impl Iterator<Item = usize> + '_ {
        iter_list(self.buf[p.index()], &self.buf[self.np..self.np + self.n])
    }
    fn supporters(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let base = self.np + self.n;
        iter_list(self.buf[base + i], &self.buf[base + self.n..base + 2 * self.n])
    }
    fn convoys(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let base = self.np + 3 * self.n;
        iter_list(self.buf[base + i], &self.buf[base + self.n..base + 2 * self.n])
    }
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(
        map: &'a Map,
        rules: &'a Ruleset,
        slots: &'a [Slot],
        slot_of: &'a [u16],
        lists: &'a Lists,
    ) -> Self {
        let n = slots.len();
        Resolver {
            map,
            rules,
            slots,
            slot_of,
            lists,
            res: vec![false; n],
            state: vec![UNRESOLVED; n],
            paradox: vec![false; n],
            cycle: Vec::new(),
            guess_based: false,
            recursion_hits: 0,
            depth: 0,
        }
    }

    pub(crate) fn is_decision(&self, i: usize) -> bool {
        let s = &self.slots[i];
        match s.act {
            Act::Move { .. } => true,
            Act::SupportHold { .. } | Act::SupportMove { .. } | Act::Convoy { .. } => s.matches,
            Act::Hold => false,
        }
    }

    /// Resolves every decision.
    pub(crate) fn run(&mut self) {
        for i in 0..self.slots.len() {
            if self.is_decision(i) {
                self.resolve(i);
            }
        }
    }

    pub(crate) fn result(&self, i: usize) -> bool {
        self.res[i]
    }

    fn occupant(&self, p: ProvinceId) -> Option<usize> {
        let j = self.slot_of[p.index()];
        (j != NONE).then_some(j as usize)
    }

    // ---- the guess algorithm (DATC 5.F) ----

    pub(crate) fn resolve(&mut self, i: usize) -> bool {
        if self.state[i] == RESOLVED {
            return self.res[i];
        }
        if self.cycle.contains(&(i as u16)) {
            self.guess_based = true;
            return self.res[i];
        }
        if self.state[i] == GUESSING {
            self.cycle.push(i as u16);
            self.guess_based = true;
            self.recursion_hits += 1;
            return self.res[i];
        }
        // Deep chains are bounded by the number of units; this guards stack use
        // on absurd inputs: beyond it, a move simply fails.
        if self.depth > 4 * self.slots.len() as u32 + 64 {
            return false;
        }
        self.depth += 1;
        self.state[i] = GUESSING;
        let old_cycle_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_hits = self.recursion_hits;
        self.res[i] = false;
        let first = self.adjudicate(i);
        if self.state[i] == RESOLVED {
            // A back-up rule deeper down settled this order.
            self.cycle.truncate(old_cycle_len);
            self.guess_based = old_guess_based;
            self.depth -= 1;
            return self.res[i];
        }

        let out = if !self.guess_based {
            self.guess_based = old_guess_based;
            self.finish(i, first)
        } else {
            if self.cycle[old_cycle_len..].contains(&(i as u16)) {
                self.recursion_hits -= 1;
            }
            if self.recursion_hits == old_hits {
                // This order is the ancestor of the whole cycle: try the other guess.
                self.cycle.truncate(old_cycle_len);
                self.res[i] = true;
                let second = self.adjudicate(i);
                if first == second {
                    self.cycle.truncate(old_cycle_len);
                    self.guess_based = old_guess_based;
                    self.finish(i, first)
                } else {
                    let cyc: Vec<u16> = self.cycle[old_cycle_len..].to_vec();
                    self.backup_rule(i, &cyc);
                    self.cycle.truncate(old_cycle_len);
                    self.guess_based = old_guess_based;
                    self.state[i] = if self.state[i] == RESOLVED {
                        RESOLVED
                    } else {
                        UNRESOLVED
                    };
                    self.depth -= 1;
                    return self.resolve(i);
                }
            } else {
                if !self.cycle[old_cycle_len..].contains(&(i as u16)) {
                    self.cycle.push(i as u16);
                }
                self.res[i] = first;
                self.state[i] = UNRESOLVED;
                first
            }
        };
        self.depth -= 1;
        out
    }

    fn finish(&mut self, i: usize, r: bool) -> bool {
        self.res[i] = r;
        self.state[i] = RESOLVED;
        r
    }

    /// Zero or two resolutions: circular movement or a paradox.
    fn backup_rule(&mut self, start: usize, cycle: &[u16]) {
        let mut members: Vec<usize> = cycle.iter().map(|&c| c as usize).collect();
        if !members.contains(&start) {
            members.push(start);
        }
        let resolved_before = self.state.iter().filter(|&&st| st == RESOLVED).count();
        let all_moves = members.iter().all(|&c| matches!(self.slots[c].act, Act::Move { .. }));
        let has_convoy = members.iter().any(|&c| matches!(self.slots[c].act, Act::Convoy { .. }));
        if all_moves {
            // Circular movement: everyone moves.
            for &c in &members {
                self.finish(c, true);
            }
        } else if has_convoy {
            match self.rules.paradox {
                Paradox::AllHold => {
                    // Every move of the paradox fails: the convoyed armies,
                    // the attacks on their convoys, and moves in the cycle.
                    // Convoys and supports are then judged again.
                    let mut fail: Vec<usize> = Vec::new();
                    for &c in &members {
                        match self.slots[c].act {
                            Act::Move { .. } => fail.push(c),
                            Act::Convoy { army, .. } => {
                                if let Some(a) = self.occupant(army) {
                                    fail.push(a);
                                }
                                fail.extend(self.lists.attackers(self.slots[c].province));
                            }
                            _ => {}
                        }
                    }
                    for m in fail {
                        self.finish(m, false);
                    }
                }
                _ => {
                    // Szykman (also the back-up of the rulebook rules): the
                    // convoys in the paradox are treated as holds.
                    for &c in &members {
                        if matches!(self.slots[c].act, Act::Convoy { .. }) {
                            self.paradox[c] = true;
                            self.finish(c, false);
                        }
                    }
                }
            }
            for &c in &members {
                if self.state[c] != RESOLVED {
                    self.state[c] = UNRESOLVED;
                }
            }
        } else {
            for &c in &members {
                self.finish(c, false);
            }
        }
        // A back-up rule must settle something, or the cycle would recur.
        if self.state.iter().filter(|&&st| st == RESOLVED).count() == resolved_before {
            for &c in &members {
                self.finish(c, false);
            }
        }
    }

    fn adjudicate(&mut self, i: usize) -> bool {
        match self.slots[i].act {
            Act::Move { .. } => self.adjudicate_move(i),
            Act::SupportHold { .. } | Act::SupportMove { .. } => self.adjudicate_support(i),
            Act::Convoy { .. } => self.adjudicate_convoy(i),
            Act::Hold => true,
        }
    }

    // ---- paths and convoys ----

    /// Some route of matching convoys from the army to its destination
    /// (`skip`: leave out one convoying slot; `check`: only undisrupted ones).
    fn convoy_route(&mut self, m: usize, skip: Option<usize>, check: bool) -> bool {
        let Act::Move { to_p, .. } = self.slots[m].act else {
            return false;
        };
        let from = self.slots[m].province;
        let fleets: Vec<usize> = self
            .lists
            .convoys(m)
            .take(MAX_CONVOY)
            .filter(|&f| Some(f) != skip)
            .collect();
        if fleets.is_empty() {
            return false;
        }
        let mut visited: u64 = 0;
        let mut frontier: u64 = 0;
        for (k, &f) in fleets.iter().enumerate() {
            if self.map.convoy_adjacent(from, self.slots[f].province) {
                frontier |= 1 << k;
            }
        }
        while frontier != 0 {
            let k = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            if visited & (1 << k) != 0 {
                continue;
            }
            visited |= 1 << k;
            let f = fleets[k];
            if check && !self.resolve(f) {
                continue;
            }
            let fp = self.slots[f].province;
            if self.map.convoy_adjacent(fp, to_p) {
                return true;
            }
            for (k2, &g) in fleets.iter().enumerate() {
                if visited & (1 << k2) == 0 && self.map.convoy_adjacent(fp, self.slots[g].province) {
                    frontier |= 1 << k2;
                }
            }
        }
        false
    }

    /// Convoying slots on some minimal route of the army, ignoring disruption.
    fn route_fleets(&mut self, m: usize) -> Vec<usize> {
        let Act::Move { to_p, .. } = self.slots[m].act else {
            return Vec::new();
        };
        let from = self.slots[m].province;
        let all: Vec<usize> = self.lists.convoys(m).take(MAX_CONVOY).collect();
        let provinces: Vec<ProvinceId> = all.iter().map(|&f| self.slots[f].province).collect();
        (0..all.len())
            .filter(|&k| crate::convoy::on_minimal_route(self.map, &provinces, from, to_p, k))
            .map(|k| all[k])
            .collect()
    }

    /// The move has a route: over a border, or by an undisrupted convoy.
    fn path(&mut self, m: usize) -> bool {
        match self.slots[m].act {
            Act::Move {
                route: Route::Land | Route::Either,
                ..
            } => true,
            Act::Move {
                route: Route::Convoy, ..
            } => self.convoy_path(m),
            _ => false,
        }
    }

    fn convoy_path(&mut self, m: usize) -> bool {
        match self.rules.multi_route {
            MultiRoute::All => self.convoy_route(m, None, true),
            MultiRoute::Any => {
                let fleets = self.route_fleets(m);
                if fleets.is_empty() {
                    return false;
                }
                let mut ok = true;
                for f in fleets {
                    ok &= self.resolve(f);
                }
                ok
            }
        }
    }

    /// Does the move travel by convoy?
    pub(crate) fn is_convoyed(&mut self, m: usize) -> bool {
        match self.slots[m].act {
            Act::Move {
                route: Route::Convoy, ..
            } => true,
            Act::Move {
                route: Route::Either, ..
            } => self.convoy_path(m),
            _ => false,
        }
    }

    /// The opposing unit of a head-to-head battle, if this is one.
    pub(crate) fn head_to_head(&mut self, m: usize) -> Option<usize> {
        let Act::Move { to_p, .. } = self.slots[m].act else {
            return None;
        };
        let o = self.occupant(to_p)?;
        let Act::Move { to_p: back, .. } = self.slots[o].act else {
            return None;
        };
        if back != self.slots[m].province || self.is_convoyed(m) || self.is_convoyed(o) {
            return None;
        }
        Some(o)
    }

    // ---- strengths (DATC 5.B.5–5.B.8) ----

    /// Strength a support adds, after cuts.
    fn support_value(&mut self, s: usize) -> u32 {
        if !self.resolve(s) {
            return 0;
        }
        let st = self.slots[s].strength as u32;
        match self.rules.partial_cut {
            PartialCut::ByStrength => st.saturating_sub(self.cut_reduction(s)),
            _ => st,
        }
    }

    /// Sum of the supports of `i`, leaving out supports of `exclude`.
    fn supports(&mut self, i: usize, exclude: Option<PowerId>) -> u32 {
        let mut total = 0;
        let lists = self.lists;
        for s in lists.supporters(i) {
            if Some(self.slots[s].power) == exclude {
                continue;
            }
            total += self.support_value(s);
        }
        if let Act::Move { weak: true, .. } = self.slots[i].act {
            total = total.saturating_sub(1);
        }
        total
    }

    fn hold_strength(&mut self, p: ProvinceId) -> u32 {
        let Some(o) = self.occupant(p) else {
            return 0;
        };
        if let Act::Move { .. } = self.slots[o].act {
            return if self.resolve(o) {
                0
            } else {
                self.slots[o].strength as u32
            };
        }
        self.slots[o].strength as u32 + self.supports(o, None)
    }

    /// The unit's own strength in a move: its type's, changed by a border
    /// rule of the border it crosses (not when convoyed; DATC 2.4 10.M).
    fn move_base(&mut self, m: usize) -> i32 {
        let st = self.slots[m].strength as i32;
        let Act::Move { change, .. } = self.slots[m].act else {
            return st;
        };
        if change != 0 && !self.is_convoyed(m) {
            st + change as i32
        } else {
            st
        }
    }

    /// A move's strength with supports (all, or leaving out one power's):
    /// never below zero.
    fn move_strength(&mut self, m: usize, exclude: Option<PowerId>) -> u32 {
        let base = self.move_base(m);
        (base + self.supports(m, exclude) as i32).max(0) as u32
    }

    fn defend_strength(&mut self, m: usize) -> u32 {
        self.move_strength(m, None)
    }

    fn prevent_strength(&mut self, p: usize, exclude: Option<PowerId>) -> u32 {
        if !self.path(p) {
            return 0;
        }
        if let Some(o) = self.head_to_head(p) {
            let lost = match self.rules.ix7 {
                HeadToHead::OtherSucceeds => self.resolve(o),
                HeadToHead::OtherStronger => self.defend_strength(o) > self.defend_strength(p),
                HeadToHead::OtherAtLeastAsStrong => self.defend_strength(o) >= self.defend_strength(p),
            };
            if lost {
                return 0;
            }
        } else if self.rules.head_to_head_dislodged == HeadToHeadDislodged::Literal {
            // 4.A.7 literal: a unit dislodged from where it is going has no effect there.
            if let Act::Move { to_p, .. } = self.slots[p].act {
                if let Some(o) = self.occupant(to_p) {
                    if matches!(self.slots[o].act, Act::Move { to_p: back, .. } if back == self.slots[p].province)
                        && self.resolve(o)
                    {
                        return 0;
                    }
                }
            }
        }
        self.move_strength(p, exclude)
    }

    /// (attack strength with every support, attack strength without the
    /// supports of the defender's power, the defender's power).
    fn attack_strength(&mut self, m: usize) -> (u32, u32, Option<PowerId>) {
        if !self.path(m) {
            return (0, 0, None);
        }
        let Act::Move { to_p, .. } = self.slots[m].act else {
            return (0, 0, None);
        };
        let Some(o) = self.occupant(to_p) else {
            let full = self.move_strength(m, None);
            return (full, full, None);
        };
        if let Act::Move { .. } = self.slots[o].act {
            if self.head_to_head(m).is_none() && self.resolve(o) {
                let full = self.move_strength(m, None);
                return (full, full, None);
            }
        }
        let defender = self.slots[o].power;
        if defender == self.slots[m].power {
            return (0, 0, Some(defender));
        }
        let full = self.move_strength(m, None);
        let excl = self.move_strength(m, Some(defender));
        (full, excl, Some(defender))
    }

    /// Does the move in its target province meet a unit of its own power
    /// that stays (so that it has no strength there)?
    pub(crate) fn meets_own_unit(&mut self, m: usize) -> bool {
        let Act::Move { to_p, .. } = self.slots[m].act else {
            return false;
        };
        self.occupant(to_p)
            .is_some_and(|o| self.slots[o].power == self.slots[m].power)
    }

    /// Has the move any strength against the supporting unit `s` in its
    /// target (its own, changed by its border, and supports other than of
    /// `s`'s power)? A move over a difficult border with no such support
    /// cuts nothing (DATC 2.4 10.A, 10.O). Other moves always cut.
    fn strong_enough_to_cut(&mut self, m: usize, s: usize) -> bool {
        let base = self.move_base(m);
        if base > 0 || base >= self.slots[m].strength as i32 {
            // Not weakened to nothing (DipWork's strength-0 scouts cut, too).
            return true;
        }
        let power = self.slots[s].power;
        self.move_strength(m, Some(power)) > 0
    }

    fn adjudicate_move(&mut self, m: usize) -> bool {
        let Act::Move { to_p, .. } = self.slots[m].act else {
            return false;
        };
        let (full, excl, defender) = self.attack_strength(m);
        let resist = match self.head_to_head(m) {
            Some(o) => self.defend_strength(o),
            None => self.hold_strength(to_p),
        };
        // A move weakened to nothing by its border still enters a province
        // nobody holds (DATC 2.4 10.H); any other move there keeps it out (10.D).
        let weakened_into_empty = resist == 0 && self.move_base(m) < self.slots[m].strength as i32 && self.path(m);
        if excl <= resist && !weakened_into_empty {
            return false;
        }
        let lists = self.lists;
        for p in lists.attackers(to_p).filter(|&p| p != m) {
            let beaten = match self.rules.ix3 {
                SelfSupport::Excluded => excl <= self.prevent_strength(p, None),
                SelfSupport::ContestCounts => full <= self.prevent_strength(p, None),
                SelfSupport::SameWinner => {
                    full <= self.prevent_strength(p, None) || excl <= self.prevent_strength(p, defender)
                }
            };
            if beaten {
                return false;
            }
        }
        true
    }

    // ---- supports ----

    /// Can the move `m` cut the support `s` (before looking at its route)?
    fn can_cut(&mut self, m: usize, s: usize) -> bool {
        let (mover, supporter) = (&self.slots[m], &self.slots[s]);
        if mover.power == supporter.power && !self.rules.self_cut {
            return false;
        }
        let origin = mover.province;
        if let Act::SupportMove { to, .. } = supporter.act {
            if to == origin && !(self.rules.convoy_self_cut && self.is_convoyed(m)) {
                return false;
            }
        }
        if self.is_convoyed(m) {
            if !self.rules.convoy_cuts {
                return false;
            }
            if self.paradox_rule_protects(m, s) {
                return false;
            }
        }
        true
    }

    /// The paradox rules of the rulebooks (4.A.2): supports a convoyed army
    /// does not cut.
    fn paradox_rule_protects(&mut self, m: usize, s: usize) -> bool {
        let slots = self.slots;
        let map = self.map;
        let is_fleet = |i: usize| map.unit_type(slots[i].kind).can_convoy;
        match self.rules.paradox {
            Paradox::Rule1971 => {
                let Act::SupportMove { target, to, .. } = slots[s].act else {
                    return false;
                };
                if !is_fleet(s) || !self.occupant(target).is_some_and(is_fleet) {
                    return false;
                }
                self.lists.convoys(m).any(|f| slots[f].province == to)
            }
            Paradox::Rule1982 => {
                let into = match slots[s].act {
                    Act::SupportHold { target } => target,
                    Act::SupportMove { to, .. } => to,
                    _ => return false,
                };
                is_fleet(s)
                    && map.is_convoy_space(into)
                    && self
                        .occupant(into)
                        .is_some_and(|o| matches!(slots[o].act, Act::Convoy { .. }))
            }
            Paradox::Rule2000 => {
                let Act::SupportMove { to, .. } = slots[s].act else {
                    return false;
                };
                let lists = self.lists;
                lists
                    .convoys(m)
                    .filter(|&f| slots[f].province == to)
                    .any(|f| !self.convoy_route(m, Some(f), false))
            }
            Paradox::Szykman | Paradox::AllHold => false,
        }
    }

    /// Strength taken off a support by attacks (PARTIAL_CUT_POSSIBLE=1).
    fn cut_reduction(&mut self, s: usize) -> u32 {
        let p = self.slots[s].province;
        let lists = self.lists;
        let mut total = 0;
        for m in lists.attackers(p) {
            if self.can_cut(m, s) && self.path(m) && self.strong_enough_to_cut(m, s) {
                total += self.slots[m].strength as u32;
            }
        }
        total
    }

    fn adjudicate_support(&mut self, s: usize) -> bool {
        let p = self.slots[s].province;
        let st = self.slots[s].strength as u32;
        let lists = self.lists;
        let mut reduction = 0;
        for m in lists.attackers(p) {
            if self.can_cut(m, s) && self.path(m) && self.strong_enough_to_cut(m, s) {
                match self.rules.partial_cut {
                    PartialCut::Whole => return false,
                    PartialCut::WholeIfStrong => {
                        if self.slots[m].strength > 0 {
                            return false;
                        }
                    }
                    PartialCut::ByStrength => reduction += self.slots[m].strength as u32,
                }
            }
        }
        if self.rules.partial_cut == PartialCut::ByStrength && reduction >= st && st > 0 {
            return false;
        }
        for m in lists.attackers(p) {
            // The rulebook paradox rules take precedence over the dislodge
            // rule (DATC 6.F.17): a protected support stands even then.
            if self.is_convoyed(m) && self.paradox_rule_protects(m, s) {
                continue;
            }
            if self.resolve(m) {
                return false;
            }
        }
        true
    }

    /// The province of the move that cut support `s`, for the report.
    pub(crate) fn cutter(&mut self, s: usize) -> Option<ProvinceId> {
        let p = self.slots[s].province;
        let lists = self.lists;
        for m in lists.attackers(p) {
            if self.res[m] || (self.can_cut(m, s) && self.path(m) && self.strong_enough_to_cut(m, s)) {
                return Some(self.slots[m].province);
            }
        }
        None
    }

    // ---- convoys ----

    fn adjudicate_convoy(&mut self, f: usize) -> bool {
        let p = self.slots[f].province;
        let lists = self.lists;
        // DATC 5.D: adjudicate (not resolve) the attacks, so that paradox
        // cycles stay single and clean.
        for m in lists.attackers(p) {
            let moves = if self.state[m] == RESOLVED {
                self.res[m]
            } else {
                self.adjudicate_move(m)
            };
            if moves {
                return false;
            }
        }
        true
    }

    /// Did this failed move keep others out (so that its target, if left
    /// empty, was the scene of a standoff)?
    pub(crate) fn prevents(&mut self, m: usize) -> bool {
        self.prevent_strength(m, None) > 0
    }

    /// For reports: did the move have a route?
    pub(crate) fn has_path(&mut self, m: usize) -> bool {
        self.path(m)
    }

    pub(crate) fn attack_of(&mut self, m: usize) -> u32 {
        self.attack_strength(m).1
    }
}
