//! `dip war`: Global War, the world-conquest game (crate dip-war): show and
//! draw WARxx.DAT and WARxx.REC files, deal new games, benchmark the engine.

use anyhow::{anyhow, bail, Context, Result};
use dip_war::file::{self, DatFile, RecFile, Status};
use dip_war::game::{Event, Game, Options};
use dip_war::map::{self, View};
use dip_war::svg::{self, Board};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Show a WARxx.DAT or WARxx.REC file decoded.
    Show(ShowArgs),
    /// Draw the world map of a game file as SVG or PNG.
    Render(RenderArgs),
    /// Deal a new game and write its WARxx.DAT.
    New(NewArgs),
    /// Play a game file on with the random player for some turns, and write the new DAT.
    Play(PlayArgs),
    /// Play random 6-player games to the end and print games per second.
    Bench(BenchArgs),
    /// Import a WARxx.DAT or WARxx.REC into the storage of `dip serve` as a
    /// hosted game (each seat played by the account of its name).
    Import(ImportArgs),
}

#[derive(clap::Args)]
struct ImportArgs {
    /// WARxx.DAT or WARxx.REC: a game in progress or completed (a REC
    /// resumes its turn where it stopped), or a DAT in sign-up (its seats and
    /// votes; it starts at once if they say so). A name ending in .DAT or .REC
    /// says which; any other name is read as whichever it is.
    file: String,
    /// The data folder of `dip serve` (its SQLite database).
    #[arg(long, default_value = "dip-data", value_name = "DIR")]
    data: std::path::PathBuf,
    /// Or its PostgreSQL database: `postgres://user@host:port/db`.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// The account that creates the game.
    #[arg(long)]
    creator: String,
    /// The game's name (default: the file's name).
    #[arg(long)]
    name: Option<String>,
    /// A turn's time limit: 90s, 10m, 24h, 2d.
    #[arg(long)]
    time_limit: Option<String>,
    /// How long the game is kept after its end (default 7d).
    #[arg(long)]
    keep: Option<String>,
    /// The account of a seat whose name is not an account's: `3=bjorn`.
    #[arg(long, value_name = "SEAT=ACCOUNT")]
    seat: Vec<String>,
}

#[derive(clap::Args)]
struct PlayArgs {
    /// WARxx.DAT or WARxx.REC of a game in progress (a REC resumes its turn).
    file: String,
    /// Output WARxx.DAT; an existing file is not overwritten.
    #[arg(short, long, alias = "out")]
    output: String,
    /// Turns to play (each player's turn is one).
    #[arg(long, default_value_t = 1)]
    turns: u32,
    /// Seed of the dice and of the random player.
    #[arg(long, default_value_t = 1985)]
    seed: u64,
}

#[derive(clap::Args)]
struct ShowArgs {
    /// WARxx.DAT or WARxx.REC.
    file: String,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct RenderArgs {
    /// WARxx.DAT or WARxx.REC.
    file: String,
    /// Output: .svg or .png.
    #[arg(short, long, alias = "out")]
    output: String,
    /// Replace the output file if it exists (never the game file).
    #[arg(long)]
    force: bool,
    /// Globe, Africa, Asia, Australia, Europe, N. America or S. America
    /// (default: Globe; for a REC file the map that was shown).
    #[arg(long)]
    view: Option<String>,
    /// Size factor (above 0, at most 10).
    #[arg(long, default_value_t = 1.0, value_parser = scale)]
    scale: f32,
}

/// A size factor as `dip render` takes it: above 0 and at most 10.
fn scale(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(s) if s > 0.0 && s <= 10.0 => Ok(s),
        Ok(_) => Err(format!("the scale must be above 0 and at most 10 (got {text})")),
        Err(e) => Err(e.to_string()),
    }
}

#[derive(clap::Args)]
struct NewArgs {
    /// Output file (WARxx.DAT); an existing file is not overwritten.
    #[arg(short, long, alias = "out")]
    output: String,
    /// Player names, 3 to 6 (seats 1, 2, …; in a team game 1, 3, 5, 2, 4, 6:
    /// one in each team first). The file holds 17 characters of code page
    /// 437; a name is cut, and other characters written `?` (with a warning).
    #[arg(long, num_args = 1.., required = true)]
    players: Vec<String>,
    /// Seed of the deal.
    #[arg(long, default_value_t = 1985)]
    seed: u64,
    /// Team game: seats 1–2, 3–4 and 5–6.
    #[arg(long)]
    teams: bool,
    /// Hidden names.
    #[arg(long)]
    hidden_names: bool,
    /// Unlimited fortifications.
    #[arg(long)]
    unlimited_fortifications: bool,
    /// A team game's three passwords (teams 1, 2 and 3), written to the file.
    #[arg(long, num_args = 3, value_names = ["TEAM1", "TEAM2", "TEAM3"], requires = "teams")]
    passwords: Vec<String>,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Number of games (1 to 1000000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// Players per game (3–6).
    #[arg(long, default_value_t = 6)]
    players: usize,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1989)]
    seed: u64,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Show(a) => show(a),
        Command::Render(a) => render(a),
        Command::New(a) => new(a),
        Command::Play(a) => play(a),
        Command::Bench(a) => bench(a),
        Command::Import(a) => import(a),
    }
}

/// Reads a DAT or REC file; errors as FILE:LINE: message.
fn read(path: &str) -> Result<(DatFile, Option<RecFile>)> {
    let bytes = dip_game::files::read_bytes_capped(Path::new(path), dip_game::files::MAX_TEXT_BYTES)
        .map_err(anyhow::Error::msg)?;
    file::parse_named(&bytes, Path::new(path).file_name().and_then(|n| n.to_str()))
        .map_err(|e| anyhow!("{path}:{}: {}", e.line, e.message))
}

fn show(a: ShowArgs) -> Result<ExitCode> {
    let (dat, rec) = read(&a.file)?;
    let view = match &rec {
        Some(r) => r.view(),
        None => dat.view(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&view)?);
        return Ok(ExitCode::SUCCESS);
    }
    print_event(&dat, &view);
    print_players(&view);
    println!();
    println!("Countries as name armies:player (player 0: nobody); continents with their bonus armies:");
    for k in map::Continent::ALL {
        let list: Vec<String> = view
            .countries
            .iter()
            .filter(|c| map::continent(c.number) == Some(k))
            .map(|c| format!("{} {}:{}", c.name, c.armies, c.owner))
            .collect();
        println!("{} (+{}): {}", k.name(), k.bonus(), list.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

/// The kind, status and options of the game, its day and the sets turned in.
fn print_event(dat: &DatFile, view: &file::GameView) {
    let e = &view.event;
    let status = match e.status {
        Status::Signup => "in sign-up",
        Status::InProgress => "in progress",
        Status::Completed => "completed",
    };
    let mut opts = Vec::new();
    if let Some(r) = e.players {
        opts.push(if r.min == r.max {
            format!("{} players", r.min)
        } else {
            format!("{}–{} players", r.min, r.max)
        });
    }
    if e.hidden_names {
        opts.push("hidden names".into());
    }
    if e.unlimited_fortifications {
        opts.push("unlimited fortifications".into());
    }
    let kind = if dat.event.kind == file::Kind::Team {
        "Team game"
    } else {
        "Normal game"
    };
    println!(
        "{kind}, {status} (Game_Event {}){}",
        e.code,
        if opts.is_empty() {
            String::new()
        } else {
            format!(": {}", opts.join(", "))
        }
    );
    println!("Event day: {}", view.event_day);
    println!(
        "Sets turned in: {} (next set: {} armies)",
        view.sets_turned_in,
        dip_war::rules::set_value(view.sets_turned_in)
    );
}

/// The players' table, team passwords and a lost connection to recover.
fn print_players(view: &file::GameView) {
    println!();
    println!("  # name               vote  last moved           G K Q  countries armies");
    for p in &view.players {
        let held = view.countries.iter().filter(|c| c.owner == p.number).count();
        let armies: u32 = view
            .countries
            .iter()
            .filter(|c| c.owner == p.number)
            .map(|c| c.armies)
            .sum();
        let c = &p.commendations;
        println!(
            "  {} {:<18} {:<5} {:<20} {} {} {}  {:>9} {:>6}",
            p.number,
            p.name,
            if p.vote { "yes" } else { "no" },
            p.last_moved,
            c.general,
            c.king,
            c.queen,
            held,
            armies
        );
    }
    if let Some(pw) = &view.team_passwords {
        println!("Team passwords: {}", pw.join(", "));
    }
    if let Some(r) = &view.recovery {
        let doing = match r.doing {
            file::Doing::Deploying => format!("deploying, {} armies left", r.armies_to_deploy),
            file::Doing::Attacking if r.earned_commendation => "attacking, a commendation earned".into(),
            file::Doing::Attacking => "attacking".into(),
            file::Doing::Fortifying => "fortifying".into(),
        };
        println!(
            "Recovery: player {} lost the connection {doing}; map {}",
            r.player, r.map
        );
    }
}

fn render(a: RenderArgs) -> Result<ExitCode> {
    let (dat, rec) = read(&a.file)?;
    let view = match &a.view {
        Some(v) => View::parse(v).ok_or_else(|| {
            anyhow!("unknown view {v:?}: Globe, Africa, Asia, Australia, Europe, N. America or S. America")
        })?,
        None => rec.as_ref().map_or(View::Globe, |r| r.map),
    };
    let mut board = Board::from_dat(&dat);
    board.title = Path::new(&a.file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    let svg = svg::render(&board, view, a.scale);
    let out = &a.output;
    let bytes = if out.to_ascii_lowercase().ends_with(".png") {
        dip_render::raster::png(&svg)?
    } else if out.to_ascii_lowercase().ends_with(".svg") {
        svg.into_bytes()
    } else {
        bail!("{out}: the output must end in .svg or .png");
    };
    dip_game::files::check_targets(&[Path::new(out)], &[Path::new(&a.file)], a.force)
        .and_then(|()| dip_game::files::replace(Path::new(out), &bytes))
        .map_err(anyhow::Error::msg)?;
    Ok(ExitCode::SUCCESS)
}

fn new(a: NewArgs) -> Result<ExitCode> {
    // Counted here, not by clap: a seventh name was "unexpected argument".
    if !(3..=6).contains(&a.players.len()) {
        bail!("--players: Global War takes 3 to 6 players, not {}", a.players.len());
    }
    if Path::new(&a.output).exists() {
        bail!("{} exists: dip does not overwrite it", a.output);
    }
    // A team game needs a player in each team (seats 1–2, 3–4, 5–6).
    let order: [u8; 6] = if a.teams {
        [1, 3, 5, 2, 4, 6]
    } else {
        [1, 2, 3, 4, 5, 6]
    };
    for n in &a.players {
        warn_unwritable("player", n, Some(file::NAME_LENGTH));
    }
    for p in &a.passwords {
        warn_unwritable("team password", p, None);
    }
    let seats = a.players.iter().zip(order).map(|(n, s)| (s, n.clone())).collect();
    let options = Options {
        teams: a.teams,
        hidden_names: a.hidden_names,
        unlimited_fortifications: a.unlimited_fortifications,
    };
    if !a.passwords.is_empty() {
        dip_war::signup::check_passwords(&a.passwords).map_err(|(_, m)| anyhow!("--passwords: {m}"))?;
    }
    let mut game = Game::new(options, seats, a.seed)?;
    game.began_at(today());
    let file = dip_war::save(&game, today(), &a.passwords);
    std::fs::write(&a.output, file.to_bytes()).with_context(|| format!("cannot write {}", a.output))?;
    println!(
        "{}: {} players, player {} to move",
        a.output,
        a.players.len(),
        game.pos.current
    );
    Ok(ExitCode::SUCCESS)
}

fn play(a: PlayArgs) -> Result<ExitCode> {
    if Path::new(&a.output).exists() {
        bail!("{} exists: dip does not overwrite it", a.output);
    }
    let (dat, rec) = read(&a.file)?;
    let pos = match &rec {
        Some(r) => r.to_position(),
        None => dat.to_position(),
    }
    .map_err(|e| anyhow!("{}:{}: {}", a.file, e.line, e.message))?;
    let mut game = Game::from_position(pos, a.seed)?;
    // Event_Day and each Player_Moved as the file has them, until they change.
    game.days = dip_war::days::Days::of_file(&dat);
    let mut rng = dip_war::rng::Rng::with_seed(a.seed ^ 0x5EED);
    let last = game.pos.turn.saturating_add(a.turns);
    let (mut battles, mut conquests) = (0usize, 0usize);
    let mut attempts = 0usize;
    while !game.is_over() && game.pos.turn < last && attempts < 10_000_000 {
        attempts += 1;
        let Some(action) = dip_war::random::action(&game, &mut rng) else {
            break;
        };
        let Ok(events) = game.apply_at(action, today()) else {
            continue;
        };
        for e in events {
            match e {
                Event::Battle { .. } => battles += 1,
                Event::Conquered { .. } => conquests += 1,
                Event::Eliminated { player, by, .. } => {
                    println!("{} eliminated by {}", who(&game, player), who(&game, by))
                }
                Event::Won { players } => println!("won by {}", winners(&game, &players)),
                _ => {}
            }
        }
    }
    // Whole turns are played, so this is a DAT (a REC only if the random
    // player stopped mid-turn); the last-moved days say who moves next.
    let out = dip_war::save(&game, today(), &dat.team_passwords);
    std::fs::write(&a.output, out.to_bytes()).with_context(|| format!("cannot write {}", a.output))?;
    let next = if game.is_over() {
        "the game is over".to_string()
    } else {
        format!("player {} to move", game.pos.current)
    };
    println!(
        "{}: {} battles, {} countries conquered, {} dice; {next}{}",
        a.output,
        battles,
        conquests,
        game.log.len(),
        if out.extension() == "REC" {
            " (mid-turn: the file is a WARxx.REC)"
        } else {
            ""
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// A player as `dip war play` prints them: `Ann (player 2)`.
fn who(game: &Game, seat: u8) -> String {
    match game.pos.player(seat) {
        Some(p) => format!("{} (player {seat})", p.name),
        None => format!("player {seat}"),
    }
}

/// The winner, or a team's players: `Ann (player 1) and Bob (player 2)`.
fn winners(game: &Game, seats: &[u8]) -> String {
    let names: Vec<String> = seats.iter().map(|&s| who(game, s)).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// Warns (on stderr) when the file cannot hold a name or password as
/// given: longer than it keeps, or with characters outside code page 437,
/// which are written `?`.
fn warn_unwritable(what: &str, text: &str, most: Option<usize>) {
    let outside: String = text.chars().filter(|&c| !dip_war::cp437::encodable(c)).collect();
    let long = most.is_some_and(|m| text.trim().chars().count() > m);
    if outside.is_empty() && !long {
        return;
    }
    let kept: String = text.trim().chars().take(most.unwrap_or(usize::MAX)).collect();
    let written = dip_war::cp437::decode(&dip_war::cp437::encode(&kept));
    let mut why = Vec::new();
    if long {
        why.push(format!("at most {} characters", most.unwrap_or(0)));
    }
    if !outside.is_empty() {
        why.push(format!("{outside:?} not in code page 437"));
    }
    eprintln!("warning: {what} {text:?} is written {written:?} ({})", why.join("; "));
}

/// Now as a day number.
fn today() -> f64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    dip_war::daynum::from_unix(now)
}

fn bench(a: BenchArgs) -> Result<ExitCode> {
    if !(3..=6).contains(&a.players) {
        bail!("--players: 3 to 6");
    }
    let t0 = Instant::now();
    let r = dip_war::random::bench(a.games as usize, a.players, a.seed, || t0.elapsed().as_secs_f64())
        .map_err(|e| anyhow!(e))?;
    if a.json {
        println!("{}", serde_json::to_string(&r)?);
    } else {
        println!(
            "{} random {}-player games to the end in {:.3} s: {:.0} games/s; per game {:.0} actions, {:.0} turns, {:.0} dice",
            r.games, r.players, r.seconds, r.games_per_second, r.mean_actions, r.mean_turns, r.mean_dice
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn import(a: ImportArgs) -> Result<ExitCode> {
    let bytes = dip_game::files::read_bytes_capped(Path::new(&a.file), dip_game::files::MAX_TEXT_BYTES)
        .map_err(anyhow::Error::msg)?;
    let file_name = Path::new(&a.file).file_name().map(|n| n.to_string_lossy().into_owned());
    let mut opts = dip_server::war::files::ImportOptions {
        name: Some(
            a.name
                .unwrap_or_else(|| file_name.clone().unwrap_or_else(|| "Global War".into())),
        ),
        // The name says DAT or REC, so a bad file's errors are that kind's.
        file: file_name,
        time_limit: a.time_limit,
        keep: a.keep,
        ..Default::default()
    };
    for s in &a.seat {
        let (n, acc) = s
            .split_once('=')
            .ok_or_else(|| anyhow!("--seat {s}: write SEAT=ACCOUNT, e.g. 3=bjorn"))?;
        let slot = match n.trim() {
            "1" => &mut opts.seat1,
            "2" => &mut opts.seat2,
            "3" => &mut opts.seat3,
            "4" => &mut opts.seat4,
            "5" => &mut opts.seat5,
            "6" => &mut opts.seat6,
            _ => bail!("--seat {s}: the seat is 1 to 6"),
        };
        *slot = Some(acc.trim().to_string());
    }
    let config = dip_server::ServeConfig {
        data: a.data,
        database: a.database,
        ..Default::default()
    };
    let db = dip_server::open_db(&config)?;
    let id = dip_server::war::files::import_into(&db, &a.creator, &bytes, &opts)
        .map_err(|e| anyhow!("{}: {}", a.file, e.message))?;
    println!("{}: Global War game {id} (/war/{id}, /api/v1/war/games/{id})", a.file);
    Ok(ExitCode::SUCCESS)
}
