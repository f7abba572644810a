//! Hosted Global War (crate dip-war) in `dip serve`: sign-up with votes,
//! turns in seat order, the game stored after every action so that a
//! closed browser or a killed server resumes the turn where it stopped,
//! turn time limits that roll an unfinished turn back, WARxx.DAT/REC
//! import and export, completion and auto-deletion (docs/api.md).
//!
//! - [`signup`]; create, join (team passwords), leave, vote, start.
//! - [`turn`]; one action of the player to move; time-outs and deletions.
//! - [`files`]; WARxx.DAT/REC in and out.
//! - [`view`]; the JSON a player sees.
//! - [`routes`]; `/api/v1/war/…`.

pub mod files;
pub mod routes;
pub mod signup;
pub mod turn;
pub mod view;

use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use dip_war::signup::Range;
use dip_war::Game;
use serde::{Deserialize, Serialize};

/// What the creator chose (stored as JSON in `war_games.options`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarOptions {
    pub players: Range,
    pub teams: bool,
    pub hidden_names: bool,
    pub unlimited_fortifications: bool,
    /// The three team passwords of a team game (empty otherwise).
    pub passwords: Vec<String>,
    /// A turn's time limit in milliseconds.
    pub time_limit: Option<i64>,
    /// How long a completed game is kept before it is deleted (ms).
    pub keep: i64,
    /// The dice's seed.
    pub seed: u64,
}

/// A seed nobody can foresee: from the operating system's generator
/// (fastrand's state could be worked out from the other numbers it gives).
pub fn secret_seed() -> u64 {
    use rand_core::RngCore;
    rand_core::OsRng.next_u64()
}

/// The seed a game made over the API plays: the one asked for only where
/// the server allows it ([`crate::AppState::war_exact_seeds`]), else a
/// secret one, so that a player who reuses a seed, even on the same
/// server, sees another deal and other dice.
pub fn seed_for_api(st: &crate::AppState, asked: Option<u64>) -> Option<u64> {
    match asked {
        Some(s) if st.war_exact_seeds => Some(s),
        _ => Some(secret_seed()),
    }
}

impl WarOptions {
    pub fn engine(&self) -> dip_war::Options {
        dip_war::Options {
            teams: self.teams,
            hidden_names: self.hidden_names,
            unlimited_fortifications: self.unlimited_fortifications,
        }
    }
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarStatus {
    Signup,
    Active,
    Completed,
    /// Deleted after completion: only its archived export is left.
    Deleted,
}

impl WarStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            WarStatus::Signup => "signup",
            WarStatus::Active => "active",
            WarStatus::Completed => "completed",
            WarStatus::Deleted => "deleted",
        }
    }
    pub(crate) fn parse(s: &str) -> WarStatus {
        match s {
            "active" => WarStatus::Active,
            "completed" => WarStatus::Completed,
            "deleted" => WarStatus::Deleted,
            _ => WarStatus::Signup,
        }
    }
}

/// A stored game.
#[derive(Clone, Debug)]
pub struct WarRow {
    pub id: i64,
    pub name: String,
    pub creator: i64,
    pub status: WarStatus,
    pub options: WarOptions,
    pub game: Option<Game>,
    /// When the turn in progress times out.
    pub deadline: Option<i64>,
    /// Actions (and time-outs) since the game began or was imported.
    pub actions: i64,
    /// The imported file's bytes, exported as they were until a move.
    pub original: Option<Vec<u8>>,
    /// The export kept after completion and deletion.
    pub archive: Option<Vec<u8>>,
    pub created: i64,
    pub finished: Option<i64>,
    pub delete_at: Option<i64>,
}

impl WarRow {
    /// The game of an active or completed row.
    pub fn game(&self) -> ApiResult<&Game> {
        self.game.as_ref().ok_or_else(|| match self.status {
            WarStatus::Signup => ApiError::conflict("the game is still in sign-up"),
            WarStatus::Deleted => ApiError::new(
                axum::http::StatusCode::GONE,
                "gone",
                "the game was deleted after its end; only its export is kept",
            ),
            _ => ApiError::internal(format!("war game {}: no stored game", self.id)),
        })
    }
}

/// Loads a game; `lock` keeps the row this transaction's (PostgreSQL).
pub fn load(tx: &mut dyn Tx, id: i64, lock: bool) -> ApiResult<WarRow> {
    crate::db::war::load(tx, id, lock)?.ok_or_else(|| ApiError::not_found(format!("no Global War game {id}")))
}

/// Stores the game after an action.
pub fn store(tx: &mut dyn Tx, row: &WarRow) -> ApiResult<()> {
    Ok(crate::db::war::store(tx, row)?)
}

/// A seat taken by an account.
#[derive(Clone, Debug)]
pub struct Seat {
    pub seat: u8,
    pub account_id: i64,
    pub name: String,
    pub vote: bool,
    /// When the seat was taken (Unix ms).
    pub joined: i64,
}

pub fn seats(tx: &mut dyn Tx, id: i64) -> ApiResult<Vec<Seat>> {
    Ok(crate::db::war::seats(tx, id)?)
}

/// The seat of an account in a game.
pub fn seat_of(seats: &[Seat], account: i64) -> Option<u8> {
    seats.iter().find(|s| s.account_id == account).map(|s| s.seat)
}

/// Files are stored as hexadecimal text (both databases keep TEXT alike).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn unhex(text: &str) -> Result<Vec<u8>, String> {
    let t = text.as_bytes();
    if !t.len().is_multiple_of(2) {
        return Err("odd length".into());
    }
    t.chunks(2)
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
                .ok_or_else(|| "not hexadecimal".to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_round_trip() {
        let b: Vec<u8> = (0..=255).collect();
        assert_eq!(super::unhex(&super::hex(&b)).unwrap(), b);
        assert!(super::unhex("abc").is_err() && super::unhex("zz").is_err());
    }
}
