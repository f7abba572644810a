//! A whole orders file: DipWork's `ORDERS.TXT` layout (`NATION` headers,
//! `END`, game parameters) or dip's (`Power: order` per line, `#`
//! comments), scanned line by line and then checked.

use crate::check::{check_turn, CheckOptions, ReadLine, TurnReport};
use crate::scan::{scan_line, ScanState};
use crate::vocab::Vocabulary;
use dip_core::{PowerId, Ruleset, State};

/// DipWork game parameters found in an orders file (they may stand there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileParams {
    pub exact_match: Option<bool>,
    pub spellcheck: Option<usize>,
    pub nsu_checking_off: Option<bool>,
}

/// DipWork game parameters that may stand in `ORDERS.TXT`; lines starting
/// with one of them are no orders.
const PARAMETERS: &[&str] = &[
    "YEAR",
    "ZAT",
    "NAME",
    "MASTER",
    "VARNAME",
    "EXACT_MATCH",
    "SPELLCHECK",
    "NSU_CHECKING_OFF",
    "ERROR_NR_OUTPUT",
    "SELF_CUT_OK",
    "IX_3_INTERPRETATION",
    "IX_7_INTERPRETATION",
    "X_INTERPRETATION",
    "PARTIAL_CUT_POSSIBLE",
    "CONVOY_CUTS",
    "CONVOY_RELEVANT_UNITNR",
    // Parameters looked up ORDERS → GAME → VARIANT → PROJECT (docs/game-directory.md).
    "THREEPHASE",
    "RULES",
    "PHASE",
    "VARIANTPATH",
    "MAPPNG",
    "STANDOFFS",
    "PLAINOUTWIDTH",
    "TABCOLUMNWIDTH",
    "COLUMNSEPCODE",
    "TABLINEENDSTR",
    "TABBEGINSTR",
    "TABENDSTR",
    "UNDERLINE_ON",
    "UNDERLINE_OFF",
    "FNNEWGAME",
    "FNPLAINOUT",
    "FNSAVE",
    "FNERRORS",
    "FNMAP",
];

/// A keyword line: an upper-case word of letters, digits and `_` (at least
/// three characters, with a letter) that names no nation, unit or place.
fn unknown_keyword(vocab: &Vocabulary, first: &str) -> bool {
    first.len() >= 3
        && first
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && first.bytes().any(|b| b.is_ascii_uppercase())
        && (first.contains('_') || first.len() >= 5)
        && vocab.nation(first).is_none()
        && vocab.unit(first).is_none()
        && vocab.order_word(first).is_none()
        && vocab.place(first).is_none()
        && !first.eq_ignore_ascii_case("waive")
}

fn yes(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "ja" | "yes" | "on" | "true" | "1" | "an" => Some(true),
        "nein" | "no" | "off" | "false" | "0" | "aus" => Some(false),
        _ => None,
    }
}

/// The parameters set in an orders file.
pub fn file_params(text: &str) -> FileParams {
    let mut p = FileParams::default();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let (Some(k), v) = (words.next(), words.next().unwrap_or("ja")) else {
            continue;
        };
        match k {
            "EXACT_MATCH" => p.exact_match = yes(v),
            "SPELLCHECK" => p.spellcheck = v.parse().ok(),
            "NSU_CHECKING_OFF" => p.nsu_checking_off = yes(v),
            _ => {}
        }
    }
    p
}

/// Scans every order line of a file. `power`: the nation of lines that
/// name none and stand under no `NATION` header.
pub fn read_orders(vocab: &Vocabulary, text: &str, power: Option<PowerId>) -> Vec<ReadLine> {
    let mut out = Vec::new();
    let mut state = ScanState::default();
    let mut header: Option<PowerId> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        if first == "END" && line == "END" {
            break;
        }
        if PARAMETERS.contains(&first) {
            continue;
        }
        if first == "NATION" {
            // An unknown nation: its lines fall back to the unit's owner.
            header = line.split_whitespace().nth(1).and_then(|n| vocab.nation(n));
            continue;
        }
        if unknown_keyword(vocab, first) {
            out.push(ReadLine {
                line: i + 1,
                text: line.to_string(),
                power: None,
                scanned: crate::scan::Scanned {
                    power: None,
                    order: None,
                    notes: vec![crate::code::Note::new(
                        crate::code::Code::UnknownParameter,
                        1,
                        format!("`{first}` is no parameter of ORDERS.TXT dip knows (docs/game-directory.md)"),
                    )],
                    press: false,
                    column: 1,
                    path: Vec::new(),
                },
            });
            continue;
        }
        let Some(scanned) = scan_line(vocab, line, &mut state) else {
            continue;
        };
        let power = scanned.power.or(header).or(power);
        out.push(ReadLine {
            line: i + 1,
            text: line.to_string(),
            power,
            scanned,
        });
    }
    out
}

/// Reads and checks one turn: parameters in the file override the
/// vocabulary's and the options' settings.
pub fn read_turn(
    vocab: &Vocabulary,
    state: &State,
    rules: &Ruleset,
    opts: &CheckOptions,
    text: &str,
    power: Option<PowerId>,
) -> TurnReport {
    let params = file_params(text);
    let mut opts = *opts;
    if let Some(n) = params.nsu_checking_off {
        opts.nsu_checking_off = n;
    }
    let lines = if params.exact_match.is_some() || params.spellcheck.is_some() {
        let mut v = vocab.clone();
        if let Some(e) = params.exact_match {
            v = v.with_exact_match(e);
        }
        if let Some(n) = params.spellcheck {
            v = v.with_spellcheck(n);
        }
        read_orders(&v, text, power)
    } else {
        read_orders(vocab, text, power)
    };
    check_turn(vocab, state, rules, &opts, &lines)
}

/// A line of an orders file that is no order, for strict readers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    /// 1-based column; 0 for the whole line.
    pub column: usize,
    pub message: String,
    pub text: String,
}

/// Reads an orders file strictly, for adjudication: the same file layouts
/// and syntaxes as [`read_orders`] (`Power: order` lines, DipWork's `NATION`
/// blocks and forms, `END`, parameters), one vocabulary for the whole file
/// (linear in its length), but any line that is no clean order is an error
/// (spelling corrections included when the vocabulary does not allow them).
/// A line without a nation belongs to the owner of its unit in `state`.
pub fn read_orders_strict(
    vocab: &Vocabulary,
    state: Option<&State>,
    text: &str,
) -> Result<Vec<dip_core::Order>, Vec<LineError>> {
    let mut orders = Vec::new();
    let mut errors = Vec::new();
    for l in read_orders(vocab, text, None) {
        let fail = |column: usize, message: String| LineError {
            line: l.line,
            column,
            message,
            text: l.text.clone(),
        };
        if let Some(n) = l.scanned.notes.iter().find(|n| !n.code.is_correction()) {
            errors.push(fail(n.column, n.message.clone()));
            continue;
        }
        if l.scanned.press {
            errors.push(fail(
                0,
                "expected an order; the words after the unit are no order".into(),
            ));
            continue;
        }
        let Some(kind) = l.scanned.order else {
            errors.push(fail(0, "expected an order".into()));
            continue;
        };
        let owner = || {
            let p = dip_core::Order::new(PowerId(0), kind).unit()?.province;
            state?.unit(p).map(|u| u.power)
        };
        match l.power.or_else(owner) {
            Some(power) => orders.push(dip_core::Order::new(power, kind)),
            None => errors.push(fail(
                0,
                "no power given for this order (write `Power: order`, or the orders under `NATION Power`)".into(),
            )),
        }
    }
    if errors.is_empty() {
        Ok(orders)
    } else {
        Err(errors)
    }
}
