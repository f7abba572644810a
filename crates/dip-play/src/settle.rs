//! The end of every phase, whoever read its orders: the orders
//! adjudicated, the position moved on, the winner looked for. [`Game`]
//! plays each phase through [`settle`]; an adapter that reads and checks
//! orders in a dialect of its own (the Python package's MILA orders,
//! with MILA's result words and bookkeeping) hands its orders to the same
//! function, so that no adapter calls dip-core's `game::adjudicate` or
//! `game::advance` itself and every phase is played the one way.
//! [`order_problem`] says why one order cannot be given in a phase.
//!
//! [`Game`]: crate::Game

use dip_core::{
    game, movement, Illegal, Map, Order, PhaseKind, PhaseOutcome, PowerId, ProvinceId, Ruleset, State, Verdict,
};

/// A phase settled: what happened, the position after, the winner.
#[derive(Clone, Debug)]
pub struct Settled {
    pub outcome: PhaseOutcome,
    /// The position after the phase, in the next phase to be played.
    pub next: State,
    /// The power that has won in `next`, if any.
    pub winner: Option<PowerId>,
}

/// Plays the phase `state` is in from `orders`, read and checked by the
/// caller (units without an order hold, dislodged units without one
/// disband, builds not ordered are waived, civil disorder removes what
/// must be removed). `paths[k]` is the convoy path order `k` wrote (the
/// provinces between origin and destination; empty, or `paths` shorter:
/// none), which counts under `convoy-path=binding`.
pub fn settle(map: &Map, rules: &Ruleset, state: &State, orders: &[Order], paths: &[Vec<ProvinceId>]) -> Settled {
    let outcome = game::adjudicate_with_paths(map, state, orders, paths, rules);
    let next = game::advance(map, state, &outcome);
    let winner = game::winner(map, &next);
    Settled { outcome, next, winner }
}

/// Why one order cannot be given in a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Refused before adjudication, with the adjudicator's reason.
    Illegal(Illegal),
    /// Set aside by the adjudicator even when it is the only order given
    /// (a retreat or an adjustment it carries out no verdict for).
    NotExecuted,
}

impl Refusal {
    pub fn describe(self) -> &'static str {
        match self {
            Refusal::Illegal(e) => e.describe(),
            Refusal::NotExecuted => "not executed",
        }
    }
}

/// Why `order` cannot be given in the phase `state` is in, if it cannot:
/// in a movement phase the adjudicator's check of a single order; in a
/// retreat or adjustment phase the verdict the order gets when it is the
/// only one given. An order that can be given but fails (a bounce, a
/// build beyond those allowed) is no refusal.
pub fn order_problem(map: &Map, rules: &Ruleset, state: &State, order: &Order) -> Option<Refusal> {
    if state.phase.kind == PhaseKind::Movement {
        return movement::order_problem(map, state, rules, order)
            .err()
            .map(Refusal::Illegal);
    }
    let outcome = game::adjudicate(map, state, std::slice::from_ref(order), rules);
    match outcome.orders().first().map(|r| r.verdict) {
        Some(Verdict::Illegal(e)) => Some(Refusal::Illegal(e)),
        Some(Verdict::Duplicate) => Some(Refusal::NotExecuted),
        _ => None,
    }
}
