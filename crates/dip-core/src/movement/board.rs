//! The checked orders of one movement phase, one per unit, indexed densely.

use crate::ids::{PowerId, ProvinceId, RegionId, UnitTypeId};

/// How a move travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Over a border.
    Land,
    /// By convoy.
    Convoy,
    /// Over a border, or by convoy when that makes a swap (1971 rule, 4.A.3).
    Either,
}

/// A checked order: ids only, legal in this position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Hold,
    Move {
        to: RegionId,
        to_p: ProvinceId,
        route: Route,
        /// Across an `mx` border: one support less.
        weak: bool,
        /// Added to the move's strength over the border (a border rule's
        /// strength change; not for a convoyed move).
        change: i8,
    },
    SupportHold {
        target: ProvinceId,
    },
    SupportMove {
        target: ProvinceId,
        to: ProvinceId,
        coast: Option<RegionId>,
    },
    Convoy {
        army: ProvinceId,
        to: ProvinceId,
    },
}

/// One unit with its order, as the resolver sees it.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    pub province: ProvinceId,
    pub power: PowerId,
    pub kind: UnitTypeId,
    pub strength: u8,
    pub act: Act,
    /// The order given (index into the submitted orders), if any.
    pub given: Option<u32>,
    /// For supports and convoys: it matches an order (else void).
    pub matches: bool,
}

pub const NONE: u16 = u16::MAX;
