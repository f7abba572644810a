//! The interpreter: preprocessor directives, commands, objects, data, output.

use super::engine::{self, CalcInput, CalcOutput, IterParams, GL_SLOTS, PL_SLOTS};
use super::prep::{join, strip, CommentChars, LLine, SrcLine};
use crate::error::Error;
use crate::expr::{self, eval, Expr, ExprError, NumProg, Resolved, Rounding, Scope, Value};
use crate::results::{first_sign, parse_csv, parse_table, DataPre, Date, Mode, RawGame};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// Everything the interpreter needs from the outside world.
pub trait Host {
    /// Reads a whole file.
    fn read(&mut self, path: &str) -> Result<String, String>;
    /// Expands a file mask (`*`, `?`) into file names; a name without
    /// wildcards is returned as it is.
    fn expand(&mut self, mask: &str) -> Vec<String>;
    /// Writes text to a file (created or truncated unless `append`); the
    /// empty path is standard output.
    fn write(&mut self, path: &str, append: bool, text: &str) -> Result<(), String>;
    /// Writes to standard error.
    fn stderr(&mut self, text: &str);
    /// Today's date (the default reference date).
    fn today(&self) -> Date;
    /// The current date and time as text (TIMESTAMP).
    fn now(&self) -> String;
    /// Runs a command line (SYSTEM), returning its exit status.
    fn system(&mut self, cmd: &str) -> Result<i32, String>;
}

/// A host over files in memory, for tests and fuzzing.
#[derive(Debug, Default, Clone)]
pub struct MemHost {
    pub files: HashMap<String, String>,
    pub stdout: String,
    pub stderr: String,
    pub commands: Vec<String>,
    pub today: Option<Date>,
}

impl Host for MemHost {
    fn read(&mut self, path: &str) -> Result<String, String> {
        self.files.get(path).cloned().ok_or_else(|| "no such file".to_string())
    }
    fn expand(&mut self, mask: &str) -> Vec<String> {
        if !mask.contains(['*', '?']) {
            return vec![mask.to_string()];
        }
        let mut v: Vec<String> = self.files.keys().filter(|f| glob_match(mask, f)).cloned().collect();
        v.sort();
        v
    }
    fn write(&mut self, path: &str, append: bool, text: &str) -> Result<(), String> {
        if path.is_empty() {
            self.stdout.push_str(text);
            return Ok(());
        }
        let e = self.files.entry(path.to_string()).or_default();
        if !append {
            e.clear();
        }
        e.push_str(text);
        Ok(())
    }
    fn stderr(&mut self, text: &str) {
        self.stderr.push_str(text);
    }
    fn today(&self) -> Date {
        self.today.unwrap_or(Date { y: 2000, m: 1, d: 1 })
    }
    fn now(&self) -> String {
        "2000-01-01 00:00:00".into()
    }
    fn system(&mut self, cmd: &str) -> Result<i32, String> {
        self.commands.push(cmd.to_string());
        Ok(0)
    }
}

/// Matches `*` and `?` (case-insensitive) against a name.
pub fn glob_match(mask: &str, name: &str) -> bool {
    let m: Vec<char> = mask.to_lowercase().chars().collect();
    let n: Vec<char> = name.to_lowercase().chars().collect();
    let (mut i, mut j) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while j < n.len() {
        if i < m.len() && (m[i] == '?' || m[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < m.len() && m[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    while i < m.len() && m[i] == '*' {
        i += 1;
    }
    i == m.len()
}

// ---------------------------------------------------------------------------
// Objects

/// A formula with the source positions of its text.
#[derive(Debug, Clone)]
struct Formula {
    expr: Expr,
    src: LLine,
}

impl Formula {
    fn builtin(text: &str) -> Formula {
        let src = LLine {
            file: "<default>".into(),
            text: text.into(),
            at: Vec::new(),
        };
        Formula {
            expr: expr::parse(text).expect("default formulas parse"),
            src,
        }
    }
    fn parse(l: &LLine) -> Result<Formula, Error> {
        match expr::parse(&l.text) {
            Ok(e) => Ok(Formula {
                expr: e,
                src: l.clone(),
            }),
            Err(e) => Err(at_err(l, e)),
        }
    }
    fn err(&self, e: ExprError) -> Error {
        at_err(&self.src, e)
    }
    fn is(&self, text: &str) -> bool {
        self.src.text.eq_ignore_ascii_case(text)
    }
}

fn at_err(l: &LLine, e: ExprError) -> Error {
    let (line, col) = l.pos(e.at);
    Error::new(&l.file, line, col, e.msg)
}

fn err_at(l: &LLine, k: usize, msg: impl Into<String>) -> Error {
    let (line, col) = l.pos(k);
    Error::new(&l.file, line, col, msg)
}

#[derive(Debug, Clone)]
struct ScanMode {
    mode: Mode,
    pre: DataPre,
    readpoints: Formula,
    transform: Formula,
    sign: Option<char>,
    masks: Vec<String>,
}

impl Default for ScanMode {
    fn default() -> Self {
        ScanMode {
            mode: Mode::Ranglist,
            pre: DataPre::default(),
            readpoints: Formula::builtin("P.1"),
            transform: Formula::builtin("P"),
            sign: None,
            masks: Vec::new(),
        }
    }
}

#[derive(Debug, Clone)]
enum Range {
    /// player-independent
    None,
    /// `[a:b]`; `None` ends are open
    Span(Box<(Option<Formula>, Option<Formula>)>),
}

#[derive(Debug, Clone)]
struct VarDef {
    name: String,
    range: Range,
    formula: Formula,
}

#[derive(Debug, Clone)]
struct Transformation {
    vars: Vec<VarDef>,
    transform: Formula,
}

impl Default for Transformation {
    fn default() -> Self {
        Transformation {
            vars: Vec::new(),
            transform: Formula::builtin("P/MEAN"),
        }
    }
}

#[derive(Debug, Clone)]
struct SortMode {
    sort: Formula,
    revers: bool,
}

impl Default for SortMode {
    fn default() -> Self {
        SortMode {
            sort: Formula::builtin("LEVEL"),
            revers: false,
        }
    }
}

#[derive(Debug, Clone)]
struct PrintDef {
    filename: Option<String>,
    append: bool,
    sort: bool,
    header: Formula,
    player: Formula,
    trailer: Formula,
    /// Text lines of the definition, printed after the header.
    text: Vec<String>,
    uses: u32,
}

impl Default for PrintDef {
    fn default() -> Self {
        PrintDef {
            filename: None,
            append: false,
            sort: true,
            header: Formula::builtin("''"),
            player: Formula::builtin("print('%4d. %-25s %8.3f',I,NAME,LEVEL)"),
            trailer: Formula::builtin("''"),
            text: Vec::new(),
            uses: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OptKind {
    Void,
    Char,
    Text,
    Int,
    Float,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Options,
    ScanMode,
    Selection,
    Transformation,
    PlayerLevel,
    GameLevel,
    Iteration,
    SortMode,
    PrintGame,
    PrintPlayer,
}

struct Block {
    kind: BlockKind,
    name: String,
    start: LLine,
}

struct JobCollect {
    name: String,
    lines: Vec<SrcLine>,
    start: (Rc<str>, u32),
    is_macro: bool,
}

/// Log categories (LOGGING) and the level from which they are shown.
const LOG_CATS: [(&str, u8); 11] = [
    ("ERRORS", 1),
    ("INFORMATIONS", 2),
    ("TITLE", 3),
    ("SUMMARY", 3),
    ("INPUTS", 4),
    ("OUTPUTS", 4),
    ("PRINTINGS", 5),
    ("CALCULATIONS", 6),
    ("ITERATIONS", 7),
    ("DEFINITIONS", 8),
    ("GAMES", 9),
];

// ---------------------------------------------------------------------------
// Data

#[derive(Debug, Clone)]
struct Player {
    name: String,
    id: String,
    vars: HashMap<String, f64>,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    player: u32,
    pos: u32,
    p0: f64,
    p: f64,
}

#[derive(Debug, Clone)]
struct Game {
    raw: RawGame,
    scanmode: String,
    entries: Vec<Entry>,
    vars: HashMap<String, f64>,
}

#[derive(Debug, Clone)]
struct Sel {
    game: usize,
    weight: f64,
    entries: Vec<Entry>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Stats {
    first: f64,
    mean: f64,
    median: f64,
    middle: f64,
    binomial: f64,
}

fn binom(n: usize, k: usize) -> f64 {
    let k = k.min(n - k.min(n));
    let mut r = 1.0;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r
}

/// FIRST, MEAN, MEDIAN, MIDDLE and BINOMIAL of points sorted from best to worst.
fn stats(p: &[f64]) -> Stats {
    let n = p.len();
    if n == 0 {
        return Stats::default();
    }
    let mean = p.iter().sum::<f64>() / n as f64;
    let median = if n % 2 == 1 {
        p[n / 2]
    } else {
        (p[n / 2 - 1] + p[n / 2]) / 2.0
    };
    let (mut mw, mut ms, mut bw, mut bs) = (0.0, 0.0, 0.0, 0.0);
    for (i, &x) in p.iter().enumerate() {
        let m = (i + 1).min(n - i) as f64;
        mw += m;
        ms += m * x;
        let b = binom(n - 1, i);
        bw += b;
        bs += b * x;
    }
    Stats {
        first: p[0],
        mean,
        median,
        middle: ms / mw,
        binomial: bs / bw,
    }
}

/// Ranks with ties (1,2,2,2,5) and the size of each tie, for values sorted
/// so that equal values are adjacent.
fn ranks(v: &[f64]) -> Vec<(usize, usize)> {
    let mut out = vec![(0, 0); v.len()];
    let mut i = 0;
    while i < v.len() {
        let mut j = i + 1;
        while j < v.len() && v[j] == v[i] {
            j += 1;
        }
        for o in &mut out[i..j] {
            *o = (i + 1, j - i);
        }
        i = j;
    }
    out
}

// ---------------------------------------------------------------------------
// The interpreter

/// An Analyse control-file interpreter.
pub struct Interp<'h> {
    host: &'h mut dyn Host,
    args: Vec<String>,
    allow_system: bool,
    globals: HashMap<String, Value>,
    frames: Vec<HashMap<String, Value>>,
    jobs: BTreeMap<String, Vec<SrcLine>>,
    options: BTreeMap<char, OptKind>,
    init: bool,
    commandline_done: bool,
    files: Vec<String>,
    /// where each data file was named: (file, line, column)
    file_at: Vec<(String, u32, u32)>,
    scanmodes: BTreeMap<String, ScanMode>,
    selections: BTreeMap<String, Formula>,
    transformations: BTreeMap<String, Transformation>,
    playerlevels: BTreeMap<String, Formula>,
    gamelevels: BTreeMap<String, Formula>,
    iterations: BTreeMap<String, (Option<Formula>, Option<Formula>, Option<Formula>)>,
    sortmodes: BTreeMap<String, SortMode>,
    printgames: BTreeMap<String, PrintDef>,
    printplayers: BTreeMap<String, PrintDef>,
    block: Option<Block>,
    job: Option<JobCollect>,
    ifs: Vec<(bool, bool, bool)>,
    cc: CommentChars,
    depth: u32,
    /// logical lines executed: a budget against jobs that call themselves
    executed: u64,
    output: String,
    errorlog: Option<String>,
    printfile: Option<String>,
    log_level: u8,
    log_set: Option<Vec<&'static str>>,
    rounding: Rounding,
    tabsize: usize,
    refdate: Date,
    players: Vec<Player>,
    /// Player ids are short: foldhash is several times quicker than SipHash.
    player_ix: HashMap<String, u32, foldhash::fast::FixedState>,
    games: Vec<Game>,
    attributes: Vec<String>,
    selection: Option<String>,
    sel: Vec<Sel>,
    cur_playerlevel: (String, Option<String>),
    cur_gamelevel: String,
    cur_iteration: String,
    cur_sort: String,
    calc: Option<CalcOutput>,
    /// flattened entry index of each selected game (for GLEVEL)
    calc_offsets: Vec<usize>,
}

type R<T = ()> = Result<T, Error>;

impl<'h> Interp<'h> {
    /// A new interpreter. `args` is the command line after the control file
    /// (options and data files); `allow_system` permits SYSTEM.
    pub fn new(host: &'h mut dyn Host, args: Vec<String>, allow_system: bool) -> Self {
        let refdate = host.today();
        let mut it = Interp {
            host,
            args,
            allow_system,
            globals: HashMap::new(),
            frames: vec![HashMap::new()],
            jobs: BTreeMap::new(),
            options: BTreeMap::new(),
            init: true,
            commandline_done: false,
            files: Vec::new(),
            file_at: Vec::new(),
            scanmodes: BTreeMap::new(),
            selections: BTreeMap::new(),
            transformations: BTreeMap::new(),
            playerlevels: BTreeMap::new(),
            gamelevels: BTreeMap::new(),
            iterations: BTreeMap::new(),
            sortmodes: BTreeMap::new(),
            printgames: BTreeMap::new(),
            printplayers: BTreeMap::new(),
            block: None,
            job: None,
            ifs: Vec::new(),
            cc: CommentChars::default(),
            depth: 0,
            executed: 0,
            output: String::new(),
            errorlog: None,
            printfile: None,
            log_level: 2,
            log_set: None,
            rounding: Rounding::Nearest,
            tabsize: 0,
            refdate,
            players: Vec::new(),
            player_ix: HashMap::default(),
            games: Vec::new(),
            attributes: Vec::new(),
            selection: None,
            sel: Vec::new(),
            cur_playerlevel: ("DEFAULT".into(), None),
            cur_gamelevel: "DEFAULT".into(),
            cur_iteration: "DEFAULT".into(),
            cur_sort: "DEFAULT".into(),
            calc: None,
            calc_offsets: Vec::new(),
        };
        let mut sm = ScanMode {
            sign: Some('='),
            ..Default::default()
        };
        sm.mode = Mode::Ranglist;
        it.scanmodes.insert("DEFAULT".into(), sm);
        it.scanmodes.insert(
            "18XX".into(),
            ScanMode {
                sign: Some('@'),
                mode: Mode::Multi,
                ..Default::default()
            },
        );
        it.selections.insert("DEFAULT".into(), Formula::builtin("1.0"));
        it.transformations.insert("DEFAULT".into(), Transformation::default());
        it.playerlevels.insert("DEFAULT".into(), Formula::builtin("SUM/WSUM"));
        it.gamelevels.insert(
            "DEFAULT".into(),
            Formula::builtin("WEIGHT * P * (SUMLEVEL-LEVEL) / (N-1)"),
        );
        it.iterations.insert("DEFAULT".into(), (None, None, None));
        it.sortmodes.insert("DEFAULT".into(), SortMode::default());
        it.printgames.insert("DEFAULT".into(), PrintDef::default());
        it.printplayers.insert("DEFAULT".into(), PrintDef::default());
        it.options.insert('l', OptKind::Int);
        it.declare_option('l');
        it
    }

    /// Runs a control file given as text.
    pub fn run(&mut self, file: &str, text: &str) -> R {
        let r = self.run_inner(file, text);
        if let (Err(e), Some(log)) = (&r, self.errorlog.clone()) {
            // the error log gets errors too (the caller shows them on screen)
            let _ = self.host.write(&log, true, &format!("error: {e}\n"));
        }
        r
    }

    fn run_inner(&mut self, file: &str, text: &str) -> R {
        let f: Rc<str> = file.into();
        let lines: Vec<SrcLine> = text
            .lines()
            .enumerate()
            .map(|(i, l)| SrcLine {
                file: f.clone(),
                line: i as u32 + 1,
                text: l.to_string(),
            })
            .collect();
        self.run_lines(&lines)?;
        if let Some(j) = &self.job {
            return Err(Error::new(
                &j.start.0,
                j.start.1,
                1,
                format!("job {} is not closed by ENDJOB", j.name),
            ));
        }
        if let Some(b) = &self.block {
            return Err(err_at(&b.start, 0, "DEFINE is not closed by END"));
        }
        if self.ifs.last().is_some() {
            return Err(Error::new(file, 0, 0, "#IF is not closed by #ENDIF"));
        }
        if self.init {
            self.scanfiles(None)?;
        }
        Ok(())
    }

    /// Runs a control file from the host.
    pub fn run_file(&mut self, path: &str) -> R {
        let text = self
            .host
            .read(path)
            .map_err(|e| Error::new(path, 0, 0, format!("cannot read: {e}")))?;
        self.run(path, &text)
    }

    fn run_lines(&mut self, lines: &[SrcLine]) -> R {
        self.depth += 1;
        if self.depth > 64 {
            self.depth -= 1;
            let (f, l) = lines.first().map(|s| (s.file.to_string(), s.line)).unwrap_or_default();
            return Err(Error::new(
                &f,
                l,
                1,
                "jobs, macros or includes nested more than 64 deep",
            ));
        }
        let r = self.run_lines_inner(lines);
        self.depth -= 1;
        r
    }

    fn run_lines_inner(&mut self, lines: &[SrcLine]) -> R {
        let mut pieces: Vec<(u32, Vec<(char, u32)>)> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let src = &lines[i];
            i += 1;
            if let Some(j) = &mut self.job {
                let t = src.text.trim().to_ascii_uppercase();
                let end = if j.is_macro {
                    t.starts_with("#ENDMACRO") || t == "ENDJOB" || t == "JOBEND"
                } else {
                    t == "ENDJOB" || t == "JOBEND" || t.starts_with("ENDJOB ") || t.starts_with("JOBEND ")
                };
                if end {
                    let j = self.job.take().expect("job");
                    self.jobs.insert(j.name, j.lines);
                } else {
                    j.lines.push(src.clone());
                }
                continue;
            }
            let (cs, tied) = strip(src, &self.cc);
            pieces.push((src.line, cs));
            if tied && i < lines.len() {
                continue;
            }
            let l = join(src.file.clone(), &pieces);
            pieces.clear();
            self.executed += 1;
            if self.executed > 2_000_000 {
                return Err(err_at(
                    &l,
                    0,
                    "more than 2000000 lines executed; does a job or macro call itself?",
                ));
            }
            if l.text.is_empty() {
                continue;
            }
            let active = self.ifs.iter().all(|x| x.0);
            if l.text.starts_with('#') {
                self.directive(&l, active)?;
                continue;
            }
            if !active {
                continue;
            }
            self.line(&l)?;
        }
        Ok(())
    }

    // ----- preprocessor --------------------------------------------------

    fn directive(&mut self, l: &LLine, active: bool) -> R {
        let t = &l.text;
        if t == "#" || t.starts_with("##") || t.starts_with("#!") {
            return Ok(());
        }
        let (word, rest_at) = if let Some(r) = t.strip_prefix("#:") {
            ("CALL".to_string(), t.len() - r.len())
        } else {
            let w: String = t[1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            (w.to_ascii_uppercase(), 1 + w.len())
        };
        let rest = l.tail(rest_at);
        match word.as_str() {
            "IF" | "IFDEF" | "IFNDEF" => {
                let v = if active {
                    if rest.text.is_empty() {
                        return Err(err_at(l, rest_at, "#IF needs a condition"));
                    }
                    match word.as_str() {
                        "IF" => {
                            let f = Formula::parse(&rest)?;
                            let s = IfScope { it: self };
                            eval(&f.expr, &s).map_err(|e| f.err(e))?.num() != 0.0
                        }
                        w => {
                            let d = self.lookup(&rest.text.to_ascii_uppercase()).is_some();
                            if w == "IFDEF" {
                                d
                            } else {
                                !d
                            }
                        }
                    }
                } else {
                    false
                };
                self.ifs.push((active && v, active && !v, false));
                Ok(())
            }
            "ELSE" | "ELIF" | "ELSEIF" => {
                let parent = self.ifs.len() < 2 || self.ifs[..self.ifs.len() - 1].iter().all(|x| x.0);
                let Some(top) = self.ifs.last().copied() else {
                    return Err(err_at(l, 0, format!("#{word} without #IF")));
                };
                if top.2 {
                    return Err(err_at(l, 0, format!("#{word} after #ELSE")));
                }
                let take = if word == "ELSE" {
                    top.1
                } else if parent && top.1 {
                    let f = Formula::parse(&rest)?;
                    let s = IfScope { it: self };
                    eval(&f.expr, &s).map_err(|e| f.err(e))?.num() != 0.0
                } else {
                    false
                };
                let last = self.ifs.last_mut().expect("if");
                *last = (parent && take, top.1 && !take, word == "ELSE");
                Ok(())
            }
            "ENDIF" => {
                if self.ifs.pop().is_none() {
                    return Err(err_at(l, 0, "#ENDIF without #IF"));
                }
                Ok(())
            }
            _ if !active => Ok(()),
            "DEFINE" => self.set(&rest, Scope3::Local),
            "GDEFINE" => self.set(&rest, Scope3::Global),
            "PDEFINE" => self.set(&rest, Scope3::Player),
            "INCLUDE" => {
                let name = unquote(&rest.text);
                if name.is_empty() {
                    return Err(err_at(l, rest_at, "#INCLUDE needs a file name"));
                }
                // An included file stays beside the control file: no
                // absolute path, no `..` (a control file from elsewhere
                // reads nothing else on the machine).
                if name.starts_with(['/', '\\']) || name.contains(':') || name.split(['/', '\\']).any(|p| p == "..") {
                    return Err(err_at(
                        l,
                        rest_at,
                        format!("#INCLUDE `{name}`: the file must be in the control file's folder or below it (no absolute path, no `..`)"),
                    ));
                }
                let path = relative(&l.file, &name);
                let text = self
                    .host
                    .read(&path)
                    .map_err(|e| err_at(&rest, 0, format!("cannot read `{path}`: {e}")))?;
                let f: Rc<str> = path.as_str().into();
                let lines: Vec<SrcLine> = text
                    .lines()
                    .enumerate()
                    .map(|(i, t)| SrcLine {
                        file: f.clone(),
                        line: i as u32 + 1,
                        text: t.to_string(),
                    })
                    .collect();
                self.run_lines(&lines)
            }
            "MACRO" => {
                let name = rest.text.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
                if name.is_empty() {
                    return Err(err_at(l, rest_at, "#MACRO needs a name"));
                }
                self.job = Some(JobCollect {
                    name,
                    lines: Vec::new(),
                    start: (l.file.clone(), l.first_line()),
                    is_macro: true,
                });
                Ok(())
            }
            "ENDMACRO" => Err(err_at(l, 0, "#ENDMACRO without #MACRO")),
            "CALL" => self.call_job(&rest),
            "SETCOMMENT" => {
                let w: Vec<String> = rest.text.split_whitespace().map(unquote).collect();
                if w.len() < 3 {
                    return Err(err_at(
                        l,
                        rest_at,
                        "#SETCOMMENT needs three strings: begin, end, to end of line",
                    ));
                }
                let two = |s: &str| s.chars().take(2).collect::<String>();
                self.cc.open = two(&w[0]);
                self.cc.close = two(&w[1]);
                self.cc.eol = two(&w[2]);
                if let Some(t) = w.get(3) {
                    self.cc.tie = two(t);
                }
                Ok(())
            }
            _ => Err(err_at(l, 0, format!("unknown preprocessor command `#{word}`"))),
        }
    }

    // ----- symbols --------------------------------------------------------

    fn lookup(&self, name: &str) -> Option<Value> {
        for f in self.frames.iter().rev() {
            if let Some(v) = f.get(name) {
                return Some(v.clone());
            }
        }
        if let Some(v) = self.globals.get(name) {
            return Some(v.clone());
        }
        match name {
            "NONE" => Some(Value::None),
            "NFILES" => Some(Value::Num(self.files.len() as f64)),
            "REFDATE" => Some(Value::Num(self.refdate.number())),
            "REFYEAR" => Some(Value::Num(self.refdate.y as f64)),
            "REFMONTH" => Some(Value::Num(self.refdate.m as f64)),
            "REFDAY" => Some(Value::Num(self.refdate.d as f64)),
            _ => None,
        }
    }

    /// SET / GSET / PSET and #DEFINE / #GDEFINE / #PDEFINE.
    fn set(&mut self, l: &LLine, scope: Scope3) -> R {
        let t = l.text.as_bytes();
        let mut k = 0;
        let mut any = false;
        loop {
            while k < t.len() && (t[k] == b' ' || t[k] == b',' || t[k] == b';') {
                k += 1;
            }
            if k >= t.len() {
                break;
            }
            let start = k;
            while k < t.len() && (t[k].is_ascii_alphanumeric() || b"$_-+.".contains(&t[k]) || t[k] >= 0x80) {
                k += 1;
            }
            if k == start {
                return Err(err_at(l, k, "expected a symbol name"));
            }
            let name = l.text[start..k].to_ascii_uppercase();
            while k < t.len() && t[k] == b' ' {
                k += 1;
            }
            let mut value = Value::Num(0.0);
            let mut formula = None;
            if k < t.len() && (t[k] == b'=' || t[k] == b':') {
                k += if t[k] == b':' && t.get(k + 1) == Some(&b'=') {
                    2
                } else {
                    1
                };
                let end = find_top(&l.text, k, b';');
                let sub = LLine {
                    file: l.file.clone(),
                    text: l.text[k..end].to_string(),
                    at: l.at[k..end].to_vec(),
                };
                let sub = sub.tail(0);
                if sub.text.is_empty() {
                    return Err(err_at(l, end, format!("expected a value for {name}")));
                }
                let f = Formula::parse(&sub)?;
                if scope != Scope3::Player {
                    let s = SymScope { it: self };
                    value = eval(&f.expr, &s).map_err(|e| f.err(e))?;
                }
                formula = Some(f);
                k = end;
            }
            match scope {
                Scope3::Local => {
                    self.frames.last_mut().expect("frame").insert(name, value);
                }
                Scope3::Global => {
                    self.globals.insert(name, value);
                }
                Scope3::Player => self.pset(&name, formula.as_ref())?,
            }
            any = true;
        }
        if !any {
            return Err(err_at(l, 0, "expected one or more symbols"));
        }
        Ok(())
    }

    fn pset(&mut self, name: &str, f: Option<&Formula>) -> R {
        let ids = self.listed_players();
        let mut vals = Vec::with_capacity(ids.len());
        for (k, &p) in ids.iter().enumerate() {
            let v = match f {
                None => 0.0,
                Some(f) => {
                    let s = PlayerScope {
                        it: self,
                        p,
                        i: k + 1,
                        r: (k + 1, 1),
                        np: ids.len(),
                    };
                    eval(&f.expr, &s).map_err(|e| f.err(e))?.num()
                }
            };
            vals.push(v);
        }
        for (p, v) in ids.into_iter().zip(vals) {
            self.players[p].vars.insert(name.to_string(), v);
        }
        Ok(())
    }

    // ----- commands ---------------------------------------------------------

    fn line(&mut self, l: &LLine) -> R {
        if self.block.is_some() {
            return self.block_line(l);
        }
        let (word, k) = first_word(&l.text);
        let rest = l.tail(k);
        match word.as_str() {
            "DEFINE" => self.define(l, &rest),
            "JOB" => self.call_job(&rest),
            "SET" => self.set(&rest, Scope3::Local),
            "GSET" => self.set(&rest, Scope3::Global),
            "PSET" => self.set(&rest, Scope3::Player),
            "COMMANDLINE" => {
                self.need_init(l, "COMMANDLINE")?;
                let args = self.args.clone();
                self.commandline_done = true;
                self.parameters(l, &args)
            }
            "PARAMETER" => {
                self.need_init(l, "PARAMETER")?;
                let args = split_args(&rest.text);
                self.parameters(&rest, &args)
            }
            "SCANFILES" => {
                self.need_init(l, "SCANFILES")?;
                self.scanfiles(Some(l))
            }
            "OUTPUT" | "ERRORLOG" | "PRINTFILE" => self.channel(&word, &rest),
            "ECHO" => {
                let v = self.string_expr(&rest)?;
                let target = self.printfile.clone().unwrap_or_else(|| self.output.clone());
                self.write(&target, &format!("{v}\n"))
            }
            "MESSAGE" => {
                let v = self.string_expr(&rest)?;
                self.log("INFORMATIONS", &v)
            }
            "TIMESTAMP" => {
                let now = self.host.now();
                let out = self.output.clone();
                self.write(&out, &format!("{now}\n"))?;
                if let Some(e) = self.errorlog.clone() {
                    self.write(&e, &format!("{now}\n"))?;
                }
                Ok(())
            }
            "LOGGING" => self.logging(&rest),
            "ROUNDING" => {
                self.rounding = match rest.text.to_ascii_uppercase().as_str() {
                    "" | "NEAREST" => Rounding::Nearest,
                    "ZERO" => Rounding::Zero,
                    "UP" => Rounding::Up,
                    "DOWN" => Rounding::Down,
                    _ => return Err(err_at(&rest, 0, "expected NEAREST, ZERO, UP or DOWN")),
                };
                Ok(())
            }
            "TABSIZE" => {
                let v = self.num_expr(&rest)?;
                if !(0.0..=64.0).contains(&v) {
                    return Err(err_at(&rest, 0, "TABSIZE must be between 0 and 64"));
                }
                self.tabsize = v as usize;
                Ok(())
            }
            "DATE" | "REFDATE" => {
                let t = unquote(&rest.text);
                self.refdate = if t.is_empty() {
                    self.host.today()
                } else if let Some(d) = Date::parse(&t) {
                    d
                } else {
                    let v = self.num_expr(&rest)?;
                    Date::parse(&format!("{}", v as i64))
                        .ok_or_else(|| err_at(&rest, 0, "expected a date: yyyy-mm-dd, dd.mm.yyyy or yyyymmdd"))?
                };
                Ok(())
            }
            "LIST" => self.list(&rest),
            "SYSTEM" => {
                let cmd = self.string_expr(&rest)?;
                if !self.allow_system {
                    return Err(err_at(
                        l,
                        0,
                        "SYSTEM is not allowed; allow it on the command line (--allow-system)",
                    ));
                }
                let st = self
                    .host
                    .system(&cmd)
                    .map_err(|e| err_at(&rest, 0, format!("cannot run `{cmd}`: {e}")))?;
                self.globals.insert("SYSTEM$STATUS".into(), Value::Num(st as f64));
                Ok(())
            }
            "SELECT" | "RESELECT" | "TRANSFORMATION" | "PLAYERLEVEL" | "GAMELEVEL" | "ITERATE" | "ITERATION"
            | "CALCULATE" | "PRINTGAMES" | "PRINT" | "PRINTPLAYERS" | "SORT" | "CLEARVARS" | "SAVEPLAYERS"
            | "TRANSFER" | "SAVEGAMES" => {
                if self.init {
                    self.scanfiles(Some(l))?;
                }
                self.eval_command(&word, l, &rest)
            }
            "END" => Err(err_at(l, 0, "END without DEFINE")),
            "" => Err(err_at(l, 0, "expected a command")),
            // Analyse's manual: lines that are no command are text lines,
            // copied to the output file. A first word in capitals is taken
            // for a misspelt command and reported.
            _ if is_text_line(&l.text) => {
                let o = self.output.clone();
                self.write(&o, &format!("{}\n", l.text))
            }
            _ => Err(err_at(
                l,
                0,
                format!("unknown command `{}`", &l.text[..k.min(l.text.len())].trim()),
            )),
        }
    }

    fn need_init(&self, l: &LLine, what: &str) -> R {
        if !self.init {
            return Err(err_at(
                l,
                0,
                format!("{what} is only possible in the initialisation mode (before SCANFILES)"),
            ));
        }
        Ok(())
    }

    fn string_expr(&self, l: &LLine) -> R<String> {
        if l.text.is_empty() {
            return Ok(String::new());
        }
        let f = Formula::parse(l)?;
        let s = SymScope { it: self };
        Ok(eval(&f.expr, &s).map_err(|e| f.err(e))?.text())
    }

    fn num_expr(&self, l: &LLine) -> R<f64> {
        if l.text.is_empty() {
            return Err(err_at(l, 0, "expected a number"));
        }
        let f = Formula::parse(l)?;
        let s = SymScope { it: self };
        Ok(eval(&f.expr, &s).map_err(|e| f.err(e))?.num())
    }

    fn channel(&mut self, word: &str, rest: &LLine) -> R {
        let mut t = rest.text.as_str();
        let mut title = true;
        let mut append = false;
        loop {
            t = t.trim_start();
            if let Some(r) = t.strip_prefix('/').filter(|_| word == "PRINTFILE") {
                title = false;
                t = r;
            } else if let Some(r) = t.strip_prefix('+') {
                append = true;
                t = r;
            } else {
                break;
            }
        }
        let name = unquote(t);
        if name.is_empty() {
            return Err(err_at(rest, rest.text.len(), format!("{word} needs a file name")));
        }
        let name = if name == "-" { String::new() } else { name };
        if !append && !name.is_empty() {
            self.host
                .write(&name, false, "")
                .map_err(|e| err_at(rest, 0, format!("cannot write `{name}`: {e}")))?;
        }
        match word {
            "OUTPUT" => self.output = name,
            "ERRORLOG" => self.errorlog = Some(name),
            _ => {
                if title {
                    self.write(&name, "dip rate: Analyse control language\n")?;
                }
                self.printfile = Some(name);
            }
        }
        Ok(())
    }

    fn write(&mut self, target: &str, text: &str) -> R {
        let text = if self.tabsize > 0 {
            tabify(text, self.tabsize)
        } else {
            text.to_string()
        };
        self.host
            .write(target, true, &text)
            .map_err(|e| Error::plain(format!("cannot write `{target}`: {e}")))
    }

    /// Whether a message of this category goes anywhere.
    fn logs(&self, cat: &str) -> bool {
        if self.errorlog.is_some() {
            return true;
        }
        let lvl = LOG_CATS.iter().find(|c| c.0 == cat).map(|c| c.1).unwrap_or(9);
        match &self.log_set {
            Some(set) => set.contains(&cat),
            None => lvl <= self.log_level,
        }
    }

    fn log(&mut self, cat: &str, msg: &str) -> R {
        if let Some(e) = self.errorlog.clone() {
            self.write(&e, &format!("{msg}\n"))?;
        }
        let lvl = LOG_CATS.iter().find(|c| c.0 == cat).map(|c| c.1).unwrap_or(9);
        let show = match &self.log_set {
            Some(set) => set.contains(&cat),
            None => lvl <= self.log_level,
        };
        if show {
            self.host.stderr(&format!("{msg}\n"));
        }
        Ok(())
    }

    fn logging(&mut self, rest: &LLine) -> R {
        let mut set: Vec<&'static str> = Vec::new();
        let mut level: Option<u8> = None;
        for (k, w) in words(&rest.text) {
            let u = w.to_ascii_uppercase();
            let u = u.trim_start_matches('+');
            if let Some(n) = u
                .strip_prefix("LEVEL")
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| *n <= 9)
            {
                level = Some(level.unwrap_or(0).max(n));
            } else if u == "NONE" {
                level = Some(0);
            } else if u == "ALL" {
                level = Some(9);
            } else if let Some(c) = LOG_CATS
                .iter()
                .find(|c| c.0 == u || (u.len() >= 4 && c.0.starts_with(u)))
            {
                set.push(c.0);
            } else {
                return Err(err_at(rest, k, format!("unknown logging setting `{w}`")));
            }
        }
        if let Some(lv) = level {
            self.log_level = lv;
            for c in LOG_CATS.iter().filter(|c| c.1 <= lv) {
                set.push(c.0);
            }
        }
        self.log_set = Some(set);
        Ok(())
    }

    /// Every option, given or not, has its two symbols (Analyse's manual):
    /// both are empty until the option is given (`OPT$x` then 1). An empty
    /// `OPT$x` is false in `#IF`, as 0 was.
    fn declare_option(&mut self, c: char) {
        let sym = opt_symbol(c);
        self.globals
            .entry(format!("OPT${sym}"))
            .or_insert(Value::Str(String::new()));
        self.globals
            .entry(format!("PARM${sym}"))
            .or_insert(Value::Str(String::new()));
    }

    fn parameters(&mut self, l: &LLine, args: &[String]) -> R {
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            i += 1;
            let mut cs = a.chars();
            let first = cs.next().unwrap_or(' ');
            if a.len() >= 2 && "-+/".contains(first) {
                let Some(opt) = cs.next() else { continue };
                let Some(&kind) = self.options.get(&opt) else {
                    return Err(err_at(
                        l,
                        0,
                        format!("unknown option `{a}` (define it with DEFINE OPTIONS)"),
                    ));
                };
                let mut param: String = cs.collect();
                let value = match kind {
                    OptKind::Void => Value::Num(1.0),
                    _ => {
                        if param.is_empty() && i < args.len() {
                            param = args[i].clone();
                            i += 1;
                        }
                        match kind {
                            OptKind::Char if param.chars().count() == 1 => Value::Str(param),
                            OptKind::Text => Value::Str(param),
                            OptKind::Int => match param.parse::<i64>() {
                                Ok(v) => Value::Num(v as f64),
                                Err(_) => return Err(err_at(l, 0, format!("option `{a}` needs an integer"))),
                            },
                            OptKind::Float => match param.parse::<f64>() {
                                Ok(v) => Value::Num(v),
                                Err(_) => return Err(err_at(l, 0, format!("option `{a}` needs a number"))),
                            },
                            _ => return Err(err_at(l, 0, format!("option `{a}` needs exactly one character"))),
                        }
                    }
                };
                if opt == 'l' {
                    self.log_level = value.num().clamp(0.0, 9.0) as u8;
                }
                let sym = opt_symbol(opt);
                self.globals.insert(format!("OPT${sym}"), Value::Num(1.0));
                self.globals.insert(format!("PARM${sym}"), value);
            } else {
                let k = l.text.find(a.as_str()).unwrap_or(0);
                let found = self.host.expand(a);
                if found.is_empty() {
                    return Err(err_at(l, k, format!("no file matches `{a}`")));
                }
                let (line, col) = l.pos(k);
                for f in found {
                    self.file_at.push((l.file.to_string(), line, col));
                    self.files.push(f);
                }
            }
        }
        Ok(())
    }

    fn define(&mut self, l: &LLine, rest: &LLine) -> R {
        let ws = words(&rest.text);
        let Some(&(_, kind)) = ws.first() else {
            return Err(err_at(l, l.text.len(), "DEFINE needs an object type"));
        };
        let kind_u = kind.to_ascii_uppercase();
        let name = ws.get(1).map(|w| w.1.to_ascii_uppercase());
        let need_name = |what: &str| -> R<String> {
            name.clone()
                .ok_or_else(|| err_at(rest, rest.text.len(), format!("DEFINE {what} needs a name")))
        };
        let kind = match kind_u.as_str() {
            "OPTIONS" => BlockKind::Options,
            "SCANMODE" => {
                self.need_init(l, "DEFINE SCANMODE")?;
                let n = need_name("SCANMODE")?;
                let sm = self.scanmodes.entry(n.clone()).or_default();
                for &(_, m) in &ws[2..] {
                    sm.masks.push(unquote(m));
                }
                self.block = Some(Block {
                    kind: BlockKind::ScanMode,
                    name: n,
                    start: l.clone(),
                });
                return Ok(());
            }
            "SELECTION" => BlockKind::Selection,
            "TRANSFORMATION" => BlockKind::Transformation,
            "PLAYERLEVEL" => BlockKind::PlayerLevel,
            "GAMELEVEL" => BlockKind::GameLevel,
            "ITERATION" => BlockKind::Iteration,
            "SORTMODE" => BlockKind::SortMode,
            "PRINTGAME" => BlockKind::PrintGame,
            "PRINTPLAYER" => BlockKind::PrintPlayer,
            "JOB" | "MACRO" => {
                let n = need_name("JOB")?;
                self.job = Some(JobCollect {
                    name: n,
                    lines: Vec::new(),
                    start: (l.file.clone(), l.first_line()),
                    is_macro: false,
                });
                return Ok(());
            }
            _ => return Err(err_at(rest, 0, format!("unknown object type `{kind}`"))),
        };
        let n = if kind == BlockKind::Options {
            String::new()
        } else {
            need_name(&kind_u)?
        };
        if ws.len() > 2 {
            return Err(err_at(rest, ws[2].0, "unexpected text after the name"));
        }
        match kind {
            BlockKind::Selection => {
                self.selections
                    .entry(n.clone())
                    .or_insert_with(|| Formula::builtin("1.0"));
            }
            BlockKind::Transformation => {
                self.transformations.entry(n.clone()).or_default();
            }
            BlockKind::PlayerLevel => {
                self.playerlevels
                    .entry(n.clone())
                    .or_insert_with(|| Formula::builtin("SUM/WSUM"));
            }
            BlockKind::GameLevel => {
                self.gamelevels
                    .entry(n.clone())
                    .or_insert_with(|| Formula::builtin("WEIGHT * P * (SUMLEVEL-LEVEL) / (N-1)"));
            }
            BlockKind::Iteration => {
                self.iterations.entry(n.clone()).or_insert((None, None, None));
            }
            BlockKind::SortMode => {
                self.sortmodes.entry(n.clone()).or_default();
            }
            BlockKind::PrintGame => {
                self.printgames.entry(n.clone()).or_default();
            }
            BlockKind::PrintPlayer => {
                self.printplayers.entry(n.clone()).or_default();
            }
            _ => {}
        }
        let _ = self.log("DEFINITIONS", &format!("DEFINE {kind_u} {n}"));
        self.block = Some(Block {
            kind,
            name: n,
            start: l.clone(),
        });
        Ok(())
    }

    fn block_line(&mut self, l: &LLine) -> R {
        let (word, k) = first_word(&l.text);
        let rest = l.tail(k);
        let b = self.block.as_ref().expect("block");
        let (kind, name) = (b.kind, b.name.clone());
        if word == "END" {
            if !rest.text.is_empty() {
                return Err(err_at(&rest, 0, "unexpected text after END"));
            }
            self.block = None;
            return Ok(());
        }
        let formula = |what: &str| -> R<Formula> {
            if rest.text.is_empty() {
                return Err(err_at(l, l.text.len(), format!("{what} needs a formula")));
            }
            Formula::parse(&rest)
        };
        let bad = || {
            Err(err_at(
                l,
                0,
                format!("`{word}` is not possible here; expected one of the commands of this DEFINE or END"),
            ))
        };
        match kind {
            BlockKind::Options => {
                let kind = match word.as_str() {
                    "VOID" => OptKind::Void,
                    "CHARACTER" => OptKind::Char,
                    "TEXT" => OptKind::Text,
                    "INTEGER" => OptKind::Int,
                    "FLOATINGPOINT" => OptKind::Float,
                    _ => return bad(),
                };
                for (k, w) in words(&rest.text) {
                    for c in w.chars() {
                        if !c.is_ascii_alphanumeric() {
                            return Err(err_at(&rest, k, format!("an option is a letter or digit, not `{c}`")));
                        }
                        self.options.insert(c, kind);
                        self.declare_option(c);
                    }
                }
            }
            BlockKind::ScanMode => {
                let sm = self.scanmodes.get_mut(&name).expect("scanmode");
                match word.as_str() {
                    "MODE" => {
                        sm.mode = match rest.text.to_ascii_uppercase().as_str() {
                            "18XX" => Mode::Multi,
                            "RANGLIST" => Mode::Ranglist,
                            _ => return Err(err_at(&rest, 0, "expected MODE 18XX or MODE RANGLIST")),
                        }
                    }
                    "PREOFF" => sm.pre.off = true,
                    "PRECHAR" => {
                        let t = unquote(&rest.text);
                        let mut c = t.chars();
                        match (c.next(), c.next()) {
                            (Some(ch), None) => sm.pre.prechar = ch,
                            _ => return Err(err_at(&rest, 0, "PRECHAR needs one character")),
                        }
                    }
                    "PRECOMMENT" => {
                        let w: Vec<String> = rest.text.split_whitespace().map(unquote).collect();
                        if w.len() != 3 {
                            return Err(err_at(&rest, 0, "PRECOMMENT needs three strings"));
                        }
                        let two = |s: &str| s.chars().take(2).collect::<String>();
                        sm.pre.open = two(&w[0]);
                        sm.pre.close = two(&w[1]);
                        sm.pre.eol = two(&w[2]);
                    }
                    "PRETIE" => sm.pre.tie = unquote(&rest.text).chars().take(2).collect(),
                    "READPOINTS" => sm.readpoints = formula("READPOINTS")?,
                    "TRANSFORMATION" => sm.transform = formula("TRANSFORMATION")?,
                    "SIGN" => {
                        let t = unquote(&rest.text);
                        let mut c = t.chars();
                        match (c.next(), c.next()) {
                            (Some(ch), None) => sm.sign = Some(ch),
                            _ => return Err(err_at(&rest, 0, "SIGN needs one character")),
                        }
                    }
                    _ => return bad(),
                }
            }
            BlockKind::Selection => match word.as_str() {
                "SELECT" => {
                    let f = formula("SELECT")?;
                    self.selections.insert(name, f);
                }
                _ => return bad(),
            },
            BlockKind::Transformation => match word.as_str() {
                "VARIABLE" => {
                    let v = self.vardef(&rest)?;
                    self.transformations.get_mut(&name).expect("t").vars.push(v);
                }
                "TRANSFORM" => {
                    let f = formula("TRANSFORM")?;
                    self.transformations.get_mut(&name).expect("t").transform = f;
                }
                _ => return bad(),
            },
            BlockKind::PlayerLevel | BlockKind::GameLevel => match word.as_str() {
                "CALCULATE" => {
                    let f = formula("CALCULATE")?;
                    if kind == BlockKind::PlayerLevel {
                        self.playerlevels.insert(name, f);
                    } else {
                        self.gamelevels.insert(name, f);
                    }
                }
                _ => return bad(),
            },
            BlockKind::Iteration => {
                let f = formula(&word)?;
                let it = self.iterations.get_mut(&name).expect("it");
                match word.as_str() {
                    "MINIMUM" => it.0 = Some(f),
                    "MAXIMUM" => it.1 = Some(f),
                    "EPSILON" => it.2 = Some(f),
                    _ => return bad(),
                }
            }
            BlockKind::SortMode => {
                let sm = self.sortmodes.get_mut(&name).expect("sm");
                match word.as_str() {
                    "SORT" => sm.sort = formula("SORT")?,
                    "REVERS" | "REVERSE" => {
                        sm.revers = if rest.text.is_empty() {
                            true
                        } else {
                            let f = Formula::parse(&rest)?;
                            let s = SymScope { it: self };
                            let v = eval(&f.expr, &s).map_err(|e| f.err(e))?.num() > 0.0;
                            self.sortmodes.get_mut(&name).expect("sm").revers = v;
                            return Ok(());
                        }
                    }
                    _ => return bad(),
                }
            }
            BlockKind::PrintGame | BlockKind::PrintPlayer => {
                let map = if kind == BlockKind::PrintGame {
                    &mut self.printgames
                } else {
                    &mut self.printplayers
                };
                let pd = map.get_mut(&name).expect("pd");
                match word.as_str() {
                    "FILENAME" => {
                        let f = unquote(&rest.text);
                        if f.is_empty() {
                            return Err(err_at(l, l.text.len(), "FILENAME needs a file name"));
                        }
                        pd.filename = Some(f);
                        pd.append = false;
                    }
                    "OVERWRITE" => pd.append = false,
                    "APPEND" => pd.append = true,
                    "SORT" => pd.sort = true,
                    "UNSORT" => pd.sort = false,
                    "HEADER" => pd.header = formula("HEADER")?,
                    "PLAYER" => pd.player = formula("PLAYER")?,
                    "TRAILOR" | "TRAILER" => pd.trailer = formula("TRAILOR")?,
                    // A text line of the print: copied with it, after the header.
                    _ if is_text_line(&l.text) => pd.text.push(l.text.clone()),
                    _ => return bad(),
                }
            }
        }
        Ok(())
    }

    /// `VARIABLE name [range] := formula`.
    fn vardef(&self, l: &LLine) -> R<VarDef> {
        let t = &l.text;
        let end = t
            .find(|c: char| !(c.is_alphanumeric() || "$_.".contains(c)))
            .unwrap_or(t.len());
        if end == 0 {
            return Err(err_at(l, 0, "VARIABLE needs a name"));
        }
        let name = t[..end].to_ascii_uppercase();
        let mut k = end;
        let skip = |k: &mut usize| {
            while t.as_bytes().get(*k) == Some(&b' ') {
                *k += 1;
            }
        };
        skip(&mut k);
        let mut range = Range::None;
        if t.as_bytes().get(k) == Some(&b'[') {
            let close = find_top(t, k + 1, b']');
            if close >= t.len() {
                return Err(err_at(l, k, "`[` is not closed by `]`"));
            }
            let inner_start = k + 1;
            let inner = &t[inner_start..close];
            let part = |a: usize, b: usize| -> R<Option<Formula>> {
                let sub = LLine {
                    file: l.file.clone(),
                    text: t[a..b].to_string(),
                    at: l.at[a..b].to_vec(),
                }
                .tail(0);
                let s = sub.text.trim();
                if s.is_empty() || s == "*" {
                    Ok(None)
                } else {
                    Ok(Some(Formula::parse(&sub)?))
                }
            };
            range = match inner.find(':') {
                None => {
                    if inner.trim().is_empty() {
                        Range::Span(Box::new((None, None)))
                    } else {
                        let f = part(inner_start, close)?;
                        Range::Span(Box::new((f.clone(), f)))
                    }
                }
                Some(c) => Range::Span(Box::new((
                    part(inner_start, inner_start + c)?,
                    part(inner_start + c + 1, close)?,
                ))),
            };
            k = close + 1;
            skip(&mut k);
        }
        if t[k..].starts_with(":=") {
            k += 2;
        } else if t[k..].starts_with('=') || t[k..].starts_with(':') {
            k += 1;
        }
        let f = l.tail(k);
        if f.text.is_empty() {
            return Err(err_at(l, t.len(), format!("VARIABLE {name} needs a formula")));
        }
        Ok(VarDef {
            name,
            range,
            formula: Formula::parse(&f)?,
        })
    }

    fn call_job(&mut self, rest: &LLine) -> R {
        let mut t = rest.text.as_str();
        let mut optional = false;
        if let Some(r) = t.strip_prefix('?') {
            optional = true;
            t = r.trim_start();
        }
        let off = rest.text.len() - t.len();
        let end = t.find(['(', ' ']).unwrap_or(t.len());
        let name = t[..end].trim().to_ascii_uppercase();
        if name.is_empty() {
            return Err(err_at(rest, off, "expected the name of a job"));
        }
        let Some(lines) = self.jobs.get(&name).cloned() else {
            if optional {
                return Ok(());
            }
            return Err(err_at(rest, off, format!("no job or macro named {name}")));
        };
        let mut args: Vec<String> = Vec::new();
        let after = t[end..].trim_start();
        let aoff = off + (t.len() - after.len());
        if let Some(inner) = after.strip_prefix('(') {
            let close = find_top(&rest.text, aoff + 1, b')');
            if close >= rest.text.len() {
                return Err(err_at(rest, aoff, "`(` is not closed by `)`"));
            }
            if !rest.text[close + 1..].trim().is_empty() {
                return Err(err_at(rest, close + 1, "unexpected text after the parameters"));
            }
            if !inner.trim_start().starts_with(')') {
                let mut a = aoff + 1;
                loop {
                    let e = find_top(&rest.text[..close], a, b',');
                    let sub = LLine {
                        file: rest.file.clone(),
                        text: rest.text[a..e].to_string(),
                        at: rest.at[a..e].to_vec(),
                    }
                    .tail(0);
                    if sub.text.is_empty() {
                        return Err(err_at(rest, a, "empty job parameter"));
                    }
                    args.push(sub.text.clone());
                    if e >= close {
                        break;
                    }
                    a = e + 1;
                }
            }
        } else if !after.is_empty() {
            return Err(err_at(rest, aoff, "expected `(` and the job's parameters"));
        }
        if args.len() > 20 {
            return Err(err_at(rest, aoff, "a job takes at most 20 parameters"));
        }
        let mut frame = HashMap::new();
        for i in 1..=20 {
            let v = match args.get(i - 1) {
                None => Value::None,
                Some(a) => match a.parse::<f64>() {
                    Ok(x) => Value::Num(x),
                    Err(_) => Value::Str(unquote(a)),
                },
            };
            frame.insert(format!("${i}"), v);
        }
        // parameters are also replaced in the job's text, so that commands
        // taking names (SELECT $1) work
        let lines: Vec<SrcLine> = lines
            .iter()
            .map(|l| SrcLine {
                file: l.file.clone(),
                line: l.line,
                text: substitute(&l.text, &args),
            })
            .collect();
        frame.insert("$N".into(), Value::Num(args.len() as f64));
        self.frames.push(frame);
        let saved_ifs = std::mem::take(&mut self.ifs);
        let r = self.run_lines(&lines);
        let open_if = !self.ifs.is_empty();
        self.ifs = saved_ifs;
        self.frames.pop();
        r?;
        if open_if {
            return Err(err_at(rest, off, format!("job {name} leaves an #IF open")));
        }
        Ok(())
    }

    fn list(&mut self, rest: &LLine) -> R {
        let mut out = String::new();
        let ws = words(&rest.text);
        if ws.is_empty() {
            return Err(err_at(rest, 0, "LIST needs an object type"));
        }
        for (k, w) in ws {
            let u = w.to_ascii_uppercase();
            let all = u == "ALL";
            let mut hit = all;
            let names = |title: &str, keys: Vec<String>, out: &mut String| {
                let _ = writeln!(out, "{title}: {}", keys.join(", "));
            };
            use std::fmt::Write as _;
            if all || u == "JOBS" {
                names("JOBS", self.jobs.keys().cloned().collect(), &mut out);
                hit = true;
            }
            if all || u == "LOCALS" {
                let mut v: Vec<String> = self
                    .frames
                    .iter()
                    .flat_map(|f| f.iter().map(|(k, v)| format!("{k}={}", v.text())))
                    .collect();
                v.sort();
                names("LOCALS", v, &mut out);
                hit = true;
            }
            if all || u == "GLOBALS" {
                let mut v: Vec<String> = self.globals.iter().map(|(k, v)| format!("{k}={}", v.text())).collect();
                v.sort();
                names("GLOBALS", v, &mut out);
                hit = true;
            }
            if all || u == "SCANMODES" {
                names("SCANMODES", self.scanmodes.keys().cloned().collect(), &mut out);
                hit = true;
            }
            if all || u == "FILEMASKS" {
                let v = self
                    .scanmodes
                    .iter()
                    .flat_map(|(n, s)| s.masks.iter().map(move |m| format!("{m} -> {n}")))
                    .collect();
                names("FILEMASKS", v, &mut out);
                hit = true;
            }
            if all || u == "PLAYER" || u == "PLAYERS" {
                let _ = writeln!(out, "PLAYERS: {}", self.players.len());
                for p in &self.players {
                    let _ = writeln!(out, "  {} [{}]", p.name, p.id);
                }
                hit = true;
            }
            if all || u == "ATTRIBUTES" {
                names("ATTRIBUTES", self.attributes.clone(), &mut out);
                hit = true;
            }
            for (kw, keys) in [
                ("SELECTIONS", self.selections.keys().cloned().collect::<Vec<_>>()),
                ("TRANSFORMATIONS", self.transformations.keys().cloned().collect()),
                ("PLAYERLEVELS", self.playerlevels.keys().cloned().collect()),
                ("GAMELEVELS", self.gamelevels.keys().cloned().collect()),
                ("ITERATIONS", self.iterations.keys().cloned().collect()),
                ("PRINTGAMES", self.printgames.keys().cloned().collect()),
                ("PRINTPLAYERS", self.printplayers.keys().cloned().collect()),
                ("SORTMODES", self.sortmodes.keys().cloned().collect()),
            ] {
                if all || u == kw {
                    names(kw, keys, &mut out);
                    hit = true;
                }
            }
            if all || u == "GAME" || u == "GAMES" {
                let _ = writeln!(out, "GAMES: {}", self.games.len());
                for (i, g) in self.games.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "  {:>4} {}:{} {} ({} players)",
                        i + 1,
                        g.raw.file,
                        g.raw.line,
                        g.raw.title,
                        g.entries.len()
                    );
                }
                hit = true;
            }
            if !hit {
                return Err(err_at(rest, k, format!("unknown object type `{w}` for LIST")));
            }
        }
        let o = self.output.clone();
        self.write(&o, &out)
    }

    // ----- data -------------------------------------------------------------

    fn scanfiles(&mut self, at: Option<&LLine>) -> R {
        if !self.commandline_done {
            self.commandline_done = true;
            let args = self.args.clone();
            let l = at.cloned().unwrap_or(LLine {
                file: "<command line>".into(),
                text: String::new(),
                at: Vec::new(),
            });
            self.parameters(&l, &args)?;
        }
        self.init = false;
        let files = self.files.clone();
        for (k, f) in files.into_iter().enumerate() {
            let text = self.host.read(&f).map_err(|e| {
                let (file, line, col) = self.file_at.get(k).cloned().unwrap_or_default();
                Error::new(&file, line, col, format!("cannot read `{f}`: {e}"))
            })?;
            let _ = self.log("INPUTS", &format!("reading {f}"));
            let base = f.rsplit(['/', '\\']).next().unwrap_or(&f).to_string();
            let by_mask = self
                .scanmodes
                .iter()
                .find(|(_, s)| s.masks.iter().any(|m| glob_match(m, &f) || glob_match(m, &base)))
                .map(|(n, _)| n.clone());
            let (mode_name, raw) = if let Some(n) = by_mask {
                let sm = &self.scanmodes[&n];
                let sign = sm.sign.or_else(|| first_sign(&text, &sm.pre)).unwrap_or('=');
                (n.clone(), parse_table(&f, &text, sign, sm.mode, &sm.pre)?)
            } else if base.to_ascii_lowercase().ends_with(".csv") {
                ("CSV".to_string(), parse_csv(&f, &text)?)
            } else {
                let Some(sign) = first_sign(&text, &DataPre::default()) else {
                    continue;
                };
                // every scan mode looks with its own comment characters
                // modes the control file defines come before the predefined ones
                let predefined = |n: &str| n == "DEFAULT" || n == "18XX";
                let matches = |s: &ScanMode| s.sign.is_some() && first_sign(&text, &s.pre) == s.sign;
                let found = self
                    .scanmodes
                    .iter()
                    .find(|(n, s)| !predefined(n) && matches(s))
                    .or_else(|| self.scanmodes.iter().find(|(n, s)| predefined(n) && matches(s)));
                let Some((n, sm)) = found else {
                    let (line, col) = text
                        .lines()
                        .enumerate()
                        .find_map(|(i, l)| l.find(sign).map(|c| (i as u32 + 1, c as u32 + 1)))
                        .unwrap_or((1, 1));
                    return Err(Error::new(&f, line, col, format!("no SCANMODE has the sign `{sign}`; the first character of a result table chooses its scan mode")));
                };
                let sign = sm.sign.unwrap_or(sign);
                (n.clone(), parse_table(&f, &text, sign, sm.mode, &sm.pre)?)
            };
            let sm = self.scanmodes.get(&mode_name).cloned().unwrap_or_default();
            for g in raw {
                self.add_game(g, &mode_name, &sm)?;
            }
        }
        let _ = self.log(
            "SUMMARY",
            &format!("{} games, {} players", self.games.len(), self.players.len()),
        );
        // the evaluation mode starts with all games selected (SELECT DEFAULT)
        self.select("DEFAULT")
    }

    fn add_game(&mut self, mut raw: RawGame, mode: &str, sm: &ScanMode) -> R {
        let players = std::mem::take(&mut raw.players);
        let mut entries = Vec::with_capacity(players.len());
        for (pos, p) in players.iter().enumerate() {
            let v = if sm.readpoints.is("P.1") {
                p.points[0]
            } else {
                let s = ReadScope {
                    it: self,
                    pts: &p.points,
                };
                eval(&sm.readpoints.expr, &s).map_err(|e| sm.readpoints.err(e))?.num()
            };
            if !v.is_finite() {
                return Err(Error::new(&raw.file, p.line, 1, "READPOINTS gives no finite number"));
            }
            let upper;
            let key: &str = if p.id.chars().any(|c| c.is_lowercase()) {
                upper = p.id.to_uppercase();
                &upper
            } else {
                &p.id
            };
            let id = match self.player_ix.get(key) {
                Some(&i) => i,
                None => {
                    let i = self.players.len() as u32;
                    self.players.push(Player {
                        name: p.name.clone(),
                        id: p.id.clone(),
                        vars: HashMap::new(),
                    });
                    self.player_ix.insert(key.to_string(), i);
                    i
                }
            };
            if entries.iter().any(|e: &Entry| e.player == id) {
                return Err(Error::new(
                    &raw.file,
                    p.line,
                    1,
                    format!("player `{}` appears twice in one game", p.id),
                ));
            }
            entries.push(Entry {
                player: id,
                pos: pos as u32 + 1,
                p0: v,
                p: v,
            });
        }
        for a in &raw.attributes {
            if !self.attributes.contains(a) {
                self.attributes.push(a.clone());
            }
        }
        entries.sort_by(|a, b| b.p.total_cmp(&a.p));
        let mut game = Game {
            raw,
            scanmode: mode.to_string(),
            entries,
            vars: HashMap::new(),
        };
        if !sm.transform.is("P") {
            let pts: Vec<f64> = game.entries.iter().map(|e| e.p).collect();
            let st = stats(&pts);
            let rk = ranks(&pts);
            let mut new = Vec::with_capacity(pts.len());
            let empty = HashMap::new();
            for i in 0..pts.len() {
                let s = GameScope {
                    it: self,
                    g: &game,
                    pts: &pts,
                    entries: &game.entries,
                    st,
                    rk: &rk,
                    weight: None,
                    i: Some(i),
                    v: 0.0,
                    extra: &empty,
                    sel: None,
                };
                let v = eval(&sm.transform.expr, &s).map_err(|e| sm.transform.err(e))?.num();
                new.push(v);
            }
            for (e, v) in game.entries.iter_mut().zip(new) {
                e.p = v;
                e.p0 = v;
            }
            game.entries.sort_by(|a, b| b.p.total_cmp(&a.p));
        }
        if self.logs("GAMES") {
            let _ = self.log(
                "GAMES",
                &format!("{}:{}: {}", game.raw.file, game.raw.line, game.raw.title),
            );
        }
        self.games.push(game);
        Ok(())
    }

    // ----- evaluation -------------------------------------------------------

    fn eval_command(&mut self, word: &str, l: &LLine, rest: &LLine) -> R {
        let name = || -> R<String> {
            let ws = words(&rest.text);
            match ws.as_slice() {
                [] => Err(err_at(l, l.text.len(), format!("{word} needs a name"))),
                [(_, n)] => Ok(unquote(n).to_ascii_uppercase()),
                [_, (k, _), ..] => Err(err_at(rest, *k, "unexpected text after the name")),
            }
        };
        let known = |ok: bool, what: &str, n: &str| -> R {
            if ok {
                Ok(())
            } else {
                Err(err_at(rest, 0, format!("no {what} named {n}")))
            }
        };
        match word {
            "SELECT" => {
                let n = name()?;
                known(self.selections.contains_key(&n), "SELECTION", &n)?;
                self.select(&n)
            }
            "RESELECT" => {
                let n = self.selection.clone().unwrap_or_else(|| "DEFAULT".into());
                self.select(&n)
            }
            "TRANSFORMATION" => {
                let n = name()?;
                known(self.transformations.contains_key(&n), "TRANSFORMATION", &n)?;
                self.ensure_selection()?;
                self.transform(&n)
            }
            "PLAYERLEVEL" => {
                let ws = words(&rest.text);
                if ws.is_empty() || ws.len() > 2 {
                    return Err(err_at(l, 0, "PLAYERLEVEL needs one or two names"));
                }
                let a = ws[0].1.to_ascii_uppercase();
                known(self.playerlevels.contains_key(&a), "PLAYERLEVEL", &a)?;
                let b = ws.get(1).map(|w| w.1.to_ascii_uppercase());
                if let Some(b) = &b {
                    known(self.playerlevels.contains_key(b), "PLAYERLEVEL", b)?;
                }
                self.cur_playerlevel = (a, b);
                Ok(())
            }
            "GAMELEVEL" => {
                let n = name()?;
                known(self.gamelevels.contains_key(&n), "GAMELEVEL", &n)?;
                self.cur_gamelevel = n;
                Ok(())
            }
            "ITERATE" | "ITERATION" => {
                let n = name()?;
                known(self.iterations.contains_key(&n), "ITERATION", &n)?;
                self.cur_iteration = n;
                Ok(())
            }
            "SORT" => {
                let n = name()?;
                known(self.sortmodes.contains_key(&n), "SORTMODE", &n)?;
                self.cur_sort = n;
                Ok(())
            }
            "CALCULATE" => {
                if !rest.text.is_empty() {
                    return Err(err_at(rest, 0, "CALCULATE takes no parameters"));
                }
                self.ensure_selection()?;
                self.calculate(l)
            }
            "PRINTGAMES" => {
                let n = name()?;
                known(self.printgames.contains_key(&n), "PRINTGAME", &n)?;
                self.ensure_selection()?;
                self.print_games(&n)
            }
            "PRINT" | "PRINTPLAYERS" => {
                let n = name()?;
                known(self.printplayers.contains_key(&n), "PRINTPLAYER", &n)?;
                self.ensure_selection()?;
                self.print_players(&n)
            }
            "CLEARVARS" => {
                for p in &mut self.players {
                    p.vars.clear();
                }
                Ok(())
            }
            "SAVEPLAYERS" | "TRANSFER" => {
                let n = name()?;
                let Some(c) = &self.calc else {
                    return Err(err_at(l, 0, "SAVEPLAYERS needs a CALCULATE first"));
                };
                for (p, pl) in self.players.iter_mut().enumerate() {
                    if c.n[p] == 0 {
                        continue;
                    }
                    for (k, v) in [
                        ("N", c.n[p] as f64),
                        ("SUM", c.sum[p]),
                        ("WSUM", c.wsum[p]),
                        ("BEST", c.best[p]),
                        ("WBEST", c.wbest[p]),
                        ("WORST", c.worst[p]),
                        ("WWORST", c.wworst[p]),
                        ("LEVEL", c.level[p]),
                        ("LEVEL0", c.level0[p]),
                    ] {
                        pl.vars.insert(format!("{n}.{k}"), v);
                    }
                }
                Ok(())
            }
            "SAVEGAMES" => {
                let n = name()?;
                self.ensure_selection()?;
                for (k, s) in self.sel.iter().enumerate() {
                    let pts: Vec<f64> = s.entries.iter().map(|e| e.p).collect();
                    let st = stats(&pts);
                    let (gl, gg) = match &self.calc {
                        Some(c) => (
                            c.gamelevel.get(k).copied().unwrap_or(0.0),
                            c.game_group.get(k).copied().unwrap_or(0) as f64,
                        ),
                        None => (1.0, 0.0),
                    };
                    let g = &mut self.games[s.game];
                    for (key, v) in [
                        ("FIRST", st.first),
                        ("MEAN", st.mean),
                        ("MEDIAN", st.median),
                        ("BINOM", st.binomial),
                        ("MIDDLE", st.middle),
                        ("WEIGHT", s.weight),
                        ("GAMELEVEL", gl),
                        ("GROUP", gg),
                    ] {
                        g.vars.insert(format!("{n}.{key}"), v);
                    }
                }
                Ok(())
            }
            _ => Err(err_at(l, 0, format!("unknown command `{word}`"))),
        }
    }

    fn ensure_selection(&mut self) -> R {
        if self.selection.is_none() {
            self.select("DEFAULT")?;
        }
        Ok(())
    }

    fn select(&mut self, name: &str) -> R {
        let f = self.selections[name].clone();
        let mut sel = Vec::new();
        let empty = HashMap::new();
        for (gi, g) in self.games.iter().enumerate() {
            let w = if f.is("1.0") || f.is("1") {
                1.0
            } else {
                let pts: Vec<f64> = g.entries.iter().map(|e| e.p).collect();
                let rk = ranks(&pts);
                let s = GameScope {
                    it: self,
                    g,
                    pts: &pts,
                    entries: &g.entries,
                    st: stats(&pts),
                    rk: &rk,
                    weight: None,
                    i: None,
                    v: 0.0,
                    extra: &empty,
                    sel: None,
                };
                eval(&f.expr, &s).map_err(|e| f.err(e))?.num()
            };
            if w > 0.0 {
                sel.push(Sel {
                    game: gi,
                    weight: w,
                    entries: g.entries.clone(),
                });
            }
        }
        let _ = self.log(
            "CALCULATIONS",
            &format!("SELECT {name}: {} of {} games", sel.len(), self.games.len()),
        );
        self.sel = sel;
        self.selection = Some(name.to_string());
        self.cur_playerlevel = ("DEFAULT".into(), None);
        self.cur_gamelevel = "DEFAULT".into();
        self.cur_iteration = "DEFAULT".into();
        self.calc = None;
        Ok(())
    }

    fn transform(&mut self, name: &str) -> R {
        let t = self.transformations[name].clone();
        let default = t.vars.is_empty() && t.transform.is("P/MEAN");
        let mut new_sel = self.sel.clone();
        for s in new_sel.iter_mut() {
            let pts: Vec<f64> = s.entries.iter().map(|e| e.p).collect();
            let st = stats(&pts);
            if default {
                for e in s.entries.iter_mut() {
                    e.p /= st.mean;
                }
                continue;
            }
            let rk = ranks(&pts);
            let g = &self.games[s.game];
            let mut extra: HashMap<String, Value> = HashMap::new();
            for vd in &t.vars {
                let mk = |extra: &HashMap<String, Value>, i: Option<usize>| -> R<Value> {
                    let sc = GameScope {
                        it: self,
                        g,
                        pts: &pts,
                        entries: &s.entries,
                        st,
                        rk: &rk,
                        weight: Some(s.weight),
                        i,
                        v: 0.0,
                        extra,
                        sel: None,
                    };
                    eval(&vd.formula.expr, &sc).map_err(|e| vd.formula.err(e))
                };
                match &vd.range {
                    Range::None => {
                        let v = mk(&extra, None)?;
                        extra.insert(vd.name.clone(), v);
                    }
                    Range::Span(ab) => {
                        let (a, b) = &**ab;
                        let n = pts.len() as i64;
                        let bound = |f: &Option<Formula>, dflt: i64| -> R<i64> {
                            match f {
                                None => Ok(dflt),
                                Some(f) => {
                                    let sc = GameScope {
                                        it: self,
                                        g,
                                        pts: &pts,
                                        entries: &s.entries,
                                        st,
                                        rk: &rk,
                                        weight: Some(s.weight),
                                        i: None,
                                        v: 0.0,
                                        extra: &extra,
                                        sel: None,
                                    };
                                    let v = eval(&f.expr, &sc).map_err(|e| f.err(e))?.num();
                                    Ok(if v.is_finite() {
                                        v.round().clamp(-1e9, 1e9) as i64
                                    } else {
                                        dflt
                                    })
                                }
                            }
                        };
                        let lo = bound(a, 1)?.max(1);
                        let hi = bound(b, n)?.min(n);
                        for i in lo..=hi {
                            let v = mk(&extra, Some(i as usize - 1))?;
                            extra.insert(vd.name.clone(), v);
                        }
                    }
                }
            }
            let mut v = 0.0;
            let mut new = Vec::with_capacity(pts.len());
            for i in 0..pts.len() {
                let sc = GameScope {
                    it: self,
                    g,
                    pts: &pts,
                    entries: &s.entries,
                    st,
                    rk: &rk,
                    weight: Some(s.weight),
                    i: Some(i),
                    v,
                    extra: &extra,
                    sel: None,
                };
                v = eval(&t.transform.expr, &sc).map_err(|e| t.transform.err(e))?.num();
                new.push(v);
            }
            for (e, v) in s.entries.iter_mut().zip(new) {
                e.p = v;
            }
            s.entries.sort_by(|a, b| b.p.total_cmp(&a.p));
        }
        self.sel = new_sel;
        self.calc = None;
        Ok(())
    }

    fn iter_params(&self) -> R<IterParams> {
        let (a, b, c) = self.iterations[&self.cur_iteration].clone();
        let mut p = IterParams::default();
        let num = |f: &Formula| -> R<f64> {
            let s = SymScope { it: self };
            Ok(eval(&f.expr, &s).map_err(|e| f.err(e))?.num())
        };
        if let Some(f) = &a {
            let v = num(f)?;
            if !(1.0..=1_000_000.0).contains(&v) {
                return Err(at_err(
                    &f.src,
                    ExprError {
                        at: 0,
                        msg: "MINIMUM must be between 1 and 1000000".into(),
                    },
                ));
            }
            p.minimum = v as u32;
        }
        if let Some(f) = &b {
            let v = num(f)?;
            if !(1.0..=1_000_000.0).contains(&v) || (v as u32) < p.minimum {
                return Err(at_err(
                    &f.src,
                    ExprError {
                        at: 0,
                        msg: "MAXIMUM must be between MINIMUM and 1000000".into(),
                    },
                ));
            }
            p.maximum = v as u32;
        } else {
            p.maximum = p.maximum.max(p.minimum);
        }
        if let Some(f) = &c {
            let v = num(f)?;
            if v.is_nan() || v < 0.0 {
                return Err(at_err(
                    &f.src,
                    ExprError {
                        at: 0,
                        msg: "EPSILON must be 0 or positive".into(),
                    },
                ));
            }
            p.epsilon = v;
        }
        Ok(p)
    }

    fn calculate(&mut self, l: &LLine) -> R {
        let params = self.iter_params()?;
        let mut offsets = Vec::with_capacity(self.sel.len() + 1);
        let mut players = Vec::new();
        let mut points = Vec::new();
        let mut weights = Vec::with_capacity(self.sel.len());
        offsets.push(0);
        for s in &self.sel {
            if s.entries.len() < 2 {
                let g = &self.games[s.game];
                return Err(Error::new(
                    &g.raw.file,
                    g.raw.line,
                    1,
                    "a game needs at least two players for CALCULATE",
                ));
            }
            for e in &s.entries {
                players.push(e.player);
                points.push(e.p);
            }
            weights.push(s.weight);
            offsets.push(players.len());
        }
        let inp = CalcInput {
            n_players: self.players.len(),
            offsets: &offsets,
            players: &players,
            points: &points,
            weights: &weights,
        };
        let glf = self.gamelevels[&self.cur_gamelevel].clone();
        let plf = self.playerlevels[&self.cur_playerlevel.0].clone();
        let plf2 = self.cur_playerlevel.1.as_ref().map(|n| self.playerlevels[n].clone());
        let resolver = |slots: &[&str]| {
            let slots: Vec<String> = slots.iter().map(|s| s.to_string()).collect();
            move |it: &Interp, n: &str| -> Option<Resolved> {
                if let Some(i) = slots.iter().position(|s| s == n) {
                    return Some(Resolved::Slot(i as u16));
                }
                match it.lookup(n) {
                    Some(Value::Num(v)) => Some(Resolved::Const(v)),
                    _ => None,
                }
            }
        };
        let rg = resolver(&GL_SLOTS);
        let rp = resolver(&PL_SLOTS);
        let gprog = NumProg::compile(&glf.expr, &|n| rg(self, n));
        let pprog = NumProg::compile(&plf.expr, &|n| rp(self, n));
        let pprog2 = plf2.as_ref().and_then(|f| NumProg::compile(&f.expr, &|n| rp(self, n)));
        let this: &Interp = self;
        let mut gfun = |_e: usize, s: &[f64]| -> R<f64> {
            match &gprog {
                Some(p) => Ok(p.run(s)),
                None => {
                    let sc = SlotScope {
                        it: this,
                        names: &GL_SLOTS,
                        vals: s,
                        player: None,
                    };
                    Ok(eval(&glf.expr, &sc).map_err(|e| glf.err(e))?.num())
                }
            }
        };
        let mk_p = |prog: Option<NumProg>, f: Formula| {
            move |p: usize, s: &[f64]| -> R<f64> {
                match &prog {
                    Some(pr) => Ok(pr.run(s)),
                    None => {
                        let sc = SlotScope {
                            it: this,
                            names: &PL_SLOTS,
                            vals: s,
                            player: Some(p),
                        };
                        Ok(eval(&f.expr, &sc).map_err(|e| f.err(e))?.num())
                    }
                }
            }
        };
        let mut pfun = mk_p(pprog, plf.clone());
        let mut pfun2 = plf2.map(|f| mk_p(pprog2, f));
        let out = engine::iterate(
            &inp,
            params,
            &mut gfun,
            &mut pfun,
            pfun2.as_mut().map(|f| f as &mut dyn FnMut(usize, &[f64]) -> R<f64>),
        )?;
        // LOGGING ITERATIONS (level 7): how the iteration went, step by step.
        if self.logs("ITERATIONS") {
            for (i, c) in out.changes.iter().enumerate() {
                let _ = self.log(
                    "ITERATIONS",
                    &format!("ITERATION step {}: largest change {c:.3e}", i + 1),
                );
            }
        }
        let msg = format!(
            "CALCULATE: {} games, {} players, {} steps, largest change {:.3e}",
            self.sel.len(),
            out.group_sizes.iter().sum::<usize>(),
            out.iterations,
            out.change2.sqrt()
        );
        let _ = self.log("CALCULATIONS", &msg);
        if out.group_sizes.len() > 1 {
            let mut m = format!(
                "note: the selected games form {} groups of players who never met, not even through other players; strengths are normalised within each group and cannot be compared across groups:",
                out.group_sizes.len()
            );
            for (i, s) in out.group_sizes.iter().enumerate() {
                let names: Vec<&str> = (0..self.players.len())
                    .filter(|&p| out.group[p] == i as u32 + 1)
                    .take(5)
                    .map(|p| self.players[p].name.as_str())
                    .collect();
                let more = if *s > names.len() { ", …" } else { "" };
                m.push_str(&format!(
                    "\n  group {}: {} players ({}{more})",
                    i + 1,
                    s,
                    names.join(", ")
                ));
            }
            let o = self.output.clone();
            self.write(&o, &format!("{m}\n"))?;
            let _ = self.log("CALCULATIONS", &m);
        }
        let _ = l;
        self.calc_offsets = offsets;
        self.calc = Some(out);
        Ok(())
    }

    /// Players in the selected games, in order of first appearance.
    fn listed_players(&self) -> Vec<usize> {
        let mut seen = vec![false; self.players.len()];
        let mut v = Vec::new();
        let src: Box<dyn Iterator<Item = &Entry>> = if self.sel.is_empty() && self.selection.is_none() {
            Box::new(self.games.iter().flat_map(|g| g.entries.iter()))
        } else {
            Box::new(self.sel.iter().flat_map(|s| s.entries.iter()))
        };
        let mut by_pos: Vec<(usize, usize)> = Vec::new();
        for e in src {
            if !seen[e.player as usize] {
                seen[e.player as usize] = true;
                by_pos.push((by_pos.len(), e.player as usize));
            }
        }
        for (_, p) in by_pos {
            v.push(p);
        }
        v
    }

    fn print_target(&mut self, pd: &mut PrintDef) -> R<String> {
        pd.uses += 1;
        match &pd.filename {
            Some(f) => {
                if pd.uses == 1 && !pd.append {
                    self.host
                        .write(f, false, "")
                        .map_err(|e| Error::plain(format!("cannot write `{f}`: {e}")))?;
                }
                Ok(f.clone())
            }
            None => Ok(self.printfile.clone().unwrap_or_else(|| self.output.clone())),
        }
    }

    fn print_players(&mut self, name: &str) -> R {
        let mut pd = self.printplayers[name].clone();
        let target = self.print_target(&mut pd)?;
        self.printplayers.insert(name.to_string(), pd.clone());
        let mut ids = self.listed_players();
        let sm = self.sortmodes[&self.cur_sort].clone();
        let mut keys = vec![Value::Num(0.0); self.players.len()];
        if pd.sort {
            for (k, &p) in ids.iter().enumerate() {
                let s = PlayerScope {
                    it: self,
                    p,
                    i: k + 1,
                    r: (k + 1, 1),
                    np: ids.len(),
                };
                keys[p] = eval(&sm.sort.expr, &s).map_err(|e| sm.sort.err(e))?;
            }
            let cmp = |a: &Value, b: &Value| match (a, b) {
                (Value::Num(x), Value::Num(y)) => x.total_cmp(y),
                _ => a.text().to_lowercase().cmp(&b.text().to_lowercase()),
            };
            ids.sort_by(|&a, &b| {
                if sm.revers {
                    cmp(&keys[a], &keys[b])
                } else {
                    cmp(&keys[b], &keys[a])
                }
            });
        }
        let rk: Vec<(usize, usize)> = if pd.sort {
            let mut v = vec![(0, 0); ids.len()];
            let mut i = 0;
            while i < ids.len() {
                let mut j = i + 1;
                while j < ids.len() && keys[ids[j]] == keys[ids[i]] {
                    j += 1;
                }
                for o in &mut v[i..j] {
                    *o = (i + 1, j - i);
                }
                i = j;
            }
            v
        } else {
            (1..=ids.len()).map(|i| (i, 1)).collect()
        };
        let mut out = String::new();
        let np = ids.len();
        let hs = ListScope { it: self, np };
        let h = eval(&pd.header.expr, &hs).map_err(|e| pd.header.err(e))?.text();
        if !h.is_empty() {
            out.push_str(&h);
            out.push('\n');
        }
        for t in &pd.text {
            out.push_str(t);
            out.push('\n');
        }
        for (k, &p) in ids.iter().enumerate() {
            let s = PlayerScope {
                it: self,
                p,
                i: k + 1,
                r: rk[k],
                np,
            };
            out.push_str(&eval(&pd.player.expr, &s).map_err(|e| pd.player.err(e))?.text());
            out.push('\n');
        }
        let t = eval(&pd.trailer.expr, &hs).map_err(|e| pd.trailer.err(e))?.text();
        if !t.is_empty() {
            out.push_str(&t);
            out.push('\n');
        }
        let _ = self.log("PRINTINGS", &format!("PRINTPLAYERS {name}: {np} players"));
        self.write(&target, &out)
    }

    fn print_games(&mut self, name: &str) -> R {
        let mut pd = self.printgames[name].clone();
        let target = self.print_target(&mut pd)?;
        self.printgames.insert(name.to_string(), pd.clone());
        // The definition's text lines once, before the first game.
        let mut out: String = pd.text.iter().map(|t| format!("{t}\n")).collect();
        let empty = HashMap::new();
        for (k, s) in self.sel.iter().enumerate() {
            let g = &self.games[s.game];
            let mut entries = s.entries.clone();
            if !pd.sort {
                entries.sort_by_key(|e| e.pos);
            }
            let pts: Vec<f64> = entries.iter().map(|e| e.p).collect();
            let rk = ranks(&s.entries.iter().map(|e| e.p).collect::<Vec<_>>());
            let st = stats(&s.entries.iter().map(|e| e.p).collect::<Vec<_>>());
            let hs = GameScope {
                it: self,
                g,
                pts: &pts,
                entries: &entries,
                st,
                rk: &rk,
                weight: Some(s.weight),
                i: None,
                v: 0.0,
                extra: &empty,
                sel: Some(k),
            };
            let h = eval(&pd.header.expr, &hs).map_err(|e| pd.header.err(e))?.text();
            if !h.is_empty() {
                out.push_str(&h);
                out.push('\n');
            }
            for i in 0..entries.len() {
                let ps = GameScope {
                    i: Some(i),
                    ..hs.clone()
                };
                out.push_str(&eval(&pd.player.expr, &ps).map_err(|e| pd.player.err(e))?.text());
                out.push('\n');
            }
            let t = eval(&pd.trailer.expr, &hs).map_err(|e| pd.trailer.err(e))?.text();
            if !t.is_empty() {
                out.push_str(&t);
                out.push('\n');
            }
        }
        self.write(&target, &out)
    }

    /// Strength of every player after the last CALCULATE, by name.
    pub fn levels(&self) -> Vec<(String, f64)> {
        match &self.calc {
            None => Vec::new(),
            Some(c) => (0..self.players.len())
                .filter(|&p| c.n[p] > 0)
                .map(|p| (self.players[p].name.clone(), c.level[p]))
                .collect(),
        }
    }

    /// The result of the last CALCULATE.
    pub fn calc(&self) -> Option<&CalcOutput> {
        self.calc.as_ref()
    }

    fn player_common(&self, p: usize, n: &str) -> Option<Value> {
        let pl = &self.players[p];
        let c = self.calc.as_ref();
        Some(Value::Num(match n {
            "NAME" => return Some(Value::Str(pl.name.clone())),
            "ID" => return Some(Value::Str(pl.id.clone())),
            "LEVEL" => c.map(|c| c.level[p]).unwrap_or(1.0),
            "LEVEL0" => c.map(|c| c.level0[p]).unwrap_or(1.0),
            "GROUP" => c.map(|c| c.group[p] as f64).unwrap_or(0.0),
            "SUM" => c.map(|c| c.sum[p]).unwrap_or(0.0),
            "WSUM" => c.map(|c| c.wsum[p]).unwrap_or(0.0),
            "BEST" => c.map(|c| c.best[p]).unwrap_or(0.0),
            "WBEST" => c.map(|c| c.wbest[p]).unwrap_or(0.0),
            "WORST" => c.map(|c| c.worst[p]).unwrap_or(0.0),
            "WWORST" => c.map(|c| c.wworst[p]).unwrap_or(0.0),
            _ => return pl.vars.get(n).map(|v| Value::Num(*v)),
        }))
    }

    fn player_games(&self, p: usize) -> f64 {
        match &self.calc {
            Some(c) => c.n[p] as f64,
            None => self
                .sel
                .iter()
                .filter(|s| s.entries.iter().any(|e| e.player as usize == p))
                .count() as f64,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope3 {
    Local,
    Global,
    Player,
}

// ---------------------------------------------------------------------------
// Scopes

/// Symbols only.
struct SymScope<'a, 'h> {
    it: &'a Interp<'h>,
}
impl Scope for SymScope<'_, '_> {
    fn get(&self, n: &str) -> Option<Value> {
        self.it.lookup(n)
    }
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
}

/// `#IF`: unknown symbols count as 0.
struct IfScope<'a, 'h> {
    it: &'a Interp<'h>,
}
impl Scope for IfScope<'_, '_> {
    fn get(&self, n: &str) -> Option<Value> {
        Some(self.it.lookup(n).unwrap_or(Value::Num(0.0)))
    }
}

/// READPOINTS: N, P.1 … P.n, PN over the columns of one player line.
struct ReadScope<'a, 'h> {
    it: &'a Interp<'h>,
    pts: &'a [f64],
}
impl Scope for ReadScope<'_, '_> {
    fn get(&self, n: &str) -> Option<Value> {
        match n {
            "N" => Some(Value::Num(self.pts.len() as f64)),
            "PN" => self.pts.last().map(|v| Value::Num(*v)),
            "P" => self.pts.first().map(|v| Value::Num(*v)),
            _ => match indexed(n, "P.") {
                Some(k) => Some(Value::Num(self.pts.get(k).copied().unwrap_or(0.0))),
                None => self.it.lookup(n),
            },
        }
    }
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
}

/// `P.3` → Some(2).
fn indexed(n: &str, prefix: &str) -> Option<usize> {
    n.strip_prefix(prefix)
        .and_then(|k| k.parse::<usize>().ok())
        .filter(|k| *k >= 1)
        .map(|k| k - 1)
}

/// A game, optionally one of its players.
#[derive(Clone)]
struct GameScope<'a, 'h> {
    it: &'a Interp<'h>,
    g: &'a Game,
    pts: &'a [f64],
    entries: &'a [Entry],
    st: Stats,
    rk: &'a [(usize, usize)],
    weight: Option<f64>,
    i: Option<usize>,
    v: f64,
    extra: &'a HashMap<String, Value>,
    sel: Option<usize>,
}

impl Scope for GameScope<'_, '_> {
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
    fn get(&self, n: &str) -> Option<Value> {
        if let Some(v) = self.extra.get(n) {
            return Some(v.clone());
        }
        let num = |x: f64| Some(Value::Num(x));
        let g = &self.g.raw;
        let np = self.pts.len();
        let date = g.date;
        match n {
            "DATE" | "GAMEDATE" => return num(date.map(|d| d.number()).unwrap_or(0.0)),
            "YEAR" => return num(date.map(|d| d.y as f64).unwrap_or(0.0)),
            "MONTH" => return num(date.map(|d| d.m as f64).unwrap_or(0.0)),
            "DAY" => return num(date.map(|d| d.d as f64).unwrap_or(0.0)),
            "AGE" => return num(date.map(|d| (self.it.refdate.days() - d.days()) as f64).unwrap_or(0.0)),
            "FACTOR" => return num(g.factor),
            "FIRST" => return num(self.st.first),
            "MEAN" => return num(self.st.mean),
            "MEDIAN" => return num(self.st.median),
            "MIDDLE" => return num(self.st.middle),
            "BINOMIAL" => return num(self.st.binomial),
            "TITLE" => return Some(Value::Str(g.title.clone())),
            "TEXT" => return Some(Value::Str(g.text.clone())),
            "NP" => return num(np as f64),
            "PN" => return num(self.pts.last().copied().unwrap_or(0.0)),
            "SRCFILE" => return Some(Value::Str(g.file.clone())),
            "SRCLINE" => return num(g.line as f64),
            "SRCDATE" => return num(0.0),
            "GAMEID" => {
                return num(self
                    .it
                    .games
                    .iter()
                    .position(|x| std::ptr::eq(x, self.g))
                    .map(|i| i + 1)
                    .unwrap_or(0) as f64)
            }
            _ => {}
        }
        if n == "WEIGHT" {
            if let Some(w) = self.weight {
                return num(w);
            }
        }
        if let Some(k) = self.sel {
            if let Some(c) = &self.it.calc {
                match n {
                    "GAMELEVEL" => return num(c.gamelevel.get(k).copied().unwrap_or(0.0)),
                    "GAMEGROUP" => return num(c.game_group.get(k).copied().unwrap_or(0) as f64),
                    _ => {}
                }
            }
        }
        if let Some(k) = indexed(n, "P.") {
            return num(self.pts.get(k).copied().unwrap_or(0.0));
        }
        if let Some(k) = indexed(n, "B.") {
            return num(if k < np { binom(np - 1, k) } else { 0.0 });
        }
        if let Some(a) = n.strip_prefix("A$") {
            if g.attributes.iter().any(|x| x == a) {
                return num(1.0);
            }
            if self.it.attributes.iter().any(|x| x == a) {
                return num(0.0);
            }
        }
        if let Some(m) = n.strip_prefix("SM$") {
            if self.g.scanmode == m {
                return num(1.0);
            }
            if self.it.scanmodes.contains_key(m) || m == "CSV" {
                return num(0.0);
            }
        }
        if let Some(v) = self.g.vars.get(n) {
            return num(*v);
        }
        if let Some(i) = self.i {
            let e = self.entries[i];
            let p = e.player as usize;
            match n {
                "N" => return num(np as f64),
                "I" => return num(i as f64 + 1.0),
                "J" => return num((np - i) as f64),
                "M" => return num((i + 1).min(np - i) as f64),
                "V" => return num(self.v),
                "R" => return num(self.rk.get(i).map(|r| r.0).unwrap_or(i + 1) as f64),
                "RN" => return num(self.rk.get(i).map(|r| r.1).unwrap_or(1) as f64),
                "P" => return num(self.pts[i]),
                "P0" => return num(e.p0),
                "B" => return num(binom(np - 1, i)),
                "POS" => return num(e.pos as f64),
                "GLEVEL" => {
                    if let (Some(k), Some(c)) = (self.sel, &self.it.calc) {
                        let base = self.it.calc_offsets.get(k).copied().unwrap_or(0);
                        let sel = &self.it.sel[k];
                        let idx = sel.entries.iter().position(|x| x.player == e.player).unwrap_or(0);
                        return num(c.glevel.get(base + idx).copied().unwrap_or(0.0));
                    }
                    return num(0.0);
                }
                "GAMES" => return num(self.it.player_games(p)),
                _ => {}
            }
            if let Some(v) = self.it.player_common(p, n) {
                return Some(v);
            }
        } else if n == "N" {
            return num(np as f64);
        }
        self.it.lookup(n)
    }
}

/// One player in a player list (PRINTPLAYER, SORTMODE, PSET).
struct PlayerScope<'a, 'h> {
    it: &'a Interp<'h>,
    p: usize,
    i: usize,
    r: (usize, usize),
    np: usize,
}
impl Scope for PlayerScope<'_, '_> {
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
    fn get(&self, n: &str) -> Option<Value> {
        match n {
            "I" => return Some(Value::Num(self.i as f64)),
            "R" => return Some(Value::Num(self.r.0 as f64)),
            "RN" => return Some(Value::Num(self.r.1 as f64)),
            "NP" => return Some(Value::Num(self.np as f64)),
            "N" => return Some(Value::Num(self.it.player_games(self.p))),
            _ => {}
        }
        self.it.player_common(self.p, n).or_else(|| self.it.lookup(n))
    }
}

/// Header and trailer of a player list.
struct ListScope<'a, 'h> {
    it: &'a Interp<'h>,
    np: usize,
}
impl Scope for ListScope<'_, '_> {
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
    fn get(&self, n: &str) -> Option<Value> {
        if n == "NP" {
            return Some(Value::Num(self.np as f64));
        }
        self.it.lookup(n)
    }
}

/// The iteration's formulas when they cannot be compiled.
struct SlotScope<'a, 'h> {
    it: &'a Interp<'h>,
    names: &'a [&'a str],
    vals: &'a [f64],
    player: Option<usize>,
}
impl Scope for SlotScope<'_, '_> {
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
    fn get(&self, n: &str) -> Option<Value> {
        if let Some(i) = self.names.iter().position(|x| *x == n) {
            return Some(Value::Num(self.vals[i]));
        }
        if let Some(p) = self.player {
            if let Some(v) = self.it.players[p].vars.get(n) {
                return Some(Value::Num(*v));
            }
            match n {
                "NAME" => return Some(Value::Str(self.it.players[p].name.clone())),
                "ID" => return Some(Value::Str(self.it.players[p].id.clone())),
                _ => {}
            }
        }
        self.it.lookup(n)
    }
}

// ---------------------------------------------------------------------------
// helpers

/// Replaces `$1` … `$20` and `$N` (not followed by a name character) by
/// the job's parameters; missing parameters become `NONE`.
fn substitute(t: &str, args: &[String]) -> String {
    if !t.contains('$') {
        return t.to_string();
    }
    let b = t.as_bytes();
    let mut out = String::with_capacity(t.len());
    let mut i = 0;
    let name_char = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.';
    while i < b.len() {
        if b[i] == b'$' && (i == 0 || !name_char(b[i - 1])) {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 && (j >= b.len() || !name_char(b[j])) {
                let k: usize = t[i + 1..j].parse().unwrap_or(0);
                if (1..=20).contains(&k) {
                    out.push_str(args.get(k - 1).map(String::as_str).unwrap_or("NONE"));
                    i = j;
                    continue;
                }
            }
            if j == i + 1
                && (b.get(i + 1) == Some(&b'N') || b.get(i + 1) == Some(&b'n'))
                && (i + 2 >= b.len() || !name_char(b[i + 2]))
            {
                out.push_str(&args.len().to_string());
                i += 2;
                continue;
            }
        }
        let c = t[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// A text line (Analyse copies it to the output): its first word is not
/// all capitals, so not a command misspelt (`Dies ist eine Textzeile`,
/// `Rangliste 2024:`, `---`).
fn is_text_line(t: &str) -> bool {
    let first = t.split(' ').next().unwrap_or("");
    let capitals = first.chars().any(|c| c.is_alphabetic()) && !first.chars().any(|c| c.is_lowercase());
    !first.is_empty() && !capitals
}

fn first_word(t: &str) -> (String, usize) {
    let end = t.find(' ').unwrap_or(t.len());
    (t[..end].to_ascii_uppercase(), end)
}

fn words(t: &str) -> Vec<(usize, &str)> {
    t.split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| (w.as_ptr() as usize - t.as_ptr() as usize, w))
        .collect()
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    if s.len() >= 2 && ((s.starts_with('\'') && s.ends_with('\'')) || (s.starts_with('"') && s.ends_with('"'))) {
        s[1..s.len() - 1].to_string()
    } else {
        s.to_string()
    }
}

/// Index of the first `ch` at nesting depth 0 outside quotes, from `from`.
fn find_top(t: &str, from: usize, ch: u8) -> usize {
    let b = t.as_bytes();
    let mut depth = 0i32;
    let mut q: Option<u8> = None;
    let mut i = from;
    while i < b.len() {
        let c = b[i];
        if let Some(qq) = q {
            if c == qq {
                q = None;
            }
        } else if c == b'\'' || c == b'"' {
            q = Some(c);
        } else if c == ch && depth == 0 {
            return i;
        } else if c == b'(' || c == b'[' {
            depth += 1;
        } else if c == b')' || c == b']' {
            depth -= 1;
        }
        i += 1;
    }
    b.len()
}

fn split_args(t: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut cur = String::new();
    let mut q: Option<char> = None;
    for c in t.chars() {
        match (q, c) {
            (Some(x), c) if c == x => q = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => q = Some(c),
            (None, ' ') => {
                if !cur.is_empty() {
                    v.push(std::mem::take(&mut cur));
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        v.push(cur);
    }
    v
}

/// `OPT$*` naming: upper-case letters doubled.
fn opt_symbol(c: char) -> String {
    if c.is_ascii_uppercase() {
        format!("{c}{c}")
    } else {
        c.to_ascii_uppercase().to_string()
    }
}

fn relative(base: &str, name: &str) -> String {
    if name.starts_with('/') {
        return name.to_string();
    }
    match base.rfind('/') {
        Some(k) => format!("{}/{name}", &base[..k]),
        None => name.to_string(),
    }
}

/// Replaces runs of two or more spaces that reach a tab stop by tabs.
fn tabify(text: &str, tab: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for (li, line) in text.split('\n').enumerate() {
        if li > 0 {
            out.push('\n');
        }
        let mut col = 0;
        let mut spaces = 0;
        for c in line.chars() {
            if c == ' ' {
                spaces += 1;
                col += 1;
                if col % tab == 0 {
                    if spaces >= 2 {
                        out.push('\t');
                    } else {
                        out.push_str(&" ".repeat(spaces));
                    }
                    spaces = 0;
                }
                continue;
            }
            out.push_str(&" ".repeat(spaces));
            spaces = 0;
            out.push(c);
            col += 1;
        }
        out.push_str(&" ".repeat(spaces));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("*.txt", "a.txt"));
        assert!(glob_match("r??nd*", "round1.res"));
        assert!(!glob_match("*.txt", "a.csv"));
    }

    #[test]
    fn tabs() {
        assert_eq!(tabify("ab      c", 4), "ab\t\tc");
        assert_eq!(tabify("a b", 4), "a b");
    }

    #[test]
    fn stats_of_points() {
        let s = stats(&[4.0, 3.0, 2.0, 1.0]);
        assert_eq!(s.mean, 2.5);
        assert_eq!(s.median, 2.5);
        // binomial weights 1,3,3,1
        assert_eq!(s.binomial, (4.0 + 9.0 + 6.0 + 1.0) / 8.0);
        // middle weights 1,2,2,1
        assert_eq!(s.middle, (4.0 + 6.0 + 4.0 + 1.0) / 6.0);
        assert_eq!(
            ranks(&[5.0, 3.0, 3.0, 3.0, 1.0]),
            vec![(1, 1), (2, 3), (2, 3), (2, 3), (5, 1)]
        );
    }
}
