//! One phase of a hosted game, without files: every power's order lines
//! read and checked as `dip run` reads ORDERS.TXT, adjudicated, and the
//! same report `dip run` prints, with every automatic change on a line of
//! its own (no orders received, disbanded retreats, waived builds, civil
//! disorder).
//!
//! The difference to DipWork's winterer: a dislodged unit without an order
//! disbands (no-moves-received), it gets no suggested retreat, since on a
//! server nobody is there to confirm the suggestion.

use crate::gamedir::{centers, in_nation_order, lines_of, no_retreat_lines};
use crate::gamefile::title_phase;
use crate::report::Report;
use dip_core::{PhaseKind, PhaseOutcome, PowerId, Ruleset, State};
use dip_play::{number_lines, play_lines, PlayOptions};
use dip_text::{Code, ReadLine, TurnReport, Vocabulary};

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
    dip_play::read_power_lines(vocab, power, text)
}

/// Plays the phase `state` is in from each power's order text, with
/// dip-play's pipeline (a server's options: no suggested retreats), and
/// makes its report. `header` names the game, the variant and the players
/// (left out of anonymous games).
pub fn play(
    vocab: &Vocabulary,
    rules: &Ruleset,
    state: &State,
    orders: &[(PowerId, String)],
    header: &ReportHeader,
) -> Played {
    let read: Vec<Vec<ReadLine>> = orders
        .iter()
        .map(|(power, text)| read_power_lines(vocab, *power, text).0)
        .collect();
    let lines = number_lines(read.iter().map(Vec::as_slice));
    let played = play_lines(vocab, rules, &PlayOptions::default(), state, &lines);
    let report = report_of(vocab.map(), &played, header);
    let dip_play::Played {
        check,
        outcome,
        next,
        winner,
        ..
    } = played;
    Played {
        check,
        outcome,
        next,
        report,
        winner,
    }
}

/// The report of one played phase, as `dip run` writes it.
pub fn report_of(map: &dip_core::Map, played: &dip_play::Played, header: &ReportHeader) -> Report {
    let mut table = Vec::new();
    lines_of(map, played, &mut table);
    let next = &played.next;
    let mut report = Report {
        game: header.game.clone(),
        variant: header.variant.clone(),
        season: title_phase(&played.state.phase),
        players: header.players.clone(),
        next: match played.winner {
            Some(w) => format!(
                "Game over: {} wins with {} centres",
                map.power(w).name,
                next.center_count(map, w)
            ),
            None => title_phase(&next.phase),
        },
        centers: centers(map, next),
        ..Report::default()
    };
    match played.state.phase.kind {
        PhaseKind::Movement => {
            report.orders = table;
            report.retreats = no_retreat_lines(map, played);
        }
        PhaseKind::Retreat => report.retreats = table,
        PhaseKind::Adjustment => report.builds = table,
    }
    in_nation_order(map, &mut report);
    report
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
