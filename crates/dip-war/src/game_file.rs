//! Games and their files: a [`Game`] written as the file the door would
//! have left (a WARxx.DAT between turns, a WARxx.REC in the middle of
//! one), the position a file holds, and the files of games in sign-up.
//!
//! What the files cannot hold, and what dip writes instead:
//! - the player to move: every living player's last-moved day, spaced so
//!   that the one to move moved longest ago ([`last_moved`]);
//! - moving in after a conquest: the least (as many as the dice thrown) is
//!   moved in, and the REC says "attacking";
//! - more than 5 commendations of a kind (after taking an eliminated
//!   player's, until they are turned in): the turn's start (its DAT, or the
//!   REC the game was resumed from); in
//!   a finished game (the winning conquest took the last player's): 5;
//! - a commendation earned by a player turning in the sets taken from an
//!   eliminated player (LastPlay 0 has no "earned"): it is lost.

use crate::days::{day, ticks, Days, Ticks};
use crate::file::{err, Country, DatFile, Doing, FileError, GameEvent, Kind, RecFile, Seat, Status, NAME_LENGTH};
use crate::game::{Action, Game, Options, Phase, Player, Position};
use crate::map::{self, View, COUNTRIES};
use crate::rules::Hand;
use crate::signup::{self, Range};

/// The most commendations of one kind a file holds (Cmd_General,
/// Cmd_King, Cmd_Queen: 1..5 in the door's documentation).
pub const MOST_OF_A_KIND: u8 = 5;

/// The step between players' last-moved days: 0.0001 day (8.64 s), the
/// smallest the file's four decimals keep.
pub const MOVED_STEP: f64 = 0.0001;

/// The line of the first team password in a DAT file.
pub const PASSWORD_LINE: usize = 124;

/// A game's file.
#[derive(Clone, Debug, PartialEq)]
pub enum GameFile {
    Dat(DatFile),
    Rec(RecFile),
}

impl GameFile {
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            GameFile::Dat(d) => d.to_bytes(),
            GameFile::Rec(r) => r.to_bytes(),
        }
    }

    /// `DAT` or `REC`.
    pub fn extension(&self) -> &'static str {
        match self {
            GameFile::Dat(_) => "DAT",
            GameFile::Rec(_) => "REC",
        }
    }

    /// The position the file holds, its turn begun (a DAT) or resumed (a
    /// REC), as a reader of the file gets it.
    pub fn to_position(&self) -> Result<Position, FileError> {
        match self {
            GameFile::Dat(d) => d.to_position(),
            GameFile::Rec(r) => r.to_position(),
        }
    }
}

/// The file of a game at `now` (a day number): a DAT between turns and
/// after the end, a REC while a turn is in progress (map: the globe).
/// `passwords` are a team game's three (written empty otherwise).
pub fn save(game: &Game, now: f64, passwords: &[String]) -> GameFile {
    let days = &game.days;
    let dat = |pos: &Position| DatFile::from_position_on(pos, days, now, passwords);
    // A REC names its player: every day as kept, the player's too.
    let rec = |pos: &Position| {
        let mut d = dat(pos);
        let kept = kept_days(pos, days, now);
        for (seat, day) in d.seats.iter_mut().zip(kept) {
            if seat.name.is_some() {
                seat.last_moved = day;
            }
        }
        RecFile {
            dat: d,
            ..RecFile::from_position(pos, now, passwords, View::Globe)
        }
    };
    if !game.turn_in_progress() {
        return GameFile::Dat(dat(&game.pos));
    }
    // The turn's start: a DAT, or the REC a game was resumed from.
    let start = || {
        let t = &game.turn_start;
        if t.at_turn_start() || !matches!(t.phase, Phase::Deploy { .. } | Phase::Attack | Phase::Fortify) {
            GameFile::Dat(dat(t))
        } else {
            GameFile::Rec(rec(t))
        }
    };
    // A REC has no "moving in": the least is moved in (no die is thrown).
    let pos = match game.pos.phase {
        Phase::Occupy { min, .. } => {
            let mut g = game.clone();
            if g.apply(Action::MoveIn { armies: min }).is_err() {
                return start();
            }
            g.pos
        }
        _ => game.pos.clone(),
    };
    if pos.phase == Phase::Over {
        return GameFile::Dat(dat(&pos));
    }
    if !fits_a_file(&pos) {
        return start();
    }
    GameFile::Rec(rec(&pos))
}

/// Every hand fits the file: at most 5 commendations of each kind.
pub fn fits_a_file(pos: &Position) -> bool {
    pos.players.iter().all(|p| {
        [p.hand.general, p.hand.king, p.hand.queen]
            .iter()
            .all(|&n| n <= MOST_OF_A_KIND)
    })
}

/// Each seat's last-moved day (index = seat − 1): the living players in
/// turn order from the player to move, who moved longest ago, each
/// [`MOVED_STEP`] after the one before and the last a step before `now`
/// (cut to four decimals); the others at `now`. A reader who gives the
/// turn to the living player who moved longest ago gives it to the
/// player to move.
pub fn last_moved(pos: &Position, now: f64) -> [f64; 6] {
    let now = (now * 10_000.0).floor() / 10_000.0;
    let mut days = [now; 6];
    let order: Vec<u8> = (0..6u8)
        .map(|k| (pos.current.saturating_sub(1) + k) % 6 + 1)
        .filter(|&s| pos.player(s).is_some_and(|p| p.alive))
        .collect();
    for (k, &s) in order.iter().enumerate() {
        days[s as usize - 1] = now - (order.len() - k) as f64 * MOVED_STEP;
    }
    days
}

/// Each seat's Player_Moved as kept: the day each player last took a turn
/// where the game kept it ([`Days`]), else [`last_moved`]'s steps.
pub fn kept_days(pos: &Position, days: &Days, now: f64) -> [f64; 6] {
    kept_ticks(pos, days, now).map(day)
}

fn kept_ticks(pos: &Position, days: &Days, now: f64) -> [Ticks; 6] {
    let steps = last_moved(pos, now);
    std::array::from_fn(|i| days.moved[i].unwrap_or_else(|| ticks(steps[i])))
}

/// Each seat's Player_Moved in a DAT file: [`kept_days`], but a reader
/// gives the turn to the living player who moved longest ago (the lowest
/// seat on a tie) while dip's turns go round the seats; when the kept days
/// would give it to another (a file whose days had another order, or two
/// moves in the same 8.64 s of the files' four decimals), the player to
/// move alone is written a step before the earliest of the others.
pub fn moved_days(pos: &Position, days: &Days, now: f64) -> [f64; 6] {
    let mut t = kept_ticks(pos, days, now);
    if pos.phase != Phase::Over {
        let cur = pos.current;
        let others: Vec<(u8, Ticks)> = pos
            .players
            .iter()
            .filter(|p| p.alive && p.number != cur)
            .map(|p| (p.number, t[p.number as usize - 1]))
            .collect();
        if let Some(mine) = t.get_mut((cur as usize).wrapping_sub(1)) {
            let first = others.iter().all(|&(s, o)| *mine < o || (*mine == o && cur < s));
            if !first {
                let earliest = others.iter().map(|o| o.1).min().unwrap_or(*mine);
                *mine = earliest.saturating_sub(1);
            }
        }
    }
    t.map(day)
}

/// A name as a file holds it: at most 17 characters, never empty or
/// `NONE` (which mean no player).
fn file_name(name: &str, seat: u8) -> String {
    let n: String = name.trim().chars().take(NAME_LENGTH).collect();
    let n = n.trim_end().to_string();
    if n.is_empty() || n.eq_ignore_ascii_case("NONE") {
        format!("Player {seat}")
    } else {
        n
    }
}

/// Three password lines: a team game's, else empty.
fn password_lines(passwords: &[String]) -> Vec<String> {
    (0..3).map(|i| passwords.get(i).cloned().unwrap_or_default()).collect()
}

impl DatFile {
    /// The DAT file of a game (the turn in progress as it stands; see
    /// [`save`] for the file a game in the middle of a turn needs).
    pub fn from_game(game: &Game, now: f64, passwords: &[String]) -> DatFile {
        DatFile::from_position(&game.pos, now, passwords)
    }

    /// A DAT file of a position in progress (or completed) at `now` (a day
    /// number), the last-moved days giving the turn to the player to move.
    pub fn from_position(pos: &Position, now: f64, passwords: &[String]) -> DatFile {
        DatFile::from_position_on(pos, &Days::default(), now, passwords)
    }

    /// [`DatFile::from_position`] with the days the game kept: Event_Day
    /// and Player_Moved as they happened ([`moved_days`]); `now` for what
    /// was not kept.
    pub fn from_position_on(pos: &Position, days: &Days, now: f64, passwords: &[String]) -> DatFile {
        let kind = if pos.options.teams { Kind::Team } else { Kind::Normal };
        let status = if pos.phase == Phase::Over {
            Status::Completed
        } else {
            Status::InProgress
        };
        let event = GameEvent {
            kind,
            status,
            players: None,
            hidden_names: pos.options.hidden_names,
            unlimited_fortifications: pos.options.unlimited_fortifications,
        };
        let moved = moved_days(pos, days, now);
        // The winning conquest may take the last opponent's commendations:
        // a finished game's hands are written as the file holds them.
        let most = |n: u8| {
            if status == Status::Completed {
                n.min(MOST_OF_A_KIND)
            } else {
                n
            }
        };
        let seats = (1..=6)
            .map(|n| match pos.player(n) {
                Some(p) => Seat {
                    name: Some(file_name(&p.name, n)),
                    vote: true,
                    last_moved: moved[n as usize - 1],
                    hand: Hand {
                        general: most(p.hand.general),
                        king: most(p.hand.king),
                        queen: most(p.hand.queen),
                    },
                },
                None => Seat {
                    name: None,
                    vote: false,
                    last_moved: 0.0,
                    hand: Hand::default(),
                },
            })
            .collect();
        let countries = (0..COUNTRIES)
            .map(|c| Country {
                armies: pos.armies[c],
                owner: pos.owner[c],
            })
            .collect();
        DatFile {
            event,
            event_day: days.event.map_or(now, day),
            seats,
            sets_turned_in: pos.sets_turned_in,
            countries,
            team_passwords: password_lines(if pos.options.teams { passwords } else { &[] }),
            original: None,
        }
    }

    /// The position of a game in progress or completed. The player to move
    /// is the living player who moved longest ago (the lowest seat on a
    /// tie); the turn is begun by [`Game::from_position`].
    pub fn to_position(&self) -> Result<Position, FileError> {
        self.position_at(0)
    }

    /// [`DatFile::to_position`] for the DAT data `offset` lines into a file
    /// (a REC's four), so that errors give the file's line.
    pub(crate) fn position_at(&self, offset: usize) -> Result<Position, FileError> {
        if self.event.status == Status::Signup {
            return err(offset + 1, "the game is still in sign-up: there is no position to play");
        }
        let players: Vec<Player> = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let number = i as u8 + 1;
                let name = s.name.clone()?;
                let alive = self.countries.iter().any(|c| c.owner == number);
                Some(Player {
                    number,
                    name,
                    hand: s.hand,
                    alive,
                })
            })
            .collect();
        for (i, c) in self.countries.iter().enumerate() {
            let line = offset + 41 + 2 * i;
            let name = map::name(i as u8 + 1).unwrap_or("?");
            if c.owner == 0 {
                return err(line, format!("{name} has no owner in a game in progress"));
            }
            if c.armies == 0 {
                return err(line - 1, format!("{name} has no armies"));
            }
        }
        let current = players
            .iter()
            .filter(|p| p.alive)
            .min_by(|a, b| {
                let la = self.seats[a.number as usize - 1].last_moved;
                let lb = self.seats[b.number as usize - 1].last_moved;
                la.total_cmp(&lb).then(a.number.cmp(&b.number))
            })
            .map_or(1, |p| p.number);
        let options = Options {
            teams: self.event.kind == Kind::Team,
            hidden_names: self.event.hidden_names,
            unlimited_fortifications: self.event.unlimited_fortifications,
        };
        let mut pos = Position {
            options,
            players,
            owner: self.countries.iter().map(|c| c.owner).collect(),
            armies: self.countries.iter().map(|c| c.armies).collect(),
            sets_turned_in: self.sets_turned_in,
            current,
            phase: Phase::Over,
            conquered: false,
            fortifications: 0,
            turn: 0,
            winners: Vec::new(),
        };
        if self.event.status == Status::Completed {
            pos.winners = pos.world_holders().unwrap_or_default();
        }
        pos.validate().or_else(|m| err(offset + 1, m))?;
        Ok(pos)
    }
}

impl RecFile {
    /// The position with the interrupted turn resumed where it was.
    pub fn to_position(&self) -> Result<Position, FileError> {
        let mut pos = self.dat.position_at(4)?;
        if pos.phase == Phase::Over && !pos.winners.is_empty() {
            return Ok(pos);
        }
        if !pos.player(self.player).is_some_and(|p| p.alive) {
            return err(1, format!("player {} holds no country", self.player));
        }
        pos.current = self.player;
        pos.turn = 1;
        pos.phase = match self.doing {
            Doing::Deploying => Phase::Deploy {
                armies: self.armies_to_deploy,
                resume_attack: false,
            },
            Doing::Attacking => Phase::Attack,
            Doing::Fortifying => Phase::Fortify,
        };
        pos.conquered = self.earned_commendation;
        Ok(pos)
    }

    /// A REC file of a game in the middle of a turn (see [`save`], which
    /// chooses between DAT and REC and handles moving in).
    pub fn from_game(game: &Game, now: f64, passwords: &[String], map: View) -> RecFile {
        RecFile::from_position(&game.pos, now, passwords, map)
    }

    /// A REC file of a position in the middle of a turn.
    pub fn from_position(pos: &Position, now: f64, passwords: &[String], map: View) -> RecFile {
        let (doing, armies) = match pos.phase {
            Phase::Deploy { armies, .. } => (Doing::Deploying, armies),
            Phase::Fortify => (Doing::Fortifying, 0),
            _ => (Doing::Attacking, 0),
        };
        RecFile {
            player: pos.current,
            doing,
            earned_commendation: doing == Doing::Attacking && pos.conquered,
            armies_to_deploy: armies,
            map,
            dat: DatFile::from_position(pos, now, passwords),
            original: None,
        }
    }
}

/// A player signed up to a game that has not started.
#[derive(Clone, Debug, PartialEq)]
pub struct SignedUp {
    /// 1–6; in a team game, the seat gives the team (1–2, 3–4, 5–6).
    pub seat: u8,
    pub name: String,
    /// Votes to start.
    pub vote: bool,
    /// When they signed up (a day number).
    pub joined: f64,
}

/// A game in sign-up, as its DAT file holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct SignupGame {
    /// The player-count range (3–6 for a team game and for Game_Event 0).
    pub range: Range,
    pub options: Options,
    /// When the game was set up (Event_Day).
    pub created: f64,
    pub players: Vec<SignedUp>,
    /// A team game's three passwords.
    pub passwords: Vec<String>,
}

impl DatFile {
    /// The DAT file of a game in sign-up: a normal game's Game_Event is
    /// its range's (33–66; 3–6 is 36), a team game's 3; no country has an
    /// owner or armies yet.
    pub fn from_signup(game: &SignupGame) -> DatFile {
        let o = &game.options;
        let event = GameEvent {
            kind: if o.teams { Kind::Team } else { Kind::Normal },
            status: Status::Signup,
            players: (!o.teams).then_some(game.range),
            hidden_names: o.hidden_names,
            unlimited_fortifications: o.unlimited_fortifications,
        };
        let seats = (1..=6)
            .map(|n| match game.players.iter().find(|p| p.seat == n) {
                Some(p) => Seat {
                    name: Some(file_name(&p.name, n)),
                    vote: p.vote,
                    last_moved: p.joined,
                    hand: Hand::default(),
                },
                None => Seat {
                    name: None,
                    vote: false,
                    last_moved: 0.0,
                    hand: Hand::default(),
                },
            })
            .collect();
        DatFile {
            event,
            event_day: game.created,
            seats,
            sets_turned_in: 0,
            countries: vec![Country { armies: 0, owner: 0 }; COUNTRIES],
            team_passwords: password_lines(if o.teams { &game.passwords } else { &[] }),
            original: None,
        }
    }

    /// The game of a DAT file in sign-up: its range, options, players
    /// (each player's last-moved day is when they signed up) and a team
    /// game's passwords, checked: no more players than the range's
    /// maximum, three different passwords for a team game.
    pub fn to_signup(&self) -> Result<SignupGame, FileError> {
        let e = &self.event;
        if e.status != Status::Signup {
            return err(1, format!("Game_Event {}: the game is not in sign-up", e.code()));
        }
        let range = e.players.unwrap_or(signup::ANY);
        let players: Vec<SignedUp> = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                Some(SignedUp {
                    seat: i as u8 + 1,
                    name: s.name.clone()?.trim().to_string(),
                    vote: s.vote,
                    joined: s.last_moved,
                })
            })
            .collect();
        if players.len() > range.max as usize {
            return err(
                1,
                format!(
                    "{} players signed up to a game for at most {} (Game_Event {})",
                    players.len(),
                    range.max,
                    e.code()
                ),
            );
        }
        let passwords: Vec<String> = self.team_passwords.iter().map(|p| p.trim().to_string()).collect();
        if e.kind == Kind::Team {
            signup::check_passwords(&passwords).or_else(|(i, m)| err(PASSWORD_LINE + i, m))?;
        }
        Ok(SignupGame {
            range,
            options: Options {
                teams: e.kind == Kind::Team,
                hidden_names: e.hidden_names,
                unlimited_fortifications: e.unlimited_fortifications,
            },
            created: self.event_day,
            players,
            passwords: if e.kind == Kind::Team { passwords } else { Vec::new() },
        })
    }
}
