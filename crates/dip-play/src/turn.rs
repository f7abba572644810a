//! A DipWork turn: one orders text for a movement phase and the retreats
//! and adjustments that follow it. Which lines belong to which phase, and
//! which second orders of a unit are its retreat (two-phase turns).

use dip_core::{Order, OrderKind, PhaseKind, PowerId, ProvinceId, State, UnitRef};
use dip_text::{ReadLine, TurnReport};
use std::collections::{BTreeSet, HashMap, HashSet};

/// What a turn in progress remembers between its phases.
#[derive(Clone, Debug, Default)]
pub(crate) struct Turn {
    /// Every line of the turn, numbered.
    pub lines: Vec<ReadLine>,
    /// The kind of the phase the turn began with.
    pub first: Option<PhaseKind>,
    /// The checks of the turn's phases so far.
    pub checks: Vec<TurnReport>,
    /// Lines some phase of the turn read.
    pub used: HashSet<usize>,
    /// Lines of a two-phase turn read as retreats.
    pub retreat_lines: BTreeSet<usize>,
    /// Units dislodged by the turn's movement phase that may retreat.
    pub dislodged_after: Vec<ProvinceId>,
}

impl Turn {
    /// The lines of the turn for a phase of `kind` in `state`: by what
    /// each order is (a retreat, a build, a movement order), a line
    /// without an order in the turn's first phase.
    pub fn lines_for(&self, state: &State, kind: PhaseKind) -> Vec<ReadLine> {
        let first = self.first.unwrap_or(kind);
        // A turn that starts with retreats: every line for a dislodged unit
        // is its retreat, however written (`A Gal-War`, `A Gal disband`),
        // also one the scanner could not read (`A Gal-Xyz`, 115) or that
        // is no retreat (`A Gal H`): the retreat check says why it cannot
        // be used, and the winterer names it beside its suggestion.
        let retreat_turn = self.checks.is_empty() && kind == PhaseKind::Retreat;
        self.lines
            .iter()
            .filter(|l| {
                let k = l.scanned.order.as_ref();
                let ph = match k {
                    Some(k) if retreat_turn && unit_of(k).is_some_and(|u| state.dislodged(u.province).is_some()) => {
                        PhaseKind::Retreat
                    }
                    Some(_) if self.retreat_lines.contains(&l.line) => PhaseKind::Retreat,
                    Some(k) => phase_of(k, &|p| self.dislodged_after.contains(&p)),
                    None => first,
                };
                ph == kind || (kind == first && k.is_none())
            })
            .cloned()
            .collect()
    }

    /// Lines with an order that no phase of the turn read.
    pub fn unused(&self) -> Vec<&ReadLine> {
        self.lines
            .iter()
            .filter(|l| l.scanned.order.is_some() && !self.used.contains(&l.line))
            .collect()
    }
}

/// Which phase a line's order belongs to, after a movement phase.
fn phase_of(kind: &OrderKind, dislodged_after: &dyn Fn(ProvinceId) -> bool) -> PhaseKind {
    match kind {
        OrderKind::Retreat(..) => PhaseKind::Retreat,
        OrderKind::Build(_) | OrderKind::Waive => PhaseKind::Adjustment,
        OrderKind::Disband(u) if dislodged_after(u.province) => PhaseKind::Retreat,
        OrderKind::Disband(_) => PhaseKind::Adjustment,
        _ => PhaseKind::Movement,
    }
}

/// The unit an order kind is for.
pub(crate) fn unit_of(k: &OrderKind) -> Option<UnitRef> {
    Order::new(PowerId(0), *k).unit()
}

/// Lines of a movement phase that may be retreats written as moves: for a
/// unit with several orders, its moves when it has another order too, or
/// every move after the first when all are moves.
pub(crate) fn retreat_candidates(lines: &[ReadLine]) -> BTreeSet<usize> {
    let unit_lines: Vec<(usize, ProvinceId, bool)> = lines
        .iter()
        .filter_map(|l| {
            let k = l.scanned.order.as_ref()?;
            let u = unit_of(k)?;
            Some((l.line, u.province, matches!(k, OrderKind::Move(..))))
        })
        .collect();
    // Counted by province and by (province, line), so that each line is
    // judged in constant time (comparing every line with every other made
    // `dip run` quadratic in the length of ORDERS.TXT).
    let mut all: HashMap<ProvinceId, usize> = HashMap::new();
    let mut not_moves: HashMap<ProvinceId, usize> = HashMap::new();
    let mut all_on_line: HashMap<(ProvinceId, usize), usize> = HashMap::new();
    let mut not_moves_on_line: HashMap<(ProvinceId, usize), usize> = HashMap::new();
    for &(line, p, is_move) in &unit_lines {
        *all.entry(p).or_default() += 1;
        *all_on_line.entry((p, line)).or_default() += 1;
        if !is_move {
            *not_moves.entry(p).or_default() += 1;
            *not_moves_on_line.entry((p, line)).or_default() += 1;
        }
    }
    let mut moved_before: HashSet<ProvinceId> = HashSet::new();
    let mut out = BTreeSet::new();
    for &(line, p, is_move) in &unit_lines {
        if !is_move {
            continue;
        }
        let others = all[&p] - all_on_line[&(p, line)];
        let other_kind =
            not_moves.get(&p).copied().unwrap_or(0) > not_moves_on_line.get(&(p, line)).copied().unwrap_or(0);
        let earlier_move = !moved_before.insert(p);
        if other_kind || (earlier_move && others > 0) {
            out.insert(line);
        }
    }
    out
}
