//! The order corpus (tests/corpus/*.txt): every line with the order it must
//! be read as, or the error it must give. Format: tests/corpus/README.md.

use dip_core::{Map, Order, PowerId, Ruleset, State};
use dip_text::{
    check_turn, format_order, parse_order, parse_position, scan_line, CheckOptions, Fate, Note, ReadLine, ScanState,
    Style, Vocabulary,
};
use std::path::Path;

struct Block {
    title: String,
    file: String,
    turn: bool,
    /// Also adjudicate, and expect DipWork's result numbers (100-103).
    results: bool,
    power: Option<String>,
    spellcheck: Option<usize>,
    exact: bool,
    opts: CheckOptions,
    rules: Ruleset,
    position: Vec<String>,
    /// (line number, input, expected); input `None` for an inserted order.
    cases: Vec<(usize, Option<String>, String)>,
}

fn parse_file(file: &str, text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut in_position = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if raw.trim_start().starts_with('#') || raw.trim().is_empty() {
            continue;
        }
        if let Some(title) = raw.strip_prefix("== ") {
            blocks.push(Block {
                title: title.trim().to_string(),
                file: file.to_string(),
                turn: false,
                results: false,
                power: None,
                spellcheck: None,
                exact: false,
                opts: CheckOptions::default(),
                rules: Ruleset::DATC,
                position: Vec::new(),
                cases: Vec::new(),
            });
            in_position = false;
            continue;
        }
        let b = blocks
            .last_mut()
            .unwrap_or_else(|| panic!("{file}:{n}: a block starts with `== title`"));
        if let Some((input, expected)) = raw.rsplit_once(" => ") {
            let input = input.trim();
            let input = if input == "+" { None } else { Some(input.to_string()) };
            b.cases.push((n, input, expected.trim().to_string()));
            continue;
        }
        let line = raw.trim();
        if in_position {
            if line == "orders" {
                in_position = false;
            } else {
                b.position.push(raw.to_string());
            }
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "mode" => {
                b.turn = value == "turn" || value == "result";
                b.results = value == "result";
            }
            "power" => b.power = Some(value.to_string()),
            "spellcheck" => b.spellcheck = Some(value.parse().expect("spellcheck N")),
            "exact-match" => b.exact = true,
            "nsu-off" => b.opts.nsu_checking_off = true,
            "foreign" => b.opts.allow_foreign = true,
            "rules" => b.rules = Ruleset::parse(value).unwrap_or_else(|e| panic!("{file}:{n}: {e}")),
            "position" => in_position = true,
            "orders" => {}
            _ => panic!("{file}:{n}: unknown corpus line `{line}`"),
        }
    }
    blocks
}

/// `Austria: A bud - vie [6 109 press]` → order text, codes, press.
fn split_expected(e: &str) -> (&str, Vec<u16>, bool) {
    let (order, rest) = match e.find('[') {
        Some(i) => (e[..i].trim(), e[i + 1..].trim_end_matches(']')),
        None => (e.trim(), ""),
    };
    let mut codes = Vec::new();
    let mut press = false;
    for w in rest.split_whitespace() {
        if w == "press" {
            press = true;
        } else {
            codes.push(w.parse().unwrap_or_else(|_| panic!("bad code `{w}` in `{e}`")));
        }
    }
    (order, codes, press)
}

/// One block being checked: its map and power, and where its failures go.
struct Check<'a> {
    b: &'a Block,
    map: &'a Map,
    power: Option<PowerId>,
    failures: &'a mut Vec<String>,
}

impl Check<'_> {
    /// The order an expectation names (`deleted`: none).
    fn expect_order(&self, n: usize, text: &str) -> Option<Order> {
        if text == "deleted" {
            return None;
        }
        Some(
            parse_order(self.map, text, self.power)
                .unwrap_or_else(|e| panic!("{}:{n}: expected order `{text}`: {e}", self.b.file)),
        )
    }

    fn show(&self, o: &Option<Order>) -> String {
        match o {
            Some(o) => format_order(self.map, o, Style::Datc),
            None => "deleted".into(),
        }
    }

    fn fail(&mut self, n: usize, input: &str, want: String, got: String) {
        self.failures.push(format!(
            "{}:{n} [{}]\n  input:    {input}\n  expected: {want}\n  actual:   {got}",
            self.b.file, self.b.title
        ));
    }

    /// A line's order, codes and press against the expectation `expected`.
    fn compare(&mut self, n: usize, input: &str, expected: &str, got: (&Option<Order>, Vec<u16>, bool, &[Note])) {
        let (order, codes, press, notes) = got;
        let (want_text, want_codes, want_press) = split_expected(expected);
        let want = self.expect_order(n, want_text);
        if *order != want || codes != want_codes || press != want_press {
            let msgs: Vec<String> = notes.iter().map(|x| x.to_string()).collect();
            let actual = format!(
                "{} {:?}{} {}",
                self.show(order),
                codes,
                if press { " press" } else { "" },
                msgs.join("; ")
            );
            self.fail(n, input, expected.to_string(), actual);
        }
    }
}

fn run_block(b: &Block, failures: &mut Vec<String>) -> usize {
    let variant = dip_variants::standard();
    let map = &variant.map;
    let mut vocab = Vocabulary::new(map).with_exact_match(b.exact);
    if let Some(n) = b.spellcheck {
        vocab = vocab.with_spellcheck(n);
    }
    let power = b.power.as_ref().map(|p| map.find_power(p).expect("power of the block"));
    let state: State = if b.position.is_empty() {
        variant.start.clone()
    } else {
        parse_position(map, &b.position.join("\n"), &b.file).unwrap_or_else(|e| panic!("{e}"))
    };
    let mut check = Check {
        b,
        map,
        power,
        failures,
    };
    let (lines, count) = scan_block(&mut check, &vocab);
    if b.turn {
        count + check_turn_block(&mut check, &vocab, &state, &lines)
    } else {
        count
    }
}

/// Scans every line of the block: in a turn block, the lines for the
/// parser; else each line's order, codes and press checked as scanned.
/// The lines, and how many there were.
fn scan_block(check: &mut Check, vocab: &Vocabulary) -> (Vec<ReadLine>, usize) {
    let b = check.b;
    let mut st = ScanState::default();
    let mut lines = Vec::new();
    let mut count = 0;
    for (n, input, expected) in &b.cases {
        let Some(input) = input else { continue };
        count += 1;
        let scanned = scan_line(vocab, input, &mut st).unwrap_or_else(|| panic!("{}:{n}: empty input", b.file));
        if b.turn {
            lines.push(ReadLine {
                line: *n,
                text: input.clone(),
                power: scanned.power.or(check.power),
                scanned,
            });
            continue;
        }
        let got = scanned
            .order
            .map(|k| Order::new(scanned.power.or(check.power).expect("a power"), k));
        let codes: Vec<u16> = scanned.notes.iter().map(|x| x.code.number()).collect();
        check.compare(*n, input, expected, (&got, codes, scanned.press, &scanned.notes));
    }
    (lines, count)
}

/// A turn block: the parser's result of each line (with results, each
/// order's result number after the parser's), and the orders it
/// inserted against the block's `+` lines. How many were inserted.
fn check_turn_block(check: &mut Check, vocab: &Vocabulary, state: &State, lines: &[ReadLine]) -> usize {
    let b = check.b;
    let report = check_turn(vocab, state, &b.rules, &b.opts, lines);
    let mut result_codes: Vec<Option<u16>> = Vec::new();
    if b.results {
        let outcome = dip_core::game::adjudicate(check.map, state, &report.orders(), &b.rules);
        let mut reports = outcome.orders().iter();
        for l in &report.lines {
            let r = if l.order.is_some() { reports.next() } else { None };
            result_codes.push(r.and_then(dip_text::result_code).map(|c| c.number()));
        }
    }
    let entries: Vec<(&dip_text::LineResult, Option<u16>)> = report
        .lines
        .iter()
        .zip(result_codes.iter().copied().chain(std::iter::repeat(None)))
        .collect();
    let mut inserted = entries.iter().filter(|(l, _)| l.fate == Fate::Inserted);
    let mut by_line = entries.iter().filter(|(l, _)| l.fate != Fate::Inserted);
    let mut count = 0;
    for (n, input, expected) in &b.cases {
        let got = if input.is_some() {
            by_line.next()
        } else {
            inserted.next()
        };
        let is_inserted = input.is_none();
        let input = input.as_deref().unwrap_or("+");
        let Some(&(got, result)) = got else {
            check.expect_order(*n, split_expected(expected).0);
            check.fail(*n, input, expected.clone(), "nothing".into());
            continue;
        };
        count += usize::from(is_inserted);
        let mut codes: Vec<u16> = got.notes.iter().map(|x| x.code.number()).collect();
        codes.extend(result);
        check.compare(*n, input, expected, (&got.order, codes, got.press, &got.notes));
    }
    for (extra, _) in inserted {
        let got = format!("{} {:?}", check.show(&extra.order), extra.notes);
        check.fail(0, "+", "no more inserted orders".into(), got);
    }
    count
}

#[test]
fn corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut total = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("corpus file");
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        for b in parse_file(&name, &text) {
            total += run_block(&b, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} corpus lines failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(total >= 300, "the corpus has {total} lines, fewer than 300");
    println!("{total} corpus lines passed");
}

/// The runner must report a line whose expectation is wrong.
#[test]
fn a_wrong_expectation_fails() {
    let text = "== wrong\npower Austria\nA Bud-Vie => Austria: A bud - gal\nA Bud-Xyz => Austria: A bud H [117]\n";
    let mut failures = Vec::new();
    for b in parse_file("inline", text) {
        run_block(&b, &mut failures);
    }
    assert_eq!(failures.len(), 2, "{failures:?}");
}

/// And in a turn: a wrong inserted order or a missing one.
#[test]
fn a_wrong_turn_expectation_fails() {
    let text = "== turn\nmode turn\nposition\nphase spring 1901 movement\nunits\n  Austria: A vie\n  Austria: A bud\norders\nAustria: A vie - gal => Austria: A vie - gal\n";
    let mut failures = Vec::new();
    for b in parse_file("inline", text) {
        run_block(&b, &mut failures);
    }
    assert_eq!(
        failures.len(),
        1,
        "the inserted hold of A bud is not expected: {failures:?}"
    );
}
