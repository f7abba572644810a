//! dip-war: Global War, the world-conquest game of the BBS door (version
//! 2.0), and its WARxx.DAT and WARxx.REC files.
//!
//! - [`map`]: the 42 countries with the data file's numbers, continents and
//!   bonuses, borders, the seven map views.
//! - [`rules`]: starting armies, reinforcements, set values, dice.
//! - [`game`]: the engine, one [`game::Action`] at a time, every die logged.
//! - [`signup`]: player-count ranges and votes to start.
//! - [`file`]: WARxx.DAT and WARxx.REC, read and written byte for byte.
//! - [`daynum`]: the files' day numbers (days since 1 January 1985).
//! - [`random`]: a random player, for tests and `dip war bench`.
//! - [`svg`]: the schematic world map.
//!
//! No I/O; nothing panics on input; the same seed gives the same game.

pub mod cp437;
pub mod daynum;
pub mod file;
pub mod game;
pub mod map;
pub mod random;
pub mod rng;
pub mod rules;
pub mod signup;
pub mod svg;

pub use file::{DatFile, FileError, RecFile};
pub use game::{Action, Event, Game, Options, Phase, Position, RuleError};
