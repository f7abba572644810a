//! One phase adjudicated from checked lines (or, as an option, from the
//! orders as read), with DipWork's winterer as an option: a dislodged unit
//! without a usable retreat gets the right-hand rule's suggestion (reported
//! on a line of its own), or disbands when no retreat is open.

use crate::game::{PlayOptions, Played};
use crate::settle::{settle, Settled};
use dip_core::{retreat, CoastSpec, Dest, Map, Order, OrderKind, PhaseKind, PowerId, ProvinceId, State, UnitRef};
use dip_text::{check_turn, format_order, Code, Fate, ReadLine, Style, TurnReport, Vocabulary};

/// The turn so far, for the winterer's messages: the earlier phases'
/// checks and every line of the turn's orders.
pub(crate) struct TurnSoFar<'a> {
    pub earlier: &'a [&'a TurnReport],
    pub lines: &'a [ReadLine],
    /// The check of the phase's lines made when they were submitted, in
    /// the same position, when the phase reads exactly those lines (one
    /// submission for any nation): not made again.
    pub checked: Option<&'a TurnReport>,
}

/// Lines of this turn that were deleted and may have been meant for the
/// dislodged unit in `p` of `power`: its own retreat line that could not
/// be used, or a line of its nation whose unit could not be read
/// (`A Gxl-War`, 306), in this phase or an earlier one of the turn.
fn unusable_lines(now: &TurnReport, turn: &TurnSoFar, power: PowerId, p: ProvinceId) -> Vec<String> {
    let nation_of = |n: usize| turn.lines.iter().find(|l| l.line == n).and_then(|l| l.power);
    let this_phase = now.lines.iter().filter(|l| match l.read {
        Some(o) => o.power == power && o.unit().is_some_and(|u| u.province == p),
        None => nation_of(l.line) == Some(power),
    });
    let before = turn
        .earlier
        .iter()
        .flat_map(|c| c.lines.iter())
        .filter(|l| l.read.is_none() && nation_of(l.line) == Some(power));
    this_phase
        .chain(before)
        .filter(|l| l.line > 0 && l.order.is_none() && !l.press)
        .map(|l| {
            let why = l.worst().map(|c| format!(" [{}]", c.number())).unwrap_or_default();
            format!("line {} `{}`{why}", l.line, l.text)
        })
        .collect()
}

/// Why a dislodged unit has no retreat of its own: none received, or the
/// lines received could not be used.
fn no_retreat_why(unusable: &[String]) -> String {
    if unusable.is_empty() {
        "no retreat received".into()
    } else {
        format!("no usable retreat received ({} unusable)", unusable.join(", "))
    }
}

/// The orders a phase adjudicates, with the convoy path each wrote
/// (`paths[k]` for `orders[k]`; empty: none written).
struct ToAdjudicate {
    orders: Vec<Order>,
    paths: Vec<Vec<ProvinceId>>,
}

/// The orders as the parser left them: corrected, the ones that cannot be
/// given deleted, holds inserted for units without an order (not in a
/// retreat phase the winterer plays: it suggests their retreats).
fn checked_orders(check: &TurnReport, winterer: bool) -> ToAdjudicate {
    let orders: Vec<Order> = check
        .lines
        .iter()
        .filter(|l| !winterer || l.fate != Fate::Inserted)
        .filter_map(|l| l.order)
        .collect();
    ToAdjudicate {
        paths: Vec::new(),
        orders,
    }
}

/// The orders as read, each line's with its power and its written convoy
/// path, for the adjudicator to judge (`PlayOptions::as_read`).
fn read_orders(lines: &[ReadLine]) -> ToAdjudicate {
    let (orders, paths) = lines
        .iter()
        .filter_map(|l| Some((Order::new(l.power?, l.scanned.order?), l.scanned.path.clone())))
        .unzip();
    ToAdjudicate { orders, paths }
}

/// Checks `lines` against `state` and adjudicates them (as the parser
/// left them, or as read); with the winterer, its retreats for dislodged
/// units nobody ordered.
pub(crate) fn play_phase(
    vocab: &Vocabulary,
    rules: &dip_core::Ruleset,
    options: &PlayOptions,
    state: &State,
    lines: &[ReadLine],
    turn: &TurnSoFar,
) -> Played {
    let map = vocab.map();
    let check = match turn.checked {
        Some(c) => c.clone(),
        None => check_turn(vocab, state, rules, &options.check, lines),
    };
    let winterer = options.suggest_retreats && state.phase.kind == PhaseKind::Retreat;
    let ToAdjudicate { mut orders, paths } = if options.as_read {
        read_orders(lines)
    } else {
        checked_orders(&check, winterer)
    };
    let mut suggested = Vec::new();
    let mut automatic = Vec::new();
    if winterer {
        for (p, d) in state.all_dislodged() {
            if orders.iter().any(|o| o.unit().is_some_and(|u| u.province == p)) {
                continue;
            }
            let why = no_retreat_why(&unusable_lines(&check, turn, d.unit.power, p));
            let (o, line, note) = winterer_order(map, rules, state, p, &d, &why);
            suggested.push(line);
            automatic.push((o, Code::NoRetreat, note));
            orders.push(o);
        }
    }
    let Settled { outcome, next, winner } = settle(map, rules, state, &orders, &paths);
    Played {
        state: state.clone(),
        submissions: Vec::new(),
        continues_turn: false,
        check,
        outcome,
        next,
        suggested,
        automatic,
        messages: Vec::new(),
        winner,
    }
}

/// The winterer's order for a dislodged unit nobody ordered: the
/// right-hand rule's retreat, or a disband when none is open; with the
/// screen line and the report's note.
fn winterer_order(
    map: &Map,
    rules: &dip_core::Ruleset,
    state: &State,
    p: ProvinceId,
    d: &dip_core::Dislodged,
    why: &str,
) -> (Order, String, String) {
    let unit = UnitRef::new(Some(d.unit.kind), p);
    let unit_text = format_order(map, &Order::new(d.unit.power, OrderKind::Hold(unit)), Style::Report);
    let unit_text = unit_text.trim_end_matches(" H");
    let nation = &map.power(d.unit.power).name;
    let number = Code::NoRetreat.number();
    match retreat::suggested_retreat(map, state, rules, d) {
        Some(r) => {
            let to = map.province_of(r);
            let dest = if map.region(r).coast.is_some() {
                Dest::coast(to, r)
            } else {
                Dest::new(to)
            };
            let o = Order::new(d.unit.power, OrderKind::Retreat(unit, dest));
            let line = format!(
                "{nation}: {unit_text}: {why} ({number}); suggested by the right-hand rule: {}",
                format_order(map, &o, Style::Report)
            );
            (o, line, format!("{why}: suggested by the right-hand rule"))
        }
        None => {
            // Nowhere to go: disbanded, on a line of its own.
            let coast = if map.region(d.unit.region).coast.is_some() {
                CoastSpec::Coast(d.unit.region)
            } else {
                CoastSpec::None
            };
            let o = Order::new(d.unit.power, OrderKind::Disband(unit.with_coast(coast)));
            let line = format!("{nation}: {unit_text}: {why} ({number}); no retreat is open: disbanded");
            (o, line, format!("{why}; no retreat open: disbanded"))
        }
    }
}
