//! dip-game: whole games.
//!
//! `mila` reads the saved games of MILA's engine (the `diplomacy` package:
//! JSON objects, one a line, optionally gzip-compressed); `replay`
//! re-adjudicates every phase of such a game and lists each difference.

#![forbid(unsafe_code)]

pub mod as_read;
pub mod dipfile;
pub mod files;
pub mod gamedir;
pub mod gamefile;
pub mod macros;
pub mod menu;
pub mod mila;
pub mod nmr;
pub mod params;
pub mod phase;
pub mod plain;
pub mod record;
pub mod replay;
pub mod report;
pub mod source;
pub mod stagefile;
pub mod variantpath;
pub mod year;
