//! The `dip` command: thin glue over the library crates.

mod adjudicate;
mod bench;
mod board;
mod cases;
mod daide;
mod fixnames;
mod gm;
mod keys;
mod map_pictures;
mod orders;
mod rate;
mod record;
mod render;
mod replay;
mod serve;
mod staged;
mod variant;
mod war;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// dip: a game master's toolkit for Diplomacy and its variants.
#[derive(Parser)]
#[command(name = "dip", version, about, long_about = None)]
struct Cli {
    /// jDip variant plugins: a plugin zip, a plugin folder (holding
    /// variants.xml), or a folder searched for them; repeatable. Their
    /// variants are then found by name wherever a variant is asked for.
    #[arg(long = "variants", global = true, value_name = "PATH")]
    variants: Vec<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Adjudicate one phase: a position file and an orders file.
    Adjudicate(adjudicate::Args),
    /// Run adjudication test cases (dip's case format or the jDip/godip DATC format).
    Cases(cases::Args),
    /// Measure adjudication speed on random full games.
    Bench(bench::Args),
    /// Read orders as people write them: check a turn (DipWork's scanner and parser), or time it.
    Orders(orders::Args),
    /// Re-adjudicate MILA saved games (JSON lines) and compare phase by phase.
    Replay(replay::Args),
    /// Run DipWork's pipeline over a game directory (scan, parse, conflict, winter, output).
    Run(gm::RunArgs),
    /// Make NEWGAME.TXT the new GAME.TXT, keeping the old one as a backup.
    Accept(gm::AcceptArgs),
    /// Start a new game directory.
    New(gm::NewArgs),
    /// Print a stage file (SCANNED/PARSED/CONFLICTED/WINTERED.TXT) as a table.
    Orderview(gm::OrderviewArgs),
    /// DipWork's workbench: the project's games and each game's menu.
    Menu(gm::MenuArgs),
    /// Seismic play: change a game's map between turns with an edit file.
    Quake(gm::QuakeArgs),
    /// Whole-game records: import and export MILA saved games, list phases.
    Record(record::Args),
    /// Variants: list, check (lint), show a province, convert between formats.
    Variant(variant::Args),
    /// Draw a position (with an orders file: its orders and results) as SVG or PNG.
    Render(render::Args),
    /// Animate phases (a position and one orders file per phase) as animated PNG or HTML.
    Animate(render::AnimateArgs),
    /// Rate players with Analyse's control language: dip rate CONTROLFILE [FILES…] [options].
    Rate(rate::Args),
    /// Score one finished game: dip score SYSTEM NAME=CENTRES[@YEAR][*]…
    Score(rate::ScoreArgs),
    /// Rate players game by game: Elo, Ghost Rating, TrueSkill or Weng-Lin.
    Ratings(rate::RatingsArgs),
    /// DIP's program in the browser: one board, every power's orders, open and save files (docs/board.md).
    Board(board::Args),
    /// Host games: a JSON API with accounts, deadlines and storage (docs/api.md).
    Serve(serve::Args),
    /// Global War, the world-conquest game: show and draw WARxx.DAT/.REC files, deal, benchmark.
    War(war::Args),
    /// Run a game for DAIDE bots at once (docs/daide.md): they connect, play, and the record is written.
    Daide(daide::Args),
}

/// The command line, every value of which may be a negative number: `--scale
/// -1` is then refused as a bad value of `--scale`, not as an unknown argument.
fn command() -> clap::Command {
    fn negative_numbers(mut cmd: clap::Command) -> clap::Command {
        let ids: Vec<clap::Id> = cmd
            .get_arguments()
            .filter(|a| a.get_action().takes_values())
            .map(|a| a.get_id().clone())
            .collect();
        for id in ids {
            cmd = cmd.mut_arg(id, |a| a.allow_negative_numbers(true));
        }
        let subs: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
        for s in subs {
            cmd = cmd.mut_subcommand(s, negative_numbers);
        }
        cmd
    }
    negative_numbers(Cli::command())
}

fn main() -> ExitCode {
    // Output piped into `head` and the like: stop quietly when the reader
    // goes away, as command-line tools do, instead of failing to print.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let matches = command().get_matches_from(gm::dipwork_options(std::env::args_os()));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    for p in &cli.variants {
        if !p.exists() {
            eprintln!("dip: --variants {}: no such file or folder", p.display());
            return ExitCode::from(2);
        }
    }
    // Where every command finds its variants: passed in, never a static.
    let variants = &dip_play::Variants::with_search_paths(cli.variants.iter().cloned());
    if !cli.variants.is_empty() {
        // `--variant NAME` of any command: a bundled name may hide a
        // plugin's variant of the same name.
        let args: Vec<String> = std::env::args().collect();
        for (i, a) in args.iter().enumerate() {
            let value = match a.strip_prefix("--variant=") {
                Some(v) => Some(v),
                None if a == "--variant" => args.get(i + 1).map(String::as_str),
                None => None,
            };
            if let Some(v) = value {
                variant::warn_hidden(v, variants);
            }
        }
    }
    let result = match cli.command {
        Command::Adjudicate(a) => adjudicate::run(a, variants),
        Command::Cases(a) => cases::run(a, variants),
        Command::Bench(a) => bench::run(a, variants),
        Command::Orders(a) => orders::run(a, variants),
        Command::Variant(a) => variant::run(a, variants),
        Command::Render(a) => render::run(a, variants),
        Command::Animate(a) => render::animate(a, variants),
        Command::Replay(a) => replay::run(a, variants),
        Command::Run(a) => gm::run(a, variants),
        Command::Accept(a) => gm::accept(a, variants),
        Command::New(a) => gm::new(a, variants),
        Command::Orderview(a) => gm::orderview(a),
        Command::Menu(a) => gm::menu(a, variants),
        Command::Quake(a) => gm::quake(a, variants),
        Command::Record(a) => record::run(a, variants),
        Command::Rate(a) => rate::run(a),
        Command::Score(a) => rate::score(a),
        Command::Ratings(a) => rate::ratings(a),
        Command::Serve(a) => serve::run(a),
        Command::Board(a) => board::run(a, variants),
        Command::War(a) => war::run(a),
        Command::Daide(a) => daide::run(a, variants),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("dip: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod help_tests {
    /// Every subcommand and argument of the whole command tree, by path,
    /// that has no help text.
    fn without_help(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for a in cmd.get_arguments() {
            let hidden = a.is_hide_set();
            if !hidden && a.get_help().is_none() && a.get_long_help().is_none() {
                out.push(format!("{path} {}", a.get_id()));
            }
        }
        for s in cmd.get_subcommands() {
            let sub = format!("{path} {}", s.get_name());
            if !s.is_hide_set() && s.get_about().is_none() && s.get_long_about().is_none() {
                out.push(sub.clone());
            }
            without_help(s, &sub, out);
        }
    }

    #[test]
    fn every_subcommand_and_argument_has_help() {
        let mut missing = Vec::new();
        without_help(&super::command(), "dip", &mut missing);
        assert!(missing.is_empty(), "without help text:\n{}", missing.join("\n"));
    }

    #[test]
    fn the_walk_finds_a_missing_help_at_any_depth() {
        let c = clap::Command::new("x").about("x").subcommand(
            clap::Command::new("s")
                .arg(clap::Arg::new("n").long("n"))
                .subcommand(clap::Command::new("t").about("t")),
        );
        let mut missing = Vec::new();
        without_help(&c, "x", &mut missing);
        assert_eq!(missing, ["x s", "x s n"]);
    }
}
