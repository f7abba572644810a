//! The game master's commands: `dip run`, `dip accept`, `dip new`,
//! `dip orderview`.

use anyhow::Result;
use dip_game::gamedir::{self, Stages};
use dip_play::Variants;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The game directory (GAME.TXT, ORDERS.TXT), or its GAME.TXT.
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
    /// DIP_RUN's `/orderview`: show the game's latest stage file as a
    /// table instead of evaluating (as `dip orderview GAME`).
    #[arg(long)]
    orderview: bool,
    /// DIP_RUN's `/fieldtest`: type province names (one a line) and see
    /// everything the variant knows of each, instead of evaluating.
    #[arg(long)]
    fieldtest: bool,
    /// DIP_RUN's `/mono` (menus on odd DOS screens): accepted, nothing to do.
    #[arg(long, hide = true)]
    mono: bool,
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
                "/all" | "/debug1" | "/debug2" | "/orderview" | "/fieldtest" | "/mono" => {
                    format!("--{}", &lower[1..])
                }
                "/?" | "/??" => "--help".into(),
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

pub fn run(a: RunArgs, variants: &Variants) -> Result<ExitCode> {
    let stages = stages_of(&a);
    // `dip run spiel/GAME.TXT` is the game in `spiel`.
    let game = dip_game::source::game_dir_of(&a.game);
    if a.orderview {
        return orderview(OrderviewArgs { file: game });
    }
    if a.fieldtest {
        return fieldtest(&game, a.project.as_deref(), variants);
    }
    match gamedir::run(&game, &stages, a.project.as_deref(), variants) {
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
                pause();
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

/// DIP_RUN's field tester: province names from standard input, one a
/// line, read as the game's orders read them (synonyms, DipWork's coast
/// names such as `PeS`), each answered with everything the game's variant
/// knows of it (`dip variant show`); `exit` (the manual's way out), an
/// empty line or the end of input stops.
fn fieldtest(game: &std::path::Path, project: Option<&std::path::Path>, variants: &Variants) -> Result<ExitCode> {
    let g = match gamedir::GameDir::open(game, project, variants) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let vocab = match g.vocabulary() {
        Ok(v) => v.with_exact_match(false),
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    println!("field test of {} (a province a line; `exit` ends)", g.variant.title);
    while let Some(name) = ask("province: ") {
        if name.is_empty() || name.eq_ignore_ascii_case("exit") {
            break;
        }
        print!("{}", dip_game::gamedir::field_test(&g.variant, &vocab, &name));
    }
    Ok(ExitCode::SUCCESS)
}

/// DipWork's SLOWMOTION on a terminal: a pause of so many milliseconds
/// after each screen line, or (-1) a key press (one key, no Enter); 0 no
/// pause at all (dip has no key presses between the stages to leave out);
/// nothing when the output goes to a file or a pipe.
fn slow_motion(ms: i64) -> Box<dyn Fn()> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || ms == 0 {
        return Box::new(|| {});
    }
    if ms < 0 {
        return Box::new(|| {
            crate::keys::wait_key();
        });
    }
    let d = std::time::Duration::from_millis(ms.min(65_000) as u64);
    Box::new(move || std::thread::sleep(d))
}

#[derive(clap::Args)]
pub struct AcceptArgs {
    /// The game directory (or its GAME.TXT or NEWGAME.TXT): NEWGAME.TXT
    /// becomes GAME.TXT, the old one is kept.
    game: PathBuf,
}

pub fn accept(a: AcceptArgs, variants: &Variants) -> Result<ExitCode> {
    match gamedir::accept(&dip_game::source::game_dir_of(&a.game), variants) {
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

pub fn new(a: NewArgs, variants: &Variants) -> Result<ExitCode> {
    match gamedir::new_game(&a.game, &a.variant, &a.name, variants) {
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
    // Only a stage file is a table; GAME.TXT or ORDERS.TXT printed as one
    // would look like something it is not.
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if !first.trim_start().starts_with("# dip stage") {
        let game = match file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let hint = if game.join("GAME.TXT").is_file() {
            format!(
                "; for the game's latest stage file give its directory: `dip orderview {}`",
                game.display()
            )
        } else {
            String::new()
        };
        eprintln!(
            "dip: {}: not a stage file (expected SCANNED.TXT, PARSED.TXT, CONFLICTED.TXT or WINTERED.TXT, whose first line is `# dip stage: …`){hint}",
            file.display()
        );
        return Ok(ExitCode::from(2));
    }
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

/// Opens PROJECT.TXT in the project's EDITOR (else $VISUAL, $EDITOR, vi
/// or notepad) and waits for it.
fn edit_project(project: &std::path::Path) {
    use dip_game::params::ParamFile;
    let from_project = dip_game::files::read_text(project).ok().and_then(|t| {
        ParamFile::parse(&t, project.to_path_buf())
            .get("EDITOR")
            .map(|e| e.value.clone())
    });
    let editor = from_project
        .or_else(|| std::env::var("VISUAL").ok())
        .or_else(|| std::env::var("EDITOR").ok())
        .filter(|e| !e.trim().is_empty())
        .unwrap_or_else(|| if cfg!(windows) { "notepad".into() } else { "vi".into() });
    let quoted = format!("\"{}\"", project.display().to_string().replace('"', "\\\""));
    let cmd = format!("{editor} {quoted}");
    println!("> {cmd}");
    let status = if cfg!(windows) {
        std::process::Command::new("cmd").args(["/C", &cmd]).status()
    } else {
        std::process::Command::new("sh").args(["-c", &cmd]).status()
    };
    if !status.map(|s| s.success()).unwrap_or(false) {
        println!("(the editor failed)");
    }
}

/// `dip menu`: DipWork's workbench in the terminal: the project's games,
/// then each game's MENULIST (or dip's own menu).
pub fn menu(a: MenuArgs, variants: &Variants) -> Result<ExitCode> {
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
    let mut games = game_list(&list.value);
    let base = a.project.parent().map(PathBuf::from).unwrap_or_default();
    loop {
        println!("\nGames of {}:", a.project.display());
        for (i, g) in games.iter().enumerate() {
            println!("  {:>2}  {:<12} {}", i + 1, g.path, g.help);
        }
        println!("   p  edit {}", a.project.display());
        let Some(choice) = ask("game (number or name; p edit the project, q quit): ") else {
            return Ok(ExitCode::SUCCESS);
        };
        if choice == "q" {
            return Ok(ExitCode::SUCCESS);
        }
        if choice == "p" {
            // DipWork's PROJECT.TXT, edited with its EDITOR; then read again.
            edit_project(&a.project);
            match dip_game::files::read_text(&a.project) {
                Ok(t) => match ParamFile::parse(&t, a.project.clone()).get("GAMELIST") {
                    Some(l) => games = game_list(&l.value),
                    None => println!("dip: {}: no GAMELIST any more", a.project.display()),
                },
                Err(e) => println!("dip: {e}"),
            }
            continue;
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
        // DOS's `spiele\meine` in a GAMELIST is a path here too.
        let game_path = if cfg!(windows) {
            g.path.clone()
        } else {
            g.path.replace('\\', "/")
        };
        let dir = base.join(&game_path);
        let game = match gamedir::GameDir::open(&dir, Some(&a.project), variants) {
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
        let place = MenuPlace {
            project_dir: if base.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                base.clone()
            },
            game_path,
        };
        game_menu(&game, &place, &menu_text)?;
    }
}

/// Where a game's menu commands run, and its predefined macros: the
/// project folder (DipWork's working folder, `'CURRENTPATH'`) and the
/// game's path as the GAMELIST gives it, relative to it (`'GAMEPATH'`).
struct MenuPlace {
    project_dir: PathBuf,
    game_path: String,
}

fn game_menu(game: &gamedir::GameDir, place: &MenuPlace, menu_text: &str) -> Result<()> {
    use dip_game::macros::{defaults, dip_run, dos_shell, Macros};
    use dip_game::menu::{parse_menu, Action};
    let dir = &game.dir;
    let items = match parse_menu(menu_text) {
        Ok(i) => i,
        Err(e) => {
            println!("dip: MENULIST: {e}");
            return Ok(());
        }
    };
    let dip_exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "dip".into());
    let current = std::fs::canonicalize(&place.project_dir).unwrap_or_else(|_| place.project_dir.clone());
    let macros = Macros {
        predefined: vec![
            ("GAMEPATH", place.game_path.clone()),
            ("CURRENTPATH", current.display().to_string()),
            ("DIP", dip_exe.clone()),
        ],
        params: &game.params,
        defaults: defaults(&dip_exe),
    };
    loop {
        let name = game.params.text("NAME", &dir.display().to_string());
        println!("\n{name} ({})", game.variant.title);
        for it in &items {
            println!("  {}  {:<24} {}", it.key.unwrap_or(' '), it.label, it.help);
        }
        // One key acts at once on a terminal (no Enter), as in DipWork.
        let k = match crate::keys::ask_key("key (q or Esc back): ") {
            None => return Ok(()),
            Some(crate::keys::Input::Line(l)) if l.is_empty() => continue,
            Some(crate::keys::Input::Line(l)) => {
                println!("no such item: {l} (one key: the letter shown before the item)");
                continue;
            }
            Some(crate::keys::Input::Key(c)) => c,
        };
        let it = dip_game::menu::item_for_key(&items, k);
        if it.is_none() && (k == 'q' || k == '\u{1b}') {
            return Ok(());
        }
        let Some(it) = it else {
            // Hotkeys are case-sensitive: say so when the other case exists.
            let other = items
                .iter()
                .filter_map(|i| i.key)
                .find(|c| *c != k && c.to_lowercase().eq(k.to_lowercase()));
            match other {
                Some(o) => println!("no such item: {k} (hotkeys are case-sensitive; did you mean {o}?)"),
                None => println!("no such item: {k}"),
            }
            continue;
        };
        match &it.action {
            Action::Submenu(list) => match game.params.string(list) {
                Some(t) => game_menu(game, place, &t)?,
                None => println!("no menu `{list}`"),
            },
            Action::Command { line, wait } => {
                let cmd = match macros.expand(line) {
                    Ok(c) => dos_shell(&dip_run(&c, &dip_exe)),
                    Err(e) => {
                        println!("dip: {e}");
                        continue;
                    }
                };
                println!("> {cmd}");
                // In the project folder, where the GAMELIST's paths start.
                let status = if cfg!(windows) {
                    std::process::Command::new("cmd")
                        .args(["/C", &cmd])
                        .current_dir(&current)
                        .status()
                } else {
                    std::process::Command::new("sh")
                        .args(["-c", &cmd])
                        .current_dir(&current)
                        .status()
                };
                let failed = !status.map(|s| s.success()).unwrap_or(false);
                if failed {
                    println!("(the command failed)");
                }
                if *wait || failed {
                    crate::keys::ask_key("press a key");
                }
            }
        }
    }
}

#[derive(clap::Args)]
pub struct QuakeArgs {
    /// The game directory, or its GAME.TXT.
    game: PathBuf,
    /// The map edits (docs/variant-format.md, "Map edits").
    edits: PathBuf,
    /// A name for the change in the game's history.
    #[arg(long, default_value = "quake")]
    name: String,
}

/// `dip quake`: Seismic play, the map changes between turns.
pub fn quake(a: QuakeArgs, variants: &Variants) -> Result<ExitCode> {
    // `dip quake spiel/GAME.TXT` is the game in `spiel`.
    let game = dip_game::source::game_dir_of(&a.game);
    match gamedir::quake(&game, &a.edits, &a.name, variants) {
        Ok(findings) => {
            for f in &findings {
                println!("lint: {f}");
            }
            println!(
                "the map of {} is changed; GAME.TXT rewritten (the old one kept)",
                game.display()
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
