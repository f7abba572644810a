//! Units and centres as MILA's `get_units`, `set_units`, `get_centers`
//! and `set_centers` see them.

use super::Game;
use dip_core::position::Entry;
use dip_core::{Dislodged, PhaseKind, Position, PositionErrors, PowerId, ProvinceId, RegionId, State, Unit};

impl Game {
    /// Units of a power in the order they were placed; dislodged ones with `*`.
    pub fn units(&self, power: PowerId) -> Vec<String> {
        let mut v: Vec<(u64, String)> = self
            .state
            .units()
            .filter(|(_, u)| u.power == power)
            .map(|(p, u)| (self.seq[p.index()], self.unit_key(&u)))
            .collect();
        v.sort();
        v.into_iter().map(|(_, s)| s).collect()
    }

    /// Dislodged units of a power with the places each may retreat to.
    pub fn retreats(&self, power: PowerId) -> Vec<(String, Vec<String>)> {
        self.state
            .all_dislodged()
            .filter(|(_, d)| d.unit.power == power)
            .map(|(_, d)| {
                let to = dip_core::retreat::retreat_options(self.map(), &self.state, &self.rules, &d)
                    .into_iter()
                    .map(|r| {
                        if self.map().unit_type(d.unit.kind).uses_coasts {
                            self.v.region_names[r.index()].clone()
                        } else {
                            self.v.prov_names[self.map().province_of(r).index()].clone()
                        }
                    })
                    .collect();
                (self.unit_key(&d.unit), to)
            })
            .collect()
    }

    pub(super) fn parse_unit(&self, power: PowerId, text: &str) -> Result<Unit, String> {
        dip_text::position::parse_unit_of(&self.v.vocab, Some(power), text)
    }

    /// The position edited by `edit` and built again as every position
    /// is (`State::from_position`): what the map cannot hold is reported
    /// in the words the position text uses and left out, and the rest
    /// built the same way (MILA reports and goes on).
    pub(super) fn edit_position(&mut self, edit: impl FnOnce(&mut Position)) {
        let map = self.map();
        let mut position = Position::of(&self.state);
        edit(&mut position);
        loop {
            match State::from_position(map, &position) {
                Ok(state) => {
                    self.state = state;
                    return;
                }
                Err(e) => {
                    self.errors.extend(e.0.iter().map(|f| f.message.clone()));
                    // Every fault names an entry, so each round leaves out
                    // one at least and the loop ends.
                    if without(&mut position, &e) == 0 {
                        return;
                    }
                }
            }
        }
    }

    /// MILA's `set_units`: units replace whatever stood there; `*A GAS`
    /// is a dislodged unit; units that cannot stand there are refused.
    pub fn set_units(&mut self, power: PowerId, units: &[String], reset: bool) {
        let map = self.map();
        if reset {
            for x in self.influence.iter_mut() {
                if x.is_some_and(|(p, _)| p == power) {
                    *x = None;
                }
            }
        }
        // (dislodged?, unit) in the order given.
        let mut read: Vec<(bool, Unit)> = Vec::new();
        for text in units {
            let t = text.trim();
            if t.is_empty() {
                continue;
            }
            let (dislodged, body) = match t.strip_prefix('*') {
                Some(rest) => (true, rest),
                None => (false, t),
            };
            match self.parse_unit(power, body) {
                Ok(u) => {
                    if !dislodged {
                        let p = map.province_of(u.region);
                        self.stamp(p);
                        self.influence[p.index()] = Some((power, self.seq[p.index()]));
                    }
                    read.push((dislodged, u));
                }
                Err(e) => self.errors.push(e),
            }
        }
        self.edit_position(|position| {
            if reset {
                position.units.retain(|u| u.power != power);
                position.dislodged.retain(|d| d.unit.power != power);
            }
            let at = |u: &Unit| map.province_of(u.region);
            for (dislodged, u) in read {
                let p = at(&u);
                if dislodged {
                    position.dislodged.retain(|d| at(&d.unit) != p);
                    position.dislodged.push(Dislodged {
                        unit: u,
                        attacker_from: p,
                        by_convoy: false,
                    });
                } else {
                    position.units.retain(|x| at(x) != p);
                    position.units.push(u);
                }
            }
        });
        if self.state.phase.kind == PhaseKind::Retreat {
            self.open_every_retreat();
        }
        self.touch();
    }

    /// MILA's `set_units` in a retreat phase lists, for every dislodged
    /// unit of every power, each unoccupied neighbour as a retreat: where
    /// attackers came from and standoffs are forgotten.
    pub(super) fn open_every_retreat(&mut self) {
        let map = self.map();
        self.state.standoffs.clear();
        let all: Vec<(ProvinceId, dip_core::Dislodged)> = self.state.all_dislodged().collect();
        for (p, mut d) in all {
            d.attacker_from = p;
            d.by_convoy = false;
            self.state.set_dislodged(map, d);
        }
    }

    /// Puts back MILA's lists of where each dislodged unit may retreat
    /// (`state['retreats']`: unit → locations), which dip keeps as where
    /// each attacker came from and which provinces a standoff left empty.
    /// A neighbour the board leaves open but the list closes is a standoff
    /// when no dislodged unit may go there, else the attacker's origin.
    /// Units not listed keep every open neighbour (as `set_units` left them).
    pub fn restore_retreats(&mut self, allowed: &[(String, Vec<String>)]) {
        let map = self.map();
        self.open_every_retreat();
        let provinces = |rs: Vec<RegionId>| -> Vec<ProvinceId> {
            let mut ps: Vec<ProvinceId> = rs.into_iter().map(|r| map.province_of(r)).collect();
            ps.dedup();
            ps
        };
        // Every dislodged unit: where it stands, what the board leaves open
        // to it, what the list allows (None: not listed).
        let mut units: Vec<(ProvinceId, Vec<ProvinceId>, Option<Vec<ProvinceId>>)> = Vec::new();
        for (p, d) in self.state.all_dislodged() {
            let open = provinces(dip_core::retreat::retreat_options(map, &self.state, &self.rules, &d));
            let name = self.unit_name(&d.unit);
            let listed = allowed
                .iter()
                .find(|(u, _)| u.trim().eq_ignore_ascii_case(name))
                .map(|(_, locs)| {
                    locs.iter()
                        .filter_map(|l| self.v.loc(&l.trim().to_ascii_uppercase()).map(|(q, _)| q))
                        .collect()
                });
            units.push((p, open, listed));
        }
        // Provinces some dislodged unit may go to: no standoff there.
        let open_to_some = |q: ProvinceId| {
            units
                .iter()
                .any(|(_, open, listed)| open.contains(&q) && listed.as_ref().is_none_or(|l| l.contains(&q)))
        };
        let mut standoffs: Vec<ProvinceId> = Vec::new();
        let mut origins: Vec<(ProvinceId, ProvinceId)> = Vec::new();
        for (p, open, listed) in &units {
            let Some(listed) = listed else { continue };
            let closed: Vec<ProvinceId> = open.iter().copied().filter(|q| !listed.contains(q)).collect();
            let origin = closed
                .iter()
                .copied()
                .find(|&q| open_to_some(q))
                .or_else(|| (closed.len() == 1).then(|| closed[0]));
            if let Some(o) = origin {
                origins.push((*p, o));
            }
            standoffs.extend(closed.into_iter().filter(|&q| Some(q) != origin));
        }
        self.edit_position(|position| {
            position.standoffs.extend(standoffs);
            for d in position.dislodged.iter_mut() {
                let at = map.province_of(d.unit.region);
                if let Some(&(_, from)) = origins.iter().find(|(p, _)| *p == at) {
                    d.attacker_from = from;
                }
            }
        });
        self.touch();
    }

    /// MILA's `power.influence`: the provinces where the power's units
    /// were last, in the order they came.
    pub fn influence(&self, power: PowerId) -> Vec<String> {
        let mut v: Vec<(u64, &String)> = self
            .influence
            .iter()
            .enumerate()
            .filter_map(|(i, x)| x.filter(|(p, _)| *p == power).map(|(_, k)| (k, &self.v.prov_names[i])))
            .collect();
        v.sort();
        v.into_iter().map(|(_, s)| s.clone()).collect()
    }

    /// Sets a power's influence (MILA's `state['influence']`).
    pub fn set_influence(&mut self, power: PowerId, provinces: &[String]) {
        for x in self.influence.iter_mut() {
            if x.is_some_and(|(p, _)| p == power) {
                *x = None;
            }
        }
        for name in provinces {
            if let Some(p) = self.map().find_province(name.split('/').next().unwrap_or(name)) {
                self.influence[p.index()] = Some((power, self.next_seq));
                self.next_seq += 1;
            }
        }
    }

    pub fn clear_units(&mut self, power: Option<PowerId>) {
        for x in self.influence.iter_mut() {
            if power.is_none_or(|q| x.is_some_and(|(p, _)| p == q)) {
                *x = None;
            }
        }
        let all: Vec<ProvinceId> = self
            .state
            .units()
            .filter(|(_, u)| power.is_none_or(|p| u.power == p))
            .map(|(p, _)| p)
            .collect();
        for p in all {
            self.state.remove(p);
        }
        let gone: Vec<ProvinceId> = self
            .state
            .all_dislodged()
            .filter(|(_, d)| power.is_none_or(|p| d.unit.power == p))
            .map(|(p, _)| p)
            .collect();
        for p in gone {
            self.state.take_dislodged(p);
        }
        self.touch();
    }

    pub fn centers(&self, power: PowerId) -> Vec<String> {
        let mut v: Vec<((u64, u32), String)> = self
            .state
            .centers_of(self.map(), power)
            .map(|p| {
                (
                    (self.seq_center(p), self.v.mila_rank[p.index()]),
                    self.v.prov_names[p.index()].clone(),
                )
            })
            .collect();
        v.sort();
        v.into_iter().map(|(_, s)| s).collect()
    }

    pub(super) fn seq_center(&self, p: ProvinceId) -> u64 {
        // Centres are listed in MILA's order of locations unless set one by one.
        self.center_seq.get(p.index()).copied().unwrap_or(0)
    }

    pub fn homes(&self, power: PowerId) -> Vec<String> {
        let mut homes: Vec<ProvinceId> = self
            .map()
            .supply_centers()
            .iter()
            .copied()
            .filter(|&p| self.map().is_home(p, power))
            .collect();
        homes.sort_by_key(|p| self.v.mila_rank[p.index()]);
        homes
            .into_iter()
            .map(|p| self.v.prov_names[p.index()].clone())
            .collect()
    }

    /// MILA's `set_centers`: names that are not supply centres are refused.
    pub fn set_centers(&mut self, power: PowerId, centers: &[String], reset: bool) {
        let map = self.map();
        let mut owned = Vec::new();
        for c in centers {
            let c = c.trim();
            match map.find_province(c) {
                Some(p) if map.province(p).supply_center => {
                    owned.push((power, p));
                    self.center_seq[p.index()] = self.next_seq;
                    self.next_seq += 1;
                }
                _ => self.errors.push(format!("`{c}` is not a supply centre")),
            }
        }
        self.edit_position(|position| {
            let owners = position.owners.get_or_insert_with(Vec::new);
            if reset {
                owners.retain(|&(w, _)| w != power);
            }
            // A later entry for a centre wins: the centre changes hands.
            owners.extend(owned);
        });
        self.touch();
    }

    pub fn clear_centers(&mut self, power: Option<PowerId>) {
        for &sc in self.map().supply_centers() {
            if power.is_none_or(|p| self.state.owner(sc) == Some(p)) {
                self.state.set_owner(sc, None);
            }
        }
        self.touch();
    }
}

/// `position` without the entries `refused` names; returns how many it
/// left out.
fn without(position: &mut Position, refused: &PositionErrors) -> usize {
    let before = position.units.len() + position.dislodged.len() + position.standoffs.len() + owners(position);
    let out = |list: usize| -> Vec<usize> {
        let mut at: Vec<usize> = refused
            .0
            .iter()
            .filter_map(|f| match (f.entry, list) {
                (Entry::Unit(i), 0) | (Entry::Dislodged(i), 1) | (Entry::Standoff(i), 2) | (Entry::Owner(i), 3) => {
                    Some(i)
                }
                _ => None,
            })
            .collect();
        at.sort_unstable();
        at.dedup();
        at
    };
    drop_at(&mut position.units, &out(0));
    drop_at(&mut position.dislodged, &out(1));
    drop_at(&mut position.standoffs, &out(2));
    if let Some(o) = position.owners.as_mut() {
        drop_at(o, &out(3));
    }
    before - (position.units.len() + position.dislodged.len() + position.standoffs.len() + owners(position))
}

fn owners(position: &Position) -> usize {
    position.owners.as_ref().map_or(0, Vec::len)
}

/// `list` without the places `at` (sorted, each once).
fn drop_at<T>(list: &mut Vec<T>, at: &[usize]) {
    let mut k = 0;
    list.retain(|_| {
        let keep = at.binary_search(&k).is_err();
        k += 1;
        keep
    });
}
