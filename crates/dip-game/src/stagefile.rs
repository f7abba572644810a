//! Stage files read back: DipWork's stages hand their work on in files, so
//! a game master can run the scanner and parser, correct PARSED.TXT (or
//! SCANNED.TXT) by hand, and run the conflicter on what they corrected.

use dip_text::{read_orders, ReadLine, Vocabulary};
use std::path::Path;

/// Which earlier stage file a run reads its orders from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Earlier {
    /// SCANNED.TXT: `line | nation | order as read | notes | text`.
    Scanned,
    /// PARSED.TXT: `line | fate | nation: order | notes | text`.
    Parsed,
}

impl Earlier {
    pub fn file_name(self) -> &'static str {
        match self {
            Earlier::Scanned => "SCANNED.TXT",
            Earlier::Parsed => "PARSED.TXT",
        }
    }
}

/// The orders of a stage file as order lines, each with the line number it
/// had in the orders file. A line that is not five `|`-separated columns
/// is an error naming the file and line.
pub fn orders_of(vocab: &Vocabulary, which: Earlier, path: &Path, text: &str) -> Result<Vec<ReadLine>, String> {
    let mut written = String::new();
    let mut numbers = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = t.splitn(5, '|').map(str::trim).collect();
        let bad = |what: &str| {
            format!(
                "{}:{}: {what} (expected `line | {} | order | notes | text`, as dip wrote it)",
                path.display(),
                i + 1,
                match which {
                    Earlier::Scanned => "nation",
                    Earlier::Parsed => "fate",
                }
            )
        };
        if cols.len() < 5 {
            return Err(bad("expected five columns separated by `|`"));
        }
        let line: usize = cols[0]
            .parse()
            .map_err(|_| bad(&format!("expected the line number, found `{}`", cols[0])))?;
        let order = match which {
            Earlier::Parsed => match cols[2] {
                "(deleted)" => continue,
                o => o.to_string(),
            },
            Earlier::Scanned => match (cols[1], cols[2]) {
                // Not read as an order: the parser sees the line as written.
                (_, "(no order)") => cols[4].to_string(),
                ("?", o) => o.to_string(),
                (n, o) => format!("{n}: {o}"),
            },
        };
        // An inserted hold (line 0) is the parser's, not the writer's.
        if line == 0 {
            continue;
        }
        written.push_str(&order);
        written.push('\n');
        numbers.push(line);
    }
    let mut lines = read_orders(vocab, &written, None);
    for l in &mut lines {
        // read_orders numbers the lines of `written`; give back the orders
        // file's numbers.
        if let Some(&n) = numbers.get(l.line.wrapping_sub(1)) {
            l.line = n;
        }
    }
    Ok(lines)
}

/// The header line that ties a stage file to its phase.
pub fn phase_line(phase: &dip_core::Phase) -> String {
    format!("# phase: {}\n", phase.short())
}

/// Why a stage file does not belong to this turn: written for another
/// phase (a file left from an earlier turn), or older than the orders file
/// (the orders were changed after it was written). `None`: it is this
/// turn's, as it stands.
pub fn stale(path: &Path, text: &str, phase: &dip_core::Phase, orders: Option<&Path>) -> Option<String> {
    let written = text.lines().find_map(|l| l.strip_prefix("# phase: ")).map(str::trim);
    match written {
        Some(p) if p == phase.short() => {}
        Some(p) => return Some(format!("it is of {p}, the game is at {}", phase.short())),
        None => return Some("it names no phase (`# phase:` line)".into()),
    }
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if let (Some(o), Some(s)) = (orders.and_then(modified), modified(path)) {
        if o > s {
            return Some("the orders file was changed after it".into());
        }
    }
    None
}
