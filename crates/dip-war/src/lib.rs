//! dip-war: Global War, the world-conquest game of the BBS door (version
//! 2.0), and its WARxx.DAT and WARxx.REC files.
//!
//! - [`map`]: the 42 countries with the data file's numbers, continents and
//!   bonuses, borders, the seven map views.
//! - [`rules`]: starting armies, reinforcements, set values, dice.
//! - [`game`]: the engine, one [`game::Action`] at a time, every die logged.
//! - [`signup`]: player-count ranges and votes to start.
//! - [`file`]: WARxx.DAT and WARxx.REC, read and written byte for byte.
//! - [`game_file`]: games to files and back ([`game_file::save`]), sign-up files.
//! - [`daynum`]: the files' day numbers (days since 1 January 1985).
//! - [`days`]: when the game's event happened and each player last moved.
//! - [`random`]: a random player, for tests and `dip war bench`.
//! - [`svg`]: the schematic world map.
//!
//! No I/O; nothing panics on input; the same seed gives the same game.
//!
//! ```
//! use dip_war::{Action, Game, Options, Phase};
//! let opts = Options { teams: false, hidden_names: false, unlimited_fortifications: false };
//! let seats = vec![(1, "Ann".to_string()), (2, "Bob".to_string()), (3, "Cid".to_string())];
//! let mut g = Game::new(opts, seats, 7).unwrap();
//! // 14 countries each: 4 armies to place, all before attacking.
//! assert_eq!(g.pos.phase, Phase::Deploy { armies: 4, resume_attack: false });
//! assert!(g.apply(Action::EndTurn).is_err());
//! let mine = (1..=42).find(|&c| g.pos.owner[c as usize - 1] == 1).unwrap();
//! g.apply(Action::Deploy { country: mine, armies: 4 }).unwrap();
//! assert_eq!(g.pos.phase, Phase::Attack);
//! // A server stores the game after every action.
//! let stored = serde_json::to_string(&g).unwrap();
//! assert_eq!(serde_json::from_str::<Game>(&stored).unwrap(), g);
//! // And a file (a REC now: a turn is in progress).
//! let file = dip_war::save(&g, 1671.6039, &[]);
//! assert_eq!(file.extension(), "REC");
//! assert_eq!(dip_war::RecFile::parse(&file.to_bytes()).unwrap().to_position().unwrap().phase, Phase::Attack);
//! ```

#![forbid(unsafe_code)]

pub mod cp437;
pub mod daynum;
pub mod days;
pub mod file;
pub mod game;
pub mod game_file;
pub mod map;
pub mod random;
pub mod rng;
pub mod rules;
pub mod signup;
pub mod svg;

pub use file::{DatFile, FileError, RecFile};
pub use game::{Action, Event, Game, Options, Phase, Position, RuleError};
pub use game_file::{save, GameFile};
