//! Writes examples/game1905: a standard game from Spring 1901 to Winter
//! 1905, one game directory per turn, with order files written the way game
//! masters receive them (DipWork short forms, full names, DIP's brackets,
//! German words, typos, press, duplicates, a missing nation, one
//! three-phase turn), each turn run through `dip run --all` and accepted.
//!
//!     cargo run -p dip-game --example make-game1905
//!
//! Seeded: the same files every time.

#![forbid(unsafe_code)]

use dip_core::random::{random_orders, Rng};
use dip_core::{game, Map, Order, OrderKind, PhaseKind, State, UnitRef};
use dip_game::gamedir::{accept, new_game, run, Stages};
use std::path::Path;

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A province the way a player might write it.
fn place(map: &Map, p: dip_core::ProvinceId, coast: dip_core::CoastSpec, style: u64, rng: &mut Rng) -> String {
    let prov = map.province(p);
    let mut s = match style {
        1 => prov.name.clone(),
        2 if prov.name.len() > 6 && rng.below(3) == 0 => prov.name[..prov.name.len() - 1].to_string(), // a typo
        3 => prov.abbr.to_ascii_uppercase(),
        _ => cap(&prov.abbr),
    };
    if let dip_core::CoastSpec::Coast(r) = coast {
        if let Some(c) = &map.region(r).coast {
            s.push_str(&format!("({c})"));
        }
    }
    s
}

fn unit(map: &Map, u: &UnitRef, style: u64, rng: &mut Rng) -> String {
    let letter = u.kind.map(|k| map.unit_type(k).letter).unwrap_or('A');
    let word = match (style, letter) {
        (1, 'A') => "Army".to_string(),
        (1, _) => "Fleet".to_string(),
        (4, 'A') => "Armee".to_string(),
        (4, _) => "Flotte".to_string(),
        _ => letter.to_string(),
    };
    if style == 5 {
        format!("{letter}({})", place(map, u.province, u.coast, 0, rng))
    } else {
        format!("{word} {}", place(map, u.province, u.coast, style, rng))
    }
}

/// One order, messily.
fn messy(map: &Map, o: &Order, rng: &mut Rng) -> String {
    let style = [0, 0, 0, 1, 2, 3, 4, 5][rng.below(8)] as u64;
    let arrow = match style {
        1 => " - ",
        3 => " -> ",
        4 => " nach ",
        _ => "-",
    };
    let sup = if style == 1 { " supports " } else { " S " };
    let d = |d: &dip_core::Dest, rng: &mut Rng| place(map, d.province, d.coast, style, rng);
    match &o.kind {
        OrderKind::Hold(u) => format!(
            "{} {}",
            unit(map, u, style, rng),
            if style == 1 { "holds" } else { "H" }
        ),
        OrderKind::Move(u, to, via) => format!(
            "{}{arrow}{}{}",
            unit(map, u, style, rng),
            d(to, rng),
            if *via { " via convoy" } else { "" }
        ),
        OrderKind::SupportHold(u, t) => format!("{}{sup}{}", unit(map, u, style, rng), unit(map, t, style, rng)),
        OrderKind::SupportMove(u, t, to) => format!(
            "{}{sup}{}{arrow}{}",
            unit(map, u, style, rng),
            unit(map, t, style, rng),
            d(to, rng)
        ),
        OrderKind::Convoy(u, t, to) => format!(
            "{} C {}{arrow}{}",
            unit(map, u, style, rng),
            unit(map, t, style, rng),
            d(to, rng)
        ),
        OrderKind::Retreat(u, to) => format!("{} retreat {}", unit(map, u, 0, rng), d(to, rng)),
        OrderKind::Disband(u) => format!("{} disband", unit(map, u, 0, rng)),
        OrderKind::Build(u) => format!("Build {}", unit(map, u, 0, rng)),
        OrderKind::Waive => "waive".into(),
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905");
    let _ = std::fs::remove_dir_all(&root);
    let work = root.join("current");
    new_game(&work, "standard", "Example 1905", &dip_play::Variants::new()).expect("new game");
    let v = dip_variants::standard();
    let seed: u64 = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = Rng::with_seed(seed);
    let mut three_done = false;
    for turn in 0..16 {
        let g = dip_game::gamedir::GameDir::open(&work, None, &dip_play::Variants::new()).expect("open");
        let vocab = g.vocabulary().expect("words");
        let state: State = g.game.state(&vocab).expect("state");
        if state.phase.year > 1905 {
            break;
        }
        let (orders, three_phase) = turn_orders(&v, &state, !three_done, &mut rng);
        three_done |= three_phase;
        let text = orders_file(&v.map, &state, turn, three_phase, &orders, &mut rng);
        std::fs::write(work.join("ORDERS.TXT"), &text).expect("orders");
        let r = run(&work, &Stages::all(), None, &dip_play::Variants::new()).expect("run");
        keep_turn(&root, &work, turn, &state);
        println!("{}: {} messages", state.phase.short(), r.messages.len());
        accept(&work, &dip_play::Variants::new()).expect("accept");
    }
    remove_stage_files(&work);
}

/// Each power's orders of the turn that starts in `state`, written
/// messily, and whether it is played three-phase. A two-phase turn takes
/// its retreats and builds from the same file: the phases ahead are
/// played with random orders to know what to write. From 1902 on, the
/// first turn with a dislodgement (`may_be_three_phase` until then) is
/// played three-phase: a report after the moves, retreats next time.
fn turn_orders(
    v: &dip_variants::Variant,
    state: &State,
    may_be_three_phase: bool,
    rng: &mut Rng,
) -> (Vec<Vec<String>>, bool) {
    let map = &v.map;
    let mut orders_by_power: Vec<Vec<String>> = vec![Vec::new(); map.powers().len()];
    let mut s = state.clone();
    let mut three_phase = false;
    loop {
        let orders = random_orders(map, &s, &v.rules, rng);
        if may_be_three_phase && s.phase.year >= 1902 && s.phase.kind == PhaseKind::Movement {
            let out = game::adjudicate(map, &s, &orders, &v.rules);
            if let dip_core::PhaseOutcome::Movement(m) = &out {
                three_phase = m.dislodged.len() > m.disbanded.len();
            }
        }
        for o in &orders {
            orders_by_power[o.power.index()].push(messy(map, o, rng));
        }
        let out = game::adjudicate(map, &s, &orders, &v.rules);
        s = game::advance(map, &s, &out);
        if three_phase || s.phase.kind == PhaseKind::Movement {
            break;
        }
    }
    (orders_by_power, three_phase)
}

/// ORDERS.TXT as a game master receives it: nations named in full or by
/// two letters, an order sent twice now and then, press after an order,
/// and every fifth turn from the fourth a nation that sent nothing.
fn orders_file(
    map: &Map,
    state: &State,
    turn: usize,
    three_phase: bool,
    orders_by_power: &[Vec<String>],
    rng: &mut Rng,
) -> String {
    let mut text = format!(
        "YEAR {}\nZAT siehe Last Page\n",
        dip_game::gamefile::title_phase(&state.phase)
    );
    if three_phase {
        text.push_str("THREEPHASE ja\n");
    }
    let silent = if turn % 5 == 3 {
        Some(rng.below(map.powers().len()))
    } else {
        None
    };
    for (i, lines) in orders_by_power.iter().enumerate() {
        let nation = &map.power(dip_core::PowerId(i as u8)).name;
        let header = if rng.below(3) == 0 {
            nation[..2].to_string()
        } else {
            nation.clone()
        };
        text.push_str(&format!("NATION {header}\n"));
        if Some(i) == silent {
            continue; // no orders received
        }
        for (k, l) in lines.iter().enumerate() {
            text.push_str(l);
            text.push('\n');
            if k == 0 && rng.below(4) == 0 {
                text.push_str(l); // sent twice
                text.push('\n');
            }
        }
        if i == turn % 7 {
            if let Some(l) = lines.first() {
                let u: String = l.split(['-', ' ']).take(2).collect::<Vec<_>>().join(" ");
                text.push_str(&format!("{u} greets the pope\n"));
            }
        }
    }
    text.push_str("END\n");
    text
}

/// Keeps the turn as it was before accepting, in a folder of its own.
fn keep_turn(root: &Path, work: &Path, turn: usize, state: &State) {
    let dir = root.join(format!("{:02}-{}", turn + 1, state.phase.short()));
    std::fs::create_dir_all(&dir).expect("dir");
    for f in ["GAME.TXT", "ORDERS.TXT", "PLAIN.TXT", "ERRORS.TXT", "NEWGAME.TXT"] {
        std::fs::copy(work.join(f), dir.join(f)).expect("copy");
    }
}

/// The game directory itself is left as after the last turn, with its
/// record, without the last turn's stage files and reports.
fn remove_stage_files(work: &Path) {
    for f in [
        "SCANNED.TXT",
        "PARSED.TXT",
        "CONFLICTED.TXT",
        "WINTERED.TXT",
        "REPORT.md",
        "REPORT.html",
        "REPORT.json",
    ] {
        let _ = std::fs::remove_file(work.join(f));
    }
}
