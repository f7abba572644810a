//! One phase of a hosted game, without files: every power's order lines
//! read and checked as `dip run` reads ORDERS.TXT, adjudicated, and the
//! same report `dip run` prints, with every automatic change on a line of
//! its own (no orders received, disbanded retreats, waived builds, civil
//! disorder).
//!
//! The difference to DipWork's winterer: a dislodged unit without an order
//! disbands (no-moves-received), it gets no suggested retreat, since on a
//! server nobody is there to confirm the suggestion.

use crate::gamedir::{centers, in_nation_order, lines_of, no_retreat_lines, PhaseRun};
use crate::gamefile::title_phase;
use crate::report::Report;
use dip_core::{game, Order, PhaseKind, PhaseOutcome, PowerId, Ruleset, State};
use dip_text::{check_turn, read_orders, CheckOptions, Code, ReadLine, TurnReport, Vocabulary};

/// A phase played: the checked lines, the outcome, the next position and
/// the report.
#[derive(Clone, Debug)]
pub struct Played {
    pub check: TurnReport,
    pub outcome: PhaseOutcome,
    pub next: State,
    pub report: Report,
    /// The winner after this phase, if the game is over.
    pub winner: Option<PowerId>,
}

/// One power's lines, read for that power: a line that names another
/// nation (`France: A par-bur`, or under `NATION France`) is refused.
/// Returns the lines to check and the refused ones (line number, text).
pub fn read_power_lines(vocab: &Vocabulary, power: PowerId, text: &str) -> (Vec<ReadLine>, Vec<(usize, String)>) {
    let mut keep = Vec::new();
    let mut refused = Vec::new();
    for mut l in read_orders(vocab, text, Some(power)) {
        if l.power.is_some_and(|p| p != power) {
            refused.push((l.line, l.text));
            continue;
        }
        l.power = Some(power);
        keep.push(l);
    }
    (keep, refused)
}

/// Plays the phase `state` is in from each power's order text.
/// `game_name` and `variant_title` go into the report's header; `players`
/// pairs nations with player names (left out of anonymous games).
pub fn play(
    vocab: &Vocabulary,
    rules: &Ruleset,
    state: &State,
    orders: &[(PowerId, String)],
    header: &ReportHeader,
) -> Played {
    let map = vocab.map();
    let mut lines: Vec<ReadLine> = Vec::new();
    for (power, text) in orders {
        let (mut keep, _) = read_power_lines(vocab, *power, text);
        // Line numbers stay unique across powers for the report's lookup.
        let base = lines.len() * 1000;
        for l in &mut keep {
            l.line += base;
        }
        lines.extend(keep);
    }
    let check = check_turn(vocab, state, rules, &CheckOptions::default(), &lines);
    let orders: Vec<Order> = check.orders();
    let outcome = game::adjudicate(map, state, &orders, rules);
    let next = game::advance(map, state, &outcome);
    let run = PhaseRun {
        state: state.clone(),
        check,
        outcome,
        suggested: Vec::new(),
        automatic: Vec::new(),
    };
    let mut table = Vec::new();
    lines_of(map, &run, &mut table);
    let winner = game::winner(map, &next);
    let mut report = Report {
        game: header.game.clone(),
        variant: header.variant.clone(),
        season: title_phase(&state.phase),
        players: header.players.clone(),
        next: match winner {
            Some(w) => format!(
                "Game over: {} wins with {} centres",
                map.power(w).name,
                next.center_count(map, w)
            ),
            None => title_phase(&next.phase),
        },
        centers: centers(map, &next),
        ..Report::default()
    };
    match state.phase.kind {
        PhaseKind::Movement => {
            report.orders = table;
            report.retreats = no_retreat_lines(map, &run);
        }
        PhaseKind::Retreat => report.retreats = table,
        PhaseKind::Adjustment => report.builds = table,
    }
    in_nation_order(map, &mut report);
    let PhaseRun { check, outcome, .. } = run;
    Played {
        check,
        outcome,
        next,
        report,
        winner,
    }
}

/// What the report's header names.
#[derive(Clone, Debug, Default)]
pub struct ReportHeader {
    pub game: String,
    pub variant: String,
    pub players: Vec<(String, String)>,
}

/// The report's automatic changes, one line each (`England: F Lon H: no
/// order received: holds`), for a section after the tables; empty when
/// every power ordered everything.
pub fn automatic_text(report: &Report) -> String {
    let mut out = String::new();
    for (_, table) in report.tables() {
        let automatic = [Code::MissingOrder.number(), Code::NoRetreat.number()];
        for l in table.iter().filter(|l| l.code.is_some_and(|c| automatic.contains(&c))) {
            out.push_str(&format!("{}: {}: {}\n", l.nation, l.order, l.note));
        }
    }
    if out.is_empty() {
        out
    } else {
        format!("\nNo orders received (automatic changes)\n{out}")
    }
}
