//! dip-core: the Diplomacy adjudication engine.
//!
//! Data flows one way: a [`MapBuilder`] is validated into a [`Map`]; orders
//! (ids only) are checked against a [`State`] and adjudicated under a
//! [`Ruleset`] into an outcome that says, for every order, whether it
//! succeeded and why; [`game::advance`] turns the outcome into the next state.
//!
//! The core does no I/O, never panics on any input, and is deterministic:
//! the outcome does not depend on the order in which orders are given,
//! except where a rule option says the first or last order counts.

#![forbid(unsafe_code)]

pub mod adjustment;
pub mod border_rule;
pub mod convoy;
pub mod game;
pub mod ids;
pub mod legal;
pub mod map;
pub mod movement;
pub mod order;
pub mod outcome;
pub mod position;
pub mod random;
pub mod retreat;
pub mod rules;
pub mod state;

pub use game::{adjudicate, advance, PhaseOutcome};
pub use ids::{PowerId, ProvinceId, RegionId, UnitTypeId};
pub use map::{Map, MapBuilder, Terrain, UnitType};
pub use order::{CoastSpec, Dest, Order, OrderKind, UnitRef};
pub use outcome::{Illegal, OrderReport, Reason, Verdict};
pub use position::{Position, PositionErrors, PositionFault};
pub use rules::Ruleset;
pub use state::{parse_year, Dislodged, LongPhase, Phase, PhaseCase, PhaseKind, Season, State, Unit, MAX_YEAR};

/// `:LINE` for an error message's place, or nothing for line 0 (an error
/// about a whole file): messages never show `file:0:`.
pub fn colon_line(line: &usize) -> String {
    if *line == 0 {
        String::new()
    } else {
        format!(":{line}")
    }
}
