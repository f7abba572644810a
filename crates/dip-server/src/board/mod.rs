//! The board: DIP's program in the browser (docs/board.md). One person at
//! one map orders for every power, resolves each stage, steps through the
//! history, edits the position and opens and saves files.
//!
//! A [`Board`] is a kernel [`Game`] (dip-play: the position, the orders
//! submitted, the phases played, rewinding with one undo) plus what DIP
//! keeps beside it: the title, the players' names, whether the season is
//! finished, and the file it came from. [`Boards`] holds boards in memory
//! (`dip board`, and anonymous boards under `dip serve`); a signed-in
//! user's boards are also written to storage after every change
//! (`kept`). `routes` is the HTTP side; the page is `web/board.rs` and
//! `assets/board.js`.

pub mod edit;
pub mod files;
pub mod kept;
pub mod orders;
pub mod render;
pub mod routes;
pub mod view;

use dip_core::{PhaseKind, PowerId, State};
use dip_play::{Game, Variants};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A board's error: a message for the user (a line of a file, an order
/// that cannot be read, a save refused), never a panic.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BoardError(pub String);

impl BoardError {
    pub fn new(m: impl Into<String>) -> BoardError {
        BoardError(m.into())
    }
}

pub type BoardResult<T> = Result<T, BoardError>;

/// DIP's stages of a season (its Game menu): the phase to order, or the
/// season finished, waiting for Next season.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Moves,
    Retreats,
    Adjustments,
    Finished,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Moves => "moves",
            Stage::Retreats => "retreats",
            Stage::Adjustments => "adjustments",
            Stage::Finished => "finished",
        }
    }
    pub fn parse(s: &str) -> Option<Stage> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "moves" | "movement" => Stage::Moves,
            "retreats" | "retreat" => Stage::Retreats,
            "adjustments" | "adjustment" | "builds" => Stage::Adjustments,
            "finished" | "season finished" => Stage::Finished,
            _ => return None,
        })
    }
    pub fn of_kind(k: PhaseKind) -> Stage {
        match k {
            PhaseKind::Movement => Stage::Moves,
            PhaseKind::Retreat => Stage::Retreats,
            PhaseKind::Adjustment => Stage::Adjustments,
        }
    }
}

/// How many changes Undo can take back (besides a rewind, which the
/// kernel keeps itself).
const UNDO_DEPTH: usize = 20;

/// One board.
#[derive(Clone)]
pub struct Board {
    pub game: Game,
    /// DIP's title (Edit title); empty: the variant's.
    pub title: String,
    /// DIP's player names (Edit names), by power name.
    pub names: BTreeMap<String, String>,
    /// DIP's "season finished": the last stage of a season was resolved,
    /// and nothing is ordered until Next season.
    pub finished: bool,
    /// The file the board was opened from or last saved as (a name in
    /// the local board's folder), for Save.
    pub file: Option<String>,
    /// That file's format.
    pub format: Option<files::Format>,
    /// A signed-in user's board under `dip serve`: whose it is, and its
    /// read-only link's token. `None`: anyone with its address may use it.
    pub keeper: Option<Keeper>,
    /// Bumped by every change (orders too): answers are shown in order.
    pub version: u64,
    /// Bumped by every change the map shows (not by orders entered,
    /// which the page draws itself): the page asks for a new map then.
    pub picture: u64,
    /// The last stage's results are drawn over the position: from
    /// Resolve until Next season (DIP cleared the season's text then).
    pub show_results: bool,
    undo: Vec<Snapshot>,
}

/// Who keeps a board (`dip serve`, signed in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keeper {
    /// The owner's account id.
    pub owner: i64,
    /// The token of its read-only link (`/board/shared/{token}`).
    pub share: String,
}

/// What Undo restores.
#[derive(Clone)]
struct Snapshot {
    game: Game,
    title: String,
    names: BTreeMap<String, String>,
    finished: bool,
    show_results: bool,
}

impl Board {
    pub fn new(game: Game) -> Board {
        Board {
            game,
            title: String::new(),
            names: BTreeMap::new(),
            finished: false,
            file: None,
            format: None,
            keeper: None,
            version: 1,
            picture: 1,
            show_results: false,
            undo: Vec::new(),
        }
    }

    pub fn stage(&self) -> Stage {
        if self.finished {
            Stage::Finished
        } else {
            Stage::of_kind(self.game.state().phase.kind)
        }
    }

    /// The title shown: DIP's own, else the variant's.
    pub fn shown_title(&self) -> String {
        if self.title.trim().is_empty() {
            self.game.variant().title.clone()
        } else {
            self.title.clone()
        }
    }

    /// Keeps the board as it is for Undo, before a change.
    pub fn remember(&mut self) {
        if self.undo.len() == UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.undo.push(Snapshot {
            game: self.game.clone(),
            title: self.title.clone(),
            names: self.names.clone(),
            finished: self.finished,
            show_results: self.show_results,
        });
    }

    /// A change the map shows was made.
    pub fn changed(&mut self) {
        self.version += 1;
        self.picture += 1;
    }

    /// Orders were entered or deleted (the page draws them itself).
    pub fn ordered(&mut self) {
        self.version += 1;
    }

    /// Nothing to undo (a board just made or opened).
    pub fn forget_undo(&mut self) {
        self.undo.clear();
    }

    pub fn can_undo(&self) -> bool {
        self.game.can_undo_rewind() || !self.undo.is_empty()
    }

    /// Undo: a rewind first (the phases it cut come back, and what was
    /// played since goes), else the last change.
    pub fn undo(&mut self) -> BoardResult<()> {
        if self.game.undo_rewind() {
            // Back where the rewind was made: the season as it stood.
            let h = self.game.history();
            let (now, last) = (self.game.state().phase, h.last().map(|p| p.state.phase));
            self.finished = last.is_some_and(|l| (l.year, l.season) != (now.year, now.season));
            self.show_results = last.is_some();
        } else {
            let s = self.undo.pop().ok_or_else(|| BoardError::new("nothing to undo"))?;
            self.game = s.game;
            self.title = s.title;
            self.names = s.names;
            self.finished = s.finished;
            self.show_results = s.show_results;
        }
        self.changed();
        Ok(())
    }

    /// Goes back to the played phase `at` (its position and orders are the
    /// board's again; the later phases are kept for Undo) when `at` is an
    /// earlier phase.
    pub fn rewind_to(&mut self, at: Option<usize>) -> BoardResult<()> {
        let Some(at) = at else { return Ok(()) };
        let n = self.game.history().len();
        if at >= n {
            return Err(BoardError::new(format!(
                "no played phase {} (the board has {n})",
                at + 1
            )));
        }
        self.game.rewind(at);
        self.finished = false;
        self.show_results = false;
        self.changed();
        Ok(())
    }

    /// Resolve: plays the stage the board is in. After the last stage of
    /// a season the season is finished (DIP's "Season finished").
    pub fn resolve(&mut self) -> BoardResult<()> {
        if self.finished {
            return Err(BoardError::new(
                "the season is finished: Next season goes on to the next one",
            ));
        }
        self.remember();
        let before = self.game.state().phase;
        self.game.process();
        let after = self.game.state().phase;
        self.finished = after.year != before.year || after.season != before.season;
        self.show_results = true;
        self.changed();
        Ok(())
    }

    /// Next season (DIP): the finished season's results are put away and
    /// the moves of the next season are entered. The file name is cleared,
    /// as DIP did, so that a season is not saved over the one before.
    pub fn next_season(&mut self) -> BoardResult<()> {
        if !self.finished {
            return Err(BoardError::new(format!(
                "the season is not finished: resolve the {} first",
                self.stage().name()
            )));
        }
        self.finished = false;
        self.show_results = false;
        self.file = None;
        self.changed();
        Ok(())
    }

    /// Replaces the position (an edit), keeping the history.
    pub fn set_state(&mut self, state: State) {
        self.game.set_state(state);
        self.changed();
    }

    /// The power named (by name, abbreviation or adjective).
    pub fn power(&self, name: &str) -> BoardResult<PowerId> {
        let map = self.game.map();
        map.powers()
            .iter()
            .position(|p| p.name == name)
            .map(|i| PowerId(i as u8))
            .or_else(|| map.find_power(name))
            .ok_or_else(|| BoardError::new(format!("no power `{name}` in {}", self.game.variant().title)))
    }
}

/// Limits of the boards one process holds in memory.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Boards held at once; the least recently used goes first.
    pub boards: usize,
    /// A board not used for this long is dropped.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            boards: 200,
            idle: Duration::from_secs(24 * 3600),
        }
    }
}

/// Where a board's state-changing requests come from and what it may do
/// on this machine: `dip board` has a folder for saves; `dip serve` has
/// none and offers only downloads.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// `dip board`: the folder Save writes into (never outside it).
    pub folder: Option<PathBuf>,
    /// The token every state-changing request of the local board carries
    /// (`X-CSRF-Token`), which only its own page knows.
    pub token: String,
    /// The server may read variant files named by uploads (the local
    /// board); `dip serve` plays bundled variants only.
    pub local: bool,
}

/// A board held, locked while a request uses it (a change of a kept board
/// is written to storage before the lock is let go).
pub type Shared = Arc<tokio::sync::Mutex<Board>>;

struct Held {
    board: Shared,
    used: Instant,
}

/// The boards of this process, by id, and the variants they play.
#[derive(Clone)]
pub struct Boards {
    inner: Arc<Mutex<HashMap<String, Held>>>,
    pub variants: Variants,
    /// The variants' pictures, drawn once each.
    pub pictures: render::Pictures,
    pub settings: Arc<Settings>,
    limits: Limits,
}

impl Boards {
    pub fn new(variants: Variants, settings: Settings, limits: Limits) -> Boards {
        Boards {
            inner: Arc::default(),
            variants,
            pictures: render::Pictures::default(),
            settings: Arc::new(settings),
            limits,
        }
    }

    /// A new id: 128 bits from the system's random source, which are
    /// also what lets one in (an anonymous board is reached only through
    /// its address).
    pub fn new_id() -> String {
        new_token()
    }

    /// Adds a board; returns its id.
    pub fn insert(&self, board: Board) -> String {
        let id = Boards::new_id();
        self.insert_as(&id, board);
        id
    }

    /// Adds (or replaces) the board under `id`.
    pub fn insert_as(&self, id: &str, board: Board) -> Shared {
        let mut map = self.lock();
        let now = Instant::now();
        map.retain(|_, h| now.duration_since(h.used) < self.limits.idle);
        while map.len() >= self.limits.boards {
            let Some(oldest) = map.iter().min_by_key(|(_, h)| h.used).map(|(k, _)| k.clone()) else {
                break;
            };
            map.remove(&oldest);
        }
        let b = Arc::new(tokio::sync::Mutex::new(board));
        map.insert(
            id.to_string(),
            Held {
                board: b.clone(),
                used: now,
            },
        );
        b
    }

    /// The board under `id`, if this process holds it.
    pub fn get(&self, id: &str) -> Option<Shared> {
        let mut map = self.lock();
        let h = map.get_mut(id)?;
        h.used = Instant::now();
        Some(h.board.clone())
    }

    pub fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A board at the start of a variant (a bundled name; locally also a
    /// file or folder of any variant format, or a jDip plugin's variant).
    pub fn start(&self, variant: &str) -> BoardResult<Board> {
        let loaded = self.variant(variant)?;
        Ok(Board::new(Game::new(loaded)))
    }

    /// A variant the board may play.
    pub fn variant(&self, name: &str) -> BoardResult<Arc<dip_play::Loaded>> {
        self.variants.get(name).map_err(|e| BoardError::new(e.to_string()))
    }
}

/// 128 bits from the system's random source, as 32 hex digits.
pub fn new_token() -> String {
    use rand_core::{OsRng, RngCore};
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
