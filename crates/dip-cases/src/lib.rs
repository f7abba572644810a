//! dip-cases: adjudication test cases as data.
//!
//! Two formats are read into one [`Case`]: dip's own (docs/case-format.md),
//! with an expected result per order, and the DATC text format used by jDip
//! and godip, with expected positions. [`run`] plays a case through
//! dip-play's `Game` (its orders adjudicated as read, so that each order
//! is reported) and lists every difference between what was expected and
//! what happened.

#![forbid(unsafe_code)]

mod jdip;
mod native;
mod play;
mod reading;
mod run;

pub use reading::jdip_notation;
pub use run::{run, CaseResult, Runner, Settings};

/// Where a line came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub number: usize,
    pub text: String,
}

/// What an order is expected to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    Succeeds,
    Fails,
    Illegal,
}

/// An order line with its expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderLine {
    pub line: Line,
    pub expected: Option<Expected>,
    /// For `illegal`: the reason's code (`unreachable`, `foreign-unit`, ...).
    pub reason: Option<String>,
    pub dislodged: bool,
}

/// One phase of a case: orders and what must come of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    pub orders: Vec<OrderLine>,
    /// Units civil disorder must remove.
    pub civil_disorder: Option<Vec<Line>>,
    /// The complete position expected after the phase (jDip POSTSTATE).
    pub post_units: Option<Vec<Line>>,
    /// Units expected dislodged after the phase (jDip POSTSTATE_DISLODGED).
    pub post_dislodged: Option<Vec<Line>>,
    /// Check every dislodged unit is marked on its order line (dip format).
    pub strict_dislodged: bool,
    /// `post_dislodged` lists only dislodged units that have somewhere to
    /// retreat; a unit destroyed for want of a retreat is left out (the
    /// convention of jDip's and godip's files).
    pub retreating_only: bool,
}

/// jDip's order-reading suite: an order and what it must read as, in
/// jDip's notation (`move(england, lvp/mv, army, edi, false)`, `FAIL`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadCheck {
    pub order: Line,
    pub expected: Line,
}

/// A case, with names as written: they are looked up when it runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Case {
    pub id: String,
    pub title: String,
    pub file: String,
    pub line: usize,
    pub variant: Option<String>,
    /// Province names may be misspelled (jDip's and godip's files, read as
    /// jDip reads them: `Galacia`, `Portuga`); power names may not.
    pub lenient_names: bool,
    /// The line that named the variant (0: none), for messages.
    pub variant_line: usize,
    pub rules: Option<String>,
    /// `spring 1901 movement` as written.
    pub phase: Option<Line>,
    pub units: Vec<Line>,
    pub dislodged: Vec<Line>,
    pub standoffs: Option<Line>,
    pub owners: Option<Vec<Line>>,
    /// Results of the previous phase (jDip PRESTATE_RESULTS), for attackers.
    pub previous_results: Vec<Line>,
    pub steps: Vec<Step>,
    /// A case of the order-reading suite: no adjudication, the order is
    /// read in the position and compared.
    pub read: Option<ReadCheck>,
}

/// A file that cannot be read as cases.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", dip_core::colon_line(.line))]
pub struct CaseFileError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// Reads a case file in any of the formats: jDip's starts with
/// `VARIANT_ALL` or `CASE`, jDip's order-reading suite with `VARIANT:`,
/// `SETUP` or `ORD:`, anything else is dip's own.
pub fn parse_file(text: &str, file: &str) -> Result<Vec<Case>, CaseFileError> {
    let first = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if jdip::is_order_suite(first) {
        jdip::parse_order_suite(text, file)
    } else if first.starts_with("VARIANT_ALL") || first.starts_with("CASE ") {
        jdip::parse(text, file)
    } else {
        native::parse(text, file)
    }
}
