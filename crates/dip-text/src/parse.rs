//! Reading one order line in any of the common syntaxes: the scanner
//! (`scan`) with the map's words and dip's defaults, no spelling check.

use crate::code::Code;
use crate::scan::{scan_line, ScanState};
use crate::vocab::Vocabulary;
use dip_core::{Map, Order, PowerId, ProvinceId};

/// Why a line could not be read as an order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct ParseError {
    /// 1-based column where the problem starts.
    pub column: usize,
    pub message: String,
    /// DipWork's number for the problem, where it has one.
    pub code: Option<Code>,
}

/// Reads one order. `power` is used when the line names none. Strict: a
/// line that is not wholly an order is an error (no spelling check).
pub fn parse_order(map: &Map, line: &str, power: Option<PowerId>) -> Result<Order, ParseError> {
    let vocab = Vocabulary::new(map).with_spellcheck(0);
    parse_order_with(&vocab, line, power)
}

/// Reads one order with the given words and options. Spelling corrections
/// are accepted; any other problem is an error.
pub fn parse_order_with(vocab: &Vocabulary, line: &str, power: Option<PowerId>) -> Result<Order, ParseError> {
    parse_order_and_path(vocab, line, power).map(|(order, _)| order)
}

/// As [`parse_order_with`], with the convoy path written in the line
/// (`A lvp-iri-eng-lon`: the seas between; empty when none is written),
/// from the same reading.
pub fn parse_order_and_path(
    vocab: &Vocabulary,
    line: &str,
    power: Option<PowerId>,
) -> Result<(Order, Vec<ProvinceId>), ParseError> {
    let mut st = ScanState::default();
    let s = scan_line(vocab, line, &mut st).ok_or(ParseError {
        column: 1,
        message: "empty line: expected an order".into(),
        code: None,
    })?;
    if let Some(n) = s.notes.iter().find(|n| !n.code.is_correction()) {
        return Err(ParseError {
            column: n.column.max(1),
            message: n.message.clone(),
            code: Some(n.code),
        });
    }
    let kind = s.order.ok_or(ParseError {
        column: 1,
        message: "expected an order".into(),
        code: None,
    })?;
    let power = s.power.or(power).ok_or(ParseError {
        column: 1,
        message: "no power given for this order".into(),
        code: Some(Code::NoNation),
    })?;
    Ok((Order::new(power, kind), s.path))
}
