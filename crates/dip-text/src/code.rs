//! DipWork's error numbers (`ERROR_NR_OUTPUT`), and the few dip adds.
//!
//! Numbers below 100 are corrections (the order was changed and still
//! stands), 100–199 errors that turned an order into a hold (or, for
//! 100–104, results of the adjudication), 200–299 deleted orders, 300–399
//! lines that could not be read. 1, 15, 18 and 4xx are dip's own.

/// A DipWork error number with its meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// dip: a province name corrected by `SPELLCHECK`.
    Spelling,
    /// 3 `zeSupSubFieldChg`: coast of the supported move changed.
    SupportedCoast,
    /// 6 `zeSubFieldChg`: coast of the move's destination changed.
    MoveCoast,
    /// 9 `zeSubFromFieldChg`: coast of the supported (or convoyed) unit changed.
    SupportedUnitCoast,
    /// 12 `zeMissingOrder`: a hold inserted for a unit without an order.
    MissingOrder,
    /// dip: the unit type of the ordered unit corrected.
    UnitType,
    /// dip: the coast of the ordered unit corrected.
    UnitCoast,
    /// 100 `zeUnsuccessful`: the order did not succeed.
    Unsuccessful,
    /// 102 `zeRetreat`: the unit was dislodged and must retreat.
    Dislodged,
    /// 103 `zeIdenticalRet`: disbanded, two retreats to one province.
    RetreatClash,
    /// 104 `zeNoRetReceived`: no retreat order received.
    NoRetreat,
    /// 109 `zeOrderExp`: no order word (move, hold, ...) could be read.
    OrderExpected,
    /// 111 `zeMul2Hold`: several orders, none a move: hold.
    SeveralHold,
    /// 113 `zeMul3Hold`: several orders, one a move: hold.
    SeveralWithMoveHold,
    /// 115 `zeMoveToField`: the destination of the move is unknown.
    MoveField,
    /// 117 `zeSupportedField`: the supported unit's province is unknown.
    SupportedField,
    /// 119 `zeSupMoveField`: the destination of the supported move is unknown.
    SupportedMoveField,
    /// 121 `zeConvoyedField`: the convoyed unit's province is unknown.
    ConvoyedField,
    /// 124 `zeConMoveField`: the destination of the convoyed move is unknown.
    ConvoyedMoveField,
    /// 127 `zeTrgMoveExp`: the convoyed unit's order must be a move.
    ConvoyedMoveExpected,
    /// 130 `zeTrgMoveOrHoldExp`: the supported unit's order must be a move or a hold.
    SupportedOrderExpected,
    /// 133 `zeNoOcean`: a convoying unit must be at sea.
    NotAtSea,
    /// 136 `zeUnitCantConvoy`: this unit type cannot convoy.
    CannotConvoy,
    /// 139 `zeIMPMove`: impossible move, no border.
    ImpossibleMove,
    /// 142 `zeIMPcmove`: impossible convoyed move, no convoy route.
    ImpossibleConvoyedMove,
    /// 143 `zeIMPSupport`: impossible support.
    ImpossibleSupport,
    /// 145 `zeNSOSupport`: no such order to support (NSO).
    NoSuchSupported,
    /// 148 `zeNSOconvoy`: no such move to convoy (NSO).
    NoSuchConvoyed,
    /// 151 `zeSupMulCoasts`: the coast of the supported move is ambiguous.
    SupportedAmbiguousCoast,
    /// 154 `zeMulCoasts`: the coast of the move is ambiguous.
    AmbiguousCoast,
    /// 200 `zeMul1del`: an identical order, deleted.
    Identical,
    /// 203 `zeMul2del`: one of several orders (none a move), deleted.
    SeveralDeleted,
    /// 206 `zeMul3del`: one of several orders (one a move), deleted.
    SeveralWithMoveDeleted,
    /// 209 `zeNSU`: no such unit.
    NoSuchUnit,
    /// 300 `zeUnitTypeExp`: a unit type was expected.
    UnitTypeExpected,
    /// 303 `zeUnitOrNationExp`: a unit type or nation was expected.
    UnitOrNationExpected,
    /// 306 `zeLocationField`: the ordered unit's province does not exist.
    LocationField,
    /// dip: the unit belongs to another nation (deleted).
    ForeignUnit,
    /// dip: the order is void under the rules in force (hold).
    VoidByRules,
    /// dip: not an order of this phase (deleted).
    WrongPhase,
    /// dip: no nation given and none can be told from the unit.
    NoNation,
    /// dip: a ditto (`"`) with no earlier support or convoy to repeat.
    NothingToRepeat,
    /// dip: a keyword line (`FOO ja`) that is no parameter dip knows.
    UnknownParameter,
}

impl Code {
    pub const ALL: [Code; 43] = [
        Code::Spelling,
        Code::SupportedCoast,
        Code::MoveCoast,
        Code::SupportedUnitCoast,
        Code::MissingOrder,
        Code::UnitType,
        Code::UnitCoast,
        Code::Unsuccessful,
        Code::Dislodged,
        Code::RetreatClash,
        Code::NoRetreat,
        Code::OrderExpected,
        Code::SeveralHold,
        Code::SeveralWithMoveHold,
        Code::MoveField,
        Code::SupportedField,
        Code::SupportedMoveField,
        Code::ConvoyedField,
        Code::ConvoyedMoveField,
        Code::ConvoyedMoveExpected,
        Code::SupportedOrderExpected,
        Code::NotAtSea,
        Code::CannotConvoy,
        Code::ImpossibleMove,
        Code::ImpossibleConvoyedMove,
        Code::ImpossibleSupport,
        Code::NoSuchSupported,
        Code::NoSuchConvoyed,
        Code::SupportedAmbiguousCoast,
        Code::AmbiguousCoast,
        Code::Identical,
        Code::SeveralDeleted,
        Code::SeveralWithMoveDeleted,
        Code::NoSuchUnit,
        Code::UnitTypeExpected,
        Code::UnitOrNationExpected,
        Code::LocationField,
        Code::ForeignUnit,
        Code::VoidByRules,
        Code::WrongPhase,
        Code::NoNation,
        Code::NothingToRepeat,
        Code::UnknownParameter,
    ];

    /// The number (DipWork's where it has one).
    pub fn number(self) -> u16 {
        match self {
            Code::Spelling => 1,
            Code::SupportedCoast => 3,
            Code::MoveCoast => 6,
            Code::SupportedUnitCoast => 9,
            Code::MissingOrder => 12,
            Code::UnitType => 15,
            Code::UnitCoast => 18,
            Code::Unsuccessful => 100,
            Code::Dislodged => 102,
            Code::RetreatClash => 103,
            Code::NoRetreat => 104,
            Code::OrderExpected => 109,
            Code::SeveralHold => 111,
            Code::SeveralWithMoveHold => 113,
            Code::MoveField => 115,
            Code::SupportedField => 117,
            Code::SupportedMoveField => 119,
            Code::ConvoyedField => 121,
            Code::ConvoyedMoveField => 124,
            Code::ConvoyedMoveExpected => 127,
            Code::SupportedOrderExpected => 130,
            Code::NotAtSea => 133,
            Code::CannotConvoy => 136,
            Code::ImpossibleMove => 139,
            Code::ImpossibleConvoyedMove => 142,
            Code::ImpossibleSupport => 143,
            Code::NoSuchSupported => 145,
            Code::NoSuchConvoyed => 148,
            Code::SupportedAmbiguousCoast => 151,
            Code::AmbiguousCoast => 154,
            Code::Identical => 200,
            Code::SeveralDeleted => 203,
            Code::SeveralWithMoveDeleted => 206,
            Code::NoSuchUnit => 209,
            Code::UnitTypeExpected => 300,
            Code::UnitOrNationExpected => 303,
            Code::LocationField => 306,
            Code::ForeignUnit => 400,
            Code::VoidByRules => 401,
            Code::WrongPhase => 403,
            Code::NoNation => 406,
            Code::NothingToRepeat => 409,
            Code::UnknownParameter => 412,
        }
    }

    pub fn from_number(n: u16) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.number() == n)
    }

    /// Is this number DipWork's own (not one dip added)?
    pub fn is_dipwork(self) -> bool {
        !matches!(
            self,
            Code::Spelling
                | Code::UnitType
                | Code::UnitCoast
                | Code::ForeignUnit
                | Code::VoidByRules
                | Code::WrongPhase
                | Code::NoNation
                | Code::NothingToRepeat
                | Code::UnknownParameter
        )
    }

    /// What the number means.
    pub fn describe(self) -> &'static str {
        match self {
            Code::Spelling => "province name corrected by the spelling check",
            Code::SupportedCoast => "coast of the supported move changed",
            Code::MoveCoast => "coast of the destination changed",
            Code::SupportedUnitCoast => "coast of the supported or convoyed unit changed",
            Code::MissingOrder => "no order: hold inserted",
            Code::UnitType => "unit type corrected",
            Code::UnitCoast => "coast of the ordered unit corrected",
            Code::Unsuccessful => "unsuccessful",
            Code::Dislodged => "dislodged: must retreat",
            Code::RetreatClash => "disbanded: two retreats to one province",
            Code::NoRetreat => "no retreat order received",
            Code::OrderExpected => "syntax error: no order (move, hold, support, convoy) for the unit",
            Code::SeveralHold => "several orders for one unit (none a move): hold",
            Code::SeveralWithMoveHold => "several orders for one unit (one a move): hold",
            Code::MoveField => "syntax error: destination of the move is unknown",
            Code::SupportedField => "syntax error: province of the supported unit is unknown",
            Code::SupportedMoveField => "syntax error: destination of the supported move is unknown",
            Code::ConvoyedField => "syntax error: province of the convoyed unit is unknown",
            Code::ConvoyedMoveField => "syntax error: destination of the convoyed move is unknown",
            Code::ConvoyedMoveExpected => "the convoyed unit's order must be a move",
            Code::SupportedOrderExpected => "the supported unit's order must be a move or a hold",
            Code::NotAtSea => "a convoying unit must be at sea",
            Code::CannotConvoy => "this unit type cannot convoy",
            Code::ImpossibleMove => "impossible move: no border",
            Code::ImpossibleConvoyedMove => "impossible convoyed move: no convoy route",
            Code::ImpossibleSupport => "impossible support",
            Code::NoSuchSupported => "no such order to support (NSO)",
            Code::NoSuchConvoyed => "no such move to convoy (NSO)",
            Code::SupportedAmbiguousCoast => "destination of the supported move is ambiguous (coast)",
            Code::AmbiguousCoast => "destination of the move is ambiguous (coast)",
            Code::Identical => "identical order: deleted",
            Code::SeveralDeleted => "several orders for one unit (none a move): deleted",
            Code::SeveralWithMoveDeleted => "several orders for one unit (one a move): deleted",
            Code::NoSuchUnit => "no such unit (NSU)",
            Code::UnitTypeExpected => "syntax error: unit type expected",
            Code::UnitOrNationExpected => "syntax error: unit type or nation expected",
            Code::LocationField => "syntax error: the unit's province does not exist",
            Code::ForeignUnit => "the unit belongs to another nation",
            Code::VoidByRules => "void under the rules in force",
            Code::WrongPhase => "not an order of this phase",
            Code::NoNation => "no nation given",
            Code::NothingToRepeat => "ditto (\") with no earlier support or convoy",
            Code::UnknownParameter => "unknown parameter: a keyword line that is no game parameter dip knows",
        }
    }

    /// A correction: the order was changed but stands.
    pub fn is_correction(self) -> bool {
        self.number() < 100
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:03}", self.number())
    }
}

/// One problem or correction, with where it is on the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub code: Code,
    /// 1-based column on the line; 0 when it concerns the whole line.
    pub column: usize,
    /// A clear message (the meaning of the number and the specifics).
    pub message: String,
}

impl Note {
    pub fn new(code: Code, column: usize, detail: impl Into<String>) -> Self {
        let detail = detail.into();
        let message = if detail.is_empty() {
            code.describe().to_string()
        } else {
            format!("{}: {detail}", code.describe())
        };
        Note { code, column, message }
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}] {}", self.code, self.message)
    }
}

/// DipWork's number for the result of an adjudicated order: 102 the unit
/// was dislodged, 103 a retreat clash disbanded it, 100 it did not
/// succeed; `None` when it succeeded. (104, no retreat received, is noted
/// by the parser on the disband it inserts.)
pub fn result_code(report: &dip_core::OrderReport) -> Option<Code> {
    use dip_core::{Reason, Verdict};
    if report.dislodged {
        return Some(Code::Dislodged);
    }
    match report.verdict {
        Verdict::Done {
            success: false,
            reason: Reason::RetreatClash,
        } => Some(Code::RetreatClash),
        Verdict::Done { success: true, .. } => None,
        _ => Some(Code::Unsuccessful),
    }
}
