//! What happened to each order, and why.

use crate::ids::ProvinceId;
use crate::order::Order;

/// Why an order was refused before adjudication (the unit then holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// No unit in that province (NSU).
    NoSuchUnit,
    /// The unit belongs to another power.
    ForeignUnit,
    /// The order names the unit on a coast it is not on.
    WrongUnitCoast,
    /// The unit type is missing or wrong (with `missing-unit-type=invalid`
    /// or `wrong-unit-type=invalid`).
    WrongUnitType,
    /// A coast that the province does not have, or that makes no sense here.
    UnknownCoast,
    /// The order does not belong to this phase (a support in a retreat phase).
    WrongPhase,
    /// A move to the unit's own province.
    MoveToSelf,
    /// The destination cannot be reached, not even by convoy.
    Unreachable,
    /// A fleet move to a split-coast province that needs a coast.
    AmbiguousCoast,
    /// A coast the unit cannot reach.
    ImpossibleCoast,
    /// The coast was not given (with `missing-coast=fails`).
    MissingCoast,
    /// A support or convoy of the unit itself.
    SelfReference,
    /// The supported or convoyed unit does not exist.
    NoUnitToSupport,
    /// The supporting unit cannot reach the province it supports into.
    CannotSupport,
    /// The supported move can never be made.
    ImpossibleSupportedMove,
    /// The unit cannot convoy (type, or not at sea).
    CannotConvoy,
    /// The convoyed unit cannot be convoyed.
    NotConvoyable,
    /// The convoying unit is on no route between the two provinces.
    NotOnRoute,
    /// A retreat for a unit that is not dislodged, or to a closed province.
    RetreatNotPossible,
    /// Build: not an owned, vacant, buildable centre.
    BuildNotPossible,
    /// Build or disband beyond what the supply balance allows.
    TooMany,
    /// The unit type cannot be built or stand there.
    WrongTerrain,
    /// A border rule of the variant refuses the order now (by season,
    /// phase, year, unit or order type), or a support over a difficult
    /// border.
    ClosedBorder,
}

impl Illegal {
    pub const ALL: [Illegal; 23] = [
        Illegal::NoSuchUnit,
        Illegal::ForeignUnit,
        Illegal::WrongUnitCoast,
        Illegal::WrongUnitType,
        Illegal::UnknownCoast,
        Illegal::WrongPhase,
        Illegal::MoveToSelf,
        Illegal::Unreachable,
        Illegal::AmbiguousCoast,
        Illegal::ImpossibleCoast,
        Illegal::MissingCoast,
        Illegal::SelfReference,
        Illegal::NoUnitToSupport,
        Illegal::CannotSupport,
        Illegal::ImpossibleSupportedMove,
        Illegal::CannotConvoy,
        Illegal::NotConvoyable,
        Illegal::NotOnRoute,
        Illegal::RetreatNotPossible,
        Illegal::BuildNotPossible,
        Illegal::TooMany,
        Illegal::WrongTerrain,
        Illegal::ClosedBorder,
    ];

    /// A short stable name, used in case files: `no-such-unit`.
    pub fn code(self) -> &'static str {
        match self {
            Illegal::NoSuchUnit => "no-such-unit",
            Illegal::ForeignUnit => "foreign-unit",
            Illegal::WrongUnitCoast => "wrong-unit-coast",
            Illegal::WrongUnitType => "wrong-unit-type",
            Illegal::UnknownCoast => "unknown-coast",
            Illegal::WrongPhase => "wrong-phase",
            Illegal::MoveToSelf => "move-to-self",
            Illegal::Unreachable => "unreachable",
            Illegal::AmbiguousCoast => "ambiguous-coast",
            Illegal::ImpossibleCoast => "impossible-coast",
            Illegal::MissingCoast => "missing-coast",
            Illegal::SelfReference => "self-reference",
            Illegal::NoUnitToSupport => "no-unit-to-support",
            Illegal::CannotSupport => "cannot-support",
            Illegal::ImpossibleSupportedMove => "impossible-supported-move",
            Illegal::CannotConvoy => "cannot-convoy",
            Illegal::NotConvoyable => "not-convoyable",
            Illegal::NotOnRoute => "not-on-route",
            Illegal::RetreatNotPossible => "retreat-not-possible",
            Illegal::BuildNotPossible => "build-not-possible",
            Illegal::TooMany => "too-many",
            Illegal::WrongTerrain => "wrong-terrain",
            Illegal::ClosedBorder => "closed-border",
        }
    }

    pub fn from_code(code: &str) -> Option<Illegal> {
        Illegal::ALL.into_iter().find(|i| i.code() == code)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Illegal::NoSuchUnit => "no such unit",
            Illegal::ForeignUnit => "the unit belongs to another power",
            Illegal::WrongUnitCoast => "the unit is not on that coast",
            Illegal::WrongUnitType => "the unit type is missing or wrong",
            Illegal::UnknownCoast => "no such coast",
            Illegal::WrongPhase => "not an order of this phase",
            Illegal::MoveToSelf => "a unit cannot move to its own province",
            Illegal::Unreachable => "the destination cannot be reached",
            Illegal::AmbiguousCoast => "the coast must be given",
            Illegal::ImpossibleCoast => "the unit cannot reach that coast",
            Illegal::MissingCoast => "no coast given",
            Illegal::SelfReference => "a unit cannot support or convoy itself",
            Illegal::NoUnitToSupport => "no unit there to support or convoy",
            Illegal::CannotSupport => "the supporting unit cannot reach the province",
            Illegal::ImpossibleSupportedMove => "the supported move is impossible",
            Illegal::CannotConvoy => "this unit cannot convoy there",
            Illegal::NotConvoyable => "that unit cannot be convoyed",
            Illegal::NotOnRoute => "the convoying unit is on no route between the two provinces",
            Illegal::RetreatNotPossible => "the retreat is not possible",
            Illegal::BuildNotPossible => "cannot build there",
            Illegal::TooMany => "more adjustments than allowed",
            Illegal::WrongTerrain => "that unit type cannot be there",
            Illegal::ClosedBorder => "a border rule of the variant closes the way",
        }
    }
}

/// Why an order succeeded or failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Hold: not dislodged.
    Held,
    Moved,
    /// Lost to a stronger or equal unit (standoff or defence).
    Bounced,
    /// Lost a head-to-head battle.
    BeatenHeadToHead,
    /// A convoyed move without a convoy route.
    NoConvoy,
    /// A move into a province held by the mover's own power.
    OwnUnit,
    SupportGiven,
    /// Cut by an attack from this province.
    SupportCut(ProvinceId),
    /// The supported unit did not do what the support said.
    SupportVoid,
    ConvoyGiven,
    /// No army tried the convoyed move.
    ConvoyVoid,
    /// The convoying unit was dislodged.
    ConvoyDisrupted,
    /// The convoy was cancelled by the paradox rule.
    ConvoyParadox,
    /// The unit was dislodged (whatever its order).
    Dislodged(ProvinceId),
    Retreated,
    /// Two retreats to one province, or an impossible retreat: disbanded.
    RetreatClash,
    Disbanded,
    Built,
    Waived,
    /// Not executed (a duplicate, or beyond the allowed number).
    NotExecuted,
}

/// The fate of one order given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Refused before adjudication.
    Illegal(Illegal),
    /// Another order to the same unit made this one void.
    Duplicate,
    /// Adjudicated.
    Done { success: bool, reason: Reason },
}

impl Verdict {
    pub fn succeeded(&self) -> bool {
        matches!(self, Verdict::Done { success: true, .. })
    }
}

/// An order with its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderReport {
    pub order: Order,
    pub verdict: Verdict,
    /// The ordered unit ended the phase dislodged.
    pub dislodged: bool,
}

/// Pairs each order given with its verdict (`Duplicate` for an order that
/// was set aside and got none).
pub(crate) fn reports(orders: &[crate::order::Order], verdicts: Vec<Option<Verdict>>) -> Vec<OrderReport> {
    orders
        .iter()
        .zip(verdicts)
        .map(|(o, v)| OrderReport {
            order: *o,
            verdict: v.unwrap_or(Verdict::Duplicate),
            dislodged: false,
        })
        .collect()
}
