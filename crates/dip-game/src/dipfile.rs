//! DIP's game files (`.dip`): one file a season, ASCII, holding the position
//! at the start of the season and every move, retreat and adjustment made in
//! it ("Season finished"). A game is a series named `NAME_s01.dip`,
//! `NAME_a01.dip`, `NAME_s02.dip`, ... (spring and autumn, the year after
//! 1900), which is how DIP's "Animate game" finds the files of one game.
//! DIP's help describes the file but not its layout; docs/game-record.md
//! gives the layout dip writes and reads.

use crate::record::{GameRecord, PhaseRecord};
use dip_core::{Map, PhaseKind, Season, State};
use dip_text::{format_order_in, format_position, parse_order_with, parse_position, Style, Vocabulary};

/// The file name of a season: `NAME_s01.dip`, `NAME_a01.dip`.
pub fn file_name(prefix: &str, state: &State) -> String {
    let s = match state.phase.season {
        Season::Spring => 's',
        Season::Fall => 'a',
    };
    // DIP counts years after 1900 in two digits; other years are written
    // whole, so that 1901 and 2001 never share a name.
    let year = state.phase.year;
    if (1901..=1999).contains(&year) {
        format!("{prefix}_{s}{:02}.dip", year - 1900)
    } else {
        format!("{prefix}_{s}y{year}.dip")
    }
}

/// The renamed provinces of `vocab` (DIP's fixnames.dat): (default, new).
fn renames(vocab: &Vocabulary) -> Vec<(String, String)> {
    let map = vocab.map();
    map.province_ids()
        .filter(|&p| vocab.print_name(p) != map.province(p).abbr)
        .map(|p| (map.province(p).abbr.clone(), vocab.print_name(p).to_string()))
        .collect()
}

/// A position's text with province names swapped (`nth` → `nts` and back):
/// DIP writes its files with the names of fixnames.dat.
fn rename_places(text: &str, pairs: &[(String, String)], to_new: bool) -> String {
    if pairs.is_empty() {
        return text.to_string();
    }
    let swap = |w: &str| -> String {
        let (base, coast) = match w.split_once('/') {
            Some((b, c)) => (b, Some(c)),
            None => (w, None),
        };
        let found = pairs.iter().find_map(|(old, new)| {
            let (from, to) = if to_new { (old, new) } else { (new, old) };
            base.eq_ignore_ascii_case(from).then_some(to)
        });
        match (found, coast) {
            (Some(t), Some(c)) => format!("{t}/{c}"),
            (Some(t), None) => t.clone(),
            (None, _) => w.to_string(),
        }
    };
    text.lines()
        .map(|l| {
            let indent = &l[..l.len() - l.trim_start().len()];
            let words: Vec<String> = l.split_whitespace().map(swap).collect();
            format!("{indent}{}", words.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A phase's orders as DIP writes them: `moves`, `retreats` or
/// `adjustments`, then each order in DIP's form, indented.
fn write_phase_orders(text: &mut String, vocab: &Vocabulary, ph: &PhaseRecord) {
    let title = match ph.state.phase.kind {
        PhaseKind::Movement => "moves",
        PhaseKind::Retreat => "retreats",
        PhaseKind::Adjustment => "adjustments",
    };
    text.push_str(&format!("{title}\n"));
    for o in &ph.orders {
        text.push_str(&format!("  {}\n", format_order_in(vocab, &ph.state, o, Style::Dip)));
    }
}

/// The seasons of a record as `.dip` files: (file name, text).
pub fn to_dip_files(map: &Map, rec: &GameRecord, prefix: &str) -> Vec<(String, String)> {
    to_dip_files_with(&Vocabulary::new(map), rec, prefix)
}

/// The same with `vocab`'s names (DIP's fixnames.dat): the orders in
/// DIP's own form (`ENG F(Edi) S A(Lon) - NTH`, `ENG F(NTH) S GER A(Bel) -
/// Hol`, `RUS A(StP) retreat Mos`, `GER build A(Kie)`), as its help shows
/// them, and the position with the same names.
pub fn to_dip_files_with(vocab: &Vocabulary, rec: &GameRecord, prefix: &str) -> Vec<(String, String)> {
    let map = vocab.map();
    let pairs = renames(vocab);
    let mut out: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < rec.phases.len() {
        let start = &rec.phases[i];
        let (year, season) = (start.state.phase.year, start.state.phase.season);
        let mut text = String::from("DIP game file\n");
        text.push_str(&format!(
            "game {}\nvariant {}\nrules {}\n",
            rec.name, rec.variant, rec.rules
        ));
        let pos = rename_places(&format_position(map, &start.state), &pairs, true);
        for line in pos.lines().filter(|l| !l.starts_with("variant ")) {
            text.push_str(line);
            text.push('\n');
        }
        let mut j = i;
        while j < rec.phases.len()
            && rec.phases[j].state.phase.year == year
            && rec.phases[j].state.phase.season == season
        {
            write_phase_orders(&mut text, vocab, &rec.phases[j]);
            j += 1;
        }
        // A season the record ends in the middle of is saved at its stage
        // (DIP's "before retreats", "before adjustments"): no `season
        // finished`.
        let finished = j < rec.phases.len()
            || rec
                .last_state(map)
                .is_some_and(|s| (s.phase.year, s.phase.season) != (year, season));
        if finished {
            text.push_str("season finished\n");
        }
        out.push((file_name(prefix, &start.state), text));
        i = j;
    }
    out
}

/// A record from `.dip` files (in any order: the seasons are sorted by the
/// phase each file starts at, so `d/*.dip`, which the shell sorts autumns
/// before springs, works): each season's phases are played from its
/// position, so the record needs no more. The same season twice, or a year
/// missing, is an error naming the files.
pub fn from_dip_files(map: &Map, files: &[(String, String)]) -> Result<GameRecord, crate::record::RecordError> {
    from_dip_files_with(&Vocabulary::new(map).with_spellcheck(0), files)
}

/// The same with `vocab`'s names (DIP's fixnames.dat) read in the
/// orders and the positions.
pub fn from_dip_files_with(
    vocab: &Vocabulary,
    files: &[(String, String)],
) -> Result<GameRecord, crate::record::RecordError> {
    let mut seasons: Vec<(GameRecord, &str)> = Vec::new();
    for f in files {
        seasons.push((season_of(vocab, std::slice::from_ref(f))?.0, &f.0));
    }
    seasons.sort_by_key(|(r, _)| r.phases.first().map(|p| p.state.phase));
    let mut rec: Option<GameRecord> = None;
    let mut last_file = "";
    for (season, file) in seasons {
        match rec.as_mut() {
            None => rec = Some(season),
            Some(r) => {
                if let (Some(prev), Some(next)) = (r.phases.last(), season.phases.first()) {
                    crate::record::check_follows(&prev.state.phase, &next.state.phase).map_err(|m| {
                        crate::record::RecordError {
                            file: file.to_string(),
                            line: 0,
                            message: format!("{m} (in {last_file})"),
                        }
                    })?;
                }
                if !season.name.is_empty() {
                    r.name = season.name;
                }
                r.phases.extend(season.phases);
            }
        }
        last_file = file;
    }
    Ok(rec.unwrap_or(GameRecord {
        name: String::new(),
        variant: "standard".into(),
        rules: "datc".into(),
        phases: Vec::new(),
    }))
}

/// The position one `.dip` file stands at: after the phases it records
/// (a finished season: the next season's start), or its own position when
/// it records none. With the number of phases played.
pub fn season_end(map: &Map, file: &str, text: &str) -> Result<(State, usize), crate::record::RecordError> {
    let vocab = Vocabulary::new(map).with_spellcheck(0);
    let (rec, end) = season_of(&vocab, &[(file.to_string(), text.to_string())])?;
    let end = end.ok_or_else(|| crate::record::RecordError {
        file: file.to_string(),
        line: 1,
        message: "no position in the file".into(),
    })?;
    Ok((end, rec.phases.len()))
}

/// The record of the seasons in `files`, and the position after the last.
fn season_of(
    vocab: &Vocabulary,
    files: &[(String, String)],
) -> Result<(GameRecord, Option<State>), crate::record::RecordError> {
    let mut rec = GameRecord {
        name: String::new(),
        variant: "standard".into(),
        rules: "datc".into(),
        phases: Vec::new(),
    };
    let mut end = None;
    for (file, text) in files {
        let s = read_season(vocab, file, text)?;
        rec.name = s.record.name;
        rec.variant = s.record.variant;
        rec.rules = s.record.rules;
        rec.phases.extend(s.record.phases);
        end = Some(s.end);
    }
    Ok((rec, end))
}

/// One season file read whole: what DIP's program holds of a season.
#[derive(Clone, Debug)]
pub struct SeasonFile {
    /// The phases played in the season (from its position).
    pub record: GameRecord,
    /// The position after them: the next phase to play.
    pub end: State,
    /// The players' names (`player POWER NAME` lines), as DIP's Edit names.
    pub players: Vec<(String, String)>,
    /// Orders entered for the next phase and not yet resolved (an
    /// `orders` section), as written.
    pub entered: Vec<String>,
    /// The file ends with `season finished` (DIP's last stage).
    pub finished: bool,
}

pub fn read_season(vocab: &Vocabulary, file: &str, text: &str) -> Result<SeasonFile, crate::record::RecordError> {
    let map = vocab.map();
    let pairs = renames(vocab);
    let err = |line: usize, message: String| season_error(file, line, message);
    let rules_text = text
        .lines()
        .find_map(|l| l.strip_prefix("rules "))
        .unwrap_or("datc")
        .trim()
        .to_string();
    let rules = dip_core::Ruleset::parse(&rules_text).unwrap_or_default();
    let mut rec = GameRecord {
        name: String::new(),
        variant: "standard".into(),
        rules: rules_text,
        phases: Vec::new(),
    };
    let mut players = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    if lines.first().map(|l| l.trim()) != Some("DIP game file") {
        return Err(err(1, "expected `DIP game file` on the first line".into()));
    }
    let mut k = 1;
    while k < lines.len() && !lines[k].starts_with("phase ") {
        if let Some(v) = lines[k].strip_prefix("game ") {
            rec.name = v.trim().to_string();
        }
        if let Some(v) = lines[k].strip_prefix("variant ") {
            rec.variant = v.trim().to_string();
        }
        if let Some(v) = lines[k].strip_prefix("player ") {
            players.push(player_line(map, v.trim()).ok_or_else(|| {
                err(
                    k + 1,
                    format!("`player {}`: no such power (expected `player POWER NAME`)", v.trim()),
                )
            })?);
        }
        k += 1;
    }
    let pos_start = k;
    while k < lines.len() && !is_section(lines[k]) {
        k += 1;
    }
    let pos_text = rename_places(&lines[pos_start..k].join("\n"), &pairs, false);
    let state = parse_position(map, &pos_text, file).map_err(|e| err(pos_start + e.line, e.message))?;
    let played = play_sections(vocab, file, &lines[..], k, state, &rules, &mut rec)?;
    Ok(SeasonFile {
        record: rec,
        end: played.end,
        players,
        entered: played.entered,
        finished: played.finished,
    })
}

fn season_error(file: &str, line: usize, message: String) -> crate::record::RecordError {
    crate::record::RecordError {
        file: file.to_string(),
        line,
        message,
    }
}

/// `player England Anne Smith`: the power's name, then the player's.
fn player_line(map: &dip_core::Map, v: &str) -> Option<(String, String)> {
    let power = map
        .powers()
        .iter()
        .find(|p| v.starts_with(p.name.as_str()) && v[p.name.len()..].starts_with(' '))
        .map(|p| p.name.clone())
        .or_else(|| {
            let w = v.split_whitespace().next()?;
            map.find_power(w).map(|p| map.power(p).name.clone())
        })?;
    let name = v
        .strip_prefix(power.as_str())
        .unwrap_or_else(|| v.split_once(' ').map(|(_, n)| n).unwrap_or(""))
        .trim();
    Some((power, name.to_string()))
}

/// The head of a section of a season file.
fn is_section(l: &str) -> bool {
    matches!(
        l.trim(),
        "moves" | "retreats" | "adjustments" | "orders" | "season finished"
    )
}

/// Where a season file's sections leave the game.
struct Played {
    end: State,
    entered: Vec<String>,
    finished: bool,
}

/// The season's phases from line `k`, each played from the one before
/// and added to `rec`; an `orders` section is entered, not played.
fn play_sections(
    vocab: &Vocabulary,
    file: &str,
    lines: &[&str],
    mut k: usize,
    mut state: State,
    rules: &dip_core::Ruleset,
    rec: &mut GameRecord,
) -> Result<Played, crate::record::RecordError> {
    let map = vocab.map();
    let err = |line: usize, message: String| season_error(file, line, message);
    // Built at the first phase played: a file saved before moves plays none.
    let mut game = None;
    let mut entered = Vec::new();
    let mut finished = false;
    while k < lines.len() {
        let head = lines[k].trim();
        if head == "season finished" {
            finished = true;
            break;
        }
        if !is_section(head) {
            return Err(err(
                k + 1,
                format!("`{head}`: expected a section (moves, retreats, adjustments, orders, season finished) or an order indented by two spaces"),
            ));
        }
        k += 1;
        let mut orders = Vec::new();
        while k < lines.len() && lines[k].starts_with("  ") {
            if head == "orders" {
                entered.push(lines[k].trim().to_string());
            } else {
                let o = parse_order_with(vocab, lines[k].trim(), None).map_err(|e| err(k + 1, e.to_string()))?;
                orders.push(o);
            }
            k += 1;
        }
        // DIP saves at any of its four stages ("before moves", "before
        // retreats", "before adjustments", "season finished"): a last
        // section with no orders is the stage it was saved at, not a
        // phase played without orders.
        if orders.is_empty() && entered.is_empty() && k >= lines.len() {
            break;
        }
        if head == "orders" {
            // Entered, not played: the season goes on from here.
            if let Some(extra) = lines[k..].iter().position(|l| !l.trim().is_empty()) {
                return Err(err(
                    k + 1 + extra,
                    "the `orders` section (orders entered, not yet resolved) must come last".into(),
                ));
            }
            break;
        }
        let game = game.get_or_insert_with(|| crate::as_read::AsRead::on(map, *rules));
        let next = game.play(&state, &orders).next.clone();
        rec.phases.push(PhaseRecord { state, orders });
        state = next;
    }
    Ok(Played {
        end: state,
        entered,
        finished,
    })
}

/// What one season file holds, to write it.
pub struct SeasonText<'a> {
    pub title: &'a str,
    pub variant: &'a str,
    pub rules: &'a str,
    pub players: &'a [(String, String)],
    /// The position the season's file starts from.
    pub start: &'a State,
    /// The phases played from it, each with its position and orders.
    pub phases: &'a [PhaseRecord],
    /// Orders entered for the next phase, not resolved (written last,
    /// in an `orders` section).
    pub entered: &'a [String],
    pub finished: bool,
}

/// A season file as text (the layout of docs/game-record.md), read back
/// by [`read_season`] to the same season.
pub fn write_season(vocab: &Vocabulary, s: &SeasonText) -> String {
    let map = vocab.map();
    let pairs = renames(vocab);
    let one_line = |t: &str| t.replace(['\n', '\r'], " ").trim().to_string();
    let mut text = String::from("DIP game file\n");
    text.push_str(&format!(
        "game {}\nvariant {}\nrules {}\n",
        one_line(s.title),
        one_line(s.variant),
        one_line(s.rules)
    ));
    for (power, name) in s.players.iter().filter(|(_, n)| !n.trim().is_empty()) {
        text.push_str(&format!("player {} {}\n", one_line(power), one_line(name)));
    }
    let pos = rename_places(&format_position(map, s.start), &pairs, true);
    for line in pos.lines().filter(|l| !l.starts_with("variant ")) {
        text.push_str(line);
        text.push('\n');
    }
    for ph in s.phases {
        write_phase_orders(&mut text, vocab, ph);
    }
    if s.finished {
        text.push_str("season finished\n");
    } else if !s.entered.is_empty() || s.phases.last().is_some_and(|p| p.orders.is_empty()) {
        // Also when nothing is entered after a phase played without
        // orders: a last empty section is read as the stage saved at.
        text.push_str("orders\n");
        for o in s.entered {
            text.push_str(&format!("  {}\n", one_line(o)));
        }
    }
    text
}

/// The orders of a `.dip` file given where an orders file is wanted, as
/// DIP's "Import" takes them ("only lines which 'look like' valid orders
/// are imported"): the lines of the section of the phase `kind` (`moves`,
/// `retreats`, `adjustments`); the header, the position and the other
/// sections are left out, as blank lines so that line numbers stay the
/// file's. `None` when `text` is no `.dip` file.
pub fn import_orders(text: &str, kind: PhaseKind) -> Option<String> {
    if text.lines().next().map(str::trim) != Some("DIP game file") {
        return None;
    }
    let want = match kind {
        PhaseKind::Movement => "moves",
        PhaseKind::Retreat => "retreats",
        PhaseKind::Adjustment => "adjustments",
    };
    let mut section = "";
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim();
        if !line.starts_with("  ") {
            section = t;
        } else if section == want {
            out.push_str(t);
        }
        out.push('\n');
    }
    Some(out)
}

/// The season a `.dip` file's name gives: where DIP's "Animate game" looks
/// for `Snn` or `Ann` (spring or autumn of 19nn), or dip's `sy2001`. Returns
/// (start, end) of that part of the name, and (year, autumn).
fn season_in_name(name: &str) -> Option<(usize, usize, (i32, bool))> {
    let b = name.as_bytes();
    let lower = name.to_ascii_lowercase();
    let stem_end = lower.rfind(".dip").unwrap_or(name.len());
    (0..stem_end).rev().find_map(|i| {
        let autumn = match b[i].to_ascii_lowercase() {
            b's' => false,
            b'a' => true,
            _ => return None,
        };
        let rest = &name[i + 1..stem_end];
        if let Some(y) = rest.strip_prefix('y').or_else(|| rest.strip_prefix('Y')) {
            let digits = y.bytes().take_while(u8::is_ascii_digit).count();
            let year: i32 = y[..digits].parse().ok()?;
            return (digits >= 3).then_some((i, i + 2 + digits, (year, autumn)));
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        (digits == 2).then(|| {
            let nn: i32 = rest[..2].parse().unwrap_or(0);
            (i, i + 3, (1900 + nn, autumn))
        })
    })
}

/// The files of the game a `.dip` file belongs to, as DIP's "Animate game"
/// finds them: same folder, same name but for its `Snn`/`Ann` part, in
/// season order. Just the file itself when its name has no season.
pub fn game_files(path: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().to_string()) else {
        return vec![path.to_path_buf()];
    };
    let Some((start, end, _)) = season_in_name(&name) else {
        return vec![path.to_path_buf()];
    };
    let (prefix, suffix) = (name[..start].to_ascii_lowercase(), name[end..].to_ascii_lowercase());
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let mut found: Vec<((i32, bool), std::path::PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            let (s, t, season) = season_in_name(&n)?;
            let same = n[..s].to_ascii_lowercase() == prefix && n[t..].to_ascii_lowercase() == suffix;
            (same && e.path().is_file()).then(|| (season, e.path()))
        })
        .collect();
    found.sort();
    if found.is_empty() {
        return vec![path.to_path_buf()];
    }
    found.into_iter().map(|(_, p)| p).collect()
}
