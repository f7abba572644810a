//! WARxx.DAT and WARxx.REC, as Global War 2.0's DATAFILE.TXT documents
//! them: one value a line, DOS line ends, code page 437.
//!
//! A file read keeps its lines; writing it back uses each original line
//! whose value did not change, so a file read and written unchanged is the
//! same bytes, and a changed value is written in the plain form
//! ([`format_real`] for day numbers).

use crate::daynum;
use crate::map::{self, View, COUNTRIES};
use crate::rules::Hand;
use crate::signup::Range;
use serde::Serialize;

/// A bad line in a file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FileError {
    /// 1-based line of the file.
    pub line: usize,
    pub message: String,
}

/// The most characters of a line an error quotes.
pub const QUOTED: usize = 60;

/// A line's text quoted in an error: at most [`QUOTED`] characters, cut
/// with `…` and its length, so a file of one 30 MB line gives a message of
/// one line, not 30 MB.
pub fn quote(text: &str) -> String {
    let n = text.chars().count();
    if n <= QUOTED {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(QUOTED).collect();
    format!("{head:?}… ({n} characters)")
}

/// The most armies a file may put in one country or give to deploy. No
/// game comes near it, and 42 countries of it add up to far less than
/// `u32::MAX`: a file with 4294967295 armies in a country summed to 51
/// and made a debug build panic when drawn.
pub const MAX_ARMIES: u32 = 1_000_000;

pub(crate) fn err<T>(line: usize, message: impl Into<String>) -> Result<T, FileError> {
    Err(FileError {
        line,
        message: message.into(),
    })
}

/// Normal or team game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Normal,
    Team,
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Signup,
    InProgress,
    Completed,
}

/// Line 1, Game_Event, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEvent {
    pub kind: Kind,
    pub status: Status,
    /// The player-count range of a normal game in sign-up (codes 33–66).
    pub players: Option<Range>,
    pub hidden_names: bool,
    pub unlimited_fortifications: bool,
}

impl GameEvent {
    /// Decodes a Game_Event; `None` for a value the documentation does not
    /// define.
    pub fn decode(code: i64) -> Option<GameEvent> {
        if !(0..=1166).contains(&code) {
            return None;
        }
        let unlimited_fortifications = code >= 1000;
        let rest = code % 1000;
        if rest >= 200 {
            return None;
        }
        let hidden_names = rest >= 100;
        let base = (rest % 100) as u32;
        let (kind, status, players) = match base {
            0 => (Kind::Normal, Status::Signup, None),
            1 => (Kind::Normal, Status::InProgress, None),
            2 => (Kind::Normal, Status::Completed, None),
            3 => (Kind::Team, Status::Signup, None),
            4 => (Kind::Team, Status::InProgress, None),
            5 => (Kind::Team, Status::Completed, None),
            b => (Kind::Normal, Status::Signup, Some(Range::from_code(b)?)),
        };
        Some(GameEvent {
            kind,
            status,
            players,
            hidden_names,
            unlimited_fortifications,
        })
    }

    /// The Game_Event value (the inverse of [`GameEvent::decode`]).
    pub fn code(&self) -> i64 {
        let base = match (self.kind, self.status, self.players) {
            (Kind::Normal, Status::Signup, Some(r)) => r.code() as i64,
            (Kind::Normal, Status::Signup, None) => 0,
            (Kind::Normal, Status::InProgress, _) => 1,
            (Kind::Normal, Status::Completed, _) => 2,
            (Kind::Team, Status::Signup, _) => 3,
            (Kind::Team, Status::InProgress, _) => 4,
            (Kind::Team, Status::Completed, _) => 5,
        };
        base + if self.hidden_names { 100 } else { 0 } + if self.unlimited_fortifications { 1000 } else { 0 }
    }
}

/// One of the six player blocks (lines 3–38).
#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    /// `None` for `NONE`, no player.
    pub name: Option<String>,
    pub vote: bool,
    pub last_moved: f64,
    pub hand: Hand,
}

/// One country (lines 40–123).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Country {
    pub armies: u32,
    /// Seat 1–6; 0 for nobody (a game in sign-up).
    pub owner: u8,
}

/// The lines of a file as read, to write unchanged values back as they were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    /// Text (code page 437 decoded) and line end of each line.
    pub lines: Vec<(String, String)>,
    /// After the last line end (a DOS end-of-file mark ^Z, say).
    pub tail: String,
}

impl Lines {
    /// Splits bytes into lines (CRLF or LF).
    pub fn split(bytes: &[u8]) -> Lines {
        let text = crate::cp437::decode(bytes);
        let mut lines = Vec::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find('\n') {
            let (line, end) = if i > 0 && rest.as_bytes()[i - 1] == b'\r' {
                (&rest[..i - 1], "\r\n")
            } else {
                (&rest[..i], "\n")
            };
            lines.push((line.to_string(), end.to_string()));
            rest = &rest[i + 1..];
        }
        let mut tail = rest.to_string();
        if !tail.is_empty() && !tail.chars().all(|c| c == '\u{1a}') {
            lines.push((std::mem::take(&mut tail), String::new()));
        }
        Lines { lines, tail }
    }
}

/// A value of a line.
#[derive(Clone, Debug, PartialEq)]
enum Field {
    Int(i64),
    Real(f64),
    Name(Option<String>),
    Vote(bool),
    Text(String),
}

impl Field {
    fn write(&self) -> String {
        match self {
            Field::Int(i) => i.to_string(),
            Field::Real(r) => format_real(*r),
            Field::Name(None) => "NONE".into(),
            Field::Name(Some(n)) => n.clone(),
            Field::Vote(v) => (if *v { "T" } else { "F" }).into(),
            Field::Text(t) => t.clone(),
        }
    }

    /// Reads a line as the same kind of value as `self`.
    fn reread(&self, text: &str) -> Option<Field> {
        match self {
            Field::Int(_) => parse_int(text).map(Field::Int),
            Field::Real(_) => parse_real(text).map(Field::Real),
            Field::Name(_) => parse_name(text).ok().map(Field::Name),
            Field::Vote(_) => parse_vote(text).map(Field::Vote),
            Field::Text(_) => Some(Field::Text(text.to_string())),
        }
    }
}

/// A day number as dip writes it: four decimals, as the documentation's
/// example (1671.6039).
pub fn format_real(r: f64) -> String {
    format!("{r:.4}")
}

fn parse_int(s: &str) -> Option<i64> {
    s.trim().parse().ok()
}

fn parse_real(s: &str) -> Option<f64> {
    let t = s.trim();
    // Turbo Pascal writes reals like " 1.6716039000E+03"; Rust reads that.
    t.parse::<f64>().ok().filter(|r| r.is_finite() && !t.is_empty())
}

fn parse_vote(s: &str) -> Option<bool> {
    match s.trim() {
        "T" | "t" => Some(true),
        "F" | "f" => Some(false),
        _ => None,
    }
}

/// The longest player name.
pub const NAME_LENGTH: usize = 17;

/// A name line: the spaces around it are padding, not part of the name
/// (a leading space was kept, so ` Ann` played as another name than the
/// `Ann` of her account and of the other files).
fn parse_name(s: &str) -> Result<Option<String>, String> {
    let t = s.trim();
    if t.chars().count() > NAME_LENGTH {
        return Err(format!(
            "a player's name has at most {NAME_LENGTH} characters: {}",
            quote(t)
        ));
    }
    if t.trim().is_empty() {
        return Err("a player's name is empty (NONE means no player)".into());
    }
    Ok(if t.trim().eq_ignore_ascii_case("NONE") {
        None
    } else {
        Some(t.to_string())
    })
}

/// A WARxx.DAT file.
#[derive(Clone, Debug, PartialEq)]
pub struct DatFile {
    pub event: GameEvent,
    /// Line 2: the day number of the event.
    pub event_day: f64,
    /// The six player blocks.
    pub seats: Vec<Seat>,
    /// Line 39: sets of commendations turned in.
    pub sets_turned_in: u32,
    /// Countries 1–42.
    pub countries: Vec<Country>,
    /// Lines 124–126, as many as the file has (dip writes all three).
    pub team_passwords: Vec<String>,
    /// The lines read, for writing back.
    pub original: Option<Lines>,
}

/// The lines of a DAT file.
pub const DAT_LINES: usize = 126;

/// What the player was doing when the connection was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Doing {
    Deploying,
    Attacking,
    Fortifying,
}

/// A WARxx.REC file: the four lines of the turn in progress, then the game.
#[derive(Clone, Debug, PartialEq)]
pub struct RecFile {
    pub player: u8,
    pub doing: Doing,
    /// LastPlay 3: attacking, and a commendation earned.
    pub earned_commendation: bool,
    pub armies_to_deploy: u32,
    pub map: View,
    /// The game data (its `original` is `None`: the lines are kept here).
    pub dat: DatFile,
    /// The lines read, for writing back.
    pub original: Option<Lines>,
}

struct Reader<'a> {
    lines: &'a [(String, String)],
    /// Lines before this part of the file.
    offset: usize,
    next: usize,
}

impl Reader<'_> {
    fn line(&mut self, what: &str) -> Result<(usize, &str), FileError> {
        let n = self.offset + self.next + 1;
        let Some((text, _)) = self.lines.get(self.next) else {
            return err(n, format!("the file ends here; expected {what}"));
        };
        self.next += 1;
        Ok((n, text.as_str()))
    }

    fn int(&mut self, what: &str, min: i64, max: i64) -> Result<i64, FileError> {
        let (n, t) = self.line(what)?;
        let Some(v) = parse_int(t) else {
            return err(n, format!("{what}: expected a whole number, found {}", quote(t)));
        };
        if v < min || v > max {
            return err(n, format!("{what}: {v} is not in {min}..{max}"));
        }
        Ok(v)
    }

    fn real(&mut self, what: &str) -> Result<f64, FileError> {
        let (n, t) = self.line(what)?;
        let Some(v) = parse_real(t) else {
            return err(
                n,
                format!(
                    "{what}: expected a day number (days since 1 January 1985), found {}",
                    quote(t)
                ),
            );
        };
        if daynum::to_datetime(v).is_none() {
            return err(
                n,
                format!("{what}: {} is not a day number of the years 0 to 9999", quote(t)),
            );
        }
        Ok(v)
    }
}

impl DatFile {
    /// Reads a DAT file.
    pub fn parse(bytes: &[u8]) -> Result<DatFile, FileError> {
        let lines = Lines::split(bytes);
        let mut dat = DatFile::parse_lines(&lines.lines, 0)?;
        dat.original = Some(lines);
        Ok(dat)
    }

    fn parse_lines(lines: &[(String, String)], offset: usize) -> Result<DatFile, FileError> {
        let mut r = Reader { lines, offset, next: 0 };
        let code = r.int("Game_Event", i64::MIN, i64::MAX)?;
        let Some(event) = GameEvent::decode(code) else {
            return err(
                offset + 1,
                format!("Game_Event {code} is not defined (0–5 or 33–66, plus 100 for hidden names and 1000 for unlimited fortifications)"),
            );
        };
        let event_day = r.real("Event_Day")?;
        let mut seats = Vec::with_capacity(6);
        for p in 1..=6 {
            let (n, t) = r.line(&format!("player {p}'s name"))?;
            let name = parse_name(t).or_else(|m| err(n, format!("player {p}: {m}")))?;
            let (n, t) = r.line(&format!("player {p}'s vote"))?;
            let Some(vote) = parse_vote(t) else {
                return err(n, format!("player {p}'s vote: expected T or F, found {}", quote(t)));
            };
            let last_moved = r.real(&format!("player {p}'s last move"))?;
            let general = r.int(&format!("player {p}'s commendations from the General"), 0, 5)? as u8;
            let king = r.int(&format!("player {p}'s commendations from the King"), 0, 5)? as u8;
            let queen = r.int(&format!("player {p}'s commendations from the Queen"), 0, 5)? as u8;
            seats.push(Seat {
                name,
                vote,
                last_moved,
                hand: Hand { general, king, queen },
            });
        }
        let sets_turned_in = r.int("Cmd_Sets", 0, u32::MAX as i64)? as u32;
        let mut countries = Vec::with_capacity(COUNTRIES);
        for c in 1..=COUNTRIES as u8 {
            let name = map::name(c).unwrap_or("?");
            let armies = r.int(&format!("armies in {name} (country {c})"), 0, MAX_ARMIES as i64)? as u32;
            let line = offset + r.next + 1;
            let owner = r.int(&format!("owner of {name} (country {c})"), 0, 6)? as u8;
            if owner != 0 && seats[owner as usize - 1].name.is_none() {
                return err(line, format!("{name} is held by player {owner}, whose name is NONE"));
            }
            countries.push(Country { armies, owner });
        }
        let mut team_passwords = Vec::new();
        while r.next < lines.len() && team_passwords.len() < 3 {
            team_passwords.push(lines[r.next].0.clone());
            r.next += 1;
        }
        for (i, (t, _)) in lines.iter().enumerate().skip(r.next) {
            if !t.trim().is_empty() {
                return err(
                    offset + i + 1,
                    format!("unexpected line after the team passwords: {}", quote(t)),
                );
            }
        }
        Ok(DatFile {
            event,
            event_day,
            seats,
            sets_turned_in,
            countries,
            team_passwords,
            original: None,
        })
    }

    fn fields(&self) -> Vec<Field> {
        let mut f = vec![Field::Int(self.event.code()), Field::Real(self.event_day)];
        for s in &self.seats {
            f.push(Field::Name(s.name.clone()));
            f.push(Field::Vote(s.vote));
            f.push(Field::Real(s.last_moved));
            f.push(Field::Int(s.hand.general as i64));
            f.push(Field::Int(s.hand.king as i64));
            f.push(Field::Int(s.hand.queen as i64));
        }
        f.push(Field::Int(self.sets_turned_in as i64));
        for c in &self.countries {
            f.push(Field::Int(c.armies as i64));
            f.push(Field::Int(c.owner as i64));
        }
        f.extend(self.team_passwords.iter().map(|p| Field::Text(p.clone())));
        f
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        write(&self.fields(), self.original.as_ref(), 0)
    }
}

fn write(fields: &[Field], original: Option<&Lines>, offset: usize) -> Vec<u8> {
    let mut out = String::new();
    let orig = original.map(|o| &o.lines[..]).unwrap_or(&[]);
    let get = |i: usize| orig.get(offset + i);
    for (i, f) in fields.iter().enumerate() {
        match get(i) {
            Some((text, end)) => {
                if f.reread(text).as_ref() == Some(f) {
                    out.push_str(text);
                } else {
                    out.push_str(&f.write());
                }
                out.push_str(if end.is_empty() && i + 1 < fields.len() {
                    "\r\n"
                } else {
                    end
                });
            }
            None => {
                out.push_str(&f.write());
                out.push_str("\r\n");
            }
        }
    }
    if let Some(o) = original {
        for (text, end) in o.lines.iter().skip(offset + fields.len()) {
            out.push_str(text);
            out.push_str(end);
        }
        out.push_str(&o.tail);
    }
    crate::cp437::encode(&out)
}

impl RecFile {
    /// Reads a REC file.
    pub fn parse(bytes: &[u8]) -> Result<RecFile, FileError> {
        let lines = Lines::split(bytes);
        let mut r = Reader {
            lines: &lines.lines,
            offset: 0,
            next: 0,
        };
        let player = r.int("PlayerNumber", 1, 6)? as u8;
        let last = r.int(
            "LastPlay (0 deploying, 1 attacking, 2 fortifying, 3 attacking with a commendation)",
            0,
            3,
        )?;
        let armies_to_deploy = r.int("ArmiesToDeploy", 0, MAX_ARMIES as i64)? as u32;
        let map = View::from_code(r.int("Map (1 Globe … 7 S. America)", 1, 7)?).unwrap_or(View::Globe);
        let rest = lines.lines.get(4..).unwrap_or(&[]);
        let dat = DatFile::parse_lines(rest, 4)?;
        if dat.seats[player as usize - 1].name.is_none() {
            return err(
                1,
                format!("player {player} lost the connection, but player {player}'s name is NONE"),
            );
        }
        let (doing, earned_commendation) = match last {
            0 => (Doing::Deploying, false),
            1 => (Doing::Attacking, false),
            2 => (Doing::Fortifying, false),
            _ => (Doing::Attacking, true),
        };
        Ok(RecFile {
            player,
            doing,
            earned_commendation,
            armies_to_deploy,
            map,
            dat,
            original: Some(lines),
        })
    }

    pub fn last_play(&self) -> i64 {
        match (self.doing, self.earned_commendation) {
            (Doing::Deploying, _) => 0,
            (Doing::Attacking, false) => 1,
            (Doing::Fortifying, _) => 2,
            (Doing::Attacking, true) => 3,
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut f = vec![
            Field::Int(self.player as i64),
            Field::Int(self.last_play()),
            Field::Int(self.armies_to_deploy as i64),
            Field::Int(self.map.code() as i64),
        ];
        f.extend(self.dat.fields());
        write(&f, self.original.as_ref(), 0)
    }
}

// ---- The JSON view of `dip war show --json` ----

#[derive(Serialize)]
pub struct EventView {
    pub code: i64,
    pub kind: Kind,
    pub status: Status,
    pub players: Option<Range>,
    pub hidden_names: bool,
    pub unlimited_fortifications: bool,
}

#[derive(Serialize)]
pub struct HandView {
    pub general: u8,
    pub king: u8,
    pub queen: u8,
}

#[derive(Serialize)]
pub struct PlayerView {
    pub number: u8,
    pub name: String,
    pub vote: bool,
    pub last_moved: String,
    pub commendations: HandView,
}

#[derive(Serialize)]
pub struct CountryView {
    pub number: u8,
    pub name: &'static str,
    pub armies: u32,
    pub owner: u8,
}

#[derive(Serialize)]
pub struct RecoveryView {
    pub player: u8,
    pub doing: Doing,
    pub earned_commendation: bool,
    pub armies_to_deploy: u32,
    pub map: &'static str,
}

/// The decoded game, as `dip war show --json` prints it.
#[derive(Serialize)]
pub struct GameView {
    pub event: EventView,
    pub event_day: String,
    pub players: Vec<PlayerView>,
    pub sets_turned_in: u32,
    pub countries: Vec<CountryView>,
    pub team_passwords: Option<Vec<String>>,
    pub recovery: Option<RecoveryView>,
}

fn iso(d: f64) -> String {
    daynum::to_datetime(d).map(|t| t.to_string()).unwrap_or_default()
}

impl DatFile {
    pub fn view(&self) -> GameView {
        let e = &self.event;
        GameView {
            event: EventView {
                code: e.code(),
                kind: e.kind,
                status: e.status,
                players: e.players,
                hidden_names: e.hidden_names,
                unlimited_fortifications: e.unlimited_fortifications,
            },
            event_day: iso(self.event_day),
            players: self
                .seats
                .iter()
                .enumerate()
                .filter_map(|(i, s)| {
                    Some(PlayerView {
                        number: i as u8 + 1,
                        name: s.name.clone()?,
                        vote: s.vote,
                        last_moved: iso(s.last_moved),
                        commendations: HandView {
                            general: s.hand.general,
                            king: s.hand.king,
                            queen: s.hand.queen,
                        },
                    })
                })
                .collect(),
            sets_turned_in: self.sets_turned_in,
            countries: self
                .countries
                .iter()
                .enumerate()
                .map(|(i, c)| CountryView {
                    number: i as u8 + 1,
                    name: map::name(i as u8 + 1).unwrap_or("?"),
                    armies: c.armies,
                    owner: c.owner,
                })
                .collect(),
            team_passwords: (e.kind == Kind::Team && !self.team_passwords.is_empty())
                .then(|| self.team_passwords.iter().map(|p| p.trim_end().to_string()).collect()),
            recovery: None,
        }
    }
}

impl RecFile {
    pub fn view(&self) -> GameView {
        let mut v = self.dat.view();
        v.recovery = Some(RecoveryView {
            player: self.player,
            doing: self.doing,
            earned_commendation: self.earned_commendation,
            armies_to_deploy: self.armies_to_deploy,
            map: self.map.name(),
        });
        v
    }
}

/// Reads a DAT or a REC file, guessed from its lines: a REC file's second
/// line is LastPlay (0 to 3) and its sixth a day number; a DAT file's second
/// line is a day number. A file that is not what the guess says is read as
/// the other kind (no file is both: a REC's fourth line, Map, is no DAT
/// vote, and a DAT's fifth, a vote, no REC Game_Event); when neither reads,
/// the error is the guess's. [`parse_named`] takes the file's name instead.
pub fn parse_any(bytes: &[u8]) -> Result<(DatFile, Option<RecFile>), FileError> {
    let lines = Lines::split(bytes);
    let looks_rec = lines
        .lines
        .get(1)
        .is_some_and(|l| parse_int(&l.0).is_some_and(|v| (0..=3).contains(&v)))
        && lines.lines.get(5).is_some_and(|l| parse_real(&l.0).is_some());
    let (first, second) = if looks_rec {
        (parse_rec(bytes), parse_dat(bytes))
    } else {
        (parse_dat(bytes), parse_rec(bytes))
    };
    first.or_else(|e| second.map_err(|_| e))
}

fn parse_dat(bytes: &[u8]) -> Result<(DatFile, Option<RecFile>), FileError> {
    DatFile::parse(bytes).map(|d| (d, None))
}

fn parse_rec(bytes: &[u8]) -> Result<(DatFile, Option<RecFile>), FileError> {
    RecFile::parse(bytes).map(|r| (r.dat.clone(), Some(r)))
}

/// Reads a file as its name says: `….DAT` a DAT file, `….REC` a REC file
/// (in any case), so its errors are that kind's; any other name (or none)
/// as [`parse_any`] guesses.
pub fn parse_named(bytes: &[u8], name: Option<&str>) -> Result<(DatFile, Option<RecFile>), FileError> {
    let ext = name
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("dat") => parse_dat(bytes),
        Some("rec") => parse_rec(bytes),
        _ => parse_any(bytes),
    }
}
