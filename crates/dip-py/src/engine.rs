//! The game behind `dip.Game`, free of Python: MILA's names and order
//! strings at the edge, dip's engine inside. The bindings (`lib.rs`) only
//! convert values.

use dip_core::{Map, PowerId, ProvinceId, Ruleset, State};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

mod convoy_facts;
mod mila_conventions;
mod mila_lists;
mod movement_orders;
mod movement_reach;
mod names;
mod order_table;
mod orders;
mod phases;
mod possible;
mod process;
mod read;
mod results;
mod snapshot;
#[cfg(test)]
mod tests;
mod units;
mod variant;

pub use order_table::OrderTable;
pub use orders::Entry;
pub use possible::Possible;
pub use process::{process_many, PhaseRecord, Processed};
pub use read::read_mila;
pub use snapshot::Snapshot;
pub use variant::{add_search_path, variant, VariantData};

use convoy_facts::{chain, is_shore, reach, ConvoyFacts, ConvoyKey, ConvoyMemo, CONVOYS, CONVOYS_MAX};
use movement_orders::Scratch;
use order_table::{code, codes_fit};
use orders::{first_two, same, trimmed};

/// The hash maps of the engine's tables: keys are short texts and
/// numbers, for which SipHash would cost more than the lookup it serves.
pub type FastMap<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

pub use phases::{long_phase, parse_long_phase, parse_phase, short_phase};

use results::{movement_tags, Results};
pub use results::{Tags, BOUNCE, CUT, DISBAND, DISLODGED, DISRUPTED, NO_CONVOY, OK, VOID};

/// A unit, key or order text: borrowed from the variant (unit names) or
/// from its order table (listed orders), which live as long as the
/// process, so that the orders and results of a phase need no copies.
pub type Name = Cow<'static, str>;

/// A game: a position, the orders given so far, the phases played.
#[derive(Clone)]
pub struct Game {
    pub v: &'static VariantData,
    pub rules: Ruleset,
    pub no_check: bool,
    /// MILA's `expand` of the current `set_orders` call: when off, a
    /// support keeps the coast it names, which must then be the move's.
    pub expand: bool,
    pub state: State,
    /// Order of placement per province, so that `get_units` lists units
    /// in the order they were set.
    seq: Vec<u64>,
    /// The same for centres (set by `set_centers`; else alphabetical).
    center_seq: Vec<u64>,
    /// MILA's `power.influence`: by province, the power whose unit was
    /// there last (with the order it came in).
    influence: Vec<Option<(PowerId, u64)>>,
    next_seq: u64,
    /// `seq` as it was before the phase `process` numbers the units it
    /// placed (kept to be filled again).
    seq_before: Vec<u64>,
    orders: Vec<Vec<Entry>>,
    possible: Option<Arc<Possible>>,
    scratch: Scratch,
    /// Bumped on every change.
    pub generation: u64,
    /// Bumped when the position changes (legal orders with it); the
    /// bindings cache the legal orders against it.
    pub position_gen: u64,
    pub last: Processed,
    pub history: Vec<PhaseRecord>,
    /// `COMPLETED`: no more phases.
    pub done: bool,
    pub outcome: Vec<String>,
    /// Messages for orders and units refused (MILA's `game.error`).
    pub errors: Vec<String>,
    /// Set by the bindings: `set_orders` stops at the first order its
    /// readers cannot read, leaving it (and, in a retreat or adjustment
    /// phase, the whole call) unfiled, and says where in `unread_at`, so
    /// that the order can be read as MILA reads it.
    pub stop_unread: bool,
    pub unread_at: Option<usize>,
    /// `Results::at` of the last phase processed, for the next.
    results_at: Vec<u32>,
}

impl Game {
    pub fn new(v: &'static VariantData) -> Game {
        let n = v.map.num_provinces();
        let mut rules = v.rules;
        // Where the DATC leaves a choice (section 4), MILA's: a support
        // names no coast it must match (4.B.4).
        let _ = rules.set("support-coast", "lenient");
        // A move to a neighbour goes by convoy only when the order says so
        // (`via`, which `convoy_intent` sets as MILA decides).
        let _ = rules.set("convoy-adjacent", "dptg");
        // Civil disorder counts the distance to home centres (4.D.8).
        let _ = rules.set("civil-disorder", "1971");
        let mut g = Game {
            v,
            rules,
            no_check: false,
            expand: true,
            state: v.start.clone(),
            seq: vec![0; n],
            center_seq: vec![0; n],
            influence: vec![None; n],
            next_seq: 1,
            seq_before: Vec::new(),
            orders: vec![Vec::new(); v.powers.len()],
            possible: None,
            scratch: Scratch::default(),
            generation: 0,
            position_gen: 0,
            last: Processed::default(),
            history: Vec::new(),
            done: false,
            outcome: Vec::new(),
            errors: Vec::new(),
            stop_unread: false,
            unread_at: None,
            results_at: Vec::new(),
        };
        // MILA's `power.units` start in the order of the map file.
        let mut provs: Vec<ProvinceId> = g.state.units().map(|(p, _)| p).collect();
        provs.sort_by_key(|p| v.start_order.iter().position(|q| q == p).unwrap_or(usize::MAX));
        for p in provs {
            g.stamp(p);
            g.influence[p.index()] = g.state.unit(p).map(|u| (u.power, g.seq[p.index()]));
        }
        g
    }

    fn stamp(&mut self, p: ProvinceId) {
        self.seq[p.index()] = self.next_seq;
        self.next_seq += 1;
    }

    pub fn map(&self) -> &'static Map {
        self.v.map
    }

    /// Something changed: legal orders must be computed again.
    pub fn touch(&mut self) {
        self.possible = None;
        self.generation += 1;
        self.position_gen += 1;
    }

    pub fn power(&self, name: &str) -> Result<PowerId, String> {
        // As MILA writes it (no copy to make).
        if let Some(i) = self.v.powers.iter().position(|p| same(p, name)) {
            return Ok(PowerId(i as u8));
        }
        let up = name.trim().to_ascii_uppercase();
        self.v
            .powers
            .iter()
            .position(|p| *p == up)
            .map(|i| PowerId(i as u8))
            .or_else(|| self.map().find_power(name.trim()))
            .ok_or_else(|| format!("unknown power `{name}`; this map has {}", self.v.powers.join(", ")))
    }

    pub fn phase_name(&self) -> String {
        if self.done {
            "COMPLETED".into()
        } else {
            short_phase(&self.state.phase)
        }
    }

    pub fn set_phase(&mut self, name: &str) -> Result<(), String> {
        if name.trim().eq_ignore_ascii_case("COMPLETED") {
            self.done = true;
            self.touch();
            return Ok(());
        }
        let p = parse_phase(name.trim())
            .or_else(|| parse_long_phase(name.trim()))
            .ok_or_else(|| format!("unknown phase `{name}` (expected e.g. S1901M or SPRING 1901 MOVEMENT)"))?;
        self.state.phase = p;
        self.done = false;
        self.touch();
        Ok(())
    }
}
