//! Result tables: the text format in the spirit of Analyse (docs/results-format.md),
//! CSV, and finished games given as final centre counts.

use crate::error::Error;
use std::borrow::Cow;

/// A calendar date (year, month, day).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub y: i32,
    pub m: u32,
    pub d: u32,
}

impl Date {
    /// `yyyymmdd` as a number.
    pub fn number(self) -> f64 {
        (self.y as i64 * 10000 + self.m as i64 * 100 + self.d as i64) as f64
    }
    /// Days since 1970-01-01 (proleptic Gregorian).
    pub fn days(self) -> i64 {
        let y = self.y as i64 - if self.m <= 2 { 1 } else { 0 };
        let era = if y >= 0 { y } else { y - 399 } / 400;
        let yoe = y - era * 400;
        let m = self.m as i64;
        let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + self.d as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146097 + doe - 719468
    }
    /// The date of a day count since 1970-01-01.
    pub fn from_days(z: i64) -> Date {
        let z = z + 719468;
        let era = if z >= 0 { z } else { z - 146096 } / 146097;
        let doe = z - era * 146097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let y = (yoe + era * 400 + if m <= 2 { 1 } else { 0 }) as i32;
        Date { y, m, d }
    }
    /// Reads `yyyy-mm-dd`, `dd.mm.yyyy` or `yyyymmdd`.
    pub fn parse(s: &str) -> Option<Date> {
        let ok = |y: i32, m: u32, d: u32| (1..=12).contains(&m) && (1..=31).contains(&d) && (0..=9999).contains(&y);
        let nums: Vec<&str> = s.split(['-', '.', '/']).collect();
        let (y, m, d) = match nums.as_slice() {
            [a] if a.len() == 8 && a.bytes().all(|b| b.is_ascii_digit()) => {
                (a[..4].parse().ok()?, a[4..6].parse().ok()?, a[6..].parse().ok()?)
            }
            [y, m, d] if s.contains('-') || s.contains('/') => (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?),
            [d, m, y] if s.contains('.') => (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?),
            _ => return None,
        };
        ok(y, m, d).then_some(Date { y, m, d })
    }
}

/// One game as read from a table, before points are chosen (READPOINTS).
#[derive(Debug, Clone, PartialEq)]
pub struct RawGame {
    pub file: String,
    pub line: u32,
    /// The title line without its sign character.
    pub title: String,
    /// The free text of the title line (after date, factor and attributes).
    pub text: String,
    pub date: Option<Date>,
    /// The weight factor `*nnn`; 100 when absent.
    pub factor: f64,
    pub attributes: Vec<String>,
    pub players: Vec<RawPlayer>,
}

/// One player line.
#[derive(Debug, Clone, PartialEq)]
pub struct RawPlayer {
    pub name: String,
    /// The id in brackets, or the name.
    pub id: String,
    pub points: Vec<f64>,
    pub line: u32,
}

/// The two table modes of Analyse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One result per player; when it is left out, the order of the lines
    /// gives it (first of N players gets N, last gets 1).
    Ranglist,
    /// Several point columns P.1 … P.n per player, chosen by READPOINTS.
    Multi,
}

/// Preprocessing of a data file (SCANMODE's PREOFF, PRECHAR, PRECOMMENT, PRETIE).
#[derive(Debug, Clone, PartialEq)]
pub struct DataPre {
    pub off: bool,
    pub prechar: char,
    pub open: String,
    pub close: String,
    pub eol: String,
    pub tie: String,
}

impl Default for DataPre {
    fn default() -> Self {
        DataPre {
            off: false,
            prechar: '#',
            open: "{".into(),
            close: "}".into(),
            eol: "!".into(),
            tie: "\\".into(),
        }
    }
}

/// Removes comments from one line (outside quotes): `open … close` and `eol …`.
pub fn strip_comments(line: &str, open: &str, close: &str, eol: &str) -> String {
    let has = |p: &str| !p.is_empty() && line.contains(p);
    if !has(open) && !has(eol) && !line.contains(['\'', '"']) {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut quote: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c == '\'' || c == '"' {
            quote = Some(c);
            out.push(c);
            rest = &rest[1..];
            continue;
        }
        if !eol.is_empty() && rest.starts_with(eol) {
            out.push(' ');
            break;
        }
        if !open.is_empty() && rest.starts_with(open) {
            out.push(' ');
            match rest[open.len()..].find(close) {
                Some(k) if !close.is_empty() => rest = &rest[open.len() + k + close.len()..],
                _ => break,
            }
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The first character of a data file that is not a comment or a space: the
/// SIGN that chooses a scan mode.
pub fn first_sign(text: &str, pre: &DataPre) -> Option<char> {
    for line in text.lines() {
        let l = if pre.off {
            line.to_string()
        } else {
            strip_comments(line, &pre.open, &pre.close, &pre.eol)
        };
        let t = l.trim();
        if t.is_empty() || (!pre.off && t.starts_with(pre.prechar)) {
            continue;
        }
        return t.chars().next();
    }
    None
}

/// Logical lines of a data file: comments removed, continuations joined,
/// preprocessor lines skipped; each with its first physical line number.
/// Lines without comments or ties are borrowed, not copied.
fn data_lines<'a>(text: &'a str, pre: &'a DataPre) -> impl Iterator<Item = (u32, Cow<'a, str>)> + 'a {
    let mut lines = text.lines().enumerate();
    std::iter::from_fn(move || {
        let mut cur: Option<(u32, String)> = None;
        loop {
            let Some((i, raw)) = lines.next() else {
                return cur.map(|(n, s)| (n, Cow::Owned(s)));
            };
            let n = i as u32 + 1;
            let mut l: Cow<'a, str> = if pre.off {
                Cow::Borrowed(raw)
            } else {
                strip_comments_cow(raw, pre)
            };
            let mut cont = false;
            if !pre.off && !pre.tie.is_empty() {
                let t = l.trim_end();
                if let Some(s) = t.strip_suffix(pre.tie.as_str()) {
                    l = Cow::Owned(s.to_string());
                    cont = true;
                }
            }
            let entry: (u32, Cow<'a, str>) = match cur.take() {
                Some((first, mut acc)) => {
                    acc.push(' ');
                    acc.push_str(&l);
                    (first, Cow::Owned(acc))
                }
                None => (n, l),
            };
            if cont {
                cur = Some((entry.0, entry.1.into_owned()));
                continue;
            }
            let t = entry.1.trim();
            if t.is_empty() || (!pre.off && t.starts_with(pre.prechar)) {
                continue;
            }
            return Some(entry);
        }
    })
}

fn strip_comments_cow<'a>(line: &'a str, pre: &DataPre) -> Cow<'a, str> {
    let has = |p: &str| !p.is_empty() && line.contains(p);
    if !has(&pre.open) && !has(&pre.eol) && !line.contains(['\'', '"']) {
        return Cow::Borrowed(line);
    }
    Cow::Owned(strip_comments(line, &pre.open, &pre.close, &pre.eol))
}

/// Reads a result table: every game starts with a title line that begins
/// with `sign`; player lines follow.
pub fn parse_table(file: &str, text: &str, sign: char, mode: Mode, pre: &DataPre) -> Result<Vec<RawGame>, Error> {
    let mut games: Vec<RawGame> = Vec::new();
    for (n, line) in data_lines(text, pre) {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(sign) {
            games.push(parse_title(file, n, rest.trim()));
            continue;
        }
        let Some(g) = games.last_mut() else {
            let col = line.find(|c: char| !c.is_whitespace()).unwrap_or(0) as u32 + 1;
            return Err(Error::new(
                file,
                n,
                col,
                format!("expected a title line beginning with `{sign}` before the first player"),
            ));
        };
        let p = parse_player(file, n, &line)?;
        if mode == Mode::Ranglist && p.points.len() > 1 {
            return Err(Error::new(
                file,
                n,
                1,
                "a RANGLIST table has at most one result per player",
            ));
        }
        if mode == Mode::Multi && p.points.is_empty() {
            return Err(Error::new(
                file,
                n,
                line.len() as u32 + 1,
                "expected one or more point columns after the player",
            ));
        }
        g.players.push(p);
    }
    for g in &mut games {
        if g.players.is_empty() {
            return Err(Error::new(file, g.line, 1, "game without players"));
        }
        if mode == Mode::Ranglist {
            let n = g.players.len();
            let given = g.players.iter().filter(|p| !p.points.is_empty()).count();
            if given != 0 && given != n {
                let p = g
                    .players
                    .iter()
                    .find(|p| p.points.is_empty())
                    .map(|p| p.line)
                    .unwrap_or(g.line);
                return Err(Error::new(
                    file,
                    p,
                    1,
                    "either every player of a game has a result or none has",
                ));
            }
            if given == 0 {
                for (i, p) in g.players.iter_mut().enumerate() {
                    p.points.push((n - i) as f64);
                }
            }
        }
    }
    Ok(games)
}

fn parse_title(file: &str, line: u32, rest: &str) -> RawGame {
    let mut g = RawGame {
        file: file.to_string(),
        line,
        title: rest.to_string(),
        text: String::new(),
        date: None,
        factor: 100.0,
        attributes: Vec::new(),
        players: Vec::new(),
    };
    let words = rest.split_whitespace().peekable();
    let mut text = Vec::new();
    for w in words {
        if !text.is_empty() {
            text.push(w);
            continue;
        }
        if g.date.is_none() {
            if let Some(d) = Date::parse(w) {
                g.date = Some(d);
                continue;
            }
        }
        if let Some(f) = w.strip_prefix('*').and_then(|f| f.parse::<f64>().ok()) {
            g.factor = f;
            continue;
        }
        if let Some(a) = w
            .strip_prefix('+')
            .filter(|a| !a.is_empty() && a.chars().all(|c| c.is_alphanumeric() || c == '_'))
        {
            g.attributes.push(a.to_ascii_uppercase());
            continue;
        }
        text.push(w);
    }
    g.text = text.join(" ");
    g
}

fn parse_player(file: &str, n: u32, line: &str) -> Result<RawPlayer, Error> {
    let words: Vec<(usize, &str)> = line
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
        .collect();
    let mut k = words.len();
    let mut points = Vec::new();
    while k > 0 {
        match point(words[k - 1].1) {
            Some(v) => points.push(v),
            None => break,
        }
        k -= 1;
    }
    points.reverse();
    if k == 0 {
        let col = words.first().map(|w| w.0).unwrap_or(0) as u32 + 1;
        return Err(Error::new(file, n, col, "expected a player name before the points"));
    }
    let mut name_words: Vec<&str> = words[..k].iter().map(|w| w.1).collect();
    let mut id = None;
    if let Some(last) = name_words.last() {
        if last.starts_with('[') && last.ends_with(']') && last.len() > 2 {
            id = Some(last[1..last.len() - 1].to_string());
            name_words.pop();
        }
    }
    if name_words.is_empty() {
        return Err(Error::new(
            file,
            n,
            words[0].0 as u32 + 1,
            "expected a player name before the id",
        ));
    }
    let name = name_words.join(" ");
    Ok(RawPlayer {
        id: id.unwrap_or_else(|| name.clone()),
        name,
        points,
        line: n,
    })
}

/// Reads CSV results: a header row, then one row per player. Columns `game`
/// and `player` are required; `id`, `date`, `factor`, `attributes` (space
/// separated) and `title` are optional; every other column is a point column.
pub fn parse_csv(file: &str, text: &str) -> Result<Vec<RawGame>, Error> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((hn, header)) = lines.next() else {
        return Ok(Vec::new());
    };
    let cols = CsvColumns::read(file, hn as u32 + 1, header)?;
    let mut games: Vec<RawGame> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    for (i, l) in lines {
        let row = CsvRow {
            file,
            n: i as u32 + 1,
            f: split_csv(l),
        };
        let key = row.get(Some(cols.game));
        let name = row.get(Some(cols.player));
        if name.is_empty() {
            return Err(row.err("empty player name"));
        }
        let points = cols.points(&row)?;
        // a game's first row gives its date, factor, title and attributes
        let gi = match keys.iter().position(|k| *k == key) {
            Some(gi) => gi,
            None => {
                games.push(cols.game(&row, &key)?);
                keys.push(key);
                games.len() - 1
            }
        };
        let id = if row.get(cols.id).is_empty() {
            name.clone()
        } else {
            row.get(cols.id)
        };
        games[gi].players.push(RawPlayer {
            name,
            id,
            points,
            line: row.n,
        });
    }
    Ok(games)
}

/// Where the columns of a CSV result table are, by the header's names.
struct CsvColumns {
    /// the header's names, in lower case
    head: Vec<String>,
    game: usize,
    player: usize,
    id: Option<usize>,
    date: Option<usize>,
    factor: Option<usize>,
    attributes: Option<usize>,
    title: Option<usize>,
    /// every column not named above
    points: Vec<usize>,
}

impl CsvColumns {
    fn read(file: &str, line: u32, header: &str) -> Result<CsvColumns, Error> {
        let head: Vec<String> = split_csv(header)
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        let col = |name: &str| head.iter().position(|h| h == name);
        let (Some(game), Some(player)) = (col("game"), col("player")) else {
            return Err(Error::new(
                file,
                line,
                1,
                "the CSV header needs the columns `game` and `player`",
            ));
        };
        let (id, date, factor, attributes, title) =
            (col("id"), col("date"), col("factor"), col("attributes"), col("title"));
        let known = [Some(game), Some(player), id, date, factor, attributes, title];
        let points: Vec<usize> = (0..head.len()).filter(|i| !known.contains(&Some(*i))).collect();
        Ok(CsvColumns {
            head,
            game,
            player,
            id,
            date,
            factor,
            attributes,
            title,
            points,
        })
    }

    /// The row's points: its non-empty point columns, at least one.
    fn points(&self, row: &CsvRow) -> Result<Vec<f64>, Error> {
        let mut points = Vec::new();
        for &c in &self.points {
            let s = row.f.get(c).map(|s| s.trim()).unwrap_or("");
            if s.is_empty() {
                continue;
            }
            match s.parse::<f64>() {
                Ok(v) if v.is_finite() => points.push(v),
                _ => return Err(row.err(format!("column `{}`: expected a number, found `{s}`", self.head[c]))),
            }
        }
        if points.is_empty() {
            return Err(row.err("expected at least one point column"));
        }
        Ok(points)
    }

    /// A new game from its first row (players are added after).
    fn game(&self, row: &CsvRow, key: &str) -> Result<RawGame, Error> {
        let date_s = row.get(self.date);
        let date = if date_s.is_empty() {
            None
        } else {
            Some(Date::parse(&date_s).ok_or_else(|| row.err(format!("bad date `{date_s}`")))?)
        };
        let fs = row.get(self.factor);
        let factor = if fs.is_empty() {
            100.0
        } else {
            fs.parse().map_err(|_| row.err(format!("bad factor `{fs}`")))?
        };
        let title = if row.get(self.title).is_empty() {
            key.to_string()
        } else {
            row.get(self.title)
        };
        Ok(RawGame {
            file: row.file.to_string(),
            line: row.n,
            title: title.clone(),
            text: title,
            date,
            factor,
            attributes: row
                .get(self.attributes)
                .split_whitespace()
                .map(|a| a.to_ascii_uppercase())
                .collect(),
            players: Vec::new(),
        })
    }
}

/// One row of a CSV result table and where it is.
struct CsvRow<'a> {
    file: &'a str,
    n: u32,
    f: Vec<String>,
}

impl CsvRow<'_> {
    /// The trimmed text of a column; empty when the column or cell is missing.
    fn get(&self, c: Option<usize>) -> String {
        c.and_then(|c| self.f.get(c))
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    }

    fn err(&self, msg: impl Into<String>) -> Error {
        Error::new(self.file, self.n, 1, msg)
    }
}

/// Writes games as a result table in the text format, with `sign` on the
/// title lines (`=` RANGLIST with one point per player, `@` 18XX): the
/// form dip's game records are exported in. Reading it back with
/// [`parse_table`] gives the same games (names and ids are kept; a player
/// whose name is not a valid table name gets written with its id).
pub fn write_table(games: &[RawGame], sign: char) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for g in games {
        let mut title = String::new();
        if let Some(d) = g.date {
            let _ = write!(title, " {:04}-{:02}-{:02}", d.y, d.m, d.d);
        }
        if g.factor != 100.0 {
            let _ = write!(title, " *{}", crate::expr::fmt_num(g.factor));
        }
        for a in &g.attributes {
            let _ = write!(title, " +{}", a.to_lowercase());
        }
        if !g.text.is_empty() {
            let _ = write!(title, " {}", clean(&g.text));
        }
        let _ = writeln!(out, "{sign}{title}");
        for p in &g.players {
            let name = clean(&p.name);
            let _ = write!(out, "{name}");
            if p.id != p.name || ends_with_number(&name) {
                let _ = write!(out, " [{}]", clean(&p.id).replace(' ', "_"));
            }
            for v in &p.points {
                let _ = write!(out, " {}", crate::expr::fmt_num(*v));
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// Text without comment or tie characters, on one line.
fn clean(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| if "{}!\\\n\r\t".contains(c) { ' ' } else { c })
        .collect();
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn ends_with_number(name: &str) -> bool {
    name.split_whitespace().last().and_then(point).is_some()
}

/// A word of a table line read as points: a finite number only, so that
/// names such as `Nan` or `Inf` stay names.
fn point(w: &str) -> Option<f64> {
    w.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Reads any result file with the default modes: CSV by the `.csv`
/// extension, otherwise a table whose first character chooses the mode
/// (`=` RANGLIST, `@` 18XX).
pub fn read_any(file: &str, text: &str) -> Result<Vec<RawGame>, Error> {
    if file.to_ascii_lowercase().ends_with(".csv") {
        return parse_csv(file, text);
    }
    let pre = DataPre::default();
    match first_sign(text, &pre) {
        None => Ok(Vec::new()),
        Some('=') => parse_table(file, text, '=', Mode::Ranglist, &pre),
        Some('@') => parse_table(file, text, '@', Mode::Multi, &pre),
        Some(c) => {
            let (line, col) = text
                .lines()
                .enumerate()
                .find_map(|(i, l)| l.find(c).map(|k| (i as u32 + 1, k as u32 + 1)))
                .unwrap_or((1, 1));
            Err(Error::new(
                file,
                line,
                col,
                format!("expected `=` (RANGLIST) or `@` (18XX) to begin a result table, found `{c}`"),
            ))
        }
    }
}

fn split_csv(l: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut q = false;
    let mut chars = l.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if q && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => q = !q,
            ',' | ';' if !q => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        for d in ["2024-02-29", "01.03.1999", "19700101"] {
            let x = Date::parse(d).unwrap();
            assert_eq!(Date::from_days(x.days()), x);
        }
        assert_eq!(Date::parse("1970-01-02").unwrap().days(), 1);
        assert_eq!(Date::parse("2024-13-01"), None);
    }

    #[test]
    fn ranglist_table() {
        let t = "{ a comment }\n= 1998-05-02 *150 +final Berlin, round 3 ! note\nAnna Schmidt [as] 17\nBob 10\n\n= 1998-05-03\nCarl\nDora\nEmil\n";
        let g = parse_table("t", t, '=', Mode::Ranglist, &DataPre::default()).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].date, Some(Date { y: 1998, m: 5, d: 2 }));
        assert_eq!(g[0].factor, 150.0);
        assert_eq!(g[0].attributes, vec!["FINAL"]);
        assert_eq!(g[0].text, "Berlin, round 3");
        assert_eq!(g[0].players[0].name, "Anna Schmidt");
        assert_eq!(g[0].players[0].id, "as");
        assert_eq!(
            g[1].players.iter().map(|p| p.points[0]).collect::<Vec<_>>(),
            vec![3.0, 2.0, 1.0]
        );
    }

    #[test]
    fn table_errors_are_located() {
        let e = parse_table("t.txt", "  Anna 3\n", '=', Mode::Ranglist, &DataPre::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.txt:1:3: expected a title line beginning with `=` before the first player"
        );
        let e = parse_table("t.txt", "@ x\nAnna\n", '@', Mode::Multi, &DataPre::default()).unwrap_err();
        assert_eq!((e.line, e.col), (2, 5));
    }

    #[test]
    fn csv_table() {
        let t =
            "game,date,player,centres,score\ng1,2020-01-01,Anna,10,50\ng1,2020-01-01,\"Bob, Jr.\",8,30\ng2,,Anna,3,1\n";
        let g = parse_csv("c", t).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].players[1].name, "Bob, Jr.");
        assert_eq!(g[0].players[1].points, vec![8.0, 30.0]);
    }
}
