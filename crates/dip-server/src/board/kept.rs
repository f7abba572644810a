//! Boards kept in the server's storage: a signed-in user's boards under
//! `dip serve`, written after every change and read back when the server
//! restarts. A board is written as the kernel's stored game (which reads
//! back exactly) with what the board keeps beside it. The SQL is in
//! `db::boards`.

use super::{Board, BoardError, BoardResult, Boards};
use dip_play::{Game, StoredGame};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A kept board as written.
#[derive(Serialize, Deserialize)]
struct Written {
    game: StoredGame,
    #[serde(default)]
    title: String,
    #[serde(default)]
    names: BTreeMap<String, String>,
    #[serde(default)]
    finished: bool,
    #[serde(default)]
    show_results: bool,
}

/// The board as JSON.
pub fn to_json(board: &Board) -> String {
    serde_json::to_string(&Written {
        game: board.game.to_stored(),
        title: board.title.clone(),
        names: board.names.clone(),
        finished: board.finished,
        show_results: board.show_results,
    })
    .unwrap_or_default()
}

/// A board read back (its variant one of the server's).
pub fn from_json(boards: &Boards, json: &str) -> BoardResult<Board> {
    let w: Written = serde_json::from_str(json).map_err(|e| BoardError::new(format!("a kept board: {e}")))?;
    let loaded = boards.variant(&w.game.variant)?;
    let game = Game::from_stored(loaded, &w.game).map_err(|e| BoardError::new(e.to_string()))?;
    let mut b = Board::new(game);
    b.title = w.title;
    b.names = w.names;
    b.finished = w.finished;
    b.show_results = w.show_results;
    Ok(b)
}
