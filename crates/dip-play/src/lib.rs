//! dip-play: the turn kernel, between {dip-core, dip-text, dip-variants}
//! and every edge (DipWork game directories, the server, the Python
//! package, replay, the case runner, the binary).
//!
//! - [`Variants`] is where variants come from: the bundled ones, files and
//!   folders of every format dip reads, jDip plugins under search paths;
//!   each loaded once and shared as a [`Loaded`] (the variant and the words
//!   its orders are read with). It is a value, passed in: no statics.
//! - [`Game`] is a game in play: the variant, its [`Ruleset`](dip_core::Ruleset),
//!   the position, the orders submitted so far (read and checked, with
//!   DipWork's codes) and the phases played. [`Game::submit`] reads one
//!   power's lines, [`Game::process`] plays the phase and returns the
//!   [`Played`] phase. DipWork's winterer (the right-hand rule's retreats,
//!   retreats read from the movement's orders) is a [`PlayOptions`] choice
//!   of the same pipeline, not a second one; so is adjudicating the
//!   orders as read ([`PlayOptions::as_read`]: each order judged and
//!   reported by the adjudicator, illegal ones with their reason), which
//!   a saved game's replay and the case runner use, submitting lines they
//!   read in their own format ([`read_line`], [`Game::submit_lines`], or
//!   [`Game::submit_read`] for orders with their text alone).
//!   Every phase ends in [`settle`] (adjudicate, advance, the winner):
//!   [`Game::process`] through it, and an adapter that reads and checks
//!   orders in a dialect of its own (the Python package's MILA orders)
//!   hands them to it; [`order_problem`] says why one order cannot be
//!   given in a phase.
//!   [`Game::rewind`] and
//!   [`Game::undo_rewind`] step back through the history; [`Game::set_state`]
//!   edits the position between phases.
//! - A game is written down and read back exactly: [`Game::to_stored`],
//!   [`Game::from_stored`] (JSON with [`Game::to_json`], [`Game::from_json`]).
//!
//! ```
//! use dip_play::{Game, Variants};
//! let variants = Variants::new();
//! let mut game = Game::new(variants.get("standard").unwrap());
//! let france = game.map().find_power("France").unwrap();
//! let submitted = game.submit(france, "A par-bur\nF bre-mao");
//! assert!(submitted.refused.is_empty());
//! let played = game.process();
//! assert_eq!(played.state.phase.to_string(), "S1901M");
//! assert_eq!(game.state().phase.to_string(), "F1901M");
//! let back = Game::from_json(&variants, &game.to_json()).unwrap();
//! assert_eq!(back.state(), game.state());
//! ```

#![forbid(unsafe_code)]

mod game;
mod settle;
mod stored;
pub mod stored_line;
mod turn;
mod variants;
mod winter;

pub use game::{number_lines, play_lines, read_line, read_power_lines, Game, PlayOptions, Played, Submission};
pub use settle::{order_problem, settle, Refusal, Settled};
pub use stored::{StoredError, StoredGame, StoredOptions, StoredOrders, StoredPhase};
pub use stored_line::StoredLine;
pub use variants::{Loaded, Variants};
