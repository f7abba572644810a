//! `dip adjudicate POSITION ORDERS`: one phase, printed as a report.

use anyhow::Result;
use dip_core::{game, Ruleset, State, Verdict};
use dip_play::Variants;
use dip_text::{format_order, format_position, read_orders_strict, Style, Vocabulary};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The game: `start` (the variant's starting position), a position file
    /// (docs/position-format.md), a game directory, its GAME.TXT, a record
    /// (.rec), DIP's .dip files or a MILA game.
    position: std::path::PathBuf,
    /// Orders file: one order per line, `Power: order`, or under DipWork's
    /// `NATION` headers (the files `dip orders check` reads); `#` comments.
    /// Every line must be a clean order (no spelling corrections). A DIP
    /// `.dip` file gives its orders of the position's phase (DIP's Import).
    orders: std::path::PathBuf,
    /// Variant: a bundled name or a path.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Rules: a preset and/or KEY=VALUE options (docs/rules.md). Default:
    /// the game's own (a game directory's RULES and DipWork switches such
    /// as SELF_CUT_OK, a record's rules), else the variant's.
    #[arg(long)]
    rules: Option<String>,
    /// A phase of the game's record to adjudicate (`S1902M`, a number from
    /// 1, `last` for the position after the last phase): the record, a
    /// game directory's HISTORY.REC, DIP's .dip files or a MILA game.
    #[arg(long)]
    phase: Option<String>,
    /// DIP's renaming file (`fixnames.dat`: `default,new` a line): the new
    /// names are read in the orders.
    #[arg(long, value_name = "FILE")]
    fixnames: Option<std::path::PathBuf>,
    /// Also print the position after the phase.
    #[arg(long)]
    next: bool,
}

pub fn run(args: Args, variants: &Variants) -> Result<ExitCode> {
    // A position file, a game directory, GAME.TXT, a record or a MILA game.
    let opened = dip_game::source::open_at(&args.position, &args.variant, args.phase.as_deref(), variants)?;
    if let Some(n) = &opened.note {
        eprintln!("dip adjudicate: {n}");
    }
    let variant = opened.variant;
    let state = opened.state;
    let rules_of_game = opened.rules;
    let map = &variant.map;
    let rules = match &args.rules {
        Some(r) => Ruleset::parse(r)?,
        None => rules_of_game.unwrap_or(variant.rules),
    };
    let ord_name = args.orders.display().to_string();
    let ord_text = dip_game::source::read_orders_file(&args.orders, state.phase.kind).map_err(anyhow::Error::msg)?;
    // One vocabulary for the whole file, the reader of `dip orders check`.
    let mut vocab = Vocabulary::new(map).with_spellcheck(0);
    crate::fixnames::apply(&mut vocab, args.fixnames.as_deref())?;
    let orders = match read_orders_strict(&vocab, Some(&state), &ord_text) {
        Ok(o) => o,
        Err(errors) => {
            for e in errors {
                let col = if e.column > 0 {
                    format!(":{}", e.column)
                } else {
                    String::new()
                };
                eprintln!("{ord_name}:{}{col}: {}: `{}`", e.line, e.message, e.text);
            }
            return Ok(ExitCode::from(2));
        }
    };
    let mut game = dip_game::as_read::AsRead::on(map, rules);
    let played = game.play(&state, &orders);
    let (outcome, next) = (&played.outcome, &played.next);
    println!("{} — {}", variant.title, state.phase.long());
    println!();
    print_order_results(map, &state, outcome);
    print_removed_units(map, &state, outcome);
    print_next_phase(map, next);
    if args.next {
        println!();
        print!("{}", format_position(map, next));
    }
    Ok(ExitCode::SUCCESS)
}

/// Each power's orders with what became of them, each with the unit as
/// it stands (the rule `wrong-unit-type=valid` plays `A bre - pic` with
/// the fleet in Brest, and the report says so rather than show an army).
fn print_order_results(map: &dip_core::Map, state: &State, outcome: &dip_core::PhaseOutcome) {
    for power in map.power_ids() {
        let mine: Vec<_> = outcome.orders().iter().filter(|r| r.order.power == power).collect();
        if mine.is_empty() {
            continue;
        }
        println!("{}:", map.power(power).name);
        for r in mine {
            let (order, written) = as_played(state, &r.order, r.verdict);
            let text = format_order(map, &order, Style::Long);
            let text = text.split_once(": ").map(|(_, b)| b.to_string()).unwrap_or(text);
            let result = match r.verdict {
                Verdict::Illegal(e) => format!("illegal: {}", e.describe()),
                Verdict::Duplicate => "void: another order for this unit".into(),
                Verdict::Done { success: true, .. } => "succeeds".into(),
                Verdict::Done { success: false, reason } => format!("fails ({})", describe_reason(map, reason)),
            };
            let dis = if r.dislodged { ", dislodged" } else { "" };
            let typed = match written {
                Some(k) => format!(
                    " (written as {} {})",
                    article(&map.unit_type(k).name),
                    map.unit_type(k).name.to_lowercase()
                ),
                None => String::new(),
            };
            println!("  {text:<52} {result}{dis}{typed}");
        }
        println!();
    }
}

/// The order with its unit's type as the unit stands (a retreat's or a
/// disband's in a retreat phase: the dislodged unit), and the type written
/// when it was another; an order the rules refused for its type, or a
/// build, stays as written.
fn as_played(
    state: &State,
    order: &dip_core::Order,
    verdict: Verdict,
) -> (dip_core::Order, Option<dip_core::UnitTypeId>) {
    use dip_core::OrderKind::*;
    if matches!(verdict, Verdict::Illegal(dip_core::Illegal::WrongUnitType)) {
        return (*order, None);
    }
    let mut order = *order;
    let u = match &mut order.kind {
        Hold(u) | Move(u, ..) | SupportHold(u, _) | SupportMove(u, ..) | Convoy(u, ..) | Retreat(u, _) | Disband(u) => {
            u
        }
        Build(_) | Waive => return (order, None),
    };
    let standing = if state.phase.kind == dip_core::PhaseKind::Retreat {
        state.dislodged(u.province).map(|d| d.unit)
    } else {
        state.unit(u.province)
    };
    let Some(standing) = standing else {
        return (order, None);
    };
    let written = u.kind.filter(|&k| k != standing.kind);
    u.kind = Some(standing.kind);
    (order, written)
}

/// A unit's place as the orders above print it: `St Petersburg (sc)`,
/// not the abbreviation.
fn place_name(map: &dip_core::Map, r: dip_core::RegionId) -> String {
    let reg = map.region(r);
    let name = &map.province(reg.province).name;
    match &reg.coast {
        Some(c) => format!("{name} ({c})"),
        None => name.clone(),
    }
}

fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// Units dislodged in a movement phase, dislodged units disbanded for
/// want of a valid retreat, and those civil disorder removed in an
/// adjustment phase.
fn print_removed_units(map: &dip_core::Map, state: &State, outcome: &dip_core::PhaseOutcome) {
    if let dip_core::PhaseOutcome::Movement(m) = outcome {
        for d in &m.dislodged {
            println!(
                "Dislodged: {} {} {} (attacked from {})",
                map.power(d.unit.power).adjective,
                map.unit_type(d.unit.kind).name,
                place_name(map, d.unit.region),
                map.province(d.attacker_from).name
            );
        }
    }
    if let dip_core::PhaseOutcome::Retreat(r) = outcome {
        for (p, _) in &r.unordered {
            if let Some(d) = state.dislodged(*p) {
                println!(
                    "Disbanded: {} {} {} (no valid retreat order)",
                    map.power(d.unit.power).adjective,
                    map.unit_type(d.unit.kind).name,
                    place_name(map, d.unit.region)
                );
            }
        }
    }
    if let dip_core::PhaseOutcome::Adjustment(a) = outcome {
        for &p in &a.civil_disorder {
            if let Some(u) = state.unit(p) {
                println!(
                    "Civil disorder: {} {} {} removed (too few disbands)",
                    map.power(u.power).adjective,
                    map.unit_type(u.kind).name,
                    place_name(map, u.region)
                );
            }
        }
    }
}

/// The winner if there is one, the next phase, and before an adjustment
/// phase what each power must build or disband.
fn print_next_phase(map: &dip_core::Map, next: &State) {
    if let Some(w) = game::winner(map, next) {
        println!(
            "Game over: {} wins with {} supply centres ({} needed)",
            map.power(w).name,
            next.center_count(map, w),
            map.victory_centers()
        );
    }
    println!("Next phase: {}", next.phase.long());
    if next.phase.kind == dip_core::PhaseKind::Adjustment {
        for p in map.power_ids() {
            let b = dip_core::adjustment::balance(map, next, p);
            let centres = next.center_count(map, p);
            let units = next.units().filter(|(_, u)| u.power == p).count();
            let what = match b {
                0 => continue,
                b if b > 0 => format!("builds {b}"),
                b => format!("disbands {}", -b),
            };
            println!("  {}: {what} ({centres} centres, {units} units)", map.power(p).name);
        }
    }
}

fn describe_reason(map: &dip_core::Map, r: dip_core::Reason) -> String {
    use dip_core::Reason::*;
    match r {
        Bounced => "bounced".into(),
        BeatenHeadToHead => "lost head-to-head".into(),
        NoConvoy => "no convoy".into(),
        OwnUnit => "own unit there".into(),
        SupportCut(p) => format!("cut from {}", map.province(p).name),
        SupportVoid => "void: no such order".into(),
        ConvoyVoid => "void: no such move".into(),
        ConvoyDisrupted => "disrupted".into(),
        ConvoyParadox => "paradox: treated as hold".into(),
        Dislodged(p) => format!("dislodged from {}", map.province(p).name),
        RetreatClash => "retreat clash: disbanded".into(),
        NotExecuted => "not executed".into(),
        other => format!("{other:?}").to_ascii_lowercase(),
    }
}
