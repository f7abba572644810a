//! dip-text: order text in, orders out, and back; and the position format.
//!
//! Reading follows DipWork's two steps. The *scanner* ([`scan_line`],
//! [`read_orders`]) reads each line in any of the common syntaxes (DipWork,
//! DIP, Judge/DPjudge, DATC, MILA) with the words of a [`Vocabulary`]; the
//! *parser* ([`check_turn`], [`read_turn`]) checks the orders of a turn
//! against the position, corrects what can be corrected and numbers every
//! change with DipWork's error numbers ([`Code`]). [`parse_order`] reads a
//! single line strictly. Printing ([`format_order`]) writes any order in a
//! [`Style`] that reads back to the same order. docs/orders.md has it all.

#![forbid(unsafe_code)]

mod check;
mod code;
mod parse;
pub mod position;
mod print;
mod scan;
mod turn;
mod vocab;

pub use check::{check_turn, CheckOptions, Fate, LineResult, ReadLine, TurnReport};
pub use code::{result_code, Code, Note};
pub use parse::{parse_order, parse_order_and_path, parse_order_with, ParseError};
pub use position::{format_position, parse_position, Position, PositionError};
pub use print::{capitalised_abbr, format_order, format_order_in, format_order_with, report_region, Style};
pub use scan::{scan_line, ScanState, Scanned};
pub use turn::{file_params, read_orders, read_orders_strict, read_turn, FileParams, LineError};
pub use vocab::{OrderWord, Place, VocabError, Vocabulary, DEFAULT_WORDS};
