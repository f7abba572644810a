//! ARCHITECTURE.md, "Invariants": only the server's `db` module knows SQL.
//! Every source file of every crate's `src/` outside `dip-server/src/db/`
//! is read as Rust: its string literals (plain, raw, byte, continued over
//! lines) are searched for SQL statements, and the server's code for calls
//! that run one. Comments and English prose are not statements: a keyword
//! counts only with the shape of a statement around it (`SELECT … FROM t`,
//! `UPDATE t SET`, `INSERT INTO t`, …), in capitals as this project writes
//! SQL.

use std::path::{Path, PathBuf};

/// A string literal of a source file: the line it starts on and its text.
#[derive(Debug, PartialEq)]
struct Literal {
    line: usize,
    text: String,
}

/// The string literals of Rust source and its code with literals and
/// comments blanked out (so that a call is looked for in code only).
fn lex(src: &str) -> (Vec<Literal>, String) {
    let mut lx = Lexer {
        s: src.chars().collect(),
        i: 0,
        line: 1,
        literals: Vec::new(),
        code: String::new(),
    };
    while lx.i < lx.s.len() {
        let c = lx.s[lx.i];
        if c == '/' && lx.at(1) == Some('/') {
            lx.line_comment();
        } else if c == '/' && lx.at(1) == Some('*') {
            lx.block_comment();
        } else if let Some(prefix) = lx.raw_string_prefix() {
            lx.raw_string(prefix);
        } else if c == '"' {
            lx.string();
        } else if c == '\'' {
            lx.char_or_lifetime();
        } else {
            lx.line += usize::from(c == '\n');
            lx.code.push(c);
            lx.i += 1;
        }
    }
    (lx.literals, lx.code)
}

/// Where [`lex`] is in the source, and what it has read so far.
struct Lexer {
    s: Vec<char>,
    i: usize,
    line: usize,
    literals: Vec<Literal>,
    code: String,
}

impl Lexer {
    /// The character `k` after the current one.
    fn at(&self, k: usize) -> Option<char> {
        self.s.get(self.i + k).copied()
    }

    /// `// …` up to the end of the line (the break stays, it is counted).
    fn line_comment(&mut self) {
        while self.i < self.s.len() && self.s[self.i] != '\n' {
            self.i += 1;
        }
    }

    /// `/* … */`, nested as Rust nests them.
    fn block_comment(&mut self) {
        let mut depth = 0;
        while self.i < self.s.len() {
            if self.s[self.i] == '/' && self.at(1) == Some('*') {
                depth += 1;
                self.i += 2;
            } else if self.s[self.i] == '*' && self.at(1) == Some('/') {
                depth -= 1;
                self.i += 2;
                if depth == 0 {
                    break;
                }
            } else {
                self.line += usize::from(self.s[self.i] == '\n');
                self.i += 1;
            }
        }
    }

    /// The length of `r` or `br` when a raw string starts here (not
    /// inside a name: `for"` is no raw string).
    fn raw_string_prefix(&self) -> Option<usize> {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        if self.i > 0 && ident(self.s[self.i - 1]) {
            return None;
        }
        let prefix = match (self.s[self.i], self.at(1)) {
            ('r', _) => 1,
            ('b', Some('r')) => 2,
            _ => return None,
        };
        let mut j = self.i + prefix;
        while self.s.get(j) == Some(&'#') {
            j += 1;
        }
        (self.s.get(j) == Some(&'"')).then_some(prefix)
    }

    /// A raw string: no escapes, ends at `"` and as many `#`.
    fn raw_string(&mut self, prefix: usize) {
        self.i += prefix;
        let mut hashes = 0;
        while self.s[self.i] == '#' {
            hashes += 1;
            self.i += 1;
        }
        self.i += 1;
        let start = self.line;
        let mut text = String::new();
        while self.i < self.s.len() {
            if self.s[self.i] == '"' && (1..=hashes).all(|k| self.at(k) == Some('#')) {
                self.i += 1 + hashes;
                break;
            }
            self.line += usize::from(self.s[self.i] == '\n');
            text.push(self.s[self.i]);
            self.i += 1;
        }
        self.literals.push(Literal { line: start, text });
        self.code.push_str("\"\"");
    }

    /// A plain string: escapes read as the character they stand for (a
    /// break or tab as a space), a continued line joined.
    fn string(&mut self) {
        self.i += 1;
        let start = self.line;
        let mut text = String::new();
        while self.i < self.s.len() && self.s[self.i] != '"' {
            if self.s[self.i] == '\\' && self.at(1) == Some('\n') {
                // A continued line: the break and the next line's indent vanish.
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i].is_whitespace() {
                    self.line += usize::from(self.s[self.i] == '\n');
                    self.i += 1;
                }
                continue;
            }
            if self.s[self.i] == '\\' {
                text.push(match self.at(1) {
                    Some('n') | Some('t') | Some('r') => ' ',
                    Some(e) => e,
                    None => ' ',
                });
                self.i += 2;
                continue;
            }
            self.line += usize::from(self.s[self.i] == '\n');
            text.push(self.s[self.i]);
            self.i += 1;
        }
        self.i += 1;
        self.literals.push(Literal { line: start, text });
        self.code.push_str("\"\"");
    }

    /// A char literal (`'"'`, `'\''`, `'\u{22}'`) is skipped; a lifetime
    /// (`'a`) is code.
    fn char_or_lifetime(&mut self) {
        if self.at(1) == Some('\\') {
            self.i += 2;
            while self.i < self.s.len() && self.s[self.i] != '\'' {
                self.i += 1;
            }
            self.i += 1;
        } else if self.at(2) == Some('\'') {
            self.i += 3;
        } else {
            self.code.push('\'');
            self.i += 1;
        }
    }
}

/// Whether a string holds an SQL statement: a statement's keywords in the
/// order a statement has them, each a whole word.
fn is_statement(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    let name = |w: Option<&&str>| {
        w.is_some_and(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '{' || c == '"')
        })
    };
    words.iter().enumerate().any(|(i, &w)| {
        let next = words.get(i + 1);
        match w {
            "SELECT" => words[i + 1..].windows(2).any(|p| p[0] == "FROM" && name(Some(&p[1]))),
            "INSERT" => next == Some(&"INTO") || (next == Some(&"OR") && words.get(i + 3) == Some(&"INTO")),
            "UPDATE" => name(next) && words.get(i + 2) == Some(&"SET"),
            "DELETE" => next == Some(&"FROM") && name(words.get(i + 2)),
            "CREATE" | "DROP" | "ALTER" => {
                next.is_some_and(|n| ["TABLE", "INDEX", "UNIQUE", "VIEW", "TRIGGER"].contains(n))
            }
            "PRAGMA" => name(next),
            _ => false,
        }
    })
}

/// Calls that run a statement (`Tx::exec`, `query`, `query_one`).
const RUNS: [&str; 3] = [".exec(", ".query(", ".query_one("];

/// What is wrong with one source file: its SQL, and if `calls`, the calls
/// in its code that run SQL.
fn sql_in(src: &str, calls: bool) -> Vec<String> {
    let (literals, code) = lex(src);
    let mut found: Vec<String> = literals
        .iter()
        .filter(|l| is_statement(&l.text))
        .map(|l| format!("line {}: {:?}", l.line, l.text))
        .collect();
    if calls {
        for (n, l) in code.lines().enumerate() {
            if let Some(r) = RUNS.iter().find(|r| l.contains(**r)) {
                found.push(format!("code line {}: runs SQL ({r}): {}", n + 1, l.trim()));
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The crates whose manifest names a database library.
fn crates_with_a_database(crates: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(crates).unwrap() {
        let dir = e.unwrap().path();
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let uses = manifest.lines().any(|l| {
            let name = l.trim().split(['=', '.', ' ']).next().unwrap_or("");
            ["rusqlite", "postgres", "tokio-postgres", "sqlx", "diesel", "sea-orm"].contains(&name)
        });
        if uses {
            out.push(dir.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    out
}

#[test]
fn no_sql_outside_db() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // Another crate with a database would need its own `db` module here.
    assert_eq!(crates_with_a_database(&crates), ["dip-server"]);
    let mut files = Vec::new();
    for e in std::fs::read_dir(&crates).unwrap() {
        rust_files(&e.unwrap().path().join("src"), &mut files);
    }
    assert!(
        files.len() > 100,
        "only {} source files under {}",
        files.len(),
        crates.display()
    );
    let mut found = Vec::new();
    let mut in_db = 0;
    for f in &files {
        let rel = f.strip_prefix(&crates).unwrap().to_string_lossy().replace('\\', "/");
        if rel.starts_with("dip-server/src/db/") {
            // The reader sees the statements where they belong.
            in_db += sql_in(&std::fs::read_to_string(f).unwrap(), false).len();
            continue;
        }
        let calls = rel.starts_with("dip-server/");
        for problem in sql_in(&std::fs::read_to_string(f).unwrap(), calls) {
            found.push(format!("crates/{rel}: SQL outside db/: {problem}"));
        }
    }
    assert!(in_db > 100, "only {in_db} statements seen in dip-server/src/db/");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_check_finds_planted_sql() {
    let planted = "fn f() -> &'static str {\n    \"SELECT id FROM games\"\n}\n";
    assert_eq!(sql_in(planted, false), ["line 2: \"SELECT id FROM games\""]);
    for sql in [
        "let q = r#\"UPDATE games SET status = 'ended' WHERE id = $1\"#;",
        "let q = \"INSERT INTO orders (game_id) \\\n       VALUES ($1)\";",
        "let q = \"SELECT name, \\\n           power\\n FROM members WHERE game_id = ?\";",
        "let q = format!(\"DELETE FROM {table} WHERE id = $1\");",
        "const S: &str = \"CREATE TABLE IF NOT EXISTS games (id INTEGER)\";",
        "let q = b\"PRAGMA journal_mode = WAL\";",
        "let q = \"WITH d AS (SELECT id FROM games) SELECT COUNT(*) FROM d\";",
    ] {
        assert_eq!(sql_in(sql, false).len(), 1, "not seen: {sql}");
    }
    assert_eq!(sql_in("let r = tx.query_one(&q, &[])?;", true).len(), 1);
    assert!(sql_in("let r = tx.query_one(&q, &[])?;", false).is_empty());
}

#[test]
fn prose_comments_and_chars_are_not_sql() {
    for text in [
        "// SELECT id FROM games: a comment",
        "/* UPDATE games SET /* nested */ status */ let x = 1;",
        "/// DELETE FROM games in a doc comment\nfn f() {}",
        "let e = \"Select a variant from the list\";",
        "let e = \"update the game, then set the deadline\";",
        "let e = \"SELECT DEFAULT\";",
        "let e = format!(\"SELECT {name}: {} of {} games\", a, b);",
        "let e = \"a player may not UPDATE orders once ready\";",
        "let c = '\"'; let d = \"plain\"; let e = '\\''; fn f<'a>(x: &'a str) {}",
        "let r = r\"C:\\path\"; let t = \"x\";",
    ] {
        assert!(
            sql_in(text, true).is_empty(),
            "taken for SQL: {text}: {:?}",
            sql_in(text, true)
        );
    }
    // A quote inside a char literal does not open a string that hides SQL.
    let (lits, _) = lex("let c = '\"'; let q = \"SELECT id FROM games\";");
    assert_eq!(
        lits,
        [Literal {
            line: 1,
            text: "SELECT id FROM games".into()
        }]
    );
}

#[test]
fn a_line_comment_hid_its_line_break_and_a_block_comment_ate_the_next_character() {
    // The lexer used to step over the break that ends a `//` comment
    // without counting it, so SQL below a comment was reported lines too
    // high; and it skipped the character after `*/`, so a string right
    // after a block comment was not read as one.
    let below_comments = "// one\n// two\nfn f() -> &'static str {\n    \"SELECT id FROM games\"\n}\n";
    assert_eq!(sql_in(below_comments, false), ["line 4: \"SELECT id FROM games\""]);
    let after_block = "fn f() -> &'static str { /* the query */\"SELECT id FROM games\" }\n";
    assert_eq!(sql_in(after_block, false), ["line 1: \"SELECT id FROM games\""]);
}
