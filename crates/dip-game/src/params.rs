//! DipWork's keyword files (PROJECT.TXT, VARIANT.TXT, GAME.TXT, ORDERS.TXT):
//! `KEYWORD value` lines, lists that run to the next blank line, `END`; and
//! the lookup of game parameters ORDERS → GAME → VARIANT → PROJECT, the first
//! found wins.

use std::path::PathBuf;

/// One keyword line of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub value: String,
    pub line: usize,
}

/// The keyword lines and lists of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamFile {
    pub path: PathBuf,
    pub entries: Vec<Entry>,
}

/// Keywords that begin a list in DipWork's files (the list runs to the next
/// blank line).
pub const LIST_KEYWORDS: &[&str] = &["GAMELIST", "NATIONLIST", "UNITLIST", "ORDERLIST", "MENULIST", "PICLIST"];

impl ParamFile {
    /// Reads keyword lines: an upper-case first word, then the value.
    /// Lists (`GAMELIST` ...) collect their lines up to a blank line into
    /// one entry whose value holds the lines joined by `\n`.
    pub fn parse(text: &str, path: PathBuf) -> ParamFile {
        let mut entries = Vec::new();
        let mut list: Option<Entry> = None;
        let text = dip_variants::files::strip_bom(text);
        // The lines once, so that looking at the next line is constant time
        // (`lines().nth` in the loop made reading quadratic).
        let all: Vec<&str> = text.lines().collect();
        for (i, raw) in all.iter().enumerate() {
            let line = raw.trim_end();
            if let Some(l) = list.as_mut() {
                if line.trim().is_empty() {
                    entries.push(list.take().expect("in a list"));
                } else {
                    if !l.value.is_empty() {
                        l.value.push('\n');
                    }
                    l.value.push_str(line.trim());
                }
                continue;
            }
            let t = line.trim();
            let (key, value) = match t.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v.trim()),
                None => (t, ""),
            };
            if key == "END" {
                break;
            }
            let is_keyword = !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                && key.chars().next().is_some_and(|c| c.is_ascii_uppercase());
            if !is_keyword {
                continue;
            }
            let e = Entry {
                key: key.to_string(),
                value: value.to_string(),
                line: i + 1,
            };
            // A list: the known list keywords, and any keyword alone on its
            // line whose next line is no keyword (a submenu).
            let next_is_item = all.get(i + 1).map(|n| n.trim()).is_some_and(|n| {
                !n.is_empty()
                    && !n.chars().next().is_some_and(|c| {
                        c.is_ascii_uppercase()
                            && n.split_whitespace().next().is_some_and(|w| {
                                w.chars()
                                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                            })
                    })
            });
            if LIST_KEYWORDS.contains(&key) || (value.is_empty() && next_is_item) {
                list = Some(e);
            } else {
                entries.push(e);
            }
        }
        entries.extend(list);
        ParamFile { path, entries }
    }

    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }
}

/// The lookup chain of game parameters, most specific file first.
#[derive(Clone, Debug, Default)]
pub struct Params {
    pub files: Vec<ParamFile>,
}

/// A parameter that has the wrong type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {key} takes {expected}, not `{value}`", dip_core::colon_line(.line))]
pub struct ParamError {
    pub file: String,
    pub line: usize,
    pub key: String,
    pub value: String,
    pub expected: &'static str,
}

impl Params {
    /// The first file that sets `key`, with the entry.
    pub fn find(&self, key: &str) -> Option<(&ParamFile, &Entry)> {
        self.files.iter().find_map(|f| f.get(key).map(|e| (f, e)))
    }
    pub fn string(&self, key: &str) -> Option<String> {
        self.find(key).map(|(_, e)| e.value.clone())
    }
    fn error(&self, key: &str, expected: &'static str) -> ParamError {
        let (f, e) = self.find(key).expect("called on a found key");
        ParamError {
            file: f.path.display().to_string(),
            line: e.line,
            key: key.to_string(),
            value: e.value.clone(),
            expected,
        }
    }
    /// DipWork's booleans: JA/YES/J/Y/1/+/ON and NEIN/NO/N/0/-/OFF.
    pub fn boolean(&self, key: &str, default: bool) -> Result<bool, ParamError> {
        match self.find(key) {
            None => Ok(default),
            Some((_, e)) => dip_core::rules::parse_bool(&e.value).ok_or_else(|| self.error(key, "yes or no")),
        }
    }
    pub fn number(&self, key: &str, default: i64) -> Result<i64, ParamError> {
        match self.find(key) {
            None => Ok(default),
            Some((_, e)) => e.value.parse().map_err(|_| self.error(key, "a number")),
        }
    }
    /// An ASCII list (`91`, `32 38`; `%` = empty) as text.
    pub fn ascii(&self, key: &str, default: &str) -> Result<String, ParamError> {
        match self.find(key) {
            None => Ok(default.to_string()),
            Some((_, e)) => ascii_list(&e.value).ok_or_else(|| self.error(key, "character codes such as `91` or `%`")),
        }
    }
    /// A string where `%` means empty.
    pub fn text(&self, key: &str, default: &str) -> String {
        match self.find(key) {
            None => default.to_string(),
            Some((_, e)) if e.value == "%" => String::new(),
            Some((_, e)) => e.value.clone(),
        }
    }
}

/// `91` → `[`, `32 38` → ` &`, `%` → empty.
pub fn ascii_list(v: &str) -> Option<String> {
    let v = v.trim();
    if v == "%" || v.is_empty() {
        return Some(String::new());
    }
    v.split_whitespace()
        .map(|n| n.parse::<u8>().ok().map(char::from))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_run_to_a_blank_line_and_end_stops() {
        let f = ParamFile::parse(
            "NAME Meine Partie\nGAMELIST\nCosa % KapDip\nTest % Eine Testpartie\n\nMASTER Torsten\nEND\nZAT never\n",
            "PROJECT.TXT".into(),
        );
        assert_eq!(f.get("NAME").unwrap().value, "Meine Partie");
        assert_eq!(
            f.get("GAMELIST").unwrap().value,
            "Cosa % KapDip\nTest % Eine Testpartie"
        );
        assert_eq!(f.get("MASTER").unwrap().line, 6);
        assert!(f.get("ZAT").is_none(), "nothing after END");
    }

    #[test]
    fn first_file_wins_and_types_are_checked() {
        let orders = ParamFile::parse("YEAR Spring 03\nSELF_CUT_OK ja\n", "ORDERS.TXT".into());
        let game = ParamFile::parse("YEAR 1901\nSPELLCHECK drei\nCOLUMNSEPCODE 32 38\n", "GAME.TXT".into());
        let p = Params {
            files: vec![orders, game],
        };
        assert_eq!(p.string("YEAR").unwrap(), "Spring 03");
        assert!(p.boolean("SELF_CUT_OK", false).unwrap());
        let e = p.number("SPELLCHECK", 3).unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("GAME.TXT", 2));
        assert_eq!(p.ascii("COLUMNSEPCODE", "\t").unwrap(), " &");
        assert_eq!(p.ascii("UNDERLINE_ON", "[").unwrap(), "[");
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    /// The reader called `lines().nth` in its line loop: 40,000 lines took
    /// seconds.
    #[test]
    fn param_reader_calls_nth_in_its_loop() {
        let mut t = String::new();
        for i in 0..40_000 {
            t.push_str(&format!("KEY{i} value\n"));
        }
        let start = std::time::Instant::now();
        let f = ParamFile::parse(&t, PathBuf::from("ORDERS.TXT"));
        assert_eq!(f.entries.len(), 40_000);
        assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let f = ParamFile::parse("\u{feff}NAME x\n", PathBuf::from("GAME.TXT"));
        assert_eq!(f.get("NAME").map(|e| e.value.as_str()), Some("x"));
    }
}
