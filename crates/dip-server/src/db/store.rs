//! The one store of a hosted game's play: the position it is in, each
//! power's orders of a phase and the phases played. The rest of the
//! server reads and writes them here as `State`s, powers and order lines;
//! the position format (docs/position-format.md) and the orders' JSON are
//! written and read in this file and nowhere else.
//!
//! A position is stored only once it reads back as the same position: a
//! position that would not (a power's name the reader takes for something
//! else) is refused when it is written, and the transaction that wrote it
//! rolls back, instead of a game that answers 500 from then on.

use super::{DbError, Tx};
use dip_core::{Map, Phase, PowerId, State};
use std::collections::BTreeMap;

/// A position as the `games`, `phases` and `edits` tables keep it. Made
/// only by [`Position::write`], which checks that it reads back, or from a
/// stored column; read with [`Position::read`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position(String);

impl Position {
    /// `state` in its stored form; an error when it would not read back
    /// as `state`.
    pub fn write(map: &Map, state: &State) -> Result<Position, DbError> {
        let text = dip_text::format_position(map, state);
        match dip_text::parse_position(map, &text, "position") {
            Ok(back) if back == *state => Ok(Position(text)),
            Ok(_) => Err(DbError::Stored(format!(
                "the position of {} would read back as another position; not stored:\n{text}",
                state.phase
            ))),
            Err(e) => Err(DbError::Stored(format!(
                "the position of {} would not read back ({e}); not stored:\n{text}",
                state.phase
            ))),
        }
    }

    /// The position stored.
    pub fn read(&self, map: &Map) -> Result<State, DbError> {
        dip_text::parse_position(map, &self.0, "stored position").map_err(|e| DbError::Stored(e.to_string()))
    }

    /// Only the phase (a list of games needs no more): read from the
    /// `phase` line alone when there is one.
    pub fn phase(&self, map: &Map) -> Result<Phase, DbError> {
        match self.0.lines().find_map(|l| l.strip_prefix("phase ")) {
            Some(p) => dip_text::position::parse_phase(p).map_err(|e| DbError::Stored(format!("stored position: {e}"))),
            None => Ok(self.read(map)?.phase),
        }
    }

    /// A stored column's text, as it was written.
    pub(super) fn column(text: String) -> Position {
        Position(text)
    }

    pub(super) fn text(&self) -> &str {
        &self.0
    }
}

/// One processed phase as stored: the position it began in, each power's
/// order lines, the results (JSON, as the API shows them) and the report.
pub struct PlayedPhase {
    pub index: i64,
    pub phase: String,
    pub position: Position,
    /// Each power's order lines, by power name.
    pub orders: BTreeMap<String, Vec<String>>,
    pub results: serde_json::Value,
    pub report: String,
    pub processed: i64,
    pub processed_by: String,
}

impl PlayedPhase {
    /// The position the phase began in.
    pub fn state(&self, map: &Map) -> Result<State, DbError> {
        self.position.read(map)
    }
}

/// A phase just processed, to be stored.
pub struct NewPhase<'a> {
    pub index: i64,
    /// The position it began in (as the game's row held it).
    pub position: &'a Position,
    pub state: &'a State,
    pub orders: &'a BTreeMap<String, Vec<String>>,
    pub results: &'a serde_json::Value,
    pub report: &'a str,
    pub processed: i64,
    pub processed_by: &'a str,
}

/// A game's play in storage, on its variant's map.
pub struct GameStore<'m> {
    id: i64,
    map: &'m Map,
}

fn lines_json(lines: &[String]) -> Result<String, DbError> {
    serde_json::to_string(lines).map_err(|e| DbError::Stored(e.to_string()))
}

impl<'m> GameStore<'m> {
    pub fn new(id: i64, map: &'m Map) -> GameStore<'m> {
        GameStore { id, map }
    }

    /// A new game, forming, in `start`; its id.
    pub fn create(tx: &mut dyn Tx, map: &Map, game: &super::games::NewGame, start: &State) -> Result<i64, DbError> {
        let position = Position::write(map, start)?;
        super::games::insert(tx, game, &position)
    }

    /// The game's position now, replaced (a game master's edit); the
    /// edit's lines are kept with the position before it.
    pub fn edit(
        &self,
        tx: &mut dyn Tx,
        phase_index: i64,
        before: &Position,
        after: &State,
        lines: &[String],
        now: i64,
    ) -> Result<(), DbError> {
        let position = Position::write(self.map, after)?;
        super::games::set_position(tx, self.id, &position)?;
        super::edits::insert(
            tx,
            self.id,
            phase_index,
            &after.phase.short(),
            &lines_json(lines)?,
            before,
            now,
        )
    }

    /// The phase was processed: the game is in `next`, phase `phase_index`,
    /// until `deadline`.
    pub fn advance(
        &self,
        tx: &mut dyn Tx,
        phase_index: i64,
        next: &State,
        deadline: Option<i64>,
    ) -> Result<(), DbError> {
        let position = Position::write(self.map, next)?;
        super::games::advance(tx, self.id, phase_index, &position, deadline)
    }

    /// Stores (or replaces) `power`'s order lines of a phase.
    pub fn store_orders(
        &self,
        tx: &mut dyn Tx,
        phase_index: i64,
        power: PowerId,
        lines: &[String],
        now: i64,
    ) -> Result<(), DbError> {
        let name = &self.map.power(power).name;
        super::orders::store(tx, self.id, phase_index, name, &lines_json(lines)?, now)
    }

    /// `power`'s order lines of a phase, if it sent any.
    pub fn orders_of(&self, tx: &mut dyn Tx, phase_index: i64, power: PowerId) -> Result<Option<Vec<String>>, DbError> {
        let name = &self.map.power(power).name;
        super::orders::of_power(tx, self.id, phase_index, name)?
            .map(|t| self.read_lines(name, &t))
            .transpose()
    }

    /// Every power's order lines of a phase, by power (stored under a
    /// name the map does not know: left out).
    pub fn orders(&self, tx: &mut dyn Tx, phase_index: i64) -> Result<Vec<(PowerId, Vec<String>)>, DbError> {
        let mut out = Vec::new();
        for (name, text) in super::orders::of_phase(tx, self.id, phase_index)? {
            let Some(p) = self.map.find_power(&name) else { continue };
            out.push((p, self.read_lines(&name, &text)?));
        }
        Ok(out)
    }

    fn read_lines(&self, power: &str, text: &str) -> Result<Vec<String>, DbError> {
        serde_json::from_str(text)
            .map_err(|e| DbError::Stored(format!("game {}: stored orders of {power}: {e}", self.id)))
    }

    /// Stores a processed phase.
    pub fn record_phase(&self, tx: &mut dyn Tx, p: &NewPhase) -> Result<(), DbError> {
        let orders = serde_json::to_string(p.orders).map_err(|e| DbError::Stored(e.to_string()))?;
        super::phases::insert(
            tx,
            self.id,
            &super::phases::PhaseRow {
                index: p.index,
                phase: p.state.phase.short(),
                kind: format!("{:?}", p.state.phase.kind).to_lowercase(),
                position: p.position.clone(),
                orders,
                results: p.results.to_string(),
                report: p.report.to_string(),
                processed: p.processed,
                processed_by: p.processed_by.to_string(),
            },
        )
    }

    /// The game's processed phases, oldest first.
    pub fn phases(&self, tx: &mut dyn Tx) -> Result<Vec<PlayedPhase>, DbError> {
        super::phases::all(tx, self.id)?
            .into_iter()
            .map(|r| self.played(r))
            .collect()
    }

    /// The last phase processed, if any.
    pub fn last_phase(&self, tx: &mut dyn Tx) -> Result<Option<PlayedPhase>, DbError> {
        super::phases::last(tx, self.id)?.map(|r| self.played(r)).transpose()
    }

    /// A phase's row read: orders or results that are not JSON are an
    /// error (they were read as none once).
    fn played(&self, r: super::phases::PhaseRow) -> Result<PlayedPhase, DbError> {
        let bad = |what: &str, e: serde_json::Error| {
            DbError::Stored(format!("game {}, phase {}: stored {what}: {e}", self.id, r.phase))
        };
        Ok(PlayedPhase {
            orders: serde_json::from_str(&r.orders).map_err(|e| bad("orders", e))?,
            results: serde_json::from_str(&r.results).map_err(|e| bad("results", e))?,
            index: r.index,
            phase: r.phase,
            position: r.position,
            report: r.report,
            processed: r.processed,
            processed_by: r.processed_by,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;

    fn db() -> (Db, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("dip-store-{}-{}", std::process::id(), fastrand::u64(..)));
        std::fs::create_dir_all(&dir).unwrap();
        (Db::sqlite(&dir.join("dip.sqlite")).unwrap(), dir)
    }

    fn new_game(tx: &mut dyn Tx, map: &Map, start: &State) -> Result<i64, DbError> {
        let creator = crate::db::accounts::insert(tx, "gm", "gm", "gm", "hash", 0)?;
        let g = crate::db::games::NewGame {
            name: "stored",
            variant: &map.name,
            creator,
            options: r#"{"players":{"min":1,"max":2},"deadlines":{"movement":null,"retreat":null,"adjustment":null},"press":"full","anonymous":false,"daide":false,"assignment":"choice","civil_disorder_after":3}"#,
            now: 0,
        };
        GameStore::create(tx, map, &g, start)
    }

    fn stored_state(tx: &mut dyn Tx, map: &Map, id: i64) -> State {
        crate::db::games::load(tx, id, false)
            .unwrap()
            .unwrap()
            .position
            .read(map)
            .unwrap()
    }

    /// Chaos's power "St Petersburg" building in St Petersburg: the server
    /// stored `St Petersburg: A stp`, which did not read back, and every
    /// request on the game answered 500 after it. Stored through the game
    /// store, the position reads back as it was.
    #[test]
    fn a_power_named_like_a_province_is_stored_and_read_back() {
        let variants = dip_play::Variants::bundled_only();
        let loaded = variants.get("chaos").unwrap();
        let map = loaded.map();
        let stp = map.find_power("St Petersburg").unwrap();
        let mut next = loaded.variant().start.clone();
        next.phase = "W1901A".parse().unwrap();
        let province = map.find_province("stp").unwrap();
        let region = map.province(province).regions[0];
        next.place(
            map,
            dip_core::Unit {
                power: stp,
                kind: map.find_unit_type("A").unwrap(),
                region,
            },
        );
        let (db, dir) = db();
        db.transaction(|tx| -> Result<(), DbError> {
            let id = new_game(tx, map, &loaded.variant().start)?;
            assert_eq!(stored_state(tx, map, id), loaded.variant().start);
            GameStore::new(id, map).advance(tx, 1, &next, None)?;
            assert_eq!(stored_state(tx, map, id), next);
            Ok(())
        })
        .unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A position the reader takes for another: an army standing on a
    /// coast (`Russia: A stp/sc`, which reads back as `A stp`). It is
    /// refused when written, and the game keeps the position it had.
    #[test]
    fn a_position_that_does_not_read_back_is_refused_when_written() {
        let variant = dip_variants::standard();
        let map = &variant.map;
        let russia = map.find_power("Russia").unwrap();
        let stp = map.find_province("stp").unwrap();
        let south_coast = map.regions_for(stp, map.find_unit_type("F").unwrap()).last().unwrap();
        assert_eq!(map.region_name(south_coast), "stp/sc");
        let mut next = variant.start.clone();
        next.remove(stp);
        next.place(
            map,
            dip_core::Unit {
                power: russia,
                kind: map.find_unit_type("A").unwrap(),
                region: south_coast,
            },
        );
        let e = Position::write(map, &next).unwrap_err();
        assert!(e.to_string().contains("not stored"), "{e}");
        let (db, dir) = db();
        let id = db.transaction(|tx| new_game(tx, map, &variant.start)).unwrap();
        let r = db.transaction(|tx| GameStore::new(id, map).advance(tx, 1, &next, None));
        assert!(matches!(r, Err(DbError::Stored(_))), "{:?}", r.err());
        db.read(|tx| -> Result<(), DbError> {
            assert_eq!(stored_state(tx, map, id), variant.start);
            Ok(())
        })
        .unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }
}
