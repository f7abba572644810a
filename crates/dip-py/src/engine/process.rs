//! `process()`: adjudicates the phase with dip's engine, records it in
//! the history with MILA's result words, and moves on; the end of the game
//! as MILA decides it.

use super::{
    first_two, movement_tags, same, short_phase, Entry, Game, Name, Results, Snapshot, Tags, BOUNCE, DISBAND,
    DISLODGED, DISRUPTED, OK, VOID,
};
use dip_core::{Order, OrderKind, Phase, PhaseKind, PhaseOutcome, PowerId, Season, State, Verdict};

/// The orders of a phase as read for adjudication.
struct ReadOrders {
    /// The orders adjudicated.
    orders: Vec<Order>,
    /// Per order adjudicated: its key and text.
    keys: Vec<(Name, Name)>,
    results: Results,
    /// The units that had an order, power by power.
    ordered_units: Vec<(PowerId, Name)>,
}

/// What the last `process` did.
#[derive(Clone, Debug, Default)]
pub struct Processed {
    /// Units destroyed: dislodged without a retreat, or disbanded.
    pub popped: Vec<String>,
    /// The orders adjudicated: unit, order.
    pub given: Vec<(Name, Name)>,
    /// The units that had an order, power by power.
    pub ordered_units: Vec<(PowerId, Name)>,
    /// Dislodged unit → where its attacker came from.
    pub dislodged: Vec<(String, String)>,
}

/// One phase played.
#[derive(Clone, Debug)]
pub struct PhaseRecord {
    pub name: String,
    /// The position processed, with its placement stamps and influence.
    pub position: Snapshot,
    /// The orders kept, power by power.
    pub orders: Vec<(PowerId, Name)>,
    pub results: Vec<(Name, Tags)>,
}

impl PhaseRecord {
    /// The orders power `p` had kept.
    pub fn orders_of(&self, p: PowerId) -> impl Iterator<Item = &Name> + '_ {
        self.orders.iter().filter(move |(q, _)| *q == p).map(|(_, o)| o)
    }
}

impl Game {
    /// Adjudicates the phase, records it and moves to the next one.
    pub fn process(&mut self) {
        if self.done {
            return;
        }
        let map = self.map();
        let kind = self.state.phase.kind;
        let processed = self.state.phase;
        let name = short_phase(&processed);
        if self.state.phase.season == Season::Fall
            && kind != PhaseKind::Adjustment
            && map.supply_centers().iter().all(|&sc| self.state.owner(sc).is_none())
        {
            // MILA: when no power owns a centre, each gets its home centres
            // before the centres are captured.
            self.state.own_home_centers(map);
        }
        // The history keeps the position before the phase, with its order
        // of placement and influence.
        let position = Snapshot::of(&self.state, &self.seq, &self.influence);
        let given: usize = self.orders.iter().map(|l| l.len()).sum();
        let mut read = ReadOrders {
            orders: Vec::with_capacity(given),
            keys: Vec::with_capacity(given),
            results: Results::new(std::mem::take(&mut self.results_at), map.num_provinces()),
            ordered_units: Vec::with_capacity(given),
        };
        self.list_units(kind, &position, &mut read.results);
        self.read_orders(kind, &mut read);
        let ReadOrders {
            mut orders,
            mut keys,
            mut results,
            ordered_units,
        } = read;
        if kind == PhaseKind::Movement {
            self.convoy_intent(&mut orders);
            self.void_supports_missing_coast(&mut orders, &mut keys, &mut results);
        }
        // dip-play's one pipeline: adjudicated, moved on, the winner.
        let dip_play::Settled { outcome, next, winner } = dip_play::settle(map, &self.rules, &self.state, &orders, &[]);
        let mut tags = verdict_tags(kind, &outcome);
        if let PhaseOutcome::Movement(m) = &outcome {
            self.mila_labels(&orders, m, &mut tags);
        }
        for (((key, _), tag), o) in keys.iter().zip(tags).zip(&orders) {
            results.add(o.unit().map(|u| u.province), key.clone(), tag);
        }
        let mut popped = Vec::new();
        let mut dislodged = Vec::new();
        self.record_removed(&outcome, &mut results, &mut popped, &mut dislodged);
        let mut old = std::mem::take(&mut self.seq_before);
        old.clear();
        old.extend_from_slice(&self.seq);
        self.number_placed(&outcome, &old);
        self.seq_before = old;
        self.number_taken_centres(&next);
        self.state = next;
        // Sized at once: a flat_map's collect grows it step by step.
        let mut kept: Vec<(PowerId, Name)> = Vec::with_capacity(self.orders.iter().map(Vec::len).sum());
        for (p, l) in self.orders.iter_mut().enumerate() {
            kept.extend(l.drain(..).filter(Entry::shown).map(|e| (PowerId(p as u8), e.text)));
        }
        self.history.push(PhaseRecord {
            name,
            position,
            orders: kept,
            results: std::mem::take(&mut results.list),
        });
        self.results_at = results.at;
        self.last = Processed {
            popped,
            given: keys,
            ordered_units,
            dislodged,
        };
        self.touch();
        self.check_end(processed, winner);
    }

    /// The units that may be ordered this phase, each listed with no result
    /// yet: the units in a movement, the dislodged ones in a retreat (read
    /// from the position's snapshot, which holds only them).
    fn list_units(&self, kind: PhaseKind, position: &Snapshot, results: &mut Results) {
        match kind {
            PhaseKind::Movement => {
                for (p, u) in position.units() {
                    results.add_unit(p, Name::Borrowed(self.unit_name(&u)));
                }
            }
            PhaseKind::Retreat => {
                for (p, d) in position.dislodged() {
                    results.add_unit(p, Name::Borrowed(self.unit_name(&d.unit)));
                }
            }
            PhaseKind::Adjustment => {}
        }
    }

    /// Sorts the orders given into those adjudicated (with their keys) and
    /// those void, power by power.
    fn read_orders(&self, kind: PhaseKind, read: &mut ReadOrders) {
        // MILA carries out builds and disbands while they are due, in the order given.
        let carried = if kind == PhaseKind::Adjustment {
            self.adjustments_carried_out()
        } else {
            Vec::new()
        };
        let ReadOrders {
            orders,
            keys,
            results,
            ordered_units,
        } = read;
        for (pi, list) in self.orders.iter().enumerate() {
            let mine = ordered_units.len();
            // A bit per key listed (`key_bit`): a key whose bit is unset is
            // not listed yet, without comparing it to the others.
            let mut listed = 0u64;
            // Refused orders first, then the others, each in the order given
            // (the entries read in place: an order is copied only to keep it).
            for refused_pass in [true, false] {
                for (k, e) in list.iter().enumerate() {
                    if (e.void || e.order.is_none()) != refused_pass {
                        continue;
                    }
                    let order = e.order.as_ref();
                    if let (PhaseKind::Movement, Some(o), false) = (kind, order, e.void) {
                        match self.not_its_unit(o) {
                            // MILA (NO_CHECK): an order to another power's
                            // unit is set aside, the unit's own stands.
                            Some(true) => continue,
                            // An order naming a coast the unit is not on is
                            // read for the unit's coast (MILA corrects it); if
                            // it cannot be carried out, it is void under the
                            // unit as written.
                            Some(false) if self.problem(o).is_some() => {
                                results.add(None, Name::Owned(first_two(&e.text)), Some(VOID));
                                continue;
                            }
                            _ => {}
                        }
                    }
                    let rkey: Name = match (kind, order.map(|o| &o.kind)) {
                        _ if e.void => Name::Owned(first_two(&e.text)),
                        (PhaseKind::Adjustment, Some(OrderKind::Build(_))) | (_, None) => {
                            Name::Owned(first_two(&e.text))
                        }
                        (PhaseKind::Adjustment, Some(OrderKind::Waive)) => Name::Borrowed("WAIVE"),
                        _ => e.key.clone(),
                    };
                    let bit = key_bit(&rkey);
                    if listed & bit == 0 || !ordered_units[mine..].iter().any(|(_, k)| same(k, &rkey)) {
                        listed |= bit;
                        ordered_units.push((PowerId(pi as u8), rkey.clone()));
                    }
                    let at = order.and_then(|o| o.unit()).map(|u| u.province);
                    let carried_out = carried.get(pi).and_then(|c| c.get(k)).copied();
                    match order {
                        Some(_) if carried_out == Some(false) && !e.void => {
                            results.add(at, rkey.clone(), None);
                            results.add(at, rkey, Some(VOID));
                        }
                        Some(o) if !e.void => {
                            orders.push(*o);
                            keys.push((rkey, e.text.clone()));
                        }
                        _ => results.add(at, rkey, Some(VOID)),
                    }
                }
            }
        }
    }

    /// A support that kept its coast (`expand=False`) and names another
    /// coast than the move it supports is void.
    fn void_supports_missing_coast(
        &self,
        orders: &mut Vec<Order>,
        keys: &mut Vec<(Name, Name)>,
        results: &mut Results,
    ) {
        let mut k = 0;
        while k < orders.len() {
            if self.support_misses_coast(&orders[k], orders) {
                let (key, _) = keys.remove(k);
                let at = orders.remove(k).unit().map(|u| u.province);
                results.add(at, key, Some(VOID));
            } else {
                k += 1;
            }
        }
    }

    /// The units dislodged and the units destroyed, in the results and in
    /// `popped` and `dislodged`.
    fn record_removed(
        &self,
        outcome: &PhaseOutcome,
        results: &mut Results,
        popped: &mut Vec<String>,
        dislodged: &mut Vec<(String, String)>,
    ) {
        let map = self.map();
        match outcome {
            PhaseOutcome::Movement(m) => {
                for d in &m.dislodged {
                    let key = self.unit_name(&d.unit);
                    let p = map.province_of(d.unit.region);
                    if let Some(i) = results.find(Some(p), key) {
                        results.list[i].1.remove(DISRUPTED);
                    }
                    results.add(Some(p), Name::Borrowed(key), Some(DISLODGED));
                    dislodged.push((key.to_string(), self.v.prov_names[d.attacker_from.index()].clone()));
                }
                for &p in &m.disbanded {
                    if let Some(k) = self.unit_key_at(p) {
                        popped.push(k.into_owned());
                    }
                }
            }
            PhaseOutcome::Retreat(r) => {
                for &p in &r.disbanded {
                    if let Some(k) = self.dislodged_key_at(p) {
                        popped.push(k.to_string());
                        results.add(Some(p), k, Some(DISBAND));
                    }
                }
            }
            PhaseOutcome::Adjustment(_) => {}
        }
    }

    /// Numbers the units placed by the phase. The order of each power's
    /// units is MILA's `power.units`: a unit that moved goes to the end, in
    /// the list's order (`old`, the numbers before the phase); retreats and
    /// builds go to the end in the order given.
    fn number_placed(&mut self, outcome: &PhaseOutcome, old: &[u64]) {
        let map = self.map();
        let given_rank = |orders: &[Vec<Entry>], p: dip_core::ProvinceId| {
            orders
                .iter()
                .flat_map(|l| l.iter().enumerate())
                .find(|(_, e)| e.order.and_then(|o| o.unit()).is_some_and(|u| u.province == p))
                .map_or(usize::MAX, |(k, _)| k)
        };
        // With the power of each unit that moved or retreated: MILA's
        // influence goes with it.
        let mover = |p: dip_core::ProvinceId| self.state.unit(p).map(|u| u.power);
        let retreater = |p: dip_core::ProvinceId| self.state.dislodged(p).map(|d| d.unit.power);
        let mut placed: Vec<((usize, u64), usize, Option<PowerId>)> = match outcome {
            PhaseOutcome::Movement(m) => m
                .moves
                .iter()
                .map(|&(from, to)| ((0, old[from.index()]), map.province_of(to).index(), mover(from)))
                .collect(),
            PhaseOutcome::Retreat(r) => r
                .retreats
                .iter()
                .map(|&(from, to)| {
                    let rank = given_rank(&self.orders, from);
                    ((rank, 0), map.province_of(to).index(), retreater(from))
                })
                .collect(),
            PhaseOutcome::Adjustment(a) => a
                .built
                .iter()
                .map(|u| {
                    let p = map.province_of(u.region);
                    ((given_rank(&self.orders, p), 0), p.index(), None)
                })
                .collect(),
        };
        placed.sort_unstable();
        for (_, at, power) in placed {
            self.seq[at] = self.next_seq;
            if let Some(power) = power {
                self.influence[at] = Some((power, self.next_seq));
            }
            self.next_seq += 1;
        }
    }

    /// Numbers the centres that change owner between this position and
    /// `next`. MILA takes centres power by power, each power's in the order
    /// of its list, then the unowned ones in the map's order; a centre
    /// taken goes to the end of its new owner's list. Only the few centres
    /// taken are put in that order (by the place each has in it).
    fn number_taken_centres(&mut self, next: &State) {
        let map = self.map();
        let powers = self.v.powers.len();
        let home_of = |p: dip_core::ProvinceId| {
            (0..powers)
                .position(|pi| map.is_home(p, PowerId(pi as u8)))
                .unwrap_or(usize::MAX)
        };
        // (owned first, by power, then the place in the owner's list; the
        // unowned after them, by home power, then the map's order)
        let mut taken: Vec<((u8, usize, u64, u32), dip_core::ProvinceId)> = map
            .supply_centers()
            .iter()
            .filter(|&&sc| next.owner(sc) != self.state.owner(sc))
            .map(|&sc| {
                let rank = self.v.mila_rank[sc.index()];
                let key = match self.state.owner(sc) {
                    Some(o) => (0, o.index(), self.seq_center(sc), rank),
                    None => (1, home_of(sc), 0, rank),
                };
                (key, sc)
            })
            .collect();
        taken.sort_unstable();
        for (_, sc) in taken {
            self.center_seq[sc.index()] = self.next_seq;
            self.next_seq += 1;
        }
    }

    /// MILA decides the end on entering the winter after a Fall (whether
    /// or not there is anything to adjust): a power with the victory's
    /// centres wins; else the winter of the game's 100th year (counted from
    /// the variant's first year) is a draw.
    /// `winner`: the winner in the position reached, as dip-play found it.
    pub(super) fn check_end(&mut self, processed: Phase, winner: Option<PowerId>) {
        let now = self.state.phase;
        let winter_reached = processed.season == Season::Fall
            && processed.kind != PhaseKind::Adjustment
            && (now.kind == PhaseKind::Adjustment || now.year > processed.year);
        if !winter_reached {
            return;
        }
        let winter = Phase::new(processed.year, Season::Fall, PhaseKind::Adjustment);
        if let Some(w) = winner {
            self.done = true;
            self.outcome = vec![short_phase(&winter), self.v.powers[w.index()].clone()];
        } else if i64::from(processed.year) - i64::from(self.first_year()) + 1 == 100 {
            // MILA draws in that winter, which it records in the history.
            self.state.phase = winter;
            self.draw(None);
        }
    }

    /// The year the variant starts in (MILA's `map.first_year`).
    pub fn first_year(&self) -> i32 {
        self.v.start.phase.year
    }

    /// MILA's `draw`: the current phase goes to the history without orders
    /// or results, and the game ends; the winners are the powers named, or
    /// else every power with units, in alphabetical order.
    pub fn draw(&mut self, winners: Option<&[PowerId]>) {
        if self.done {
            return;
        }
        let name = self.phase_name();
        let mut names: Vec<String> = match winners {
            Some(w) => w.iter().map(|p| self.v.powers[p.index()].clone()).collect(),
            None => self
                .map()
                .power_ids()
                .filter(|&p| self.state.units().any(|(_, u)| u.power == p))
                .map(|p| self.v.powers[p.index()].clone())
                .collect(),
        };
        if winners.is_none() {
            names.sort();
        }
        for l in &mut self.orders {
            l.clear();
        }
        self.history.push(PhaseRecord {
            name: name.clone(),
            position: Snapshot::of(&self.state, &self.seq, &self.influence),
            orders: Vec::new(),
            results: Vec::new(),
        });
        self.outcome = std::iter::once(name).chain(names).collect();
        self.done = true;
        self.touch();
    }

    /// A hash of the position (units, dislodged units, centres, phase).
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        eat(self.state.phase.year as u64);
        eat(self.state.phase.season as u64);
        eat(self.state.phase.kind as u64);
        for (p, u) in self.state.units() {
            eat(((p.index() as u64) << 32) | ((u.power.index() as u64) << 16) | u.region.index() as u64);
        }
        for (p, d) in self.state.all_dislodged() {
            eat((1 << 48)
                | ((p.index() as u64) << 32)
                | ((d.unit.power.index() as u64) << 16)
                | d.unit.region.index() as u64);
        }
        for &sc in self.map().supply_centers() {
            if let Some(o) = self.state.owner(sc) {
                eat((2 << 48) | ((sc.index() as u64) << 16) | o.index() as u64);
            }
        }
        h
    }

    /// Results of the last phase processed: unit → MILA's words.
    pub fn last_results(&self) -> &[(Name, Tags)] {
        self.history.last().map_or(&[], |r| &r.results)
    }

    /// MILA's `command` of the last movement phase: each unit's order
    /// without the unit (`- BUR`, `S A PAR - BUR`), `H` when it had none.
    pub fn last_command(&self) -> Vec<(String, String)> {
        let Some(r) = self.history.last() else {
            return Vec::new();
        };
        if r.position.phase.kind != PhaseKind::Movement {
            return Vec::new();
        }
        r.position
            .units()
            .map(|(_, u)| {
                let key = self.unit_key(&u);
                let text = self
                    .last
                    .given
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, t)| t.strip_prefix(key.as_str()).unwrap_or(t).trim().to_string())
                    .unwrap_or_else(|| "H".into());
                (key, text)
            })
            .collect()
    }

    /// Puts back a position recorded in the history (for `set_state`).
    pub fn restore(&mut self, state: State, seq: Vec<u64>, influence: Vec<Option<(PowerId, u64)>>) {
        self.state = state;
        self.seq = seq;
        self.influence = influence;
        self.touch();
    }

    pub fn seq(&self) -> &[u64] {
        &self.seq
    }

    pub fn influence_stamps(&self) -> &[Option<(PowerId, u64)>] {
        &self.influence
    }
}

/// Processes many games at once on all cores (one thread per core).
pub fn process_many(games: &mut [&mut Game]) {
    if games.len() < 32 {
        // A thread costs more than a few phases (and, on a busy machine,
        // waiting for a core to run it costs more still).
        games.iter_mut().for_each(|g| g.process());
        return;
    }
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(games.len().max(1));
    let per = games.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        for chunk in games.chunks_mut(per) {
            s.spawn(move || {
                for g in chunk.iter_mut() {
                    g.process();
                }
            });
        }
    });
}

/// A bit for `key`, by its last two letters (where units' names differ
/// most): equal keys have the same bit.
fn key_bit(key: &str) -> u64 {
    let b = key.as_bytes();
    let last = |i: usize| b.len().checked_sub(i).map_or(0, |at| u32::from(b[at]));
    1 << ((last(1) * 31 + last(2)) % 64)
}

/// MILA's result word for each order adjudicated, by its verdict.
fn verdict_tags(kind: PhaseKind, outcome: &PhaseOutcome) -> Vec<Option<&'static str>> {
    outcome
        .orders()
        .iter()
        .map(|report| match kind {
            PhaseKind::Movement => movement_tags(&report.verdict),
            PhaseKind::Retreat => match report.verdict {
                Verdict::Illegal(_) | Verdict::Duplicate => Some(VOID),
                Verdict::Done {
                    success: false,
                    reason: dip_core::Reason::RetreatClash,
                } => Some(BOUNCE),
                _ => None,
            },
            PhaseKind::Adjustment => match report.verdict {
                Verdict::Done { success: true, .. } => Some(OK),
                _ => Some(VOID),
            },
        })
        .collect()
}
