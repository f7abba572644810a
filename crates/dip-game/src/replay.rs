//! Re-adjudicating MILA games phase by phase and comparing with what the
//! saved game records: results of orders, dislodgements, and the next
//! phase's units and centres. An adapter of dip-play's `Game`: it reads
//! MILA's format (positions, orders with MILA's convoy conventions), plays
//! each phase through the game and compares what came of it.

use crate::mila::{SavedGame, SavedPhase, SavedState};
use dip_core::{
    movement::MovementOutcome, Dislodged, Map, Order, OrderKind, OrderReport, Phase, PhaseKind, PhaseOutcome, PowerId,
    ProvinceId, Ruleset, State, Unit, Verdict,
};
use dip_play::{Game, Loaded, PlayOptions, Played};
use dip_text::position::parse_unit_of;
use dip_text::{parse_order_with, Position, Vocabulary};
use dip_variants::Variant;
use std::collections::BTreeSet;
use std::sync::Arc;

/// One phase where dip and the saved game disagree.
#[derive(Clone, Debug)]
pub struct PhaseDiff {
    pub game: String,
    pub phase: String,
    /// The orders of the phase, as the file gives them.
    pub orders: Vec<String>,
    /// What differs: expected (the file) against actual (dip).
    pub problems: Vec<String>,
}

/// The outcome of replaying one game.
#[derive(Clone, Debug, Default)]
pub struct GameReplay {
    pub agree: usize,
    pub differ: Vec<PhaseDiff>,
}

/// `S1901M` → a phase. The year has any number of digits: `S1M` (as
/// [`Phase::short`] names the first spring of a map that starts in year 1)
/// and MILA's `S0001M` are the same phase. dip-core's one reader
/// ([`Phase::parse_short`]).
pub fn parse_phase_name(name: &str) -> Option<Phase> {
    Phase::parse_short(name)
}

fn power_of(map: &Map, name: &str) -> Result<PowerId, String> {
    map.find_power(name).ok_or_else(|| format!("unknown power `{name}`"))
}

/// The position a saved phase records (dislodged units get their attacker
/// from the previous phase's orders).
pub(crate) fn state_from(
    vocab: &Vocabulary,
    phase: &SavedPhase,
    previous: Option<&SavedPhase>,
) -> Result<State, String> {
    let map = vocab.map();
    let p = parse_phase_name(&phase.name).ok_or_else(|| format!("unknown phase name `{}`", phase.name))?;
    let mut position = Position::new(p);
    let mut dislodged = Vec::new();
    for (power, units) in &phase.state.units {
        let pw = power_of(map, power)?;
        for u in units {
            match u.strip_prefix('*') {
                Some(rest) => dislodged.push(parse_unit_of(vocab, Some(pw), rest)?),
                None => position.units.push(parse_unit_of(vocab, Some(pw), u)?),
            }
        }
    }
    for unit in dislodged {
        let at = map.province_of(unit.region);
        let (from, by_convoy) = attacker(vocab, previous, at).unwrap_or((at, false));
        position.dislodged.push(Dislodged {
            unit,
            attacker_from: from,
            by_convoy,
        });
    }
    position.owners = Some(owners(map, &phase.state)?);
    // A position the map cannot hold (two units in one province) is refused,
    // not trimmed to one it can: the game would no longer be the file's.
    State::from_position(map, &position).map_err(|e| {
        let what: Vec<String> = e.0.into_iter().map(|f| f.message).collect();
        format!("phase {}: {}", phase.name, what.join("; "))
    })
}

/// The saved centres; a centre not listed has no owner.
fn owners(map: &Map, s: &SavedState) -> Result<Vec<(PowerId, ProvinceId)>, String> {
    let mut out = Vec::new();
    for (power, centers) in &s.centers {
        let pw = power_of(map, power)?;
        for c in centers {
            let p = map.find_province(c).ok_or_else(|| format!("unknown centre `{c}`"))?;
            out.push((pw, p));
        }
    }
    Ok(out)
}

/// The province a successful move into `at` came from, in the phase before.
fn attacker(vocab: &Vocabulary, previous: Option<&SavedPhase>, at: ProvinceId) -> Option<(ProvinceId, bool)> {
    let map = vocab.map();
    let prev = previous?;
    for (power, orders) in &prev.orders {
        let pw = map.find_power(power)?;
        for text in orders.iter().flatten() {
            if let Ok(o) = parse_order_with(vocab, text, Some(pw)) {
                if let OrderKind::Move(u, d, via) = o.kind {
                    let key = unit_key(text);
                    let ok = prev.results.get(&key).is_none_or(|r| r.iter().all(|t| t.is_empty()));
                    if d.province == at && ok {
                        let adjacent = map.provinces_adjacent(u.province, at);
                        return Some((u.province, via || !adjacent));
                    }
                }
            }
        }
    }
    None
}

/// `A PAR - BUR` → `A PAR` (the key of MILA's results).
fn unit_key(order: &str) -> String {
    order.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// A chain of the given convoying provinces from `from` to `to`.
fn chain(map: &Map, fleets: &[ProvinceId], from: ProvinceId, to: ProvinceId) -> bool {
    let mut seen = vec![false; fleets.len()];
    let mut stack: Vec<usize> = (0..fleets.len())
        .filter(|&k| map.convoy_adjacent(from, fleets[k]))
        .collect();
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        if map.convoy_adjacent(fleets[k], to) {
            return true;
        }
        stack.extend((0..fleets.len()).filter(|&q| !seen[q] && map.convoy_adjacent(fleets[k], fleets[q])));
    }
    false
}

/// Orders of a saved phase, MILA's conventions applied: a move goes by
/// convoy when a complete chain of convoy orders is given for it and the
/// order says `VIA` or one of the fleets is the army's own; else over land.
pub(crate) fn orders_of(vocab: &Vocabulary, phase: &SavedPhase) -> Result<Vec<(String, Order)>, String> {
    let map = vocab.map();
    let mut out = Vec::new();
    for (power, orders) in &phase.orders {
        let pw = power_of(map, power)?;
        for text in orders.iter().flatten() {
            let o = parse_order_with(vocab, text, Some(pw)).map_err(|e| format!("order `{text}`: {e}"))?;
            out.push((text.clone(), o));
        }
    }
    let convoys: Vec<(PowerId, ProvinceId, ProvinceId, ProvinceId)> = out
        .iter()
        .filter_map(|(_, o)| match o.kind {
            OrderKind::Convoy(f, army, to) => Some((o.power, f.province, army.province, to.province)),
            _ => None,
        })
        .collect();
    for (_, o) in out.iter_mut() {
        if let OrderKind::Move(u, d, via) = o.kind {
            let mine: Vec<&(PowerId, ProvinceId, ProvinceId, ProvinceId)> = convoys
                .iter()
                .filter(|&&(_, _, a, t)| a == u.province && t == d.province)
                .collect();
            let fleets: Vec<ProvinceId> = mine.iter().map(|c| c.1).collect();
            let own = mine.iter().any(|c| c.0 == o.power);
            let convoyed = chain(map, &fleets, u.province, d.province) && (via || own);
            o.kind = OrderKind::Move(u, d, convoyed);
        }
    }
    Ok(out)
}

fn describe_units(map: &Map, state: &State) -> BTreeSet<String> {
    let name = |u: &Unit| {
        format!(
            "{} {} {}",
            map.power(u.power).name.to_ascii_uppercase(),
            map.unit_type(u.kind).letter,
            map.region_name(u.region).to_ascii_uppercase()
        )
    };
    let mut set: BTreeSet<String> = state.units().map(|(_, u)| name(&u)).collect();
    set.extend(state.all_dislodged().map(|(_, d)| format!("*{}", name(&d.unit))));
    set
}

fn describe_centers(map: &Map, state: &State) -> BTreeSet<String> {
    map.supply_centers()
        .iter()
        .filter_map(|&sc| {
            state.owner(sc).map(|o| {
                format!(
                    "{} {}",
                    map.power(o).name.to_ascii_uppercase(),
                    map.province(sc).abbr.to_ascii_uppercase()
                )
            })
        })
        .collect()
}

fn diff_sets(what: &str, want: &BTreeSet<String>, got: &BTreeSet<String>, problems: &mut Vec<String>) {
    if want != got {
        let missing: Vec<&String> = want.difference(got).collect();
        let extra: Vec<&String> = got.difference(want).collect();
        problems.push(format!(
            "{what}: file has {missing:?} that dip has not; dip has {extra:?} that the file has not"
        ));
    }
}

/// A retreat phase compared in full: the provinces closed by a standoff
/// (the empty destinations of bounced moves in the file; dip's standoffs),
/// and each dislodged unit's retreat options (the file's `retreats`).
fn compare_retreats(
    vocab: &Vocabulary,
    rules: &Ruleset,
    movement: &SavedPhase,
    next: &SavedPhase,
    ours: &State,
    problems: &mut Vec<String>,
) {
    let map = vocab.map();
    let theirs_standoffs = file_standoffs(vocab, movement, next);
    let ours_standoffs: BTreeSet<String> = ours
        .standoffs
        .iter()
        .map(|i| map.province(ProvinceId(i as u16)).abbr.to_ascii_uppercase())
        .collect();
    diff_sets("standoffs", &theirs_standoffs, &ours_standoffs, problems);
    // Retreat options, when the file lists them.
    if next.state.retreats.values().all(|m| m.is_empty()) && ours.all_dislodged().next().is_none() {
        return;
    }
    if next.state.retreats.is_empty() {
        return;
    }
    diff_sets(
        "retreat options",
        &file_retreat_options(next),
        &retreat_options(map, rules, ours),
        problems,
    );
}

/// The standoffs the file implies: a bounced move into a province left
/// empty after the moves.
fn file_standoffs(vocab: &Vocabulary, movement: &SavedPhase, next: &SavedPhase) -> BTreeSet<String> {
    let map = vocab.map();
    let mut standoffs = BTreeSet::new();
    for (power, orders) in &movement.orders {
        let Some(pw) = map.find_power(power) else { continue };
        for text in orders.iter().flatten() {
            let Ok(o) = parse_order_with(vocab, text, Some(pw)) else {
                continue;
            };
            if let OrderKind::Move(u, d, _) = o.kind {
                let tags = movement.results.get(&unit_key(text));
                let bounced = tags.is_some_and(|r| r.iter().any(|t| t == "bounce"));
                // A move that lost a head-to-head battle (its unit
                // dislodged by the unit of its destination) is no standoff
                // there (DATC 6.E.1), though the province is left empty.
                let lost_head_to_head = tags.is_some_and(|r| r.iter().any(|t| t == "dislodged"))
                    && moved_between(vocab, movement, d.province, u.province);
                if bounced && !lost_head_to_head && empty_after(vocab, next, d.province) {
                    standoffs.insert(map.province(d.province).abbr.to_ascii_uppercase());
                }
            }
        }
    }
    standoffs
}

/// Does the file's phase order a move from `from` to `to`?
fn moved_between(vocab: &Vocabulary, phase: &SavedPhase, from: ProvinceId, to: ProvinceId) -> bool {
    phase.orders.iter().any(|(power, orders)| {
        let pw = vocab.map().find_power(power);
        orders.iter().flatten().any(|t| {
            parse_order_with(vocab, t, pw)
                .is_ok_and(|x| matches!(x.kind, OrderKind::Move(v, e, _) if v.province == from && e.province == to))
        })
    })
}

/// No unit stands in `p` in the file's next phase (a dislodged unit,
/// `*A BUD`, does not count).
fn empty_after(vocab: &Vocabulary, next: &SavedPhase, p: ProvinceId) -> bool {
    let map = vocab.map();
    !next.state.units.iter().any(|(power, units)| {
        let pw = map.find_power(power);
        units
            .iter()
            .any(|u| !u.starts_with('*') && parse_unit_of(vocab, pw, u).is_ok_and(|u| map.province_of(u.region) == p))
    })
}

/// The file's retreat options: `A BUD -> GAL`, `A BUD -> (none)`.
fn file_retreat_options(next: &SavedPhase) -> BTreeSet<String> {
    let mut want = BTreeSet::new();
    for units in next.state.retreats.values() {
        for (unit, places) in units {
            let unit = unit.trim().to_ascii_uppercase();
            if places.is_empty() {
                want.insert(format!("{unit} -> (none)"));
            }
            for p in places {
                let p = p.trim().to_ascii_uppercase();
                let p = p.rsplit(' ').next().unwrap_or(&p).to_string();
                want.insert(format!("{unit} -> {p}"));
            }
        }
    }
    want
}

/// dip's retreat options for each dislodged unit, written as the file's.
fn retreat_options(map: &Map, rules: &Ruleset, ours: &State) -> BTreeSet<String> {
    let region = |r: dip_core::RegionId| map.region_name(r).to_ascii_uppercase();
    let mut got = BTreeSet::new();
    for (_, d) in ours.all_dislodged() {
        let unit = format!("{} {}", map.unit_type(d.unit.kind).letter, region(d.unit.region));
        let options = dip_core::retreat::retreat_options(map, ours, rules, &d);
        if options.is_empty() {
            got.insert(format!("{unit} -> (none)"));
        }
        for r in options {
            got.insert(format!("{unit} -> {}", region(r)));
        }
    }
    got
}

/// A retreat phase read from the file gets what only the movement before
/// it knows, from dip's adjudication of that movement: the provinces
/// closed by a standoff, and where each dislodged unit's attacker came
/// from (when dip dislodged the same unit).
fn carry_retreat_facts(map: &Map, before: &State, state: &mut State) {
    if state.phase.kind != PhaseKind::Retreat || before.phase != state.phase {
        return;
    }
    state.standoffs = before.standoffs.clone();
    let ours: Vec<(ProvinceId, Dislodged)> = before.all_dislodged().collect();
    for (p, d) in ours {
        if let Some(mut theirs) = state.dislodged(p).filter(|t| t.unit == d.unit) {
            theirs.attacker_from = d.attacker_from;
            theirs.by_convoy = d.by_convoy;
            state.set_dislodged(map, theirs);
        }
    }
}

/// The words MILA's orders and units are read with: the map's names,
/// exactly (no spelling check).
pub fn mila_words(variant: Arc<Variant>) -> Arc<Loaded> {
    Arc::new(Loaded::new_with(variant, |map, _| {
        Vocabulary::new(map).with_spellcheck(0)
    }))
}

/// Replays one game on `map` (see [`replay`]).
pub fn replay_game(map: &Map, rules: &Ruleset, g: &SavedGame) -> Result<GameReplay, String> {
    replay(&mila_words(Arc::new(Variant::of_map(map.clone()))), rules, g)
}

/// Replays one game: every phase with orders is played by a dip-play
/// [`Game`] from the file's own position, on the orders as MILA reads
/// them (adjudicated as read: each order's result is the adjudicator's),
/// and compared with the file. `loaded` is the map with MILA's words
/// ([`mila_words`]).
pub fn replay(loaded: &Arc<Loaded>, rules: &Ruleset, g: &SavedGame) -> Result<GameReplay, String> {
    let vocab = loaded.vocabulary();
    let mut out = GameReplay::default();
    let mut game = Game::new(loaded.clone()).with_rules(*rules).with_options(PlayOptions {
        as_read: true,
        ..PlayOptions::default()
    });
    // dip's own position after the phase before: a retreat phase takes its
    // standoffs and attackers, which the file does not record (DATC 6.H.6).
    let mut carried: Option<State> = None;
    for i in 0..g.phases.len().saturating_sub(1) {
        let (phase, next) = (&g.phases[i], &g.phases[i + 1]);
        let prev = i.checked_sub(1).map(|j| &g.phases[j]);
        let mut state = state_from(vocab, phase, prev)?;
        if let Some(before) = carried.take() {
            carry_retreat_facts(vocab.map(), &before, &mut state);
        }
        let orders = orders_of(vocab, phase)?;
        game.set_state(state);
        // Every power's orders, a line each in the file's order.
        game.submit_read(orders.iter().map(|(t, o)| (t.as_str(), *o)));
        let played = game.process();
        let problems = phase_problems(vocab, rules, phase, next, &orders, played)?;
        carried = Some(played.next.clone());
        if problems.is_empty() {
            out.agree += 1;
        } else {
            out.differ.push(PhaseDiff {
                game: g.id.clone(),
                phase: phase.name.clone(),
                orders: orders
                    .iter()
                    .map(|(t, o)| format!("{}: {t}", vocab.map().power(o.power).name))
                    .collect(),
                problems,
            });
        }
    }
    Ok(out)
}

/// Everything about a played phase that differs from the file: the
/// orders' results, the units dislodged, the next position.
fn phase_problems(
    vocab: &Vocabulary,
    rules: &Ruleset,
    phase: &SavedPhase,
    next: &SavedPhase,
    orders: &[(String, Order)],
    played: &Played,
) -> Result<Vec<String>, String> {
    let map = vocab.map();
    let mut problems = Vec::new();
    for ((text, _), report) in orders.iter().zip(played.outcome.orders()) {
        problems.extend(result_problem(
            map,
            &played.state,
            text,
            &file_tags(phase, text),
            report,
        ));
    }
    if let PhaseOutcome::Movement(m) = &played.outcome {
        compare_dislodged(map, phase, m, &mut problems);
    }
    let ours = &played.next;
    let theirs = state_from(vocab, next, Some(phase))?;
    compare_next(map, &theirs, ours, &mut problems);
    if ours.phase.kind == PhaseKind::Retreat && theirs.phase.kind == PhaseKind::Retreat {
        compare_retreats(vocab, rules, phase, next, ours, &mut problems);
    }
    Ok(problems)
}

/// The result tags the file gives an order's unit, without empty ones
/// and repeats.
fn file_tags<'a>(phase: &'a SavedPhase, text: &str) -> Vec<&'a str> {
    let mut tags: Vec<&str> = phase
        .results
        .get(&unit_key(text))
        .map(|v| v.iter().map(String::as_str).filter(|t| !t.is_empty()).collect())
        .unwrap_or_default();
    tags.dedup();
    tags
}

/// How one order's result differs from the file's tags, if it does:
/// only moves, supports and retreats are compared; an order for a unit
/// the position does not have must be void in the file.
fn result_problem(map: &Map, state: &State, text: &str, tags: &[&str], report: &OrderReport) -> Option<String> {
    let file_failed = tags
        .iter()
        .any(|t| matches!(*t, "bounce" | "cut" | "void" | "no convoy" | "disband"));
    let succeeded = matches!(report.verdict, Verdict::Done { success: true, .. });
    let comparable = matches!(
        report.order.kind,
        OrderKind::Move(..) | OrderKind::SupportHold(..) | OrderKind::SupportMove(..) | OrderKind::Retreat(..)
    );
    // MILA calls a support of a move into a province held by the
    // supporter's own power void; dip gives it (DATC 6.E.12: it can
    // still stop a third unit). The board shows whether it mattered.
    let own_target = match report.order.kind {
        OrderKind::SupportMove(_, _, d) => state.unit(d.province).is_some_and(|u| u.power == report.order.power),
        _ => false,
    };
    let same_label = own_target && tags == ["void"] && succeeded;
    // An order for a unit the position does not have (or has of
    // another power) that the file does not call void: the units
    // and the orders of the phase do not match.
    let no_unit = matches!(
        report.verdict,
        Verdict::Illegal(dip_core::Illegal::NoSuchUnit | dip_core::Illegal::ForeignUnit)
    );
    if no_unit && !tags.contains(&"void") {
        return Some(format!(
            "`{text}` of {}: the position has no such unit of {0}",
            map.power(report.order.power).name.to_ascii_uppercase()
        ));
    }
    (comparable && file_failed == succeeded && !same_label).then(|| {
        format!(
            "`{text}`: file says {}, dip says {}",
            if file_failed {
                format!("failed {tags:?}")
            } else {
                "succeeded".into()
            },
            verdict_words(report.verdict)
        )
    })
}

/// A verdict as the differences say it.
fn verdict_words(verdict: Verdict) -> String {
    match verdict {
        Verdict::Illegal(e) => format!("illegal ({})", e.describe()),
        Verdict::Duplicate => "void (duplicate)".into(),
        Verdict::Done { success, reason } => {
            format!("{} ({reason:?})", if success { "succeeded" } else { "failed" })
        }
    }
}

/// The units the file says the movement dislodged against dip's.
fn compare_dislodged(map: &Map, phase: &SavedPhase, m: &MovementOutcome, problems: &mut Vec<String>) {
    let want: BTreeSet<String> = phase
        .results
        .iter()
        .filter(|(_, t)| t.iter().any(|t| t == "dislodged"))
        .map(|(u, _)| u.clone())
        .collect();
    let got: BTreeSet<String> = m
        .dislodged
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                map.unit_type(d.unit.kind).letter,
                map.region_name(d.unit.region).to_ascii_uppercase()
            )
        })
        .collect();
    diff_sets("dislodged", &want, &got, problems);
}

/// The file's next position against dip's: the phase, units and centres.
fn compare_next(map: &Map, theirs: &State, ours: &State, problems: &mut Vec<String>) {
    if ours.phase != theirs.phase {
        problems.push(format!(
            "next phase: file has {}, dip has {}",
            theirs.phase.short(),
            ours.phase.short()
        ));
    }
    diff_sets(
        "units",
        &describe_units(map, theirs),
        &describe_units(map, ours),
        problems,
    );
    diff_sets(
        "centres",
        &describe_centers(map, theirs),
        &describe_centers(map, ours),
        problems,
    );
}
