//! A game written down and read back exactly: the rules, the options, the
//! position (in the position format, docs/position-format.md), the orders
//! submitted as their texts (and, for lines read elsewhere, the lines as
//! read: [`crate::stored_line`]), and each played phase as its position and
//! the orders it was played from. Reading plays the phases again, so the
//! outcomes, reports and checks are those the game had (the engine is
//! deterministic); the property tests say so for every bundled variant.

use crate::game::{Game, PlayOptions};
use crate::stored_line::{power_named, read_line, write_line, StoredLine};
use crate::variants::{Loaded, Variants};
use dip_core::Ruleset;
use dip_text::{format_position, parse_position, CheckOptions};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A stored game that cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stored game: {0}")]
pub struct StoredError(pub String);

/// The written form (JSON): one object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredGame {
    /// The variant's name ([`Variants::get`] finds it).
    pub variant: String,
    /// The rules as [`Ruleset::to_text`] writes them.
    pub rules: String,
    #[serde(default)]
    pub options: StoredOptions,
    /// The position now.
    pub state: String,
    /// The orders submitted for it.
    #[serde(default)]
    pub orders: Vec<StoredOrders>,
    /// A DipWork turn is in progress (`carry_lines`): the next phase reads
    /// what is left of the last phase's orders, which are `orders`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub continues_turn: bool,
    /// The phases played, oldest first.
    #[serde(default)]
    pub history: Vec<StoredPhase>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOptions {
    #[serde(default)]
    pub nsu_checking_off: bool,
    #[serde(default)]
    pub allow_foreign: bool,
    #[serde(default)]
    pub suggest_retreats: bool,
    #[serde(default)]
    pub carry_lines: bool,
    #[serde(default)]
    pub two_phase_retreats: bool,
    #[serde(default)]
    pub as_read: bool,
}

/// One submission: the power's name (none for a game master's text) and
/// the text as given; the lines as read when they were read elsewhere
/// ([`Game::submit_lines`]), which the text alone would not give again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOrders {
    #[serde(default)]
    pub power: Option<String>,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<StoredLine>>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One played phase: the position it was played from and its orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredPhase {
    pub state: String,
    #[serde(default)]
    pub orders: Vec<StoredOrders>,
    /// A later phase of a DipWork turn: it read the turn's lines.
    #[serde(default)]
    pub continues_turn: bool,
}

impl From<PlayOptions> for StoredOptions {
    fn from(o: PlayOptions) -> StoredOptions {
        StoredOptions {
            nsu_checking_off: o.check.nsu_checking_off,
            allow_foreign: o.check.allow_foreign,
            suggest_retreats: o.suggest_retreats,
            carry_lines: o.carry_lines,
            two_phase_retreats: o.two_phase_retreats,
            as_read: o.as_read,
        }
    }
}

impl From<StoredOptions> for PlayOptions {
    fn from(o: StoredOptions) -> PlayOptions {
        PlayOptions {
            check: CheckOptions {
                nsu_checking_off: o.nsu_checking_off,
                allow_foreign: o.allow_foreign,
            },
            suggest_retreats: o.suggest_retreats,
            carry_lines: o.carry_lines,
            two_phase_retreats: o.two_phase_retreats,
            as_read: o.as_read,
        }
    }
}

fn orders_of(game: &Game, subs: &[crate::game::Submission]) -> Vec<StoredOrders> {
    subs.iter()
        .map(|s| StoredOrders {
            power: s.power.map(|p| game.map().power(p).name.clone()),
            text: s.text.clone(),
            lines: s
                .given
                .then(|| s.lines.iter().map(|l| write_line(game.map(), l)).collect()),
        })
        .collect()
}

fn submit(game: &mut Game, orders: &[StoredOrders]) -> Result<(), StoredError> {
    for o in orders {
        match (&o.lines, &o.power) {
            (Some(lines), _) => {
                let map = game.map();
                let lines = lines.iter().map(|l| read_line(map, l)).collect::<Result<_, _>>()?;
                game.submit_lines(&o.text, lines);
            }
            (None, Some(name)) => {
                let p = power_named(game.map(), name).map_err(StoredError)?;
                game.submit(p, &o.text);
            }
            (None, None) => {
                game.submit_any(&o.text);
            }
        }
    }
    Ok(())
}

impl Game {
    /// The game written down ([`Game::from_stored`] reads it back).
    pub fn to_stored(&self) -> StoredGame {
        let map = self.map();
        StoredGame {
            variant: self.variant().name.clone(),
            rules: self.rules().to_text(),
            options: (*self.options()).into(),
            state: format_position(map, self.state()),
            orders: orders_of(self, self.submissions()),
            continues_turn: self.turn_in_progress(),
            history: self
                .history()
                .iter()
                .map(|p| StoredPhase {
                    state: format_position(map, &p.state),
                    orders: orders_of(self, &p.submissions),
                    continues_turn: p.continues_turn,
                })
                .collect(),
        }
    }

    /// As JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.to_stored()).unwrap_or_default()
    }

    /// A stored game, played again phase by phase on `loaded`.
    pub fn from_stored(loaded: Arc<Loaded>, stored: &StoredGame) -> Result<Game, StoredError> {
        let map = loaded.map();
        let read = |text: &str, what: &str| parse_position(map, text, what).map_err(|e| StoredError(e.to_string()));
        let rules = Ruleset::parse(&stored.rules).map_err(|e| StoredError(format!("rules: {e}")))?;
        let state = read(&stored.state, "state")?;
        let mut game = Game::from_state(loaded.clone(), state.clone())
            .with_rules(rules)
            .with_options(stored.options.into());
        for (i, phase) in stored.history.iter().enumerate() {
            if !phase.continues_turn {
                game.set_state(read(&phase.state, &format!("phase {}", i + 1))?);
                submit(&mut game, &phase.orders)?;
            }
            game.process();
        }
        if stored.continues_turn {
            // The replay left the game where it was: in the turn, with
            // its orders.
            if game.state() != &state || orders_of(&game, game.submissions()) != stored.orders {
                return Err(StoredError(
                    "the turn in progress does not lead to the stored position and orders".into(),
                ));
            }
            return Ok(game);
        }
        game.set_state(state);
        submit(&mut game, &stored.orders)?;
        Ok(game)
    }

    /// A game from its JSON, its variant found in `variants`.
    pub fn from_json(variants: &Variants, json: &str) -> Result<Game, StoredError> {
        let stored: StoredGame = serde_json::from_str(json).map_err(|e| StoredError(e.to_string()))?;
        let loaded = variants.get(&stored.variant).map_err(|e| StoredError(e.to_string()))?;
        Game::from_stored(loaded, &stored)
    }
}
