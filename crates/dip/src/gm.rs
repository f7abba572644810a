//! The game master's commands: `dip run`, `dip accept`, `dip new`,
//! `dip orderview`.

use anyhow::Result;
use dip_game::gamedir::{self, Stages};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The game directory (GAME.TXT, ORDERS.TXT).
    game: PathBuf,
    /// Scanner: read ORDERS.TXT (writes SCANNED.TXT).
    #[arg(long, short = 's', action = clap::ArgAction::Count)]
    scan: u8,
    /// Parser: check the orders (writes PARSED.TXT and ERRORS.TXT; reads
    /// SCANNED.TXT when the scanner is not run).
    #[arg(long, short = 'p', action = clap::ArgAction::Count)]
    parse: u8,
    /// Conflicter: adjudicate the phase (writes CONFLICTED.TXT; reads
    /// PARSED.TXT, as corrected by hand, when the parser is not run).
    #[arg(long, short = 'c', action = clap::ArgAction::Count)]
    conflict: u8,
    /// Winterer: retreats and adjustments, the new position (WINTERED.TXT, NEWGAME.TXT).
    #[arg(long, short = 'w', action = clap::ArgAction::Count)]
    winter: u8,
    /// Mapper: the turn's map with orders and results (MAP.svg; MAP.png with `MAPPNG ja`).
    #[arg(long, short = 'm', action = clap::ArgAction::Count)]
    map: u8,
    /// Output: PLAIN.TXT and REPORT.md/.html/.json from a stage file
    /// (CONFLICTED, WINTERED or any stage file's name; default WINTERED).
    #[arg(long, num_args = 0..=1, default_missing_value = "WINTERED", action = clap::ArgAction::Append)]
    output: Vec<String>,
    /// Every stage. As in DipWork, each stage option switches its stage
    /// over: `--all --map` runs every stage but the mapper.
    #[arg(long, action = clap::ArgAction::Count)]
    all: u8,
    /// Play the turn although the orders file is missing (every unit
    /// holds); without it a missing ORDERS.TXT stops the run.
    #[arg(long)]
    no_orders: bool,
    /// Every order with its result and reason on the screen.
    #[arg(long)]
    debug1: bool,
    /// As --debug1, and every file and parameter read.
    #[arg(long)]
    debug2: bool,
    /// The project file (default: PROJECT.TXT in the game's parent folder).
    #[arg(long)]
    project: Option<PathBuf>,
}

/// DIP_RUN's own options after `dip run` (`/all /m`, `/op=conflicted.ord`,
/// `/debug1`, `!project.txt`), as DipWork menus and macros write them,
/// become dip's; every other argument stays as it is.
pub fn dipwork_options(args: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let args: Vec<std::ffi::OsString> = args.collect();
    // After `run` and the game's path (global options may come first).
    let Some(run) = args.iter().position(|a| a == "run") else {
        return args;
    };
    args.into_iter()
        .enumerate()
        .map(|(i, a)| {
            let Some(t) = a.to_str().filter(|_| i > run + 1) else {
                return a;
            };
            let lower = t.to_ascii_lowercase();
            let new = match lower.as_str() {
                "/s" | "/p" | "/c" | "/w" | "/m" => format!("-{}", &lower[1..]),
                "/all" | "/debug1" | "/debug2" => format!("--{}", &lower[1..]),
                "/op" => "--output".into(),
                _ if lower.starts_with("/op=") => format!("--output={}", &t[4..]),
                _ if t.starts_with('!') && t.len() > 1 => format!("--project={}", &t[1..]),
                _ => return a,
            };
            new.into()
        })
        .collect()
}

/// The stages a run's options switch on: each option switches its stage
/// over, `--all` switches every stage over (DipWork's toggles).
fn stages_of(a: &RunArgs) -> Stages {
    let on = |n: u8| (n + a.all) % 2 == 1;
    let output_on = (a.output.len() as u32 + u32::from(a.all)) % 2 == 1;
    Stages {
        scan: on(a.scan),
        parse: on(a.parse),
        conflict: on(a.conflict),
        winter: on(a.winter),
        map: on(a.map),
        output: output_on.then(|| a.output.last().cloned().unwrap_or_else(|| "WINTERED".into())),
        no_orders: a.no_orders,
        debug: if a.debug2 { 2 } else { u8::from(a.debug1) },
    }
}

pub fn run(a: RunArgs) -> Result<ExitCode> {
    let stages = stages_of(&a);
    match gamedir::run(&a.game, &stages, a.project.as_deref()) {
        Ok(r) => {
            for w in &r.warnings {
                eprintln!("dip: {w}");
            }
            let pause = slow_motion(r.slowmotion);
            for m in &r.messages {
                println!("{m}");
                pause();
            }
            for f in &r.written {
                println!("wrote {}", f.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

/// DipWork's SLOWMOTION on a terminal: a pause of so many milliseconds
/// after each screen line, or (-1) a key press; nothing when the output
/// goes to a file or a pipe.
fn slow_motion(ms: i64) -> Box<dyn Fn()> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || ms == 0 {
        return Box::new(|| {});
    }
    if ms < 0 {
        return Box::new(|| {
            let mut line = String::new();
            let _ = std::io::stdin().read_line(&mut line);
        });
    }
    let d = std::time::Duration::from_millis(ms.min(65_000) as u64);
    Box::new(move || std::thread::sleep(d))
}

#[derive(clap::Args)]
pub struct AcceptArgs {
    /// The game directory: NEWGAME.TXT becomes GAME.TXT, the old one is kept.
    game: PathBuf,
}

pub fn accept(a: AcceptArgs) -> Result<ExitCode> {
    match gamedir::accept(&a.game) {
        Ok(backup) => {
            println!("accepted; the previous GAME.TXT is kept as {}", backup.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

#[derive(clap::Args)]
pub struct NewArgs {
    /// The new game's directory.
    game: PathBuf,
    /// A bundled variant or a variant file.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// The game's name.
    #[arg(long, default_value = "")]
    name: String,
}

pub fn new(a: NewArgs) -> Result<ExitCode> {
    match gamedir::new_game(&a.game, &a.variant, &a.name) {
        Ok(files) => {
            for f in files {
                println!("wrote {}", f.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

#[derive(clap::Args)]
pub struct OrderviewArgs {
    /// A stage file (SCANNED.TXT, PARSED.TXT, CONFLICTED.TXT, WINTERED.TXT),
    /// or a game directory: its latest stage file.
    file: PathBuf,
}

/// A game directory's latest stage file: the furthest stage that was run.
fn latest_stage(dir: &std::path::Path) -> Option<PathBuf> {
    ["WINTERED.TXT", "CONFLICTED.TXT", "PARSED.TXT", "SCANNED.TXT"]
        .iter()
        .map(|f| dir.join(f))
        .find(|p| p.is_file())
}

/// Prints a stage file as a table.
pub fn orderview(a: OrderviewArgs) -> Result<ExitCode> {
    let file = if a.file.is_dir() {
        match latest_stage(&a.file) {
            Some(f) => f,
            None => {
                eprintln!(
                    "dip: {}: no stage file (SCANNED.TXT … WINTERED.TXT): run `dip run {} --all` first",
                    a.file.display(),
                    a.file.display()
                );
                return Ok(ExitCode::from(2));
            }
        }
    } else {
        a.file.clone()
    };
    let text = match dip_game::files::read_text(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            println!("{line}");
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").collect();
        let widths = [14, 12, 24, 10, 8, 30];
        let mut row = String::new();
        for (i, f) in fields.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(20);
            row.push_str(&format!("{:<w$} ", f.trim()));
        }
        println!("{}", row.trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub struct MenuArgs {
    /// The project file with the GAMELIST.
    #[arg(long, default_value = "PROJECT.TXT")]
    project: PathBuf,
}

/// A line from the user; `None` at the end of input.
fn ask(prompt: &str) -> Option<String> {
    use std::io::Write;
    print!("{prompt}");
    let _ = std::io::stdout().flush();
    let mut line = String::new();
    match std::io::stdin().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_string()),
    }
}

/// `dip menu`: DipWork's workbench in the terminal: the project's games,
/// then each game's MENULIST (or dip's own menu).
pub fn menu(a: MenuArgs) -> Result<ExitCode> {
    use dip_game::menu::{game_list, DEFAULT_MENU};
    use dip_game::params::ParamFile;
    let text = match dip_game::files::read_text(&a.project) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let project = ParamFile::parse(&text, a.project.clone());
    let Some(list) = project.get("GAMELIST") else {
        eprintln!(
            "dip: {}: no GAMELIST (one game directory a line, `path % help`)",
            a.project.display()
        );
        return Ok(ExitCode::from(2));
    };
    let games = game_list(&list.value);
    let base = a.project.parent().map(PathBuf::from).unwrap_or_default();
    loop {
        println!("\nGames of {}:", a.project.display());
        for (i, g) in games.iter().enumerate() {
            println!("  {:>2}  {:<12} {}", i + 1, g.path, g.help);
        }
        let Some(choice) = ask("game (number or name, q to quit): ") else {
            return Ok(ExitCode::SUCCESS);
        };
        if choice == "q" {
            return Ok(ExitCode::SUCCESS);
        }
        let picked = choice
            .parse::<usize>()
            .ok()
            .and_then(|n| games.get(n.wrapping_sub(1)))
            .or_else(|| games.iter().find(|g| g.path.eq_ignore_ascii_case(&choice)));
        let Some(g) = picked else {
            println!("no such game: {choice}");
            continue;
        };
        let dir = base.join(&g.path);
        let game = match gamedir::GameDir::open(&dir, Some(&a.project)) {
            Ok(g) => g,
            Err(e) => {
                println!("dip: {e}");
                continue;
            }
        };
        let menu_text = game
            .params
            .string("MENULIST")
            .unwrap_or_else(|| DEFAULT_MENU.to_string());
        game_menu(&game, &dir, &menu_text)?;
    }
}

fn game_menu(game: &gamedir::GameDir, dir: &std::path::Path, menu_text: &str) -> Result<()> {
    use dip_game::menu::{expand, parse_menu, Action};
    let items = match parse_menu(menu_text) {
        Ok(i) => i,
        Err(e) => {
            println!("dip: MENULIST: {e}");
            return Ok(());
        }
    };
    let predefined = [
        ("GAMEPATH", dir.display().to_string()),
        (
            "CURRENTPATH",
            std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
        ),
        (
            "DIP",
            std::env::current_exe()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| "dip".into()),
        ),
    ];
    loop {
        let name = game.params.text("NAME", &dir.display().to_string());
        println!("\n{name} ({})", game.variant.title);
        for it in &items {
            println!("  {}  {:<24} {}", it.key.unwrap_or(' '), it.label, it.help);
        }
        let Some(k) = ask("key (q back): ") else {
            return Ok(());
        };
        if k == "q" {
            return Ok(());
        }
        let Some(it) = k
            .chars()
            .next()
            .filter(|_| k.chars().count() == 1)
            .and_then(|c| dip_game::menu::item_for_key(&items, c))
        else {
            println!("no such item: {k}");
            continue;
        };
        match &it.action {
            Action::Submenu(list) => match game.params.string(list) {
                Some(t) => game_menu(game, dir, &t)?,
                None => println!("no menu `{list}`"),
            },
            Action::Command { line, wait } => {
                let cmd = match expand(line, &game.params, &predefined) {
                    Ok(c) => c,
                    Err(e) => {
                        println!("dip: {e}");
                        continue;
                    }
                };
                println!("> {cmd}");
                let status = if cfg!(windows) {
                    std::process::Command::new("cmd").args(["/C", &cmd]).status()
                } else {
                    std::process::Command::new("sh").args(["-c", &cmd]).status()
                };
                let failed = !status.map(|s| s.success()).unwrap_or(false);
                if failed {
                    println!("(the command failed)");
                }
                if *wait || failed {
                    ask("press Enter");
                }
            }
        }
    }
}

#[derive(clap::Args)]
pub struct QuakeArgs {
    /// The game directory.
    game: PathBuf,
    /// The map edits (docs/variant-format.md, "Map edits").
    edits: PathBuf,
    /// A name for the change in the game's history.
    #[arg(long, default_value = "quake")]
    name: String,
}

/// `dip quake`: Seismic play, the map changes between turns.
pub fn quake(a: QuakeArgs) -> Result<ExitCode> {
    match gamedir::quake(&a.game, &a.edits, &a.name) {
        Ok(findings) => {
            for f in &findings {
                println!("lint: {f}");
            }
            println!(
                "the map of {} is changed; GAME.TXT rewritten (the old one kept)",
                a.game.display()
            );
            Ok(if findings.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(ExitCode::from(2))
        }
    }
}
