//! `dip orders check`: read a turn's orders as people write them, check
//! them against the position, print the standard orders and every problem.
//! `dip orders bench`: how long reading and checking a turn takes.

use anyhow::{Context, Result};
use dip_core::random::{random_orders, Rng};
use dip_core::{Order, OrderKind, Ruleset, State, Unit};
use dip_play::Variants;
use dip_text::{format_order_in, read_turn, CheckOptions, Fate, Style, Vocabulary};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Read and check one turn's orders: standard orders, every problem
    /// with line and column; exit 1 if an order was changed or deleted.
    Check(CheckArgs),
    /// Measure reading and checking a turn of 34 orders.
    Bench(BenchArgs),
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Orders file: one order per line (`Power: order`, or under DipWork's
    /// `NATION` headers); `#` comments. A DIP `.dip` file gives its orders
    /// of the position's phase (DIP's Import).
    orders: std::path::PathBuf,
    /// The game: `start` (the variant's starting position), a position file
    /// (docs/position-format.md), a game directory, its GAME.TXT, a record
    /// (.rec), DIP's .dip files or a MILA game.
    #[arg(long)]
    state: std::path::PathBuf,
    /// A phase of the game's record to check the orders against (`S1902M`,
    /// a number from 1, `last` for the position after the last phase).
    #[arg(long)]
    phase: Option<String>,
    /// Variant: a bundled name or a path.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Rules: a preset and/or KEY=VALUE options (docs/rules.md). Default:
    /// the game's own, else the variant's.
    #[arg(long)]
    rules: Option<String>,
    /// SPELLCHECK: letters an unknown name must share with a known one (0: off).
    #[arg(long, default_value_t = 3)]
    spellcheck: usize,
    /// EXACT_MATCH: names must match in case too.
    #[arg(long)]
    exact_match: bool,
    /// NSU_CHECKING_OFF: no missing-order and no-such-unit checks.
    #[arg(long)]
    nsu_checking_off: bool,
    /// Accept orders for other nations' units.
    #[arg(long)]
    allow_foreign: bool,
    /// Nation of lines that name none (else the unit's owner).
    #[arg(long)]
    power: Option<String>,
    /// Style of the printed orders: datc, short, long, dip, mila.
    #[arg(long, default_value = "datc")]
    style: String,
    /// DIP's renaming file (`fixnames.dat`: `default,new` per line): the new
    /// names are read in orders and printed.
    #[arg(long, value_name = "FILE")]
    fixnames: Option<std::path::PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Timed repetitions (1 to 10000000).
    #[arg(long, default_value_t = 20000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    runs: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, variants: &Variants) -> Result<ExitCode> {
    match args.command {
        Sub::Check(a) => check(a, variants),
        Sub::Bench(a) => bench(a),
    }
}

fn check(args: CheckArgs, variants: &Variants) -> Result<ExitCode> {
    // A position file, a game directory, GAME.TXT, a record or a MILA game.
    let opened = dip_game::source::open_at(&args.state, &args.variant, args.phase.as_deref(), variants)?;
    if let Some(n) = &opened.note {
        eprintln!("dip orders check: {n}");
    }
    let variant = opened.variant;
    let state = opened.state;
    let map = &variant.map;
    // --rules, else the game's own (a game directory's switches), else the variant's.
    let rules = match &args.rules {
        Some(r) => Ruleset::parse(r)?,
        None => opened.rules.unwrap_or(variant.rules),
    };
    let style = Style::from_name(&args.style)
        .with_context(|| format!("unknown style `{}` (datc, short, long, dip, mila)", args.style))?;
    let ord_name = args.orders.display().to_string();
    let text = dip_game::source::read_orders_file(&args.orders, state.phase.kind).map_err(anyhow::Error::msg)?;
    let power = match &args.power {
        Some(p) => Some(map.find_power(p).with_context(|| format!("unknown power `{p}`"))?),
        None => None,
    };
    let mut vocab = Vocabulary::new(map)
        .with_exact_match(args.exact_match)
        .with_spellcheck(args.spellcheck);
    crate::fixnames::apply(&mut vocab, args.fixnames.as_deref())?;
    let opts = CheckOptions {
        nsu_checking_off: args.nsu_checking_off,
        allow_foreign: args.allow_foreign,
    };
    let report = read_turn(&vocab, &state, &rules, &opts, &text, power);
    let print = |o: &Option<Order>| match o {
        Some(o) => format_order_in(&vocab, &state, o, style),
        None => "(deleted)".to_string(),
    };
    if args.json {
        let lines: Vec<serde_json::Value> = report
            .lines
            .iter()
            .map(|l| {
                serde_json::json!({
                    "line": l.line,
                    "text": l.text,
                    "order": l.order.as_ref().map(|o| format_order_in(&vocab, &state, o, style)),
                    "fate": format!("{:?}", l.fate).to_lowercase(),
                    "press": l.press,
                    "notes": l.notes.iter().map(|n| serde_json::json!({
                        "code": n.code.number(),
                        "column": n.column,
                        "message": n.message,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({ "changed": report.any_changed(), "orders": lines })
        );
    } else {
        for l in &report.lines {
            let mark = match l.fate {
                Fate::Accepted => " ",
                Fate::Changed => "*",
                Fate::Deleted => "x",
                Fate::Inserted => "+",
            };
            let at = if l.line == 0 {
                "    ".to_string()
            } else {
                format!("{:>4}", l.line)
            };
            println!("{at} {mark} {}", print(&l.order));
            for n in &l.notes {
                if l.line == 0 {
                    println!("         {ord_name}: {n}");
                } else if n.column > 0 {
                    println!("         {ord_name}:{}:{}: {n}", l.line, n.column);
                } else {
                    println!("         {ord_name}:{}: {n}", l.line);
                }
            }
        }
        let errors = report.errors().count();
        if errors > 0 {
            println!();
            println!("Changed or deleted orders (ERRORS.TXT):");
            print!("{}", report.errors_text(&vocab, style));
        }
        let n = report.lines.iter().filter(|l| l.fate != Fate::Inserted).count();
        let inserted = report.lines.len() - n;
        println!();
        println!("{n} orders read, {errors} changed or deleted, {inserted} inserted");
    }
    Ok(if report.any_changed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The standard start and twelve more units: 34, every one ordered, the
/// lines written in turn in the DipWork, DATC, DIP and long styles.
fn bench_turn(map: &dip_core::Map, start: &State, rules: &Ruleset) -> (State, String) {
    let mut state = start.clone();
    let extra = [
        ("nth", 'F', 1),
        ("nwg", 'F', 1),
        ("eng", 'F', 2),
        ("mao", 'F', 2),
        ("bal", 'F', 3),
        ("hel", 'F', 3),
        ("adr", 'F', 0),
        ("ion", 'F', 4),
        ("bla", 'F', 6),
        ("gal", 'A', 0),
        ("ukr", 'A', 5),
        ("bur", 'A', 2),
    ];
    for (p, kind, power) in extra {
        let (Some(p), Some(kind)) = (map.find_province(p), map.find_unit_type(&kind.to_string())) else {
            continue;
        };
        let region = map.main_region(p);
        state.place(
            map,
            Unit {
                power: dip_core::PowerId(power),
                kind,
                region,
            },
        );
    }
    let mut rng = Rng::with_seed(34);
    let orders = random_orders(map, &state, rules, &mut rng);
    let styles = [Style::Short, Style::Datc, Style::Dip, Style::Long];
    let mut text = String::new();
    for (i, o) in orders.iter().enumerate() {
        let line = dip_text::format_order(map, o, styles[i % styles.len()]);
        text.push_str(&line);
        text.push('\n');
    }
    // A hold for any unit random play left unordered, so the turn is complete.
    for (p, u) in state.units() {
        if !orders.iter().any(|o| o.unit().is_some_and(|r| r.province == p)) {
            let o = Order::new(u.power, OrderKind::Hold(dip_core::UnitRef::new(Some(u.kind), p)));
            text.push_str(&dip_text::format_order(map, &o, Style::Datc));
            text.push('\n');
        }
    }
    (state, text)
}

#[derive(serde::Serialize)]
struct BenchReport {
    orders: usize,
    runs: usize,
    median_us: f64,
    p90_us: f64,
    vocabulary_us: f64,
}

fn bench(args: BenchArgs) -> Result<ExitCode> {
    let variant = dip_variants::standard();
    let map = &variant.map;
    let rules = variant.rules;
    let (state, text) = bench_turn(map, &variant.start, &rules);
    let t = Instant::now();
    let vocab = Vocabulary::new(map);
    let vocabulary_us = t.elapsed().as_secs_f64() * 1e6;
    let opts = CheckOptions::default();
    let mut samples = Vec::with_capacity(args.runs as usize);
    let mut orders = 0;
    for _ in 0..args.runs.max(1) {
        let t = Instant::now();
        let report = read_turn(&vocab, &state, &rules, &opts, &text, None);
        samples.push(t.elapsed().as_secs_f64() * 1e6);
        orders = report.lines.iter().filter(|l| l.fate != Fate::Inserted).count();
        std::hint::black_box(report);
    }
    samples.sort_by(f64::total_cmp);
    let pick = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    let r = BenchReport {
        orders,
        runs: samples.len(),
        median_us: pick(0.5),
        p90_us: pick(0.9),
        vocabulary_us,
    };
    if args.json {
        println!("{}", serde_json::to_string(&r)?);
    } else {
        println!(
            "turn               {} orders, {} units",
            r.orders,
            state.units().count()
        );
        println!("runs               {}", r.runs);
        println!("median             {:.2} µs to read and check the turn", r.median_us);
        println!("p90                {:.2} µs", r.p90_us);
        println!(
            "vocabulary         {:.1} µs to build (once per variant)",
            r.vocabulary_us
        );
    }
    Ok(ExitCode::SUCCESS)
}
