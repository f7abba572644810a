//! Opening and saving: every file dip reads as a game opens on the board
//! (DIP's `.dip` season files with their series, positions, DipWork game
//! directories, given as a folder or as a zip or tar, MILA saved games,
//! dip records, and a variant for its start), and the board saves as each
//! of them, plus DIP's Export text. Uploads are unpacked into a private
//! folder that is removed afterwards; the local board's saves go into its
//! folder and nowhere else, keeping what they replace as `NAME~`.

use super::view::{order_text, report, season_start};
use super::{Board, BoardError, BoardResult, Boards};
use dip_core::{PowerId, Ruleset, State};
use dip_game::dipfile::{self, SeasonText};
use dip_game::record::{GameRecord, PhaseRecord};
use dip_play::{Game, Loaded};
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The largest file the board takes (an upload, or one member of a zip).
pub const MAX_UPLOAD: usize = 10 << 20;
/// What a zip or tar may unpack to, in all.
const MAX_UNPACKED: u64 = 64 << 20;
const MAX_MEMBERS: usize = 2000;

/// The formats the board saves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// DIP's season file (docs/game-record.md).
    Dip,
    /// A position file (docs/position-format.md).
    Position,
    /// MILA's saved game (JSON).
    Mila,
    /// A DipWork game directory, as a zip.
    Dipwork,
    /// dip's game record.
    Record,
    /// DIP's Export text: the season's report.
    Text,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Dip,
        Format::Position,
        Format::Mila,
        Format::Dipwork,
        Format::Record,
        Format::Text,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Format::Dip => "dip",
            Format::Position => "position",
            Format::Mila => "mila",
            Format::Dipwork => "dipwork",
            Format::Record => "record",
            Format::Text => "text",
        }
    }
    pub fn parse(s: &str) -> BoardResult<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                BoardError::new(format!(
                    "format `{s}`: expected one of dip, position, mila, dipwork, record, text"
                ))
            })
    }
    pub fn extension(self) -> &'static str {
        match self {
            Format::Dip => "dip",
            Format::Position => "txt",
            Format::Mila => "json",
            Format::Dipwork => "zip",
            Format::Record => "rec",
            Format::Text => "txt",
        }
    }
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Mila => "application/json",
            Format::Dipwork => "application/zip",
            _ => "text/plain; charset=utf-8",
        }
    }
}

/// A saved file: its name and bytes, and what the user should know.
pub struct Saved {
    pub name: String,
    pub bytes: Vec<u8>,
    pub note: Option<String>,
}

fn err(e: impl std::fmt::Display) -> BoardError {
    BoardError::new(e.to_string())
}

// ---- Saving ---------------------------------------------------------------

/// The played phases as a record (each with the orders adjudicated).
fn record(board: &Board, phases: &[dip_play::Played]) -> GameRecord {
    GameRecord {
        name: board.shown_title(),
        variant: board.game.variant().name.clone(),
        rules: board.game.rules().to_text(),
        phases: phases
            .iter()
            .map(|p| PhaseRecord {
                state: p.state.clone(),
                orders: p.outcome.orders().iter().map(|r| r.order).collect(),
            })
            .collect(),
    }
}

/// The orders entered now, one line each in DIP's form where the reader
/// read one (`ENG F(Edi) S A(Lon) - NTH`), else as written after the
/// power's name (`England: xyz`), to be entered again on opening.
fn entered(board: &Board) -> Vec<String> {
    let vocab = board.game.loaded().vocabulary();
    let map = board.game.map();
    let state = board.game.state();
    let mut out = Vec::new();
    for s in board.game.submissions() {
        for l in s
            .check
            .lines
            .iter()
            .filter(|l| l.line > 0 && l.fate != dip_text::Fate::Inserted)
        {
            match (l.read.as_ref(), s.power) {
                (Some(o), _) => out.push(order_text(vocab, state, o)),
                (None, Some(p)) => out.push(format!("{}: {}", map.power(p).name, l.text)),
                (None, None) => out.push(l.text.clone()),
            }
        }
    }
    out
}

fn players(board: &Board) -> Vec<(String, String)> {
    board.names.iter().map(|(p, n)| (p.clone(), n.clone())).collect()
}

/// The board's season as DIP's `.dip` file: the position it started from,
/// the stages resolved since, the orders entered and not yet resolved,
/// and `season finished` once it is.
pub fn dip_text(board: &Board) -> String {
    let h = board.game.history();
    let from = season_start(board);
    let start = h.get(from).map(|p| &p.state).unwrap_or(board.game.state());
    let rec = record(board, &h[from..]);
    let vocab = board.game.loaded().vocabulary();
    let entered = if board.finished { Vec::new() } else { entered(board) };
    dipfile::write_season(
        vocab,
        &SeasonText {
            title: &board.shown_title(),
            variant: &board.game.variant().name,
            rules: &board.game.rules().to_text(),
            players: &players(board),
            start,
            phases: &rec.phases,
            entered: &entered,
            finished: board.finished,
        },
    )
}

/// A DipWork game directory, zipped: GAME.TXT (the position now) and
/// HISTORY.REC (every phase played).
fn dipwork_zip(board: &Board, folder: &str) -> BoardResult<Vec<u8>> {
    let map = board.game.map();
    let vocab = board.game.loaded().vocabulary();
    let header = vec![
        format!("NAME {}", board.shown_title().replace(['\n', '\r'], " ")),
        format!("VARIANTPATH {}", board.game.variant().name),
    ];
    let players: Vec<Option<String>> = map.powers().iter().map(|p| board.names.get(&p.name).cloned()).collect();
    let mut files = vec![(
        "GAME.TXT".to_string(),
        dip_game::gamefile::write_game(&header, vocab, board.game.state(), &players).into_bytes(),
    )];
    let h = board.game.history();
    if !h.is_empty() {
        files.push((
            "HISTORY.REC".into(),
            record(board, h).to_text_played(map, h).into_bytes(),
        ));
    }
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        z.start_file(format!("{folder}/{name}"), opts).map_err(err)?;
        z.write_all(&bytes).map_err(err)?;
    }
    Ok(z.finish().map_err(err)?.into_inner())
}

/// The name a season is saved under, as DIP named its files:
/// `NAME_s01.dip`, `NAME_a01.dip` (NAME from the file the board came
/// from, else `board`).
pub fn suggested_name(board: &Board) -> String {
    let stem = board
        .file
        .as_deref()
        .map(|f| f.rsplit_once('.').map(|(s, _)| s).unwrap_or(f))
        .map(|s| {
            // `xyz_a05` → `xyz`.
            match s.rsplit_once('_') {
                Some((a, b))
                    if b.len() >= 3
                        && (b.starts_with(['s', 'a', 'S', 'A']))
                        && b[1..].chars().all(|c| c.is_ascii_digit() || c == 'y') =>
                {
                    a
                }
                _ => s,
            }
        })
        .filter(|s| !s.is_empty())
        .unwrap_or("board");
    let h = board.game.history();
    let from = season_start(board);
    let start = h.get(from).map(|p| &p.state).unwrap_or(board.game.state());
    dipfile::file_name(stem, start)
}

/// The board in `format`; `name` is the file's name (else one is made).
pub fn save(board: &Board, format: Format, name: Option<&str>) -> BoardResult<Saved> {
    let map = board.game.map();
    let mut note = None;
    let default_name = match format {
        Format::Dip => suggested_name(board),
        _ => {
            let stem = suggested_name(board);
            let stem = stem.trim_end_matches(".dip");
            match format {
                Format::Text => format!("{stem}-report.txt"),
                Format::Position => format!("{stem}-position.txt"),
                f => format!("{stem}.{}", f.extension()),
            }
        }
    };
    let name = match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) if n.contains('.') => n.to_string(),
        Some(n) => format!("{n}.{}", format.extension()),
        None => default_name,
    };
    let h = board.game.history();
    let now_not_played = h.last().is_some_and(|l| l.next != *board.game.state());
    let bytes = match format {
        Format::Dip => dip_text(board).into_bytes(),
        Format::Position => dip_text::format_position(map, board.game.state()).into_bytes(),
        Format::Record | Format::Mila => {
            if h.is_empty() {
                return Err(BoardError::new(format!(
                    "nothing resolved yet: a {} holds the phases played; save a position or a .dip file instead",
                    if format == Format::Mila {
                        "MILA game"
                    } else {
                        "game record"
                    }
                )));
            }
            if now_not_played {
                note = Some(
                    "the position was edited after the last phase played: the file holds the phases played; save a position or .dip file to keep the edit".to_string(),
                );
            }
            let rec = record(board, h);
            // The phases the board played make the record and its results.
            if format == Format::Record {
                rec.to_text_played(map, h).into_bytes()
            } else {
                let saved = dip_game::record::to_mila_played(board.game.map(), &rec, h);
                serde_json::to_vec_pretty(&saved).map_err(err)?
            }
        }
        Format::Dipwork => {
            let folder = name.trim_end_matches(".zip").trim_end_matches(".ZIP");
            dipwork_zip(board, if folder.is_empty() { "game" } else { folder })?
        }
        Format::Text => {
            let from = season_start(board);
            dip_game::plain::dip_export(&report(board, &h[from..])).into_bytes()
        }
    };
    Ok(Saved { name, bytes, note })
}

/// A file name the local board may write in its folder: one name, no
/// folder, nothing hidden, no device.
pub fn check_name(name: &str) -> BoardResult<()> {
    let bad = |why: &str| {
        Err(BoardError::new(format!(
            "`{name}`: {why}; give a file name in the board's folder"
        )))
    };
    if name.is_empty() {
        return bad("no name");
    }
    if name.chars().count() > 200 {
        return bad("longer than 200 characters");
    }
    if name.contains(['/', '\\', ':']) || name.chars().any(|c| c.is_control()) {
        return bad("a name with a folder, a drive or a control character");
    }
    if name.starts_with('.') || name == "~" {
        return bad("a hidden file or `..`");
    }
    let p = Path::new(name);
    if p.components().count() != 1 || !matches!(p.components().next(), Some(Component::Normal(_))) {
        return bad("not a plain file name");
    }
    Ok(())
}

/// Writes a saved file into `folder` (the local board's) and nowhere
/// else: the name is one file name, a link there is refused, and a file
/// it replaces is kept as `NAME~`.
pub fn write_into(folder: &Path, saved: &Saved) -> BoardResult<PathBuf> {
    check_name(&saved.name)?;
    let dir = folder
        .canonicalize()
        .map_err(|e| BoardError::new(format!("{}: {e}", folder.display())))?;
    let target = dir.join(&saved.name);
    if target.parent() != Some(dir.as_path()) {
        return Err(BoardError::new(format!("`{}` is not in {}", saved.name, dir.display())));
    }
    match std::fs::symlink_metadata(&target) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(BoardError::new(format!(
                "{} is a link: the board does not write through links",
                target.display()
            )))
        }
        Ok(m) if !m.is_file() => {
            return Err(BoardError::new(format!("{} is not a file", target.display())));
        }
        Ok(_) => {
            let backup = dir.join(format!("{}~", saved.name));
            if std::fs::symlink_metadata(&backup).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(BoardError::new(format!("{} is a link", backup.display())));
            }
            std::fs::copy(&target, &backup).map_err(|e| BoardError::new(format!("{}: {e}", backup.display())))?;
        }
        Err(_) => {}
    }
    let tmp = dir.join(format!(".{}.{:08x}.tmp", saved.name, fastrand::u32(..)));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(&saved.bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &target)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        BoardError::new(format!("{}: {e}", target.display()))
    })?;
    Ok(target)
}

// ---- Opening --------------------------------------------------------------

/// A folder removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> BoardResult<Scratch> {
        let dir = std::env::temp_dir().join(format!("dip-board-{}", Boards::new_id()));
        std::fs::create_dir(&dir).map_err(|e| BoardError::new(format!("a folder for the upload: {e}")))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The name an upload is kept under: its last part, made safe.
fn upload_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or("");
    let safe: String = last
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "._-+ ()".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(120)
        .collect();
    let safe = safe.trim_start_matches('.').trim().to_string();
    if safe.is_empty() {
        "upload".into()
    } else {
        safe
    }
}

/// A member's path inside the folder, or `None` for one that would
/// leave it (absolute, `..`) or is no plain path.
fn member_path(root: &Path, name: &str) -> Option<PathBuf> {
    let mut out = root.to_path_buf();
    let mut parts = 0;
    for c in Path::new(&name.replace('\\', "/")).components() {
        match c {
            Component::Normal(p) => {
                out.push(p);
                parts += 1;
            }
            Component::CurDir => {}
            _ => return None,
        }
    }
    (parts > 0).then_some(out)
}

/// Unpacks a zip or a tar into `root`, within the limits.
fn unpack(bytes: &[u8], root: &Path, upload: &str) -> BoardResult<()> {
    let mut total = 0u64;
    let mut put = |name: &str, r: &mut dyn Read, dir: bool| -> BoardResult<()> {
        let Some(path) = member_path(root, name) else {
            return Err(BoardError::new(format!(
                "{upload}: the member `{name}` would be written outside its folder"
            )));
        };
        if dir {
            return std::fs::create_dir_all(&path).map_err(err);
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(err)?;
        }
        let mut data = Vec::new();
        r.take(MAX_UPLOAD as u64 + 1)
            .read_to_end(&mut data)
            .map_err(|e| BoardError::new(format!("{upload}: {name}: {e}")))?;
        if data.len() > MAX_UPLOAD {
            return Err(BoardError::new(format!("{upload}: {name} is larger than 10 MB")));
        }
        total += data.len() as u64;
        if total > MAX_UNPACKED {
            return Err(BoardError::new(format!("{upload}: unpacks to more than 64 MB")));
        }
        std::fs::write(&path, data).map_err(err)
    };
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .map_err(|e| BoardError::new(format!("{upload}: not a zip that can be read: {e}")))?;
        if z.len() > MAX_MEMBERS {
            return Err(BoardError::new(format!("{upload}: more than {MAX_MEMBERS} files")));
        }
        for i in 0..z.len() {
            let mut f = z.by_index(i).map_err(|e| BoardError::new(format!("{upload}: {e}")))?;
            let name = f
                .name()
                .map(|n| n.to_string())
                .map_err(|e| BoardError::new(format!("{upload}: {e}")))?;
            if f.is_symlink() {
                return Err(BoardError::new(format!("{upload}: {name} is a link")));
            }
            let dir = f.is_dir();
            put(&name, &mut f, dir)?;
        }
        return Ok(());
    }
    let mut t = tar::Archive::new(bytes);
    let entries = t.entries().map_err(|e| BoardError::new(format!("{upload}: {e}")))?;
    for (n, e) in entries.enumerate() {
        if n >= MAX_MEMBERS {
            return Err(BoardError::new(format!("{upload}: more than {MAX_MEMBERS} files")));
        }
        let mut e = e.map_err(|e| BoardError::new(format!("{upload}: not a tar that can be read: {e}")))?;
        let kind = e.header().entry_type();
        let name = e
            .path()
            .map_err(|e| BoardError::new(format!("{upload}: {e}")))?
            .to_string_lossy()
            .to_string();
        match kind {
            tar::EntryType::Regular | tar::EntryType::Continuous => put(&name, &mut e, false)?,
            tar::EntryType::Directory => put(&name, &mut std::io::empty(), true)?,
            // Links and devices are not unpacked; headers of extensions are skipped.
            tar::EntryType::Symlink | tar::EntryType::Link => {
                return Err(BoardError::new(format!("{upload}: {name} is a link")));
            }
            _ => {}
        }
    }
    Ok(())
}

fn is_tar(bytes: &[u8]) -> bool {
    bytes.len() > 262 && &bytes[257..262] == b"ustar"
}

/// Files under `root`, breadth first, at most a few levels down.
fn walk(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![(root.to_path_buf(), 0)];
    while let Some((d, depth)) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() && depth < 4 {
                dirs.push((p, depth + 1));
            } else if p.is_file() {
                out.push(p);
            }
        }
    }
    out
}

/// What an unpacked archive holds to open: a game directory (the folder
/// of its GAME.TXT), else the last of its `.dip` files, else its one file.
fn game_in(root: &Path, upload: &str) -> BoardResult<PathBuf> {
    let files = walk(root);
    let name_of = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default()
    };
    if let Some(g) = files.iter().find(|p| name_of(p) == "GAME.TXT") {
        return Ok(g.parent().unwrap_or(root).to_path_buf());
    }
    let mut dips: Vec<&PathBuf> = files.iter().filter(|p| name_of(p).ends_with(".DIP")).collect();
    dips.sort_by_key(|p| dipfile::game_files(p).iter().position(|q| q == *p).unwrap_or(0));
    if let Some(last) = dipfile::game_files(dips.first().map(|p| p.as_path()).unwrap_or(Path::new("")))
        .last()
        .filter(|_| !dips.is_empty())
    {
        return Ok(last.clone());
    }
    match files.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(BoardError::new(format!("{upload}: the archive holds no file"))),
        _ => Err(BoardError::new(format!(
            "{upload}: the archive holds no GAME.TXT or .dip file, and more than one file: which is the game?"
        ))),
    }
}

/// Opens an uploaded file (its name and bytes). The board is built whole
/// or not at all.
pub fn open_upload(boards: &Boards, name: &str, bytes: &[u8]) -> BoardResult<Board> {
    if bytes.len() > MAX_UPLOAD {
        return Err(BoardError::new(format!("{name}: larger than 10 MB: not opened")));
    }
    let scratch = Scratch::new()?;
    let upload = upload_name(name);
    let archive = bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") || is_tar(bytes);
    let path = if archive {
        unpack(bytes, &scratch.0, &upload)?;
        game_in(&scratch.0, &upload)?
    } else {
        let p = scratch.0.join(&upload);
        std::fs::write(&p, bytes).map_err(err)?;
        p
    };
    let mut board = open_path(boards, &path, "standard").map_err(|e| {
        // Messages name the upload, not the private folder it was put in.
        let root = scratch.0.display().to_string();
        BoardError::new(e.0.replace(&format!("{root}/"), "").replace(&root, &upload))
    })?;
    board.file = Some(upload.clone()).filter(|_| !archive);
    Ok(board)
}

/// The variant of a game read from a file, as the board plays it: a
/// bundled variant shared by name; another (locally only) kept under its
/// name so that the board can be written down and read back.
fn loaded(boards: &Boards, variant: dip_variants::Variant, from_file: bool) -> BoardResult<Arc<Loaded>> {
    let bundled = dip_variants::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(&variant.name));
    if bundled && !from_file {
        return boards.variant(&variant.name);
    }
    if !boards.settings.local {
        return Err(BoardError::new(format!(
            "the game is played on the variant `{}` from its own files: this server plays bundled variants only ({})",
            variant.name,
            dip_variants::bundled()
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let name = variant.name.clone();
    Ok(boards.variants.insert(&name, variant))
}

/// The kernel's game played through `phases`, standing at `end`.
pub fn replay(loaded: Arc<Loaded>, rules: Ruleset, phases: &[PhaseRecord], end: State) -> Game {
    let first = phases.first().map(|p| p.state.clone()).unwrap_or_else(|| end.clone());
    let mut game = Game::from_state(loaded, first).with_rules(rules);
    for ph in phases {
        game.set_state(ph.state.clone());
        let vocab = game.loaded().vocabulary();
        let mut by_power: Vec<(PowerId, Vec<String>)> = Vec::new();
        for o in &ph.orders {
            let text = order_text(vocab, &ph.state, o);
            match by_power.iter_mut().find(|(p, _)| *p == o.power) {
                Some((_, l)) => l.push(text),
                None => by_power.push((o.power, vec![text])),
            }
        }
        for (p, lines) in by_power {
            game.submit(p, &lines.join("\n"));
        }
        game.process();
    }
    game.set_state(end);
    game
}

fn is_record_like(path: &Path) -> bool {
    let lower = path.to_string_lossy().to_ascii_lowercase();
    [".rec", ".json", ".jsonl", ".gz"].iter().any(|e| lower.ends_with(e))
}

fn has_history(dir: &Path) -> bool {
    dip_variants::files::find_dos_path(dir, "HISTORY.REC").is_some_and(|p| p.is_file())
}

/// Opens a game (or a variant's start) from a path: what `dip board FILE`
/// and an upload open. `variant`: the variant of a position file.
pub fn open_path(boards: &Boards, path: &Path, variant: &str) -> BoardResult<Board> {
    let shown = path.display().to_string();
    if !path.exists() {
        // A variant by name (bundled, or a jDip plugin's).
        return boards.start(&shown).map_err(|e| {
            BoardError::new(format!(
                "{shown}: no such file or folder, and no variant of that name ({e})"
            ))
        });
    }
    let lower = shown.to_ascii_lowercase();
    if lower.ends_with(".dip") {
        return open_dip(boards, path);
    }
    if is_record_like(path) || (path.is_dir() && has_history(path)) {
        let rec = dip_game::source::open_record(path, &boards.variants).map_err(err)?;
        let rules = Ruleset::parse(&rec.record.rules).unwrap_or_default();
        let from_file = rec.variant_path.is_some()
            || !dip_variants::bundled()
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(&rec.record.variant));
        let l = loaded(boards, rec.variant, from_file)?;
        // A game directory stands at its GAME.TXT; a record after its last phase.
        let end = if path.is_dir() {
            dip_game::source::open(path, variant, &boards.variants)
                .map_err(err)?
                .state
        } else {
            rec.record
                .last_state(&l)
                .ok_or_else(|| BoardError::new(format!("{shown}: the game has no phase")))?
        };
        let mut board = Board::new(replay(l, rules, &rec.record.phases, end));
        board.title = rec.record.name.clone();
        return Ok(board);
    }
    match dip_game::source::open(path, variant, &boards.variants) {
        Ok(o) => {
            let from_file = o.variant_path.is_some()
                || (o.note.is_some()
                    && !dip_variants::bundled()
                        .iter()
                        .any(|(n, _)| n.eq_ignore_ascii_case(&o.variant.name)));
            let rules = o.rules.unwrap_or(o.variant.rules);
            let l = loaded(boards, o.variant, from_file)?;
            Ok(Board::new(Game::from_state(l, o.state).with_rules(rules)))
        }
        Err(game_error) => {
            // Not a game: a variant's files give its start.
            if let Ok(board) = boards.start(&shown) {
                return Ok(board);
            }
            Err(err(game_error))
        }
    }
}

/// One of DIP's season files: the seasons before it (its series, found by
/// name as DIP's Animate game found them) are the history; the file's
/// own season is played from its position, and its entered orders, its
/// stage, title and names are the board's.
fn open_dip(boards: &Boards, path: &Path) -> BoardResult<Board> {
    let shown = path.display().to_string();
    let text = dip_game::files::read_text(path).map_err(BoardError::new)?;
    let variant = dip_game::record::variant_of_text(path, &text, &boards.variants).map_err(BoardError::new)?;
    let from_file = !dip_variants::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(&variant.name))
        || text.lines().find_map(|l| l.strip_prefix("variant ")).is_some_and(|v| {
            !dip_variants::bundled()
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(v.trim()))
        });
    let l = loaded(boards, variant, from_file)?;
    let vocab = dip_text::Vocabulary::new(l.map()).with_spellcheck(0);
    let season = dipfile::read_season(&vocab, &shown, &text).map_err(err)?;
    let first = season
        .record
        .phases
        .first()
        .map(|p| p.state.phase)
        .unwrap_or(season.end.phase);
    // The seasons before this one, from the files beside it.
    let mut phases: Vec<PhaseRecord> = Vec::new();
    let series = dipfile::game_files(path);
    if series.len() > 1 {
        let mut texts = Vec::new();
        for f in series.iter().filter(|f| f.as_path() != path) {
            texts.push((
                f.display().to_string(),
                dip_game::files::read_text(f).map_err(BoardError::new)?,
            ));
        }
        if let Ok(rec) = dipfile::from_dip_files_with(&vocab, &texts) {
            phases.extend(rec.phases.into_iter().filter(|p| p.state.phase < first));
        }
    }
    phases.extend(season.record.phases.iter().cloned());
    let rules = Ruleset::parse(&season.record.rules).unwrap_or_default();
    let mut board = Board::new(replay(l, rules, &phases, season.end.clone()));
    board.title = season.record.name.clone();
    for (p, n) in &season.players {
        board.names.insert(p.clone(), n.clone());
    }
    if !season.entered.is_empty() {
        super::orders::enter(&mut board, &season.entered.join("\n"), None, super::orders::How::Typed)
            .map_err(|e| BoardError::new(format!("{shown}: the orders entered: {e}")))?;
        board.undo.clear();
    }
    board.finished = season.finished;
    board.show_results = !season.record.phases.is_empty();
    board.file = path.file_name().map(|n| n.to_string_lossy().to_string());
    board.format = Some(Format::Dip);
    Ok(board)
}
