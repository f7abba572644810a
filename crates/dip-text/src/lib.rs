//! dip-text: order text in, orders out, and back; and the position format.
//!
//! Reading accepts the common ways of writing orders (DATC/Judge, DipWork,
//! DIP); names are looked up in the map, so variants bring their own words.

mod cursor;
mod parse;
pub mod position;
mod print;

pub use parse::{parse_order, ParseError};
pub use position::{format_position, parse_position, PositionError};
pub use print::{format_order, Style};
