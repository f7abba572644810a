//! Playing a case: an adapter of dip-play's `Game`. The case's position
//! and rules make the game; each step's lines are read as the case's
//! format reads them and submitted to it, the game processes the phase
//! (the orders adjudicated as read, so that each is reported), and what
//! came of it is compared with what the step expects.

use crate::run::{describe, explain, setup, unit_line, word};
use crate::{Case, Expected, Line, Step};
use dip_core::{movement, retreat, PhaseOutcome, ProvinceId, Ruleset, State, Verdict};
use dip_play::{read_line, Game, Loaded, PlayOptions, Played};
use dip_text::{parse_order_and_path, Vocabulary};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Where a line is, for messages: `file:line`.
type Loc<'a> = &'a dyn Fn(&Line) -> String;

/// Plays `case` on `loaded` (the variant with the strict words cases are
/// read with) under `rules`, adding every difference to `failures`. An
/// error is a case that cannot be played on (a line that cannot be read).
pub(crate) fn play_case(
    loaded: &Arc<Loaded>,
    rules: Ruleset,
    case: &Case,
    failures: &mut Vec<String>,
) -> Result<(), String> {
    // A peer's file may misspell a province (never a power).
    let lenient;
    let vocab = if case.lenient_names {
        lenient = Vocabulary::new(loaded.map()).with_nation_spelling(false);
        &lenient
    } else {
        loaded.vocabulary()
    };
    let loc = |l: &Line| format!("{}:{}", case.file, l.number);
    let start = setup(vocab, case).map_err(|(l, e)| format!("{}: {e}", loc(&l)))?;
    let mut game = Game::from_state(loaded.clone(), start)
        .with_rules(rules)
        .with_options(PlayOptions {
            as_read: true,
            ..PlayOptions::default()
        });
    for step in &case.steps {
        submit_step(&mut game, vocab, case, step, &loc)?;
        let played = game.process();
        check_orders(vocab, step, played, &loc, failures);
        check_civil_disorder(vocab, step, played, failures);
        let after = after_moves(vocab, played);
        check_post_units(vocab, step, &after, &loc, failures)?;
        check_post_dislodged(vocab, &rules, step, played, &after, &loc, failures)?;
    }
    Ok(())
}

/// Reads a step's order lines (in the position, for a peer's file with
/// misspelled names) and submits them, each with its written convoy path.
fn submit_step(game: &mut Game, vocab: &Vocabulary, case: &Case, step: &Step, loc: Loc) -> Result<(), String> {
    let placed = case.lenient_names.then(|| vocab.clone().with_position(game.state()));
    let reader = placed.as_ref().unwrap_or(vocab);
    let mut lines = Vec::with_capacity(step.orders.len());
    for ol in &step.orders {
        let text = &ol.line.text;
        let (o, path) = parse_order_and_path(reader, text, None)
            .map_err(|e| format!("{}: {}: `{text}`", loc(&ol.line), explain(vocab, text, e)))?;
        lines.push(read_line(ol.line.number, text, o, path));
    }
    let text: Vec<&str> = step.orders.iter().map(|ol| ol.line.text.as_str()).collect();
    game.submit_lines(&text.join("\n"), lines);
    Ok(())
}

/// The units the movement dislodged.
fn dislodged(vocab: &Vocabulary, outcome: &PhaseOutcome) -> Vec<ProvinceId> {
    match outcome {
        PhaseOutcome::Movement(m) => m
            .dislodged
            .iter()
            .map(|d| vocab.map().province_of(d.unit.region))
            .collect(),
        _ => Vec::new(),
    }
}

/// Each order's result against its line's expectation: succeeds, fails
/// or illegal (with the reason's code), and dislodged; with a strict
/// step, every dislodged unit must be marked on its line.
fn check_orders(vocab: &Vocabulary, step: &Step, played: &Played, loc: Loc, failures: &mut Vec<String>) {
    let map = vocab.map();
    let dislodged = dislodged(vocab, &played.outcome);
    let mut marked = Vec::new();
    for (ol, report) in step.orders.iter().zip(played.outcome.orders()) {
        let actual = match report.verdict {
            Verdict::Illegal(_) | Verdict::Duplicate => Expected::Illegal,
            Verdict::Done { success: true, .. } => Expected::Succeeds,
            Verdict::Done { success: false, .. } => Expected::Fails,
        };
        let unit_p = report.order.unit().map(|u| u.province);
        let was_dislodged = unit_p.is_some_and(|p| dislodged.contains(&p));
        if ol.dislodged {
            if let Some(p) = unit_p {
                marked.push(p);
            }
        }
        let why = match report.verdict {
            Verdict::Illegal(e) => format!("illegal: {}", e.describe()),
            Verdict::Duplicate => "void: another order for the unit".into(),
            Verdict::Done { reason, .. } => format!("{reason:?}"),
        };
        if let Some(exp) = ol.expected {
            if exp != actual {
                failures.push(format!(
                    "{}: `{}`: expected {}, got {} ({why})",
                    loc(&ol.line),
                    ol.line.text,
                    word(exp),
                    word(actual)
                ));
            }
        }
        if let (Some(want), Verdict::Illegal(got)) = (&ol.reason, report.verdict) {
            if got.code() != want {
                failures.push(format!(
                    "{}: `{}`: expected illegal {want}, got illegal {}",
                    loc(&ol.line),
                    ol.line.text,
                    got.code()
                ));
            }
        }
        if ol.dislodged && !was_dislodged {
            failures.push(format!(
                "{}: `{}`: expected dislodged, was not",
                loc(&ol.line),
                ol.line.text
            ));
        }
    }
    if step.strict_dislodged {
        for p in &dislodged {
            if !marked.contains(p) {
                let u = played.state.unit(*p).map(|u| describe(map, &u)).unwrap_or_default();
                failures.push(format!("{u} was dislodged, but no order line says `dislodged`"));
            }
        }
    }
}

/// The units civil disorder removed against those the step names.
fn check_civil_disorder(vocab: &Vocabulary, step: &Step, played: &Played, failures: &mut Vec<String>) {
    let Some(expected) = &step.civil_disorder else {
        return;
    };
    let map = vocab.map();
    let got: BTreeSet<String> = match &played.outcome {
        PhaseOutcome::Adjustment(a) => a
            .civil_disorder
            .iter()
            .filter_map(|&p| played.state.unit(p))
            .map(|u| describe(map, &u))
            .collect(),
        _ => BTreeSet::new(),
    };
    let want: BTreeSet<String> = expected
        .iter()
        .filter_map(|l| unit_line(vocab, &l.text).ok())
        .map(|u| describe(map, &u))
        .collect();
    if want != got {
        failures.push(format!(
            "civil disorder: expected to remove [{}], removed [{}]",
            list(want),
            list(got)
        ));
    }
}

/// The units a step's lines name (jDip's POSTSTATE and
/// POSTSTATE_DISLODGED), described.
fn named_units(vocab: &Vocabulary, lines: &[Line], loc: Loc) -> Result<BTreeSet<String>, String> {
    let mut want = BTreeSet::new();
    for l in lines {
        let u = unit_line(vocab, &l.text).map_err(|e| format!("{}: {e}", loc(l)))?;
        want.insert(describe(vocab.map(), &u));
    }
    Ok(want)
}

/// The units after the phase's moves (`after`, dislodged ones gone)
/// against the step's complete position.
fn check_post_units(
    vocab: &Vocabulary,
    step: &Step,
    after: &State,
    loc: Loc,
    failures: &mut Vec<String>,
) -> Result<(), String> {
    let Some(expected) = &step.post_units else {
        return Ok(());
    };
    let map = vocab.map();
    let want = named_units(vocab, expected, loc)?;
    let got: BTreeSet<String> = after.units().map(|(_, u)| describe(map, &u)).collect();
    if want != got {
        failures.push(format!(
            "position after the phase: expected [{}], got [{}]",
            list(want),
            list(got)
        ));
    }
    Ok(())
}

/// The units dislodged (those with somewhere to go, when the step says
/// so) against the step's list.
fn check_post_dislodged(
    vocab: &Vocabulary,
    rules: &Ruleset,
    step: &Step,
    played: &Played,
    after: &State,
    loc: Loc,
    failures: &mut Vec<String>,
) -> Result<(), String> {
    let Some(expected) = &step.post_dislodged else {
        return Ok(());
    };
    let map = vocab.map();
    let want = named_units(vocab, expected, loc)?;
    let got: BTreeSet<String> = match &played.outcome {
        PhaseOutcome::Movement(m) => m
            .dislodged
            .iter()
            .filter(|d| !step.retreating_only || !retreat::retreat_options(map, after, rules, d).is_empty())
            .map(|d| describe(map, &d.unit))
            .collect(),
        _ => BTreeSet::new(),
    };
    if want != got {
        failures.push(format!("dislodged: expected [{}], got [{}]", list(want), list(got)));
    }
    Ok(())
}

/// The position right after the phase's moves, before the next phase:
/// a movement's dislodged units still on the board as such.
fn after_moves(vocab: &Vocabulary, played: &Played) -> State {
    match &played.outcome {
        PhaseOutcome::Movement(m) => movement::apply(vocab.map(), &played.state, m),
        _ => played.next.clone(),
    }
}

fn list(set: BTreeSet<String>) -> String {
    set.into_iter().collect::<Vec<_>>().join(", ")
}
