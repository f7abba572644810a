//! One call per phase: adjudicate whatever phase the state is in, then
//! advance to the next phase (seasons and years tracked here).

use crate::adjustment::{self, AdjustmentOutcome};
use crate::ids::PowerId;
use crate::map::Map;
use crate::movement::{self, MovementOutcome};
use crate::order::Order;
use crate::outcome::OrderReport;
use crate::retreat::{self, RetreatOutcome};
use crate::rules::Ruleset;
use crate::state::{Phase, PhaseKind, Season, State};

/// The outcome of any phase.
#[derive(Clone, Debug)]
pub enum PhaseOutcome {
    Movement(MovementOutcome),
    Retreat(RetreatOutcome),
    Adjustment(AdjustmentOutcome),
}

impl PhaseOutcome {
    pub fn orders(&self) -> &[OrderReport] {
        match self {
            PhaseOutcome::Movement(m) => &m.orders,
            PhaseOutcome::Retreat(r) => &r.orders,
            PhaseOutcome::Adjustment(a) => &a.orders,
        }
    }
}

/// Adjudicates the phase `state` is in.
pub fn adjudicate(map: &Map, state: &State, orders: &[Order], rules: &Ruleset) -> PhaseOutcome {
    match state.phase.kind {
        PhaseKind::Movement => PhaseOutcome::Movement(movement::adjudicate(map, state, orders, rules)),
        PhaseKind::Retreat => PhaseOutcome::Retreat(retreat::adjudicate(map, state, orders, rules)),
        PhaseKind::Adjustment => PhaseOutcome::Adjustment(adjustment::adjudicate(map, state, orders, rules)),
    }
}

/// As [`adjudicate`], with the convoy paths written in the orders
/// (`paths[k]` for order `k`; see [`movement::adjudicate_with_paths`]).
pub fn adjudicate_with_paths(
    map: &Map,
    state: &State,
    orders: &[Order],
    paths: &[Vec<crate::ProvinceId>],
    rules: &Ruleset,
) -> PhaseOutcome {
    match state.phase.kind {
        PhaseKind::Movement => {
            PhaseOutcome::Movement(movement::adjudicate_with_paths(map, state, orders, paths, rules))
        }
        _ => adjudicate(map, state, orders, rules),
    }
}

/// The next position: the outcome applied, centres updated after Fall, and
/// the phase moved on (phases with nothing to do are skipped).
pub fn advance(map: &Map, state: &State, outcome: &PhaseOutcome) -> State {
    let mut next = match outcome {
        PhaseOutcome::Movement(m) => movement::apply(map, state, m),
        PhaseOutcome::Retreat(r) => retreat::apply(map, state, r),
        PhaseOutcome::Adjustment(a) => adjustment::apply(map, state, a),
    };
    let Phase { year, season, kind } = state.phase;
    next.phase = match (season, kind) {
        (_, PhaseKind::Movement) if next.all_dislodged().next().is_some() => {
            Phase::new(year, season, PhaseKind::Retreat)
        }
        (Season::Spring, _) if kind != PhaseKind::Adjustment => Phase::new(year, Season::Fall, PhaseKind::Movement),
        (Season::Fall, PhaseKind::Movement | PhaseKind::Retreat) => {
            adjustment::update_ownership(map, &mut next);
            if adjustment::needs_adjustment(map, &next) {
                Phase::new(year, Season::Fall, PhaseKind::Adjustment)
            } else {
                Phase::new(year.saturating_add(1), Season::Spring, PhaseKind::Movement)
            }
        }
        _ => Phase::new(year.saturating_add(1), Season::Spring, PhaseKind::Movement),
    };
    next
}

/// The power that has won, if any (the first by id with the victory's
/// centres). Every phase played asks, so the centres are counted in one
/// pass rather than once per power.
pub fn winner(map: &Map, state: &State) -> Option<PowerId> {
    let need = map.victory_centers();
    // A power id is a `u8`: every power has its place.
    let mut count = [0usize; 256];
    for &sc in map.supply_centers() {
        if let Some(o) = state.owner(sc) {
            count[o.index()] += 1;
        }
    }
    map.power_ids().find(|p| count[p.index()] >= need)
}
