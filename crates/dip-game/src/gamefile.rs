//! GAME.TXT and NEWGAME.TXT: the game's parameters (copied line by line) and,
//! per nation, its player, units and centres, as DipWork wrote them; plus
//! what dip adds so that the program, not the game master, tracks time:
//! `PHASE`, dislodged units and standoffs for three-phase games.

use crate::params::ParamFile;
use dip_core::{Dislodged, Map, Phase, PowerId, State, Unit};
use dip_text::position::{format_phase, parse_phase, parse_unit_of, EntryLines, Occupied};
use dip_text::{Position, Vocabulary};
use std::path::{Path, PathBuf};

/// A game file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", dip_core::colon_line(.line))]
pub struct GameError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// One `NATION` block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NationBlock {
    pub name: String,
    pub line: usize,
    pub player: Option<String>,
    pub units: Vec<(usize, String)>,
    pub centers: Vec<(usize, String)>,
    pub dislodged: Vec<(usize, String)>,
}

/// GAME.TXT as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFile {
    pub path: PathBuf,
    /// Every keyword line before the first `NATION`, verbatim.
    pub header: Vec<String>,
    /// The same lines as parameters.
    pub params: ParamFile,
    pub nations: Vec<NationBlock>,
    /// The variant's first year: the century of a two-digit YEAR (`F01`).
    pub start_year: Option<i32>,
    /// ORDERS.TXT's `YEAR` (file and line), the first file DipWork's
    /// parameter lookup reads and where its manual writes YEAR: the turn
    /// when GAME.TXT names neither PHASE nor YEAR.
    pub orders_year: Option<(PathBuf, usize, String)>,
}

const BLOCK_WORDS: &[&str] = &["UNITS", "CENTERS", "DISLODGED", "PLAYER", "NATION", "END"];

impl GameFile {
    pub fn read(text: &str, path: &Path) -> Result<GameFile, GameError> {
        let file = path.display().to_string();
        let err = |line: usize, message: String| GameError {
            file: file.clone(),
            line,
            message,
        };
        let mut g = GameFile {
            path: path.to_path_buf(),
            ..GameFile::default()
        };
        let mut header_text = String::new();
        let mut list = "";
        let mut ended = false;
        let text = dip_variants::files::strip_bom(text);
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            let first = line.split_whitespace().next().unwrap_or("");
            if first == "END" {
                ended = true;
                break;
            }
            if g.nations.is_empty() && first != "NATION" {
                g.header.push(raw.trim_end().to_string());
                header_text.push_str(raw);
                header_text.push('\n');
                continue;
            }
            if line.is_empty() || line == "%" {
                list = "";
                continue;
            }
            if BLOCK_WORDS.contains(&first) {
                let rest = line[first.len()..].trim();
                match first {
                    "NATION" => {
                        g.nations.push(NationBlock {
                            name: rest.to_string(),
                            line: n,
                            ..NationBlock::default()
                        });
                        list = "";
                    }
                    "PLAYER" => {
                        let nb = g.nations.last_mut().expect("inside a NATION");
                        nb.player = (!rest.is_empty()).then(|| rest.to_string());
                    }
                    other => list = other,
                }
                continue;
            }
            let nb = g.nations.last_mut().expect("inside a NATION");
            match list {
                "UNITS" => nb.units.push((n, line.to_string())),
                "CENTERS" => nb.centers.extend(line.split_whitespace().map(|c| (n, c.to_string()))),
                "DISLODGED" => nb.dislodged.push((n, line.to_string())),
                _ => {
                    return Err(err(
                        n,
                        format!(
                            "`{line}` is not inside UNITS, CENTERS or DISLODGED (expected one of them after NATION)"
                        ),
                    ))
                }
            }
        }
        // A file cut short (at a nation boundary, say) would lose whole
        // nations without a word: the file must end with `END`.
        if !ended {
            return Err(err(
                text.lines().count().max(1),
                "the file ends without `END` (cut short?); every GAME.TXT ends with a line `END`".into(),
            ));
        }
        g.params = ParamFile::parse(&header_text, path.to_path_buf());
        Ok(g)
    }

    /// The phase: the `PHASE` line, or else inferred from DipWork's `YEAR`
    /// (a free text such as `Herbst 1903` or `Spring 1902 Retreat`) and the
    /// unit lists (dislodged units: a retreat phase). The second value says
    /// how it was inferred, for the report; `None` when `PHASE` gave it.
    pub fn phase(&self) -> Result<(Phase, Option<String>), GameError> {
        let file = self.path.display().to_string();
        if let Some(e) = self.params.get("PHASE") {
            return parse_phase(&e.value).map(|p| (p, None)).map_err(|message| GameError {
                file,
                line: e.line,
                message,
            });
        }
        // GAME.TXT's YEAR, else ORDERS.TXT's (read first by the lookup).
        let (year_file, year_line, year_text) = match (self.params.get("YEAR"), &self.orders_year) {
            (Some(e), _) => (file.clone(), e.line, e.value.clone()),
            (None, Some((path, line, text))) => (path.display().to_string(), *line, text.clone()),
            (None, None) => (file.clone(), 1, String::new()),
        };
        let start = self.start_year.unwrap_or(1901);
        // A number written is the year, and must be one (never a quiet 1901).
        let read = crate::year::read(&year_text, start).map_err(|message| GameError {
            file: year_file.clone(),
            line: year_line,
            message: format!("YEAR: {message}"),
        })?;
        let dislodged = self.nations.iter().any(|n| !n.dislodged.is_empty());
        let phase = read.phase(start, dislodged);
        let how = if year_text.is_empty() {
            format!("{file}: no PHASE and no YEAR line: taken to be {}", title_phase(&phase))
        } else {
            let mut also = Vec::new();
            if read.short_year {
                also.push(format!("the year read as {}", phase.year));
            }
            if read.season.is_none() {
                also.push("no season named: spring".to_string());
            }
            if read.year.is_none() {
                also.push(format!("no year named: the variant's first, {start}"));
            }
            if dislodged && read.kind.is_none() {
                also.push("a retreat phase: there are dislodged units".to_string());
            }
            let also = if also.is_empty() {
                String::new()
            } else {
                format!(" ({})", also.join("; "))
            };
            let whose = if year_file == file {
                String::new()
            } else {
                format!(" of {year_file}:{year_line}")
            };
            format!(
                "{file}: no PHASE line: {} inferred from YEAR `{year_text}`{whose}{also}",
                title_phase(&phase)
            )
        };
        Ok((phase, Some(how)))
    }

    /// The position the file records.
    pub fn state(&self, vocab: &Vocabulary) -> Result<State, GameError> {
        let map = vocab.map();
        let file = self.path.display().to_string();
        let err = |line: usize, message: String| GameError {
            file: file.clone(),
            line,
            message,
        };
        let (phase, _) = self.phase()?;
        let mut position = Position::new(phase);
        // The file lists each power's centres; a centre not listed has no owner.
        let mut owners = Vec::new();
        let mut lines = EntryLines::default();
        let mut occupied = Occupied::new(map);
        let powers = self.powers(vocab)?;
        for (nb, &power) in self.nations.iter().zip(&powers) {
            for (n, text) in &nb.units {
                let u = parse_unit_of(vocab, Some(power), text).map_err(|m| err(*n, m))?;
                if !occupied.take(map, &u) {
                    return Err(err(*n, format!("a second unit in the same province: `{text}`")));
                }
                position.units.push(u);
                lines.units.push(*n);
            }
            for (n, c) in &nb.centers {
                let p = map
                    .find_province(c)
                    .ok_or_else(|| err(*n, format!("unknown centre `{c}`")))?;
                owners.push((power, p));
                lines.owners.push(*n);
            }
            for (n, text) in &nb.dislodged {
                let (unit_text, rest) = text
                    .split_once(" FROM ")
                    .ok_or_else(|| err(*n, format!("expected `A Ser FROM Bud`, found `{text}`")))?;
                let unit = parse_unit_of(vocab, Some(power), unit_text).map_err(|m| err(*n, m))?;
                let mut words = rest.split_whitespace();
                let from = words.next().unwrap_or("");
                let attacker_from = map
                    .find_province(from)
                    .ok_or_else(|| err(*n, format!("unknown province `{from}`")))?;
                let by_convoy = words.next().is_some_and(|w| w.eq_ignore_ascii_case("CONVOY"));
                position.dislodged.push(Dislodged {
                    unit,
                    attacker_from,
                    by_convoy,
                });
                lines.dislodged.push(*n);
            }
        }
        if let Some(e) = self.params.get("STANDOFFS") {
            for w in e.value.split_whitespace() {
                let p = map
                    .find_province(w)
                    .ok_or_else(|| err(e.line, format!("unknown province `{w}`")))?;
                position.standoffs.push(p);
                lines.standoffs.push(e.line);
            }
        }
        position.owners = Some(owners);
        State::from_position(map, &position).map_err(|e| {
            let (line, message) = lines.first(e);
            err(line, message)
        })
    }

    /// The nation of each `NATION` block. The manual: "what stands after
    /// NATION does not matter at all, since the nations come in the order
    /// of the variant's NATIONLIST" (`NATION Österreich-Ungarn` is the
    /// first nation). A name dip knows is that nation; any other name is
    /// the nation at the block's place. Two blocks of one nation are an
    /// error naming both.
    pub fn powers(&self, vocab: &Vocabulary) -> Result<Vec<PowerId>, GameError> {
        let map = vocab.map();
        let file = self.path.display().to_string();
        let mut out: Vec<PowerId> = Vec::with_capacity(self.nations.len());
        for (i, nb) in self.nations.iter().enumerate() {
            let named = vocab.nation(&nb.name).or_else(|| map.find_power(&nb.name));
            let power = named.or_else(|| map.power_ids().nth(i)).ok_or_else(|| GameError {
                file: file.clone(),
                line: nb.line,
                message: format!(
                    "NATION `{}`: the variant has {} nations, and no nation of that name",
                    nb.name,
                    map.powers().len()
                ),
            })?;
            if let Some(j) = out.iter().position(|&p| p == power) {
                let how = if named.is_some() { "is" } else { "by its place is" };
                return Err(GameError {
                    file: file.clone(),
                    line: nb.line,
                    message: format!(
                        "NATION `{}` {how} {}, as NATION `{}` on line {} (the nations come in NATIONLIST's order: {})",
                        nb.name,
                        map.power(power).name,
                        self.nations[j].name,
                        self.nations[j].line,
                        map.powers()
                            .iter()
                            .map(|p| p.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            }
            out.push(power);
        }
        Ok(out)
    }

    /// Blocks read by their place, not their name (`NATION
    /// Österreich-Ungarn`), as lines for the run's messages.
    pub fn nations_by_place(&self, vocab: &Vocabulary) -> Vec<String> {
        let Ok(powers) = self.powers(vocab) else {
            return Vec::new();
        };
        self.nations
            .iter()
            .zip(powers)
            .filter(|(nb, _)| {
                vocab
                    .nation(&nb.name)
                    .or_else(|| vocab.map().find_power(&nb.name))
                    .is_none()
            })
            .map(|(nb, p)| {
                format!(
                    "{}:{}: NATION `{}` read as {}, the nation at its place in NATIONLIST",
                    self.path.display(),
                    nb.line,
                    nb.name,
                    vocab.map().power(p).name
                )
            })
            .collect()
    }

    /// The player of a nation, if named.
    pub fn player(&self, vocab: &Vocabulary, power: PowerId) -> Option<&str> {
        let powers = self.powers(vocab).ok()?;
        self.nations
            .iter()
            .zip(powers)
            .find(|(_, p)| *p == power)
            .and_then(|(nb, _)| nb.player.as_deref())
    }
}

fn unit_text(map: &Map, u: &Unit) -> String {
    format!(
        "{} {}",
        map.unit_type(u.kind).letter,
        dip_text::report_region(map, u.region)
    )
}

/// Writes GAME.TXT/NEWGAME.TXT: the header lines (with `PHASE` and
/// `STANDOFFS` replaced), then every nation in the variant's order.
pub fn write_game(header: &[String], vocab: &Vocabulary, state: &State, players: &[Option<String>]) -> String {
    let map = vocab.map();
    let mut out = String::new();
    let mut wrote_phase = false;
    for line in header {
        let key = line.split_whitespace().next().unwrap_or("");
        match key {
            "PHASE" => {
                out.push_str(&format!("PHASE {}\n", title_phase(&state.phase)));
                wrote_phase = true;
            }
            "STANDOFFS" => {}
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    if !wrote_phase {
        out.push_str(&format!("PHASE {}\n", title_phase(&state.phase)));
    }
    if !state.standoffs.is_empty() {
        let names: Vec<&str> = state
            .standoffs
            .iter()
            .map(|i| map.provinces()[i].abbr.as_str())
            .collect();
        out.push_str(&format!("STANDOFFS {}\n", names.join(" ")));
    }
    for p in map.power_ids() {
        out.push_str(&format!("NATION {}\n", map.power(p).name));
        if let Some(Some(name)) = players.get(p.index()) {
            out.push_str(&format!("PLAYER {name}\n"));
        }
        out.push_str("UNITS\n");
        for (_, u) in state.units().filter(|(_, u)| u.power == p) {
            out.push_str(&unit_text(map, &u));
            out.push('\n');
        }
        let dislodged: Vec<_> = state.all_dislodged().filter(|(_, d)| d.unit.power == p).collect();
        if !dislodged.is_empty() {
            out.push_str("DISLODGED\n");
            for (_, d) in dislodged {
                out.push_str(&format!(
                    "{} FROM {}{}\n",
                    unit_text(map, &d.unit),
                    map.province(d.attacker_from).abbr,
                    if d.by_convoy { " CONVOY" } else { "" }
                ));
            }
        }
        out.push_str("CENTERS\n");
        let centers: Vec<&str> = state
            .centers_of(map, p)
            .map(|c| map.province(c).abbr.as_str())
            .collect();
        if !centers.is_empty() {
            out.push_str(&centers.join(" "));
            out.push('\n');
        }
        out.push_str("%\n");
    }
    out.push_str("END\n");
    out
}

/// `Spring 1901 Movement`.
pub fn title_phase(p: &Phase) -> String {
    format_phase(p)
        .split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
