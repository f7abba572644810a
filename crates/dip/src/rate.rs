//! `dip rate CONTROLFILE [FILES…] [options]` (Analyse's control language),
//! `dip score SYSTEM POWER=CENTRES…` (scoring systems) and
//! `dip ratings MODEL FILES…` (Elo, Ghost Rating, TrueSkill, Weng-Lin).

use anyhow::Result;
use dip_rating::analyse::{Host, Interp};
use dip_rating::modern::{elo, ghost, ranks_from_points, trueskill, wenglin};
use dip_rating::results::{read_any, Date, RawGame};
use dip_rating::scoring::{GameEnd, PowerEnd, System};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::staged::Staged;

/// Run an Analyse control file over result tables.
#[derive(clap::Args)]
#[command(trailing_var_arg = true)]
pub struct Args {
    /// Allow the control file's SYSTEM commands to run programs.
    #[arg(long)]
    allow_system: bool,
    /// The control file.
    control: PathBuf,
    /// Result tables and Analyse options (`-l5`, `-x`, `+x`, `/x`), as on
    /// Analyse's command line; the control file reads them with COMMANDLINE.
    #[arg(allow_hyphen_values = true)]
    args: Vec<String>,
}

/// Files on disk; names are tried as given, then next to the control file.
struct FsHost {
    base: PathBuf,
    stdout: std::io::Stdout,
    /// Every file read so far (the control file, includes, data), which
    /// OUTPUT and ERRORLOG may not name.
    read: Vec<PathBuf>,
    /// What OUTPUT, ERRORLOG and PRINTFILE wrote, held until the run ends:
    /// a data file named after the OUTPUT that names it is still whole
    /// when it is read, and is refused then rather than truncated.
    staged: Staged,
}

impl FsHost {
    fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() || p.exists() {
            return p.to_path_buf();
        }
        let q = self.base.join(p);
        if q.exists() {
            q
        } else {
            p.to_path_buf()
        }
    }
    /// A file mask (`*`, `?`) as file names; a name without wildcards as it is.
    fn expand_mask(&self, mask: &str) -> Vec<String> {
        if !mask.contains(['*', '?']) {
            return vec![mask.to_string()];
        }
        let p = Path::new(mask);
        let dir = p.parent().unwrap_or(Path::new("")).to_path_buf();
        let file = p
            .file_name()
            .map(|f| f.to_string_lossy().to_string())
            .unwrap_or_default();
        let mut v = glob_dir(&dir, &file);
        if v.is_empty() && !p.is_absolute() {
            v = glob_dir(&self.base.join(&dir), &file);
        }
        v
    }
}

fn glob_dir(dir: &Path, mask: &str) -> Vec<String> {
    let mut v = Vec::new();
    if let Ok(rd) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if dip_rating::analyse::glob_match(mask, &name) {
                v.push(dir.join(&name).to_string_lossy().to_string());
            }
        }
    }
    v.sort();
    v
}

impl Host for FsHost {
    fn read(&mut self, path: &str) -> Result<String, String> {
        let p = self.resolve(path);
        if let Some(text) = self.staged.contents(&p) {
            // written by this run: its own output, not a file to protect
            return Ok(text);
        }
        let text = dip_game::files::read_text(&p)?;
        if let Ok(c) = std::fs::canonicalize(&p) {
            self.read.push(c);
        }
        Ok(text)
    }
    fn expand(&mut self, mask: &str) -> Vec<String> {
        let v = self.expand_mask(mask);
        // Data files are protected from OUTPUT and ERRORLOG from the
        // moment they are named, before they are read.
        for f in &v {
            if let Ok(c) = std::fs::canonicalize(self.resolve(f)) {
                self.read.push(c);
            }
        }
        v
    }
    fn write(&mut self, path: &str, append: bool, text: &str) -> Result<(), String> {
        if path.is_empty() {
            return self.stdout.write_all(text.as_bytes()).map_err(|e| e.to_string());
        }
        if let Ok(c) = std::fs::canonicalize(path) {
            if self.read.contains(&c) {
                return Err(format!(
                    "{path} is a file this run reads (the control file or its data); write to another file"
                ));
            }
        }
        if Path::new(path).is_dir() {
            return Err(format!("{path} is a directory; expected a file name"));
        }
        self.staged.write(Path::new(path), append, text);
        Ok(())
    }
    fn stderr(&mut self, text: &str) {
        eprint!("{text}");
    }
    fn today(&self) -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Date::from_days((secs / 86400) as i64)
    }
    fn now(&self) -> String {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let d = Date::from_days((secs / 86400) as i64);
        let s = secs % 86400;
        format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC",
            d.y,
            d.m,
            d.d,
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    }
    fn system(&mut self, cmd: &str) -> Result<i32, String> {
        // the command may read what was written so far
        self.staged.commit(&self.read)?;
        let st = std::process::Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .status()
            .map_err(|e| e.to_string())?;
        Ok(st.code().unwrap_or(-1))
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut allow = args.allow_system;
    let rest: Vec<String> = args
        .args
        .into_iter()
        .filter(|a| {
            if a == "--allow-system" {
                allow = true;
                false
            } else {
                true
            }
        })
        .collect();
    let control = args.control.to_string_lossy().to_string();
    let base = args.control.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut host = FsHost {
        base,
        stdout: std::io::stdout(),
        read: std::fs::canonicalize(&args.control).into_iter().collect(),
        staged: Staged::default(),
    };
    // The data files named on the command line are protected from the start.
    for a in &rest {
        let v = host.expand_mask(a);
        for f in v {
            if let Ok(c) = std::fs::canonicalize(host.resolve(&f)) {
                host.read.push(c);
            }
        }
    }
    let text = match dip_game::files::read_text(&args.control) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut it = Interp::new(&mut host, rest, allow);
    let result = it.run(&control, &text);
    // Outputs are written only now, when every file the run reads is known.
    let written = host.staged.commit(&host.read);
    let mut code = ExitCode::SUCCESS;
    if let Err(e) = result {
        eprintln!("dip: {e}");
        code = ExitCode::from(2);
    }
    if let Err(e) = written {
        eprintln!("dip: {e}");
        code = ExitCode::from(2);
    }
    Ok(code)
}

/// Score one finished game with a scoring system.
#[derive(clap::Args)]
pub struct ScoreArgs {
    /// draw-size, sum-of-squares, carnage, c-diplo-100, c-diplo-80,
    /// c-diplo-73, c-diplo-argir, tribute, opentribute, manorcon,
    /// world-classic, solo.
    system: String,
    /// One per power: NAME=CENTRES, with `@YEAR` when eliminated and `*`
    /// when in the draw (no `*` at all: the draw includes all survivors).
    #[arg(required = true)]
    powers: Vec<String>,
    /// The last game year.
    #[arg(long, default_value_t = 1910, value_parser = dip_core::parse_year)]
    year: i32,
}

pub fn score(args: ScoreArgs) -> Result<ExitCode> {
    let Some(system) = System::by_name(&args.system) else {
        let names: Vec<&str> = System::ALL.iter().map(|s| s.0).collect();
        eprintln!(
            "dip: unknown scoring system `{}`; expected one of {}",
            args.system,
            names.join(", ")
        );
        return Ok(ExitCode::from(2));
    };
    let mut powers = Vec::new();
    for p in &args.powers {
        let Some((name, rest)) = p.split_once('=') else {
            eprintln!("dip: `{p}`: expected NAME=CENTRES[@YEAR][*]");
            return Ok(ExitCode::from(2));
        };
        let in_draw = rest.ends_with('*');
        let rest = rest.trim_end_matches('*');
        let (c, e) = match rest.split_once('@') {
            Some((c, y)) => (c, Some(y)),
            None => (rest, None),
        };
        let (Ok(centres), Ok(eliminated)) = (c.parse::<u32>(), e.map(dip_core::parse_year).transpose()) else {
            eprintln!(
                "dip: `{p}`: expected NAME=CENTRES[@YEAR][*] (YEAR from -{} to {})",
                dip_core::MAX_YEAR,
                dip_core::MAX_YEAR
            );
            return Ok(ExitCode::from(2));
        };
        powers.push(PowerEnd {
            name: name.to_string(),
            centres,
            eliminated,
            in_draw,
        });
    }
    let solo = powers.iter().position(|p| p.centres >= 18);
    let g = GameEnd {
        powers,
        solo,
        start_year: 1901,
        end_year: args.year,
        total_centres: 34,
    };
    for (p, s) in g.powers.iter().zip(system.score(&g)) {
        println!("{:<16} {:>3} {:>10}", p.name, p.centres, fmt(s));
    }
    Ok(ExitCode::SUCCESS)
}

fn fmt(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Rate players game by game with a modern rating system.
#[derive(clap::Args)]
pub struct RatingsArgs {
    /// elo, ghost, trueskill or weng-lin.
    model: String,
    /// Result tables (text or CSV); games are rated in date order, ranks
    /// from the first point column (P.1).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Explain this player's change in the last game they played.
    #[arg(long)]
    explain: Option<String>,
}

pub fn ratings(args: RatingsArgs) -> Result<ExitCode> {
    let games = match read_results(&args.files) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let played = Played::new(games);
    let Some(explain) = played.explain(args.explain.as_deref()) else {
        eprintln!("dip: no player `{}` in the results", args.explain.unwrap_or_default());
        return Ok(ExitCode::from(2));
    };
    let mut lines: Vec<String> = Vec::new();
    let mut table: Vec<Row> = match args.model.as_str() {
        "elo" => elo_table(&played, &explain, &mut lines),
        "ghost" => ghost_table(&played, &explain, &mut lines),
        "trueskill" => trueskill_table(&played, &explain, &mut lines),
        "weng-lin" | "wenglin" | "openskill" => weng_lin_table(&played, &explain, &mut lines),
        other => {
            eprintln!("dip: unknown rating model `{other}`; expected elo, ghost, trueskill or weng-lin");
            return Ok(ExitCode::from(2));
        }
    };
    table.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    for (i, (n, _, shown)) in table.iter().enumerate() {
        println!("{:4}. {:<20} {}", i + 1, n, shown);
    }
    if !lines.is_empty() {
        println!();
        for l in lines {
            println!("{l}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The games of every result table, oldest first.
fn read_results(files: &[PathBuf]) -> Result<Vec<RawGame>, String> {
    let mut games: Vec<RawGame> = Vec::new();
    for f in files {
        let name = f.to_string_lossy().to_string();
        let text = dip_game::files::read_text(f).map_err(|e| e.to_string())?;
        games.extend(read_any(&name, &text).map_err(|e| e.to_string())?);
    }
    games.sort_by_key(|g| g.date);
    Ok(games)
}

/// A player's name, rating (the table's order) and the rating as shown.
type Row = (String, f64, String);

/// The games rated and who played them.
struct Played {
    games: Vec<RawGame>,
    /// Each game's players, as indices into `names`.
    seats: Vec<Vec<usize>>,
    /// The players, by their first name met (ids compared in upper case).
    names: Vec<String>,
    ids: HashMap<String, usize>,
}

impl Played {
    fn new(games: Vec<RawGame>) -> Played {
        let mut ids: HashMap<String, usize> = HashMap::new();
        let mut names: Vec<String> = Vec::new();
        let seats: Vec<Vec<usize>> = games
            .iter()
            .map(|g| {
                g.players
                    .iter()
                    .map(|p| {
                        *ids.entry(p.id.to_uppercase()).or_insert_with(|| {
                            names.push(p.name.clone());
                            names.len() - 1
                        })
                    })
                    .collect()
            })
            .collect();
        Played {
            games,
            seats,
            names,
            ids,
        }
    }

    /// The change to explain: `--explain`'s player (by id or name) in
    /// their last game; `None` when no player has that id or name.
    fn explain(&self, player: Option<&str>) -> Option<Explain> {
        let Some(player) = player.map(str::to_uppercase) else {
            return Some(Explain { who: None, last: None });
        };
        let who = self
            .ids
            .get(&player)
            .copied()
            .or_else(|| self.names.iter().position(|n| n.to_uppercase() == player))?;
        let last = self.seats.iter().rposition(|g| g.contains(&who));
        Some(Explain { who: Some(who), last })
    }

    /// Each game with its players' indices, oldest first.
    fn games(&self) -> impl Iterator<Item = (usize, (&RawGame, &Vec<usize>))> {
        self.games.iter().zip(&self.seats).enumerate()
    }

    /// The rows of a table of final ratings.
    fn rows<R>(&self, ratings: Vec<R>, row: impl Fn(R) -> (f64, String)) -> Vec<Row> {
        self.names
            .iter()
            .cloned()
            .zip(ratings)
            .map(|(n, v)| {
                let (value, shown) = row(v);
                (n, value, shown)
            })
            .collect()
    }
}

/// The player whose change is explained and their last game.
struct Explain {
    who: Option<usize>,
    last: Option<usize>,
}

impl Explain {
    /// The explained player's seat in game `k` (of players `seats`), when
    /// it is the game explained.
    fn seat(&self, k: usize, seats: &[usize]) -> Option<usize> {
        (Some(k) == self.last).then(|| seats.iter().position(|&i| Some(i) == self.who).unwrap_or(0))
    }
}

/// The ranks of a game from its first point column.
fn ranks(g: &RawGame) -> Vec<u32> {
    ranks_from_points(&g.players.iter().map(|p| p.points[0]).collect::<Vec<_>>())
}

/// μ − 3σ orders the table; μ and σ are shown beside it.
fn mu_sigma_row(mu: f64, sigma: f64) -> (f64, String) {
    (
        mu - 3.0 * sigma,
        format!("{:7.3} ± {:.3}   μ−3σ {:7.3}", mu, sigma, mu - 3.0 * sigma),
    )
}

fn elo_table(played: &Played, explain: &Explain, lines: &mut Vec<String>) -> Vec<Row> {
    let names = &played.names;
    let e = elo::Elo::default();
    let mut r = vec![1500.0; names.len()];
    for (k, (g, ix)) in played.games() {
        let ranks = ranks(g);
        let cur: Vec<f64> = ix.iter().map(|&i| r[i]).collect();
        if let Some(pos) = explain.seat(k, ix) {
            lines.push(format!("{} in {}: {:.1}", names[ix[pos]], g.text, cur[pos]));
            for t in e.explain(&cur, &ranks, pos) {
                lines.push(format!(
                    "  vs {:<16} result {:.1}, expected {:.3}, change {:+.2}",
                    names[ix[t.opponent]], t.actual, t.expected, t.change
                ));
            }
        }
        for (j, v) in e.rate(&cur, &ranks).into_iter().enumerate() {
            r[ix[j]] = v;
        }
    }
    played.rows(r, |v| (v, format!("{v:.1}")))
}

/// Ghost Rating: the supply centres of the first point column, a solo at
/// 18, the draw shared by the sum of squares.
fn ghost_table(played: &Played, explain: &Explain, lines: &mut Vec<String>) -> Vec<Row> {
    let names = &played.names;
    let gh = ghost::Ghost::default();
    let mut r = vec![100.0; names.len()];
    for (k, (g, ix)) in played.games() {
        let centres: Vec<u32> = g.players.iter().map(|p| p.points[0].max(0.0) as u32).collect();
        let solo = centres.iter().position(|&c| c >= 18);
        let gg = ghost::GhostGame {
            in_draw: centres.iter().map(|&c| c > 0).collect(),
            centres,
            solo,
            share: ghost::Share::SumOfSquares,
        };
        let cur: Vec<f64> = ix.iter().map(|&i| r[i]).collect();
        if let Some(pos) = explain.seat(k, ix) {
            let x = gh.explain(&cur, &gg, pos);
            lines.push(format!(
                "{} in {}: {:.2} + {:.2} × ({:.4} actual − {:.4} expected) = {:+.2}",
                names[ix[pos]], g.text, cur[pos], x.x, x.actual, x.expected, x.change
            ));
        }
        for (j, v) in gh.rate(&cur, &gg).into_iter().enumerate() {
            r[ix[j]] = v;
        }
    }
    played.rows(r, |v| (v, format!("{v:.2}")))
}

/// TrueSkill; a game it cannot rate is left out with a warning.
fn trueskill_table(played: &Played, explain: &Explain, lines: &mut Vec<String>) -> Vec<Row> {
    let names = &played.names;
    let env = trueskill::TrueSkill::default();
    let mut r = vec![env.rating(); names.len()];
    for (k, (g, ix)) in played.games() {
        let ranks = ranks(g);
        let cur: Vec<trueskill::Rating> = ix.iter().map(|&i| r[i]).collect();
        if let Some(pos) = explain.seat(k, ix) {
            if let Ok(x) = env.explain(&cur, &ranks, pos) {
                lines.push(format!(
                    "{} in {} (rank {}): prior N({:.3}, {:.3}²) widened by τ to σ {:.3}; the game says N({:.3}, {:.3}²); posterior N({:.3}, {:.3}²) after {} sweeps",
                    names[ix[pos]], g.text, ranks[pos], x.before.mu, x.before.sigma, x.sigma_dynamic, x.message.mu, x.message.sigma, x.after.mu, x.after.sigma, x.sweeps
                ));
            }
        }
        match env.rate(&cur, &ranks) {
            Ok(v) => {
                for (j, x) in v.into_iter().enumerate() {
                    r[ix[j]] = x;
                }
            }
            Err(e) => eprintln!("dip: {}:{}: {e}; game left out", g.file, g.line),
        }
    }
    played.rows(r, |v| mu_sigma_row(v.mu, v.sigma))
}

/// Weng-Lin's Plackett-Luce model (OpenSkill's default).
fn weng_lin_table(played: &Played, explain: &Explain, lines: &mut Vec<String>) -> Vec<Row> {
    let names = &played.names;
    let m = wenglin::PlackettLuce::default();
    let mut r = vec![m.rating(); names.len()];
    for (k, (g, ix)) in played.games() {
        let ranks = ranks(g);
        let cur: Vec<wenglin::Rating> = ix.iter().map(|&i| r[i]).collect();
        if let Some(pos) = explain.seat(k, ix) {
            let x = m.explain(&cur, &ranks, pos);
            lines.push(format!(
                "{} in {} (rank {}): μ {:.3} → {:.3} (Ω {:+.4}), σ {:.3} → {:.3} (Δ {:.5}), c = {:.3}",
                names[ix[pos]],
                g.text,
                ranks[pos],
                x.before.mu,
                x.after.mu,
                x.omega,
                x.sigma_dynamic,
                x.after.sigma,
                x.delta,
                x.c
            ));
            for (group, share, t) in &x.terms {
                let who: Vec<&str> = group.iter().map(|&q| names[ix[q]].as_str()).collect();
                lines.push(format!(
                    "  rank {} ({}): share {:.4}, term {:+.4}",
                    ranks[group[0]],
                    who.join(", "),
                    share,
                    t
                ));
            }
        }
        for (j, x) in m.rate(&cur, &ranks).into_iter().enumerate() {
            r[ix[j]] = x;
        }
    }
    played.rows(r, |v| mu_sigma_row(v.mu, v.sigma))
}
