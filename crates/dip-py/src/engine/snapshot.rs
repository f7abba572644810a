//! A position kept in the history, as small as it can be kept: a game of
//! 200 phases keeps 200 of them, and the whole board of each (a slot per
//! province for units, dislodged units, owners, placement stamps and
//! MILA's influence) was most of the memory a phase added, fresh memory the
//! agent loop paid for in page faults. Only what is there is kept (but for
//! influence, which is nearly everywhere); the board is rebuilt when the
//! history is read (`get_phase_history`).

use dip_core::{Dislodged, Map, Phase, PowerId, ProvinceId, State, Unit};

#[derive(Clone, Debug)]
pub struct Snapshot {
    pub phase: Phase,
    /// Each unit with its placement stamp (which orders `get_units`).
    units: Box<[(ProvinceId, Unit, u64)]>,
    dislodged: Box<[(ProvinceId, Dislodged)]>,
    owners: Box<[(ProvinceId, PowerId)]>,
    standoffs: Box<[ProvinceId]>,
    /// MILA's influence: by province, the power whose unit was there last
    /// (with its stamp). After the first moves nearly every province has
    /// one, so the board's own slice is kept, copied at once.
    influence: Box<[Option<(PowerId, u64)>]>,
}

/// The parts of a snapshot as they are gathered.
#[derive(Default)]
struct Parts {
    units: Vec<(ProvinceId, Unit, u64)>,
    dislodged: Vec<(ProvinceId, Dislodged)>,
    owners: Vec<(ProvinceId, PowerId)>,
}

impl Snapshot {
    /// What `state`, the placement stamps `seq` and `influence` (both by
    /// province) hold.
    pub fn of(state: &State, seq: &[u64], influence: &[Option<(PowerId, u64)>]) -> Snapshot {
        // One pass over the board into buffers kept by the thread, then
        // each part copied at its size: the history keeps no spare room.
        thread_local! {
            static PARTS: std::cell::RefCell<Parts> = std::cell::RefCell::default();
        }
        PARTS.with_borrow_mut(|b| {
            b.units.clear();
            b.dislodged.clear();
            b.owners.clear();
            for i in 0..state.num_provinces() {
                let p = ProvinceId(i as u16);
                if let Some(u) = state.unit(p) {
                    b.units.push((p, u, seq.get(i).copied().unwrap_or(0)));
                }
                if let Some(d) = state.dislodged(p) {
                    b.dislodged.push((p, d));
                }
                if let Some(o) = state.owner(p) {
                    b.owners.push((p, o));
                }
            }
            Snapshot {
                phase: state.phase,
                units: b.units.as_slice().into(),
                dislodged: b.dislodged.as_slice().into(),
                owners: b.owners.as_slice().into(),
                standoffs: state.standoffs.iter().map(|i| ProvinceId(i as u16)).collect(),
                influence: influence[..influence.len().min(state.num_provinces())].into(),
            }
        })
    }

    /// The units, province by province.
    pub fn units(&self) -> impl Iterator<Item = (ProvinceId, Unit)> + '_ {
        self.units.iter().map(|&(p, u, _)| (p, u))
    }

    /// The dislodged units, province by province.
    pub fn dislodged(&self) -> impl Iterator<Item = (ProvinceId, Dislodged)> + '_ {
        self.dislodged.iter().copied()
    }

    /// The position, its placement stamps and influence by province, as
    /// they were (stamps of provinces without a unit, which nothing reads,
    /// are 0).
    #[allow(clippy::type_complexity)]
    pub fn board(&self, map: &Map) -> (State, Vec<u64>, Vec<Option<(PowerId, u64)>>) {
        let n = map.num_provinces();
        let mut state = State::empty(map, self.phase);
        let mut seq = vec![0; n];
        for &(p, u, k) in self.units.iter() {
            state.place(map, u);
            seq[p.index()] = k;
        }
        for &(_, d) in self.dislodged.iter() {
            state.set_dislodged(map, d);
        }
        for &(p, o) in self.owners.iter() {
            state.set_owner(p, Some(o));
        }
        for &p in self.standoffs.iter() {
            state.standoffs.insert(p.index());
        }
        let mut influence = self.influence.to_vec();
        influence.resize(n, None);
        (state, seq, influence)
    }
}
