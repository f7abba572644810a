//! dip-rating: scoring finished games and rating players.
//!
//! - [`results`]: result tables (Analyse-style text, CSV) and the data model.
//! - [`scoring`]: scoring systems turning one finished game into points.
//! - [`analyse`]: Analyse's control-file language and its iterative
//!   strength computation.
//! - [`expr`]: the formulas of that language, with `print` and printf formats.
//! - [`modern`]: pairwise Elo, Ghost Rating, TrueSkill and Weng-Lin
//!   (Plackett-Luce), each able to explain one player's change.
//!
//! No I/O happens here; files come in as text, through [`analyse::Host`].

#![forbid(unsafe_code)]
#![allow(clippy::type_complexity)]

pub mod analyse;
pub mod error;
pub mod expr;
pub mod modern;
pub mod results;
pub mod scoring;

pub use error::Error;
