//! The interpreter: preprocessor directives, commands, objects, data, output.

mod calculate;
mod commands;
mod define;
mod directives;
mod evaluation;
mod games;
mod host;
mod jobs;
mod print;
mod scopes;
mod symbols;
mod text;
mod transform;

use calculate::{binom, ranks, stats, Stats};
pub use host::{glob_match, Host, MemHost};
use scopes::{GameScope, IfScope, ListScope, PlayerScope, ReadScope, SlotScope, SymScope};
use symbols::Scope3;
use text::{find_top, first_word, is_text_line, opt_symbol, relative, split_args, substitute, tabify, unquote, words};

use super::engine::{self, CalcInput, CalcOutput, IterParams, GL_SLOTS, PL_SLOTS};
use super::prep::{join, strip, CommentChars, LLine, SrcLine};
use crate::error::Error;
use crate::expr::{self, eval, Expr, ExprError, NumProg, Resolved, Rounding, Scope, Value};
use crate::results::{first_sign, parse_csv, parse_table, DataPre, Date, Mode, RawGame};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

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
