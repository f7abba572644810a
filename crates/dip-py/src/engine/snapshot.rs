//! A position kept in the history, as small as it can be kept: a game of
//! 200 phases keeps 200 of them, and the whole board of each (a slot per
//! province for units, dislodged units, owners, placement stamps and
//! MILA's influence) was most of the memory a phase added, fresh memory the
//! agent loop paid for in page faults. Only what is there is kept; the board
//! is rebuilt when the history is read (`get_phase_history`).

use dip_core::{Dislodged, Map, Phase, PowerId, ProvinceId, State, Unit};

#[derive(Clone, Debug)]
pub struct Snapshot {
    pub phase: Phase,
    /// Each unit with its placement stamp (which orders `get_units`).
    units: Vec<(ProvinceId, Unit, u64)>,
    dislodged: Vec<(ProvinceId, Dislodged)>,
    owners: Vec<(ProvinceId, PowerId)>,
    standoffs: Vec<ProvinceId>,
    /// MILA's influence: by province, the power whose unit was there last.
    influence: Vec<(ProvinceId, PowerId, u64)>,
}

impl Snapshot {
    /// What `state`, the placement stamps `seq` and `influence` (both by
    /// province) hold.
    pub fn of(state: &State, seq: &[u64], influence: &[Option<(PowerId, u64)>]) -> Snapshot {
        let stamp = |p: ProvinceId| seq.get(p.index()).copied().unwrap_or(0);
        let n = state.num_provinces();
        let mut units = Vec::with_capacity(state.units().count());
        units.extend(state.units().map(|(p, u)| (p, u, stamp(p))));
        let owners_n = (0..n).filter(|&i| state.owner(ProvinceId(i as u16)).is_some()).count();
        let mut owners = Vec::with_capacity(owners_n);
        owners.extend((0..n).filter_map(|i| {
            let p = ProvinceId(i as u16);
            state.owner(p).map(|o| (p, o))
        }));
        let mut kept = Vec::with_capacity(influence.iter().flatten().count());
        kept.extend(
            influence
                .iter()
                .enumerate()
                .filter_map(|(i, x)| x.map(|(power, k)| (ProvinceId(i as u16), power, k))),
        );
        Snapshot {
            phase: state.phase,
            units,
            dislodged: state.all_dislodged().collect(),
            owners,
            standoffs: state.standoffs.iter().map(|i| ProvinceId(i as u16)).collect(),
            influence: kept,
        }
    }

    /// The units, province by province.
    pub fn units(&self) -> impl Iterator<Item = (ProvinceId, Unit)> + '_ {
        self.units.iter().map(|&(p, u, _)| (p, u))
    }

    /// The position, its placement stamps and influence by province, as
    /// they were (stamps of provinces without a unit, which nothing reads,
    /// are 0).
    #[allow(clippy::type_complexity)]
    pub fn board(&self, map: &Map) -> (State, Vec<u64>, Vec<Option<(PowerId, u64)>>) {
        let n = map.num_provinces();
        let mut state = State::empty(map, self.phase);
        let mut seq = vec![0; n];
        for &(p, u, k) in &self.units {
            state.place(map, u);
            seq[p.index()] = k;
        }
        for &(_, d) in &self.dislodged {
            state.set_dislodged(map, d);
        }
        for &(p, o) in &self.owners {
            state.set_owner(p, Some(o));
        }
        for &p in &self.standoffs {
            state.standoffs.insert(p.index());
        }
        let mut influence = vec![None; n];
        for &(p, power, k) in &self.influence {
            influence[p.index()] = Some((power, k));
        }
        (state, seq, influence)
    }
}
