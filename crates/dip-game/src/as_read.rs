//! Orders already read (a record's, a DIP season file's, an orders file
//! `dip adjudicate` or `dip render` read) played through dip-play's
//! [`Game`], the one pipeline: as read, each order judged by the
//! adjudicator, as [`crate::replay`] plays MILA's.

use dip_core::{Map, Order, Ruleset, State};
use dip_play::{Game, Loaded, PlayOptions, Played};
use dip_text::{format_order, Style};
use dip_variants::Variant;
use std::sync::Arc;

/// What orders already read are played on: a shared variant as it is
/// (the server's and the board's, from dip-play's `Variants`), or a map
/// alone, made into a variant of its own for the call (its words do not
/// matter: the orders are read).
pub trait PlayedOn {
    fn map(&self) -> &Map;
    /// The variant a [`Game`] plays on.
    fn shared(&self) -> Arc<Loaded>;
}

impl PlayedOn for Arc<Loaded> {
    fn map(&self) -> &Map {
        Loaded::map(self)
    }
    fn shared(&self) -> Arc<Loaded> {
        self.clone()
    }
}

impl PlayedOn for Map {
    fn map(&self) -> &Map {
        self
    }
    fn shared(&self) -> Arc<Loaded> {
        Arc::new(Loaded::new(Arc::new(Variant::of_map(self.clone()))))
    }
}

/// A game that plays given positions on given orders.
pub struct AsRead {
    game: Game,
}

impl AsRead {
    /// On `loaded`'s map, by `rules`.
    pub fn new(loaded: Arc<Loaded>, rules: Ruleset) -> AsRead {
        let game = Game::new(loaded).with_rules(rules).with_options(PlayOptions {
            as_read: true,
            ..PlayOptions::default()
        });
        AsRead { game }
    }

    /// On a shared variant, or on a map alone ([`PlayedOn`]).
    pub fn on(on: &(impl PlayedOn + ?Sized), rules: Ruleset) -> AsRead {
        AsRead::new(on.shared(), rules)
    }

    /// Plays `orders` from `state`: the phase's outcome and the next
    /// position.
    pub fn play(&mut self, state: &State, orders: &[Order]) -> &Played {
        self.game.set_state(state.clone());
        let map = self.game.map();
        let texts: Vec<String> = orders.iter().map(|o| format_order(map, o, Style::Datc)).collect();
        self.game
            .submit_read(texts.iter().map(String::as_str).zip(orders.iter().copied()));
        self.game.process()
    }
}
